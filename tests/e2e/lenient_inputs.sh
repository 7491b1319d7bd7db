#!/bin/sh
# lenient_inputs.sh - inputs that are odd but right are accepted (issue 12,
# item 12), through the real binary:
#   a map and a script starting with a UTF-8 byte-order mark
#   comment lines after a map's last tile row (a '#' line of another width)
#   "tilenav-map 1 " (a trailing blank) and blanks after other header lines
#   an --overlays list longer than 255 characters (all of it is read)
#   script commands after --frames: a warning on stderr and
#   "unrun_commands":N in the JSON (0 when all ran)
#   a Tiled object placed from template="/dev/stdin": refused at once with
#   its line ("not a regular file"); the game does not read its standard
#   input for it (held open, with no data: a read would wait)
#   a malformed settings file (a window run, SDL's offscreen driver): ignored
#   with FILE:LINE, and on exit kept as settings.bad byte for byte before a
#   fresh one is written (a hand edit with one typo is not lost)
#   `reset` of a map read from a pipe (--map /dev/stdin): back to what was read
#   a start with no room for the character: played, with a warning naming it
#   sh tests/e2e/lenient_inputs.sh BUILD_DIR     (from the repository root)
BUILD=${1:-build}
BIN="$BUILD/tilenav"
[ -x "$BIN" ] || { echo "lenient_inputs: $BIN is missing (build it first)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-lenient.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
bad() { fails=$((fails + 1)); echo "lenient_inputs: FAIL $*"; }

printf '\357\273\277' >"$T/bom.map"
sed '2s/$/ /; 3s/$/\t/' tests/data/small.map >>"$T/bom.map"   # "tilenav-map 1 ", "size 12 8\t"
printf '\357\273\277# walk\n0 key right press\n4 toggle 5 1 block\n' >"$T/bom.script"
out=$("$BIN" --headless --map "$T/bom.map" --frames 5 --script "$T/bom.script" 2>"$T/err")
rc=$?
if [ "$rc" -ne 0 ] || [ -s "$T/err" ]; then bad "BOM map/script, trailing blanks: exit $rc: $(cat "$T/err")"
else
    case "$out" in *'"edits":1,'*'"unrun_commands":0}') ;; *) bad "BOM run: $out" ;; esac
fi

# comment lines after the last tile row, '#' lines of another width among them
{ cat tests/data/small.map; printf '# the end\n#####\n\n#\n'; } >"$T/tail.map"
out=$("$BIN" --headless --map "$T/tail.map" --frames 1 2>"$T/err")
rc=$?
if [ "$rc" -ne 0 ] || [ -s "$T/err" ]; then bad "comments after the rows: exit $rc: $(cat "$T/err")"
else
    case "$out" in *'"map":{"width":12,"height":8}'*) ;; *) bad "comments after the rows: $out" ;; esac
fi

long=$(awk 'BEGIN { s = "path"; for (i = 0; i < 60; i++) s = s ",explored"; print s ",flow" }')
"$BIN" --map tests/data/small.map --frames 1 --overlays "$long" --screenshot "$T/o.bmp" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ -s "$T/o.bmp" ] || bad "a ${#long}-character --overlays list: exit $rc: $(cat "$T/err")"

printf '0 key right press\n3 save %s\n8 key right release\n9 toggle 5 1 block\n' "$T/late.map" >"$T/late.script"
out=$("$BIN" --headless --map tests/data/small.map --frames 5 --script "$T/late.script" 2>"$T/err")
rc=$?
want="tilenav: warning: $T/late.script: 2 commands not run: scheduled after the last frame (5), the first at line 3 (frame 8); raise --frames to run them"
if [ "$rc" -ne 0 ]; then bad "late commands: exit $rc"
elif [ "$(cat "$T/err")" != "$want" ]; then bad "late commands: stderr: $(cat "$T/err")"
else
    case "$out" in *'"unrun_commands":2}') ;; *) bad "late commands: JSON: $out" ;; esac
    [ -f "$T/late.map" ] || bad "late commands: the save at frame 3 did not run"
fi
sed -e 's|^  <object id="1" class="spawn"|  <object id="90" template="/dev/stdin" x="5" y="5"/>\
  <object id="1" class="spawn"|' -e "s|source=\"../assets/tilenav.tsx\"|source=\"$PWD/assets/tilenav.tsx\"|" \
    maps/demo.tmx >"$T/tmpl.tmx"
