import { describe, expect, it } from "vitest";
import { JsonReferences, ReferenceStore } from "@z/store-reference";
import { memory } from "./test-stores.js";

const text = (b: Uint8Array | undefined): string | undefined =>
  b === undefined ? undefined : new TextDecoder().decode(b);
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i % 256);

describe("JSON references", () => {
  it("reads version 0: inline text, base64: bytes, objects, [url] and [url, offset, length]", async () => {
    const store = new ReferenceStore(
      new JsonReferences({
        ".zgroup": '{"zarr_format": 2}',
        "a/.zarray": { shape: [4] },
        "a/0": "base64:AAECAw==",
        "a/1": ["data.bin", 10, 4],
        "a/2": ["data.bin"],
      }),
      { base: { store: memory({ "data.bin": bytes(20) }), dir: "" } },
    );
    expect(text(await store.get(".zgroup"))).toBe('{"zarr_format": 2}');
    expect(JSON.parse(text(await store.get("a/.zarray"))!)).toEqual({ shape: [4] });
    expect([...(await store.get("a/0"))!]).toEqual([0, 1, 2, 3]);
    expect([...(await store.get("a/1"))!]).toEqual([10, 11, 12, 13]);
    expect((await store.get("a/2"))!.length).toBe(20);
    expect(await store.get("a/3")).toBeUndefined();
    // a range of a reference is a range of its range
    expect([...(await store.getRange("a/1", { offset: 1, length: 2 }))!]).toEqual([11, 12]);
    expect([...(await store.getRange("a/1", { suffixLength: 3 }))!]).toEqual([11, 12, 13]);
    expect([...(await store.getRange("a/1", { offset: 3, length: 10 }))!]).toEqual([13]);
    expect([...(await store.getRange("a/0", { offset: 2 }))!]).toEqual([2, 3]);
  });

  it("expands version 1 templates in URLs, and takes overrides for them", async () => {
    const doc = { version: 1, templates: { u: "data.bin" }, refs: { "a/0": ["{{u}}", 1, 2], "a/1": ["{{ u }}"] } };
    expect(await new JsonReferences(doc).reference("a/0")).toEqual({
      kind: "target",
      url: "data.bin",
      offset: 1,
      length: 2,
    });
    expect(await new JsonReferences(doc).reference("a/1")).toEqual({ kind: "target", url: "data.bin" });
    const moved = new JsonReferences(doc, { templateOverrides: { u: "https://host/data.bin" } });
    expect(await moved.reference("a/0")).toEqual({
      kind: "target",
      url: "https://host/data.bin",
      offset: 1,
      length: 2,
    });
  });

  it("expands gen entries as fsspec's _process_gen: every combination, the last dimension fastest, replacing refs", async () => {
    const refs = new JsonReferences({
      version: 1,
      templates: { u: "f.nc" },
      refs: { "x/0.0": "inline" },
      gen: [
        {
          key: "x/{{i}}.{{j}}",
          url: "{{u}}",
          offset: "{{ 100 + (i * 2 + j) * 10 }}",
          length: "{{ 30 // 3 }}",
          dimensions: { i: { start: 0, stop: 4, step: 2 }, j: [0, 1] },
        },
        { key: "y/{{k}}", url: "{{u}}.{{k}}", dimensions: { k: { stop: 2 } } },
      ],
    });
    expect((await refs.keys()).sort()).toEqual(["x/0.0", "x/0.1", "x/2.0", "x/2.1", "y/0", "y/1"]);
    expect(await refs.reference("x/0.0")).toEqual({ kind: "target", url: "f.nc", offset: 100, length: 10 });
    expect(await refs.reference("x/2.1")).toEqual({ kind: "target", url: "f.nc", offset: 150, length: 10 });
    expect(await refs.reference("y/1")).toEqual({ kind: "target", url: "f.nc.1" });
  });
});

describe("bad reference sets: typed errors naming the key", () => {
  const reason = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return { reason: (error as { referenceCode?: string }).referenceCode, message: (error as Error).message };
    }
    return undefined;
  };

  it("an unknown template", () => {
    const failure = reason(
      () => new JsonReferences({ version: 1, templates: { u: "f" }, refs: { "a/0": ["{{v}}", 0, 1] } }),
    );
    expect(failure?.reason).toBe("Z_REFERENCE_TEMPLATE");
    expect(failure?.message).toMatch(/a\/0.*unknown template "v"/);
  });

  it("an expression beyond names and arithmetic", () => {
    const gen = [{ key: "a/{{ i | string }}", url: "f", dimensions: { i: [0] } }];
    expect(reason(() => new JsonReferences({ version: 1, gen }))?.reason).toBe("Z_REFERENCE_TEMPLATE");
  });

  it("a gen entry with an offset but no length, as fsspec refuses it", () => {
    const gen = [{ key: "a/{{i}}", url: "f", offset: "0", dimensions: { i: [0] } }];
    expect(reason(() => new JsonReferences({ version: 1, gen }))?.message).toMatch(/both "offset" and "length"/);
  });

  it("an entry of the wrong shape, an unknown version, text that is not JSON", () => {
    expect(reason(() => new JsonReferences({ "a/0": ["f", 1] }))).toMatchObject({ reason: "Z_REFERENCE_FORMAT" });
    expect(reason(() => new JsonReferences({ "a/0": ["f", -1, 2] }))?.message).toMatch(/"a\/0"/);
    expect(reason(() => new JsonReferences({ version: 2 }))?.message).toMatch(/unknown reference set version 2/);
    expect(reason(() => JsonReferences.parse("{", "refs.json"))?.message).toMatch(/refs.json is not JSON/);
  });
});
