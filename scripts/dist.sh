#!/bin/sh
# scripts/dist.sh VERSION [OUTDIR] - write OUTDIR/tilenav-VERSION.tar.gz
# (`make dist`): every file git tracks, as it is in the working tree, under
# tilenav-VERSION/.  Untracked and ignored files (build dirs, fuzz findings,
# autosaves) never get in.  Needs a git checkout.
set -eu
cd "$(dirname "$0")/.."
v=${1:?usage: scripts/dist.sh VERSION [OUTDIR]}
out=${2:-.}
name=tilenav-$v
command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    { echo "dist: needs a git checkout (the file list is git ls-files)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/$name"
# Tracked files that still exist (a deleted, not yet committed file is left out).
git ls-files -z | xargs -0 sh -c 'for f; do [ ! -e "$f" ] || printf "%s\0" "$f"; done' sh >"$tmp/list"
tar -cf - --null -T "$tmp/list" | tar -xf - -C "$tmp/$name"
# Same bytes for the same tree: fixed owner, order and times.
mtime=$(git log -1 --format=%cI 2>/dev/null || echo 1970-01-01)
tar -C "$tmp" --sort=name --owner=0 --group=0 --numeric-owner --mtime="$mtime" \
    -cf - "$name" | gzip -9n >"$out/$name.tar.gz.tmp"
mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
echo "dist: $out/$name.tar.gz ($(wc -c <"$out/$name.tar.gz") bytes, $(tr -cd '\0' <"$tmp/list" | wc -c) files)"
