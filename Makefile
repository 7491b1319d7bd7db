# tilenav - see README.md.  `make run` and `make test` install what is missing.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
CFLAGS_WARN = -std=c11 -Wall -Wextra -Werror
# Layers: src/nav (the library, built with -Isrc/nav only), src/sandbox (the
# demo's world on top of it, -Isrc/nav -Isrc/sandbox), src/game (the SDL
# front end, all three).
# No floating-point contraction (a*b+c fused into one FMA instruction, as
# gcc's -ffp-contract=fast in GNU modes and clang's default allow): the same
# bot runs, flow distances and paths with any compiler and -march (README,
# "Floating point").  Last, so that CFLAGS cannot turn it back on.
FP_FLAGS    = -ffp-contract=off
CFLAGS_NAV  = $(CFLAGS_WARN) $(OPT) -g $(SAN) -MMD -MP -Isrc/nav $(CFLAGS) $(FP_FLAGS)
CFLAGS_SBX  = $(CFLAGS_WARN) $(OPT) -g $(SAN) -MMD -MP -Isrc/nav -Isrc/sandbox $(CFLAGS) $(FP_FLAGS)
CFLAGS_ALL  = $(CFLAGS_WARN) $(OPT) -g $(SAN) -MMD -MP -Isrc/nav -Isrc/sandbox -Isrc/game $(CFLAGS) $(FP_FLAGS)
LDFLAGS_ALL = $(SAN) $(LDFLAGS)

PKG_SDL    = $(shell pkg-config --cflags --libs sdl2 SDL2_ttf 2>/dev/null)
SDL_CFLAGS = $(shell pkg-config --cflags sdl2 SDL2_ttf 2>/dev/null)
SDL_LIBS   = $(shell pkg-config --libs sdl2 SDL2_ttf 2>/dev/null)
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null)
# Tiled maps (src/game/tiled.c): libxml2, cJSON, zlib.
TILED_CFLAGS = $(shell pkg-config --cflags libxml-2.0 libcjson zlib 2>/dev/null)
TILED_LIBS   = $(shell pkg-config --libs libxml-2.0 libcjson zlib 2>/dev/null)

