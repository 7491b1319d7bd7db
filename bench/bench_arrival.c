/* tilenav-bench arrival: does the bot complete the paths the finder gives it?
 *
 * For each of N random platformer levels (tn_levelgen, --size, default
 * 48x28) the character size and jump height cycle through all 72
 * combinations (width 1-3 x height 1-3 x jump 1-8; level L uses combination
 * L mod 72).  K start/goal pairs per level are drawn among standing tiles
 * and kept only when tn_path returns a full path; the bot then drives a
 * tn_body on the real physics (the same tn_bot_step -> tn_body_step loop as
 * the world) until it stops or runs out of frames (600 + 20 per path tile).
 * Arrival = the bot says ARRIVED standing on the goal tile.
 *
 * Prints the arrival rate, the median frames per arrival, a table of
 * failures per jump height and size, and every failure; each failure is
 * written to a folder of this run's own, RUN = run-YYYYMMDD-HHMMSS-PID
 * (local time; made new, never one already there), inside --out DIR
 * (default $TMPDIR/tilenav-arrival-UID, /tmp when TMPDIR is unset or
 * empty, UID the user's id) as fail_L_K.map (the level, P = the start) and
 * fail_L_K.script (sizes, jump height, goto), to be replayed with
 *   build/tilenav --headless --map DIR/RUN/fail_L_K.map --frames N --script DIR/RUN/fail_L_K.script
 * Two runs at once (two checkouts of one user) each write their own
 * folder: in DIR itself one overwrote the other's failures, and an older
 * run's were mixed with the new.  A run without failures removes its empty
 * folder.  A run that is killed (Ctrl-C, a timeout, kill -9) before it
 * ends leaves its folder, marked unfinished (a file .incomplete in it,
 * removed when the run ends); those piled up in DIR.  Each run now removes
 * the folders of unfinished runs whose process is gone (see
 * remove_unfinished: a live run's folder is locked, and its process runs;
 * a finished run's folder is kept, as is anything not the run's own), and
 * says so.  DIR must be the user's own: a directory someone else owns, or a
 * symbolic link someone else owns (planted in /tmp), is refused before the
 * run.
 * --planner graph: the pairs are those the graph planner (tn_surf) connects,
 * the bot follows graph plans (tn_bot_set_graph), one graph per level.
 * --push PX: each body is pushed PX px sideways once, on the ground, at its
 * first standing frame from frame 10 where the pushed box fits (knock-back
 * in a game: off the walk's lattice for a PX that is no multiple of a walk
 * step); the failure scripts do not replay the push.  --push-air: the
 * push comes instead at the first frame from frame 10 the body is in the
 * air (a hit during a jump or a fall).  With a push, each failure is
 * also told apart by where the push threw the body: when the graph
 * planner (the character's profile; with the classic planner a graph is
 * built for the level then) has no whole plan to the goal from the first
 * ground the body stood on after the push, the goal was out of reach
 * from there ("out of reach after the push"), whatever the bot did.
 * Usage: tilenav-bench arrival [--levels N] [--goals K] [--seed S] [--out DIR]
 *                              [--size WxH] [--quiet] [--planner classic|graph]
 *                              [--push PX [--push-air]]
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "tn_bot.h"
#include "tn_levelgen.h"
#include "tn_path.h"
#include "tn_surf.h"

#define PAIR_TRIES 300

typedef struct outcome {
    bool arrived;
    int frames;
    tn_bot_info info;
    int end_x, end_y;
    bool landed;        /* the body stood on ground after the push */
    tn_body after_push; /* there, the first frame it did */
} outcome;

static bool standing(const tn_map *m, int x, int y, int w, int h)
{
    return tn_path_box_fits(m, x, y, w, h) && tn_path_box_ground(m, x, y, w);
}

static bool random_standing(const tn_map *m, tn_rng *r, int w, int h, int *x, int *y)
{
    for (int t = 0; t < 2000; t++) {
        int tx = (int)tn_rng_below(r, (uint32_t)m->w), ty = (int)tn_rng_below(r, (uint32_t)m->h);
        if (standing(m, tx, ty, w, h)) {
            *x = tx;
            *y = ty;
            return true;
        }
    }
    return false;
}

