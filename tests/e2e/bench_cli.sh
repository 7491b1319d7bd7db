#!/bin/sh
# bench_cli.sh - tilenav-bench's command line: `genmap -o` never loses a
# map (an existing file or link is replaced only with --force, the write is
# atomic, a name that is not .map is refused) and says why it failed; a
# numeric flag's value is checked whole and a bad one named with its range.
# Usage: sh tests/e2e/bench_cli.sh BUILD_DIR   (from the repository root)
set -u
BUILD=${1:-build}
B="$BUILD/tilenav-bench"
G="$BUILD/tilenav"
if [ ! -x "$B" ] || [ ! -x "$G" ]; then
    echo "bench_cli: $B or $G is missing (build them first)" >&2
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-bench-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fail=0
bad() {
    echo "bench_cli: $*"
    fail=1
}
# expect RC PATTERN CMD...: CMD exits with RC and its standard error
# matches the grep -E PATTERN.
expect() {
    want_rc=$1 pat=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want_rc" ] || bad "'$*' exited $rc, not $want_rc: $(cat "$T/err")"
    grep -Eq -- "$pat" "$T/err" || bad "'$*' said '$(cat "$T/err")', not /$pat/"
}
gen="$B genmap --kind blocks --size 12 --blocks 20 --seed 3"

# a new file: written, and the game loads it
expect 0 'blocks 12x12' $gen -o "$T/new.map"
"$G" --headless --frames 1 --map "$T/new.map" >/dev/null 2>"$T/err" ||
    bad "the game cannot load genmap's map: $(cat "$T/err")"

# an existing file and a link to it are not replaced without --force
cp maps/demo.map "$T/keep.map"
ln -s keep.map "$T/link.map"
expect 2 "keep.map: already exists: not replaced \(add --force" $gen -o "$T/keep.map"
expect 2 "link.map: already exists \(a symbolic link to keep.map\): not replaced" \
    $gen -o "$T/link.map"
cmp -s maps/demo.map "$T/keep.map" || bad "keep.map was changed without --force"
# --force through the link: the link stays, the file it points to is the map
expect 0 'blocks 12x12' $gen --force -o "$T/link.map"
[ -L "$T/link.map" ] || bad "--force replaced the link itself"
cmp -s "$T/new.map" "$T/keep.map" || bad "--force did not write the map through the link"

# names genmap refuses (nothing is created)
expect 2 '^genmap: -o needs a file name \(it was empty\)$' $gen -o ''
expect 2 'x.tmx: genmap writes the tilenav .map format, not Tiled \(.tmx\)' $gen -o "$T/x.tmx"
expect 2 'x.tmj: genmap writes the tilenav .map format, not Tiled \(.tmj\)' $gen -o "$T/x.tmj"
expect 2 'x.txt: the file name must end in .map' $gen -o "$T/x.txt"
for f in x.tmx x.tmj x.txt; do [ -e "$T/$f" ] && bad "genmap created $f"; done
# what --force cannot replace either is said without advice to add it
mkdir "$T/dir.map"
ln -s "$T/gone.map" "$T/dangling.map"
expect 2 'dir.map: is a directory: not written \(name a file\)$' $gen --force -o "$T/dir.map"
expect 2 'dangling.map: is a symbolic link to a missing file \(.*gone.map\): not written' \
    $gen -o "$T/dangling.map"
[ -e "$T/gone.map" ] && bad "genmap wrote through a dangling link"

# a failed write says why, and leaves the old file whole (no fragment, no
# temporary): a file size limit stands in for a full disk
cp maps/demo.map "$T/mine.map"
expect 1 'mine.map: write error: File too large \(the old file is untouched\)' \
    sh -c "trap '' XFSZ; ulimit -f 8; exec $B genmap --kind blocks --size 200 --force -o '$T/mine.map'"
cmp -s maps/demo.map "$T/mine.map" || bad "a failed write changed mine.map"
ls "$T" | grep -q 'tmp-' && bad "a failed write left a temporary: $(ls "$T")"
expect 1 'nodir/x.map: not saved: the folder .*nodir does not exist' \
    $gen -o "$T/nodir/x.map"

