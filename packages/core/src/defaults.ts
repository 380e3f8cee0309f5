import type { CodecConfig } from "@z/meta";

/** zarr-python's default compressor. */
export const DEFAULT_COMPRESSOR: CodecConfig = { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 };
