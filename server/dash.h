/* dash: the web dashboard's transport (SPEC §7, docs/web.md). Each page
 * route is a thin adapter: decode the path and query, gather the data
 * (db/, core/), hand it to a view of web/ and answer with the page built by
 * dash_begin / dash_end, or with dash_error. Errors of every R_HTML route
 * (and of unknown paths outside /api/) are rendered by dash_error, which
 * main sets as the server's error page (struct app.error_page).
 */
#ifndef PROPHECY_DASH_H
#define PROPHECY_DASH_H

#include "common/err.h"
#include "db/summary.h"
#include "server/http.h"
#include "web/page.h"
#include "web/view.h"

/* Opens a page for r (its arena serves the views' temporary strings). */
void dash_begin(struct page *p, struct req *r, const char *title, const char *nav);
/* Finishes p and answers with it as text/html and status; a page over
 * PAGE_MAX or out of memory answers the 500 error page instead. Frees or
 * hands over p's buffer. Returns 0. */
int dash_end(struct req *r, struct page *p, int status);
/* Answers e as the HTML error page with e's status (500 when not an HTTP
 * error status). Returns 0. */
int dash_error(struct req *r, const struct err *e);

/* The configuration summaries c[0..n) as the views' rows (arena; the
 * strings are shared). NULL on out of memory. */
struct view_config *dash_configs(arena *a, const struct db_config *c, int n);

#endif
