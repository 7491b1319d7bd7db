#!/bin/sh
# bad_inputs.sh - the catalogue of malformed inputs in tests/bad/, run
# against the real binary.  Every case must print exactly the expected
# message on stderr (one line), nothing on stdout, exit with the expected
# non-zero code, and stay small in memory (oversized inputs are refused
# before anything is allocated for them).
#
#   sh tests/e2e/bad_inputs.sh BUILD_DIR      (from the repository root)
#
# A case is tests/bad/NAME.expect, three lines:
#   1. the command line, run by sh; {BUILD} is the build directory and
#      {TMP} a scratch directory holding the generated oversized inputs
#      (1g.script: a sparse 1 GiB script; 20m.map: a sparse 20 MiB map);
#   2. the exact stderr expected ({BUILD} and {TMP} substituted too, {ROOT}
#      the repository root, where it runs; {PID}
#      stands for the one process id a message may contain);
#   3. the exit code expected (never 0).
# plus, usually, the input it names (tests/bad/NAME.map or NAME.script).
#
# Memory: the peak resident size of every case is measured with
# /usr/bin/time and must stay under BAD_MAX_RSS_KB (default 64 MiB, or
# 256 MiB for a sanitizer build whose runtime alone takes tens of MiB);
# without /usr/bin/time a plain build runs under `ulimit -v` instead.
#
# BAD_SHOW=1 prints what each case actually produced (for writing cases).
# Exit 0 when every case matches.
BUILD=${1:-build}
BIN="$BUILD/tilenav"
if [ ! -x "$BIN" ]; then
    echo "bad_inputs: $BIN is missing (build it first)" >&2
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-bad.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
truncate -s 1G "$T/1g.script" && truncate -s 20M "$T/20m.map" || {
    echo "bad_inputs: cannot create the sparse inputs in $T" >&2
    exit 1
}

asan=0
if grep -q __asan_init "$BIN" 2>/dev/null; then asan=1; fi
if [ -n "${BAD_MAX_RSS_KB:-}" ]; then limit=$BAD_MAX_RSS_KB
elif [ "$asan" -eq 1 ]; then limit=262144
else limit=65536
fi
timer=""
if [ -x /usr/bin/time ]; then timer=/usr/bin/time; fi

# replace_all TEXT PATTERN REPLACEMENT -> $REPLY (no subprocess)
replace_all() {
    REPLY=""
    rest=$1
    while :; do
        case "$rest" in
        *"$2"*) REPLY="$REPLY${rest%%"$2"*}$3"; rest=${rest#*"$2"} ;;
        *) REPLY="$REPLY$rest"; return ;;
        esac
    done
}
subst() {
    replace_all "$1" "{BUILD}" "$BUILD"
    replace_all "$REPLY" "{TMP}" "$T"
    replace_all "$REPLY" "{ROOT}" "$ROOT"
}
ROOT=$(pwd)

# matches GOT WANT: equal, where a {PID} in WANT matches one run of digits.
matches() {
    case "$2" in
    *"{PID}"*)
        pre=${2%%"{PID}"*}
        post=${2#*"{PID}"}
        mid=${1#"$pre"}
        [ "$mid" != "$1" ] || [ -z "$pre" ] || return 1
        mid2=${mid%"$post"}
        [ "$mid2" != "$mid" ] || [ -z "$post" ] || return 1
        case "$mid2" in '' | *[!0-9]*) return 1 ;; esac
        return 0
        ;;
    *) [ "$1" = "$2" ] ;;
    esac
}

pass=0
fail=0
maxrss=0
for e in tests/bad/*.expect; do
    name=${e##*/}
    name=${name%.expect}
    { IFS= read -r cmd; IFS= read -r want_err; IFS= read -r want_rc; } <"$e"
    subst "$cmd"; cmd=$REPLY
    subst "$want_err"; want_err=$REPLY
    rss=0
    if [ -n "$timer" ]; then
        $timer -f '%M' -o "$T/rss" sh -c "$cmd" >"$T/out" 2>"$T/err"
        rc=$?
        while IFS= read -r l; do rss=$l; done <"$T/rss" # the last line
    else
        if [ "$asan" -eq 1 ]; then
            sh -c "$cmd" >"$T/out" 2>"$T/err"
        else
            (ulimit -v $((limit * 2)); sh -c "$cmd") >"$T/out" 2>"$T/err"
        fi
        rc=$?
    fi
    [ "$rss" -gt "$maxrss" ] 2>/dev/null && maxrss=$rss
    got_err=$(cat "$T/err")
    lines=1
    case "$got_err" in *"
"*) lines=many ;; esac
    if [ "${BAD_SHOW:-0}" = 1 ]; then
        printf '%s\n  rc=%s rss=%sKB stdout=%s bytes\n  stderr: %s\n' "$name" "$rc" "$rss" \
            "$(wc -c <"$T/out" | tr -d ' ')" "$got_err"
    fi
    why=""
    if [ "$want_rc" = 0 ] || [ -z "$want_rc" ]; then why="the case expects exit 0 (must be non-zero)"
    elif [ "$rc" != "$want_rc" ]; then why="exit $rc, expected $want_rc"
    elif ! matches "$got_err" "$want_err" || [ "$lines" != 1 ]; then why="stderr differs"
    elif [ -s "$T/out" ]; then why="printed on stdout"
    elif [ "$rss" -gt "$limit" ] 2>/dev/null; then why="peak memory ${rss} KB > ${limit} KB"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "bad_inputs: FAIL $name: $why"
        echo "  command:  $cmd"
        echo "  expected: $want_err"
        echo "  got:      $(head -c 2000 "$T/err")"
    fi
done
echo "bad_inputs: $pass passed, $fail failed (peak memory of any case: ${maxrss} KB, limit ${limit} KB)"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
