#!/bin/sh
# The top bar's simulation-speed slider says the new speed on the status
# line, as '[' and ']' do (a playtest: a click on the slider changed the
# speed without a word).  Paused (T), so the frame number and the
# message's time left hold still: a click on the slider's 1/8x stop, F12;
# then ']' and '[' (back to 1/8x, "simulation speed 1/8x ..."), F12.  The
# two shots' status lines (the frame's bottom 24 rows) are equal byte for
# byte; before the fix the first still said "paused: ...".
# Usage: tests/e2e/window_bar_speed.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_bar_speed "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game

# The status line, y 696..719: BMP rows are stored bottom-up, 1280 px of
# 3 bytes, no padding: the first 24 rows after the 54-byte header.
status_rows() { tail -c +55 "$1" | head -c $((24 * 3840)); }

xdotool key t # paused: "paused: '.' steps once, T resumes"
sleep 0.3
# the speed slider's track (ui.c bar_rect, bar_track): x 268 (1/8x) .. 358 (4x)
xdotool mousemove --window "$WID" 268 16
sleep 0.2
xdotool click 1
sleep 0.3
shot
A=$SHOT
xdotool key bracketright
sleep 0.2
xdotool key bracketleft
sleep 0.3
shot
B=$SHOT
status_rows "$A" >"$tmp/a.rows"
status_rows "$B" >"$tmp/b.rows"
if ! cmp -s "$tmp/a.rows" "$tmp/b.rows"; then
    [ -n "${TILENAV_SHOTS:-}" ] && cp "$A" "$B" "$TILENAV_SHOTS/" 2>/dev/null
    fail "after a click on the speed slider's 1/8x stop the status line is not the one '[' gives (\"simulation speed 1/8x ...\")"
fi
quit_game
S=$tmp/config/tilenav/settings
grep -q '^speed 0$' "$S" || fail "the slider did not set speed 1/8x: $(cat "$S")"
echo "$NAME: ok (the speed slider says the new speed as '[' does)"
exit 0
