#!/usr/bin/env bash
# Builds the fuzzers' seed corpora from the reference MEF 3.0 sessions (read only) into OUT/corpus-<target>.
# Usage: packaging/fuzz-seeds.sh [OUT (default /tmp)] [TESTDATA (default ../shared/testdata next to the repo)]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-/tmp}"
data="${2:-$here/../../shared/testdata}/mef3"
[[ -d "$data" ]] || { echo "no reference data at $data" >&2; exit 1; }

red="$out/corpus-fuzz_red_block"
headers="$out/corpus-fuzz_headers"
headersCrc="$out/corpus-fuzz_headers_crc"
tar_="$out/corpus-fuzz_tar"
recover="$out/corpus-fuzz_recover"
edfSeeds="$out/corpus-fuzz_edf"
grid="$out/corpus-fuzz_grid"
textSeeds="$out/corpus-fuzz_text_outputs"
session="$out/corpus-fuzz_session"
mkdir -p "$red" "$headers" "$headersCrc" "$tar_" "$recover" "$edfSeeds" "$grid" "$session" "$textSeeds"

# le VALUE BYTES: VALUE as BYTES little-endian bytes.
le() { local i; for ((i = 0; i < $2; i++)); do printf "\\x$(printf %02x $((($1 >> (8 * i)) & 255)))"; done; }
f64_256=$((0x4070000000000000)) f64_512=$((0x4080000000000000)) t0=1600000000000000

# fuzz_grid: 256 Hz, one segment, blocks of 256 samples: back to back, then after a 2 s pause.
{ le $f64_256 8; le 0 1; le $t0 8; le 256 4; le 0 1; le $((t0 + 1000000)) 8; le 256 4; le 0 1
  le $((t0 + 4000000)) 8; le 256 4; le 0 1; } > "$grid/three-blocks"
# fuzz_session: the clean session (no edits); the rate set to 512 Hz; the first block's time moved by 1 s.
: > "$session/clean"
{ le 0 1; le 8 2; le $f64_512 8; } > "$session/rate-512"
{ le 1 1; le 8 2; le $((t0 + 1000000)) 8; } > "$session/block-time"

# fuzz_text_outputs: an 8-byte onset, a flag byte, then NUL-separated name, unit and annotation texts.
printf '\0\0\0\0\0\0\0\0\0Fp1\0uV\0Seizure onset\0=1+2' > "$textSeeds/plain"
printf '\1\2\3\4\0\0\0\0\1a,b "q"\0@SUM(A1)\0\033[31mred\r\n\0-x\024y\025z' > "$textSeeds/hostile"

# fuzz_annotations: a sidecar with a whole-recording and a channel annotation.
notes="$out/corpus-fuzz_annotations"
mkdir -p "$notes"
printf '%s' '{"format": "longview-annotations", "version": 1, "recording": {"file": "a.edf", "duration_us": 60000000,
 "channels": ["Fp1", "Fp2"]}, "annotations": [{"onset_us": 0, "duration_us": 2000000, "type": "Seizure",
 "text": "onset", "channel": null}, {"onset_us": 59000000, "duration_us": 0, "type": "Note", "text": "x\u00e9",
 "channel": "Fp2"}]}' > "$notes/two"

# fuzz_montage: a Longview montage (first byte 0), the EDFbrowser montage fixture (1), a filter spec (2), a cached
# spectrogram (3: two bins, one column and one empty one).
montages="$out/corpus-fuzz_montage"
mkdir -p "$montages"
printf '\0%s' '{"format": "longview-montage", "version": 1, "name": "b", "derivations": [{"name": "Fp1-F7", "unit": "uV",
 "type": "EEG", "terms": [{"channel": "Fp1", "weight": 1}, {"channel": "F7", "weight": -1}], "colour": "#0000ff",
 "sensitivity": 70, "filter": "hp=0.5,lp=70", "inverted": false}]}' > "$montages/json"
{ printf '\1'; cat "$here/../tests/engine/montage/fixtures/bipolar_filters.mtg"; } > "$montages/mtg"
printf '\2%s' 'hp=0.5,lp=70,notch=50,harmonics=2,q=25,order=4' > "$montages/spec"
printf '\2%s' 'bp=1-40,bs=45-55,causal' > "$montages/band"
printf '\3LVSPGRAM\1\0\0\0\0\0\0\0\0\0\0\0\100\102\17\0\0\0\0\0\2\0\0\0\2\0\0\0%s' \
  '' > "$montages/spectrogram"
