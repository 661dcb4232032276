/* select: the measurement selection over SQLite; see db/select.h. */
#include "db/select.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

/* The inputs of each run as one JSON object, walked by the reader. */
#define SEL_INPUTS                                                                       \
    "(SELECT json_group_object(name, value) FROM run_inputs WHERE run_id = r.id)"

/* Fit: ?1 application, ?2 system, ?3 executable or NULL, ?4 the metric or
 * kernel name, ?5 the limit, ?6..?7 the nprocs bounds, ?8 the exact inputs as
 * a JSON object. CROSS JOIN fixes the loop order (application, system,
 * executables, runs) so the runs come from runs_by_config (exe_id,
 * system_id, nprocs). */
#define FIT_WHERE                                                                        \
    " FROM applications a CROSS JOIN systems s CROSS JOIN executables e CROSS JOIN "     \
    "runs r WHERE e.app_id = a.id AND r.exe_id = e.id AND r.system_id = s.id AND "       \
    "a.name = ?1 AND s.name = ?2 AND (?3 IS NULL OR e.name = ?3) AND r.nprocs BETWEEN "  \
    "?6 AND ?7 AND NOT EXISTS (SELECT 1 FROM json_each(?8) f WHERE NOT EXISTS (SELECT "  \
    "1 FROM run_inputs i WHERE i.run_id = r.id AND i.name = f.key AND i.value = "        \
    "f.value))"
static const char *const fit_sql[] = {
    [DB_SEL_RUNTIME] = "SELECT r.id, r.nprocs, r.runtime, " SEL_INPUTS FIT_WHERE
                       " AND ?4 IS NULL ORDER BY r.id LIMIT ?5",
    [DB_SEL_METRIC] = "SELECT r.id, r.nprocs, (SELECT value FROM run_metrics WHERE "
                      "run_id = r.id AND name = ?4), " SEL_INPUTS FIT_WHERE
                      " AND EXISTS (SELECT 1 FROM run_metrics WHERE run_id = r.id AND "
                      "name = ?4) ORDER BY r.id LIMIT ?5",
    [DB_SEL_KERNEL] = "SELECT r.id, r.nprocs, (SELECT sum(time) FROM kernels WHERE "
                      "run_id = r.id AND name = ?4), " SEL_INPUTS FIT_WHERE
                      " AND EXISTS (SELECT 1 FROM kernels WHERE run_id = r.id AND name = "
                      "?4) ORDER BY r.id LIMIT ?5",
};

/* Overlay: ?1 application, ?2 system, ?3 kernel or NULL, ?4..?5 nprocs
 * bounds, ?6 the input ranges as a JSON object, ?7 the limit. The input
 * filter is one bound JSON object walked with json_each, so the statement is
 * a constant whatever the number of variables. */
static const char overlay_sql[] =
    "SELECT r.id, r.nprocs, "
    "CASE WHEN ?3 IS NULL THEN r.runtime ELSE (SELECT sum(k.time) FROM kernels k "
    "WHERE k.run_id = r.id AND k.name = ?3) END, " SEL_INPUTS " FROM runs r "
    "WHERE r.exe_id IN (SELECT e.id FROM executables e JOIN applications a "
    "ON a.id = e.app_id WHERE a.name = ?1) "
    "AND r.system_id = (SELECT s.id FROM systems s WHERE s.name = ?2) "
    "AND r.nprocs BETWEEN ?4 AND ?5 "
    "AND NOT EXISTS (SELECT 1 FROM json_each(?6) f WHERE NOT EXISTS ("
    "SELECT 1 FROM run_inputs i WHERE i.run_id = r.id AND i.name = f.key "
    "AND i.value BETWEEN json_extract(f.value, '$[0]') "
    "AND json_extract(f.value, '$[1]'))) "
    "AND (?3 IS NULL OR EXISTS (SELECT 1 FROM kernels k WHERE k.run_id = r.id "
    "AND k.name = ?3)) "
    "ORDER BY r.id LIMIT ?7";

/* Reads the rows of st (columns id, nprocs, y, inputs as JSON text) into
 * out; checks that the statement ran to its end. */
static int read_rows(db *d, sqlite3_stmt *st, size_t limit, struct db_sel_rows *out,
                     struct err *err)
{
    size_t cap = 0;
    int rc;

