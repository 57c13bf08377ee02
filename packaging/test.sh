#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: a dev build (-Werror), the same suite under ASan+UBSan,
# then a short run of every libFuzzer target.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/setup-debian.sh
for preset in dev asan; do
  echo "== $preset: configure and build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  echo "== $preset: test"
  ctest --preset "$preset" -j "$(nproc)"
done
echo "== fuzz: build the libFuzzer targets and run each briefly"
packaging/fuzz-smoke.sh
