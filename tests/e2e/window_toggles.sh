#!/bin/sh
# Issue 14's view toggles and agent drawing in the real window under Xvfb,
# driven by xdotool and observed through F12 screenshots (exact colours
# counted inside the map view, x 0..1019, y 120..695, where no text is drawn while the
# mouse rests on the panel).  Every wait is for a condition on the screen;
# nothing is timed.  The simulation is paused (T) before anything is
# measured, so the map view holds still between shots.
#   enemies:  once an enemy is on screen: its fill (#e8553a) and its dark
#             outline (#1a0a08) are both there and large (>= 60 / >= 30 px)
#   Y:        with the flow overlay (F) the arrows change when Y shows the
#             8-connected field (and a caption box appears at the view's
#             top-left), and come back pixel for pixel on Y again
#   Shift+G:  the classic planner (G), explored states (X), replay at the top
#             rate: a goto's replay ends with a frontier (#58d0ff); after
#             Ctrl+R and Shift+G (fast) the same goto's frontier differs;
#             after an edit, Ctrl+R and R (restore) it is fast's again
#   graph:    G back to the graph planner: the same goto's replay fills
#             closed tiles (the view changes) and draws no frontier (the
#             graph search records no opens)
#   U:        zoomed in on the map's middle the character (#4cc9f0) is off
#             screen; U (follow) brings it on screen; U again keeps it
#   panel:    a click on the Shift+P row toggles the surface-graph overlay
#             (the settings file written on Esc has its bit, 64)
# Usage: tests/e2e/window_toggles.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_toggles "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game

# The rows of the map view, y 120..695: BMP rows are stored bottom-up, 1280
# px of 3 bytes (B G R), no padding, so they are one run of bytes.
view_rows() { tail -c +$((54 + 24 * 3840 + 1)) "$1" | head -c $((576 * 3840)); }
count() { # shot rrggbb: pixels of exactly that colour in the map view (x < 1020)
    r=$(printf '%d' "0x$(echo "$2" | cut -c1-2)")
    g=$(printf '%d' "0x$(echo "$2" | cut -c3-4)")
    b=$(printf '%d' "0x$(echo "$2" | cut -c5-6)")
    view_rows "$1" | od -An -v -tu1 -w3 |
        awk -v r="$r" -v g="$g" -v b="$b" '$1 == b && $2 == g && $3 == r && (NR - 1) % 1280 < 1020 { n++ } END { print n + 0 }'
}
keep() { # name: a copy of SHOT for a person to look at (TILENAV_SHOTS=dir)
    [ -n "${TILENAV_SHOTS:-}" ] && cp "$SHOT" "$TILENAV_SHOTS/$NAME-$1.bmp"
    return 0
}
sig() { view_rows "$1" | cksum | cut -d' ' -f1; } # the map view's rows (the panel beside them holds still)
# Shots until the map view stops changing (two in a row equal); SHOT is the last.
settle() { # what-for
    shot
    prev=$(sig "$SHOT")
    k=0
    while :; do
        k=$((k + 1))
        [ $k -gt 60 ] && fail "$1: the view never held still"
        shot
        cur=$(sig "$SHOT")
        [ "$cur" = "$prev" ] && break
        prev=$cur
    done
}
ENEMY=e8553a
OUTLINE=1a0a08
FRONTIER=58d0ff
CHAR=4cc9f0
WHITE=ffffff # the replay's current node (also the character's eyes)

xdotool mousemove --window "$WID" 1150 40 # on the panel: no hover readout
# --- enemies: wait for one on screen, then pause
k=0
while :; do
    k=$((k + 1))
    [ $k -gt 100 ] && fail "no enemy appeared"
    shot
    [ "$(count "$SHOT" $ENEMY)" -gt 0 ] && break
done
xdotool key t
settle "paused"
keep enemies
e=$(count "$SHOT" $ENEMY)
o=$(count "$SHOT" $OUTLINE)
[ "$e" -ge 60 ] || fail "the enemies are small: $e px of fill"
[ "$o" -ge 30 ] || fail "the enemies have no outline: $o px of #$OUTLINE"
echo "$NAME: enemies: $e px fill, $o px outline"

# --- Y: the 8-connected field in the flow overlay
xdotool key f
settle "flow overlay"
a4=$(sig "$SHOT")
xdotool key y
k=0
while :; do
    k=$((k + 1))
    [ $k -gt 60 ] && fail "Y did not change the flow overlay"
    settle "8-connected overlay"
    [ "$(sig "$SHOT")" != "$a4" ] && break
