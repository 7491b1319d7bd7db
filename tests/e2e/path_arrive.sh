#!/bin/sh
# End-to-end: the headless game walks the character to the destination of
# every hand-made path map with the script command `goto TX TY`, under the
# real physics, and the JSON "bot" section says so:
#  1. each tests/data/path_*.map with a reachable D: "state":"arrived",
#     "arrived":true and the character standing on the goal row;
#  2. path_ledge5.map: out of reach at jump height 4 ("partial"), reached at 5;
#  3. path_partial.map (sealed goal): "partial", "arrived":false, stopped
#     next to the box;
#  4. the section is well formed and the same on a second run.
# Usage: tests/e2e/path_arrive.sh BUILD_DIR (run from the repo root).
set -u
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "path_arrive.sh: $*"; exit 1; }
bot() { echo "$1" | sed -n 's/.*"bot":{\([^}]*\)}.*/\1/p'; }
num() { echo "$1" | sed -n "s/.*\"$2\":\([-0-9]*\).*/\1/p"; }
run() { "$B/tilenav" --headless "$@" || fail "run failed: $*"; }

[ -x "$B/tilenav" ] || fail "$B/tilenav is missing (build it first)"

# The D tile of a map: "X Y".
dest() { awk '/^tiles/ { on = 1; y = 0; next } on { i = index($0, "D"); if (i) { print i - 1, y; exit } y++ }' "$1"; }

arrive() { # MAP [SCRIPT-PREFIX]
    d=$(dest "$1")
    [ -n "$d" ] || fail "$1 has no D tile"
    { [ $# -gt 1 ] && printf '%s\n' "$2"; printf '1 goto %s\n' "$d"; } > "$T/go.script"
    out=$(run --map "$1" --frames 900 --script "$T/go.script")
    b=$(bot "$out")
    echo "$b" | grep -Eq '^"state":"(idle|moving|arrived|no_path|partial|stuck)","goal_x":-?[0-9]+,"goal_y":-?[0-9]+,"arrived":(true|false),"path_nodes":[0-9]+,"replans":[0-9]+,"expanded":[0-9]+,"extra_bots":[0-9]+' \
        || fail "$1: bad bot section: $out"
    echo "$b" | grep -q '"state":"arrived"' || fail "$1: not arrived: $b"
    echo "$b" | grep -q '"arrived":true' || fail "$1: arrived flag: $b"
    gy=$(num "$b" goal_y); ty=$(num "$out" tile_y)
    [ "$gy" = "$ty" ] || fail "$1: character on row $ty, goal row $gy: $out"
    echo "$out" | grep -q '"on_ground":true' || fail "$1: not standing: $out"
    out2=$(run --map "$1" --frames 900 --script "$T/go.script")
    [ "$out" = "$out2" ] || fail "$1: not deterministic"
}

# 1.
for m in tests/data/path_ledge4.map tests/data/path_gap.map tests/data/path_oneway_up.map \
         tests/data/path_oneway_drop.map tests/data/path_ceiling.map; do
    arrive "$m"
done

# 2.
d=$(dest tests/data/path_ledge5.map)
printf '1 goto %s\n' "$d" > "$T/l5.script"
b=$(bot "$(run --map tests/data/path_ledge5.map --frames 600 --script "$T/l5.script")")
echo "$b" | grep -q '"state":"partial"' || fail "ledge 5 at jump height 4 should be partial: $b"
arrive tests/data/path_ledge5.map '0 set jump_height 5'

# 3.
d=$(dest tests/data/path_partial.map)
printf '1 goto %s\n' "$d" > "$T/p.script"
out=$(run --map tests/data/path_partial.map --frames 900 --script "$T/p.script")
b=$(bot "$out")
echo "$b" | grep -q '"state":"partial","goal_x":13,"goal_y":8,"arrived":false' \
    || fail "sealed goal should end partial: $b"
tx=$(num "$out" tile_x)
[ "$tx" -ge 9 ] && [ "$tx" -le 10 ] || fail "should stop left of the box (x 9-10): $out"
exit 0
