/**
 * Items grouped by a key, stably: the items of group `g` (key `keys[g]`, ascending) are
 * `order[starts[g]]` … `order[starts[g + 1] - 1]` in their original order, or the items
 * `starts[g]` … `starts[g + 1] - 1` themselves when `order` is null (the keys were already in
 * ascending order).
 */
export interface Groups {
  readonly keys: Float64Array;
  readonly starts: Int32Array;
  readonly order: Int32Array | null;
}

/**
 * Groups items by `keys` (non-negative integers below `bound`, at most 2**53) with a stable
 * sort: a counting sort when `bound` is small next to the number of items, else a sort of the
 * distinct keys and a counting sort by their rank.
 */
export function groupByKey(keys: Float64Array, bound = Number.MAX_SAFE_INTEGER): Groups {
  const n = keys.length;
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if (keys[i]! < keys[i - 1]!) {
      sorted = false;
      break;
    }
  }
  if (sorted) {
    let count = 0;
    for (let i = 0; i < n; i++) if (i === 0 || keys[i] !== keys[i - 1]) count++;
    const groupKeys = new Float64Array(count);
    const starts = new Int32Array(count + 1);
    let g = 0;
    for (let i = 0; i < n; i++) {
      if (i === 0 || keys[i] !== keys[i - 1]) {
        groupKeys[g] = keys[i]!;
        starts[g++] = i;
      }
    }
    starts[count] = n;
    return { keys: groupKeys, starts, order: null };
  }
  if (bound <= 4 * n + 1024) return countingSort(keys, bound);
  // The distinct keys, ascending (a typed array sorts numerically), then a counting sort by rank.
  const all = Float64Array.from(keys).sort();
  let count = 0;
  for (let i = 0; i < n; i++) if (i === 0 || all[i] !== all[i - 1]) all[count++] = all[i]!;
  const groupKeys = all.slice(0, count);
  const rank = new Int32Array(n);
  const starts = new Int32Array(count + 1);
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (groupKeys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    rank[i] = lo;
    starts[lo + 1]!++;
  }
  for (let g = 0; g < count; g++) starts[g + 1]! += starts[g]!;
  const next = starts.slice(0, count);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[next[rank[i]!]!++] = i;
  return { keys: groupKeys, starts, order };
}

function countingSort(keys: Float64Array, bound: number): Groups {
  const n = keys.length;
  const counts = new Int32Array(bound + 1);
  for (let i = 0; i < n; i++) counts[keys[i]! + 1]!++;
  let count = 0;
  for (let key = 1; key <= bound; key++) if (counts[key] !== 0) count++;
  const groupKeys = new Float64Array(count);
  const starts = new Int32Array(count + 1);
  // counts[key] becomes where key's items start
  for (let key = 0, g = 0, at = 0; key < bound; key++) {
    const c = counts[key + 1]!;
    counts[key] = at;
    if (c !== 0) {
      groupKeys[g] = key;
      starts[g++] = at;
    }
    at += c;
  }
  starts[count] = n;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[counts[keys[i]!]!++] = i;
  return { keys: groupKeys, starts, order };
}

/**
 * `indices` (ascending by at least 1 each step, or a single index) as a range, else the list
 * itself: a list that is a range copies faster.
 */
export function asRange(indices: Int32Array): { start: number; stop: number; step: number } | Int32Array {
  const n = indices.length;
  if (n === 0) return indices;
  const first = indices[0]!;
  if (n === 1) return { start: first, stop: first + 1, step: 1 };
  const step = indices[1]! - first;
  if (step < 1) return indices;
  for (let i = 2; i < n; i++) if (indices[i]! - indices[i - 1]! !== step) return indices;
  return { start: first, stop: indices[n - 1]! + 1, step };
}

/** Output positions `order[from]` … `order[to - 1]` (or `from` … `to - 1` without an order), as a range when consecutive. */
export function outPositions(
  order: Int32Array | null,
  from: number,
  to: number,
): { start: number; stop: number; step: number } | Int32Array {
  if (order === null) return { start: from, stop: to, step: 1 };
  const list = order.subarray(from, to);
  const first = list[0]!;
  for (let i = 1; i < list.length; i++) if (list[i] !== first + i) return list;
  return { start: first, stop: first + list.length, step: 1 };
}
