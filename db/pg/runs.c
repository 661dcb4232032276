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
 * What new runs add to their configurations' summaries and to their
 * applications' kernel and metric names is added once per transaction, at
 * its commit, in the COMMIT's own round trip (pg_runs_commit): the writer commits
 * the single-run uploads that queued together in one transaction, and each
 * of them updating the same summary row and the same ten name rows left
 * row versions that the next update walked (bench/pg_ingest_cpu.py with
 * CLIENTS=8 measures the database's CPU per run; docs/operations.md has
 * bench_ingest's figures). A batch's runs are inserted with their configuration
 * id (setting it afterwards rewrote every run row and all ten of its index
 * entries): batches of 1,000 1,700-1,705 us before, 356 us after.
 *
 * The names of the last run stored (application, executable, system) and
 * their ids are kept with the connection, so that a stream of single runs
 * of one application does not look them up each time. An id can only go
 * stale by its row's deletion (ids are never reused): the run's insert then
 * fails on its foreign key, and the failure is given back as "busy" with
 * the names forgotten, so that the writer runs the job again, which looks
 * them up (and creates them again) afresh.
 */
#include "db/runs.h"
#include "common/buf.h"
#include "common/xalloc.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"
#include "db/summary.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SQL_UID_SEL[] = "SELECT id FROM runs WHERE uid = $1";
/* A run with its inputs, metrics, kernels and tags in one statement, so that
 * the statements of a batch go out pipelined without waiting for each other
 * (insert_pipelined below): each field of a set of children goes in as one
 * array parameter ($13 ... $22, children_text) that a data-modifying CTE
 * unnests. They were JSON texts unpacked by jsonb_each_text and
 * jsonb_array_elements, whose parsing and casts cost more of the writer
 * backend's CPU. A client id stored already (another server's, or earlier
 * in the batch) inserts nothing and returns no row. The run's configuration
 * ($23 is db_inputs_key's text) exists already: SQL_CFG_ENSURE goes first in
 * the same pipeline, so the run is inserted with its config_id (setting it
 * afterwards rewrote every run row and all ten of its index entries). */
#define RUN_INS_HEAD                                                                     \
    "WITH r AS (INSERT INTO runs (uid, app_id, exe_id, system_id, nprocs, runtime, "     \
    "started_at, submitter, created_at, vcs_commit, vcs_branch, at_ms, config_id) "      \
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, (SELECT id FROM "        \
    "run_configs WHERE app_id = $2 AND exe_id = $3 AND system_id = $4 AND nprocs = $5 "  \
    "AND inputs = $23)) ON CONFLICT (uid) DO NOTHING RETURNING id), "                    \
    "i AS (INSERT INTO run_inputs (run_id, name, value) SELECT r.id, x.n, x.v FROM r, "  \
    "unnest($13::text[], $14::float8[]) x(n, v)), "                                      \
    "m AS (INSERT INTO run_metrics (run_id, name, value) SELECT r.id, x.n, x.v FROM r, " \
    "unnest($15::text[], $16::float8[]) x(n, v)), "                                      \
    "k AS (INSERT INTO kernels (run_id, seq, name, time, calls, metrics) SELECT r.id, "  \
    "x.o - 1, x.n, x.t, x.c, x.j FROM r, unnest($17::text[], $18::float8[], "            \
    "$19::bigint[], $20::text[]) WITH ORDINALITY x(n, t, c, j, o)), "                    \
    "t AS (INSERT INTO run_tags (run_id, key, value) SELECT r.id, x.k, x.v FROM r, "     \
    "unnest($21::text[], $22::text[]) x(k, v))"