printf '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\340\77\1\0\0\0\0\0\200\77\0\0\0\100\0\0\0\0' >> "$montages/spectrogram"

# fuzz_annotation_csv: an exported annotations table (quoted cells, a formula guard, an ISO and a relative onset).
mkdir -p "$out/corpus-fuzz_annotation_csv"
printf 'onset_iso,onset_seconds,duration_seconds,type,text,channel\n2025-01-01T00:00:01.500000+00:00,1.5,0.25,Spike,"a, ""b""\nc",Fp1\n,12,0,Note,\x27=1+2,\n' \
  > "$out/corpus-fuzz_annotation_csv/table"

# fuzz_edf: each reference EDF/BDF file's header plus its first 2 KiB of records (TALs live there).
for f in "${2:-$here/../../shared/testdata}"/edf/*.[eb]df; do
    ns=$(dd if="$f" bs=1 skip=252 count=4 status=none | tr -d ' ')
    head -c $((256 * (ns + 1) + 2048)) "$f" > "$edfSeeds/$(basename "$f")"
done

# fuzz_recover: whole .tdat files (the smaller ones; the target skips inputs over 1 MiB).
while IFS= read -r -d '' f; do
    cp "$f" "$recover/$(echo "$f" | md5sum | cut -c1-6)-$(basename "$f")"
done < <(find "$data" -name '*.tdat' -size -1024k -print0)
chmod u+w "$recover"/*

u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }

# fuzz_red_block: every RED block of every .tdat (blocks follow each other from byte 1024; block_bytes at +36).
while IFS= read -r -d '' f; do
    size=$(stat -c %s "$f")
    off=1024 n=0
    while (( off + 304 <= size )); do
        bytes=$(u32 "$f" $((off + 36)))
        (( bytes >= 304 && off + bytes <= size )) || break
        dd if="$f" bs=1 skip="$off" count="$bytes" status=none of="$red/$(basename "$f" .tdat)-$(echo "$f" | md5sum | cut -c1-6)-$n.red"
        off=$((off + bytes)) n=$((n + 1))
    done
done < <(find "$data" -name '*.tdat' -print0)

# fuzz_headers and fuzz_headers_crc: whole .tmet, .tidx and .rdat files.
while IFS= read -r -d '' f; do
    name="$(echo "$f" | md5sum | cut -c1-6)-$(basename "$f")"
    cp "$f" "$headers/$name"
    cp "$f" "$headersCrc/$name"
done < <(find "$data" \( -name '*.tmet' -o -name '*.tidx' -o -name '*.rdat' \) -print0)
chmod u+w "$headers"/* "$headersCrc"/*

# fuzz_tar: a GNU tar of a session, the same with paths over 100 bytes (GNU 'L' and pax 'x' long names), and a
# ustar one with a prefix field. GNU tar's --transform renames in the archive only.
long='s,^,recordings/2020/subject-0001/a-directory-name-long-enough-to-push-every-path-past-the-ustar-limit/,'
tar -C "$data/legacy" --format=gnu -cf "$tar_/with_annotations.gnu.tar" with_annotations.mefd
tar -C "$data/legacy" --format=gnu --transform="$long" -cf "$tar_/plain_single.gnu-long.tar" plain_single.mefd
tar -C "$data/legacy" --format=pax --transform="$long" -cf "$tar_/plain_single.pax-long.tar" plain_single.mefd
tar -C "$data/legacy" --format=ustar --transform="$long" -cf "$tar_/multi_segment.ustar.tar" multi_segment.mefd/ch1.timd

for d in "$red" "$headers" "$headersCrc" "$tar_" "$edfSeeds" "$grid" "$session"; do echo "$d: $(ls "$d" | wc -l) files, $(du -sh "$d" | cut -f1)"; done
