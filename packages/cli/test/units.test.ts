import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ELLIPSIS, slice } from "@z/core";
import { parseStoreArg } from "../src/store-arg.js";
import { parseSelection, resolveSelection, selectionShape, toSelectionItems } from "../src/selection.js";
import { progressBar, renderBar } from "../src/progress.js";
import { parseArgs, parseIntegerList } from "../src/command.js";
import { float16Bits as numberToHalf, float16FromBits as halfToNumber } from "@z/meta";

describe("STORE arguments", () => {
  it("reads paths, file URLs and TensorStore-style URLs", () => {
    expect(parseStoreArg("data.zarr")).toEqual({ kind: "directory", path: join(process.cwd(), "data.zarr"), node: "" });
    expect(parseStoreArg("file:///tmp/my%20data.zarr")).toEqual({
      kind: "directory",
      path: "/tmp/my data.zarr",
      node: "",
    });
    expect(parseStoreArg("file:///tmp/d.zarr|zarr2:a/b%20c/")).toEqual({
      kind: "directory",
      path: "/tmp/d.zarr",
      node: "a/b c",
    });
    expect(parseStoreArg("file:///tmp/d.zarr/|zarr:x")).toEqual({ kind: "directory", path: "/tmp/d.zarr", node: "x" });
    expect(parseStoreArg(`${pathToFileURL("/tmp/a.zip").href}|zip:inner|zarr2:g`)).toEqual({
      kind: "zip",
      file: "/tmp/a.zip",
      remote: false,
      node: "inner/g",
    });
    expect(parseStoreArg("a.zip")).toEqual({
      kind: "zip",
      file: join(process.cwd(), "a.zip"),
      remote: false,
      node: "",
    });
    expect(parseStoreArg("https://h/x.zarr|zarr2:y")).toEqual({ kind: "http", url: "https://h/x.zarr", node: "y" });
    expect(parseStoreArg("https://h/x.zip|zip:in|zarr2:y")).toEqual({
      kind: "zip",
      file: "https://h/x.zip",
      remote: true,
      node: "in/y",
    });
  });

  it.each([
    ["", /must not be empty/],
    ["file:///d|zarr2:a/../b", /"\." or "\.\." segment/],
    ["file:///d|tiff:", /unknown part "tiff:"/],
    ["file:///d|zarr2:%zz", /bad path "%zz"/],
    ["file://host/d", /file URLs on other hosts are not supported/],
    ["http://[x/d", /not a valid URL/],
    ["gs://b/d", /unsupported URL scheme/],
  ])("refuses %j", (text, message) => {
    expect(() => parseStoreArg(text)).toThrow(message);
  });
});

describe("selection text", () => {
  it("parses numpy's basic indexing", () => {
    expect(parseSelection("")).toEqual([]);
    expect(parseSelection(" [ ] ")).toEqual([]);
    expect(parseSelection("5")).toEqual([5]);
    expect(parseSelection("5,")).toEqual([5]);
    expect(parseSelection("0:10, ::2")).toEqual([slice(0, 10, null), slice(null, null, 2)]);
    expect(parseSelection("...,-1")).toEqual([ELLIPSIS, -1]);
    expect(parseSelection("Ellipsis, None:3")).toEqual([ELLIPSIS, slice(null, 3, null)]);
    expect(parseSelection(":")).toEqual([slice(null, null, null)]);
    expect(parseSelection("-3:")).toEqual([slice(-3, null, null)]);
  });

  it("resolves against a shape as zarr-python does", () => {
    const dims = resolveSelection(parseSelection("...,-1"), [4, 5, 6]);
    expect(dims).toEqual([
      { kind: "range", start: 0, step: 1, length: 4 },
      { kind: "range", start: 0, step: 1, length: 5 },
      { kind: "index", index: 5 },
    ]);
    expect(selectionShape(dims)).toEqual([4, 5]);
    expect(selectionShape(resolveSelection(parseSelection("1:100:3"), [10]))).toEqual([3]);
    expect(selectionShape(resolveSelection(parseSelection("8:2"), [10]))).toEqual([0]);
    expect(selectionShape(resolveSelection(parseSelection("-100:"), [10]))).toEqual([10]);
    expect(selectionShape(resolveSelection([], []))).toEqual([]);
    const items = toSelectionItems(resolveSelection(parseSelection("1:10:3,2"), [10, 4]), [[1, 3]]);
    expect(items).toEqual([slice(4, 10, 3), 2]);
  });

  it("resolves negative steps as Python's slice.indices", () => {
    expect(resolveSelection(parseSelection("::-1"), [10])).toEqual([{ kind: "range", start: 9, step: -1, length: 10 }]);
    expect(resolveSelection(parseSelection("8:1:-3"), [10])).toEqual([
      { kind: "range", start: 8, step: -3, length: 3 },
    ]);
    expect(selectionShape(resolveSelection(parseSelection("-100::-1"), [10]))).toEqual([0]);
    expect(selectionShape(resolveSelection(parseSelection(":-100:-1"), [10]))).toEqual([10]);
    expect(selectionShape(resolveSelection(parseSelection("2:5:-1"), [10]))).toEqual([0]);
    // the whole dimension backwards ends at None, never at -1 (which would count from the end)
    expect(toSelectionItems(resolveSelection(parseSelection("::-1"), [10]))).toEqual([slice(9, null, -1)]);
    expect(toSelectionItems(resolveSelection(parseSelection("::-4"), [10]), [[1, 3]])).toEqual([slice(5, null, -4)]);
    expect(toSelectionItems(resolveSelection(parseSelection("-100::-1"), [10]))).toEqual([slice(0, 0, 1)]);
  });
});

