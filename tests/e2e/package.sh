#!/bin/sh
# End-to-end: the library as a user gets it.
#  1. `make dist`, unpacked in a temporary folder; there, with SDL's
#     pkg-config hidden, `make lib` and the library's tests (tests/pkg/nosdl.sh),
#     then `make install-lib` into a temporary prefix;
#  2. every example (examples/*.c) and a C++ consumer compiled from the installed
#     headers through pkg-config (warnings are errors), linked against the
#     shared library (soname checked) and run; one static link too;
#  3. `make install` of the unpacked tree into a DESTDIR: game, man page,
#     library;
#  4. `make install` to a temporary PREFIX: the installed game, run from
#     another directory with no --map and no --assets, finds the demo map
#     and the fonts there.
# Runs once, for the plain build dir (the sanitizer pass skips it: it builds
# its own copies and would only double the time).
set -u
B=${1:-build}
case "$B" in build) ;; *) echo "package.sh: checked in the plain build only (not $B)"; exit 0 ;; esac
fail() { echo "package.sh: $*"; exit 1; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "package.sh: not a git checkout, skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
V=$(cat VERSION)
MAKE=${MAKE:-make}

# 0. the checked-in tn_version.h is the one VERSION generates
sh scripts/version-header.sh VERSION | cmp -s - src/nav/tn_version.h ||
    fail "src/nav/tn_version.h is not what VERSION generates (run make and commit it)"

# the umbrella header includes every library header, and none of the
# sandbox's (src/sandbox: the demo's world, not the library's API)
for h in src/nav/tn_*.h; do
    n=$(basename "$h")
    grep -q "^#include \"$n\"" src/nav/tilenav.h || fail "src/nav/tilenav.h does not include $n"
done
for h in src/sandbox/*.h src/game/*.h; do
    n=$(basename "$h")
    grep -q "^#include \"$n\"" src/nav/*.h src/nav/*.c && fail "src/nav includes $n (sandbox/front end)"
done

# 1. dist -> unpack -> build and test without SDL -> install-lib
$MAKE --no-print-directory -s dist DIST_DIR="$T" >/dev/null || fail "make dist failed"
[ -f "$T/tilenav-$V.tar.gz" ] || fail "make dist wrote no tilenav-$V.tar.gz"
tar -tzf "$T/tilenav-$V.tar.gz" >"$T/list" || fail "the tarball does not list"
grep -Eq '^tilenav-[^/]*/(build|build-san|build-fuzz)/' "$T/list" && fail "build outputs in the tarball"
for f in LICENSE VERSION CHANGELOG.md README.md Makefile tilenav.6 tilenav.pc.in src/nav/tilenav.h; do
    grep -qx "tilenav-$V/$f" "$T/list" || fail "$f missing from the tarball"
done
mkdir "$T/u" && tar -xzf "$T/tilenav-$V.tar.gz" -C "$T/u" || fail "the tarball does not unpack"
D="$T/u/tilenav-$V"
sh "$D/tests/pkg/nosdl.sh" build || fail "the unpacked tarball did not build/test without SDL"
$MAKE --no-print-directory -s -C "$D" install-lib PREFIX="$T/inst" >"$T/inst.log" 2>&1 ||
    { cat "$T/inst.log"; fail "make install-lib failed in the unpacked tarball"; }

# 2. examples and the C++ consumer against the installed library
PKG_CONFIG_PATH="$T/inst/lib/pkgconfig"; export PKG_CONFIG_PATH
[ "$(pkg-config --modversion tilenav)" = "$V" ] || fail "pkg-config --modversion is not $V"
for d in surf.md perf.md bench.md examples/graph_sliced_bots.c; do # the headers cite them
    [ -f "$T/inst/share/doc/tilenav/$d" ] || fail "make install-lib did not install $d"
done
CFL=$(pkg-config --cflags tilenav); LIBS=$(pkg-config --libs tilenav)
so=$(readelf -d "$T/inst/lib/libtilenav.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ -n "$so" ] && [ -e "$T/inst/lib/$so" ] || fail "libtilenav.so has no soname, or no $so installed"
# every examples/*.c (a list here left a new example unbuilt)
nex=0
for src in "$D"/examples/*.c; do
    ex=$(basename "$src" .c)
    nex=$((nex + 1))
    # shellcheck disable=SC2086
    ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic $CFL "$D/examples/$ex.c" -o "$T/$ex" $LIBS ||
        fail "examples/$ex.c does not build against the installed library"
    readelf -d "$T/$ex" | grep -q "NEEDED.*\[$so\]" || fail "$ex does not load $so"
    LD_LIBRARY_PATH="$T/inst/lib" "$T/$ex" >"$T/$ex.out" 2>&1 || { cat "$T/$ex.out"; fail "examples/$ex failed"; }
done
[ "$nex" -gt 0 ] || fail "no examples/*.c in the tarball"
CXX=${CXX:-g++}
# shellcheck disable=SC2086
$CXX -std=c++11 -Wall -Wextra -Werror -pedantic -Wold-style-cast -Wuseless-cast $CFL \
    "$D/tests/pkg/consumer.cpp" -o "$T/consumer" $LIBS ||
    fail "the C++ consumer does not build against the installed headers"
LD_LIBRARY_PATH="$T/inst/lib" "$T/consumer" || fail "the C++ consumer failed"
# every installed header on its own, in C++ and in C: compiled, not
# -fsyntax-only, so that gcc reports a header's unused static constants
# (-Wunused-const-variable=2: a copy per translation unit) and C casts in
# the macros a C++ game expands (TN_OK, below)
for h in "$T"/inst/include/tilenav/*.h; do
    # shellcheck disable=SC2086
    echo "#include <$(basename "$h")>" | $CXX -x c++ -std=c++11 -Wall -Wextra -Werror -pedantic \
        -Wold-style-cast -Wuseless-cast -Wunused-const-variable=2 $CFL -c -o /dev/null - ||
        fail "$(basename "$h") is not warning-free C++"
    # shellcheck disable=SC2086
    echo "#include <$(basename "$h")>" | ${CC:-cc} -x c -std=c11 -Wall -Wextra -Werror -pedantic \
        -Wunused-const-variable=2 $CFL -c -o /dev/null - ||
        fail "$(basename "$h") does not compile alone"
    # clang++ flags C casts in the inline functions (g++ does not); clang
    # flags an unsigned enum stored in an int under -Wsign-conversion
    if command -v clang++ >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        echo "#include <$(basename "$h")>" | clang++ -x c++ -std=c++11 -Wall -Wextra -Werror \
            -Wold-style-cast -Wconversion -Wsign-conversion $CFL -fsyntax-only - ||
            fail "$(basename "$h") has C casts or implicit conversions for C++"
    fi
    if command -v clang >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        echo "#include <$(basename "$h")>" | clang -x c -std=c11 -Wall -Wextra -Werror \
            -Wconversion -Wsign-conversion $CFL -fsyntax-only - ||
            fail "$(basename "$h") has implicit conversions (-Wconversion -Wsign-conversion)"
    fi
done
# the status macros expanded in C++: no C casts (-Wold-style-cast)
# shellcheck disable=SC2086
printf '#include <tilenav.h>\nint tn_consumer_ok();\nint tn_consumer_ok() { tn_status s = TN_OK; return tn_succeeded(s) ? 0 : 1; }\n' |
    $CXX -x c++ -std=c++11 -Wall -Wextra -Werror -pedantic -Wold-style-cast -Wuseless-cast $CFL -c -o /dev/null - ||
    fail "TN_OK and the status macros are not cast-free C++"
# the headers by their directory too, as <SDL2/SDL.h> with sdl2.pc's two -I
# (a library user's <tilenav/tn_map.h> did not compile: only -I.../tilenav)
# shellcheck disable=SC2086
printf '#include <tilenav/tilenav.h>\n#include <tilenav/tn_map.h>\nint main(void) { return tn_version() == 0; }\n' |
    ${CC:-cc} -x c -std=c11 -Wall -Wextra -Werror -pedantic $CFL -o "$T/nsinclude" - $LIBS ||
    fail "#include <tilenav/tilenav.h> does not compile with pkg-config --cflags tilenav"
# every symbol the libraries export carries the tn_ prefix (a game that
# defines its own walk() or hash_key() must link and run unchanged)
for lib in "$T/inst/lib/libtilenav.a" "$T/inst/lib/libtilenav.so"; do
    bad=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 && $2 ~ /[A-Z]/ && $3 !~ /^tn_/ {print $3}' |
          grep -v '^_' | sort -u | tr '\n' ' ')
    [ -z "$bad" ] || fail "$(basename "$lib") exports symbols without the tn_ prefix: $bad"
done
# ... and the shared library exports only what the installed headers
# declare (no library-internal tn_surfi_* / tn_cdti_* / tn_navmeshi_*)
sh tests/pkg/exports.sh "$T/inst/lib/libtilenav.so" "$T"/inst/include/tilenav/*.h ||
    fail "libtilenav.so exports more than its public headers"
# static: the archive, no run-time path needed
# shellcheck disable=SC2086
$CXX -std=c++11 $CFL "$D/tests/pkg/consumer.cpp" -o "$T/consumer-static" "$T/inst/lib/libtilenav.a" -lm ||
    fail "the C++ consumer does not link the static library"
env -u LD_LIBRARY_PATH "$T/consumer-static" >/dev/null || fail "the static C++ consumer failed"

# 3. make install from the unpacked tarball (SDL visible again): the game,
#    its man page and the library
$MAKE --no-print-directory -s -j2 -C "$D" install PREFIX=/usr DESTDIR="$T/root" >"$T/install.log" 2>&1 ||
    { cat "$T/install.log"; fail "make install failed in the unpacked tarball"; }
for f in usr/bin/tilenav usr/share/man/man6/tilenav.6 usr/lib/libtilenav.a usr/lib/libtilenav.so \
         "usr/lib/$so" usr/include/tilenav/tilenav.h usr/include/tilenav/tn_version.h \
         usr/lib/pkgconfig/tilenav.pc usr/share/tilenav/maps/demo.map usr/share/doc/tilenav/LICENSE; do
    [ -e "$T/root/$f" ] || fail "make install did not install /$f"
done
grep -q '^prefix=/usr$' "$T/root/usr/lib/pkgconfig/tilenav.pc" || fail "tilenav.pc has the wrong prefix"
[ "$("$T/root/usr/bin/tilenav" --version)" = "tilenav $V" ] || fail "tilenav --version is not 'tilenav $V'"
grep -qaF "/usr/share/tilenav/maps/demo.map" "$T/root/usr/bin/tilenav" || fail "the game does not look in /usr/share/tilenav"
grep -qaF "$T/root" "$T/root/usr/bin/tilenav" && fail "DESTDIR ($T/root) went into the installed game"

# 4. make install to a PREFIX of its own (no DESTDIR): the installed game,
#    run from another directory with neither --map nor --assets, plays the
#    demo map and draws with the fonts of PREFIX/share/tilenav
P="$T/prefix"
$MAKE --no-print-directory -s -j2 -C "$D" install PREFIX="$P" >"$T/install2.log" 2>&1 ||
    { cat "$T/install2.log"; fail "make install PREFIX=$P failed in the unpacked tarball"; }
grep -qaF "$P/share/tilenav/maps/demo.map" "$P/bin/tilenav" || fail "the game installed in $P does not look in $P/share/tilenav"
mkdir "$T/elsewhere"
out=$(cd "$T/elsewhere" && "$P/bin/tilenav" --headless --frames 5 2>"$T/run.err") ||
    { cat "$T/run.err"; fail "the game installed in $P, run from elsewhere, failed headless"; }
case "$out" in *'"frames":5,'*'"map":{"width":80,"height":45}'*) ;;
    *) fail "the game installed in $P, run from elsewhere: not the demo map: $out" ;; esac
(cd "$T/elsewhere" && "$P/bin/tilenav" --frames 5 --screenshot shot.bmp 2>"$T/run.err") ||
    { cat "$T/run.err"; fail "the game installed in $P, run from elsewhere, could not draw a screenshot"; }
[ "$(wc -c <"$T/elsewhere/shot.bmp")" -eq $((54 + 1280 * 720 * 3)) ] ||
    fail "the installed game's screenshot is not a 1280x720 24-bit BMP"
echo "package.sh: dist tilenav-$V.tar.gz builds and tests without SDL; installed $so;" \
     "$nex examples and the C++ consumer build and run; the game installed in a PREFIX finds its data"
