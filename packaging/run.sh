#!/usr/bin/env bash
# Sets up, builds (release preset) and runs the main job: a summary of a reference MEF 3.0 session.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/setup-debian.sh
cmake --preset release >/dev/null
cmake --build --preset release --target longview-cli
session=${1:-../shared/testdata/mef3/meflib/meflib_rto.mefd}
exec build/release/app/cli/longview-cli info "$session"
