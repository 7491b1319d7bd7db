/* web_main.c - the browser build's entry point (built by scripts/web.sh
 * instead of src/game/main.c; the rest of the game is the same sources).
 *
 * The page (web/index.html) preloads /maps/demo.map and the baked fonts
 * (/assets/tilenav-fonts.atlas) into the in-memory file system.  main()
 * mounts the browser's IndexedDB at /save (IDBFS) and reads it back, then
 * tn_web_start() plays /save/demo.map when an earlier visit saved one
 * (Ctrl+S), else /maps/demo.map, with /save/demo.map as the file Ctrl+S
 * writes.  Each save is flushed to IndexedDB and offered as a download;
 * unsaved edits go to /save/demo.map.autosave a second after the last one,
 * when the page is left or hidden, and on Esc; the next visit offers to
 * restore them (R), as the native game does.  The settings live in
 * /save/config/tilenav/settings, kept the same way; F12's screenshots are
 * offered as downloads.
 */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "game.h"
#include "tn_world.h"

#define SAVED_MAP "/save/demo.map"
#define DEMO_MAP "/maps/demo.map"

/* The page's game: tn_game_run() returns at once in a browser, so the world
 * and the options live here for as long as the page. */
static tn_world *world;
static tn_game_opts opts;

static void page_error(const char *msg)
{
    fprintf(stderr, "tilenav: %s\n", msg);
    /* clang-format off */ /* (JavaScript inside) */
    EM_ASM({ if (Module.tnError) Module.tnError(UTF8ToString($0)); }, msg);
    /* clang-format on */
}

EMSCRIPTEN_KEEPALIVE void tn_web_start(void)
{
    char err[512];
    FILE *f = fopen(SAVED_MAP, "rb");
    bool saved = f != NULL;
    const char *from = saved ? SAVED_MAP : DEMO_MAP;
    if (f) fclose(f);
    tn_map *map;
    if (tn_load_map(from, &map, err, sizeof err) != 0) {
        page_error(err);
        return;
    }
    tn_world_config cfg = tn_world_default_config();
    tn_error e;
    if (tn_failed(tn_world_create(map, &cfg, NULL, &world, &e))) {
        snprintf(err, sizeof err, "%s: %s", from, e.msg);
        page_error(err);
        return;
    }
    if (saved)
        tn_world_message(world, "your map from this browser's storage: Ctrl+S saves it there");
    opts.map_path = SAVED_MAP;
    opts.assets_dir = "/assets";
    if (tn_game_run(world, &opts) != 0) page_error("the game could not start (see the console)");
}

/* Flush /save to IndexedDB (Module.tnSync, set up by main()). */
void tn_web_sync(void)
{
    /* clang-format off */ /* (JavaScript inside) */
    EM_ASM({ Module.tnSync(); });
    /* clang-format on */
}

void tn_web_offer(const char *path, const char *type)
{
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    /* clang-format off */ /* (JavaScript inside) */
    EM_ASM({
        if (Module.tnOfferDownload)
            Module.tnOfferDownload(UTF8ToString($1), FS.readFile(UTF8ToString($0)), UTF8ToString($2));
    }, path, name, type);
    /* clang-format on */
}

/* After a save: flush /save to IndexedDB, offer the file as a download. */
void tn_web_saved(const char *path)
{
    tn_web_sync();
    tn_web_offer(path, "text/plain");
}

/* The game ended (Esc): keep its autosave and settings, tell the page. */
void tn_web_stopped(int rc)
{
    tn_web_sync();
    /* clang-format off */ /* (JavaScript inside) */
    EM_ASM({ if (Module.tnStopped) Module.tnStopped($0); }, rc);
    /* clang-format on */
}

int main(void)
{
    /* The settings (control.c: $XDG_CONFIG_HOME/tilenav/settings) in the
     * persistent store too, not in the page's in-memory home. */
    setenv("XDG_CONFIG_HOME", "/save/config", 1);
    /* clang-format off */ /* (JavaScript inside) */
    EM_ASM({
        // One FS.syncfs at a time (two at once only repeat the work, and
        // emscripten complains); a request during one runs after it.
        var busy = false;
        var again = false;
        Module.tnSyncing = function() { return busy; };
        Module.tnSync = function() {
            if (busy) { again = true; return; }
            busy = true;
            FS.syncfs(false, function(e) {
                busy = false;
                if (e) console.error('tilenav: saving to IndexedDB:', e);
                if (again) { again = false; Module.tnSync(); }
            });
        };
        // Leaving the page runs no exit code: the game keeps unsaved edits
        // (MAP.autosave) and settings a second after they change
        // (tn_web_keep in app.c); here they are written at once, and while
        // they are not yet in IndexedDB (FS.syncfs cannot finish during an
        // unload) the browser asks before leaving.
        function keep() {
            return Module._tn_web_keep ? (Module._tn_web_keep() !== 0 || busy) : false;
        }
        window.addEventListener('beforeunload', function(e) {
            if (keep()) { e.preventDefault(); e.returnValue = ""; }
        });
        window.addEventListener('pagehide', keep);
        document.addEventListener('visibilitychange', function() {
            if (document.visibilityState === 'hidden') keep();
        });
        FS.mkdir('/save');
        FS.mount(IDBFS, {}, '/save');
        FS.syncfs(true, function(e) {
            if (e) console.error('tilenav: reading IndexedDB:', e);
            Module._tn_web_start();
        });
    });
    /* clang-format on */
    return 0;
}
