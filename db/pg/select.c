/* select: the measurement selection over PostgreSQL; see db/select.h (the
 * same selections as db/sqlite/select.c). */
#include "db/query.h"
#include "db/select.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/xalloc.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The inputs of each run as one JSON object. */
#define SEL_INPUTS                                                                       \
    "(SELECT json_object_agg(name, value ORDER BY name) FROM run_inputs WHERE run_id = " \
    "r.id)"

/* Fit: $1 application, $2 system, $3 executable or NULL, $4 the metric or
 * kernel name (NULL for the runtime), $5 the limit, $6..$7 the nprocs bounds,
 * $8 the exact inputs as a JSON object. */
#define FIT_WHERE                                                                        \
    " FROM applications a JOIN executables e ON e.app_id = a.id JOIN runs r ON "         \
    "r.exe_id = e.id JOIN systems s ON r.system_id = s.id WHERE a.name = $1 AND "        \
    "s.name = $2 AND ($3::text IS NULL OR e.name = $3) AND r.nprocs BETWEEN "            \
    "$6::float8 AND $7::float8 AND NOT EXISTS (SELECT 1 FROM jsonb_each($8::jsonb) f "   \
    "WHERE NOT EXISTS (SELECT 1 FROM run_inputs i WHERE i.run_id = r.id AND i.name = "   \
    "f.key AND i.value = (f.value #>> '{}')::float8))"
static const char *const fit_sql[] = {
    [DB_SEL_RUNTIME] =
        "SELECT r.id, r.nprocs, r.runtime, " SEL_INPUTS FIT_WHERE
        " AND $4::text IS NULL AND r.runtime IS NOT NULL ORDER BY r.id LIMIT $5",
    [DB_SEL_METRIC] = "SELECT r.id, r.nprocs, (SELECT value FROM run_metrics WHERE "
                      "run_id = r.id AND name = $4), " SEL_INPUTS FIT_WHERE
                      " AND EXISTS (SELECT 1 FROM run_metrics WHERE run_id = r.id AND "
                      "name = $4) ORDER BY r.id LIMIT $5",
    [DB_SEL_KERNEL] = "SELECT r.id, r.nprocs, (SELECT sum(time) FROM kernels WHERE "
                      "run_id = r.id AND name = $4), " SEL_INPUTS FIT_WHERE
                      " AND EXISTS (SELECT 1 FROM kernels WHERE run_id = r.id AND name = "
                      "$4) ORDER BY r.id LIMIT $5",
};

/* Overlay: $1 application, $2 system, $3 kernel or NULL, $4..$5 nprocs
 * bounds, $6 the input ranges as a JSON object {name: [lo, hi]}, $7 the
 * limit. */
static const char overlay_sql[] =
    "SELECT r.id, r.nprocs, "
    "CASE WHEN $3::text IS NULL THEN r.runtime ELSE (SELECT sum(k.time) FROM kernels k "
    "WHERE k.run_id = r.id AND k.name = $3) END, " SEL_INPUTS " FROM runs r "
    "WHERE r.exe_id IN (SELECT e.id FROM executables e JOIN applications a "
    "ON a.id = e.app_id WHERE a.name = $1) "
    "AND r.system_id = (SELECT s.id FROM systems s WHERE s.name = $2) "
    "AND r.nprocs BETWEEN $4 AND $5 "
    "AND NOT EXISTS (SELECT 1 FROM jsonb_each($6::jsonb) f WHERE NOT EXISTS ("
    "SELECT 1 FROM run_inputs i WHERE i.run_id = r.id AND i.name = f.key "
    "AND i.value BETWEEN (f.value ->> 0)::float8 AND (f.value ->> 1)::float8)) "
    "AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM kernels k WHERE k.run_id = r.id "
    "AND k.name = $3)) AND ($3::text IS NOT NULL OR r.runtime IS NOT NULL) "
    "ORDER BY r.id LIMIT $7";

/* The run's inputs as JSON reals, as SQLite hands them (whole values of a
 * double precision column print without a point here). */
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
        if (json_is_integer(v))
            json_object_set_new(o, k, json_real((double)json_integer_value(v)));
    }
    return o;
}

