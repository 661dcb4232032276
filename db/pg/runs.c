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
 * its commit, in the COMMIT's own round trip (pg_runs_commit), summed in C from
 * what the store inserted (keep_run, sums_text): the writer commits
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
#include "db/tally.h"

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
 * afterwards rewrote every run row and all ten of its index entries); it
 * comes back with the run's id, for the commit's sums (keep_run). */
#define RUN_INS_HEAD                                                                     \
    "WITH r AS (INSERT INTO runs (uid, app_id, exe_id, system_id, nprocs, runtime, "     \
    "started_at, submitter, created_at, vcs_commit, vcs_branch, at_ms, config_id) "      \
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, (SELECT id FROM "        \
    "run_configs WHERE app_id = $2 AND exe_id = $3 AND system_id = $4 AND nprocs = $5 "  \
    "AND inputs = $23)) ON CONFLICT (uid) DO NOTHING RETURNING id, config_id), "         \
    "i AS (INSERT INTO run_inputs (run_id, name, value) SELECT r.id, x.n, x.v FROM r, "  \
    "unnest($13::text[], $14::float8[]) x(n, v)), "                                      \
    "m AS (INSERT INTO run_metrics (run_id, name, value) SELECT r.id, x.n, x.v FROM r, " \
    "unnest($15::text[], $16::float8[]) x(n, v)), "                                      \
    "k AS (INSERT INTO kernels (run_id, seq, name, time, calls, metrics) SELECT r.id, "  \
    "x.o - 1, x.n, x.t, x.c, x.j FROM r, unnest($17::text[], $18::float8[], "            \
    "$19::bigint[], $20::text[]) WITH ORDINALITY x(n, t, c, j, o)), "                    \
    "t AS (INSERT INTO run_tags (run_id, key, value) SELECT r.id, x.k, x.v FROM r, "     \
    "unnest($21::text[], $22::text[]) x(k, v))"
static const char SQL_RUN_INS[] = RUN_INS_HEAD " SELECT id, config_id FROM r";
/* What a transaction's new runs add to their configurations' summaries, to
 * their kernels' and metrics' names in their applications' (app_kernels,
 * app_metrics), and to the page counts (run_tally, db/tally.h), once per
 * row and transaction: the trigger per kernel row that did this before
 * migration 16 updated one app_kernels row per run, each update walking the
 * versions the earlier ones left (2/3 of the database's CPU a run in
 * batches of 1,000). The rows come summed already, as arrays (sums_text
 * below adds up what the store inserted): the statements read no run,
 * kernel or metric row. They read them again before, one run at a time, at
 * about 775 us a transaction of four single runs, a third of the writer
 * backend's time (bench/paging.md). The rows are in key order, so that two
 * servers lock the rows they share in the same order. */
static const char SQL_CFG_ADD[] =
    "UPDATE run_configs c SET runs = c.runs + x.n, timed = c.timed + x.timed, "
    "sum_runtime = c.sum_runtime + x.total, min_runtime = least(c.min_runtime, x.lo), "
    "max_runtime = greatest(c.max_runtime, x.hi), "
    "last_run_id = greatest(c.last_run_id, x.last) FROM unnest($1::bigint[], "
    "$2::bigint[], $3::bigint[], $4::float8[], $5::float8[], $6::float8[], "
    "$7::bigint[]) x(id, n, timed, total, lo, hi, last) WHERE c.id = x.id";
static const char SQL_APP_KERNELS_ADD[] =
    "INSERT INTO app_kernels (app_id, name, records, first_seq) "
    "SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[]) "
    "ON CONFLICT (app_id, name) DO UPDATE SET "
    "records = app_kernels.records + excluded.records, "
    "first_seq = least(app_kernels.first_seq, excluded.first_seq)";
static const char SQL_APP_METRICS_ADD[] =
    "INSERT INTO app_metrics (app_id, name) SELECT * FROM unnest($1::bigint[], "
    "$2::text[]) ON CONFLICT DO NOTHING";
/* The page counts: each run in three segments (db/tally.h), its rows as
 * db_tally_rows_of makes them (migration 17's backfill cuts the runtimes
 * in SQL the same way; unit.test_pg checks both), summed. */
