#!/usr/bin/env bash
# Sets up, builds (release preset) and opens the viewer: on PATH if given, else on a demo recording (32 channels
# x 2 h at 256 Hz with pauses, NaN runs and annotations) made with longview-cli synth on first run in the cache
# folder. Without a display it saves a screenshot of the viewer there instead and prints its path.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/setup-debian.sh
cmake --preset release >/dev/null
cmake --build --preset release --target longview longview-cli
cache="${XDG_CACHE_HOME:-$HOME/.cache}/longview"
session=${1:-}
if [[ -z "$session" ]]; then
  session="$cache/demo/demo-32ch-2h.mefd"
  if [[ ! -d "$session" ]]; then
    mkdir -p "$cache/demo"
    build/release/app/cli/longview-cli synth "$session" --channels 32 --hours 2 --fs 256 --seed 1
  fi
fi
if [[ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
  shot="$cache/demo/longview-screenshot.png"
  QT_QPA_PLATFORM=offscreen build/release/app/gui/longview "$session" --span 30 --screenshot "$shot"
  echo "no display: saved a screenshot of the viewer to $shot"
  exit 0
fi
exec build/release/app/gui/longview "$session"
