/* page: the HTML layer of the web dashboard (SPEC §7).
 *
 * Every page is server-rendered HTML5 that works without JavaScript: one
 * layout (header with the navigation, main, footer), the stylesheet and the
 * small script served from /static/ (the Content-Security-Policy set in
 * http.c allows no inline style or script), and every string that comes from
 * users or the database written through page_text / page_attr / page_url,
 * which escape for their context. Plots are inline SVG (the renderer escapes
 * its own text) or <img> of a /plots/ URL.
 *
 * A handler builds a page with page_begin, writes markup and escaped text,
 * and answers with page_end (or drops it with page_free on an error path).
 * The buffer is bounded (PAGE_MAX); a page over it answers 500.
 *
 * Pages of the modeling forms follow the same pattern (see docs/web.md):
 * decode the form (server/form.h), build the method's JSON request, call
 * method->answer (server/modeling.h), and render it with page_model_result.
 */
#ifndef PROPHECY_PAGE_H
#define PROPHECY_PAGE_H

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "server/http.h"

#define PAGE_MAX (16u << 20) /* bytes of one page */

struct page {
    struct req *r;
    struct buf b;
};

/* Starts a page: doctype, head (title "TITLE · Prophecy", stylesheet, icon,
 * script) and the header whose navigation marks `nav` ("overview",
 * "applications", "systems", "model", "models", "upload"; NULL for
 * none) as current.
 * title is escaped here. */
void page_begin(struct page *p, struct req *r, const char *title, const char *nav);
/* Closes main, writes the footer and answers with status as text/html. The
 * buffer is handed to the response. Returns 0. */
int page_end(struct page *p, int status);
/* Drops an unfinished page (error paths). */
void page_free(struct page *p);

/* Trusted markup: string constants of the program only. */
void page_puts(struct page *p, const char *html);
/* Trusted markup with printf formatting: every %s argument must be a
 * constant or already escaped; numbers are safe. */
void page_printf(struct page *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Escaped text content and attribute values (NULL writes nothing). */
void page_text(struct page *p, const char *s);
void page_attr(struct page *p, const char *s);
/* Preformatted text (<pre>): escaped as page_text, line breaks kept. */
void page_pre(struct page *p, const char *s);
/* s percent-encoded for a path segment or query value (then safe in an
 * attribute as well). */
void page_url(struct page *p, const char *s);
/* A number for people: %.6g, never nan/inf ("–" for a non-finite value). */
void page_num(struct page *p, double v);
/* <a href="PREFIX<url-encoded name>">escaped text</a>. */
void page_link(struct page *p, const char *prefix, const char *name, const char *text);
/* Inlines an SVG document rendered by web/svg.h (without its XML
 * declaration) inside <figure class="plot">, with an optional caption. */
void page_svg(struct page *p, const struct buf *svg, const char *caption);
/* Opens and closes a horizontally scrollable table box. */
void page_table_open(struct page *p, const char *caption);
void page_table_close(struct page *p);

/* Answers an error as an HTML page with the error's status (404 "Not
 * found", 422 ...), its message and a way back. Returns 0. */
int page_error(struct req *r, const struct err *e);
/* The same page as a malloc'd body (for http_error); NULL on out of memory. */
char *page_error_html(const struct err *e, int status, size_t *len);

/* ---- cross-site protection of forms that write (docs/web.md) ------------- */

/* A CSRF token for a hidden field named "csrf": "TIME.HMAC", HMAC-SHA256
 * under the server's random per-process secret (struct app). Arena string. */
const char *page_csrf_token(struct req *r);
/* Checks a submitted CSRF token: made by this server process, at most 24 h
 * old. Returns 0, or -1 with a 403 "forbidden" error. */
int page_check_csrf(struct req *r, const char *token, struct err *err);
/* Refuses a request the browser marks as cross-site: Sec-Fetch-Site other
 * than same-origin, or an Origin other than http(s):// + Host, when sent.
 * Returns 0, or -1 with a 403 "forbidden" error. */
int page_check_origin(struct req *r, struct err *err);

/* ---- shared pieces for modeling pages -------------------------------------- */

/* Renders the key figures of a modeling answer (server/modeling.h): its
 * formula ("model.formula", "formula" or "parsed"), the statistics and
 * values that are numbers at the top level or under "model", coefficients,
 * and the "predictions" array as a table. Used by the saved-model page and
 * meant for the result pages of the modeling forms. */
void page_model_answer(struct page *p, json_t *answer);

#endif
