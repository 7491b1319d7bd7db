#!/bin/sh
# The real game in a window under Xvfb: the keyboard moves the character,
# F1/F12/Ctrl+S/Esc do what the help says.  The character's position is
# observed through the edit rule "a block inside the character is refused":
#   right-click the character's head tile         -> refused, map unchanged
#   hold D (walk right), right-click it            -> a block once it walked away
#   Shift+right-click while the game is stopped    -> a one-way platform (the
#                                                     click read with Shift)
#   F1, right-click another tile, F1               -> the click only closed the help
#   R (no autosave)                                -> a message says what R does
#   F12 beside a FIFO named tilenav-002.bmp        -> tilenav-003.bmp, 1280x720
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
start_game

# R with no autosave offered answered nothing (R is reset in many games):
# the status line now holds a message (TN_COL_WARN, ui.h) instead of the
# tool's hint (dim).  F12 right after it: its picture, tilenav-001.bmp.
xdotool key r
xdotool key F12
i=0
until [ -f "$tmp/tilenav-001.bmp" ]; do
    i=$((i + 1))
    [ $i -gt 200 ] && fail "F12 wrote no tilenav-001.bmp"
    sleep 0.1
done
sleep 0.3
# the status line: the BMP's bottom 24 rows (stored first), left of the panel
warn=$(od -An -v -tu1 -w3 -j54 -N $((1280 * 24 * 3)) "$tmp/tilenav-001.bmp" |
    awk '(NR - 1) % 1280 < 1020 && $1 == 92 && $2 == 198 && $3 == 255 { n++ } END { print n + 0 }')
[ "$warn" -gt 0 ] || fail "R with no autosave left the status line without a message"

rows "$MAP" >"$tmp/orig.rows"
put "$tmp/orig.rows" 2 21 '#' >"$tmp/want.rows"

# Ctrl+S, and wait until the map file is written again (it is removed first,
# so only this save can bring it back): every key and click sent before has
# then been handled.
save_now() { # what-for
    rm -f "$MAP"
    xdotool key ctrl+s
    i=0
    until [ -f "$MAP" ]; do
        i=$((i + 1))
        [ $i -gt 300 ] && fail "Ctrl+S wrote no $MAP ($1)"
        sleep 0.1
    done
}

# The character (1x2 tiles) stands on its start (2,22): its head is (2,21).
click_tile 2 21 3
save_now "after a click on the character"
rows "$MAP" | cmp -s - "$tmp/orig.rows" || fail "a block inside the character was not refused"

# D held walks it away: a right-click on (2,21) is refused while the
# character is there and accepted once it has left (how soon depends on the
# frame rate: the game may not even run while D is held, so it is held until
# the click is accepted, or for at most 40 tries).
xdotool keydown d
k=0
while :; do
    k=$((k + 1))
    [ $k -gt 40 ] && { xdotool keyup d; fail "D held (40 tries) did not walk the character off (2,21)"; }
    sleep 0.3
    click_tile 2 21 3
    save_now "D held, try $k"
    rows "$MAP" | cmp -s - "$tmp/want.rows" && break
    rows "$MAP" | cmp -s - "$tmp/orig.rows" || {
        rows "$MAP" | diff "$tmp/orig.rows" -
        xdotool keyup d
        fail "D held, try $k: the map changed other than by a block at (2,21)"
    }
done
xdotool keyup d

# A click is read with the modifiers held when it was made, however late
# the game gets to it: with the game stopped (SIGSTOP, as a stalled frame),
# Shift down, right-click (20,9), Shift up; continued, it handles all three
# at once: (20,9) is a one-way platform (Shift+right-click), not a block.
put "$tmp/want.rows" 20 9 '=' >"$tmp/want2.rows"
xdotool mousemove --window "$WID" "$(px 20)" "$(py 9)"
sleep 0.2
kill -STOP "$GPID"
xdotool keydown shift
xdotool click 3
xdotool keyup shift
kill -CONT "$GPID"
save_now "after a Shift+right-click made while the game was stopped"
rows "$MAP" | cmp -s - "$tmp/want2.rows" || {
    rows "$MAP" | diff "$tmp/want2.rows" -
    fail "a Shift+right-click the game handled late was not read as one (a one-way at (20,9))"
}
mv "$tmp/want2.rows" "$tmp/want.rows"

xdotool key F1
sleep 0.2
click_tile 12 4 3                       # closes the help, edits nothing
mkfifo "$tmp/tilenav-002.bmp"           # a name taken by a FIFO: passed over, not opened
xdotool key F12
i=0
until [ -f "$tmp/tilenav-003.bmp" ]; do
    i=$((i + 1))
    [ $i -gt 200 ] && fail "F12 wrote no tilenav-003.bmp (a FIFO named tilenav-002.bmp is there)"
    sleep 0.1
done
sleep 0.3
[ -p "$tmp/tilenav-002.bmp" ] || fail "F12 replaced the FIFO tilenav-002.bmp"
size=$(wc -c <"$tmp/tilenav-003.bmp")
[ "$size" -eq $((54 + 1280 * 720 * 3)) ] || fail "the screenshot is $size bytes, not a 1280x720 24-bit BMP"

xdotool key ctrl+s
sleep 0.3
quit_game
rows "$MAP" | cmp -s - "$tmp/want.rows" || {
    rows "$MAP" | diff "$tmp/want.rows" -
    fail "expected exactly one new block, at (2,21) where the character stood before it walked away, and the one-way at (20,9)"
}
[ -f "$MAP.autosave" ] && fail "an autosave was written although everything was saved"
echo "$NAME: ok (walked with D, refused/accepted edits, F1, F12 screenshot, Ctrl+S, Esc)"
exit 0
