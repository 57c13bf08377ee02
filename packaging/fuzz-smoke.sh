#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz preset, clang, ASan+UBSan) and runs each briefly on seeds made from the
# reference data, so the targets keep building and the parsers stay clean. Long runs: see tests/fuzz/README.md.
# An input that runs over 5 s, or a process over 2 GiB RSS or one allocation over 2 GiB, is a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-6}
cmake --preset fuzz >/dev/null
targets=(fuzz_red_block fuzz_headers fuzz_headers_crc fuzz_tar fuzz_recover fuzz_edf fuzz_grid fuzz_session fuzz_snapshot fuzz_text_outputs fuzz_annotations fuzz_annotation_csv fuzz_mdf4 fuzz_montage fuzz_brainvision fuzz_cdf)
cmake --build --preset fuzz --target "${targets[@]}" fuzz_snapshot_seeds
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
testdata=${TESTDATA:-$(pwd)/../shared/testdata} # as fuzz-seeds.sh finds it
packaging/fuzz-seeds.sh "$work" "$testdata" >/dev/null
mkdir -p "$work/corpus-fuzz_mdf4" # the MDF 4 reference files as they are
cp "$testdata"/mdf4/*.mf4 "$testdata"/mdf4/*.MF4 "$work/corpus-fuzz_mdf4/"
mkdir -p "$work/corpus-fuzz_brainvision" # our reference file sets, each as header, markers and data in one input
/usr/bin/python3 tests/engine/formats/brainvision/make_reference.py "$work/bvref"
for vhdr in "$work"/bvref/*/*.vhdr; do
  eeg=$(find "$(dirname "$vhdr")" -name "*.eeg" | sort | head -1)
  { sed 's/^DataFile=.*/DataFile=x.eeg/' "$vhdr"; printf '\n#--\n'; cat "${vhdr%.vhdr}.vmrk"; printf '\n#--\n'
    head -c 4096 "$eeg"; } >"$work/corpus-fuzz_brainvision/$(basename "$vhdr" .vhdr)"
done
mkdir -p "$work/corpus-fuzz_cdf" # the CDF reference files as they are
cp "$testdata"/cdf/*.cdf "$work/corpus-fuzz_cdf/"
mkdir -p "$work/corpus-fuzz_snapshot" # snapshots of the reference sessions, as fuzz_snapshot inputs
ASAN_OPTIONS=detect_leaks=0 build/fuzz/tests/fuzz/fuzz_snapshot_seeds "$work/corpus-fuzz_snapshot" \
  "$testdata"/mef3/legacy/*.mefd "$testdata"/mef3/meflib/meflib_rto.mefd >/dev/null
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for target in "${targets[@]}"; do
  dict=tests/fuzz/mef3.dict
  [[ $target == fuzz_tar ]] && dict=tests/fuzz/tar.dict
  [[ $target == fuzz_edf || $target == fuzz_text_outputs ]] && dict=tests/fuzz/edf.dict
  [[ $target == fuzz_grid || $target == fuzz_session ]] && dict=
  [[ $target == fuzz_annotations ]] && dict=tests/fuzz/json.dict
  [[ $target == fuzz_annotation_csv ]] && dict=
  [[ $target == fuzz_mdf4 ]] && dict=tests/fuzz/mdf4.dict
  [[ $target == fuzz_montage ]] && dict=tests/fuzz/json.dict
  [[ $target == fuzz_brainvision ]] && dict=tests/fuzz/brainvision.dict
  [[ $target == fuzz_cdf ]] && dict=tests/fuzz/cdf.dict
  echo "== $target: ${seconds} s"
  log="$work/$target.log"
  build/fuzz/tests/fuzz/$target -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    ${dict:+-dict="$dict"} -artifact_prefix="$work/" "$work/corpus-$target" >"$log" 2>&1 || true
  grep -E "^(#[0-9]+ *DONE|Done|==[0-9]+==ERROR|SUMMARY)|runtime error:" "$log" || true
  # A sanitizer report counts even when no artifact was written (a report that did not end the process).
  if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1 ||
    grep -qE "runtime error:|^SUMMARY: |==[0-9]+==ERROR" "$log"; then
    mkdir -p build/fuzz/findings # the temporary folder goes: keep what reproduces it
    cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$log" build/fuzz/findings/ 2>/dev/null || true
    echo "fuzz-smoke: $target found a problem (inputs and log kept in build/fuzz/findings)" >&2
    exit 1
  fi
done
