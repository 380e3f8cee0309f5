// The load test's clients: each reads, one request after another until the time is up, a random
// value whole, a random byte range of one, its tail (a suffix or an open range), or now and then a
// key that is not there, and compares every byte with what was written.
import { random } from "./dataset.mjs";

/**
 * Runs one client per store in `stores` for `durationMs`. `values` is what was written;
 * `suffixRanges` false avoids `bytes=-n` (s3rver answers those wrongly) and ranges of one byte at
 * 0 (also wrong there), using `bytes=a-` for tails instead. Resolves to
 * `{ operations, errors, wrongBytes, latencies: Float64Array (ms), firstErrors: string[] }`.
 */
export async function runClients({ stores, values, durationMs, suffixRanges = true, seed = 7 }) {
  const keys = [...values.keys()];
  const deadline = performance.now() + durationMs;
  const result = { operations: 0, errors: 0, wrongBytes: 0, latencies: [], firstErrors: [] };
  const client = async (store, index) => {
    const next = random(seed * 1000 + index);
    const pick = (n) => Math.floor(next() * n);
    while (performance.now() < deadline) {
      const key = keys[pick(keys.length)];
      const value = values.get(key);
      const kind = next();
      let expected;
      let read;
      const started = performance.now();
      try {
        if (kind < 0.02) {
          expected = undefined;
          read = store.get(`missing/${pick(1000)}`);
        } else if (kind < 0.35) {
          expected = value;
          read = store.get(key);
        } else if (kind < 0.7) {
          const offset = 1 + pick(value.length - 2);
          const length = 2 + pick(Math.min(value.length - offset, 65536) - 1);
          expected = value.subarray(offset, offset + length);
          read = store.getRange(key, { offset, length });
        } else {
          const tail = 1 + pick(Math.min(value.length, 65536));
          expected = value.subarray(value.length - tail);
          read = store.getRange(key, suffixRanges ? { suffixLength: tail } : { offset: value.length - tail });
        }
        const got = await read;
        result.latencies.push(performance.now() - started);
        result.wrongBytes += differingBytes(got, expected);
      } catch (error) {
        result.errors++;
        if (result.firstErrors.length < 5) result.firstErrors.push(String(error?.message ?? error));
      }
      result.operations++;
    }
  };
  await Promise.all(stores.map(client));
  return { ...result, latencies: Float64Array.from(result.latencies) };
}

/** How many bytes of `got` are not `expected`'s (a length difference counts each missing or extra byte). */
export function differingBytes(got, expected) {
  if (expected === undefined || got === undefined) return got === expected ? 0 : Math.max((got ?? expected).length, 1); // a value where none was, or none where one was
  let wrong = Math.abs(got.length - expected.length);
  const n = Math.min(got.length, expected.length);
  for (let i = 0; i < n; i++) if (got[i] !== expected[i]) wrong++;
  return wrong;
}

/** The `p`-th percentile (0–100) of `sorted` (ascending), nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}
