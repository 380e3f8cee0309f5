import { StoreError } from "@z/meta";

/** Header names as HTTP defines them (RFC 9110's `token`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * `HeadersInit` (a `Headers`, `[name, value]` pairs or a record) as a record with lower-case names,
 * values trimmed and repeated names joined with ", ", as `new Headers(init)` would hold them. Built
 * without `Headers` itself: in Node that class loads all of undici (~30 ms), which the Node
 * transport has no other use for, and copying one per request costs more than a record.
 */
export function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = String(name).toLowerCase();
    const text = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    if (!TOKEN.test(key) || /[\0\r\n]/.test(text))
      throw new StoreError(
        `invalid HTTP option headers: ${JSON.stringify(name)}: ${JSON.stringify(value)} is not a valid header`,
      );
    out[key] = key in out ? `${out[key]}, ${text}` : text;
  };
  if (init === undefined) return out;
  if (Array.isArray(init)) {
    for (const pair of init) {
      if (pair.length !== 2)
        throw new StoreError(`invalid HTTP option headers: expected [name, value] pairs, got ${JSON.stringify(pair)}`);
      add(pair[0]!, pair[1]!);
    }
  } else if (typeof (init as Headers).forEach === "function") {
    (init as Headers).forEach((value, name) => add(name, value));
  } else {
    for (const [name, value] of Object.entries(init)) add(name, value);
  }
  return out;
}
