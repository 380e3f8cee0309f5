import { open as openFile, readFile, type FileHandle } from "node:fs/promises";
import { create, OBJECT_CODEC_IDS, slice, type BasicSelectionItem, type ZarrArray } from "@z/core";
import {
  dataTypeToJSON,
  JsonFloat,
  parseDataType,
  parseJson,
  ZarrError,
  type CodecConfig,
  type DataType,
  type JsonValue,
} from "@z/meta";
import { ARRAY_FLAGS, ARRAY_FLAGS_HELP, dtypeFlag, objectCodecFlag } from "../array-options.js";
import { dtypeV3Flag, refuseV3Flags, v3TypeOf, zarrFormatFlag } from "../array-options-v3.js";
import type { Command, Io } from "../command.js";
import { CommandError, positionals, stringFlag, UsageError } from "../command.js";
import { canConvert, convertBytes, elementFromJson, writeElements } from "../elements.js";
import { dtypeText } from "../dtype-text.js";
import { bytesToTyped, product } from "../nd.js";
import { NPY_PREFIX_BYTES, npyDataBytes, npyDataOffset, parseNpyHeader, NpyError } from "../npy/index.js";
import { objectFromJson } from "../objects.js";
import { progressBar, type Progress } from "../progress.js";
import { planSlabs } from "../slabs.js";
import { withStore } from "../store-arg.js";
import { createArray, createOptionsFromFlags, describeCreatedV3 } from "../create-options.js";

