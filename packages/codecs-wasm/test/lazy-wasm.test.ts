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

describe("the modules' memory", () => {
  it("is given the platform's advice for large buffers when it grows, before it is written", async () => {
    const { LazyWasm } = await import("../src/lazy-wasm.js");
    const { setLargeBufferAdvice } = await import("@z/codecs");
    const advised: { bytes: number; zero: boolean; memory: boolean }[] = [];
    const module = new LazyWasm(() => KERNELS_WASM_BASE64, 256 << 20);
    const instance = (await module.load())!;
    setLargeBufferAdvice((view) => {
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      advised.push({
        bytes: view.byteLength,
        zero: bytes.subarray(instance.heapBase).every((b) => b === 0),
        memory: view.buffer === instance.exports.memory.buffer,
      });
    });
    try {
      module.reserve(instance, 1 << 10); // no growth: nothing to advise
      expect(advised).toEqual([]);
      const memory = module.reserve(instance, 16 << 20)!;
      expect(advised).toEqual([{ bytes: memory.length, zero: true, memory: true }]);
      expect(memory.length).toBeGreaterThanOrEqual(16 << 20);
    } finally {
      setLargeBufferAdvice(undefined);
    }
  });
});
