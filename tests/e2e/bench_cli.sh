#!/bin/sh
# bench_cli.sh - tilenav-bench's command line: `genmap -o` never loses a
# map (an existing file or link is replaced only with --force, the write is
# atomic, a name that is not .map is refused) and says why it failed.
# Usage: sh tests/e2e/bench_cli.sh BUILD_DIR   (from the repository root)
set -u
BUILD=${1:-build}
B="$BUILD/tilenav-bench"
G="$BUILD/tilenav"
if [ ! -x "$B" ] || [ ! -x "$G" ]; then
    echo "bench_cli: $B or $G is missing (build them first)" >&2
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-bench-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fail=0
bad() {
    echo "bench_cli: $*"
    fail=1
}
# expect RC PATTERN CMD...: CMD exits with RC and its standard error
# matches the grep -E PATTERN.
expect() {
    want_rc=$1 pat=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want_rc" ] || bad "'$*' exited $rc, not $want_rc: $(cat "$T/err")"
    grep -Eq -- "$pat" "$T/err" || bad "'$*' said '$(cat "$T/err")', not /$pat/"
}
gen="$B genmap --kind blocks --size 12 --blocks 20 --seed 3"

# a new file: written, and the game loads it
expect 0 'blocks 12x12' $gen -o "$T/new.map"
"$G" --headless --frames 1 --map "$T/new.map" >/dev/null 2>"$T/err" ||
    bad "the game cannot load genmap's map: $(cat "$T/err")"

# an existing file and a link to it are not replaced without --force
cp maps/demo.map "$T/keep.map"
ln -s keep.map "$T/link.map"
expect 2 "keep.map: already exists: not replaced \(add --force" $gen -o "$T/keep.map"
expect 2 "link.map: already exists \(a symbolic link to keep.map\): not replaced" \
    $gen -o "$T/link.map"
cmp -s maps/demo.map "$T/keep.map" || bad "keep.map was changed without --force"
# --force through the link: the link stays, the file it points to is the map
expect 0 'blocks 12x12' $gen --force -o "$T/link.map"
[ -L "$T/link.map" ] || bad "--force replaced the link itself"
cmp -s "$T/new.map" "$T/keep.map" || bad "--force did not write the map through the link"

# names genmap refuses (nothing is created)
expect 2 '^genmap: -o needs a file name \(it was empty\)$' $gen -o ''
expect 2 'x.tmx: genmap writes the tilenav .map format, not Tiled \(.tmx\)' $gen -o "$T/x.tmx"
expect 2 'x.tmj: genmap writes the tilenav .map format, not Tiled \(.tmj\)' $gen -o "$T/x.tmj"
expect 2 'x.txt: the file name must end in .map' $gen -o "$T/x.txt"
for f in x.tmx x.tmj x.txt; do [ -e "$T/$f" ] && bad "genmap created $f"; done

# a failed write says why, and leaves the old file whole (no fragment, no
# temporary): a file size limit stands in for a full disk
cp maps/demo.map "$T/mine.map"
expect 1 'mine.map: write error: File too large \(the old file is untouched\)' \
    sh -c "trap '' XFSZ; ulimit -f 8; exec $B genmap --kind blocks --size 200 --force -o '$T/mine.map'"
cmp -s maps/demo.map "$T/mine.map" || bad "a failed write changed mine.map"
ls "$T" | grep -q 'tmp-' && bad "a failed write left a temporary: $(ls "$T")"
expect 1 'nodir/x.map: cannot open the directory .*nodir: No such file or directory' \
    $gen -o "$T/nodir/x.map"

[ "$fail" -eq 0 ] && echo "bench_cli: ok"
exit "$fail"
