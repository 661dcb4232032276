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
 *
 * A batch adds to each configuration's summary and to its application's
 * kernel and metric names once (add_sums), and a run is inserted with its
 * configuration id: the database's CPU per run (bench/pg_ingest_cpu.py, which
 * reads the backends' CPU from /proc, same data, load 10-13, 2026-11-29):
 * batches of 1,000 1,700-1,705 us before, 356 us after; single runs
 * 1,590-1,595 us before, 1,085 us after.
 */
#include "db/runs.h"
#include "common/buf.h"
#include "common/xalloc.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"
#include "db/summary.h"
#include "formats/limits.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SQL_UID_SEL[] = "SELECT id FROM runs WHERE uid = $1";
/* A run with its inputs, metrics, kernels and tags in one statement, so that
 * the statements of a batch go out pipelined without waiting for each other
 * (insert_pipelined below): each set of children goes in as one JSON
 * parameter that a data-modifying CTE unpacks. A client id stored already
 * (another server's, or earlier in the batch) inserts nothing and returns no
 * row. The run's configuration ($17 is db_inputs_key's text) exists already:
 * SQL_CFG_ENSURE goes first in the same pipeline, so the run is inserted with
 * its config_id (setting it afterwards rewrote every run row and all ten of
 * its index entries). */
#define RUN_INS_HEAD                                                                     \
    "WITH r AS (INSERT INTO runs (uid, app_id, exe_id, system_id, nprocs, runtime, "     \
    "started_at, submitter, created_at, vcs_commit, vcs_branch, at_ms, config_id) "      \
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, (SELECT id FROM "        \
    "run_configs WHERE app_id = $2 AND exe_id = $3 AND system_id = $4 AND nprocs = $5 "  \
    "AND inputs = $17)) ON CONFLICT (uid) DO NOTHING RETURNING id, config_id, "          \
    "runtime), "                                                                         \
    "i AS (INSERT INTO run_inputs (run_id, name, value) SELECT r.id, key, "              \
    "value::float8 FROM r, jsonb_each_text($13::jsonb)), "                               \
    "m AS (INSERT INTO run_metrics (run_id, name, value) SELECT r.id, key, "             \
    "value::float8 FROM r, jsonb_each_text($14::jsonb)), "                               \
    "k AS (INSERT INTO kernels (run_id, seq, name, time, calls, metrics) SELECT r.id, "  \
    "x.ord - 1, x.e ->> 'name', (x.e ->> 'time')::float8, (x.e ->> 'calls')::bigint, "   \
    "x.e ->> 'metrics' FROM r, jsonb_array_elements($15::jsonb) WITH ORDINALITY "        \
    "x(e, ord)), "                                                                       \
    "t AS (INSERT INTO run_tags (run_id, key, value) SELECT r.id, key, value FROM r, "   \
    "jsonb_each_text($16::jsonb))"
/* In a batch the caller adds the runs to their configurations' summaries
 * once per configuration (SQL_CFG_ADD): a row updated once per run within one
 * transaction keeps every version until the transaction ends, and each
 * further update then walks them all (1,000 runs of one configuration in a
 * batch grew quadratically, and the dead versions slowed later batches too). */
static const char SQL_RUN_INS[] = RUN_INS_HEAD " SELECT id FROM r";
/* A single run adds itself to its configuration's summary and its kernels'
 * and metrics' names to its application's (app_kernels, app_metrics: kept
 * here since migration 16, not by a trigger per row). */
static const char SQL_RUN_INS_ONE[] = RUN_INS_HEAD
    ", ak AS (INSERT INTO app_kernels (app_id, name, records, first_seq) "
    "SELECT $2, x.e ->> 'name', count(*), min(x.ord - 1) FROM r, "
    "jsonb_array_elements($15::jsonb) WITH ORDINALITY x(e, ord) "
    "GROUP BY x.e ->> 'name' ORDER BY 2 ON CONFLICT (app_id, name) DO UPDATE "
    "SET records = app_kernels.records + excluded.records, "
    "first_seq = least(app_kernels.first_seq, excluded.first_seq)), "
    "am AS (INSERT INTO app_metrics (app_id, name) SELECT $2, key FROM r, "
    "jsonb_object_keys($14::jsonb) key ORDER BY 2 ON CONFLICT DO NOTHING), "
    "c AS (UPDATE run_configs SET runs = run_configs.runs + 1, "
    "timed = run_configs.timed + (r.runtime IS NOT NULL)::int, "
    "sum_runtime = run_configs.sum_runtime + coalesce(r.runtime, 0), "
    "min_runtime = least(run_configs.min_runtime, r.runtime), "
    "max_runtime = greatest(run_configs.max_runtime, r.runtime), "
    "last_run_id = greatest(run_configs.last_run_id, r.id) FROM r "
    "WHERE run_configs.id = r.config_id) SELECT id FROM r";