/* The rows of r (columns id, nprocs, y, inputs as JSON text) into out. */
static int read_rows(PGresult *r, size_t limit, struct db_sel_rows *out, struct err *err)
{
    size_t n = (size_t)PQntuples(r), i;

    out->row = NULL;
    out->n = 0;
    if (n > limit + 1)
        n = limit + 1;
    if (n > 0 && (out->row = xcalloc(n, sizeof *out->row)) == NULL) {
        PQclear(r);
        return err_nomem(err);
    }
    for (i = 0; i < n; i++) {
        struct db_sel_row *row = &out->row[i];
        row->id = pg_ll(r, (int)i, 0);
        row->nprocs = pg_dbl(r, (int)i, 1);
        row->has_y = !pg_null(r, (int)i, 2);
        row->y = row->has_y ? pg_dbl(r, (int)i, 2) : 0;
        row->inputs = inputs_object(pg_text(r, (int)i, 3));
        out->n++;
        if (row->inputs == NULL) {
            PQclear(r);
            db_sel_rows_free(out);
            return err_nomem(err);
        }
    }
    PQclear(r);
    return 0;
}

int pg_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err)
{
    PGresult *r;
    char *inputs;

    out->row = NULL;
    out->n = 0;
    if ((unsigned)q->y > DB_SEL_KERNEL)
        return err_set(err, 500, "internal", NULL, "unknown kind of y");
    if ((inputs = dq_object_text(q->inputs, err)) == NULL)
        return -1;
    r = pg_params(d, fit_sql[q->y], err, "ttttiddt", q->application, q->system,
                  q->executable, q->y == DB_SEL_RUNTIME ? NULL : q->y_name,
                  (long long)q->limit, q->np_lo, q->np_hi, inputs);
    free(inputs);
    if (r == NULL)
        return -1;
    return read_rows(r, q->limit, out, err);
}

int pg_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err)
{
    PGresult *r;
    char *ranges;

    out->row = NULL;
    out->n = 0;
    if ((ranges = dq_object_text(q->ranges, err)) == NULL)
        return -1;
    r = pg_params(d, overlay_sql, err, "tttiiti", q->application, q->system, q->kernel,
                  q->np_lo, q->np_hi, ranges, (long long)q->limit);
    free(ranges);
    if (r == NULL)
        return -1;
    return read_rows(r, q->limit, out, err);
}

/* ---- the fit's selection streamed as aggregates -------------------------- */

int pg_select_begin(db *d, struct err *err)
{
    if (PQtransactionStatus(pg_conn(d)) != PQTRANS_IDLE)
        return 1; /* already in one: its snapshot holds */
    /* REPEATABLE READ: every read of the fit sees one snapshot. */
    return pg_exec(d, "BEGIN ISOLATION LEVEL REPEATABLE READ", err);
}

void pg_select_end(db *d)
{
    pg_rollback(d);
}

/* $1 application, $2 system, $3 executable or NULL, $4..$5 the nprocs bounds,
 * $6 the exact inputs as a JSON object (matched against the configuration's
 * latest run), $7 the limit; one row per configuration and input of its
 * latest run, by configuration id then name (as db/sqlite/select.c). */
static const char fit_configs_sql[] =
    "WITH c AS (SELECT c.id, c.nprocs, c.last_run_id, c.runs, c.sum_runtime, "
    "c.min_runtime, c.max_runtime, c.timed FROM applications a JOIN run_configs c ON "
    "c.app_id = "
    "a.id WHERE a.name = $1 AND c.system_id = (SELECT s.id FROM systems s WHERE "
    "s.name = $2) AND ($3::text IS NULL OR c.exe_id = (SELECT e.id FROM executables e "
    "WHERE e.app_id = a.id AND e.name = $3)) AND c.nprocs BETWEEN $4::float8 AND "
    "$5::float8 AND NOT EXISTS (SELECT 1 FROM jsonb_each($6::jsonb) f WHERE NOT EXISTS "
    "(SELECT 1 FROM run_inputs i WHERE i.run_id = c.last_run_id AND i.name = f.key AND "
    "i.value = (f.value #>> '{}')::float8)) ORDER BY c.id LIMIT $7) "
    "SELECT c.id, c.nprocs, i.name, i.value, c.runs, c.sum_runtime, c.min_runtime, "
    "c.max_runtime, c.timed FROM c LEFT JOIN run_inputs i ON i.run_id = c.last_run_id "
    "ORDER BY c.id, i.name";

