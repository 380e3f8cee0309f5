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
});
