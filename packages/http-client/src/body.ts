import { TransientFailure } from "./errors.js";

/**
 * The whole body, checked against Content-Length: a body cut short (a dropped connection the
 * `fetch` did not notice, a proxy giving up) must never pass for the value, so a mismatch is a
 * failure worth retrying. The check is skipped when the body was decoded (Content-Encoding) or
 * the length is not visible (a cross-origin response that does not expose it). A declared length
 * is read straight into a buffer of that size, which is much cheaper than `arrayBuffer()`
 * gathering the pieces (Node's fetch: about half the CPU for large bodies).
 */
export async function readBody(response: Response): Promise<Uint8Array> {
  const expected = declaredLength(response);
  if (expected === undefined || response.body === null) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (expected !== undefined && bytes.length !== expected) throw wrongLength(bytes.length, expected, response.status);
    return bytes;
  }
  const out = new Uint8Array(expected);
  let at = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.length > expected - at) {
      await reader.cancel().catch(() => undefined);
      throw wrongLength(`more than ${expected}`, expected, response.status);
    }
    out.set(value, at);
    at += value.length;
  }
  if (at !== expected) throw wrongLength(at, expected, response.status);
  return out;
}

/** The Content-Length of a body that arrives as sent (no Content-Encoding), if the response shows it. */
function declaredLength(response: Response): number | undefined {
  const declared = response.headers.get("content-length");
  const encoding = response.headers.get("content-encoding");
  if (declared === null || !/^\s*\d+\s*$/.test(declared)) return undefined;
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return undefined;
  return Number(declared);
}

const wrongLength = (got: number | string, expected: number, status: number): TransientFailure =>
  new TransientFailure(
    `the body has ${got} bytes but Content-Length says ${expected} (${typeof got === "number" && got < expected ? "truncated response" : "longer response"})`,
    status,
  );

/** Lets go of a body we do not need, so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // nothing to do: the body is being thrown away
  }
}

/** Whether the response is an HTML page (say, a server's "not found" or login page). */
export function isHtml(response: { headers: { get(name: string): string | null } }): boolean {
  return /^\s*text\/html\b/i.test(response.headers.get("content-type") ?? "");
}
