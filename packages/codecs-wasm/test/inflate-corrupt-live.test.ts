/*
 * Live: on broken and hand-made streams the zlib and gzip codecs (the WebAssembly inflater, with
 * the TypeScript decoder for errors) agree with CPython's zlib and numcodecs 0.11
 * (test/python/zlib_judge.py): where Python fails they throw a CodecError, where it succeeds they
 * give its bytes, through `decode` and `decodeInto`. The streams: real zlib output (node:zlib)
 * cut at every length near either end and at some between, with bits flipped, bytes replaced and
 * bytes appended; and streams written bit by bit (deflate-craft.ts) at each rule of RFC 1951 and
 * each check zlib makes.
 * Skipped where /usr/bin/python3 lacks numcodecs.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { constants, deflateSync, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { CodecError } from "@z/codecs";
import { contextFor, pseudoRandomBytes } from "@z/codecs/testing";
import { gzip, zlib } from "../src/deflate.js";
import { loadInflate } from "../src/inflate-kernels.js";
import {
  BitWriter,
  dynamicBlock,
  expand,
  fixedBlock,
  storedBlock,
  zlibWrap,
  type DynamicOptions,
  type Sym,
} from "./deflate-craft.js";
import { floatBytes } from "./deflate-inputs.js";
import { sha256 } from "./samples.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const PYTHON = "/usr/bin/python3";
const available = spawnSync(PYTHON, ["-c", "import numcodecs"], { encoding: "utf8" }).status === 0;

type Format = "zlib" | "gzip";
interface Case {
  name: string;
  format: Format;
  data: Uint8Array;
  /** What the case was made to be, checked against Python's verdict so the test means what it says. */
  meant?: "valid" | "invalid";
}
type Verdict = { size: number; sha256: string } | { error: string };

