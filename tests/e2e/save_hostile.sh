#!/bin/sh
# save_hostile.sh - what saving may and may not do to the files around it
# (issue 12, items 1-9), each case as a headless run with a script that
# saves ("N save FILE": the same tn_save_map as Ctrl+S) or a --screenshot:
#   concurrent   4 processes saving one map 150 times each: every save
#                succeeds, the map is never short or empty, no temporary left
#   stale-tmp    a temporary left by a killed save is removed by the next save;
#                files only named like one (MAP.tmp-PID-notes.txt) are kept
#   fifo, dev    a FIFO or a device (a private /dev/null) as target: refused, left as it was
#   tmp-link     a planted MAP.tmp symlink is not followed
#   via-link     a map saved through a symlink: the link stays, its target changes
#   mode         a 0600 map stays 0600; a 0444 map is refused, unchanged
#   movingai     a Moving AI map saved without edits is byte-identical; an
#                edit keeps the other letters; a one-way edit is refused
#                with a message naming `save FILE`, the file unchanged
#   comments     a tilenav map keeps its leading comment lines
#   start        a block toggled onto the start tile and off again keeps P
#   start-covered  a block left on the start: .map and .tmx saves keep the
#                start under it; taken away after a reload, P is back
#   shot         a screenshot that cannot be written (file size limit)
#                keeps the old picture and names the cause
#   shot-link    a screenshot named through a link to a map (and the script's
#                `screenshot` to a map): refused, the map left byte for byte
#   write-error  the same for a map save
#   spelling     a map saved as ./x.map, then as x.map: both pass (one file,
#                one record of what it holds)
#   fsync        (with strace) file fsync, rename, directory fsync, in that order
#   long-name    a map whose name has 250 bytes (a directory entry holds 255)
#                is saved: its temporary's name is cut to fit; none is left
#   not-a-map    `save FILE` over a file that is not a map (the script being
#                run, notes, a .json that is no Tiled map, a broken .tmx):
#                refused, each left byte for byte; an empty file and another
#                map are replaced
#
#   sh tests/e2e/save_hostile.sh BUILD_DIR     (from the repository root)
BUILD=${1:-build}
BIN="$BUILD/tilenav"
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
if [ ! -x "$BIN" ]; then
    echo "save_hostile: $BIN is missing (build it first)" >&2
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-save.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
cases=0
ok() { cases=$((cases + 1)); }
bad() { cases=$((cases + 1)); fails=$((fails + 1)); echo "save_hostile: FAIL $*"; }
# run MAP SCRIPT-TEXT [FRAMES]: a headless run; stderr in $T/err, exit in $rc
run() {
    printf '%s\n' "$2" >"$T/s.script"
    "$BIN" --headless --map "$1" --frames "${3:-2}" --script "$T/s.script" >/dev/null 2>"$T/err"
    rc=$?
}
ntmp() { ls -a "$1" | grep -c "^$2\.tmp"; }

SMALL=tests/data/small.map
rows_of() { sed -n '/^tiles$/,$p' "$1" | sed 1d; }

# --- concurrent saves
mkdir "$T/c"
cp "$SMALL" "$T/c/m.map"
want=$(wc -c <"$T/c/m.map")
awk 'BEGIN { for (k = 0; k < 150; k++) print k " save " ARGV[1] }' "$T/c/m.map" >"$T/c.script"
pids=""
for i in 1 2 3 4; do
    "$BIN" --headless --map "$SMALL" --frames 150 --script "$T/c.script" >/dev/null 2>"$T/c/err$i" &
    pids="$pids $!"
done
short=0
for p in $pids; do
    while kill -0 "$p" 2>/dev/null; do
        n=$(wc -c <"$T/c/m.map" 2>/dev/null || echo 0)
        [ "$n" -ne "$want" ] && short=$((short + 1))
    done
done
crc=0
for p in $pids; do wait "$p" || crc=1; done
if [ "$crc" -ne 0 ] || [ -s "$T/c/err1" ] || [ -s "$T/c/err2" ] || [ -s "$T/c/err3" ] || [ -s "$T/c/err4" ]; then
    bad "concurrent: a save failed: $(cat "$T/c/err1" "$T/c/err2" "$T/c/err3" "$T/c/err4" | head -n 2)"
