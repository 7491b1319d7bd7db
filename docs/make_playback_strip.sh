#!/bin/sh
# Makes docs/playback-strip.png (and docs/playback.gif): the replay of the
# classic planner's A* search behind one goto on maps/demo.map, and
# docs/playback-graph.png: the graph planner's search for the same goto, by the game's own
# script commands (`goto`, `playback N`, `screenshot`) in a window under a
# private Xvfb display, then cropped to the map and joined with ImageMagick.
# Usage (from the repo root, after `make`): sh docs/make_playback_strip.sh
set -eu
T=$(mktemp -d)
trap 'kill $XP 2>/dev/null; rm -rf "$T"' EXIT
n=${DISPLAY_NUM:-90} # DISPLAY_NUM=N: use display :N (started here)
while [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
XP=$!
sleep 1
EVENTS="150 600 1500 3000 5000 9999999"
{
    echo "0 set planner classic"
    echo "5 goto 47 20"
    k=0
    for e in $EVENTS; do
        k=$((k + 1))
        echo "8 playback $e"
        echo "8 screenshot $T/f$k.bmp"
    done
} >"$T/strip.script"
XDG_CONFIG_HOME="$T/cfg" DISPLAY=":$n" SDL_RENDER_DRIVER=software \
    build/tilenav --map maps/demo.map --script "$T/strip.script" --frames 9 \
    --overlays explored,path >/dev/null
# the map part of each frame (the map view from x 24, y 132: 980 x 552)
for f in "$T"/f*.bmp; do
    convert "$f" -crop 972x552+24+132 +repage "${f%.bmp}.png"
done
convert "$T"/f1.png "$T"/f2.png "$T"/f3.png +append "$T/row1.png"
convert "$T"/f4.png "$T"/f5.png "$T"/f6.png +append "$T/row2.png"
convert "$T/row1.png" "$T/row2.png" -append -resize 50% docs/playback-strip.png
convert -delay 80 -loop 0 "$T"/f*.png -resize 60% docs/playback.gif
# the graph planner's search (closed set and current node; it records no opens)
printf '0 set planner graph\n5 goto 47 20\n8 playback 9999999\n8 screenshot %s\n' "$T/g.bmp" >"$T/graph.script"
XDG_CONFIG_HOME="$T/cfg2" DISPLAY=":$n" SDL_RENDER_DRIVER=software \
    build/tilenav --map maps/demo.map --script "$T/graph.script" --frames 9 \
    --overlays explored,path >/dev/null
convert "$T/g.bmp" -crop 972x552+24+132 +repage -resize 50% docs/playback-graph.png
echo "wrote docs/playback-strip.png, docs/playback.gif and docs/playback-graph.png"
