#!/bin/sh
# End-to-end: the headless game on the demo map with a script; JSON checked;
# the same run twice gives the same JSON; bad arguments exit non-zero.
set -u
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "headless.sh: $*"; exit 1; }

{ cat tests/data/walk.script; echo "140 save $T/saved.map"; } >"$T/walk.script"
out=$("$B/tilenav" --headless --map maps/demo.map --frames 300 --script "$T/walk.script" --seed 7) || fail "run failed"
echo "$out" | grep -q '^{"frames":300,"seed":7,"map":{"width":80,"height":45},"character":{' || fail "unexpected JSON: $out"
echo "$out" | grep -q '"on_ground":true' || fail "character not on the ground: $out"
# saved elsewhere: the map's own file still lacks the edits (as in the window)
echo "$out" | grep -q '"edits":2,"refused_edits":0,"unsaved":true' || fail "edits/save not reflected: $out"
# saved over the map's own file: nothing unsaved any more
cp maps/demo.map "$T/own.map"
printf '10 toggle 30 5 block\n20 save %s\n' "$T/own.map" > "$T/own.script"
own=$("$B/tilenav" --headless --map "$T/own.map" --frames 30 --script "$T/own.script") || fail "own-file run failed"
echo "$own" | grep -q '"edits":1,"refused_edits":0,"unsaved":false' || fail "save over the map's file still unsaved: $own"
# edits a headless run does not save are dropped, as the README and the
# manual page say: no MAP.autosave, no word on stderr, the map untouched
cp maps/demo.map "$T/drop.map"
printf '10 toggle 30 5 block\n' > "$T/drop.script"
drop=$("$B/tilenav" --headless --map "$T/drop.map" --frames 20 --script "$T/drop.script" 2>"$T/drop.err") \
    || fail "unsaved headless run failed: $(cat "$T/drop.err")"
echo "$drop" | grep -q '"edits":1,"refused_edits":0,"unsaved":true' || fail "unsaved headless edit: $drop"
[ ! -e "$T/drop.map.autosave" ] || fail "a headless run wrote drop.map.autosave"
[ ! -s "$T/drop.err" ] || fail "unsaved headless run: stderr '$(cat "$T/drop.err")', want none"
cmp -s maps/demo.map "$T/drop.map" || fail "a headless run changed the map it did not save"
# a map given without --map is the one played (and saved); later ones only join the picker
printf 'tilenav-map 1\nsize 6 4\ntiles\n......\n.P....\n......\n######\n' > "$T/pos.map"
printf '10 toggle 4 1 block\n20 save %s\n' "$T/pos.map" > "$T/pos.script"
pos=$("$B/tilenav" --headless --frames 30 --script "$T/pos.script" "$T/pos.map" maps/demo.map) \
    || fail "positional-map run failed"
echo "$pos" | grep -q '"map":{"width":6,"height":4}' || fail "the positional map was not played: $pos"
echo "$pos" | grep -q '"edits":1,"refused_edits":0,"unsaved":false' || fail "save over the positional map still unsaved: $pos"
sed -n '5p' "$T/pos.map" | grep -qx '.P..#.' || fail "the positional map's file lacks the edit"
pos=$("$B/tilenav" --headless --frames 1 --map maps/demo.map "$T/pos.map") || fail "--map with a positional map failed"
echo "$pos" | grep -q '"map":{"width":80,"height":45}' || fail "--map did not win over a positional map: $pos"
# a `set` refused by a rule: a warning naming the line and the reason, counted, not fatal
printf '0 set char_height 3\n5 set char_height 9\n' > "$T/grow.script"
grow=$("$B/tilenav" --headless --map tests/data/small.map --frames 10 --script "$T/grow.script" 2>"$T/grow.err") \
    || fail "refused set: the run failed: $(cat "$T/grow.err")"
want="tilenav: warning: $T/grow.script:2: set char_height 9 refused (frame 5): no room for a 1x9 character here (it stays 1x3): move to open space first"
[ "$(cat "$T/grow.err")" = "$want" ] || fail "refused set: stderr '$(cat "$T/grow.err")', want '$want'"
echo "$grow" | grep -q '"height":3},"jump_height":4.00,"edits":0,"refused_edits":1,' || fail "refused set not counted: $grow"
# a map above the graph planner's 1024x1024 tiles: goto is off, and says so (stderr, JSON)
awk 'BEGIN { print "tilenav-map 1"; print "size 1100 1000"; print "tiles";
             for (y = 0; y < 1000; y++) { r = ""; for (x = 0; x < 1100; x++) r = r (y == 999 ? "#" : ".");
                                          print r } }' >"$T/big.map"
printf '5 goto 20 998\n' >"$T/big.script"
big=$("$B/tilenav" --headless --map "$T/big.map" --frames 10 --script "$T/big.script" 2>"$T/big.err") \
    || fail "big map: the run failed: $(cat "$T/big.err")"
