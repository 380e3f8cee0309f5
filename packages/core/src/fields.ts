import { typedArrayConstructor, type DataType, type StructuredField, type TypedArray } from "@z/meta";
import { FieldError } from "./errors.js";
import { product } from "./nd-array.js";

/** Where selected fields sit in one element of the array, and what they make together. */
export interface FieldSelection {
  /** The result's dtype: the field's own for one name, a packed struct of the fields for a list. */
  readonly dtype: DataType;
  /** Dimensions a single subarray field adds after the selection's (`[]` otherwise). */
  readonly extraShape: readonly number[];
  /** Bytes the fields take per selected element (a subarray field counts all its values). */
  readonly bytes: number;
  /** Each field's bytes: at `from` in an array element, at `to` in a result element. */
  readonly parts: readonly {
    readonly from: number;
    readonly to: number;
    readonly size: number;
    readonly field: StructuredField;
  }[];
}

/** Resolves `fields` (a name or a list) against a structured dtype, as zarr-python's `check_fields`. */
export function selectFields(dtype: DataType, fields: string | readonly string[], key: string): FieldSelection {
  if (dtype.kind !== "structured")
    throw new FieldError(`fields can only be selected from a structured array; ${key} is not one`, { key });
  const find = (name: string): StructuredField => {
    const field = dtype.fields.find((f) => f.name === name);
    if (field === undefined) {
      throw new FieldError(
        `no field ${JSON.stringify(name)} in ${key}; fields are ${dtype.fields.map((f) => JSON.stringify(f.name)).join(", ")}`,
        { key },
      );
    }
    return field;
  };
  const size = (f: StructuredField): number => f.dtype.itemsize * product(f.shape);
  if (typeof fields === "string") {
    const field = find(fields);
    return {
      dtype: field.dtype,
      extraShape: field.shape,
      bytes: size(field),
      parts: [{ from: field.offset, to: 0, size: size(field), field }],
    };
  }
  if (fields.length === 0) throw new FieldError(`an empty list of fields selects nothing from ${key}`, { key });
  let to = 0;
  const parts = fields.map((name) => {
    const field = find(name);
    const part = { from: field.offset, to, size: size(field), field };
    to += part.size;
    return part;
  });
  return {
    dtype: { kind: "structured", itemsize: to, fields: parts.map((p) => ({ ...p.field, offset: p.to })) },
    extraShape: [],
    bytes: to,
    parts,
  };
}

/** The selected fields of `count` structured elements (little-endian bytes), as typed data of the result dtype. */
export function extractFields(
  struct: Uint8Array,
  count: number,
  itemsize: number,
  selection: FieldSelection,
): TypedArray {
  const outSize = selection.bytes;
  const out = new Uint8Array(count * outSize);
  for (let e = 0; e < count; e++) {
    for (const p of selection.parts) {
      const at = e * itemsize + p.from;
      out.set(struct.subarray(at, at + p.size), e * outSize + p.to);
    }
  }
  const Ctor = typedArrayConstructor(selection.dtype);
  return new Ctor(out.buffer, 0, out.length / Ctor.BYTES_PER_ELEMENT);
}