static const char SQL_RUN_INS[] = RUN_INS_HEAD " SELECT id FROM r";
/* What a transaction's new runs ($1, an array of their ids) add to their
 * configurations' summaries, to their kernels' and metrics' names in their
 * applications' (app_kernels, app_metrics), and to the page counts
 * (run_tally, db/tally.h), once per row and transaction: the trigger per
 * kernel row that did this before migration 16 updated one app_kernels row
 * per run, each update walking the versions the earlier ones left (2/3 of
 * the database's CPU a run in batches of 1,000). Rows in key order, so
 * that two servers lock the rows they share in the same order. The runs
 * are looked up one id at a time (LATERAL): "id = ANY ($1)" joined to
 * kernels was planned as a scan of every run (5.4 ms at 18,000 runs for a
 * transaction of two), and so was "id IN (SELECT unnest($1))" while a new
 * table's statistics still call it small. A repeated id counts once. */
#define NEW_RUNS                                                                         \
    "(SELECT DISTINCT unnest($1::bigint[]) AS id) j, LATERAL (SELECT * FROM runs WHERE " \
    "runs.id = j.id) r"
static const char SQL_CFG_ADD[] =
    "UPDATE run_configs c SET runs = c.runs + x.n, timed = c.timed + x.timed, "
    "sum_runtime = c.sum_runtime + x.total, min_runtime = least(c.min_runtime, x.lo), "
    "max_runtime = greatest(c.max_runtime, x.hi), "
    "last_run_id = greatest(c.last_run_id, x.last) FROM (SELECT r.config_id, count(*) AS "
    "n, count(r.runtime) AS timed, coalesce(sum(r.runtime), 0) AS total, min(r.runtime) "
    "AS lo, max(r.runtime) AS hi, max(r.id) AS last FROM " NEW_RUNS
    " GROUP BY r.config_id ORDER BY r.config_id) x WHERE c.id = x.config_id";
static const char SQL_APP_KERNELS_ADD[] =
    "INSERT INTO app_kernels (app_id, name, records, first_seq) "
    "SELECT r.app_id, k.name, count(*), min(k.seq) FROM " NEW_RUNS
    " JOIN kernels k ON k.run_id = r.id GROUP BY r.app_id, k.name "
    "ORDER BY 1, 2 ON CONFLICT (app_id, name) DO UPDATE SET "
    "records = app_kernels.records + excluded.records, "
    "first_seq = least(app_kernels.first_seq, excluded.first_seq)";
static const char SQL_APP_METRICS_ADD[] =
    "INSERT INTO app_metrics (app_id, name) SELECT DISTINCT r.app_id, m.name "
    "FROM " NEW_RUNS
    " JOIN run_metrics m ON m.run_id = r.id ORDER BY 1, 2 ON CONFLICT DO NOTHING";
/* The page counts: each run in three segments (db/tally.h), the runtime's
 * cut as migration 17's backfill computes it, equal to
 * db_tally_runtime_key's (unit.test_pg checks both), rows summed and
 * written in key order. */
#define PG_ADD_FROM(runs)                                                                \
    "WITH r AS (" runs "), "                                                             \
    "x AS (SELECT app_id, exe_id, system_id, runtime, e0 - (power(2::float8, e0) > "     \
    "runtime)::int + (power(2::float8, e0 + 1) <= runtime)::int AS e FROM (SELECT "      \
    "app_id, exe_id, system_id, runtime, floor(ln(greatest(runtime, power(2::float8, "   \
    "-900))) / ln(2::float8))::int AS e0 FROM r WHERE runtime IS NOT NULL) y), "         \
    "t AS (SELECT app_id, 0 AS kind, (id >> 12)::float8 AS k, exe_id, system_id, "       \
    "0::bigint AS blk FROM r "                                                           \
    "UNION ALL SELECT app_id, 1, nprocs::float8, exe_id, system_id, id >> 12 FROM r "    \
    "UNION ALL SELECT app_id, 2, CASE WHEN runtime < power(2::float8, -900) THEN "       \
    "0::float8 ELSE floor(runtime * power(2::float8, 8 - e)) * power(2::float8, e - 8) " \
    "END, exe_id, system_id, 0 FROM x "                                                  \
    "UNION ALL SELECT app_id, 3, 0, exe_id, system_id, id >> 12 FROM r WHERE runtime "   \
    "IS NULL) "                                                                          \
    "INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs) SELECT "      \
    "app_id, kind, k, exe_id, system_id, blk, count(*) FROM t GROUP BY app_id, kind, "   \
    "k, exe_id, system_id, blk ORDER BY app_id, kind, k, exe_id, system_id, blk "        \
    "ON CONFLICT (app_id, kind, k, exe_id, system_id, blk) DO UPDATE SET runs = "        \
    "run_tally.runs + excluded.runs"