want="tilenav: warning: $T/big.script:1: goto 20 998 refused (frame 5): goto is off: the 1100x1000 map has 1100000 tiles, more than the graph planner's 1048576 (1024x1024)"
[ "$(cat "$T/big.err")" = "$want" ] || fail "big map: stderr '$(cat "$T/big.err")', want '$want'"
# README: a refused goto is warned about (above) but not counted in refused_edits
echo "$big" | grep -q '"edits":0,"refused_edits":0,' || fail "big map: a refused goto was counted: $big"
echo "$big" | grep -q '"bot":{"state":"idle","goal_x":-1,"goal_y":-1,"arrived":false,"path_nodes":0,"replans":0,"expanded":0,"extra_bots":0,"extra_trips":0,"extra_arrivals":0,"planner":"none","plan_frames":-1,"off":true}' \
    || fail "big map: the bot's JSON does not say goto is off: $big"
# the navmesh is off where its outlines would need more than 160 MB: a
# checkerboard of blocks from about 375x375 tiles up (README, tilenav.6;
# it read "over 400x400", but 376x376 is already off), on below that
for n in 374 376; do
    awk -v n=$n 'BEGIN { print "tilenav-map 1"; print "size " n " " n; print "tiles";
                 for (y = 0; y < n; y++) { r = "";
                     for (x = 0; x < n; x++) {
                         c = ".";
                         if (y == n - 1 || (y > 0 && y < n - 3 && (x + y) % 2 == 0)) c = "#";
                         if (y == n - 2 && x == 2) c = "P";
                         r = r c }
                     print r } }' >"$T/cb$n.map"
    cb=$("$B/tilenav" --headless --map "$T/cb$n.map" --frames 1) || fail "checkerboard $n: the run failed"
    case "$n:$cb" in
    374:*'"navmesh":{"triangles":1'*'"build_ms":null}'*) ;;
    376:*'"navmesh":{"triangles":0,"regions":0,"build_ms":null,"off":true}'*) ;;
    *) fail "checkerboard ${n}x$n: navmesh $(echo "$cb" | grep -o '"navmesh":{[^}]*}')" ;;
    esac
done
# above the classic finder's 512x512 the graph plans (the classic planner selected or not)
awk 'BEGIN { print "tilenav-map 1"; print "size 600 600"; print "tiles";
             for (y = 0; y < 600; y++) { r = ""; for (x = 0; x < 600; x++) r = r (y == 599 ? "#" : ".");
                                         print r } }' >"$T/mid.map"
printf '0 set planner 0\n5 goto 20 598\n' >"$T/mid.script"
mid=$("$B/tilenav" --headless --map "$T/mid.map" --frames 3000 --script "$T/mid.script" 2>"$T/mid.err") \
    || fail "600x600 map: the run failed: $(cat "$T/mid.err")"
echo "$mid" | grep -q '"bot":{"state":"arrived","goal_x":20,"goal_y":598,"arrived":true,.*"planner":"graph","plan_frames":[0-9]*}' \
    || fail "600x600 map: the graph did not take the bot to its goal: $mid"
tx=$(echo "$out" | sed -n 's/.*"tile_x":\([0-9]*\).*/\1/p')
[ "$tx" -gt 6 ] || fail "character did not walk right (tile_x=$tx)"
# the saved map has the two edits (tile row 5) and loads again; saved under
# another name, it keeps the demo map's leading comment lines
sed -n '/^tiles$/,$p' "$T/saved.map" | sed -n '7p' | cut -c31-32 | grep -qx '#=' || fail "saved map lacks the edits"
[ "$(sed -n '/^tilenav-map/q;p' "$T/saved.map")" = "$(sed -n '/^tilenav-map/q;p' maps/demo.map)" ] ||
    fail "save FILE dropped the map's leading comments: $(head -n 3 "$T/saved.map")"
again=$("$B/tilenav" --headless --map "$T/saved.map" --frames 1) || fail "saved map does not load"
out2=$("$B/tilenav" --headless --map maps/demo.map --frames 300 --script "$T/walk.script" --seed 7) || fail "second run failed"
[ "$out" = "$out2" ] || fail "not deterministic:\n$out\n$out2"

# README's "Headless JSON" example is what its own command prints: the script S
# is read from the README's text, the example unwrapped (lines joined, indents dropped)
sed -n '/^## Headless JSON/,/^## /p' README.md >"$T/readme.sec"
grep -q '`tilenav --headless --map maps/demo.map --frames 600 --script S`' "$T/readme.sec" \
    || fail "README's Headless JSON example no longer names its command"
sed -n '/^(`tilenav --headless/,/)$/p' "$T/readme.sec" | tr '\n' ' ' | sed 's/.*with S =//' \
    | grep -o '`[0-9][^`]*`' | tr -d '`' >"$T/readme.script"
[ "$(wc -l <"$T/readme.script")" -ge 1 ] || fail "README's Headless JSON example: no script S found"
want=$(sed -n '/^```json$/,/^```$/p' "$T/readme.sec" | sed '1d;$d' | sed 's/^ *//' | tr -d '\n')
got=$("$B/tilenav" --headless --map maps/demo.map --frames 600 --script "$T/readme.script") \
    || fail "README's Headless JSON command failed"
