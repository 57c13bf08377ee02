#!/usr/bin/env bash
# Installs every build and test dependency of Longview on Debian 12 (idempotent; quick when done).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  qt6-base-dev libqt6opengl6-dev qt6-qpa-plugins libqcustomplot-dev
  libxsimd-dev libdeflate-dev libzstd-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libssl-dev libgtest-dev
  clang libclang-rt-14-dev clang-format clang-tidy
  python3 python3-numpy python3-mne
  edfbrowser xvfb xauth biosig-tools
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup-debian: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "setup-debian: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
