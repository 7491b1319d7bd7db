# tilenav - see README.md.  `make run` and `make test` install what is missing.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
CFLAGS_WARN = -std=c11 -Wall -Wextra -Werror
CFLAGS_ALL  = $(CFLAGS_WARN) $(OPT) -g $(SAN) -MMD -MP -Isrc/nav -Isrc/game $(CFLAGS)
LDFLAGS_ALL = $(SAN) $(LDFLAGS)

PKG_SDL    = $(shell pkg-config --cflags --libs sdl2 SDL2_ttf 2>/dev/null)
SDL_CFLAGS = $(shell pkg-config --cflags sdl2 SDL2_ttf 2>/dev/null)
SDL_LIBS   = $(shell pkg-config --libs sdl2 SDL2_ttf 2>/dev/null)
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null)

NAV_SRC   = $(sort $(wildcard src/nav/*.c))
GAME_SRC  = $(sort $(wildcard src/game/*.c))
BENCH_SRC = $(sort $(wildcard bench/*.c))
TEST_SRC  = $(sort $(wildcard tests/test_*.c))

NAV_OBJ   = $(NAV_SRC:src/nav/%.c=$(BUILD)/nav/%.o)
GAME_OBJ  = $(GAME_SRC:src/game/%.c=$(BUILD)/game/%.o)
GAME_LIB_OBJ = $(filter-out $(BUILD)/game/main.o,$(GAME_OBJ))
BENCH_OBJ = $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%.o)
TEST_BIN  = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%) $(BUILD)/tests/test_flow_portable

LIB   = $(BUILD)/libtilenav.a
GAME  = $(BUILD)/tilenav
BENCH = $(BUILD)/tilenav-bench

.PHONY: all deps deps-window run test unit sanitize fuzz-brief fuzz bench bench-peers clean install
.PHONY: web web-test web-check deps-web

all: $(LIB) $(GAME) $(BENCH) $(TEST_BIN)

deps:
	@sh scripts/deps.sh

deps-window:
	@sh scripts/deps.sh window

# `make run`: the game on the demo map (extra flags: make run ARGS="--seed 3").
run: deps
	@$(MAKE) --no-print-directory $(GAME)
	./$(GAME) --map maps/demo.map $(ARGS)

# `make test`: every cmocka suite, the end-to-end runs, then all of it again
# under AddressSanitizer + UndefinedBehaviorSanitizer, then each fuzzer
# briefly on its corpus.
test: deps-window
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory sanitize
	@$(MAKE) --no-print-directory fuzz-brief
	@$(MAKE) --no-print-directory web-check
	@cat build/test-counts build-san/test-counts $$(ls build-web/test-counts 2>/dev/null) | \
	  awk '{p += $$1; f += $$2} END {print "all of the above: plain and sanitizer builds; the fuzzers found nothing"; \
	  print "tests: " p " passed, " f " failed"}'

unit: all
	@sh tests/run.sh $(BUILD)

sanitize:
	@$(MAKE) --no-print-directory BUILD=build-san OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" unit

fuzz-brief:
	@sh fuzz/run.sh 5

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
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/game/%.o: src/game/%.c | $(BUILD)/game
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) -c $< -o $@

$(BUILD)/bench/%.o: bench/%.c | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) -Ibench -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) $(CMOCKA_CFLAGS) -c $< -o $@

$(GAME): $(GAME_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(GAME_OBJ) $(LIB) $(SDL_LIBS) -lm

$(BENCH): $(BENCH_OBJ) $(GAME_LIB_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(BENCH_OBJ) $(GAME_LIB_OBJ) $(LIB) $(SDL_LIBS) -lm

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(GAME_LIB_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(GAME_LIB_OBJ) $(LIB) $(SDL_LIBS) $(CMOCKA_LIBS) -lm

# The flow field's portable (no SSE2) path, tested like the default one.
$(BUILD)/tests/test_flow_portable: tests/test_flow.c src/nav/tn_flow.c $(GAME_LIB_OBJ) $(LIB) | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) $(CMOCKA_CFLAGS) -DTN_FLOW_NO_SIMD $(LDFLAGS_ALL) -o $@ \
	  tests/test_flow.c src/nav/tn_flow.c $(GAME_LIB_OBJ) $(LIB) $(SDL_LIBS) $(CMOCKA_LIBS) -lm

# `make web`: the game for browsers in build-web/ (index.html, tilenav.js,
# .wasm, .data) with Debian's emscripten, see scripts/web.sh; serve it with
# `python3 -m http.server -d build-web`.  `make web-test` plays it in
# headless Chromium (tests/web/).
web: deps-web $(BUILD)/tilenav-bake-fonts
	@sh scripts/web.sh build-web $(BUILD)/tilenav-bake-fonts

web-test: web $(GAME)
	@sh tests/web/run.sh build-web $(BUILD)

# In `make test`: the browser build and its tests, skipped (saying why) only
# where their packages cannot be installed.
web-check:
	@if sh scripts/deps.sh web; then $(MAKE) --no-print-directory web-test; \
	else rm -f build-web/test-counts; \
	  echo "web: SKIP: emscripten, chromium or the test's npm modules could not be installed (above)"; fi

deps-web:
	@sh scripts/deps.sh web

# Bakes the fonts' glyph atlases for the browser build (web/bake_fonts.c).
$(BUILD)/tilenav-bake-fonts: web/bake_fonts.c $(GAME_LIB_OBJ) $(LIB)
	$(CC) $(CFLAGS_ALL) $(SDL_CFLAGS) $(LDFLAGS_ALL) -o $@ web/bake_fonts.c $(GAME_LIB_OBJ) $(LIB) \
	  $(SDL_LIBS) -lm

$(BUILD)/nav $(BUILD)/game $(BUILD)/bench $(BUILD)/tests:
	@mkdir -p $@

clean:
	rm -rf build build-san build-fuzz
	rm -rf build-web

install: $(LIB) $(GAME)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/tilenav \
	  $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/share/tilenav/maps $(DESTDIR)$(PREFIX)/share/tilenav/assets
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 src/nav/*.h $(DESTDIR)$(PREFIX)/include/tilenav/
	install -m 755 $(GAME) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 maps/*.map $(DESTDIR)$(PREFIX)/share/tilenav/maps/
	install -m 644 assets/* $(DESTDIR)$(PREFIX)/share/tilenav/assets/
	sed -e 's|@PREFIX@|$(PREFIX)|g' tilenav.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tilenav.pc

-include $(wildcard $(BUILD)/*/*.d)