static outcome run_bot(tn_bot *bot, tn_path *pf, const tn_map *m, const tn_phys_params *p, int w,
                       int h, int sx, int sy, int gx, int gy, int budget, float push, bool air)
{
    outcome o;
    memset(&o, 0, sizeof o);
    tn_body body;
    tn_body_place(&body, p, w, h, sx, sy);
    const tn_input none = {false, false, false, false};
    tn_body_step(&body, m, p, none); /* settle, as the world's first step does */
    tn_bot_goto(bot, pf, m, &body, p, gx, gy, NULL);
    int f;
    bool pushed = push == 0.0f;
    for (f = 0; f < budget; f++) {
        tn_input in = tn_bot_step(bot, pf, m, &body, p);
        if (!tn_bot_active(bot)) break;
        if (!pushed && f >= 10 && body.on_ground != air &&
            !tn_body_box_blocked(m, p, body.x + push, body.y, body.w, body.h))
            body.x += push, pushed = true;
        tn_body_step(&body, m, p, in);
        if (pushed && push != 0.0f && !o.landed && body.on_ground)
            o.landed = true, o.after_push = body;
    }
    o.frames = f;
    o.info = tn_bot_get_info(bot);
    tn_body_tile(&body, p, &o.end_x, &o.end_y);
    /* on the goal: standing on its row, within half a walking step of its
     * column (walking in float drifts by ~1/1000 px per 50 tiles, which
     * tn_body_tile may count as the tile before) */
    float half = 0.5f * p->walk_speed * p->dt + 1e-3f;
    float dx = body.x - (float)(gx * p->tile_px);
    float feet = body.y + (float)(h * p->tile_px);
    o.arrived = o.info.state == TN_BOT_ARRIVED && body.on_ground && dx <= half && dx >= -half &&
                feet == (float)((gy + 1) * p->tile_px);
    /* the graph planner's goal is any standing x whose box has the goal as
     * its bottom-left tile */
    if (o.info.planner == 1)
        o.arrived = o.info.state == TN_BOT_ARRIVED && body.on_ground && o.end_x == gx &&
                    o.end_y == gy && feet == (float)((gy + 1) * p->tile_px);
    return o;
}

/* Whether g has a whole plan to (gx, gy) from where b stands: its node,
 * or one of the nearest two each side on its row (a body pushed off the
 * walk's lattice stands between nodes, as tn_bot's start_node takes). */
static bool graph_reaches(tn_surf *g, const tn_body *b, const tn_phys_params *p, int gx, int gy)
{
    int cand[5] = {tn_surf_node_of_body(g, b), -1, -1, -1, -1};
    const int row = (int)lroundf((b->y + (float)b->h * p->tile_px) / p->tile_px);
    const int j = tn_surf_lattice_j(g, b->x);
    for (int d = 1, k = 1; d <= 2; d++) {
        cand[k++] = tn_surf_node_at(g, row, j + d);
        cand[k++] = tn_surf_node_at(g, row, j - d);
    }
    for (int k = 0; k < 5; k++) {
        if (cand[k] < 0) continue;
        tn_status s = tn_surf_find(g, cand[k], gx, gy, NULL, 0, NULL, NULL, NULL);
        if (tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT)) return true;
    }
    return false;
}

/* A failure's file in --out (dirfd: the directory opened once, by
 * open_out_dir), never through a symbolic link planted there (the default
 * folder is in /tmp, which every user can write: fopen followed a link and
 * overwrote the file it named) */
static FILE *open_out(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) close(fd);
    return f;
}

