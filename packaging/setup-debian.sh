#!/usr/bin/env bash
# Installs every build and test dependency of Longview on Debian 12 (idempotent; quick when done).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  qt6-base-dev libqt6opengl6-dev qt6-qpa-plugins libqcustomplot-dev
  libxsimd-dev libdeflate-dev zlib1g-dev libzstd-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libssl-dev libgtest-dev
  clang libclang-rt-14-dev clang-format clang-tidy
  python3 python3-numpy python3-scipy python3-mne python3-zarr nodejs libfftw3-dev libpugixml-dev
  edfbrowser xvfb xauth biosig-tools
  librsvg2-bin icoutils icnsutils desktop-file-utils appstream help2man
  xdg-utils libfile-mimeinfo-perl nsis dpkg-dev file
  g++-mingw-w64-x86-64-posix
)
# Installed without their recommends (slurm-wlm's pull in about 25 plugin packages): the one-node cluster
# of packaging/slurm-check.sh needs only the daemons, the client commands and munge; ../shared/tools/cdf-check
# (the CDF tests' oracle) needs jcdf and a JDK to compile its helper.
lean=(
  slurm-wlm munge
  libjcdf-java default-jdk-headless
)

missing=()
missing_lean=()
for p in "${packages[@]}" "${lean[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] && continue
  if [[ " ${lean[*]} " == *" $p "* ]]; then missing_lean+=("$p"); else missing+=("$p"); fi
done
if [[ ${#missing[@]} -eq 0 && ${#missing_lean[@]} -eq 0 ]]; then
  echo "setup-debian: all $((${#packages[@]} + ${#lean[@]})) packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
to_install=("${missing[@]}" "${missing_lean[@]}")
echo "setup-debian: installing ${to_install[*]}"
$sudo apt-get update -q
if [[ ${#missing[@]} -gt 0 ]]; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi
if [[ ${#missing_lean[@]} -gt 0 ]]; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing_lean[@]}"
fi
