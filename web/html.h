/* html: escaping for HTML output, by context.
 *
 * Every user-supplied string that reaches a page goes through one of these,
 * at the place where it is written. They append to a struct buf.
 */
#ifndef PROPHECY_HTML_H
#define PROPHECY_HTML_H

#include "common/buf.h"

/* Appends s escaped for HTML text content (& < > " '). */
void web_html_text(struct buf *b, const char *s);
/* The same for the first n bytes of s. */
void web_html_text_n(struct buf *b, const char *s, size_t n);
/* Appends s escaped for a double-quoted attribute value. */
void web_html_attr(struct buf *b, const char *s);
/* Appends s percent-encoded for a URL path segment or query value. */
void web_url_encode(struct buf *b, const char *s);

#endif
