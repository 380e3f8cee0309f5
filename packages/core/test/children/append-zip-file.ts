// Run by zip-crash.test.ts in a child process, which kills it (SIGKILL) at a random moment: opens
// the zip file at argv[2] as the CLI does (openLocation, which writes through fileByteSource),
// session after session, sets the 4 chunks of the int32 array "b" (argv[3] elements each) to the
// session's number, compacts every third session, closes, and prints "committed <n>". When the
// file does not exist yet, the first session creates it, with the array's metadata.
import { existsSync } from "node:fs";
import { openLocation } from "@z/core/node";
import { registerStoreDriver } from "@z/meta";
import { fsStoreDriver } from "@z/store-fs";
import { zipStoreDriver, type ZipStore } from "@z/store-zip";

// This program is bundled (see zip-crash.test.ts), and a bundle holds only what it imports: it
// registers the drivers of the stores it opens, as the CLI does, since `@z/core/node` imports store
// packages by the names the store registry gives, which a bundler does not follow.
registerStoreDriver(fsStoreDriver);
registerStoreDriver(zipStoreDriver);

const [path, chunkLength] = [process.argv[2]!, Number(process.argv[3])];
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
process.stdout.write("ready\n");
for (let session = 1; ; session++) {
  const creating = !existsSync(path);
  const { store, close } = await openLocation(path, { writable: true });
  const zip = store as ZipStore;
  if (creating) {
    await zip.set(".zgroup", json({ zarr_format: 2 }));
    await zip.set(
      "b/.zarray",
      json({
        zarr_format: 2,
        shape: [4 * chunkLength],
        chunks: [chunkLength],
        dtype: "<i4",
        compressor: null,
        fill_value: -1,
        filters: null,
        order: "C",
      }),
    );
  }
  for (let chunk = 0; chunk < 4; chunk++)
    await zip.set(`b/${chunk}`, new Uint8Array(new Int32Array(chunkLength).fill(session).buffer));
  if (session % 3 === 0) await zip.compact();
  await close();
  process.stdout.write(`committed ${session}\n`);
}
