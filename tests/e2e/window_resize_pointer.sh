#!/bin/sh
# A resize that keeps the 1280x720 frame (scaled, letterboxed) moves the
# pointer's place in the frame while the pointer rests: the game took the
# new place only when the frame's own size changed (a window under
# 1280x720), so after 1280x800 -> 1280x720 the hover square, the tile
# readout and the wheel's zoom centre stayed 40 px off (the letterbox's
# height) until the mouse moved.  Checked through the wheel: under Xvfb,
# driven by xdotool, observed through F12 screenshots (the map view's rows,
# y 120..695), paused (T) so the view holds still; each wait is for the
# window's geometry or a screenshot file, nothing is timed.
#   1280x800, pointer at a tile, 1280x720, F12 (all events handled), wheel
#   up: a zoom toward the pointer -> shot A
#   O (fit, as before), the pointer moved away and back, wheel up -> shot B
#   A and B equal: the first wheel zoomed toward where the pointer was.
# Usage: tests/e2e/window_resize_pointer.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_resize_pointer "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game

view_rows() { tail -c +$((54 + 24 * 3840 + 1)) "$1" | head -c $((576 * 3840)); }
sig() { view_rows "$1" | cksum | cut -d' ' -f1; }

xdotool key t
resize_window 1280 800
X=$(px 24)
Y=$(py 16)
xdotool mousemove --window "$WID" "$X" "$Y"
resize_window 1280 720
shot # every event so far handled (and what the resize made)
xdotool click 4
shot
A=$SHOT
sa=$(sig "$A")

xdotool key o
xdotool mousemove --window "$WID" "$X" $((Y - 30))
xdotool mousemove --window "$WID" "$X" "$Y"
xdotool click 4
shot
B=$SHOT
sb=$(sig "$B")
[ -n "${TILENAV_SHOTS:-}" ] && cp "$A" "$TILENAV_SHOTS/$NAME-a.bmp" && cp "$B" "$TILENAV_SHOTS/$NAME-b.bmp"
[ "$sa" = "$sb" ] || fail "the wheel after the resize zoomed toward another place than the pointer's (the map views differ)"

# A slider dragged across such a resize goes on with the drag: the motion
# the resize makes said no button was held, and the panel took it for a
# release it had not seen.  Smoothness (row 9 of 12: y 474, 30 px apart,
# its track at y 492 from x 1040 to 1260) pressed at its middle (0.50),
# 1280x800, F12 (the resize's motion handled), dragged to the right end.
xdotool mousemove --window "$WID" 1150 494
xdotool mousedown 1
resize_window 1280 800
shot
xdotool mousemove --window "$WID" 1259 494
xdotool mouseup 1
quit_game
S=$tmp/config/tilenav/settings
[ -f "$S" ] || fail "no settings written"
grep -q '^smoothness 1$' "$S" ||
    fail "the slider dragged across the resize stopped there: $(grep '^smoothness' "$S")"
echo "$NAME: ok (after 1280x800 -> 1280x720 the wheel zooms toward the resting pointer; a drag goes on)"
exit 0
