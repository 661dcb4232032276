/* dash_login: signing in and out of the dashboard (SPEC §17):
 *   GET  /login[?next=PATH]  the token form, or who is signed in
 *   POST /login   csrf, token[, next]: starts a session (server/session.h),
 *                 303 to next (a path on this server) or /
 *   POST /logout  csrf: ends it, 303 to /
 * Both POSTs pass the CSRF checks of every form that writes. */
#include "formats/form.h"
#include "server/csrf.h"
#include "server/dash.h"
#include "server/routes.h"
#include "server/session.h"
#include "web/view.h"

#include <string.h>

/* next as a local path ("/x", not "//host" or a URL), else NULL. */
static const char *local_path(const char *next)
{
    if (next == NULL || next[0] != '/' || next[1] == '/' || next[1] == '\\' ||
        strpbrk(next, "\r\n") != NULL)
        return NULL;
    return next;
}

static int login_page(struct req *r, int status, const char *next, const struct err *e)
{
    struct page p;
    struct view_login v = {local_path(next), e};
    dash_begin(&p, r, "Sign in", "login");
    p.csrf = csrf_token(r);
    view_login(&p, &v);
    return dash_end(r, &p, status);
}

int page_login(struct req *r)
{
    return login_page(r, 200, http_query(r, "next"), NULL);
}

int page_login_post(struct req *r)
{
    struct err e = {0};
    struct form f;
    const char *token, *cookie, *next;

    if (csrf_check_origin(r, &e) != 0 ||
        form_parse(http_header(r, "Content-Type"), r->body.data ? r->body.data : "",
                   r->body.len, r->arena, &f, &e) != 0 ||
        csrf_check(r, form_get(&f, "csrf"), &e) != 0)
        return dash_error(r, &e);
    token = form_get(&f, "token");
    next = form_get(&f, "next");
    if (token == NULL || *token == '\0') {
        err_set(&e, ERR_UNAUTHORIZED, "unauthorized", "token",
                "give a write token to sign in");
        return login_page(r, 401, next, &e);
    }
    if (http_check_token(r, token, "token", &e) != 0)
        return login_page(r, 401, next, &e);
    if (session_start(r, token, &cookie, &e) != 0)
        return dash_error(r, &e);
    r->set_cookie = cookie;
    next = local_path(next);
    return http_redirect(r, next ? next : "/");
}

int page_logout(struct req *r)
{
    struct err e = {0};
    struct form f;
    const char *cookie;

    if (csrf_check_origin(r, &e) != 0 ||
        form_parse(http_header(r, "Content-Type"), r->body.data ? r->body.data : "",
                   r->body.len, r->arena, &f, &e) != 0 ||
        csrf_check(r, form_get(&f, "csrf"), &e) != 0)
        return dash_error(r, &e);
    session_end(r, &cookie);
    r->set_cookie = cookie;
    return http_redirect(r, "/");
}
