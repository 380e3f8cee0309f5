// `node apps/bench/micro/msgpack.mjs [--rounds 5]`: @z/codecs' MessagePack (packages/codecs/src/
// msgpack.ts, what the msgpack2 codec packs and unpacks) against @msgpack/msgpack.
//
// 1. Compatibility: every msgpack2 fixture numcodecs 0.11 wrote (packages/codecs/test/fixtures/
//    numcodecs-objects.json): the values our decoder reads from numcodecs' bytes are packed again by
//    the library, given every help it can take (MsgpackExt as an extension, integers beyond
//    2^31 as bigints with useBigInt64, JsonFloat as its number, forceFloat32 for
//    use_single_float), and compared with numcodecs' bytes; and the library decodes them.
// 2. Speed: pack and unpack of object chunks as msgpack2 sees them (`chunk.tolist() + [dtype,
//    shape]`), ours and the library's alternately in each round; median milliseconds. The
//    library's `Encoder`/`Decoder` are made once and reused (its fastest use).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { inflateSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { Decoder, Encoder, ExtensionCodec } from "@msgpack/msgpack";
import { JsonFloat } from "@z/meta";
import { MsgpackExt, msgpackPack, msgpackUnpack } from "@z/codecs/msgpack";
import { median } from "../src/lib.mjs";
import { cpuMicros } from "./cpu-time.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const rounds = Number(argv[argv.indexOf("--rounds") + 1] || 5);

const extensionCodec = new ExtensionCodec();
// Any type code: the library's encode hook is keyed by a type it writes; MsgpackExt carries its own.
for (let type = -128; type < 128; type++) {
  extensionCodec.register({
    type,
    encode: (value) => (value instanceof MsgpackExt && value.type === type ? value.data : null),
    decode: (data) => new MsgpackExt(type, data.slice()),
  });
}

/** A value as the library can best take it. */
function forLibrary(value) {
  if (value instanceof JsonFloat) return value.value;
  if (typeof value === "number" && Number.isInteger(value) && (value >= 2 ** 31 || value < -(2 ** 31)))
    return BigInt(value);
  if (Array.isArray(value)) return value.map(forLibrary);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [forLibrary(k), forLibrary(v)]));
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forLibrary(v)]));
  if (value !== null && typeof value === "object" && value.constructor === Object)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forLibrary(v)]));
  return value;
}

const hex = (bytes) => Buffer.from(bytes).toString("hex");

// 1. Compatibility with numcodecs' bytes.
const fixtures = JSON.parse(
  readFileSync(join(here, "../../../packages/codecs/test/fixtures/numcodecs-objects.json"), "utf8"),
).cases.filter((c) => c.config?.id === "msgpack2");
console.log(`compatibility: ${fixtures.length} msgpack2 fixtures of numcodecs ${"0.11"}`);
let packedSame = 0;
let decodedSame = 0;
let compared = 0;
for (const c of fixtures) {
  const bytes = new Uint8Array(
    c.encoded !== undefined ? Buffer.from(c.encoded, "base64") : inflateSync(Buffer.from(c.encodedDeflated, "base64")),
  );
  const raw = c.config.raw;
  // What numcodecs packed: strs as strings where they are UTF-8 (raw only changes decoding).
  let ours;
  try {
    ours = msgpackUnpack(bytes, { raw: false });
  } catch {
    ours = msgpackUnpack(bytes, { raw: true });
  }
  if (
    hex(msgpackPack(ours, { useSingleFloat: c.config.use_single_float, useBinType: c.config.use_bin_type })) !==
    hex(bytes)
  )
    throw new Error(`ours does not give numcodecs' bytes for ${c.name}`);
  const encoder = new Encoder({ extensionCodec, useBigInt64: true, forceFloat32: c.config.use_single_float });
  let why = "";
  try {
    const theirs = encoder.encode(forLibrary(ours));
    if (hex(theirs) === hex(bytes)) packedSame++;
    else why = `different bytes (${theirs.length} vs ${bytes.length}) from offset ${firstDifference(theirs, bytes)}`;
  } catch (err) {
    why = `throws ${err.message}`;
  }
  let decodeWhy = "";
  let decoded;
  let expected;
  try {
    expected = msgpackUnpack(bytes, { raw });
  } catch {
    // numcodecs refused it too (a raw str that is not UTF-8): the library must refuse it.
  }
  try {
    decoded = new Decoder({ extensionCodec, useBigInt64: true, rawStrings: raw }).decode(bytes);
  } catch (err) {
    decodeWhy = `throws ${err.message}`;
  }
  if (expected === undefined) {
    if (decoded === undefined) decodedSame++;
    else decodeWhy = "accepts what numcodecs refuses";
  } else if (decoded !== undefined) {
    // Packed again as numcodecs packs (ours): whatever the decode lost shows here.
    const pack = (v) =>
      msgpackPack(v, { useSingleFloat: c.config.use_single_float, useBinType: c.config.use_bin_type });
    let again;
    try {
      again = pack(decoded);
    } catch {}
    if (again !== undefined && hex(again) === hex(pack(expected))) decodedSame++;
    else
      decodeWhy = "loses what numcodecs wrote (floats with integral values come back as ints, ints as 64-bit bigints)";
  }
  compared++;
  console.log(`  ${c.name}: pack ${why || "same bytes"}; decode ${decodeWhy || "same values"}`);
}
console.log(
  `library packs numcodecs' bytes for ${packedSame}/${compared}, decodes to the same values for ${decodedSame}/${compared}`,
);

