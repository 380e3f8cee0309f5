import { defineCodec } from "./define-codec.js";
import { checksumCodec, fletcher32 as fletcher32Checksum } from "./checksum32.js";

/** numcodecs `Fletcher32()` takes no parameters: `{"id": "fletcher32"}`. */
export const fletcher32Config = {};

/**
 * numcodecs `Fletcher32` (numcodecs 0.12 and later; not in 0.11): the data followed by its HDF5
 * Fletcher-32 checksum, 4 bytes little-endian.
 */
export const fletcher32 = defineCodec({
  id: "fletcher32",
  config: fletcher32Config,
  create: () => checksumCodec("fletcher32", fletcher32Checksum, "end"),
});
