#!/usr/bin/env bash
# Style gate: clang-format (the repo's .clang-format) over every tracked C++ source, then clang-tidy (the repo's
# .clang-tidy) over engine sources (the Win32 half of the platform layer is packaging/windows-check.sh's), with
# the compile commands of a configured build (default build/dev).
#   LONGVIEW_TIDY_BASE=REV   tidy the engine .cpp files changed since REV (default HEAD~1)
#   LONGVIEW_TIDY_ALL=1      tidy every engine .cpp file instead
#   LONGVIEW_TIDY_BUILD=DIR  build folder holding compile_commands.json (default build/dev)
#   LONGVIEW_STYLE_SKIP=format|tidy   skip one of the two checks
#   LONGVIEW_TIDY_CACHE=off  tidy every file even when it was found clean before with the same inputs
# Exit status 1 when a file is not formatted or clang-tidy reports a warning.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
jobs=${LONGVIEW_TIDY_JOBS:-$(nproc)}

if [[ ${LONGVIEW_STYLE_SKIP:-} != format ]]; then
    mapfile -t sources < <(git ls-files -- 'engine/*.cpp' 'engine/*.h' 'widgets/*.cpp' 'widgets/*.h' 'app/*.cpp' \
        'app/*.h' 'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'bench/*.h')
    # Files in batches, $jobs processes at a time; clang-format names each unformatted one in its diagnostics.
    mapfile -t unformatted < <(printf '%s\n' "${sources[@]}" | xargs -P "$jobs" -n 64 clang-format --dry-run -Werror \
        2>&1 >/dev/null | sed -nE 's/^([^:]+):[0-9]+:[0-9]+: error: .*/\1/p' | sort -u)
    echo "check-style: clang-format: ${#unformatted[@]} of ${#sources[@]} files not formatted"
    if ((${#unformatted[@]})); then
        printf '  %s\n' "${unformatted[@]}"
        echo "  (fix with: clang-format -i FILE...)"
        status=1
    fi
fi

if [[ ${LONGVIEW_STYLE_SKIP:-} != tidy ]]; then
    build=${LONGVIEW_TIDY_BUILD:-build/dev}
    if [[ ! -f $build/compile_commands.json ]]; then
        echo "check-style: no $build/compile_commands.json (configure that build first)" >&2
        exit 2
    fi
    if [[ ${LONGVIEW_TIDY_ALL:-0} == 1 ]]; then
        mapfile -t files < <(git ls-files -- 'engine/*.cpp' ':!engine/*Win32.cpp')
    else
        base=${LONGVIEW_TIDY_BASE:-HEAD~1}
        mapfile -t files < <(git diff --name-only --diff-filter=d "$base" -- 'engine/*.cpp' ':!engine/*Win32.cpp')
    fi
    if ((${#files[@]} == 0)); then
        echo "check-style: clang-tidy: no engine sources to check"
    else
        start=$(date +%s)
        log=$(mktemp)
        # One process per file, $jobs at a time; the header filter of .clang-tidy adds engine headers. Files found
        # clean before with the same inputs are skipped (packaging/tidy-cached.py; LONGVIEW_TIDY_CACHE=off: none).
        if [[ ${LONGVIEW_TIDY_CACHE:-} == off ]]; then
            printf '%s\n' "${files[@]}" | xargs -P "$jobs" -n 1 clang-tidy -p "$build" --quiet >"$log" 2>/dev/null
        else
            packaging/tidy-cached.py "$build" "$jobs" "${files[@]}" >"$log"
        fi
        warnings=$(grep -cE '(warning|error): ' "$log")
        echo "check-style: clang-tidy: ${#files[@]} files in $(($(date +%s) - start)) s, $warnings warnings"
        if ((warnings)); then
            grep -E '(warning|error): ' "$log" | sort -u
            grep -oE '\[[a-z]+-[a-zA-Z0-9.-]+(,[a-zA-Z0-9.-]+)*\]$' "$log" | sort | uniq -c | sort -rn
            status=1
        fi
        rm -f "$log"
    fi
fi
exit $status
