/* runs: run storage on PostgreSQL; see db/runs.h.
 *
 * Several servers may store into one database at once, so nothing here reads
 * and then writes on the strength of what it read: names are created with
 * INSERT ... ON CONFLICT DO NOTHING and read back, and a run with a client id
 * is inserted with ON CONFLICT (uid) DO NOTHING, which waits for a concurrent
 * insert of the same id to commit and then finds it (the repeat is compared
 * with the stored run, as on SQLite). Listing builds its WHERE clause from a
 * fixed set of variants, each a prepared statement with its own parameters.
 *
 * Storing is pipelined (insert_pipelined below). Measured with bench_ingest
 * --db ... --runs 1000 --clients 2 --sync normal against the unpipelined
 * store in the same run (2026-11-29, 2 cores at load 13-18, so the libpq
 * ceilings themselves were depressed and only the side-by-side figures
 * mean much): batches of 1,000 183 vs 139 and 323 vs 220 runs/s, server CPU
 * 62.5 vs 156-169 us a run; single-run POSTs 217 vs 140 and 435 vs 407
 * runs/s, 220 vs 260-280 us a run.
 */
#include "db/runs.h"
#include "common/buf.h"
#include "common/xalloc.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"
#include "db/summary.h"
#include "formats/limits.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SQL_UID_SEL[] = "SELECT id FROM runs WHERE uid = $1";
/* A run with its inputs, metrics, kernels, tags and its configuration's
 * summary in one statement, so that the statements of a batch go out
 * pipelined without waiting for each other (db_runs_insert below): each set
 * of children goes in as one JSON parameter that a data-modifying CTE
 * unpacks. A client id stored already (another server's, or earlier in the
 * batch) inserts nothing and returns no row. The configuration key ($17) is
 * db_inputs_key's text. */
static const char SQL_RUN_INS[] =
    "WITH r AS (INSERT INTO runs (uid, app_id, exe_id, system_id, nprocs, runtime, "
    "started_at, submitter, created_at, vcs_commit, vcs_branch, at_ms) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "
    "ON CONFLICT (uid) DO NOTHING RETURNING id, app_id, exe_id, system_id, nprocs, "
    "runtime), "
    "i AS (INSERT INTO run_inputs (run_id, name, value) SELECT r.id, key, "
    "value::float8 FROM r, jsonb_each_text($13::jsonb)), "
    "m AS (INSERT INTO run_metrics (run_id, name, value) SELECT r.id, key, "
    "value::float8 FROM r, jsonb_each_text($14::jsonb)), "
    "k AS (INSERT INTO kernels (run_id, seq, name, time, calls, metrics) SELECT r.id, "
    "x.ord - 1, x.e ->> 'name', (x.e ->> 'time')::float8, (x.e ->> 'calls')::bigint, "
    "x.e ->> 'metrics' FROM r, jsonb_array_elements($15::jsonb) WITH ORDINALITY "
    "x(e, ord)), "
    "t AS (INSERT INTO run_tags (run_id, key, value) SELECT r.id, key, value FROM r, "
    "jsonb_each_text($16::jsonb)), "
    "c AS (INSERT INTO run_configs (app_id, exe_id, system_id, nprocs, inputs, runs, "
    "sum_runtime, min_runtime, max_runtime, last_run_id, timed) "
    "SELECT r.app_id, r.exe_id, r.system_id, r.nprocs, $17, 1, coalesce(r.runtime, 0), "
    "r.runtime, r.runtime, r.id, (r.runtime IS NOT NULL)::int FROM r "
    "ON CONFLICT (app_id, exe_id, system_id, nprocs, inputs) DO UPDATE SET "
    "runs = run_configs.runs + 1, timed = run_configs.timed + excluded.timed, "
    "sum_runtime = run_configs.sum_runtime + excluded.sum_runtime, "
    "min_runtime = least(run_configs.min_runtime, excluded.min_runtime), "
    "max_runtime = greatest(run_configs.max_runtime, excluded.max_runtime), "
    "last_run_id = greatest(run_configs.last_run_id, excluded.last_run_id)) "
    "SELECT id FROM r";
