#!/bin/sh
# The help (F1) in the real window under Xvfb: "F1, Esc or a click closes
# this help (the game waits)", and a click on the map behind it only
# closes it (window_keys.sh).  The keys did not wait: P, G and ']' pressed
# over the help switched the path overlay, the planner and the speed
# behind it, held L panned the camera and Ctrl+Z undid an edit, all out
# of sight.  Ctrl+F1 neither opened nor closed the help (Shift+F1 did).
# Now:
#   T, right-click a tile (a block: an unsaved edit), wheel up
#   right-button down on (21,5) (a stroke: a block), F12, Ctrl+F1 (opens it)
#   the pointer dragged to (24,5), released; L held, P, G, ']', Ctrl+Z,
#   Ctrl+R while the help shows  -> nothing happens (F1 ended the stroke)
#   Ctrl+Shift+F1 (closes it), F12: the map view as before (not panned, the
#   block there)
#   X                                                   -> the explored overlay
#   Esc                                                 -> the edit goes to
#       MAP.autosave (not undone, not reset); the settings written on
#       exit hold the explored overlay only, the graph planner, speed 1x
# Every step is an input event, handled in order: the waits are for F12's
# screenshot files and the game's exit, nothing is timed.
# Usage: tests/e2e/window_help_keys.sh BUILD_DIR (from the repo root).
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_help_keys "$BUILD"

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
start_game

view_rows() { tail -c +$((54 + 24 * 3840 + 1)) "$1" | head -c $((576 * 3840)); }
sig() { view_rows "$1" | cksum | cut -d' ' -f1; }
xdotool key t     # paused: the view holds still between the shots
click_tile 20 5 3 # a block: an unsaved edit
xdotool click 4   # 2x toward it: room to pan
xdotool mousemove --window "$WID" 1150 40
# (20,5) stayed under the pointer: 32 px tiles (2x) from there.  A right-button
# stroke begun before F1 (a block at (21,5)) and dragged over the help to
# (24,5) ends at F1: it painted (22..24,5) behind the help
xdotool mousemove --window "$WID" $(($(px 20) + 32)) "$(py 5)"
xdotool mousedown 3
shot
before=$(sig "$SHOT")
xdotool key ctrl+F1 # F1 with modifiers too
shot
[ "$(sig "$SHOT")" != "$before" ] || fail "Ctrl+F1 did not open the help"
xdotool mousemove --window "$WID" $(($(px 20) + 4 * 32)) "$(py 5)"
xdotool mouseup 3
xdotool keydown l # held I J K L pan the camera, frame by frame
shot              # (frames pass while the help shows)
xdotool keyup l
xdotool key p g bracketright ctrl+z ctrl+r
xdotool key ctrl+shift+F1
shot
[ "$(sig "$SHOT")" = "$before" ] ||
    fail "the map view changed behind the help (held L panned it, a drag painted, or a key undid or reset the edit)"
xdotool key x
quit_game

S=$tmp/config/tilenav/settings
[ -f "$S" ] || fail "no settings written"
ov=$(sed -n 's/^overlays //p' "$S")
[ "$ov" = 2 ] || fail "overlays $ov, not 2 (explored only: P over the help switched the path overlay)"
grep -q '^planner 1$' "$S" || fail "G over the help switched the planner: $(grep '^planner' "$S")"
grep -q '^speed 3$' "$S" || fail "']' over the help changed the speed: $(grep '^speed' "$S")"
[ -f "$MAP.autosave" ] || fail "no MAP.autosave: Ctrl+Z or Ctrl+R over the help dropped the edit"
row5=$(sed -n '/^tiles/,$p' "$MAP.autosave" | sed -n 7p)
[ "$(echo "$row5" | cut -c21-22)" = "##" ] || fail "the autosave lacks the blocks at (20,5) and (21,5): $row5"
[ "$(echo "$row5" | cut -c23-25)" = "..." ] ||
    fail "the stroke dragged over the help painted (22..24,5) behind it: $row5"
echo "$NAME: ok (Ctrl+F1 opened the help, Ctrl+Shift+F1 closed it; a drag, held L, P, G, ']', Ctrl+Z and Ctrl+R over the help did nothing; X after it did)"
exit 0
