/**
 * Incremental SHA-1 and SHA-256, small and browser-safe, for `digest()`: WebCrypto hashes only
 * whole buffers, and an array's digest streams over every chunk.
 */
export interface Hash {
  update(data: Uint8Array): void;
  digest(): Uint8Array;
}

export type HashName = "sha1" | "sha256";

export function createHash(name: HashName): Hash {
  return name === "sha1"
    ? new MerkleDamgard(SHA1_INIT, sha1Block, 20)
    : new MerkleDamgard(SHA256_INIT, sha256Block, 32);
}

const SHA1_INIT = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
const SHA256_INIT = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));
const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** The padding and 64-byte block loop both hashes share. */
class MerkleDamgard implements Hash {
  readonly #state: Uint32Array;
  readonly #block = new Uint8Array(64);
  readonly #words = new Uint32Array(80);
  #filled = 0;
  #length = 0;

  constructor(
    init: readonly number[],
    private readonly compress: (state: Uint32Array, block: Uint8Array, w: Uint32Array) => void,
    private readonly size: number,
  ) {
    this.#state = new Uint32Array(init);
  }

  update(data: Uint8Array): void {
    this.#length += data.length;
    let i = 0;
    while (i < data.length) {
      const take = Math.min(64 - this.#filled, data.length - i);
      this.#block.set(data.subarray(i, i + take), this.#filled);
      this.#filled += take;
      i += take;
      if (this.#filled === 64) {
        this.compress(this.#state, this.#block, this.#words);
        this.#filled = 0;
      }
    }
  }

  digest(): Uint8Array {
    const bits = this.#length * 8;
    const padding = new Uint8Array((this.#filled < 56 ? 56 : 120) - this.#filled + 8);
    padding[0] = 0x80;
    const view = new DataView(padding.buffer);
    view.setUint32(padding.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(padding.length - 4, bits >>> 0);
    this.update(padding);
    const out = new Uint8Array(this.size);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < this.size / 4; i++) outView.setUint32(i * 4, this.#state[i]!);
    return out;
  }
}

function loadWords(block: Uint8Array, w: Uint32Array): void {
  for (let i = 0; i < 16; i++)
    w[i] = (block[4 * i]! << 24) | (block[4 * i + 1]! << 16) | (block[4 * i + 2]! << 8) | block[4 * i + 3]!;
}

function sha1Block(s: Uint32Array, block: Uint8Array, w: Uint32Array): void {
  loadWords(block, w);
  for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!, 1);
  let [a, b, c, d, e] = [s[0]!, s[1]!, s[2]!, s[3]!, s[4]!];
  for (let i = 0; i < 80; i++) {
    const [f, k] =
      i < 20
        ? [(b & c) | (~b & d), 0x5a827999]
        : i < 40
          ? [b ^ c ^ d, 0x6ed9eba1]
          : i < 60
            ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc]
            : [b ^ c ^ d, 0xca62c1d6];
    const t = (rotl(a, 5) + f + e + k + w[i]!) | 0;
    [e, d, c, b, a] = [d, c, rotl(b, 30), a, t];
  }
  s[0] = s[0]! + a;
  s[1] = s[1]! + b;
  s[2] = s[2]! + c;
  s[3] = s[3]! + d;
  s[4] = s[4]! + e;
}

function sha256Block(s: Uint32Array, block: Uint8Array, w: Uint32Array): void {
  loadWords(block, w);
  for (let i = 16; i < 64; i++) {
    const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
    const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = [s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, s[5]!, s[6]!, s[7]!];
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i]! + w[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
  }
  for (const [i, v] of [a, b, c, d, e, f, g, h].entries()) s[i] = s[i]! + v;
}
