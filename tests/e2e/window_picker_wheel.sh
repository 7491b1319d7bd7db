#!/bin/sh
# With the map picker (Tab) open, the wheel moves its list wherever the
# pointer is, as a click there is the picker's: over the panel the wheel
# went to the panel first, which stepped the slider under the pointer
# behind the open list (Bots 0 -> 1 a notch) and left the list where it
# was.  Under Xvfb, driven by xdotool (each input an event, handled in
# order; every wait polls the window's title or the game's exit):
#   Tab, the pointer over the panel's Bots slider, one notch up, Enter
#     -> b.map opens (the list moved up from room.map, the map playing)
#   Esc -> the settings written keep bots 0
# Usage: tests/e2e/window_picker_wheel.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_picker_wheel "$BUILD"
MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
cp tests/data/render_window.map "$tmp/b.map" # b.map sorts before room.map
start_game
xdotool key Tab
xdotool mousemove --window "$WID" 1150 335 # the Bots slider's row (panel from x 1020)
xdotool click 4
xdotool key Return
i=0
until xdotool getwindowname "$WID" 2>/dev/null | grep -q 'b\.map$'; do
    i=$((i + 1))
    [ $i -gt 600 ] && fail "the wheel over the panel did not move the picker's list (title: $(xdotool getwindowname "$WID"))"
    kill -0 "$GPID" 2>/dev/null || fail "the game ended"
    sleep 0.1
done
quit_game
S=$tmp/config/tilenav/settings
[ -f "$S" ] || fail "no settings written"
grep -q '^bots 0$' "$S" || fail "the wheel stepped a slider behind the picker: $(grep '^bots' "$S")"
echo "$NAME: ok (the wheel over the panel moved the picker's list; Bots kept at 0)"
exit 0
