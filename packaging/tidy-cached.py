#!/usr/bin/python3
"""Runs clang-tidy on engine sources, remembering the ones it found clean.

usage: tidy-cached.py BUILD_DIR JOBS FILE...
A file is skipped when it was clean before with the same inputs: the key is a SHA-256 of clang-tidy's version, the
repository's .clang-tidy, the file's compile command and the contents of every file its translation unit reads
(as ninja recorded them from the compiler: the source and each header, system headers included). The build must be
up to date (packaging/test.sh builds it first). Only clean results are kept, in
${LONGVIEW_TIDY_CACHE:-${XDG_CACHE_HOME:-~/.cache}/longview-tidy}; clang-tidy's output for the others is printed as
it came. Prints "checked N, cached M" on stderr.
"""
import concurrent.futures, hashlib, json, os, shlex, subprocess, sys

build, jobs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
cache = os.environ.get("LONGVIEW_TIDY_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "longview-tidy")
os.makedirs(cache, exist_ok=True)
entries = {os.path.realpath(e["file"]): e for e in json.load(open(os.path.join(build, "compile_commands.json")))}
version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
config = open(".clang-tidy", "rb").read()


def ninjaDeps():
    """Each object's inputs as ninja recorded them from the compiler's dependency output (`ninja -t deps`)."""
    out = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True).stdout
    deps, current = {}, None
    for line in out.splitlines():
        if line and not line[0].isspace():
            current = line.split(":", 1)[0]
            deps[current] = []
        elif line.strip() and current is not None:
            deps[current].append(os.path.normpath(os.path.join(build, line.strip())))
    return deps


recorded = ninjaDeps()


def dependencies(entry):
    """The files the translation unit of this compile command read, or None when ninja has not recorded them."""
    args = shlex.split(entry["command"])
    if "-o" not in args:
        return None
    return recorded.get(args[args.index("-o") + 1])


def key(path):
    entry = entries.get(os.path.realpath(path))
    deps = dependencies(entry) if entry else None
    if not deps:
        return None
    h = hashlib.sha256()
    h.update(version.encode())
    h.update(config)
    h.update(entry["command"].encode())
    for d in sorted(set(deps)):
        try:
            h.update(d.encode() + b"\0" + open(d, "rb").read())
        except OSError:
            return None
    return h.hexdigest()


def run(path):
    k = key(path)
    if k and os.path.exists(os.path.join(cache, k)):
        return path, "", True
    out = subprocess.run(["clang-tidy", "-p", build, "--quiet", path], capture_output=True, text=True).stdout
    clean = " warning: " not in out and " error: " not in out
    if k and clean:
        open(os.path.join(cache, k), "w").close()
    return path, out, False


cached = 0
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for path, out, hit in pool.map(run, files):
        cached += hit
        sys.stdout.write(out)
print(f"tidy-cached: checked {len(files) - cached}, cached {cached}", file=sys.stderr)
