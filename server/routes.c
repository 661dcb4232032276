/* routes: the route table and its matcher; see routes.h. */
#include "server/routes.h"

#include <string.h>

/* The query of the modeling forms' steps (server/page_forms.c): the fields
 * of every step and the per-variable and per-kernel fields under their
 * prefixes ("v.N", "graph.solve"). */
#define FORM_STEPS                                                                       \
    "step,next,format,application,executable,system,template,x,x2,y,xmin,xmax,predict,"  \
    "aggregate,graph,fix.*,graph.*,max.*,min.*,mode.*,pos.*,steps.*,v.*"

/* clang-format off */
static const struct route table[] = {
    {"GET", "/api/v1/health", api_health, R_PUBLIC, NULL},
    {"POST", "/api/v1/runs", api_runs_post, R_WRITE, NULL},
    {"POST", "/api/v1/import", api_import_post, R_WRITE, "format,application,executable,system,nprocs,filename"},
    {"GET", "/api/v1/runs", api_runs_list, 0, "limit,after,nprocs,application,executable,system"},
    {"GET", "/api/v1/runs/{}", api_run_get, 0, NULL},
    {"POST", "/api/v1/runs/{}/trace", api_trace_post, R_WRITE|R_COSTLY, NULL},
    {"GET", "/api/v1/runs/{}/trace/{}", api_trace_get, R_COSTLY, "width"},
    {"POST", "/api/v1/traces", api_traces_post, R_WRITE|R_COSTLY, NULL},
    {"GET", "/api/v1/export", api_export, 0, "format"},
    {"GET", "/api/v1/applications", api_apps_list, 0, NULL},
    {"GET", "/api/v1/applications/{}", api_app_get, 0, NULL},
    {"PUT", "/api/v1/applications/{}", api_app_put, R_WRITE, NULL},
    {"GET", "/api/v1/applications/{}/occupancy", api_trace_occupancy_fit, R_COSTLY, "x,graph"},
    {"GET", "/api/v1/systems", api_systems_list, 0, NULL},
    {"GET", "/api/v1/systems/{}", api_system_get, 0, NULL},
    {"PUT", "/api/v1/systems/{}", api_system_put, R_WRITE, NULL},
    {"POST", "/api/v1/systems/{}/benchmarks", api_benchmarks_post, R_WRITE, NULL},
    {"GET", "/api/v1/systems/{}/benchmarks", api_benchmarks_list, 0, "name"},
    {"POST", "/api/v1/systems/{}/parameters", api_params_post, R_WRITE, NULL},
    {"GET", "/api/v1/systems/{}/parameters", api_params_list, 0, NULL},
    {"DELETE", "/api/v1/systems/{}/parameters/{}", api_param_delete, R_WRITE, NULL},
    {"POST", "/api/v1/systems/{}/parameters/fit", api_param_fit, R_WRITE|R_COSTLY, NULL},
    {"GET", "/api/v1/templates", api_templates_list, 0, "application"},
    {"POST", "/api/v1/templates", api_templates_post, R_WRITE, NULL},
    {"GET", "/api/v1/templates/{}", api_template_get, 0, NULL},
    {"GET", "/api/v1/couplings", api_couplings_list, 0, "application,system"},
    {"POST", "/api/v1/couplings", api_couplings_post, R_WRITE, NULL},
    {"POST", "/api/v1/fit", api_model_post, R_COSTLY, NULL},
    {"POST", "/api/v1/parameterize", api_model_post, R_COSTLY, NULL},
    {"POST", "/api/v1/couple", api_model_post, R_COSTLY, NULL},
    {"POST", "/api/v1/suggest", api_suggest, R_COSTLY, NULL},
    {"GET", "/api/v1/models", api_models_list, 0, NULL},
    {"GET", "/api/v1/models/{}", api_model_get, 0, NULL},
    {"GET", "/api/v1/models/{}/predict", api_model_predict, R_COSTLY, "*"},
    {"GET", "/api/v1/predict", api_predict, R_COSTLY, "*"},
    {"GET", "/plots/{}", api_plot, R_COSTLY, "request,width"},

    /* The web dashboard (server/dash*.c -> web/, docs/web.md). */
    {"GET", "/", page_overview, R_HTML, NULL},
    {"GET", "/applications", page_apps, R_HTML, NULL},
    {"GET", "/applications/{}", page_app, R_HTML, "sort,dir,page,executable,system"},
    {"GET", "/runs/{}", page_run, R_HTML, "stored"},
    {"GET", "/runs/{}/trace", page_trace, R_HTML, NULL},
    {"GET", "/systems", page_systems, R_HTML, NULL},
    {"GET", "/systems/{}", page_system, R_HTML, NULL},
    {"GET", "/models", page_models, R_HTML, NULL},
    {"GET", "/models/{}", page_model, R_HTML|R_COSTLY, "*"},
    {"GET", "/model", page_model_index, R_HTML, NULL},
    {"GET", "/model/fit", page_form_fit, R_HTML|R_COSTLY, FORM_STEPS},
    {"POST", "/model/fit", page_form_fit_save, R_HTML|R_COSTLY, NULL},
    {"GET", "/model/parameterize", page_form_param, R_HTML|R_COSTLY, FORM_STEPS},
    {"POST", "/model/parameterize", page_form_param_save, R_HTML|R_COSTLY, NULL},
    {"GET", "/model/couple", page_form_couple, R_HTML|R_COSTLY, FORM_STEPS},
    {"POST", "/model/couple", page_form_couple_save, R_HTML|R_COSTLY, NULL},
    {"GET", "/upload", page_upload, R_HTML, NULL},
    {"POST", "/upload/run", page_upload_run, R_HTML, NULL},
    {"POST", "/upload/csv", page_upload_csv, R_HTML, NULL},
    {"POST", "/upload/import", page_upload_import, R_HTML, NULL},
    {"GET", "/static/{}", dash_static, R_HTML|R_PUBLIC, "v"},
};
/* clang-format on */