# numbers: the whole text is checked, and a bad one is a usage error (2)
# that names the flag, the text and the allowed range
expect 2 "^astar: --limit: 'abc' is not a whole number \(1\.\.[0-9]+\)$" $B astar --limit abc
expect 2 "^surf: --sizes: 'abc' is not a whole number \(16\.\.1024\)$" $B surf --sizes abc
expect 2 "^surf: --sizes: 2000 is outside 16\.\.1024$" $B surf --sizes 64,2000
# --runs 0: a dump without timing (make bench-peers reads the points so),
# refused where there is only timing to do
"$B" cdt --dump-points 20 --runs 0 -o "$T/pts.json" >/dev/null 2>"$T/err" ||
    bad "cdt --dump-points --runs 0 failed: $(cat "$T/err")"
[ -s "$T/pts.json" ] || bad "cdt --dump-points --runs 0 wrote nothing"
expect 2 '^cdt: --runs 0 \(no timing\) goes with --dump-input or --dump-points$' \
    $B cdt --points 20 --runs 0
# help: the list, and one command's line, on stdout with status 0
for h in help --help -h; do
    "$B" $h >"$T/out" 2>"$T/err" || bad "tilenav-bench $h exited $?"
    grep -q '^  surf .*--light-above N' "$T/out" || bad "tilenav-bench $h: $(head -3 "$T/out")"
    # genmap's seed is optional (default 1), as its own usage says; soak's is required
    grep -q '^  genmap .*\[--seed S\]' "$T/out" || bad "tilenav-bench $h: genmap's --seed: $(cat "$T/out")"
    grep -q '^  soak --steps N --seed S ' "$T/out" || bad "tilenav-bench $h: soak's --seed: $(cat "$T/out")"
done
"$B" render --help >"$T/out" 2>"$T/err" || bad "render --help exited $?"
grep -q '^usage: tilenav-bench render .*--bare.*--edit' "$T/out" || bad "render --help: $(cat "$T/out")"
# an item too long for the parser is refused whole, not cut to a number
expect 2 "^surf: --sizes: an item of '.*' is 70 characters long: not a number$" \
    $B surf --sizes "16,0000000000000000000000000000000000000000000000000000000000000000000005"
expect 2 "^flow: --size: 0 is outside 4\.\.4096$" $B flow --size 0
expect 2 "^flow: --size: -7 is outside 4\.\.4096$" $B flow --size -7
expect 2 "^flow: --reps needs a value \(1\.\.100000\)$" $B flow --reps
expect 2 "^genmap: unexpected argument 'extra'$" $gen extra
expect 2 "^genmap: --size: '12x' is not a whole number \(1\.\.4096\)$" \
    $B genmap --kind blocks --size 12x
expect 2 "^genmap: --seed: '-1' is not a whole number" $B genmap --kind blocks --size 3 --seed -1
expect 2 "^genmap: --blocks: 99999999999999999999 is outside 0\.\.[0-9]+$" \
    $B genmap --kind blocks --size 3 --blocks 99999999999999999999
expect 2 "^agents: --agents: '1e3' is not a whole number \(1\.\.[0-9]+\)$" $B agents --agents 1e3
expect 2 "^arrival: --size \(height\): 2 is outside 12\.\.1024$" $B arrival --size 48x2
expect 2 "^edits: --frame-ms: 'abc' is not a number \(0\.\.1000\)$" $B edits --frame-ms abc
expect 2 "^enemies: --steps: 0 is outside 1\.\.[0-9]+$" $B enemies --steps 0
expect 2 "^navmesh: --reps: 'x' is not a whole number" $B navmesh --reps x maps/demo.map
expect 2 "^soak: --steps: '\+5' is not a whole number" $B soak --seed 1 --steps +5
expect 2 "^tiled: --size: 100 is outside 257\.\.4096$" $B tiled --size 100
expect 2 "^cdt: --points: 'abc' is not a whole number" $B cdt --points abc
expect 2 "^render: --frames: '2x' is not a whole number" $B render --map maps/demo.map --frames 2x
# a map the navmesh and cdt commands cannot read is named with the reason,
# and never waited on (a FIFO) nor read forever (a device); a directory
# made navmesh ask malloc for 2^63 bytes (an ASan abort), said "cannot read"
mkdir "$T/maps.d"
mkfifo "$T/fifo.map"
expect 1 "^tilenav-bench navmesh: $T/maps.d: is a directory, not a file$" \
    $B navmesh --reps 1 "$T/maps.d"
