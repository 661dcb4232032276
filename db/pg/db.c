/* db: the PostgreSQL connection, its statement cache, migrations and the
 * toolkit of pg.h.
 *
 * Migrations come from the embedded schema_pg.sql, split by "-- migration N"
 * lines with the numbers of schema.sql. Each is applied in its own
 * transaction, with the version (table prophecy_schema, one row) set in the
 * same transaction, while the connection holds an advisory lock taken before
 * the version is read: several servers starting together on one database
 * apply each migration once, the others wait and find it done.
 */
#include "db/pg/entries.h"
#include "db/pg/pg.h"
#include "common/xalloc.h"
#include "formats/record.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char db_schema_pg_sql[];

#define STMT_CACHE 200
#define MAX_PARAMS 64

struct pg_stmt {
    const char *sql;
    char name[16];
};

struct pg_db {
    struct db base;
    PGconn *c;
    char settings[256]; /* the session's SETs, applied again after a reset */
    int nstmt, next_id;
    struct pg_stmt stmts[STMT_CACHE];
    struct pg_stmts *typed;     /* db/pg/engine.c */
    struct pg_runs_state *runs; /* db/pg/runs.c */
    long gen;                   /* connection resets so far */
    int begin_pending;          /* BEGIN not sent yet (pg_begin) */
};

#define PG(d) ((struct pg_db *)(d))

PGconn *pg_conn(db *d)
{
    return PG(d)->c;
}

static void quiet(void *arg, const char *message)
{
    /* NOTICEs (e.g. "relation already exists, skipping") are not errors. */
    (void)arg;
    (void)message;
}

/* After the connection broke: prepared statements are gone with it. */
static void reset_if_broken(db *d)
{
    if (PQstatus(PG(d)->c) != CONNECTION_BAD)
        return;
    PQreset(PG(d)->c);
    PG(d)->nstmt = 0;
    pg_runs_txn(d, PG_TXN_ROLLBACK); /* the transaction died with the connection */
    PG(d)->gen++;
    if (PQstatus(PG(d)->c) == CONNECTION_OK)
        PQclear(PQexec(PG(d)->c, PG(d)->settings));
}

int pg_fail(db *d, PGresult *r, struct err *err)
{
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char text[200], sqlstate[6] = "";
    const char *state = NULL;

    if (msg == NULL)
        msg = PQerrorMessage(PG(d)->c);
    snprintf(text, sizeof text, "%s", msg && *msg ? msg : "unknown error");
    text[strcspn(text, "\n")] = '\0';
    /* Both strings belong to r: copied before it is freed. */
    if (st != NULL) {
        snprintf(sqlstate, sizeof sqlstate, "%s", st);
        state = sqlstate;
    }
    PQclear(r);
    if (state && strncmp(state, "23", 2) == 0)
        return err_set(err, ERR_CONFLICT, "conflict", NULL, "conflict: %s", text);
    if (state && strcmp(state, "53100") == 0)
        return err_set(err, ERR_NO_SPACE, "disk_full", NULL, "database or disk is full");
    if (state && (strcmp(state, "55P03") == 0 || strcmp(state, "40P01") == 0 ||
                  strcmp(state, "40001") == 0))
        return err_set(err, ERR_UNAVAILABLE, "busy", NULL, "database busy: %s", text);
    return err_set(err, ERR_INTERNAL, "database", NULL, "database error: %s", text);
}

int pg_exec(db *d, const char *sql, struct err *err)
{
    struct pg_db *p = PG(d);
    PGresult *r;
    char *both = NULL;

    reset_if_broken(d);
    if (p->begin_pending) {
        /* the transaction's first statement: BEGIN and it in one simple
         * query; its COMMIT or ROLLBACK: there was nothing to end */
        p->begin_pending = 0;
        if (strcmp(sql, "COMMIT") == 0 || strcmp(sql, "ROLLBACK") == 0)
            return 0;
        both = xmalloc(strlen(sql) + sizeof "BEGIN; ");
        if (both == NULL) {
            p->begin_pending = 1;
            return err_nomem(err);
        }
        memcpy(both, "BEGIN; ", 7);
        memcpy(both + 7, sql, strlen(sql) + 1);
    }
    r = PQexec(p->c, both ? both : sql);
    xfree(both);
    if (r == NULL ||
        (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK))
        return pg_fail(d, r, err);
    PQclear(r);
    return 0;
}

