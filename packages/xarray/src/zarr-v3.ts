// What xarray's zarr backend (xarray/backends/zarr.py, on zarr-python 3) does apart for Zarr v3
// arrays, read from its source: dimension names are the array's `dimension_names` (no
// `_ARRAY_DIMENSIONS` attribute); the codecs are reported as zarr-python 3's `Array` splits them
// (`filters` the array -> array codecs, `serializer` the array -> bytes one, `compressors` the
// bytes -> bytes ones; for a sharded array those inside the shard, its inner chunks as `chunks`
// and the shard shape as `shards`); and the Zarr `fill_value` is no mask
// (`use_zarr_fill_value_as_mask` defaults to False for v3): it is kept as `encoding["fill_value"]`,
// and a `_FillValue` attribute, written by `FillValueCoder` (floats as the base64 of a
// little-endian double), is what masks.
import type { ArrayMetadataV3, JsonValue, NamedConfig } from "@z/meta";
import type { ZarrArray } from "@z/core";
import { ComplexValue } from "./cf/mask.js";
import { kindOf } from "./dtype.js";
import { CFError, DatasetError } from "./errors.js";
import { ByteString } from "./values.js";

/** The v3 metadata of an array, or undefined for a v2 one. */
export const metadataV3 = (array: ZarrArray): ArrayMetadataV3 | undefined =>
  array.metadata.zarrFormat === 3 ? array.metadata : undefined;

/** `_get_zarr_dims_and_attrs` for v3: the array's `dimension_names`. */
export function dimensionNamesV3(meta: ArrayMetadataV3, name: string, key: string): string[] {
  const names = meta.dimensionNames ?? [];
  if (names.length !== meta.shape.length)
    throw new DatasetError(
      `${name}: no dimension_names, which xarray needs to know a Zarr v3 array's dimensions (${key})`,
      { key, variable: name },
    );
  const unnamed = names.indexOf(null);
  if (unnamed >= 0)
    throw new DatasetError(`${name}: dimension ${unnamed} has no name in dimension_names (${key})`, {
      key,
      variable: name,
    });
  return names as string[];
}

/** zarr-python 3's array -> bytes codecs (what its `serializer` is): the rest of a chain is before or after. */
const SERIALIZERS = new Set([
  "bytes",
  "vlen-utf8",
  "vlen-bytes",
  "sharding_indexed",
  "numcodecs.pcodec",
  "numcodecs.zfpy",
]);

const codecJson = (codec: NamedConfig): JsonValue =>
  codec.configuration === undefined ? { name: codec.name } : { name: codec.name, configuration: codec.configuration };

/** The encoding zarr-python 3's `Array` gives xarray: `chunks`, `shards`, `filters`, `serializer`, `compressors`. */
export function codecEncodingV3(meta: ArrayMetadataV3): Record<string, unknown> {
  const sharding = meta.codecs.length === 1 && meta.codecs[0]!.name === "sharding_indexed" ? meta.codecs[0] : undefined;
  const inner =
    sharding === undefined ? meta.codecs : ((sharding.configuration?.codecs ?? []) as unknown as NamedConfig[]);
  const at = inner.findIndex((c) => SERIALIZERS.has(c.name));
  const serializer = at < 0 ? null : codecJson(inner[at]!);
  return {
    chunks: sharding === undefined ? [...meta.chunkShape] : [...(sharding.configuration!.chunk_shape as number[])],
    shards: sharding === undefined ? null : [...meta.chunkShape],
    filters: (at < 0 ? [] : inner.slice(0, at)).map(codecJson),
    serializer,
    compressors: inner.slice(at + 1).map(codecJson),
  };
}

const DOUBLE = new DataView(new ArrayBuffer(8));

function doubleFromBase64(text: string): number | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  if (binary.length !== 8) return undefined;
  for (let i = 0; i < 8; i++) DOUBLE.setUint8(i, binary.charCodeAt(i));
  return DOUBLE.getFloat64(0, true);
}

function doubleToBase64(x: number): string {
  DOUBLE.setFloat64(0, x, true);
  let binary = "";
  for (let i = 0; i < 8; i++) binary += String.fromCharCode(DOUBLE.getUint8(i));
  return btoa(binary);
}

/**
 * `FillValueCoder.decode`: a `_FillValue` attribute as the value it stands for (floats and the
 * parts of complex numbers from base64 of a little-endian double, bytes from base64).
 */
export function decodeFillAttribute(value: unknown, dtype: string, name: string): unknown {
  const fail = (expected: string): CFError =>
    new CFError(
      `${name}: failed to decode _FillValue: expected ${expected} for dtype ${dtype}, got ${JSON.stringify(value)}`,
      {
        variable: name,
        attribute: "_FillValue",
      },
    );
  const kind = kindOf(dtype);
  switch (kind) {
    case "f": {
      const x = typeof value === "string" ? doubleFromBase64(value) : undefined;
      if (x === undefined) throw fail("the base64 of a float64");
      return x;
    }
    case "c": {
      const parts =
        Array.isArray(value) && value.length === 2
          ? value.map((v) => (typeof v === "string" ? doubleFromBase64(v) : undefined))
          : [];
      if (parts.length !== 2 || parts.some((p) => p === undefined)) throw fail("a list of two base64 float64s");
      return new ComplexValue(parts[0]!, parts[1]!);
    }
    case "b":
      return Boolean(value);
    case "i":
    case "u":
      if (typeof value !== "number" && typeof value !== "bigint") throw fail("an int or float");
      return typeof value === "number" ? Math.trunc(value) : value;
    case "S": {
      if (typeof value !== "string") throw fail("the base64 of bytes");
      return new ByteString(atob(value));
    }
    default:
      return typeof value === "string" ? value : String(value);
  }
}

/** `FillValueCoder.encode`: a `_FillValue` as the attribute xarray writes for a v3 array of `dtype`. */
export function encodeFillAttribute(value: unknown, dtype: string, name: string): JsonValue {
  const kind = kindOf(dtype);
  const number = (v: unknown): number => {
    if (typeof v === "number") return v;
    if (typeof v === "bigint") return Number(v);
    throw new CFError(
      `${name}: failed to encode _FillValue: expected int or float for dtype ${dtype}, got ${JSON.stringify(v)}`,
      {
        variable: name,
        attribute: "_FillValue",
      },
    );
  };
  switch (kind) {
    case "S":
      return btoa(value instanceof ByteString ? value.text : String(value));
    case "b":
      return Boolean(value);
    case "i":
    case "u":
      return typeof value === "bigint" ? Number(value) : Math.trunc(number(value));
    case "f":
      return doubleToBase64(number(value));
    case "c": {
      const c = value instanceof ComplexValue ? value : new ComplexValue(number(value), 0);
      return [doubleToBase64(c.re), doubleToBase64(c.im)];
    }
    default:
      return String(value);
  }
}
