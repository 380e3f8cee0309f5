import type { JsonValue, TypedArray } from "@z/meta";
import { CFDatetime } from "./cf/cftime.js";
import { NAT } from "./cf/times.js";
import { Dataset } from "./dataset.js";
import { DatasetError } from "./errors.js";
import type { ValueData, Values } from "./values.js";
import { newVariable, type Variable } from "./variable.js";

/**
 * A variable given by its values: a typed array (its dtype from its type: `Float32Array` is
 * float32, `BigInt64Array` int64 unless `dtype` says `datetime64[ns]` or `timedelta64[ns]`,
 * `Uint8Array` uint8 unless `dtype` says `bool`, `Uint16Array` uint16 unless `float16`), or a JS
 * array of strings (`<U<n>`; `dtype: "object"` for vlen strings), booleans, numbers (float64),
 * bigints (int64), `Date`s (datetime64[ns]) or `CFDatetime`s (`null` for missing ones). `shape`
 * defaults to the data's length for one dimension, `[]` for none.
 */
export interface VariableSpec {
  readonly dims: string | readonly string[];
  readonly data: TypedArray | readonly unknown[] | Values;
  readonly shape?: readonly number[];
  readonly dtype?: string;
  readonly attrs?: Record<string, JsonValue>;
  /** How to store it, as xarray's `encoding` (`dtype`, `_FillValue`, `scale_factor`, `units`, `chunks`, ...). */
  readonly encoding?: Record<string, unknown>;
}

/** A dataset to build in memory (and write with `toZarr`), as `xr.Dataset(data_vars, coords, attrs)`. */
export interface DatasetSpec {
  readonly dataVars?: Readonly<Record<string, VariableSpec>>;
  readonly coords?: Readonly<Record<string, VariableSpec>>;
  readonly attrs?: Record<string, JsonValue>;
}

const isValues = (value: unknown): value is Values =>
  typeof value === "object" && value !== null && "data" in value && "shape" in value && "dtype" in value;

const TYPED_DTYPES: [new (...args: never[]) => TypedArray, string][] = [
  [Float32Array, "float32"],
  [Float64Array, "float64"],
  [Int8Array, "int8"],
  [Uint8Array, "uint8"],
  [Int16Array, "int16"],
  [Uint16Array, "uint16"],
  [Int32Array, "int32"],
  [Uint32Array, "uint32"],
  [BigInt64Array, "int64"],
  [BigUint64Array, "uint64"],
];

/** The values a spec gives, with their dtype. */
function valuesOf(name: string, spec: VariableSpec, dims: readonly string[]): Values {
  if (isValues(spec.data)) return spec.data;
  const data = spec.data;
  const length = (data as ArrayLike<unknown>).length;
  const shape = spec.shape ?? (dims.length === 0 ? [] : [length]);
  if (ArrayBuffer.isView(data)) {
    const natural = TYPED_DTYPES.find(([type]) => data instanceof type)?.[1];
    const dtype = spec.dtype ?? natural!;
    const allowed: Record<string, string[]> = {
      uint8: ["bool"],
      int64: ["datetime64[ns]", "timedelta64[ns]"],
      uint16: ["float16"],
      float32: ["complex64"],
      float64: ["complex128"],
    };
    if (dtype !== natural && !(allowed[natural!] ?? []).includes(dtype))
      throw new DatasetError(`${name}: a ${data.constructor.name} holds ${natural} values, not ${dtype}`, {
        variable: name,
      });
    return { data: data as TypedArray, shape, dtype };
  }
  const items = data as readonly unknown[];
  const present = items.filter((v) => v !== null && v !== undefined);
  const first = present[0];
  if (present.every((v) => typeof v === "string") && present.length > 0) {
    if (spec.dtype === "object") return { data: [...items], shape, dtype: "object" };
    if (present.length !== items.length) return { data: [...items], shape, dtype: "object" };
    const width = Math.max(1, ...items.map((s) => [...(s as string)].length));
    return { data: [...items], shape, dtype: spec.dtype ?? `<U${width}` };
  }
  if (first instanceof CFDatetime || (present.length === 0 && spec.dtype === "object"))
    return { data: [...items], shape, dtype: "object" };
  if (first instanceof Date) {
    const ns = BigInt64Array.from(items, (d) => (d instanceof Date ? BigInt(d.getTime()) * 1_000_000n : NAT));
    return { data: ns, shape, dtype: "datetime64[ns]" };
  }
  if (present.every((v) => typeof v === "boolean"))
    return { data: Uint8Array.from(items, (v) => (v ? 1 : 0)), shape, dtype: "bool" };
  if (present.every((v) => typeof v === "bigint"))
    return { data: BigInt64Array.from(items as bigint[]), shape, dtype: "int64" };
  if (present.every((v) => typeof v === "number"))
    return {
      data: Float64Array.from(items, (v) => (v === null || v === undefined ? NaN : (v as number))),
      shape,
      dtype: "float64",
    };
  throw new DatasetError(`${name}: cannot tell the dtype of values like ${String(first)}`, { variable: name });
}

/** A variable held in memory (see {@link VariableSpec}). */
export function createVariable(name: string, spec: VariableSpec): Variable {
  const dims = typeof spec.dims === "string" ? [spec.dims] : [...spec.dims];
  const values = valuesOf(name, spec, dims);
  const size = values.shape.reduce((a, b) => a * b, 1);
  const per = values.dtype.startsWith("complex") ? 2 : 1;
  if ((values.data as ValueData).length !== size * per)
    throw new DatasetError(
      `${name}: ${(values.data as ValueData).length / per} values for shape [${values.shape.join(", ")}]`,
      {
        variable: name,
      },
    );
  return newVariable({
    name,
    dims,
    dtype: values.dtype,
    attrs: { ...(spec.attrs ?? {}) },
    encoding: { ...(spec.encoding ?? {}) },
    source: { kind: "memory", values },
  });
}

/**
 * A dataset of values in memory, as `xr.Dataset(data_vars, coords, attrs)`: coordinates first,
 * then data variables; those named as their dimension are coordinates anyway.
 */
export function createDataset(spec: DatasetSpec): Dataset {
  const coords = Object.entries(spec.coords ?? {}).map(([name, v]) => createVariable(name, v));
  const data = Object.entries(spec.dataVars ?? {}).map(([name, v]) => createVariable(name, v));
  return new Dataset({
    variables: [...coords, ...data],
    coords: coords.map((v) => v.name),
    attrs: { ...(spec.attrs ?? {}) },
  });
}
