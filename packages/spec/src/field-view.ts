/*
 * What TensorStore opens for a zarr dtype that is not a plain number: one field of a structured
 * dtype (`"field": "x"`), with its subarray dimensions appended to the array's; the characters of
 * `|S<n>` or the bytes of `|V<n>` as an innermost dimension of n; or a whole element's bytes
 * (`"open_as_void": true`). Each is an N-d array over the underlying `ZarrArray`.
 */
import {
  copyStrided,
  fillStrided,
  isSlice,
  normalizeBasicSelection,
  normalizeIntegerIndex,
  SelectionError,
  selectionView,
  type BasicSelection,
  type DimSelection,
  type DimSelectionItem,
  type StridedView,
} from "@z/indexing";
import {
  cStrides,
  dataTypeFromUser,
  typedArrayConstructor,
  valuesPerElement,
  type DataType,
  type TypedArray,
} from "@z/meta";
import { toWriteSource, type NdArray, type RunOptions, type ZarrArray } from "@z/core";

const product = (values: readonly number[]): number => values.reduce((a, b) => a * b, 1);

/** Options of a field view's `get` and `set`. */
export type FieldViewOptions = RunOptions;

/**
 * One field (or the raw bytes) of a zarr array as TensorStore presents it: the array's dimensions
 * then the field's (a structured field's subarray shape, then for `|S<n>`/`|V<n>` its n bytes).
 * Reads and writes take basic selections (integers, slices, `null`, `"..."`) over all of them.
 */
export class SpecFieldView {
  /** The array the view is of. */
  readonly array: ZarrArray;
  /** The field's name, or `undefined` for whole elements as bytes. */
  readonly field: string | undefined;
  /** The array's dimensions, then the field's. */
  readonly shape: readonly number[];
  /** The field's dimensions (the last ones of `shape`). */
  readonly fieldShape: readonly number[];
  /** TensorStore's name of the values' data type (`"uint16"`, `"char"`, `"byte"`). */
  readonly tsDtype: string;
  /** The data type of the values in results (`|u1` for characters and bytes). */
  readonly dtype: DataType;
  /** Bytes per element of a raw (`S`/`V`) field, whose bytes become the last dimension; 0 otherwise. */
  readonly #rawBytes: number;

  constructor(array: ZarrArray, field: string | undefined, fieldShape: readonly number[], tsDtype: string) {
    this.array = array;
    this.field = field;
    this.fieldShape = fieldShape;
    this.shape = [...array.shape, ...fieldShape];
    this.tsDtype = tsDtype;
    const base =
      field === undefined
        ? array.dtype
        : array.dtype.kind === "structured"
          ? array.dtype.fields.find((f) => f.name === field)!.dtype
          : array.dtype;
    const raw = field === undefined || base.kind === "S" || base.kind === "V";
    this.#rawBytes = raw ? base.itemsize : 0;
    this.dtype = raw ? dataTypeFromUser("|u1") : base;
  }

  get ndim(): number {
    return this.shape.length;
  }

  /** Reads a basic selection of the view. */
  async get(selection?: BasicSelection, options: FieldViewOptions = {}): Promise<NdArray> {
    const { outer, inner } = this.#split(selection);
    const whole = await this.#readWhole(outer, options);
    if (inner.every((s, j) => coversDim(s, this.fieldShape[j]!))) return whole;
    const view = selectionView(asView(whole), [...fullRanges(whole.shape, inner.length), ...inner]);
    return this.#copy(view);
  }