int pg_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err)
{
    PGresult *r;
    char *inputs;
    size_t cap = 0;
    int i, rows;

    out->c = NULL;
    out->n = 0;
    if ((inputs = dq_object_text(q->inputs, err)) == NULL)
        return -1;
    r = pg_params(d, fit_configs_sql, err, "tttddti", q->application, q->system,
                  q->executable, q->np_lo, q->np_hi, inputs, (long long)q->limit + 1);
    free(inputs);
    if (r == NULL)
        return -1;
    rows = PQntuples(r);
    for (i = 0; i < rows; i++) {
        long long id = pg_ll(r, i, 0);
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
            c->nprocs = pg_dbl(r, i, 1);
            c->runs = (size_t)pg_ll(r, i, 4);
            c->sum_runtime = pg_dbl(r, i, 5);
            c->min_runtime = pg_dbl(r, i, 6);
            c->max_runtime = pg_dbl(r, i, 7);
            c->timed = (size_t)pg_ll(r, i, 8);
            if ((c->inputs = json_object()) == NULL)
                goto nomem;
        }
        c = &out->c[out->n - 1];
        if (!pg_null(r, i, 2) && json_object_set_new(c->inputs, pg_text(r, i, 2),
                                                     json_real(pg_dbl(r, i, 3))) != 0)
            goto nomem;
    }
    PQclear(r);
    return 0;
nomem:
    PQclear(r);
    db_fit_configs_free(out);
    return err_nomem(err);
}

/* The runs of the configurations $1 (a bigint array) as rows (cid, y), by
 * kind of y: the runtime; the metric $2; the summed time of kernel $2;
 * $2 / runtime / (nprocs when $3 is 1, else 1). Each kind numbers only the
 * parameters it uses (a prepared statement must know every parameter's
 * type); a pass's own parameters follow. A runtime of 0 gives no value, as
 * SQLite's division by zero does. */
enum { K_RUNTIME, K_METRIC, K_KERNEL, K_SCALED, NKIND };
static const int kind_params[NKIND] = {1, 2, 2, 3};
static const char *const kind_y[NKIND] = {
    "r.runtime",
    "(SELECT m.value FROM run_metrics m WHERE m.run_id = r.id AND m.name = $2)",
    "(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = $2)",
    ("$2::float8 / nullif(r.runtime, 0) / (CASE WHEN $3::bigint <> 0 THEN "
     "c.nprocs::float8 ELSE 1.0::float8 END)"),
};
enum { P_SUMS, P_SPREAD1, P_SPREAD2, P_NTH, NPASS };
static char agg_sql[NPASS][NKIND][768];
static pthread_once_t fit_once = PTHREAD_ONCE_INIT;

static void make_fit_sql(void)
{
    int k;
    for (k = 0; k < NKIND; k++) {
        char v[512];
        int a = kind_params[k] + 1, b = kind_params[k] + 2;
        snprintf(v, sizeof v,
                 "(SELECT c.id AS cid, %s AS y FROM run_configs c JOIN runs r ON "
                 "r.config_id = c.id WHERE c.id = ANY($1::bigint[])) v",
                 kind_y[k]);
        snprintf(agg_sql[P_SUMS][k], sizeof agg_sql[P_SUMS][k],
                 "SELECT cid, count(y), sum(y), min(y), max(y) FROM %s GROUP BY cid", v);
        snprintf(agg_sql[P_SPREAD1][k], sizeof agg_sql[P_SPREAD1][k],
                 "SELECT sum((y - $%d::float8) * (y - $%d::float8)) FROM %s", a, a, v);
        snprintf(agg_sql[P_SPREAD2][k], sizeof agg_sql[P_SPREAD2][k],
                 "SELECT sum((y - $%d::float8) * (y - $%d::float8)), "
                 "sum((y - $%d::float8) * (y - $%d::float8)) FROM %s",
                 a, a, b, b, v);
        snprintf(agg_sql[P_NTH][k], sizeof agg_sql[P_NTH][k],
                 "SELECT y FROM %s WHERE y IS NOT NULL ORDER BY y LIMIT $%d::bigint "
                 "OFFSET $%d::bigint",
                 v, a, b);
    }
}

/* Runs pass `pass` of y's kind over the n configurations ids (every stride
 * bytes), with the pass's own text parameters p1, p2 (NULL: none). */
