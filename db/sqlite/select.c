/* select: the measurement selection over SQLite; see db/select.h. */
#include "db/query.h"
#include "db/select.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
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
                       " AND ?4 IS NULL AND r.runtime IS NOT NULL ORDER BY r.id LIMIT ?5",
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
    "AND k.name = ?3)) AND (?3 IS NOT NULL OR r.runtime IS NOT NULL) "
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
    if ((inputs = dq_object_text(q->inputs, err)) == NULL)
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
    if ((ranges = dq_object_text(q->ranges, err)) == NULL)
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

/* ---- the fit's selection streamed as aggregates --------------------------- */

int sq_select_begin(db *d, struct err *err)
{
    if (!sqlite3_get_autocommit(db_handle(d)))
        return 1; /* already in one: its snapshot holds */
    return db_exec(d, "BEGIN", err);
}

void sq_select_end(db *d)
{
    db_rollback(d);
}

/* The configurations: ?1 application, ?2 system, ?3 executable or NULL,
 * ?4..?5 the nprocs bounds, ?6 the exact inputs as a JSON object (matched
 * against the configuration's latest run, whose inputs are its own), ?7 the
 * limit; one row per configuration and input of its latest run (a NULL name
 * for a configuration without inputs), by configuration id then name. The
 * configurations come from run_configs' unique index (app_id, exe_id,
 * system_id, nprocs, inputs). */
static const char fit_configs_sql[] =
    "WITH c AS (SELECT c.id, c.nprocs, c.last_run_id, c.runs, c.sum_runtime, "
    "c.min_runtime, c.max_runtime, c.timed FROM applications a CROSS JOIN "
    "run_configs c WHERE a.name = ?1 AND c.app_id = a.id AND c.system_id = (SELECT "
    "s.id FROM systems s WHERE s.name = ?2) AND (?3 IS NULL OR c.exe_id = (SELECT "
    "e.id FROM executables e WHERE e.app_id = a.id AND e.name = ?3)) AND c.nprocs "
    "BETWEEN ?4 AND ?5 AND NOT EXISTS (SELECT 1 FROM json_each(?6) f WHERE NOT "
    "EXISTS (SELECT 1 FROM run_inputs i WHERE i.run_id = c.last_run_id AND i.name = "
    "f.key AND i.value = f.value)) ORDER BY c.id LIMIT ?7) "
    "SELECT c.id, c.nprocs, i.name, i.value, c.runs, c.sum_runtime, c.min_runtime, "
    "c.max_runtime, c.timed FROM c LEFT JOIN run_inputs i ON "
    "i.run_id = c.last_run_id ORDER BY c.id, i.name";

int sq_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err)
{
    sqlite3_stmt *st;
    char *inputs;
    size_t cap = 0;
    int rc;

    out->c = NULL;
    out->n = 0;
    if ((inputs = dq_object_text(q->inputs, err)) == NULL)
        return -1;
    if ((st = db_stmt(d, fit_configs_sql, err)) == NULL) {
        free(inputs);
        return -1;
    }
    bind_text(st, 1, q->application);
    bind_text(st, 2, q->system);
    bind_text(st, 3, q->executable);
    sqlite3_bind_double(st, 4, q->np_lo);
    sqlite3_bind_double(st, 5, q->np_hi);
    bind_text(st, 6, inputs);
    sqlite3_bind_int64(st, 7, (long long)q->limit + 1);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 0);
        struct db_fit_config *c;
        if (out->n == 0 || out->c[out->n - 1].id != id) {
            if (out->n == cap) {
                size_t ncap = cap ? cap * 2 : 16;
                struct db_fit_config *p = xrealloc(out->c, ncap * sizeof *p);
                if (p == NULL)
                    break;
                out->c = p;
                cap = ncap;
            }
            c = &out->c[out->n++];
            c->id = id;
            c->nprocs = sqlite3_column_double(st, 1);
            c->runs = (size_t)sqlite3_column_int64(st, 4);
            c->sum_runtime = sqlite3_column_double(st, 5);
            c->min_runtime = sqlite3_column_double(st, 6);
            c->max_runtime = sqlite3_column_double(st, 7);
            c->timed = (size_t)sqlite3_column_int64(st, 8);
            if ((c->inputs = json_object()) == NULL)
                break;
        }
        c = &out->c[out->n - 1];
        if (sqlite3_column_type(st, 2) != SQLITE_NULL &&
            json_object_set_new(c->inputs, (const char *)sqlite3_column_text(st, 2),
                                json_real(sqlite3_column_double(st, 3))) != 0)
            break;
    }
    sqlite3_reset(st);
    free(inputs);
    if (rc == SQLITE_ROW) {
        db_fit_configs_free(out);
        return err_nomem(err);
    }
    if (rc != SQLITE_DONE) {
        db_fit_configs_free(out);
        return db_fail(d, err);
    }
    return 0;
}

