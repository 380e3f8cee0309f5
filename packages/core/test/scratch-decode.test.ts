/*
 * Reads decode chunks into a few reused buffers when the compressor can decode into a buffer
 * (Codec.decodeInto), and into new ones otherwise; either way the values are the same.
 */
import { describe, expect, it } from "vitest";
import { create, defaultCodecRegistry, MemoryStore } from "@z/core";
import { defineCodec, requireBytes } from "@z/codecs";

/** A "compressor" that stores bytes reversed, with and without decodeInto, recording the buffers it decodes into. */
function reversing(into: Uint8Array[]) {
  const reverse = (bytes: Uint8Array) => bytes.slice().reverse();
  return defineCodec({
    id: "reversed",
    config: {},
    create: () => ({
      encode: (data, chunk) => reverse(requireBytes(data, "reversed", chunk)),
      decode: (data, chunk) => reverse(requireBytes(data, "reversed", chunk)),
      decodeInto: (data, out, chunk) => {
        into.push(out);
        const bytes = requireBytes(data, "reversed", chunk);
        for (let i = 0; i < bytes.length; i++) out[i] = bytes[bytes.length - 1 - i]!;
        return bytes.length;
      },
    }),
  });
}

describe("reads through Codec.decodeInto", () => {
  it("decode 64 chunks into a few reused buffers, to the values written", async () => {
    const buffers: Uint8Array[] = [];
    const registry = defaultCodecRegistry().clone().register("reversed", () => reversing(buffers));
    const a = await create({ store: new MemoryStore(), shape: [80, 80], chunks: [10, 10], dtype: "<i4", compressor: { id: "reversed" }, registry, pool: false });
    const values = Int32Array.from({ length: 6400 }, (_, i) => i * 7 - 3000);
    await a.set(null, { data: values, shape: [80, 80] });
    const read = await a.get(null, { concurrency: 4 });
    expect(Array.from(read.data as Int32Array)).toEqual(Array.from(values));
    expect(buffers.length).toBe(64);
    // As many buffers as chunks decode at once, not one per chunk.
    expect(new Set(buffers.map((b) => b.buffer)).size).toBeLessThanOrEqual(4);
  });
});