/* The kernels' and metrics' names of a batch's new runs ($1, an array of
 * their ids) added to their applications' (app_kernels, app_metrics), once
 * per name and batch: the trigger per kernel row that did this before
 * migration 16 updated one app_kernels row per run of the batch, each
 * update walking the versions the earlier ones left (2/3 of the database's
 * CPU a run in batches of 1,000). In name order, so that two servers lock
 * the rows in the same order. */
static const char SQL_APP_KERNELS_ADD[] =
    "INSERT INTO app_kernels (app_id, name, records, first_seq) "
    "SELECT r.app_id, k.name, count(*), min(k.seq) FROM kernels k JOIN runs r ON "
    "r.id = k.run_id WHERE k.run_id = ANY ($1::bigint[]) GROUP BY r.app_id, k.name "
    "ORDER BY 1, 2 ON CONFLICT (app_id, name) DO UPDATE SET "
    "records = app_kernels.records + excluded.records, "
    "first_seq = least(app_kernels.first_seq, excluded.first_seq)";
static const char SQL_APP_METRICS_ADD[] =
    "INSERT INTO app_metrics (app_id, name) SELECT DISTINCT r.app_id, m.name FROM "
    "run_metrics m JOIN runs r ON r.id = m.run_id WHERE m.run_id = ANY ($1::bigint[]) "
    "ORDER BY 1, 2 ON CONFLICT DO NOTHING";
/* A configuration, empty until its runs are added: created before the runs
 * that name it, in the same transaction, so no other session sees it empty.
 * Another server creating it at the same time makes this wait for its
 * commit and then insert nothing. */
static const char SQL_CFG_ENSURE[] =
    "INSERT INTO run_configs (app_id, exe_id, system_id, nprocs, inputs, runs, "
    "sum_runtime, last_run_id, timed) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0) "
    "ON CONFLICT (app_id, exe_id, system_id, nprocs, inputs) DO NOTHING";
/* The runs of a batch added to their configuration's summary ($6 runs, $7 of
 * them timed, $8 their runtimes' sum, $9/$10 their least and greatest
 * runtime or NULL, $11 the greatest run id). */
