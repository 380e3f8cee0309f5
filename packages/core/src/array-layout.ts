import type { ArrayMetadata } from "@z/meta";

/**
 * What the engine (reads, writes, the pool, partial reads) knows of an array, whatever its format:
 * its shape, chunk shape, dtype as held in memory, fill value and order, and, for v2 and v1, the
 * filters and compressor its codec chain is built from (`null` for v3, whose chain comes from
 * `codecs`). A v2 `.zarray` is one as it is; a v3 `zarr.json` gives one (order `C`: a v3 array's
 * layout on disk is its `transpose` codecs' business).
 */
export type ArrayLayout = Omit<ArrayMetadata, "zarrFormat">;
