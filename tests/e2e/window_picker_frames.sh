#!/bin/sh
# Another map opened with the picker (Tab) counts its own frames from 0:
# the HUD and the status line went on from the old map's ("frame 4858" on
# a map just opened).  Seen through --frames N, which ends a window run
# once the world has taken N steps, with no clock in the way: a script
# pauses the first map at frame 20 (its save there says the pause is in),
# the picker opens b.map (the window's title names it once it plays), and
# single steps ('.') on the paused new map count: 39 must leave the run
# going (the old count, 20 or more, would have reached 40 after 20 of
# them), the 40th ends it with "40 steps".  A slow or loaded machine only
# takes longer (every wait polls, up to 60 s); without the switch the
# title check fails.  (It slept 3 s, switched, and checked the game still
# ran 5 s later: a game slower than 60 steps a second passed that with no
# restart, and with no switch at all.)
# Usage: tests/e2e/window_picker_frames.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_picker_frames "$BUILD"
MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
cp tests/data/render_window.map "$tmp/b.map" # b.map sorts before room.map
mkdir "$tmp/mark"                            # (not next to the maps: not in the picker)
printf '20 pause on\n20 save %s\n' "$tmp/mark/at20.map" >"$tmp/pause.script"
STEPS=40
(cd "$tmp" && SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
    exec "$GAME" --map "$MAP" --assets "$ROOT/assets" --script "$tmp/pause.script" \
    --frames $STEPS >"$tmp/game.out" 2>"$tmp/game.err") &
GPID=$!
wait_window
i=0
until [ -f "$tmp/mark/at20.map" ]; do # the first map paused at frame 20 (to 24: a frame's steps)
    i=$((i + 1))
    [ $i -gt 600 ] && fail "the script's save at frame 20 never came"
    kill -0 "$GPID" 2>/dev/null || fail "the game ended before its frame 20 (no pause)"
    sleep 0.1
done
sleep 0.3
xdotool key Tab Up Return # the picker, b.map, open it (queued in order)
i=0
until xdotool getwindowname "$WID" 2>/dev/null | grep -q 'b\.map'; do
    i=$((i + 1))
    [ $i -gt 600 ] && fail "the picker did not open b.map (title: $(xdotool getwindowname "$WID" 2>&1))"
    kill -0 "$GPID" 2>/dev/null || fail "the game ended before b.map played"
    sleep 0.1
done
j=0
while [ $j -lt $((STEPS - 1)) ]; do
    xdotool key period
    sleep 0.05
    j=$((j + 1))
done
sleep 3 # (each '.' runs one step a frame)
kill -0 "$GPID" 2>/dev/null ||
    fail "$((STEPS - 1)) single steps on the map just opened ended a --frames $STEPS run: its frames were counted on from the old map's ($(grep steps "$tmp/game.err"))"
xdotool key period
wait_exit 60 "end after --frames $STEPS on the new map"
grep -q "^tilenav: $STEPS steps" "$tmp/game.err" || fail "no '$STEPS steps' line: $(cat "$tmp/game.err")"
echo "$NAME: ok (the map picked at frame 20 or later ran its own $STEPS steps)"
exit 0
