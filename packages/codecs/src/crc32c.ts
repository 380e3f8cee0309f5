import { defineCodec } from "./define-codec.js";
import { checksumCodec, crc32c as crc32cChecksum, locationField } from "./checksum32.js";

/**
 * numcodecs `CRC32C()` (numcodecs 0.14 and later): `{"id": "crc32c"}`. `location` (`"start"` or `"end"`)
 * is written back only when set, as numcodecs writes it only when given; left out it is `"end"`,
 * numcodecs' default for this codec (unlike crc32 and adler32).
 */
export const crc32cConfig = { location: locationField };

/**
 * numcodecs `CRC32C`: the data followed by its 4-byte little-endian CRC-32C (Castagnoli), the
 * checksum before it with `location: "start"`.
 */
export const crc32c = defineCodec({
  id: "crc32c",
  config: crc32cConfig,
  create: ({ location }) => checksumCodec("crc32c", crc32cChecksum, location === "start" ? "start" : "end"),
});
