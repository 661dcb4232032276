/* dash_forms: the HTTP side of the modeling forms (docs/web.md "Modeling
 * forms"): decode the state from the query (or, for Save, from the posted
 * "q"), run each step's checks, build the method's request and call
 * method_find(name)->answer once, answer the step or result page of
 * web/form_page.c, the JSON of format=json, or store through model_save. The
 * steps read what they offer from core/form_data.h through the one pooled
 * read connection chosen here per request. No markup here. */
#include "core/form_data.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "server/api_error.h"
#include "server/csrf.h"
#include "server/session.h"
#include "server/dash.h"
#include "server/modeling.h"
#include "server/routes.h"
#include "web/form.h"

#include <stdlib.h>
#include <string.h>

struct ctx {
    struct fctx c;
    struct req *r;
    const struct method *m;
    db *d; /* pooled read connection, held for the request */
    struct form_data data;
};

/* ---- the driver -----------------------------------------------------------------------
 */

/* Checks steps 1..upto (strictly those before `target`); returns the step
 * to show: target, or the step whose check failed (its error set). -1 on a
 * server error (answered). */
static int run_checks(struct req *r, struct fctx *c, int target)
{
    int k, upto = target == FORM_RESULT ? c->def->nsteps : target;
    for (k = 1; k <= upto; k++) {
        struct err e = {0};
        if (c->def->check(c, k, k < target, &e) != 0) {
            if (api_error_status(e.status) >= 500 || e.status == 0) {
                dash_error(r, &e);
                return -1;
            }
            return forms_fail(c, &e, k);
        }
    }
    return target;
}

/* Builds the request and the answer. Returns 0, or the step to show with
 * the error set (never a server error: those are answered, -1). */
static int compute(struct req *r, struct ctx *x, json_t **request, json_t **answer)
{
    struct fctx *c = &x->c;
    struct err e = {0};

    *answer = NULL;
    *request = c->def->request(c, &e);
    if (*request != NULL) {
        *answer = x->m->answer(x->d, *request, &e);
        if (*answer != NULL)
            return 0;
    }
    if (api_error_status(e.status) >= 500 || e.status == 0) {
        json_decref(*request);
        *request = NULL;
        dash_error(r, &e);
        return -1;
    }
    json_decref(*request);
    *request = NULL;
    return forms_fail(c, &e, c->def->nsteps);
}

static int json_error(struct req *r, const struct err *e)
{
    char *body;
    size_t len;
    int status = api_error_json(e, &body, &len);
    if (body == NULL)
        return dash_error(r, e);
    http_body(r, status, "application/json", body, len);
    r->resp_free = 1;
    return 0;
}

static int ctx_init(struct ctx *x, struct req *r, const struct form_def *def)
{
    struct fctx *c = &x->c;
    memset(x, 0, sizeof *x);
    x->r = r;
    x->m = method_find(def->method);
    x->d = db_pool_get(r->app->pool);
    x->data.d = x->d;
    c->arena = r->arena;
    c->def = def;
    c->user = session_user(r);
    c->header_csrf = csrf_token(r);
    c->store = &x->data;
    c->keep = json_array();
    if (x->m != NULL) {
        c->method_name = x->m->name;
        c->plot = x->m->plot;
        c->predict = x->m->predict;
    }
    if (def == &form_couple)
        c->plot_extra = couple_plot_breakdown;
    return x->m != NULL && c->keep != NULL ? 0 : -1;
}

static void ctx_done(struct ctx *x)
{
    if (x->d)
        db_pool_put(x->r->app->pool, x->d);
    x->d = NULL;
    json_decref(x->c.keep);
    x->c.keep = NULL;
}

/* Answers step k's page or the result page (with the Save form's CSRF
 * token). */
static int step_page(struct req *r, struct fctx *c, int k, int status)
{
    forms_step_page(c, k);
    return dash_end(r, &c->p, status);
}

static int result_page(struct req *r, struct fctx *c, json_t *request, json_t *answer,
                       const struct err *save_err, int status)
{
    forms_result_page(c, request, answer, save_err, csrf_token(r));
    return dash_end(r, &c->p, status);
}

