/* select: the one measurement selection — which stored runs a model is built
 * from or checked against.
 *
 * Typed requests in, typed rows out; no SQL and no engine types here
 * (written once for both engines in db/select.c). Used by curve fitting's
 * database form (db_select_fit_configs and db_fit_*, aggregates streamed per
 * configuration; db_select_runs, every run, is the per-run reference), the
 * parameterization's measured overlay
 * (db_select_overlay) and kernel coupling's database form
 * (db_select_couple).
 *
 * All read through a pooled read connection, return the runs lowest id
 * first, at most a limit of them (ask for one more than you accept to learn
 * that there were more), and fail with err set (ERR_INTERNAL "database") when the
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

/* ---- the fit's selection streamed as aggregates ----------------------------
 *
 * Curve fitting reads its selection per configuration (run_configs: one row
 * per executable, system, nprocs and exact inputs) and lets the database
 * reduce each configuration's runs to a few sums, so no run crosses into C:
 * db_select_fit_configs lists the candidate configurations with their
 * variables (and their runtimes' sums, from the summary itself),
 * db_fit_sums counts and sums another y over each one's runs, and
 * db_fit_spread and db_fit_nth give what needs a second look at the values
 * of one point (sums of squares about its mean and its aggregated value, a
 * median's order statistics). A configuration's variables are those of its
 * latest run (the exact stored doubles): run_configs identifies inputs by
 * their canonical JSON text, so runs whose inputs differ only beyond 15
 * significant digits share one configuration and are read as one point. */

/* The reads that follow see one snapshot of the database (a read
 * transaction) until db_select_end, so that the sums and the second look of
 * one fit agree while runs are being written. Returns 0 (call db_select_end
 * after), 1 when d is already in a transaction (its snapshot holds; do not
 * call db_select_end), or -1 with err set. */
int db_select_begin(db *d, struct err *err);
void db_select_end(db *d);

/* A configuration of the fit's selection. */
struct db_fit_config {
    long long id;
    double nprocs;
    json_t *inputs; /* owned: the inputs of its latest run, {name: number} */
    /* its runs, those with a runtime (timed, SPEC §16) and their runtimes'
     * sum (as the summary keeps it), min, max (meaningless when timed = 0) */
    size_t runs, timed;
    double sum_runtime, min_runtime, max_runtime;
};

struct db_fit_configs {
    struct db_fit_config *c; /* owned */
    size_t n;
};

/* Releases configs (and their inputs); leaves *c empty. */
void db_fit_configs_free(struct db_fit_configs *c);

/* The configurations of application (optionally one executable) on system
 * with nprocs in [np_lo, np_hi] and every input named in q->inputs equal to
 * the given value (q->y, y_name are not looked at), lowest id first, at most
 * q->limit + 1 of them. */
int db_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err);

/* What y is over a configuration's runs: the runtime, a metric, a kernel's
 * time summed over its records, or, when scaled (y DB_SEL_RUNTIME only),
 * scale / runtime, further divided by the configuration's nprocs when
 * per_proc is 1 (speedup and efficiency relative to a reference time). */
struct db_fit_y {
    enum db_sel_y y;
    const char *name; /* the metric or kernel; NULL for the runtime */
    int scaled;       /* 1: scale / runtime (y DB_SEL_RUNTIME) */
    double scale;
    int per_proc;
};

/* One configuration's runs reduced: of the runs that have y, how many, and
 * y's sum (in the database's order), minimum and maximum. */
struct db_fit_sum {
    long long config; /* in */
    size_t n;
    double sum, min, max;
};

/* Fills sums[i] for the n configurations sums[i].config (n = 0 for one
 * without runs having y). */
int db_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err);

/* Over the runs having y of the nconfig configurations `configs` (one
 * point): the sums of (y - mean)^2 and of (y - center)^2. */
int db_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err);

/* The k-th (from 0) and, with two = 1, the (k+1)-th smallest y over the runs
 * having y of the nconfig configurations `configs` into v[0] (and v[1]); a
 * median's order statistics. ERR_INVALID "degenerate" if there are not that many. */
int db_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err);

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
