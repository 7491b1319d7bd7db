#!/bin/sh
# End-to-end: the demo map from Tiled (maps/demo.tmx) and from tilenav's own
# format (maps/demo.map) give the same headless JSON for the same script;
# a scripted save to .tmx / .tmj keeps the Tiled document (tileset,
# properties, objects) and loads again as the edited map.
set -u
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "tiled_headless.sh: $*"; exit 1; }

{
    cat tests/data/walk.script
    printf '140 save %s.tmx\n141 save %s.tmj\n142 save %s.map\n' "$T/saved" "$T/saved" "$T/saved"
} >"$T/walk.script"
a=$("$B/tilenav" --headless --map maps/demo.map --frames 300 --script "$T/walk.script" --seed 7) || fail "demo.map run failed"
mv "$T/saved.map" "$T/from-map.map"
b=$("$B/tilenav" --headless --map maps/demo.tmx --frames 300 --script "$T/walk.script" --seed 7) || fail "demo.tmx run failed"
[ "$a" = "$b" ] || fail "demo.tmx and demo.map give different JSON:
$a
$b"
# saved to other files: the map's own file still lacks the edits
echo "$a" | grep -q '"edits":2,"refused_edits":0,"unsaved":true' || fail "edits/save not reflected: $a"
# The saved Tiled maps load as the saved tilenav map (the same edits).
for f in saved.tmx saved.tmj; do
    c=$("$B/tilenav" --headless --map "$T/$f" --frames 60 --seed 3) || fail "$f does not load"
    d=$("$B/tilenav" --headless --map "$T/from-map.map" --frames 60 --seed 3) || fail "from-map.map does not load"
    [ "$c" = "$d" ] || fail "$f is not the edited map"
done
# The .tmx saved elsewhere still uses the shipped tileset (path rewritten)
# and keeps the map's properties and the tile objects.
grep -q 'tilenav.tsx"' "$T/saved.tmx" || fail "saved.tmx lost its tileset"
grep -q 'name="title" value="tilenav demo"' "$T/saved.tmx" || fail "saved.tmx lost the map's properties"
grep -q 'class="dest" gid="4"' "$T/saved.tmx" || fail "saved.tmx lost the tile objects"
exit 0
