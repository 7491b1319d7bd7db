#!/usr/bin/env python3
"""Writes the Tiled fixtures of tests/test_tiled.c, each with the tilenav
map it must load as (NAME.expect.map, written independently of the C code).
Run from this directory: python3 make_fixtures.py.  Deterministic."""
import base64, gzip, json, random, zlib

W, H = 20, 12
rng = random.Random(15)
# terrain: '.' empty, '#' block, '=' one-way; marks S D * P on empty cells
g = [["." for _ in range(W)] for _ in range(H)]
for x in range(W): g[0][x] = g[H - 1][x] = "#"
for y in range(H): g[y][0] = g[y][W - 1] = "#"
for x in range(3, 9): g[5][x] = "="
for x in range(11, 17): g[8][x] = "#"
for y in range(2, 6): g[y][14] = "#"
for x in range(5, 8): g[9][x] = "="
marks = {(2, 10): "P", (12, 7): "S", (4, 4): "*", (17, 2): "D", (9, 10): "*", (15, 7): "S"}
def expect_map(name):
    rows = [r[:] for r in g]
    for (x, y), c in marks.items(): rows[y][x] = c
    with open(name + ".expect.map", "w") as f:
        f.write("tilenav-map 1\nsize %d %d\ntiles\n" % (W, H))
        for r in rows: f.write("".join(r) + "\n")
CLS = {"S": "spawn", "D": "dest", "*": "item", "P": "start"}

def b64(gids, comp):
    raw = b"".join(int(v).to_bytes(4, "little") for v in gids)
    if comp == "zlib": raw = zlib.compress(raw)
    elif comp == "gzip": raw = gzip.compress(raw, mtime=0)
    return base64.b64encode(raw).decode()

# fixture.tsx: 0 kind=block, 1 kind=oneway, 2 no kind, 3 kind=none (decor),
# 4 marker tile with class spawn
open("fixture.tsx", "w").write("""<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="fixture" tilewidth="16" tileheight="16" tilecount="8" columns="8">
 <image source="../../../assets/tilenav.png" width="96" height="16"/>
 <tile id="0"><properties><property name="kind" value="block"/></properties></tile>
 <tile id="1"><properties><property name="kind" value="oneway"/><property name="friction" type="float" value="0.5"/></properties></tile>
 <tile id="3"><properties><property name="kind">none</property></properties></tile>
 <tile id="4" class="spawn"><properties><property name="kind" value="none"/></properties></tile>
</tileset>
""")
json.dump({"type": "tileset", "version": "1.10", "name": "fixture", "tilewidth": 16, "tileheight": 16,
           "tilecount": 8, "columns": 8, "image": "../../../assets/tilenav.png", "imagewidth": 96, "imageheight": 16,
           "margin": 0, "spacing": 0,
           "tiles": [{"id": 0, "properties": [{"name": "kind", "type": "string", "value": "block"}]},
                     {"id": 1, "properties": [{"name": "kind", "type": "string", "value": "oneway"}]},
                     {"id": 3, "properties": [{"name": "kind", "type": "string", "value": "none"}]},
                     {"id": 4, "class": "spawn", "properties": [{"name": "kind", "type": "string", "value": "none"}]}]},
          open("fixture.tsj", "w"), indent=1)
FG = 10  # first gid of the fixture tileset (a second embedded one comes first)

# ---- a.tmx: finite CSV, external tsx, group, fallback layer 'oneway',
#      decoration, pre-1.9 'type', properties and foreign objects
def csv_rows(gids, w):
    return ",\n".join(",".join(str(v) for v in gids[i:i + w]) for i in range(0, len(gids), w))
terrain = [0] * (W * H); oneway = [0] * (W * H); decor = [0] * (W * H)
for y in range(H):
    for x in range(W):
        i = y * W + x
        if g[y][x] == "#": terrain[i] = FG + (0 if (x + y) % 2 else 2)   # kind=block or no kind
        if g[y][x] == "=": oneway[i] = FG + 2 | 0x80000000                  # no kind + flip bit
        if rng.random() < 0.2: decor[i] = FG + 3                            # kind=none anywhere
