#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz preset, clang, ASan+UBSan) and runs each briefly on seeds made from the
# reference data, so the targets keep building and the parsers stay clean. Long runs: see tests/fuzz/README.md.
# An input that runs over 5 s, or a process over 2 GiB RSS or one allocation over 2 GiB, is a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-10}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target fuzz_red_block fuzz_headers fuzz_headers_crc fuzz_tar fuzz_recover fuzz_edf fuzz_grid fuzz_session
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
packaging/fuzz-seeds.sh "$work" >/dev/null
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for target in fuzz_red_block fuzz_headers fuzz_headers_crc fuzz_tar fuzz_recover fuzz_edf fuzz_grid fuzz_session; do
  dict=tests/fuzz/mef3.dict
  [[ $target == fuzz_tar ]] && dict=tests/fuzz/tar.dict
  [[ $target == fuzz_edf ]] && dict=tests/fuzz/edf.dict
  [[ $target == fuzz_grid || $target == fuzz_session ]] && dict=
  echo "== $target: ${seconds} s"
  build/fuzz/tests/fuzz/$target -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=2048 ${dict:+-dict="$dict"} \
    -artifact_prefix="$work/" "$work/corpus-$target" 2>&1 | grep -E "^(#[0-9]+ *DONE|Done|==[0-9]+==ERROR|SUMMARY)" || true
  if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
    echo "fuzz-smoke: $target found a problem" >&2
    exit 1
  fi
done