NAV_SRC   = $(sort $(wildcard src/nav/*.c))
SANDBOX_SRC = $(sort $(wildcard src/sandbox/*.c))
GAME_SRC  = $(sort $(wildcard src/game/*.c))
BENCH_SRC = $(sort $(wildcard bench/*.c))
TEST_SRC  = $(sort $(wildcard tests/test_*.c))

NAV_OBJ   = $(NAV_SRC:src/nav/%.c=$(BUILD)/nav/%.o)
SANDBOX_OBJ = $(SANDBOX_SRC:src/sandbox/%.c=$(BUILD)/sandbox/%.o)
GAME_OBJ  = $(GAME_SRC:src/game/%.c=$(BUILD)/game/%.o)
GAME_LIB_OBJ = $(filter-out $(BUILD)/game/main.o,$(GAME_OBJ))
BENCH_OBJ = $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%.o)
TEST_BIN  = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%) $(BUILD)/tests/test_flow_portable

LIB   = $(BUILD)/libtilenav.a
GAME  = $(BUILD)/tilenav
BENCH = $(BUILD)/tilenav-bench

# The version is written in one place, the file VERSION (semantic versioning,
# see README); src/nav/tn_version.h is generated from it (and checked in so
# src/nav/ stays self-contained).  The shared library's soname carries MAJOR,
# or 0.MINOR while MAJOR is 0 (each 0.x minor release may break the ABI).
TN_VERSION       := $(strip $(shell cat VERSION))
TN_VERSION_MAJOR := $(word 1,$(subst ., ,$(TN_VERSION)))
TN_VERSION_MINOR := $(word 2,$(subst ., ,$(TN_VERSION)))
TN_SOVERSION     := $(if $(filter 0,$(TN_VERSION_MAJOR)),0.$(TN_VERSION_MINOR),$(TN_VERSION_MAJOR))
SONAME      = libtilenav.so.$(TN_SOVERSION)
SHLIB       = $(BUILD)/libtilenav.so.$(TN_VERSION)
NAV_PIC_OBJ = $(NAV_SRC:src/nav/%.c=$(BUILD)/nav-pic/%.o)
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
DOCDIR     ?= $(PREFIX)/share/doc/tilenav

.PHONY: all deps deps-window run test unit sanitize fuzz-brief fuzz bench bench-peers clean install
.PHONY: lib install-lib nosdl-tests check-nosdl dist tsan
.PHONY: web web-test web-check deps-web

all: $(LIB) $(GAME) $(BENCH) $(TEST_BIN)

deps:
	@sh scripts/deps.sh

deps-window:
	@sh scripts/deps.sh window

# `make run`: the game on the demo map (extra flags: make run ARGS="--seed 3").
# ARGS with a map of its own (--map FILE, or a FILE.map/.tmx/.tmj/.json the
# game takes as a positional MAP) replaces the demo map: the game refuses
# --map twice.
RUN_MAP = $(if $(filter --map %.map %.tmx %.tmj %.json,$(ARGS)),,--map maps/demo.map)
run: deps
	@$(MAKE) --no-print-directory $(GAME)
	./$(GAME) $(RUN_MAP) $(ARGS)

# `make test`: every cmocka suite, the end-to-end runs, then all of it again
# under AddressSanitizer + UndefinedBehaviorSanitizer, then each fuzzer
# briefly on its corpus.
test: deps-window
	@$(MAKE) --no-print-directory format-check
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory sanitize
	@$(MAKE) --no-print-directory tsan
	@$(MAKE) --no-print-directory fuzz-brief
	@$(MAKE) --no-print-directory web-check
	@cat build/test-skips build-san/test-skips $$(ls build-web/test-skips 2>/dev/null) 2>/dev/null; true
	@cat build/test-counts build-san/test-counts $$(ls build-web/test-counts 2>/dev/null) | \
	  awk '{p += $$1; f += $$2; s += $$3} END {print "all of the above: plain and sanitizer builds, the browser build; the fuzzers found nothing"; \
	  print "tests: " p " passed, " f " failed, " s " skipped"}'

unit: all
	@sh tests/run.sh $(BUILD)

sanitize:
	@$(MAKE) --no-print-directory BUILD=build-san OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" unit

# `make format`: every C source in place after .clang-format (Debian's
# clang-format 14); `make format-check` (in make test) names any file that
# differs.  tn_version.h is generated from VERSION, as it is.
FORMAT_SRC = $(filter-out src/nav/tn_version.h,$(sort $(wildcard src/nav/*.[ch] \
  src/nav/internal/*.h src/sandbox/*.[ch] src/game/*.[ch] tests/*.[ch] tests/pkg/*.cpp \
  tests/tsan/*.c bench/*.[ch] fuzz/*.[ch] examples/*.c web/*.c)))
.PHONY: format format-check
format:
	clang-format -i $(FORMAT_SRC)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_SRC) 2>&1 | grep -o '^[^:]*:' | sort -u | \
	  sed 's/:$$/: not formatted (make format)/' | grep . && exit 1; \
	  echo "format: the $(words $(FORMAT_SRC)) C sources follow .clang-format"

fuzz-brief:
	@sh fuzz/run.sh 5

# `make tsan`: the library's thread-safety claims under ThreadSanitizer (a
# race fails it): tests/test_threads.c (one map and flow field shared
# read-only, one path finder per thread) and tests/tsan/navmesh_threads.c
# (one navmesh shared by four threads, one query object each) and
# tests/tsan/surf_threads.c (the graph planner built and repaired on four
# threads: the same graph as on one; its query labels built on two: the same
# answers; bots planning on one graph from four threads, a query object each;
# on POSIX threads, TN_SURF_PTHREADS:
# ThreadSanitizer does not follow C11 thrd_create; the graph's block pool
# keeps blocks of 64 B and more there, TN_SURF_POOL_MIN, so that the workers'
# allocations go through its lock).
TSAN_NAV_SRC = $(addprefix src/nav/,tn_common.c tn_map.c tn_flow.c tn_path.c tn_phys.c tn_rng.c tn_levelgen.c)
TSAN_MESH_SRC = $(filter src/nav/tn_navmesh.c src/nav/tn_navquery.c src/nav/tn_cdt%.c \
                src/nav/tn_map.c src/nav/tn_common.c,$(NAV_SRC))
build-tsan/test_threads: tests/test_threads.c $(TSAN_NAV_SRC) $(wildcard src/nav/*.h)
	@mkdir -p build-tsan
	$(CC) $(CFLAGS_WARN) $(FP_FLAGS) -O1 -g -fsanitize=thread -Isrc/nav $(CMOCKA_CFLAGS) -o $@ \
	  tests/test_threads.c $(TSAN_NAV_SRC) $(CMOCKA_LIBS) -lm -pthread
build-tsan/navmesh_threads: tests/tsan/navmesh_threads.c $(TSAN_MESH_SRC) $(wildcard src/nav/*.h src/nav/internal/*.h)
	@mkdir -p build-tsan
	$(CC) $(CFLAGS_WARN) $(FP_FLAGS) -O1 -g -fsanitize=thread -Isrc/nav -o $@ \
	  tests/tsan/navmesh_threads.c $(TSAN_MESH_SRC) -lm -pthread
TSAN_SURF_SRC = $(addprefix src/nav/,tn_surf.c tn_surf_query.c tn_surf_io.c tn_surf_ch.c tn_common.c tn_map.c tn_phys.c tn_rng.c tn_levelgen.c \
                tn_path.c tn_bot.c)
build-tsan/surf_threads: tests/tsan/surf_threads.c $(TSAN_SURF_SRC) $(wildcard src/nav/*.h src/nav/internal/*.h)
	@mkdir -p build-tsan
	$(CC) $(CFLAGS_WARN) $(FP_FLAGS) -O1 -g -fsanitize=thread -DTN_SURF_PTHREADS -DTN_SURF_POOL_MIN=64 \
	  -D_POSIX_C_SOURCE=200809L \
	  -Isrc/nav -o $@ tests/tsan/surf_threads.c $(TSAN_SURF_SRC) -lm -pthread
tsan: build-tsan/test_threads build-tsan/navmesh_threads build-tsan/surf_threads
	@TSAN_OPTIONS=halt_on_error=1 build-tsan/test_threads
	@TSAN_OPTIONS=halt_on_error=1 build-tsan/navmesh_threads
	@TSAN_OPTIONS=halt_on_error=1 build-tsan/surf_threads

# `make fuzz`: each libFuzzer harness for FUZZ_SECONDS (default 60) seconds.
FUZZ_SECONDS ?= 60
fuzz: deps-window
	@sh fuzz/run.sh $(FUZZ_SECONDS)

bench: $(BENCH) $(GAME)
	@sh bench/run.sh $(BUILD)

bench-peers: $(BENCH)
	@sh bench/peers/run.sh $(BUILD)

$(LIB): $(NAV_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/nav/%.o: src/nav/%.c | $(BUILD)/nav
	$(CC) $(CFLAGS_NAV) -c $< -o $@

$(BUILD)/sandbox/%.o: src/sandbox/%.c | $(BUILD)/sandbox
	$(CC) $(CFLAGS_SBX) -c $< -o $@

$(BUILD)/game/%.o: src/game/%.c | $(BUILD)/game
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) $(TILED_CFLAGS) -c $< -o $@

# The game looks for its maps and fonts in ./maps and ./assets, then in
# DATADIR, where `make install` puts them (PREFIX's, never DESTDIR's: that is
# only where the files are staged), then in /usr/local and /usr.  main.o is
# rebuilt when DATADIR changes (BUILD/game/datadir holds the one it was built
# with), so `make install PREFIX=/opt/x` installs a game that finds /opt/x's.
DATADIR ?= $(PREFIX)/share/tilenav
$(BUILD)/game/main.o: CFLAGS_ALL += -DTN_DATADIR='"$(DATADIR)"'
$(BUILD)/game/main.o: $(BUILD)/game/datadir
# (written while the Makefile is read, and only when DATADIR changed: a rule
# that always ran made `make -q` and `make -n` report main.o out of date)
$(shell mkdir -p $(BUILD)/game && { echo '$(DATADIR)' | cmp -s - $(BUILD)/game/datadir || \
	echo '$(DATADIR)' > $(BUILD)/game/datadir; })

$(BUILD)/bench/%.o: bench/%.c | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) $(TILED_CFLAGS) -Ibench -c $< -o $@

# Three kinds of suites: the library's (every tests/test_*.c not listed
# below: -Isrc/nav -Itests, linked with libtilenav alone), the sandbox's
# (SANDBOX_TESTS: plus src/sandbox) and the front end's (GAME_TESTS: plus
# src/game, SDL and the Tiled loaders).
SANDBOX_TESTS = test_world test_wbots test_wagents test_wenemies test_wnav
GAME_TESTS    = test_render test_script test_control test_tiled test_fileio
NAV_TESTS     = $(filter-out $(SANDBOX_TESTS) $(GAME_TESTS),$(TEST_SRC:tests/%.c=%))

$(NAV_TESTS:%=$(BUILD)/tests/%.o): $(BUILD)/tests/%.o: tests/%.c | $(BUILD)/tests
	$(CC) $(CFLAGS_NAV) -Itests $(CMOCKA_CFLAGS) -c $< -o $@
$(SANDBOX_TESTS:%=$(BUILD)/tests/%.o): $(BUILD)/tests/%.o: tests/%.c | $(BUILD)/tests
	$(CC) $(CFLAGS_SBX) -Itests $(CMOCKA_CFLAGS) -c $< -o $@
$(GAME_TESTS:%=$(BUILD)/tests/%.o): $(BUILD)/tests/%.o: tests/%.c | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) -Itests $(SDL_CFLAGS) $(TILED_CFLAGS) $(CMOCKA_CFLAGS) -c $< -o $@

$(GAME): $(GAME_OBJ) $(SANDBOX_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(GAME_OBJ) $(SANDBOX_OBJ) $(LIB) $(SDL_LIBS) $(TILED_LIBS) -lm

$(BENCH): $(BENCH_OBJ) $(GAME_LIB_OBJ) $(SANDBOX_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(BENCH_OBJ) $(GAME_LIB_OBJ) $(SANDBOX_OBJ) $(LIB) $(SDL_LIBS) $(TILED_LIBS) -lm

$(NAV_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIB) $(CMOCKA_LIBS) -lm
$(SANDBOX_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(SANDBOX_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(SANDBOX_OBJ) $(LIB) $(CMOCKA_LIBS) -lm
$(GAME_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(GAME_LIB_OBJ) $(SANDBOX_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(GAME_LIB_OBJ) $(SANDBOX_OBJ) $(LIB) $(SDL_LIBS) $(TILED_LIBS) $(CMOCKA_LIBS) -lm

# The flow field's portable (no SSE2) path, tested like the default one.
$(BUILD)/tests/test_flow_portable: tests/test_flow.c src/nav/tn_flow.c $(LIB) | $(BUILD)/tests
	$(CC) $(CFLAGS_NAV) -Itests $(CMOCKA_CFLAGS) -DTN_FLOW_NO_SIMD $(LDFLAGS_ALL) -o $@ \
	  tests/test_flow.c src/nav/tn_flow.c $(LIB) $(CMOCKA_LIBS) -lm

# `make web`: the game for browsers in build-web/ (index.html, tilenav.js,
# .wasm, .data) with Debian's emscripten, see scripts/web.sh; serve it with
# `python3 -m http.server -d build-web`.  `make web-test` plays it in
# headless Chromium (tests/web/).
web: deps-web $(BUILD)/tilenav-bake-fonts
	@sh scripts/web.sh build-web $(BUILD)/tilenav-bake-fonts

web-test: web $(GAME)
	@rm -f build-web/test-skips; sh tests/web/run.sh build-web $(BUILD)

# In `make test`: the browser build and its tests, skipped (saying why) only
# where their packages cannot be installed.
web-check:
	@if sh scripts/deps.sh web; then $(MAKE) --no-print-directory web-test; \
	else mkdir -p build-web; echo "0 0 1" > build-web/test-counts; \
	  echo "SKIP web: emscripten, chromium or the test's npm modules could not be installed (above)" | \
	  tee build-web/test-skips; fi

deps-web:
	@sh scripts/deps.sh web

# Bakes the fonts' glyph atlases for the browser build (web/bake_fonts.c).
$(BUILD)/tilenav-bake-fonts: web/bake_fonts.c $(GAME_LIB_OBJ) $(SANDBOX_OBJ) $(LIB)
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) $(LDFLAGS_ALL) -o $@ web/bake_fonts.c $(GAME_LIB_OBJ) $(SANDBOX_OBJ) $(LIB) \
	  $(SDL_LIBS) $(TILED_LIBS) -lm

$(BUILD)/nav $(BUILD)/sandbox $(BUILD)/game $(BUILD)/bench $(BUILD)/tests:
	@mkdir -p $@

clean:
	rm -rf build build-san build-fuzz build-nosdl tilenav-*.tar.gz
	rm -rf build-web

# `make install`: the library (install-lib) and the game, its maps and fonts
# (in DATADIR, which the game is built to look in) and man page.
install: install-lib $(GAME)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man6 \
	  $(DESTDIR)$(DATADIR)/maps $(DESTDIR)$(DATADIR)/assets
	install -m 755 $(GAME) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 maps/*.map $(DESTDIR)$(DATADIR)/maps/
	install -m 644 maps/*.tmx $(DESTDIR)$(DATADIR)/maps/
	install -m 644 assets/* $(DESTDIR)$(DATADIR)/assets/
	sed -e 's/^\.TH TILENAV 6 \([^ ]*\) tilenav /.TH TILENAV 6 \1 "tilenav $(TN_VERSION)" /' \
	  tilenav.6 > $(DESTDIR)$(MANDIR)/man6/tilenav.6

# `make lib`: the static and the shared library; needs no SDL (nor does install-lib).
lib: $(LIB) $(SHLIB)

# `make install-lib PREFIX=... DESTDIR=...`: both libraries, the headers in
# include/tilenav/ (tilenav.h includes them all), tilenav.pc, LICENSE,
# CHANGELOG.md and docs/*.md, which the headers cite (in share/doc/tilenav).
install-lib: $(LIB) $(SHLIB)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/tilenav $(DESTDIR)$(DOCDIR)/examples
	install -m 644 LICENSE CHANGELOG.md docs/*.md $(DESTDIR)$(DOCDIR)/
	install -m 644 examples/*.c $(DESTDIR)$(DOCDIR)/examples/
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libtilenav.so.$(TN_VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtilenav.so
	install -m 644 src/nav/*.h $(DESTDIR)$(INCLUDEDIR)/tilenav/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	  -e 's|@VERSION@|$(TN_VERSION)|g' tilenav.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/tilenav.pc

src/nav/tn_version.h: VERSION scripts/version-header.sh
	sh scripts/version-header.sh VERSION > $@.tmp && mv $@.tmp $@
$(BUILD)/nav/tn_version.o $(BUILD)/nav-pic/tn_version.o $(BUILD)/game/main.o: src/nav/tn_version.h

$(SHLIB): $(NAV_PIC_OBJ)
	$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,$(SONAME) $(if $(SAN),,-Wl,-z,defs) -o $@ $(NAV_PIC_OBJ) -lm
	ln -sf libtilenav.so.$(TN_VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libtilenav.so

$(BUILD)/nav-pic/%.o: src/nav/%.c | $(BUILD)/nav-pic
	$(CC) $(CFLAGS_NAV) -fPIC -c $< -o $@

$(BUILD)/nav-pic $(BUILD)/nosdl-tests:
	@mkdir -p $@

# The library's own tests (NAV_TESTS above), linked with libtilenav alone:
# neither SDL nor src/game nor src/sandbox.
NOSDL_TEST_BIN = $(NAV_TESTS:%=$(BUILD)/nosdl-tests/%)
nosdl-tests: $(NOSDL_TEST_BIN)

$(BUILD)/nosdl-tests/%: $(BUILD)/tests/%.o $(LIB) | $(BUILD)/nosdl-tests
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIB) $(CMOCKA_LIBS) -lm

# `make check-nosdl`: builds the libraries and the tests above with SDL's
# pkg-config hidden (a pkg-config that fails for sdl2 / SDL2_ttf), checks
# that nothing links SDL, and runs the tests (build dir: build-nosdl).
check-nosdl:
	@sh tests/pkg/nosdl.sh build-nosdl

# `make dist`: tilenav-VERSION.tar.gz of every file git tracks (as they are
# in the working tree): the sources, tests, maps, fonts; no build outputs.
dist:
	@sh scripts/dist.sh $(TN_VERSION) $(or $(DIST_DIR),.)

-include $(wildcard $(BUILD)/*/*.d)