static int write_failure(int dir, int level, int k, tn_map *m, int sx, int sy, int gx, int gy,
                         int w, int h, int jump, int frames)
{
    char path[64];
    int osx = m->start_x, osy = m->start_y;
    m->start_x = sx;
    m->start_y = sy;
    size_t cap = tn_map_format_size(m);
    char *buf = bench_alloc(cap);
    size_t len = 0;
    int rc = -1;
    if (buf && tn_succeeded(tn_map_format(m, buf, cap, &len))) {
        snprintf(path, sizeof path, "fail_%d_%d.map", level, k);
        FILE *f = open_out(dir, path);
        if (f) {
            fwrite(buf, 1, len, f);
            rc = fclose(f);
        }
    }
    free(buf);
    m->start_x = osx;
    m->start_y = osy;
    if (rc != 0) return -1;
    snprintf(path, sizeof path, "fail_%d_%d.script", level, k);
    FILE *f = open_out(dir, path);
    if (!f) return -1;
    fprintf(f,
            "# tilenav-bench arrival failure: level %d pair %d; character %dx%d, jump %d;\n"
            "# start (%d,%d) goal (%d,%d).  Replay with --frames %d\n"
            "0 set jump_height %d\n0 set char_height 1\n0 set char_width %d\n0 set char_height %d\n"
            "1 goto %d %d\n",
            level, k, w, h, jump, sx, sy, gx, gy, frames + 2, jump, w, h, gx, gy);
    return fclose(f);
}

/* --out, made when missing, then opened once: the failures are written
 * into this descriptor, so the name is not looked up again (a directory
 * swapped in later is not written).  Refused, said, -1: not a directory, a
 * symbolic link to nothing, a symbolic link someone else owns (one planted
 * in /tmp, the default's folder, which every user can write, sent the
 * failures into the planter's choice of directory), a directory someone
 * else owns (its owner could read, replace or link the files under the
 * user's nose).  A link of the user's own to a directory of the user's own
 * is followed.  The checks go by the name without its trailing slashes:
 * lstat of "link/" followed the link, so a planted one named with a slash
 * passed for a directory of the user's own. */
static int open_out_dir(const char *out)
{
    char name[4096];
    size_t len = strlen(out);
    if (len >= sizeof name) {
        tn_print_shown(stderr, "arrival: --out %s: %s\n", out, strerror(ENAMETOOLONG));
        return -1;
    }
    memcpy(name, out, len + 1);
    while (len > 1 && name[len - 1] == '/') name[--len] = '\0';
    if (mkdir(name, 0777) != 0 && errno != EEXIST) {
        tn_print_shown(stderr, "arrival: cannot create %s: %s\n", out, strerror(errno));
        return -1;
    }
    struct stat st; /* EEXIST: a file of that name (a map) is no folder */
    if (lstat(name, &st) != 0) {
        tn_print_shown(stderr, "arrival: --out %s: %s\n", out, strerror(errno));
        return -1;
    }
    const uid_t me = geteuid();
    const bool link = S_ISLNK(st.st_mode);
    if (link && st.st_uid != me) {
        tn_print_shown(stderr,
                       "arrival: --out %s: is a symbolic link owned by someone else (uid %ld): "
                       "not followed (name a directory of your own)\n",
                       out, (long)st.st_uid);
        return -1;
    }
    int fd = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        int e = errno;
        if (e == ENOTDIR)
            tn_print_shown(stderr,
                           "arrival: --out %s: is not a directory (the failures' maps and "
                           "scripts go into a directory)\n",
                           out);
        else if (link && e == ENOENT) /* mkdir said EEXIST */
            tn_print_shown(stderr, "arrival: --out %s: %s (a symbolic link to nothing?)\n", out,
                           strerror(e));
        else
            tn_print_shown(stderr, "arrival: --out %s: %s\n", out, strerror(e));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        tn_print_shown(stderr, "arrival: --out %s: %s\n", out, strerror(errno));
        close(fd);
        return -1;
    }
    if (st.st_uid != me) {
        tn_print_shown(stderr,
                       "arrival: --out %s: is a directory owned by someone else (uid %ld), who "
                       "could replace the failures' files: not used (name a directory of your "
                       "own)\n",
                       out, (long)st.st_uid);
        close(fd);
        return -1;
    }
    return fd;
}

