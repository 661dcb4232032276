/* select: the measurement selection (db/select.h), written once for every
 * engine on db/query.h.
 *
 * Where the dialects differ (a run's inputs aggregated as JSON, a bound JSON
 * object walked with json_each or jsonb_each, a list of ids), the two texts
 * stand side by side and DQ_SQL picks one; everything else is shared. Only
 * the read snapshot (db_select_begin) stays with each engine. */
#include "db/select.h"
#include "db/query.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/xalloc.h"

#include <stdlib.h>
#include <string.h>

void db_sel_rows_free(struct db_sel_rows *rows)
{
    size_t i;
    for (i = 0; i < rows->n; i++)
        json_decref(rows->row[i].inputs);
    xfree(rows->row);
    rows->row = NULL;
    rows->n = 0;
}

void db_fit_configs_free(struct db_fit_configs *c)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        json_decref(c->c[i].inputs);
    xfree(c->c);
    c->c = NULL;
    c->n = 0;
}

int db_select_begin(db *d, struct err *err)
{
    return d->be->select_begin(d, err);
}

void db_select_end(db *d)
{
    d->be->select_end(d);
}

/* ---- one run per row -------------------------------------------------------- */

/* The inputs of each run as one JSON object, by name. */
#define SQ_INPUTS                                                                        \
    "(SELECT json_group_object(name, value) FROM run_inputs WHERE run_id = r.id)"
#define PG_INPUTS                                                                        \
    "(SELECT json_object_agg(name, value ORDER BY name) FROM run_inputs WHERE run_id = " \
    "r.id)"

/* Every input of the JSON object ?N ({name: number}) equal to the run's
 * (run id R). */
#define SQ_INPUTS_EQ(n, r)                                                               \
    "NOT EXISTS (SELECT 1 FROM json_each(?" n ") f WHERE NOT EXISTS (SELECT 1 FROM "     \
    "run_inputs i WHERE i.run_id = " r " AND i.name = f.key AND i.value = f.value))"
#define PG_INPUTS_EQ(n, r)                                                               \
    "NOT EXISTS (SELECT 1 FROM jsonb_each(?" n "::jsonb) f WHERE NOT EXISTS (SELECT 1 "  \
    "FROM run_inputs i WHERE i.run_id = " r " AND i.name = f.key AND i.value = "         \
    "(f.value #>> '{}')::float8))"

/* Fit: ?1 application, ?2 system, ?3 executable or NULL, ?4 the metric or
 * kernel name (NULL for the runtime), ?5 the limit, ?6..?7 the nprocs bounds,
 * ?8 the exact inputs as a JSON object. On SQLite, CROSS JOIN fixes the loop
 * order (application, system, executables, runs) so the runs come from
 * runs_by_config (exe_id, system_id, nprocs). */
#define SQ_FIT_WHERE                                                                     \
    " FROM applications a CROSS JOIN systems s CROSS JOIN executables e CROSS JOIN "     \
    "runs r WHERE e.app_id = a.id AND r.exe_id = e.id AND r.system_id = s.id AND "       \
    "a.name = ?1 AND s.name = ?2 AND (?3 IS NULL OR e.name = ?3) AND r.nprocs BETWEEN "  \
    "?6 AND ?7 AND " SQ_INPUTS_EQ("8", "r.id")
#define PG_FIT_WHERE                                                                     \
    " FROM applications a JOIN executables e ON e.app_id = a.id JOIN runs r ON "         \
    "r.exe_id = e.id JOIN systems s ON r.system_id = s.id WHERE a.name = ?1 AND "        \
    "s.name = ?2 AND (?3 IS NULL OR e.name = ?3) AND r.nprocs BETWEEN ?6 AND ?7 "        \
    "AND " PG_INPUTS_EQ("8", "r.id")
#define FIT_SQL(inputs, where)                                                           \
    {                                                                                    \
        [DB_SEL_RUNTIME] = "SELECT r.id, r.nprocs, r.runtime, " inputs where             \
                           " AND ?4 IS NULL AND r.runtime IS NOT NULL ORDER BY r.id "    \
                           "LIMIT ?5",                                                   \
        [DB_SEL_METRIC] = "SELECT r.id, r.nprocs, (SELECT value FROM run_metrics WHERE " \
                          "run_id = r.id AND name = ?4), " inputs where                  \
                          " AND EXISTS (SELECT 1 FROM run_metrics WHERE run_id = r.id "  \
                          "AND name = ?4) ORDER BY r.id LIMIT ?5",                       \
        [DB_SEL_KERNEL] = "SELECT r.id, r.nprocs, (SELECT sum(time) FROM kernels WHERE " \
                          "run_id = r.id AND name = ?4), " inputs where                  \
                          " AND EXISTS (SELECT 1 FROM kernels WHERE run_id = r.id AND "  \
                          "name = ?4 AND time IS NOT NULL) ORDER BY r.id LIMIT ?5",      \
    }
