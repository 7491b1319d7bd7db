#!/usr/bin/env python3
"""Write assets/tilenav.png: the 96x16 tileset of assets/tilenav.tsx.
Tiles (16x16): 0 block, 1 one-way platform, 2 spawn, 3 destination,
4 item, 5 start.  Standard library only (zlib + struct), deterministic."""
import struct, sys, zlib

W, H, T = 96, 16, 16
px = [[(0, 0, 0, 0)] * W for _ in range(H)]

def put(t, x, y, c):
    if 0 <= x < T and 0 <= y < T:
        px[y][t * T + x] = c

# 0 block: stone with a darker rim and a brick seam
for y in range(T):
    for x in range(T):
        c = (120, 104, 88, 255)
        if x in (0, 15) or y in (0, 15): c = (70, 60, 50, 255)
        elif y == 7 or (x == 7 and y < 7) or (x == 11 and y > 7): c = (92, 80, 68, 255)
        put(0, x, y, c)
# 1 one-way: a plank on top, posts below
for y in range(T):
    for x in range(T):
        if y < 4: put(1, x, y, (176, 128, 64, 255) if y else (220, 170, 100, 255))
        elif x in (2, 13) and y < 12: put(1, x, y, (120, 86, 40, 255))
# 2 spawn: red ring
for y in range(T):
    for x in range(T):
        r2 = (x - 7.5) ** 2 + (y - 7.5) ** 2
        if 16 <= r2 <= 42: put(2, x, y, (210, 40, 40, 255))
        elif r2 < 6: put(2, x, y, (250, 120, 120, 255))
# 3 destination: green flag on a pole
for y in range(1, 15): put(3, 3, y, (60, 60, 60, 255))
for y in range(2, 8):
    for x in range(4, 4 + (8 - abs(y - 5) * 2)): put(3, x, y, (40, 190, 70, 255))
# 4 item: yellow diamond
for y in range(T):
    for x in range(T):
        if abs(x - 7.5) + abs(y - 7.5) <= 6: put(4, x, y, (240, 200, 40, 255))
        if abs(x - 7.5) + abs(y - 7.5) <= 2: put(4, x, y, (255, 250, 200, 255))
# 5 start: blue figure
for y in range(T):
    for x in range(T):
        if (x - 7.5) ** 2 + (y - 3.5) ** 2 <= 7: put(5, x, y, (60, 110, 230, 255))
        elif 6 <= x <= 9 and 6 <= y <= 14: put(5, x, y, (60, 110, 230, 255))

raw = b"".join(b"\0" + bytes(v for p in row for v in p) for row in px)
def chunk(tag, data):
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0)) + \
    chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
open(sys.argv[1] if len(sys.argv) > 1 else "assets/tilenav.png", "wb").write(png)
