// @z/cli as a library: `main(argv, io)` runs a command with the caller's output.
// Usage: node main.js ARRAY (a directory holding an array).
import { main, type Io } from "@z/cli";

let out = "";
const io: Io = {
  out: (text) => void (out += text),
  err: (text) => void process.stderr.write(text),
  interactive: false,
};
const code = await main(["info", process.argv[2] ?? "", "--json"], io);
if (code !== 0) throw new Error(`zarr info exited ${code}`);
const info = JSON.parse(out) as { shape?: number[] };
if (!Array.isArray(info.shape)) throw new Error(`zarr info --json gave no shape: ${out}`);
console.log(`main(["info", ..., "--json"]): shape [${info.shape}]`);
