#!/bin/sh
# fuzz/run.sh - build every libFuzzer harness into build-fuzz/ and run each
# for a set time on its checked-in seed corpus, then print one table row per
# harness: executions, coverage, corpus size and findings.
#
#   sh fuzz/run.sh [SECONDS_PER_HARNESS] [--merge] [HARNESS...]
#
#   SECONDS_PER_HARNESS  default 60; `sh fuzz/run.sh 5` is the brief run in
#                        `make test`.
#   --merge              afterwards, merge the inputs that add coverage into
#                        the checked-in corpus fuzz/corpus/HARNESS/ (otherwise
#                        new inputs stay in the scratch corpus
#                        build-fuzz/corpus/HARNESS/ and the repo stays clean).
#   HARNESS...           a subset of: map scen script cdt world tmx tmj surf
#                        (default: all).
#
# Exit status: 0 when every harness built and ran without a finding; 1 when a
# harness crashed, leaked, timed out or ran out of memory (the input is in
# build-fuzz/artifacts/HARNESS/; copy it to fuzz/corpus/HARNESS/regress-NAME
# so every later run replays it) or did not build.
#
# Environment: FUZZ_CC (default clang), FUZZ_BUILD (default build-fuzz).
# Runs from the repository root (it cd's there itself).
set -u
cd "$(dirname "$0")/.." || exit 1

SECS=60
MERGE=0
HARNESSES=""
for a in "$@"; do
    case "$a" in
    --merge) MERGE=1 ;;
    --help|-h) sed -n '2,22p' "$0"; exit 0 ;;
    [0-9]*) SECS=$a ;;
    *) HARNESSES="$HARNESSES $a" ;;
    esac
done
[ -n "$HARNESSES" ] || HARNESSES="map scen script cdt world tmx tmj surf"

CC=${FUZZ_CC:-clang}
B=${FUZZ_BUILD:-build-fuzz}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
CFLAGS="-std=c11 -g -O1 -Wall -Wextra -fno-omit-frame-pointer $SAN -Isrc/nav -Isrc/sandbox -Isrc/game"
# The Tiled loaders (tmx, tmj) need libxml2, cJSON and zlib.
TILED_CFLAGS=$(pkg-config --cflags libxml-2.0 libcjson zlib 2>/dev/null)
TILED_LIBS=$(pkg-config --libs libxml-2.0 libcjson zlib 2>/dev/null)

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "fuzz: '$CC' not found (libFuzzer needs clang; set FUZZ_CC)" >&2
    exit 1
fi
mkdir -p "$B"

# Sources of each harness (the harness itself first).  The CDT needs only
# its own file; the script parser needs the world's parameter table, which
# links in the sandbox (src/sandbox) and the whole library.
sources() {
    case "$1" in
    map) echo "fuzz/fuzz_map.c src/nav/tn_map.c src/nav/tn_common.c" ;;
    scen) echo "fuzz/fuzz_scen.c src/nav/tn_scen.c src/nav/tn_common.c" ;;
    script) echo "fuzz/fuzz_script.c src/game/script.c src/game/fileio.c src/game/tiled.c $(ls src/sandbox/*.c src/nav/*.c | tr '\n' ' ')" ;;
    cdt) echo "fuzz/fuzz_cdt.c src/nav/tn_cdt.c src/nav/tn_cdt_pred.c src/nav/tn_cdt_sweep.c src/nav/tn_common.c" ;;
    world) echo "fuzz/fuzz_world.c src/game/script.c src/game/fileio.c src/game/tiled.c $(ls src/sandbox/*.c src/nav/*.c | tr '\n' ' ')" ;;
        tmx | tmj) echo "fuzz/fuzz_$1.c src/game/tiled.c src/game/fileio.c src/sandbox/tn_text.c src/nav/tn_map.c src/nav/tn_common.c" ;;
    surf) echo "fuzz/fuzz_surf.c $(ls src/nav/*.c | tr '\n' ' ')" ;;
    esac
}
max_len() {
    case "$1" in
    map) echo 8192 ;;
    tmx | tmj) echo 16384 ;;
    cdt) echo 2048 ;;
        world) echo 1024 ;;
    surf) echo 8192 ;;
    *) echo 4096 ;;
    esac
}

