/// <reference types="node" />
import type { IncomingMessage } from "node:http";
import { TransientFailure } from "../errors.js";
import { Pieces, uninitialized } from "./pieces.js";

/**
 * The body of `response` as sent (before any Content-Encoding is undone), checked against its
 * Content-Length. A declared length is read straight into one buffer of that size, piece by
 * piece as the socket delivers them: no web streams, no list of pieces to join. A connection
 * that closes early (or is destroyed, as an abort or timeout does) rejects.
 */
export function readRawBody(response: IncomingMessage): Promise<Uint8Array> {
  const declared = response.headers["content-length"];
  const expected = declared !== undefined && /^\s*\d+\s*$/.test(declared) ? Number(declared) : undefined;
  return new Promise((resolve, reject) => {
    if (response.destroyed) {
      reject(new Error("the connection closed before the body was read"));
      return;
    }
    // One buffer of the declared size (not zeroed: every byte is written before it is returned).
    const out = expected === undefined ? undefined : uninitialized(expected);
    const pieces = new Pieces();
    let at = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      response.destroy();
      reject(err);
    };
    response.on("data", (piece: Buffer) => {
      if (out === undefined) {
        pieces.add(piece);
      } else if (piece.length > out.length - at) {
        fail(
          new TransientFailure(
            `the body has more than ${out.length} bytes but Content-Length says ${out.length} (longer response)`,
            response.statusCode,
          ),
        );
        return;
      } else {
        out.set(piece, at);
      }
      at += piece.length;
    });
    response.once("end", () => {
      if (settled) return;
      settled = true;
      if (out === undefined) resolve(pieces.joined());
      else if (at === out.length) resolve(out);
      else
        reject(
          new TransientFailure(
            `the body has ${at} bytes but Content-Length says ${out.length} (truncated response)`,
            response.statusCode,
          ),
        );
    });
    response.on("error", fail);
    response.once("close", () => {
      const of = out === undefined ? "" : ` of the ${out.length}`;
      fail(new Error(`the connection closed after ${at}${of} bytes of the body (truncated response)`));
    });
  });
}
