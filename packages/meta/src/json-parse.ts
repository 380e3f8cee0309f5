import { MetadataError } from "./errors.js";
import { JsonFloat, type JsonValue } from "./json-value.js";

export interface ParseJsonOptions {
  /**
   * Wrap every number written with a fraction or an exponent (and `NaN`/`Infinity`) in `JsonFloat`,
   * so that writing the value back keeps `1.0` as `1.0` the way Python would. Off by default:
   * plain numbers are easier to use, and metadata fields do not need the distinction.
   */
  readonly keepFloats?: boolean;
}

/** Deeper nesting would overflow the JS stack; Python's own limit is about as deep. */
const MAX_DEPTH = 1000;

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses JSON the way Python's `json.loads` reads zarr metadata: strict JSON plus the bare tokens
 * `NaN`, `Infinity` and `-Infinity`; integers beyond the safe range become exact `bigint`s; a key
 * that appears twice keeps its last value. Anything else throws a `MetadataError` naming `key` and
 * the line and column where the text went wrong.
 */
export function parseJson(text: string | Uint8Array, key?: string, options: ParseJsonOptions = {}): JsonValue {
  let source: string;
  if (typeof text === "string") {
    source = text;
  } else {
    try {
      source = decoder.decode(text);
    } catch (cause) {
      throw new MetadataError(`${where(key)} is not valid UTF-8`, { key, cause });
    }
  }
  return new Parser(source, key, options.keepFloats ?? false).parseDocument();
}

function where(key: string | undefined): string {
  return key === undefined ? "JSON text" : `"${key}"`;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

class Parser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly key: string | undefined,
    private readonly keepFloats: boolean,
  ) {}

  parseDocument(): JsonValue {
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail("the end of the text");
    return value;
  }

  private parseValue(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail(`at most ${MAX_DEPTH} levels of nesting`);
    this.skipWhitespace();
    const c = this.text[this.pos];
    switch (c) {
      case "{":
        return this.parseObject(depth);
      case "[":
        return this.parseArray(depth);
      case '"':
        return this.parseString();
      case "t":
        return this.parseWord("true", true);
      case "f":
        return this.parseWord("false", false);
      case "n":
        return this.parseWord("null", null);
      case "N":
        return this.parseWord("NaN", this.float(NaN));
      case "I":
        return this.parseWord("Infinity", this.float(Infinity));
      case "-":
        if (this.text[this.pos + 1] === "I") return this.parseWord("-Infinity", this.float(-Infinity));
        return this.parseNumber();
      default:
        if (c !== undefined && c >= "0" && c <= "9") return this.parseNumber();
        return this.fail("a value");
    }
  }

  private parseObject(depth: number): JsonValue {
    const obj: Record<string, JsonValue> = {};
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return obj;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') this.fail("a property name in double quotes");
      const name = this.parseString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") this.fail("':' after a property name");
      this.pos++;
      const value = this.parseValue(depth + 1);
      // A plain assignment to "__proto__" would change the prototype instead of adding a key.
      if (name === "__proto__") {
        Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });
      } else {
        obj[name] = value;
      }
      this.skipWhitespace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === "}") return obj;
      if (c !== ",") this.fail("',' or '}' after a property value", -1);
    }
  }

  private parseArray(depth: number): JsonValue {
    const items: JsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === "]") return items;
      if (c !== ",") this.fail("',' or ']' after an array item", -1);
    }
  }

  private parseString(): string {
    const start = this.pos;
    this.pos++;
    let out = "";
    let run = this.pos;
    for (;;) {
      if (this.pos >= this.text.length) this.fail(`a closing '"' of the string opened at char ${start}`);
      const code = this.text.charCodeAt(this.pos);
      if (code === 0x22) {
        out += this.text.slice(run, this.pos);
        this.pos++;
        return out;
      }
      if (code < 0x20) this.fail("no control characters inside a string (escape them)");
      if (code !== 0x5c) {
        this.pos++;
        continue;
      }
      out += this.text.slice(run, this.pos);
      const esc = this.text[this.pos + 1];
      if (esc === "u") {
        const hex = this.text.slice(this.pos + 2, this.pos + 6);
        if (!HEX4.test(hex)) this.fail("four hex digits after '\\u'", 1);
        // Lone and paired surrogates alike are kept as UTF-16 units, as Python does.
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else {
        const simple = esc === undefined ? undefined : SIMPLE_ESCAPES[esc];
        if (simple === undefined) this.fail("a valid escape after '\\'");
        out += simple;
        this.pos += 2;
      }
      run = this.pos;
    }
  }

  private parseNumber(): JsonValue {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail("a value");
    const token = match[0];
    this.pos += token.length;
    if (match[1] !== undefined || match[2] !== undefined) return this.float(Number(token));
    const n = Number(token);
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n;
    return BigInt(token);
  }

  private parseWord<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail("a value");
    this.pos += word.length;
    return value;
  }

  private float(x: number): JsonValue {
    return this.keepFloats ? new JsonFloat(x) : x;
  }

  private skipWhitespace(): void {
    while (WHITESPACE.has(this.text.charCodeAt(this.pos))) this.pos++;
  }

  /** `shift` moves the reported position, e.g. back onto a delimiter already consumed. */
  private fail(expected: string, shift = 0): never {
    const at = Math.max(0, Math.min(this.pos + shift, this.text.length));
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    const found = at < this.text.length ? JSON.stringify(this.text[at]) : "the end of the text";
    throw new MetadataError(
      `${where(this.key)} is not valid JSON: expected ${expected} at line ${line} column ${column} (char ${at}), found ${found}`,
      { key: this.key },
    );
  }
}
