"""Helpers shared by the golden-case generators: selections written both as Python and as TypeScript."""


class S:
    """A slice as written in the TypeScript tests: S(stop) or S(start, stop, step)."""

    def __init__(self, *args):
        self.args = args

    def py(self):
        return slice(*self.args)

    def ts(self):
        return "slice(" + ", ".join(ts_value(a) for a in self.args) + ")"


ELL = "..."
UNDEFINED = object()


def ts_value(v):
    return "null" if v is None else str(v)


def py_item(item):
    if isinstance(item, S):
        return item.py()
    if item is None:
        return slice(None)
    if item == ELL:
        return Ellipsis
    return item


def ts_item(item):
    if isinstance(item, S):
        return item.ts()
    if item is None:
        return "null"
    if item == ELL:
        return "ELLIPSIS"
    return str(item)


def py_selection(sel):
    if sel is UNDEFINED:
        return ()
    if isinstance(sel, list):
        return tuple(py_item(i) for i in sel)
    return py_item(sel)


def ts_selection(sel):
    if sel is UNDEFINED:
        return "undefined"
    if isinstance(sel, list):
        return "[" + ", ".join(ts_item(i) for i in sel) + "]"
    return ts_item(sel)


def ts_list(xs):
    return "[" + ", ".join(str(x) for x in xs) + "]"
