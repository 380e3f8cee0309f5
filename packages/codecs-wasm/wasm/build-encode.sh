#!/bin/sh
# Builds wasm/encode.c, wasm/deflate.c and wasm/checksum.c (this package's own C: Blosc's shuffles
# and LZ4, and DEFLATE with its checksums) into src/encode-wasm.ts (see build-module.sh). A module
# of its own, apart from the decode kernels (build.sh), so that reading never loads the encoders.
set -eu
exec "$(dirname "$0")/build-module.sh" build-encode.sh -O3 encode ENCODE_WASM_BASE64 encode.c deflate.c checksum.c
