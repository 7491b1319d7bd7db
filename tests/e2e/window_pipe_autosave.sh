#!/bin/sh
# The real game in a window under Xvfb, its map read from a pipe
# (--map <(cat MAP), as /dev/fd/N): unsaved edits are autosaved in the
# data folder, HOME/.local/share/tilenav/autosave/N~HASH.autosave.  It
# tried /dev/fd/N.autosave, which cannot be made, and then said "Ctrl+S
# saves them to /dev/fd/63", which a pipe cannot take:
#   right-click a tile, Esc -> quits with status 0; stdout names the
#                              autosave in the data folder, which holds the
#                              edit; nothing was written beside /dev/fd
# Usage: tests/e2e/window_pipe_autosave.sh BUILD_DIR (from the repo root).
# Skips (exit 77) when Xvfb, xdotool or bash (process substitution) is missing.
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_pipe_autosave "$BUILD"
command -v bash >/dev/null 2>&1 || skip "no bash for --map <(cat MAP)"

MAP=$ROOT/tests/data/render_window.map
H=$tmp/home
mkdir "$H"
# bash execs the game: $! is the game's process
HOME=$H XDG_DATA_HOME= SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
    bash -c 'exec "$0" --map <(cat "$1")' "$GAME" "$MAP" >"$tmp/game.out" 2>"$tmp/game.err" &
GPID=$!
wait_window
rows "$MAP" >"$tmp/orig.rows"
put "$tmp/orig.rows" 30 15 '#' >"$tmp/one.rows"
click_tile 30 15 3
quit_game "Esc with an edit to a map read from a pipe"
AS=$(sed -n 's/^tilenav: unsaved edits written to \(.*\)$/\1/p' "$tmp/game.out" | head -n 1)
case "$AS" in
"$H"/.local/share/tilenav/autosave/*~*.autosave) ;;
*) fail "the edits went to '$AS' (stdout: $(cat "$tmp/game.out"); stderr: $(cat "$tmp/game.err"))" ;;
esac
rows "$AS" | cmp -s - "$tmp/one.rows" || { rows "$AS" | diff "$tmp/one.rows" -; fail "the autosave is not the map with the block at (30,15)"; }
grep -q "Ctrl+S saves them to /dev/fd" "$tmp/game.err" && fail "it said Ctrl+S saves to the pipe"
echo "window_pipe_autosave: ok"
