#!/usr/bin/env bash
# Compiles every engine source, and longview-cli's, for Windows with Debian's mingw-w64 cross compiler, syntax
# only (the dependencies have no Windows build here: their headers are enough). The platform layer's *Win32.cpp
# files stand in for the *Posix.cpp ones, so a POSIX call or a Linux-only header anywhere else fails.
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=x86_64-w64-mingw32-g++-posix
command -v "$cxx" >/dev/null || { echo "windows-check: $cxx missing (packaging/setup-debian.sh installs it)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/generated/core" "$work/deps/openssl"
sed -e 's/@PROJECT_VERSION@/0.0.0/' -e 's/@LONGVIEW_COMMIT@/windows-check/' engine/core/Version.h.in \
  >"$work/generated/core/Version.h"
# Only the dependencies' own headers: the host's /usr/include would bring glibc's in.
ln -s /usr/include/zstd.h /usr/include/zstd_errors.h /usr/include/libdeflate.h /usr/include/zlib.h /usr/include/zconf.h \
  /usr/include/nlohmann \
  /usr/include/xsimd /usr/include/CLI /usr/include/fftw3.h /usr/include/pugixml.hpp /usr/include/pugiconfig.hpp \
  "$work/deps/"
cp -r /usr/include/openssl/. "$work/deps/openssl/"
cp /usr/include/x86_64-linux-gnu/openssl/*.h "$work/deps/openssl/"

mapfile -t sources < <(find engine app/cli app/common -name '*.cpp' ! -name '*Posix.cpp' | sort)
echo "windows-check: ${#sources[@]} sources of engine/, app/cli/ and app/common/ with $cxx -fsyntax-only"
# Kernels of one instruction set each (their CMakeLists give them these flags, and only them).
printf '%s\n' "${sources[@]}" | xargs -P "$(nproc)" -I{} sh -c \
  "case {} in *Avx512.cpp) isa='-mavx512f -mavx512dq -mavx512vl -mavx512bw' ;; *Avx2.cpp) isa=-mavx2 ;; *) isa= ;; esac
   $cxx -std=c++20 -fsyntax-only -Wall -Wextra -Werror -msse4.1 -mpclmul -DLV_CRC32_CLMUL=1 -DNOMINMAX \$isa \
   -DLONGVIEW_CDF_X86_KERNELS -DLONGVIEW_CORE_X86_KERNELS -DWIN32_LEAN_AND_MEAN -Iengine -Iapp -I'$work/generated' -isystem '$work/deps' {} ||
   { echo 'FAILED: {}'; exit 1; }"
echo "windows-check: all ${#sources[@]} compile for Windows"
