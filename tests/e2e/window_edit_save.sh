#!/bin/sh
# The real game in a window under Xvfb, driven with xdotool like a player:
#   right-click tile A            -> block;        Ctrl+S -> the map file has it
#   shift+right-click tile B      -> one-way
#   middle-click tile C           -> one-way
#   clicks on the side panel      -> never reach the map
#   Esc                           -> quits; the unsaved edits (B, C) go to MAP.autosave
#   start again, R                -> the autosave is restored; Ctrl+S writes it to the
#                                    map file and removes the stale autosave
#   start again, right-click, Esc -> autosaved; again, right-click, Ctrl+Z,
#                                    Ctrl+Y, Ctrl+Z, Esc -> no autosave
# The first start gives --map MAP, the second MAP alone (the first map is
# played); both check that the window's title names MAP.
# and checks both files tile by tile.  Usage: tests/e2e/window_edit_save.sh BUILD_DIR
# (run from the repo root).  Skips (exit 77) when Xvfb or xdotool is missing.
#
# Where the tiles are on screen: tests/data/render_window.map is 40x24 tiles,
# which the game shows at its largest zoom that fits the 1020x576 map view,
# 1.5x (24 px tiles), centred across and filling it from top to bottom:
# tile (x, y) covers window pixels [30 + 24x, 54 + 24x) x
# [120 + 24y, 144 + 24y)  (see src/game/render.h).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_edit_save "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
# The software renderer: no GL needed, and quick under Xvfb.  Arguments:
# how the map is given (--map MAP, or MAP alone: the first map is played).
start_game() {
    SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
        "$GAME" "$@" >"$tmp/game.out" 2>"$tmp/game.err" &
    GPID=$!

    wait_window
    title=$(xdotool getwindowname "$WID")
    [ "$title" = "tilenav - $MAP" ] || fail "the window's title is '$title', want 'tilenav - $MAP'"
}
start_game --map "$MAP"

rows tests/data/render_window.map >"$tmp/orig.rows"
put "$tmp/orig.rows" 30 15 '#' >"$tmp/saved.rows"
put "$tmp/saved.rows" 20 9 '=' | put /dev/stdin 10 18 '=' >"$tmp/autosave.rows"

click_tile 30 15 3                       # right-click: block
xdotool key ctrl+s
i=0
until rows "$MAP" | cmp -s - "$tmp/saved.rows"; do
    i=$((i + 1))
    [ $i -gt 200 ] && { rows "$MAP" | diff "$tmp/saved.rows" -; fail "Ctrl+S did not save the block at (30,15)"; }
    sleep 0.1
done

xdotool keydown shift
click_tile 20 9 3                        # shift+right-click: one-way
xdotool keyup shift
click_tile 10 18 2                       # middle-click: one-way
# the panel: a left-click on the title and a right-click on a tool button
xdotool mousemove --window "$WID" 1100 20 click 1
xdotool mousemove --window "$WID" 1200 120 click 3
sleep 0.3
quit_game

rows "$MAP" | cmp -s - "$tmp/saved.rows" || { rows "$MAP" | diff "$tmp/saved.rows" -; fail "the saved map changed after Ctrl+S"; }
[ -f "$MAP.autosave" ] || fail "no autosave after quitting with unsaved edits"
rows "$MAP.autosave" | cmp -s - "$tmp/autosave.rows" || { rows "$MAP.autosave" | diff "$tmp/autosave.rows" -; fail "the autosave is not the map with the two one-way platforms"; }
grep -q "$MAP.autosave" "$tmp/game.out" || fail "the game did not say where it wrote the autosave"
# Starting again (the map given without --map, with a second one for the
# picker) offers the autosave; R restores it, Ctrl+S keeps it.
start_game "$MAP" maps/demo.map
xdotool key r
sleep 0.3
xdotool key ctrl+s
i=0
until rows "$MAP" | cmp -s - "$tmp/autosave.rows"; do
    i=$((i + 1))
    [ $i -gt 200 ] && { rows "$MAP" | diff "$tmp/autosave.rows" -; fail "R + Ctrl+S did not bring the autosaved edits into the map"; }
    sleep 0.1
done
quit_game "second run"
[ -f "$MAP.autosave" ] && fail "the stale autosave is still there after Ctrl+S"
# Undoing every edit brings the map back to its file: nothing is unsaved,
# Esc writes no autosave (undo's clean point).  First the same click kept
# (it is an edit: autosaved), then undone, redone and undone again.
put "$tmp/autosave.rows" 5 15 '#' >"$tmp/undo.rows"
start_game --map "$MAP"
click_tile 5 15 3                        # right-click: block
sleep 0.3
quit_game "third run"
rows "$MAP.autosave" | cmp -s - "$tmp/undo.rows" || fail "the right-click at (5,15) was not autosaved"
rm -f "$MAP.autosave"
start_game --map "$MAP"
click_tile 5 15 3
sleep 0.3
xdotool key ctrl+z
sleep 0.2
xdotool key ctrl+y
sleep 0.2
xdotool key ctrl+z
sleep 0.3
quit_game "fourth run"
[ -f "$MAP.autosave" ] && fail "Esc after undoing every edit wrote $MAP.autosave (the map is its file's)"
rows "$MAP" | cmp -s - "$tmp/autosave.rows" || fail "the map file changed in the fourth run"
# Edited outside after loading: Ctrl+S is refused (the edits go to the
# autosave); Ctrl+R reloads the file, R puts only the tile the player
# changed onto it, and Ctrl+S keeps both: the outside edit is not lost.
cp tests/data/render_window.map "$MAP"
rm -f "$MAP.autosave"
start_game --map "$MAP"
click_tile 30 15 3                       # right-click: block
sleep 0.3
rows "$MAP" | put /dev/stdin 20 9 '#' >"$tmp/outside.rows"
{ sed -n '1,/^tiles$/p' "$MAP"; cat "$tmp/outside.rows"; } >"$tmp/outside.map"
mv "$tmp/outside.map" "$MAP"             # the outside editor
put "$tmp/outside.rows" 30 15 '#' >"$tmp/merged.rows"
xdotool key ctrl+s
sleep 0.5
rows "$MAP" | cmp -s - "$tmp/outside.rows" || fail "Ctrl+S overwrote a file edited outside"
xdotool key ctrl+r
sleep 0.5
xdotool key r
sleep 0.5
xdotool key ctrl+s
i=0
until rows "$MAP" | cmp -s - "$tmp/merged.rows"; do
    i=$((i + 1))
    [ $i -gt 100 ] && { rows "$MAP" | diff "$tmp/merged.rows" -; fail "Ctrl+R, R, Ctrl+S did not keep both the outside edit (20,9) and the block (30,15)"; }
    sleep 0.1
done
quit_game "fifth run"
echo "$NAME: ok (block saved with Ctrl+S, one-way edits autosaved on Esc, restored with R, undone edits not unsaved, edits merged onto a file changed outside)"
exit 0