static PGresult *fit_query(db *d, int pass, const struct db_fit_y *y,
                           const long long *ids, size_t stride, size_t n, const char *p1,
                           const char *p2, struct err *err)
{
    const char *values[5];
    char scale[40], per[8];
    struct buf b;
    PGresult *r;
    int kind, k = 0;
    size_t i;

    if ((unsigned)y->y > DB_SEL_KERNEL) {
        err_set(err, 500, "internal", NULL, "unknown kind of y");
        return NULL;
    }
    pthread_once(&fit_once, make_fit_sql);
    kind = y->y == DB_SEL_RUNTIME  ? (y->scaled ? K_SCALED : K_RUNTIME)
           : y->y == DB_SEL_METRIC ? K_METRIC
                                   : K_KERNEL;
    buf_init(&b, 32 * n + 16);
    buf_putc(&b, '{');
    for (i = 0; i < n; i++)
        buf_printf(&b, "%s%lld", i ? "," : "",
                   *(const long long *)(const void *)((const char *)ids + i * stride));
    buf_putc(&b, '}');
    if (buf_failed(&b)) {
        buf_free(&b);
        err_nomem(err);
        return NULL;
    }
    values[k++] = buf_str(&b);
    if (kind == K_METRIC || kind == K_KERNEL)
        values[k++] = y->name ? y->name : "";
    if (kind == K_SCALED) {
        snprintf(scale, sizeof scale, "%.17g", y->scale);
        snprintf(per, sizeof per, "%d", y->per_proc != 0);
        values[k++] = scale;
        values[k++] = per;
    }
    if (p1)
        values[k++] = p1;
    if (p2)
        values[k++] = p2;
    r = pg_params_text(d, agg_sql[pass][kind], k, values, err);
    buf_free(&b);
    return r;
}

int pg_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err)
{
    PGresult *r;
    size_t i, k = 0;
    int row;

    for (i = 0; i < n; i++) {
        sums[i].n = 0;
        sums[i].sum = sums[i].min = sums[i].max = 0;
    }
    if (n == 0)
        return 0;
    r = fit_query(d, P_SUMS, y, &sums[0].config, sizeof *sums, n, NULL, NULL, err);
    if (r == NULL)
        return -1;
    for (row = 0; row < PQntuples(r); row++) {
        long long id = pg_ll(r, row, 0);
        size_t t;
        for (t = 0; t < n && sums[(k + t) % n].config != id; t++)
            ;
        if (t == n)
            continue;
        k = (k + t) % n;
        sums[k].n = (size_t)pg_ll(r, row, 1);
        sums[k].sum = pg_dbl(r, row, 2);
        sums[k].min = pg_dbl(r, row, 3);
        sums[k].max = pg_dbl(r, row, 4);
    }
    PQclear(r);
    return 0;
}

int pg_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err)
{
    int one = memcmp(&mean, &center, sizeof mean) == 0;
    char m[40], c[40];
    PGresult *r;

    *ss_mean = *ss_center = 0;
    snprintf(m, sizeof m, "%.17g", mean);
    snprintf(c, sizeof c, "%.17g", center);
    r = fit_query(d, one ? P_SPREAD1 : P_SPREAD2, y, configs, sizeof *configs, nconfig, m,
                  one ? NULL : c, err);
    if (r == NULL)
        return -1;
    if (PQntuples(r) > 0) {
        *ss_mean = pg_dbl(r, 0, 0);
        *ss_center = one ? *ss_mean : pg_dbl(r, 0, 1);
    }
    PQclear(r);
    return 0;
}

int pg_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err)
{
    int got, want = two ? 2 : 1, i;
    char lim[8], off[32];
    PGresult *r;

    snprintf(lim, sizeof lim, "%d", want);
    snprintf(off, sizeof off, "%zu", k);
    r = fit_query(d, P_NTH, y, configs, sizeof *configs, nconfig, lim, off, err);
    if (r == NULL)
        return -1;
    got = PQntuples(r) < want ? PQntuples(r) : want;
    for (i = 0; i < got; i++)
        v[i] = pg_dbl(r, i, 0);
    PQclear(r);
    if (got < want)
        return err_set(err, 422, "degenerate", NULL,
                       "the runs changed while the fit read them; fit again");
    return 0;
}

