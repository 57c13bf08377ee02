#!/usr/bin/env bash
# shellcheck disable=SC2016 # the NSIS variables ($INSTDIR, $DESKTOP, ...) in the expected lines are literal
# Exercises the Windows installer settings of cmake/Packaging.cmake on Linux: a small CMake project in a temporary
# folder takes the real cmake/Icons.cmake and cmake/Packaging.cmake, installs placeholder longview.exe and
# longview-cli.exe (text files; the real ones come from a Windows build), and `cpack -G NSIS64` builds the
# installer with makensis (Debian: nsis). Checks the installer is a Windows executable and that the generated
# NSIS script holds the Start menu entry, the desktop-shortcut option, the uninstaller, the file associations
# (written on install, removed on uninstall) and the icon. A few seconds; needs cmake, makensis, rsvg-convert
# and icotool (packaging/setup-debian.sh). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

step() { echo "== nsis-check: $*"; }
ok() { echo "   ok: $*"; }
fail() {
  echo "   FAILED: $*" >&2
  exit 1
}
for tool in cmake cpack makensis rsvg-convert icotool file; do
  command -v "$tool" >/dev/null || fail "$tool not found (packaging/setup-debian.sh installs it)"
done

version=$(sed -nE 's/^project\(Longview VERSION ([0-9.]+).*/\1/p' CMakeLists.txt)
[[ -n "$version" ]] || fail "no project(Longview VERSION ...) in CMakeLists.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$SECONDS

step "placeholder project in $work (Longview $version, the real cmake/Packaging.cmake)"
mkdir -p "$work/src"
echo "placeholder for the Windows build of longview.exe" >"$work/src/longview.exe"
echo "placeholder for the Windows build of longview-cli.exe" >"$work/src/longview-cli.exe"
cat >"$work/src/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(Longview VERSION $version LANGUAGES NONE)
# What a Windows build has: the generator and system name Windows would give, bin/ holding the programs.
set(CPACK_GENERATOR NSIS64)
set(CPACK_SYSTEM_NAME win64)
include("$repo/cmake/Icons.cmake")
install(FILES longview.exe longview-cli.exe DESTINATION bin)
install(FILES "$repo/LICENSE" DESTINATION .)
include("$repo/cmake/Packaging.cmake")
EOF
cmake -S "$work/src" -B "$work/build" >"$work/configure.log" 2>&1 || {
  cat "$work/configure.log" >&2
  fail "configure"
}
cmake --build "$work/build" >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  fail "build (the icons)"
}
file "$work/build/icons/longview.ico" | grep -q 'MS Windows icon resource' || fail "no longview.ico made"
ok "$(file -b "$work/build/icons/longview.ico")"

step "cpack -G NSIS64"
(cd "$work/build" && cpack -G NSIS64 >"$work/cpack.log" 2>&1) || {
  cat "$work/cpack.log" >&2
  find "$work/build/_CPack_Packages" -name 'NSISOutput.log' -exec tail -30 {} \; >&2 || true
  fail "cpack -G NSIS64"
}
exe="$work/build/Longview-$version-win64.exe"
[[ -f "$exe" ]] || fail "no $(basename "$exe") in $work/build: $(ls "$work/build")"
desc=$(file -b "$exe")
echo "   $(basename "$exe"): $desc ($(du -k "$exe" | cut -f1) KiB)"
[[ "$desc" == PE32* && "$desc" == *"MS Windows"* ]] || fail "not a Windows executable"
[[ "$desc" == *Nullsoft* ]] || fail "not an NSIS installer"

step "the generated installer script"
nsi=$(find "$work/build/_CPack_Packages" -name project.nsi | head -1)
[[ -f "$nsi" ]] || fail "no project.nsi"
check() {
  grep -qF -- "$2" "$nsi" || fail "$1: no '$2' in project.nsi"
  ok "$1"
}
check "installs under Program Files (64-bit)" 'PROGRAMFILES64'
check "Start menu entry" 'CreateShortCut "$SMPROGRAMS\$STARTMENU_FOLDER\Longview.lnk" "$INSTDIR\bin\longview.exe"'
check "desktop shortcut, optional (install options page)" \
  'CreateShortCut "$DESKTOP\Longview.lnk" "$INSTDIR\bin\longview.exe"'
check "uninstaller" 'WriteUninstaller "$INSTDIR\Uninstall.exe"'
check "installer icon (the generated .ico)" "!define MUI_ICON \"$work/build/icons/longview.ico\""
for ext in edf bdf; do
  check ".$ext opens with Longview" \
    "WriteRegStr HKCR 'Longview.$ext\\shell\\open\\command' '' '\"\$INSTDIR\\bin\\longview.exe\" \"%1\"'"
  check ".$ext lists Longview under OpenWithProgids" "WriteRegStr HKCR '.$ext\\OpenWithProgids' 'Longview.$ext' ''"
  check ".$ext association removed on uninstall" "DeleteRegKey HKCR 'Longview.$ext'"
done
grep -qE "HKCR '\\.tar'" "$nsi" && fail ".tar must not be associated"
ok ".tar left alone (a .mefd.tar archive opens through File > Open or a drop)"
# The file associations must sit in the install and the uninstall sections, not anywhere else.
awk '/^Section "-Core installation"/,/^SectionEnd/' "$nsi" | grep -q "WriteRegStr HKCR 'Longview.edf'" ||
  fail "associations not in the install section"
awk '/^Section "Uninstall"/,/^SectionEnd/' "$nsi" | grep -q "DeleteRegKey HKCR 'Longview.edf'" ||
  fail "association removal not in the uninstall section"
ok "associations written by the install section, removed by the uninstall section"

echo "== nsis-check: all checks passed in $((SECONDS - start)) s"
