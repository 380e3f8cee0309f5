// The bench's cases (issue 7). Arrays are written by python/generate.py into the data directory.

/** @typedef {{ id: string, kind: "read" | "windows" | "write" | "http", array?: string, compressor?: object | null, what: string }} Case */

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
];

export const CASE_IDS = CASES.map((c) => c.id);

/** @returns {Case} */
export function caseById(id) {
  const found = CASES.find((c) => c.id === id);
  if (!found) throw new Error(`unknown case ${JSON.stringify(id)}; the cases are ${CASE_IDS.join(", ")}`);
  return found;
}
