/* html: context-specific escaping; see html.h. */
#include "web/html.h"
#include "web/svg.h"
#include "web/svg_priv.h"

#include <string.h>

/* One escaper for HTML and SVG: svg_text also replaces invalid UTF-8 with
 * U+FFFD and drops control characters, which is right for pages too. */
void web_html_text(struct buf *b, const char *s)
{
    svg_text(b, s);
}

void web_html_text_n(struct buf *b, const char *s, size_t n)
{
    svg_text_n(b, s, n);
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
