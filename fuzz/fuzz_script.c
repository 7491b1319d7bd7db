/* fuzz_script.c - libFuzzer harness for tn_script_parse (scripted runs).
 *
 * Checks, beyond "no crash, no out-of-bounds read, no leak, no UB":
 *  - a refusal is "fuzz.script:LINE: ..." (NUL-terminated, even when the
 *    caller's buffer is small) and leaves nothing allocated;
 *  - an accepted script has frames in 0..1e9 that never decrease, line
 *    numbers that increase, known operations with arguments in range, and
 *    every `set` value inside its parameter's range.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"
#include "tn_world.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = fuzz_copy(data, size);
    if (!buf) return 0;
    /* The first byte picks a small error buffer now and then, to check the
     * message is truncated safely. */
    size_t cap = size && (data[0] & 7) == 7 ? 16 : 512;
    char err[512];
    memset(err, 'x', sizeof err);
    tn_script *s = tn_script_parse(buf, size, "fuzz.script", err, cap);
    if (!s) {
        CHECK(memchr(err, '\0', cap) != NULL);
        CHECK(strncmp(err, "fuzz.script:", cap < 13 ? cap - 1 : 12) == 0);
        free(buf);
        return 0;
    }
    size_t lines = 1;
    for (size_t i = 0; i < size; i++) lines += buf[i] == '\n';
    CHECK(s->count >= 0 && (size_t)s->count <= lines && s->next == 0);
    long last = 0;
    int last_line = 0;
    for (int i = 0; i < s->count; i++) {
        const tn_script_cmd *c = &s->cmds[i];
        CHECK(c->frame >= last && c->frame <= 1000000000L);
        CHECK(c->line > last_line && (size_t)c->line <= lines);
        last = c->frame;
        last_line = c->line;
        switch (c->op) {
        case TN_SC_KEY: CHECK(c->arg >= 0 && c->arg < 4 && (c->flag == 0 || c->flag == 1)); break;
        case TN_SC_CLICK: CHECK(c->arg >= 0 && c->arg < 3 && (c->flag == 0 || c->flag == 1)); break;
        case TN_SC_TOGGLE: CHECK(c->arg >= 0 && c->arg < 6); break;
        case TN_SC_GOTO: break;
        case TN_SC_TOOL: CHECK(c->arg >= 0 && c->arg < TN_TOOL_COUNT); break;
        case TN_SC_SET: {
            CHECK(c->name != NULL);
            const tn_param_info *p = tn_world_param_find(c->name);
            CHECK(p != NULL);
            CHECK(isfinite(c->value) && c->value >= p->min && c->value <= p->max);
            if (p->integer) CHECK(c->value == floor(c->value));
            break;
        }
        case TN_SC_SAVE:
        case TN_SC_SCREENSHOT: CHECK(c->path != NULL && c->path[0] != '\0'); break;
        case TN_SC_SPEED:
            CHECK(c->value == 0.125 || c->value == 0.25 || c->value == 0.5 || c->value == 1 ||
                  c->value == 2 || c->value == 4);
            break;
        case TN_SC_RESET: break;
        case TN_SC_PAUSE: CHECK(c->value == 0 || c->value == 1); break;
        case TN_SC_PLAYBACK: CHECK(c->value == -1 || (c->value >= 0 && c->value <= 1e8)); break;
        case TN_SC_KNOCK: CHECK(c->value != 0 && fabs(c->value) <= 16); break;
        default: CHECK(0);
        }
    }
    tn_script_destroy(s);
    free(buf);
    return 0;
}
