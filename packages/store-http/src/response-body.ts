import { TransientFailure } from "./errors.js";

/**
 * The whole body, checked against Content-Length: a body cut short (a dropped connection the
 * `fetch` did not notice, a proxy giving up) must never pass for the value, so a mismatch is a
 * failure worth retrying. The check is skipped when the body was decoded (Content-Encoding) or
 * the length is not visible (a cross-origin response that does not expose it).
 */
export async function readBody(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const declared = response.headers.get("content-length");
  const encoding = response.headers.get("content-encoding");
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && (encoding === null || encoding.trim().toLowerCase() === "identity")) {
    const expected = Number(declared);
    if (bytes.length !== expected) {
      throw new TransientFailure(`the body has ${bytes.length} bytes but Content-Length says ${expected} (truncated response)`, response.status);
    }
  }
  return bytes;
}

/** Lets go of a body we do not need, so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // nothing to do: the body is being thrown away
  }
}

/** Whether the response is an HTML page (say, a server's "not found" or login page). */
export function isHtml(response: Response): boolean {
  return /^\s*text\/html\b/i.test(response.headers.get("content-type") ?? "");
}
