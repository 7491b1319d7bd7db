#!/bin/sh
# Issue 14's controls in the real window under Xvfb, driven by xdotool.  The
# world's state is observed through saved maps (Ctrl+S), the edit rule "a
# block inside the character is refused", F12 screenshots (pixels of a
# colour counted) and the settings file; no timing is asserted.
#   inspect:  Ctrl+click on the character pins a card (accent-coloured frame);
#             Ctrl+click in the view's margin, off the map, unpins it
#   pause:    T, then D held: the character stays (a block on its head is
#             refused); '.' pressed (10 at a time) with D held walks it away
#   undo:     right-click a block, Ctrl+Z, Ctrl+S: not saved; Ctrl+Y: saved
#   reset:    an unsaved block, Ctrl+R: the world reloads without it (Ctrl+S
#             keeps the file as it was) and MAP.autosave holds it
#   replay:   G (classic), X, a goto click, Q (until it does): the frontier
#             colour appears on screen
#   camera:   wheel up over a tile, right-click: the same tile (zoom toward
#             the cursor); Ctrl+drag 96 px right, right-click: 3 tiles left
#             of it (32 px tiles at 2x); L held (until it has panned): a
#             tile further right;
#             O, click: the first layout again
#   picker:   Tab, Up, Enter opens b.map; an edit saved lands in b.map
#   settings: ] (speed), Esc: the settings file holds "speed 4"; a malformed
#             settings file is ignored with file:line on stderr
# Usage: tests/e2e/window_controls.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_controls "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
cp tests/data/render_window.map "$tmp/b.map"

# Ctrl+S, then wait until the map file's rows equal $2 (a rows file).
save_and_expect() { # what-for want-rows [map]
    m=${3:-$MAP}
    rm -f "$m" # only a new save can match
    xdotool key ctrl+s
    i=0
    until [ -f "$m" ] && rows "$m" | cmp -s - "$2"; do
        i=$((i + 1))
        [ $i -gt 200 ] && { rows "$m" | diff "$2" -; fail "$1"; }
        sleep 0.1
    done
}
SHOT_SETTLE=0.2 # (shot: lib/window.sh)
count_colour() { # bmp rrggbb: pixels of exactly that colour
    r=$(printf '%d' "0x$(echo "$2" | cut -c1-2)")
    g=$(printf '%d' "0x$(echo "$2" | cut -c3-4)")
    b=$(printf '%d' "0x$(echo "$2" | cut -c5-6)")
    od -An -v -tu1 -w3 -j54 "$1" | awk -v r="$r" -v g="$g" -v b="$b" \
        '$1 == b && $2 == g && $3 == r { n++ } END { print n + 0 }'
}
ACCENT=4cc9f0   # TN_COL_ACCENT (ui.h)
FRONTIER=58d0ff # PB_OPEN_COL (render.c): the replay's open set

start_game
rows "$MAP" >"$tmp/cur.rows"

# A Ctrl+left click at window pixel (X, Y), the modifier held around it.
ctrl_click() {
    xdotool mousemove --window "$WID" "$1" "$2"
    sleep 0.2
    xdotool keydown ctrl
    sleep 0.2
    xdotool click 1
    sleep 0.2
    xdotool keyup ctrl
    sleep 0.5
}

# --- inspect: the character stands on (2,22), its head is (2,21)
shot
s0=$SHOT
a0=$(count_colour "$s0" $ACCENT)
f0=$(count_colour "$s0" $FRONTIER)
[ "$f0" -eq 0 ] || fail "the frontier colour is on screen before any search ($f0 px)"
ctrl_click "$(px 2)" "$(py 22)"
shot
s1=$SHOT
a1=$(count_colour "$s1" $ACCENT)
[ "$a1" -gt $((a0 + 200)) ] || fail "Ctrl+click on the character pinned no card (accent px $a0 -> $a1)"
# Ctrl+click in the view's margin, left of the map (x 0..29): nothing there,
# the card is unpinned (the margin took neither a pan nor an inspect)
ctrl_click 10 "$(py 10)"
shot
a1b=$(count_colour "$SHOT" $ACCENT)
[ "$a1b" -lt $((a0 + 200)) ] || fail "Ctrl+click in the margin left the card pinned (accent px $a1 -> $a1b)"
ctrl_click "$(px 2)" "$(py 22)" # pinned again for what follows

