#!/bin/sh
# A right-drag that leaves the map and comes back elsewhere paints only the
# tiles the pointer crossed on the map: it painted a straight wall from the
# tile where it left to the one where it came back (a drag out over the HUD
# and back in 25 tiles on: 25 blocks never touched).
#   right-press (5,5), drag to (5,3)   -> blocks (5,5) (5,4) (5,3)
#   up over the HUD strip, right, back in at (30,3), release
#                                       -> block (30,3), nothing between
#   Ctrl+S                              -> the map file has exactly those 4
# then the same over the side panel: in at (30,10) from (10,10) -> 2 blocks;
# then a drag (15,20)-(15,19) released over the top bar, and a move back
# over the map with no button held -> only those 2 blocks.
# Usage: tests/e2e/window_paint_drag.sh BUILD_DIR (run from the repo root).
# Skips (exit 77) when Xvfb or xdotool is missing.  Tiles: see
# tests/e2e/lib/window.sh (tests/data/render_window.map at 24 px tiles).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_paint_drag "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
    "$GAME" --map "$MAP" >"$tmp/game.out" 2>"$tmp/game.err" &
GPID=$!
wait_window
move() { # x y: one motion event there
    xdotool mousemove --window "$WID" "$1" "$2"
    sleep 0.15
}
# Ctrl+S, then the map file's rows must become WANT within 30 s, else fail
# with MESSAGE (a loaded machine saves late, never wrongly)
save_and_expect() { # WANT MESSAGE
    xdotool key ctrl+s
    i=0
    until rows "$MAP" | cmp -s - "$1"; do
        i=$((i + 1))
        [ $i -gt 300 ] && {
            rows "$MAP" | diff "$1" -
            fail "$2"
        }
        sleep 0.1
    done
}

rows tests/data/render_window.map >"$tmp/orig.rows"
put "$tmp/orig.rows" 5 5 '#' | put /dev/stdin 5 4 '#' | put /dev/stdin 5 3 '#' |
    put /dev/stdin 30 3 '#' >"$tmp/want1.rows"
move "$(px 5)" "$(py 5)"
xdotool mousedown 3
sleep 0.15
move "$(px 5)" "$(py 3)"
move "$(px 5)" 80 # the HUD strip, above the map view
move "$(px 30)" 80
move "$(px 30)" "$(py 3)"
xdotool mouseup 3
sleep 0.15
save_and_expect "$tmp/want1.rows" "a drag out over the HUD and back in painted tiles it never crossed"

# over the side panel (its slider rows take the motion) and back
put "$tmp/want1.rows" 10 10 '#' | put /dev/stdin 30 10 '#' >"$tmp/want2.rows"
move "$(px 10)" "$(py 10)"
xdotool mousedown 3
sleep 0.15
move 1150 400
move 1150 "$(py 10)"
move "$(px 30)" "$(py 10)"
xdotool mouseup 3
sleep 0.15
save_and_expect "$tmp/want2.rows" "a drag out over the side panel and back in painted tiles it never crossed"
# released over the top bar (it takes the button-up): the stroke ends
# there; the pointer coming back onto the map with no button paints nothing
put "$tmp/want2.rows" 15 20 '#' | put /dev/stdin 15 19 '#' >"$tmp/want3.rows"
move "$(px 15)" "$(py 20)"
xdotool mousedown 3
sleep 0.15
move "$(px 15)" "$(py 19)"
move "$(px 15)" 16 # the top bar
xdotool mouseup 3
sleep 0.15
move "$(px 20)" "$(py 19)"
move "$(px 25)" "$(py 19)"
save_and_expect "$tmp/want3.rows" "a drag released over the top bar went on painting with no button held"
quit_game
echo "$NAME: ok (a drag that leaves the map paints only where the pointer crossed it)"
exit 0