static const char SQL_TALLY_ADD[] = PG_ADD_FROM(
    "SELECT r.id, r.app_id, r.exe_id, r.system_id, r.nprocs, r.runtime FROM " NEW_RUNS);
/* How the four statements above are planned, for the rest of the
 * transaction they end (set_config's is_local). Each looks a handful of rows
 * up by key. Left to itself PostgreSQL planned them anew at every commit on a
 * grown database (a generic plan assumes 10 ids, a custom one knows their
 * number): about 30 % of the writer backend's CPU under single-run uploads
 * (perf; bench_ingest --db, 8 clients). On a new database it settled instead
 * on a generic plan made on the nearly empty tables, a hash join over a scan
 * of every run, which stays while the table grows (until the next ANALYZE).
 * Generic, without scans or hash and merge joins, the plan is the index
 * lookups that the custom plans chose at any size, made once per connection
 * (unit.test_pg test_sums_are_planned_once_by_key). */
static const char SQL_SUMS_PLAN[] =
    "SELECT set_config('plan_cache_mode', 'force_generic_plan', true), "
    "set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', "
    "true), set_config('enable_mergejoin', 'off', true)";
/* A configuration, empty until its runs are added: created before the runs
 * that name it, in the same transaction, so no other session sees it empty.
 * Another server creating it at the same time makes this wait for its
 * commit and then insert nothing. */
static const char SQL_CFG_ENSURE[] =
    "INSERT INTO run_configs (app_id, exe_id, system_id, nprocs, inputs, runs, "
    "sum_runtime, last_run_id, timed) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0) "
    "ON CONFLICT (app_id, exe_id, system_id, nprocs, inputs) DO NOTHING";
/* The ten array parameters of a run's children (SQL_RUN_INS's $13 ... $22),
 * each in PostgreSQL's array text form: texts quoted with their quotes and
 * backslashes escaped, numbers in the shortest form that reads back exactly
 * (buf_num), NULL for an absent kernel time, count or metrics. */
enum {
    KID_IN_NAME,
    KID_IN_VALUE,
    KID_MET_NAME,
    KID_MET_VALUE,
    KID_K_NAME,
    KID_K_TIME,
    KID_K_CALLS,
    KID_K_METRICS,
    KID_TAG_KEY,
    KID_TAG_VALUE,
    NKIDS
};

static void arr_sep(struct buf *b)
{
    buf_putc(b, b->len == 0 ? '{' : ',');
}

static void arr_text(struct buf *b, const char *t)
{
    arr_sep(b);
    if (t == NULL) {
        buf_puts(b, "NULL");
        return;
    }
    buf_putc(b, '"');
    for (const char *c = t; *c; c++) {
        if (*c == '"' || *c == '\\')
            buf_putc(b, '\\');
        buf_putc(b, *c);
    }
    buf_putc(b, '"');
}

static void arr_num(struct buf *b, int present, double v)
{
    arr_sep(b);
    if (present)
        buf_num(b, v);
    else
        buf_puts(b, "NULL");
}

static void arr_int(struct buf *b, int present, long long v)
{
    arr_sep(b);
    if (present)
        buf_printf(b, "%lld", v);
    else
        buf_puts(b, "NULL");
}

/* Fills kids[NKIDS] (initialised by the caller) with run r's children. 0, or
 * -1 with err set. */
