import { StoreError } from "@z/meta";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// A header value may hold any byte but NUL, CR and LF: those would end the line and let the
// rest be read as headers of its own (header injection).
const UNSAFE_VALUE = /[\0\r\n]/;

/**
 * The head of an HTTP/1.1 request: request line, Host, `headers` (by lower-case name) and, for a
 * request with a body, its Content-Length. Refuses (a `StoreError`, never retried) header names
 * that are not tokens and values with line breaks.
 */
export function requestHead(
  method: string,
  url: URL,
  headers: Readonly<Record<string, string>>,
  bodyLength: number | undefined,
): string {
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  if (headers.host === undefined) head += `host: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (name === "content-length") continue;
    if (!TOKEN.test(name))
      throw new StoreError(`${method} ${url.href}: the header name ${JSON.stringify(name)} is not a valid token`);
    if (UNSAFE_VALUE.test(value))
      throw new StoreError(
        `${method} ${url.href}: the value of the header ${JSON.stringify(name)} holds a line break or NUL, which would inject headers: ${JSON.stringify(value)}`,
      );
    head += `${name}: ${value}\r\n`;
  }
  if (bodyLength !== undefined) head += `content-length: ${bodyLength}\r\n`;
  return `${head}\r\n`;
}
