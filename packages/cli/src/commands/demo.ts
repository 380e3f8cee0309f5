import { create, openArray, slice } from "@z/core";
import { TempStore } from "@z/store-fs";
import type { Command } from "../command.js";

/**
 * The README's main job: an example array in a temporary directory, written, read back and checked,
 * then described with `info`.
 */
export const demo: Command = {
  name: "demo",
  summary: "create an example array in a temp directory, write it, read it back and print its info",
  usage: "zarr demo [--keep]",
  details: "  --keep    keep the temporary directory (its path is printed on stderr)",
  flags: { keep: "boolean" },
  async run(args, io) {
    const store = new TempStore();
    try {
      const shape = [1000, 1200];
      const z = await create({
        store,
        path: "example",
        shape,
        chunks: [250, 300],
        dtype: "<i4",
        compressor: { id: "zlib", level: 1 },
        fillValue: -1,
        attributes: { description: "i * 1200 + j in each cell, bottom rows left unwritten" },
      });
      const rows = 900; // the last 100 rows stay unwritten: they read as the fill value
      const data = new Int32Array(rows * shape[1]!);
      for (let i = 0; i < data.length; i++) data[i] = i;
      await z.set([slice(0, rows), null], { data, shape: [rows, shape[1]!] });

      const back = await openArray(store, { path: "example", mode: "r" });
      const all = await back.get();
      const values = all.data as Int32Array;
      for (let i = 0; i < values.length; i++) {
        const expected = i < rows * shape[1]! ? i : -1;
        if (values[i] !== expected) throw new Error(`read back ${values[i]} at flat index ${i}, expected ${expected}`);
      }
      const corner = await back.get([slice(-3, null), slice(0, 3)]);
      io.out(`wrote and read back ${values.length} values in ${store.root}/example\n`);
      io.out(
        `rows 997-999, cols 0-2 (unwritten, fill value -1): ${Array.from(corner.data as Int32Array).join(" ")}\n\n`,
      );
      io.out(await back.info());
      return 0;
    } finally {
      if (args.flags.has("keep")) io.err(`kept ${store.root}\n`);
      else await store.close();
    }
  },
};
