import { gunzipSync } from "fflate";
import { decompress as zstdDecompress } from "fzstd";
import { parquetReadObjects, type Compressors } from "hyparquet";
import { ReferenceStoreError } from "./errors.js";

/** One record file's columns, as fsspec's `LazyReferenceMapper.open_refs` gives them. */
export interface RecordColumns {
  readonly rows: number;
  readonly path: readonly (string | null)[] | undefined;
  readonly offset: readonly number[] | undefined;
  readonly size: readonly number[] | undefined;
  readonly raw: readonly (Uint8Array | null)[] | undefined;
}

// fastparquet (fsspec's writer) compresses with zstd; snappy (pandas' default with pyarrow) is
// hyparquet's own; gzip (fastparquet's and pyarrow's `compression="gzip"`) is a gzip member per
// page, as Parquet's GZIP codec says. Other codecs fail with hyparquet's message, wrapped below.
const compressors: Compressors = {
  ZSTD: (input, outputLength) => zstdDecompress(input, new Uint8Array(outputLength)),
  GZIP: (input, outputLength) => gunzipSync(input, { out: new Uint8Array(outputLength) }),
};

/** Reads the `path`/`offset`/`size`/`raw` columns of a record file (`name` names it in errors). */
export async function readRecordFile(bytes: Uint8Array, name: string, key: string): Promise<RecordColumns> {
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
      ? bytes.buffer
      : bytes.slice().buffer;
  let rows: Record<string, unknown>[];
  try {
    // utf8: false, so `raw` stays bytes; `path` (a UTF8 column) is decoded either way
    rows = await parquetReadObjects({ file: buffer, compressors, utf8: false });
  } catch (cause) {
    throw new ReferenceStoreError(
      "Z_REFERENCE_RECORD",
      `${JSON.stringify(key)}: the record file ${name} is not a readable Parquet file: ${(cause as Error).message}`,
      { key, target: name, cause },
    );
  }
  const column = <T>(column: string, read: (v: unknown) => T): T[] | undefined =>
    rows.length > 0 && !(column in rows[0]!) ? undefined : rows.map((row) => read(row[column]));
  const decoder = new TextDecoder();
  const number = (v: unknown): number => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : 0);
  return {
    rows: rows.length,
    path: column("path", (v) =>
      v === null || v === undefined ? null : v instanceof Uint8Array ? decoder.decode(v) : String(v),
    ),
    offset: column("offset", number),
    size: column("size", number),
    raw: column("raw", (v) =>
      v === null || v === undefined ? null : v instanceof Uint8Array ? v : new TextEncoder().encode(String(v)),
    ),
  };
}
