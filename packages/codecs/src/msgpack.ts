/**
 * `@z/codecs/msgpack`: MessagePack as the Python `msgpack` package (1.0) packs and unpacks it for
 * numcodecs' MsgPack codec (`msgpack2`), for those who measure or check it on its own (as
 * `apps/bench/micro/msgpack.mjs` does). Values are mapped as `python-values.ts` describes;
 * extension types are `MsgpackExt`.
 *
 * @packageDocumentation
 */
import { JsonFloat } from "@z/meta";
import { pyFloat, pyInt } from "./python-values.js";

/** A MessagePack extension value (Python `msgpack.ExtType(code, data)`). */
export class MsgpackExt {
  constructor(
    readonly type: number,
    readonly data: Uint8Array,
  ) {}
}

export interface PackOptions {
  /** Floats as float32 (0xca) instead of float64 (0xcb). */
  readonly useSingleFloat: boolean;
  /** Bytes as bin (0xc4–0xc6) and str8 (0xd9) allowed; otherwise bytes are raw strs, without str8. */
  readonly useBinType: boolean;
}

export interface UnpackOptions {
  /** strs as bytes (`Uint8Array`) instead of decoded text. */
  readonly raw: boolean;
}

const MAX_DEPTH = 1024;
const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// ES2024's `String.prototype.isWellFormed` (Node 20, current browsers), many times faster than
// the pattern, which serves where it is missing.
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const wellFormed = (s: string): boolean =>
  isWellFormed !== undefined ? isWellFormed.call(s) : !LONE_SURROGATE.test(s);

class Writer {
  private buffer = new Uint8Array(256);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private reserve(n: number): number {
    if (this.length + n > this.buffer.length) {
      const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
      bigger.set(this.buffer.subarray(0, this.length));
      this.buffer = bigger;
      this.view = new DataView(bigger.buffer);
    }
    const at = this.length;
    this.length += n;
    return at;
  }

