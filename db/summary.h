/* summary: per-configuration summaries of runs, and the reads of the web
 * dashboard that must stay fast however many runs are stored.
 *
 * A configuration is (application, executable, system, nprocs, inputs); the
 * table run_configs (schema.sql, migration 2) holds its run count, runtime
 * sum/min/max and latest run, and is kept by db_runs_insert in the same
 * transaction as each run. Pages and scaling plots read configurations (a few
 * hundred rows) instead of runs (possibly millions), and the runs table is
 * read one page at a time (db_runs_page), never whole.
 *
 * Reads take a connection used by one thread at a time; strings of struct
 * results live in the caller's arena; JSON results are new references.
 */
#ifndef PROPHECY_SUMMARY_H
#define PROPHECY_SUMMARY_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"
#include "db/runs.h"

/* Adds the stored run run_id (with its inputs already inserted) to its
 * configuration's summary. Inside the caller's transaction. Returns 0 or -1. */
int db_summary_add_run(db *d, long long run_id, struct err *err);

/* A kernel's name (seq: its ordinal in the run, kernels.seq) or a metric's
 * (seq -1) of a new run, in its run's application: what the run adds to
 * app_kernels (rows records, first_seq the least seq) or to app_metrics.
 * Both engines' stores keep those tables from these rows, summed. */
struct db_name_row {
    long long app_id;
    const char *name;
    long long seq, rows;
};

/* Sorts v[n] (metrics before kernels, then by application and name, byte
 * order: the key order both engines write in, so that two writers lock
 * shared rows in the same order) and sums each name's rows into one row
 * with its least seq; returns the number of rows left. */
size_t db_names_sum(struct db_name_row *v, size_t n);

struct db_config {
    long long exe_id, system_id, nprocs;
    const char *executable, *system;
    const char *inputs_json; /* canonical JSON object, e.g. {"L":1024.0,"N":1000.0} */
    long long runs, last_run_id;
    long long timed; /* runs with a runtime: sum, min and max are theirs */
    double sum_runtime, min_runtime, max_runtime; /* min, max NAN when timed = 0 */
};

/* Reads up to `limit` configurations of application app_id, restricted to
 * exe_id / system_id when non-zero, ordered by executable, system, inputs'
 * text, nprocs (core/config_order.h puts inputs in value order). Returns the number read
 * into *out (arena), or -1 with err set. */
int db_summary_configs(db *d, long long app_id, long long exe_id, long long system_id,
                       int limit, arena *a, struct db_config **out, struct err *err);

/* Applications with counts: [{name, description, demo, executables, runs,
 * systems, last_run}] by name. */
json_t *db_summary_apps(db *d, struct err *err);
/* Systems with counts: [{name, description, processor, cores, network, demo,
 * runs, applications, benchmarks, parameters}] by name. */
json_t *db_summary_systems(db *d, struct err *err);
/* One application: {id, name, description, demo, created_at, runs,
 * executables: [{id, name, compiler, flags, version, runs}],
 * systems: [{id, name, runs, min_nprocs, max_nprocs}], templates: [...]};
 * ERR_NOT_FOUND when absent. */
json_t *db_summary_app(db *d, const char *name, struct err *err);
/* Applications measured on a system: [{name, runs, min_nprocs, max_nprocs}]. */
json_t *db_summary_system_apps(db *d, const char *system, struct err *err);
/* The newest runs over all applications: [{id, application, executable,
 * system, nprocs, runtime, created_at}], newest first. */
json_t *db_recent_runs(db *d, int limit, struct err *err);
/* Number of runs of app_id (exe_id / system_id 0 = any), from the summaries. */
long long db_summary_count(db *d, long long app_id, long long exe_id, long long system_id,
                           struct err *err);

/* Kernel records of the given runs, [{run_id, name, time}] in run then
 * sequence order. ids_json is a JSON array of run ids ("[3,17]"). */
json_t *db_kernels_of_runs(db *d, const char *ids_json, struct err *err);

/* ---- one page of an application's runs -------------------------------- */

#define DB_PAGE_MAX_INPUTS 64 /* inputs shown per row (the upload limit) */

enum db_sort { DB_SORT_ID = 0, DB_SORT_NPROCS = 1, DB_SORT_RUNTIME = 2 };

struct db_page_query {
    long long app_id;
    long long exe_id, system_id; /* 0 = any */
    enum db_sort sort;
    int desc;
    long long offset;
    int limit;       /* 1..1000 */
    long long total; /* runs matching (db_summary_count), or 0 when not known: a
                      * page past the middle is then read from the other end */
    /* A keyset cursor (0 = none): the page is the `limit` runs that follow
     * run `after` (or precede run `before`) in this order, read from that
     * run's place in the order's index without walking an offset. The run
     * need not match the filters (its key places it); when it is not
     * stored, offset applies instead. */
    long long after, before;
};

struct db_page_row {
    long long id;
    const char *executable, *system;
    long long nprocs;
    double runtime;
    const char *started_at, *created_at; /* started_at may be NULL */
    long long nkernels;
    struct rec_kv *inputs; /* in name order */
    size_t ninputs;
    const char *commit, *branch; /* provenance (SPEC §11), NULL when absent */
};

/* Reads one page of runs in the query's order: by id, or by nprocs or
 * runtime with ties broken by executable, system, then id (all in the same
 * direction), which is the order of their covering indexes (schema.sql
 * migration 2). The ids come from that index scan (from the cursor's key
 * when q has one; for an offset whose walk would be long, from the key of
 * the segment run_tally places it in, db/tally.h, read in one snapshot with
 * the counts), then the page's rows, inputs and kernel counts are read for
 * those ids only. Returns the number of rows in *rows (arena), or -1
 * with err set. */
int db_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err);

/* The number of runs of q's filters that come before q's cursor run (q->after,
 * else q->before) in q's order: the 0-based position of the page a cursor
 * starts. It counts index entries (cost grows with the position), so the
 * pager's links carry the page number and this is only for a cursor that
 * came without one. Returns it, 0 when q has no cursor or its run is not
 * stored, or -1 with err set. */
long long db_runs_rank(db *d, const struct db_page_query *q, struct err *err);

/* The page of q's filters that also have commit and/or branch (NULL: any;
 * the application page's ?commit= and ?branch=, SPEC §17), by run id in
 * q's direction, from q->offset (q's sort and cursor do not apply). *total
 * gets the number of runs matching. Returns the number of rows in *rows
 * (arena), or -1 with err set. */
int db_runs_page_vcs(db *d, const struct db_page_query *q, const char *commit,
                     const char *branch, long long *total, arena *a,
                     struct db_page_row **rows, struct err *err);

#endif
