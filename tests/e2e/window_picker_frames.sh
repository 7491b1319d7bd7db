#!/bin/sh
# Another map opened with the picker (Tab) counts its own frames from 0:
# the HUD and the status line went on from the old map's ("frame 4858" on
# a map just opened).  Seen through --frames N, which ends a window run
# once the world has taken N steps: a run of 360 steps (6 s of game time)
# whose map is switched after about 3 s must still be running 2 s after
# the old count would have ended it (the new map's 360 steps end it).  A
# slow machine only makes the run longer: no false failure.
# Usage: tests/e2e/window_picker_frames.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_picker_frames "$BUILD"
MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
cp tests/data/render_window.map "$tmp/b.map"
STEPS=360
(cd "$tmp" && SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
    exec "$GAME" --map "$MAP" --assets "$ROOT/assets" --frames $STEPS >"$tmp/game.out" 2>"$tmp/game.err") &
GPID=$!
wait_window
sleep 3
xdotool key Tab # b.map sorts before room.map
sleep 0.4
xdotool key Up
sleep 0.2
xdotool key Return
sleep 5 # the old count's end (6 s from the start) and 2 s more
kill -0 "$GPID" 2>/dev/null || fail "the run ended within 8.5 s after a map switch at 3 s: the new map's frames were counted on from the old map's"
wait_exit 120 "end after --frames $STEPS on the new map"
grep -q "^tilenav: $STEPS steps" "$tmp/game.err" || fail "no '$STEPS steps' line: $(cat "$tmp/game.err")"
echo "$NAME: ok (the map picked at about 3 s ran its own $STEPS steps)"
exit 0
