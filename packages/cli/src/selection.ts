// numpy-style selection text (`0:10,::2`, `5`, `...,-1`, `:`, `::-1`) for basic selections:
// integers, slices with any non-zero step (negative too, as numpy and @z/core take them), and one
// ellipsis.

import { ELLIPSIS, slice, type BasicSelectionItem } from "@z/core";
import { CommandError, UsageError } from "./command.js";

const INTEGER = /^[+-]?\d+$/;

/** Parses selection text; `""` (or `[]`) selects everything. Syntax errors are `UsageError`s. */
export function parseSelection(text: string): BasicSelectionItem[] {
  let body = text.trim();
  if (body.startsWith("[") && body.endsWith("]")) body = body.slice(1, -1).trim();
  if (body === "") return [];
  const items = body.split(",").map((s) => s.trim());
  if (items.length > 1 && items[items.length - 1] === "") items.pop(); // `5,` as in Python
  return items.map((item, i) => parseItem(item, i, text));
}

function parseItem(item: string, i: number, text: string): BasicSelectionItem {
  const bad = (why: string): never => {
    throw new UsageError(`bad selection ${JSON.stringify(text)}: item ${i + 1} ${JSON.stringify(item)} ${why}`);
  };
  if (item === "..." || item === "Ellipsis") return ELLIPSIS;
  if (item === "") return bad("is empty (use : for a whole dimension)");
  if (INTEGER.test(item)) return integer(item, bad);
  const parts = item.split(":");
  if (parts.length === 1) return bad("is not an integer, a slice such as 2:10:2, or ...");
  if (parts.length > 3) return bad("has more than two colons");
  const [start, stop, step] = parts.map((p) => {
    const t = p.trim();
    if (t === "" || t === "None") return null;
    if (!INTEGER.test(t)) return bad(`has a slice bound ${JSON.stringify(t)} that is not an integer`);
    return integer(t, bad);
  });
  if (step === 0) bad("has a slice step of zero");
  return slice(start ?? null, stop ?? null, step ?? null);
}

function integer(text: string, bad: (why: string) => never): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) bad("is too large");
  return n;
}

/** One dimension of a resolved selection: an integer (the dimension is dropped) or a range. */
export type ResolvedDim =
  | { readonly kind: "index"; readonly index: number }
  | { readonly kind: "range"; readonly start: number; readonly step: number; readonly length: number };

/**
 * The selection applied to `shape`, as zarr-python resolves it: the ellipsis expanded, missing
 * trailing dimensions selected whole, negative indices counted from the end, slices clamped.
 * Errors are `CommandError`s (exit 1), as they depend on the array.
 */
export function resolveSelection(items: readonly BasicSelectionItem[], shape: readonly number[]): ResolvedDim[] {
  const ellipses = items.filter((x) => x === ELLIPSIS).length;
  if (ellipses > 1) throw new CommandError(`a selection can only have a single ellipsis ("..."), found ${ellipses}`);
  let expanded = [...items];
  if (ellipses === 1) {
    const at = items.indexOf(ELLIPSIS);
    const fill = new Array<BasicSelectionItem>(Math.max(shape.length - (items.length - 1), 0)).fill(null);
    expanded = [...items.slice(0, at), ...fill, ...items.slice(at + 1)];
  }
  if (expanded.length > shape.length) {
    throw new CommandError(
      `too many indices for array; expected ${shape.length}, got ${expanded.length} (array shape [${shape.join(", ")}])`,
    );
  }
  return shape.map((length, dim) => {
    const item = expanded[dim] ?? null;
    if (typeof item === "number") {
      const index = item < 0 ? item + length : item;
      if (index < 0 || index >= length)
        throw new CommandError(`index ${item} is out of bounds for dimension ${dim} with length ${length}`);
      return { kind: "index", index };
    }
    if (item === null || item === ELLIPSIS) return { kind: "range", start: 0, step: 1, length };
    const step = item.step ?? 1;
    const [start, stop] = sliceBounds(item.start, item.stop, step, length);
    const span = step > 0 ? stop - start : start - stop;
    return { kind: "range", start, step, length: span > 0 ? Math.ceil(span / Math.abs(step)) : 0 };
  });
}

/**
 * Python's `slice.indices(length)`: the start and stop of a slice on a dimension of `length`, with
 * negative bounds counted from the end and both clamped; for a negative step the stop may be -1
 * (before the first element), and the defaults run from the end backwards.
 */
function sliceBounds(start: number | null, stop: number | null, step: number, length: number): [number, number] {
  const [low, high] = step > 0 ? [0, length] : [-1, length - 1];
  const bound = (v: number | null, fallback: number): number => {
    if (v === null) return fallback;
    const at = v < 0 ? v + length : v;
    return Math.min(Math.max(at, low), high);
  };
  return [bound(start, step > 0 ? 0 : length - 1), bound(stop, step > 0 ? length : -1)];
}

/** The shape of what a resolved selection reads (integer dimensions dropped). */
export function selectionShape(dims: readonly ResolvedDim[]): number[] {
  return dims.flatMap((d) => (d.kind === "range" ? [d.length] : []));
}

/**
 * A resolved selection as items for `ZarrArray.get`, with some output dimensions cut to
 * `[from, to)` (`cuts[outDim]`; the others whole).
 */
export function toSelectionItems(
  dims: readonly ResolvedDim[],
  cuts: readonly (readonly [number, number] | undefined)[] = [],
): BasicSelectionItem[] {
  let out = -1;
  return dims.map((d) => {
    if (d.kind === "index") return d.index;
    out++;
    const [from, to] = cuts[out] ?? [0, d.length];
    if (to <= from) return slice(0, 0, 1); // nothing (a negative step's start may be -1 then)
    const stop = d.start + to * d.step;
    // a negative step ending before index 0: `None`, as -1 would count from the end
    return slice(d.start + from * d.step, stop < 0 ? null : stop, d.step);
  });
}