static const char *const sq_fit_sql[] = FIT_SQL(SQ_INPUTS, SQ_FIT_WHERE);
static const char *const pg_fit_sql[] = FIT_SQL(PG_INPUTS, PG_FIT_WHERE);

/* Overlay: ?1 application, ?2 system, ?3 kernel or NULL, ?4..?5 nprocs
 * bounds, ?6 the input ranges as a JSON object {name: [lo, hi]}, ?7 the
 * limit. The input filter is one bound JSON object, so the statement is a
 * constant whatever the number of variables. */
#define OVERLAY_SQL(inputs, each, lo, hi)                                                \
    "SELECT r.id, r.nprocs, CASE WHEN ?3 IS NULL THEN r.runtime ELSE (SELECT "           \
    "sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = ?3) END, " inputs     \
    " FROM runs r WHERE r.exe_id IN (SELECT e.id FROM executables e JOIN applications "  \
    "a ON a.id = e.app_id WHERE a.name = ?1) AND r.system_id = (SELECT s.id FROM "       \
    "systems s WHERE s.name = ?2) AND r.nprocs BETWEEN ?4 AND ?5 AND NOT EXISTS "        \
    "(SELECT "                                                                           \
    "1 FROM " each " f WHERE NOT EXISTS (SELECT 1 FROM run_inputs i WHERE i.run_id = "   \
    "r.id AND i.name = f.key AND i.value BETWEEN " lo " AND " hi ")) AND (?3 IS NULL "   \
    "OR EXISTS (SELECT 1 FROM kernels k WHERE k.run_id = r.id AND k.name = ?3 AND "      \
    "k.time IS NOT NULL)) AND "                                                          \
    "(?3 IS NOT NULL OR r.runtime IS NOT NULL) ORDER BY r.id LIMIT ?7"
static const char sq_overlay_sql[] =
    OVERLAY_SQL(SQ_INPUTS, "json_each(?6)", "json_extract(f.value, '$[0]')",
                "json_extract(f.value, '$[1]')");
static const char pg_overlay_sql[] =
    OVERLAY_SQL(PG_INPUTS, "jsonb_each(?6::jsonb)", "(f.value ->> 0)::float8",
                "(f.value ->> 1)::float8");

/* A run's inputs text as an object of JSON reals (PostgreSQL prints whole
 * values of a double precision column without a point; SQLite with one). */