/* Coupling: $1 application id, $2 system id, $3 executable or NULL, $4 nprocs
 * or -1, $5 the limit. */
static const char couple_runs_sql[] =
    "SELECT r.id, r.nprocs, r.runtime FROM runs r JOIN executables e ON e.id = r.exe_id "
    "WHERE r.app_id = $1 AND r.system_id = $2 AND ($3::text IS NULL OR e.name = $3) "
    "AND ($4::bigint < 0 OR r.nprocs = $4) AND r.runtime IS NOT NULL ORDER BY r.id "
    "LIMIT $5";
static const char couple_inputs_sql[] =
    "SELECT i.run_id, i.name, i.value FROM run_inputs i JOIN runs r ON r.id = i.run_id "
    "JOIN executables e ON e.id = r.exe_id WHERE r.app_id = $1 AND r.system_id = $2 "
    "AND ($3::text IS NULL OR e.name = $3) AND ($4::bigint < 0 OR r.nprocs = $4) AND "
    "$5::bigint >= 0 ORDER BY i.run_id, i.name";
static const char couple_kernels_sql[] =
    "SELECT k.run_id, k.seq, k.name, k.time FROM kernels k JOIN runs r ON r.id = "
    "k.run_id JOIN executables e ON e.id = r.exe_id WHERE r.app_id = $1 AND "
    "r.system_id = $2 AND ($3::text IS NULL OR e.name = $3) AND ($4::bigint < 0 OR "
    "r.nprocs = $4) ORDER BY k.run_id, k.seq LIMIT $5";

enum couple_part { CP_RUNS, CP_INPUTS, CP_KERNELS };

static const char *dup(arena *a, const PGresult *r, int row, int col)
{
    return arena_strndup(a, PQgetvalue(r, row, col), (size_t)PQgetlength(r, row, col));
}

/* Runs one of the three statements and stores its rows in the arena. A
 * limit of 0 (the inputs) is no limit. */
static int couple_part(db *d, const struct db_sel_couple *q, enum couple_part part,
                       long long limit, arena *a, struct db_couple_rows *out,
                       struct err *err)
{
    static const char *const sql[] = {couple_runs_sql, couple_inputs_sql,
                                      couple_kernels_sql};
    PGresult *r = pg_params(d, sql[part], err, "iitii", q->app_id, q->sys_id,
                            q->executable, q->nprocs, limit);
    size_t n, i;

    if (r == NULL)
        return -1;
    n = (size_t)PQntuples(r);
    if (part == CP_RUNS) {
        struct db_couple_run *v = arena_alloc(a, (n ? n : 1) * sizeof *v);
        if (v == NULL)
            goto nomem;
        for (i = 0; i < n; i++) {
            v[i].id = pg_ll(r, (int)i, 0);
            v[i].nprocs = pg_dbl(r, (int)i, 1);
            v[i].runtime = pg_dbl(r, (int)i, 2);
        }
        out->runs = v;
        out->nruns = n;
    } else if (part == CP_INPUTS) {
        struct db_couple_input *v = arena_alloc(a, (n ? n : 1) * sizeof *v);
        if (v == NULL)
            goto nomem;
        for (i = 0; i < n; i++) {
            v[i].run_id = pg_ll(r, (int)i, 0);
            v[i].name = dup(a, r, (int)i, 1);
            v[i].value = pg_dbl(r, (int)i, 2);
            if (v[i].name == NULL)
                goto nomem;
        }
        out->inputs = v;
        out->ninputs = n;
    } else {
        struct db_couple_kernel *v = arena_alloc(a, (n ? n : 1) * sizeof *v);
        if (v == NULL)
            goto nomem;
        for (i = 0; i < n; i++) {
            v[i].run_id = pg_ll(r, (int)i, 0);
            v[i].seq = pg_ll(r, (int)i, 1);
            v[i].name = dup(a, r, (int)i, 2);
            v[i].time = pg_dbl(r, (int)i, 3);
            if (v[i].name == NULL)
                goto nomem;
        }
        out->kernels = v;
        out->nkernels = n;
    }
    PQclear(r);
    return 0;
nomem:
    PQclear(r);
    return err_nomem(err);
}

int pg_select_couple(db *d, const struct db_sel_couple *q, arena *a,
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
