// `node:zlib` for the browser test run (vitest.browser.config.ts): only `inflateSync` (zlib format),
// which test fixture loaders use to unpack large recorded encodings.
import { Buffer } from "buffer";
import { unzlibSync } from "fflate";

export function inflateSync(data: Uint8Array): Buffer {
  const out = unzlibSync(data);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

export default { inflateSync };
