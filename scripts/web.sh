#!/bin/sh
# Build the game for browsers with Debian's emscripten: OUT/index.html,
# OUT/tilenav.js, OUT/tilenav.wasm and OUT/tilenav.data (the demo map and
# the baked fonts, preloaded).  Called by `make web`.
# Usage: scripts/web.sh OUT_DIR BAKER   (BAKER: the native tilenav-bake-fonts)
#
# Offline except for Debian: everything emscripten needs is cached under
# OUT (about 180 MB: two copies of the SDL source, the port, the objects) and
# reused, so a second run only rebuilds what changed.
#  - Debian's emscripten runs its JS tools with Debian's node modules:
#    NODE_PATH=/usr/share/nodejs.
#  - Its cache (/usr/share/emscripten/cache) is read-only and frozen, and
#    -sUSE_SDL=2 must build SDL2 into a cache: OUT/emscripten/cache is a
#    copy made of symlinks, selected by a private config (EM_CONFIG) that
#    says FROZEN_CACHE = False.
#  - SDL2's port would download SDL from GitHub; instead it is built from
#    Debian's own libsdl2 source package (`apt-get source`, with a private
#    deb-src list and private lists/cache dirs passed through apt's options,
#    so the system's apt configuration is not touched) via
#    EMCC_LOCAL_PORTS=sdl2=DIR.  The port's recipe (written for SDL 2.0.20)
#    omits four files newer SDL needs; they are compiled here and linked in.
#  - Text: no FreeType in the browser: the native tilenav-bake-fonts writes
#    the glyph atlases, ui.c reads them (-DTN_BAKED_FONTS).
#  - emcc writes tilenav.js (not .html: Debian's HTML minifier crashes at
#    -O2); web/index.html is the page.
set -eu
OUT=${1:-build-web}
BAKER=${2:-build/tilenav-bake-fonts}
ROOT=$(pwd)
[ -f "$ROOT/src/game/app.c" ] || { echo "web: run from the tilenav checkout" >&2; exit 1; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
for tool in emcc node apt-get dpkg-source; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "web: $tool is missing (scripts/deps.sh web installs it)" >&2; exit 1; }
done
t0=$(date +%s)
# Is file $1 newer than file $2?  (POSIX sh has no -nt.)
newer() { [ -n "$(find "$1" -prune -newer "$2" 2>/dev/null)" ]; }

# --- emscripten: private config and writable cache ------------------------
EM=$OUT/emscripten
SYS_CACHE=/usr/share/emscripten/cache
SYS_CONFIG=/usr/share/emscripten/.emscripten
if [ ! -f "$EM/cache.stamp" ]; then
    echo "web: writable emscripten cache (symlinks to $SYS_CACHE)"
    rm -rf "$EM/cache"
    mkdir -p "$EM"
    cp -rs "$SYS_CACHE/." "$EM/cache"
    rm -f "$EM/cache/cache.lock"
    touch "$EM/cache.stamp"