  byte(b: number): void {
    const at = this.reserve(1);
    this.buffer[at] = b;
  }
  u8(tag: number, v: number): void {
    const at = this.reserve(2);
    this.buffer[at] = tag;
    this.buffer[at + 1] = v;
  }
  u16(tag: number, v: number): void {
    const at = this.reserve(3);
    this.buffer[at] = tag;
    this.view.setUint16(at + 1, v);
  }
  u32(tag: number, v: number): void {
    const at = this.reserve(5);
    this.buffer[at] = tag;
    this.view.setUint32(at + 1, v);
  }
  big(tag: number, v: bigint, signed: boolean): void {
    const at = this.reserve(9);
    this.buffer[at] = tag;
    if (signed) this.view.setBigInt64(at + 1, v);
    else this.view.setBigUint64(at + 1, v);
  }
  f32(v: number): void {
    const at = this.reserve(5);
    this.buffer[at] = 0xca;
    this.view.setFloat32(at + 1, v);
  }
  f64(v: number): void {
    const at = this.reserve(9);
    this.buffer[at] = 0xcb;
    this.view.setFloat64(at + 1, v);
  }
  bytes(data: Uint8Array): void {
    const at = this.reserve(data.length);
    this.buffer.set(data, at);
  }
  result(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

function typeName(value: unknown): string {
  if (typeof value === "object" && value !== null) return (value as object).constructor?.name ?? "object";
  return typeof value;
}

/** `msgpack.packb(value, use_bin_type=..., use_single_float=...)`. */
export function msgpackPack(value: unknown, options: PackOptions): Uint8Array {
  const w = new Writer();
  const int = (v: bigint): void => {
    if (v < -(2n ** 63n) || v >= 2n ** 64n) throw new Error(`Integer value out of range: ${v}`);
    const n = Number(v);
    if (v < -32n) {
      if (v < -(2n ** 31n)) w.big(0xd3, v, true);
      else if (v < -(2n ** 15n)) w.u32(0xd2, n >>> 0);
      else if (v < -128n) w.u16(0xd1, n & 0xffff);
      else w.u8(0xd0, n & 0xff);
    } else if (v < 128n) w.byte(n & 0xff);
    else if (v < 256n) w.u8(0xcc, n);
    else if (v < 65536n) w.u16(0xcd, n);
    else if (v < 2n ** 32n) w.u32(0xce, n);
    else w.big(0xcf, v, false);
  };
  // The same choices for a safe integer without a bigint (one per integer packed costs ~5x).
  const safeInt = (n: number): void => {
    if (n < -32) {
      if (n < -(2 ** 31)) w.big(0xd3, BigInt(n), true);
      else if (n < -(2 ** 15)) w.u32(0xd2, n >>> 0);
      else if (n < -128) w.u16(0xd1, n & 0xffff);
      else w.u8(0xd0, n & 0xff);
    } else if (n < 128) w.byte(n & 0xff);
    else if (n < 256) w.u8(0xcc, n);
    else if (n < 65536) w.u16(0xcd, n);
    else if (n < 2 ** 32) w.u32(0xce, n);
    else w.big(0xcf, BigInt(n), false);
  };
  const header = (
    length: number,
    fix: number | undefined,
    fixMax: number,
    tags: readonly (number | undefined)[],
  ): void => {
    if (fix !== undefined && length <= fixMax) return w.byte(fix | length);
    const [t8, t16, t32] = tags;
    if (t8 !== undefined && length < 256) return w.u8(t8, length);
    if (length < 65536) return w.u16(t16!, length);
    if (length < 2 ** 32) return w.u32(t32!, length);
    throw new Error("object too large to pack");
  };
  const str = (bytes: Uint8Array): void => {
    header(bytes.length, 0xa0, 31, [options.useBinType ? 0xd9 : undefined, 0xda, 0xdb]);
    w.bytes(bytes);
  };
  const depths = new Set<object>();
  const pack = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) throw new Error("recursion limit exceeded");
    if (v === null || v === undefined) return w.byte(0xc0);
    switch (typeof v) {
      case "boolean":
        return w.byte(v ? 0xc3 : 0xc2);
      case "bigint":
        return int(v);
      case "number":
        if (Number.isSafeInteger(v)) {
          safeInt(v);
          return;
        }
        if (Number.isInteger(v)) return int(BigInt(v));
        return options.useSingleFloat ? w.f32(v) : w.f64(v);
      case "string":
        if (!wellFormed(v)) throw new Error("a str with a lone surrogate cannot be encoded as UTF-8");
        return str(utf8.encode(v));
      case "object":
        break;
      default:
        throw new Error(`can not serialize '${typeName(v)}' object`);
    }
    if (v instanceof JsonFloat) return options.useSingleFloat ? w.f32(v.value) : w.f64(v.value);
    if (v instanceof Uint8Array) {
      if (!options.useBinType) return str(v);
      header(v.length, undefined, 0, [0xc4, 0xc5, 0xc6]);
      return w.bytes(v);
    }
    if (v instanceof MsgpackExt) {
      const n = v.data.length;
      const fixed = ({ 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 } as Record<number, number>)[n];
      if (fixed !== undefined) w.byte(fixed);
      else header(n, undefined, 0, [0xc7, 0xc8, 0xc9]);
      w.byte(v.type & 0xff);
      return w.bytes(v.data);
    }
    if (depths.has(v)) throw new Error("recursion limit exceeded (the value contains itself)");
    depths.add(v);
    if (Array.isArray(v)) {
      header(v.length, 0x90, 15, [undefined, 0xdc, 0xdd]);
      for (const item of v as readonly unknown[]) pack(item, depth + 1);
    } else {
      const entries: [unknown, unknown][] =
        v instanceof Map
          ? [...(v as Map<unknown, unknown>)]
          : Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null
            ? Object.entries(v)
            : fail(`can not serialize '${typeName(v)}' object`);
      header(entries.length, 0x80, 15, [undefined, 0xde, 0xdf]);
      for (const [k, x] of entries) {
        pack(k, depth + 1);
        pack(x, depth + 1);
      }
    }
    depths.delete(v);
  };
  pack(value, 0);
  return w.result();
}

function fail(message: string): never {
  throw new Error(message);
}

/** MessagePack that `msgpack.unpackb` refuses. */
export class MsgpackDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MsgpackDecodeError";
  }
}

/**
 * `msgpack.unpackb(data, raw=...)` with msgpack 1.0's defaults: `strict_map_key` (map keys must
 * be strs or bytes), lists for arrays, the input's length as the limit of every length, and an
 * error for bytes after the value. Maps become plain objects (null prototype safe), or `Map`s when
 * a key is bytes.
 */
