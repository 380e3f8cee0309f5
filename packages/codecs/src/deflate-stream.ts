/*
 * Bounded raw-DEFLATE decoding on top of fflate, shared by zlib and gzip (not exported).
 *
 * fflate's one-shot decoders (`unzlibSync`, `gunzipSync`) neither verify the Adler-32 / CRC-32
 * trailers nor say where the DEFLATE stream ended. We need checksums, so that corrupt data is an
 * error rather than garbage, and a bound on the output. Two ways:
 *
 * - `inflateWhole` (the fast path): `inflateSync` into a preallocated buffer of `limit + 1` bytes
 *   (fflate's `out` option), so a bomb cannot allocate more; it does not say where the stream
 *   ended, so callers check the trailer at the end of the input and fall back to
 * - `inflateRaw` (the exact path), used for trailing data and multi-member gzip: drives fflate's
 *   streaming `Inflate` over the input in slices, counts what it produces (stopping as soon as it
 *   exceeds the limit), and reads where the stream ended from its state (`s.p`: bit position in
 *   the unconsumed input `p`). fflate is pinned to 0.8.3; tests cover this (multi-member gzip,
 *   zero padding, trailing data).
 */
import { Inflate, inflateSync } from "fflate";

/** Why inflating failed. */
export type InflateProblem = "corrupt" | "truncated" | "too-large" | "unsupported";

export class InflateFailure extends Error {
  constructor(
    readonly problem: InflateProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "InflateFailure";
  }
}

/** The parts of fflate 0.8.3's `Inflate` state we read. */
interface InflateState {
  /** Unconsumed input. */
  p: Uint8Array;
  /** `p`: bit position in the input; `f`: the last block was final; `l`: a block is in progress. */
  s: { p?: number; f?: number; l?: unknown };
}

const FLATE_MESSAGES: Readonly<Record<number, string>> = {
  0: "unexpected end of data",
  1: "invalid block type",
  2: "invalid length/literal code",
  3: "invalid distance",
};

class TooLarge extends Error {}

function flateFailure(error: unknown): InflateFailure {
  if (error instanceof InflateFailure) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number" && code in FLATE_MESSAGES) {
    return new InflateFailure(code === 0 ? "truncated" : "corrupt", FLATE_MESSAGES[code]!, { cause: error });
  }
  return new InflateFailure("corrupt", error instanceof Error ? error.message : String(error), { cause: error });
}

/**
 * Inflates `body`, which must hold a whole raw DEFLATE stream (anything after it is ignored), into
 * a buffer of `min(sizeHint, limit) + 1` bytes. `overflow` means the output did not fit in
 * `min(sizeHint, limit)` bytes: `output` is then cut short and must not be used. Throws
 * `InflateFailure` for corrupt or truncated data.
 */
export function inflateWhole(
  body: Uint8Array,
  limit: number,
  sizeHint = Infinity,
): { output: Uint8Array; overflow: boolean } {
  if (body.length === 0) throw new InflateFailure("truncated", FLATE_MESSAGES[0]!);
  const capacity = Math.min(limit, sizeHint);
  let output: Uint8Array;
  try {
    // With `out`, fflate never grows the buffer: output past its end is dropped, and the result is
    // cut at the buffer's length, so `capacity + 1` bytes means "more than capacity".
    output = Number.isFinite(capacity) ? inflateSync(body, { out: new Uint8Array(capacity + 1) }) : inflateSync(body);
  } catch (error) {
    throw flateFailure(error);
  }
  const overflow = output.length > capacity;
  // Keep no more memory than the result needs when it is much smaller than the chunk.
  if (!overflow && output.buffer.byteLength > 2 * output.length + 4096) output = output.slice();
  return { output, overflow };
}

/**
 * Inflates `body` (a whole raw DEFLATE stream) into `out` from its start and returns the part
 * written, or `undefined` if the stream is not valid DEFLATE. Output past the end of `out` is
 * dropped unnoticed: the caller's checksum of the result must confirm it.
 */
export function inflateInto(body: Uint8Array, out: Uint8Array): Uint8Array | undefined {
  if (body.length === 0) return undefined;
  try {
    return inflateSync(body, { out });
  } catch {
    return undefined;
  }
}

/**
 * Inflates the raw DEFLATE stream that starts at `data[start]`. Returns what it decodes to and the
 * offset of the first byte after the stream (where a zlib or gzip trailer starts). Throws
 * `InflateFailure`: `truncated` if the input ends inside the stream, `corrupt` if it is not
 * DEFLATE, `too-large` as soon as the output would exceed `limit` bytes.
 */
export function inflateRaw(
  data: Uint8Array,
  start: number,
  limit: number,
  signal?: AbortSignal,
): { output: Uint8Array; end: number } {
  const parts: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((part: Uint8Array) => {
    if (part.length === 0) return;
    total += part.length;
    if (total > limit) throw new TooLarge();
    parts.push(part);
  });
  const state = inflater as unknown as InflateState;
  if (!(state.p instanceof Uint8Array) || typeof state.s !== "object") {
    throw new InflateFailure("unsupported", "unsupported fflate version (Inflate internals changed)");
  }

  // DEFLATE expands at most ~1032 times, so a slice of `step` input bytes adds at most ~1032 * step
  // output bytes (which fflate holds in one buffer): with bounded slices a bomb fails after
  // allocating at most ~16 MiB (or ~limit) past the limit.
  const step = Number.isFinite(limit) ? Math.max(1 << 14, Math.ceil(limit / 1024)) : data.length;
  let pushed = start;
  let ended = false;
  try {
    while (!ended) {
      signal?.throwIfAborted();
      const next = Math.min(data.length, pushed + step);
      const final = next === data.length;
      inflater.push(data.subarray(pushed, next), final);
      pushed = next;
      ended = Boolean(state.s.f) && !state.s.l;
      if (final && !ended) throw new InflateFailure("truncated", FLATE_MESSAGES[0]!);
    }
  } catch (error) {
    if (error instanceof TooLarge) throw new InflateFailure("too-large", `decodes to more than ${limit} bytes`);
    if (signal?.aborted && error === signal.reason) throw error;
    throw flateFailure(error);
  }

  const bitInFirst = state.s.p ?? 0;
  const end = pushed - state.p.length + ((bitInFirst + 7) >> 3);
  let output: Uint8Array;
  if (parts.length === 1) output = parts[0]!;
  else {
    output = new Uint8Array(total);
    let offset = 0;
    for (const part of parts) {
      output.set(part, offset);
      offset += part.length;
    }
  }
  return { output, end };
}

const CRC_TABLE = /* @__PURE__ */ (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 (the gzip trailer's checksum), unsigned. */
export function crc32(data: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Adler-32 (the zlib trailer's checksum), unsigned. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = data.length;
  for (let i = 0; i < n; ) {
    // 5552 bytes is the most that can be summed before b may overflow 2^32 (zlib's NMAX).
    const stop = Math.min(i + 5552, n);
    for (; i < stop; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Reads a little-endian unsigned 32-bit integer. */
export function readUint32LE(data: Uint8Array, offset: number): number {
  return (data[offset]! | (data[offset + 1]! << 8) | (data[offset + 2]! << 16) | (data[offset + 3]! << 24)) >>> 0;
}

/** Reads a big-endian unsigned 32-bit integer. */
export function readUint32BE(data: Uint8Array, offset: number): number {
  return ((data[offset]! << 24) | (data[offset + 1]! << 16) | (data[offset + 2]! << 8) | data[offset + 3]!) >>> 0;
}
