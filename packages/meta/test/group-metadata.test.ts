import { describe, expect, it } from "vitest";
import { MetadataError, encodeGroupMetadata, parseGroupMetadata, serializeGroupMetadata } from "@z/meta";

// zarr.group(store) writes exactly these bytes under ".zgroup" (zarr-python 2.13).
const ZGROUP = '{\n    "zarr_format": 2\n}';

describe(".zgroup", () => {
  it("is written exactly as zarr-python writes it", () => {
    expect(serializeGroupMetadata()).toBe(ZGROUP);
    expect(serializeGroupMetadata({ zarrFormat: 2 })).toBe(ZGROUP);
    expect(encodeGroupMetadata()).toEqual(new TextEncoder().encode(ZGROUP));
  });

  it("reads from bytes, text or parsed JSON, ignoring extra keys as zarr-python does", () => {
    expect(parseGroupMetadata(new TextEncoder().encode(ZGROUP))).toEqual({ zarrFormat: 2 });
    expect(parseGroupMetadata('{"zarr_format": 2, "extra": true}')).toEqual({ zarrFormat: 2 });
    expect(parseGroupMetadata({ zarr_format: 2 })).toEqual({ zarrFormat: 2 });
  });

  it.each([
    ['{"zarr_format": 3}', "zarr_format", /expected 2 .*found 3/],
    ['{"zarr_format": "2"}', "zarr_format", /found "2"/],
    ["{}", "zarr_format", /misses the required field "zarr_format"/],
    ["[2]", undefined, /must hold a JSON object, found \[2\]/],
    ["{", undefined, /is not valid JSON/],
  ])("refuses %j", (text, field, message) => {
    let error: unknown;
    try {
      parseGroupMetadata(text, "foo/.zgroup");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetadataError);
    const { code, key } = error as MetadataError;
    expect([code, key, (error as MetadataError).field]).toEqual(["ZARR_METADATA", "foo/.zgroup", field]);
    expect((error as Error).message).toMatch(message);
  });
});
