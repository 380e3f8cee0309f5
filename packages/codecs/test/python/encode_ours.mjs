// Encodes inputs with our codecs (from dist/) for compress_fixtures.py: node encode_ours.mjs jobs.json
// Each job: { codec, input, output, config }; writes the output files and adds `ms` to each job.
import { readFileSync, writeFileSync } from "node:fs";

const dist = new URL("../../dist/", import.meta.url);
const jobsFile = process.argv[2];
const jobs = JSON.parse(readFileSync(jobsFile, "utf8"));
for (const job of jobs) {
  const input = new Uint8Array(readFileSync(job.input));
  const context = {
    dtype: { kind: "u", byteOrder: "|", itemsize: 1 },
    itemsize: 1,
    elements: input.length,
    key: "ours/0",
  };
  const { randomise, ...config } = job.config;
  // JSON.parse rounds FILTER_LZMA1 (0x4000000000000001) to 2^62; @z/meta's parser keeps it as a bigint.
  if (Array.isArray(config.filters)) {
    config.filters = config.filters.map((f) => (f.id === 2 ** 62 ? { ...f, id: 0x4000000000000001n } : f));
  }
  let encode;
  if (randomise) {
    const { encodeBzip2 } = await import(new URL("bz2-encode.js", dist).href);
    encode = (bytes) => encodeBzip2(bytes, config.level, { randomise: true });
  } else {
    const module = await import(new URL(`${job.codec}.js`, dist).href);
    const codec = module[job.codec].create(config);
    encode = (bytes) => codec.encode(bytes, context);
  }
  const started = performance.now();
  const output = await encode(input);
  job.ms = Math.round((performance.now() - started) * 10) / 10;
  writeFileSync(job.output, output);
}
writeFileSync(jobsFile, JSON.stringify(jobs));
