/*
 * The largest buffers z allocates from sizes that metadata states. Metadata is input: a `.zarray`
 * may say `chunks: [2**40, 16]` or `shape: [2**31, 2**31]`, and the sizes computed from it are
 * checked against these before anything is allocated, so that such an array fails with a
 * `TooLargeError` naming the key and the field instead of a bare `RangeError` (or an allocation the
 * machine cannot hold).
 */

/**
 * The most bytes one chunk may hold: 2^31 - 1. A chunk is decoded, encoded and filled as one
 * buffer, and this is the largest every part of that handles: Blosc frames hold at most
 * 2^31 - 1 - 16 bytes (c-blosc's `BLOSC_MAX_BUFFERSIZE`; numcodecs cannot write more), the
 * WebAssembly codecs' 32-bit memories must hold a chunk's input, output and scratch at once, item
 * sizes above it are refused already (NumPy's are C ints: see `dtype`), and it is the typed-array
 * limit of the browsers that allow least. Chunks that large are far beyond what zarr-python
 * suggests (`guessChunks` stays under 64 MiB).
 */
export const MAX_CHUNK_BYTES = 2 ** 31 - 1;

/**
 * The most values one result may hold: 2^32 - 1, the longest JS `Array` (object arrays' results)
 * and, within one, the longest typed array V8 makes (Node, Chromium: 2^32). Values, not bytes:
 * elements for numbers, two per complex element, `itemsize` per `S`/`U`/`V` element. A result
 * within this can still be more memory than the machine has; that allocation failing is a
 * `TooLargeError` too.
 */
export const MAX_RESULT_LENGTH = 2 ** 32 - 1;
