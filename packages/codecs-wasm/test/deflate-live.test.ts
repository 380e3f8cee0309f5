/*
 * Live: Python's zlib.decompress and gzip.decompress and numcodecs 0.11 (/usr/bin/python3) decode
 * what the WebAssembly DEFLATE encoder writes, at every level, and its sizes are within 2% of
 * CPython's zlib. Skipped where that Python is missing.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { contextFor } from "@z/codecs/testing";
import { gzip, zlib } from "../src/deflate.js";
import { LEVELS, floatBytes, fuzzInputs, inputs } from "./deflate-inputs.js";
import { sha256 } from "./samples.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const PYTHON = "/usr/bin/python3";
const available = spawnSync(PYTHON, ["-c", "import numcodecs"], { encoding: "utf8" }).status === 0;

describe("zlib and gzip encodings, decoded by Python (live)", () => {
  requireTool("numcodecs", available);
  it("zlib.decompress, gzip.decompress and numcodecs decode every level of fuzzed inputs to the input", async () => {
    const cases: { id: string; level: number; encoded: string; sha256: string; size: number }[] = [];
    const all = [...inputs().map((i) => i.data), ...fuzzInputs(40)];
    for (const [k, data] of all.entries()) {
      for (const level of k < inputs().length ? LEVELS : [LEVELS[k % LEVELS.length]!]) {
        for (const codec of [zlib.create({ level }), gzip.create({ level })]) {
          const encoded = (await codec.encode(data, contextFor(data))) as Uint8Array;
          cases.push({
            id: codec.toJSON().id,
            level,
            encoded: Buffer.from(encoded).toString("base64"),
            sha256: sha256(data),
            size: data.length,
          });
        }
      }
    }
    const script = `
import base64, gzip, hashlib, json, sys, zlib
import numcodecs
out = []
for c in json.load(sys.stdin):
    raw = base64.b64decode(c["encoded"])
    py = zlib.decompress(raw) if c["id"] == "zlib" else gzip.decompress(raw)
    nc = numcodecs.get_codec({"id": c["id"], "level": c["level"]}).decode(raw)
    out.append([hashlib.sha256(py).hexdigest(), hashlib.sha256(bytes(nc)).hexdigest()])
print(json.dumps(out))
`;
    const run = spawnSync(PYTHON, ["-c", script], {
      input: JSON.stringify(cases),
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    expect(run.stderr).toBe("");
    const results = JSON.parse(run.stdout) as [string, string][];
    expect(results.length).toBe(cases.length);
    for (const [i, [py, nc]] of results.entries()) {
      const c = cases[i]!;
      expect(py, `${c.id} level ${c.level}, ${c.size} bytes`).toBe(c.sha256);
      expect(nc, `${c.id} level ${c.level}, ${c.size} bytes (numcodecs)`).toBe(c.sha256);
    }
  }, 120_000);

  it("compress within 2% of zlib at every level (a smooth float32 field with noise)", () => {
    const data = floatBytes(1 << 18, 5);
    const script = `
import sys, zlib, json
d = sys.stdin.buffer.read()
print(json.dumps([len(zlib.compress(d, l)) for l in ${JSON.stringify(LEVELS)}]))
`;
    const run = spawnSync(PYTHON, ["-c", script], { input: data, encoding: "utf8" });
    const sizes = JSON.parse(run.stdout) as number[];
    return (async () => {
      for (const [i, level] of LEVELS.entries()) {
        const ours = (await zlib.create({ level }).encode(data, contextFor(data, 4))) as Uint8Array;
        expect(
          Math.abs(ours.length / sizes[i]! - 1),
          `level ${level}: ours ${ours.length}, zlib ${sizes[i]}`,
        ).toBeLessThan(0.02);
      }
    })();
  }, 60_000);
});
