#!/bin/sh
# End-to-end: the enemies section of the headless JSON.  The spawner follows
# `set spawn_rate`, enemies arrive, the run is deterministic, edit refusals
# (last destination, last spawn point, a block that cuts a spawn point off)
# are counted, and a map without spawn points or destinations idles.
# Usage: tests/e2e/enemies_headless.sh BUILD_DIR (run from the repo root).
set -u
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "enemies_headless.sh: $*"; exit 1; }
section() { echo "$1" | sed -n 's/.*"enemies":{\([^}]*\)}.*/\1/p'; }
field() { echo "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }

# 1. 20 s at 10 per second on the demo map (3 spawn points, 1 destination).
printf '0 set spawn_rate 10\n' > "$T/rate.script"
out=$("$B/tilenav" --headless --map maps/demo.map --frames 1200 --script "$T/rate.script" --seed 5) \
    || fail "run failed"
sec=$(section "$out")
echo "$sec" | grep -Eq '^"alive":[0-9]+,"spawned":[0-9]+,"reached":[0-9]+,"skipped":[0-9]+$' \
    || fail "bad enemies section: $out"
alive=$(field "$sec" alive); spawned=$(field "$sec" spawned)
reached=$(field "$sec" reached); skipped=$(field "$sec" skipped)
# at 3/s and more a spawn waits until its point has 0.3 tiles of room (spacing)
[ "$spawned" -ge 170 ] && [ "$spawned" -le 200 ] || fail "spawned $spawned, want 170..200 (10/s for 20 s, spacing)"
[ $((alive + reached)) -eq "$spawned" ] || fail "alive $alive + reached $reached != spawned $spawned"
[ "$reached" -gt 10 ] || fail "only $reached enemies reached the destination"
[ "$skipped" -eq 0 ] || fail "skipped $skipped"
# README's figure (Wanderers ... spacing): the same script with the default
# seed, 1, spawns exactly 188 in the 1200 frames
out1=$("$B/tilenav" --headless --map maps/demo.map --frames 1200 --script "$T/rate.script") ||
    fail "run with the default seed failed"
s1=$(field "$(section "$out1")" spawned)
[ "$s1" = 188 ] || fail "default seed: spawned $s1 at 10/s in 20 s, README says 188 (update it)"

# 2. Deterministic: same seed, same JSON; the default rate is 1 per second.
out2=$("$B/tilenav" --headless --map maps/demo.map --frames 1200 --script "$T/rate.script" --seed 5) \
    || fail "second run failed"
[ "$out" = "$out2" ] || fail "not deterministic:
$out
$out2"
out3=$("$B/tilenav" --headless --map maps/demo.map --frames 600 --seed 5) || fail "default run failed"
s3=$(field "$(section "$out3")" spawned)
[ "$s3" -ge 9 ] && [ "$s3" -le 10 ] || fail "default rate: spawned $s3 in 10 s, want 10"

# 3. Refusals on a small board: the only destination (5,3) cannot be removed
#    or covered; a second one (9,4) makes it removable, and then that one is
#    the last; one of the two spawn points can go, the last one cannot.
cat > "$T/rules.map" <<'M'
tilenav-map 1
size 12 6
tiles
............
.S........S.
............
.....D......
............
P...........
M
cat > "$T/edits.script" <<'S'
10 toggle 5 3 dest
11 toggle 5 3 block
12 toggle 9 4 dest
13 toggle 5 3 dest
14 toggle 9 4 dest
20 toggle 1 1 spawn
21 toggle 10 1 block
S
out=$("$B/tilenav" --headless --map "$T/rules.map" --frames 60 --script "$T/edits.script" --seed 1) \
    || fail "edit run failed"
echo "$out" | grep -q '"edits":3,"refused_edits":4,' \
    || fail "want 3 edits and 4 refused (last destination 3 times, last spawn point): $out"

# 4. A block that would cut the spawn point off: (4,3) is the only way between
#    the two halves of this board; blocks elsewhere are accepted.
cat > "$T/pocket.map" <<'M'
tilenav-map 1
size 9 5
tiles
#########
#S..#..D#
#...#...#
#.......#
#########
M
printf '5 toggle 4 3 block\n6 toggle 2 2 block\n7 toggle 6 1 block\n' > "$T/cut.script"
out=$("$B/tilenav" --headless --map "$T/pocket.map" --frames 600 --script "$T/cut.script" --seed 2) \
    || fail "pocket run failed"
echo "$out" | grep -q '"edits":2,"refused_edits":1,' || fail "the cutting block was not refused: $out"
r=$(field "$(section "$out")" reached)
[ "$r" -ge 1 ] || fail "no enemy reached D on the pocket map: $out"

# 5. No spawn point, no destination: an idle spawner.
printf 'tilenav-map 1\nsize 4 3\ntiles\n....\n....\n....\n' > "$T/empty.map"
out=$("$B/tilenav" --headless --map "$T/empty.map" --frames 300 --seed 1) || fail "empty map run failed"
echo "$out" | grep -q '"enemies":{"alive":0,"spawned":0,"reached":0,"skipped":0}' \
    || fail "empty map: $out"
exit 0
