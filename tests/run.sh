#!/bin/sh
# Runs every cmocka suite in BUILD/tests and every end-to-end script in
# tests/e2e/, then names every skipped test and prints one closing line
# "tests: N passed, M failed, K skipped".  A cmocka test skips with skip()
# (and prints why on stderr); an end-to-end script skips with exit 77 after
# printing "SKIP name: why".  BUILD/test-counts gets "N M K" and
# BUILD/test-skips one line per skip (for the Makefile's total line).
# Usage: tests/run.sh BUILD_DIR
BUILD=${1:-build}
passed=0; failed=0; failed_names=""; skipped=0
: >"$BUILD/test-skips"
: >"$BUILD/test-times"
for t in "$BUILD"/tests/test_*; do
    case "$t" in *.o|*.d) continue ;; esac
    [ -x "$t" ] || continue
    t0=$(date +%s)
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    echo "$(($(date +%s) - t0)) s $(basename "$t")" >>"$BUILD/test-times"
    n=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    k=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:/\1/p' | tail -n 1)
    passed=$((passed + ${n:-0})); failed=$((failed + ${f:-0})); skipped=$((skipped + ${k:-0}))
    if [ -n "$k" ]; then
        printf '%s\n' "$out" | sed -n '/^\[  SKIPPED \] [0-9]* test(s), listed below:/,$p' |
            sed -n 's/^\[  SKIPPED \] \([A-Za-z0-9_]*\)$/\1/p' |
            while read -r name; do
                echo "skipped: $BUILD $(basename "$t") $name$(printf '%s\n' "$out" |
                    grep -m 1 "^SKIP $name:" | sed 's/^SKIP [^:]*:/:/')"
            done >>"$BUILD/test-skips"
    fi
    if [ "$rc" -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); fi
    [ "$rc" -ne 0 ] && failed_names="$failed_names $(basename "$t")"
done
for s in tests/e2e/*.sh; do
    [ -f "$s" ] || continue
    t0=$(date +%s)
    sh "$s" "$BUILD" >"$BUILD/e2e.out" 2>&1; rc=$?
    echo "$(($(date +%s) - t0)) s $(basename "$s")" >>"$BUILD/test-times"
    cat "$BUILD/e2e.out"
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1)); echo "[e2e PASS] $(basename "$s")"
    elif [ "$rc" -eq 77 ]; then
        skipped=$((skipped + 1)); echo "[e2e SKIP] $(basename "$s")"
        echo "skipped: $BUILD $(basename "$s")$(grep -m 1 '^SKIP ' "$BUILD/e2e.out" | sed 's/^SKIP [^:]*:/:/')" \
            >>"$BUILD/test-skips"
    else
        failed=$((failed + 1)); failed_names="$failed_names $(basename "$s")"; echo "[e2e FAIL] $(basename "$s")"
    fi
done
[ -n "$failed_names" ] && echo "failing:$failed_names"
rm -f "$BUILD/e2e.out"
echo "(build dir: $BUILD; the slowest suites, wall seconds:" \
    "$(sort -rn "$BUILD/test-times" | head -n 6 | sed 's/ s /s /' | tr '\n' ' '))"
cat "$BUILD/test-skips"
echo "$passed $failed $skipped" > "$BUILD/test-counts"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
