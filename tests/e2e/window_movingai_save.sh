#!/bin/sh
# A Moving AI map played in the window and given a one-way platform, which
# the format has no tile for: Ctrl+S leaves the map file as it was, writes
# the edits to MAP.autosave in tilenav's format and says so on the status
# line and stderr (it said to use a script's `save FILE`, which the window
# has not, and kept the edits nowhere until quitting); Esc then quits with
# them in the autosave, the map file still untouched.
# Usage: tests/e2e/window_movingai_save.sh BUILD_DIR (run from the repo
# root).  Skips (exit 77) when Xvfb or xdotool is missing.
#
# The map is tests/data/render_window.map as a Moving AI map (blocks '@',
# every other tile '.'): 40x24 tiles at 24 px, see tests/e2e/lib/window.sh.
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_movingai_save "$BUILD"

MAP=$tmp/room.map
{
    printf 'type octile\nheight 24\nwidth 40\nmap\n'
    rows tests/data/render_window.map | tr -c '#\n' '.' | tr '#' '@'
} >"$MAP"
cp "$MAP" "$tmp/orig.map"

SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
    "$GAME" --map "$MAP" >"$tmp/game.out" 2>"$tmp/game.err" &
GPID=$!
wait_window

click_tile 20 9 2                        # middle-click: one-way
sleep 0.3
xdotool key ctrl+s
i=0
until [ -s "$MAP.autosave" ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "Ctrl+S with a one-way platform on a Moving AI map wrote no autosave"
    sleep 0.1
done
sleep 0.3
cmp -s "$MAP" "$tmp/orig.map" || fail "Ctrl+S changed the Moving AI map"
[ "$(head -1 "$MAP.autosave")" = "tilenav-map 1" ] || fail "the autosave is not a tilenav map"
[ "$(rows "$MAP.autosave" | sed -n 10p | cut -c21)" = "=" ] ||
    fail "the autosave has no one-way platform at (20,9)"
want="tilenav: not saved: $MAP is a Moving AI map, which cannot hold one-way platforms (the file is untouched); the edits are in $MAP.autosave, a tilenav map"
grep -qF "$want" "$tmp/game.err" || fail "stderr does not say why and where the edits went: want '$want...'"
grep -q 'save FILE' "$tmp/game.err" && fail "the window advised a script's save FILE"
quit_game
cmp -s "$MAP" "$tmp/orig.map" || fail "quitting changed the Moving AI map"
[ "$(rows "$MAP.autosave" | sed -n 10p | cut -c21)" = "=" ] || fail "the autosave lost the one-way platform on Esc"
grep -q "unsaved edits written to $MAP.autosave" "$tmp/game.out" || fail "Esc did not say where the edits are"
echo "$NAME: ok (Ctrl+S on a Moving AI map with a one-way platform: map untouched, edits in the autosave, said why and where)"
exit 0
