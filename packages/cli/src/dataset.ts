// The CLI's view of Zarr groups as xarray datasets (@z/xarray): `zarr info --dataset` and
// `zarr export --decode-cf`.
import { open as openFile, rm } from "node:fs/promises";
import { parseDataType, type Store } from "@z/meta";
import { CFDatetime, datasetRepr, NAT, openDataset, slice, type Values, type Variable } from "@z/xarray";
import { toBase64 } from "./base64-text.js";
import { CommandError } from "./command.js";
import { NpyError, encodeNpyHeader } from "./npy/index.js";
import type { BasicSelectionItem } from "@z/core";
import { resolveSelection } from "./selection.js";

/** What `zarr info --dataset` prints: xarray's repr of the dataset in the group at `path`. */
export async function datasetInfoText(store: Store, path: string): Promise<string> {
  return `${await datasetRepr(await openDataset(store, { path }))}\n`;
}

/** The variable an array path names, in the dataset of its parent group. */
async function variableAt(store: Store, path: string): Promise<Variable> {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  if (name === "")
    throw new CommandError("--decode-cf: pick a variable with --path (an array of the dataset)", { key: ".zgroup" });
  const ds = await openDataset(store, { path: slash === -1 ? "" : path.slice(0, slash) });
  return ds.get(name);
}

/** The numpy type string of decoded values in a .npy file. */
function npyTypestr(dtype: string, key: string): string {
  const simple: Record<string, string> = {
    bool: "|b1",
    int8: "|i1",
    uint8: "|u1",
    int16: "<i2",
    uint16: "<u2",
    int32: "<i4",
    uint32: "<u4",
    int64: "<i8",
    uint64: "<u8",
    float16: "<f2",
    float32: "<f4",
    float64: "<f8",
    complex64: "<c8",
    complex128: "<c16",
    "datetime64[ns]": "<M8[ns]",
    "timedelta64[ns]": "<m8[ns]",
  };
  if (dtype in simple) return simple[dtype]!;
  if (dtype.startsWith("<U") || dtype.startsWith("|S")) return dtype;
  throw new NpyError(
    `${key} decodes to ${dtype} values (dates of a non-standard calendar, or masked strings), which a .npy file holds only pickled: export them as JSON instead (--out FILE.json)`,
    { key },
  );
}

/** Decoded values as the bytes of a .npy file's data. */
function npyBytes(values: Values): Uint8Array {
  if (values.dtype.startsWith("<U") || values.dtype.startsWith("|S")) {
    const unicode = values.dtype.startsWith("<U");
    const width = Number(values.dtype.slice(2));
    const strings = values.data as string[];
    const size = unicode ? width * 4 : width;
    const out = new Uint8Array(strings.length * size);
    const view = new DataView(out.buffer);
    strings.forEach((s, i) => {
      if (unicode) [...s].forEach((c, j) => view.setUint32(i * size + j * 4, c.codePointAt(0)!, true));
      else for (let j = 0; j < s.length; j++) out[i * size + j] = s.charCodeAt(j);
    });
    return out;
  }
  const typed = values.data as ArrayBufferView;
  return new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
}

/** One decoded value as JSON: times as ISO text, NaN as "NaN", strings as strings, bytes (`|S`) as base64. */
function jsonValue(values: Values, i: number): string {
  const value = (values.data as ArrayLike<unknown>)[i];
  // @z/xarray holds |S values as text of one character per byte
  if (values.dtype.startsWith("|S") && typeof value === "string") return JSON.stringify(toBase64(latin1Bytes(value)));
  if (values.dtype === "datetime64[ns]") return value === NAT ? '"NaT"' : JSON.stringify(isoNanos(value as bigint));
  if (values.dtype === "timedelta64[ns]") return value === NAT ? '"NaT"' : String(value);
  if (value instanceof CFDatetime) return JSON.stringify(value.isoformat());
  if (typeof value === "number") {
    if (Number.isNaN(value)) return '"NaN"';
    if (!Number.isFinite(value)) return value > 0 ? '"Infinity"' : '"-Infinity"';
    return String(value);
  }
  if (typeof value === "bigint") return String(value);
  if (values.dtype === "bool") return value ? "true" : "false";
  return JSON.stringify(value ?? null);
}

function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** A datetime64[ns] as `YYYY-MM-DDTHH:MM:SS.fffffffff`. */
function isoNanos(ns: bigint): string {
  const ms = ns / 1_000_000n - (ns % 1_000_000n < 0n ? 1n : 0n);
  const rest = ns - ms * 1_000_000n;
  const text = new Date(Number(ms)).toISOString().slice(0, -1);
  return rest === 0n ? text : `${text}${String(rest).padStart(6, "0")}`;
}

/**
 * `zarr export --decode-cf`: the variable at `path` decoded as xarray decodes it (masked values
 * NaN, unpacked, times as datetime64[ns]), written to a .npy or .json file.
 */
export async function exportDecoded(
  store: Store,
  path: string,
  items: readonly BasicSelectionItem[],
  out: string,
  format: "npy" | "json",
  signal?: AbortSignal,
): Promise<string> {
  const variable = await variableAt(store, path);
  const key = `${path}/.zarray`;
  const dims = resolveSelection(items, variable.shape);
  const indexers = Object.fromEntries(
    dims.map((d, i) => {
      const dim = variable.dims[i]!;
      if (d.kind === "index") return [dim, d.index];
      const stop = d.start + d.length * d.step;
      return [dim, slice(d.start, d.length === 0 ? d.start : stop < 0 ? null : stop, d.step)];
    }),
  );
  const values = await variable.isel(indexers).values({ signal });
  let handle: Awaited<ReturnType<typeof openFile>>;
  try {
    handle = await openFile(out, "w");
  } catch (cause) {
    throw new CommandError(`cannot write ${out}: ${(cause as Error).message}`, { key: out, cause });
  }
  try {
    if (format === "npy") {
      const dtype = parseDataType(npyTypestr(values.dtype, key));
      await handle.write(encodeNpyHeader({ dtype, shape: values.shape, fortranOrder: false }));
      await handle.write(npyBytes(values));
    } else {
      const size = values.shape.reduce((a, b) => a * b, 1);
      const items = Array.from({ length: size }, (_, i) => jsonValue(values, i));
      await handle.write(
        `{"dtype": ${JSON.stringify(values.dtype)}, "shape": [${values.shape.join(", ")}], "values": [${items.join(", ")}]}\n`,
      );
    }
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(out, { force: true }).catch(() => undefined);
    throw error;
  }
  return `wrote ${out}: shape [${values.shape.join(", ")}], dtype ${values.dtype} (decoded as xarray decodes ${path})\n`;
}
