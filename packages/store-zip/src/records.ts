/** Signatures, sizes and flags of the zip format (PKWARE APPNOTE 6.3.10). */

export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_END = 0x06054b50;
export const SIG_ZIP64_END = 0x06064b50;
export const SIG_ZIP64_LOCATOR = 0x07064b50;
/** Optional, before a data descriptor (the CRC and sizes written after the data, flag bit 3). */
export const SIG_DATA_DESCRIPTOR = 0x08074b50;

export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const END_SIZE = 22;
export const ZIP64_END_SIZE = 56;
export const ZIP64_LOCATOR_SIZE = 20;
/** The longest archive comment, so the end record lies in the last `END_SIZE + MAX_COMMENT` bytes. */
export const MAX_COMMENT = 0xffff;

export const FLAG_ENCRYPTED = 0x1;
export const FLAG_DATA_DESCRIPTOR = 0x8;
export const FLAG_UTF8 = 0x800;

export const METHOD_STORED = 0;
export const METHOD_DEFLATE = 8;

/**
 * The most bytes one byte of deflate data can inflate to: a 258-byte match coded in 2 bits. An
 * entry claiming more than this ratio (plus a little for block headers) is corrupt.
 */
export const MAX_DEFLATE_RATIO = 1032;

/** The header ID of the zip64 extended information extra field. */
export const EXTRA_ZIP64 = 0x0001;

/** A 16- or 32-bit field holding this value means "see the zip64 record". */
export const MAX_U16 = 0xffff;
export const MAX_U32 = 0xffffffff;

/** "Version needed to extract": 2.0 for deflate and directories, 4.5 for zip64. */
export const VERSION_DEFAULT = 20;
export const VERSION_ZIP64 = 45;
/** "Version made by" high byte: 3 is Unix, whose mode bits we put in the external attributes. */
export const MADE_BY_UNIX = 3 << 8;

/** How the methods are named in messages and in `ZipEntryInfo`. */
export function methodName(method: number): string {
  switch (method) {
    case METHOD_STORED:
      return "stored";
    case METHOD_DEFLATE:
      return "deflate";
    case 12:
      return "bzip2";
    case 14:
      return "lzma";
    case 93:
      return "zstd";
    default:
      return `method ${method}`;
  }
}
