/* runs: storing and reading runs with their inputs, metrics and kernels.
 *
 * The documents are plain structs validated by the caller (formats/rundoc.c);
 * this module only stores and reads them. Application, executable and system
 * are named and created on first use.
 */
#ifndef PROPHECY_RUNS_H
#define PROPHECY_RUNS_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"
#include "formats/record.h"

/* Stores n runs (inside the caller's transaction) and adds each to its
 * configuration summary (db/summary.h). For each run, ids[i] gets
 * the stored id and existed[i] 1 when a run with the same uid was already
 * stored (nothing new is written for it). Returns 0 or -1 with err set; on -1
 * the caller rolls back. */
/* The id of application app's executable name, created when missing. */
long long db_exe_id(db *d, long long app, const char *name, struct err *err);

int db_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err);

/* Filter for listing runs; NULL/0 fields do not filter. */
struct db_run_filter {
    const char *application;
    const char *executable;
    const char *system;
    long long nprocs; /* 0 = any */
    const char *commit;
    const char *branch;
    const char *tag_key; /* with tag_value: runs tagged tag_key = tag_value */
    const char *tag_value;
    long long after; /* return runs with id > after (cursor); 0 = from start */
    int limit;       /* 1..1000 */
};

/* A stored run as read back; strings live in the arena given to the reader. */
struct db_run_row {
    long long id;
    struct run_record run;
    const char *created_at;
};

/* Lists runs matching f in ascending id order, with inputs, metrics and kernels. Returns
 * the number of rows written to *rows (arena-allocated), or -1 with err set. */
int db_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err);

/* The distinct input names and metric names of all stored runs, each sorted
 * (the columns of a CSV export). Arrays and strings live in a. Returns 0 or
 * -1 with err set. */
int db_runs_names(db *d, arena *a, const char ***inputs, size_t *ninputs,
                  const char ***metrics, size_t *nmetrics, struct err *err);

/* The distinct tag names of all stored runs, sorted, into *tags (in a).
 * Returns 1 when any run has a commit, branch or tag, 0 when none has,
 * -1 with err set. */
int db_runs_tag_names(db *d, arena *a, const char ***tags, size_t *ntags,
                      struct err *err);

/* Reads one run by id. Returns 1 found, 0 not found, -1 error. */
int db_run_get(db *d, long long id, arena *a, struct db_run_row *row, struct err *err);

#endif
