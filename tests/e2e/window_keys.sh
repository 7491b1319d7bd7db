#!/bin/sh
# The real game in a window under Xvfb: the keyboard moves the character,
# F1/F12/Ctrl+S/Esc do what the help says.  The character's position is
# observed through the edit rule "a block inside the character is refused":
#   right-click the character's head tile         -> refused, map unchanged
#   hold D (walk right) for 0.6 s, right-click it  -> a block: it walked away
#   F1, right-click another tile, F1               -> the click only closed the help
#   F12                                            -> tilenav-001.bmp, 1280x720
#   Ctrl+S, Esc                                    -> saved, exit 0, no autosave
# Usage: tests/e2e/window_keys.sh BUILD_DIR (from the repo root).  Skips when
# Xvfb or xdotool is missing.  Tile positions: see window_edit_save.sh.
set -u
BUILD=${1:-build}
NAME=window_keys
if ! command -v Xvfb >/dev/null 2>&1 || ! command -v xdotool >/dev/null 2>&1; then
    echo "SKIP $NAME: Xvfb or xdotool is not installed (make deps-window)"
    exit 0
fi
ROOT=$(pwd)
case "$BUILD" in /*) GAME=$BUILD/tilenav ;; *) GAME=$ROOT/$BUILD/tilenav ;; esac
[ -x "$GAME" ] || { echo "$NAME: $GAME not built"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-e2e.XXXXXX")
XPID=""
GPID=""
cleanup() {
    if [ -n "$GPID" ]; then # a game that outlives the test is killed for sure
        kill "$GPID" 2>/dev/null
        j=0
        while kill -0 "$GPID" 2>/dev/null && [ $j -lt 30 ]; do sleep 0.1; j=$((j + 1)); done
        kill -9 "$GPID" 2>/dev/null
    fi
    [ -n "$XPID" ] && kill "$XPID" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# Any ASan/UBSan error, or a leak allocated from our sources, fails the test.
sanitizer_check() {
    if grep -q -e 'ERROR: AddressSanitizer' -e 'runtime error:' "$tmp/game.err"; then
        fail "sanitizer error"
    fi
    if grep -q 'LeakSanitizer' "$tmp/game.err" && grep -q -e 'src/game/' -e 'src/nav/' "$tmp/game.err"; then
        fail "memory leaked from our code"
    fi
}
fail() {
    echo "$NAME: FAIL: $*"
    for f in "$tmp"/game.out "$tmp"/game.err; do
        [ -s "$f" ] && { echo "--- $f"; cat "$f"; }
    done
    exit 1
}

n=97
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do
    n=$((n + 1))
    [ $n -gt 140 ] && fail "no free X display number"
done
Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
XPID=$!
export DISPLAY=":$n"
i=0
until xdotool getdisplaygeometry >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "Xvfb $DISPLAY did not start: $(cat "$tmp/xvfb.log")"
    sleep 0.1
done

MAP=$tmp/room.map
cp tests/data/render_window.map "$MAP"
# Sanitizer builds: see window_edit_save.sh.
printf 'leak:libdbus-1.so\nleak:libX11.so\nleak:libxcb.so\n' >"$tmp/lsan.supp"
# From the temporary directory, so F12's screenshot lands there.
(cd "$tmp" && SDL_RENDER_DRIVER=software \
    LSAN_OPTIONS="suppressions=$tmp/lsan.supp:print_suppressions=0:exitcode=0" \
    exec "$GAME" --map "$MAP" --assets "$ROOT/assets" >"$tmp/game.out" 2>"$tmp/game.err") &
GPID=$!

# The game's mapped 1280x720 window (SDL may create and destroy helper
# windows with the same name while it starts), focused.
i=0
WID=""
while :; do
    i=$((i + 1))
    [ $i -gt 150 ] && fail "no game window after 15 s"
    kill -0 "$GPID" 2>/dev/null || fail "the game exited early"
    for w in $(xdotool search --onlyvisible --name '^tilenav$' 2>/dev/null); do
        if xdotool getwindowgeometry "$w" 2>/dev/null | grep -q 'Geometry: 1280x720' &&
            xdotool windowfocus --sync "$w" 2>/dev/null; then
            WID=$w
        fi
    done
    [ -n "$WID" ] && break
    sleep 0.1
done
sleep 0.5

px() { echo $((30 + 24 * $1 + 12)); }
py() { echo $((114 + 24 * $1 + 12)); }
click_tile() { # x y button
    xdotool mousemove --window "$WID" "$(px "$1")" "$(py "$2")"
    sleep 0.15
    xdotool click "$3"
    sleep 0.15
}
rows() { sed -n '/^tiles$/,$p' "$1" | sed '1d'; }
put() { # rows-file x y char
    awk -v x="$2" -v y="$3" -v c="$4" 'NR == y + 1 { $0 = substr($0, 1, x) c substr($0, x + 2) } { print }' "$1"
}
rows "$MAP" >"$tmp/orig.rows"
put "$tmp/orig.rows" 2 21 '#' >"$tmp/want.rows"

# The character (1x2 tiles) stands on its start (2,22): its head is (2,21).
click_tile 2 21 3
xdotool key ctrl+s
sleep 0.5
rows "$MAP" | cmp -s - "$tmp/orig.rows" || fail "a block inside the character was not refused"

xdotool keydown d
sleep 0.6
xdotool keyup d
sleep 0.3
click_tile 2 21 3

xdotool key F1
sleep 0.2
click_tile 12 4 3                       # closes the help, edits nothing
xdotool key F12
i=0
until [ -f "$tmp/tilenav-001.bmp" ]; do
    i=$((i + 1))
    [ $i -gt 200 ] && fail "F12 wrote no tilenav-001.bmp"
    sleep 0.1
done
sleep 0.3
size=$(wc -c <"$tmp/tilenav-001.bmp")
[ "$size" -eq $((54 + 1280 * 720 * 3)) ] || fail "the screenshot is $size bytes, not a 1280x720 24-bit BMP"

xdotool key ctrl+s
sleep 0.3
xdotool key Escape
i=0
while kill -0 "$GPID" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 300 ] && fail "the game did not quit on Esc"
    sleep 0.1
done
wait "$GPID"
rc=$?
GPID=""
[ $rc -eq 0 ] || fail "the game exited with $rc"
sanitizer_check
rows "$MAP" | cmp -s - "$tmp/want.rows" || {
    rows "$MAP" | diff "$tmp/want.rows" -
    fail "expected exactly one new block, at (2,21) where the character stood before it walked away"
}
[ -f "$MAP.autosave" ] && fail "an autosave was written although everything was saved"
echo "$NAME: ok (walked with D, refused/accepted edits, F1, F12 screenshot, Ctrl+S, Esc)"
exit 0
