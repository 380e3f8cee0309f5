#!/usr/bin/env node
import { UsageError } from "./command.js";
import { main } from "./main.js";
import { loadStoreModules } from "./store-drivers.js";

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

// Stores of other packages (ZARR_STORES=module,...) registered before any STORE is opened.
loadStoreModules(process.env.ZARR_STORES, process.cwd())
  .then(() => main(process.argv.slice(2), io))
  .then(
    (code) => {
      process.exitCode = code;
      // Nothing should keep the process alive once the command is done (e.g. a closed server).
      if (controller.signal.aborted) process.exit(code);
    },
    (error: unknown) => {
      const text =
        error instanceof UsageError
          ? error.message
          : error instanceof Error
            ? (error.stack ?? error.message)
            : String(error);
      process.stderr.write(`zarr: ${text}\n`);
      process.exitCode = 1;
    },
  );
