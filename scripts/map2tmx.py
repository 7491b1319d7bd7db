#!/usr/bin/env python3
"""map2tmx.py MAP TMX: write a tilenav-map 1 file as a Tiled .tmx that uses
assets/tilenav.tsx: one CSV layer "terrain" (gid 1 block, 2 one-way) and an
object layer "marks" with spawn/dest/item/start as tile objects (gids 3..6,
so Tiled draws them).  Used once to make maps/demo.tmx from maps/demo.map."""
import os, sys

src, dst = sys.argv[1], sys.argv[2]
rows, w, h, in_tiles = [], 0, 0, False
for line in open(src):
    line = line.rstrip("\r\n")
    if in_tiles:
        if line and not line.startswith("#") or len(rows) < h:
            rows.append(line)
        continue
    if line.startswith("#") or not line: continue
    if line.startswith("size"): w, h = map(int, line.split()[1:3])
    if line == "tiles": in_tiles = True
rows = rows[:h]
gid = {"#": 1, "=": 2}
cls = {"S": ("spawn", 3), "D": ("dest", 4), "*": ("item", 5), "P": ("start", 6)}
tsx = os.path.relpath("assets/tilenav.tsx", os.path.dirname(dst) or ".")
out = ['<?xml version="1.0" encoding="UTF-8"?>',
       f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="NEXT">',
       ' <properties>', '  <property name="title" value="tilenav demo"/>', ' </properties>',
       f' <tileset firstgid="1" source="{tsx}"/>',
       f' <layer id="1" name="terrain" width="{w}" height="{h}">', '  <data encoding="csv">']
out.append(",\n".join(",".join(str(gid.get(c, 0)) for c in r) for r in rows))
out += ['</data>', ' </layer>', ' <objectgroup id="2" name="marks">']
n = 1
for y, r in enumerate(rows):
    for x, c in enumerate(r):
        if c in cls:
            name, g = cls[c]
            out.append(f'  <object id="{n}" class="{name}" gid="{g}" x="{x * 16}" y="{(y + 1) * 16}" width="16" height="16"/>')
            n += 1
out += [' </objectgroup>', '</map>', '']
open(dst, "w").write("\n".join(out).replace("NEXT", str(n)))
