/* form_data: what the steps of the modeling forms read (SPEC §7, §19;
 * docs/web.md "Modeling forms"). web/form*.c call these as a step needs
 * them (lazily: a step reads only what its checks use); the adapter
 * (server/dash_forms.c) only chooses the connection and hands it over in a
 * struct form_data. The forms' lists are the catalog's and the summaries'
 * JSON shapes (db/summary.h, db/catalog.h); the configurations come as
 * struct form_config, the one record the forms' variable and value lists
 * are built from.
 *
 * JSON results are new references (the caller keeps them alive for the
 * request); NULL or a negative count with err set on failure.
 */
#ifndef PROPHECY_CORE_FORM_DATA_H
#define PROPHECY_CORE_FORM_DATA_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"

/* The connection the forms read through (one per request, held by the
 * adapter). */
struct form_data {
    db *d;
};

/* The name lists the forms offer ([{"name": ...}] in name order). */
enum form_list {
    FORM_LIST_KERNEL_APPS,    /* applications whose runs record kernels */
    FORM_LIST_KERNEL_SYSTEMS, /* systems where app's runs record kernels */
    FORM_LIST_KERNEL_EXES,    /* executables of app on sys recording kernels */
    FORM_LIST_TEMPLATE_APPS,  /* applications with a model template */
    FORM_LIST_APP_SYSTEMS,    /* systems app ran on */
    FORM_LIST_SYSTEM_CURVES,  /* sys's benchmark series over an argument, the
                               * machine curves: also "label", "test" */
};
json_t *form_data_list(const struct form_data *fd, enum form_list which, const char *app,
                       const char *sys, struct err *err);

/* Application and system summaries (db/summary.h shapes); app: one, ERR_NOT_FOUND
 * when absent. */
json_t *form_data_apps(const struct form_data *fd, struct err *err);
json_t *form_data_app(const struct form_data *fd, const char *name, struct err *err);
json_t *form_data_systems(const struct form_data *fd, struct err *err);
/* The templates of application app, the parameters of system sys and the
 * saved couplings of app on sys (db/catalog.h shapes). */
json_t *form_data_templates(const struct form_data *fd, const char *app, struct err *err);
json_t *form_data_params(const struct form_data *fd, const char *sys, struct err *err);
json_t *form_data_couplings(const struct form_data *fd, const char *app, const char *sys,
                            struct err *err);

/* The stored ids of application app and system sys (0 for a name not
 * stored; nothing is created). Returns 0, or -1 with err. */
int form_data_ids(const struct form_data *fd, const char *app, const char *sys,
                  long long *app_id, long long *sys_id, struct err *err);

/* One configuration (executable, system, process count, inputs) with its
 * runs. */
struct form_config {
    const char *executable, *system;
    long long nprocs;
    const char *inputs_json; /* canonical JSON object of the inputs */
    long long runs, last_run_id;
    long long timed; /* runs with a runtime (SPEC §16: a file may have no time) */
};
/* The configurations of application app_id on system_id (0: all), at most
 * max, ordered by executable, system, inputs, nprocs (arena). Returns the
 * count or -1. */
int form_data_configs(const struct form_data *fd, long long app_id, long long system_id,
                      int max, arena *a, struct form_config **out, struct err *err);

/* The names of the metrics (what "metrics": by name) or kernels ("kernels":
 * in the order the runs record them) of the n runs ids, 200 at most: an
 * array of strings. Any other what is an ERR_INTERNAL (a caller's mistake). */
json_t *form_data_names(const struct form_data *fd, const long long *ids, size_t n,
                        const char *what, struct err *err);

#endif