# --- pause: nothing moves; '.' steps
xdotool key t
sleep 0.3
xdotool keydown d
sleep 0.8
xdotool keyup d
click_tile 2 21 3
save_and_expect "paused, the character walked away (a block on its head was accepted)" "$tmp/cur.rows"
# Single steps with D held: 10 '.' presses, then a right-click on (2,21) and
# Ctrl+S, until the click is accepted (the game runs one requested step per
# frame, so a slow or stalled game has not run all of them when the click
# arrives: it is refused, and more steps are asked for); at most 120 steps.
put "$tmp/cur.rows" 2 21 '#' >"$tmp/want.rows"
xdotool keydown d
k=0
while :; do
    k=$((k + 1))
    [ $k -gt 12 ] && { xdotool keyup d; fail "120 single steps with D held did not walk the character off (2,21)"; }
    for j in 1 2 3 4 5 6 7 8 9 10; do xdotool key period; sleep 0.05; done
    sleep 0.3
    click_tile 2 21 3
    rm -f "$MAP"
    xdotool key ctrl+s
    i=0
    until [ -f "$MAP" ]; do
        i=$((i + 1))
        [ $i -gt 200 ] && { xdotool keyup d; fail "Ctrl+S wrote no map (single steps, round $k)"; }
        sleep 0.1
    done
    rows "$MAP" | cmp -s - "$tmp/want.rows" && break
    rows "$MAP" | cmp -s - "$tmp/cur.rows" || {
        rows "$MAP" | diff "$tmp/cur.rows" -
        xdotool keyup d
        fail "single steps, round $k: the map changed other than by a block at (2,21)"
    }
done
xdotool keyup d
cp "$tmp/want.rows" "$tmp/cur.rows"
xdotool key t                            # run again
sleep 0.3

# --- undo / redo
click_tile 30 15 3
sleep 0.2
xdotool key ctrl+z
save_and_expect "Ctrl+Z did not undo the block at (30,15)" "$tmp/cur.rows"
xdotool key ctrl+y
put "$tmp/cur.rows" 30 15 '#' >"$tmp/want.rows"
save_and_expect "Ctrl+Y did not redo the block at (30,15)" "$tmp/want.rows"
cp "$tmp/want.rows" "$tmp/cur.rows"

# --- reset: an unsaved edit goes to the autosave, the world reloads
click_tile 35 4 3
sleep 0.2
xdotool key ctrl+r
sleep 0.5
i=0
until [ -f "$MAP.autosave" ]; do
    i=$((i + 1))
    [ $i -gt 200 ] && fail "Ctrl+R with an unsaved edit wrote no autosave"
    sleep 0.1
done
put "$tmp/cur.rows" 35 4 '#' >"$tmp/auto.rows"
rows "$MAP.autosave" | cmp -s - "$tmp/auto.rows" || fail "the autosave does not hold the unsaved block"
save_and_expect "after Ctrl+R the world still had the unsaved block" "$tmp/cur.rows"

# --- replay of a goto search
xdotool key g                            # the classic planner: its search has a frontier
xdotool key x                            # explored states on
sleep 0.2
click_tile 30 21 1                       # goto
# Q steps the replay of the search behind the plan; the bot plans in the
# frames after the click (however long the game takes to run them): Q and
# a screenshot until the frontier is drawn, at most 60 times.
k=0
while :; do
    k=$((k + 1))
    xdotool key q
    shot
    f2=$(count_colour "$SHOT" $FRONTIER)
    [ "$f2" -gt 50 ] && break
    [ $k -ge 60 ] && fail "the replay drew no frontier ($f2 px of #$FRONTIER after $k Q presses)"
done