elif [ "$short" -ne 0 ]; then bad "concurrent: the map was seen $short times with the wrong size"
elif ! cmp -s "$T/c/m.map" "$SMALL"; then bad "concurrent: the map differs after the saves"
elif [ "$(ntmp "$T/c" m.map)" -ne 0 ]; then bad "concurrent: temporary files left: $(ls "$T/c")"
else ok
fi

# --- a stale temporary of a save that was killed (a process that is gone)
mkdir "$T/st"
cp "$SMALL" "$T/st/m.map"
sh -c 'exit 0' & dead=$!
wait $dead
echo junk >"$T/st/m.map.tmp-$dead-0000abcd"
# the user's own files that only start like one: kept
mine="m.map.tmp-$dead-notes.txt m.map.tmp-$dead-0000abcd.bak m.map.tmp-$dead-0000abc m.map.tmp-0$dead-0000abcd"
for f in $mine; do echo mine >"$T/st/$f"; done
run "$T/st/m.map" "0 save $T/st/m.map"
gone=""
for f in $mine; do [ -f "$T/st/$f" ] || gone="$gone $f"; done
if [ "$rc" -ne 0 ]; then bad "stale-tmp: the save failed: $(cat "$T/err")"
elif [ -n "$gone" ]; then bad "stale-tmp: removed files the save did not make:$gone"
elif [ "$(ntmp "$T/st" m.map)" -ne 4 ]; then bad "stale-tmp: left: $(ls "$T/st")"
else ok
fi

# --- a FIFO and a device as the target
mkfifo "$T/fifo.map"
run "$SMALL" "0 save $T/fifo.map"
if [ "$rc" -eq 0 ] || [ ! -p "$T/fifo.map" ]; then bad "fifo: saved over a FIFO (exit $rc)"
elif ! grep -q "$T/fifo.map: is not a regular file (a FIFO): not replaced" "$T/err"; then
    bad "fifo: message: $(cat "$T/err")"
else ok
fi
# A private copy of /dev/null (never the real one: an old build replaced it).
if mknod -m 666 "$T/null" c 1 3 2>/dev/null; then
    run "$SMALL" "0 save $T/null"
    if [ "$rc" -eq 0 ] || [ ! -c "$T/null" ]; then bad "dev: saved over a device (exit $rc)"
    elif ! grep -q "$T/null: is not a regular file (a device): not replaced" "$T/err"; then
        bad "dev: message: $(cat "$T/err")"
    else ok
    fi
else
    echo "save_hostile: (not root: the device case is covered by tests/bad/script-save-dev-null)"
fi

# --- a planted MAP.tmp symlink
mkdir "$T/l"
cp "$SMALL" "$T/l/m.map"
echo "precious" >"$T/l/victim"
ln -s "$T/l/victim" "$T/l/m.map.tmp"
run "$T/l/m.map" "0 toggle 5 1 block
0 save $T/l/m.map"
if [ "$rc" -ne 0 ]; then bad "tmp-link: the save failed: $(cat "$T/err")"
elif [ "$(cat "$T/l/victim")" != precious ]; then bad "tmp-link: the link's target was overwritten"
elif [ -h "$T/l/m.map" ] || ! rows_of "$T/l/m.map" | sed -n 2p | grep -q '^#....#'; then
    bad "tmp-link: the map is not the saved regular file"
else ok
fi

# --- a map saved through a symlink
mkdir "$T/v" "$T/v/real"
cp "$SMALL" "$T/v/real/m.map"
ln -s real/m.map "$T/v/link.map"
run "$T/v/link.map" "0 toggle 5 1 block
0 save $T/v/link.map"
if [ "$rc" -ne 0 ]; then bad "via-link: the save failed: $(cat "$T/err")"
elif [ ! -h "$T/v/link.map" ]; then bad "via-link: the link was replaced by a file"
elif ! rows_of "$T/v/real/m.map" | sed -n 2p | grep -q '^#....#'; then
    bad "via-link: the file the link points to was not saved"
elif [ "$(ntmp "$T/v" link.map)" -ne 0 ] || [ "$(ntmp "$T/v/real" m.map)" -ne 0 ]; then
    bad "via-link: temporary files left"
else ok
fi

# --- file modes
cp "$SMALL" "$T/p600.map"
chmod 600 "$T/p600.map"
run "$T/p600.map" "0 toggle 5 1 block
0 save $T/p600.map"
if [ "$rc" -ne 0 ] || [ "$(stat -c %a "$T/p600.map")" != 600 ]; then
    bad "mode: a 0600 map became $(stat -c %a "$T/p600.map") (exit $rc)"