keys() { echo "$1" | grep -o '"[a-z_]*":' | tr -d '\n'; }
[ "$(keys "$want")" = "$(keys "$got")" ] \
    || fail "README's Headless JSON example has other keys than the real output:
README: $want
real:   $got"
[ "$want" = "$got" ] || fail "README's Headless JSON example differs from the real output (regenerate it):
README: $want
real:   $got"

# README's re-plan example ("Watch the search think"): the script it names,
# `5 goto 47 20`, `60 set jump_height H`, re-plans once, and that search
# expands the N nodes the README's bar and HUD show (`N/N`, `| N nodes`).
# It said 132 for jump height 2 while the re-plan expanded 1 node.
line=$(tr '\n' ' ' <README.md | grep -o 'the script `5 goto 47 20`, `60 set jump_height [0-9]*`: *`[0-9]*/[0-9]*` beside *`re-plan 1 (physics changed) | [0-9]* nodes`') ||
    fail "README's re-plan example (5 goto 47 20, 60 set jump_height H: N/N ... N nodes) not found"
jh=$(echo "$line" | sed 's/.*jump_height \([0-9]*\)`.*/\1/')
n=$(echo "$line" | sed 's/.*| \([0-9]*\) nodes`.*/\1/')
bar=$(echo "$line" | sed 's/.*`\([0-9]*\/[0-9]*\)` beside.*/\1/')
[ "$bar" = "$n/$n" ] || fail "README's re-plan example: the bar's $bar is not $n/$n"
tr '\n' ' ' <README.md | grep -q "replay: now re-plan 1 (physics changed): $n nodes" ||
    fail "README's re-plan example: the status line's count is not $n"
printf '5 goto 47 20\n60 set jump_height %s\n' "$jh" >"$T/replan.script"
rp=$("$B/tilenav" --headless --map maps/demo.map --frames 900 --script "$T/replan.script") ||
    fail "README's re-plan example: the run failed"
echo "$rp" | grep -q "\"replans\":1,\"expanded\":$n," ||
    fail "README's re-plan example says 1 re-plan of $n nodes (jump height $jh); the run: $(echo "$rp" | grep -o '"bot":{[^}]*}')"

# errors: message on stderr, non-zero exit, nothing on stdout
check_err() {
    want_rc=$1; want_msg=$2; shift 2
    msg=$("$@" 2>&1 >/dev/null); rc=$?
    [ "$rc" -eq "$want_rc" ] || fail "'$*' exited $rc, want $want_rc"
    [ "$msg" = "$want_msg" ] || fail "'$*' said '$msg', want '$want_msg'"
}
check_err 2 "tilenav: --headless needs --frames N (N >= 1) (see tilenav --help)" "$B/tilenav" --headless
check_err 2 "tilenav: unknown option '--fast' (see tilenav --help)" "$B/tilenav" --fast
check_err 1 "tilenav: maps/none.map: cannot open: No such file or directory" "$B/tilenav" --headless --frames 1 --map maps/none.map
printf '0 key left press\n5 warp 1 2\n' > "$T/bad.script"
check_err 1 "tilenav: $T/bad.script:2: unknown command 'warp' (expected key, click, toggle, set, goto, knock, tool, save, screenshot, wanderers, reset, pause or playback)" \
    "$B/tilenav" --headless --frames 10 --map maps/demo.map --script "$T/bad.script"
# knock-back mid-trip (classic planner, demo map): in the air at frame 185
# (mid-jump) and on the ground at frame 240, pushed off the walk's
# lattice, the bot re-plans (landed off the path) and still arrives; no
# warning (a knock in the air is one too)
printf '0 set planner 0\n0 goto 33 36\n185 knock -0.9\n240 knock 1.3\n' >"$T/knock.script"
kn=$("$B/tilenav" --headless --map maps/demo.map --frames 700 --script "$T/knock.script" 2>"$T/knock.err") \
    || fail "knock: the run failed: $(cat "$T/knock.err")"
echo "$kn" | grep -q '"bot":{"state":"arrived","goal_x":33,"goal_y":36,"arrived":true,"path_nodes":3,"replans":1,' \
    || fail "knock: the knocked bot did not arrive after one re-plan: $kn"
[ ! -s "$T/knock.err" ] || fail "knock: stderr '$(cat "$T/knock.err")', want none"
# the graph bot knocked in the air (frame 100, mid-jump on its way to
# (47,20)) steers its jump back onto its landing: it arrives, no re-plan
printf '0 goto 47 20\n100 knock -1.3\n' >"$T/knock_air.script"
ka=$("$B/tilenav" --headless --map maps/demo.map --frames 800 --script "$T/knock_air.script") \
    || fail "knock in the air: the run failed"
echo "$ka" | grep -q '"bot":{"state":"arrived","goal_x":47,"goal_y":20,"arrived":true,"path_nodes":9,"replans":0,' \
    || fail "knock in the air: the graph bot did not arrive without a re-plan: $ka"
"$B/tilenav" --help | grep -q -- '--headless' || fail "--help does not list --headless"
exit 0
