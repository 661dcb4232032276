/* db: connection, migrations, statement cache; see db.h.
 *
 * Migrations come from the embedded schema.sql: "-- migration N" lines split
 * it into steps, each applied in its own transaction with user_version set in
 * the same transaction, so a crash mid-migration leaves the old version.
 */
#include "db/db.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"
#include "common/buf.h"
#include "common/xalloc.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char db_schema_sql[];

#define STMT_CACHE 160

struct stmt_slot {
    const char *sql;
    sqlite3_stmt *stmt;
};

/* A connection: the backend head first (db/backend.h), then SQLite's own. */
struct sq_db {
    struct db base;
    sqlite3 *h;
    int nstmt;
    struct stmt_slot stmts[STMT_CACHE];
    struct sq_windows *windows; /* db/sqlite/window.c */
    int busy_ms;
    long unfolded; /* judged runs since this connection's last fold */
};

#define SQ(d) ((struct sq_db *)(d))

struct sq_windows **sq_windows_slot(db *d)
{
    return &SQ(d)->windows;
}

/* The windows in memory hold values of stored runs: a deleted run or a
 * rolled-back insert must not stay in them. */
static void forget_on_delete(void *d, int op, const char *dbname, const char *table,
                             sqlite3_int64 rowid)
{
    (void)dbname;
    (void)rowid;
    if (op == SQLITE_DELETE && strcmp(table, "runs") == 0)
        sq_windows_forget(d);
}

static void forget_on_rollback(void *d)
{
    sq_windows_forget(d);
}

/* prophecy_now(): the store time as text (db_now), the function of the same
 * name in schema_pg.sql, so that one SQL text stamps a row on both engines. */
static void fn_now(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    char now[32];
    (void)argc;
    (void)argv;
    db_now(now);
    sqlite3_result_text(ctx, now, -1, SQLITE_TRANSIENT);
}

static void library_init_once(void)
{
    /* SQLITE_MISUSE if the library was initialised already (by a process
     * embedding us that opened SQLite itself): it then keeps its statistics */
    (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

void sq_library_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, library_init_once);
}

sqlite3 *db_handle(db *d)
{
    return SQ(d)->h;
}

int db_fail(db *d, struct err *err)
{
    int code = sqlite3_extended_errcode(SQ(d)->h);
    if ((code & 0xff) == SQLITE_CONSTRAINT)
        return err_set(err, ERR_CONFLICT, "conflict", NULL, "conflict: %s",
                       sqlite3_errmsg(SQ(d)->h));
    if ((code & 0xff) == SQLITE_FULL)
        return err_set(err, ERR_NO_SPACE, "disk_full", NULL, "database or disk is full");
    return err_set(err, ERR_INTERNAL, "database", NULL, "database error: %s",
                   sqlite3_errmsg(SQ(d)->h));
}

long long sq_scalar(db *d, const char *sql, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, sql, err);
    long long n;
    int rc;
    if (st == NULL)
        return -1;
    rc = sqlite3_step(st);
    n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return db_fail(d, err);
    return n;
}

