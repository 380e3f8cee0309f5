import { describe, expect, it } from "vitest";
import { pseudoRandomBytes } from "@z/codecs/testing";
import { fromBase64 } from "../src/lazy-wasm.js";
import { KERNELS_WASM_BASE64 } from "../src/kernels-wasm.js";

describe("the modules' base64", () => {
  it("decodes as atob does, for every padding", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = pseudoRandomBytes(length, length + 1);
      const text = Buffer.from(bytes).toString("base64");
      expect(Buffer.compare(fromBase64(text), bytes), `${length} bytes`).toBe(0);
    }
    expect(Buffer.compare(fromBase64(KERNELS_WASM_BASE64), Buffer.from(KERNELS_WASM_BASE64, "base64"))).toBe(0);
  });
});
