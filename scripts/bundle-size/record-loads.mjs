// `node --import ./record-loads.mjs page-run.mjs <entry file> <scenario> <log file>`: every module
// file Node loads from the entry's directory is appended to the log file, one file: URL a line, so
// pnpm size knows which files of a bundle a page really loaded (its static imports, and the dynamic
// imports it ran).
import { register } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";

const [entry, , log] = process.argv.slice(2);
register("./record-loads-hooks.mjs", {
  parentURL: import.meta.url,
  data: { dir: `${pathToFileURL(dirname(entry)).href}/`, log },
});
