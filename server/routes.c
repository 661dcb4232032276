/* routes: the route table and its matcher; see routes.h. */
#include "server/routes.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The query of the modeling forms' steps (server/page_forms.c): the fields
 * of every step and the per-variable and per-kernel fields under their
 * prefixes ("v.N", "graph.solve"). */
#define FORM_STEPS                                                                       \
    "step,next,format,application,executable,system,template,x,x2,y,xmin,xmax,predict,"  \
    "aggregate,graph,basis,basis_scale,basis_power,fix.*,graph.*,max.*,min.*,mode.*,"    \
    "pos.*,steps.*,v.*"

/* clang-format off */
static const struct route table[] = {
    {"GET", "/api/v1/health", api_health, R_PUBLIC, NULL},
    {"POST", "/api/v1/runs", api_runs_post, R_WRITE, NULL},
    {"POST", "/api/v1/import", api_import_post, R_WRITE|R_COSTLY, "format,application,executable,system,nprocs,filename,commit,branch,input.*"},
    {"GET", "/api/v1/runs", api_runs_list, 0, "limit,after,nprocs,application,executable,system,commit,branch,tag.*"},
    {"GET", "/api/v1/runs/{}", api_run_get, 0, NULL},
    {"POST", "/api/v1/runs/{}/trace", api_trace_post, R_WRITE|R_COSTLY, NULL},
    {"GET", "/api/v1/runs/{}/trace/{}", api_trace_get, R_COSTLY, "width"},
    {"POST", "/api/v1/traces", api_traces_post, R_WRITE|R_COSTLY, NULL},
    {"GET", "/api/v1/export", api_export, 0, "format"},
    {"GET", "/api/v1/applications", api_apps_list, 0, NULL},
    {"GET", "/api/v1/applications/{}", api_app_get, 0, NULL},
    {"PUT", "/api/v1/applications/{}", api_app_put, R_WRITE, NULL},
    {"GET", "/api/v1/applications/{}/occupancy", api_trace_occupancy_fit, R_COSTLY, "x,graph"},
    {"GET", "/api/v1/applications/{}/scaling", api_app_scaling, R_COSTLY, "x,target,executable,system,nprocs,input.*"},
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
    {"GET", "/api/v1/templates/{}", api_template_get, 0, "application"},
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

    /* History, comparison and regression detection (SPEC §11, api_history.c).
     * Series and comparisons read whole histories: on the workers, so that
     * many of them in flight (no token needed to read) never hold health. */
    {"GET", "/api/v1/series", api_series, R_COSTLY, "application,executable,system,nprocs,input.*,y"},
    {"GET", "/api/v1/changes", api_changes, R_COSTLY, "application,executable,system,nprocs,input.*,y"},
    {"GET", "/api/v1/compare", api_compare, R_COSTLY,
     "a,b,c,d,e,f,g,h,application,executable,system,nprocs,input.*"},
    {"POST", "/api/v1/watches", api_watches_post, R_WRITE, NULL},
    {"GET", "/api/v1/watches", api_watches_list, 0, NULL},
    {"DELETE", "/api/v1/watches/{}", api_watch_delete, R_WRITE, NULL},
    {"GET", "/api/v1/models/{}/ledger", api_model_ledger, 0, NULL},
    {"GET", "/api/v1/alerts", api_alerts_list, 0, "state,commit,application,limit,before"},
    {"PATCH", "/api/v1/alerts/{}", api_alert_patch, R_WRITE, NULL},
    {"GET", "/api/v1/alert-groups", api_alert_groups, 0, "state"},
    {"PATCH", "/api/v1/alert-groups/{}", api_alert_group_patch, R_WRITE, NULL},
    {"DELETE", "/api/v1/runs/{}", api_run_delete, R_WRITE, NULL},
    {"DELETE", "/api/v1/applications/{}", api_app_delete, R_WRITE, NULL},
    {"PUT", "/api/v1/applications/{}/executables/{}", api_executable_put, R_WRITE, NULL},
    {"DELETE", "/api/v1/models/{}", api_model_delete, R_WRITE, NULL},
    {"DELETE", "/api/v1/templates/{}", api_template_delete, R_WRITE, "application"},

    /* The web dashboard (server/dash*.c -> web/, docs/web.md). */
    {"GET", "/", page_overview, R_HTML, NULL},
    {"GET", "/applications", page_apps, R_HTML, NULL},
    {"GET", "/applications/{}", page_app, R_HTML|R_COSTLY, "sort,dir,page,after,before,executable,system,axes,format,x,target,nprocs,input.*,commit,branch"},
    {"GET", "/runs/{}", page_run, R_HTML, "stored"},
    {"GET", "/runs/{}/trace", page_trace, R_HTML|R_COSTLY, NULL},
    {"GET", "/runs/{}/trace.json", page_trace_json, R_COSTLY, NULL},
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
    {"GET", "/alerts", page_alerts, R_HTML, "state"},
    {"POST", "/alerts/{}", page_alert_triage, R_HTML, NULL},
    {"POST", "/alert-groups/{}", page_alert_group_triage, R_HTML, NULL},
    {"GET", "/history", page_history, R_HTML|R_COSTLY, "application,executable,system,nprocs,input.*,y"},
    {"GET", "/login", page_login, R_HTML, "next"},
    {"GET", "/runs/{}/delete", page_delete_confirm, R_HTML, NULL},
    {"POST", "/runs/{}/delete", page_delete, R_HTML, NULL},
    {"GET", "/applications/{}/delete", page_delete_confirm, R_HTML, NULL},
    {"POST", "/applications/{}/delete", page_delete, R_HTML, NULL},
    {"GET", "/watches/{}/delete", page_delete_confirm, R_HTML, NULL},
    {"POST", "/watches/{}/delete", page_delete, R_HTML, NULL},
    {"POST", "/watches", page_watch_add, R_HTML, NULL},
    {"POST", "/login", page_login_post, R_HTML, NULL},
    {"POST", "/logout", page_logout, R_HTML, NULL},
    {"GET", "/compare", page_compare, R_HTML|R_COSTLY,
     "a,b,c,d,e,f,g,h,application,executable,system,nprocs,input.*"},
    {"GET", "/upload", page_upload, R_HTML, NULL},
    {"POST", "/upload/run", page_upload_run, R_HTML, NULL},
    {"POST", "/upload/csv", page_upload_csv, R_HTML, NULL},
    {"POST", "/upload/import", page_upload_import, R_HTML|R_COSTLY, NULL},
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

/* The Allow header for each set of methods (bit 0 GET, 1 POST, 2 PUT, 3
 * PATCH, 4 DELETE), built once. */
static char allow_text[32][48];
static pthread_once_t allow_once = PTHREAD_ONCE_INIT;

static void make_allow(void)
{
    static const char *const names[5] = {"GET, HEAD", "POST", "PUT", "PATCH", "DELETE"};
    for (int m = 0; m < 32; m++) {
        size_t len = 0;
        for (int k = 0; k < 5; k++)
            if (m & (1 << k))
                len += (size_t)snprintf(allow_text[m] + len, sizeof allow_text[m] - len,
                                        "%s%s", len ? ", " : "", names[k]);
    }
}

const char *routes_allowed(const char *path)
{
    static const char *const methods[5] = {"GET", "POST", "PUT", "PATCH", "DELETE"};
    const char *caps[REQ_MAX_PARAMS];
    size_t i;
    int m = 0, k;
    pthread_once(&allow_once, make_allow);
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!match(table[i].pattern, path, NULL, caps))
            continue;
        for (k = 0; k < 5; k++)
            if (strcmp(table[i].method, methods[k]) == 0)
                m |= 1 << k;
    }
    return m ? allow_text[m] : allow_text[31];
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
