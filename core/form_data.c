/* form_data: what the steps of the modeling forms read; see form_data.h. */
#include "core/form_data.h"

#include "core/browse.h"
#include "db/browse.h"
#include "db/catalog.h"
#include "db/summary.h"

#include <string.h>

json_t *form_data_list(const struct form_data *fd, enum form_list which, const char *app,
                       const char *sys, struct err *err)
{
    static const enum db_names map[] = {
        [FORM_LIST_KERNEL_APPS] = DB_NAMES_KERNEL_APPS,
        [FORM_LIST_KERNEL_SYSTEMS] = DB_NAMES_KERNEL_SYSTEMS,
        [FORM_LIST_KERNEL_EXES] = DB_NAMES_KERNEL_EXES,
        [FORM_LIST_TEMPLATE_APPS] = DB_NAMES_TEMPLATE_APPS,
        [FORM_LIST_APP_SYSTEMS] = DB_NAMES_APP_SYSTEMS,
        [FORM_LIST_SYSTEM_CURVES] = DB_NAMES_SYSTEM_CURVES,
    };
    if ((size_t)which >= sizeof map / sizeof map[0]) {
        err_set(err, ERR_INTERNAL, "internal", NULL, "form list %d does not exist",
                (int)which);
        return NULL;
    }
    return db_names_list(fd->d, map[which], app, sys, err);
}

json_t *form_data_apps(const struct form_data *fd, struct err *err)
{
    return browse_apps(fd->d, err);
}

json_t *form_data_app(const struct form_data *fd, const char *name, struct err *err)
{
    return browse_app_summary(fd->d, name, err);
}

json_t *form_data_systems(const struct form_data *fd, struct err *err)
{
    return browse_systems(fd->d, err);
}

json_t *form_data_templates(const struct form_data *fd, const char *app, struct err *err)
{
    return db_templates_list(fd->d, app, err);
}

json_t *form_data_params(const struct form_data *fd, const char *sys, struct err *err)
{
    return db_params_list(fd->d, sys, err);
}

json_t *form_data_couplings(const struct form_data *fd, const char *app, const char *sys,
                            struct err *err)
{
    return db_couplings_list(fd->d, app, sys, err);
}

int form_data_ids(const struct form_data *fd, const char *app, const char *sys,
                  long long *app_id, long long *sys_id, struct err *err)
{
    if ((*app_id = db_app_id(fd->d, app, 0, err)) < 0 ||
        (*sys_id = db_system_id(fd->d, sys, 0, err)) < 0)
        return -1;
    return 0;
}

int form_data_configs(const struct form_data *fd, long long app_id, long long system_id,
                      int max, arena *a, struct form_config **out, struct err *err)
{
    struct db_config *c;
    struct form_config *f;
    int i, n = db_summary_configs(fd->d, app_id, 0, system_id, max, a, &c, err);

    if (n < 0)
        return -1;
    if ((f = arena_alloc(a, ((size_t)n + 1) * sizeof *f)) == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++) {
        struct form_config x = {c[i].executable,  c[i].system, c[i].nprocs,
                                c[i].inputs_json, c[i].runs,   c[i].last_run_id,
                                c[i].timed};
        f[i] = x;
    }
    *out = f;
    return n;
}

json_t *form_data_names(const struct form_data *fd, const long long *ids, size_t n,
                        const char *what, struct err *err)
{
    int kernels = strcmp(what, "kernels") == 0;
    if (!kernels && strcmp(what, "metrics") != 0) {
        err_set(err, ERR_INTERNAL, "internal", NULL, "no run names of kind %.40s", what);
        return NULL;
    }
    return db_run_names(fd->d, ids, n, kernels, err);
}
