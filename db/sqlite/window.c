/* window: the values a statistical watch judges a new run against, on
 * SQLite (db_history_window), and the writer's windows in memory.
 *
 * Reading a window from the store costs a walk back through the run's
 * configuration: for a kernel, a probe of `kernels` for each earlier run
 * (about 50 us for a window of 20). The writer judges every new run of a
 * configuration against the window of the run before it moved on by one, so
 * the connection keeps, per configuration and y, the values of its latest
 * runs (NAN where a run lacks y) and the id of the latest. A run whose
 * predecessor in (time, id) order is that latest run is judged from memory,
 * then becomes the latest; any other run (the first judged, a run back-dated
 * among older ones, one after runs that were stored unjudged) reads the
 * store and starts the entry again. What could make memory disagree with the
 * store drops every entry: a rollback (whole or to a savepoint) and a run's
 * delete (hooks in db/sqlite/db.c), and a commit by another connection
 * (PRAGMA data_version, checked once per run). The answers are the store's:
 * unit.test_pg_history compares them with PostgreSQL's, which always reads
 * the store (other servers store runs too). */
#include "db/history.h"
#include "common/xalloc.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

/* The runs of x's configuration before x in (time, id) order, latest first. */
#define BEFORE                                                                           \
    "FROM runs r, runs x WHERE x.id = ?1 AND r.config_id = x.config_id AND (r.at_ms, "   \
    "r.id) < (x.at_ms, x.id)"

/* The last ?3 runs before x, each with its value or NULL (the run lacks y):
 * what a window is taken from, and an entry's start. */
static const char *const SQL_LAST[3] = {
    "SELECT r.runtime " BEFORE " ORDER BY r.at_ms DESC, r.id DESC LIMIT ?3",
    "SELECT (SELECT m.value FROM run_metrics m WHERE m.run_id = r.id AND m.name = ?2) "
    "" BEFORE " ORDER BY r.at_ms DESC, r.id DESC LIMIT ?3",
    "SELECT (SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = ?2) "
    "" BEFORE " ORDER BY r.at_ms DESC, r.id DESC LIMIT ?3",
};

/* x's configuration and the run just before x in it (0: none). */
static const char SQL_PLACE[] =
    "SELECT x.config_id, coalesce((SELECT r.id FROM runs r WHERE r.config_id = "
    "x.config_id AND (r.at_ms, r.id) < (x.at_ms, x.id) ORDER BY r.at_ms DESC, r.id DESC "
    "LIMIT 1), 0) FROM runs x WHERE x.id = ?1";

enum {
    BUCKETS = 4096,
    MAX_SPAN = 1 << 14,   /* longer windows are read from the store each time */
    MAX_VALUES = 1 << 20, /* 8 MB of values in all entries, then start again */
    MAX_Y = 8 + 256 + 1   /* "kernel:" + a name (LIMIT_IDENT) */
};

struct win {
    struct win *next; /* in its bucket */
    long long config_id;
    long long newest; /* the run whose value is v[0] */
    long long want;   /* the largest window the entry answers */
    int kind;
    size_t span, max; /* runs held (latest first), and at most */
    double *v;        /* NAN: that run lacks y */
    char y[MAX_Y];
};

struct sq_windows {
    struct win *bucket[BUCKETS];
    size_t values;
    long long data_version;
    long long run, config, prev; /* the last run placed */
};

static void drop_all(struct sq_windows *w)
{
    for (int b = 0; b < BUCKETS; b++) {
        struct win *e = w->bucket[b], *next;
        for (; e; e = next) {
            next = e->next;
            xfree(e->v);
            xfree(e);
        }
        w->bucket[b] = NULL;
    }
    w->values = 0;
    w->run = 0;
}

void sq_windows_free(struct sq_windows *w)
{
    if (w == NULL)
        return;
    drop_all(w);
    xfree(w);
}

void sq_windows_forget(db *d)
{
    struct sq_windows *w = *sq_windows_slot(d);
    if (w != NULL)
        drop_all(w);
}

static unsigned bucket_of(long long config_id, const char *y)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)config_id;
    for (; *y; y++)
        h = (h ^ (unsigned char)*y) * 1099511628211ull;
    return (unsigned)(h % BUCKETS);
}

/* How many runs back a window of `window` looks: a runtime (SPEC §16), a
 * metric or a kernel may be missing, so up to DB_WINDOW_LOOKBACK x window. */
static long long look_back(int kind, long long window)
{
    (void)kind;
    return window * DB_WINDOW_LOOKBACK;
}

/* Steps SQL_LAST over the `rows` runs before run_id, latest first, into
 * out (room for cap): with nan, a run lacking y as NAN; without, skipped.
 * Returns the number written, or -1. */
