#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz preset, clang, ASan+UBSan) and runs each briefly on seeds made from the
# reference data, so the targets keep building and the parsers stay clean. Long runs: see tests/fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-10}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target fuzz_red_block fuzz_headers fuzz_headers_crc fuzz_tar fuzz_recover fuzz_edf fuzz_text_outputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
packaging/fuzz-seeds.sh "$work" >/dev/null
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for target in fuzz_red_block fuzz_headers fuzz_headers_crc fuzz_tar fuzz_recover fuzz_edf fuzz_text_outputs; do
  dict=tests/fuzz/mef3.dict
  [[ $target == fuzz_tar ]] && dict=tests/fuzz/tar.dict
  [[ $target == fuzz_edf || $target == fuzz_text_outputs ]] && dict=tests/fuzz/edf.dict
  echo "== $target: ${seconds} s"
  build/fuzz/tests/fuzz/$target -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -dict="$dict" \
    -artifact_prefix="$work/" "$work/corpus-$target" 2>&1 | grep -E "^(#[0-9]+ *DONE|Done|==[0-9]+==ERROR|SUMMARY)" || true
  if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* >/dev/null 2>&1; then
    echo "fuzz-smoke: $target found a problem" >&2
    exit 1
  fi
done
