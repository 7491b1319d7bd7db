#!/bin/sh
# atomic_save.sh - saving never leaves a half-written map.
#
# A headless run loads a 512x256 map and, every step, toggles one more
# block on the top row and saves the map over TARGET ("save" in a script:
# the same tn_save_map as Ctrl+S).  Once it has saved for the first time,
# it is killed with SIGKILL at a random moment 0-400 ms later (the world's
# start-up is not what is tested); many times.  After every kill TARGET must be exactly one of
# the versions a save can produce: the original file, or the original with
# the first k top-row tiles turned into blocks (the header, every other row
# and the byte length unchanged): never a torn, short or mixed file.  And at
# most one temporary file may be left next to it (TARGET.tmp-PID-N, the one a
# killed save was writing; the next save removes it).
#
#   sh tests/e2e/atomic_save.sh BUILD_DIR     (from the repository root)
#   ATOMIC_KILLS=N sets the number of kills (default 30).
BUILD=${1:-build}
BIN="$BUILD/tilenav"
KILLS=${ATOMIC_KILLS:-30}
if [ ! -x "$BIN" ]; then
    echo "atomic_save: $BIN is missing (build it first)" >&2
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-atomic.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
W=512
H=256
awk -v W=$W -v H=$H 'BEGIN {
    print "tilenav-map 1"; print "size " W " " H; print "tiles";
    dots = ""; for (x = 0; x < W; x++) dots = dots ".";
    floor = ""; for (x = 0; x < W; x++) floor = floor "#";
    for (y = 0; y < H; y++) {
        if (y == H - 1) print floor;
        else if (y == H - 2) print "P" substr(dots, 2);
        else print dots;
    }
}' >"$T/src.map"
awk -v W=$W -v F="$T/target.map" 'BEGIN {
    for (k = 0; k < W; k++) { print k " toggle " k " 0 block"; print k " save " F }
}' >"$T/save.script"
head -n 3 "$T/src.map" >"$T/head.want"
tail -n +5 "$T/src.map" >"$T/rest.want"
size_want=$(wc -c <"$T/src.map")
cp "$T/src.map" "$T/target.map"

alive() { # is process $1 running (not exited, not a zombie)?
    st=""
    { read -r _ _ st _ <"/proc/$1/stat"; } 2>/dev/null || return 1
    [ "$st" != Z ]
}

rand_ms() { # a random number of milliseconds in [$1, $2)
    r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
    echo $(($1 + r % ($2 - $1)))
}

fail=0
mid_save=0      # kills that left a temporary file (killed inside a save)
max_tmp=0
max_k=0
versions=""
i=0
while [ "$i" -lt "$KILLS" ]; do
    i=$((i + 1))
    touch "$T/stamp"
    "$BIN" --headless --map "$T/src.map" --frames $W --script "$T/save.script" >/dev/null 2>"$T/err" &
    pid=$!
    # Wait for the first save (the map file replaced after the stamp).
    waited=0
    while [ ! "$T/target.map" -nt "$T/stamp" ] && alive "$pid"; do
        sleep 0.01
        waited=$((waited + 1))
        if [ "$waited" -gt 6000 ]; then
            echo "atomic_save: run $i did not save within 60 s"
            kill -KILL "$pid" 2>/dev/null
            exit 1
        fi
    done
    if [ ! "$T/target.map" -nt "$T/stamp" ]; then
        wait "$pid"
        echo "atomic_save: run $i ended before its first save (exit $?): $(head -n 3 "$T/err")"
        exit 1
    fi
    ms=$(rand_ms 0 400)
    sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    # The target: one of the versions, never anything else.
    why=""
    if [ ! -f "$T/target.map" ]; then why="the map file is gone"
    elif [ "$(wc -c <"$T/target.map")" -ne "$size_want" ]; then
        why="the map file has $(wc -c <"$T/target.map") bytes, expected $size_want"
    elif ! head -n 3 "$T/target.map" | cmp -s - "$T/head.want"; then why="the header differs"
    elif ! tail -n +5 "$T/target.map" | cmp -s - "$T/rest.want"; then why="rows 2..$H differ"
    else
        row=$(sed -n 4p "$T/target.map")
        case "$row" in *.#*) why="the top row is not a prefix of blocks" ;; esac
        k=$(printf '%s' "$row" | tr -cd '#' | wc -c | tr -d ' ')
        [ "$k" -gt "$max_k" ] && max_k=$k
        case " $versions " in *" $k "*) ;; *) versions="$versions $k" ;; esac
    fi
    if [ -n "$why" ]; then
        echo "atomic_save: kill $i, ${ms} ms after the first save: $why"
        cp "$T/target.map" "${TMPDIR:-/tmp}/atomic_save_torn.map" 2>/dev/null &&
            echo "  (kept as ${TMPDIR:-/tmp}/atomic_save_torn.map)"
        fail=1
        break
    fi
    if [ -s "$T/err" ]; then
        echo "atomic_save: kill $i: the run wrote to stderr: $(head -n 3 "$T/err")"
        fail=1
        break
    fi
    # Temporary files.
    ntmp=$(ls -a "$T" | grep -c '^target\.map.')
    [ -n "$(find "$T" -name 'target.map.?*' -newer "$T/stamp")" ] && mid_save=$((mid_save + 1))
    [ "$ntmp" -gt "$max_tmp" ] && max_tmp=$ntmp
    if [ "$ntmp" -gt 1 ]; then
        echo "atomic_save: kill $i: $ntmp temporary files are left next to the map" \
            "(at most one may be):" $(ls -a "$T" | grep '^target\.map.')
        fail=1
        break
    fi
done
nver=$(echo $versions | wc -w | tr -d ' ')
echo "atomic_save: $i kills, $mid_save inside a save (a temporary file left), $nver distinct" \
    "versions seen (up to $max_k of $W saves), at most $max_tmp temporary file(s) at once"
[ "$fail" -eq 0 ]
