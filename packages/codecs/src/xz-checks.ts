/*
 * The integrity checks of the xz format besides CRC-32 (not exported from the package): CRC-64
 * (ECMA-182, as xz uses it) and SHA-256 (FIPS 180-4). Both return the bytes xz stores.
 */

const CRC64_TABLE = /* @__PURE__ */ (() => {
  // Reflected polynomial 0xc96c5795d7870f42, as two 32-bit halves.
  const polyHi = 0xc96c5795;
  const polyLo = 0xd7870f42;
  const hi = new Uint32Array(256);
  const lo = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let h = 0;
    let l = n;
    for (let k = 0; k < 8; k++) {
      const carry = l & 1;
      l = ((l >>> 1) | ((h & 1) << 31)) >>> 0;
      h >>>= 1;
      if (carry) {
        h = (h ^ polyHi) >>> 0;
        l = (l ^ polyLo) >>> 0;
      }
    }
    hi[n] = h;
    lo[n] = l;
  }
  return { hi, lo };
})();

/** CRC-64 of `data`, as the 8 little-endian bytes xz stores. */
export function crc64(data: Uint8Array): Uint8Array {
  const { hi: tableHi, lo: tableLo } = CRC64_TABLE;
  let hi = 0xffffffff;
  let lo = 0xffffffff;
  for (let i = 0; i < data.length; i++) {
    const index = (lo ^ data[i]!) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ tableLo[index]!;
    hi = (hi >>> 8) ^ tableHi[index]!;
  }
  hi = ~hi >>> 0;
  lo = ~lo >>> 0;
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, lo, true);
  view.setUint32(4, hi, true);
  return out;
}

const SHA256_K = /* @__PURE__ */ Uint32Array.of(
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
);

/** SHA-256 of `data` (the 32-byte digest). */
export function sha256(data: Uint8Array): Uint8Array {
  const h = Uint32Array.of(
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  );
  const w = new Uint32Array(64);
  // The message, a 1 bit, zeros, and the bit length as 64 bits: a whole number of 64-byte blocks.
  const tailStart = data.length - (data.length % 64);
  const tail = new Uint8Array(data.length % 64 < 56 ? 64 : 128);
  tail.set(data.subarray(tailStart));
  tail[data.length % 64] = 0x80;
  const tailView = new DataView(tail.buffer);
  const bits = data.length * 8;
  tailView.setUint32(tail.length - 8, Math.floor(bits / 0x100000000));
  tailView.setUint32(tail.length - 4, bits >>> 0);

  const compress = (block: Uint8Array, at: number) => {
    for (let t = 0; t < 16; t++) {
      const i = at + 4 * t;
      w[t] = (block[i]! << 24) | (block[i + 1]! << 16) | (block[i + 2]! << 8) | block[i + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = w[t - 16]! + s0 + w[t - 7]! + s1;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let k = h[7]!;
    for (let t = 0; t < 64; t++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const choice = (e & f) ^ (~e & g);
      const t1 = (k + s1 + choice + SHA256_K[t]! + w[t]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + majority) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + k;
  };
  for (let at = 0; at < tailStart; at += 64) compress(data, at);
  for (let at = 0; at < tail.length; at += 64) compress(tail, at);
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(4 * i, h[i]!);
  return out;
}
