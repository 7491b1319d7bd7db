#!/bin/sh
# End-to-end: the manual page tilenav.6 formats without a single groff
# warning (groff -ww; man --warnings too when man-db is there), and it
# documents every option `tilenav --help` lists and every script command
# of the README's table.
set -u
B=${1:-build}
fail() { echo "manpage.sh: $*"; exit 1; }
command -v groff >/dev/null 2>&1 || fail "groff is not installed (scripts/deps.sh window installs groff-base)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

groff -ww -man -Tutf8 tilenav.6 >"$T/out" 2>"$T/warn" || fail "groff failed: $(cat "$T/warn")"
[ -s "$T/warn" ] && { cat "$T/warn"; fail "groff warnings in tilenav.6 (above)"; }
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l tilenav.6 2>"$T/warn" >/dev/null || fail "man -l tilenav.6 failed"
    [ -s "$T/warn" ] && { cat "$T/warn"; fail "man --warnings on tilenav.6 (above)"; }
fi
# The page as plain ASCII text for the coverage checks.
groff -man -Tascii -P-cbou tilenav.6 >"$T/page" 2>/dev/null || fail "groff -Tascii failed"

# Every option of the program.
"$B/tilenav" --help >"$T/help" || fail "tilenav --help failed"
opts=$(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u)
[ -n "$opts" ] || fail "no option found in tilenav --help"
for o in $opts; do
    grep -q -- "$o" "$T/page" || fail "option $o (tilenav --help) is not in tilenav.6"
done
# ... and every option the page's OPTIONS section names is one --help lists
# (the page had -h, which the usage left out).
groff -man -Tascii -P-cbou -rHY=0 -rLL=300n tilenav.6 >"$T/wide" 2>/dev/null || fail "groff failed"
popts=$(sed -n '/^OPTIONS/,/^[A-Z]/p' "$T/wide" | grep -oE -- '(^|[ ,])--?[a-z][a-z-]*' |
    sed 's/^[ ,]*//' | sort -u)
[ -n "$popts" ] || fail "no option found in tilenav.6's OPTIONS"
for o in $popts; do
    grep -qE -- "(^|[ ,])$o([ ,]|\$)" "$T/help" || fail "option $o (tilenav.6) is not in tilenav --help"
done
# Every script command of the README's table.
cmds=$(sed -n '/^## Script files/,/^## /s/^| `\([a-z_]*\).*/\1/p' README.md | sort -u)
[ -n "$cmds" ] || fail "no script command found in README.md"
for c in $cmds; do
    grep -Eq "^ +$c( |$)" "$T/page" || fail "script command '$c' (README) is not in tilenav.6"
done
# Every modifier chord and function key of the README's Controls table
# (the page lacked Ctrl+Shift+Z).
keys=$(sed -n '/^## Controls/,/^## /s/^| \([^|]*\) |.*/\1/p' README.md |
    grep -oE '(Ctrl\+Shift|Ctrl|Shift)\+[A-Za-z0-9.]+|\bF[0-9]+\b' | sort -u)
[ -n "$keys" ] || fail "no key chord found in README.md's Controls"
for k in $keys; do
    grep -qF -- "$k" "$T/wide" || fail "key $k (README Controls) is not in tilenav.6"
done
echo "manpage.sh: tilenav.6 has no groff warnings; $(echo "$opts" | wc -l) options, $(echo "$cmds" | wc -l) script commands documented"
