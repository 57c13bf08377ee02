#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: a short run of every libFuzzer target, then the test suite
# in a dev build (-Werror), `batch --shard` as a Slurm job array on a one-node cluster (about 25 s), the style
# check (clang-format on every source; clang-tidy on every engine source, about 5 minutes on 2 cores, seconds for
# the files it found clean before with the same inputs (packaging/tidy-cached.py); it needs the dev build), every engine and CLI source compiled for Windows (about 1 minute), the
# installers (packaging/package-check.sh builds, installs, runs and purges the .deb; nsis-check.sh builds the
# Windows installer's script with makensis; the .deb is packaged from the dev build, about 1 minute), and the test
# suite again under ASan+UBSan (ctest's summary closes the output). Each phase prints its time since the start.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { echo "== [$((SECONDS / 60)) min $((SECONDS % 60)) s] $*"; }
packaging/setup-debian.sh
phase "fuzz: build the libFuzzer targets and run each briefly"
packaging/fuzz-smoke.sh
for preset in dev asan; do
  phase "$preset: configure and build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  phase "$preset: test"
  ctest --preset "$preset" -j "$(nproc)"
  if [[ $preset == dev ]]; then
    phase "slurm: batch --shard as a 4-task job array on a one-node cluster"
    packaging/slurm-check.sh build/dev/app/cli/longview-cli
    phase "style: clang-format and clang-tidy"
    LONGVIEW_TIDY_ALL=1 packaging/check-style.sh
    phase "windows: every engine and CLI source compiled for Windows (mingw-w64, syntax only)"
    packaging/windows-check.sh
    phase "installers: the .deb built, installed, run and purged; the NSIS installer script built"
    LONGVIEW_PACKAGE_BUILD=build/dev packaging/package-check.sh
    packaging/nsis-check.sh
  fi
done
