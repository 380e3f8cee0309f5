/// <reference types="node" />
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, inflateRaw } from "node:zlib";
import { StoreError } from "@z/meta";
import { plain } from "./pieces.js";

/** What the Node transport asks for when a request does not say: what Node's `fetch` asks for. */
export const ACCEPT_ENCODING = "gzip, deflate, br";

const decoders: Record<string, (bytes: Uint8Array) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  // "deflate" should be zlib-wrapped, but some servers send raw DEFLATE: a zlib header's low
  // nibble is 8 (the method), as fetch implementations check too.
  deflate: (bytes) => ((bytes[0]! & 0x0f) === 8 ? promisify(inflate)(bytes) : promisify(inflateRaw)(bytes)),
  br: promisify(brotliDecompress),
};

/**
 * `bytes` with the Content-Encoding `header` undone (codings are listed in the order they were
 * applied, so they are undone last first), as `fetch` does. A coding it does not know is an
 * error: passing the bytes on as they are would hand a decoder garbage far from the cause.
 */
export async function decodeContent(
  bytes: Uint8Array,
  header: string | undefined,
  request: string,
): Promise<Uint8Array> {
  const codings = (header ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  let out = bytes;
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    if (decode === undefined)
      throw new StoreError(
        `${request} answered with Content-Encoding ${JSON.stringify(header)}, which cannot be decoded (known: ${Object.keys(decoders).join(", ")})`,
      );
    out = plain(await decode(out));
  }
  return out;
}
