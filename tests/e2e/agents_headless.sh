#!/bin/sh
# End-to-end: the companion and wanderers sections of the headless JSON.
#  1. both sections are present and well formed; `wanderers N` sets the
#     count; runs are deterministic;
#  2. a higher bias brings the wanderers closer to a placed target in the
#     same time (bias 0 vs 1, same seed), `set smoothness` is accepted and
#     out-of-range values are refused;
#  3. the companion fetches the reachable items near a standing character
#     (never the sealed one) and is back to following, seeing the character;
#  4. the companion follows the character through a door in a wall;
#  5. a block placed on the companion is accepted and pushes it out.
# Usage: tests/e2e/agents_headless.sh BUILD_DIR (run from the repo root).
set -u
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "agents_headless.sh: $*"; exit 1; }
companion() { echo "$1" | sed -n 's/.*"companion":{\([^}]*\)}.*/\1/p'; }
wanderers() { echo "$1" | sed -n 's/.*"wanderers":{\([^}]*\)}.*/\1/p'; }
num() { echo "$1" | sed -n "s/.*\"$2\":\([-0-9.]*\).*/\1/p"; }
str() { echo "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([a-z]*\).*/\1/p"; }
run() { "$B/tilenav" --headless "$@" || fail "run failed: $*"; }
# awk comparisons of decimals: lt A B succeeds when A < B.
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

[ -x "$B/tilenav" ] || fail "$B/tilenav is missing (build it first)"

# 1. Sections, counts, determinism.
printf '0 wanderers 12\n' > "$T/w12.script"
out=$(run --map maps/demo.map --frames 600 --script "$T/w12.script" --seed 3)
c=$(companion "$out"); w=$(wanderers "$out")
echo "$c" | grep -Eq '^"state":"(follow|search|fetch)","x":-?[0-9]+\.[0-9]{2},"y":-?[0-9]+\.[0-9]{2},"sees_character":(true|false),"items":[0-9]+$' \
    || fail "bad companion section: $out"
echo "$w" | grep -Eq '^"count":12,"mean_distance":[0-9]+\.[0-9]{2}$' \
    || fail "bad wanderers section (want 12 wanderers): $out"
out2=$(run --map maps/demo.map --frames 600 --script "$T/w12.script" --seed 3)
[ "$out" = "$out2" ] || fail "not deterministic:
$out
$out2"
printf '0 wanderers 12\n300 wanderers 5\n' > "$T/w5.script"
w=$(wanderers "$(run --map maps/demo.map --frames 400 --script "$T/w5.script")")
[ "$(num "$w" count)" = 5 ] || fail "wanderers 12 then 5: got $w"
w=$(wanderers "$(run --map maps/demo.map --frames 10)")
[ "$w" = '"count":0,"mean_distance":0.00' ] || fail "default: want no wanderers, got $w"

# 2. Bias: 20 wanderers toward a target placed at tile (60,10), 8 s.
for b in 0 1; do
    printf '0 tool target\n0 click 60 10 left\n0 set bias %s\n0 set smoothness 0.4\n1 wanderers 20\n' \
        "$b" > "$T/bias$b.script"
done
d0=$(num "$(wanderers "$(run --map maps/demo.map --frames 480 --script "$T/bias0.script")")" mean_distance)
d1=$(num "$(wanderers "$(run --map maps/demo.map --frames 480 --script "$T/bias1.script")")" mean_distance)
lt "$d1" "$d0" || fail "bias 1 should end closer to the target than bias 0: $d1 vs $d0 tiles"
lt "$d1" 8 || fail "bias 1: mean distance $d1 tiles after 8 s, want under 8"
printf '0 set smoothness 1.5\n' > "$T/bad.script"
"$B/tilenav" --headless --map maps/demo.map --frames 5 --script "$T/bad.script" >/dev/null 2>&1 \
    && fail "smoothness 1.5 was accepted"

# 3. Items: two reachable items near the start, one sealed in a box, one
#    beyond the fetch range.  30 s standing still.
out=$(run --map tests/data/agents_items.map --frames 1800)
c=$(companion "$out")
[ "$(num "$c" items)" = 2 ] || fail "want 2 items fetched, got: $c"
[ "$(str "$c" state)" = follow ] || fail "want following after fetching: $c"
echo "$c" | grep -q '"sees_character":true' || fail "want the character in sight: $c"

# 4. Through the door: the character walks right for 4 s, under the wall.
printf '0 key right press\n240 key right release\n' > "$T/walk.script"
out=$(run --map tests/data/agents_door.map --frames 480 --script "$T/walk.script")
c=$(companion "$out")
cx=$(echo "$out" | sed -n 's/.*"character":{"x":\([0-9.]*\).*/\1/p')
px=$(num "$c" x)
lt 320 "$cx" || fail "the character did not get through the door: $out"
dx=$(awk -v a="$px" -v b="$cx" 'BEGIN { d = a - b; if (d < 0) d = -d; print d }')
lt "$dx" 64 || fail "companion $dx px from the character after the door: $out"
[ "$(str "$c" state)" = follow ] || fail "want following behind the door: $c"

# 5. A block on the companion: find its tile at frame 200, then toggle a
#    block there at frame 200 of the same run: accepted, and it moved out.
out=$(run --map maps/demo.map --frames 200)
c=$(companion "$out")
tx=$(awk -v v="$(num "$c" x)" 'BEGIN { print int(v / 16) }')
ty=$(awk -v v="$(num "$c" y)" 'BEGIN { print int(v / 16) }')
printf '200 toggle %s %s block\n' "$tx" "$ty" > "$T/crush.script"
out=$(run --map maps/demo.map --frames 201 --script "$T/crush.script")
echo "$out" | grep -q '"edits":1,"refused_edits":0' || fail "block on the companion refused: $out"
c=$(companion "$out")
nx=$(awk -v v="$(num "$c" x)" 'BEGIN { print int(v / 16) }')
ny=$(awk -v v="$(num "$c" y)" 'BEGIN { print int(v / 16) }')
[ "$nx,$ny" != "$tx,$ty" ] || fail "companion still in the new block at tile ($tx,$ty): $c"
exit 0
