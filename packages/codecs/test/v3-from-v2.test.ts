/**
 * `codecsV3FromV2`: the v3 `codecs` of a v2 array's filters, compressor and order. What it writes is
 * what zarr-python 3's `zarr.metadata.migrate_v3` writes (from its source, `_convert_array_metadata`:
 * zarr-python 3 cannot be installed here). Migrating writes a zarr.json beside the v2 chunks, so the
 * chunks zarr-python 2.13 wrote (live, /usr/bin/python3, test/python/zarr2_chunks.py) must decode
 * through the v3 chain it makes to the values zarr-python wrote.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CodecConfigError, defaultRegistry, type CodecData } from "@z/codecs";
import { codecsV3FromV2, compileCodecsV3 } from "@z/codecs/v3";
import { dataTypeToV3, parseDataTypeV3 } from "@z/meta/v3";
import { parseDataType, type CodecConfig, type DataType, type JsonValue, type NamedConfig } from "@z/meta";
import { pythonImports, requireTool, SYSTEM_PYTHON } from "../../../scripts/test-child/tools.js";

const i2: DataType = { kind: "i", byteOrder: "<", itemsize: 2 };
const u1: DataType = { kind: "u", byteOrder: "|", itemsize: 1 };
const bigF8: DataType = { kind: "f", byteOrder: ">", itemsize: 8 };
const object: DataType = { kind: "O", byteOrder: "|", itemsize: 8 };

describe("codecsV3FromV2 writes what zarr-python 3's migration writes", () => {
  it("order F is a transpose reversing the axes; the dtype's byte order goes to bytes; numcodecs codecs keep their config", () => {
    expect(
      codecsV3FromV2({ dtype: bigF8, order: "F", ndim: 3, filters: null, compressor: { id: "zlib", level: 1 } }),
    ).toEqual([
      { name: "transpose", configuration: { order: [2, 1, 0] } },
      { name: "bytes", configuration: { endian: "big" } },
      { name: "numcodecs.zlib", configuration: { level: 1 } },
    ]);
    // One-byte types have no endian.
    expect(codecsV3FromV2({ dtype: u1, ndim: 1 })).toEqual([{ name: "bytes" }]);
  });

  it("blosc, zstd and gzip become the v3 core codecs; blosc's typesize is the dtype's item size", () => {
    const blosc = { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 };
    expect(codecsV3FromV2({ dtype: i2, ndim: 1, compressor: blosc })[1]).toEqual({
      name: "blosc",
      configuration: { typesize: 2, cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 0 },
    });
    // numcodecs' AUTOSHUFFLE (-1) is bit shuffle for one-byte items, as numcodecs resolves it when encoding.
    expect(codecsV3FromV2({ dtype: u1, ndim: 1, compressor: { ...blosc, shuffle: -1 } })[1]).toMatchObject({
      configuration: { typesize: 1, shuffle: "bitshuffle" },
    });
    expect(codecsV3FromV2({ dtype: i2, ndim: 1, compressor: { id: "zstd", level: 3 } })[1]).toEqual({
      name: "zstd",
      configuration: { level: 3, checksum: false },
    });
    expect(codecsV3FromV2({ dtype: i2, ndim: 1, compressor: { id: "gzip", level: 9 } })[1]).toEqual({
      name: "gzip",
      configuration: { level: 9 },
    });
    // crc32c is numcodecs' there (migration converts only blosc, zstd and gzip to core codecs).
    expect(codecsV3FromV2({ dtype: i2, ndim: 1, compressor: { id: "crc32c" } })[1]).toEqual({
      name: "numcodecs.crc32c",
      configuration: {},
    });
  });

  it("filters: array -> array ones before the serializer, object codecs as the serializer", () => {
    expect(
      codecsV3FromV2({
        dtype: { kind: "i", byteOrder: "<", itemsize: 4 },
        ndim: 1,
        filters: [{ id: "delta", dtype: "<i4", astype: "<i2" }],
        compressor: { id: "zlib", level: 1 },
      }),
    ).toEqual([
      { name: "numcodecs.delta", configuration: { dtype: "<i4", astype: "<i2" } },
      { name: "bytes", configuration: { endian: "little" } },
      { name: "numcodecs.zlib", configuration: { level: 1 } },
    ]);
    expect(codecsV3FromV2({ dtype: object, ndim: 2, filters: [{ id: "vlen-utf8" }], compressor: null })).toEqual([
      { name: "vlen-utf8", configuration: {} },
    ]);
  });

  it("refuses what a v3 chain cannot say, naming the filter", () => {
    const after = (): NamedConfig[] =>
      codecsV3FromV2({
        dtype: i2,
        ndim: 1,
        filters: [
          { id: "shuffle", elementsize: 2 },
          { id: "delta", dtype: "<i2" },
        ],
      });
    expect(after).toThrow(CodecConfigError);
    expect(after).toThrow(
      /filter "delta" \(filters\[1\]\) works on the array, but comes after a filter that made bytes of it/,
    );
    expect(() => codecsV3FromV2({ dtype: object, ndim: 1, filters: null })).toThrow(/needs an object codec/);
    expect(() => codecsV3FromV2({ dtype: i2, ndim: 1, compressor: { id: "delta", dtype: "<i2" } })).toThrow(
      /compressor "delta" is not a bytes -> bytes codec/,
    );
  });
});

interface V2Case {
  zarray: {
    dtype: JsonValue;
    order: "C" | "F";
    filters: CodecConfig[] | null;
    compressor: CodecConfig | null;
    chunks: number[];
  };
  chunks: Record<string, { stored: string; decoded?: string; values?: string[] }>;
}

describe("v2 chunks zarr-python 2.13 wrote, read through the v3 chain of their migrated metadata", () => {
  const available = pythonImports(SYSTEM_PYTHON, "zarr, numcodecs");
  requireTool("zarr-python", available);
  const script = new URL("./python/zarr2_chunks.py", import.meta.url).pathname;

  it("decodes every chunk to the values zarr-python reads", async () => {
    const run = spawnSync(SYSTEM_PYTHON, [script], { encoding: "utf8", timeout: 120_000, maxBuffer: 16 << 20 });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    const cases = JSON.parse(run.stdout) as Record<string, V2Case>;
    expect(Object.keys(cases).length).toBe(11);
    for (const [name, { zarray, chunks }] of Object.entries(cases)) {
      const v2dtype = parseDataType(zarray.dtype);
      const codecs = codecsV3FromV2({ ...zarray, dtype: v2dtype, ndim: zarray.chunks.length });
      // The v3 data type of the migrated array, as z holds it in memory (little-endian); the object
      // array holds strings (its object codec is vlen-utf8).
      const { dtype } = parseDataTypeV3((v2dtype.kind === "O" ? "string" : dataTypeToV3(v2dtype)) as JsonValue);
      const chain = await compileCodecsV3(codecs, { shape: zarray.chunks, dtype, fillValue: 0 }, defaultRegistry, {
        key: `${name}/zarr.json`,
      });
      for (const [key, chunk] of Object.entries(chunks)) {
        let data: CodecData = new Uint8Array(Buffer.from(chunk.stored, "base64"));
        for (const stage of [...chain.stages].reverse()) {
          data = await stage.codec.decode(data, { ...stage.chunk, key: `${name}/${key}`, maxDecodedSize: 1 << 20 });
        }
        const expected = chunk.values ?? new Uint8Array(Buffer.from(chunk.decoded!, "base64"));
        expect(data, `${name} ${key}`).toEqual(expected);
      }
    }
  });
});
