import { describe, expect, it } from "vitest";
import { PathError, joinPath, keyPrefix, normalizeStoragePath } from "@z/meta";

describe("normalizeStoragePath", () => {
  // Expected values from zarr.util.normalize_storage_path (zarr-python 2.13).
  it.each([
    [undefined, ""],
    [null, ""],
    ["", ""],
    ["/", ""],
    ["foo", "foo"],
    ["/foo/bar/", "foo/bar"],
    ["\\\\foo\\bar\\", "foo/bar"],
    ["foo//bar///baz", "foo/bar/baz"],
    [".a/b..", ".a/b.."],
    ["...", "..."],
  ])("normalizes %j to %j", (path, expected) => {
    expect(normalizeStoragePath(path)).toBe(expected);
  });

  it.each(["a/./b", "..", "a/..", "./a", "a\\..\\b"])("refuses the dot segments in %j", (path) => {
    expect(() => normalizeStoragePath(path)).toThrow(PathError);
    try {
      normalizeStoragePath(path);
    } catch (e) {
      expect([(e as PathError).code, (e as PathError).key]).toEqual(["ZARR_PATH", path]);
    }
  });
});

describe("joinPath and keyPrefix", () => {
  it("join pieces into one normalized path", () => {
    expect(joinPath("foo/", "/bar", "", "baz")).toBe("foo/bar/baz");
    expect(joinPath("", "")).toBe("");
    expect(joinPath(undefined, "a", null)).toBe("a");
    expect(() => joinPath("a", "..")).toThrow(PathError);
  });

  it("give the prefix keys of a node start with", () => {
    expect(keyPrefix("")).toBe("");
    expect(keyPrefix("foo/bar")).toBe("foo/bar/");
    expect(keyPrefix("/foo/bar/")).toBe("foo/bar/");
    expect(`${keyPrefix("foo/bar")}.zarray`).toBe("foo/bar/.zarray");
  });
});
