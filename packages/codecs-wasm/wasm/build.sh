#!/bin/sh
# Builds this package's own decoding kernels (see build-module.sh) into two modules:
# - src/kernels-wasm.ts from wasm/kernels.c, wasm/zstd.c and wasm/blosc.c: LZ4 and Zstandard
#   decoding, unshuffling, whole Blosc frames (the zstd codec and Blosc frames of Zstd streams);
# - src/kernels-lz4-wasm.ts from wasm/kernels.c and wasm/blosc.c without Zstandard (a third of the
#   size): the lz4 codec and every other Blosc frame, so reading those never loads a Zstd decoder.
set -eu
here=$(dirname "$0")
"$here/build-module.sh" build.sh -O3 kernels KERNELS_WASM_BASE64 kernels.c zstd.c blosc.c
"$here/build-module.sh" build.sh "-O3 -DBLOSC_NO_ZSTD" kernels-lz4 KERNELS_LZ4_WASM_BASE64 kernels.c blosc.c
