/* select: the measurement selection over PostgreSQL; see db/select.h (the
 * same selections as db/sqlite/select.c). */
#include "db/select.h"
#include "common/arena.h"
#include "common/xalloc.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

#include <stdlib.h>
#include <string.h>

/* The inputs of each run as one JSON object. */
#define SEL_INPUTS                                                                       \
    "(SELECT json_object_agg(name, value) FROM run_inputs WHERE run_id = r.id)"

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
    [DB_SEL_RUNTIME] = "SELECT r.id, r.nprocs, r.runtime, " SEL_INPUTS FIT_WHERE
                       " AND $4::text IS NULL ORDER BY r.id LIMIT $5",
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
    "AND k.name = $3)) "
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

static char *object_text(json_t *o, struct err *err)
{
    json_t *empty = o ? NULL : json_object();
    char *t = json_dumps(o ? o : empty, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(empty);
    if (t == NULL)
        err_nomem(err);
    return t;
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
    if ((inputs = object_text(q->inputs, err)) == NULL)
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
    if ((ranges = object_text(q->ranges, err)) == NULL)
        return -1;
    r = pg_params(d, overlay_sql, err, "tttiiti", q->application, q->system, q->kernel,
                  q->np_lo, q->np_hi, ranges, (long long)q->limit);
    free(ranges);
    if (r == NULL)
        return -1;
    return read_rows(r, q->limit, out, err);
}

/* Coupling: $1 application id, $2 system id, $3 executable or NULL, $4 nprocs
 * or -1, $5 the limit. */
static const char couple_runs_sql[] =
    "SELECT r.id, r.nprocs, r.runtime FROM runs r JOIN executables e ON e.id = r.exe_id "
    "WHERE r.app_id = $1 AND r.system_id = $2 AND ($3::text IS NULL OR e.name = $3) "
    "AND ($4::bigint < 0 OR r.nprocs = $4) ORDER BY r.id LIMIT $5";
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
