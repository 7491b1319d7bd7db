#!/bin/sh
# The browser build in Debian's headless chromium: serves BUILD_WEB on
# 127.0.0.1 (python3 -m http.server on a free port), then play.js (puppeteer-
# core, from `npm ci` here) clicks a tile, presses a key, screenshots the page
# (BUILD_WEB/web-test.png) and checks the game's state and HUD fps, then what
# survives a reload (saved and autosaved edits, settings) and F12's download;
# and the size budget: tilenav.js + tilenav.wasm <= 2 MB.
# Before that, baked_fonts.sh (the baked text equals SDL2_ttf's).
# Writes "PASSED FAILED" to BUILD_WEB/test-counts.  Cleans up the server and
# the browser whatever happens.
# Usage: tests/web/run.sh BUILD_WEB BUILD (after `make web` and `make`; run
#        from the repo root).
set -u
B=${1:-build-web}
NATIVE=${2:-build}
D=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    # play.js closes the browser; if it was killed, its browser goes here.
    if [ -f "$T/browser.pid" ]; then kill -9 "$(cat "$T/browser.pid")" 2>/dev/null; fi
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
passed=0
failed=0
if sh "$D/baked_fonts.sh" "$NATIVE" "$B"; then
    passed=1; echo "[web pass] tests/web/baked_fonts.sh"
else
    failed=1; echo "[web FAIL] tests/web/baked_fonts.sh"
fi
result() {
    if [ "$1" = pass ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    echo "$passed $failed" >"$B/test-counts"
    echo "[web $1] tests/web/run.sh${2:+: $2}"
    [ "$failed" -eq 0 ]
    exit $?
}
[ -f "$B/index.html" ] && [ -f "$B/tilenav.wasm" ] || result FAIL "$B/index.html is missing (make web)"
[ -d "$D/node_modules/puppeteer-core" ] || result FAIL "no $D/node_modules (scripts/deps.sh web runs npm ci)"
command -v chromium >/dev/null 2>&1 || result FAIL "chromium is missing (scripts/deps.sh web)"
size=$(($(stat -c %s "$B/tilenav.js") + $(stat -c %s "$B/tilenav.wasm")))
echo "web: tilenav.js + tilenav.wasm = $size bytes (budget 2 MB)"
[ "$size" -le 2097152 ] || result FAIL "tilenav.js + tilenav.wasm = $size bytes, over the 2 MB budget"

python3 -u -m http.server 0 --bind 127.0.0.1 -d "$B" >"$T/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's/^Serving HTTP on .* port \([0-9]*\).*/\1/p' "$T/server.log")
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
[ -n "$port" ] || { cat "$T/server.log"; result FAIL "the HTTP server did not start"; }

mkdir -p "$T/profile"
timeout -k 10 600 node "$D/play.js" "http://127.0.0.1:$port/index.html${WEB_QUERY:-}" "$T" "$T/profile"
rc=$?
[ -f "$T/web.png" ] && cp "$T/web.png" "$B/web-test.png"
[ "$rc" -eq 0 ] && result pass "screenshot $B/web-test.png"
result FAIL "play.js exited with $rc"
