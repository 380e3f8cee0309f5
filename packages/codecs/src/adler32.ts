import { defineCodec } from "./define-codec.js";
import { adler32 as adler32Checksum, checksumCodec, locationField } from "./checksum32.js";

/**
 * numcodecs `Adler32()`: `{"id": "adler32"}`. `location` (`"start"` or `"end"`) is read from configs
 * newer numcodecs wrote and written back only when set; numcodecs 0.11 has no such parameter.
 */
export const adler32Config = { location: locationField };

/** numcodecs `Adler32`: the data after its 4-byte little-endian Adler-32 (before it with `location: "end"`). */
export const adler32 = defineCodec({
  id: "adler32",
  config: adler32Config,
  create: ({ location }) => checksumCodec("adler32", adler32Checksum, location === "end" ? "end" : "start"),
});
