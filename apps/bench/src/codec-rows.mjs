// The codec rows of `pnpm bench` (issue 3): each codec's encode and decode speed and compression
// ratio on one chunk of the bench data, z against numcodecs (C) in the same run. Run with
// `--cases codecs` (part of every run unless `--cases` leaves it out).

/** The codecs measured, as `.zarray` compressor configs (the read and write cases' ones, and more). */
export const CODEC_ROWS = [
  { name: "blosc lz4 5 shuffle", config: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 } },
  { name: "blosc zstd 3 bitshuffle", config: { id: "blosc", cname: "zstd", clevel: 3, shuffle: 2, blocksize: 0 } },
  { name: "zstd 3", config: { id: "zstd", level: 3 } },
  { name: "lz4", config: { id: "lz4", acceleration: 1 } },
  { name: "zlib 1", config: { id: "zlib", level: 1 } },
  { name: "gzip 1", config: { id: "gzip", level: 1 } },
];

/** The chunk: the first 1024x1024 chunk of R1's array (C order rows 0-1023, columns 0-1023). */
export const CODEC_CHUNK = 1024;

/** Each side repeats an encode (and a decode) at least this many times and for at least this long. */
export const CODEC_REPS = { min: 3, seconds: 0.4 };

/** The chunk's bytes out of the n x n float32 source (little-endian, C order). */
export function chunkOf(source, n, size = CODEC_CHUNK) {
  const out = new Uint8Array(size * size * 4);
  for (let row = 0; row < size; row++) out.set(source.subarray(row * n * 4, row * n * 4 + size * 4), row * size * 4);
  return out;
}

/**
 * Per codec: the median over rounds of each side's MB/s (of uncompressed bytes) and its ratio
 * (uncompressed / compressed), and z ÷ numcodecs for each (above 1: z is faster, or compresses
 * more). `runs` are the runners' lines: `{ impl, round, status, rows: [{ name, encodeMBps, … }] }`.
 */
export function summarizeCodecs(runs, median) {
  return CODEC_ROWS.map(({ name, config }) => {
    const side = (impl) => {
      const rows = runs
        .filter((r) => r.impl === impl && r.status === "ok")
        .map((r) => r.rows.find((x) => x.name === name))
        .filter(Boolean);
      const pick = (key) => median(rows.map((x) => x[key]));
      const failed = rows.find((x) => x.error)?.error;
      return {
        encodeMBps: pick("encodeMBps"),
        decodeMBps: pick("decodeMBps"),
        encodeCpuMBps: pick("encodeCpuMBps"),
        decodeCpuMBps: pick("decodeCpuMBps"),
        ratio: pick("ratio"),
        implementation: rows[0]?.implementation,
        error: failed,
      };
    };
    const z = side("z");
    const numcodecs = side("numcodecs");
    const divide = (a, b) => (a === undefined || b === undefined ? undefined : a / b);
    return {
      name,
      config,
      z,
      numcodecs,
      encode: divide(z.encodeMBps, numcodecs.encodeMBps),
      decode: divide(z.decodeMBps, numcodecs.decodeMBps),
      encodeCpu: divide(z.encodeCpuMBps, numcodecs.encodeCpuMBps),
      decodeCpu: divide(z.decodeCpuMBps, numcodecs.decodeCpuMBps),
      ratio: divide(z.ratio, numcodecs.ratio),
    };
  });
}

const mbps = (v) => (v === undefined ? "—" : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const times = (v) => (v === undefined ? "—" : `${v.toFixed(2)}×`);
const pct = (v) => (v === undefined ? "—" : `${v >= 1 ? "+" : ""}${((v - 1) * 100).toFixed(1)}%`);

/** The codec table (markdown), from `summarizeCodecs`. */
export function formatCodecTable(summary, markdownTable) {
  const header = [
    "codec (1024x1024 float32 chunk)",
    "z encode MB/s",
    "numcodecs encode MB/s",
    "z ÷ numcodecs encode",
    "z decode MB/s",
    "numcodecs decode MB/s",
    "z ÷ numcodecs decode",
    "z ratio",
    "numcodecs ratio",
    "z ratio vs numcodecs",
  ];
  const rows = summary.map((s) => [
    s.name,
    s.z.error ? "error" : mbps(s.z.encodeMBps),
    s.numcodecs.error ? "error" : mbps(s.numcodecs.encodeMBps),
    times(s.encode),
    mbps(s.z.decodeMBps),
    mbps(s.numcodecs.decodeMBps),
    times(s.decode),
    s.z.ratio === undefined ? "—" : s.z.ratio.toFixed(4),
    s.numcodecs.ratio === undefined ? "—" : s.numcodecs.ratio.toFixed(4),
    pct(s.ratio),
  ]);
  const cpu = [
    ["codec", "z ÷ numcodecs encode, CPU", "z ÷ numcodecs decode, CPU", "z encoder"],
    ...summary.map((s) => [s.name, times(s.encodeCpu), times(s.decodeCpu), s.z.implementation ?? "—"]),
  ];
  const errors = summary.flatMap((s) => [
    ...(s.z.error ? [`- ${s.name} z: ${s.z.error}`] : []),
    ...(s.numcodecs.error ? [`- ${s.name} numcodecs: ${s.numcodecs.error}`] : []),
  ]);
  return [
    markdownTable(header, rows),
    markdownTable(cpu[0], cpu.slice(1)),
    ...(errors.length ? [errors.join("\n")] : []),
  ].join("\n\n");
}
