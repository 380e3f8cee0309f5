/**
 * The `zarr` command (`zarr --help`), and the pieces it is made of for programs that want them:
 * `main`, its commands, store arguments, `.npy` reading and writing, numpy-style array printing.
 *
 * @packageDocumentation
 */
export { main, commands } from "./main.js";
export { CommandError, UsageError, type Command, type FlagKind, type Io, type ParsedArgs } from "./command.js";
export { parseStoreArg, type StoreLocation } from "./store-arg.js";
export {
  descrToDataType,
  encodeNpy,
  encodeNpyHeader,
  npyDataOffset,
  NpyError,
  parseNpyHeader,
  readNpy,
  type NpyFileHeader,
  type NpyHeader,
} from "./npy/index.js";
export { arrayRepr, type ReprOptions } from "./repr/array-repr.js";
