#!/bin/sh
# End-to-end: the library's results do not depend on floating-point
# contraction (README, "Floating point").  tests/fp_det.c hashes flow
# distances, a bot's run and enemies; it runs against src/nav built
#  - with gcc, the Makefile's flags (reference);
#  - with gcc -march=x86-64-v3 -ffp-contract=fast, then the Makefile's
#    FP_FLAGS (as the Makefile orders them: a CFLAGS cannot undo them);
#  - with clang -march=x86-64-v3 and no flag at all (a game that copies
#    src/nav: the files' #pragma STDC FP_CONTRACT OFF must hold);
# and every hash must be the reference's.  Skipped without an FMA CPU.
# Plain build dir only (the sanitizer pass would only repeat it).
set -u
B=${1:-build}
case "$B" in build) ;; *) echo "fp_contract.sh: checked in the plain build only (not $B)"; exit 0 ;; esac
fail() { echo "fp_contract.sh: $*"; exit 1; }
grep -qw fma /proc/cpuinfo 2>/dev/null || { echo "SKIP fp_contract.sh: no FMA CPU (x86-64-v3) to run the fused builds"; exit 77; }
command -v gcc >/dev/null 2>&1 || { echo "SKIP fp_contract.sh: no gcc"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FP=$(sed -n 's/^FP_FLAGS *= *//p' Makefile)
# build NAME CC FLAGS...: $T/NAME from tests/fp_det.c and src/nav/*.c
build() {
    n=$1 cc=$2
    shift 2
    mkdir -p "$T/$n"
    for c in src/nav/*.c; do echo "$c"; done | xargs -P 2 -I{} sh -c \
        "$cc -std=c11 -O2 -w $* -Isrc/nav -c {} -o $T/$n/\$(basename {} .c).o" || fail "$n: src/nav does not build"
    $cc -std=c11 -O2 -w "$@" -Isrc/nav tests/fp_det.c "$T/$n"/*.o -lm -o "$T/$n/det" || fail "$n: fp_det does not build"
    "$T/$n/det" >"$T/$n.out" || fail "$n: fp_det failed"
}
# shellcheck disable=SC2086
build ref gcc $FP
ref=$(cat "$T/ref.out")
# shellcheck disable=SC2086
build gcc-fma gcc -march=x86-64-v3 -ffp-contract=fast $FP
[ "$(cat "$T/gcc-fma.out")" = "$ref" ] ||
    fail "gcc -march=x86-64-v3 -ffp-contract=fast $FP: hash $(cat "$T/gcc-fma.out"), not $ref"
if command -v clang >/dev/null 2>&1; then
    build clang-fma clang -march=x86-64-v3
    [ "$(cat "$T/clang-fma.out")" = "$ref" ] ||
        fail "clang -march=x86-64-v3 (the pragma alone): hash $(cat "$T/clang-fma.out"), not $ref"
fi
echo "fp_contract.sh: the same results with and without FMA ($ref)"
