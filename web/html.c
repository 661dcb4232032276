/* html: context-specific escaping; see html.h. */
#include "web/html.h"

#include <string.h>

void web_html_text(struct buf *b, const char *s)
{
    const char *run = s;
    for (; *s; s++) {
        const char *rep;
        switch (*s) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\'':
            rep = "&#39;";
            break;
        default:
            continue;
        }
        buf_append(b, run, (size_t)(s - run));
        buf_puts(b, rep);
        run = s + 1;
    }
    buf_append(b, run, (size_t)(s - run));
}

void web_html_attr(struct buf *b, const char *s)
{
    /* The text escapes also cover double- and single-quoted attributes. */
    web_html_text(b, s);
}

void web_url_encode(struct buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("-._~", c) != NULL) {
            buf_putc(b, (char)c);
        } else {
            buf_putc(b, '%');
            buf_putc(b, hex[c >> 4]);
            buf_putc(b, hex[c & 15]);
        }
    }
}