# --- camera: zoom toward the cursor, pan by dragging, fit
xdotool key u                            # stop following (the map fits anyway)
sleep 0.2
xdotool mousemove --window "$WID" "$(px 20)" "$(py 9)"
sleep 0.2
xdotool click 4                          # wheel up: 1.5x -> 2x
sleep 0.4
xdotool click 3
put "$tmp/cur.rows" 20 9 '#' >"$tmp/want.rows"
save_and_expect "after zooming at the cursor, the tile under it changed" "$tmp/want.rows"
cp "$tmp/want.rows" "$tmp/cur.rows"
X0=$(px 20)
Y0=$(py 9)
xdotool keydown ctrl
sleep 0.2
xdotool mousedown 1
sleep 0.2
for dx in 24 48 72 96; do xdotool mousemove --window "$WID" $((X0 + dx)) "$Y0"; sleep 0.1; done
sleep 0.2
xdotool mouseup 1
sleep 0.2
xdotool keyup ctrl
sleep 0.3
xdotool mousemove --window "$WID" "$X0" "$Y0"
sleep 0.2
xdotool click 3
put "$tmp/cur.rows" 17 9 '#' >"$tmp/want.rows"
save_and_expect "Ctrl+drag 96 px did not pan the view by 3 tiles" "$tmp/want.rows"
cp "$tmp/want.rows" "$tmp/cur.rows"
# L held pans right; how far depends on how many frames the game ran while
# it was held (none at all on a stalled machine): held 0.4 s, then a
# right-click at (17,9)'s old place.  Still on (17,9) (the pan was shorter
# than half a tile: the block there was taken away), Ctrl+Z and L again, at
# most 10 times; anywhere else it must be a tile of row 9 right of x = 17.
k=0
while :; do
    k=$((k + 1))
    xdotool keydown l
    sleep 0.4
    xdotool keyup l
    sleep 0.3
    xdotool mousemove --window "$WID" "$X0" "$Y0"
    sleep 0.2
    xdotool click 3
    rm -f "$MAP"
    xdotool key ctrl+s
    i=0
    until [ -f "$MAP" ]; do
        i=$((i + 1))
        [ $i -gt 200 ] && fail "no save after the L pan"
        sleep 0.1
    done
    # the tiles that changed ("x y" each)
    changed=$(rows "$MAP" | awk -v ref="$tmp/cur.rows" 'BEGIN { while ((getline l < ref) > 0) r[n++] = l }
        { for (x = 1; x <= length($0); x++) if (substr($0, x, 1) != substr(r[NR - 1], x, 1)) print x - 1, NR - 1 }')
    [ "$changed" = "17 9" ] && [ $k -lt 10 ] || break
    xdotool key ctrl+z                   # not panned far enough yet: undo, pan on
    save_and_expect "Ctrl+Z did not undo the click at (17,9) during the L pan" "$tmp/cur.rows"
done
# exactly one tile changed, in row 9, right of x = 17
set -- $changed
[ $# -eq 2 ] && [ "$2" -eq 9 ] && [ "$1" -gt 17 ] || fail "L did not pan the view right (changed: $changed, after $k tries)"
rows "$MAP" >"$tmp/cur.rows"
xdotool key o                            # the whole map: 1.5x, centred
sleep 0.4
click_tile 10 5 3
put "$tmp/cur.rows" 10 5 '#' >"$tmp/want.rows"
save_and_expect "O did not bring back the whole-map layout" "$tmp/want.rows"
cp "$tmp/want.rows" "$tmp/cur.rows"

# --- map picker: b.map sorts before room.map
xdotool key Tab
sleep 0.4
xdotool key Up
sleep 0.2
xdotool key Return
sleep 0.8
rows "$tmp/b.map" >"$tmp/b.rows"
click_tile 5 5 3
put "$tmp/b.rows" 5 5 '#' >"$tmp/bwant.rows"
save_and_expect "after picking b.map, Ctrl+S did not save the edit into it" "$tmp/bwant.rows" "$tmp/b.map"
rows "$MAP" | cmp -s - "$tmp/cur.rows" || fail "picking b.map changed room.map"

# --- settings persist
xdotool key bracketright                 # 1x -> 2x
sleep 0.2
xdotool key bracketright                 # -> 4x
sleep 0.2
quit_game
S=$tmp/config/tilenav/settings
[ -f "$S" ] || fail "no settings file at $S"
grep -q '^speed 5$' "$S" || fail "the settings file does not hold the speed index 5 (4x): $(cat "$S")"
grep -q '^overlays ' "$S" || fail "the settings file holds no overlays"
printf 'speed fast\n' >"$S"
start_game
i=0
until grep -q "settings ignored: $S:1: expected 'NAME NUMBER'" "$tmp/game.err"; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "a malformed settings file was not reported: $(cat "$tmp/game.err")"
    sleep 0.1
done
quit_game
echo "$NAME: ok (inspect card, pause and single steps, undo/redo, reset with autosave, search replay, zoom at cursor, drag and key pan, fit, map picker, settings)"
exit 0
