import type { TypedArray } from "@z/meta";
import type { ChunkPool } from "./chunk-pool.js";
import type { RunOptions } from "./concurrency.js";

/** Options of a read or write of a selection (`get`, `set` and their kinds). */
export interface SelectionOptions extends RunOptions {
  fields?: string | readonly string[];
  /**
   * For reads: the typed array (of the dtype's kind, C order) to fill instead of a new one; the
   * result's `data` is then this array. Not combined with `fields`.
   */
  out?: TypedArray;
  /** The pool for this call, overriding the array's (`false`: this thread only). */
  pool?: ChunkPool | false;
}
