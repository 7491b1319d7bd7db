#!/bin/sh
# The real game in a window under Xvfb: a map in a directory this user
# cannot write (a system or shared directory) never costs the user's edits.
# The game runs as another user (root: setpriv to nobody; anyone else: the
# directory made 0555) with HOME in a private directory:
#   right-click a tile, Ctrl+S  -> refused (the map is untouched); the edits
#                                  go to HOME/.local/share/tilenav/autosave/
#                                  ROOM.map~HASH.autosave and stderr says so
#   right-click another, Esc    -> quits with status 0 (it used to refuse to
#                                  quit: no autosave beside the map), the
#                                  autosave holds both edits
#   start again, Esc            -> the game offered that autosave (stdout of
#                                  the first run named it; R restores it)
# Usage: tests/e2e/window_readonly_dir.sh BUILD_DIR (from the repo root).
# Skips (exit 77) when Xvfb or xdotool is missing, or as root without setpriv.
set -u
BUILD=${1:-build}
. tests/e2e/lib/window.sh
window_begin window_readonly_dir "$BUILD"

chmod 755 "$tmp"
RO=$tmp/ro
mkdir "$RO"
MAP=$RO/room.map
cp tests/data/render_window.map "$MAP"
chmod 644 "$MAP"
H=$tmp/home
mkdir -m 777 "$H" "$tmp/xdg2"
if [ "$(id -u)" -eq 0 ]; then
    command -v setpriv >/dev/null 2>&1 || skip "running as root without setpriv"
    # the game and its assets where nobody can read them ($tmp's parent may be private)
    cp "$GAME" "$tmp/tilenav"
    cp -r "$ROOT/assets" "$tmp/assets"
    chmod -R a+rX "$tmp/tilenav" "$tmp/assets"
    RUN="setpriv --reuid=65534 --regid=65534 --clear-groups"
    chown 65534 "$tmp/xdg2"
    chmod 700 "$tmp/xdg2"
    G=$tmp/tilenav
    A=$tmp/assets
else
    chmod 555 "$RO"
    RUN=""
    G=$GAME
    A=$ROOT/assets
fi
start_game() {
    # shellcheck disable=SC2086 # RUN is a command and its words
    HOME=$H XDG_DATA_HOME= XDG_CONFIG_HOME=$H/config XDG_RUNTIME_DIR=$tmp/xdg2 \
        SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
        $RUN "$G" --map "$MAP" --assets "$A" >"$tmp/game.out" 2>"$tmp/game.err" &
    GPID=$!
    wait_window
}
chmod a+r "$tmp/lsan.supp"
start_game
rows tests/data/render_window.map >"$tmp/orig.rows"
put "$tmp/orig.rows" 30 15 '#' >"$tmp/one.rows"
put "$tmp/one.rows" 12 4 '#' >"$tmp/two.rows"

click_tile 30 15 3
xdotool key ctrl+s
i=0
until grep -q 'the edits are in ' "$tmp/game.err"; do
    i=$((i + 1))
    [ $i -gt 200 ] && fail "Ctrl+S in a directory the game cannot write said nothing about the edits"
    sleep 0.1
done
AS=$(sed -n 's/.*the edits are in \(.*\)$/\1/p' "$tmp/game.err" | head -n 1)
case "$AS" in
"$H"/.local/share/tilenav/autosave/room.map~*.autosave) ;;
*) fail "the edits went to '$AS', not under $H/.local/share/tilenav/autosave/" ;;
esac
grep -Eq 'room.map: (is read-only|.*[Pp]ermission denied)' "$tmp/game.err" ||
    fail "the refusal does not name the map and why"
rows "$MAP" | cmp -s - "$tmp/orig.rows" || fail "the map in the read-only directory changed"
rows "$AS" | cmp -s - "$tmp/one.rows" || { rows "$AS" | diff "$tmp/one.rows" -; fail "the autosave is not the map with the block at (30,15)"; }

click_tile 12 4 3
quit_game "Esc with edits, the map's directory read-only"
rows "$AS" | cmp -s - "$tmp/two.rows" || { rows "$AS" | diff "$tmp/two.rows" -; fail "the autosave on quitting does not hold both edits"; }
grep -q "unsaved edits written to $AS" "$tmp/game.out" || fail "quitting did not say where the edits went"

# the next start finds that autosave (the status line offers R)
start_game
xdotool key r
sleep 0.5
quit_game "Esc after R restored the autosave"
grep -q "unsaved edits written to $AS" "$tmp/game.out" || fail "R did not restore the autosave (nothing unsaved on quitting)"
rows "$AS" | cmp -s - "$tmp/two.rows" || fail "the restored edits changed on the way"
echo "window_readonly_dir: ok"
