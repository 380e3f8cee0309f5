/**
 * `@z/meta/v3`: Zarr v3's `zarr.json` documents (arrays, groups, consolidated metadata), data types,
 * fill values and chunk keys (see V3.md): what reads and writes them. An entry of its own, apart
 * from `@z/meta`'s index (which has their types): a bundler then keeps all of it out of a page that
 * reads v2 only, and `@z/core` loads it when it first opens a v3 node.
 *
 * @packageDocumentation
 */
export type * from "./metadata-v3-model.js";
export { parseArrayMetadataV3, serializeArrayMetadataV3, arrayMetadataV3ToJson } from "./array-metadata-v3.js";
export {
  parseGroupMetadataV3,
  parseNodeMetadataV3,
  serializeGroupMetadataV3,
  serializeNodeMetadataV3,
  groupMetadataV3ToJson,
  nodeMetadataV3ToJson,
} from "./group-metadata-v3.js";
export { parseDataTypeV3, dataTypeToV3, dataTypeV3Name, type DataTypeV3, type DataTypeV3JSON } from "./dtype-v3.js";
export { decodeFillValueV3, encodeFillValueV3 } from "./fill-value-v3.js";
export { chunkKeyV3, parseChunkKeyV3, parseChunkKeyEncoding, type ChunkKeyEncodingV3 } from "./chunk-key-v3.js";
// For codecs whose configurations hold codecs (`sharding_indexed`'s `codecs`), read as `codecs` is.
export { readNamedConfig } from "./named-config.js";