else ok
fi
cp "$SMALL" "$T/p444.map"
chmod 444 "$T/p444.map"
run "$T/p444.map" "0 toggle 5 1 block
0 save $T/p444.map"
if [ "$rc" -eq 0 ] || ! cmp -s "$T/p444.map" "$SMALL" || [ "$(stat -c %a "$T/p444.map")" != 444 ]; then
    bad "mode: a read-only map was replaced (exit $rc)"
elif ! grep -q "$T/p444.map: is read-only (mode 0444): not replaced" "$T/err"; then
    bad "mode: message: $(cat "$T/err")"
else ok
fi

# --- the order on disk: the temporary flushed, renamed, then its directory
# flushed (so the rename itself survives a crash); seen with strace
if command -v strace >/dev/null 2>&1; then
    cp "$SMALL" "$T/o.map"
    printf '0 save %s\n' "$T/o.map" >"$T/o.script"
    strace -e trace=fsync,rename,renameat,renameat2 -o "$T/trace" \
        "$BIN" --headless --map "$SMALL" --frames 1 --script "$T/o.script" >/dev/null 2>&1
    got=$(grep -v '^+++' "$T/trace" | sed 's/(\([0-9]*\)[,)].*/ \1/; s/^\([a-z0-9]*\)(.*/\1/')
    tmpfd=$(echo "$got" | sed -n 1p | cut -d' ' -f2)
    dirfd=$(echo "$got" | sed -n 2p | cut -d' ' -f2)
    if [ "$(echo "$got" | cut -d' ' -f1 | tr '\n' ' ')" != "fsync renameat fsync " ] ||
        [ "$(echo "$got" | sed -n 3p | cut -d' ' -f2)" != "$dirfd" ] || [ "$tmpfd" = "$dirfd" ]; then
        bad "fsync: expected fsync(file), renameat(dir...), fsync(dir); got: $(cat "$T/trace")"
    else ok
    fi
else
    echo "save_hostile: (strace is not installed: the directory fsync is not checked)"
fi

# --- Moving AI maps stay Moving AI maps
printf 'type octile\nheight 4\nwidth 6\nmap\nTTTTTT\nWG.S.@\n@....O\nTTTTTT\n' >"$T/mai.map"
cp "$T/mai.map" "$T/mai.orig"
run "$T/mai.map" "0 save $T/mai.map"
if [ "$rc" -ne 0 ] || ! cmp -s "$T/mai.map" "$T/mai.orig"; then
    bad "movingai: an unedited save changed the file: $(cat "$T/err" "$T/mai.map")"
else ok
fi
run "$T/mai.map" "0 toggle 2 1 block
0 toggle 0 1 empty
0 save $T/mai.map"
printf 'type octile\nheight 4\nwidth 6\nmap\nTTTTTT\n.G@S.@\n@....O\nTTTTTT\n' >"$T/mai.want"
if [ "$rc" -ne 0 ] || ! cmp -s "$T/mai.map" "$T/mai.want"; then
    bad "movingai: an edit: $(cat "$T/err" "$T/mai.map")"
else ok
fi
cp "$T/mai.map" "$T/mai.orig"
run "$T/mai.map" "0 toggle 2 2 oneway
0 save $T/mai.map"
if [ "$rc" -eq 0 ] || ! cmp -s "$T/mai.map" "$T/mai.orig"; then
    bad "movingai: a one-way platform was written into a Moving AI map (exit $rc)"
elif ! grep -q 'is a Moving AI map, which cannot hold one-way platforms: not saved.*`save FILE`' "$T/err"; then
    bad "movingai: message: $(cat "$T/err")"
else ok
fi

# --- leading comments of a tilenav map
cp maps/demo.map "$T/demo.map"
run "$T/demo.map" "0 save $T/demo.map"
if [ "$rc" -ne 0 ] || ! cmp -s "$T/demo.map" maps/demo.map; then
    bad "comments: an unedited save of demo.map changed it: $(diff maps/demo.map "$T/demo.map" | head -n 5)"
else ok
fi

