export { HttpStore, type HttpStoreOptions } from "./http-store.js";
export { HttpByteSource } from "./http-byte-source.js";
export { HttpStoreError } from "./errors.js";
export type { HttpOptions } from "./options.js";
