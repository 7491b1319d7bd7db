# Shared plumbing of the window tests (sourced, not run; tests/run.sh only
# runs tests/e2e/*.sh).  A test starts with
#     . tests/e2e/lib/window.sh
#     window_begin NAME "${1:-build}"
# which skips (exit 77) without Xvfb or xdotool, sets ROOT, GAME (absolute)
# and tmp (a private directory removed on exit) and starts a private X server.
# Provides: cleanup (on EXIT, INT, TERM, HUP), fail, skip, sanitizer_check,
# start_xvfb (a private display, exported as DISPLAY, answering before it
# returns), wait_window (sets WID once the game's mapped 1280x720 window has
# focus), quit_game (Esc, then the exit status and the sanitizer check),
# and tile helpers for tests/data/render_window.map
# shown at 24 px tiles: tile (x, y) covers window pixels
# [30 + 24x, 54 + 24x) x [120 + 24y, 144 + 24y)  (see src/game/render.h: the
# map view runs from y = 120, under the top bar and the HUD strip, to 696,
# above the status line).
#
# Never flaky by construction: the display number is chosen here and the
# Xvfb is proven to be ours (its lock file names our process) so parallel
# runs never share or steal a display; the game starts only once the X
# server answers, and the server never resets between clients (-noreset); SDL_VIDEODRIVER=x11 so SDL can never fall back to a
# windowless driver (the game refuses those anyway); a private 0700
# XDG_RUNTIME_DIR (SDL warns without one and must not share it).
XPID=""
GPID=""
cleanup() {
    if [ -n "$GPID" ]; then # a game that outlives the test is killed for sure
        kill "$GPID" 2>/dev/null
        j=0
        while kill -0 "$GPID" 2>/dev/null && [ $j -lt 30 ]; do sleep 0.1; j=$((j + 1)); done
        kill -9 "$GPID" 2>/dev/null
    fi
    if [ -n "$XPID" ]; then
        kill "$XPID" 2>/dev/null
        wait "$XPID" 2>/dev/null
    fi
    rm -rf "$tmp"
}
# A named skip: tests/run.sh counts exit 77 as skipped and prints the line.
skip() {
    echo "SKIP $NAME: $*"
    exit 77
}
fail() {
    echo "$NAME: FAIL: $*"
    for f in "$tmp"/game.out "$tmp"/game.err "$tmp"/xvfb.log; do
        [ -s "$f" ] && { echo "--- $f"; cat "$f"; }
    done
    if [ -n "${DISPLAY:-}" ]; then # what the display looked like at the failure
        n=${DISPLAY#:}
        echo "--- display $DISPLAY: Xvfb pid $XPID $(kill -0 "$XPID" 2>/dev/null && echo alive || echo gone)," \
            "lock $({ tr -d ' \n' <"/tmp/.X$n-lock"; } 2>/dev/null || echo none)," \
            "socket $([ -S "/tmp/.X11-unix/X$n" ] && echo present || echo missing)," \
            "answers: $(xdotool getdisplaygeometry 2>&1 | head -n 1)"
        # the screen at the failure (the HUD's last message says what the game did)
        shot="${TMPDIR:-/tmp}/tilenav-$NAME-fail-$$.png"
        if command -v import >/dev/null 2>&1 && import -window root "$shot" 2>/dev/null; then
            echo "--- the screen at the failure: $shot"
        fi
    fi
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

# The common start of every window test (see the top of this file).
window_begin() { # name build-dir
    NAME=$1
    if ! command -v Xvfb >/dev/null 2>&1 || ! command -v xdotool >/dev/null 2>&1; then
        echo "SKIP $NAME: Xvfb or xdotool is not installed (make deps-window)"
        exit 77
    fi
    ROOT=$(pwd)
    case "$2" in /*) GAME=$2/tilenav ;; *) GAME=$ROOT/$2/tilenav ;; esac
    [ -x "$GAME" ] || { echo "$NAME: $GAME not built"; exit 1; }
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-e2e.XXXXXX")
    trap cleanup EXIT
    trap 'exit 1' INT TERM HUP
    # The game keeps settings between runs: each test starts from none; an
    # autosave that cannot go beside the map goes to the data folder, never
    # the real home's.
    export XDG_CONFIG_HOME="$tmp/config"
    export XDG_DATA_HOME="$tmp/data"
    printf 'leak:libdbus-1.so\nleak:libX11.so\nleak:libxcb.so\n' >"$tmp/lsan.supp"
    GAME_ENV_LSAN="suppressions=$tmp/lsan.supp:print_suppressions=0:exitcode=0"
    start_xvfb
}

# The game ($GPID) must exit within $1 seconds ($2 says what it was asked
# to do) with status 0 and no sanitizer report; $3 names the run.
wait_exit() { # seconds what [run]
    i=0
    while kill -0 "$GPID" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt $(($1 * 10)) ] && fail "the game did not $2 within $1 s${3:+ ($3)}"
        sleep 0.1
    done
    wait "$GPID"
    rc=$?
    GPID=""
    [ $rc -eq 0 ] || fail "the game exited with $rc${3:+ ($3)}"
    sanitizer_check
}

# Esc, then as wait_exit; $1 names the run in a failure message.
quit_game() { # [run]
    xdotool key Escape
    wait_exit 30 "quit on Esc" "${1:-}"
}

# A private display: a free number from a per-process start in 100..899 up
# (parallel runs rarely even try the same one).  Xvfb's lock file is created
# atomically: a server that exits, or a lock naming another process, means
# someone else won the number, and the next one is tried.  TN_XVFB_DISPLAY=N
# tries :N only (a machine whose users each keep to a display number of
# their own).
start_xvfb() {
    mkdir -m 700 "$tmp/xdg"
    export XDG_RUNTIME_DIR="$tmp/xdg"
    export SDL_VIDEODRIVER=x11
    n=$((100 + $$ % 800))
    most=50
    if [ -n "${TN_XVFB_DISPLAY:-}" ]; then
        case $TN_XVFB_DISPLAY in
        *[!0-9]*) fail "TN_XVFB_DISPLAY=$TN_XVFB_DISPLAY: not a display number (give N, as in :N)" ;;
        esac
        n=$(($(expr "$TN_XVFB_DISPLAY" + 0) - 1)) # (expr: a leading 0 is not octal)
        most=1
    fi
    tries=0
    while :; do
        tries=$((tries + 1))
        [ $tries -gt $most ] && fail "no free X display number (last tried :$n)"
        n=$((n + 1))
        [ $most -gt 1 ] && [ $n -gt 899 ] && n=100 # (the search's wrap, not a given :N)
        if [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; then continue; fi
        # -noreset: by default an X server resets whenever its last client
        # disconnects, and a connection made during the reset fails (measured
        # here: 14 of 300 back-to-back connections).  The probe below is such
        # a last client, and so is the first game in window_edit_save.sh: the
        # game would then find no X11 display - the cause of the "no game
        # window after 40 s" failures, when SDL fell back to a windowless
        # driver.
        Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp -noreset >"$tmp/xvfb.log" 2>&1 &
        XPID=$!
        export DISPLAY=":$n"
        i=0
        ours=""
        while :; do
            i=$((i + 1))
            kill -0 "$XPID" 2>/dev/null || break       # lost the race for :$n
            lockpid=$({ tr -d ' \n' <"/tmp/.X$n-lock"; } 2>/dev/null)
            if [ -n "$lockpid" ] && [ "$lockpid" != "$XPID" ]; then break; fi
            if [ "$lockpid" = "$XPID" ] && xdotool getdisplaygeometry >/dev/null 2>&1; then
                ours=1
                break
            fi
            [ $i -gt 300 ] && fail "Xvfb $DISPLAY did not answer within 30 s: $(cat "$tmp/xvfb.log")"
            sleep 0.1
        done
        [ -n "$ours" ] && return 0
        kill "$XPID" 2>/dev/null
        wait "$XPID" 2>/dev/null
        XPID=""
    done
}

# The game's mapped 1280x720 window (SDL may create and destroy helper
# windows with the same name while it starts), focused.  Its title is
# "tilenav - MAP" (the map being played).
wait_window() {
    i=0
    WID=""
    while :; do
        i=$((i + 1))
        # generous: a sanitizer build on a loaded 2-core machine starts slowly
        [ $i -gt 400 ] && fail "no focused 1280x720 game window after 40 s (windows: $(xdotool search --name tilenav 2>/dev/null | tr '\n' ' '))"
        kill -0 "$GPID" 2>/dev/null || fail "the game exited early"
        for w in $(xdotool search --onlyvisible --name '^tilenav( - .*)?$' 2>/dev/null); do
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

# The game on $MAP (software renderer, run from $tmp, where its settings
# and screenshots land): GPID its pid.  start_game also waits for its
# window (wait_window: WID).
launch_game() {
    (cd "$tmp" && SDL_RENDER_DRIVER=software LSAN_OPTIONS="$GAME_ENV_LSAN" \
        exec "$GAME" --map "$MAP" --assets "$ROOT/assets" >"$tmp/game.out" 2>"$tmp/game.err") &
    GPID=$!
}
start_game() {
    launch_game
    wait_window
}

# Resize the game's window to w x h and wait until it has that size.
resize_window() { # w h
    xdotool windowsize "$WID" "$1" "$2"
    i=0
    until xdotool getwindowgeometry "$WID" | grep -q "Geometry: $1x$2"; do
        i=$((i + 1))
        [ $i -gt 100 ] && fail "the window did not become $1x$2"
        sleep 0.1
    done
}

# F12 in a 1280x720 window: SHOT = the path of the BMP it wrote, once it
# is complete (screenshots are written atomically; no subshell: SHOTS
# counts them), then SHOT_SETTLE seconds more (default 0).
SHOTS=0
shot() {
    SHOTS=$((SHOTS + 1))
    f=$(printf '%s/tilenav-%03d.bmp' "$tmp" "$SHOTS")
    xdotool key F12
    i=0
    until [ -f "$f" ] && [ "$(wc -c <"$f")" -eq $((54 + 1280 * 720 * 3)) ]; do
        i=$((i + 1))
        [ $i -gt 300 ] && fail "F12 wrote no complete $f"
        sleep 0.1
    done
    sleep "${SHOT_SETTLE:-0}"
    SHOT=$f
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
