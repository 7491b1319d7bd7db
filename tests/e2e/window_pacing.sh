#!/bin/sh
# The window's frame loop is paced (issue 12, item 13): a window run of
# --frames 180 steps (3 s of game time) reports on stderr how many frames it
# drew and how they were limited ("vsync, cap N Hz" or "cap N Hz"), and
# never draws more than N/60 frames per step (plus a little slack for the
# start).  Not a timing assert: a slow machine only draws fewer frames; an
# uncapped loop on any machine draws several times more.
# Usage: tests/e2e/window_pacing.sh BUILD_DIR (from the repo root).  Skips
# (exit 77) when Xvfb or xdotool is missing.
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_pacing "$BUILD"

STEPS=180
SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
    "$GAME" --map tests/data/small.map --frames $STEPS >"$tmp/game.out" 2>"$tmp/game.err" &
GPID=$!
wait_exit 120 "end after --frames $STEPS"
line=$(grep '^tilenav: [0-9]* steps, [0-9]* frames drawn (' "$tmp/game.err")
[ -n "$line" ] || fail "no pacing line on stderr"
steps=$(echo "$line" | sed 's/^tilenav: \([0-9]*\) steps.*/\1/')
drawn=$(echo "$line" | sed 's/.* steps, \([0-9]*\) frames drawn.*/\1/')
hz=$(echo "$line" | sed 's/.*cap \([0-9]*\) Hz.*/\1/')
[ "$steps" -eq $STEPS ] || fail "ran $steps steps, not $STEPS"
case "$hz" in '' | *[!0-9]*) fail "no cap in: $line" ;; esac
max=$((steps * hz * 11 / 600 + 30))
[ "$drawn" -le "$max" ] || fail "$drawn frames for $steps steps at a $hz Hz cap (at most $max): the loop is not paced"
echo "$NAME: ok ($line; at most $max allowed)"
exit 0