expect 1 "^tilenav-bench navmesh: $T/fifo.map: is a FIFO \(named pipe\), not a regular file" \
    timeout 20 $B navmesh --reps 1 "$T/fifo.map"
expect 1 "^tilenav-bench navmesh: $T/none.map: cannot open: No such file or directory$" \
    $B navmesh --reps 1 "$T/none.map"
expect 1 "^cdt: /dev/zero: is a device, not a regular file: not read$" \
    timeout 20 $B cdt --runs 1 --map /dev/zero
expect 1 "^cdt: $T/fifo.map: is a FIFO \(named pipe\), not a regular file" \
    timeout 20 $B cdt --runs 1 --map "$T/fifo.map"
expect 1 "^cdt: $T/none.map: cannot open: No such file or directory$" \
    $B cdt --runs 1 --map maps/demo.map "$T/none.map"
# cdt -o never replaces a file that is not a cdt dump (a map named by
# mistake was overwritten), and a failed write leaves the old dump whole
cp maps/demo.map "$T/mine2.map"
expect 1 "^cdt: $T/mine2.map: not replaced: it is not a cdt dump" \
    $B cdt --dump-points 5 --runs 0 -o "$T/mine2.map"
cmp -s maps/demo.map "$T/mine2.map" || bad "cdt -o replaced a map"
for n in 5 6; do
    "$B" cdt --dump-points $n --runs 0 -o "$T/d.json" 2>"$T/err" || bad "cdt -o d.json: $(cat "$T/err")"
done
grep -q '^"triangles":5,' "$T/d.json" || bad "cdt -o did not replace its own dump: $(cat "$T/d.json")"
cp "$T/d.json" "$T/d.keep"
expect 1 "^cdt: $T/d.json: write error: File too large \(the old file is untouched\)$" \
    sh -c "trap '' XFSZ; ulimit -f 1; exec $B cdt --dump-points 200 --runs 0 -o '$T/d.json'"
cmp -s "$T/d.keep" "$T/d.json" || bad "a failed cdt -o write changed the old dump"
# render --overlays is read whole: an empty list or item, or more items
# than overlays, is refused (an empty list drew nothing and exited 0)
for o in '' , 'path,' 'path,,flow'; do
    expect 2 "^render: --overlays: '$o' has an empty item \(a list like none,path\)$" \
        $B render --map maps/demo.map --frames 1 --overlays "$o"
done
expect 2 "^render: --overlays: 'none(,path,none){4}' has more than 8 items$" \
    $B render --map maps/demo.map --frames 1 --overlays none,path,none,path,none,path,none,path,none
# a map the world cannot take is named (the message had no file)
printf 'tilenav-map 1\nsize 3 3\ntiles\n###\n#P#\n###\n' >"$T/tight.map"
expect 1 "^tilenav-bench soak: $T/tight.map: the 1x2-tile character fits nowhere" \
    $B soak --steps 1 --seed 1 --map "$T/tight.map"
expect 1 "^tilenav-bench render: $T/tight.map: the 1x2-tile character fits nowhere" \
    $B render --frames 1 --map "$T/tight.map"
expect 1 "^tilenav-bench enemies: $T/tight.map: the 1x2-tile character fits nowhere" \
    $B enemies --steps 1 --frames 1 --map "$T/tight.map"
# render and enemies draw with the game's fonts: run from elsewhere they
# name --assets DIR, and take it (they had no such option)
RB=$(cd "$(dirname "$B")" && pwd)/$(basename "$B")
AS=$(pwd)/assets DM=$(pwd)/maps/demo.map
for c in "render --frames 1 --steps 1 --zooms 5 --overlays none" "enemies --steps 1 --frames 1"; do
    (cd "$T" && $RB $c --map "$DM") >/dev/null 2>"$T/err" &&
        bad "$c without fonts exited 0: $(cat "$T/err")"
    grep -q 'give --assets DIR' "$T/err" || bad "$c without fonts: $(cat "$T/err")"
    (cd "$T" && $RB $c --map "$DM" --assets "$AS") >"$T/out" 2>"$T/err" ||
        bad "$c --assets DIR failed: $(cat "$T/err")"
    grep -q 'ms' "$T/out" || bad "$c --assets DIR measured nothing: $(cat "$T/out")"