static json_t *inputs_object(const char *text)
{
    json_t *o = text ? json_loads(text, 0, NULL) : json_object();
    const char *k;
    json_t *v;
    if (!json_is_object(o)) {
        json_decref(o);
        return json_object();
    }
    json_object_foreach(o, k, v)
    {
        if (json_is_integer(v) &&
            json_object_set_new(o, k, json_real((double)json_integer_value(v))) != 0) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

/* Reads the rows of st (columns id, nprocs, y, inputs as JSON text) into
 * out, at most limit + 1 of them. */
static int read_rows(db *d, struct db_stmt *st, size_t limit, struct db_sel_rows *out,
                     struct err *err)
{
    size_t cap = 0;
    int rc;

    out->row = NULL;
    out->n = 0;
    while ((rc = dq_step(d, st, err)) == 1) {
        struct db_sel_row *r;
        if (out->n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            struct db_sel_row *p;
            if (ncap > limit + 1)
                ncap = limit + 1;
            p = ncap > cap ? xrealloc(out->row, ncap * sizeof *p) : NULL;
            if (p == NULL)
                goto nomem;
            out->row = p;
            cap = ncap;
        }
        r = &out->row[out->n];
        memset(r, 0, sizeof *r);
        r->id = dq_ll(d, st, 0);
        r->nprocs = dq_dbl(d, st, 1);
        r->has_y = !dq_null(d, st, 2);
        r->y = r->has_y ? dq_dbl(d, st, 2) : 0;
        r->inputs = inputs_object(dq_text(d, st, 3));
        out->n++;
        if (r->inputs == NULL)
            goto nomem;
    }
    if (rc < 0) {
        db_sel_rows_free(out);
        return -1;
    }
    return 0;
nomem:
    dq_reset(d, st);
    db_sel_rows_free(out);
    return err_nomem(err);
}

int db_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err)
{
    struct db_stmt *st;
    char *inputs;
    int rc;

    out->row = NULL;
    out->n = 0;
    if ((unsigned)q->y > DB_SEL_KERNEL)
        return err_set(err, 500, "internal", NULL, "unknown kind of y");
    if ((inputs = dq_object_text(q->inputs, err)) == NULL)
        return -1;
    st = dq_prepare(d, DQ_SQL(d, sq_fit_sql[q->y], pg_fit_sql[q->y]), err, "ttttiddt",
                    q->application, q->system, q->executable,
                    q->y == DB_SEL_RUNTIME ? NULL : q->y_name, (long long)q->limit,
                    q->np_lo, q->np_hi, inputs);
    rc = st ? read_rows(d, st, q->limit, out, err) : -1;
    free(inputs);
    return rc;
}

int db_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err)
{
    struct db_stmt *st;
    char *ranges;
    int rc;

    out->row = NULL;
    out->n = 0;
    if ((ranges = dq_object_text(q->ranges, err)) == NULL)
        return -1;
    st = dq_prepare(d, DQ_SQL(d, sq_overlay_sql, pg_overlay_sql), err, "tttiiti",
                    q->application, q->system, q->kernel, q->np_lo, q->np_hi, ranges,
                    (long long)q->limit);
    rc = st ? read_rows(d, st, q->limit, out, err) : -1;
    free(ranges);
    return rc;
}

/* ---- the fit's selection streamed as aggregates ----------------------------- */

/* The configurations: ?1 application, ?2 system, ?3 executable or NULL,
 * ?4..?5 the nprocs bounds, ?6 the exact inputs as a JSON object (matched
 * against the configuration's latest run, whose inputs are its own), ?7 the
 * limit; one row per configuration and input of its latest run (a NULL name
 * for a configuration without inputs), by configuration id then name. The
 * configurations come from run_configs' unique index (app_id, exe_id,
 * system_id, nprocs, inputs). */
#define FIT_CONFIGS_SQL(join, eq)                                                        \
    "WITH c AS (SELECT c.id, c.nprocs, c.last_run_id, c.runs, c.sum_runtime, "           \
    "c.min_runtime, c.max_runtime, c.timed FROM applications a " join " WHERE a.name "   \
    "= ?1 AND c.system_id = (SELECT s.id FROM systems s WHERE s.name = ?2) AND (?3 IS "  \
    "NULL OR c.exe_id = (SELECT e.id FROM executables e WHERE e.app_id = a.id AND "      \
    "e.name = ?3)) AND c.nprocs BETWEEN ?4 AND ?5 AND " eq " ORDER BY c.id LIMIT ?7) "   \
    "SELECT c.id, c.nprocs, i.name, i.value, c.runs, c.sum_runtime, c.min_runtime, "     \
    "c.max_runtime, c.timed FROM c LEFT JOIN run_inputs i ON i.run_id = c.last_run_id "  \
    "ORDER BY c.id, i.name"
static const char sq_fit_configs_sql[] =
    FIT_CONFIGS_SQL("CROSS JOIN run_configs c",
                    "c.app_id = a.id AND " SQ_INPUTS_EQ("6", "c.last_run_id"));
static const char pg_fit_configs_sql[] = FIT_CONFIGS_SQL(
    "JOIN run_configs c ON c.app_id = a.id", PG_INPUTS_EQ("6", "c.last_run_id"));

