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
    const modules = await Promise.all([
      import("../src/create.js"),
      import("../src/info.js"),
      import("../src/location.js"),
      import("../src/object-create.js"),
      import("../src/values.js"),
    ]);
    const names = [
      [
        "create",
        "empty",
        "zeros",
        "ones",
        "full",
        "array",
        "emptyLike",
        "zerosLike",
        "onesLike",
        "fullLike",
        "arrayMetadataFor",
      ],
      ["codecRepr", "fixed1", "humanSize", "tupleRepr"],
      ["parseLocation", "openLocation", "LocationError"],
      ["OBJECT_CODEC_IDS", "objectShorthand"],
      ["toWriteSource"],
    ];
    modules.forEach((module, i) => {
      for (const name of names[i]!) {
        const own = (module as Record<string, unknown>)[name];
        expect(own, name).toBeDefined();
        expect((core as Record<string, unknown>)[name], name).toBe(own);
      }
    });
  });
});