static const char SQL_CFG_ADD[] =
    "UPDATE run_configs SET runs = runs + $6, timed = timed + $7, "
    "sum_runtime = sum_runtime + $8, min_runtime = least(min_runtime, $9::float8), "
    "max_runtime = greatest(max_runtime, $10::float8), "
    "last_run_id = greatest(last_run_id, $11) WHERE app_id = $1 AND exe_id = $2 "
    "AND system_id = $3 AND nprocs = $4 AND inputs = $5";

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
        /* an absent time or count is JSON null, which ->> reads as NULL */
        json_t *o = json_pack(
            "{s:s, s:o, s:o, s:s?}", "name", kr->name, "time",
            KERNEL_HAS_TIME(kr->time) ? json_real(kr->time) : json_null(), "calls",
            KERNEL_HAS_CALLS(kr->calls) ? json_integer(kr->calls) : json_null(),
            "metrics", kr->metrics_json);
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
        return err_set(err, ERR_CONFLICT, "conflict", "id",
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
        return err_set(err, ERR_INTERNAL, "internal", NULL, "too many inputs");
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

/* A configuration named by the runs of one call, and what its new runs add
 * to its summary (SQL_CFG_ADD). Its key texts live in the call's arena. */
struct cfg_sum {
    const char *key[5]; /* app_id, exe_id, system_id, nprocs, inputs key */
    long long runs, timed, last;
    double sum, min, max;
};

struct cfg_sums {
    struct cfg_sum *v;
    size_t n;
    long *slot;  /* open addressing over v by key: index, or -1 */
    size_t mask; /* slots - 1, slots a power of two above twice the runs */
    arena *a;
};

static size_t cfg_hash(const char *const key[5])
{
    size_t h = 1469598103934665603u; /* FNV-1a over the five texts */
    for (int k = 0; k < 5; k++)
        for (const unsigned char *c = (const unsigned char *)key[k]; *c; c++)
            h = (h ^ *c) * 1099511628211u;
    return h;
}

/* The index of the configuration of the run sent as s in sums, added if
 * new (*fresh set); -1 on memory exhaustion. */
static long cfg_find(struct cfg_sums *sums, const struct sent *s, int *fresh)
{
    const char *key[5] = {s->v[1], s->v[2], s->v[3], s->v[4], s->v[16]};
    size_t h = cfg_hash(key) & sums->mask, i;
    int k;

    *fresh = 0;
    for (; sums->slot[h] >= 0; h = (h + 1) & sums->mask) {
        const struct cfg_sum *c = &sums->v[sums->slot[h]];
        for (k = 0; k < 5 && strcmp(c->key[k], key[k]) == 0; k++)
            ;
        if (k == 5)
            return sums->slot[h];
    }
    i = sums->n;
    memset(&sums->v[i], 0, sizeof sums->v[i]);
    for (k = 0; k < 5; k++)
        if ((sums->v[i].key[k] = arena_strdup(sums->a, key[k])) == NULL)
            return -1;
    sums->v[i].min = INFINITY;
    sums->v[i].max = -INFINITY;
    sums->slot[h] = (long)i;
    sums->n++;
    *fresh = 1;
    return (long)i;
}

/* Ends a pipeline: the sync's own result, then out of pipeline mode. */
static void pipe_end(db *d, int *failed, struct err *err)
{
    PGconn *conn = pg_conn(d);
    for (int k = 0; k < 4; k++) {
        PGresult *r = PQgetResult(conn);
        int sync = r != NULL && PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (sync)
            break;
    }
    if (!PQexitPipelineMode(conn) && !*failed) {
        *failed = 1;
        pg_fail(d, NULL, err);
    }
}

/* Stores up to PIPE_RUNS runs: names resolved first (few, and cached), then
 * the configurations first named here and every run sent in one pipeline
 * and the results read after one sync; a client id found stored already is
 * then compared with the stored run, as a repeat. With one run in the call
 * (one) the run adds itself to its configuration's summary; otherwise what
 * the new runs add is gathered in sums for the caller. */
static int insert_pipelined(db *d, struct db_resolved *c, const struct run_record *runs,
                            size_t n, const char *now, int one, struct cfg_sums *sums,
                            long long *ids, int *existed, struct err *err)
{
    struct sent s[PIPE_RUNS];
    long cfg[PIPE_RUNS];
    const char *ins, *ensure;
    PGconn *conn = pg_conn(d);
    arena *a = arena_new();
    size_t i, k, made = 0, nfresh = 0;
    int rc = -1, failed = 0, sent = 0, fresh;

    if (a == NULL)
        return err_nomem(err);
    memset(s, 0, sizeof s);
    for (i = 0; i < n; i++) {
        existed[i] = 0;
        if (db_resolve(d, c, &runs[i], err) != 0 ||
            params(a, c, &runs[i], now, &s[i], err) != 0)
            goto out;
        made = i + 1;
        if ((cfg[i] = cfg_find(sums, &s[i], &fresh)) < 0) {
            err_nomem(err);
            goto out;
        }
        nfresh += (size_t)fresh;
    }
    ins = pg_prepared(d, one ? SQL_RUN_INS_ONE : SQL_RUN_INS, err);
    ensure = ins ? pg_prepared(d, SQL_CFG_ENSURE, err) : NULL;
    if (ensure == NULL)
        goto out;
    if (!PQenterPipelineMode(conn)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    for (i = sums->n - nfresh; i < sums->n; i++, sent++)
        if (!PQsendQueryPrepared(conn, ensure, 5, sums->v[i].key, NULL, NULL, 0))
            break;
    for (i = 0; i < n && sent == (int)(nfresh + i); i++, sent++)
        if (!PQsendQueryPrepared(conn, ins, RUN_PARAMS, s[i].v, NULL, NULL, 0))
            break;
    if (!PQpipelineSync(conn))
        sent = -1;
    for (i = 0; (int)i < sent; i++) {
        long long id = 0;
        int got = pipe_result(d, &id, &failed, err);
        if (i >= nfresh) {
            ids[i - nfresh] = got == 1 ? id : 0;
            existed[i - nfresh] = got == 0;
        }
    }
    pipe_end(d, &failed, err);
    if (failed)
        goto out;
    if (sent != (int)(nfresh + n)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        struct cfg_sum *cs = &sums->v[cfg[i]];
        if (!existed[i]) {
            double rt = runs[i].runtime;
            cs->runs++;
            cs->last = ids[i] > cs->last ? ids[i] : cs->last;
            if (RUN_HAS_RUNTIME(rt)) {
                cs->timed++;
                cs->sum += rt;
                cs->min = fmin(cs->min, rt);
                cs->max = fmax(cs->max, rt);
            }
            continue;
        }
        if (pg_scalar(d, &ids[i], SQL_UID_SEL, err, "t", runs[i].uid) <= 0) {
            err_set(err, ERR_INTERNAL, "database", NULL,
                    "database error: run id %s vanished", runs[i].uid);
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

/* What the new runs of a batch (ids, existed: as db_runs_insert gives them)
 * add to their configurations, one statement per configuration, and to
 * their applications' kernel and metric names, pipelined. */
static int add_sums(db *d, const struct cfg_sums *sums, const long long *ids,
                    const int *existed, size_t n, struct err *err)
{
    PGconn *conn = pg_conn(d);
    const char *upd = pg_prepared(d, SQL_CFG_ADD, err);
    const char *kn = upd ? pg_prepared(d, SQL_APP_KERNELS_ADD, err) : NULL;
    const char *mn = kn ? pg_prepared(d, SQL_APP_METRICS_ADD, err) : NULL;
    struct buf arr;
    arena *a;
    size_t i;
    int failed = 0, sent = 0, want = 2, rc = -1;

    if (mn == NULL)
        return -1;
    if ((a = arena_new()) == NULL)
        return err_nomem(err);
    buf_init(&arr, (size_t)64 << 20);
    buf_puts(&arr, "{");
    for (i = 0; i < n; i++)
        if (!existed[i])
            buf_printf(&arr, "%s%lld", arr.len > 1 ? "," : "", ids[i]);
    buf_puts(&arr, "}");
    if (buf_failed(&arr)) {
        err_nomem(err);
        goto out;
    }
    if (!PQenterPipelineMode(conn)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    {
        const char *v[1] = {buf_str(&arr)};
        if (PQsendQueryPrepared(conn, kn, 1, v, NULL, NULL, 0))
            sent++;
        if (sent == 1 && PQsendQueryPrepared(conn, mn, 1, v, NULL, NULL, 0))
            sent++;
    }
    for (i = 0; i < sums->n; i++) {
        const struct cfg_sum *cs = &sums->v[i];
        const char *v[11];
        if (cs->runs == 0)
            continue;
        want++;
        memcpy(v, cs->key, sizeof cs->key);
        v[5] = num(a, "%lld", cs->runs);
        v[6] = num(a, "%lld", cs->timed);
        v[7] = num(a, "%.17g", cs->sum);
        v[8] = cs->timed ? num(a, "%.17g", cs->min) : NULL;
        v[9] = cs->timed ? num(a, "%.17g", cs->max) : NULL;
        v[10] = num(a, "%lld", cs->last);
        if (v[5] == NULL || v[6] == NULL || v[7] == NULL || v[10] == NULL ||
            (cs->timed && (v[8] == NULL || v[9] == NULL))) {
            failed = 1;
            err_nomem(err);
            break;
        }
        if (sent != want - 1 || !PQsendQueryPrepared(conn, upd, 11, v, NULL, NULL, 0))
            break;
        sent++;
    }
    if (!PQpipelineSync(conn))
        sent = -1;
    for (i = 0; (int)i < sent; i++) {
        long long id;
        pipe_result(d, &id, &failed, err);
    }
    pipe_end(d, &failed, err);
    if (!failed && sent != want)
        pg_fail(d, NULL, err);
    else if (!failed)
        rc = 0;
out:
    buf_free(&arr);
    arena_free(a);
    return rc;
}

int pg_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    struct db_resolved c = {0};
    struct cfg_sums sums = {0};
    char now[32];
    size_t i, slots;
    int rc = -1;

    if (n == 0)
        return 0;
    for (slots = 2; slots < 2 * n; slots <<= 1)
        ;
    sums.mask = slots - 1;
    sums.v = calloc(n, sizeof *sums.v);
    sums.slot = malloc(slots * sizeof *sums.slot);
    sums.a = arena_new();
    if (sums.v == NULL || sums.slot == NULL || sums.a == NULL) {
        err_nomem(err);
        goto out;
    }
    memset(sums.slot, 0xff, slots * sizeof *sums.slot); /* every slot -1: empty */
    db_now(now);
    for (i = 0; i < n; i += PIPE_RUNS)
        if (insert_pipelined(d, &c, runs + i, n - i < PIPE_RUNS ? n - i : PIPE_RUNS, now,
                             n == 1, &sums, ids + i, existed + i, err) != 0)
            goto out;
    rc = n == 1 ? 0 : add_sums(d, &sums, ids, existed, n, err);
out:
    free(sums.v);
    free(sums.slot);
    arena_free(sums.a);
    return rc;
}
