/* benchpg: see benchpg.h. */
#include "bench/lib/benchpg.h"
#include "bench/lib/benchlib.h"
#include "db/db.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message; /* "database ... does not exist, skipping" and the like */
}

static PGconn *connect_to(const char *uri)
{
    PGconn *c = PQconnectdb(uri);
    PQsetNoticeProcessor(c, quiet, NULL);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "bench: cannot connect to %s: %s", uri, PQerrorMessage(c));
        exit(1);
    }
    return c;
}

static void must(PGconn *c, PGresult *r, ExecStatusType want, const char *what)
{
    if (r == NULL || PQresultStatus(r) != want) {
        fprintf(stderr, "bench: %s: %s", what, PQerrorMessage(c));
        exit(1);
    }
    PQclear(r);
}

/* Appends s percent-encoded (RFC 3986 unreserved characters kept). */
static void pct(char *out, size_t n, const char *s)
{
    size_t len = strlen(out);
    for (; *s && len + 4 < n; s++) {
        unsigned char ch = (unsigned char)*s;
        if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
            (ch >= '0' && ch <= '9') || strchr("-._~", ch))
            out[len++] = (char)ch;
        else
            len += (size_t)snprintf(out + len, n - len, "%%%02X", ch);
    }
    out[len] = '\0';
}

void benchpg_uri(const char *base, const char *name, char *uri, size_t n)
{
    char *msg = NULL;
    PQconninfoOption *opts = PQconninfoParse(base, &msg), *o;
    int first = 1;

    if (opts == NULL) {
        fprintf(stderr, "bench: not a libpq URI: %s: %s", base, msg ? msg : "\n");
        exit(1);
    }
    /* The same connection options as base, another database: what base set
     * explicitly goes in the query string, the rest still comes from PG*. */
    snprintf(uri, n, "postgresql:///%s", name);
    for (o = opts; o->keyword != NULL; o++) {
        if (o->val == NULL || o->val[0] == '\0' || strcmp(o->keyword, "dbname") == 0)
            continue;
        snprintf(uri + strlen(uri), n - strlen(uri), "%s%s=", first ? "?" : "&",
                 o->keyword);
        pct(uri, n, o->val);
        first = 0;
    }
    PQconninfoFree(opts);
}

void benchpg_database(const char *base, const char *name, char *uri, size_t n)
{
    char sql[256];
    PGconn *c = connect_to(base);

    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS \"%s\" WITH (FORCE)", name);
    must(c, PQexec(c, sql), PGRES_COMMAND_OK, sql);
    snprintf(sql, sizeof sql,
             "CREATE DATABASE \"%s\" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'",
             name);
    must(c, PQexec(c, sql), PGRES_COMMAND_OK, sql);
    PQfinish(c);
    benchpg_uri(base, name, uri, n);
}

void benchpg_drop(const char *base, const char *name)
{
    PGconn *c = PQconnectdb(base);
    char sql[256];
    PQsetNoticeProcessor(c, quiet, NULL);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS \"%s\" WITH (FORCE)", name);
    if (PQstatus(c) == CONNECTION_OK)
        PQclear(PQexec(c, sql));
    PQfinish(c);
}

long long benchpg_scalar(const char *uri, const char *sql)
{
    PGconn *c = connect_to(uri);
    PGresult *r = PQexec(c, sql);
    long long v = 0;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
        v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    else if (PQresultStatus(r) != PGRES_TUPLES_OK)
        fprintf(stderr, "bench: %s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    return v;
}

static const char *const KERNELS[10] = {"init", "rhs",  "xsolve", "ysolve", "zsolve",
                                        "add",  "exch", "norm",   "io",     "final"};

/* The run's children take its id from lastval() (the identity's nextval of
 * the INSERT before), so the statements of a run need not wait for its id:
 * they can be pipelined. */
enum { S_BEGIN, S_RUN, S_INPUT, S_METRIC, S_KERNEL, S_COMMIT, NSTMT };
static const char *const SQL[NSTMT] = {
    "BEGIN",
    "INSERT INTO runs (uid, app_id, exe_id, system_id, nprocs, runtime, submitter, "
    "created_at) VALUES ($1, $2, $3, $4, $5, $6, 'bench', $7)",
    "INSERT INTO run_inputs (run_id, name, value) VALUES (lastval(), $1, $2)",
    "INSERT INTO run_metrics (run_id, name, value) VALUES (lastval(), $1, $2)",
    "INSERT INTO kernels (run_id, seq, name, time, calls) VALUES (lastval(), $1, $2, $3, "
    "1)",
    "COMMIT",
};
static const char *const NAMES[NSTMT] = {"b", "run", "input", "metric", "kernel", "c"};

/* Runs one prepared statement, or queues it in the pipeline. */
static void stmt(PGconn *c, int pipelined, int s, int np, const char *const *v)
{
    if (pipelined) {
        if (!PQsendQueryPrepared(c, NAMES[s], np, v, NULL, NULL, 0)) {
            fprintf(stderr, "bench: send: %s", PQerrorMessage(c));
            exit(1);
        }
        return;
    }
    must(c, PQexecPrepared(c, NAMES[s], np, v, NULL, NULL, 0), PGRES_COMMAND_OK,
         NAMES[s]);
}

/* Reads a pipeline's results up to and including its sync. */
static void drain(PGconn *c)
{
    for (;;) {
        PGresult *r = PQgetResult(c);
        if (r == NULL)
            continue; /* between two statements' results */
        if (PQresultStatus(r) == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            return;
        }
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            fprintf(stderr, "bench: pipeline: %s", PQresultErrorMessage(r));
            exit(1);
        }
        PQclear(r);
    }
}