describe("argument parsing", () => {
  it("takes --name value, --name=value, flags, -h, --, and negative numbers as positionals", () => {
    const args = parseArgs(["a", "--x", "1", "--y=2", "--json", "-1", "-h", "--", "--z"], new Set(["json"]));
    expect(args.positional).toEqual(["a", "-1", "--z"]);
    expect([...args.flags]).toEqual([
      ["x", "1"],
      ["y", "2"],
      ["json", true],
      ["help", true],
    ]);
  });

  it("reads integer lists", () => {
    expect(parseIntegerList("10,20", "--x")).toEqual([10, 20]);
    expect(parseIntegerList("(10, 20)", "--x")).toEqual([10, 20]);
    expect(parseIntegerList("(5,)", "--x")).toEqual([5]);
    expect(parseIntegerList("()", "--x")).toEqual([]);
    expect(parseIntegerList("-1,4", "--x", { allowFull: true })).toEqual([-1, 4]);
    expect(() => parseIntegerList("-1", "--x")).toThrow(/non-negative integers/);
  });
});

describe("progress bar", () => {
  it("draws on an interactive stderr only, throttled, and clears itself", () => {
    let err = "";
    let now = 0;
    const io = { out: () => undefined, err: (t: string) => void (err += t), interactive: true, columns: 50 };
    const bar = progressBar(io, "copying", { now: () => now });
    bar.setTotal(4);
    bar.tick();
    now += 200;
    bar.tick();
    const cb = bar.callback();
    cb(2, 2);
    expect(err.split("\r").filter(Boolean)).toEqual([
      renderBar("copying", 0, 4, 50),
      renderBar("copying", 2, 4, 50),
      renderBar("copying", 4, 4, 50),
    ]);
    bar.finish();
    expect(err.endsWith(`\r${" ".repeat(49)}\r`)).toBe(true);
    let quiet = "";
    const silent = progressBar({ ...io, interactive: false, err: (t: string) => void (quiet += t) }, "x");
    silent.setTotal(1);
    silent.tick();
    silent.finish();
    expect(quiet).toBe("");
  });

  it("fits its width", () => {
    expect(renderBar("x", 1, 2, 40)).toBe(`x [${"#".repeat(13)}${".".repeat(12)}]  50%  1/2`);
    expect(renderBar("x", 1, 2, 40).length).toBe(39);
    expect(renderBar("x", 1, 2, 200)).toBe(`x [${"#".repeat(20)}${".".repeat(20)}]  50%  1/2`);
    expect(renderBar("a long label", 3, 3, 20)).toBe("a long label 100%  3/3");
  });
});

describe("float16", () => {
  it("rounds to nearest even and reads back", () => {
    for (const [x, bits] of [
      [1, 0x3c00],
      [65504, 0x7bff],
      [65520, 0x7c00],
      [-0, 0x8000],
      [2 ** -24, 1],
      [0.1, 0x2e66],
      [NaN, 0x7e00],
      [-Infinity, 0xfc00],
    ] as const) {
      expect(numberToHalf(x)).toBe(bits);
    }
    expect(halfToNumber(0x2e66)).toBe(0.0999755859375);
    expect(numberToHalf(1 + 2 ** -11)).toBe(0x3c00); // tie: to even
    expect(numberToHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
  });
});