export function msgpackUnpack(data: Uint8Array, options: UnpackOptions): unknown {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const end = data.length;
  let pos = 0;
  const need = (n: number): number => {
    if (pos + n > end) throw new MsgpackDecodeError("Unpack failed: incomplete input");
    const at = pos;
    pos += n;
    return at;
  };
  const raw = (n: number): Uint8Array => {
    const at = need(n);
    return data.subarray(at, at + n);
  };
  const text = (n: number): string | Uint8Array => {
    if (n > end) throw new MsgpackDecodeError(`${n} exceeds max_str_len(${end})`);
    const bytes = raw(n);
    if (options.raw) return bytes.slice();
    try {
      return utf8Strict.decode(bytes);
    } catch {
      throw new MsgpackDecodeError("Unpack failed: a str is not valid UTF-8");
    }
  };
  const bin = (n: number): Uint8Array => {
    if (n > end) throw new MsgpackDecodeError(`${n} exceeds max_bin_len(${end})`);
    return raw(n).slice();
  };
  const array = (n: number, depth: number): unknown[] => {
    if (n > end) throw new MsgpackDecodeError(`${n} exceeds max_array_len(${end})`);
    if (n > end - pos) throw new MsgpackDecodeError("Unpack failed: incomplete input");
    // Sized at once (n is at most the bytes left, checked above): 2-3x faster than pushing.
    const out: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = value(depth + 1);
    return out;
  };
  const map = (n: number, depth: number): unknown => {
    if (n > Math.floor(end / 2)) throw new MsgpackDecodeError(`${n} exceeds max_map_len(${Math.floor(end / 2)})`);
    if (2 * n > end - pos) throw new MsgpackDecodeError("Unpack failed: incomplete input");
    const pairs: [unknown, unknown][] = [];
    let byteKeys = false;
    for (let i = 0; i < n; i++) {
      const key = value(depth + 1);
      if (typeof key !== "string" && !(key instanceof Uint8Array)) {
        throw new MsgpackDecodeError(`${typeName(key)} is not allowed for map key when strict_map_key=True`);
      }
      if (key instanceof Uint8Array) byteKeys = true;
      pairs.push([key, value(depth + 1)]);
    }
    if (byteKeys) return new Map(pairs);
    const object: Record<string, unknown> = {};
    for (const [k, v] of pairs) {
      // Only "__proto__" would not become a key of its own by assignment (much faster than defining).
      if (k === "__proto__") {
        Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
      } else object[k as string] = v;
    }
    return object;
  };
  const ext = (n: number): MsgpackExt => {
    if (n > end) throw new MsgpackDecodeError(`${n} exceeds max_ext_len(${end})`);
    const type = view.getInt8(need(1));
    return new MsgpackExt(type, raw(n).slice());
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new MsgpackDecodeError("Unpack failed: nested too deeply");
    const tag = data[need(1)]!;
    if (tag < 0x80) return tag;
    if (tag >= 0xe0) return tag - 256;
    if (tag < 0x90) return map(tag & 0x0f, depth);
    if (tag < 0xa0) return array(tag & 0x0f, depth);
    if (tag < 0xc0) return text(tag & 0x1f);
    switch (tag) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return bin(view.getUint8(need(1)));
      case 0xc5:
        return bin(view.getUint16(need(2)));
      case 0xc6:
        return bin(view.getUint32(need(4)));
      case 0xc7:
        return ext(view.getUint8(need(1)));
      case 0xc8:
        return ext(view.getUint16(need(2)));
      case 0xc9:
        return ext(view.getUint32(need(4)));
      case 0xca:
        return pyFloat(view.getFloat32(need(4)));
      case 0xcb:
        return pyFloat(view.getFloat64(need(8)));
      case 0xcc:
        return view.getUint8(need(1));
      case 0xcd:
        return view.getUint16(need(2));
      case 0xce:
        return view.getUint32(need(4));
      case 0xcf:
        return pyInt(view.getBigUint64(need(8)));
      case 0xd0:
        return view.getInt8(need(1));
      case 0xd1:
        return view.getInt16(need(2));
      case 0xd2:
        return view.getInt32(need(4));
      case 0xd3:
        return pyInt(view.getBigInt64(need(8)));
      case 0xd4:
        return ext(1);
      case 0xd5:
        return ext(2);
      case 0xd6:
        return ext(4);
      case 0xd7:
        return ext(8);
      case 0xd8:
        return ext(16);
      case 0xd9:
        return text(view.getUint8(need(1)));
      case 0xda:
        return text(view.getUint16(need(2)));
      case 0xdb:
        return text(view.getUint32(need(4)));
      case 0xdc:
        return array(view.getUint16(need(2)), depth);
      case 0xdd:
        return array(view.getUint32(need(4)), depth);
      case 0xde:
        return map(view.getUint16(need(2)), depth);
      case 0xdf:
        return map(view.getUint32(need(4)), depth);
      default:
        throw new MsgpackDecodeError(`Unpack failed: 0x${tag.toString(16)} is not a MessagePack type`);
    }
  };
  const result = value(0);
  if (pos < end) throw new MsgpackDecodeError(`Unpack failed: ${end - pos} bytes of extra data after the value`);
  return result;
}
