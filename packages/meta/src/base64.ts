// A base64 codec of our own: `Buffer` is not browser-safe, and `atob` is stricter than the decoder
// zarr-python uses, so it would refuse fill values that zarr-python reads.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Standard alphabet with `=` padding, as Python's `base64.standard_b64encode`. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/**
 * Python's `base64.standard_b64decode(text)` (CPython's non-strict `binascii.a2b_base64`): characters
 * outside the alphabet are skipped, decoding stops at the first complete padding, and a dangling
 * partial quad is an error. Returns `undefined` where Python raises (also for non-ASCII text), so
 * that callers can fall back as zarr-python does.
 */
export function decodePythonBase64(text: string): Uint8Array | undefined {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let length = 0;
  let quadPos = 0;
  let leftChar = 0;
  let pads = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 127) return undefined;
    if (code === 61 /* = */) {
      if (quadPos >= 2 && quadPos + ++pads >= 4) return out.slice(0, length);
      continue;
    }
    const value = DECODE[code]!;
    if (value < 0) continue;
    pads = 0;
    switch (quadPos) {
      case 0:
        leftChar = value;
        quadPos = 1;
        break;
      case 1:
        out[length++] = (leftChar << 2) | (value >> 4);
        leftChar = value & 0x0f;
        quadPos = 2;
        break;
      case 2:
        out[length++] = (leftChar << 4) | (value >> 2);
        leftChar = value & 0x03;
        quadPos = 3;
        break;
      default:
        out[length++] = (leftChar << 6) | value;
        leftChar = 0;
        quadPos = 0;
    }
  }
  return quadPos === 0 ? out.slice(0, length) : undefined;
}
