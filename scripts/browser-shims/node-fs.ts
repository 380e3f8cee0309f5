// `node:fs` for the browser test run (vitest.browser.config.ts): only `readFileSync`, which test
// fixture loaders call with `new URL("./fixtures/…", import.meta.url)`. It reads the file from the
// Vite server that serves the tests, with a synchronous request as the Node call is synchronous.
import { Buffer } from "buffer";

type Encoding = BufferEncoding | { encoding?: BufferEncoding | null; flag?: string } | null | undefined;

export function readFileSync(path: string | URL, options?: Encoding): Buffer | string {
  if (typeof path === "string" && !path.startsWith("/") && !/^[a-z]+:/i.test(path)) {
    throw new Error(`readFileSync in the browser needs an absolute path or a URL, not ${JSON.stringify(path)}`);
  }
  const url = path instanceof URL || /^[a-z]+:/i.test(path) ? new URL(path) : new URL(`/@fs${path}`, location.href);
  if (url.protocol === "file:") url.href = new URL(`/@fs${url.pathname}`, location.href).href;
  const request = new XMLHttpRequest();
  request.open("GET", url.href, false);
  // Bytes as they are: each byte becomes one char in U+0000..U+00FF (U+F700.. for the high half).
  request.overrideMimeType("text/plain; charset=x-user-defined");
  request.send();
  if (request.status !== 200) {
    throw Object.assign(
      new Error(`ENOENT: no such file or directory, open '${String(path)}' (HTTP ${request.status})`),
      { code: "ENOENT" },
    );
  }
  const text = request.responseText;
  const bytes = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  const encoding = typeof options === "string" ? options : options?.encoding;
  return encoding ? bytes.toString(encoding) : bytes;
}

export default { readFileSync };
