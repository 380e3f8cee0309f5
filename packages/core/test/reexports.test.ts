// @z/core re-exports every error class of the layers below it (@z/meta, @z/codecs, @z/indexing): a
// class added to one of them must be added to core's index too (see one-import.test.ts for use).
import { describe, expect, it } from "vitest";
import * as codecs from "@z/codecs";
import * as core from "@z/core";
import * as indexing from "@z/indexing";
import * as meta from "@z/meta";

describe("@z/core's re-exports", () => {
  it.each([
    ["@z/meta", meta],
    ["@z/codecs", codecs],
    ["@z/indexing", indexing],
  ] as const)("every ZarrError class of %s", (_, lower) => {
    const errors = Object.entries(lower).filter(
      ([, value]) =>
        value === meta.ZarrError || (typeof value === "function" && value.prototype instanceof meta.ZarrError),
    );
    expect(errors.length).toBeGreaterThan(0);
    for (const [name, value] of errors) expect((core as Record<string, unknown>)[name], name).toBe(value);
  });

  it("codec registration, the same objects as @z/codecs'", () => {
    expect([core.defaultRegistry, core.registerCodec, core.defineCodec, core.CodecRegistry]).toEqual([
      codecs.defaultRegistry,
      codecs.registerCodec,
      codecs.defineCodec,
      codecs.CodecRegistry,
    ]);
  });

  // What the index exports as constants (index-constants.ts: see there why) is the
  // modules' own functions and classes, not copies.
  it("exports creation, formatting, locations and write values as the modules' own", async () => {
    const [creation, reprs, objects, values] = await Promise.all([
      import("../src/create.js"),
      import("../src/codec-repr.js"),
      import("../src/object-create.js"),
      import("../src/values.js"),
    ]);
    const owners: [Record<string, unknown>, Record<string, string>][] = [
      [creation, names("create empty zeros ones full array emptyLike zerosLike onesLike fullLike arrayMetadataFor")],
      [reprs, names("codecRepr")],
      [meta, { ...names("fixed1 humanSize parseLocation openLocation LocationError"), tupleRepr: "pythonTupleRepr" }],
      [objects, names("OBJECT_CODEC_IDS objectShorthand")],
      [values, names("toWriteSource")],
    ];
    for (const [module, exported] of owners)
      for (const [name, own] of Object.entries(exported)) {
        expect(module[own], own).toBeDefined();
        expect((core as Record<string, unknown>)[name], name).toBe(module[own]);
      }
  });
});

/** Each name exported under its own name. */
const names = (list: string): Record<string, string> => Object.fromEntries(list.split(" ").map((n) => [n, n]));
