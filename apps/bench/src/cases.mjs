// The bench's cases (issue 7). Arrays are written by python/generate.py into the data directory.

/**
 * @typedef {{ id: string, kind: "read" | "windows" | "write" | "http" | "s3" | "s3-write" | "references", array?: string, variable?: string,
 *   compressor?: object | null, delayMs?: number, zarrFormat?: 3, shards?: number[], chunks?: number[], what: string }} Case
 * `zarrFormat: 3`: a Zarr v3 array (the sharded cases of issue 28); otherwise v2.
 */

/** @type {readonly Case[]} */
export const CASES = [
  { id: "R1", kind: "read", array: "r1.zarr", what: "full read, blosc lz4 clevel 5 shuffle" },
  { id: "R2", kind: "read", array: "r2.zarr", what: "full read, blosc zstd clevel 3 bitshuffle" },
  { id: "R3", kind: "read", array: "r3.zarr", what: "full read, zlib level 1" },
  { id: "R4", kind: "read", array: "r4.zarr", what: "full read, zstd level 3" },
  { id: "R5", kind: "read", array: "r5.zarr", what: "full read, no compressor" },
  { id: "R6", kind: "windows", array: "r1.zarr", what: "random 100x100 windows of R1's array" },
  { id: "R7", kind: "read", array: "r7.zarr", what: "full read, int16 in 64x64 chunks, blosc lz4" },
  {
    id: "W1",
    kind: "write",
    compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    what: "full write of R1's data, blosc lz4 clevel 5 shuffle",
  },
  { id: "W2", kind: "write", compressor: { id: "zlib", level: 1 }, what: "full write of R1's data, zlib level 1" },
  { id: "H1", kind: "http", array: "r1.zarr", what: "full read of R1 over HTTP (127.0.0.1)" },
  // Issue 28: R1's data as a sharded Zarr v3 array, written by TensorStore (python/generate_sharded.py).
  {
    id: "R8",
    kind: "read",
    array: "r8.zarr",
    zarrFormat: 3,
    what: "full read, sharded v3 (shards 4096x4096 of 512x512 chunks), blosc lz4",
  },
  { id: "R9", kind: "windows", array: "r8.zarr", zarrFormat: 3, what: "random 100x100 windows of R8's sharded array" },
  { id: "H2", kind: "http", array: "r8.zarr", zarrFormat: 3, what: "full read of R8 over HTTP (127.0.0.1)" },
  {
    id: "W3",
    kind: "write",
    zarrFormat: 3,
    shards: [4096, 4096],
    chunks: [512, 512],
    compressor: {
      name: "blosc",
      configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 },
    },
    what: "sharded write of R1's data as R8's array, blosc lz4",
  },
  // Issue 20: the loopback S3 server (scripts/test-s3/) behind the bench's counting proxy (src/s3.mjs).
  { id: "S1", kind: "s3", array: "r1.zarr", what: "full read of R1 from a loopback S3 server" },
  {
    id: "S2",
    kind: "s3-write",
    compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    what: "full write of R1's data into a loopback S3 server, blosc lz4",
  },
  { id: "S3", kind: "s3", array: "r1.zarr", delayMs: 20, what: "S1 with 20 ms added to every response" },
  // Issue 31: a kerchunk reference set (python/generate_refs.py) over HTTP, as a NetCDF4 file in an
  // archive is read: one variable, 20 ms added to every response of the file server.
  {
    id: "H3",
    kind: "references",
    array: "refs",
    variable: "t2m",
    delayMs: 20,
    what: "one variable of a kerchunk reference set (JSON) over HTTP, 20 ms added per request",
  },
];

/** Cases read from the bench's HTTP file server (src/http-server.mjs), which counts their requests. */
export const overHttp = (c) => c.kind === "http" || c.kind === "references";

/** The S3 cases (`--cases s3` selects them all). */
export const S3_CASE_IDS = CASES.filter((c) => c.kind.startsWith("s3")).map((c) => c.id);

export const CASE_IDS = CASES.map((c) => c.id);

/** The v3 cases' arrays, which python/generate_sharded.py writes (with TensorStore). */
export const needsShardedData = (cases) => cases.some((c) => c.zarrFormat === 3 && c.array !== undefined);

/** A case's shard and inner chunk shapes for an n x n array (R8's: 4096 and 512, at most the array). */
export const shardingOf = (c, n) => ({
  shards: c.shards.map((s) => Math.min(s, n)),
  chunks: c.chunks.map((s) => Math.min(s, n)),
});

/** @returns {Case} */
export function caseById(id) {
  const found = CASES.find((c) => c.id === id);
  if (!found) throw new Error(`unknown case ${JSON.stringify(id)}; the cases are ${CASE_IDS.join(", ")}`);
  return found;
}
