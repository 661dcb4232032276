/* history: the store side of SPEC §11 — series, comparison sides, watches,
 * judgements, alerts and deletes.
 *
 * Engine-neutral: typed values in, typed values or JSON shaped as the API
 * shows it out (as db/catalog.h). Writes run inside the caller's
 * transaction (the writer's job, or the ingest `stored` hook). Strings of
 * typed results live in the arena given. A quantity `y` is "runtime",
 * "metric:NAME" or "kernel:NAME" (the sum of the run's kernel records of
 * that name).
 */
#ifndef PROPHECY_DB_HISTORY_H
#define PROPHECY_DB_HISTORY_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"

/* Narrows configurations of one application; NULL / 0 match any value.
 * inputs_json is a JSON object of input values every matching configuration
 * has (it may have more inputs). */
struct db_history_filter {
    const char *application; /* required */
    const char *executable;
    const char *system;
    long long nprocs;
    const char *inputs_json;
    size_t max_values; /* db_history_side: read at most this many (0: all) */
};

/* One configuration (run_configs). */
struct db_history_config {
    long long id;
    const char *executable, *system;
    long long nprocs;
    const char *inputs_json; /* canonical JSON object, keys in name order */
};

/* The configurations matching f, in (executable, system, inputs' text,
 * nprocs) order (core/config_order.h puts inputs in value order), at most
 * max of them. Returns their number, or -1 with err set (ERR_NOT_FOUND
 * for an unknown application). */
int db_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err);

/* One point of a series. */
struct db_series_point {
    long long run;
    long long at; /* started_at, else the time the run was stored, in ms since
                     1970-01-01T00:00:00Z (common/isotime.h) */
    const char *commit;
    double value;
};

/* The values of y for configuration config_id in time order (ties by run
 * id); runs without y are left out. Returns the number of points (*out in
 * a), or -1 with err set. */
int db_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err);

/* The same points streamed: fn(ctx, point) for each, in the same order; the
 * point's strings live only during the call (nothing is copied). fn returns
 * 0 to go on, or -1 with err set to stop. Returns 0, or -1 with err set. */
int db_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err);

/* A side of a comparison. */
enum db_side_kind { DB_SIDE_RUN, DB_SIDE_COMMIT, DB_SIDE_BRANCH, DB_SIDE_TAG };
struct db_side {
    enum db_side_kind kind;
    long long run;     /* DB_SIDE_RUN */
    const char *value; /* commit, branch or tag key */
    const char *tag_value;
    /* DB_SIDE_BRANCH: NULL, or a JSON array of commits whose runs the side
     * leaves out (the comparison's commit sides: a commit on the branch is
     * not its own baseline) */
    const char *except_commits;
};

/* One measured value of a side: run's configuration, quantity and value. */
struct db_side_value {
    long long config_id;
    const char *y;
    double value;
};

/* Every runtime, kernel total and metric of the side's runs within f, at
 * most f->max_values of them when it is set (the caller's limit is checked
 * while reading, not after the whole side is in memory). Returns 0 and
 * *out / *n (in a), or -1 with err set. */
int db_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err);

/* ---- watches -------------------------------------------------------------- */

struct db_watch {
    long long id;
    long long model_id;                          /* 0: a statistical watch */
    long long app_id, exe_id, system_id, nprocs; /* 0: any */
    const char *inputs_json;                     /* NULL: any */
    const char *y;
    const char *test; /* zscore|ttest|percent|iqr|changepoint|scaling, NULL for a
                         model */
    double threshold;
    long long window;
    const char *application, *executable, *system; /* db_watches_all only */
    long long confirm; /* K: an alert stays suspected until K more runs are out */
    /* A scaling watch's (test "scaling", migration 15): the law's variable
     * (nprocs or an input), the x its prediction is compared at, and the
     * baseline ("branch:B" or "commit:C"); NULL, 0 for the others. */
    const char *x;
    double target;
    const char *baseline;
};

/* Adds a watch over the named application (and executable, system: NULL
 * any). Returns 0 and *id, or -1 (ERR_NOT_FOUND naming the unknown one). */
/* The branches and commits of application app's runs, the newest first
 * (by their latest run's time: started_at, else created_at, as the series
 * orders runs; uploaded later is not newer), at most limit of each (the compare page's
 * picker, SPEC §17): {"branches": [{name, runs, last}], "commits": [{name, branch, runs,
 * last}]} (branch: the commit's branch, the first by name when its runs name several;
 * last: its latest run's created_at). New reference, or NULL with err set (ERR_NOT_FOUND
 * when there is no such application). */
json_t *db_history_refs(db *d, const char *app, int limit, struct err *err);

int db_watch_add(db *d, const struct db_watch *w, const char *application,
                 const char *executable, const char *system, long long *id,
                 struct err *err);
