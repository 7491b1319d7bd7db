#!/bin/sh
# A short soak: the full world under random edits, clicks, tools, parameter
# changes and keys, every invariant checked after every step
# (tilenav-bench soak; `make bench` runs the long one).  Usage: soak.sh BUILD
set -u
B=${1:-build}
steps=20000
case "$B" in *san*) steps=4000 ;; esac
for seed in 1 2 3; do
    out=$("$B/tilenav-bench" soak --steps "$steps" --seed "$seed" 2>&1) || {
        printf '%s\n' "$out" | tail -5
        echo "soak.sh: seed $seed failed"
        exit 1
    }
    printf '%s\n' "$out" | tail -n 1
done
exit 0
