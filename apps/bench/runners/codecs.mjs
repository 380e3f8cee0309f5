// The codec rows with z: encode and decode one chunk of the bench data with each codec, as arrays
// get them (`@z/core`'s default registry, with @z/codecs-wasm's codecs registered as the other z
// runner does), and print one JSON line. `--out DIR` keeps each encoding there for numcodecs to
// decode (runners/codecs_numcodecs.py --check DIR).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as codecs from "@z/codecs";
import * as codecsWasm from "@z/codecs-wasm";
import { defaultCodecRegistry } from "@z/core";
import { CODEC_CHUNK, CODEC_REPS, CODEC_ROWS, chunkOf } from "../src/codec-rows.mjs";
import { readManifest } from "./common.mjs";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];

for (const value of Object.values(codecsWasm)) {
  if (isFactory(value) && !codecs.defaultRegistry.has(value.id)) codecs.defaultRegistry.register(value.id, () => value);
}

function isFactory(value) {
  return (
    typeof value === "object" && value !== null && typeof value.id === "string" && typeof value.create === "function"
  );
}

/** Runs `fn` at least CODEC_REPS.min times and CODEC_REPS.seconds long: median wall seconds, mean CPU seconds. */
async function measure(fn) {
  const times = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (times.length < CODEC_REPS.min || performance.now() - start < CODEC_REPS.seconds * 1000) {
    const t = performance.now();
    await fn();
    times.push((performance.now() - t) / 1000);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return {
    seconds: times[Math.floor(times.length / 2)],
    cpuSeconds: (used.user + used.system) / 1e6 / times.length,
    reps: times.length,
  };
}

function whose(factory) {
  if (Object.values(codecsWasm).includes(factory)) return "@z/codecs-wasm";
  if (Object.values(codecs).includes(factory)) return "@z/codecs";
  return "other";
}

async function main() {
  const { n } = readManifest(args.data);
  const chunk = chunkOf(new Uint8Array(readFileSync(join(args.data, "r1.f32"))), n);
  const context = {
    key: "0.0",
    dtype: { kind: "f", byteOrder: "<", itemsize: 4 },
    itemsize: 4,
    elements: CODEC_CHUNK * CODEC_CHUNK,
    shape: [CODEC_CHUNK, CODEC_CHUNK],
  };
  const registry = defaultCodecRegistry();
  if (args.out) mkdirSync(args.out, { recursive: true });
  const rows = [];
  for (const { name, config } of CODEC_ROWS) {
    try {
      const codec = await registry.create(config);
      const implementation = whose(await registry.factory(config.id));
      // The first round trip loads the codec's code and checks it (not timed).
      const encoded = await codec.encode(chunk, context);
      const decoded = await codec.decode(encoded, context);
      if (
        Buffer.compare(Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength), Buffer.from(chunk)) !== 0
      ) {
        throw new Error("decoding the encoding did not give the chunk back");
      }
      if (args.out) writeFileSync(join(args.out, `${name.replace(/\W+/g, "-")}.bin`), encoded);
      const enc = await measure(() => codec.encode(chunk, context));
      const dec = await measure(() => codec.decode(encoded, context));
      const mb = chunk.length / 1e6;
      rows.push({
        name,
        implementation,
        encodedBytes: encoded.length,
        ratio: chunk.length / encoded.length,
        encodeMBps: mb / enc.seconds,
        decodeMBps: mb / dec.seconds,
        encodeCpuMBps: mb / enc.cpuSeconds,
        decodeCpuMBps: mb / dec.cpuSeconds,
        encodeReps: enc.reps,
        decodeReps: dec.reps,
      });
    } catch (error) {
      rows.push({ name, error: String(error?.message ?? error) });
    }
  }
  console.log(JSON.stringify({ impl: "z", status: "ok", chunkBytes: chunk.length, rows }));
}

main().catch((error) => {
  console.log(JSON.stringify({ impl: "z", status: "error", detail: String(error?.stack ?? error) }));
  process.exitCode = 1;
});
