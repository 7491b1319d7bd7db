#!/bin/sh
# The real game in a window under Xvfb: the keyboard moves the character,
# F1/F12/Ctrl+S/Esc do what the help says.  The character's position is
# observed through the edit rule "a block inside the character is refused":
#   right-click the character's head tile         -> refused, map unchanged
#   hold D (walk right) for 0.6 s, right-click it  -> a block: it walked away
#   F1, right-click another tile, F1               -> the click only closed the help
#   F12 beside a FIFO named tilenav-001.bmp        -> tilenav-002.bmp, 1280x720
#                                                     (the name probe never waits on it)
#   Ctrl+S, Esc                                    -> saved, exit 0, no autosave
# Usage: tests/e2e/window_keys.sh BUILD_DIR (from the repo root).  Skips (exit 77) when
# Xvfb or xdotool is missing.  Tile positions: see window_edit_save.sh.
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_keys "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
# From the temporary directory, so F12's screenshot lands there.
(cd "$tmp" && SDL_RENDER_DRIVER=software \
    LSAN_OPTIONS="$GAME_ENV_LSAN" \
    exec "$GAME" --map "$MAP" --assets "$ROOT/assets" >"$tmp/game.out" 2>"$tmp/game.err") &
GPID=$!

wait_window

rows "$MAP" >"$tmp/orig.rows"
put "$tmp/orig.rows" 2 21 '#' >"$tmp/want.rows"

# The character (1x2 tiles) stands on its start (2,22): its head is (2,21).
click_tile 2 21 3
xdotool key ctrl+s
sleep 0.5
rows "$MAP" | cmp -s - "$tmp/orig.rows" || fail "a block inside the character was not refused"

xdotool keydown d
sleep 0.6
xdotool keyup d
sleep 0.3
click_tile 2 21 3

xdotool key F1
sleep 0.2
click_tile 12 4 3                       # closes the help, edits nothing
mkfifo "$tmp/tilenav-001.bmp"           # a name taken by a FIFO: passed over, not opened
xdotool key F12
i=0
until [ -f "$tmp/tilenav-002.bmp" ]; do
    i=$((i + 1))
    [ $i -gt 200 ] && fail "F12 wrote no tilenav-002.bmp (a FIFO named tilenav-001.bmp is there)"
    sleep 0.1
done
sleep 0.3
[ -p "$tmp/tilenav-001.bmp" ] || fail "F12 replaced the FIFO tilenav-001.bmp"
size=$(wc -c <"$tmp/tilenav-002.bmp")
[ "$size" -eq $((54 + 1280 * 720 * 3)) ] || fail "the screenshot is $size bytes, not a 1280x720 24-bit BMP"

xdotool key ctrl+s
sleep 0.3
quit_game
rows "$MAP" | cmp -s - "$tmp/want.rows" || {
    rows "$MAP" | diff "$tmp/want.rows" -
    fail "expected exactly one new block, at (2,21) where the character stood before it walked away"
}
[ -f "$MAP.autosave" ] && fail "an autosave was written although everything was saved"
echo "$NAME: ok (walked with D, refused/accepted edits, F1, F12 screenshot, Ctrl+S, Esc)"
exit 0
