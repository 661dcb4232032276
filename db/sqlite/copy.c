/* copy: SQLite's side of db/copy.c (db/copy_backend.h): tables and columns
 * from the schema catalog, rows read in key order inside one read
 * transaction (a WAL snapshot: a server may write meanwhile), rows loaded
 * through one prepared INSERT per table. Statements name tables and columns
 * that come from the catalog, always quoted, never from input.
 */
#include "db/copy_backend.h"
#include "db/sqlite/sql.h"
#include "common/buf.h"
#include "common/xalloc.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static int sq_snapshot(db *d, struct err *err)
{
    /* A deferred BEGIN: the snapshot starts with the first read and takes no
     * write lock, so a server on the same file keeps committing. */
    return db_exec(d, "BEGIN", err);
}

/* Runs a one-column query (prepared here: its text is built) and copies up
 * to max names. Returns the count or -1. */
static int names_of(db *d, const char *sql, const char *arg, char (*names)[DB_COPY_NAME],
                    int max, struct err *err)
{
    sqlite3_stmt *st;
    int n = 0, rc;
    if (sqlite3_prepare_v2(db_handle(d), sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, err);
    if (arg)
        sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *s = (const char *)sqlite3_column_text(st, 0);
        if (n == max || s == NULL || strlen(s) >= DB_COPY_NAME) {
            sqlite3_finalize(st);
            return err_set(err, 500, "database", NULL,
                           "too many tables or columns, or a name too long, to copy");
        }
        snprintf(names[n++], DB_COPY_NAME, "%s", s);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return n;
}

static int sq_tables(db *d, char (*names)[DB_COPY_NAME], int max, struct err *err)
{
    /* Two tables of this engine alone (migration 10), neither copied nor
     * expected: series_chunks, a cache of runs_series (reads of the target
     * pack its series again), and watch_counts_upto (set by sq_finish). */
    return names_of(d,
                    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT "
                    "LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT IN ('series_chunks', "
                    "'watch_counts_upto') ORDER BY name",
                    NULL, names, max, err);
}

static int sq_columns(db *d, const char *table, char (*names)[DB_COPY_NAME], int max,
                      struct err *err)
{
    return names_of(d, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", table,
                    names, max, err);
}

static long long sq_count(db *d, const char *table, struct err *err)
{
    char sql[160];
    sqlite3_stmt *st;
    long long n = -1;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    if (sqlite3_prepare_v2(db_handle(d), sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, err);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (n < 0)
        return db_fail(d, err);
    return n;
}

/* "a", "b", "c" into b. */
static void column_list(struct buf *b, const char (*cols)[DB_COPY_NAME], int ncols)
{
    for (int i = 0; i < ncols; i++)
        buf_printf(b, "%s\"%s\"", i ? ", " : "", cols[i]);
}

static int sq_read(db *d, const char *table, const char (*cols)[DB_COPY_NAME], int ncols,
                   const char *const *key, db_copy_row_fn fn, void *ctx, struct err *err)
{
    struct db_value v[DB_COPY_COLS];
    struct buf sql;
    sqlite3_stmt *st = NULL;
    int rc, i;

    buf_init(&sql, 4096);
    buf_puts(&sql, "SELECT ");
    column_list(&sql, cols, ncols);
    buf_printf(&sql, " FROM \"%s\" ORDER BY ", table);
    for (i = 0; key[i] != NULL; i++)
        buf_printf(&sql, "%s\"%s\"", i ? ", " : "", key[i]);
    if (buf_failed(&sql)) {
        buf_free(&sql);
        return err_nomem(err);
    }
    rc = sqlite3_prepare_v2(db_handle(d), buf_str(&sql), -1, &st, NULL);
    buf_free(&sql);
    if (rc != SQLITE_OK)
        return db_fail(d, err);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (i = 0; i < ncols; i++) {
            memset(&v[i], 0, sizeof v[i]);
            switch (sqlite3_column_type(st, i)) {
            case SQLITE_INTEGER:
                v[i].type = DBV_INT;
                v[i].i = sqlite3_column_int64(st, i);
                break;
            case SQLITE_FLOAT:
                v[i].type = DBV_REAL;
                v[i].r = sqlite3_column_double(st, i);
                break;
            case SQLITE_TEXT:
                v[i].type = DBV_TEXT;
                v[i].p = sqlite3_column_text(st, i);
                v[i].n = (size_t)sqlite3_column_bytes(st, i);
                break;
            case SQLITE_BLOB:
                v[i].type = DBV_BLOB;
                v[i].p = sqlite3_column_blob(st, i);
                v[i].n = (size_t)sqlite3_column_bytes(st, i);
                break;
            default:
                v[i].type = DBV_NULL;
            }
        }
        if (fn(ctx, v, ncols, err) != 0) {
            sqlite3_finalize(st);
            return -1;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

struct loader {
    db *d;
    sqlite3_stmt *st;
};

static int sq_load_open(db *d, const char *table, const char (*cols)[DB_COPY_NAME],
                        int ncols, int clear, void **w, struct err *err)
{
    struct loader *l;
    struct buf sql;
    char del[160];
    int rc, i;

    *w = NULL;
    if (clear) {
        snprintf(del, sizeof del, "DELETE FROM \"%s\"", table);
        if (db_exec(d, del, err) != 0)
            return -1;
    }
    buf_init(&sql, 4096);
    buf_printf(&sql, "INSERT INTO \"%s\" (", table);
    column_list(&sql, cols, ncols);
    buf_puts(&sql, ") VALUES (");
    for (i = 0; i < ncols; i++)
        buf_printf(&sql, "%s?%d", i ? ", " : "", i + 1);
    buf_puts(&sql, ")");
    l = buf_failed(&sql) ? NULL : xcalloc(1, sizeof *l);
    if (l == NULL) {
        buf_free(&sql);
        return err_nomem(err);
    }
    l->d = d;
    rc = sqlite3_prepare_v2(db_handle(d), buf_str(&sql), -1, &l->st, NULL);
    buf_free(&sql);
    if (rc != SQLITE_OK) {
        xfree(l);
        return db_fail(d, err);
    }
    *w = l;
    return 0;
}

static int sq_load_row(void *w, const struct db_value *v, int ncols, struct err *err)
{
    struct loader *l = w;
    int rc;
    for (int i = 0; i < ncols; i++) {
        switch (v[i].type) {
        case DBV_INT:
            sqlite3_bind_int64(l->st, i + 1, v[i].i);
            break;
        case DBV_REAL:
            sqlite3_bind_double(l->st, i + 1, v[i].r);
            break;
        case DBV_TEXT:
            sqlite3_bind_text64(l->st, i + 1, v[i].p, (sqlite3_uint64)v[i].n,
                                SQLITE_STATIC, SQLITE_UTF8);
            break;
        case DBV_BLOB:
            sqlite3_bind_blob64(l->st, i + 1, v[i].n ? v[i].p : "",
                                (sqlite3_uint64)v[i].n, SQLITE_STATIC);
            break;
        default:
            sqlite3_bind_null(l->st, i + 1);
        }
    }
    rc = sqlite3_step(l->st);
    sqlite3_reset(l->st);
    sqlite3_clear_bindings(l->st);
    if (rc != SQLITE_DONE)
        return db_fail(l->d, err);
    return 0;
}

static int sq_load_close(void *w, int ok, struct err *err)
{
    struct loader *l = w;
    (void)ok;
    (void)err;
    if (l == NULL)
        return 0;
    sqlite3_finalize(l->st);
    xfree(l);
    return 0;
}

static int sq_finish(db *d, struct err *err)
{
    /* INTEGER PRIMARY KEY takes max(id) + 1 by itself. db/copy.c leaves
     * watch_counts to the target: every judgement counted, the mark at the
     * newest judged run (schema.sql migration 10). */
    if (db_exec(d,
                "INSERT INTO watch_counts (watch_id, judged, out) SELECT watch_id, "
                "count(*), sum(out) FROM judgements GROUP BY watch_id",
                err) != 0)
        return -1;
    return db_exec(
        d,
        "UPDATE watch_counts_upto SET run_id = coalesce((SELECT max(run_id) FROM "
        "judgements), 0)",
        err);
}

const struct db_copy_ops db_sqlite_copy = {
    sq_snapshot,  sq_tables,   sq_columns,    sq_count,  sq_read,
    sq_load_open, sq_load_row, sq_load_close, sq_finish,
};
