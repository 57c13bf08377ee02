#!/usr/bin/env bash
# Runs `longview-cli batch --shard I/N` as a real 4-task Slurm job array on a one-node cluster it starts and stops.
#   usage (root): packaging/slurm-check.sh [CLI [TESTDATA]]   (default build/dev/app/cli/longview-cli, ../shared/testdata)
set -euo pipefail
here=$PWD
cd "$(dirname "$0")/.."
root=$PWD
export PATH="$PATH:/usr/sbin:/sbin"

skip() { echo "slurm-check: skipped: $*"; exit 0; }
fail() { echo "slurm-check: FAILED: $*" >&2; exit 1; }
absolute() { if [[ $1 == /* ]]; then printf '%s\n' "$1"; else printf '%s/%s\n' "$here" "$1"; fi; }
cli=$root/build/dev/app/cli/longview-cli
testdata=$(dirname "$root")/shared/testdata
if [[ $# -ge 1 ]]; then cli=$(absolute "$1"); fi
if [[ $# -ge 2 ]]; then testdata=$(absolute "$2"); fi

[[ $(id -u) -eq 0 ]] || skip "needs root (it starts munged, slurmctld and slurmd)"
for c in slurmctld slurmd munged munge unmunge sbatch sinfo scontrol scancel squeue runuser; do
  command -v "$c" >/dev/null || skip "$c is not installed (packaging/setup-debian.sh installs slurm-wlm and munge)"
done
id slurm >/dev/null 2>&1 || skip "no slurm user (the slurm-wlm packages make it)"
id munge >/dev/null 2>&1 || skip "no munge user (the munge package makes it)"
[[ -s /etc/munge/munge.key ]] || skip "no /etc/munge/munge.key (the munge package makes it; else mungekey --create)"
[[ -x $cli ]] || fail "no longview-cli at $cli (build it, or pass its path as the first argument)"
help=$("$cli" --help) || fail "$cli --help failed"
grep -qE '^ +batch ' <<<"$help" || fail "$cli has no batch command"
[[ -d $testdata/edf ]] || fail "no $testdata/edf (pass the testdata folder as the second argument)"
command -v python3 >/dev/null || fail "python3 is not installed (packaging/setup-debian.sh installs it)"

t_start=$EPOCHREALTIME
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# Everything below lives in $D; the trap stops exactly the daemons this script started (by their pid files,
# checked to still be the same program) and removes $D, on every exit path.
D=""
started_munged=""
munged_pid=""
sbatch_pid=""
running() { [[ -e /proc/$1 ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; } # not a zombie
stop_daemon() { # NAME PID
  local name=$1 pid=$2 i
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$name" ]] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 150; i++)); do
    running "$pid" || return 0
    sleep 0.1
  done
  echo "slurm-check: $name ($pid) still running 15 s after SIGTERM: killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
}
pid_in() { if [[ -s $1 ]]; then cat "$1"; fi; }
cleanup() {
  local rc=$? i j
  set +e
  trap - EXIT INT TERM
  local t_stop=$EPOCHREALTIME
  if [[ -n $D ]]; then
    local ctld_pid slurmd_pid
    ctld_pid=$(pid_in "$D/slurmctld.pid")
    slurmd_pid=$(pid_in "$D/slurmd.pid")
    if [[ -n $sbatch_pid ]]; then kill -TERM "$sbatch_pid" 2>/dev/null; fi
    if [[ -n $ctld_pid ]] && running "$ctld_pid"; then # cancel this cluster's unfinished jobs, if any
      scancel --name=slurm-check 2>/dev/null
      for ((i = 0; i < 100; i++)); do
        j=$(squeue -h -n slurm-check -t PD,CF,R,CG,S -o %i 2>/dev/null)
        [[ -z $j ]] && break
        sleep 0.1
      done
    fi
    stop_daemon slurmd "$slurmd_pid"
    stop_daemon slurmctld "$ctld_pid"
  fi
  if [[ -n $started_munged && -z $munged_pid ]]; then munged_pid=$(pid_in /run/munge/munged.pid); fi
  stop_daemon munged "$munged_pid"
  if [[ -n $D ]]; then
    rm -rf "$D"
    echo "slurm-check: stopped the daemons it started and removed $D in $(since "$t_stop") s"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "slurm-check: interrupted" >&2; exit 130' INT
trap 'echo "slurm-check: terminated" >&2; exit 143' TERM

D=$(mktemp -d /tmp/slurm-check.XXXXXX)
chmod 755 "$D" # slurmctld runs as the slurm user and must reach $D/ctld
mkdir -p "$D/ctld" "$D/spool" "$D/log" "$D/out" "$D/work"
chown slurm:slurm "$D/ctld" "$D/spool" "$D/log"
host=$(hostname)
node=$(slurmd -C 2>/dev/null | grep -m1 '^NodeName=' || true)
if [[ -n $node ]]; then
  node="NodeName=$host ${node#NodeName=* }" # slurmd -C's CPUs, sockets, cores, threads and RealMemory
else
  node="NodeName=$host CPUs=$(nproc)"
fi
conf=$D/slurm.conf
cat >"$conf" <<EOF
ClusterName=lvtest
SlurmctldHost=$host
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$D/ctld
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
$node
PartitionName=debug Nodes=$host Default=YES State=UP
EOF
export SLURM_CONF=$conf

not_up() {
  local f
  for f in "$D"/log/*.log; do
    [[ -s $f ]] && { echo "slurm-check: last lines of $f:"; tail -n 5 "$f"; }
  done
  skip "$*"
}

# munged: reuse one that is already running, else start one (and stop only that one at the end).
echo "slurm-check: starting the cluster in $D ($node)"
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  echo "slurm-check: munged is already running: using it"
else
  mkdir -p /run/munge
  chown munge:munge /run/munge
  started_munged=1
  runuser -u munge -- munged 2>"$D/log/munged.err" || not_up "munged did not start: $(cat "$D/log/munged.err")"
fi
deadline=$((SECONDS + 20))
until munge -n 2>/dev/null | unmunge >/dev/null 2>&1; do
  ((SECONDS < deadline)) || not_up "munged did not answer within 20 s"
  sleep 0.2
done
if [[ -n $started_munged ]]; then munged_pid=$(pid_in /run/munge/munged.pid); fi
slurmctld -f "$conf" 2>"$D/log/slurmctld.err" || not_up "slurmctld did not start: $(cat "$D/log/slurmctld.err")"
slurmd -f "$conf" 2>"$D/log/slurmd.err" || not_up "slurmd did not start: $(cat "$D/log/slurmd.err")"
gone() { [[ -s $1 ]] && ! running "$(<"$1")"; } # a daemon that wrote its pid file and exited
until [[ $(timeout 5 sinfo -h -N -n "$host" -o %T 2>/dev/null) == idle ]]; do
  gone "$D/slurmctld.pid" && not_up "slurmctld exited"
  gone "$D/slurmd.pid" && not_up "slurmd exited"
  ((SECONDS < deadline)) || not_up "node $host not idle within 20 s ($(timeout 5 sinfo -h -N -o '%N %T' 2>&1 | head -1))"
  sleep 0.2
done
echo "slurm-check: node $host idle after $(since "$t_start") s"

# run_array NAME MINUTES COMMAND: sbatch --wait a 4-task array of COMMAND (output in $D/out/NAME_%A_%a.out), in the
# background so that a signal stops the wait at once; sets array_job and array_rc (sbatch's exit status).
run_array() {
  timeout $(($2 * 60 + 60)) sbatch --wait --parsable --array=0-3 --job-name=slurm-check --time="$2" --chdir="$D" \
    --output="$D/out/$1_%A_%a.out" --wrap "$3" >"$D/out/$1.sbatch" &
  sbatch_pid=$!
  array_rc=0
  wait "$sbatch_pid" || array_rc=$?
  sbatch_pid=""
  array_job=$(cut -d';' -f1 "$D/out/$1.sbatch")
  [[ $array_job =~ ^[0-9]+$ ]] || fail "sbatch did not submit the $1 array (exit $array_rc)"
  [[ $array_rc -ne 124 ]] || fail "the $1 array job $array_job did not end within $2 minutes"
}

# Smoke step: a 4-task array of echo proves the cluster before the real job.
t_smoke=$EPOCHREALTIME
# shellcheck disable=SC2016 # expanded in the task, not here
run_array smoke 5 'echo "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT"'
smoke=$array_job
[[ $array_rc -eq 0 ]] || fail "the echo array job $smoke failed (sbatch --wait exit $array_rc)"
for i in 0 1 2 3; do
  got=$(cat "$D/out/smoke_${smoke}_$i.out" 2>/dev/null || true)
  [[ $got == "$i/4" ]] || fail "echo array task $i printed '$got', not '$i/4'"
done
echo "slurm-check: echo array job $smoke: 4 tasks in $(since "$t_smoke") s"

# The input folder: 13 recordings of every input kind in nested folders, one of them damaged.
t_inputs=$EPOCHREALTIME
IN=$D/in
OUT=$D/converted
mkdir -p "$IN/ward-a/night-1" "$IN/ward-b"
good=()
synth() { # REL SEED HOURS [OPTIONS...]
  local rel=$1 seed=$2 hours=$3
  shift 3
  "$cli" synth "$IN/$rel" --channels 2 --hours "$hours" --seed "$seed" --threads 1 "$@" >/dev/null
  good+=("$rel")
}
synth s01.mefd 1 0.05
synth ward-a/s02.mefd 2 0.03 --fs 200
synth ward-a/night-1/s03.mefd 3 0.02 --segment-minutes 0.5
synth ward-b/s04.mefd 4 0.04 --no-gaps
"$cli" synth "$D/work/s05.mefd" --channels 2 --hours 0.03 --seed 5 --threads 1 >/dev/null
"$cli" archive "$D/work/s05.mefd" "$IN/ward-b/s05.mefd.tar" >/dev/null
good+=(ward-b/s05.mefd.tar)
copy() { # TESTDATA-FILE REL (a copy: testdata stays as it is)
  install -m 644 "$testdata/edf/$1" "$IN/$2"
  good+=("$2")
}
copy ref_edflib.edf ref_edflib.edf
copy ref_edflib.bdf ward-a/ref_edflib.bdf
copy test_subsecond.edf ward-a/night-1/eeg.edf # the same name in two folders: outputs must keep the layout
copy test_utf8.edf ward-b/eeg.edf
copy test_edf_stim_channel.edf ward-a/night-1/stim.edf
copy test_generator_datarec_generator_2.bdf ward-b/generator.bdf
copy test.bdf ward-b/biosemi.bdf
damaged=ward-a/night-1/damaged.edf # cut inside its 256-byte header: it cannot be opened
head -c 100 "$testdata/edf/test_utf8.edf" >"$IN/$damaged"
printf '%s\n' "${good[@]}" >"$D/good.txt"
echo "slurm-check: made $((${#good[@]} + 1)) inputs (${#good[@]} good, 1 damaged) in $(since "$t_inputs") s"

# The real job: 4 shards of one batch conversion. One task meets the damaged input and exits 5, so sbatch --wait
# exits non-zero; which tasks ran and how they ended is read from their --json output and scontrol.
t_job=$EPOCHREALTIME
q() { printf '%q' "$1"; }
wrap="$(q "$cli") batch --to mefd --out $(q "$OUT") $(q "$IN") --json"
wrap+=" --shard \$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT > $(q "$D/out")/json_\$SLURM_ARRAY_TASK_ID.json"
run_array task 10 "$wrap"
job=$array_job
job_seconds=$(since "$t_job")
scontrol -o show job "$job" >"$D/out/scontrol.txt" 2>&1 || true
echo "slurm-check: batch array job $job ended in $job_seconds s (sbatch --wait exit $array_rc)"

if ! python3 - "$cli" "$IN" "$OUT" "$D" "$damaged" "$job" <<'PY'; then
import json, os, re, subprocess, sys

cli, IN, OUT, D, damaged, job = sys.argv[1:]
good = open(os.path.join(D, "good.txt")).read().split()
tasks = 4
errors = []

def expected_output(rel):
    for ext in (".mefd.tar", ".mefd", ".edf", ".bdf"):
        if rel.endswith(ext):
            return rel[: -len(ext)] + ".mefd"
    raise ValueError(rel)

def relative(p, base):
    """p relative to base, whether the CLI printed it absolute, relative to base or relative to its working folder
    $D; None when it is not inside base."""
    p = str(p or "").rstrip("/")
    if not p:
        return None
    cands = [p] if os.path.isabs(p) else [os.path.join(base, p), os.path.join(D, p)]
    c = next((c for c in cands if os.path.exists(c)), cands[0])
    r = os.path.relpath(os.path.realpath(c), os.path.realpath(base))
    return None if r.startswith("..") else r

seen = {}  # input relative to IN -> [(task, status, output, error)]
per_task = []
for t in range(tasks):
    path = os.path.join(D, "out", f"json_{t}.json")
    try:
        doc = json.load(open(path))
        items = doc["items"]
        counts = {k: int(doc[k]) for k in ("succeeded", "failed", "skipped")}
    except Exception as e:
        errors.append(f"task {t}: no valid --json output in {path} ({e})")
        per_task.append(None)
        continue
    statuses = [i.get("status") for i in items]
    actual = {"succeeded": statuses.count("ok"), "failed": statuses.count("failed"),
              "skipped": statuses.count("skipped")}
    if actual != counts:
        errors.append(f"task {t}: totals {counts} do not match its items {actual}")
    per_task.append(doc)
    for item in items:
        missing = [k for k in ("input", "output", "status", "seconds") if k not in item]
        if missing or not isinstance(item.get("warnings", []), list):
            errors.append(f"task {t}: item {item} lacks {missing} or has warnings that are not a list")
        rel = relative(item.get("input"), IN)
        if rel is None:
            errors.append(f"task {t}: item input {item.get('input')!r} is not one of the inputs")
            continue
        seen.setdefault(rel, []).append((t, item.get("status"), item.get("output"), item.get("error")))

for rel in good + [damaged]:
    runs = seen.get(rel, [])
    want = "ok" if rel != damaged else "failed"
    if len(runs) != 1:
        errors.append(f"{rel}: in {len(runs)} tasks' items {[r[0] for r in runs]}, not exactly one")
        continue
    t, status, output, error = runs[0]
    if status != want:
        errors.append(f"{rel} (task {t}): status {status!r}, not {want!r} (error: {error})")
        continue
    if rel == damaged:
        if not error:
            errors.append(f"{rel} (task {t}): failed without an error message")
        continue
    out_rel = relative(output, OUT)
    if out_rel != expected_output(rel):
        errors.append(f"{rel} (task {t}): output {output!r}, not {os.path.join(OUT, expected_output(rel))}")
        continue
    if not os.path.exists(os.path.join(OUT, out_rel)):
        errors.append(f"{rel} (task {t}): its output {output!r} does not exist")
        continue
    info = subprocess.run([cli, "info", os.path.join(OUT, out_rel)], capture_output=True, text=True)
    if info.returncode != 0:
        errors.append(f"{rel}: longview-cli info {out_rel} exited {info.returncode}: {info.stderr.strip()}")
for rel in sorted(set(seen) - set(good) - {damaged}):
    errors.append(f"{rel}: in the items but not an input")

# Every recording under OUT, a .mefd folder not descended into: exactly one per good input, none for the damaged.
outputs = set()
for dirpath, dirnames, filenames in os.walk(OUT):
    for d in list(dirnames):
        if d.endswith(".mefd"):
            outputs.add(os.path.relpath(os.path.join(dirpath, d), OUT))
            dirnames.remove(d)
    outputs.update(os.path.relpath(os.path.join(dirpath, f), OUT) for f in filenames)
want_outputs = {expected_output(rel) for rel in good}
if outputs != want_outputs:
    errors.append(f"{len(outputs)} outputs for {len(good)} good inputs; missing {sorted(want_outputs - outputs)}, "
                  f"unexpected {sorted(outputs - want_outputs)}")

# Exactly one task exited 5 (the one that met the damaged input), the others 0: from the json (failed > 0 means
# exit 5 by the contract) and, while slurmctld still holds the finished job, from scontrol's ExitCode.
failing = [t for t, doc in enumerate(per_task) if doc is not None and int(doc["failed"]) > 0]
if len(failing) != 1:
    errors.append(f"tasks {failing} report failed inputs, not exactly one task")
codes = {}
for line in open(os.path.join(D, "out", "scontrol.txt")):
    m = re.search(r"\bArrayTaskId=(\d+)\b.*\bExitCode=(\d+):(\d+)", line)
    if m:
        codes[int(m.group(1))] = int(m.group(2))
if codes:
    if sorted(codes) != list(range(tasks)):
        errors.append(f"scontrol shows tasks {sorted(codes)}, not 0-{tasks - 1}")
    if sorted(codes.values()) != [0] * (tasks - 1) + [5]:
        errors.append(f"task exit codes {codes}: not three 0 and one 5")
    elif len(failing) == 1 and codes.get(failing[0]) != 5:
        errors.append(f"task {failing[0]} reported the failure but exited {codes.get(failing[0])}")

sizes = [len(doc["items"]) if doc else 0 for doc in per_task]
secs = sum(float(i.get("seconds") or 0) for doc in per_task if doc for i in doc["items"])
if errors:
    for e in errors:
        print(f"slurm-check: {e}", file=sys.stderr)
    sys.exit(1)
exits = " ".join(str(codes[t]) for t in range(tasks)) if codes else "not shown by scontrol"
print(f"slurm-check: tasks of {sizes} items, each input in exactly one, {len(good)} outputs that open; task "
      f"{failing[0]} failed the damaged input; task exit codes {exits}; {secs:.1f} s of conversion in all")
PY
  for f in "$D"/out/task_*.out; do
    [[ -s $f ]] && { echo "slurm-check: $(basename "$f"):"; tail -n 5 "$f"; } >&2
  done
  fail "the batch array's results are wrong (above)"
fi
echo "slurm-check: passed: $((${#good[@]} + 1)) inputs, 4 tasks, array job $job_seconds s, total $(since "$t_start") s"