static int form_page(struct req *r, const struct form_def *def)
{
    struct ctx x;
    struct fctx *c = &x.c;
    struct err e = {0};
    json_t *request = NULL, *answer = NULL;
    int target, shown, as_json, rc;

    if (ctx_init(&x, r, def) != 0) {
        ctx_done(&x);
        err_nomem(&e);
        return dash_error(r, &e);
    }
    if (http_query_form(r, &c->st, &e) != 0 || forms_state_ok(&c->st, &e) != 0) {
        ctx_done(&x);
        return dash_error(r, &e);
    }
    target = forms_target(c, &as_json);
    shown = run_checks(r, c, target);
    if (shown == FORM_RESULT && (shown = compute(r, &x, &request, &answer)) == 0)
        shown = FORM_RESULT;
    if (shown < 0) {
        ctx_done(&x);
        return 0; /* answered */
    }
    if (as_json) {
        if (shown != FORM_RESULT) {
            rc = json_error(r, &c->err);
        } else {
            const char *url = model_plot_url(r, x.m, request);
            json_object_set_new(answer, "plot", url ? json_string(url) : json_null());
            rc = http_json(r, 200, answer);
            answer = NULL;
        }
    } else if (shown == FORM_RESULT) {
        rc = result_page(r, c, request, answer, NULL, 200);
    } else {
        rc =
            step_page(r, c, shown,
                      c->err.status && !c->empty ? api_error_status(c->err.status) : 200);
    }
    json_decref(request);
    json_decref(answer);
    ctx_done(&x);
    return rc;
}

/* ---- Save -----------------------------------------------------------------------------
 */

static int saved(struct req *r)
{
    struct model_save *s = r->ctx;
    if (r->job.rc != 0)
        return dash_error(r, &r->job.err);
    return http_redirect(r, arena_printf(r->arena, "/models/%lld", s->c.id));
}

static int form_save(struct req *r, const struct form_def *def)
{
    struct ctx x;
    struct fctx *c = &x.c;
    struct err e = {0}, save_err = {0};
    struct form body;
    const char *q, *name;
    json_t *request = NULL, *answer = NULL;
    int shown, rc;

    if (csrf_check_origin(r, &e) != 0 ||
        form_parse(http_header(r, "Content-Type"), r->body.data ? r->body.data : "",
                   r->body.len, r->arena, &body, &e) != 0)
        return dash_error(r, &e);
    q = form_get(&body, "q");
    if (q == NULL) {
        err_set(&e, ERR_BAD_REQUEST, "bad_form", "q",
                "the form has no field q: save from a result page of the form");
        return dash_error(r, &e);
    }
    if (ctx_init(&x, r, def) != 0) {
        ctx_done(&x);
        err_nomem(&e);
        return dash_error(r, &e);
    }
    if (form_parse_urlencoded(q, strlen(q), r->arena, &c->st, &e) != 0 ||
        forms_state_ok(&c->st, &e) != 0) {
        ctx_done(&x);
        return dash_error(r, &e);
    }
    /* Cross-site and token checks come first; their errors are shown on the
     * result page, which is computed anyway (nothing is stored). */
    if (csrf_check(r, form_get(&body, "csrf"), &save_err) == 0)
        http_check_token(r, form_get(&body, "token"), "token", &save_err);
    /* an optional name, checked as the API's "name" beside "save" */
    name = form_get(&body, "name");
    c->save_name = name;
    if (name != NULL && *name == '\0')
        name = NULL;
    if (name != NULL && save_err.status == 0)
        json_check_name(name, strlen(name), "name", LIMIT_NAME, &save_err);

    shown = run_checks(r, c, FORM_RESULT);
    if (shown == FORM_RESULT && (shown = compute(r, &x, &request, &answer)) == 0)
        shown = FORM_RESULT;
    if (shown < 0) {
        ctx_done(&x);
        return 0;
    }
    if (shown != FORM_RESULT) {
        rc =
            step_page(r, c, shown, c->err.status ? api_error_status(c->err.status) : 422);
    } else if (save_err.status) {
        rc = result_page(r, c, request, answer, &save_err,
                         api_error_status(save_err.status));
    } else {
        ctx_done(&x); /* the connection goes back before the write */
        rc = model_save(r, x.m, request, answer, name, saved, NULL, &e);
        answer = NULL; /* taken */
        if (rc != 0)
            rc = dash_error(r, &e);
    }
    json_decref(request);
    json_decref(answer);
    ctx_done(&x);
    return rc;
}

int page_form_fit(struct req *r)
{
    return form_page(r, &form_fit);
}

int page_form_fit_save(struct req *r)
{
    return form_save(r, &form_fit);
}

int page_form_param(struct req *r)
{
    return form_page(r, &form_param);
}

int page_form_param_save(struct req *r)
{
    return form_save(r, &form_param);
}

int page_form_couple(struct req *r)
{
    return form_page(r, &form_couple);
}

int page_form_couple_save(struct req *r)
{
    return form_save(r, &form_couple);
}

int page_model_index(struct req *r)
{
    struct page p;
    dash_begin(&p, r, "Model", "model");
    view_model_index(&p);
    return dash_end(r, &p, 200);
}
