/**
 * Buffers large enough for the size of memory pages to matter: a read's result, a thread's chunk
 * scratch, a WebAssembly codec's memory. In Node on Linux, `@z/core`'s Node entry has them backed
 * by 2 MiB pages (see `@z/huge-pages`): every 4 KiB page is otherwise a page fault when first
 * written, and those faults can cost more than decoding the chunks. Elsewhere nothing is done.
 */
let advise: ((view: ArrayBufferView) => unknown) | undefined;

/** From this size a buffer holds at least one whole 2 MiB page wherever it starts. */
const LARGE_BYTES = 4 << 20;

/**
 * Sets what is done with each new large buffer before it is written (`undefined`: nothing). The
 * platform's entry point sets it (`@z/core` in Node); codecs call `adviseLargeBuffer`.
 */
export function setLargeBufferAdvice(fn: ((view: ArrayBufferView) => unknown) | undefined): void {
  advise = fn;
}

/** `view`, a new buffer not yet written, with the platform's advice applied when it is large. */
export function adviseLargeBuffer<T extends ArrayBufferView>(view: T): T {
  if (advise !== undefined && view.byteLength >= LARGE_BYTES) advise(view);
  return view;
}
