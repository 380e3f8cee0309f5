import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { boolean } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { msgpackPack, msgpackUnpack } from "./msgpack.js";
import { chunkFromItems, chunkItems } from "./python-values.js";

export { MsgpackExt } from "./msgpack.js";

/**
 * numcodecs `MsgPack(use_single_float=False, use_bin_type=True, raw=False)`, written as its
 * `get_config()` writes it:
 * `{"id": "msgpack2", "raw": false, "use_single_float": false, "use_bin_type": true}`.
 */
export const msgpack2Config = {
  raw: boolean({ default: false }),
  use_single_float: boolean({ default: false }),
  use_bin_type: boolean({ default: true }),
};

/**
 * numcodecs `MsgPack`: an object codec writing the chunk as the Python `msgpack` package packs
 * `values.tolist() + [dtype, shape]` (nested lists for chunks of several dimensions, given the
 * context's `shape`), byte for byte, and unpacking it as `msgpack.unpackb(raw=raw)` does. Values
 * map to Python as `chunkItems` describes; bytes are `Uint8Array`s (strs too, with `raw`), maps
 * plain objects (`Map`s when a key is bytes), extension types `MsgpackExt`.
 */
export const msgpack2 = defineCodec({
  id: "msgpack2",
  config: msgpack2Config,
  create: (config) => {
    const pack = { useSingleFloat: config.use_single_float, useBinType: config.use_bin_type };
    const unpack = { raw: config.raw };
    return {
      encode: (data: CodecData, chunk: ChunkContext) => msgpackPack(chunkItems(data, chunk), pack),
      decode: (data: CodecData, chunk: ChunkContext) =>
        chunkFromItems(msgpackUnpack(requireBytes(data, "msgpack2", chunk), unpack), chunk),
    };
  },
});