static int children_text(const struct run_record *r, struct buf kids[NKIDS],
                         struct err *err)
{
    size_t k;
    for (k = 0; k < r->ninputs; k++) {
        arr_text(&kids[KID_IN_NAME], r->inputs[k].name);
        arr_num(&kids[KID_IN_VALUE], 1, r->inputs[k].value);
    }
    for (k = 0; k < r->nmetrics; k++) {
        arr_text(&kids[KID_MET_NAME], r->metrics[k].name);
        arr_num(&kids[KID_MET_VALUE], 1, r->metrics[k].value);
    }
    for (k = 0; k < r->nkernels; k++) {
        const struct rec_kernel *kr = &r->kernels[k];
        arr_text(&kids[KID_K_NAME], kr->name);
        arr_num(&kids[KID_K_TIME], KERNEL_HAS_TIME(kr->time), kr->time);
        arr_int(&kids[KID_K_CALLS], KERNEL_HAS_CALLS(kr->calls), kr->calls);
        arr_text(&kids[KID_K_METRICS], kr->metrics_json);
    }
    for (k = 0; k < r->ntags; k++) {
        arr_text(&kids[KID_TAG_KEY], r->tags[k].key);
        arr_text(&kids[KID_TAG_VALUE], r->tags[k].value);
    }
    for (k = 0; k < NKIDS; k++) {
        buf_puts(&kids[k], kids[k].len == 0 ? "{}" : "}");
        if (buf_failed(&kids[k]))
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
#define RUN_PARAMS 23

/* One run's parameters as text (NULL for NULL), owned by a and kids. */
struct sent {
    const char *v[RUN_PARAMS];
    struct buf kids[NKIDS];
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
    struct buf key;
    int rc;

    for (int k = 0; k < NKIDS; k++)
        buf_init(&s->kids[k], (size_t)64 << 20);
    if (children_text(r, s->kids, err) != 0)
        return -1;
    buf_init(&key, DB_CONFIG_KEY_MAX);
    rc = db_config_key(r->inputs, r->ninputs, &key, err);
    s->v[22] = rc == 0 ? arena_strdup(a, buf_str(&key)) : NULL;
    buf_free(&key);
    if (rc != 0)
        return -1;
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
    for (int k = 0; k < NKIDS; k++)
        s->v[12 + k] = buf_str(&s->kids[k]);
    for (int i = 1; i < RUN_PARAMS; i++)
        if (s->v[i] == NULL && i != 6 && i != 9 && i != 10 &&
            !(i == 5 && !RUN_HAS_RUNTIME(r->runtime)))
            return err_nomem(err);
    return 0;
}

/* Reads one statement's result in the pipeline: its rows' first value in
 * *id (1 with a row, 0 without), or -1 after recording the first failure in
 * err (*failed: 2 for a foreign key violation, else 1). Consumes the NULL
 * that ends the statement's results. */
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
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        rc = -1;
        if (!*failed && st != PGRES_PIPELINE_ABORTED) {
            /* 23503: a foreign key names a row that is not there */
            *failed = state && strcmp(state, "23503") == 0 ? 2 : 1;
            pg_fail(d, r, err); /* clears r */
            r = NULL;
        }
    }
    PQclear(r);
    while ((more = PQgetResult(pg_conn(d))) != NULL)
        PQclear(more);
    return rc;
}

/* The configurations named by the runs of one call, to create each once
 * (SQL_CFG_ENSURE). Their key texts live in the call's arena. */
struct cfg_key {
    const char *key[5]; /* app_id, exe_id, system_id, nprocs, inputs key */
};

