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
(cd "$tmp" && SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
    exec "$GAME" --map "$MAP" --assets "$ROOT/assets" >"$tmp/game.out" 2>"$tmp/game.err") &
GPID=$!

# the game's window once it has taken the settings' size (it opens at
# 1280x720, then resizes): its geometry, and where it is
i=0
geo=""
while :; do
    i=$((i + 1))
    kill -0 "$GPID" 2>/dev/null || fail "the game exited early"
    for w in $(xdotool search --onlyvisible --name '^tilenav( - .*)?$' 2>/dev/null); do
        geo=$(xdotool getwindowgeometry "$w" 2>/dev/null | tr '\n' ' ')
        WID=$w
    done
    case "$geo" in *"Geometry: 1280x720"* | "") ;; *) break ;; esac
    [ $i -gt 200 ] && fail "the window never took a size from the settings (stderr: $(cat "$tmp/game.err"); geometry: $geo)"
    sleep 0.1
done
sleep 0.5
geo=$(xdotool getwindowgeometry "$WID" | tr '\n' ' ')
case "$geo" in
*"Position: 0,0 "*"Geometry: 1280x800"*) ;;
*) fail "a 2000x1200 settings size on a 1280x800 display gave: $geo" ;;
esac
grep -q "^tilenav: the settings' window size 2000x1200 is larger than the display's 1280x800: the window is 1280x800$" \
    "$tmp/game.err" || fail "no note on stderr: $(cat "$tmp/game.err")"
xdotool windowfocus --sync "$WID" 2>/dev/null
quit_game
grep -q '^window_w 1280$' "$S" && grep -q '^window_h 800$' "$S" ||
    fail "the settings file does not hold the window's size: $(cat "$S")"
echo "$NAME: ok (a settings window size larger than the display is cut to it)"
exit 0