objs = []
n = 1
for (x, y), c in sorted(marks.items()):
    objs.append(f'   <object id="{n}" name="m{n}" type="{CLS[c]}" x="{x * 16 + 3}" y="{y * 16 + 12}"><point/></object>')
    n += 1
objs.append(f'   <object id="{n}" name="trigger" type="door" x="32" y="32" width="48" height="16">\n    <properties>\n     <property name="target" value="level2"/>\n    </properties>\n   </object>')
n += 1
open("a.tmx", "w").write(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="{W}" height="{H}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="7" nextobjectid="{n}">
 <properties>
  <property name="music" value="cave.ogg"/>
 </properties>
 <tileset firstgid="1" name="other" tilewidth="16" tileheight="16" tilecount="9" columns="9">
  <image source="other.png" width="144" height="16"/>
 </tileset>
 <tileset firstgid="{FG}" source="fixture.tsx"/>
 <group id="5" name="world">
  <layer id="1" name="terrain" width="{W}" height="{H}">
   <properties>
    <property name="solid" type="bool" value="true"/>
   </properties>
   <data encoding="csv">
{csv_rows(terrain, W)}
</data>
  </layer>
  <layer id="2" name="oneway" width="{W}" height="{H}">
   <data encoding="csv">
{csv_rows(oneway, W)}
</data>
  </layer>
 </group>
 <layer id="3" name="decor" width="{W}" height="{H}" opacity="0.5">
  <data encoding="csv">
{csv_rows(decor, W)}
</data>
 </layer>
 <imagelayer id="6" name="sky">
  <image source="sky.png" width="320" height="192"/>
 </imagelayer>
 <objectgroup id="4" name="things">
{chr(10).join(objs)}
 </objectgroup>
</map>
""")
expect_map("a")

# ---- b.tmj: finite base64+zlib, embedded tileset, class (1.10), rectangles
tiles = [0] * (W * H)
for y in range(H):
    for x in range(W):
        tiles[y * W + x] = {"#": 1, "=": 2}.get(g[y][x], 0)
objs = [{"id": 1, "name": "sign", "type": "", "class": "sign", "x": 40, "y": 40, "width": 0, "height": 0, "point": True,
         "rotation": 0, "visible": True, "properties": [{"name": "text", "type": "string", "value": "hello"}]}]
n = 2
for (x, y), c in sorted(marks.items()):
    if c == "S":   # rectangles centred on the tile
        objs.append({"id": n, "name": "", "class": "spawn", "x": x * 16 + 2, "y": y * 16 + 2, "width": 12, "height": 12,
                     "rotation": 0, "visible": True})
    else:
        objs.append({"id": n, "name": "", "class": CLS[c], "x": x * 16 + 8, "y": y * 16 + 8, "width": 0, "height": 0,
                     "point": True, "rotation": 0, "visible": True})
    n += 1
b = {"compressionlevel": -1, "height": H, "width": W, "infinite": False, "orientation": "orthogonal",
     "renderorder": "right-down", "tiledversion": "1.10.2", "version": "1.10", "type": "map",
     "tilewidth": 16, "tileheight": 16, "nextlayerid": 3, "nextobjectid": n,
     "properties": [{"name": "author", "type": "string", "value": "fixture"}],
     "tilesets": [{"firstgid": 1, "name": "emb", "tilewidth": 16, "tileheight": 16, "tilecount": 4, "columns": 4,
                   "image": "emb.png", "imagewidth": 64, "imageheight": 16, "margin": 0, "spacing": 0,
                   "tiles": [{"id": 0, "properties": [{"name": "kind", "type": "string", "value": "block"}]},
                             {"id": 1, "properties": [{"name": "kind", "type": "string", "value": "oneway"}]}]}],
     "layers": [{"id": 1, "name": "ground", "type": "tilelayer", "width": W, "height": H, "x": 0, "y": 0,
                 "opacity": 1, "visible": True, "encoding": "base64", "compression": "zlib", "data": b64(tiles, "zlib")},
                {"id": 2, "name": "objects", "type": "objectgroup", "draworder": "topdown", "x": 0, "y": 0,
                 "opacity": 1, "visible": True, "objects": objs}]}
json.dump(b, open("b.tmj", "w"), indent=1)
expect_map("b")

# ---- c.tmx: infinite, base64+gzip chunks (16x16, from -16,-16), the map
#      is the chunks' bounding box; tile objects inheriting the class
OX, OY = -16, -16   # Tiled coordinates of map cell 0,0
CW, CH = 32, 16     # chunk grid covers 48x32 -> we need W=20,H=12 inside... use exact fit below
def chunks_of(grid_gids, layer_ok):
    """16x16 chunks over the bounding box [OX, OX+CWW) x [OY, OY+CHH)."""
    out = []
    for cy in range(OY, OY + CHH, 16):
        for cx in range(OX, OX + CWW, 16):
            if not layer_ok(cx, cy): continue
            data = []
            for y in range(cy, cy + 16):
                for x in range(cx, cx + 16):
                    data.append(grid_gids.get((x, y), 0))
            out.append((cx, cy, data))
    return out
CWW, CHH = 32, 16   # the bounding box: 32x16 tiles
IW, IH = CWW, CHH
ig = [["." for _ in range(IW)] for _ in range(IH)]
for x in range(IW): ig[IH - 1][x] = "#"
for x in range(2, 10): ig[10][x] = "="
for y in range(4, 15): ig[y][20] = "#"
for x in range(22, 30): ig[7][x] = "#"
imarks = {(1, 14): "P", (25, 6): "S", (5, 9): "*", (30, 14): "D"}
ter = {}; ow = {}
for y in range(IH):
    for x in range(IW):
        if ig[y][x] == "#": ter[(x + OX, y + OY)] = FG + 0
        if ig[y][x] == "=": ow[(x + OX, y + OY)] = FG + 1
def chunk_xml(chs, comp):
    return "\n".join(f'   <chunk x="{cx}" y="{cy}" width="16" height="16">\n{b64(d, comp)}\n</chunk>' for cx, cy, d in chs)
# terrain has chunks only in the left half and the bottom right; 'platforms' elsewhere
ter_chunks = chunks_of(ter, lambda cx, cy: True)
ow_chunks = chunks_of(ow, lambda cx, cy: cx < 0)
objs = []
n = 1
for (x, y), c in sorted(imarks.items()):
    gid = FG + 4 if c == "S" else 0
    if gid:   # a tile object, class from the tile; x,y = bottom-left
        objs.append(f'   <object id="{n}" gid="{gid}" x="{(x + OX) * 16}" y="{(y + OY + 1) * 16}" width="16" height="16"/>')
    else:
        objs.append(f'   <object id="{n}" class="{CLS[c]}" x="{(x + OX) * 16 + 8}" y="{(y + OY) * 16 + 8}"><point/></object>')
    n += 1
objs.append(f'   <object id="{n}" name="path" x="0" y="0"><polyline points="0,0 16,16 32,0"/></object>')
n += 1
open("c.tmx", "w").write(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="30" height="20" tilewidth="16" tileheight="16" infinite="1" nextlayerid="4" nextobjectid="{n}">
 <editorsettings>
  <chunksize width="16" height="16"/>
 </editorsettings>
 <tileset firstgid="{FG}" source="fixture.tsx"/>
 <layer id="1" name="terrain" width="30" height="20">
  <data encoding="base64" compression="gzip">
{chunk_xml(ter_chunks, "gzip")}
  </data>
 </layer>
 <layer id="2" name="platforms" width="30" height="20">
  <data encoding="base64" compression="gzip">
{chunk_xml(ow_chunks, "gzip")}
  </data>
 </layer>
 <objectgroup id="3" name="marks">
{chr(10).join(objs)}
 </objectgroup>
</map>
""")
def expect_inf(name, grid, mk):
    rows = [r[:] for r in grid]
    for (x, y), c in mk.items(): rows[y][x] = c
    with open(name + ".expect.map", "w") as f:
        f.write("tilenav-map 1\nsize %d %d\ntiles\n" % (len(rows[0]), len(rows)))
        for r in rows: f.write("".join(r) + "\n")
