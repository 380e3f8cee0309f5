import type { ResponseHead } from "./response-head.js";

/**
 * How a response's body is delimited (RFC 9112, section 6.3): not at all, by its Content-Length,
 * by chunked transfer coding, or by the server closing the connection.
 */
export type Framing = { kind: "none" } | { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" };

/** The framing of the body of `head`, the response to a `method` request. Throws for a head that makes it ambiguous. */
export function framing(method: string, head: ResponseHead): Framing {
  const { status, headers } = head;
  if (method === "HEAD" || status === 204 || status === 304) return { kind: "none" };
  const transferEncoding = headers.get("transfer-encoding");
  const contentLength = headers.get("content-length");
  if (transferEncoding !== undefined) {
    // Both at once is how responses are smuggled: an error rather than a guess.
    if (contentLength !== undefined) throw new Error("the response has both Transfer-Encoding and Content-Length");
    const codings = transferEncoding.split(",").map((coding) => coding.trim().toLowerCase());
    return codings.at(-1) === "chunked" ? { kind: "chunked" } : { kind: "close" };
  }
  if (contentLength !== undefined) return { kind: "length", length: parseContentLength(contentLength) };
  return { kind: "close" };
}

/**
 * A Content-Length value: one decimal number, or the same one repeated (`5, 5`, as a repeated
 * field reads once joined). Throws for anything else.
 */
export function parseContentLength(value: string): number {
  const values = new Set(value.split(",").map((part) => part.trim()));
  const [only] = values;
  if (values.size !== 1 || !/^[0-9]{1,15}$/.test(only!))
    throw new Error(`the response has an invalid Content-Length ${JSON.stringify(value)}`);
  return Number(only);
}

/** Whether the connection may serve another request once the response to it is read whole. */
export function keepsAlive(head: ResponseHead, framed: Framing): boolean {
  if (framed.kind === "close") return false;
  const options = (head.headers.get("connection") ?? "")
    .toLowerCase()
    .split(",")
    .map((option) => option.trim());
  if (options.includes("close")) return false;
  return head.minor === 1 || options.includes("keep-alive");
}
