#!/usr/bin/env bash
# The Linux package test (CI): builds the .deb in build/package (Release, without tests and benchmarks), checks
# its metadata and desktop files, installs it on this machine with apt-get, runs what it installed (version,
# `info` on a reference MEF 3.0 session, a GUI screenshot on the offscreen platform), checks the file types and
# the "open with" registration, then purges it and checks nothing of it is left. Needs root (or sudo) for
# apt-get, and the packages of packaging/setup-debian.sh. Prints each check; exits non-zero on the first failure.
# About 1 minute on a warm ccache, when the sources are unchanged since the last build/package build.
# LONGVIEW_PACKAGE_BUILD=<dir> packages an existing, built tree instead (CI passes build/dev, which saves a third
# full build, about 4 minutes on a cold ccache); its binaries are stripped into the package.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
build="$repo/build/package"
testdata="${LONGVIEW_TESTDATA:-$(cd "$repo/.." && pwd)/shared/testdata}"

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi

step() { echo "== package-check: $*"; }
ok() { echo "   ok: $*"; }
fail() {
  echo "   FAILED: $*" >&2
  exit 1
}

version=$(sed -nE 's/^project\(Longview VERSION ([0-9.]+).*/\1/p' CMakeLists.txt)
[[ -n "$version" ]] || fail "no project(Longview VERSION ...) in CMakeLists.txt"
session="$testdata/mef3/legacy/multi_channel.mefd"
edf="$testdata/edf/test_generator.edf"
bdf="$testdata/edf/test.bdf"
for f in "$session" "$edf" "$bdf"; do
  [[ -e "$f" ]] || fail "reference data $f missing (a checkout of the shared folder beside this repository)"
done
channels_expected=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
print(next(len(c["channels"]) for c in m["cases"] if c["name"] == "multi_channel"))' \
  "$testdata/mef3/legacy/manifest.json")

start=$SECONDS
strip=()
if [[ -n "${LONGVIEW_PACKAGE_BUILD:-}" ]]; then
  build=$(cd "$LONGVIEW_PACKAGE_BUILD" && pwd)
  step "package the built tree $build (stripped)"
  [[ -f "$build/CPackConfig.cmake" && -x "$build/app/gui/longview" && -x "$build/app/cli/longview-cli" ]] ||
    fail "$build is not a configured and built tree (CPackConfig.cmake, app/gui/longview, app/cli/longview-cli)"
  strip=(-D CPACK_STRIP_FILES=ON)
else
  step "configure and build (Release, version $version) in build/package"
  mkdir -p "$build"
  log="$build/package-check.log"
  if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLONGVIEW_BUILD_TESTS=OFF \
    -DLONGVIEW_BUILD_BENCH=OFF -DCMAKE_INSTALL_PREFIX=/usr >"$log" 2>&1; then
    tail -40 "$log" >&2
    fail "configure (log: $log)"
  fi
  if ! cmake --build "$build" -j "$(nproc)" >>"$log" 2>&1; then
    grep -E 'error|FAILED' "$log" | head -40 >&2
    fail "build (log: $log)"
  fi
  steps=$(grep -cE '^\[[0-9]+/[0-9]+\] Building CXX' "$log" || true)
  ok "built in $((SECONDS - start)) s ($steps compile steps, ccache hits included; log: $log)"
fi

