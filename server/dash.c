/* dash: the adapter between the dashboard's routes and its views; see
 * dash.h. It opens a page (web/page.h) for a request, answers with it or with
 * the HTML error page, and serves /static/. No markup is written here. */
#include "server/dash.h"
#include "server/api_error.h"
#include "server/csrf.h"
#include "server/session.h"
#include "common/xalloc.h"
#include "web/static.h"

#include <string.h>

void dash_begin(struct page *p, struct req *r, const char *title, const char *nav)
{
    /* the header's sign-in state; p->csrf stays NULL (a page with forms
     * that write sets it), the header's own form has its token */
    const char *user = session_user(r);
    page_begin_as(p, r->arena, title, nav, user, csrf_token(r));
    p->csrf = NULL;
}

int dash_end(struct req *r, struct page *p, int status)
{
    size_t len;
    char *html;

    page_finish(p);
    if (buf_failed(&p->b)) {
        struct err e = {0};
        int toobig = buf_failed(&p->b) == BUF_TOOBIG;
        page_free(p);
        if (toobig)
            err_set(&e, ERR_INTERNAL, "internal", NULL,
                    "the page is larger than %u bytes", PAGE_MAX);
        else
            err_nomem(&e);
        return dash_error(r, &e);
    }
    html = buf_detach(&p->b, &len);
    if (html == NULL) {
        struct err e = {0};
        err_nomem(&e);
        return dash_error(r, &e);
    }
    r->status = status;
    r->content_type = "text/html; charset=utf-8";
    r->resp = html;
    r->resp_len = len;
    r->resp_free = 1;
    return 0;
}

struct view_config *dash_configs(arena *a, const struct db_config *c, int n)
{
    struct view_config *out = arena_alloc(a, ((size_t)n + 1) * sizeof *out);
    int i;
    for (i = 0; out && i < n; i++) {
        struct view_config x = {c[i].exe_id,      c[i].system_id,   c[i].nprocs,
                                c[i].executable,  c[i].system,      c[i].inputs_json,
                                c[i].runs,        c[i].last_run_id, c[i].sum_runtime,
                                c[i].min_runtime, c[i].max_runtime, c[i].timed};
        out[i] = x;
    }
    return out;
}

int dash_error(struct req *r, const struct err *e)
{
    static const char fallback[] = "out of memory\n";
    int status = api_error_status(e->status);
    size_t len;
    char *html = page_error_html(e, status, &len);
    r->status = status;
    if (html == NULL) {
        r->content_type = "text/plain; charset=utf-8";
        r->resp = fallback;
        r->resp_len = sizeof fallback - 1;
        r->resp_free = 0;
        return 0;
    }
    r->content_type = "text/html; charset=utf-8";
    r->resp = html;
    r->resp_len = len;
    r->resp_free = 1;
    return 0;
}

/* ---- /static/ ------------------------------------------------------------------ */

int dash_static(struct req *r)
{
    struct web_asset a;
    const char *v = http_query(r, "v");
    if (web_asset_find(r->params[0], &a) != 0) {
        struct err e = {0};
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no such file: /static/%.100s",
                r->params[0]);
        return dash_error(r, &e);
    }
    /* Pages link assets with ?v=HASH, so such a URL never changes content. */
    r->extra_header[0] = "Cache-Control";
    r->extra_header[1] = v && strcmp(v, a.hash) == 0
                             ? "public, max-age=31536000, immutable"
                             : "public, max-age=3600";
    return http_body(r, 200, a.content_type, a.data, a.len);
}
