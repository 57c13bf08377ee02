#!/usr/bin/env bash
# Guards run-time dispatch: in a static library, only functions of the AVX2 and AVX-512 kernels (their namespaces,
# or xsimd code instantiated for those architectures) may use ymm/zmm registers. An inline helper emitted by a
# kernel's translation unit with its flags, and kept by the linker for every caller, would crash CPUs without them.
set -euo pipefail
lib=$1
objdump -d --no-show-raw-insn -C "$lib" | awk '
  /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
  /%[yz]mm[0-9]/ {
    if (fn !~ /::avx2::|::avx512::|avx2>|avx512[a-z]*>|avx2,|avx512[a-z]*,/ && !(fn in seen)) {
      print "wide SIMD registers outside a kernel: " fn; seen[fn] = 1; bad = 1
    }
  }
  END { if (!bad) print "only the AVX2 / AVX-512 kernels use ymm/zmm registers"; exit bad }'