    out->row = NULL;
    out->n = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct db_sel_row *r;
        const char *in = (const char *)sqlite3_column_text(st, 3);
        if (out->n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            struct db_sel_row *p;
            if (ncap > limit + 1)
                ncap = limit + 1;
            p = xrealloc(out->row, ncap * sizeof *p);
            if (p == NULL || ncap <= cap) {
                sqlite3_reset(st);
                db_sel_rows_free(out);
                return err_nomem(err);
            }
            out->row = p;
            cap = ncap;
        }
        r = &out->row[out->n];
        memset(r, 0, sizeof *r);
        r->id = sqlite3_column_int64(st, 0);
        r->nprocs = sqlite3_column_double(st, 1);
        r->has_y = sqlite3_column_type(st, 2) != SQLITE_NULL;
        r->y = r->has_y ? sqlite3_column_double(st, 2) : 0;
        r->inputs = in ? json_loads(in, 0, NULL) : json_object();
        if (!json_is_object(r->inputs)) {
            json_decref(r->inputs);
            r->inputs = json_object();
        }
        out->n++;
        if (r->inputs == NULL) {
            sqlite3_reset(st);
            db_sel_rows_free(out);
            return err_nomem(err);
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        db_sel_rows_free(out);
        return db_fail(d, err);
    }
    return 0;
}

static char *object_text(json_t *o, struct err *err)
{
    json_t *empty = o ? NULL : json_object();
    char *t = json_dumps(o ? o : empty, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(empty);
    if (t == NULL)
        err_nomem(err);
    return t;
}

static void bind_text(sqlite3_stmt *st, int k, const char *s)
{
    if (s == NULL)
        sqlite3_bind_null(st, k);
    else
        sqlite3_bind_text(st, k, s, -1, SQLITE_STATIC);
}

int sq_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err)
{
    sqlite3_stmt *st;
    char *inputs;
    int rc;

    out->row = NULL;
    out->n = 0;
    if ((unsigned)q->y > DB_SEL_KERNEL)
        return err_set(err, 500, "internal", NULL, "unknown kind of y");
    if ((inputs = object_text(q->inputs, err)) == NULL)
        return -1;
    if ((st = db_stmt(d, fit_sql[q->y], err)) == NULL) {
        free(inputs);
        return -1;
    }
    bind_text(st, 1, q->application);
    bind_text(st, 2, q->system);
    bind_text(st, 3, q->executable);
    bind_text(st, 4, q->y == DB_SEL_RUNTIME ? NULL : q->y_name);
    sqlite3_bind_int64(st, 5, (long long)q->limit);
    sqlite3_bind_double(st, 6, q->np_lo);
    sqlite3_bind_double(st, 7, q->np_hi);
    bind_text(st, 8, inputs);
    rc = read_rows(d, st, q->limit, out, err);
    free(inputs);
    return rc;
}

int sq_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err)
{
    sqlite3_stmt *st;
    char *ranges;
    int rc;

    out->row = NULL;
    out->n = 0;
    if ((ranges = object_text(q->ranges, err)) == NULL)
        return -1;
    if ((st = db_stmt(d, overlay_sql, err)) == NULL) {
        free(ranges);
        return -1;
    }
    bind_text(st, 1, q->application);
    bind_text(st, 2, q->system);
    bind_text(st, 3, q->kernel);
    sqlite3_bind_int64(st, 4, q->np_lo);
    sqlite3_bind_int64(st, 5, q->np_hi);
    bind_text(st, 6, ranges);
    sqlite3_bind_int64(st, 7, (long long)q->limit);
    rc = read_rows(d, st, q->limit, out, err);
    free(ranges);
    return rc;
}

/* Coupling: ?1 application id, ?2 system id, ?3 executable or NULL, ?4 nprocs
 * or -1, ?5 the limit. */
static const char couple_runs_sql[] =
    "SELECT r.id, r.nprocs, r.runtime FROM runs r JOIN executables e ON e.id = r.exe_id "
    "WHERE r.app_id = ?1 AND r.system_id = ?2 AND (?3 IS NULL OR e.name = ?3) "
    "AND (?4 < 0 OR r.nprocs = ?4) ORDER BY r.id LIMIT ?5";
static const char couple_inputs_sql[] =
    "SELECT i.run_id, i.name, i.value FROM run_inputs i JOIN runs r ON r.id = i.run_id "
    "JOIN executables e ON e.id = r.exe_id WHERE r.app_id = ?1 AND r.system_id = ?2 "
    "AND (?3 IS NULL OR e.name = ?3) AND (?4 < 0 OR r.nprocs = ?4) AND ?5 >= 0 "
    "ORDER BY i.run_id, i.name";