int db_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err)
{
    struct db_stmt *st;
    char *inputs;
    size_t cap = 0;
    int rc;

    out->c = NULL;
    out->n = 0;
    if ((inputs = dq_object_text(q->inputs, err)) == NULL)
        return -1;
    st = dq_prepare(d, DQ_SQL(d, sq_fit_configs_sql, pg_fit_configs_sql), err, "tttddti",
                    q->application, q->system, q->executable, q->np_lo, q->np_hi, inputs,
                    (long long)q->limit + 1);
    free(inputs);
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        long long id = dq_ll(d, st, 0);
        struct db_fit_config *c;
        if (out->n == 0 || out->c[out->n - 1].id != id) {
            if (out->n == cap) {
                size_t ncap = cap ? cap * 2 : 16;
                struct db_fit_config *p = xrealloc(out->c, ncap * sizeof *p);
                if (p == NULL)
                    goto nomem;
                out->c = p;
                cap = ncap;
            }
            c = &out->c[out->n++];
            c->id = id;
            c->nprocs = dq_dbl(d, st, 1);
            c->runs = (size_t)dq_ll(d, st, 4);
            c->sum_runtime = dq_dbl(d, st, 5);
            c->min_runtime = dq_dbl(d, st, 6);
            c->max_runtime = dq_dbl(d, st, 7);
            c->timed = (size_t)dq_ll(d, st, 8);
            if ((c->inputs = json_object()) == NULL)
                goto nomem;
        }
        c = &out->c[out->n - 1];
        if (!dq_null(d, st, 2) && json_object_set_new(c->inputs, dq_text(d, st, 2),
                                                      json_real(dq_dbl(d, st, 3))) != 0)
            goto nomem;
    }
    if (rc < 0) {
        db_fit_configs_free(out);
        return -1;
    }
    return 0;
nomem:
    dq_reset(d, st);
    db_fit_configs_free(out);
    return err_nomem(err);
}

/* The runs of the configurations ?1 (a list of ids: a JSON array on SQLite,
 * a bigint array on PostgreSQL) as rows (cid, y), y by kind: the runtime;
 * the metric ?2; the summed time of kernel ?2; ?3 / runtime / (nprocs when
 * ?4 is not 0, else 1). A runtime of 0 gives no value (SQLite's division by
 * zero; nullif on PostgreSQL). On PostgreSQL the text ?1 is cast to an
 * array once, in a subquery (db/runs.c's PG_IN says why). On SQLite, the
 * runs come from runs_series (config_id, ...), which covers the runtime and
 * the id; a y that is a subquery is computed once per run in a co-routine
 * (LIMIT -1 keeps the subquery from being flattened into each aggregate
 * that reads it). A pass's own parameters are ?5 and ?6. */
#define SQ_V(y, lim)                                                                     \
    "(SELECT c.id AS cid, " y " AS y FROM run_configs c CROSS JOIN runs r WHERE c.id "   \
    "IN (SELECT value FROM json_each(?1)) AND r.config_id = c.id" lim ")"
#define PG_V(y, lim)                                                                     \
    "(SELECT c.id AS cid, " y " AS y FROM run_configs c JOIN runs r ON r.config_id = "   \
    "c.id WHERE c.id IN (SELECT unnest(?1::bigint[]))) v"
#define Y_METRIC                                                                         \
    "(SELECT m.value FROM run_metrics m WHERE m.run_id = r.id AND m.name = ?2)"
#define Y_KERNEL                                                                         \
    "(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = ?2)"
#define SQ_SCALED "?3 / r.runtime / (CASE WHEN ?4 THEN c.nprocs ELSE 1.0 END)"
#define PG_SCALED                                                                        \
    "?3 / nullif(r.runtime, 0) / (CASE WHEN ?4 <> 0 THEN c.nprocs::float8 ELSE "         \
    "1.0::float8 END)"
#define FIT_KINDS(pass, V, scaled)                                                       \
    {                                                                                    \
        pass(V("r.runtime", "")), pass(V(Y_METRIC, " LIMIT -1")),                        \
            pass(V(Y_KERNEL, " LIMIT -1")), pass(V(scaled, ""))                          \
    }

/* Per configuration: count, sum, minimum, maximum. */
#define FIT_SUMS(v) "SELECT cid, count(y), sum(y), min(y), max(y) FROM " v " GROUP BY cid"
/* Over all: the sums of squares about ?5 and ?6 (about ?5 alone when they
 * are the same number). */
#define FIT_SPREAD1(v) "SELECT sum((y - ?5) * (y - ?5)) FROM " v
#define FIT_SPREAD2(v) "SELECT sum((y - ?5) * (y - ?5)), sum((y - ?6) * (y - ?6)) FROM " v
/* Over all: ?5 values from the ?6-th smallest. */
#define FIT_NTH(v) "SELECT y FROM " v " WHERE y IS NOT NULL ORDER BY y LIMIT ?5 OFFSET ?6"

