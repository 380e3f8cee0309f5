// Run by crash-kill.test.ts in a child process, which kills it (SIGKILL): writes the chunks of the
// 8 x 8-chunk int32 array at argv[2] (made by zarr-python, chunk keys with separator argv[3]) one
// after another through a DirectoryStore, printing "wrote <n>" after each. With argv[4] "hang",
// the last chunk's temporary file is written whole but never renamed: the child prints "ready"
// there and waits to be killed. Else it prints "ready" at once and writes until killed.
import { rename } from "node:fs/promises";
import { DirectoryStore } from "@z/store-fs";

const [root, separator, mode] = [process.argv[2]!, process.argv[3]!, process.argv[4]];
// Alive until killed: a promise that never settles keeps no process alive (Node exits with 13 when
// nothing else is pending), so a child that finished its writes before the kill would exit itself.
setInterval(() => {}, 1 << 30);
const keys = Array.from({ length: 64 }, (_, i) => `${Math.floor(i / 8)}${separator}${i % 8}`);
let written = 0;
const store = new DirectoryStore(root, {
  fs: {
    rename: async (from, to) => {
      if (mode === "hang" && written === keys.length - 1) {
        process.stdout.write("ready\n");
        await new Promise(() => {}); // killed here, between writing the temporary file and renaming it
      }
      await rename(from, to);
    },
  },
});
if (mode !== "hang") process.stdout.write("ready\n");
for (const key of keys) {
  // 64 x 64 int32 values: 16 KiB a chunk, each element its chunk's number.
  await store.set(key, new Uint8Array(new Int32Array(64 * 64).fill(written + 1).buffer));
  written++;
  process.stdout.write(`wrote ${written}\n`);
}
process.stdout.write("done\n");
// The parent kills it: the interval above keeps it alive until then.
