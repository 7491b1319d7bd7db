#!/bin/sh
# TN_XVFB_DISPLAY=N keeps the window tests' private Xvfb to :N (lib/window.sh
# start_xvfb), whatever N: a number above 899 was wrapped to :100 (the
# search's wrap), a display someone else may use, and a value that is not
# a number stopped the test with a shell arithmetic error.  No X server is
# started: Xvfb, xdotool and import are stand-ins that fail at once, so the
# one display tried is named in start_xvfb's message.
#   TN_XVFB_DISPLAY=950  -> "no free X display number (last tried :950)"
#   TN_XVFB_DISPLAY=:94  -> "TN_XVFB_DISPLAY=:94: not a display number ..."
# Usage: tests/e2e/window_xvfb_display.sh [BUILD_DIR] (from the repo root).
set -u
NAME=window_xvfb_display
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-e2e.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for tool in Xvfb xdotool import; do
    printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/$tool"
    chmod +x "$tmp/bin/$tool"
done
status=0
bad() {
    echo "$NAME: FAIL: $*"
    status=1
}
# start_xvfb in a subshell (its fail exits), with the stand-ins first in PATH
try() { # value
    (
        PATH="$tmp/bin:$PATH"
        unset DISPLAY
        tmp=$(mktemp -d "$tmp/run.XXXXXX")
        . tests/e2e/lib/window.sh
        trap - EXIT
        TN_XVFB_DISPLAY=$1 start_xvfb
    ) >"$tmp/out" 2>&1
}
try 950 && bad "TN_XVFB_DISPLAY=950: an X server was started with stand-ins"
grep -q "no free X display number (last tried :950)" "$tmp/out" ||
    bad "TN_XVFB_DISPLAY=950 did not keep to :950: $(head -n 1 "$tmp/out")"
try :94 && bad "TN_XVFB_DISPLAY=:94 was taken"
grep -q "^$NAME: FAIL: TN_XVFB_DISPLAY=:94: not a display number (give N, as in :N)$" "$tmp/out" ||
    bad "TN_XVFB_DISPLAY=:94 was not refused by name: $(head -n 1 "$tmp/out")"
[ $status -eq 0 ] && echo "$NAME: ok"
exit $status
