// What @z/spec's index exports as constants (src/index.ts: see there why) is the spec modules' own
// classes, not copies: an error thrown inside `openSpec` is an instance of the exported class.
import { expect, it } from "vitest";
import * as spec from "@z/spec";
import * as context from "../src/context.js";
import * as errors from "../src/errors.js";

it("exports the spec's classes as the modules' own", () => {
  expect(spec.SpecContext).toBe(context.SpecContext);
  expect(spec.CachePool).toBe(context.CachePool);
  expect(spec.SpecError).toBe(errors.SpecError);
  expect(spec.SpecUnsupportedError).toBe(errors.SpecUnsupportedError);
});
