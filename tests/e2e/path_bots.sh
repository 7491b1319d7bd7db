#!/bin/sh
# End-to-end: the path finder under load in the headless game.
#  1. `set bots 12` on the demo map: 12 extra bots make trips to random
#     reachable tiles; after 4000 frames nearly all finished trips arrived
#     (bots still under way, at most 12, are not counted against them);
#  2. a goto given while the extra bots run still arrives;
#  3. a key press cancels a goto: the bot section goes back to "idle";
#  4. deterministic for a seed.
# Usage: tests/e2e/path_bots.sh BUILD_DIR (run from the repo root).
set -u
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "path_bots.sh: $*"; exit 1; }
bot() { echo "$1" | sed -n 's/.*"bot":{\([^}]*\)}.*/\1/p'; }
num() { echo "$1" | sed -n "s/.*\"$2\":\([-0-9]*\).*/\1/p"; }
run() { "$B/tilenav" --headless "$@" || fail "run failed: $*"; }

[ -x "$B/tilenav" ] || fail "$B/tilenav is missing (build it first)"
[ -f maps/demo.map ] || fail "maps/demo.map is missing"

# 1.
printf '0 set bots 12\n' > "$T/bots.script"
out=$(run --map maps/demo.map --frames 4000 --script "$T/bots.script" --seed 5)
b=$(bot "$out")
n=$(num "$b" extra_bots); trips=$(num "$b" extra_trips); done=$(num "$b" extra_arrivals)
[ "$n" = 12 ] || fail "want 12 extra bots: $b"
[ "$done" -ge 100 ] || fail "too few trips done in 4000 frames: $b"
# finished = trips - (at most 12 under way); require >= 90% of them arrived
awk -v t="$trips" -v d="$done" 'BEGIN { f = t - 12; exit !(d >= 0.9 * f) }' \
    || fail "extra bots arrived on too few trips: $b"
out2=$(run --map maps/demo.map --frames 4000 --script "$T/bots.script" --seed 5)
[ "$out" = "$out2" ] || fail "not deterministic with extra bots"

# 2. The demo map's start; a goto to a tile found by the bot itself: the
# character's start row, 6 tiles away, snapped to ground.
out=$(run --map maps/demo.map --frames 1 --script "$T/bots.script")
sx=$(num "$out" tile_x); sy=$(num "$out" tile_y)
gx=$((sx + 6))
printf '0 set bots 12\n1 goto %s %s\n' "$gx" "$sy" > "$T/go.script"
b=$(bot "$(run --map maps/demo.map --frames 1500 --script "$T/go.script" --seed 5)")
echo "$b" | grep -Eq '"state":"(arrived|partial)"' || fail "goto among bots: $b"

# 3.
printf '1 goto %s %s\n3 key right press\n4 key right release\n' "$gx" "$sy" > "$T/cancel.script"
b=$(bot "$(run --map maps/demo.map --frames 60 --script "$T/cancel.script")")
echo "$b" | grep -q '"state":"idle"' || fail "a key press should cancel the goto: $b"
exit 0
