#!/bin/sh
# `make bench`: every benchmark table, one after another.
# Usage: bench/run.sh BUILD_DIR
B=${1:-build}/tilenav-bench
set -u
status=0
run() {
    echo "== tilenav-bench $*"
    "$B" "$@" || { echo "(tilenav-bench $1 failed)"; status=1; }
    echo
}
run astar
run arrival --levels 500 --goals 10 --seed 1
run flow
run enemies
run cdt --points 1000000
"$B" genmap --kind blocks --size 256 --blocks 700 --seed 1 -o /tmp/tilenav-bench-blocks256.map >/dev/null 2>&1
run navmesh maps/demo.map /tmp/tilenav-bench-blocks256.map
run agents
run soak --steps 100000 --seed 1
run tiled
exit $status
