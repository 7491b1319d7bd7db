#!/bin/sh
# `make bench-peers`: tn_cdt against Delaunator + Constrainautor from npm on
# identical input (see peers.mjs).  Never part of `make test`.
# Usage: sh bench/peers/run.sh BUILD_DIR
set -eu
B=${1:-build}
DIR=$(cd "$(dirname "$0")" && pwd)
BENCH=$(cd "$B" && pwd)/tilenav-bench
[ -x "$BENCH" ] || {
    echo "bench-peers: $BENCH not built (make $B/tilenav-bench)" >&2
    exit 1
}
command -v node >/dev/null 2>&1 || { echo "bench-peers: node is not installed" >&2; exit 1; }
if [ ! -d "$DIR/node_modules/delaunator" ] ||
   [ ! -d "$DIR/node_modules/@kninnug/constrainautor" ]; then
    echo "bench-peers: installing the peers from the npm registry (bench/peers/package.json)"
    (cd "$DIR" && npm install --no-audit --no-fund --loglevel=error)
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-peers.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
# the lead's benchmark map (bench/run.sh) and a denser one
for n in 700 2000; do
    "$BENCH" genmap --kind blocks --size 256 --blocks $n --seed 1 \
        -o "$TMP/blocks256-$n.map" 2>/dev/null
done
echo "== maps, outlines as tn_navmesh extracts them (merged runs split at vertices)"
node "$DIR/peers.mjs" --bench "$BENCH" --runs 51 "$TMP/blocks256-700.map" "$TMP/blocks256-2000.map"
echo
echo "== the same, each build right after a build of the other map (predictors not trained on it)"
node "$DIR/peers.mjs" --bench "$BENCH" --runs 51 --alternate \
    "$TMP/blocks256-700.map" "$TMP/blocks256-2000.map"
echo
echo "== the same maps with every unit outline edge a constraint (~10,000 and ~16,000 edges)"
node "$DIR/peers.mjs" --bench "$BENCH" --runs 51 --unit \
    "$TMP/blocks256-700.map" "$TMP/blocks256-2000.map"
echo
echo "== the full navmesh build (tn_navmesh_build: outlines, two row sweeps, labels) against"
echo "   the peers' CDT of the unit-edge outline (issue 11's target: >= 20x, < 2 ms)"
node "$DIR/peers.mjs" --bench "$BENCH" --runs 51 --unit --navmesh \
    "$TMP/blocks256-700.map" "$TMP/blocks256-2000.map"
echo
echo "== uniform random points (no constraints)"
node "$DIR/peers.mjs" --bench "$BENCH" --runs 5 --points 1000000