/* The runs of the configurations ?1 (a JSON array of ids) as rows (cid, y),
 * y by kind: the runtime; the metric ?2; the summed time of kernel ?2;
 * ?3 / runtime / (nprocs when ?4, else 1.0). The runs come from runs_series
 * (config_id, ...), which covers the runtime and the id; a y that is a
 * subquery is computed once per run in a co-routine (LIMIT -1 keeps the
 * subquery from being flattened into each aggregate that reads it). */
#define FIT_V(y, lim)                                                                    \
    "(SELECT c.id AS cid, " y " AS y FROM run_configs c CROSS JOIN runs r WHERE c.id "   \
    "IN (SELECT value FROM json_each(?1)) AND r.config_id = c.id" lim ")"
#define FIT_V_RUNTIME FIT_V("r.runtime", "")
#define FIT_V_METRIC                                                                     \
    FIT_V("(SELECT m.value FROM run_metrics m WHERE m.run_id = r.id AND m.name = ?2)",   \
          " LIMIT -1")
#define FIT_V_KERNEL                                                                     \
    FIT_V("(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = ?2)",   \
          " LIMIT -1")
#define FIT_V_SCALED                                                                     \
    FIT_V("?3 / r.runtime / (CASE WHEN ?4 THEN c.nprocs ELSE 1.0 END)", "")
#define FIT_KINDS(pass)                                                                  \
    {                                                                                    \
        pass(FIT_V_RUNTIME), pass(FIT_V_METRIC), pass(FIT_V_KERNEL), pass(FIT_V_SCALED)  \
    }

/* Per configuration: count, sum, minimum, maximum. */
#define FIT_SUMS(v) "SELECT cid, count(y), sum(y), min(y), max(y) FROM " v " GROUP BY cid"
/* Over all: the sums of squares about ?5 and ?6 (about ?5 alone when they
 * are the same number). */
#define FIT_SPREAD2(v) "SELECT sum((y - ?5) * (y - ?5)), sum((y - ?6) * (y - ?6)) FROM " v
#define FIT_SPREAD1(v) "SELECT sum((y - ?5) * (y - ?5)) FROM " v
/* Over all: ?5 values from the ?6-th smallest. */
#define FIT_NTH(v) "SELECT y FROM " v " WHERE y IS NOT NULL ORDER BY y LIMIT ?5 OFFSET ?6"

static const char *const fit_sums_sql[] = FIT_KINDS(FIT_SUMS);
static const char *const fit_spread1_sql[] = FIT_KINDS(FIT_SPREAD1);
static const char *const fit_spread2_sql[] = FIT_KINDS(FIT_SPREAD2);
static const char *const fit_nth_sql[] = FIT_KINDS(FIT_NTH);

/* Prepares the statement of y's kind of one of the passes (sql, by kind)
 * with the configurations and y bound. */
static sqlite3_stmt *fit_stmt(db *d, const char *const *sql, const struct db_fit_y *y,
                              const long long *ids, size_t stride, size_t n,
                              struct err *err)
{
    struct buf b;
    sqlite3_stmt *st;
    size_t i;
    int kind;

