/**
 * Object arrays (dtype `|O`) in the fixtures: their elements travel as JSON (`values.json`,
 * `expected.json`, `sel-<i>.json`), encoded as `python/objects.py` documents: bytes as
 * `{"bytes": base64}`, vlen-array items as `{"array": [...], "dtype": "<i4"}`, JSON values as they are.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JsonFloat, parseDataType, typedArrayConstructor } from "@z/meta";
import type { CaseSpec } from "./fixtures.js";

export const isObjectCase = (spec: CaseSpec): boolean =>
  spec.dtype === "|O" || spec.dtype === "O" || spec.dtype === "object";

/** The case's object codec: its first filter. */
const objectCodec = (spec: CaseSpec): { id: string; dtype?: string } =>
  spec.filters![0] as unknown as { id: string; dtype?: string };

/** A JSON list of encoded elements from the case's directory. */
export const readElements = (dir: string, file: string): unknown[] =>
  JSON.parse(readFileSync(join(dir, file), "utf8")) as unknown[];

/** An element as our library takes it for writing. */
export function decodeElement(e: unknown, spec: CaseSpec): unknown {
  if (typeof e === "object" && e !== null && !Array.isArray(e)) {
    const tagged = e as { bytes?: string; array?: number[]; dtype?: string };
    if (tagged.bytes !== undefined) return new Uint8Array(Buffer.from(tagged.bytes, "base64"));
    if (tagged.array !== undefined && objectCodec(spec).id === "vlen-array") {
      const Typed = typedArrayConstructor(parseDataType(tagged.dtype!));
      const big = Typed === BigInt64Array || Typed === BigUint64Array;
      return (Typed as { from(values: unknown[]): unknown }).from(tagged.array.map((v) => (big ? BigInt(v) : v)));
    }
  }
  return e;
}

/** An element our library read, encoded as the generator encodes zarr-python's (for comparing). */
export function encodeElement(v: unknown, spec: CaseSpec): unknown {
  if (v instanceof JsonFloat) return v.value;
  if (typeof v === "bigint") return Number(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const codec = objectCodec(spec);
    const values = v as unknown as ArrayLike<number | bigint>;
    if (codec.id === "vlen-array") return { array: Array.from(values, Number), dtype: codec.dtype };
    return { bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
  }
  if (Array.isArray(v)) return v.map((x) => encodeElement(x, spec));
  if (typeof v === "object" && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encodeElement(x, spec)]));
  return v;
}
