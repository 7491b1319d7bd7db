#!/bin/sh
# tests/pkg/exports.sh LIB.so HEADER... - every symbol the shared library
# exports is declared in the public headers given (the library-internal
# tn_cdti_* / tn_navmeshi_* / tn_surfi_* functions that src/nav/internal/
# declares are hidden: GCC/Clang visibility), and none is an internal
# tn_<module>i_ name.  Used by tests/e2e/package.sh on the installed
# library; by hand: sh tests/pkg/exports.sh build/libtilenav.so src/nav/*.h
set -u
fail() { echo "exports.sh: $*"; exit 1; }
[ $# -ge 2 ] || fail "usage: exports.sh LIB.so HEADER..."
so=$1
shift
[ -f "$so" ] || fail "no $so"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# defined dynamic symbols (code and data), without the toolchain's _init etc.
nm -D --defined-only "$so" | awk 'NF == 3 && $2 ~ /[TDBRVW]/ {print $3}' | grep -v '^_' |
    sort -u >"$W/exported"
[ -s "$W/exported" ] || fail "$so exports nothing (nm -D failed?)"
grep -ohE '\btn_[A-Za-z0-9_]+' "$@" | sort -u >"$W/declared"
internal=$(grep -E '^tn_[a-z0-9]+i_' "$W/exported" | tr '\n' ' ')
[ -z "$internal" ] || fail "$(basename "$so") exports library-internal symbols: $internal"
undeclared=$(comm -23 "$W/exported" "$W/declared" | tr '\n' ' ')
[ -z "$undeclared" ] ||
    fail "$(basename "$so") exports symbols no public header declares: $undeclared"
echo "exports.sh: $(basename "$so") exports $(wc -l <"$W/exported") symbols, all declared in the public headers"