function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

// 2. Speed.
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = random(7);
const n = 100_000;
const words = ["alpha", "beta", "gamma", "delta", "épsilon", "zeta", "eta", "theta", "ιώτα", "kappa"];
const item = (i) => `${words[i % 10]}-${Math.floor(rnd() * 1e6)}${"x".repeat(i % 25)}`;
const cases = [
  { name: `${n} strs of 7-40 bytes`, values: Array.from({ length: n }, (_, i) => item(i)) },
  { name: `${n} floats (non-integral)`, values: Array.from({ length: n }, () => rnd() * 1e6 - 5e5) },
  { name: `${n} small ints`, values: Array.from({ length: n }, () => Math.floor(rnd() * 70000) - 35000) },
  {
    name: `${n / 10} dicts {name, value, tags}`,
    values: Array.from({ length: n / 10 }, (_, i) => ({ name: item(i), value: i, tags: [item(i + 1), null, true] })),
  },
];

const options = { useSingleFloat: false, useBinType: true };
const encoder = new Encoder({ extensionCodec, useBigInt64: true });
const decoder = new Decoder({ extensionCodec, useBigInt64: true });
const time = (fn) => {
  const start = cpuMicros();
  fn();
  return (cpuMicros() - start) / 1e3;
};

console.log(`\nspeed: median CPU ms of ${rounds} rounds (each: ours, then the library, alternating which goes first)`);
console.log("| chunk | bytes | pack ours | pack library | unpack ours | unpack library |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const c of cases) {
  const items = [...c.values, "|O", [c.values.length]];
  const packed = msgpackPack(items, options);
  const same = hex(encoder.encode(items)) === hex(packed);
  // warm both up
  for (let i = 0; i < 3; i++) {
    msgpackUnpack(msgpackPack(items, options), { raw: false });
    decoder.decode(encoder.encode(items));
  }
  const t = { po: [], pl: [], uo: [], ul: [] };
  for (let r = 0; r < rounds; r++) {
    const ours = () => {
      t.po.push(time(() => msgpackPack(items, options)));
      t.uo.push(time(() => msgpackUnpack(packed, { raw: false })));
    };
    const lib = () => {
      t.pl.push(time(() => encoder.encode(items)));
      t.ul.push(time(() => decoder.decode(packed)));
    };
    if (r % 2 === 0) {
      ours();
      lib();
    } else {
      lib();
      ours();
    }
  }
  const m = (xs) => median(xs).toFixed(1);
  console.log(
    `| ${c.name}${same ? "" : " (library's bytes differ)"} | ${packed.length} | ${m(t.po)} | ${m(t.pl)} | ${m(t.uo)} | ${m(t.ul)} |`,
  );
}
