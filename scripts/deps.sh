#!/bin/sh
# Install the Debian packages tilenav needs when they are missing.
# Called by `make deps` (and so by `make run` and `make test`).
# Usage: scripts/deps.sh [window|web]   - "window" (make test) also wants what
#        the tests use: xvfb and xdotool (window tests), valgrind (memcheck
#        run), clang with its libFuzzer runtime (fuzzers), groff/man-db (man
#        page), g++ (the C++ consumer of the library), strace (the order of a
#        save's fsyncs), imagemagick (import: a window's own pixels); "web" (make web and the browser test) emscripten,
#        chromium, npm and the test's npm modules.
set -eu
need=""
if ! command -v pkg-config >/dev/null 2>&1; then
    need="pkg-config libsdl2-dev libsdl2-ttf-dev libcmocka-dev libxml2-dev libcjson-dev zlib1g-dev"
else
    pkg-config --exists sdl2 || need="$need libsdl2-dev"
    pkg-config --exists SDL2_ttf || need="$need libsdl2-ttf-dev"
    pkg-config --exists cmocka || need="$need libcmocka-dev"
    # Tiled maps: .tmx (libxml2), .tmj (cJSON), compressed layers (zlib).
    pkg-config --exists libxml-2.0 || need="$need libxml2-dev"
    pkg-config --exists libcjson || need="$need libcjson-dev"
    pkg-config --exists zlib || need="$need zlib1g-dev"
fi
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
if [ "${1:-}" = "window" ]; then
    command -v Xvfb >/dev/null 2>&1 || need="$need xvfb"
    command -v xdotool >/dev/null 2>&1 || need="$need xdotool"
    command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
    command -v groff >/dev/null 2>&1 || need="$need groff-base"   # man page check
    command -v man >/dev/null 2>&1 || need="$need man-db"
    command -v g++ >/dev/null 2>&1 || need="$need g++"            # C++ consumer of the library
    command -v strace >/dev/null 2>&1 || need="$need strace" # save_hostile.sh: fsync order
    command -v import >/dev/null 2>&1 || need="$need imagemagick" # window_help_wheel.sh: pixels
    command -v clang-format >/dev/null 2>&1 || need="$need clang-format" # make format-check
    if ! command -v clang >/dev/null 2>&1; then
        need="$need clang libclang-rt-dev"
    else
        # libFuzzer's runtime comes in a separate package.
        probe=$(mktemp -d)
        printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
        clang -fsanitize=fuzzer "$probe/p.c" -o "$probe/p" >/dev/null 2>&1 || need="$need libclang-rt-dev"
        rm -rf "$probe"
    fi
fi
# "web" (make web, make test): Debian's emscripten, chromium for the browser
# test, npm for its driver, dpkg-dev to unpack Debian's SDL2 source.
if [ "${1:-}" = "web" ]; then
    command -v emcc >/dev/null 2>&1 || need="$need emscripten"
    command -v chromium >/dev/null 2>&1 || need="$need chromium"
    command -v npm >/dev/null 2>&1 || need="$need npm"
    command -v dpkg-source >/dev/null 2>&1 || need="$need dpkg-dev"
    command -v python3 >/dev/null 2>&1 || need="$need python3"
fi
web_npm() {
    # The browser test's driver (puppeteer-core, pinned by package-lock.json).
    [ "${1:-}" = "web" ] || return 0
    dir=$(dirname "$0")/../tests/web
    [ -d "$dir/node_modules/puppeteer-core" ] && return 0
    echo "deps: npm ci in tests/web"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
}
if [ -z "$need" ]; then
    web_npm "${1:-}"
    exit 0
fi
echo "deps: installing missing Debian packages:$need"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
    echo "deps: not root, using sudo"
else
    echo "deps: need root or sudo to install:$need" >&2
    echo "deps: install them by hand: apt-get install$need" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q || echo "deps: apt-get update failed; trying the install anyway" >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $need
web_npm "${1:-}"
echo "deps: done"
