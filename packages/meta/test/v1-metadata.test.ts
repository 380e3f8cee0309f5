import { describe, expect, it } from "vitest";
import { arrayDocumentV1ToV2, parseArrayMetadataV1 } from "@z/meta";

// Written by zarr-python's own zarr.meta_v1.encode_metadata
const META = `{
    "chunks": [2, 3], "compression": "zlib", "compression_opts": 1, "dtype": "<i4",
    "fill_value": -1, "order": "C", "shape": [5, 7], "zarr_format": 1
}`;

describe("spec v1 metadata", () => {
  it("reads as the v2 metadata zarr-python's migrate_1to2 writes", () => {
    expect(parseArrayMetadataV1(META)).toMatchObject({
      shape: [5, 7],
      chunks: [2, 3],
      compressor: { id: "zlib", level: 1 },
      fillValue: -1,
      filters: null,
      order: "C",
    });
  });

  it("turns compression options into a codec config", () => {
    const doc = (compression: unknown, opts: unknown) =>
      arrayDocumentV1ToV2({
        zarr_format: 1,
        shape: [1],
        chunks: [1],
        dtype: "<f8",
        compression,
        compression_opts: opts,
        fill_value: NaN,
        order: "C",
      } as never);
    expect(doc("none", null).compressor).toBeNull();
    expect(doc("blosc", { cname: "lz4", clevel: 5, shuffle: 1 }).compressor).toEqual({
      cname: "lz4",
      clevel: 5,
      shuffle: 1,
      id: "blosc",
    });
    expect(doc("gzip", 5).compressor).toEqual({ id: "gzip", level: 5 });
    expect(doc("none", null).fill_value).toBe("NaN");
  });

  it("refuses other formats and bad fields, naming the key and field", () => {
    expect(() => parseArrayMetadataV1(META.replace('"zarr_format": 1', '"zarr_format": 2'))).toThrow(
      expect.objectContaining({ code: "ZARR_METADATA", key: "meta", field: "zarr_format" }),
    );
    expect(() => parseArrayMetadataV1(META.replace('"compression": "zlib", ', ""))).toThrow(
      expect.objectContaining({ field: "compression" }),
    );
  });
});
