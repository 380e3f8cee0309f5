#!/usr/bin/env node
import { main } from "./main.js";

// Ctrl-C aborts the command (long work stops, `serve` shuts down); a second one ends the process.
const controller = new AbortController();
process.on("SIGINT", () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort(new Error("interrupted"));
});
process.on("SIGTERM", () => controller.abort(new Error("terminated")));

// `zarr get ... | head`: a reader that stops early is no error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const io = {
  out: (text: string) => void process.stdout.write(text),
  err: (text: string) => void process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
  columns: process.stderr.columns,
  signal: controller.signal,
};

main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    // Nothing should keep the process alive once the command is done (e.g. a closed server).
    if (controller.signal.aborted) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`zarr: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