/* The run's configuration id, once the statement above made the
 * configuration (a statement does not see its own CTEs' rows): the run is
 * the last one this session numbered (currval; no row when its client id
 * was stored already; a subquery, so that the primary key finds it). */
static const char SQL_RUN_CONFIG[] =
    "UPDATE runs SET config_id = c.id FROM run_configs c WHERE "
    "runs.id = (SELECT currval(pg_get_serial_sequence('runs', 'id'))) AND c.app_id = $1 "
    "AND "
    "c.exe_id = $2 AND c.system_id = $3 AND c.nprocs = $4 AND c.inputs = $5";

static json_t *kvs_json(const struct rec_kv *kv, size_t n)
{
    json_t *o = json_object();
    size_t i;
    for (i = 0; o && i < n; i++)
        if (json_object_set_new(o, kv[i].name, json_real(kv[i].value)) != 0) {
            json_decref(o);
            return NULL;
        }
    return o;
}

/* The four JSON texts of a run's inputs, metrics, kernels and tags (numbers
 * with 17 significant digits, so the stored doubles are the sent ones), to
 * free with free(). 0, or -1 with err set. */
static int children_text(const struct run_record *r, char *txt[4], struct err *err)
{
    json_t *in = kvs_json(r->inputs, r->ninputs),
           *met = kvs_json(r->metrics, r->nmetrics);
    json_t *ker = json_array(), *tags = json_object();
    int ok = in && met && ker && tags, i;
    size_t k;

    for (i = 0; i < 4; i++)
        txt[i] = NULL;
    for (k = 0; ok && k < r->nkernels; k++) {
        const struct rec_kernel *kr = &r->kernels[k];
        json_t *o =
            json_pack("{s:s, s:f, s:I, s:s?}", "name", kr->name, "time", kr->time,
                      "calls", (json_int_t)kr->calls, "metrics", kr->metrics_json);
        ok = o != NULL && json_array_append_new(ker, o) == 0;
    }
    for (k = 0; ok && k < r->ntags; k++)
        ok =
            json_object_set_new(tags, r->tags[k].key, json_string(r->tags[k].value)) == 0;
    if (ok) {
        json_t *v[4] = {in, met, ker, tags};
        for (i = 0; i < 4; i++)
            ok = ok && (txt[i] = json_dumps(v[i], JSON_COMPACT |
                                                      JSON_REAL_PRECISION(17))) != NULL;
    }
    json_decref(in);
    json_decref(met);
    json_decref(ker);
    json_decref(tags);
    if (!ok) {
        for (i = 0; i < 4; i++)
            free(txt[i]);
        return err_nomem(err);
    }
    return 0;
}

/* A repeat of a stored client id: the same content is the same run; other
 * content is a client bug that must not pass silently. */
static int repeat(db *d, long long id, const struct run_record *r, struct err *err)
{
    int same = db_run_same(d, id, r, err);
    if (same < 0)
        return -1;
    if (!same)
        return err_set(err, 409, "conflict", "id",
                       "run id %s is already stored with different content", r->uid);
    return 0;
}

/* The runs of one pipeline: at most this many go out before their results
 * are read (each is two statements and a few hundred bytes each way, well
 * within the sockets' buffers, so that neither side waits on the other). */
#define PIPE_RUNS 64
#define RUN_PARAMS 17

/* One run's parameters as text (NULL for NULL), owned by a. */
struct sent {
    const char *v[RUN_PARAMS];
    char *children[4];
};