mkfifo "$T/in"
exec 3<>"$T/in" # a writer that never writes: a read of it waits
timeout 20 "$BIN" --headless --map "$T/tmpl.tmx" --frames 1 <"$T/in" >/dev/null 2>"$T/err"
rc=$?
exec 3>&-
grep -q 'template="/dev/stdin"' "$T/tmpl.tmx" || bad "template /dev/stdin: the test map was not made"
if [ "$rc" -ne 1 ]; then bad "template /dev/stdin: exit $rc (124: it waited on its standard input): $(cat "$T/err")"
elif ! grep -q "tmpl.tmx:[0-9]*: object 90: template /dev/stdin: not a regular file" "$T/err"; then
    bad "template /dev/stdin: not refused with its line: $(cat "$T/err")"
fi

mkdir -p "$T/cfg/tilenav"
S=$T/cfg/tilenav/settings
printf '# mine\nspeed 3\nbias 0.9 # by hand\nzoom fast\n' >"$S"
cp "$S" "$T/settings.orig"
XDG_CONFIG_HOME="$T/cfg" SDL_VIDEODRIVER=offscreen ASAN_OPTIONS=detect_leaks=0 \
    "$BIN" --map tests/data/small.map --frames 2 --assets assets >/dev/null 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ]; then bad "malformed settings: exit $rc: $(cat "$T/err")"
elif ! grep -q "settings ignored: $S:4: expected 'NAME NUMBER'" "$T/err"; then
    bad "malformed settings: not reported with file and line: $(cat "$T/err")"
elif ! cmp -s "$S.bad" "$T/settings.orig"; then bad "malformed settings: not kept as settings.bad"
elif ! grep -q "kept as $S.bad" "$T/err"; then bad "malformed settings: the move is not said: $(cat "$T/err")"
elif ! grep -q '^speed ' "$S"; then bad "malformed settings: no fresh settings file written"
fi
# --frames 0 in a window is no limit (the default), as --help and the manual
# page say: the game plays on until it is quit, rather than stopping at once
XDG_CONFIG_HOME="$T/cfg0" SDL_VIDEODRIVER=offscreen ASAN_OPTIONS=detect_leaks=0 \
    timeout 3 "$BIN" --map tests/data/small.map --frames 0 --assets assets >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 124 ] || bad "--frames 0 in a window: exit $rc, not still running after 3 s: $(cat "$T/err")"
# a map read from a pipe: `reset` goes back to what was read (the pipe has
# nothing left to read a second time)
printf '0 toggle 5 1 block\n5 reset\n' >"$T/reset.script"
out=$(cat tests/data/small.map | "$BIN" --headless --map /dev/stdin --frames 10 --script "$T/reset.script" 2>"$T/err")
rc=$?
if [ "$rc" -ne 0 ] || [ -s "$T/err" ]; then bad "reset of a piped map: exit $rc: $(cat "$T/err")"
else
    case "$out" in *'"map":{"width":12,"height":8}'*'"edits":0,'*) ;; *) bad "reset of a piped map: $out" ;; esac
fi

# a start with no room for the character: played from the nearest place
# it fits, with a warning naming the 'P' (file, line, column) and that place
printf 'tilenav-map 1\nsize 5 4\ntiles\n.....\n.#...\n.P...\n#####\n' >"$T/nofit.map"
out=$("$BIN" --headless --map "$T/nofit.map" --frames 1 2>"$T/err")
rc=$?
want="tilenav: warning: $T/nofit.map:6:2: the 1x2-tile character does not fit at its start, tile (1,2) (a block or the map's edge is in the way): it starts at tile (0,2) instead, the nearest place it fits"
if [ "$rc" -ne 0 ]; then bad "start with no room: exit $rc: $(cat "$T/err")"
elif [ "$(cat "$T/err")" != "$want" ]; then bad "start with no room: stderr: $(cat "$T/err")"
else
    case "$out" in *'"character":{"x":0.00,'*) ;; *) bad "start with no room: JSON: $out" ;; esac
fi

[ "$fails" -eq 0 ] && echo "lenient_inputs: ok (BOM map and script, trailing blanks, comments after the rows, ${#long}-character overlay list, unrun commands counted, no read of stdin for a template (refused), malformed settings kept, reset of a piped map, a start with no room warned)"
[ "$fails" -eq 0 ]