static const char SQL_TALLY_ADD[] =
    "INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs) "
    "SELECT * FROM unnest($1::bigint[], $2::int[], $3::float8[], $4::bigint[], "
    "$5::bigint[], $6::bigint[], $7::bigint[]) "
    "ON CONFLICT (app_id, kind, k, exe_id, system_id, blk) DO UPDATE SET runs = "
    "run_tally.runs + excluded.runs";
/* How the four statements above are planned, for the rest of the
 * transaction they end (set_config's is_local). Each writes a handful of
 * rows found by key. When they still read the new runs, PostgreSQL planned
 * them anew at every commit on a grown database (a generic plan assumes 10
 * ids, a custom one knows their number): about 30 % of the writer backend's
 * CPU under single-run uploads (perf; bench_ingest --db, 8 clients); on a
 * new database it settled instead on a generic plan made on the nearly
 * empty tables, a hash join over a scan of every run, which stayed while
 * the table grew. From arrays, the three inserts turn generic by
 * themselves after five executions (their plans have nothing to choose),
 * but the UPDATE of run_configs, a join, is still planned anew at every
 * commit of fewer than 10 configurations (20 commits: 20 custom plans) and
 * would turn generic, on whatever the table's size then is, under batches
 * of more. pgbench, the four statements of 4 runs with and without this
 * one before them: 0.646 / 0.621 and 0.539 / 0.522 ms (the same within
 * noise), so it stays: generic, without scans or hash and merge joins, the
 * UPDATE's plan is the index lookups, made once per connection (unit.test_pg
 * test_sums_are_planned_once_by_key). */
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