function judge(cases: readonly Case[]): Verdict[] {
  const script = fileURLToPath(new URL("./python/zlib_judge.py", import.meta.url));
  const input = JSON.stringify(
    cases.map((c) => ({ format: c.format, encoded: Buffer.from(c.data).toString("base64") })),
  );
  const run = spawnSync(PYTHON, [script], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as Verdict[];
}

/** The chunk size the codecs are given: what Python decoded, and at least this. */
const ROOM = 1 << 16;

/** What a decode did: `<size> <sha256>`, or the class of what it threw. */
async function outcome(decode: () => unknown): Promise<string> {
  try {
    const result = await decode();
    const bytes = typeof result === "number" ? undefined : (result as Uint8Array);
    return bytes === undefined ? `${result as number} bytes` : `${bytes.length} ${sha256(bytes)}`;
  } catch (error) {
    return error instanceof CodecError ? "CodecError" : String(error);
  }
}

/** Decodes every case with `decode` and `decodeInto` and lists where the codecs and Python disagree. */
async function disagreements(cases: readonly Case[]): Promise<string[]> {
  const verdicts = judge(cases);
  expect(verdicts.length).toBe(cases.length);
  const found: string[] = [];
  const room = new Uint8Array(ROOM);
  let failures = 0;
  for (const [i, c] of cases.entries()) {
    const verdict = verdicts[i]!;
    const codec = (c.format === "zlib" ? zlib : gzip).create();
    const python = "error" in verdict ? `Python: ${verdict.error}` : `Python: ${verdict.size} bytes`;
    const check = (what: string, got: string, expected: string) => {
      if (got !== expected) found.push(`${c.name}: ${what} gave ${got}, expected ${expected} (${python})`);
    };
    if (c.meant !== undefined) check("Python", "error" in verdict ? "invalid" : "valid", c.meant);
    if ("error" in verdict) {
      failures++;
      check("decode", await outcome(() => codec.decode(c.data, contextFor(room))), "CodecError");
      check("decodeInto", await outcome(() => codec.decodeInto!(c.data, room, contextFor(room))), "CodecError");
      continue;
    }
    const limit = Math.max(ROOM, verdict.size);
    check(
      "decode",
      await outcome(() => codec.decode(c.data, contextFor(room, 1, { maxDecodedSize: limit }))),
      `${verdict.size} ${verdict.sha256}`,
    );
    const out = new Uint8Array(verdict.size);
    check(
      "decodeInto",
      await outcome(async () => (await codec.decodeInto!(c.data, out, contextFor(out)), out)),
      `${verdict.size} ${verdict.sha256}`,
    );
    if (verdict.size > 0) {
      const short = out.subarray(0, verdict.size - 1);
      check(
        "decodeInto 1 byte too few",
        await outcome(() => codec.decodeInto!(c.data, short, contextFor(short))),
        "CodecError",
      );
    }
  }
  // Both outcomes occur, or the comparison would prove little.
  expect(failures).toBeGreaterThan(0);
  expect(failures).toBeLessThan(cases.length);
  return found;
}

describe("the zlib and gzip codecs agree with CPython's zlib and numcodecs (live)", () => {
  requireTool("numcodecs", available);
  beforeAll(async () => {
    expect(await loadInflate(), "the inflater loads").toBeDefined();
  });

  it("on streams made bit by bit at each of zlib's checks", async () => {
    expect(await disagreements(craftedStreams())).toEqual([]);
  });

  for (const [i, base] of realStreams().entries()) {
    it(`on ${base.name}, cut, with bits flipped, bytes replaced and bytes appended`, async () => {
      expect(await disagreements([base, ...broken(base, i + 1)])).toEqual([]);
    }, 60_000);
  }
});

/** Pseudo-English: compresses to dynamic Huffman blocks with matches of many lengths and distances. */
function text(n: number, seed: number): Uint8Array {
  const words = [
    "zarr",
    "chunk",
    "array",
    "the",
    "of",
    "compressed",
    "float",
    "gzip",
    "deflate",
    "window",
    "block",
    "a",
    "huffman",
    "is",
  ];
  const rng = pseudoRandomBytes(n, seed);
  const parts: string[] = [];
  for (let i = 0, length = 0; length < n; i++) {
    const word = words[rng[i % n]! % words.length]!;
    parts.push(word);
    length += word.length + 1;
  }
  return new TextEncoder().encode(parts.join(" ").slice(0, n));
}

function realStreams(): Case[] {
  const t = text(1500, 3);
  const floats = floatBytes(300, 4);
  const twoMembers = new Uint8Array([...gzipSync(text(200, 5)), ...gzipSync(pseudoRandomBytes(50, 6))]);
  const cases: Case[] = [
    { name: "zlib level 6, text (dynamic Huffman)", format: "zlib", data: deflateSync(t, { level: 6 }) },
    {
      name: "zlib fixed Huffman, text",
      format: "zlib",
      data: deflateSync(t.subarray(0, 600), { strategy: constants.Z_FIXED }),
    },
    { name: "zlib level 0 (stored)", format: "zlib", data: deflateSync(pseudoRandomBytes(300, 7), { level: 0 }) },
    {
      name: "zlib level 1, memory level 1 (many blocks)",
      format: "zlib",
      data: deflateSync(floats, { level: 1, memLevel: 1 }),
    },
    { name: "gzip level 6, text", format: "gzip", data: gzipSync(t.subarray(0, 800)) },
    { name: "gzip of two members", format: "gzip", data: twoMembers },
  ];
  // node:zlib gives Buffers, whose slice() is a view: mutations must work on copies.
  return cases.map((c) => ({ ...c, data: new Uint8Array(c.data) }));
}

/** A stream cut at many lengths, with bits flipped, bytes replaced and bytes appended. */
function broken(base: Case, seed: number): Case[] {
  const { data } = base;
  const out: Case[] = [];
  const rng = pseudoRandomBytes(4096, seed);
  // Every length within 40 bytes of either end (headers, first block header, trailer), some between.
  for (let n = 0; n < data.length; n++) {
    if (n < 40 || n > data.length - 40 || rng[n % 4096]! < 40)
      out.push({ ...base, name: `${base.name} cut to ${n} bytes`, data: data.slice(0, n) });
  }
  const bits = data.length * 8;
  const flips = Array.from({ length: 400 }, (_, i) => (i < 100 ? i : ((rng[2 * i]! << 8) | rng[2 * i + 1]!) % bits));
  for (const bit of flips) {
    const flipped = data.slice();
    flipped[bit >> 3]! ^= 1 << (bit & 7);
    out.push({ ...base, name: `${base.name} with bit ${bit} flipped`, data: flipped });
  }
  for (let k = 0; k < 100; k++) {
    const replaced = data.slice();
    const at = ((rng[3000 + 2 * k]! << 8) | rng[3001 + 2 * k]!) % data.length;
    replaced[at] = rng[(k * 7) % 4096]!;
    out.push({ ...base, name: `${base.name} with byte ${at} replaced`, data: replaced });
  }
  for (const tail of [[0], [0, 0, 0, 0, 0, 0, 0, 0, 0], [1, 2, 3], [0x1f], [0x1f, 0x8b], [0x1f, 0x8b, 8, 0]]) {
    out.push({
      ...base,
      name: `${base.name} followed by [${tail.join(", ")}]`,
      data: new Uint8Array([...data, ...tail]),
    });
  }
  return out;
}

function zlibCase(
  name: string,
  meant: "valid" | "invalid",
  write: (w: BitWriter) => void,
  decoded: Uint8Array = new Uint8Array(0),
): Case {
  const w = new BitWriter();
  write(w);
  return { name, format: "zlib", meant, data: zlibWrap(w.result(), decoded) };
}

/** `n` literal/length code lengths: those of `entries` (symbol: length), the others 0. */
function litLengths(entries: Record<number, number>, n = 257): number[] {
  const lengths = new Array<number>(n).fill(0);
  for (const [sym, len] of Object.entries(entries)) lengths[Number(sym)] = len;
  return lengths;
}

function dynamicCase(
  name: string,
  meant: "valid" | "invalid",
  lit: number[],
  dist: number[],
  syms: Sym[],
  options: DynamicOptions = {},
): Case {
  return zlibCase(
    name,
    meant,
    (w) => dynamicBlock(w, lit, dist, syms, true, options),
    meant === "valid" ? expand(syms) : undefined,
  );
}

/** Streams made bit by bit at each rule zlib checks. */
function craftedStreams(): Case[] {
  const hello = [..."hello, hello, hello"].map((c) => c.charCodeAt(0));
  const helloMatch: Sym[] = [...hello.slice(0, 7), { length: 12, distance: 7 }];
  const big = Array.from({ length: 32768 }, (_, i) => (i * 7) & 255);
  const farMatch: Sym[] = [...big, { length: 258, distance: 32768 }];
  const twoLit = litLengths({ 97: 1, 256: 1 });
  const withLength = litLengths({ 97: 1, 256: 2, 257: 2 }, 258);
  const aMatch: Sym[] = [97, { length: 3, distance: 1 }];
  return [
    zlibCase("fixed: literals and a match", "valid", (w) => fixedBlock(w, helloMatch), expand(helloMatch)),
    zlibCase(
      "fixed: every literal, and matches of every length code",
      "valid",
      (w) => fixedBlock(w, fixedSyms()),
      expand(fixedSyms()),
    ),
    zlibCase(
      "fixed: length code 284 with extra bits 31 (258)",
      "valid",
      (w) => fixedBlock(w, [65, { lenCode: 284, lenExtra: 31, distCode: 0 }]),
      new Uint8Array(259).fill(65),
    ),
    zlibCase("fixed: literal/length symbol 286", "invalid", (w) => fixedBlock(w, [65, { lenCode: 286 }])),
    zlibCase("fixed: literal/length symbol 287", "invalid", (w) => fixedBlock(w, [65, { lenCode: 287 }])),
    zlibCase("fixed: distance code 30", "invalid", (w) => fixedBlock(w, [65, { lenCode: 257, distCode: 30 }])),
    zlibCase("fixed: distance code 31", "invalid", (w) => fixedBlock(w, [65, { lenCode: 257, distCode: 31 }])),
    zlibCase("fixed: a distance one past the output", "invalid", (w) =>
      fixedBlock(w, [65, 66, { length: 3, distance: 3 }]),
    ),
    zlibCase(
      "fixed: a distance to the first byte",
      "valid",
      (w) => fixedBlock(w, [65, 66, { length: 3, distance: 2 }]),
      expand([65, 66, { length: 3, distance: 2 }]),
    ),
    zlibCase("fixed: a match at distance 32768", "valid", (w) => fixedBlock(w, farMatch), expand(farMatch)),
    zlibCase("a non-final block, then the end of the data", "invalid", (w) => fixedBlock(w, hello, false)),
    zlibCase("block type 3", "invalid", (w) => w.bits(1, 1).bits(3, 2).bits(0, 16)),
    zlibCase("stored: empty", "valid", (w) => storedBlock(w, [])),
    zlibCase(
      "stored: after a fixed block, padding bits set",
      "valid",
      (w) => (fixedBlock(w, hello, false), storedBlock(w, hello, true, { padding: 1 })),
      new Uint8Array([...hello, ...hello]),
    ),
    zlibCase("stored: LEN and NLEN disagree", "invalid", (w) => storedBlock(w, hello, true, { nlen: 0x1234 })),
    zlibCase("stored: LEN past the data", "invalid", (w) => storedBlock(w, hello, true, { len: 200 })),
    dynamicCase(
      "dynamic: literals and a match",
      "valid",
      litLengths({ 104: 3, 101: 3, 108: 3, 111: 3, 44: 3, 32: 3, 256: 3, 265: 3 }, 266),
      [0, 0, 0, 0, 0, 1, 1],
      helloMatch,
    ),
    dynamicCase("dynamic: only an end-of-block code, of one bit", "valid", litLengths({ 256: 1 }), [0], []),
    dynamicCase("dynamic: two one-bit codes, no distance codes", "valid", twoLit, [0], [97, 97, 97]),
    dynamicCase("dynamic: a length with no distance codes", "invalid", withLength, [0], [97, { lenCode: 257 }]),
    dynamicCase("dynamic: one distance code, of one bit", "valid", withLength, [1], aMatch),
    dynamicCase(
      "dynamic: the missing code of a one-bit distance code",
      "invalid",
      withLength,
      [1],
      [97, { lenCode: 257 }, { bits: 1, n: 1 }],
    ),
    dynamicCase("dynamic: incomplete distance codes (1 and 2 bits)", "invalid", withLength, [1, 2], aMatch),
    dynamicCase(
      "dynamic: over-subscribed literal/length codes",
      "invalid",
      litLengths({ 97: 1, 98: 1, 256: 1 }),
      [0],
      [97],
    ),
    dynamicCase("dynamic: incomplete literal/length codes", "invalid", litLengths({ 97: 2, 98: 2, 256: 2 }), [0], [97]),
    dynamicCase("dynamic: no end-of-block code", "invalid", litLengths({ 97: 1, 98: 1 }), [0], [97]),
    dynamicCase(
      "dynamic: codes of 12 to 15 bits (second-level tables)",
      "valid",
      litLengths(DEEP_LIT, 286),
      DEEP_DIST,
      deepSyms(),
    ),
    dynamicCase("dynamic: HLIT of 287 symbols", "invalid", litLengths({ 97: 1, 256: 1 }, 287), [0], [97]),
    dynamicCase("dynamic: HLIT of 288 symbols", "invalid", litLengths({ 97: 1, 256: 1 }, 288), [0], [97]),
    dynamicCase("dynamic: HDIST of 31 symbols", "invalid", twoLit, new Array<number>(31).fill(0), [97]),
    dynamicCase("dynamic: HDIST of 32 symbols", "invalid", twoLit, new Array<number>(32).fill(0), [97]),
    dynamicCase("dynamic: a repeat (16) with nothing before it", "invalid", twoLit, [0], [97], {
      clSymbols: [[16, 0], ...[...twoLit.slice(3), 0].map((l) => [l] as const)],
    }),
    dynamicCase("dynamic: zeros (18) past the last length", "invalid", twoLit, [0], [97], {
      clSymbols: [
        [18, 127],
        [18, 127],
        [18, 127],
      ],
    }),
    dynamicCase(
      "dynamic: zeros (17) across literal and distance lengths",
      "valid",
      litLengths({ 97: 1, 256: 1 }, 258),
      [0, 0, 1],
      [97, 97],
      {
        clSymbols: [[18, 86], [1], [18, 127], [18, 9], [1], [17, 0], [1]],
      },
    ),
    dynamicCase("dynamic: over-subscribed code length code", "invalid", twoLit, [0], [97], {
      clLengths: new Array<number>(19).fill(4),
    }),
    dynamicCase("dynamic: incomplete code length code", "invalid", twoLit, [0], [97], {
      clLengths: [...new Array<number>(16).fill(5), 0, 0, 0],
    }),
    dynamicCase("dynamic: a code length code of one one-bit code", "invalid", litLengths({}), [0], [], {
      clLengths: [1, ...new Array<number>(18).fill(0)],
      clSymbols: [],
    }),
    dynamicCase("dynamic: an empty code length code", "invalid", twoLit, [0], [], {
      clLengths: new Array<number>(19).fill(0),
      clSymbols: [],
    }),
    dynamicCase("dynamic: six code length code lengths (HCLEN 2)", "valid", SIX_CL_LIT, [0], [0, 255, 100, 251], {
      ncl: 6,
      clLengths: Object.assign(new Array<number>(19).fill(0), { 8: 1, 7: 2, 0: 3, 16: 3 }),
    }),
    ...headerCases(),
  ];
}

/** Literal codes of 7 and 8 bits only (two of 7 bits: 255 and end-of-block), for six code length codes. */
const SIX_CL_LIT = Array.from({ length: 257 }, (_, i) => (i < 252 ? 8 : i >= 255 ? 7 : 0));

/** A complete literal/length code with codes of 1 to 13 and 15 bits (second-level tables), and a distance code with codes of 1 to 15 bits. */
const DEEP_LIT: Record<number, number> = { 109: 13, 110: 15, 111: 15, 256: 15, 285: 15 };
for (let i = 0; i < 12; i++) DEEP_LIT[97 + i] = i + 1;
const DEEP_DIST = Array.from({ length: 30 }, (_, i) => (i < 14 ? i + 1 : i === 14 || i === 29 ? 15 : 0));

/** Broken zlib and gzip headers and trailers, around real streams. */
function headerCases(): Case[] {
  const z = new Uint8Array(deflateSync(text(300, 9)));
  const g = new Uint8Array(gzipSync(text(300, 9)));
  const withBytes = (data: Uint8Array, at: number, bytes: number[]) => {
    const out = data.slice();
    out.set(bytes, at);
    return out;
  };
  return [
    {
      name: "zlib: window size 2^16 (CINFO 8)",
      format: "zlib",
      meant: "invalid",
      data: withBytes(z, 0, [0x88, 31 - (0x8800 % 31)]),
    },
    {
      name: "zlib: window size 2^8 (CINFO 0)",
      format: "zlib",
      meant: "valid",
      data: withBytes(z, 0, [0x08, 31 - (0x0800 % 31)]),
    },
    {
      name: "zlib: a preset dictionary (FDICT)",
      format: "zlib",
      meant: "invalid",
      data: withBytes(z, 0, [0x78, 0x20 | (31 - (0x7820 % 31))]),
    },
    {
      name: "zlib: compression method 7",
      format: "zlib",
      meant: "invalid",
      data: withBytes(z, 0, [0x77, 31 - (0x7700 % 31)]),
    },
    { name: "gzip: compression method 7", format: "gzip", meant: "invalid", data: withBytes(g, 2, [7]) },
    {
      name: "gzip: FEXTRA longer than the data",
      format: "gzip",
      meant: "invalid",
      data: new Uint8Array([...g.subarray(0, 3), 4, ...g.subarray(4, 10), 0xff, 0x7f, ...g.subarray(10)]),
    },
    {
      name: "gzip: FNAME never terminated",
      format: "gzip",
      meant: "invalid",
      data: new Uint8Array([...g.subarray(0, 3), 8, ...g.subarray(4, 10), 65, 66, 67]),
    },
    {
      name: "gzip: FCOMMENT and FNAME",
      format: "gzip",
      meant: "valid",
      data: new Uint8Array([...g.subarray(0, 3), 24, ...g.subarray(4, 10), 65, 0, 66, 0, ...g.subarray(10)]),
    },
    {
      name: "gzip: zero padding, then another member",
      format: "gzip",
      meant: "valid",
      data: new Uint8Array([...g, 0, 0, 0, ...g]),
    },
    {
      name: "gzip: a member, then bad magic",
      format: "gzip",
      meant: "invalid",
      data: new Uint8Array([...g, 0x1f, 0x8c, ...g.subarray(2)]),
    },
    { name: "gzip: a member, then a lone 0x1f", format: "gzip", meant: "invalid", data: new Uint8Array([...g, 0x1f]) },
    {
      name: "gzip: a member, then a truncated header",
      format: "gzip",
      meant: "invalid",
      data: new Uint8Array([...g, ...g.subarray(0, 9)]),
    },
    { name: "gzip: empty", format: "gzip", meant: "valid", data: new Uint8Array(0) },
    { name: "gzip: zeros only", format: "gzip", meant: "invalid", data: new Uint8Array(5) },
    { name: "zlib: empty", format: "zlib", meant: "invalid", data: new Uint8Array(0) },
  ];
}

/** Every literal, then a match of each length code, for a fixed block. */
function fixedSyms(): Sym[] {
  const syms: Sym[] = Array.from({ length: 256 }, (_, i) => i);
  for (const length of [3, 4, 10, 11, 12, 13, 18, 19, 34, 35, 66, 67, 130, 131, 226, 227, 257, 258])
    syms.push({ length, distance: 1 + (length % 200) });
  return syms;
}

/** Literals of every length of DEEP_LIT, and matches at distances of every length of DEEP_DIST. */
function deepSyms(): Sym[] {
  const syms: Sym[] = [];
  for (let i = 0; i < 60; i++) syms.push(97 + (i % 15));
  for (const distance of [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97]) syms.push({ length: 258, distance });
  for (let i = 0; i < 100; i++) syms.push({ length: 258, distance: 50 + i });
  syms.push({ length: 258, distance: 129 }, { length: 258, distance: 24577 + 5 }, 110, 111);
  return syms;
}