static const char *num(arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *num(arena *a, const char *fmt, ...)
{
    char t[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    return arena_strdup(a, t);
}

static int params(arena *a, const struct db_resolved *c, const struct run_record *r,
                  const char *now, struct sent *s, struct err *err)
{
    struct rec_kv sorted[LIMIT_INPUTS];
    struct buf key;

    if (r->ninputs > LIMIT_INPUTS)
        return err_set(err, 500, "internal", NULL, "too many inputs");
    if (children_text(r, s->children, err) != 0)
        return -1;
    if (r->ninputs)
        memcpy(sorted, r->inputs, r->ninputs * sizeof *sorted);
    buf_init(&key, 64 * 1024);
    db_inputs_key(sorted, r->ninputs, &key);
    s->v[0] = r->uid;
    s->v[1] = num(a, "%lld", c->app_id);
    s->v[2] = num(a, "%lld", c->exe_id);
    s->v[3] = num(a, "%lld", c->sys_id);
    s->v[4] = num(a, "%lld", (long long)r->nprocs);
    s->v[5] = RUN_HAS_RUNTIME(r->runtime) ? num(a, "%.17g", r->runtime) : NULL;
    s->v[6] = r->started_at;
    s->v[7] = r->submitter ? r->submitter : "";
    s->v[8] = now;
    s->v[9] = r->commit;
    s->v[10] = r->branch;
    s->v[11] = num(a, "%lld", db_run_at(r->started_at, now));
    s->v[12] = s->children[0];
    s->v[13] = s->children[1];
    s->v[14] = s->children[2];
    s->v[15] = s->children[3];
    s->v[16] = buf_failed(&key) ? NULL : arena_strdup(a, buf_str(&key));
    buf_free(&key);
    for (int i = 1; i < RUN_PARAMS; i++)
        if (s->v[i] == NULL && i != 6 && i != 9 && i != 10 &&
            !(i == 5 && !RUN_HAS_RUNTIME(r->runtime)))
            return err_nomem(err);
    return 0;
}

/* Reads one statement's result in the pipeline: its rows' first value in
 * *id (1 with a row, 0 without), or -1 after recording the first failure in
 * err (*failed). Consumes the NULL that ends the statement's results. */
static int pipe_result(db *d, long long *id, int *failed, struct err *err)
{
    PGresult *r = PQgetResult(pg_conn(d)), *more;
    ExecStatusType st;
    int rc = 0;

    if (r == NULL)
        return -1;
    st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK && PQntuples(r) > 0) {
        *id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        rc = 1;
    } else if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        rc = -1;
        if (!*failed && st != PGRES_PIPELINE_ABORTED) {
            *failed = 1;
            pg_fail(d, r, err); /* clears r */
            r = NULL;
        }
    }
    PQclear(r);
    while ((more = PQgetResult(pg_conn(d))) != NULL)
        PQclear(more);
    return rc;
}

/* Stores up to PIPE_RUNS runs: names resolved first (few, and cached), then
 * every run's two statements sent in one pipeline and the results read
 * after one sync; a client id found stored already is then compared with
 * the stored run, as a repeat. */
static int insert_pipelined(db *d, struct db_resolved *c, const struct run_record *runs,
                            size_t n, const char *now, long long *ids, int *existed,
                            struct err *err)
{
    struct sent s[PIPE_RUNS];
    const char *ins, *cfg;
    PGconn *conn = pg_conn(d);
    arena *a = arena_new();
    size_t i, k, made = 0;
    int rc = -1, failed = 0, sent = 0;