step "cpack -G DEB"
rm -f "$build"/longview_*.deb
(cd "$build" && cpack -G DEB "${strip[@]}" >/dev/null) || fail "cpack -G DEB"
debs=("$build"/longview_*.deb)
[[ ${#debs[@]} -eq 1 && -f "${debs[0]}" ]] || fail "expected one longview_*.deb in $build"
deb="${debs[0]}"
arch=$(dpkg --print-architecture)
[[ "$(basename "$deb")" == "longview_${version}_${arch}.deb" ]] || fail "file name $(basename "$deb")"
ok "$(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

step "package metadata (dpkg-deb -I)"
info=$(dpkg-deb -I "$deb")
echo "$info" | grep -E '^ (Package|Version|Architecture|Section|Depends|Recommends|Homepage):' | sed 's/^/   /'
depends=$(echo "$info" | sed -n 's/^ Depends: //p')
[[ "$(echo "$info" | sed -n 's/^ Version: //p')" == "$version" ]] || fail "Version is not $version"
[[ "$(echo "$info" | sed -n 's/^ Section: //p')" == "science" ]] || fail "Section is not science"
for lib in libqt6widgets6 libqt6gui6 libzstd1 libssl3 libc6; do
  [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib (dpkg-shlibdeps): $depends"
done
ok "Depends computed by dpkg-shlibdeps"

step "package contents"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
expect=(
  /usr/bin/longview /usr/bin/longview-cli
  /usr/share/applications/org.longview.Longview.desktop
  /usr/share/mime/packages/org.longview.Longview.xml
  /usr/share/metainfo/org.longview.Longview.metainfo.xml
  /usr/share/icons/hicolor/scalable/apps/org.longview.Longview.svg
  /usr/share/man/man1/longview-cli.1.gz /usr/share/man/man1/longview.1.gz
  /usr/share/doc/longview/copyright
)
for n in 16 24 32 48 64 128 256 512; do
  expect+=("/usr/share/icons/hicolor/${n}x${n}/apps/org.longview.Longview.png")
done
for f in "${expect[@]}"; do
  grep -qxF "$f" <<<"$contents" || fail "$f not in the package"
done
ok "${#expect[@]} expected files present"

step "validate the desktop files from the package"
extract=$(mktemp -d)
trap 'rm -rf "$extract"' EXIT
dpkg-deb -x "$deb" "$extract"
desktop-file-validate "$extract/usr/share/applications/org.longview.Longview.desktop" || fail "desktop-file-validate"
ok "desktop-file-validate"
appstreamcli validate --no-net "$extract/usr/share/metainfo/org.longview.Longview.metainfo.xml" ||
  fail "appstreamcli validate"
grep -qF "<release version=\"$version\"" "$extract/usr/share/metainfo/org.longview.Longview.metainfo.xml" ||
  fail "metainfo release is not $version"
ok "appstreamcli validate, release $version"
file "$extract/usr/share/icons/hicolor/48x48/apps/org.longview.Longview.png" | grep -q 'PNG image data, 48 x 48' ||
  fail "48x48 icon"
zcat "$extract/usr/share/man/man1/longview-cli.1.gz" | grep -q '^\.TH LONGVIEW-CLI "1"' || fail "longview-cli.1"
ok "icon and man page"

step "the file types on a database of shared-mime-info's own types plus ours (not other packages')"
mimedb="$extract/mimedb"
mkdir -p "$mimedb/mime/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$mimedb/mime/packages/"
cp "$extract/usr/share/mime/packages/org.longview.Longview.xml" "$mimedb/mime/packages/"
update-mime-database "$mimedb/mime" >/dev/null 2>&1 || fail "update-mime-database rejects our MIME XML"
printf 'STARTFONT 2.1\nFONT -misc-fixed\nENDFONT\n' >"$extract/font.bdf"
cp "$edf" "$extract/recording.edf"
cp "$bdf" "$extract/recording.bdf"
tar -cf "$extract/session.mefd.tar" -C "$(dirname "$session")" "$(basename "$session")"
for pair in recording.edf=application/x-edf recording.bdf=application/x-bdf font.bdf=application/x-font-bdf \
  session.mefd.tar=application/x-mef3-session; do
  f=${pair%%=*} want=${pair#*=}
  # xdg-mime's generic lookup (File::MimeInfo) and GLib's, as file managers do it.
  got=$(XDG_DATA_DIRS="$mimedb" XDG_DATA_HOME="$mimedb/none" xdg-mime query filetype "$extract/$f")
  got_gio=$(XDG_DATA_DIRS="$mimedb" XDG_DATA_HOME="$mimedb/none" gio info -a standard::content-type "$extract/$f" |
    sed -n 's/^ *standard::content-type: //p')
  [[ "$got" == "$want" && "$got_gio" == "$want" ]] || fail "$f is '$got' (xdg-mime), '$got_gio' (gio), not $want"
  ok "$f: $want"
done

step "install: apt-get install $deb"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$deb" >/dev/null 2>"$extract/apt.err" ||
  {
    cat "$extract/apt.err" >&2
    fail "apt-get install"
  }
installed_files=$(dpkg -L longview)
purged=0
purge() { DEBIAN_FRONTEND=noninteractive $sudo apt-get remove --purge -y -q longview >/dev/null; }
trap 'rm -rf "$extract"; if [[ $purged -eq 0 ]]; then purge || true; fi' EXIT
ok "installed $(dpkg-query -W -f='${Package} ${Version}' longview)"

step "/usr/bin/longview-cli --version"
out=$(/usr/bin/longview-cli --version)
echo "   $out"
[[ "$out" == "longview-cli $version" ]] || fail "version is not $version"

step "/usr/bin/longview-cli info $session"
out=$(/usr/bin/longview-cli info "$session") || fail "info exited $?"
channels=$(sed -nE 's/^ +channels +([0-9]+)$/\1/p' <<<"$out")
echo "   channels $channels (manifest: $channels_expected)"
[[ "$channels" == "$channels_expected" ]] || fail "channel count"

step "/usr/bin/longview $(basename "$edf") --screenshot (offscreen, 800x500)"
shot="$extract/screenshot.png"
QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$extract" HOME="$extract" \
  /usr/bin/longview "$edf" --screenshot "$shot" --size 800x500 --timeout 60 2>"$extract/gui.err" ||
  {
    cat "$extract/gui.err" >&2
    fail "longview --screenshot"
  }
desc=$(file -b "$shot")
echo "   $desc"
[[ "$desc" == "PNG image data, 800 x 500,"* ]] || fail "not an 800 x 500 PNG"
python3 - "$shot" <<'EOF' || fail "the screenshot looks blank"
# Decodes the PNG (8-bit RGB or RGBA, non-interlaced, as Qt writes it) and counts its colours: a drawn window has
# many; a blank or failed render has one or two.
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, hdr = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
width, height, depth, colour, _, _, interlace = hdr
if depth != 8 or colour not in (2, 6) or interlace:
    sys.exit(f"unexpected PNG layout depth={depth} colour={colour} interlace={interlace}")
bpp = 3 if colour == 2 else 4
raw, stride = zlib.decompress(idat), width * bpp
prev, counts = bytearray(stride), {}
for y in range(height):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        counts[px] = counts.get(px, 0) + 1
    prev = line
top = max(counts.values()) / (width * height)
print(f"   {len(counts)} colours, the commonest on {top:.0%} of the pixels")
sys.exit(0 if len(counts) >= 16 and top < 0.9 else 1)
EOF

step "desktop integration after the package's triggers (update-desktop-database, update-mime-database)"
for t in application/x-edf application/x-bdf application/x-mef3-session; do
  line=$(grep -E "^$t=" /usr/share/applications/mimeinfo.cache || true)
  [[ ";${line#*=}" == *";org.longview.Longview.desktop;"* ]] ||
    fail "/usr/share/applications/mimeinfo.cache does not list org.longview.Longview.desktop for $t: '$line'"
  ok "mimeinfo.cache: $line"
done
grep -qE '^application/x-bdf$' /usr/share/mime/types || fail "application/x-bdf not in /usr/share/mime/types"
out=$(XDG_DATA_DIRS=/usr/share xdg-mime query filetype "$bdf")
[[ "$out" == application/x-bdf ]] || fail "installed database: $(basename "$bdf") is '$out'"
ok "installed database: $(basename "$bdf") is application/x-bdf"
# The default for application/x-edf: another installed viewer (EDFbrowser) may claim it too, and then the order
# in mimeinfo.cache decides, so the default is asked once of the system and once of our .desktop on its own.
home="$extract/home"
mkdir -p "$home"
default=$(HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_DATA_DIRS=/usr/share \
  xdg-mime query default application/x-edf)
echo "   system default for application/x-edf: $default"
if [[ "$default" != org.longview.Longview.desktop ]]; then
  others=$(grep -lE '^MimeType=.*application/x-edf(;|$)' /usr/share/applications/*.desktop | xargs -n1 basename)
  grep -qxF "$default" <<<"$others" || fail "default $default does not list application/x-edf"
  ok "$default claims application/x-edf too (installed before us)"
fi
alone="$extract/alone/applications"
mkdir -p "$alone"
cp /usr/share/applications/org.longview.Longview.desktop "$alone/"
update-desktop-database "$alone"
default=$(HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_DATA_DIRS="$extract/alone" \
  xdg-mime query default application/x-edf)
[[ "$default" == org.longview.Longview.desktop ]] ||
  fail "with only the installed org.longview.Longview.desktop, the default for application/x-edf is '$default'"
ok "with only the installed .desktop: xdg-mime query default application/x-edf = $default"

step "apt-get remove --purge longview"
purge || fail "apt-get remove --purge"
purged=1
left=0
while IFS= read -r f; do
  # Shared folders (/usr, /usr/share/...) stay; every file and every folder of ours alone must be gone.
  if [[ -e "$f" && ! -d "$f" ]]; then
    echo "   left behind: $f" >&2
    left=1
  fi
done <<<"$installed_files"
[[ -e /usr/share/doc/longview ]] && {
  echo "   left behind: /usr/share/doc/longview" >&2
  left=1
}
[[ $left -eq 0 ]] || fail "files left after purge"
if dpkg-query -W -f='${Status}' longview 2>/dev/null | grep -q installed; then fail "dpkg still lists longview"; fi
if grep -q 'org.longview.Longview.desktop' /usr/share/applications/mimeinfo.cache; then
  fail "mimeinfo.cache still names org.longview.Longview.desktop"
fi
ok "$(wc -l <<<"$installed_files") paths of dpkg -L gone or shared folders; mimeinfo.cache updated"

echo "== package-check: all checks passed in $((SECONDS - start)) s ($(basename "$deb"))"
