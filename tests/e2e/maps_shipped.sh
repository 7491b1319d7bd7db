#!/bin/sh
# The shipped maps load and run headless, and each does what its comment
# claims (checked on the real world, not assumed):
#   td_maze:  enemies from both spawn points follow the serpentine to the
#             destination (some arrive within 150 s; a wall across a gap
#             that would cut them off is refused);
#   climb:    the character's bot climbs from the bottom to the top platform
#             (118 rows) with the default 4-tile jump, and arrives;
#   arena:    the free space is one navmesh region and the companion
#             fetches items;
#   every maps/*.map: loads and runs 300 steps with a valid JSON line.
# Usage: tests/e2e/maps_shipped.sh BUILD_DIR (from the repo root).
set -u
B=${1:-build}
NAME=maps_shipped
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-maps.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "$NAME: FAIL: $*"; exit 1; }
run() { "$B/tilenav" --headless "$@" 2>"$T/err" || fail "tilenav $*: $(cat "$T/err")"; }
field() { echo "$1" | sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p" | head -1; }
section() { echo "$1" | sed -n "s/.*\"$2\":{\([^}]*\)}.*/\1/p"; }

for m in maps/*.map; do
    out=$(run --map "$m" --frames 300)
    echo "$out" | grep -q '^{"frames":300,' || fail "$m: no JSON line"
done
[ -f maps/td_maze.map ] && [ -f maps/climb.map ] && [ -f maps/arena.map ] || fail "a shipped map is missing"

# td_maze: arrivals through the maze
out=$(run --map maps/td_maze.map --frames 9000)
en=$(section "$out" enemies)
[ "$(field "$en" reached)" -ge 1 ] || fail "td_maze: no enemy reached the destination in 150 s: $en"
# a wall across the first gap (x = 7, rows 40..43) would cut the spawns off:
# the last tile of it is refused
printf '0 toggle 7 40 block\n0 toggle 7 41 block\n0 toggle 7 42 block\n0 toggle 7 43 block\n' >"$T/cut.script"
out=$(run --map maps/td_maze.map --frames 10 --script "$T/cut.script")
[ "$(field "$out" refused_edits)" -eq 1 ] || fail "td_maze: cutting the maze was not refused: $out"

# climb: the topmost platform row and a standing tile on it
top=$(sed -n '/^tiles$/,$p' maps/climb.map | sed '1d' | grep -n '=' | head -1)
row=$(( ${top%%:*} - 1 ))
line=${top#*:}
pre=${line%%=*}
col=$(( ${#pre} + 3 ))
printf '5 goto %d %d\n' "$col" $((row - 1)) >"$T/climb.script"
out=$(run --map maps/climb.map --frames 7200 --script "$T/climb.script")
bot=$(section "$out" bot)
[ "$(field "$bot" state)" = '"arrived"' ] || fail "climb: the bot did not reach ($col,$((row - 1))): $bot"
[ "$(field "$out" tile_y)" -eq $((row - 1)) ] || fail "climb: the character is not on the top platform: $out"

# arena: one region, items fetched, a path across
out=$(run --map maps/arena.map --frames 3600)
[ "$(field "$(section "$out" navmesh)" regions)" -eq 1 ] || fail "arena: free space is not one region: $out"
[ "$(field "$(section "$out" companion)" items)" -ge 1 ] || fail "arena: the companion fetched nothing in 60 s: $out"
echo "$NAME: ok (every map runs; td_maze arrivals and refusal, climb arrives at row $((row - 1)), arena one region with fetched items)"