done
expect 2 "^render: --assets needs a value" $B render --map maps/demo.map --assets
"$B" --help | grep -q '^  enemies .*\[--assets DIR\]' || bad "tilenav-bench --help: enemies has no --assets"
"$B" --help | grep -q '^  render .*\[--assets DIR\]' || bad "tilenav-bench --help: render has no --assets"
# agents --only takes one of its two words (another ran the whole bench)
expect 2 "^agents: --only: 'companion' is not companions or wanderers$" \
    timeout 60 $B agents --steps 1 --runs 1 --only companion
# arrival --out names a directory: a file there (a map) is refused before
# the run, and a failure that cannot be written is said (it was dropped)
expect 1 "^arrival: --out maps/demo.map: is not a directory" \
    $B arrival --levels 1 --goals 1 --out maps/demo.map
ln -s "$T/nothing" "$T/dangling" # a link to nothing: mkdir says it exists
expect 1 "^arrival: --out $T/dangling: No such file or directory \\(a symbolic link to nothing\\?\\)$" \
    $B arrival --levels 1 --goals 1 --out "$T/dangling"
"$B" arrival --levels 5 --goals 10 --push 60 --planner graph --out /proc >/dev/null 2>"$T/err"
# /proc of the user's own (root's, outside a user namespace): used, and
# the run's folder cannot be made there (refused before the run); of
# another owner: refused
if [ "$(stat -c %u /proc 2>/dev/null)" = "$(id -u)" ]; then
    grep -q "^arrival: --out /proc: cannot create this run's folder run-[0-9]\{8\}-[0-9]\{6\}-[0-9]* in it: " "$T/err" ||
        bad "arrival --out /proc: the run's folder not made was not said: $(cat "$T/err")"
else
    grep -q '^arrival: --out /proc: is a directory owned by someone else' "$T/err" ||
        bad "arrival --out /proc (another's): not refused: $(cat "$T/err")"
fi
# the default --out is a folder of the user's own name under $TMPDIR: one
# /tmp/tilenav-arrival for everyone was refused as another's to all but
# its first user (make bench failed for a CI user after a run as root)
mkdir "$T/tmpdir"
TMPDIR="$T/tmpdir" "$B" arrival --levels 1 --goals 1 >"$T/out" 2>"$T/err"
grep -q "failures in $T/tmpdir/tilenav-arrival-$(id -u)/run-[0-9]\{8\}-[0-9]\{6\}-[0-9]*\$" "$T/out" &&
    [ -d "$T/tmpdir/tilenav-arrival-$(id -u)" ] ||
    bad "arrival's default --out is not the user's own under TMPDIR: $(cat "$T/out" "$T/err")"
# (that run had no failure: its empty run folder is not kept)
[ -z "$(ls "$T/tmpdir/tilenav-arrival-$(id -u)")" ] ||
    bad "arrival kept an empty run folder: $(ls "$T/tmpdir/tilenav-arrival-$(id -u)")"
# --out itself as a symbolic link someone else planted (the default is in
# /tmp) or a directory someone else owns is refused before the run (the
# failures went where the link led); a link of the user's own is followed
mkdir "$T/mine"
ln -s "$T/mine" "$T/ownlink"
"$B" arrival --levels 5 --goals 10 --push 60 --planner graph --out "$T/ownlink" >/dev/null 2>"$T/err"
[ -n "$(ls "$T/mine"/run-*)" ] ||
    bad "arrival --out through the user's own link wrote no failure: $(cat "$T/err")"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then # another owner needs root
    mkdir "$T/theirs" "$T/lured"
    ln -s "$T/lured" "$T/planted"
    # (root of a user namespace without nobody mapped cannot chown: skipped)
    if chown nobody "$T/theirs" 2>/dev/null && chown -h nobody "$T/planted" 2>/dev/null; then
        expect 1 "^arrival: --out $T/planted: is a symbolic link owned by someone else \(uid [0-9]+\): not followed \(name a directory of your own\)$" \
            $B arrival --levels 5 --goals 10 --push 60 --planner graph --out "$T/planted"
        # named with a trailing slash, which lstat follows: refused too
        expect 1 "^arrival: --out $T/planted/: is a symbolic link owned by someone else" \
            $B arrival --levels 5 --goals 10 --push 60 --planner graph --out "$T/planted/"
        [ -z "$(ls "$T/lured")" ] || bad "arrival wrote failures through a planted --out link"
        expect 1 "^arrival: --out $T/theirs: is a directory owned by someone else \(uid [0-9]+\)" \
            $B arrival --levels 5 --goals 10 --push 60 --planner graph --out "$T/theirs"
        [ -z "$(ls "$T/theirs")" ] || bad "arrival wrote failures into another user's --out"
    fi