/* This run's folder inside --out (dir), made new (mkdirat fails on a name
 * already there, so two runs at once never share one), 0700: its name in
 * run[] and its descriptor; -1 with a message naming --out. */
static int open_run_dir(int dir, const char *out, char *run, size_t cap)
{
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32] = "00000000-000000";
    if (localtime_r(&now, &tm)) strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    int e = 0;
    for (int n = 1; n <= 100; n++) {
        if (n == 1)
            snprintf(run, cap, "run-%s-%ld", stamp, (long)getpid());
        else
            snprintf(run, cap, "run-%s-%ld-%d", stamp, (long)getpid(), n);
        if (mkdirat(dir, run, 0700) == 0) {
            int fd = openat(dir, run, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
            if (fd >= 0) return fd;
            e = errno;
            break;
        }
        e = errno;
        if (e != EEXIST) break;
    }
    tn_print_shown(stderr, "arrival: --out %s: cannot create this run's folder %s in it: %s\n", out,
                   run, strerror(e));
    return -1;
}

/* The file that marks a run's folder as unfinished: made when the run
 * starts, removed when it ends.  The run also holds a lock (flock) on its
 * folder while it runs: both go with its process, however it ends.  It
 * holds the name of the machine the run is on (gethostname) and a line
 * break: the PID in the folder's name is that machine's, and a run on
 * another machine sharing --out (NFS) is no process here (and where flock
 * is not shared, its lock is not seen here either). */
#define UNFINISHED ".incomplete"

/* This machine's name and a line break, what a mark holds; "" when unknown. */
static void mark_host(char *out, size_t cap)
{
    char h[256];
    out[0] = '\0';
    if (gethostname(h, sizeof h) != 0) return;
    h[sizeof h - 1] = '\0';
    if (h[0] && !strchr(h, '\n')) snprintf(out, cap, "%s\n", h);
}

/* Whether the mark (UNFINISHED, in folder fd) was made on this machine
 * (host: mark_host's): anything else, an empty mark (a run making it, or
 * one whose machine was not known) too, is another machine's run. */