static long long last_values(db *d, long long run_id, int kind, const char *name,
                             long long rows, double *out, long long cap, int nan,
                             struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQL_LAST[kind], err);
    long long n = 0;
    int rc = SQLITE_DONE;

    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    if (name)
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, rows);
    while (n < cap && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 0) != SQLITE_NULL)
            out[n++] = sqlite3_column_double(st, 0);
        else if (nan)
            out[n++] = NAN;
    }
    if (n == cap)
        rc = SQLITE_DONE; /* enough values; the statement may have more */
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return n;
}

/* The store's answer, without memory: the first `window` values among the
 * runs look_back reaches. */
static int read_window(db *d, long long run_id, int kind, const char *name,
                       long long window, double *hist, struct err *err)
{
    return (int)last_values(d, run_id, kind, name, look_back(kind, window), hist, window,
                            0, err);
}

/* Places run_id (its configuration and predecessor), once per run; drops
 * every entry first when another connection has committed since. */
static int place(db *d, struct sq_windows *w, long long run_id, struct err *err)
{
    sqlite3_stmt *st;
    long long version;
    int rc;

    if (w->run == run_id)
        return 0;
    version = sq_scalar(d, "PRAGMA data_version", err);
    if (version < 0)
        return -1;
    if (version != w->data_version) {
        drop_all(w);
        w->data_version = version;
    }
    st = db_stmt(d, SQL_PLACE, err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        w->config = sqlite3_column_int64(st, 0);
        w->prev = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? err_set(err, ERR_INTERNAL, "internal", NULL,
                                           "run %lld is not stored", run_id)
                                 : db_fail(d, err);
    w->run = run_id;
    return 0;
}

/* Starts e again from the store: the last e->max runs before run_id. */
static int fill(db *d, struct win *e, long long run_id, const char *name, struct err *err)
{
    long long n = last_values(d, run_id, e->kind, name, (long long)e->max, e->v,
                              (long long)e->max, 1, err);
    e->span = n < 0 ? 0 : (size_t)n;
    return n < 0 ? -1 : 0;
}

/* The entry for (config, y) answering windows of `window` (*fresh: new, to
 * be filled); NULL when memory is refused (the caller reads the store). */
static struct win *entry(struct sq_windows *w, int kind, const char *y, long long window,
                         int *fresh)
{
    unsigned b = bucket_of(w->config, y);
    size_t max = (size_t)look_back(kind, window);
    struct win **at, *e;

    *fresh = 0;
    for (at = &w->bucket[b]; *at; at = &(*at)->next)
        if ((*at)->config_id == w->config && strcmp((*at)->y, y) == 0)
            break;
    if (*at != NULL) {
        if ((*at)->want >= window)
            return *at;
        e = *at; /* a longer window than it holds: start it again */
        *at = e->next;
        w->values -= e->max;
        xfree(e->v);
        xfree(e);
    }
    if (w->values + max > MAX_VALUES)
        drop_all(w);
    e = xcalloc(1, sizeof *e);
    if (e == NULL || (e->v = xcalloc(max, sizeof *e->v)) == NULL) {
        xfree(e);
        return NULL;
    }
    e->config_id = w->config;
    e->kind = kind;
    e->max = max;
    e->want = window;
    memcpy(e->y, y, strlen(y) + 1);
    e->next = w->bucket[b];
    w->bucket[b] = e;
    w->values += max;
    *fresh = 1;
    return e;
}

int sq_history_window(db *d, long long run_id, const char *y, double value,
                      long long window, double *hist, struct err *err)
{
    struct sq_windows **slot = sq_windows_slot(d), *w;
    const char *name;
    int kind = db_y_kind(y, &name), fresh, n = 0;
    size_t i, look;
    struct win *e;

    if (kind < 0)
        return db_bad_y(y, err);
    if (window <= 0)
        return 0;
    if (look_back(kind, window) > MAX_SPAN || strlen(y) >= MAX_Y || !isfinite(value))
        return read_window(d, run_id, kind, name, window, hist, err);
    if (*slot == NULL && (*slot = xcalloc(1, sizeof **slot)) == NULL)
        return read_window(d, run_id, kind, name, window, hist, err);
    w = *slot;
    if (place(d, w, run_id, err) != 0)
        return -1;
    e = entry(w, kind, y, window, &fresh);
    if (e == NULL)
        return read_window(d, run_id, kind, name, window, hist, err);
    if (fresh || e->newest != w->prev || w->prev == 0) {
        if (w->prev == 0)
            e->span = 0; /* the configuration's first run */
        else if (fill(d, e, run_id, name, err) != 0) {
            drop_all(w);
            return -1;
        }
    }
    /* As the store answers (read_window): the first `window` values among
     * the runs look_back reaches. */
    look = (size_t)look_back(kind, window);
    for (i = 0; i < e->span && i < look && n < window; i++)
        if (!isnan(e->v[i]))
            hist[n++] = e->v[i];
    /* run_id becomes the latest run of the entry */
    if (e->span == e->max)
        e->span--;
    memmove(e->v + 1, e->v, e->span * sizeof *e->v);
    e->v[0] = value;
    e->span++;
    e->newest = run_id;
    return n;
}
