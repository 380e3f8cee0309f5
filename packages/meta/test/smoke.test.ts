import { describe, expect, it } from "vitest";
import { MetadataError } from "@z/meta";

describe("errors", () => {
  it("carry a code, a key and a field", () => {
    const err = new MetadataError("bad", { key: "a/.zarray", field: "shape" });
    expect(err.code).toBe("ZARR_METADATA");
    expect([err.key, err.field, err.name]).toEqual(["a/.zarray", "shape", "MetadataError"]);
  });
});