    if (a == NULL)
        return err_nomem(err);
    memset(s, 0, sizeof s);
    for (i = 0; i < n; i++) {
        existed[i] = 0;
        if (db_resolve(d, c, &runs[i], err) != 0 ||
            params(a, c, &runs[i], now, &s[i], err) != 0)
            goto out;
        made = i + 1;
    }
    ins = pg_prepared(d, SQL_RUN_INS, err);
    cfg = ins ? pg_prepared(d, SQL_RUN_CONFIG, err) : NULL;
    if (cfg == NULL)
        goto out;
    if (!PQenterPipelineMode(conn)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        const char *const v2[5] = {s[i].v[1], s[i].v[2], s[i].v[3], s[i].v[4],
                                   s[i].v[16]};
        if (!PQsendQueryPrepared(conn, ins, RUN_PARAMS, s[i].v, NULL, NULL, 0) ||
            !PQsendQueryPrepared(conn, cfg, 5, v2, NULL, NULL, 0))
            break;
        sent += 2;
    }
    if (!PQpipelineSync(conn))
        sent = -1;
    for (i = 0; (int)i < sent; i++) {
        long long id = 0;
        int got = pipe_result(d, &id, &failed, err);
        if (i % 2 == 0) {
            ids[i / 2] = got == 1 ? id : 0;
            existed[i / 2] = got == 0;
        }
    }
    /* the sync's own result, then out of pipeline mode */
    for (k = 0; k < 4; k++) {
        PGresult *r = PQgetResult(conn);
        int sync = r != NULL && PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (sync)
            break;
    }
    if (!PQexitPipelineMode(conn) && !failed) {
        failed = 1;
        pg_fail(d, NULL, err);
    }
    if (failed)
        goto out;
    if (sent != (int)(2 * n)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        if (!existed[i])
            continue;
        if (pg_scalar(d, &ids[i], SQL_UID_SEL, err, "t", runs[i].uid) <= 0) {
            err_set(err, 500, "database", NULL, "database error: run id %s vanished",
                    runs[i].uid);
            goto out;
        }
        if (repeat(d, ids[i], &runs[i], err) != 0)
            goto out;
    }
    rc = 0;
out:
    for (i = 0; i < made; i++)
        for (k = 0; k < 4; k++)
            free(s[i].children[k]);
    arena_free(a);
    return rc;
}

int pg_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    struct db_resolved c = {0};
    char now[32];
    size_t i;

    db_now(now);
    for (i = 0; i < n; i += PIPE_RUNS)
        if (insert_pipelined(d, &c, runs + i, n - i < PIPE_RUNS ? n - i : PIPE_RUNS, now,
                             ids + i, existed + i, err) != 0)
            return -1;
    return 0;
}

/* ---- reading ---------------------------------------------------------- */

enum {
    F_APP = 1,
    F_EXE = 2,
    F_SYS = 4,
    F_NP = 8,
    F_COMMIT = 16,
    F_BRANCH = 32,
    F_TAG = 64,
    NVARIANT = 128
};

static char *variants[NVARIANT];
static pthread_once_t variants_once = PTHREAD_ONCE_INIT;

/* A variant numbers only the parameters it uses, in the order bind_filter
 * passes them: application, executable, system, nprocs, commit, branch, tag
 * key and value, then the cursor and the limit. */
static void make_variants(void)
{
    int m;
    for (m = 0; m < NVARIANT; m++) {
        struct buf b;
        int k = 1;
        buf_init(&b, 4096);
        buf_puts(&b, "SELECT r.id, r.uid, a.name, e.name, s.name, r.nprocs, r.runtime, "
                     "r.started_at, r.submitter, r.created_at, r.vcs_commit, "
                     "r.vcs_branch FROM runs r JOIN applications a ON a.id = r.app_id "
                     "JOIN executables e ON e.id = r.exe_id "
                     "JOIN systems s ON s.id = r.system_id WHERE true");
        if (m & F_APP)
            buf_printf(&b,
                       " AND r.app_id = (SELECT id FROM applications WHERE name = $%d)",
                       k++);
        if (m & F_EXE) {
            if (m & F_APP)
                buf_printf(&b,
                           " AND r.exe_id = (SELECT x.id FROM executables x JOIN "
                           "applications y ON y.id = x.app_id WHERE y.name = $1 AND "
                           "x.name = $%d)",
                           k++);
            else
                buf_printf(
                    &b, " AND r.exe_id IN (SELECT id FROM executables WHERE name = $%d)",
                    k++);
        }
        if (m & F_SYS)
            buf_printf(&b, " AND r.system_id = (SELECT id FROM systems WHERE name = $%d)",
                       k++);
        if (m & F_NP)
            buf_printf(&b, " AND r.nprocs = $%d::bigint", k++);
        if (m & F_COMMIT)
            buf_printf(&b, " AND r.vcs_commit = $%d", k++);
        if (m & F_BRANCH)
            buf_printf(&b, " AND r.vcs_branch = $%d", k++);
        if (m & F_TAG) {
            buf_printf(&b,
                       " AND r.id IN (SELECT run_id FROM run_tags WHERE key = $%d AND "
                       "value = $%d)",
                       k, k + 1);
            k += 2;
        }
        buf_printf(&b, " AND r.id > $%d::bigint ORDER BY r.id LIMIT $%d::bigint", k,
                   k + 1);
        variants[m] = buf_detach(&b, NULL);
    }
}