# --- the start tile under a block and back
cp "$SMALL" "$T/s.map"
rows_of "$SMALL" >"$T/s.rows"
run "$T/s.map" "0 toggle 1 6 block
1 toggle 1 6 block
1 save $T/s.map" 3
if [ "$rc" -ne 0 ] || ! rows_of "$T/s.map" | cmp -s - "$T/s.rows"; then
    bad "start: toggling a block on the start and back changed the map: $(rows_of "$T/s.map" | diff "$T/s.rows" - | head -n 4)"
else ok
fi

# --- a block left on the start tile: the save keeps the start under it
# ("start X Y" in a tilenav map, the start object in a .tmx); loaded again
# and the block taken away, the P is back where it was
run "$SMALL" "0 key right press
30 key right release
60 toggle 1 6 block
61 save $T/sc.map
61 save $T/sc.tmx" 62
cov=""
[ "$rc" -eq 0 ] || cov="the save failed: $(cat "$T/err")"
[ -n "$cov" ] || grep -qx 'start 1 6' "$T/sc.map" || cov="sc.map has no 'start 1 6'"
[ -n "$cov" ] || rows_of "$T/sc.map" | sed -n 7p | grep -qx '##.....#...#' || cov="sc.map: no block on the start"
[ -n "$cov" ] || grep -q 'type="start"' "$T/sc.tmx" || cov="sc.tmx has no start object"
for f in sc.map sc.tmx; do
    [ -n "$cov" ] && break
    rm -f "$T/back.map"
    run "$T/$f" "0 toggle 1 6 block
0 save $T/back.map" 1
    if [ "$rc" -ne 0 ] || ! rows_of "$T/back.map" | cmp -s - "$T/s.rows"; then
        cov="$f, block taken away: not the original map (exit $rc): $(cat "$T/err") $(rows_of "$T/back.map" 2>/dev/null | diff "$T/s.rows" - | head -n 4)"
    fi
done
if [ -n "$cov" ]; then bad "start-covered: $cov"; else ok; fi

# --- a screenshot never replaces a map: through a link, or by a script
mkdir "$T/sl"
cp "$SMALL" "$T/sl/m.map"
ln -s m.map "$T/sl/link.bmp"
cp "$SMALL" "$T/sl/typo.bmp"
printf '0 screenshot %s\n' "$T/sl/typo.bmp" >"$T/sl/s.script"
"$BIN" --map "$SMALL" --frames 1 --screenshot "$T/sl/link.bmp" >/dev/null 2>"$T/sl/err1"
r1=$?
"$BIN" --map "$SMALL" --frames 1 --screenshot "$T/sl/new.bmp" --script "$T/sl/s.script" \
    >/dev/null 2>"$T/sl/err2"
r2=$?
if [ "$r1" -ne 1 ] || [ "$r2" -ne 1 ]; then bad "shot-link: exit $r1 and $r2, expected 1 and 1"
elif ! cmp -s "$SMALL" "$T/sl/m.map" || ! cmp -s "$SMALL" "$T/sl/typo.bmp"; then
    bad "shot-link: a map was replaced by a screenshot"
elif ! grep -q "link.bmp: not replaced: it is not a BMP image" "$T/sl/err1" ||
    ! grep -q "typo.bmp: not replaced: it is not a BMP image" "$T/sl/err2"; then
    bad "shot-link: messages: $(cat "$T/sl/err1" "$T/sl/err2")"
else ok
fi

# --- a failed screenshot and a failed save (the file size limit: EFBIG)
mkdir "$T/f"
printf 'BM old picture' >"$T/f/shot.bmp" # an older screenshot (a BMP starts with BM)
(
    trap '' XFSZ
    ulimit -f 20 # 512-byte blocks: far below a 1280x720 BMP, above a small map
    "$BIN" --map "$SMALL" --frames 1 --screenshot "$T/f/shot.bmp" >/dev/null 2>"$T/f/err"
)
frc=$?
if [ "$frc" -eq 0 ] || [ "$(cat "$T/f/shot.bmp")" != "BM old picture" ]; then
    bad "shot: a failed screenshot destroyed the old file (exit $frc)"
elif ! grep -q "$T/f/shot.bmp: write error: File too large (the old file is untouched)" "$T/f/err"; then
    bad "shot: message: $(cat "$T/f/err")"
elif [ "$(ntmp "$T/f" shot.bmp)" -ne 0 ]; then bad "shot: temporary left"
else ok
fi
awk 'BEGIN { print "tilenav-map 1"; print "size 200 100"; print "tiles";
    for (y = 0; y < 100; y++) { r = ""; for (x = 0; x < 200; x++) r = r (y == 98 && x == 1 ? "P" : y == 99 ? "#" : "."); print r } }' >"$T/f/big.map"
