/*
 * Suffix arrays by induced sorting (SA-IS, Nong, Zhang & Chan 2009): linear time whatever the
 * text, so long runs and short periods (zeros, repeated records) cost no more than random bytes.
 * Used for the bzip2 block sort (not exported from the package).
 */

type Text = Uint8Array | Int32Array;

/**
 * The suffix array of `text[0..n)` over the alphabet `[0, alphabet)`: the start positions of its
 * suffixes in lexicographic order, a suffix that is a prefix of another sorting first.
 */
export function suffixArray(text: Text, n: number, alphabet: number): Int32Array {
  const sa = new Int32Array(n);
  if (n === 0) return sa;
  if (n === 1) return sa;
  sais(text, sa, n, alphabet);
  return sa;
}

function bucketBounds(text: Text, n: number, alphabet: number, ends: boolean, out: Int32Array): void {
  out.fill(0);
  for (let i = 0; i < n; i++) out[text[i]!]!++;
  let sum = 0;
  for (let c = 0; c < alphabet; c++) {
    sum += out[c]!;
    out[c] = ends ? sum : sum - out[c]!;
  }
}

/** Whether position i (0 < i < n) starts an LMS suffix: S-type preceded by L-type. */
function isLms(types: Uint8Array, i: number): boolean {
  return i > 0 && types[i] === 1 && types[i - 1] === 0;
}

/**
 * From LMS suffixes placed at the ends of their buckets (all else -1), induces the order of all
 * suffixes: L-type suffixes left to right, then S-type right to left. The virtual sentinel after
 * the text is the smallest suffix; the suffix before it (n-1) is L-type and is placed first.
 */
function induce(text: Text, sa: Int32Array, types: Uint8Array, n: number, alphabet: number, bucket: Int32Array): void {
  bucketBounds(text, n, alphabet, false, bucket);
  sa[bucket[text[n - 1]!]!++] = n - 1;
  for (let i = 0; i < n; i++) {
    const j = sa[i]! - 1;
    if (j >= 0 && types[j] === 0) sa[bucket[text[j]!]!++] = j;
  }
  bucketBounds(text, n, alphabet, true, bucket);
  for (let i = n - 1; i >= 0; i--) {
    const j = sa[i]! - 1;
    if (j >= 0 && types[j] === 1) sa[--bucket[text[j]!]!] = j;
  }
}

function sais(text: Text, sa: Int32Array, n: number, alphabet: number): void {
  // Types: 1 for S (smaller than the next suffix), 0 for L. The last suffix is L (it is larger
  // than the empty sentinel suffix).
  const types = new Uint8Array(n);
  for (let i = n - 2; i >= 0; i--) {
    const a = text[i]!;
    const b = text[i + 1]!;
    types[i] = a < b || (a === b && types[i + 1] === 1) ? 1 : 0;
  }
  const bucket = new Int32Array(alphabet);

  // 1. Sort the LMS substrings: place LMS positions at bucket ends (any order) and induce.
  sa.fill(-1);
  bucketBounds(text, n, alphabet, true, bucket);
  for (let i = 1; i < n; i++) if (isLms(types, i)) sa[--bucket[text[i]!]!] = i;
  induce(text, sa, types, n, alphabet, bucket);

  // 2. Gather the sorted LMS positions at the front and name their substrings: equal substrings
  //    get equal names, in sorted order.
  let m = 0;
  for (let i = 0; i < n; i++) {
    const p = sa[i]!;
    if (isLms(types, p)) sa[m++] = p;
  }
  if (m === 0) {
    // No LMS suffix: the text is non-increasing, and induction from n-1 alone sorted it.
    return;
  }
  sa.fill(-1, m);
  let names = 0;
  let previous = -1;
  for (let i = 0; i < m; i++) {
    const p = sa[i]!;
    if (previous < 0 || !sameLmsSubstring(text, types, n, p, previous)) names++;
    previous = p;
    sa[m + (p >>> 1)] = names - 1;
  }
  // The names in text order, packed at the end of `sa`.
  const reduced = new Int32Array(m);
  for (let i = n - 1, j = m; i >= m; i--) if (sa[i]! >= 0) reduced[--j] = sa[i]!;

  // 3. Sort the LMS suffixes: recursively if names repeat, else the names are the ranks.
  const order = new Int32Array(m);
  if (names < m) sais(reduced, order, m, names);
  else for (let i = 0; i < m; i++) order[reduced[i]!] = i;
  // Back from indices of LMS suffixes to text positions.
  const positions = reduced;
  for (let i = 1, j = 0; i < n; i++) if (isLms(types, i)) positions[j++] = i;

  // 4. Place the sorted LMS suffixes at their bucket ends, largest first, and induce the rest.
  sa.fill(-1);
  bucketBounds(text, n, alphabet, true, bucket);
  for (let i = m - 1; i >= 0; i--) {
    const p = positions[order[i]!]!;
    sa[--bucket[text[p]!]!] = p;
  }
  induce(text, sa, types, n, alphabet, bucket);
}

/** Whether the LMS substrings at p and q (from there to the next LMS position, inclusive) are equal. */
function sameLmsSubstring(text: Text, types: Uint8Array, n: number, p: number, q: number): boolean {
  for (let d = 0; ; d++) {
    // The substring ending at the sentinel is unlike any other.
    if (p + d >= n || q + d >= n) return false;
    if (text[p + d] !== text[q + d] || types[p + d] !== types[q + d]) return false;
    if (d > 0) {
      const endP = isLms(types, p + d);
      const endQ = isLms(types, q + d);
      if (endP || endQ) return endP && endQ;
    }
  }
}
