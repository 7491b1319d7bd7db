#!/bin/sh
# The browser build's text comes from baked glyph atlases (ui.h,
# TN_BAKED_FONTS); this builds the native game that way too and checks that
# its screenshots are byte-identical to the SDL2_ttf build's, with every
# overlay on (their labels use the tiny font); a damaged atlas is refused.
# Usage: tests/web/baked_fonts.sh BUILD BUILD_WEB (after make and make web).
set -u
B=${1:-build}
W=${2:-build-web}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "baked_fonts.sh: $*"; exit 1; }
atlas=$W/data/assets/tilenav-fonts.atlas
[ -f "$atlas" ] || fail "$atlas is missing (make web)"
[ -x "$B/tilenav" ] || fail "$B/tilenav is missing (make)"
[ -f "$B/libtilenav.a" ] || fail "$B/libtilenav.a is missing (make)"
# The front end's objects again with -DTN_BAKED_FONTS (the Makefile's rules),
# linked with the library as it is.
NB=$W/native-baked
objs=""
for f in src/game/*.c; do objs="$objs $NB/game/$(basename "$f" .c).o"; done
for f in src/sandbox/*.c; do objs="$objs $NB/sandbox/$(basename "$f" .c).o"; done
# shellcheck disable=SC2086
make -s --no-print-directory -j2 BUILD="$NB" SDL_CFLAGS="$(pkg-config --cflags sdl2) -DTN_BAKED_FONTS" \
    $objs || fail "cannot build the native game with baked fonts"
# shellcheck disable=SC2086,SC2046
cc -o "$NB/tilenav" $objs "$B/libtilenav.a" $(pkg-config --libs sdl2 libxml-2.0 libcjson zlib) -lm ||
    fail "cannot link the native game with baked fonts"
mkdir -p "$T/assets"
cp "$atlas" "$T/assets/"
printf '1 goto 24 40\n30 set wanderers 3\n' >"$T/s.script"
for args in "--frames 5" \
            "--frames 200 --script $T/s.script --overlays path,explored,flow,navmesh,companion,wanderers"; do
    # shellcheck disable=SC2086
    "$B/tilenav" $args --screenshot "$T/ttf.bmp" >/dev/null || fail "ttf run failed: $args"
    # shellcheck disable=SC2086
    "$NB/tilenav" $args --assets "$T/assets" --screenshot "$T/baked.bmp" >/dev/null ||
        fail "baked run failed: $args"
    cmp -s "$T/ttf.bmp" "$T/baked.bmp" || fail "baked text differs from SDL2_ttf's: $args"
done
# A damaged atlas is refused with its name, not drawn.
head -c 5000 "$atlas" >"$T/assets/tilenav-fonts.atlas"
out=$("$NB/tilenav" --frames 1 --assets "$T/assets" --screenshot "$T/x.bmp" 2>&1) &&
    fail "a truncated atlas was accepted"
echo "$out" | grep -q "tilenav-fonts.atlas: truncated" || fail "unclear message: $out"
{ printf 'TNFONTS0'; tail -c +9 "$atlas"; } >"$T/assets/tilenav-fonts.atlas"
out=$("$NB/tilenav" --frames 1 --assets "$T/assets" --screenshot "$T/x.bmp" 2>&1) &&
    fail "an atlas with a bad magic was accepted"
echo "$out" | grep -q "tilenav-fonts.atlas: not a tilenav font atlas" || fail "unclear message: $out"
echo "baked_fonts.sh: baked and SDL2_ttf screenshots identical; damaged atlases refused"