/* Every watch as the API lists it (docs/api.md), new reference. */
json_t *db_watches_list(db *d, struct err *err);
/* Deletes a watch with its judgements and alerts. 0, or -1 (ERR_NOT_FOUND). */
int db_watch_delete(db *d, long long id, struct err *err);
/* The number of watches. Returns it or -1. */
long long db_watches_count(db *d, struct err *err);

/* A number that moves whenever a watch is added, changed or deleted, by any
 * connection or server (migration 9): the ingest hook reads the watches
 * again only when it moved. Within a transaction begun by db_begin it is
 * read once (a watch written through d meanwhile reads it again): another
 * server's watch committed during the transaction counts from the next
 * one, as if it had committed a moment later. Returns it (>= 0) or -1. */
long long db_watches_version(db *d, struct err *err);

/* Every watch in id order, with the names of its application, executable
 * and system (executable and system NULL: any). Returns their number (*out
 * in a) or -1. */
int db_watches_all(db *d, arena *a, struct db_watch **out, struct err *err);

/* The value of y for run_id: 1 and *value, 0 when the run lacks it, -1. */
int db_run_value(db *d, long long run_id, const char *y, double *value, struct err *err);

/* The values of y of at most `window` runs of run_id's configuration that
 * come before it in time order (the latest ones). Writes them to hist
 * (room for window values) and returns their number, or -1. For a metric or
 * kernel, runs that lack it are skipped, looking back at most
 * DB_WINDOW_LOOKBACK x window runs: a quantity the recent runs no longer
 * measure (a renamed kernel) must not make every upload read the whole
 * history of its configuration. `value` is run_id's own value of y: the
 * writer's connection may keep each configuration's latest window in memory
 * (SQLite: db/sqlite/window.c) and moves it on by this value, so that the
 * next run of the configuration is judged without reading its history. */
#define DB_WINDOW_LOOKBACK 8
int db_history_window(db *d, long long run_id, const char *y, double value,
                      long long window, double *hist, struct err *err);

/* One judgement of a run by a watch. */
struct db_judgement {
    long long watch_id, run_id;
    int has_x;
    double x; /* the model's x at the run (model watches) */
    double value, expected, lo, hi, score;
    int ready, out, direction;
    int raise; /* for one that is out: DB_RAISE_OPEN (0), _SUSPECTED or _NONE */
};
enum { DB_RAISE_OPEN = 0, DB_RAISE_SUSPECTED, DB_RAISE_NONE };

/* Stores a judgement and, when it is out, an alert. Returns 0 and
 * *alert_id (0 when none was raised), or -1. */
int db_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err);

/* Stores the n judgements of one run (in fewer statements than n) and then,
 * in the same order, an alert for each that is out (unless its raise is
 * DB_RAISE_NONE; in state 'suspected' for DB_RAISE_SUSPECTED), in the group
 * of the run's commit: alert_ids[i] is its id, 0 when none was raised.
 * Returns 0 or -1. */
int db_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err);

/* The judgements of a configuration's runs, as JSON objects keyed by run id
 * text: {"17": [{"watch", "model", "expected", "lo", "hi", "out",
 * "direction", "alert"}]}, and *watches the array of watch ids covering the
 * configuration. New references, or NULL with err set. */
json_t *db_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err);

/* The judgements of every watch of a model in run order: run, watch, at,
 * commit, x, predicted, lo, hi, actual, out (JSON, new reference), or NULL
 * with err set. */
json_t *db_model_judgements(db *d, long long model_id, struct err *err);

/* ---- the scaling watch (SPEC §17) ------------------------------------------ */

/* One run a scaling watch fits: its processor count, its configuration's
 * inputs (canonical JSON text) and its value of the watch's y. */
struct db_law_run {
    long long nprocs;
    const char *inputs_json;
    double y;
};

/* Which runs a scaling watch fits: those of application app_id, system and
 * executable (by name) that have y, of one side: kind DB_SIDE_COMMIT (value:
 * the commit) or DB_SIDE_BRANCH (value: the branch, leaving out the runs of
 * commit `except` when it is not NULL); the newest max of them. */
struct db_law_side {
    long long app_id;
    const char *system, *executable, *y;
    enum db_side_kind kind;
    const char *value, *except;
    long max;
};
/* The runs q selects, newest first; their inputs are the caller's to match.
 * Returns their number (*out in a), or -1 with err set (ERR_INVALID for another
 * side kind or a bad y). */
long db_law_runs(db *d, const struct db_law_side *q, arena *a, struct db_law_run **out,
                 struct err *err);

/* The ids of the watches whose test is `test`, ascending, as a JSON array
 * of integers (new reference), or NULL with err set. */
json_t *db_watch_ids(db *d, const char *test, struct err *err);

/* An alert a watch raised on a run of one commit, with that run's
 * executable, system, processor count and inputs (canonical JSON text). */
struct db_commit_alert {
    long long id;
    const char *executable, *system;
    long long nprocs;
    const char *inputs_json;
};
/* The alerts watch_id raised on runs of commit, oldest first: their number
 * (*out in a), or -1 with err set. */
