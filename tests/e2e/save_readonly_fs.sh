#!/bin/sh
# save_readonly_fs.sh - a save over a map on a read-only file system names
# the file system, not the map's mode (mode 0644 is writable: it said
# "is read-only (mode 0644)"): "MAP: is on a read-only file system
# (mounted at DIR): not replaced", the map left as it was.  The read-only
# file system is a read-only bind mount in a private mount namespace
# (unshare -m): nothing outside the test sees it.  Skips (exit 77) where
# unshare or mounting is not allowed.
#   sh tests/e2e/save_readonly_fs.sh BUILD_DIR     (from the repository root)
BUILD=${1:-build}
BIN="$BUILD/tilenav"
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
if [ ! -x "$BIN" ]; then
    echo "save_readonly_fs: $BIN is missing (build it first)" >&2
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-rofs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
# mount DIR read-only (a bind mount onto itself), then run the rest
ro() {
    d=$1
    shift
    unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && "$@"' \
        sh "$d" "$@"
}
if ! command -v unshare >/dev/null 2>&1 || ! ro "$T" true 2>/dev/null; then
    echo "SKIP save_readonly_fs: no private read-only mount here (unshare -m, mount)"
    exit 77
fi
cp tests/data/small.map "$T/x.map"
chmod 0644 "$T/x.map"
printf '0 toggle 3 3 block\n0 save %s\n' "$T/x.map" >"$T/s.script"
ro "$T" "$BIN" --headless --map "$T/x.map" --frames 2 --script "$T/s.script" >/dev/null \
    2>"$T/err"
rc=$?
fails=0
if [ "$rc" -eq 0 ]; then
    echo "save_readonly_fs: FAIL the save passed on a read-only file system"
    fails=1
fi
if ! grep -qF "$T/x.map: is on a read-only file system (mounted at $T): not replaced" "$T/err"; then
    echo "save_readonly_fs: FAIL message: $(cat "$T/err")"
    fails=1
fi
if ! cmp -s tests/data/small.map "$T/x.map"; then
    echo "save_readonly_fs: FAIL the map changed"
    fails=1
fi
[ "$fails" -eq 0 ] && echo "save_readonly_fs: ok (a map on a read-only file system: refused, naming it)"
exit "$fails"
