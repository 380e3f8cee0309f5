/*
 * CRC-32 (ISO 3309, the checksum zip stores for every entry), slicing by 4 bytes: four lookups
 * per 32-bit word instead of one per byte, which keeps checksumming well below the cost of
 * inflating or copying the entry.
 */
const TABLES = /* @__PURE__ */ (() => {
  const tables = new Int32Array(4 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let t = 1; t < 4; t++) {
      const prev = tables[(t - 1) * 256 + n]!;
      tables[t * 256 + n] = tables[prev & 0xff]! ^ (prev >>> 8);
    }
  }
  return tables;
})();

/** The CRC-32 of `data` (unsigned), continuing from `crc` when given. */
export function crc32(data: Uint8Array, crc = 0): number {
  const t = TABLES;
  let c = ~crc;
  let i = 0;
  const words = data.length - (data.length % 4);
  for (; i < words; i += 4) {
    c ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    c = t[768 + (c & 0xff)]! ^ t[512 + ((c >>> 8) & 0xff)]! ^ t[256 + ((c >>> 16) & 0xff)]! ^ t[c >>> 24]!;
  }
  for (; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
