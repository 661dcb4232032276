/* utf8: strict decoding; see utf8.h. */
#include "common/utf8.h"

#include <string.h>

size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp_out)
{
    unsigned cp;
    size_t len, i;

    if (s[0] < 0x80) {
        if (cp_out)
            *cp_out = s[0];
        return 1;
    }
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        len = 2;
        cp = s[0] & 0x1f;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        cp = s[0] & 0x0f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        cp = s[0] & 0x07;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (cp_out)
        *cp_out = cp;
    return len;
}

int utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t len = utf8_seq(p + i, n - i, NULL);
        if (len == 0)
            return 0;
        i += len;
    }
    return 1;
}

void utf8_cut(char *s)
{
    size_t n = strlen(s), i = 0, l;
    while (i < n && (l = utf8_seq((const unsigned char *)s + i, n - i, NULL)) > 0)
        i += l;
    s[i] = '\0';
}
