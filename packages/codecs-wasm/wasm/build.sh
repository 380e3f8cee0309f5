#!/bin/sh
# Builds wasm/kernels.c, wasm/zstd.c and wasm/blosc.c (this package's own C: LZ4 and Zstandard
# decoding, unshuffling, whole Blosc frames) into src/kernels-wasm.ts (see build-module.sh).
set -eu
exec "$(dirname "$0")/build-module.sh" build.sh -O3 kernels KERNELS_WASM_BASE64 kernels.c zstd.c blosc.c