    if ((unsigned)y->y > DB_SEL_KERNEL) {
        err_set(err, 500, "internal", NULL, "unknown kind of y");
        return NULL;
    }
    kind = y->y == DB_SEL_RUNTIME ? (y->scaled ? 3 : 0) : y->y == DB_SEL_METRIC ? 1 : 2;
    buf_init(&b, 32 * n + 16);
    buf_putc(&b, '[');
    for (i = 0; i < n; i++)
        buf_printf(&b, "%s%lld", i ? "," : "",
                   *(const long long *)(const void *)((const char *)ids + i * stride));
    buf_putc(&b, ']');
    if (buf_failed(&b) || (st = db_stmt(d, sql[kind], err)) == NULL) {
        if (buf_failed(&b))
            err_nomem(err);
        buf_free(&b);
        return NULL;
    }
    sqlite3_bind_text(st, 1, buf_str(&b), -1, SQLITE_TRANSIENT);
    buf_free(&b);
    bind_text(st, 2, y->y == DB_SEL_RUNTIME ? NULL : y->name);
    sqlite3_bind_double(st, 3, y->scale);
    sqlite3_bind_int(st, 4, y->per_proc != 0);
    return st;
}

int sq_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err)
{
    sqlite3_stmt *st;
    size_t i, k = 0;
    int rc;

    for (i = 0; i < n; i++) {
        sums[i].n = 0;
        sums[i].sum = sums[i].min = sums[i].max = 0;
    }
    if (n == 0)
        return 0;
    st = fit_stmt(d, fit_sums_sql, y, &sums[0].config, sizeof *sums, n, err);
    if (st == NULL)
        return -1;
    /* Rows come by configuration id; so do the caller's (ascending) or not:
     * look each up from where the last one was found. */
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 0);
        size_t t;
        for (t = 0; t < n && sums[(k + t) % n].config != id; t++)
            ;
        if (t == n)
            continue;
        k = (k + t) % n;
        sums[k].n = (size_t)sqlite3_column_int64(st, 1);
        sums[k].sum = sqlite3_column_double(st, 2);
        sums[k].min = sqlite3_column_double(st, 3);
        sums[k].max = sqlite3_column_double(st, 4);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

int sq_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err)
{
    int one = memcmp(&mean, &center, sizeof mean) == 0;
    sqlite3_stmt *st = fit_stmt(d, one ? fit_spread1_sql : fit_spread2_sql, y, configs,
                                sizeof *configs, nconfig, err);
    int rc;

    *ss_mean = *ss_center = 0;
    if (st == NULL)
        return -1;
    sqlite3_bind_double(st, 5, mean);
    if (!one)
        sqlite3_bind_double(st, 6, center);
    if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        *ss_mean = sqlite3_column_double(st, 0);
        *ss_center = one ? *ss_mean : sqlite3_column_double(st, 1);
        rc = sqlite3_step(st);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

int sq_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err)
{
    sqlite3_stmt *st =
        fit_stmt(d, fit_nth_sql, y, configs, sizeof *configs, nconfig, err);
    int rc, got = 0, want = two ? 2 : 1;

    if (st == NULL)
        return -1;
    sqlite3_bind_int(st, 5, want);
    sqlite3_bind_int64(st, 6, (long long)k);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (got < want)
            v[got++] = sqlite3_column_double(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    if (got < want)
        return err_set(err, 422, "degenerate", NULL,
                       "the runs changed while the fit read them; fit again");
    return 0;
}

/* Coupling (the runs with a runtime, the measured total): ?1 application id,
 * ?2 system id, ?3 executable or NULL, ?4 nprocs
 * or -1, ?5 the limit. */
static const char couple_runs_sql[] =
    "SELECT r.id, r.nprocs, r.runtime FROM runs r JOIN executables e ON e.id = r.exe_id "
    "WHERE r.app_id = ?1 AND r.system_id = ?2 AND (?3 IS NULL OR e.name = ?3) "
    "AND (?4 < 0 OR r.nprocs = ?4) AND r.runtime IS NOT NULL ORDER BY r.id LIMIT ?5";
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
