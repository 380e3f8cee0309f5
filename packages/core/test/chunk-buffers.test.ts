/*
 * Reads decode chunks straight into the output where a whole chunk is one run of it, else into a
 * few reused buffers, when the compressor can decode into a buffer (Codec.decodeInto); either way
 * the values are the same.
 */
import { describe, expect, it } from "vitest";
import { create, defaultCodecRegistry, MemoryStore, slice } from "@z/core";
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
    const registry = defaultCodecRegistry()
      .clone()
      .register("reversed", () => reversing(buffers));
    const a = await create({
      store: new MemoryStore(),
      shape: [80, 80],
      chunks: [10, 10],
      dtype: "<i4",
      compressor: { id: "reversed" },
      registry,
      pool: false,
    });
    const values = Int32Array.from({ length: 6400 }, (_, i) => i * 7 - 3000);
    await a.set(null, { data: values, shape: [80, 80] });
    const read = await a.get(null, { concurrency: 4 });
    expect(Array.from(read.data as Int32Array)).toEqual(Array.from(values));
    expect(buffers.length).toBe(64);
    // As many buffers as chunks decode at once, not one per chunk.
    expect(new Set(buffers.map((b) => b.buffer)).size).toBeLessThanOrEqual(4);
  });

  it("decode whole chunks that are one run of the output right into it", async () => {
    const buffers: Uint8Array[] = [];
    const registry = defaultCodecRegistry()
      .clone()
      .register("reversed", () => reversing(buffers));
    const values = Int32Array.from({ length: 6400 }, (_, i) => i * 7 - 3000);
    const cases = [
      {
        what: "chunked along the first axis, full read",
        chunks: [10, 80],
        dtype: "<i4",
        order: "C",
        box: null,
        direct: 8,
      },
      {
        what: "one whole chunk selected",
        chunks: [10, 10],
        dtype: "<i4",
        order: "C",
        box: [10, 20, 30, 40],
        direct: 1,
      },
      { what: "(1, n) chunks in F order", chunks: [1, 80], dtype: "<i4", order: "F", box: null, direct: 80 },
      { what: "F order with two long dimensions", chunks: [10, 80], dtype: "<i4", order: "F", box: null, direct: 0 },
      {
        what: "big-endian values (swapped after decoding)",
        chunks: [10, 80],
        dtype: ">i4",
        order: "C",
        box: null,
        direct: 0,
      },
      { what: "a selection inside chunks", chunks: [10, 80], dtype: "<i4", order: "C", box: [0, 80, 1, 80], direct: 0 },
    ] as const;
    for (const c of cases) {
      buffers.length = 0;
      const a = await create({
        store: new MemoryStore(),
        shape: [80, 80],
        chunks: [...c.chunks],
        dtype: c.dtype,
        order: c.order,
        compressor: { id: "reversed" },
        registry,
        pool: false,
      });
      await a.set(null, { data: values, shape: [80, 80] });
      const box = c.box;
      const read = await a.get(box === null ? null : [slice(box[0], box[1]), slice(box[2], box[3])]);
      expect(read.shape, c.what).toEqual(box === null ? [80, 80] : [box[1] - box[0], box[3] - box[2]]);
      const direct = buffers.filter((b) => b.buffer === (read.data as Int32Array).buffer).length;
      expect(direct, `${c.what}: ${buffers.length} decoded into, ${buffers.map((b) => b.length)}`).toBe(c.direct);
      const inBox = (i: number) =>
        box === null ||
        (Math.floor(i / 80) >= box[0] && Math.floor(i / 80) < box[1] && i % 80 >= box[2] && i % 80 < box[3]);
      const want = Array.from(values).filter((_, i) => inBox(i));
      expect(Array.from(read.data as Int32Array), c.what).toEqual(want);
    }
  });
});

describe("writes of whole chunks", () => {
  it("fill a few reused buffers, not one per chunk, and store every chunk right", async () => {
    const inputs: ArrayBufferLike[] = [];
    const registry = defaultCodecRegistry()
      .clone()
      .register("reversed", () =>
        defineCodec({
          id: "reversed",
          config: {},
          create: () => ({
            encode: (data, chunk) => {
              const bytes = requireBytes(data, "reversed", chunk);
              inputs.push(bytes.buffer);
              return bytes.slice().reverse();
            },
            decode: (data, chunk) => requireBytes(data, "reversed", chunk).slice().reverse(),
          }),
        }),
      );
    const store = new MemoryStore();
    const a = await create({
      store,
      shape: [80, 80],
      chunks: [10, 10],
      dtype: "<i4",
      compressor: { id: "reversed" },
      registry,
      pool: false,
    });
    const values = Int32Array.from({ length: 6400 }, (_, i) => i * 3 + 1);
    await a.set(null, { data: values, shape: [80, 80] }, { concurrency: 4 });
    expect(inputs.length).toBe(64);
    expect(new Set(inputs).size).toBeLessThanOrEqual(4);
    expect(Array.from((await a.get(null)).data as Int32Array)).toEqual(Array.from(values));
    // Each stored chunk is its own bytes (a reused buffer never leaks into a stored value).
    const first = (await store.get("0.0"))!;
    expect(Array.from(new Int32Array(first.slice().reverse().buffer))).toEqual(
      Array.from({ length: 100 }, (_, i) => values[Math.floor(i / 10) * 80 + (i % 10)]!),
    );
  });

  it("without a compressor store chunks whose buffers are never reused under them", async () => {
    const store = new MemoryStore();
    const a = await create({ store, shape: [40], chunks: [10], dtype: "<i4", compressor: null, pool: false });
    await a.set(
      null,
      Int32Array.from({ length: 40 }, (_, i) => i),
    );
    await a.set(
      null,
      Int32Array.from({ length: 40 }, (_, i) => 100 + i),
    );
    expect(Array.from((await a.get(null)).data as Int32Array)).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i));
    await a.set(
      [slice(0, 10)],
      Int32Array.from({ length: 10 }, () => 7),
    );
    expect(Array.from((await a.get([slice(0, 20)])).data as Int32Array)).toEqual([
      ...Array(10).fill(7),
      ...Array.from({ length: 10 }, (_, i) => 110 + i),
    ]);
  });
});