fi
# genmap takes each valued option once (-o a -o b wrote only b) and no
# --blocks for a platformer level (it was ignored)
expect 2 "^genmap: -o is given twice \(give it once\)$" $gen -o "$T/g1.map" -o "$T/g2.map"
expect 2 "^genmap: --kind is given twice \(give it once\)$" $gen --kind platformer
expect 2 "^genmap: --blocks is for --kind blocks" $B genmap --kind platformer --size 16 --blocks 5
for f in g1.map g2.map; do [ -e "$T/$f" ] && bad "genmap wrote $f"; done
# arrival never writes a failure through a link planted in --out (the
# default is in /tmp): the file the link names is kept, the failures go
# into the run's own new folder (0700: none can be planted there)
mkdir "$T/arr"
echo precious >"$T/victim"
for L in 0 1 2 3 4; do
    for K in 0 1 2 3 4 5 6 7 8 9; do
        ln -s "$T/victim" "$T/arr/fail_${L}_$K.map"
        ln -s "$T/victim" "$T/arr/fail_${L}_$K.script"
    done
done
"$B" arrival --levels 5 --goals 10 --push 60 --planner graph --out "$T/arr" >/dev/null 2>"$T/err"
[ -z "$(cat "$T/err")" ] && [ -n "$(ls "$T/arr"/run-*/fail_*.script)" ] ||
    bad "arrival beside planted links: $(cat "$T/err")"
[ "$(cat "$T/victim")" = precious ] || bad "arrival wrote a failure through a planted link"
# two runs of one user at once (two checkouts, the same default --out)
# write their failures into folders of their own: in --out itself one
# overwrote the other's fail_L_K files and an older run's were mixed in
mkdir "$T/two"
"$B" arrival --levels 5 --goals 10 --push 60 --seed 1 --out "$T/two" >"$T/two1" 2>&1 &
p1=$!
"$B" arrival --levels 5 --goals 10 --push 60 --seed 2 --out "$T/two" >"$T/two2" 2>&1 &
p2=$!
wait $p1
wait $p2
d1=$(sed -n '1s/.*failures in //p' "$T/two1")
d2=$(sed -n '1s/.*failures in //p' "$T/two2")
[ "$d1" != "$d2" ] || bad "two arrival runs at once share the folder $d1"
for r in 1 2; do
    d=$(sed -n '1s/.*failures in //p' "$T/two$r")
    n=$(grep -c ' FAIL ' "$T/two$r")
    [ "$n" -gt 0 ] && [ "$(ls "$d" | wc -l)" -eq $((2 * n)) ] ||
        bad "arrival run $r: $n failures but $(ls "$d" | wc -l) files in $d: $(ls "$d" | tr '\n' ' ')"
    sed -n 's/.* FAIL .* (\([0-9]*,[0-9]*\))->(\([0-9]*,[0-9]*\)).*\[\(.*\)\.map\]$/\1 \2 \3/p' \
        "$T/two$r" >"$T/fails$r"
    [ "$(wc -l <"$T/fails$r")" -eq "$n" ] || bad "arrival run $r: unread FAIL lines"
    while read -r from to f; do
        grep -q "^# start ($from) goal ($to)" "$f.script" ||
            bad "arrival run $r: $f.script is not its failure ($from)->($to): $(sed -n 2p "$f.script")"
    done <"$T/fails$r"