# Compile one source into $B/obj/ (coverage-instrumented, sanitized) unless
# the object is newer than the source and every header; echo the object.
compile() {
    o="$B/obj/$(echo "$1" | tr '/' '_' | sed 's/\.c$/.o/')"
    if [ ! -f "$o" ] || [ "$1" -nt "$o" ] ||
        [ -n "$(find src fuzz -name '*.h' -newer "$o" | head -n 1)" ]; then
        $CC $CFLAGS $TILED_CFLAGS -fsanitize=fuzzer-no-link -c "$1" -o "$o" >>"$B/build_$h.log" 2>&1 ||
            return 1
    fi
    echo "$o"
}

# Build $B/fuzz_NAME from its sources.
build() {
    h=$1
    mkdir -p "$B/obj"
    : >"$B/build_$h.log"
    objs=""
    for src in $(sources "$h"); do
        o=$(compile "$src") || { objs=""; break; }
        objs="$objs $o"
    done
    # shellcheck disable=SC2086
    if [ -z "$objs" ] ||
        ! $CC $SAN -fsanitize=fuzzer -o "$B/fuzz_$h" $objs $TILED_LIBS -lm >>"$B/build_$h.log" 2>&1; then
        echo "fuzz: building $h failed:" >&2
        sed -n '1,30p' "$B/build_$h.log" >&2
        rm -f "$B/fuzz_$h"
        return 1
    fi
    return 0
}

status=0
rows=""
for h in $HARNESSES; do
    if [ "$h" = cdt ] && [ ! -f src/nav/tn_cdt.c ]; then
        rows="$rows$(printf '%-8s %8s %10s %8s %6s %7s  %s' "$h" - - - - - "skipped: src/nav/tn_cdt.c does not exist yet")
"
        continue
    fi
    if [ -z "$(sources "$h")" ]; then
        echo "fuzz: unknown harness '$h' (map scen script cdt world tmx tmj)" >&2
        exit 2
    fi
    if ! build "$h"; then
        rows="$rows$(printf '%-8s %8s %10s %8s %6s %7s  %s' "$h" - - - - 1 "BUILD FAILED ($B/build_$h.log)")
"
        status=1
        continue
    fi
    mkdir -p "$B/corpus/$h" "$B/artifacts/$h"
    rm -f "$B/artifacts/$h"/*
    dict=""
    d=$h
    [ "$h" = world ] && d=script
    [ -f "fuzz/$d.dict" ] && dict="-dict=fuzz/$d.dict"
    log="$B/run_$h.log"
    # New inputs go to the first (scratch) directory; the checked-in corpus
    # is only read.  Every regress-* input in it is replayed at start-up.
    # shellcheck disable=SC2086
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$B/fuzz_$h" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$(max_len "$h")" $dict -print_final_stats=1 \
        -artifact_prefix="$B/artifacts/$h/" \
        "$B/corpus/$h" "fuzz/corpus/$h" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -a -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
    corp=$(ls "$B/corpus/$h" "fuzz/corpus/$h" | grep -vc ':$')
    finds=$(ls "$B/artifacts/$h" | wc -l | tr -d ' ')
    note=""
    if [ "$rc" -ne 0 ] || [ "$finds" -ne 0 ]; then
        [ "$finds" -eq 0 ] && finds=1
        status=1
        what=$(grep -a -m1 -o 'ERROR: [A-Za-z]*: [^ ]*[^(]*\|runtime error: .*\|deadly signal\|timeout after\|out-of-memory' "$log" | head -n 1)
        note="FOUND: ${what:-exit $rc}; log $log; input $(ls "$B/artifacts/$h" | head -n 1 | sed "s|^|$B/artifacts/$h/|")"
    fi
    rows="$rows$(printf '%-8s %8s %10s %8s %6s %7s  %s' "$h" "$SECS" "${execs:-?}" "${cov:-?}" "$corp" "$finds" "$note")
"
    if [ "$MERGE" -eq 1 ] && [ "$rc" -eq 0 ]; then
        "$B/fuzz_$h" -merge=1 -max_len="$(max_len "$h")" "fuzz/corpus/$h" "$B/corpus/$h" \
            >"$B/merge_$h.log" 2>&1 || { echo "fuzz: merge of $h failed (see $B/merge_$h.log)" >&2; status=1; }
    fi
done

printf '%-8s %8s %10s %8s %6s %7s\n' harness seconds execs cov corpus findings
printf '%s' "$rows"
if [ "$status" -ne 0 ]; then
    echo "fuzz: FAILED. Reproduce with: $B/fuzz_HARNESS INPUT; keep the input as fuzz/corpus/HARNESS/regress-NAME"
else
    echo "fuzz: no findings"
fi
exit "$status"
