// Module hooks (see record-loads.mjs): they run on Node's hooks thread, so the log is a file.
import { appendFileSync } from "node:fs";

let dir;
let log;

export function initialize(data) {
  ({ dir, log } = data);
}

export async function load(url, context, nextLoad) {
  if (url.startsWith(dir)) appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