fi
{
    sed -e 's/^FROZEN_CACHE *=.*/FROZEN_CACHE = False/' "$SYS_CONFIG"
    printf "\nCACHE = '%s'\nPORTS = '%s'\n" "$EM/cache" "$EM/ports"
} >"$EM/config.new"
if cmp -s "$EM/config.new" "$EM/config" 2>/dev/null; then rm "$EM/config.new"; else mv "$EM/config.new" "$EM/config"; fi
export EM_CONFIG="$EM/config"
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# --- SDL2 source from Debian ----------------------------------------------
SRC=$OUT/sdl2-src
if [ ! -f "$SRC/stamp" ]; then
    # The version of the libsdl2 the native build uses, when installed.
    ver=$(dpkg-query -W -f='${source:Version}' libsdl2-dev 2>/dev/null || true)
    . /etc/os-release
    mirror=${TN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
    echo "web: fetching Debian's libsdl2 source ${ver:-(newest)} from $mirror $VERSION_CODENAME"
    rm -rf "$SRC"
    mkdir -p "$SRC/apt/lists/partial" "$SRC/apt/cache/archives/partial" "$SRC/dl"
    echo "deb-src $mirror $VERSION_CODENAME main" >"$SRC/apt/sources.list"
    set -- -o Dir::Etc::SourceList="$SRC/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o Dir::State::Lists="$SRC/apt/lists" -o Dir::Cache="$SRC/apt/cache"
    # As root, apt's _apt user could not write into these directories.
    [ "$(id -u)" -eq 0 ] && set -- "$@" -o APT::Sandbox::User=root
    apt-get -q "$@" update
    (cd "$SRC/dl" && apt-get -q "$@" source "libsdl2${ver:+=$ver}")
    dir=$(find "$SRC/dl" -mindepth 1 -maxdepth 1 -type d -name 'libsdl2-*' | head -n 1)
    if [ -z "$dir" ] || [ ! -f "$dir/src/SDL.c" ]; then echo "web: no SDL source in $SRC/dl" >&2; exit 1; fi
    mv "$dir" "$SRC/SDL"
    rm -rf "$SRC/dl" "$SRC/apt/lists" "$SRC/apt/cache"
    touch "$SRC/stamp"
fi
export EMCC_LOCAL_PORTS="sdl2=$SRC/SDL"
SDL_INC=$EM/cache/sysroot/include/SDL2

# Quiet emscripten's notes about the local port (they repeat for every file).
quiet() {
    "$@" 2>"$OUT/emcc.log" || { cat "$OUT/emcc.log" >&2; return 1; }
    grep -v 'local port' "$OUT/emcc.log" >&2 || true
}

# SDL2 into the cache (the first time).
if [ ! -f "$EM/cache/sysroot/lib/wasm32-emscripten/libSDL2.a" ] || [ ! -f "$SDL_INC/SDL.h" ]; then
    echo "web: building SDL2 from $SRC/SDL (a minute or two, once)"
    quiet embuilder build sdl2
fi
OBJ=$OUT/obj
mkdir -p "$OBJ/sdl2-extra"
extra=""
for f in SDL_guid.c SDL_list.c stdlib/SDL_crc16.c joystick/controller_type.c; do
    o=$OBJ/sdl2-extra/$(basename "$f" .c).o
    if [ ! -f "$o" ] || newer "$SRC/SDL/src/$f" "$o"; then
        quiet emcc -c -O2 -w -I"$SDL_INC" "$SRC/SDL/src/$f" -o "$o"
    fi
    extra="$extra $o"
done

# --- the game's objects (the Makefile's own rules, with emcc) --------------
objs=""
for f in src/nav/*.c; do objs="$objs $OBJ/nav/$(basename "$f" .c).o"; done
for f in src/sandbox/*.c; do objs="$objs $OBJ/sandbox/$(basename "$f" .c).o"; done
for f in src/game/*.c; do
    # main.c: web/web_main.c instead; tiled.c: web/tiled_stub.c (below)
    [ "$f" = src/game/main.c ] || [ "$f" = src/game/tiled.c ] && continue
    objs="$objs $OBJ/game/$(basename "$f" .c).o"
done
# shellcheck disable=SC2086
make -s --no-print-directory -j2 BUILD="$OBJ" CC=emcc OPT=-O2 \
    SDL_CFLAGS="-I$SDL_INC -DTN_BAKED_FONTS" $objs
# Tiled maps need libxml2/cJSON/zlib, native only: the stub refuses them.
stub_o=$OBJ/tiled_stub.o
if [ ! -f "$stub_o" ] || newer web/tiled_stub.c "$stub_o" || newer src/game/tiled.h "$stub_o"; then
    echo "emcc -c web/tiled_stub.c"
    emcc -std=c11 -Wall -Wextra -Werror -O2 -Isrc/nav -Isrc/game -c web/tiled_stub.c -o "$stub_o"
fi
objs="$objs $stub_o"
main_o=$OBJ/web_main.o
stale=0
[ -f "$main_o" ] || stale=1
for f in web/web_main.c src/game/*.h src/sandbox/*.h src/nav/*.h; do
    [ "$stale" = 1 ] && break
    newer "$f" "$main_o" && stale=1
done
if [ "$stale" = 1 ]; then
    # gnu11: EM_ASM needs it.
    echo "emcc -c web/web_main.c"
    emcc -std=gnu11 -Wall -Wextra -Werror -O2 -Isrc/nav -Isrc/sandbox -Isrc/game -I"$SDL_INC" \
        -DTN_BAKED_FONTS -c web/web_main.c -o "$main_o"
fi

# --- preloaded files: the demo map and the baked fonts --------------------
DATA=$OUT/data
mkdir -p "$DATA/maps" "$DATA/assets"
cmp -s maps/demo.map "$DATA/maps/demo.map" || cp maps/demo.map "$DATA/maps/demo.map"
atlas=$DATA/assets/tilenav-fonts.atlas
if [ ! -f "$atlas" ] || newer "$BAKER" "$atlas" || newer assets/DejaVuSans.ttf "$atlas" ||
   newer assets/DejaVuSansMono.ttf "$atlas"; then
    "$BAKER" assets "$atlas"
fi

# --- link (only when an input changed) ------------------------------------
js=$OUT/tilenav.js
relink=0
[ -f "$js" ] && [ -f "$OUT/tilenav.wasm" ] && [ -f "$OUT/tilenav.data" ] || relink=1
# shellcheck disable=SC2086
for f in $objs $main_o $extra "$DATA/maps/demo.map" "$atlas" scripts/web.sh \
         "$EM/cache/sysroot/lib/wasm32-emscripten/libSDL2.a"; do
    [ "$relink" = 1 ] && break
    newer "$f" "$js" && relink=1
done
if [ "$relink" = 1 ]; then
    echo "web: linking $js"
    # shellcheck disable=SC2086
    quiet emcc -O2 -sUSE_SDL=2 -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web -lidbfs.js \
        -sEXPORTED_FUNCTIONS=_main,_tn_web_start,_tn_web_state,_tn_web_tile_xy,_tn_web_keep,_tn_web_keep_delay,_tn_web_tile \
        -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,FS \
        --preload-file "$DATA@/" \
        -o "$js" $main_o $objs $extra -lm
fi
cmp -s web/index.html "$OUT/index.html" || cp web/index.html "$OUT/index.html"
size=$(($(stat -c %s "$js") + $(stat -c %s "$OUT/tilenav.wasm")))
echo "web: $OUT/index.html ready: .js + .wasm = $size bytes, .data = $(stat -c %s "$OUT/tilenav.data") bytes ($(($(date +%s) - t0)) s);" \
     "serve it: python3 -m http.server -d $OUT 8000"