int pg_in_txn(db *d)
{
    return PG(d)->begin_pending || PQtransactionStatus(PG(d)->c) != PQTRANS_IDLE;
}

int pg_send_begin(db *d)
{
    if (!PG(d)->begin_pending)
        return 0;
    if (!PQsendQueryParams(PG(d)->c, "BEGIN", 0, NULL, NULL, NULL, NULL, 0))
        return -1;
    PG(d)->begin_pending = 0;
    return 1;
}

int pg_flush_begin(db *d, struct err *err)
{
    if (!PG(d)->begin_pending)
        return 0;
    PG(d)->begin_pending = 0;
    return pg_exec(d, "BEGIN", err);
}

PGresult *pg_exec_prepared(db *d, const char *name, int n, const char *const *values,
                           const int *lengths, const int *formats)
{
    PGconn *c = PG(d)->c;
    PGresult *r, *begin = NULL, *stmt = NULL;
    int k;

    if (!PG(d)->begin_pending)
        return PQexecPrepared(c, name, n, values, lengths, formats, 0);
    /* BEGIN and the statement in one pipeline: BEGIN's result, the
     * statement's, the sync's, each result followed by a NULL */
    if (!PQenterPipelineMode(c))
        return NULL;
    if (pg_send_begin(d) != 1 ||
        !PQsendQueryPrepared(c, name, n, values, lengths, formats, 0) ||
        !PQpipelineSync(c)) {
        PG(d)->begin_pending = 0;
        PQexitPipelineMode(c);
        return NULL;
    }
    for (k = 0; k < 8; k++) {
        r = PQgetResult(c);
        if (r == NULL)
            continue;
        if (PQresultStatus(r) == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        if (begin == NULL)
            begin = r;
        else if (stmt == NULL)
            stmt = r;
        else
            PQclear(r);
    }
    PQexitPipelineMode(c);
    if (begin != NULL && PQresultStatus(begin) != PGRES_COMMAND_OK) {
        PQclear(stmt);
        return begin;
    }
    PQclear(begin);
    return stmt;
}

long pg_generation(db *d)
{
    reset_if_broken(d);
    return PG(d)->gen;
}

struct pg_stmts **pg_stmts_slot(db *d)
{
    return &PG(d)->typed;
}

struct pg_runs_state **pg_runs_slot(db *d)
{
    return &PG(d)->runs;
}

/* The name of sql's prepared statement, preparing it on first use. */
static const char *prepared(db *d, const char *sql, struct err *err)
{
    struct pg_db *p = PG(d);
    struct pg_stmt *s;
    PGresult *r;
    int i;

    for (i = 0; i < p->nstmt; i++)
        if (p->stmts[i].sql == sql)
            return p->stmts[i].name;
    if (p->nstmt == STMT_CACHE) {
        /* The cache is sized for every constant statement in db/pg/;
         * reaching this means a new one was added: drop the oldest. */
        char dealloc[48];
        snprintf(dealloc, sizeof dealloc, "DEALLOCATE %s", p->stmts[0].name);
        PQclear(PQexec(p->c, dealloc));
        memmove(p->stmts, p->stmts + 1, (STMT_CACHE - 1) * sizeof p->stmts[0]);
        p->nstmt--;
    }
    s = &p->stmts[p->nstmt];
    snprintf(s->name, sizeof s->name, "p%d", p->next_id++);
    r = PQprepare(p->c, s->name, sql, 0, NULL);
    if (r == NULL || PQresultStatus(r) != PGRES_COMMAND_OK) {
        pg_fail(d, r, err);
        return NULL;
    }
    PQclear(r);
    s->sql = sql;
    p->nstmt++;
    return s->name;
}

const char *pg_prepared(db *d, const char *sql, struct err *err)
{
    reset_if_broken(d);
    return prepared(d, sql, err);
}

PGresult *pg_paramsv(db *d, const char *sql, struct err *err, const char *fmt, va_list ap)
{
    const char *values[MAX_PARAMS];
    int lengths[MAX_PARAMS], formats[MAX_PARAMS];
    char num[MAX_PARAMS][32];
    const char *name;
    PGresult *r;
    int n = 0;

    reset_if_broken(d);
    name = prepared(d, sql, err);
    if (name == NULL)
        return NULL;
    for (; fmt && fmt[n]; n++) {
        if (n == MAX_PARAMS) {
            err_set(err, ERR_INTERNAL, "internal", NULL, "too many SQL parameters");
            return NULL;
        }
        lengths[n] = 0;
        formats[n] = 0;
        switch (fmt[n]) {
        case 't':
            values[n] = va_arg(ap, const char *);
            break;
        case 'i':
            snprintf(num[n], sizeof num[n], "%lld", va_arg(ap, long long));
            values[n] = num[n];
            break;
        case 'd': {
            double v = va_arg(ap, double);
            if (isnan(v))
                snprintf(num[n], sizeof num[n], "NaN");
            else if (isinf(v))
                snprintf(num[n], sizeof num[n], "%sInfinity", v < 0 ? "-" : "");
            else
                snprintf(num[n], sizeof num[n], "%.17g", v);
            values[n] = num[n];
            break;
        }
        case 'b': {
            const void *p = va_arg(ap, const void *);
            size_t len = va_arg(ap, size_t);
            values[n] = p ? p : "";
            lengths[n] = (int)len;
            formats[n] = 1;
            break;
        }
        default:
            err_set(err, ERR_INTERNAL, "internal", NULL, "bad SQL parameter format '%c'",
                    fmt[n]);
            return NULL;
        }
    }
    r = pg_exec_prepared(d, name, n, values, lengths, formats);
    if (r == NULL ||
        (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK)) {
        pg_fail(d, r, err);
        return NULL;
    }
    return r;
}

PGresult *pg_params(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    PGresult *r;
    va_list ap;
    va_start(ap, fmt);
    r = pg_paramsv(d, sql, err, fmt, ap);
    va_end(ap);
    return r;
}

PGresult *pg_params_text(db *d, const char *sql, int n, const char *const *values,
                         struct err *err)
{
    const char *name;
    PGresult *r;

    reset_if_broken(d);
    name = prepared(d, sql, err);
    if (name == NULL)
        return NULL;
    r = pg_exec_prepared(d, name, n, values, NULL, NULL);
    if (r == NULL ||
        (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK)) {
        pg_fail(d, r, err);
        return NULL;
    }
    return r;
}

long long pg_ll(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

double pg_dbl(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0 : strtod(PQgetvalue(r, row, col), NULL);
}

const char *pg_text(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

int pg_null(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col);
}

const void *pg_bytes(const PGresult *r, int row, int col, arena *a, size_t *len)
{
    unsigned char *raw, *out;
    size_t n = 0;

    *len = 0;
    if (PQgetisnull(r, row, col))
        return NULL;
    raw = PQunescapeBytea((const unsigned char *)PQgetvalue(r, row, col), &n);
    if (raw == NULL)
        return NULL;
    out = arena_alloc(a, n ? n : 1);
    if (out != NULL) {
        memcpy(out, raw, n);
        *len = n;
    }
    PQfreemem(raw);
    return out;
}

static json_t *field_json(const PGresult *r, int row, int col)
{
    const char *v;
    char *end;

    if (PQgetisnull(r, row, col))
        return json_null();
    v = PQgetvalue(r, row, col);
    switch (PQftype(r, col)) {
    case OID_INT2:
    case OID_INT4:
    case OID_INT8:
        return json_integer(strtoll(v, NULL, 10));
    case OID_FLOAT4:
    case OID_FLOAT8:
        return json_real(strtod(v, NULL));
    case OID_NUMERIC: {
        long long i;
        errno = 0;
        i = strtoll(v, &end, 10);
        if (*end == '\0' && errno == 0)
            return json_integer(i);
        return json_real(strtod(v, NULL));
    }
    case OID_BOOL:
        return json_integer(v[0] == 't');
    default:
        return json_stringn(v, (size_t)PQgetlength(r, row, col));
    }
}

json_t *pg_rows_json(const PGresult *r, struct err *err)
{
    json_t *arr = json_array();
    int nrow = PQntuples(r), ncol = PQnfields(r), i, j;

    if (arr == NULL) {
        err_nomem(err);
        return NULL;
    }
    for (i = 0; i < nrow; i++) {
        json_t *obj = json_object();
        if (obj == NULL || json_array_append_new(arr, obj) != 0) {
            json_decref(arr);
            err_nomem(err);
            return NULL;
        }
        for (j = 0; j < ncol; j++) {
            const char *name = PQfname(r, j);
            size_t len = strlen(name);
            if (len > 5 && strcmp(name + len - 5, "_json") == 0) {
                char key[64];
                json_t *v = PQgetisnull(r, i, j)
                                ? json_null()
                                : json_loads(PQgetvalue(r, i, j), JSON_DECODE_ANY, NULL);
                snprintf(key, sizeof key, "%.*s", (int)(len - 5), name);
                json_object_set_new(obj, key, v ? v : json_null());
            } else {
                json_object_set_new(obj, name, field_json(r, i, j));
            }
        }
    }
    return arr;
}

json_t *pg_query_json(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    PGresult *r;
    json_t *rows;
    va_list ap;
    va_start(ap, fmt);
    r = pg_paramsv(d, sql, err, fmt, ap);
    va_end(ap);
    if (r == NULL)
        return NULL;
    rows = pg_rows_json(r, err);
    PQclear(r);
    return rows;
}

json_t *pg_query_one(db *d, const char *what, const char *sql, struct err *err,
                     const char *fmt, ...)
{
    PGresult *r;
    json_t *rows, *one;
    va_list ap;
    va_start(ap, fmt);
    r = pg_paramsv(d, sql, err, fmt, ap);
    va_end(ap);
    if (r == NULL)
        return NULL;
    rows = pg_rows_json(r, err);
    PQclear(r);
    if (rows == NULL)
        return NULL;
    one = json_array_get(rows, 0);
    if (one == NULL) {
        json_decref(rows);
        err_set(err, ERR_NOT_FOUND, "not_found", NULL, "%s not found", what);
        return NULL;
    }
    json_incref(one);
    json_decref(rows);
    return one;
}

long long pg_run_sql(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    PGresult *r;
    long long n;
    va_list ap;
    va_start(ap, fmt);
    r = pg_paramsv(d, sql, err, fmt, ap);
    va_end(ap);
    if (r == NULL)
        return -1;
    n = strtoll(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return n;
}

int pg_attach_rows(db *d, json_t *obj, const char *key, const char *sql, long long id,
                   struct err *err)
{
    json_t *rows = pg_query_json(d, sql, err, "i", id);
    return rows != NULL && json_object_set_new(obj, key, rows) == 0;
}

int pg_scalar(db *d, long long *v, const char *sql, struct err *err, const char *fmt, ...)
{
    PGresult *r;
    int found;
    va_list ap;
    va_start(ap, fmt);
    r = pg_paramsv(d, sql, err, fmt, ap);
    va_end(ap);
    if (r == NULL)
        return -1;
    found = PQntuples(r) > 0 && PQnfields(r) > 0 && !PQgetisnull(r, 0, 0);
    *v = found ? pg_ll(r, 0, 0) : 0;
    PQclear(r);
    return found;
}

/* ---- migrations ---------------------------------------------------------- */

static int last_migration(const char *sql)
{
    const char *p = sql;
    int v = 0;
    while ((p = strstr(p, "\n-- migration ")) != NULL) {
        p += strlen("\n-- migration ");
        v = (int)strtol(p, NULL, 10);
    }
    return v;
}

/* The key of the migrations' advisory lock: "prophecy" in ASCII, 8 bytes. */
/* The key of the migrations' advisory lock: "prophecy" in ASCII, 8 bytes. A
 * session lock taken before the version is read: each migration then runs
 * in a transaction of its own that starts after the lock was granted, so it
 * sees the tables another server's migration committed meanwhile (a lock
 * taken inside the transaction would leave that transaction's catalog cache
 * stale: "relation already exists"). */
static const char sql_lock[] = "SELECT pg_advisory_lock(8102661208171438969)";
static const char sql_unlock[] = "SELECT pg_advisory_unlock(8102661208171438969)";
static const char sql_version[] = "SELECT version FROM prophecy_schema";

/* The schema version of the database: 0 for an empty one. */
static int schema_version(db *d, int *v, struct err *err)
{
    long long got = 0;
    int rc;
    PGresult *r = PQexec(PG(d)->c, "SELECT to_regclass('prophecy_schema') IS NOT NULL");
    if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK)
        return pg_fail(d, r, err);
    rc = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    *v = 0;
    if (!rc)
        return 0;
    r = PQexec(PG(d)->c, sql_version);
    if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK)
        return pg_fail(d, r, err);
    if (PQntuples(r) > 0)
        got = pg_ll(r, 0, 0);
    PQclear(r);
    *v = (int)got;
    return 0;
}

/* Migration step v's own work, inside its transaction: its version. */
static int migration_finish(db *d, int v, struct err *err)
{
    char setv[96];
    snprintf(setv, sizeof setv, "UPDATE prophecy_schema SET version = %d", v);
    return pg_exec(d, setv, err);
}

/* Applies every migration above the database's version, holding the lock. */
static int migrate_locked(db *d, struct err *err)
{
    int have;
    if (schema_version(d, &have, err) != 0)
        return -1;
    return db_migrate(d, db_schema_pg_sql, have, migration_finish, err);
}

static int migrate(db *d, struct err *err)
{
    int rc, have;

    if (last_migration(db_schema_pg_sql) != db_schema_version())
        return err_set(err, ERR_INTERNAL, "schema", NULL,
                       "schema_pg.sql ends at migration %d but schema.sql at %d",
                       last_migration(db_schema_pg_sql), db_schema_version());
    /* Up to date (every start but the first): no lock needed. */
    if (schema_version(d, &have, err) != 0)
        return -1;
    if (have == db_schema_version())
        return 0;
    if (pg_exec(d, sql_lock, err) != 0)
        return -1;
    rc = migrate_locked(d, err);
    pg_exec(d, sql_unlock, NULL);
    return rc;
}

/* ---- the entries of db.h ------------------------------------------------- */

int pg_open(db **out, const char *path, const struct db_options *opt, struct err *err)
{
    struct db_options defaults = {DB_SYNC_FULL, 0, 10000};
    struct pg_db *p;
    db *d;

    *out = NULL;
    if (opt == NULL)
        opt = &defaults;
    p = xcalloc(1, sizeof *p);
    if (p == NULL)
        return err_nomem(err);
    p->base.be = &db_pg;
    p->base.eng = &db_pg_engine;
    d = &p->base;
    p->c = PQconnectdb(path);
    if (p->c == NULL || PQstatus(p->c) != CONNECTION_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", p->c ? PQerrorMessage(p->c) : "out of memory");
        msg[strcspn(msg, "\n")] = '\0';
        /* The URI may hold a password, and libpq quotes it in some messages
         * (an unparsable URI): masked as the serve line shows it. */
        db_mask_secrets(path, msg, sizeof msg);
        err_set(err, ERR_INTERNAL, "database", NULL, "cannot connect to PostgreSQL: %s",
                msg);
        pg_close(d);
        return -1;
    }
    PQsetNoticeProcessor(p->c, quiet, NULL);
    /* FULL waits for the commit's WAL flush; NORMAL and OFF acknowledge once
     * the server has the commit (it survives a crash of prophecyd; only a
     * crash of the PostgreSQL host may lose the last moments). */
    snprintf(p->settings, sizeof p->settings,
             "SET synchronous_commit = %s; SET lock_timeout = %d; "
             "SET client_min_messages = warning; SET TIME ZONE 'UTC'%s",
             opt->sync == DB_SYNC_FULL ? "on" : "off",
             opt->busy_ms > 0 ? opt->busy_ms : 10000,
             opt->readonly ? "; SET default_transaction_read_only = on" : "");
    if (pg_exec(d, p->settings, err) != 0) {
        pg_close(d);
        return -1;
    }
    if (!opt->readonly && migrate(d, err) != 0) {
        pg_close(d);
        return -1;
    }
    *out = d;
    return 0;
}

void pg_close(db *d)
{
    if (d == NULL)
        return;
    pg_stmts_free(PG(d)->typed);
    pg_runs_state_free(PG(d)->runs);
    PQfinish(PG(d)->c);
    xfree(d);
}

int pg_begin(db *d, struct err *err)
{
    (void)err;
    pg_runs_txn(d, PG_TXN_BEGIN);
    reset_if_broken(d);
    PG(d)->begin_pending = 1; /* sent with the first statement */
    return 0;
}

int pg_commit(db *d, struct err *err)
{
    return pg_runs_commit(d, err);
}

void pg_rollback(db *d)
{
    pg_runs_txn(d, PG_TXN_ROLLBACK);
    PG(d)->begin_pending = 0; /* nothing was sent: nothing to roll back */
    if (PQtransactionStatus(PG(d)->c) != PQTRANS_IDLE)
        PQclear(PQexec(PG(d)->c, "ROLLBACK"));
}

int pg_savepoint(db *d, enum db_savepoint op, struct err *err)
{
    static const char *const sql[] = {"SAVEPOINT job", "ROLLBACK TO SAVEPOINT job",
                                      "RELEASE SAVEPOINT job"};
    if (op == DB_SAVEPOINT_SET)
        pg_runs_txn(d, PG_TXN_SAVEPOINT);
    else if (op == DB_SAVEPOINT_ROLLBACK)
        pg_runs_txn(d, PG_TXN_ROLLBACK_TO);
    return pg_exec(d, sql[op], err);
}

int pg_backup(db *d, const char *dest, struct err *err)
{
    (void)d;
    (void)dest;
    return err_set(err, ERR_BAD_REQUEST, "unsupported", NULL,
                   "prophecyd backup copies an SQLite database file; a PostgreSQL "
                   "database is backed up with pg_dump (pg_dump -Fc DBNAME > FILE)");
}

int pg_check(db *d, char **problems, struct err *err)
{
    int have;
    char text[160];

    *problems = NULL;
    if (pg_exec(d, "SELECT 1", err) != 0 || schema_version(d, &have, err) != 0)
        return -1;
    if (have == db_schema_version())
        return 1;
    if (have == 0) /* nothing is damaged: there is nothing yet */
        return err_set(err, ERR_NOT_FOUND, "empty", NULL,
                       "the database holds no Prophecy schema yet ('prophecyd serve' "
                       "creates it)");
    snprintf(text, sizeof text, "schema version %d, expected %d\n", have,
             db_schema_version());
    *problems = xstrdup(text);
    return *problems ? 0 : err_nomem(err);
}