/** What an input file holds: its dtype and shape, and a way to read its elements in slabs. */
interface Source {
  readonly dtype: DataType;
  readonly shape: readonly number[];
  readonly fortranOrder: boolean;
  /** An object array's codec, and its values in C order (what `read` gives for other dtypes). */
  readonly objects?: { readonly codec: CodecConfig; readonly values: readonly unknown[] };
  /** Element bytes (source dtype and order) of `count` elements starting at element `first`. */
  read(first: number, count: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

export const importCommand: Command = {
  name: "import",
  summary: "create an array from a .npy or .json file",
  usage:
    "zarr import FILE STORE [--path P] [--chunks 10,10] [--dtype D] [--compressor JSON] [--filters JSON] [--order C|F] [--fill-value JSON] [--dimension-separator .|/] [--attrs JSON] [--write-empty-chunks true|false] [--overwrite]\n       zarr import FILE STORE --zarr-format 3 [--path P] [--chunks 10,10] [--shards 100,100] [--codecs JSON] [--dtype D] [--fill-value JSON] [--dimension-names a,b] [--chunk-key-encoding default|v2] [--separator /|.] [--attrs JSON] [--write-empty-chunks true|false] [--overwrite]",
  details: `FILE is a .npy file (any version, any fixed-size dtype, C or Fortran order) or a .json file
{"shape": [...], "values": [...], "dtype": ...} with values flat in C order (as \`zarr export\` writes,
see \`zarr get --help\`: bytes, |S, |V and vlen-bytes, as base64;
"dtype" optional: booleans, integers, floats and strings are recognised; an object array's
"object_codec" says how its values are stored, unless --object-codec or --dtype str|bytes|array:<dtype>
does). Parent groups are created.
With --dtype the values are converted (as numpy's astype, but refusing values that do not fit).
${ARRAY_FLAGS_HELP}
  --format F                 npy or json, when FILE's extension says neither
The default order is the file's (F for a Fortran-order .npy).`,
  flags: { ...ARRAY_FLAGS, format: "string" },
  async run(args, io) {
    const [file, location] = positionals(args, 2, 2, "FILE STORE");
    const format =
      stringFlag(args, "format") ?? (/\.npy$/i.test(file!) ? "npy" : /\.json$/i.test(file!) ? "json" : undefined);
    if (format !== "npy" && format !== "json")
      throw new UsageError(`cannot tell the format of ${file}: name it *.npy or *.json, or pass --format npy|json`);
    const zarrFormat = zarrFormatFlag(args);
    if (zarrFormat === 2) refuseV3Flags(args);
    const requestedV3 = zarrFormat === 3 ? dtypeV3Flag(args) : undefined;
    const requested = zarrFormat === 3 ? requestedV3?.dtype : dtypeFlag(args);
    const flagCodec =
      zarrFormat === 3
        ? requestedV3 === undefined || requestedV3.dtype.kind !== "O"
          ? undefined
          : { id: requestedV3.dataType === "string" ? "vlen-utf8" : "vlen-bytes" }
        : objectCodecFlag(args)?.codec;
    const source = format === "npy" ? await npySource(file!) : await jsonSource(file!, requested, flagCodec);
    try {
      const dtype = requested ?? source.dtype;
      if (!canConvert(source.dtype, dtype)) {
        throw new UsageError(
          `--dtype ${dtypeText(dtype)}: cannot convert the file's ${dtypeText(source.dtype)} values to it`,
        );
      }
      const options = await createOptionsFromFlags(args, zarrFormat, source.shape, {
        dtype,
        v3Type: () => requestedV3 ?? v3TypeOf(dtype, (flagCodec ?? source.objects?.codec)?.id),
        // the file's object codec, unless the flags name one
        ...(source.objects !== undefined && flagCodec === undefined ? { objectCodec: source.objects.codec } : {}),
      });
      if (zarrFormat !== 3) options.order ??= source.fortranOrder ? "F" : "C";
      return await withStore(location!, { mode: "write", path: stringFlag(args, "path") }, async ({ store, path }) => {
        const array = await createArray(() =>
          create({ ...options, store, path, shape: source.shape, signal: io.signal }),
        );
        const bar = progressBar(io, `importing ${file}`);
        try {
          bar.setTotal(array.nchunks);
          await copyInto(array, source, dtype, file!, bar, io);
        } catch (error) {
          io.err(`zarr import: the array at ${JSON.stringify(path)} is incomplete\n`);
          throw error;
        } finally {
          bar.finish();
        }
        io.err(
          zarrFormat === 3
            ? `imported ${file} into ${location}: ${describeCreatedV3(array)}\n`
            : `imported ${file} into ${location}${path === "" ? "" : ` at ${path}`}: shape [${array.shape.join(", ")}], chunks [${array.chunks.join(", ")}], dtype ${JSON.stringify(dataTypeToJSON(dtype))}\n`,
        );
        return 0;
      });
    } finally {
      await source.close();
    }
  },
};

// Where they were before `zarr create` shared them.
export { createArray, describeCreatedV3 } from "../create-options.js";

/** Writes the source into the array in slabs of whole chunks along the file's slowest dimension. */
async function copyInto(
  array: ZarrArray,
  source: Source,
  dtype: DataType,
  file: string,
  bar: Progress,
  io: Io,
): Promise<void> {
  const shape = source.shape;
  if (shape.includes(0)) return;
  const run = { progress: bar.callback(), signal: io.signal };
  const objects = source.objects?.values;
  if (shape.length === 0 && objects !== undefined) {
    await array.set([], { data: [objects[0]], shape: [] }, run);
    return;
  }
  if (shape.length === 0) {
    const bytes = convertBytes(await source.read(0, 1), source.dtype, dtype, file);
    await array.set([], { data: bytesToTyped(bytes, dtype), shape: [] }, { ...run, progress: bar.callback() });
    return;
  }
  const fortran = source.fortranOrder && shape.length > 1;
  const axis = fortran ? shape.length - 1 : 0;
  const perStep = product(shape) / shape[axis]!;
  const slabs = planSlabs(
    { kind: "range", start: 0, step: 1, length: shape[axis]! },
    array.chunks[axis]!,
    perStep * Math.max(dtype.itemsize, source.dtype.itemsize),
  );
  for (const [from, to] of slabs) {
    const slabShape = shape.map((n, d) => (d === axis ? to - from : n));
    const selection: BasicSelectionItem[] = shape.map((_, d) => (d === axis ? slice(from, to) : null));
    if (objects !== undefined) {
      await array.set(
        selection,
        { data: objects.slice(from * perStep, to * perStep), shape: slabShape },
        { progress: bar.callback(), signal: io.signal },
      );
      continue;
    }
    const raw = await source.read(from * perStep, (to - from) * perStep);
    const bytes = convertBytes(raw, source.dtype, dtype, file, from * perStep);
    const strides = fortran ? fStrides(slabShape) : undefined;
    await array.set(
      selection,
      { data: bytesToTyped(bytes, dtype), shape: slabShape, strides },
      { progress: bar.callback(), signal: io.signal },
    );
  }
}

function fStrides(shape: readonly number[]): number[] {
  let s = 1;
  return shape.map((n) => {
    const stride = s;
    s *= n;
    return stride;
  });
}

async function npySource(file: string): Promise<Source> {
  let handle: FileHandle;
  try {
    handle = await openFile(file, "r");
  } catch (cause) {
    throw new CommandError(`cannot read ${file}: ${(cause as Error).message}`, { key: file, cause });
  }
  try {
    const size = (await handle.stat()).size;
    const readAt = async (position: number, length: number): Promise<Uint8Array> => {
      const out = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(out, filled, length - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === length ? out : out.subarray(0, filled);
    };
    const prefix = await readAt(0, Math.min(size, NPY_PREFIX_BYTES));
    const dataOffset = npyDataOffset(prefix, file);
    const header = parseNpyHeader(await readAt(0, Math.min(size, dataOffset)), file);
    if (size - dataOffset < npyDataBytes(header)) {
      throw new NpyError(
        `${file}: the .npy file holds ${size - dataOffset} bytes of data, its header needs ${npyDataBytes(header)}`,
        { key: file },
      );
    }
    const itemsize = header.dtype.itemsize;
    return {
      ...header,
      read: (first, count) => readAt(dataOffset + first * itemsize, count * itemsize),
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function jsonSource(
  file: string,
  requested: DataType | undefined,
  flagCodec: CodecConfig | undefined,
): Promise<Source> {
  let text: Uint8Array;
  try {
    text = await readFile(file);
  } catch (cause) {
    throw new CommandError(`cannot read ${file}: ${(cause as Error).message}`, { key: file, cause });
  }
  let doc: JsonValue;
  try {
    doc = parseJson(text, file, { keepFloats: true }); // an object array's 1.0 stays a float
  } catch (error) {
    if (error instanceof ZarrError) throw new CommandError(error.message, { key: file });
    throw error;
  }
  const obj =
    typeof doc === "object" && doc !== null && !Array.isArray(doc) && !(doc instanceof JsonFloat)
      ? (doc as Record<string, JsonValue>)
      : undefined;
  const values = obj?.values;
  const shapeJson = obj?.shape;
  if (obj === undefined || !Array.isArray(values))
    throw new CommandError(`${file}: expected an object {"shape": [...], "values": [...]}`, { key: file });
  const list = values as readonly JsonValue[];
  let shape: number[];
  if (shapeJson === undefined) shape = [list.length];
  else if (
    Array.isArray(shapeJson) &&
    shapeJson.every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0)
  )
    shape = [...(shapeJson as number[])];
  else throw new CommandError(`${file}: "shape" must be a list of non-negative integers`, { key: file });
  if (product(shape) !== list.length) {
    throw new CommandError(
      `${file}: "shape" [${shape.join(", ")}] needs ${product(shape)} values, "values" has ${list.length} (values must be a flat list in C order)`,
      { key: file },
    );
  }
  let dtype: DataType;
  if (obj.dtype !== undefined) {
    try {
      dtype = parseDataType(obj.dtype, file);
    } catch (error) {
      if (error instanceof ZarrError) throw new CommandError(error.message, { key: file });
      throw error;
    }
  } else
    dtype = requested ?? (flagCodec !== undefined ? parseDataType("|O") : inferDtype(list.map(plainNumbers), file));
  if (dtype.kind === "O") {
    const codec = flagCodec ?? fileObjectCodec(obj.object_codec, file);
    const values = list.map((v, i) => objectFromJson(v, codec, `${file}: values[${i}]`));
    return {
      dtype,
      shape,
      fortranOrder: false,
      objects: { codec, values },
      read: async () => {
        throw new Error("an object array's values are in `objects`");
      },
      close: async () => undefined,
    };
  }
  const bytes = writeElements(
    list.map((v, i) => elementFromJson(plainNumbers(v), dtype, `${file}: values[${i}]`)),
    dtype,
  );
  return {
    dtype,
    shape,
    fortranOrder: false,
    read: async (first, count) => bytes.subarray(first * dtype.itemsize, (first + count) * dtype.itemsize),
    close: async () => undefined,
  };
}

/** JSON with floats as plain numbers, as the values of fixed-size dtypes are read. */
function plainNumbers(json: JsonValue): JsonValue {
  if (json instanceof JsonFloat) return json.value;
  if (Array.isArray(json)) return json.map(plainNumbers);
  if (typeof json === "object" && json !== null)
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, plainNumbers(v)]));
  return json;
}

/** The `"object_codec"` of a values file of an object array. */
function fileObjectCodec(json: JsonValue | undefined, file: string): CodecConfig {
  if (json === undefined) {
    throw new UsageError(
      `${file} holds an object array (dtype |O) but names no object codec: add "object_codec" (e.g. {"id": "vlen-utf8"}) to it, or pass --object-codec JSON, or --dtype str, bytes or array:<dtype>`,
    );
  }
  const ok =
    typeof json === "object" &&
    json !== null &&
    !Array.isArray(json) &&
    !(json instanceof JsonFloat) &&
    typeof (json as Record<string, JsonValue>).id === "string";
  if (!ok || !OBJECT_CODEC_IDS.has((json as Record<string, string>).id!)) {
    throw new CommandError(
      `${file}: "object_codec" must be an object codec config, {"id": ...} with id one of ${[...OBJECT_CODEC_IDS].join(", ")}`,
      { key: file },
    );
  }
  return json as unknown as CodecConfig;
}

/** The dtype numpy would give a list of such values: bool, int64, float64 or a unicode string. */
function inferDtype(values: readonly JsonValue[], file: string): DataType {
  const special = (v: JsonValue): boolean => v === "NaN" || v === "Infinity" || v === "-Infinity" || v === null;
  if (values.length === 0) return parseDataType("<f8");
  if (values.every((v) => typeof v === "boolean")) return parseDataType("|b1");
  if (values.every((v) => typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v))))
    return parseDataType("<i8");
  if (values.every((v) => typeof v === "number" || typeof v === "bigint" || special(v))) return parseDataType("<f8");
  if (values.every((v) => typeof v === "string")) {
    const length = Math.max(1, ...values.map((v) => [...(v as string)].length));
    return parseDataType(`<U${length}`);
  }
  throw new CommandError(`${file}: cannot tell the dtype of these values; add "dtype" to the file or pass --dtype`, {
    key: file,
  });
}
