import { defineCodec } from "./define-codec.js";
import { checksumCodec, crc32 as crc32Checksum, locationField } from "./checksum32.js";

/**
 * numcodecs `CRC32()`: `{"id": "crc32"}`. `location` (`"start"` or `"end"`) is read from configs
 * newer numcodecs wrote and written back only when set; numcodecs 0.11 has no such parameter.
 */
export const crc32Config = { location: locationField };

/** numcodecs `CRC32`: the data after its 4-byte little-endian CRC-32 (before it with `location: "end"`). */
export const crc32 = defineCodec({
  id: "crc32",
  config: crc32Config,
  create: ({ location }) => checksumCodec("crc32", crc32Checksum, location === "end" ? "end" : "start"),
});