long db_alerts_of_commit(db *d, long long watch_id, const char *commit, arena *a,
                         struct db_commit_alert **out, struct err *err);

/* What a scaling watch's alert says (SPEC §17), kept on the alert. */
struct db_alert_law {
    double target;
    const char *formula, *baseline_formula;
    double predicted, baseline_predicted, baseline_lo, baseline_hi;
    int out; /* whether the laws still differ (db_alert_law's refinement) */
};
/* Keeps law on alert id (its ratio: predicted over baseline_predicted). A
 * refinement (the commit's law fitted again with more runs) also moves the
 * state: an open alert whose laws no longer differ is resolved "not
 * confirmed", and one resolved so reopens when they differ again. 0, or -1
 * with err set. */
int db_alert_law(db *d, long long id, const struct db_alert_law *law, struct err *err);

/* ---- alerts --------------------------------------------------------------- */

/* Alerts newest first, filtered by state (NULL: any) or one id (> 0), as the
 * API shows them. New reference or NULL. */
json_t *db_alerts_list(db *d, const char *state, long long id, struct err *err);
/* A filtered page of alerts, newest first: every field left 0 or NULL does
 * not filter. */
struct db_alert_filter {
    const char *state;       /* one of the four */
    const char *commit;      /* the alerted run's vcs_commit */
    const char *application; /* the alerted run's application */
    long long config_id;     /* > 0: the alerted run's configuration */
    const char *y;           /* the watch's y */
    long long before;        /* > 0: ids below it (the next page) */
    long long from, to;      /* > 0: ids at least from / at most to */
    long long limit;         /* rows at most (> 0) */
};
/* The alerts f selects, newest first, in db_alerts_list's shape. New
 * reference or NULL. One query whatever the number of rows. */
json_t *db_alerts_query(db *d, const struct db_alert_filter *f, struct err *err);
/* Sets an alert's state (one of the four). 0, or -1 (ERR_NOT_FOUND). */
int db_alert_set_state(db *d, long long id, const char *state, struct err *err);

/* Confirmation (SPEC §17): the suspected alert watch_id raised in run_id's
 * configuration, if any: 1 with *id and *confirmations, 0 for none, -1. */
int db_alert_suspected(db *d, long long watch_id, long long run_id, long long *id,
                       long long *confirmations, struct err *err);
/* Moves a suspected alert on: its count of confirming runs, and its new
 * state and reason (NULL: unchanged). 0 or -1. */
int db_alert_confirm(db *d, long long id, long long confirmations, const char *state,
                     const char *reason, struct err *err);

/* Alert groups (SPEC §17): one row per alert in state (NULL any) of the
 * newest limit groups holding one, by group (newest first) then alert id,
 * in *out (arena a). Returns the number of rows, or -1 with err set. */
struct db_alert_group_row {
    long long group, alert, config;
    const char *commit; /* NULL: the group of a run without a commit */
    double ratio;       /* value over expected; NAN when unknown */
};
long db_alert_group_rows(db *d, const char *state, long long limit, arena *a,
                         struct db_alert_group_row **out, struct err *err);
/* Sets the state of every alert of group id. 0, or -1 (ERR_NOT_FOUND). */
int db_alert_group_set_state(db *d, long long id, const char *state, struct err *err);

/* ---- executables' build settings ------------------------------------------- */

/* Sets an executable's compiler, flags and version (NULL keeps the stored
 * value), creating the executable in an existing application. Returns 0, or
 * -1 (ERR_NOT_FOUND for an unknown application). */
int db_executable_put(db *d, const char *application, const char *name,
                      const char *compiler, const char *flags, const char *version,
                      struct err *err);

/* Names saved model id (SPEC §11: a saved model's optional name). 0 or -1. */
int db_model_name(db *d, long long id, const char *name, struct err *err);

/* ---- deletes -------------------------------------------------------------- */

/* Each deletes one thing with everything that depends on it (judgements,
 * alerts, watches of a model, an application's runs, executables,
 * templates, couplings, models and watches) and keeps the configuration
 * summaries right. Returns 0, or -1 with err set (ERR_NOT_FOUND when absent). */
int db_run_delete(db *d, long long id, struct err *err);
int db_app_delete(db *d, const char *name, struct err *err);
int db_model_delete(db *d, long long id, struct err *err);
/* application NULL: the only template of that name (ERR_CONFLICT when several). */
int db_template_delete(db *d, const char *name, const char *application, struct err *err);
/* The template `name` of one application (templates are scoped, SPEC §11),
 * as db_template_get shows it; new reference, or NULL (ERR_NOT_FOUND). */
json_t *db_template_get_in(db *d, const char *name, const char *application,
                           struct err *err);
/* Removes the example data set: the demo applications and systems with
 * everything under them. Returns the number of applications removed or -1. */
int db_demo_remove(db *d, struct err *err);

#endif
