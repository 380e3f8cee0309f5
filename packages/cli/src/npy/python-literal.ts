// The Python literals a `.npy` header holds, read as numpy's `safe_eval` reads them: a dict of
// strings, booleans, integers, tuples and lists.

/** A Python tuple (kept apart from lists: numpy's descr tells fields from shapes by it). */
export class PyTuple {
  constructor(readonly items: readonly PyValue[]) {}
}

export type PyValue = null | boolean | number | string | PyTuple | readonly PyValue[] | ReadonlyMap<PyValue, PyValue>;

export class PyLiteralError extends Error {}

/** Parses one Python literal (the whole text, surrounding whitespace allowed). */
export function parsePyLiteral(text: string): PyValue {
  const parser = new Parser(text);
  const value = parser.value();
  parser.space();
  if (parser.pos < text.length) parser.fail("the end of the header");
  return value;
}

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  space(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  fail(expected: string): never {
    const found = this.pos < this.text.length ? JSON.stringify(this.text.slice(this.pos, this.pos + 12)) : "the end";
    throw new PyLiteralError(`expected ${expected} at character ${this.pos}, found ${found}`);
  }

  value(): PyValue {
    this.space();
    const c = this.text[this.pos];
    if (c === "{") return this.dict();
    if (c === "[") return this.sequence("]");
    if (c === "(") {
      const { items, trailingComma } = this.items(")");
      // `(x)` is just x; `(x,)` and `()` are tuples.
      return items.length === 1 && !trailingComma ? items[0]! : new PyTuple(items);
    }
    if (c === "'" || c === '"') return this.string();
    if (c !== undefined && /[-+0-9]/.test(c)) return this.number();
    for (const [word, value] of [
      ["True", true],
      ["False", false],
      ["None", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos) && !/\w/.test(this.text[this.pos + word.length] ?? "")) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail("a Python literal");
  }

  sequence(close: string): PyValue[] {
    return this.items(close).items;
  }

  items(close: string): { items: PyValue[]; trailingComma: boolean } {
    this.pos++;
    const items: PyValue[] = [];
    let trailingComma = false;
    for (;;) {
      this.space();
      if (this.text[this.pos] === close) {
        this.pos++;
        return { items, trailingComma };
      }
      items.push(this.value());
      this.space();
      trailingComma = false;
      if (this.text[this.pos] === ",") {
        this.pos++;
        trailingComma = true;
      } else if (this.text[this.pos] !== close) this.fail(`',' or '${close}'`);
    }
  }

  dict(): Map<PyValue, PyValue> {
    this.pos++;
    const map = new Map<PyValue, PyValue>();
    for (;;) {
      this.space();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return map;
      }
      const key = this.value();
      this.space();
      if (this.text[this.pos] !== ":") this.fail("':'");
      this.pos++;
      map.set(key, this.value());
      this.space();
      if (this.text[this.pos] === ",") this.pos++;
      else if (this.text[this.pos] !== "}") this.fail("',' or '}'");
    }
  }

  number(): number {
    const match = /[-+]?\d+[lL]?/y;
    match.lastIndex = this.pos;
    const m = match.exec(this.text);
    if (m === null || /[.eEjJxX]/.test(this.text[this.pos + m[0].length] ?? "")) return this.fail("an integer");
    this.pos += m[0].length;
    const n = Number(m[0].replace(/[lL]$/, ""));
    if (!Number.isSafeInteger(n)) this.fail("an integer below 2^53");
    return n;
  }

  string(): string {
    const quote = this.text[this.pos]!;
    this.pos++;
    let out = "";
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined || c === "\n") this.fail(`a closing ${quote}`);
      this.pos++;
      if (c === quote) return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.text[this.pos++];
      const hex = (n: number): string => {
        const digits = this.text.slice(this.pos, this.pos + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) this.fail(`${n} hex digits`);
        this.pos += n;
        return String.fromCodePoint(parseInt(digits, 16));
      };
      switch (e) {
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "0":
          out += "\0";
          break;
        case "\\":
        case "'":
        case '"':
          out += e;
          break;
        case "x":
          out += hex(2);
          break;
        case "u":
          out += hex(4);
          break;
        case "U":
          out += hex(8);
          break;
        default:
          this.fail("a known escape");
      }
    }
  }
}
