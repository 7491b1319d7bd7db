#!/bin/sh
# The real game in a window under Xvfb: quitting never throws unsaved edits
# away without asking.  MAP.autosave is made a directory, so no autosave can
# be written:
#   right-click a tile, Esc      -> the game stays; stderr (and the status
#                                   line) says why and that Ctrl+S saves, Esc
#                                   again quits
#   a key, SIGTERM (SDL_QUIT, as the window's close button)
#                                -> the key took the first request back: the
#                                   game stays again
#   Ctrl+S, Esc                  -> saved, quits with status 0
#   a new edit, Esc, Esc         -> the second Esc quits: status 1, "unsaved
#                                   edits lost: quit again after the warning"
#   a timed run (--frames) with a script's edit
#                                -> cannot ask: exit 1, "unsaved edits lost:
#                                   the run ended ..."
# and, on another map, an older autosave (a timed run's) never restored:
#   another edit, Ctrl+S         -> the older autosave is still there
#   another edit, Esc            -> it is kept as MAP.autosave.1, MAP.autosave
#                                   holds this session's edits
# and R over unsaved edits (the autosave holds a block at (12,4)):
#   (12,4), (20,9), R, (30,15), R, Ctrl+S
#                                -> R only asked (an edit came between): the
#                                   file holds the three session edits
#   R, Ctrl+Z three times, Ctrl+S -> restored, and undo starts afresh: the file
#                                   is the autosave's (the replaced map's (12,4)
#                                   is not undone)
#   (30,15), R, R, Ctrl+S        -> the second R restores
# Usage: tests/e2e/window_unsaved.sh BUILD_DIR (from the repo root).  Skips
# (exit 77) when Xvfb or xdotool is missing.  Tile positions: see
# window_edit_save.sh.
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_unsaved "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game() {
    SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
        "$GAME" --map "$MAP" --assets "$ROOT/assets" "$@" >"$tmp/game.out" 2>"$tmp/game.err" &
    GPID=$!
}
# Wait until stderr has $1 lines saying "not quitting" ($2: what was asked).
wait_refusals() { # count what
    i=0
    until [ "$(grep -c '^tilenav: not quitting: ' "$tmp/game.err")" -ge "$1" ]; do
        i=$((i + 1))
        kill -0 "$GPID" 2>/dev/null || fail "the game quit on $2 with edits it could not autosave"
        [ $i -gt 300 ] && fail "no 'not quitting' message after $2"
        sleep 0.1
    done
    # the game goes on: it still answers (a block placed and saved below)
    kill -0 "$GPID" 2>/dev/null || fail "the game quit on $2 after refusing"
}
# Wait until the map file $1 holds the rows of $2 ($3: what was asked).
wait_saved() { # file rows what
    i=0
    until rows "$1" | cmp -s - "$2"; do
        i=$((i + 1))
        [ $i -gt 200 ] && fail "$3"
        sleep 0.1
    done
}
# Wait (at most $1 tenths of a second) until the game exits; its status in
# rc ($2: what should have ended it).  Not named wait_exit: that is
# lib/window.sh's, which quit_game uses (30 s, status 0, sanitizer check).
wait_end() { # tenths what
    i=0
    while kill -0 "$GPID" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt "$1" ] && fail "$2"
        sleep 0.1
    done
    wait "$GPID"
    rc=$?
    GPID=""
}
rows "$MAP" >"$tmp/orig.rows"
mkdir "$MAP.autosave"
# nor in the data folder, where an autosave that fails beside the map goes:
# a file where its folder would be
: >"$XDG_DATA_HOME"

# --- Esc with unsaved edits that cannot be autosaved: refused
start_game
wait_window
click_tile 30 15 3
xdotool key Escape
wait_refusals 1 "Esc"
grep -q "^tilenav: not quitting: the unsaved edits cannot be autosaved ($MAP.autosave: .*); Ctrl+S saves them to $MAP, Esc (or closing the window) again quits and loses them\$" "$tmp/game.err" ||
    fail "the refusal does not name the autosave, the reason and what to do"

# --- a key between: SIGTERM (SDL_QUIT, as the close button) asks again
xdotool key u
sleep 0.2
kill -TERM "$GPID"
wait_refusals 2 "SDL_QUIT (SIGTERM) after another key"

# --- Ctrl+S keeps the edit; then Esc quits
put "$tmp/orig.rows" 30 15 '#' >"$tmp/saved.rows"
xdotool key ctrl+s
wait_saved "$MAP" "$tmp/saved.rows" "Ctrl+S did not save the block at (30,15)"
quit_game "after Ctrl+S"
grep -q 'unsaved edits lost' "$tmp/game.err" && fail "edits reported lost after Ctrl+S"

# --- a second Esc in a row quits and loses the edits, saying so
mkdir -p "$MAP.autosave"
start_game
wait_window
click_tile 20 9 3
xdotool key Escape
wait_refusals 1 "the first Esc"
xdotool key Escape
wait_end 300 "the second Esc did not quit"
[ $rc -eq 1 ] || fail "quitting with lost edits exited with $rc, want 1"
sanitizer_check
grep -q "^tilenav: unsaved edits lost: quit again after the warning, and the autosave could not be written: $MAP.autosave: " "$tmp/game.err" ||
    fail "the second Esc did not say the edits are lost"
rows "$MAP" | cmp -s - "$tmp/saved.rows" || fail "the map file changed without a save"