static bool marked_here(int fd, const char *host)
{
    if (!host[0]) return false;
    int m = openat(fd, UNFINISHED, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (m < 0) return false;
    char buf[300];
    ssize_t n = read(m, buf, sizeof buf);
    close(m);
    size_t len = strlen(host);
    return n == (ssize_t)len && memcmp(buf, host, len) == 0;
}

/* The process number of a run folder's name, run-YYYYMMDD-HHMMSS-PID or
 * run-YYYYMMDD-HHMMSS-PID-N (open_run_dir's names); -1 for any other name. */
static long run_pid(const char *name)
{
    const char *p = name;
    if (strncmp(p, "run-", 4) != 0) return -1;
    p += 4;
    for (int part = 0; part < 2; part++) {
        for (int i = 0; i < (part ? 6 : 8); i++, p++)
            if (*p < '0' || *p > '9') return -1;
        if (*p++ != '-') return -1;
    }
    long pid = 0;
    const char *d = p;
    while (*p >= '0' && *p <= '9' && pid <= INT_MAX) pid = pid * 10 + (*p++ - '0');
    if (p == d || pid > INT_MAX) return -1;
    if (*p == '-') {
        const char *n = ++p;
        while (*p >= '0' && *p <= '9') p++;
        if (p == n) return -1;
    }
    return *p ? -1 : pid;
}

/* A file a run writes into its folder: fail_L_K.map, fail_L_K.script, or
 * the UNFINISHED mark. */
static bool run_file(const char *name)
{
    if (!strcmp(name, UNFINISHED)) return true;
    const char *p = name;
    if (strncmp(p, "fail_", 5) != 0) return false;
    p += 5;
    for (int part = 0; part < 2; part++) {
        const char *d = p;
        while (*p >= '0' && *p <= '9') p++;
        if (p == d || *p++ != (part ? '.' : '_')) return false;
    }
    return !strcmp(p, "map") || !strcmp(p, "script");
}

/* Remove, from --out (dir, named out), the folders of runs that did not
 * finish and whose process is gone: a folder named as open_run_dir names
 * them (never own, this run's), the user's own, holding the UNFINISHED
 * mark, made on this machine (a PID is only this machine's), not locked
 * (a live run holds its folder's lock from before it makes the mark),
 * whose process (by the PID in its name) is not running
 * (the lock alone would not do where flock is not shared, and a run
 * between making its folder and locking it has no lock yet), and that holds
 * nothing but the run's own files.  A folder with something else in it is
 * kept and said (the user put it there).  Each removal is said on stderr
 * (stdout is the run's table, which make bench copies into docs/bench.md).
 * A folder a finished run left (its failures: what the user reads) has no
 * mark and is never touched; a PID reused since is taken as running, and
 * its folder is removed by a later run. */
static void remove_unfinished(int dir, const char *out, const char *own)
{
    int scan = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dp = scan < 0 ? NULL : fdopendir(scan);
    if (!dp) {
        if (scan >= 0) close(scan);
        return;
    }
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/') n--;
    const uid_t me = geteuid();
    char host[300];
    mark_host(host, sizeof host);
    struct dirent *e;
    while ((e = readdir(dp))) {
        const char *name = e->d_name;
        long pid = run_pid(name);
        if (pid < 0 || !strcmp(name, own)) continue;
        int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        bool stale = fstat(fd, &st) == 0 && st.st_uid == me &&
                     fstatat(fd, UNFINISHED, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                     S_ISREG(st.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
                     marked_here(fd, host);
        /* (pid 0 and negative ones name process groups: never asked) */
        if (stale && pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM)) stale = false;
        int inner = stale ? openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        DIR *rd = inner < 0 ? NULL : fdopendir(inner);
        if (!rd) {
            if (inner >= 0) close(inner);
            close(fd);
            continue;
        }
        const char *alien = NULL;
        char alien_name[256];
        struct dirent *f;
        while ((f = readdir(rd)) && !alien) {
            if (!strcmp(f->d_name, ".") || !strcmp(f->d_name, "..")) continue;
            if (!run_file(f->d_name) || fstatat(fd, f->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                !S_ISREG(st.st_mode)) {
                snprintf(alien_name, sizeof alien_name, "%s", f->d_name);
                alien = alien_name;
            }
        }
        if (alien) {
            tn_print_shown(stderr,
                           "arrival: %.*s/%s: a run that did not finish (process %ld is gone), "
                           "kept: it holds %s, which is not the run's\n",
                           (int)n, out, name, pid, alien);
        } else {
            rewinddir(rd);
            int files = 0;
            while ((f = readdir(rd)))
                if (strcmp(f->d_name, UNFINISHED) && run_file(f->d_name) &&
                    unlinkat(fd, f->d_name, 0) == 0)
                    files++;
            /* the mark last: a removal cut short is still unfinished */
            if (unlinkat(fd, UNFINISHED, 0) == 0 && unlinkat(dir, name, AT_REMOVEDIR) == 0)
                tn_print_shown(stderr,
                               "arrival: removed %.*s/%s: the folder of a run that did not finish "
                               "(process %ld is gone), %d file%s in it\n",
                               (int)n, out, name, pid, files, files == 1 ? "" : "s");
        }
        closedir(rd);
        close(fd); /* (its lock) */
    }
    closedir(dp);
}

int bench_arrival(int argc, char **argv)
{
    int levels = 500, goals = 10, W = 48, H = 28;
    unsigned long long seed = 1;
    /* the default is the user's own name: one folder for every user
     * (/tmp/tilenav-arrival) was refused, as another's, to all but the
     * first user to run (root before a CI user: make bench failed) */
    char def_out[512];
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > sizeof def_out - 40) tmp = "/tmp";
    snprintf(def_out, sizeof def_out, "%s/tilenav-arrival-%ld", tmp, (long)geteuid());
    const char *out = def_out;
    bool quiet = false, graph = false, air = false;
    double push = 0.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "--quiet") == 0) {
            quiet = true;
            continue;
        }
        if (strcmp(a, "--push-air") == 0) {
            air = true;
            continue;
        }
        if (strcmp(a, "--levels") == 0)
            bad = bench_arg_int("arrival", a, v, 1, 10000000, &levels);
        else if (strcmp(a, "--goals") == 0)
            bad = bench_arg_int("arrival", a, v, 1, 100000, &goals);
        else if (strcmp(a, "--seed") == 0)
            bad = bench_arg_seed("arrival", a, v, &seed);
        else if (strcmp(a, "--push") == 0)
            bad = bench_arg_double("arrival", a, v, -64.0, 64.0, &push);
        else if (strcmp(a, "--out") == 0 && v && *v)
            out = v;
        else if (strcmp(a, "--size") == 0 && v) {
            /* WxH: each a whole number, W in 16..1024, H in 12..1024 */
            const char *x = strchr(v, 'x');
            char w[32];
            size_t wl = x ? (size_t)(x - v) : 0;
            if (!x || wl >= sizeof w) {
                tn_print_shown(
                    stderr, "arrival: --size: '%s' is not WxH (like 48x28; 16x12..1024x1024)\n", v);
                return 2;
            }
            memcpy(w, v, wl);
            w[wl] = '\0';
            bad = bench_arg_int("arrival", "--size (width)", w, 16, 1024, &W) ||
                  bench_arg_int("arrival", "--size (height)", x + 1, 12, 1024, &H);
        } else if (strcmp(a, "--planner") == 0 && v &&
                   (!strcmp(v, "graph") || !strcmp(v, "classic")))
            graph = !strcmp(v, "graph");
        else {
            if (!v && (!strcmp(a, "--out") || !strcmp(a, "--size") || !strcmp(a, "--planner")))
                bench_arg_missing("arrival", a);
            else if (!strcmp(a, "--planner"))
                tn_print_shown(stderr, "arrival: --planner: '%s' is not classic or graph\n", v);
            else if (!strcmp(a, "--out"))
                fprintf(stderr, "arrival: --out needs a directory name (it was empty)\n");
            else
                bench_arg_unknown("arrival", a);
            fprintf(stderr, "usage: tilenav-bench arrival [--levels N] [--goals K] [--seed S] "
                            "[--out DIR] [--size WxH] [--quiet] [--planner classic|graph] "
                            "[--push PX [--push-air]]\n");
            return 2;
        }
        if (bad) return 2;
        i++;
    }
    if (air && push == 0.0) {
        fprintf(stderr, "arrival: --push-air needs --push PX (not 0)\n");
        return 2;
    }
    tn_error err;
    bool write_warned = false;
    tn_map *m = NULL;
    tn_map_create(W, H, NULL, &m, &err);
    tn_path *pf = NULL;
    tn_bot *bot = NULL;
    if (!m || tn_failed(tn_path_create(W, H, NULL, 0, NULL, &pf, &err)) ||
        tn_failed(tn_bot_create(NULL, NULL, &bot, &err))) {
        fprintf(stderr, "arrival: %s\n", err.msg);
        return 1;
    }
    if ((long long)levels * goals > 10000000LL) { /* (the run and arrival counts are ints) */
        fprintf(stderr, "arrival: --levels x --goals is %lld runs, more than 10,000,000\n",
                (long long)levels * goals);
        return 2;
    }
    int top_fd = open_out_dir(out);
    if (top_fd < 0) return 1;
    char run[64], run_path[4200];
    int out_fd = open_run_dir(top_fd, out, run, sizeof run);
    if (out_fd < 0) {
        close(top_fd);
        return 1;
    }
    /* unfinished until it ends: locked (held until the process ends, however
     * it ends), then marked (see UNFINISHED) */
    (void)flock(out_fd, LOCK_EX | LOCK_NB);
    {
        int mark =
            openat(out_fd, UNFINISHED, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (mark >= 0) {
            char host[300]; /* (see UNFINISHED) */
            mark_host(host, sizeof host);
            ssize_t w = write(mark, host, strlen(host)); /* (failed: kept, as another's) */
            (void)w;
            close(mark);
        }
    }
    {
        size_t n = strlen(out);
        while (n > 1 && out[n - 1] == '/') n--;
        snprintf(run_path, sizeof run_path, "%.*s/%s", (int)n, out, run);
    }
    const char *out_dir = out; /* --out, for remove_unfinished's messages */
    out = run_path;            /* what the messages and the failure lines name */
    int *frames = bench_alloc(sizeof(int) * (size_t)levels * (size_t)goals);
    double *fr = bench_alloc(sizeof(double) * (size_t)levels * (size_t)goals);
    int runs = 0, arrived = 0, skipped = 0, replans = 0;
    int thrown = 0; /* failures out of reach after the push (see the top) */
    int fail_tab[9][9] = {{0}}, run_tab[9][9] = {{0}};
    double t0 = bench_now();
    printf("arrival: %d levels x %d goals, %dx%d tiles, seed %llu, %s planner, failures in %s\n",
           levels, goals, W, H, seed, graph ? "graph" : "classic", out);
    if (push != 0.0)
        printf("each body pushed %g px once, %s, from frame 10\n", push,
               air ? "in the air" : "on the ground");
    remove_unfinished(top_fd, out_dir, run);
    tn_surf *g = NULL, *cg = NULL; /* cg: the classic run's graph for failures */
    double build_s = 0.0;
    for (int L = 0; L < levels; L++) {
        tn_rng rng;
        tn_rng_seed(&rng, seed, (uint64_t)L);
        tn_levelgen_platformer(m, &rng, NULL);
        tn_path_invalidate(pf);
        int combo = L % 72, w = combo % 3 + 1, h = (combo / 3) % 3 + 1, jump = combo / 9 + 1;
        tn_phys_params p = tn_phys_default((float)jump);
        tn_jump_model jm;
        tn_jump_model_init(&jm, &p, NULL);
        if (graph) {
            tn_surf_destroy(g);
            g = NULL;
            tn_surf_profile prof = tn_surf_profile_make(w, h, &p);
            double tb = bench_now();
            if (tn_failed(tn_surf_create(m, &prof, NULL, &g, &err))) {
                fprintf(stderr, "arrival: %s\n", err.msg);
                unlinkat(out_fd, UNFINISHED, 0);     /* (it ended, and said why) */
                unlinkat(top_fd, run, AT_REMOVEDIR); /* (when empty) */
                return 1;
            }
            build_s += bench_now() - tb;
        }
        tn_bot_set_graph(bot, g);
        tn_surf_destroy(cg);
        cg = NULL;
        for (int k = 0; k < goals; k++) {
            int sx = 0, sy = 0, gx = 0, gy = 0, raw = 0;
            bool ok = false;
            for (int t = 0; t < PAIR_TRIES && !ok; t++) {
                if (!random_standing(m, &rng, w, h, &sx, &sy) ||
                    !random_standing(m, &rng, w, h, &gx, &gy))
                    break;
                if (sx == gx && sy == gy) continue;
                if (graph) {
                    int sn = tn_surf_node_at(g, sy + 1, sx * 6);
                    tn_surf_stats gs;
                    tn_status s =
                        sn < 0 ? TN_FAILURE : tn_surf_find(g, sn, gx, gy, NULL, 0, NULL, &gs, NULL);
                    ok = tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT);
                    raw = ok ? gs.frames / 10 + 10 : 0;
                    continue;
                }
                tn_path_query q = tn_path_query_make(sx, sy, gx, gy, w, h, &jm);
                tn_path_stats st;
                tn_status s = tn_path_find(pf, m, &q, NULL, 0, NULL, &st, NULL);
                ok = tn_succeeded(s) && !tn_status_detail(s, TN_UNREACHABLE | TN_LIMIT_REACHED);
                raw = st.raw_nodes;
            }
            if (!ok) {
                skipped++;
                continue;
            }
            int budget = 600 + 20 * raw;
            outcome o = run_bot(bot, pf, m, &p, w, h, sx, sy, gx, gy, budget, (float)push, air);
            runs++;
            run_tab[jump][(h - 1) * 3 + w - 1]++;
            replans += o.info.replans;
            if (o.arrived) {
                frames[arrived] = o.frames;
                fr[arrived] = o.frames;
                arrived++;
                continue;
            }
            fail_tab[jump][(h - 1) * 3 + w - 1]++;
            if (write_failure(out_fd, L, k, m, sx, sy, gx, gy, w, h, jump, budget) != 0 &&
                !write_warned) { /* said once: the run goes on */
                tn_print_shown(stderr, "arrival: cannot write a failure into %s: %s\n", out,
                               strerror(errno));
                write_warned = true;
            }
            bool out_of_reach = false;
            if (push != 0.0 && o.landed) {
                if (!graph && !cg) {
                    tn_surf_profile prof = tn_surf_profile_make(w, h, &p);
                    tn_surf_create(m, &prof, NULL, &cg, NULL);
                }
                tn_surf *rg = graph ? g : cg;
                out_of_reach = rg && !graph_reaches(rg, &o.after_push, &p, gx, gy);
                thrown += out_of_reach;
            }
            if (!quiet)
                printf("  FAIL level %d pair %d: %dx%d jump %d (%d,%d)->(%d,%d): %s after %d "
                       "frames at (%d,%d), %d replans%s  [%s/fail_%d_%d.map]\n",
                       L, k, w, h, jump, sx, sy, gx, gy, tn_bot_state_name(o.info.state), o.frames,
                       o.end_x, o.end_y, o.info.replans,
                       out_of_reach ? "; out of reach after the push" : "", out, L, k);
        }
    }
    double secs = bench_now() - t0;
    printf("\nfailures per jump height (rows) and character size WxH (columns), failed/runs:\n");
    printf("jump ");
    for (int s = 0; s < 9; s++) printf("   %dx%d  ", s % 3 + 1, s / 3 + 1);
    printf("\n");
    for (int j = 1; j <= 8; j++) {
        printf("  %d  ", j);
        for (int s = 0; s < 9; s++) printf(" %3d/%-4d", fail_tab[j][s], run_tab[j][s]);
        printf("\n");
    }
    double med = bench_median(fr, arrived);
    printf("\npaths run     %d (%d pairs skipped: no full path found in %d tries)\n", runs, skipped,
           PAIR_TRIES);
    printf("arrived       %d = %.2f%% (target >= %s%%)\n", arrived,
           runs ? 100.0 * arrived / runs : 0.0, graph ? "99.9" : "99");
    printf("median frames %.0f per arrival (%.2f s of game time)\n", med, med / 60.0);
    printf("re-plans      %d (%.3f per run)\n", replans, runs ? (double)replans / runs : 0.0);
    if (push != 0.0)
        printf("failed        %d; out of reach after the push %d (the graph has no whole plan to "
               "the goal from the first ground the body stood on after it)\n",
               runs - arrived, thrown);
    printf("wall time     %.1f s", secs);
    if (graph) printf(" (graph builds %.1f s)", build_s);
    printf("\n");
    tn_surf_destroy(g);
    tn_surf_destroy(cg);
    free(frames);
    free(fr);
    tn_bot_destroy(bot);
    tn_path_destroy(pf);
    tn_map_destroy(m);
    unlinkat(out_fd, UNFINISHED, 0); /* finished */
    close(out_fd);
    unlinkat(top_fd, run, AT_REMOVEDIR); /* empty (no failure): not kept */
    close(top_fd);
    if (graph) return runs && arrived * 1000 >= runs * 999 ? 0 : 1;
    return runs && arrived * 100 >= runs * 99 ? 0 : 1;
}