done
# a run killed before it ends (Ctrl-C, a timeout, kill -9) leaves its
# folder marked unfinished (.incomplete); they piled up in --out.  The next
# run removes those whose process is gone, and says so; it keeps a live
# run's folder (locked, its process running), a finished run's (no mark:
# its failures are the user's to read) and one holding a file not a run's.
mkdir "$T/left"
dead=$(sh -c 'echo $$') # a process number no longer running
if kill -0 "$dead" 2>/dev/null; then dead=0; fi # (taken again already: 0, never one)
here=$(uname -n) # a mark holds the machine's name (gethostname), a line break
for i in 0 1 2 3 4 6; do
    d="$T/left/run-20260101-00000$i-$dead"
    mkdir "$d"
    echo map >"$d/fail_0_0.map"
    echo script >"$d/fail_0_0.script"
done
echo "$here" >"$T/left/run-20260101-000000-$dead/.incomplete" # killed: removed
# (000001: finished, kept)
echo "$here" >"$T/left/run-20260101-000002-$dead/.incomplete" # the user's notes in it: kept
echo mine >"$T/left/run-20260101-000002-$dead/notes.txt"
echo "$here" >"$T/left/run-20260101-000003-$dead/.incomplete" # locked by a live process: kept
# a run on another machine sharing --out (NFS): its PID is no process here,
# and its lock may not be seen here either: kept
echo "not-$here" >"$T/left/run-20260101-000006-$dead/.incomplete"
sleep 60 &
alive=$!
mkdir "$T/left/run-20260101-000005-$alive" # its process runs: kept
echo "$here" >"$T/left/run-20260101-000005-$alive/.incomplete"
if command -v flock >/dev/null 2>&1; then
    flock "$T/left/run-20260101-000003-$dead" sh -c "echo \$\$ >'$T/lockpid'; exec sleep 60" &
    n=0
    while [ ! -s "$T/lockpid" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
else
    rm "$T/left/run-20260101-000003-$dead/.incomplete" # (no flock(1): a finished one)
fi
"$B" arrival --levels 1 --goals 1 --out "$T/left" >"$T/out" 2>"$T/err"
grep -q "^arrival: removed $T/left/run-20260101-000000-$dead: the folder of a run that did not finish (process $dead is gone), 2 files in it\$" "$T/err" ||
    bad "arrival did not say it removed the killed run's folder: $(cat "$T/err")"
grep -q "removed" "$T/out" && bad "the removal was said on stdout (the run's table): $(cat "$T/out")"
grep -q "^arrival: $T/left/run-20260101-000002-$dead: a run that did not finish (process $dead is gone), kept: it holds notes.txt, which is not the run's\$" "$T/err" ||
    bad "arrival did not say why it kept the folder with notes: $(cat "$T/err")"
[ ! -e "$T/left/run-20260101-000000-$dead" ] || bad "arrival left a killed run's folder"
for i in 1 2 3 4 6; do
    [ -f "$T/left/run-20260101-00000$i-$dead/fail_0_0.map" ] ||
        bad "arrival removed run-20260101-00000$i-$dead: $(ls -A "$T/left")"
done
[ -f "$T/left/run-20260101-000005-$alive/.incomplete" ] || bad "arrival removed a live process's folder"
[ "$(cat "$T/left/run-20260101-000002-$dead/notes.txt")" = mine ] || bad "the user's notes are gone"
[ -s "$T/lockpid" ] && kill "$(cat "$T/lockpid")"
kill "$alive"
wait 2>/dev/null
# the real thing: a run still going keeps its folder, killed it is removed
mkdir "$T/live"
timeout -s KILL 300 "$B" arrival --levels 100000 --goals 10 --push 60 --planner graph \
    --out "$T/live" >"$T/live.out" 2>&1 &
n=0
# (its folder and mark come first, before any level: failures, which
# took long under ASan on a loaded machine, are not waited for)
while ! ls "$T/live"/run-*/.incomplete >/dev/null 2>&1 && [ $n -lt 600 ]; do
    sleep 0.1
    n=$((n + 1))
done
run=$(ls -d "$T/live"/run-* 2>/dev/null | head -1)
if [ -z "$run" ]; then
    bad "the long arrival run made no folder in 60 s: $(cat "$T/live.out")"
else
    "$B" arrival --levels 1 --goals 1 --out "$T/live" >"$T/out" 2>&1
    [ -f "$run/.incomplete" ] ||
        bad "a live run's folder $run lost its mark to a second run: $(cat "$T/out")"
    grep -q '^arrival: removed' "$T/out" && bad "a second run removed something: $(cat "$T/out")"
    kill -KILL "${run##*-}" # its process (the PID in its name)
    wait
    [ -f "$run/.incomplete" ] || bad "a killed run's folder is not marked unfinished"
    "$B" arrival --levels 1 --goals 1 --out "$T/live" >"$T/out" 2>&1
    grep -q "^arrival: removed $run: the folder of a run that did not finish (process ${run##*-} is gone), [0-9][0-9]* files\? in it\$" "$T/out" &&
        [ ! -e "$run" ] || bad "the killed run's folder $run was not removed: $(cat "$T/out")"
fi
# a run that ends leaves no mark (its folder is a finished run's)
for r in 1 2; do
    d=$(sed -n '1s/.*failures in //p' "$T/two$r")
    [ ! -e "$d/.incomplete" ] || bad "a finished run's folder $d is marked unfinished"
done
# a file name's control bytes are shown as \xNN, as the game shows them,
# never sent raw to the terminal (an ESC in a name recoloured it)
esc=$(printf 'x\033[31my.map')
printf 'junk\n' >"$T/$esc"
for c in "soak --steps 1 --seed 1 --map" "render --frames 1 --map" \
    "enemies --steps 1 --frames 1 --map" "navmesh --reps 1" "cdt --runs 1 --map"; do
    $B $c "$T/$esc" >/dev/null 2>"$T/err"
    grep -q 'x\\x1b\[31my\.map:1:1: missing header' "$T/err" && ! grep -q "$(printf '\033')" "$T/err" ||
        bad "$c: the name was not shown escaped: $(od -c "$T/err" | head -3)"
done
# an option given twice is refused (the last one won: soak ran b.map),
# but cdt --map, a list, may be repeated; its 65th map is refused, not dropped
expect 2 "^soak: --map is given twice \(give it once\)$" \
    $B soak --steps 1 --seed 1 --map maps/demo.map --map maps/arena.map
expect 2 "^render: --zooms is given twice \(give it once\)$" \
    $B render --frames 1 --zooms 1 --zooms 2 --map maps/demo.map
expect 2 "^arrival: --levels is given twice \(give it once\)$" \
    $B arrival --levels 5 --levels 5 --goals 1
# --NAME=VALUE is no form any command takes: said naming the option, also
# as a repeat (--levels 5 --levels=6 was an "unknown option '--levels=6'",
# and --levels=5 --levels=5 "--levels=5 is given twice")
expect 2 "^arrival: --levels=6: give the value as the next word \(--levels 6\), not after '='$" \
    $B arrival --levels 5 --levels=6 --goals 1
expect 2 "^arrival: --levels=5: give the value as the next word \(--levels 5\), not after '='$" \
    $B arrival --levels=5 --levels=5 --goals 1
expect 2 "^soak: --map=maps/demo.map: give the value as the next word \(--map maps/demo.map\)" \
    $B soak --steps 1 --seed 1 --map=maps/demo.map
"$B" cdt --runs 1 --map maps/demo.map --map maps/arena.map >"$T/out" 2>"$T/err" ||
    bad "cdt --map A --map B failed: $(cat "$T/err")"
grep -q 'arena.map' "$T/out" || bad "cdt --map A --map B did not run B: $(cat "$T/out")"
expect 2 "^cdt: --map takes at most 64 maps$" \
    $B cdt --runs 1 --map $(i=0; while [ $i -lt 65 ]; do printf 'maps/demo.map '; i=$((i + 1)); done)
# cdt -o and --alternate belong to the dumps: elsewhere they were ignored
expect 2 "^cdt: -o goes with --dump-input or --dump-points$" \
    $B cdt --points 5 --runs 1 -o "$T/ignored.json"
[ -e "$T/ignored.json" ] && bad "cdt --points wrote -o"
expect 2 "^cdt: --alternate goes with --dump-input$" \
    $B cdt --runs 1 --map maps/demo.map --alternate maps/arena.map
# and good numbers still run
$B flow --size 16 --reps 1 --edits 1 >"$T/out" 2>&1 || bad "flow --size 16 failed: $(cat "$T/out")"
grep -q "16x16 .*maze rebuild" "$T/out" || bad "flow --size 16 did not run the 16x16 maze: $(cat "$T/out")"

[ "$fail" -eq 0 ] && echo "bench_cli: ok"
exit "$fail"
