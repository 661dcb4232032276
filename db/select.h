/* select: the one measurement selection — which stored runs a model is built
 * from or checked against.
 *
 * Typed requests in, typed rows out; no SQL and no engine types here (the
 * SQLite implementation is db/sqlite/select.c). Used by curve fitting's
 * database form (db_select_runs), the parameterization's measured overlay
 * (db_select_overlay) and kernel coupling's database form
 * (db_select_couple).
 *
 * All read through a pooled read connection, return the runs lowest id
 * first, at most a limit of them (ask for one more than you accept to learn
 * that there were more), and fail with err set (500 "database") when the
 * database cannot be read to the end: a damaged file never reads as an empty
 * selection. An unknown application or system selects nothing.
 */
#ifndef PROPHECY_DB_SELECT_H
#define PROPHECY_DB_SELECT_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"

/* One selected run. */
struct db_sel_row {
    long long id;
    double nprocs;
    int has_y;      /* the run has the value asked for (y is then set) */
    double y;       /* runtime, a metric, or a kernel's time summed over records */
    json_t *inputs; /* owned: the run's inputs, {name: number} */
};

struct db_sel_rows {
    struct db_sel_row *row; /* owned */
    size_t n;
};

/* Releases rows (and their inputs); leaves *rows empty. */
void db_sel_rows_free(struct db_sel_rows *rows);

/* What a run's y is. */
enum db_sel_y { DB_SEL_RUNTIME, DB_SEL_METRIC, DB_SEL_KERNEL };

/* Curve fitting's selection: the runs of application (optionally one of its
 * executables) on system with nprocs in [np_lo, np_hi], every input named in
 * `inputs` ({name: number}, NULL = none) equal to the given value, and having
 * y (a metric or kernel named y_name; the runtime when y is DB_SEL_RUNTIME). */
struct db_sel_fit {
    const char *application, *system, *executable; /* executable NULL = all */
    enum db_sel_y y;
    const char *y_name; /* the metric or kernel; NULL for the runtime */
    double np_lo, np_hi;
    json_t *inputs; /* borrowed */
    size_t limit;
};
int db_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err);

/* The parameterization's measured overlay: the runs of application (every
 * executable) on system with nprocs in [np_lo, np_hi], every input named in
 * `ranges` ({name: [lo, hi]}, NULL = none) within its range, and — with a
 * kernel — a record of that kernel; y is then the kernel's summed time, else
 * the runtime. */
struct db_sel_overlay {
    const char *application, *system, *kernel; /* kernel NULL = the runtime */
    long long np_lo, np_hi;
    json_t *ranges; /* borrowed */
    size_t limit;
};
int db_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err);

/* Kernel coupling's selection: the runs of an application (by id) on a
 * system (by id), optionally of one executable and one nprocs, with their
 * inputs and kernel records. Each list is ordered by run id (inputs then by
 * name, kernel records by seq); runs are cut at max_runs + 1 and kernel
 * records at max_kernels + 1 so the caller can tell that there were more.
 * Names live in the arena. */
struct db_sel_couple {
    long long app_id, sys_id;
    const char *executable; /* NULL = every executable */
    long long nprocs;       /* < 0 = any */
    size_t max_runs, max_kernels;
};
struct db_couple_run {
    long long id;
    double nprocs, runtime;
};
struct db_couple_input {
    long long run_id;
    const char *name;
    double value;
};
struct db_couple_kernel {
    long long run_id, seq;
    const char *name;
    double time;
};
struct db_couple_rows {
    struct db_couple_run *runs; /* in the arena */
    size_t nruns;
    struct db_couple_input *inputs;
    size_t ninputs;
    struct db_couple_kernel *kernels;
    size_t nkernels;
};
int db_select_couple(db *d, const struct db_sel_couple *q, arena *a,
                     struct db_couple_rows *out, struct err *err);

#endif
