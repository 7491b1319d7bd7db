#!/bin/sh
# The help (F1) in a window too small for it scrolls with the wheel
# ("more below: wheel or Down"), wherever the pointer is over it: the top
# bar and the panel under it took the wheel first, so over the help's
# right part (the panel's 260 px) and its top band nothing scrolled.
# Under Xvfb, driven by xdotool.  F12's pictures are always of the 1280x720
# frame (where the help fits, unscrolled), so the window's own pixels are
# read (ImageMagick's import; the test skips without it): the box's top
# edge is a 3 px accent line (TN_COL_ACCENT, #4CC9F0) at the window's row
# 0..2 when the help is scrolled to its top, the box's grey when not.
#   1024x600, F1                             -> row 1 the accent (polled)
#   pointer over the panel, wheel down       -> row 1 not (polled)
#   pointer over the top bar, wheel up       -> row 1 the accent again
# Every step is an input event, handled in order; each wait is for the
# window's geometry or its pixels, nothing is timed.
# Usage: tests/e2e/window_help_wheel.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_help_wheel "$BUILD"
command -v import >/dev/null 2>&1 || skip "ImageMagick's import is not installed (the window's pixels)"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game

W=1024
H=600
resize_window $W $H
# the colour of the window's pixel (500, 1), as #RRGGBB
top_px() { import -window "$WID" -crop 1x1+500+1 -depth 8 txt:- 2>/dev/null | sed -n 's/^0,0: .*\(#[0-9A-Fa-f]\{6\}\).*/\1/p'; }
until_top() { # want|not colour what: until the pixel is (or is not) the colour
    i=0
    while :; do
        c=$(top_px)
        if [ "$1" = want ] && [ "$c" = "$2" ]; then return 0; fi
        if [ "$1" = not ] && [ -n "$c" ] && [ "$c" != "$2" ]; then return 0; fi
        i=$((i + 1))
        [ $i -gt 100 ] && fail "$3 (the help's top row: $c)"
        sleep 0.2
    done
}
ACCENT='#4CC9F0'
xdotool key F1
until_top want $ACCENT "no help at its top after F1"
xdotool mousemove --window "$WID" 900 300 # the panel (from x 764)
xdotool click 5
until_top not $ACCENT "the wheel over the panel did not scroll the help"
xdotool mousemove --window "$WID" 300 12 # the top bar (32 px)
xdotool click 4
until_top want $ACCENT "the wheel over the top bar did not scroll the help back up"
xdotool key F1 # closes the help (Esc would only close it too)
quit_game
echo "$NAME: ok (the wheel scrolls the help over the panel and over the top bar)"
exit 0