/* Queues or runs the 16 statements of run k. */
static void store_run(PGconn *c, int pipelined, long k, const char *app, const char *exe,
                      const char *sys, const char *now)
{
    static const char *const in[3] = {"N", "M", "iters"};
    static const char *const met[2] = {"mflops", "bytes"};
    char uid[32], np[16], rt[32], v[32], seq[8], t[32];
    const char *run[7] = {uid, app, exe, sys, np, rt, now};
    double inv[3] = {(double)(k % 1000), 64, 200}, mv[2] = {1500.0, 1e9};
    int j;

    snprintf(uid, sizeof uid, "pgceil-%ld", k);
    snprintf(np, sizeof np, "%ld", 1 + k % 64);
    snprintf(rt, sizeof rt, "%.17g", 1.0 + (double)(k % 100) * 0.01);
    stmt(c, pipelined, S_RUN, 7, run);
    for (j = 0; j < 3; j++) {
        const char *p[2] = {in[j], v};
        snprintf(v, sizeof v, "%.17g", inv[j]);
        stmt(c, pipelined, S_INPUT, 2, p);
    }
    for (j = 0; j < 2; j++) {
        const char *p[2] = {met[j], v};
        snprintf(v, sizeof v, "%.17g", mv[j]);
        stmt(c, pipelined, S_METRIC, 2, p);
    }
    for (j = 0; j < 10; j++) {
        const char *p[3] = {seq, KERNELS[j], t};
        snprintf(seq, sizeof seq, "%d", j);
        snprintf(t, sizeof t, "%.17g", 0.1 * (j + 1));
        stmt(c, pipelined, S_KERNEL, 3, p);
    }
}

double benchpg_ceiling(const char *uri, long first, long n, enum benchpg_mode mode,
                       int batch, int async)
{
    struct err e = {0};
    struct db_options opt = {DB_SYNC_FULL, 0, 10000};
    char app[24], exe[24], sys[24], now[32];
    int pipelined = mode != BENCHPG_TXN_PER_RUN;
    long i, per = mode == BENCHPG_BATCHED ? batch : 1;
    double t0;
    PGconn *c;
    db *d;

    if (db_open(&d, uri, &opt, &e) != 0) { /* prophecyd's schema, triggers included */
        fprintf(stderr, "bench: %s\n", e.message);
        exit(1);
    }
    db_close(d);
    c = connect_to(uri);
    must(c,
         PQexec(c,
                "INSERT INTO applications (name) VALUES ('ceiling') ON CONFLICT DO "
                "NOTHING; INSERT INTO systems (name) VALUES ('ceiling-system') ON "
                "CONFLICT DO NOTHING; INSERT INTO executables (app_id, name) SELECT id, "
                "'ceiling.x' FROM applications WHERE name = 'ceiling' ON CONFLICT DO "
                "NOTHING"),
         PGRES_COMMAND_OK, "parents");
    snprintf(app, sizeof app, "%lld",
             benchpg_scalar(uri, "SELECT id FROM applications WHERE name = 'ceiling'"));
    snprintf(sys, sizeof sys, "%lld",
             benchpg_scalar(uri, "SELECT id FROM systems WHERE name = 'ceiling-system'"));
    snprintf(exe, sizeof exe, "%lld",
             benchpg_scalar(uri, "SELECT id FROM executables WHERE name = 'ceiling.x'"));
    must(
        c,
        PQexec(c, async ? "SET synchronous_commit = off" : "SET synchronous_commit = on"),
        PGRES_COMMAND_OK, "synchronous_commit");
    for (int s = 0; s < NSTMT; s++)
        must(c, PQprepare(c, NAMES[s], SQL[s], 0, NULL), PGRES_COMMAND_OK, NAMES[s]);
    if (pipelined && !PQenterPipelineMode(c)) {
        fprintf(stderr, "bench: pipeline mode: %s", PQerrorMessage(c));
        exit(1);
    }
    db_now(now);
    t0 = bench_now();
    for (i = 0; i < n; i += per) {
        long j, m = n - i < per ? n - i : per;
        stmt(c, pipelined, S_BEGIN, 0, NULL);
        for (j = 0; j < m; j++)
            store_run(c, pipelined, first + i + j, app, exe, sys, now);
        stmt(c, pipelined, S_COMMIT, 0, NULL);
        if (pipelined) {
            if (!PQpipelineSync(c)) {
                fprintf(stderr, "bench: sync: %s", PQerrorMessage(c));
                exit(1);
            }
            drain(c);
        }
    }
    t0 = bench_now() - t0;
    PQfinish(c);
    return (double)n / t0;
}
