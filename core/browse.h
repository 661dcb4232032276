/* browse: the data of the dashboard's pages (SPEC §7), gathered through the
 * typed reads of db/ so that a page's adapter (server/dash*.c) makes one
 * call and hands the result to a view (web/view.h). Counts come from the
 * configuration summaries (db/summary.h), so the pages cost the same with a
 * thousand runs or a million.
 *
 * Every function takes a connection used by one thread at a time, returns 0
 * or -1 with err set (ERR_NOT_FOUND for a name or id that is not stored), and fills a
 * struct whose JSON members are new references (free the struct with its
 * _free function; _free of a zeroed struct does nothing) and whose strings
 * live in the caller's arena. No HTTP, SQL or HTML here.
 */
#ifndef PROPHECY_BROWSE_H
#define PROPHECY_BROWSE_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"
#include "db/runs.h"
#include "db/summary.h"

#define BROWSE_RECENT_RUNS 10 /* runs listed on the overview */

/* The overview: counts {applications, systems, runs, templates, models,
 * demo_applications}, the application and system summaries and the newest
 * runs (db/summary.h for their members). */
struct browse_overview {
    json_t *counts, *apps, *systems, *recent;
};
int browse_overview(db *d, struct browse_overview *out, struct err *err);
void browse_overview_free(struct browse_overview *o);

/* The lists of applications or systems with their counts (db/summary.h).
 * New reference, or NULL with err. */
json_t *browse_apps(db *d, struct err *err);
json_t *browse_systems(db *d, struct err *err);

/* One run with every record (arena); ERR_NOT_FOUND when id is not stored. */
int browse_run(db *d, long long id, arena *a, struct db_run_row *out, struct err *err);

/* One system: db_system_get, the applications measured on it and its
 * benchmark measurements; ERR_NOT_FOUND when not stored. */
struct browse_system {
    json_t *system, *apps, *benchmarks;
};
int browse_system(db *d, const char *name, struct browse_system *out, struct err *err);
void browse_system_free(struct browse_system *o);

/* ---- one application ------------------------------------------------------ */

/* The application's summary (db_summary_app); ERR_NOT_FOUND when not stored. New
 * reference, or NULL with err. */
json_t *browse_app_summary(db *d, const char *name, struct err *err);

struct browse_app_query {
    long long exe_id, sys_id; /* filters, 0 = any */
    int sort, desc;           /* enum db_sort, direction */
    long long page;           /* 1-based; clamped to the last page */
    int per_page;             /* runs per page (1..1000) */
    int max_configs;          /* configurations read for the plots */
    /* A keyset cursor (run ids; 0 = none): the page of runs that follow
     * `after` (or precede `before`) in the order, read without walking an
     * offset. page is then only the number shown; 0 = work it out (a count
     * that grows with the position: the pager's links carry it). A cursor
     * run that is not stored falls back to page. */
    long long after, before;
    /* Provenance filters (?commit=, ?branch=; NULL = any): the runs are then
     * in id order from the page's offset (no cursor; sort applies only as
     * the direction). */
    const char *commit, *branch;
};

struct browse_app {
    json_t *app;                  /* set by the caller (browse_app_summary) */
    long long total, pages, page; /* runs matching, pages of them, the page read */
    struct db_config *configs;    /* at most max_configs (arena) */
    int nconfigs, truncated;      /* truncated: there were more */
    struct db_page_row *rows;     /* the page of runs (arena) */
    int nrows;
    int has_kernels; /* some configuration's latest run has kernel records */
};
/* Reads the page of runs, the configurations and whether kernel coupling
 * applies for the application b->app under q. Returns 0 or -1 with err. */
int browse_app(db *d, const struct browse_app_query *q, arena *a, struct browse_app *b,
               struct err *err);

/* Kernel records [{run_id, name, time}] of the n runs ids, in run then
 * sequence order ([] when n is 0). New reference, or NULL with err. */
json_t *browse_kernels_of_runs(db *d, const long long *ids, size_t n, struct err *err);

#endif