cp "$SMALL" "$T/f/m.map"
(
    trap '' XFSZ
    ulimit -f 20
    printf '0 save %s\n' "$T/f/m.map" >"$T/f/s.script"
    "$BIN" --headless --map "$T/f/big.map" --frames 1 --script "$T/f/s.script" >/dev/null 2>"$T/f/err"
)
frc=$?
if [ "$frc" -eq 0 ] || ! cmp -s "$T/f/m.map" "$SMALL"; then
    bad "write-error: a failed save changed the map (exit $frc)"
elif ! grep -q "$T/f/m.map: write error: File too large (the old file is untouched)" "$T/f/err"; then
    bad "write-error: message: $(cat "$T/f/err")"
else ok
fi

mkdir -p "$T/sp"
cp "$SMALL" "$T/sp/x.map"
printf '0 toggle 5 5 block\n1 save ./x.map\n2 toggle 6 5 block\n3 save x.map\n' >"$T/sp/s.script"
(cd "$T/sp" && "$BIN" --headless --map x.map --frames 5 --script s.script >out 2>err)
src=$?
if [ "$src" -ne 0 ]; then
    bad "spelling: save x.map after save ./x.map failed (exit $src): $(cat "$T/sp/err")"
elif grep -q "changed on disk" "$T/sp/err"; then
    bad "spelling: a false 'changed on disk': $(cat "$T/sp/err")"
else ok
fi

# --- a map whose name is 250 bytes long
mkdir "$T/ln"
long=$(awk 'BEGIN { s = ""; for (i = 0; i < 246; i++) s = s "m"; print s ".map" }')
cp "$SMALL" "$T/ln/$long"
printf '0 toggle 5 1 block\n0 save %s\n' "$long" >"$T/ln/s.script"
(cd "$T/ln" && "$BIN" --headless --map "$long" --frames 1 --script s.script >/dev/null 2>err)
lrc=$?
if [ "$lrc" -ne 0 ]; then bad "long-name: the save failed (exit $lrc): $(cut -c 1-300 "$T/ln/err")"
elif ! rows_of "$T/ln/$long" | sed -n 2p | grep -q '^#....#'; then bad "long-name: the map was not saved"
elif [ "$(ls -a "$T/ln" | grep -c 'tmp-')" -ne 0 ]; then bad "long-name: a temporary file was left"
else ok
fi

# --- a save over a file that is not a map: refused, the file kept
mkdir "$T/nm"
printf '# notes\nimportant\n' >"$T/nm/notes.txt"
printf '{"name": "x", "version": 1}\n' >"$T/nm/pkg.json"
printf '<map>\n<broken\n' >"$T/nm/x.tmx"
for f in notes.txt pkg.json x.tmx self.script; do
    [ "$f" = self.script ] || cp "$T/nm/$f" "$T/nm/$f.orig"
    printf '0 toggle 5 1 block\n0 save %s\n' "$T/nm/$f" >"$T/nm/self.script"
    [ "$f" = self.script ] && cp "$T/nm/self.script" "$T/nm/self.script.orig"
    "$BIN" --headless --map "$SMALL" --frames 1 --script "$T/nm/self.script" >/dev/null 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 0 ]; then bad "not-a-map: $f was replaced by a map"
    elif ! cmp -s "$T/nm/$f" "$T/nm/$f.orig"; then bad "not-a-map: $f changed"
    elif ! grep -q "$T/nm/$f: not replaced: it is not a map the game reads" "$T/err"; then
        bad "not-a-map: $f: the message does not say why: $(cat "$T/err")"
    else ok
    fi
done
: >"$T/nm/empty.map"
cp tests/data/flow_basic.map "$T/nm/other.map"
run "$SMALL" "0 save $T/nm/empty.map
0 save $T/nm/other.map"
if [ "$rc" -ne 0 ]; then bad "not-a-map: saving over an empty file or a map failed: $(cat "$T/err")"
elif ! cmp -s "$T/nm/empty.map" "$SMALL" || ! cmp -s "$T/nm/other.map" "$SMALL"; then
    bad "not-a-map: an empty file or a map was not replaced by the save"
else ok
fi

echo "save_hostile: $((cases - fails)) of $cases cases passed"
[ "$fails" -eq 0 ]
