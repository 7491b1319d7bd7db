#!/bin/sh
# tests/pkg/nosdl.sh BUILD_DIR - prove that src/nav builds and tests without
# SDL: `make lib nosdl-tests` with a pkg-config that answers "not found" for
# sdl2 and SDL2_ttf (so no SDL include path or library reaches any command),
# then no binary may link SDL, and the library's tests must pass.
# Used by `make check-nosdl` and by tests/e2e/package.sh (in an unpacked
# `make dist` tarball).  Runs from the tree it is in.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:-build-nosdl}
fail() { echo "nosdl.sh: $*"; exit 1; }

# The library's sources include no SDL header and call no SDL function.
if grep -nE '#[[:space:]]*include[[:space:]]*[<"](SDL|SDL2/)|\bSDL_[A-Za-z]' src/nav/*.c src/nav/*.h; then
    fail "the lines above in src/nav use SDL"
fi
# ... nor any header of the sandbox (src/sandbox) or the front end (src/game).
for h in src/sandbox/*.h src/game/*.h; do
    [ -f "$h" ] || continue
    grep -n "#[[:space:]]*include[[:space:]]*\"$(basename "$h")\"" src/nav/*.c src/nav/*.h &&
        fail "the lines above in src/nav include $h"
done

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
real=$(command -v pkg-config) || fail "pkg-config not found"
cat >"$W/pkg-config" <<P
#!/bin/sh
for a in "\$@"; do
    case "\$a" in sdl2|SDL2|SDL2_*|sdl2_*) echo "pkg-config (SDL hidden by nosdl.sh): \$a not found" >&2; exit 1 ;; esac
done
exec "$real" "\$@"
P
chmod +x "$W/pkg-config"
PATH="$W:$PATH"; export PATH
pkg-config --exists sdl2 2>/dev/null && fail "the pkg-config wrapper did not hide sdl2"

${MAKE:-make} --no-print-directory -j2 BUILD="$B" lib nosdl-tests >"$W/make.log" 2>&1 ||
    { tail -n 30 "$W/make.log"; fail "make lib nosdl-tests failed with SDL hidden (log above)"; }
# Nothing in that build may name SDL on a command line, nor link it.
grep -i 'sdl2' "$W/make.log" && fail "a command line above names SDL"
for f in "$B"/libtilenav.so.* "$B"/nosdl-tests/test_*; do
    [ -L "$f" ] && continue
    case "$f" in *.o|*.d) continue ;; esac
    ldd "$f" 2>/dev/null | grep -i sdl && fail "$f links SDL"
done
# The library's tests link libtilenav alone: no world, no front end.
for f in "$B"/nosdl-tests/test_*; do
    case "$f" in *.o|*.d) continue ;; esac
    nm "$f" 2>/dev/null | grep -Eq ' T (tn_world_|tn_load_map|tn_save_map|app_|ui_)' &&
        fail "$f links the sandbox or the front end"
done

passed=0; failed=""
for t in "$B"/nosdl-tests/test_*; do
    [ -x "$t" ] || continue
    if out=$("$t" 2>&1); then
        passed=$((passed + 1))
    else
        printf '%s\n' "$out" | tail -n 20
        failed="$failed $(basename "$t")"
    fi
done
[ "$passed" -gt 0 ] || fail "no test ran"
[ -z "$failed" ] || fail "failing without SDL:$failed"
echo "nosdl.sh: libtilenav.a, $(basename "$B"/libtilenav.so.*.*.*) and $passed library test suites built with SDL hidden; all pass"
