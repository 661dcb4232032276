/* browse: the small reads of the web dashboard that no other db/ module
 * answers (the forms' lists and the application page's links), each with a
 * typed result. Engine-neutral: no SQL and no backend types here; the
 * SQLite implementation is db/sqlite/browse.c.
 *
 * Reads take a connection used by one thread at a time; strings of results
 * live in the caller's arena. A read that fails (a damaged database) is an
 * error, never an empty success.
 */
#ifndef PROPHECY_DB_BROWSE_H
#define PROPHECY_DB_BROWSE_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"

/* Whether the latest run of some configuration of application app_id has
 * kernel records (kernel coupling needs them). Returns 1 or 0, or -1 with
 * err set. */
int db_app_has_kernels(db *d, long long app_id, struct err *err);

/* The name lists of the modeling forms: a JSON array of {"name": ...} in
 * name order (new reference), or NULL with err. */
enum db_names {
    DB_NAMES_KERNEL_APPS,    /* applications some of whose runs record kernels */
    DB_NAMES_KERNEL_SYSTEMS, /* systems where app's runs record kernels */
    DB_NAMES_KERNEL_EXES,    /* executables of app on sys whose runs record kernels */
    DB_NAMES_TEMPLATE_APPS,  /* applications with a model template */
    DB_NAMES_APP_SYSTEMS,    /* systems app ran on */
    DB_NAMES_SYSTEM_CURVES,  /* series of sys measured over an argument:
                              * {"name", "label", "test"} ("" for none), a
                              * name's in the order they were stored */
};
json_t *db_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err);

/* Distinct metric names (kernels 0; by name) or kernel names (kernels 1; in
 * the order the runs record them, then by name) of the n runs ids, at most
 * 200: a JSON array of strings (new reference), or NULL with err. */
json_t *db_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err);
/* The same over every run of the configurations whose runs ids are (a
 * configuration's repetitions need not record the same kernels: an Extra-P
 * file's region measured in 5 of 6 repetitions). */
json_t *db_config_names(db *d, const long long *ids, size_t n, int kernels,
                        struct err *err);

#endif