static const char *variant(const struct db_run_filter *f)
{
    int m = 0;
    pthread_once(&variants_once, make_variants);
    if (f->application)
        m |= F_APP;
    if (f->executable)
        m |= F_EXE;
    if (f->system)
        m |= F_SYS;
    if (f->nprocs > 0)
        m |= F_NP;
    if (f->commit)
        m |= F_COMMIT;
    if (f->branch)
        m |= F_BRANCH;
    if (f->tag_key && f->tag_value)
        m |= F_TAG;
    return variants[m];
}

static const char *dup(arena *a, const PGresult *r, int row, int col)
{
    const char *t = pg_text(r, row, col);
    return t ? arena_strndup(a, t, (size_t)PQgetlength(r, row, col)) : NULL;
}

static void read_row(const PGresult *r, int i, arena *a, struct db_run_row *row)
{
    struct run_record *run = &row->run;
    memset(row, 0, sizeof *row);
    row->id = pg_ll(r, i, 0);
    run->uid = dup(a, r, i, 1);
    run->application = dup(a, r, i, 2);
    run->executable = dup(a, r, i, 3);
    run->system = dup(a, r, i, 4);
    run->nprocs = pg_ll(r, i, 5);
    run->runtime = pg_opt_dbl(r, i, 6);
    run->started_at = dup(a, r, i, 7);
    run->submitter = dup(a, r, i, 8);
    row->created_at = dup(a, r, i, 9);
    run->commit = dup(a, r, i, 10);
    run->branch = dup(a, r, i, 11);
}

/* The children of a page of runs (ids ascending) in four statements, not
 * four per run: each reads every run's rows ordered by run id, then as the
 * single-run reads order them, and each run takes its stretch. */
static const char SQL_INPUTS_MANY[] = "SELECT run_id, name, value FROM run_inputs WHERE "
                                      "run_id = ANY($1::bigint[]) ORDER BY run_id, name";
static const char SQL_METRICS_MANY[] =
    "SELECT run_id, name, value FROM run_metrics WHERE "
    "run_id = ANY($1::bigint[]) ORDER BY run_id, name";
static const char SQL_KERNELS_MANY[] =
    "SELECT run_id, name, time, calls, metrics FROM kernels WHERE "
    "run_id = ANY($1::bigint[]) ORDER BY run_id, seq";
static const char SQL_TAGS_MANY[] = "SELECT run_id, key, value FROM run_tags WHERE "
                                    "run_id = ANY($1::bigint[]) ORDER BY run_id, key";

enum child { C_INPUTS, C_METRICS, C_KERNELS, C_TAGS };

