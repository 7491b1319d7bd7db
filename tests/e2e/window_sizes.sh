#!/bin/sh
# The UI follows the window's size: a window smaller than 1280x720 gets a
# frame of its own pixels (1:1, so 12 px text stays 12 px) with the panel
# packed to fit.  Checked through the panel's hit areas, which only land on
# the sliders when the layout is the one for that size: at 1024x600 a click
# at the right end of the Bots slider (sliders from y 160, 33 px apart) sets
# 32 bots; at 900x500 (19 px apart, each track beside its label) the right
# end of Wanderers sets 64; the settings file written on Esc holds both.
# Usage: tests/e2e/window_sizes.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_sizes "$BUILD"
MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game

resize() { # w h: until the window has that size, and the game laid out again
    resize_window "$1" "$2"
    sleep 1.0 # the game sees the size change and lays out again
}
slider_end() { # x y: press at the track's right end
    xdotool mousemove --window "$WID" "$1" "$2"
    sleep 0.2
    xdotool click 1
    sleep 0.3
}
# The packed panel (ui.c, frames under 700 px high): sliders from y 160,
# pitch = (frame height - 270) / NSLIDERS, each row pitch - 2 high.  Rows of
# 25 px and more have the track under the label (a press on the row's track
# band drags its slider, not on its label line: here 5 px above the row's
# bottom, just under the track's centre), its end 6 px inside the panel's
# 232 px content (panel x = window width - 260, content from x + 14); lower
# rows one line: a 110 px label column, the track 9 px under the row's top
# (its 17 px less the 14 px line, halved, and 8 more), ending 56 + 8 px
# before the content's end (the value's column).
NSLIDERS=12 # tn_world_params: jump .. planner
slider_y() { # frame_h index
    p=$((($1 - 270) / NSLIDERS))
    echo $((160 + $2 * p + p - 2 - 5))
}
resize 1024 600
slider_end $((1024 - 260 + 14 + 232 - 6)) "$(slider_y 600 4)" # Bots
resize 900 500
slider_end $((900 - 260 + 14 + 232 - 56 - 8)) $((160 + 7 * 19 + 9)) # Wanderers
quit_game
S=$tmp/config/tilenav/settings
[ -f "$S" ] || fail "no settings written"
grep -q '^bots 32$' "$S" || fail "the Bots slider at 1024x600 was not where the layout puts it: $(cat "$S")"
grep -q '^wanderers 64$' "$S" || fail "the Wanderers slider at 900x500 was not where the layout puts it: $(cat "$S")"
grep -q '^window_w 900$' "$S" && grep -q '^window_h 500$' "$S" || fail "the window size was not kept: $(cat "$S")"
echo "$NAME: ok (1:1 frames at 1024x600 and 900x500: sliders where the packed panel puts them; window size kept)"
exit 0
