# Shared plumbing of the window tests (sourced, not run; tests/run.sh only
# runs tests/e2e/*.sh).  The sourcing test sets NAME, GAME and tmp first.
# Provides: cleanup (on EXIT), fail, sanitizer_check, start_xvfb (a private
# display, exported as DISPLAY), wait_window (sets WID once the game's mapped
# 1280x720 window has focus), and tile helpers for tests/data/render_window.map
# shown at 24 px tiles: tile (x, y) covers window pixels
# [30 + 24x, 54 + 24x) x [120 + 24y, 144 + 24y)  (see src/game/render.h: the
# map view runs from y = 120, under the top bar and the HUD strip, to 696,
# above the status line).
XPID=""
GPID=""
# The game keeps settings between runs: each test starts from none.
export XDG_CONFIG_HOME="$tmp/config"
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
fail() {
    echo "$NAME: FAIL: $*"
    for f in "$tmp"/game.out "$tmp"/game.err; do
        [ -s "$f" ] && { echo "--- $f"; cat "$f"; }
    done
    exit 1
}
# Any ASan/UBSan error, or a leak allocated from our sources, fails the test.
# In a sanitizer build, the system libraries under SDL's video layer (D-Bus,
# X11) keep a little memory until exit, and their stacks are too shallow to
# suppress reliably: LeakSanitizer reports (LSAN_OPTIONS below) but does not
# fail the game; this check fails the test on any leak through our code.
sanitizer_check() {
    if grep -q -e 'ERROR: AddressSanitizer' -e 'runtime error:' "$tmp/game.err"; then
        fail "sanitizer error"
    fi
    if grep -q 'LeakSanitizer' "$tmp/game.err" && grep -q -e 'src/game/' -e 'src/nav/' "$tmp/game.err"; then
        fail "memory leaked from our code"
    fi
}
printf 'leak:libdbus-1.so\nleak:libX11.so\nleak:libxcb.so\n' >"$tmp/lsan.supp"
GAME_ENV_LSAN="suppressions=$tmp/lsan.supp:print_suppressions=0:exitcode=0"

# A private display: the first free number from 97 up.
start_xvfb() {
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
}

# The game's mapped 1280x720 window (SDL may create and destroy helper
# windows with the same name while it starts), focused.
wait_window() {
    i=0
    WID=""
    while :; do
        i=$((i + 1))
        # generous: a sanitizer build on a loaded 2-core machine starts slowly
        [ $i -gt 400 ] && fail "no focused 1280x720 game window after 40 s (windows: $(xdotool search --name tilenav 2>/dev/null | tr '\n' ' '))"
        kill -0 "$GPID" 2>/dev/null || fail "the game exited early"
        for w in $(xdotool search --onlyvisible --name '^tilenav$' 2>/dev/null); do
            if xdotool getwindowgeometry "$w" 2>/dev/null | grep -q 'Geometry: 1280x720' &&
                timeout 3 xdotool windowfocus --sync "$w" 2>/dev/null; then
                WID=$w
            fi
        done
        [ -n "$WID" ] && break
        sleep 0.1
    done
    sleep 0.5
}

# tile (x, y) -> window pixel at its centre
px() { echo $((30 + 24 * $1 + 12)); }
py() { echo $((120 + 24 * $1 + 12)); }
click_tile() { # x y button
    xdotool mousemove --window "$WID" "$(px "$1")" "$(py "$2")"
    sleep 0.15
    xdotool click "$3"
    sleep 0.15
}
# The tile rows of a map file (everything after the "tiles" line).
rows() { sed -n '/^tiles$/,$p' "$1" | sed '1d'; }
# Rows with char $4 written at tile ($2, $3).
put() { # rows-file x y char
    awk -v x="$2" -v y="$3" -v c="$4" 'NR == y + 1 { $0 = substr($0, 1, x) c substr($0, x + 2) } { print }' "$1"
}
