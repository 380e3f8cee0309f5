// Run by crash-kill.test.ts in a child process, which kills it (SIGKILL) at a random moment:
// appends to the zip archive at argv[2] through a file written in place, session after session.
// Each session sets the chunks b/0 … b/3 of the int32 array "b" to the session's number, commits
// (close), and prints "committed <n>". argv[3] is the size of a chunk in elements.
import { ZipStore } from "@z/store-zip";
import { nodeFile } from "../node-file.js";

const [path, chunkLength] = [process.argv[2]!, Number(process.argv[3])];
process.stdout.write("ready\n");
for (let session = 1; ; session++) {
  const file = await nodeFile(path);
  const store = await ZipStore.open(file, { mode: "a" });
  for (let chunk = 0; chunk < 4; chunk++)
    await store.set(`b/${chunk}`, new Uint8Array(new Int32Array(chunkLength).fill(session).buffer));
  await store.close();
  await file.close();
  process.stdout.write(`committed ${session}\n`);
}