struct cfg_keys {
    struct cfg_key *v;
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

/* Adds the configuration of the run sent as s to keys if it is new there
 * (*fresh set). 0, or -1 on memory exhaustion. */
static int cfg_find(struct cfg_keys *keys, const struct sent *s, int *fresh)
{
    const char *key[5] = {s->v[1], s->v[2], s->v[3], s->v[4], s->v[22]};
    size_t h = cfg_hash(key) & keys->mask, i;
    int k;

    *fresh = 0;
    for (; keys->slot[h] >= 0; h = (h + 1) & keys->mask) {
        const struct cfg_key *c = &keys->v[keys->slot[h]];
        for (k = 0; k < 5 && strcmp(c->key[k], key[k]) == 0; k++)
            ;
        if (k == 5)
            return 0;
    }
    i = keys->n;
    for (k = 0; k < 5; k++)
        if ((keys->v[i].key[k] = arena_strdup(keys->a, key[k])) == NULL)
            return -1;
    keys->slot[h] = (long)i;
    keys->n++;
    *fresh = 1;
    return 0;
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

/* What the connection keeps between calls (pg_runs_slot): the ids of the
 * open transaction's new runs, whose sums are added at its commit, with
 * the count at the job's savepoint; and the last names resolved, owned. */
struct pg_runs_state {
    long long *ids;
    size_t n, cap, mark;
    struct db_resolved names;
    char *owned[3]; /* the texts of names.app, .exe, .sys */
};

static struct pg_runs_state *state(db *d)
{
    struct pg_runs_state **slot = pg_runs_slot(d);
    if (*slot == NULL)
        *slot = xcalloc(1, sizeof **slot);
    return *slot;
}

static void forget_names(struct pg_runs_state *s)
{
    for (int k = 0; k < 3; k++) {
        xfree(s->owned[k]);
        s->owned[k] = NULL;
    }
    memset(&s->names, 0, sizeof s->names);
}

void pg_runs_state_free(struct pg_runs_state *s)
{
    if (s == NULL)
        return;
    forget_names(s);
    xfree(s->ids);
    xfree(s);
}

/* Keeps the names c resolved (texts of the caller's runs, or the ones kept
 * already) for the next call; on memory exhaustion keeps none (they are
 * looked up again). */
static void keep_names(struct pg_runs_state *s, const struct db_resolved *c)
{
    const char *text[3] = {c->app, c->exe, c->sys};
    char *copy[3];
    int k, j;

    for (k = 0; k < 3; k++) {
        copy[k] = text[k] == s->owned[k] ? s->owned[k]
                  : text[k]              ? xstrdup(text[k])
                                         : NULL;
        if (copy[k] == NULL) {
            for (j = 0; j < k; j++)
                if (copy[j] != s->owned[j])
                    xfree(copy[j]);
            forget_names(s);
            return;
        }
    }
    for (k = 0; k < 3; k++)
        if (s->owned[k] != copy[k])
            xfree(s->owned[k]);
    s->names = *c;
    s->names.app = s->owned[0] = copy[0];
    s->names.exe = s->owned[1] = copy[1];
    s->names.sys = s->owned[2] = copy[2];
}

/* Stores up to PIPE_RUNS runs: names resolved first (few, and cached), then
 * the configurations first named here and every run sent in one pipeline
 * and the results read after one sync; a client id found stored already is
 * then compared with the stored run, as a repeat. A foreign key violation
 * while c holds names kept from an earlier call (kept) is a kept id whose
 * row was deleted since: it is given back as "busy" with the names
 * forgotten, for the writer to run the job again. */
static int insert_pipelined(db *d, struct db_resolved *c, int kept,
                            const struct run_record *runs, size_t n, const char *now,
                            struct cfg_keys *keys, long long *ids, int *existed,
                            struct err *err)
{
    struct sent s[PIPE_RUNS];
    const char *ins, *ensure;
    PGconn *conn = pg_conn(d);
    arena *a = arena_new();
    size_t i, k, nfresh = 0;
    int rc = -1, failed = 0, sent = 0, fresh, begin;

    if (a == NULL)
        return err_nomem(err);
    memset(s, 0, n * sizeof *s);
    for (i = 0; i < n; i++) {
        existed[i] = 0;
        if (db_resolve(d, c, &runs[i], err) != 0 ||
            params(a, c, &runs[i], now, &s[i], err) != 0)
            goto out;
        if (cfg_find(keys, &s[i], &fresh) != 0) {
            err_nomem(err);
            goto out;
        }
        nfresh += (size_t)fresh;
    }
    ins = pg_prepared(d, SQL_RUN_INS, err);
    ensure = ins ? pg_prepared(d, SQL_CFG_ENSURE, err) : NULL;
    if (ensure == NULL)
        goto out;
    if (!PQenterPipelineMode(conn)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    begin = pg_send_begin(d); /* the transaction's BEGIN, when not sent yet */
    for (i = keys->n - nfresh; begin >= 0 && i < keys->n; i++, sent++)
        if (!PQsendQueryPrepared(conn, ensure, 5, keys->v[i].key, NULL, NULL, 0))
            break;
    for (i = 0; begin >= 0 && i < n && sent == (int)(nfresh + i); i++, sent++)
        if (!PQsendQueryPrepared(conn, ins, RUN_PARAMS, s[i].v, NULL, NULL, 0))
            break;
    if (begin < 0 || !PQpipelineSync(conn))
        sent = begin = -1;
    if (begin == 1) {
        long long none;
        pipe_result(d, &none, &failed, err);
    }
    for (i = 0; (int)i < sent; i++) {
        long long id = 0;
        int got = pipe_result(d, &id, &failed, err);
        if (i >= nfresh) {
            ids[i - nfresh] = got == 1 ? id : 0;
            existed[i - nfresh] = got == 0;
        }
    }
    pipe_end(d, &failed, err);
    if (failed == 2 && kept) {
        forget_names(state(d));
        err_clear(err);
        err_set(err, ERR_UNAVAILABLE, "busy", NULL,
                "database busy: an application, executable or system was deleted "
                "meanwhile");
    }
    if (failed)
        goto out;
    if (sent != (int)(nfresh + n)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        if (!existed[i])
            continue;
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
    for (i = 0; i < n; i++) /* zeroed above: freeing an unused buffer is nothing */
        for (k = 0; k < NKIDS; k++)
            buf_free(&s[i].kids[k]);
    arena_free(a);
    return rc;
}

/* What the runs ids[n] add to their configurations' summaries, to their
 * applications' kernel and metric names and to the page counts (SQL_CFG_ADD
 * and the three after it, planned as SQL_SUMS_PLAN says), pipelined; with
 * commit, the transaction's COMMIT goes in the same round trip (after a
 * failure in the pipeline it is not run). */
static int add_sums(db *d, const long long *ids, size_t n, int commit, struct err *err)
{
    static const char *const sql[5] = {SQL_SUMS_PLAN, SQL_CFG_ADD, SQL_APP_KERNELS_ADD,
                                       SQL_APP_METRICS_ADD, SQL_TALLY_ADD};
    PGconn *conn = pg_conn(d);
    const char *name[5];
    struct buf arr;
    int failed = 0, sent = 0, want = commit ? 6 : 5, rc = -1, k;

    for (k = 0; k < 5; k++)
        if ((name[k] = pg_prepared(d, sql[k], err)) == NULL)
            return -1;
    buf_init(&arr, (size_t)64 << 20);
    pg_id_array(ids, n, &arr);
    if (buf_failed(&arr)) {
        buf_free(&arr);
        return err_nomem(err);
    }
    if (pg_flush_begin(d, err) != 0) { /* none is pending: the runs' insert sent it */
        buf_free(&arr);
        return -1;
    }
    if (!PQenterPipelineMode(conn)) {
        buf_free(&arr);
        return pg_fail(d, NULL, err);
    }
    {
        const char *v[1] = {buf_str(&arr)};
        for (k = 0; k < 5 && sent == k; k++)
            if (PQsendQueryPrepared(conn, name[k], k ? 1 : 0, k ? v : NULL, NULL, NULL,
                                    0))
                sent++;
    }
    if (commit && sent == 5 &&
        PQsendQueryParams(conn, "COMMIT", 0, NULL, NULL, NULL, NULL, 0))
        sent++;
    if (!PQpipelineSync(conn))
        sent = -1;
    for (k = 0; k < sent; k++) {
        long long id;
        pipe_result(d, &id, &failed, err);
    }
    pipe_end(d, &failed, err);
    if (!failed && sent != want)
        pg_fail(d, NULL, err);
    else if (!failed)
        rc = 0;
    buf_free(&arr);
    return rc;
}

int pg_runs_commit(db *d, struct err *err)
{
    struct pg_runs_state *s = *pg_runs_slot(d);
    int rc;
    if (s == NULL || s->n == 0)
        return pg_exec(d, "COMMIT", err);
    rc = add_sums(d, s->ids, s->n, 1, err);
    s->n = s->mark = 0;
    return rc;
}

void pg_runs_txn(db *d, enum pg_txn_event ev)
{
    struct pg_runs_state *s = *pg_runs_slot(d);
    if (s == NULL)
        return;
    switch (ev) {
    case PG_TXN_SAVEPOINT:
        s->mark = s->n;
        break;
    case PG_TXN_ROLLBACK_TO:
        s->n = s->mark;
        forget_names(s); /* names created after the savepoint are gone */
        break;
    case PG_TXN_ROLLBACK:
        forget_names(s);
        s->n = s->mark = 0;
        break;
    case PG_TXN_BEGIN:
        s->n = s->mark = 0;
        break;
    }
}

/* Remembers the new runs among ids[n] for the commit's sums. 0, or -1 on
 * memory exhaustion. */
static int defer_sums(struct pg_runs_state *s, const long long *ids, const int *existed,
                      size_t n, struct err *err)
{
    for (size_t i = 0; i < n; i++) {
        if (existed[i])
            continue;
        if (s->n == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 64;
            long long *v = xrealloc(s->ids, cap * sizeof *v);
            if (v == NULL)
                return err_nomem(err);
            s->ids = v;
            s->cap = cap;
        }
        s->ids[s->n++] = ids[i];
    }
    return 0;
}

int pg_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    struct pg_runs_state *st = state(d);
    struct db_resolved c;
    struct cfg_keys keys = {0};
    char now[32];
    size_t i, slots;
    int rc = -1, kept;

    if (n == 0)
        return 0;
    if (st == NULL)
        return err_nomem(err);
    c = st->names;
    kept = c.app != NULL;
    for (slots = 2; slots < 2 * n; slots <<= 1)
        ;
    keys.mask = slots - 1;
    keys.v = calloc(n, sizeof *keys.v);
    keys.slot = malloc(slots * sizeof *keys.slot);
    keys.a = arena_new();
    if (keys.v == NULL || keys.slot == NULL || keys.a == NULL) {
        err_nomem(err);
        goto out;
    }
    memset(keys.slot, 0xff, slots * sizeof *keys.slot); /* every slot -1: empty */
    db_now(now);
    for (i = 0; i < n; i += PIPE_RUNS)
        if (insert_pipelined(d, &c, kept, runs + i, n - i < PIPE_RUNS ? n - i : PIPE_RUNS,
                             now, &keys, ids + i, existed + i, err) != 0)
            goto out;
    keep_names(st, &c);
    /* In a transaction the sums wait for its commit; alone, the runs'
     * pipeline committed already and the sums follow at once. */
    rc = defer_sums(st, ids, existed, n, err);
    if (rc == 0 && PQtransactionStatus(pg_conn(d)) != PQTRANS_INTRANS && st->n > 0) {
        rc = add_sums(d, st->ids, st->n, 0, err);
        st->n = st->mark = 0;
    }
out:
    free(keys.v);
    free(keys.slot);
    arena_free(keys.a);
    return rc;
}