expect_inf("c", ig, imarks)

# ---- d.tmj: infinite CSV chunks, external .tsj tileset, fallback 'oneway'
layers = []
def jchunks(m, ok):
    return [{"data": d, "height": 16, "width": 16, "x": cx, "y": cy} for cx, cy, d in chunks_of(m, ok)]
ow_plain = {k: FG + 2 for k in ow}   # no kind: the layer name decides
layers.append({"id": 1, "name": "walls", "type": "tilelayer", "chunks": jchunks(ter, lambda cx, cy: cx >= 0 or cy >= 0),
               "startx": OX, "starty": OY, "width": CWW, "height": CHH, "x": 0, "y": 0, "opacity": 1, "visible": True})
layers.append({"id": 2, "name": "oneway", "type": "tilelayer", "chunks": jchunks(ow_plain, lambda cx, cy: True),
               "startx": OX, "starty": OY, "width": CWW, "height": CHH, "x": 0, "y": 0, "opacity": 1, "visible": True})
objs = [{"id": i + 1, "name": "", "type": CLS[c], "x": (x + OX) * 16 + 8, "y": (y + OY) * 16 + 8, "width": 0,
         "height": 0, "point": True, "rotation": 0, "visible": True} for i, ((x, y), c) in enumerate(sorted(imarks.items()))]
