/* routes: the route table and its matcher; see routes.h. */
#include "server/routes.h"

#include <string.h>

/* clang-format off */
static const struct route table[] = {
    {"GET",    "/api/v1/health",                      api_health,          0},
    {"POST",   "/api/v1/runs",                        api_runs_post,       R_WRITE},
    {"GET",    "/api/v1/runs",                        api_runs_list,       0},
    {"GET",    "/api/v1/runs/{}",                     api_run_get,         0},
    {"GET",    "/api/v1/export",                      api_export,          0},
    {"GET",    "/api/v1/applications",                api_apps_list,       0},
    {"GET",    "/api/v1/applications/{}",             api_app_get,         0},
    {"PUT",    "/api/v1/applications/{}",             api_app_put,         R_WRITE},
    {"GET",    "/api/v1/systems",                     api_systems_list,    0},
    {"GET",    "/api/v1/systems/{}",                  api_system_get,      0},
    {"PUT",    "/api/v1/systems/{}",                  api_system_put,      R_WRITE},
    {"POST",   "/api/v1/systems/{}/benchmarks",       api_benchmarks_post, R_WRITE},
    {"GET",    "/api/v1/systems/{}/benchmarks",       api_benchmarks_list, 0},
    {"POST",   "/api/v1/systems/{}/parameters",       api_params_post,     R_WRITE},
    {"GET",    "/api/v1/systems/{}/parameters",       api_params_list,     0},
    {"DELETE", "/api/v1/systems/{}/parameters/{}",    api_param_delete,    R_WRITE},
    {"POST",   "/api/v1/systems/{}/parameters/fit",   api_param_fit,       R_WRITE},
    {"GET",    "/api/v1/templates",                   api_templates_list,  0},
    {"POST",   "/api/v1/templates",                   api_templates_post,  R_WRITE},
    {"GET",    "/api/v1/templates/{}",                api_template_get,    0},
    {"GET",    "/api/v1/couplings",                   api_couplings_list,  0},
    {"POST",   "/api/v1/couplings",                   api_couplings_post,  R_WRITE},
    {"POST",   "/api/v1/fit",                         api_model_post,      0},
    {"POST",   "/api/v1/parameterize",                api_model_post,      0},
    {"POST",   "/api/v1/couple",                      api_model_post,      0},
    {"POST",   "/api/v1/suggest",                     api_suggest,         0},
    {"GET",    "/api/v1/models",                      api_models_list,     0},
    {"GET",    "/api/v1/models/{}",                   api_model_get,       0},
    {"GET",    "/api/v1/models/{}/predict",           api_model_predict,   0},
    {"GET",    "/api/v1/predict",                     api_predict,         0},
    {"GET",    "/plots/{}",                           api_plot,            0},

    /* The web dashboard (server/dash*.c -> web/, docs/web.md). */
    {"GET",    "/",                                   page_overview,       R_HTML},
    {"GET",    "/applications",                       page_apps,           R_HTML},
    {"GET",    "/applications/{}",                    page_app,            R_HTML},
    {"GET",    "/runs/{}",                            page_run,            R_HTML},
    {"GET",    "/systems",                            page_systems,        R_HTML},
    {"GET",    "/systems/{}",                         page_system,         R_HTML},
    {"GET",    "/models",                             page_models,         R_HTML},
    {"GET",    "/models/{}",                          page_model,          R_HTML},
    {"GET",    "/model",                              page_model_index,    R_HTML},
    {"GET",    "/model/fit",                          page_form_fit,       R_HTML},
    {"POST",   "/model/fit",                          page_form_fit_save,  R_HTML},
    {"GET",    "/model/parameterize",                 page_form_param,     R_HTML},
    {"POST",   "/model/parameterize",                 page_form_param_save, R_HTML},
    {"GET",    "/model/couple",                       page_form_couple,    R_HTML},
    {"POST",   "/model/couple",                       page_form_couple_save, R_HTML},
    {"GET",    "/upload",                             page_upload,         R_HTML},
    {"POST",   "/upload/run",                         page_upload_run,     R_HTML},
    {"POST",   "/upload/csv",                         page_upload_csv,     R_HTML},
    {"GET",    "/static/{}",                          dash_static,         R_HTML | R_PUBLIC},
};
/* clang-format on */

/* Matches pattern against path segment by segment; fills captures. */
static int match(const char *pattern, const char *path, struct req *r, const char **caps,
                 int *ncap)
{
    *ncap = 0;
    while (*pattern && *path) {
        if (*pattern != '/' || *path != '/')
            return 0;
        pattern++;
        path++;
        if (strncmp(pattern, "{}", 2) == 0) {
            size_t n = strcspn(path, "/");
            if (n == 0 || *ncap == REQ_MAX_PARAMS)
                return 0;
            if (r != NULL) {
                caps[*ncap] = http_decode(r->arena, path, n, 0);
                if (caps[*ncap] == NULL)
                    return 0;
            }
            (*ncap)++;
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
    return *pattern == '\0' && *path == '\0';
}

const struct route *routes_match(struct req *r, int *method_mismatch)
{
    size_t i;
    const char *caps[REQ_MAX_PARAMS];
    int ncap;

    *method_mismatch = 0;
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!match(table[i].pattern, r->path, NULL, caps, &ncap))
            continue;
        if (strcmp(table[i].method, r->method) != 0) {
            *method_mismatch = 1;
            continue;
        }
        match(table[i].pattern, r->path, r, r->params, &ncap);
        return &table[i];
    }
    return NULL;
}

int routes_serves(const char *method, const char *path)
{
    size_t i;
    const char *caps[REQ_MAX_PARAMS];
    int ncap;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].method, method) == 0 &&
            match(table[i].pattern, path, NULL, caps, &ncap))
            return 1;
    return 0;
}