static void arr_end(struct buf *b)
{
    buf_puts(b, b->len == 0 ? "{}" : "}");
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
        arr_end(&kids[k]);
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

/* Reads one statement's result in the pipeline: its first row's first
 * value in v[0] and second, when it has one and it is not NULL, in v[1]
 * (1 with a row, 0 without), or -1 after recording the first failure in err
 * (*failed: 2 for a foreign key violation, else 1). Consumes the NULL that
 * ends the statement's results. */
static int pipe_result(db *d, long long v[2], int *failed, struct err *err)
{
    PGresult *r = PQgetResult(pg_conn(d)), *more;
    ExecStatusType st;
    int rc = 0;

    if (r == NULL)
        return -1;
    st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK && PQntuples(r) > 0) {
        v[0] = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        if (PQnfields(r) > 1 && !PQgetisnull(r, 0, 1))
            v[1] = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
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

/* A new run of the open transaction, as the commit's sums need it: its
 * kernels' names (with their ordinals in the run) and then its metrics'
 * names are the state's labels[label .. label + nkern + nmet), their texts
 * in its text from offset text on. */
struct new_run {
    long long id, config_id, app_id, exe_id, sys_id, nprocs;
    double runtime; /* NAN: none */
    size_t label, nkern, nmet, text;
};

struct run_label {
    size_t off;    /* of the name in the state's text */
    long long seq; /* a kernel's ordinal in its run (kernels.seq); -1: a metric */
};

/* What the connection keeps between calls (pg_runs_slot): the open
 * transaction's new runs, whose sums are added at its commit, with their
 * count at the job's savepoint (mark); and the last names resolved, owned. */
struct pg_runs_state {
    struct new_run *runs;
    size_t n, cap, mark;
    struct run_label *labels;
    size_t nlabels, labels_cap;
    char *text;
    size_t ntext, text_cap;
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
    xfree(s->runs);
    xfree(s->labels);
    xfree(s->text);
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

/* Forgets the new runs from the n-th on, with their names. */
static void keep_first(struct pg_runs_state *s, size_t n)
{
    if (n >= s->n)
        return;
    s->nlabels = s->runs[n].label;
    s->ntext = s->runs[n].text;
    s->n = n;
    if (s->mark > n)
        s->mark = n;
}

/* Adds a name to s's labels and text; 0, or -1 on memory exhaustion. */
static int keep_label(struct pg_runs_state *s, const char *name, long long seq)
{
    size_t len = strlen(name) + 1;
    if (xgrow((void **)&s->labels, &s->labels_cap, s->nlabels + 1, sizeof *s->labels) ||
        xgrow((void **)&s->text, &s->text_cap, s->ntext + len, 1))
        return -1;
    memcpy(s->text + s->ntext, name, len);
    s->labels[s->nlabels++] = (struct run_label){s->ntext, seq};
    s->ntext += len;
    return 0;
}

/* Keeps what new run r, stored as id in configuration config_id (0 for
 * none) with the ids c resolved, adds to the commit's sums. 0, or -1 on
 * memory exhaustion (then nothing of it is kept). */
static int keep_run(struct pg_runs_state *s, const struct run_record *r, long long id,
                    long long config_id, const struct db_resolved *c)
{
    struct new_run *nr;
    size_t k;
    if (xgrow((void **)&s->runs, &s->cap, s->n + 1, sizeof *s->runs))
        return -1;
    nr = &s->runs[s->n];
    *nr = (struct new_run){id,          config_id,   c->app_id,  c->exe_id,
                           c->sys_id,   r->nprocs,   r->runtime, s->nlabels,
                           r->nkernels, r->nmetrics, s->ntext};
    if (!RUN_HAS_RUNTIME(r->runtime))
        nr->runtime = NAN;
    for (k = 0; k < r->nkernels; k++)
        if (keep_label(s, r->kernels[k].name, (long long)k) != 0)
            goto fail;
    for (k = 0; k < r->nmetrics; k++)
        if (keep_label(s, r->metrics[k].name, -1) != 0)
            goto fail;
    s->n++;
    return 0;
fail:
    s->nlabels = nr->label;
    s->ntext = nr->text;
    return -1;
}

/* Stores up to PIPE_RUNS runs: names resolved first (few, and cached), then
 * the configurations first named here and every run sent in one pipeline
 * and the results read after one sync; a client id found stored already is
 * then compared with the stored run, as a repeat. A foreign key violation
 * while c holds names kept from an earlier call (kept) is a kept id whose
 * row was deleted since: it is given back as "busy" with the names
 * forgotten, for the writer to run the job again. The new runs are kept
 * in the connection's state for the commit's sums (keep_run). */
static int insert_pipelined(db *d, struct db_resolved *c, int kept,
                            const struct run_record *runs, size_t n, const char *now,
                            struct cfg_keys *keys, long long *ids, int *existed,
                            struct err *err)
{
    struct sent s[PIPE_RUNS];
    struct db_resolved res[PIPE_RUNS]; /* each run's ids */
    long long cfg[PIPE_RUNS];          /* each run's config_id */
    const char *ins, *ensure, *version;
    PGconn *conn = pg_conn(d);
    arena *a = arena_new();
    size_t i, k, nfresh = 0;
    int rc = -1, failed = 0, sent = 0, fresh, begin, wv;

    if (a == NULL)
        return err_nomem(err);
    memset(s, 0, n * sizeof *s);
    for (i = 0; i < n; i++) {
        existed[i] = 0;
        if (db_resolve(d, c, &runs[i], err) != 0 ||
            params(a, c, &runs[i], now, &s[i], err) != 0)
            goto out;
        res[i] = *c;
        if (cfg_find(keys, &s[i], &fresh) != 0) {
            err_nomem(err);
            goto out;
        }
        nfresh += (size_t)fresh;
    }
    ins = pg_prepared(d, SQL_RUN_INS, err);
    ensure = ins ? pg_prepared(d, SQL_CFG_ENSURE, err) : NULL;
    version = ensure ? pg_prepared(d, DB_SQL_WATCHES_VERSION, err) : NULL;
    if (version == NULL)
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
    /* The transaction's watch version, which the ingest hooks ask next, in
     * the same round trip (db_watches_version_seen; core/ingest.c asks
     * after the runs went in): a round trip fewer a transaction. Single-run
     * POSTs, bench_ingest --db --repeat 3 against the tree before in the
     * same run, twice on the 2 cores: 1,567 -> 1,709 and 1,838 -> 2,114
     * runs/s (+9 %, +15 %). */
    wv = begin >= 0 && sent == (int)(nfresh + n) && db_watches_version_wanted(d) &&
         PQsendQueryPrepared(conn, version, 0, NULL, NULL, NULL, 0);
    if (begin < 0 || !PQpipelineSync(conn))
        sent = begin = wv = -1;
    if (begin == 1) {
        long long none[2];
        pipe_result(d, none, &failed, err);
    }
    for (i = 0; (int)i < sent; i++) {
        long long v[2] = {0, 0};
        int got = pipe_result(d, v, &failed, err);
        if (i >= nfresh) {
            ids[i - nfresh] = got == 1 ? v[0] : 0;
            cfg[i - nfresh] = v[1];
            existed[i - nfresh] = got == 0;
        }
    }
    if (wv == 1) {
        long long v[2] = {0, 0};
        if (pipe_result(d, v, &failed, err) == 1 && !failed)
            db_watches_version_seen(d, v[0]);
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
    for (i = 0; i < n; i++) /* what the new ones add, for the commit's sums */
        if (!existed[i] && keep_run(state(d), &runs[i], ids[i], cfg[i], &res[i]) != 0) {
            err_nomem(err);
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

/* ---- the commit's sums ------------------------------------------------- */

/* The array parameters of the commit's four statements, in their order. */
enum {
    P_CFG_ID, /* SQL_CFG_ADD */
    P_CFG_N,
    P_CFG_TIMED,
    P_CFG_TOTAL,
    P_CFG_LO,
    P_CFG_HI,
    P_CFG_LAST,
    P_K_APP, /* SQL_APP_KERNELS_ADD */
    P_K_NAME,
    P_K_RECORDS,
    P_K_FIRST,
    P_M_APP, /* SQL_APP_METRICS_ADD */
    P_M_NAME,
    P_T_APP, /* SQL_TALLY_ADD */
    P_T_KIND,
    P_T_K,
    P_T_EXE,
    P_T_SYS,
    P_T_BLK,
    P_T_RUNS,
    NPARAMS
};

static int cmp_ll(long long a, long long b)
{
    return (a > b) - (a < b);
}

static int by_config_then_id(const void *pa, const void *pb)
{
    const struct new_run *a = *(const struct new_run *const *)pa;
    const struct new_run *b = *(const struct new_run *const *)pb;
    int c = cmp_ll(a->config_id, b->config_id);
    return c ? c : cmp_ll(a->id, b->id);
}

/* Each configuration's part of the sums: the runs u[n] (in id order, one
 * configuration's) counted, their runtimes added in id order and their
 * least, greatest and last id, into the arrays of SQL_CFG_ADD. */
static void config_sums(const struct new_run *const *u, size_t n, struct buf p[NPARAMS])
{
    long long timed = 0;
    double total = 0, lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
        double rt = u[i]->runtime;
        if (isnan(rt))
            continue;
        lo = timed == 0 || rt < lo ? rt : lo;
        hi = timed == 0 || rt > hi ? rt : hi;
        total += rt;
        timed++;
    }
    arr_int(&p[P_CFG_ID], 1, u[0]->config_id);
    arr_int(&p[P_CFG_N], 1, (long long)n);
    arr_int(&p[P_CFG_TIMED], 1, timed);
    arr_num(&p[P_CFG_TOTAL], 1, total);
    arr_num(&p[P_CFG_LO], timed > 0, lo);
    arr_num(&p[P_CFG_HI], timed > 0, hi);
    arr_int(&p[P_CFG_LAST], 1, u[n - 1]->id);
}

/* The names v[n] (kernels' and metrics', db_names_sum's) summed by key,
 * one row a name into SQL_APP_KERNELS_ADD's arrays (with records and
 * first_seq) or SQL_APP_METRICS_ADD's; the number of each in rows[0], [1]. */
static void name_rows(struct db_name_row *v, size_t n, struct buf p[NPARAMS],
                      size_t rows[2])
{
    size_t i, m = db_names_sum(v, n);
    rows[0] = rows[1] = 0;
    for (i = 0; i < m; i++) {
        int kernel = v[i].seq >= 0;
        arr_int(&p[kernel ? P_K_APP : P_M_APP], 1, v[i].app_id);
        arr_text(&p[kernel ? P_K_NAME : P_M_NAME], v[i].name);
        if (kernel) {
            arr_int(&p[P_K_RECORDS], 1, v[i].rows);
            arr_int(&p[P_K_FIRST], 1, v[i].seq);
        }
        rows[!kernel]++;
    }
}

/* What the new runs kept in s add to the sums, summed in C as the
 * statements' array parameters p[NPARAMS] (initialised by the caller),
 * each set in key order, and the number of rows of each statement in
 * rows[4]. A run kept twice (the same id) counts once. 0, or -1 with err
 * set. */
static int sums_text(const struct pg_runs_state *s, struct buf p[NPARAMS], size_t rows[4],
                     struct err *err)
{
    const struct new_run **u = xmalloc((s->n ? s->n : 1) * sizeof *u);
    struct db_name_row *names = NULL;
    struct db_tally_row *t = NULL;
    size_t i, j, k, n = 0, nn = 0;
    int rc = -1;

    if (u == NULL)
        return err_nomem(err);
    for (i = 0; i < s->n; i++)
        u[i] = &s->runs[i];
    qsort(u, s->n, sizeof *u, by_config_then_id);
    for (i = 0; i < s->n; i++)
        if (n == 0 || u[n - 1]->id != u[i]->id)
            u[n++] = u[i];
    for (i = 0; i < n; i++)
        nn += u[i]->nkern + u[i]->nmet;
    names = xmalloc((nn ? nn : 1) * sizeof *names);
    t = xmalloc((n ? 3 * n : 1) * sizeof *t);
    if (names == NULL || t == NULL) {
        err_nomem(err);
        goto out;
    }
    rows[0] = 0;
    for (i = 0; i < n; i = j) { /* the runs of each configuration */
        for (j = i + 1; j < n && u[j]->config_id == u[i]->config_id; j++)
            ;
        if (u[i]->config_id > 0) { /* (a stored run always names one) */
            config_sums(u + i, j - i, p);
            rows[0]++;
        }
    }
    for (i = 0, nn = 0; i < n; i++) {
        const struct new_run *r = u[i];
        const struct run_label *l = s->labels + r->label;
        for (k = 0; k < r->nkern + r->nmet; k++)
            names[nn++] =
                (struct db_name_row){r->app_id, s->text + l[k].off, l[k].seq, 1};
        db_tally_rows_of(r->id, r->app_id, r->exe_id, r->sys_id, r->nprocs, r->runtime,
                         t + 3 * i);
    }
    name_rows(names, nn, p, rows + 1);
    rows[3] = db_tally_sum_rows(t, 3 * n);
    for (i = 0; i < rows[3]; i++) {
        arr_int(&p[P_T_APP], 1, t[i].app_id);
        arr_int(&p[P_T_KIND], 1, t[i].kind);
        arr_num(&p[P_T_K], 1, t[i].k);
        arr_int(&p[P_T_EXE], 1, t[i].exe_id);
        arr_int(&p[P_T_SYS], 1, t[i].system_id);
        arr_int(&p[P_T_BLK], 1, t[i].blk);
        arr_int(&p[P_T_RUNS], 1, t[i].runs);
    }
    rc = 0;
    for (k = 0; k < NPARAMS; k++) {
        arr_end(&p[k]);
        if (buf_failed(&p[k]) && rc == 0)
            rc = err_nomem(err);
    }
out:
    xfree(u);
    xfree(names);
    xfree(t);
    return rc;
}

/* What the new runs kept in st add to their configurations' summaries, to
 * their applications' kernel and metric names and to the page counts
 * (SQL_CFG_ADD and the three after it, those with rows, planned as
 * SQL_SUMS_PLAN says), pipelined; with commit, the transaction's COMMIT
 * goes in the same round trip (after a failure in the pipeline it is not
 * run). */
static int add_sums(db *d, const struct pg_runs_state *st, int commit, struct err *err)
{
    static const char *const sql[5] = {SQL_SUMS_PLAN, SQL_CFG_ADD, SQL_APP_KERNELS_ADD,
                                       SQL_APP_METRICS_ADD, SQL_TALLY_ADD};
    static const int first[5] = {0, P_CFG_ID, P_K_APP, P_M_APP, P_T_APP};
    static const int nparams[5] = {0, P_K_APP - P_CFG_ID, P_M_APP - P_K_APP,
                                   P_T_APP - P_M_APP, NPARAMS - P_T_APP};
    PGconn *conn = pg_conn(d);
    const char *name[5], *v[NPARAMS];
    struct buf p[NPARAMS];
    size_t rows[5] = {1}; /* the settings' statement always goes */
    int failed = 0, queued = 0, want = 0, rc = -1, k;

    for (k = 0; k < NPARAMS; k++)
        buf_init(&p[k], (size_t)64 << 20);
    if (sums_text(st, p, rows + 1, err) != 0)
        goto out;
    for (k = 0; k < 5; k++)
        if ((name[k] = pg_prepared(d, sql[k], err)) == NULL)
            goto out;
    for (k = 0; k < NPARAMS; k++)
        v[k] = buf_str(&p[k]);
    if (pg_flush_begin(d, err) != 0) /* none is pending: the runs' insert sent it */
        goto out;
    if (!PQenterPipelineMode(conn)) {
        pg_fail(d, NULL, err);
        goto out;
    }
    for (k = 0; k < 5; k++)
        if (rows[k] > 0 && queued == want++ &&
            PQsendQueryPrepared(conn, name[k], nparams[k],
                                nparams[k] ? v + first[k] : NULL, NULL, NULL, 0))
            queued++;
    if (commit && queued == want++ &&
        PQsendQueryParams(conn, "COMMIT", 0, NULL, NULL, NULL, NULL, 0))
        queued++;
    if (!PQpipelineSync(conn))
        queued = -1;
    for (k = 0; k < queued; k++) {
        long long none[2];
        pipe_result(d, none, &failed, err);
    }
    pipe_end(d, &failed, err);
    if (!failed && queued != want)
        pg_fail(d, NULL, err);
    else if (!failed)
        rc = 0;
out:
    for (k = 0; k < NPARAMS; k++)
        buf_free(&p[k]);
    return rc;
}

int pg_runs_commit(db *d, struct err *err)
{
    struct pg_runs_state *s = *pg_runs_slot(d);
    int rc;
    if (s == NULL || s->n == 0)
        return pg_exec(d, "COMMIT", err);
    rc = add_sums(d, s, 1, err);
    keep_first(s, 0);
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
        keep_first(s, s->mark);
        forget_names(s); /* names created after the savepoint are gone */
        break;
    case PG_TXN_ROLLBACK:
        forget_names(s);
        keep_first(s, 0);
        break;
    case PG_TXN_BEGIN:
        keep_first(s, 0);
        break;
    }
}

int pg_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    struct pg_runs_state *st = state(d);
    struct db_resolved c;
    struct cfg_keys keys = {0};
    char now[32];
    size_t i, slots, before;
    int rc = -1, kept;

    if (n == 0)
        return 0;
    if (st == NULL)
        return err_nomem(err);
    before = st->n; /* the new runs kept for the sums before this call */
    c = st->names;
    kept = c.app != NULL;
    for (slots = 2; slots < 2 * n; slots <<= 1)
        ;
    keys.mask = slots - 1;
    keys.v = xcalloc(n, sizeof *keys.v);
    keys.slot = xmalloc(slots * sizeof *keys.slot);
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
    rc = 0;
    if (PQtransactionStatus(pg_conn(d)) != PQTRANS_INTRANS && st->n > 0) {
        rc = add_sums(d, st, 0, err);
        keep_first(st, 0);
    }
out:
    if (rc != 0) /* a failed call's runs are not kept for the sums */
        keep_first(st, before);
    xfree(keys.v);
    xfree(keys.slot);
    arena_free(keys.a);
    return rc;
}
