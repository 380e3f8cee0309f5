import { ReferenceStoreError } from "./errors.js";

// The part of Jinja's expression language reference sets use inside `{{ ... }}`: names, integer
// and string literals, + - * / // % ** and parentheses, with Python's semantics (`//` and `%`
// floor, `/` true division). kerchunk writes names only (`{{u}}`); `gen` entries add arithmetic
// (`{{ (i + 1) * 1000 }}`). Anything else is refused with a typed error rather than guessed at.

/** A value of an expression: a string, an integer (a `number`), or a float (Python's, from `/` or `1.5`). */
export type ExpressionValue = number | string | PyFloat;

/** A Python float: rendered as Python prints it (`5.0`, not `5`). */
export class PyFloat {
  constructor(readonly value: number) {}
  toString(): string {
    return Number.isInteger(this.value) ? this.value.toFixed(1) : String(this.value);
  }
}

/** How Jinja renders a value into text. */
export const render = (value: ExpressionValue): string => String(value);

type Token = { kind: "num" | "str" | "name" | "op"; text: string };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|'([^']*)'|"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|\/\/|[-+*/%()]))/y;

function tokenize(text: string, where: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (text.slice(at).trim() === "") break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (m === null) throw unsupported(text, where);
    at = TOKEN.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: "num", text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) tokens.push({ kind: "str", text: m[2] ?? m[3]! });
    else if (m[4] !== undefined) tokens.push({ kind: "name", text: m[4] });
    else tokens.push({ kind: "op", text: m[5]! });
  }
  return tokens;
}

function unsupported(text: string, where: string): ReferenceStoreError {
  return new ReferenceStoreError(
    "Z_REFERENCE_TEMPLATE",
    `${where}: {{${text}}} is not an expression this reader evaluates (names, numbers, strings, + - * / // % ** and parentheses)`,
  );
}

/** Evaluates the Jinja expression `text` (the inside of `{{ }}`) with `names`. */
export function evaluate(text: string, names: ReadonlyMap<string, ExpressionValue>, where: string): ExpressionValue {
  const tokens = tokenize(text, where);
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const isOp = (...ops: string[]): boolean => peek()?.kind === "op" && ops.includes(peek()!.text);

  const atom = (): ExpressionValue => {
    const t = tokens[i++];
    if (t === undefined) throw unsupported(text, where);
    if (t.kind === "num") return t.text.includes(".") ? new PyFloat(Number(t.text)) : Number(t.text);
    if (t.kind === "str") return t.text;
    if (t.kind === "name") {
      const value = names.get(t.text);
      if (value === undefined)
        throw new ReferenceStoreError(
          "Z_REFERENCE_TEMPLATE",
          `${where}: unknown template ${JSON.stringify(t.text)} in {{${text}}} (known: ${[...names.keys()].join(", ") || "none"})`,
        );
      return value;
    }
    if (t.text === "(") {
      const value = sum();
      if (!isOp(")")) throw unsupported(text, where);
      i++;
      return value;
    }
    if (t.text === "-" || t.text === "+") {
      const value = unary();
      if (typeof value === "string") throw typeError(t.text, value, value);
      return t.text === "+" ? value : typeof value === "number" ? -value : new PyFloat(-value.value);
    }
    throw unsupported(text, where);
  };
  // Python's precedence: ** binds tighter than unary minus on its left (-2 ** 2 == -4).
  const power = (): ExpressionValue => {
    const base = atom();
    if (!isOp("**")) return base;
    i++;
    return arithmetic("**", base, unary());
  };
  const unary = (): ExpressionValue => power();
  const product = (): ExpressionValue => {
    let value = unary();
    while (isOp("*", "/", "//", "%")) value = arithmetic(tokens[i++]!.text, value, unary());
    return value;
  };
  const sum = (): ExpressionValue => {
    let value = product();
    while (isOp("+", "-")) value = arithmetic(tokens[i++]!.text, value, product());
    return value;
  };
  const typeError = (op: string, a: ExpressionValue, b: ExpressionValue): ReferenceStoreError =>
    new ReferenceStoreError(
      "Z_REFERENCE_TEMPLATE",
      `${where}: {{${text}}}: cannot apply ${op} to ${JSON.stringify(a)} and ${JSON.stringify(b)}`,
    );
  const arithmetic = (op: string, a: ExpressionValue, b: ExpressionValue): ExpressionValue => {
    if (typeof a === "string" || typeof b === "string") {
      // Jinja (Python) concatenates strings with + and repeats them with *; nothing else.
      if (op === "+" && typeof a === "string" && typeof b === "string") return a + b;
      throw typeError(op, a, b);
    }
    // Python: int op int is an int (but / is always a float, and ** of a negative power), else a float
    const x = typeof a === "number" ? a : a.value;
    const y = typeof b === "number" ? b : b.value;
    if ((op === "/" || op === "//" || op === "%") && y === 0)
      throw new ReferenceStoreError("Z_REFERENCE_TEMPLATE", `${where}: {{${text}}}: division by zero`);
    const value =
      op === "+"
        ? x + y
        : op === "-"
          ? x - y
          : op === "*"
            ? x * y
            : op === "/"
              ? x / y
              : op === "//"
                ? Math.floor(x / y)
                : op === "%"
                  ? x - Math.floor(x / y) * y
                  : x ** y;
    const integer = typeof a === "number" && typeof b === "number" && op !== "/" && !(op === "**" && y < 0);
    return integer ? value : new PyFloat(value);
  };
  const value = sum();
  if (i !== tokens.length) throw unsupported(text, where);
  return value;
}
