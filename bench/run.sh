#!/bin/sh
# `make bench`: every benchmark table, one after another, printed and
# written to docs/bench.md (the one place the project's numbers live; the
# README and the headers cite it).  BENCH_MD=path writes elsewhere.
# Usage: bench/run.sh BUILD_DIR
B=${1:-build}/tilenav-bench
set -u
status=0
md=${BENCH_MD:-docs/bench.md}
out=$(mktemp)
failed=$(mktemp)
# the generated maps: a folder of this run's own (fixed names in /tmp, with
# --force, wrote through any link planted there and raced another run)
maps=$(mktemp -d)
# Each table is shown as it comes and kept in $out.
run() {
    {
        echo "== tilenav-bench $*"
        "$B" "$@" 2>&1 || { echo "(tilenav-bench $1 failed)"; echo x >>"$failed"; }
        echo
    } | tee -a "$out"
}
run astar
run arrival --levels 500 --goals 10 --seed 1
run arrival --levels 500 --goals 10 --seed 1 --planner graph
# the same trips with each body pushed 1.3 px once (knock-back: off the
# walk's lattice), which the bots must recover from (docs/surf.md)
run arrival --levels 500 --goals 10 --seed 1 --push 1.3
run arrival --levels 500 --goals 10 --seed 1 --planner graph --push 1.3
# ... and pushed in the air instead (a hit during a jump: the graph bot
# steers its jump back onto its landing)
run arrival --levels 500 --goals 10 --seed 1 --planner graph --push 1.3 --push-air
run flow
run enemies
run cdt --points 1000000
"$B" genmap --kind blocks --size 256 --blocks 700 --seed 1 -o "$maps/tilenav-bench-blocks256.map" >/dev/null
"$B" genmap --kind blocks --size 256 --blocks 2000 --seed 1 -o "$maps/tilenav-bench-blocks2000.map" >/dev/null
run navmesh maps/demo.map "$maps/tilenav-bench-blocks256.map" "$maps/tilenav-bench-blocks2000.map"
run agents
# 512x512 light (no shortcuts, labels or save/load); 1024x1024 in full: its
# shortcuts and labels take two to three minutes, but their queries are the
# issue's query target on a level that is not edited
run surf --sizes 64,128,512,1024 --light-above 128 --full 1024 --optimality 6
run edits
run soak --steps 100000 --seed 1
run tiled
[ -s "$failed" ] && status=1
{
    echo "# Benchmark results"
    echo
    echo "Written by \`make bench\` (bench/run.sh); do not edit by hand.  Run on"
    echo "$(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown),"
    echo "$(uname -m), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)."
    echo "The machine is shared: wall-clock figures are medians; compare ratios within one run."
    echo "Sizes: KB = 1024 bytes, MB = 1024 x 1024 bytes (as in the headers)."
    echo
    echo '```'
    cat "$out"
    echo '```'
} >"$md"
rm -f "$out" "$failed"
rm -rf "$maps"
echo "written: $md"
exit $status
