#!/bin/sh
# A settings file whose window size is larger than the display (saved on a
# bigger monitor, or written by hand: the file takes up to 8192x8192) gives
# a window no larger than the display's usable area, with a note on stderr;
# before the fix a 2000x1200 window put the panel and the status line off
# the 1280x800 screen (and at 8192x8192 nothing was shown at all).  On Esc
# the file holds the size the window had.
# Usage: tests/e2e/window_settings_size.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_settings_size "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
S=$tmp/config/tilenav/settings
mkdir -p "$tmp/config/tilenav"
printf 'window_w 2000\nwindow_h 1200\n' >"$S"
launch_game

# the game's window once it has left the 1280x720 it opens at (as
# generous as wait_window: a sanitizer build on a loaded 2-core machine
# starts slowly)
i=0
geo=""
WID=""
while :; do
    i=$((i + 1))
    kill -0 "$GPID" 2>/dev/null || fail "the game exited early"
    for w in $(xdotool search --onlyvisible --name '^tilenav( - .*)?$' 2>/dev/null); do
        g=$(xdotool getwindowgeometry "$w" 2>/dev/null | tr '\n' ' ')
        case "$g" in *"Geometry: 1280x720"* | "") ;; *) geo=$g WID=$w ;; esac
    done
    [ -n "$WID" ] && break
    [ $i -gt 400 ] && fail "the window never took a size from the settings after 40 s (stderr: $(cat "$tmp/game.err"))"
    sleep 0.1
done
# then its size and its place: two requests, which a slow or loaded
# machine may let a poll see apart (a fixed sleep between them was a race)
i=0
until case "$geo" in *"Position: 0,0 "*"Geometry: 1280x800"*) true ;; *) false ;; esac; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "a 2000x1200 settings size on a 1280x800 display gave: $geo"
    sleep 0.1
    geo=$(xdotool getwindowgeometry "$WID" 2>/dev/null | tr '\n' ' ')
done
# focus it for the Esc below: bounded, as in wait_window (--sync alone
# waits for good on a window that never takes the focus)
timeout 3 xdotool windowfocus --sync "$WID" 2>/dev/null
quit_game
# stderr once the game has exited: all of it is written
grep -q "^tilenav: the settings' window size 2000x1200 is larger than the display's 1280x800: the window is 1280x800$" \
    "$tmp/game.err" || fail "no note on stderr: $(cat "$tmp/game.err")"
grep -q '^window_w 1280$' "$S" && grep -q '^window_h 800$' "$S" ||
    fail "the settings file does not hold the window's size: $(cat "$S")"
echo "$NAME: ok (a settings window size larger than the display is cut to it)"
exit 0