layers.append({"id": 3, "name": "grp", "type": "group", "opacity": 1, "visible": True, "x": 0, "y": 0,
               "layers": [{"id": 4, "name": "marks", "type": "objectgroup", "draworder": "topdown", "objects": objs,
                           "opacity": 1, "visible": True, "x": 0, "y": 0}]})
d = {"compressionlevel": -1, "width": 30, "height": 20, "infinite": True, "orientation": "orthogonal",
     "renderorder": "right-down", "tiledversion": "1.8.0", "version": "1.8", "type": "map", "tilewidth": 16,
     "tileheight": 16, "nextlayerid": 5, "nextobjectid": len(objs) + 1,
     "tilesets": [{"firstgid": FG, "source": "fixture.tsj"}], "layers": layers}
json.dump(d, open("d.tmj", "w"), indent=1)
dg = [r[:] for r in ig]   # the walls chunk at -16,-16 is absent: no floor there
for y in range(16):
    for x in range(16):
        if dg[y][x] == "#": dg[y][x] = "."
expect_inf("d", dg, imarks)

# ---- e.tmx: finite, base64 without compression, objects with class 1.10
tiles = [{"#": FG, "=": FG + 1}.get(g[y][x], 0) for y in range(H) for x in range(W)]
objs = "\n".join(f'  <object id="{i + 1}" class="{CLS[c]}" x="{x * 16 + 8}" y="{y * 16 + 8}"><point/></object>'
                 for i, ((x, y), c) in enumerate(sorted(marks.items())))
open("e.tmx", "w").write(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="left-up" width="{W}" height="{H}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="{len(marks) + 1}">
 <tileset firstgid="{FG}" source="fixture.tsx"/>
 <layer id="1" name="Tile Layer 1" width="{W}" height="{H}">
  <data encoding="base64">
   {b64(tiles, None)}
  </data>
 </layer>
 <objectgroup id="2" name="Object Layer 1">
{objs}
 </objectgroup>
</map>
""")
expect_map("e")
