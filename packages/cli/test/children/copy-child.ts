// `zarr copy …` (the CLI's `main`, from the sources) in a process of its own, for
// copy-resume.test.ts. Every store write that completes (a `set` or `delete` of a directory store
// or an S3 store) is counted; with ZARR_TEST_KILL_AFTER=N the process SIGKILLs itself right after
// the N-th, the copy's other writes still in flight, as a kill at that moment would leave them.
// When it ends by itself it prints one line of JSON: {"code": <exit code>, "writes": <count>}.
import { main } from "@z/cli";
import { DirectoryStore } from "@z/store-fs";
import { S3Store } from "@z/store-s3";

const killAfter = process.env.ZARR_TEST_KILL_AFTER === undefined ? undefined : Number(process.env.ZARR_TEST_KILL_AFTER);
let writes = 0;
const counted = (): void => {
  writes += 1;
  if (writes === killAfter) process.kill(process.pid, "SIGKILL");
};

for (const store of [DirectoryStore.prototype, S3Store.prototype]) {
  const { set, delete: remove } = store;
  store.set = async function (this: typeof store, ...args: Parameters<typeof set>) {
    await set.apply(this, args);
    counted();
  };
  store.delete = async function (this: typeof store, ...args: Parameters<typeof remove>) {
    await remove.apply(this, args);
    counted();
  };
}

let err = "";
const code = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => void (err += text),
  interactive: false,
});
process.stderr.write(err);
process.stdout.write(`${JSON.stringify({ code, writes })}\n`);