enum { P_SUMS, P_SPREAD1, P_SPREAD2, P_NTH, NPASS };
static const char *const fit_pass_sql[2][NPASS][4] = {
    {FIT_KINDS(FIT_SUMS, SQ_V, SQ_SCALED), FIT_KINDS(FIT_SPREAD1, SQ_V, SQ_SCALED),
     FIT_KINDS(FIT_SPREAD2, SQ_V, SQ_SCALED), FIT_KINDS(FIT_NTH, SQ_V, SQ_SCALED)},
    {FIT_KINDS(FIT_SUMS, PG_V, PG_SCALED), FIT_KINDS(FIT_SPREAD1, PG_V, PG_SCALED),
     FIT_KINDS(FIT_SPREAD2, PG_V, PG_SCALED), FIT_KINDS(FIT_NTH, PG_V, PG_SCALED)},
};
/* The parameters' types of each pass. */
static const char *const fit_pass_fmt[NPASS] = {"ttdi", "ttdid", "ttdidd", "ttdiii"};

/* Prepares pass `pass` of y's kind over the n configurations ids (every
 * stride bytes) with y bound and the pass's own parameters a, b (doubles
 * for the spreads, integers for the order statistics). */
static struct db_stmt *fit_stmt(db *d, int pass, const struct db_fit_y *y,
                                const long long *ids, size_t stride, size_t n, double a,
                                double b, struct err *err)
{
    const char *name = y->y == DB_SEL_RUNTIME ? NULL : y->name;
    const char *sql;
    struct db_stmt *st = NULL;
    struct buf list;
    size_t i;
    int kind, per = y->per_proc != 0;

    if ((unsigned)y->y > DB_SEL_KERNEL) {
        err_set(err, 500, "internal", NULL, "unknown kind of y");
        return NULL;
    }
    kind = y->y == DB_SEL_RUNTIME ? (y->scaled ? 3 : 0) : y->y == DB_SEL_METRIC ? 1 : 2;
    sql = fit_pass_sql[d->eng->pg != 0][pass][kind];
    buf_init(&list, 32 * n + 16);
    buf_putc(&list, DQ_SQL(d, '[', '{'));
    for (i = 0; i < n; i++)
        buf_printf(&list, "%s%lld", i ? "," : "",
                   *(const long long *)(const void *)((const char *)ids + i * stride));
    buf_putc(&list, DQ_SQL(d, ']', '}'));
    if (buf_failed(&list))
        err_nomem(err);
    else if (pass == P_SUMS)
        st = dq_prepare(d, sql, err, fit_pass_fmt[pass], buf_str(&list), name, y->scale,
                        (long long)per);
    else if (pass == P_SPREAD1)
        st = dq_prepare(d, sql, err, fit_pass_fmt[pass], buf_str(&list), name, y->scale,
                        (long long)per, a);
    else if (pass == P_SPREAD2)
        st = dq_prepare(d, sql, err, fit_pass_fmt[pass], buf_str(&list), name, y->scale,
                        (long long)per, a, b);
    else
        st = dq_prepare(d, sql, err, fit_pass_fmt[pass], buf_str(&list), name, y->scale,
                        (long long)per, (long long)a, (long long)b);
    buf_free(&list);
    return st;
}

int db_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err)
{
    struct db_stmt *st;
    size_t i, k = 0;
    int rc;

    for (i = 0; i < n; i++) {
        sums[i].n = 0;
        sums[i].sum = sums[i].min = sums[i].max = 0;
    }
    if (n == 0)
        return 0;
    st = fit_stmt(d, P_SUMS, y, &sums[0].config, sizeof *sums, n, 0, 0, err);
    if (st == NULL)
        return -1;
    /* Rows come by configuration id; so do the caller's (ascending) or not:
     * look each up from where the last one was found. */
    while ((rc = dq_step(d, st, err)) == 1) {
        long long id = dq_ll(d, st, 0);
        size_t t;
        for (t = 0; t < n && sums[(k + t) % n].config != id; t++)
            ;
        if (t == n)
            continue;
        k = (k + t) % n;
        sums[k].n = (size_t)dq_ll(d, st, 1);
        sums[k].sum = dq_dbl(d, st, 2);
        sums[k].min = dq_dbl(d, st, 3);
        sums[k].max = dq_dbl(d, st, 4);
    }
    return rc < 0 ? -1 : 0;
}