done
keep flow8
xdotool key y
k=0
while :; do
    k=$((k + 1))
    [ $k -gt 60 ] && fail "Y again did not bring the 4-connected overlay back pixel for pixel"
    settle "4-connected overlay"
    [ "$(sig "$SHOT")" = "$a4" ] && break
done
xdotool key f
settle "flow overlay off"

# --- Shift+G: optimal and fast searches replayed (classic planner)
replay_of() { # what [restored]: reset (unless restored), goto (30,21) on the floor, steps until the replay ran
    [ -n "${2:-}" ] || xdotool key ctrl+r
    for k in 1 2 3 4 5; do xdotool key period; done # the character settles on the floor
    settle "$1: reset"
    w0=$(count "$SHOT" $WHITE)
    click_tile 30 21 1
    xdotool mousemove --window "$WID" 1150 40
    k=0
    while :; do # single steps until the bot planned: the replay (10,000 events/s)
        k=$((k + 1)) # has run to its end when its current node's white frame is there
        [ $k -gt 30 ] && fail "$1: no replay after $k single steps"
        xdotool key period
        settle "$1: replay"
        [ "$(count "$SHOT" $WHITE)" -ge $((w0 + 80)) ] && break
    done
}
xdotool key g # classic
xdotool key x
for k in 1 2 3 4; do xdotool key equal; done
replay_of "optimal"
keep optimal
f_opt=$(count "$SHOT" $FRONTIER)
[ "$f_opt" -gt 50 ] || fail "the optimal search's replay drew no frontier ($f_opt px)"
xdotool key shift+g
replay_of "fast"
keep fast
f_fast=$(count "$SHOT" $FRONTIER)
[ "$f_fast" -gt 0 ] || fail "the fast search's replay drew no frontier"
[ "$f_fast" -ne "$f_opt" ] || fail "Shift+G: the fast search's frontier equals the optimal one ($f_opt px)"
echo "$NAME: frontier px: optimal $f_opt, fast $f_fast"
# R (restoring autosaved edits) keeps Shift+G's heuristic: the restored
# world's bot searched with the optimal one while Shift+G still said fast
xdotool key 6 # the item tool: an edit that no search reads, far from this one
click_tile 1 1 1
xdotool key 1
xdotool mousemove --window "$WID" 1150 40
xdotool key ctrl+r # the edit goes to the autosave, and R is offered
xdotool key r
replay_of "fast after R" restored
keep restored
f_rest=$(count "$SHOT" $FRONTIER)
[ "$f_rest" -eq "$f_fast" ] ||
    fail "after R (restore) the goto's frontier is $f_rest px, fast's $f_fast (optimal's $f_opt)"
xdotool key shift+g # optimal again

# --- the graph planner's search replayed
xdotool key g
replay_of "graph"
keep graph
f_graph=$(count "$SHOT" $FRONTIER)
[ "$f_graph" -eq 0 ] || fail "the graph search's replay drew a frontier ($f_graph px)"

# --- U: follow the character
xdotool key ctrl+r
xdotool mousemove --window "$WID" "$(px 20)" "$(py 12)"
xdotool click 4 # wheel up: 2x around the map's middle (the camera stops following)
xdotool mousemove --window "$WID" 1150 40
k=0
while :; do
    k=$((k + 1))
    [ $k -gt 60 ] && fail "zoomed on the middle, the character stays on screen"
    settle "zoomed in"
    [ "$(count "$SHOT" $CHAR)" -eq 0 ] && break
done
xdotool key u
k=0
while :; do
    k=$((k + 1))
    [ $k -gt 60 ] && fail "U did not bring the character on screen"
    settle "following"
    [ "$(count "$SHOT" $CHAR)" -gt 100 ] && break
done
keep follow
xdotool key u # stays: the picture is kept
settle "not following"
[ "$(count "$SHOT" $CHAR)" -gt 100 ] || fail "U off moved the camera away from the character"

# --- the panel's surface-graph switch (the last overlay row), then Esc
xdotool mousemove --window "$WID" $((1280 - 260 + 40)) $((720 - 129 + 3 * 21 + 9))
xdotool click 1
quit_game
S=$tmp/config/tilenav/settings
[ -f "$S" ] || fail "no settings written"
ov=$(sed -n 's/^overlays //p' "$S")
[ -n "$ov" ] && [ $((ov & 64)) -eq 64 ] || fail "the panel's Shift+P row did not switch the surface graph on: overlays $ov"
grep -q '^fast_heuristic 0$' "$S" || fail "Shift+G twice did not leave the optimal heuristic: $(cat "$S")"
echo "$NAME: ok (enemies drawn large with an outline; Y switches the flow overlay and back; Shift+G changes the replayed search; the graph search replays; U follows; the panel switches the surface graph)"
exit 0
