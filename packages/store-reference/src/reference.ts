/**
 * What one key of a reference set holds: bytes kept in the set itself, or bytes of a target file
 * (`[url]`: the whole file; `[url, offset, length]`: `length` bytes from `offset`).
 */
export type Reference =
  | { readonly kind: "inline"; readonly bytes: Uint8Array }
  | { readonly kind: "target"; readonly url: string; readonly offset?: number; readonly length?: number };

/** A source of references: a JSON set held in memory, or Parquet record files read when needed. */
export interface ReferenceSource {
  /** The reference under `key`, or `undefined` when the set has none. */
  reference(key: string, options?: { signal?: AbortSignal }): Promise<Reference | undefined>;
  /** Every key of the set (metadata and chunks), in no particular order. */
  keys(options?: { signal?: AbortSignal }): Promise<string[]>;
}