int db_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err)
{
    int one = memcmp(&mean, &center, sizeof mean) == 0;
    struct db_stmt *st = fit_stmt(d, one ? P_SPREAD1 : P_SPREAD2, y, configs,
                                  sizeof *configs, nconfig, mean, center, err);
    int rc;

    *ss_mean = *ss_center = 0;
    if (st == NULL)
        return -1;
    if ((rc = dq_step(d, st, err)) == 1) {
        *ss_mean = dq_dbl(d, st, 0);
        *ss_center = one ? *ss_mean : dq_dbl(d, st, 1);
        rc = dq_step(d, st, err);
        if (rc == 1) {
            dq_reset(d, st);
            rc = 0;
        }
    }
    return rc < 0 ? -1 : 0;
}

int db_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err)
{
    int rc, got = 0, want = two ? 2 : 1;
    struct db_stmt *st =
        fit_stmt(d, P_NTH, y, configs, sizeof *configs, nconfig, want, (double)k, err);

    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1)
        if (got < want)
            v[got++] = dq_dbl(d, st, 0);
    if (rc < 0)
        return -1;
    if (got < want)
        return err_set(err, 422, "degenerate", NULL,
                       "the runs changed while the fit read them; fit again");
    return 0;
}

/* ---- kernel coupling ---------------------------------------------------------- */

/* The runs with a runtime (the measured total): ?1 application id, ?2
 * system id, ?3 executable or NULL, ?4 nprocs or -1, ?5 the limit (the
 * inputs: none, ?5 only bound). */
static const char couple_runs_sql[] =
    "SELECT r.id, r.nprocs, r.runtime FROM runs r JOIN executables e ON e.id = r.exe_id "
    "WHERE r.app_id = ?1 AND r.system_id = ?2 AND (?3 IS NULL OR e.name = ?3) "
    "AND (?4 < 0 OR r.nprocs = ?4) AND r.runtime IS NOT NULL ORDER BY r.id LIMIT ?5";
static const char couple_inputs_sql[] =
    "SELECT i.run_id, i.name, i.value FROM run_inputs i JOIN runs r ON r.id = i.run_id "
    "JOIN executables e ON e.id = r.exe_id WHERE r.app_id = ?1 AND r.system_id = ?2 "
    "AND (?3 IS NULL OR e.name = ?3) AND (?4 < 0 OR r.nprocs = ?4) AND ?5 >= 0 "
    "ORDER BY i.run_id, i.name";
/* The kernels with a time (one without, SPEC §16, measures nothing to sum). */
static const char couple_kernels_sql[] =
    "SELECT k.run_id, k.seq, k.name, k.time FROM kernels k JOIN runs r ON r.id = "
    "k.run_id JOIN executables e ON e.id = r.exe_id WHERE r.app_id = ?1 AND "
    "r.system_id = ?2 AND (?3 IS NULL OR e.name = ?3) AND (?4 < 0 OR r.nprocs = ?4) "
    "AND k.time IS NOT NULL ORDER BY k.run_id, k.seq LIMIT ?5";

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
    struct db_stmt *st = dq_prepare(d, sql[part], err, "iitii", q->app_id, q->sys_id,
                                    q->executable, q->nprocs, limit);
    size_t n = 0, cap = 0;
    char *rows = NULL;
    int rc;

    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            char *p = arena_alloc(a, ncap * size[part]);
            if (p == NULL)
                goto nomem;
            if (n > 0)
                memcpy(p, rows, n * size[part]);
            rows = p;
            cap = ncap;
        }
        if (part == CP_RUNS) {
            struct db_couple_run *r = (struct db_couple_run *)(void *)rows + n;
            r->id = dq_ll(d, st, 0);
            r->nprocs = dq_dbl(d, st, 1);
            r->runtime = dq_dbl(d, st, 2);
        } else if (part == CP_INPUTS) {
            struct db_couple_input *r = (struct db_couple_input *)(void *)rows + n;
            r->run_id = dq_ll(d, st, 0);
            r->name = arena_strdup(a, dq_text(d, st, 1));
            r->value = dq_dbl(d, st, 2);
            if (r->name == NULL)
                goto nomem;
        } else {
            struct db_couple_kernel *r = (struct db_couple_kernel *)(void *)rows + n;
            r->run_id = dq_ll(d, st, 0);
            r->seq = dq_ll(d, st, 1);
            r->name = arena_strdup(a, dq_text(d, st, 2));
            r->time = dq_dbl(d, st, 3);
            if (r->name == NULL)
                goto nomem;
        }
        n++;
    }
    if (rc < 0)
        return -1;
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
nomem:
    dq_reset(d, st);
    return err_nomem(err);
}

int db_select_couple(db *d, const struct db_sel_couple *q, arena *a,
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
