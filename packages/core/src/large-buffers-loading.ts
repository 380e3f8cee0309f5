/**
 * What the platform's entry is still loading that large buffers need: in Node, `@z/core`'s entry
 * imports `@z/huge-pages` (an optional peer) without holding up its own import, and a read or
 * write started meanwhile waits for it before allocating, so its buffers get their advice all the
 * same. Elsewhere nothing loads, and reads and writes do not wait.
 */
let loading: Promise<void> | undefined;

/** Has reads and writes wait for `work` (its failure included) before they allocate large buffers. */
export function loadBeforeLargeBuffers(work: Promise<unknown>): void {
  const settled: Promise<void> = work.then(
    () => done(settled),
    () => done(settled),
  );
  loading = settled;
}

function done(settled: Promise<void>): void {
  if (loading === settled) loading = undefined;
}

/** A promise to wait for before allocating large buffers; `undefined` when nothing is loading. */
export function largeBuffersLoading(): Promise<void> | undefined {
  return loading;
}
