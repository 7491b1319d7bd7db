#!/bin/sh
# A window made smaller than the minimum 900x500 (no window manager keeps
# SDL's minimum size here: xdotool windowsize sets any size) is set back to
# 900x500.  It was taken: the 900x500 frame was shrunk into 700x400, its
# 12 px text drawn at 9 px, and the settings kept window_w 700 (which the
# next run then opened at 900x500 without a word).  Checked through the
# window's geometry (waited for, nothing timed) and the settings file
# written on Esc.
# Usage: tests/e2e/window_undersize.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_undersize "$BUILD"
MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game

back_to() { # w h: after a smaller size, the game sets the window to w x h
    i=0
    until xdotool getwindowgeometry "$WID" | grep -q "Geometry: $1x$2"; do
        i=$((i + 1))
        [ $i -gt 600 ] && fail "the window was not set back to $1x$2: $(xdotool getwindowgeometry "$WID" | grep Geometry)"
        sleep 0.1
    done
}
xdotool windowsize "$WID" 700 400
back_to 900 500
xdotool windowsize "$WID" 1000 300 # only the height under the minimum
back_to 1000 500
xdotool windowsize "$WID" 700 400 # the same small size again, after a good one
back_to 900 500
sleep 0.5
quit_game
S=$tmp/config/tilenav/settings
[ -f "$S" ] || fail "no settings written"
grep -q '^window_w 900$' "$S" && grep -q '^window_h 500$' "$S" || fail "the window size kept is not 900x500: $(cat "$S")"
echo "$NAME: ok (700x400 and 1000x300 set back to 900x500 and 1000x500; 900x500 kept)"
exit 0