static const char couple_kernels_sql[] =
    "SELECT k.run_id, k.seq, k.name, k.time FROM kernels k JOIN runs r ON r.id = "
    "k.run_id JOIN executables e ON e.id = r.exe_id WHERE r.app_id = ?1 AND "
    "r.system_id = ?2 AND (?3 IS NULL OR e.name = ?3) AND (?4 < 0 OR r.nprocs = ?4) "
    "ORDER BY k.run_id, k.seq LIMIT ?5";

enum couple_part { CP_RUNS, CP_INPUTS, CP_KERNELS };

/* Runs one of the three statements and stores its rows in the arena. */
static int couple_part(db *d, const struct db_sel_couple *q, enum couple_part part,
                       long long limit, arena *a, struct db_couple_rows *out,
                       struct err *err)
{
    static const char *const sql[] = {couple_runs_sql, couple_inputs_sql,
                                      couple_kernels_sql};
    static const size_t size[] = {sizeof(struct db_couple_run),
                                  sizeof(struct db_couple_input),
                                  sizeof(struct db_couple_kernel)};
    sqlite3_stmt *st = db_stmt(d, sql[part], err);
    size_t n = 0, cap = 0;
    char *rows = NULL;
    int rc;

    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, q->app_id);
    sqlite3_bind_int64(st, 2, q->sys_id);
    bind_text(st, 3, q->executable);
    sqlite3_bind_int64(st, 4, q->nprocs);
    sqlite3_bind_int64(st, 5, limit);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            char *p = arena_alloc(a, ncap * size[part]);
            if (p == NULL) {
                sqlite3_reset(st);
                return err_nomem(err);
            }
            if (n > 0)
                memcpy(p, rows, n * size[part]);
            rows = p;
            cap = ncap;
        }
        if (part == CP_RUNS) {
            struct db_couple_run *r = (struct db_couple_run *)(void *)rows + n;
            r->id = sqlite3_column_int64(st, 0);
            r->nprocs = sqlite3_column_double(st, 1);
            r->runtime = sqlite3_column_double(st, 2);
        } else if (part == CP_INPUTS) {
            struct db_couple_input *r = (struct db_couple_input *)(void *)rows + n;
            r->run_id = sqlite3_column_int64(st, 0);
            r->name = arena_strndup(a, (const char *)sqlite3_column_text(st, 1),
                                    (size_t)sqlite3_column_bytes(st, 1));
            r->value = sqlite3_column_double(st, 2);
            if (r->name == NULL) {
                sqlite3_reset(st);
                return err_nomem(err);
            }
        } else {
            struct db_couple_kernel *r = (struct db_couple_kernel *)(void *)rows + n;
            r->run_id = sqlite3_column_int64(st, 0);
            r->seq = sqlite3_column_int64(st, 1);
            r->name = arena_strndup(a, (const char *)sqlite3_column_text(st, 2),
                                    (size_t)sqlite3_column_bytes(st, 2));
            r->time = sqlite3_column_double(st, 3);
            if (r->name == NULL) {
                sqlite3_reset(st);
                return err_nomem(err);
            }
        }
        n++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    if (part == CP_RUNS) {
        out->runs = (struct db_couple_run *)(void *)rows;
        out->nruns = n;
    } else if (part == CP_INPUTS) {
        out->inputs = (struct db_couple_input *)(void *)rows;
        out->ninputs = n;
    } else {
        out->kernels = (struct db_couple_kernel *)(void *)rows;
        out->nkernels = n;
    }
    return 0;
}

int sq_select_couple(db *d, const struct db_sel_couple *q, arena *a,
                     struct db_couple_rows *out, struct err *err)
{
    memset(out, 0, sizeof *out);
    if (couple_part(d, q, CP_RUNS, (long long)q->max_runs + 1, a, out, err) != 0)
        return -1;
    if (out->nruns > q->max_runs)
        return 0; /* the caller refuses the selection */
    if (couple_part(d, q, CP_INPUTS, 0, a, out, err) != 0 ||
        couple_part(d, q, CP_KERNELS, (long long)q->max_kernels + 1, a, out, err) != 0)
        return -1;
    return 0;
}