int db_exec(db *d, const char *sql, struct err *err)
{
    if (sqlite3_exec(SQ(d)->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(d, err);
    return 0;
}

sqlite3_stmt *db_stmt(db *d, const char *sql, struct err *err)
{
    int i;
    sqlite3_stmt *st = NULL;

    for (i = 0; i < SQ(d)->nstmt; i++) {
        if (SQ(d)->stmts[i].sql == sql) {
            st = SQ(d)->stmts[i].stmt;
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            return st;
        }
    }
    if (sqlite3_prepare_v3(SQ(d)->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) !=
        SQLITE_OK) {
        db_fail(d, err);
        return NULL;
    }
    if (SQ(d)->nstmt < STMT_CACHE) {
        SQ(d)->stmts[SQ(d)->nstmt].sql = sql;
        SQ(d)->stmts[SQ(d)->nstmt].stmt = st;
        SQ(d)->nstmt++;
    } else {
        /* The cache is sized for every constant statement in db/; reaching
         * this means a new one was added: evict the oldest rather than leak. */
        sqlite3_finalize(SQ(d)->stmts[0].stmt);
        memmove(SQ(d)->stmts, SQ(d)->stmts + 1,
                (STMT_CACHE - 1) * sizeof SQ(d)->stmts[0]);
        SQ(d)->stmts[STMT_CACHE - 1].sql = sql;
        SQ(d)->stmts[STMT_CACHE - 1].stmt = st;
    }
    return st;
}

static int user_version(db *d)
{
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_prepare_v2(SQ(d)->h, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Migrations 13, 14 and 18 edit stored table text (schema.sql): moving
 * schema_version on is what makes SQLite parse the tables again. */
static int bump_schema_version(db *d, struct err *err)
{
    sqlite3_stmt *st;
    int v = -1;
    char sql[64];
    if (sqlite3_prepare_v2(SQ(d)->h, "PRAGMA schema_version", -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, err);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (v < 0)
        return db_fail(d, err);
    snprintf(sql, sizeof sql, "PRAGMA schema_version = %d", v + 1);
    return db_exec(d, sql, err);
}

/* Migration 14's data: the kernels that importers stored as 0 s for files
 * without a time metric (Extra-P files and experiments, CUBE profiles, whose
 * runs have no runtime since migration 13) get no time, as they now import.
 * Runs sent through the API (no such uid) keep what they said. It runs once
 * the stored table text allows NULL (after bump_schema_version); the same
 * statement is in schema_pg.sql's migration 14. */
static const char SQL_KERNELS_UNTIMED[] =
    "UPDATE kernels SET time = NULL WHERE time = 0 AND run_id IN (SELECT id FROM runs "
    "WHERE runtime IS NULL AND (uid LIKE 'extrap-%' OR uid LIKE 'cube:%'))";

/* Migration 18's data: the call counts importers made up for files that
 * count none (0 from Extra-P input files, Caliper and HPCToolkit, 1 from
 * Extra-P experiments, 0 from CUBE profiles without a visits metric, whose
 * kernels then carry no "visits") become unknown, as they now import. Runs
 * sent through the API keep what they said. It runs once the stored table
 * text allows NULL; the same statement is in schema_pg.sql's migration 18. */
static const char SQL_KERNELS_UNCOUNTED[] =
    "UPDATE kernels SET calls = NULL "
    "WHERE run_id IN (SELECT id FROM runs WHERE uid LIKE 'extrap-text:%' "
    "OR uid LIKE 'extrap-json:%' OR uid LIKE 'extrap-jsonl:%' "
    "OR uid LIKE 'caliper-json:%' OR uid LIKE 'hpctoolkit:%') AND calls = 0 "
    "OR run_id IN (SELECT id FROM runs WHERE uid LIKE 'extrap-experiment:%') AND calls = "
    "1 "
    "OR run_id IN (SELECT id FROM runs WHERE uid LIKE 'cube:%') AND calls = 0 "
    "AND (metrics IS NULL OR metrics NOT LIKE '%\"visits\"%')";

/* Migration 20's columns (schema.sql): a benchmark series' label and test.
 * SQLite's ADD COLUMN has no IF NOT EXISTS, and a migration from 17 on must
 * bear running again over its own result, so they are added only where
 * system_benchmarks lacks them (both or neither: one transaction); the same
 * columns are schema_pg.sql's migration 20. */
static const char SQL_BENCH_SERIES[] =
    "ALTER TABLE system_benchmarks ADD COLUMN label TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE system_benchmarks ADD COLUMN test TEXT NOT NULL DEFAULT ''";

/* Runs sql (ADD COLUMNs) unless `table` already has `column`: SQLite's ADD
 * COLUMN has no IF NOT EXISTS, and the migrations from 17 on must bear
 * running again over their own result. */
static int add_columns(db *d, const char *table, const char *column, const char *sql,
                       struct err *err)
{
    sqlite3_stmt *st;
    int have = -1;
    if (sqlite3_prepare_v2(SQ(d)->h,
                           "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, err);
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        have = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (have < 0)
        return db_fail(d, err);
    return have ? 0 : db_exec(d, sql, err);
}

/* Migration 21's column (schema.sql): the analysis version of a stored
 * trace. Added only where traces lacks it, as migration 20's; the same column
 * is schema_pg.sql's migration 21. */
static const char SQL_TRACES_ANALYSED[] =
    "ALTER TABLE traces ADD COLUMN analysed INTEGER NOT NULL DEFAULT 0";

/* Migration step v's own work, inside its transaction: migration 11's
 * judgements are packed in C (db/sqlite/judged_migrate.c); migrations 13,
 * 14 and 18 edit stored table text, so schema_version moves on, and 14 then
 * mends kernel times (SQL_KERNELS_UNTIMED), 18 call counts
 * (SQL_KERNELS_UNCOUNTED); 20 and 21 add columns (SQL_BENCH_SERIES,
 * SQL_TRACES_ANALYSED); the version is recorded. */
static int migration_finish(db *d, int v, struct err *err)
{
    char setv[64];
    snprintf(setv, sizeof setv, "PRAGMA user_version = %d", v);
    if ((v == 11 && sq_judged_migrate(d, err) != 0) ||
        (v == 20 &&
         add_columns(d, "system_benchmarks", "label", SQL_BENCH_SERIES, err) != 0) ||
        (v == 21 &&
         add_columns(d, "traces", "analysed", SQL_TRACES_ANALYSED, err) != 0) ||
        ((v == 13 || v == 14 || v == 18) && bump_schema_version(d, err) != 0) ||
        (v == 14 && db_exec(d, SQL_KERNELS_UNTIMED, err) != 0) ||
        (v == 18 && db_exec(d, SQL_KERNELS_UNCOUNTED, err) != 0))
        return -1;
    return db_exec(d, setv, err);
}

/* Applies every migration above the database's user_version. */
static int migrate(db *d, struct err *err)
{
    int have = user_version(d);
    if (have < 0)
        return db_fail(d, err);
    return db_migrate(d, db_schema_sql, have, migration_finish, err);
}

int sq_open(db **out, const char *path, const struct db_options *opt, struct err *err)
{
    struct db_options defaults = {DB_SYNC_FULL, 0, 10000};
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    static const char *sync_sql[] = {"PRAGMA synchronous = FULL",
                                     "PRAGMA synchronous = NORMAL",
                                     "PRAGMA synchronous = OFF"};
    struct sq_db *s;
    db *d;

    *out = NULL;
    if (opt == NULL)
        opt = &defaults;
    s = xcalloc(1, sizeof *s);
    if (s == NULL)
        return err_nomem(err);
    s->base.be = &db_sqlite;
    s->base.eng = &db_sqlite_engine;
    d = &s->base;
    sq_library_init();
    if (sqlite3_open_v2(path, &SQ(d)->h, flags, NULL) != SQLITE_OK) {
        err_set(err, ERR_INTERNAL, "database", NULL, "cannot open database %s: %s", path,
                SQ(d)->h ? sqlite3_errmsg(SQ(d)->h) : "out of memory");
        db_close(d);
        return -1;
    }
    sqlite3_extended_result_codes(SQ(d)->h, 1);
    sqlite3_create_function(SQ(d)->h, "prophecy_now", 0, SQLITE_UTF8, NULL, fn_now, NULL,
                            NULL);
    sqlite3_update_hook(SQ(d)->h, forget_on_delete, d);
    sqlite3_rollback_hook(SQ(d)->h, forget_on_rollback, d);
    SQ(d)->busy_ms = opt->busy_ms > 0 ? opt->busy_ms : 10000;
    SQ(d)->unfolded = FOLD_EVERY; /* the first judged run folds what others left */
    sqlite3_busy_timeout(SQ(d)->h, SQ(d)->busy_ms);
    if (db_exec(d, "PRAGMA journal_mode = WAL", err) != 0 ||
        db_exec(d, "PRAGMA foreign_keys = ON", err) != 0 ||
        db_exec(d, sync_sql[opt->sync], err) != 0 ||
        db_exec(d, "PRAGMA temp_store = MEMORY", err) != 0) {
        db_close(d);
        return -1;
    }
    if (!opt->readonly && migrate(d, err) != 0) {
        db_close(d);
        return -1;
    }
    if (opt->readonly && db_exec(d, "PRAGMA query_only = ON", err) != 0) {
        db_close(d);
        return -1;
    }
    *out = d;
    return 0;
}

void sq_close(db *d)
{
    int i;
    if (d == NULL)
        return;
    for (i = 0; i < SQ(d)->nstmt; i++)
        sqlite3_finalize(SQ(d)->stmts[i].stmt);
    sq_windows_free(SQ(d)->windows);
    sqlite3_close(SQ(d)->h);
    xfree(d);
}

long *sq_unfolded(db *d)
{
    return &SQ(d)->unfolded;
}

void sq_busy_wait(db *d, int wait)
{
    sqlite3_busy_timeout(SQ(d)->h, wait ? SQ(d)->busy_ms : 0);
}

int sq_begin(db *d, struct err *err)
{
    return db_exec(d, "BEGIN IMMEDIATE", err);
}

int sq_commit(db *d, struct err *err)
{
    return db_exec(d, "COMMIT", err);
}

void sq_rollback(db *d)
{
    if (!sqlite3_get_autocommit(SQ(d)->h))
        sqlite3_exec(SQ(d)->h, "ROLLBACK", NULL, NULL, NULL);
}

int sq_savepoint(db *d, enum db_savepoint op, struct err *err)
{
    static const char *const sql[] = {"SAVEPOINT job", "ROLLBACK TO job", "RELEASE job"};
    if (op == DB_SAVEPOINT_ROLLBACK)
        sq_windows_forget(d); /* the rollback hook sees whole transactions only */
    return db_exec(d, sql[op], err);
}

int sq_check(db *d, char **problems, struct err *err)
{
    sqlite3_stmt *st;
    struct buf out;
    int rc, sound = 0;

    *problems = NULL;
    buf_init(&out, 1u << 20);
    rc = sqlite3_prepare_v2(SQ(d)->h, "PRAGMA integrity_check(100)", -1, &st, NULL);
    if (rc != SQLITE_OK) {
        if ((rc & 0xff) != SQLITE_CORRUPT && (rc & 0xff) != SQLITE_NOTADB)
            return db_fail(d, err);
        buf_printf(&out, "%s\n", sqlite3_errmsg(SQ(d)->h));
    } else {
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            const char *line = (const char *)sqlite3_column_text(st, 0);
            if (line && strcmp(line, "ok") == 0)
                sound = 1;
            else
                buf_printf(&out, "%s\n", line ? line : "(no description)");
        }
        if (rc != SQLITE_DONE) {
            /* Damage bad enough to stop the check is still damage found. */
            if ((rc & 0xff) != SQLITE_CORRUPT && (rc & 0xff) != SQLITE_NOTADB) {
                db_fail(d, err);
                sqlite3_finalize(st);
                buf_free(&out);
                return -1;
            }
            buf_printf(&out, "%s\n", sqlite3_errmsg(SQ(d)->h));
            sound = 0;
        }
        sqlite3_finalize(st);
    }
    if (sound && out.len == 0) {
        buf_free(&out);
        return 1;
    }
    if (buf_failed(&out) || (*problems = xstrdup(out.data ? out.data : "")) == NULL) {
        buf_free(&out);
        return err_nomem(err);
    }
    buf_free(&out);
    return 0;
}

int sq_backup(db *d, const char *dest, struct err *err)
{
    sqlite3 *out = NULL;
    sqlite3_backup *bk;
    int rc;

    if (sqlite3_open(dest, &out) != SQLITE_OK) {
        err_set(err, ERR_INTERNAL, "backup", NULL, "cannot open %s", dest);
        sqlite3_close(out);
        return -1;
    }
    bk = sqlite3_backup_init(out, "main", SQ(d)->h, "main");
    if (bk == NULL) {
        err_set(err, ERR_INTERNAL, "backup", NULL, "backup failed: %s",
                sqlite3_errmsg(out));
        sqlite3_close(out);
        return -1;
    }
    /* Copy in steps so that writers are not held off for the whole copy. */
    do {
        rc = sqlite3_backup_step(bk, 1024);
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
            sqlite3_sleep(5);
    } while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
    sqlite3_backup_finish(bk);
    if (rc != SQLITE_DONE) {
        err_set(err, ERR_INTERNAL, "backup", NULL, "backup failed: %s",
                sqlite3_errstr(rc));
        sqlite3_close(out);
        return -1;
    }
    sqlite3_close(out);
    return 0;
}