/* Matches pattern against path segment by segment; fills captures (when r
 * is given). Returns 1 on a match, 0 otherwise, -1 when the path matches but
 * a capture is not a valid percent-encoding (a truncated or bad escape, or
 * an encoded NUL). */
static int match(const char *pattern, const char *path, struct req *r, const char **caps)
{
    int ncap = 0, bad = 0;
    while (*pattern && *path) {
        if (*pattern != '/' || *path != '/')
            return 0;
        pattern++;
        path++;
        if (strncmp(pattern, "{}", 2) == 0) {
            size_t n = strcspn(path, "/");
            if (n == 0 || ncap == REQ_MAX_PARAMS)
                return 0;
            if (r != NULL) {
                caps[ncap] = http_decode(r->arena, path, n, 0);
                if (caps[ncap] == NULL)
                    bad = 1;
            }
            ncap++;
            pattern += 2;
            path += n;
        } else {
            size_t n = strcspn(pattern, "/");
            if (strncmp(pattern, path, n) != 0 || (path[n] != '/' && path[n] != '\0'))
                return 0;
            pattern += n;
            path += n;
        }
    }
    if (*pattern != '\0' || *path != '\0')
        return 0;
    return bad ? -1 : 1;
}

/* HEAD is answered as GET (libmicrohttpd sends no body for HEAD). */
static int same_method(const char *route_method, const char *method)
{
    if (strcmp(method, "HEAD") == 0)
        method = "GET";
    return strcmp(route_method, method) == 0;
}

const struct route *routes_match(struct req *r, int *status)
{
    size_t i;
    const char *caps[REQ_MAX_PARAMS];

    *status = 404;
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!match(table[i].pattern, r->path, NULL, caps))
            continue;
        if (!same_method(table[i].method, r->method)) {
            *status = 405;
            continue;
        }
        /* One place for every route: a capture that does not decode is a
         * 400, never a NULL handed to a handler. */
        if (match(table[i].pattern, r->path, r, r->params) != 1) {
            memset(r->params, 0, sizeof r->params);
            *status = 400;
            return NULL;
        }
        *status = 0;
        return &table[i];
    }
    return NULL;
}

const char *routes_allowed(const char *path)
{
    size_t i;
    int has[4] = {0, 0, 0, 0};
    const char *caps[REQ_MAX_PARAMS];
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!match(table[i].pattern, path, NULL, caps))
            continue;
        has[strcmp(table[i].method, "GET") == 0    ? 0
            : strcmp(table[i].method, "POST") == 0 ? 1
            : strcmp(table[i].method, "PUT") == 0  ? 2
                                                   : 3] = 1;
    }
    /* The combinations our table holds; anything else answers the full list. */
    if (has[0] && !has[1] && !has[2] && !has[3])
        return "GET, HEAD";
    if (!has[0] && has[1] && !has[2] && !has[3])
        return "POST";
    if (has[0] && has[1] && !has[2] && !has[3])
        return "GET, HEAD, POST";
    if (has[0] && !has[1] && has[2] && !has[3])
        return "GET, HEAD, PUT";
    if (!has[0] && !has[1] && !has[2] && has[3])
        return "DELETE";
    return "GET, HEAD, POST, PUT, DELETE";
}

int routes_query_allowed(const struct route *rt, const char *name)
{
    const char *s = rt->query;
    size_t len = strlen(name);
    if (s == NULL)
        return 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        if (n == 1 && s[0] == '*')
            return 1;
        /* "v.*": any name under the prefix "v." */
        if (n > 1 && s[n - 1] == '*' && len > n - 1 && strncmp(s, name, n - 1) == 0)
            return 1;
        if (n == len && strncmp(s, name, n) == 0)
            return 1;
        s += n;
        if (*s == ',')
            s++;
    }
    return 0;
}

int routes_serves(const char *method, const char *path)
{
    size_t i;
    const char *caps[REQ_MAX_PARAMS];
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (same_method(table[i].method, method) &&
            match(table[i].pattern, path, NULL, caps) != 0)
            return 1;
    return 0;
}
