/* tn_text_shown (tn_world.h): text made safe to show.  A file of its own
 * so that the front end's file code links it without the world (the Tiled
 * fuzz harnesses link src/game/fileio.c with the map code alone). */
#include "tn_world.h"

#include <stdio.h>
#include <string.h>

/* Bytes of the UTF-8 character at s that may be shown as they are, or 0
 * (a control character, a separator or bidi control, or no UTF-8). */
static size_t shown_char(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c >= 0x20 && c < 0x7f) return 1;
    size_t n = c >= 0xc2 && c <= 0xdf   ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    if (!n) return 0; /* ASCII control, DEL, a continuation or invalid lead byte */
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0; /* cut short (the NUL too) */
    unsigned cp =
        n == 2   ? (c & 0x1fu) << 6 | (s[1] & 0x3fu)
        : n == 3 ? (c & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu)
                 : (c & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 | (s[3] & 0x3fu);
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;                               /* overlong */
    if (cp >= 0xd800 && cp <= 0xdfff) return 0; /* a surrogate */
    if (cp >= 0x80 && cp <= 0x9f) return 0;     /* C1 controls */
    if (cp >= 0x2028 && cp <= 0x202e) return 0; /* separators, bidi embeddings */
    if (cp >= 0x2066 && cp <= 0x2069) return 0; /* bidi isolates */
    return n;
}

char *tn_text_shown(char *out, size_t cap, const char *in)
{
    if (!cap) return out;
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    while (*s) {
        size_t n = shown_char(s);
        if (n) {
            if (o + n >= cap) break;
            memcpy(out + o, s, n);
            o += n;
            s += n;
        } else {
            if (o + 4 >= cap) break;
            snprintf(out + o, cap - o, "\\x%02x", *s);
            o += 4;
            s++;
        }
    }
    out[o] = '\0';
    return out;
}
