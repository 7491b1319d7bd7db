#!/bin/sh
# valgrind.sh - the headless game once under valgrind memcheck: zero errors
# and zero definite or indirect leaks.
#
# maps/demo.map, VG_FRAMES steps (default 400), with a script that walks and
# jumps, toggles every kind of tile all over the map (including refused
# edits), clicks with every button and tool, changes every parameter and
# saves twice, so the edit, rebuild and save paths of every subsystem run.
#
#   sh tests/e2e/valgrind.sh BUILD_DIR      (from the repository root)
#
# VG_KEEP=1 keeps the scratch directory (script, log) for inspection.
# A sanitizer build (ASan cannot run under valgrind) is skipped with a
# message and exit 77 (tests/run.sh: skipped): `make test` runs this once with the plain build.
BUILD=${1:-build}
BIN="$BUILD/tilenav"
FRAMES=${VG_FRAMES:-400}
if [ ! -x "$BIN" ]; then
    echo "valgrind: $BIN is missing (build it first)" >&2
    exit 1
fi
if grep -q __asan_init "$BIN" 2>/dev/null; then
    echo "SKIP valgrind: not for the sanitizer build $BIN (valgrind cannot run ASan binaries)"
    exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind: valgrind is not installed (apt-get install valgrind)" >&2
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-vg.XXXXXX") || exit 1
trap '[ -n "${VG_KEEP:-}" ] || rm -rf "$T"' EXIT INT TERM

# Parameters whose subsystem has not landed yet are refused by the world;
# probe each one and leave out those (the run widens as the issues land).
skipped=""
for p in "bots 3" "wanderers 6" "spawn_rate 8" "jump_height 7" "char_height 3" "char_width 2" \
    "companion_speed 400" "follow_distance 2" "bias 0.9" "smoothness 0.1"; do
    echo "0 set $p" >"$T/probe.script"
    if ! "$BIN" --headless --map maps/demo.map --frames 1 --script "$T/probe.script" \
        >/dev/null 2>&1; then
        skipped="$skipped ${p%% *}"
    fi
done

awk -v N="$FRAMES" -v OUT="$T/out.map" 'BEGIN {
    split("block oneway empty spawn dest item", kind, " ");
    split("left right middle", button, " ");
    split("goto block oneway spawn dest item navpath target", tool, " ");
    print "0 key right press";
    print "0 set bots 3";
    # the graph planner rebuilds its graph after every edit (seconds under
    # valgrind): this run checks the classic planner; ASan covers tn_surf
    print "0 set planner classic";
    print "0 wanderers 6";
    print "0 set spawn_rate 8";
    for (f = 2; f < N; f += 3) {
        x = (f * 37) % 80; y = (f * 11) % 45;
        print f " toggle " x " " y " " kind[1 + int(f / 3) % 6];
        if (f % 9 == 2) print f " click " (f * 13) % 80 " " (f * 7) % 45 " " button[1 + int(f / 9) % 3];
        if (f % 27 == 5) print f " click " (f * 5) % 80 " " (f * 3) % 45 " right shift";
        if (f % 15 == 8) { print f " tool " tool[1 + int(f / 15) % 8]; print f " click " (f * 17) % 80 " " (f * 19) % 45 " left"; }
        if (f % 21 == 11) print f " goto " (f * 23) % 80 " " (f * 29) % 45;
        if (f % 30 == 14) print f " key jump press";
        if (f % 30 == 20) print f " key jump release";
        if (f % 60 == 29) print f " key right release";
        if (f % 60 == 32) print f " key left press";
        if (f % 60 == 59) print f " key left release";
    }
    print int(N / 4) " set jump_height 7";
    print int(N / 4) " set char_height 3";
    print int(N / 4) " set char_width 2";
    print int(N / 4) " set companion_speed 400";
    print int(N / 4) " set follow_distance 2";
    print int(N / 4) " set bias 0.9";
    print int(N / 4) " set smoothness 0.1";
    print int(N / 2) " save " OUT;
    print int(N / 2) " set bots 0";
    print int(N / 2) " wanderers 64";
    print int(N / 2) " set char_height 1";
    print int(N / 2) " set char_width 1";
    print N " save " OUT;
}' | sed 's/ wanderers \([0-9]*\)$/ set wanderers \1/' | sort -s -n -k1,1 >"$T/edit.script"
for p in $skipped; do
    grep -v " set $p " "$T/edit.script" >"$T/e2" && mv "$T/e2" "$T/edit.script"
done

valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
    --track-origins=yes --num-callers=30 --log-file="$T/vg.log" \
    "$BIN" --headless --map maps/demo.map --frames "$FRAMES" --script "$T/edit.script" --seed 7 \
    >"$T/out.json" 2>"$T/err"
rc=$?
errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$T/vg.log" | tail -n 1)
definite=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$T/vg.log" | tail -n 1)
indirect=$(sed -n 's/.*indirectly lost: \([0-9,]*\) bytes.*/\1/p' "$T/vg.log" | tail -n 1)
ok=1
if [ "$rc" -ne 0 ]; then ok=0; fi
if [ "${errors:-x}" != 0 ]; then ok=0; fi
if ! grep -q '"frames":'"$FRAMES" "$T/out.json"; then ok=0; fi
if ! "$BIN" --headless --map "$T/out.map" --frames 1 >/dev/null 2>"$T/err2"; then
    echo "valgrind: the map saved by the run does not load: $(cat "$T/err2")"
    ok=0
fi
echo "valgrind: exit $rc, $errors errors, definitely lost ${definite:-0} bytes," \
    "indirectly lost ${indirect:-0} bytes ($(grep -c . "$T/edit.script") script commands, $FRAMES frames)"
[ -n "$skipped" ] && echo "valgrind: parameters not available yet, left out:$skipped"
if [ "$ok" -ne 1 ]; then
    [ -s "$T/err" ] && echo "stderr: $(head -n 5 "$T/err")"
    sed -n '/ERROR SUMMARY/!{/==[0-9]*== [A-Z]/,+25p}' "$T/vg.log" | head -n 120
    exit 1
fi
exit 0
