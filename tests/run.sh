#!/bin/sh
# Runs every cmocka suite in BUILD/tests and every end-to-end script in
# tests/e2e/, then prints one closing line "tests: N passed, M failed".
# Usage: tests/run.sh BUILD_DIR
BUILD=${1:-build}
passed=0; failed=0; failed_names=""
for t in "$BUILD"/tests/test_*; do
    case "$t" in *.o|*.d) continue ;; esac
    [ -x "$t" ] || continue
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    n=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    passed=$((passed + ${n:-0})); failed=$((failed + ${f:-0}))
    if [ "$rc" -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); fi
    [ "$rc" -ne 0 ] && failed_names="$failed_names $(basename "$t")"
done
for s in tests/e2e/*.sh; do
    [ -f "$s" ] || continue
    if sh "$s" "$BUILD"; then
        passed=$((passed + 1)); echo "[e2e PASS] $(basename "$s")"
    else
        failed=$((failed + 1)); failed_names="$failed_names $(basename "$s")"; echo "[e2e FAIL] $(basename "$s")"
    fi
done
[ -n "$failed_names" ] && echo "failing:$failed_names"
echo "(build dir: $BUILD)"
echo "$passed $failed" > "$BUILD/test-counts"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
