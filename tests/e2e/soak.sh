#!/bin/sh
# A short soak: the full world under random edits, clicks, tools, parameter
# changes and keys, every invariant checked after every step
# (tilenav-bench soak; `make bench` runs the long one), with the classic
# planner (three seeds) and with the graph planner (one seed, shorter: its
# graph is repaired after every edit; the world check then also replays
# every edge of the bots' plans).  Usage: soak.sh BUILD
set -u
B=${1:-build}
steps=20000
gsteps=1000
case "$B" in *san*) steps=4000 gsteps=250 ;; esac
for seed in 1 2 3; do
    out=$("$B/tilenav-bench" soak --steps "$steps" --seed "$seed" 2>&1) || {
        printf '%s\n' "$out" | tail -5
        echo "soak.sh: seed $seed failed"
        exit 1
    }
    printf '%s\n' "$out" | tail -n 1
done
out=$("$B/tilenav-bench" soak --steps "$gsteps" --seed 4 --planner graph 2>&1) || {
    printf '%s\n' "$out" | tail -5
    echo "soak.sh: the graph planner's soak (seed 4) failed"
    exit 1
}
printf 'graph planner: %s\n' "$(printf '%s\n' "$out" | tail -n 1)"
exit 0