# --- a timed run cannot ask: it ends, and says clearly what was lost
printf '1 toggle 12 4 block\n' >"$tmp/edit.script"
mkdir -p "$MAP.autosave"
start_game --script "$tmp/edit.script" --frames 5
wait_end 600 "the timed run did not end"
[ $rc -eq 1 ] || fail "a timed run that lost its edits exited with $rc, want 1"
grep -q "^tilenav: unsaved edits lost: the run ended (--frames or a script error) with unsaved edits, and the autosave could not be written: $MAP.autosave: " "$tmp/game.err" ||
    fail "the timed run did not say why its edits are lost"
# --- an older autosave the session never restored survives Ctrl+S, and is
# moved aside (MAP.autosave.1), not overwritten, by this session's autosave
MAP2=$tmp/room2.map
cp tests/data/render_window.map "$MAP2"
printf '1 toggle 12 4 block\n' >"$tmp/old.script"
SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" "$GAME" --map "$MAP2" \
    --assets "$ROOT/assets" --script "$tmp/old.script" --frames 5 >"$tmp/game.out" 2>"$tmp/game.err" ||
    fail "the timed run that leaves an autosave failed"
put "$tmp/orig.rows" 12 4 '#' >"$tmp/old.rows"
rows "$MAP2.autosave" | cmp -s - "$tmp/old.rows" || fail "the timed run left no autosave with (12,4)"
MAP=$MAP2
start_game
wait_window
click_tile 30 15 3                       # a different edit; R is never pressed
put "$tmp/orig.rows" 30 15 '#' >"$tmp/saved2.rows"
xdotool key ctrl+s
wait_saved "$MAP2" "$tmp/saved2.rows" "Ctrl+S did not save the block at (30,15) to $MAP2"
[ -f "$MAP2.autosave" ] || fail "Ctrl+S removed an autosave that was never restored"
rows "$MAP2.autosave" | cmp -s - "$tmp/old.rows" || fail "Ctrl+S changed the older autosave"
click_tile 20 9 3
put "$tmp/saved2.rows" 20 9 '#' >"$tmp/new.rows"
quit_game "with an older autosave"
rows "$MAP2.autosave.1" | cmp -s - "$tmp/old.rows" ||
    fail "the older autosave was not kept as $MAP2.autosave.1"
rows "$MAP2.autosave" | cmp -s - "$tmp/new.rows" || fail "the session's autosave is not its edits"
grep -q "^tilenav: an older autosave (edits never restored) is kept as $MAP2.autosave.1\$" "$tmp/game.out" ||
    fail "quitting did not say where the older autosave went"

# --- R over unsaved edits asks first; a restore starts the undo history afresh
MAP=$tmp/room3.map
cp tests/data/render_window.map "$MAP"
cp "$MAP2.autosave.1" "$MAP.autosave" # a block at (12,4)
start_game
wait_window
click_tile 12 4 3
click_tile 20 9 3
xdotool key r
click_tile 30 15 3
xdotool key r # an edit came between: it asks again
put "$tmp/old.rows" 20 9 "#" >"$tmp/two.rows"
put "$tmp/two.rows" 30 15 "#" >"$tmp/three.rows"
xdotool key ctrl+s
wait_saved "$MAP" "$tmp/three.rows" "R over unsaved edits replaced them (or Ctrl+S failed)"
xdotool key r # nothing unsaved now: restores at once
xdotool key ctrl+z
xdotool key ctrl+z
xdotool key ctrl+z
xdotool key ctrl+s
wait_saved "$MAP" "$tmp/old.rows" "after R, Ctrl+Z undid an edit of the replaced map"
quit_game "after a restore"
cp "$MAP2.autosave.1" "$MAP.autosave"
cp tests/data/render_window.map "$MAP"
start_game
wait_window
click_tile 30 15 3
xdotool key r
xdotool key r
xdotool key ctrl+s
wait_saved "$MAP" "$tmp/old.rows" "R twice did not restore the autosave"
quit_game "after R twice"

# --- a reset's autosave survives a Ctrl+S of later edits (a playtest lost
# the reset's edits so: Ctrl+R, an edit, R asks "Ctrl+S first keeps them",
# Ctrl+S removed the autosave as this session's), and R then restores it
MAP=$tmp/room4.map
cp tests/data/render_window.map "$MAP"
start_game
wait_window
click_tile 12 4 3
xdotool key ctrl+r
i=0
until [ -f "$MAP.autosave" ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "Ctrl+R wrote no autosave"
    sleep 0.1
done
click_tile 30 15 3
xdotool key r
xdotool key ctrl+s
wait_saved "$MAP" "$tmp/saved2.rows" "Ctrl+S after a reset did not save the new edit"
sleep 0.3
rows "$MAP.autosave" 2>/dev/null | cmp -s - "$tmp/old.rows" ||
    fail "Ctrl+S after a reset removed (or changed) the autosave of the reset's edits"
xdotool key r
xdotool key ctrl+s
wait_saved "$MAP" "$tmp/old.rows" "R after that Ctrl+S did not restore the reset's edits"
quit_game "after a reset"
echo "$NAME: ok (Esc and SDL_QUIT refused while the autosave fails; Ctrl+S, then Esc; Esc twice loses the edits, saying so; an older autosave survives Ctrl+S and is moved aside; R over unsaved edits asks first, a restore starts undo afresh; a reset's autosave survives a later Ctrl+S)"
exit 0