  /**
   * Writes `value` (a scalar, or an N-d array broadcast to the selection) into a basic selection.
   * A selection of part of the field's dimensions reads the field's values first (not atomic).
   */
  async set(selection: BasicSelection, value: unknown, options: FieldViewOptions = {}): Promise<void> {
    const { outer, inner } = this.#split(selection);
    const full = inner.every((s, j) => coversDim(s, this.fieldShape[j]!));
    if (full && this.#rawBytes === 0) {
      await this.array.setBasicSelection(outer, value, { ...options, fields: this.field });
      return;
    }
    const whole = await this.#readWhole(outer, options);
    const target = selectionView(asView(whole), [...fullRanges(whole.shape, inner.length), ...inner]);
    const key = this.array.path === "" ? "the array" : this.array.path;
    const source = toWriteSource(value, target.shape, this.dtype, key);
    const k = valuesPerElement(this.dtype);
    if (source.kind === "scalar") fillStrided(target, source.element as number | bigint, k);
    else copyStrided(target, source.view, k);
    const outerShape = whole.shape.slice(0, whole.shape.length - this.fieldShape.length);
    if (this.#rawBytes > 0) {
      // Raw bytes go back as elements of the underlying dtype (n bytes each).
      const extra = this.fieldShape.slice(0, -1);
      await this.array.set(
        outer,
        { data: whole.data, shape: [...outerShape, ...extra] },
        { ...options, fields: this.field },
      );
    } else {
      await this.array.setBasicSelection(
        outer,
        { data: whole.data, shape: whole.shape },
        { ...options, fields: this.field },
      );
    }
  }

  /** The selection split into the array's dimensions and the field's (normalized). */
  #split(selection: BasicSelection): { outer: DimSelectionItem[]; inner: DimSelection[] } {
    const items = normalizeBasicSelection(selection, this.shape);
    const rank = this.array.ndim;
    const inner = items.slice(rank).map((item, j): DimSelection => {
      const length = this.fieldShape[j]!;
      if (!isSlice(item)) return normalizeIntegerIndex(item, length, rank + j);
      const { start, stop, step } = sliceIndices(item.start, item.stop, item.step ?? 1, length);
      return { start, stop, step };
    });
    return { outer: items.slice(0, rank), inner };
  }

  /** The outer selection with the field's dimensions whole. */
  async #readWhole(outer: DimSelectionItem[], options: FieldViewOptions): Promise<NdArray> {
    const result = await this.array.getBasicSelection(outer, { ...options, fields: this.field });
    if (this.#rawBytes === 0) return result;
    const shape = [...result.shape, this.#rawBytes];
    const data = result.data as TypedArray;
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return { data: bytes, shape, strides: cStrides(shape), dtype: this.dtype };
  }

  #copy(view: StridedView<TypedArray>): NdArray {
    const k = valuesPerElement(this.dtype);
    const Ctor = typedArrayConstructor(this.dtype);
    const data = new Ctor(product(view.shape) * k);
    copyStrided({ data, offset: 0, shape: view.shape, strides: cStrides(view.shape) }, view, k);
    return { data, shape: view.shape, strides: cStrides(view.shape), dtype: this.dtype };
  }
}

const asView = (a: NdArray): StridedView<TypedArray> => ({
  data: a.data as TypedArray,
  offset: 0,
  shape: a.shape,
  strides: a.strides,
});

/** Whole ranges for the leading dimensions of `shape` (all but the last `inner`). */
const fullRanges = (shape: readonly number[], inner: number): DimSelection[] =>
  shape.slice(0, shape.length - inner).map((n) => ({ start: 0, stop: n, step: 1 }));

/** Python's `slice.indices(length)`. */
function sliceIndices(
  start: number | null,
  stop: number | null,
  step: number,
  length: number,
): { start: number; stop: number; step: number } {
  if (!Number.isInteger(step) || step === 0)
    throw new SelectionError(`slice step must be a non-zero integer, got ${step}`);
  const clamp = (x: number | null, fallback: number): number => {
    if (x === null) return fallback;
    const v = x < 0 ? x + length : x;
    return step > 0 ? Math.min(Math.max(v, 0), length) : Math.min(Math.max(v, -1), length - 1);
  };
  return step > 0
    ? { start: clamp(start, 0), stop: clamp(stop, length), step }
    : { start: clamp(start, length - 1), stop: clamp(stop, -1), step };
}

const coversDim = (s: DimSelection, length: number): boolean =>
  typeof s !== "number" && s.step === 1 && s.start === 0 && s.stop >= length;