/* Stores rows [from, to) of r (all of run `row`) as the run's children. */
static int take_children(const PGresult *r, int from, int to, enum child kind, arena *a,
                         struct db_run_row *row, struct err *err)
{
    struct run_record *run = &row->run;
    size_t n = (size_t)(to - from), i;
    if (kind == C_INPUTS || kind == C_METRICS) {
        struct rec_kv *kv = arena_alloc(a, (n ? n : 1) * sizeof *kv);
        if (kv == NULL)
            return err_nomem(err);
        for (i = 0; i < n; i++) {
            kv[i].name = dup(a, r, from + (int)i, 1);
            kv[i].value = pg_dbl(r, from + (int)i, 2);
        }
        if (kind == C_INPUTS) {
            run->inputs = n ? kv : NULL;
            run->ninputs = n;
        } else {
            run->metrics = n ? kv : NULL;
            run->nmetrics = n;
        }
    } else if (kind == C_KERNELS) {
        struct rec_kernel *k = arena_alloc(a, (n ? n : 1) * sizeof *k);
        if (k == NULL)
            return err_nomem(err);
        for (i = 0; i < n; i++) {
            k[i].name = dup(a, r, from + (int)i, 1);
            k[i].time = pg_dbl(r, from + (int)i, 2);
            k[i].calls = pg_ll(r, from + (int)i, 3);
            k[i].metrics_json = dup(a, r, from + (int)i, 4);
        }
        run->kernels = n ? k : NULL;
        run->nkernels = n;
    } else {
        run->tags = arena_alloc(a, LIMIT_TAGS * sizeof *run->tags);
        if (run->tags == NULL)
            return err_nomem(err);
        for (i = 0; i < n && i < LIMIT_TAGS; i++) {
            run->tags[i].key = dup(a, r, from + (int)i, 1);
            run->tags[i].value = dup(a, r, from + (int)i, 2);
        }
        run->ntags = i;
    }
    return 0;
}

static int read_children_many(db *d, arena *a, struct db_run_row *rows, int n,
                              struct err *err)
{
    static const char *const sql[] = {SQL_INPUTS_MANY, SQL_METRICS_MANY, SQL_KERNELS_MANY,
                                      SQL_TAGS_MANY};
    long long *ids;
    struct buf list;
    int kind, i;

    if (n == 0)
        return 0;
    if ((ids = arena_alloc(a, (size_t)n * sizeof *ids)) == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++)
        ids[i] = rows[i].id;
    buf_init(&list, 32 * (size_t)n + 16);
    pg_id_array(ids, (size_t)n, &list);
    if (buf_failed(&list)) {
        buf_free(&list);
        return err_nomem(err);
    }
    for (kind = C_INPUTS; kind <= C_TAGS; kind++) {
        PGresult *r = pg_params(d, sql[kind], err, "t", buf_str(&list));
        int nr, at = 0;
        if (r == NULL) {
            buf_free(&list);
            return -1;
        }
        nr = PQntuples(r);
        for (i = 0; i < n; i++) { /* both in ascending run id */
            int end;
            while (at < nr && pg_ll(r, at, 0) < rows[i].id)
                at++;
            for (end = at; end < nr && pg_ll(r, end, 0) == rows[i].id; end++)
                ;
            if (take_children(r, at, end, (enum child)kind, a, &rows[i], err) != 0) {
                PQclear(r);
                buf_free(&list);
                return -1;
            }
            at = end;
        }
        PQclear(r);
    }
    buf_free(&list);
    return 0;
}

int pg_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err)
{
    int limit = f->limit > 0 && f->limit <= 1000 ? f->limit : 100;
    const char *values[12];
    char np[24], after[24], lim[24];
    struct db_run_row *out;
    PGresult *r;
    int n = 0, k = 0, i;

    *rows = NULL;
    if (f->application)
        values[k++] = f->application;
    if (f->executable)
        values[k++] = f->executable;
    if (f->system)
        values[k++] = f->system;
    if (f->nprocs > 0) {
        snprintf(np, sizeof np, "%lld", f->nprocs);
        values[k++] = np;
    }
    if (f->commit)
        values[k++] = f->commit;
    if (f->branch)
        values[k++] = f->branch;
    if (f->tag_key && f->tag_value) {
        values[k++] = f->tag_key;
        values[k++] = f->tag_value;
    }
    snprintf(after, sizeof after, "%lld", f->after);
    snprintf(lim, sizeof lim, "%d", limit);
    values[k++] = after;
    values[k++] = lim;
    out = arena_alloc(a, (size_t)limit * sizeof *out);
    if (out == NULL)
        return err_nomem(err);
    r = pg_params_text(d, variant(f), k, values, err);
    if (r == NULL)
        return -1;
    for (i = 0; i < PQntuples(r) && n < limit; i++)
        read_row(r, i, a, &out[n++]);
    PQclear(r);
    if (read_children_many(d, a, out, n, err) != 0)
        return -1;
    *rows = out;
    return n;
}
