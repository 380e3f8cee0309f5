/*
 * The TypeScript half of python/compare.py: encodes its data sets with our codecs and times our
 * decoding. Runs only with Z_COMPARE=<directory> (see compare.py for the three steps).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CodecConfig } from "@z/meta";
import { contextFor } from "@z/codecs/testing";
import { blosc } from "../src/blosc.js";
import { lz4 } from "../src/lz4.js";
import { zstd } from "../src/zstd.js";

const directory = process.env.Z_COMPARE;

/** CPU milliseconds of this process (steadier than wall time on a shared machine). */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

describe("compare with numcodecs", () => {
  it("encodes and times", { timeout: 600_000 }, async () => {
    const plan = JSON.parse(readFileSync(join(directory!, "plan.json"), "utf8")) as {
      datasets: Record<string, number>;
      configs: CodecConfig[];
    };
    const results: Record<string, { encoded: string; decode_mb_s: number; encode_mb_s: number }> = {};
    for (const [name, itemsize] of Object.entries(plan.datasets)) {
      const data = new Uint8Array(readFileSync(join(directory!, `${name}.bin`)));
      const context = contextFor(data, itemsize);
      for (const config of plan.configs) {
        const factory = config.id === "blosc" ? blosc : config.id === "zstd" ? zstd : lz4;
        const codec = factory.create(config);
        let encoded: Uint8Array = new Uint8Array(0);
        let encodeTime = Infinity;
        for (let i = 0; i < 3; i++) {
          const t = cpu();
          encoded = (await codec.encode(data, context)) as Uint8Array;
          encodeTime = Math.min(encodeTime, cpu() - t);
        }
        let decodeTime = Infinity;
        for (let i = 0; i < 7; i++) {
          const t = cpu();
          const decoded = (await codec.decode(encoded, context)) as Uint8Array;
          decodeTime = Math.min(decodeTime, cpu() - t);
          if (i === 0) expect(Buffer.compare(decoded, data)).toBe(0);
        }
        const key = `${name} ${JSON.stringify(config, Object.keys(config).sort())}`;
        results[key] = {
          encoded: Buffer.from(encoded).toString("base64"),
          decode_mb_s: data.length / 1e3 / decodeTime,
          encode_mb_s: data.length / 1e3 / encodeTime,
        };
      }
    }
    writeFileSync(join(directory!, "ours.json"), JSON.stringify(results));
  });
});
