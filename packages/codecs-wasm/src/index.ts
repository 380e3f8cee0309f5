export { lz4, lz4Config } from "./lz4.js";
export { blosc, bloscConfig } from "./blosc.js";
export { zstd, zstdConfig } from "./zstd.js";
