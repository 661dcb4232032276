/* engine: the statement calls of db/engine.h on SQLite. A db_stmt is the
 * connection's cached sqlite3_stmt (db_stmt in db/sqlite/db.c); the SQL's
 * "?N" placeholders are SQLite's own and the parameter types are not needed. */
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

#include <sqlite3.h>

#define ST(s) ((sqlite3_stmt *)(s))

static struct db_stmt *sq_prepare(db *d, const char *sql, const char *types,
                                  struct err *err)
{
    (void)types;
    return (struct db_stmt *)db_stmt(d, sql, err);
}

static void sq_bind(struct db_stmt *s, int i, const struct db_value *v)
{
    switch (v->type) {
    case DBV_INT:
        sqlite3_bind_int64(ST(s), i, v->i);
        break;
    case DBV_REAL:
        sqlite3_bind_double(ST(s), i, v->r);
        break;
    case DBV_TEXT:
        sqlite3_bind_text(ST(s), i, v->p, (int)v->n, SQLITE_TRANSIENT);
        break;
    case DBV_BLOB:
        sqlite3_bind_blob(ST(s), i, v->p, (int)v->n, SQLITE_TRANSIENT);
        break;
    default:
        sqlite3_bind_null(ST(s), i);
        break;
    }
}

static int sq_step(db *d, struct db_stmt *s, struct err *err)
{
    int rc = sqlite3_step(ST(s));
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return db_fail(d, err);
}

static int sq_column_count(struct db_stmt *s)
{
    return sqlite3_column_count(ST(s));
}

static const char *sq_column_name(struct db_stmt *s, int i)
{
    return sqlite3_column_name(ST(s), i);
}

static void sq_column(struct db_stmt *s, int i, struct db_value *v)
{
    switch (sqlite3_column_type(ST(s), i)) {
    case SQLITE_INTEGER:
        v->type = DBV_INT;
        v->i = sqlite3_column_int64(ST(s), i);
        break;
    case SQLITE_FLOAT:
        v->type = DBV_REAL;
        v->r = sqlite3_column_double(ST(s), i);
        break;
    case SQLITE_TEXT:
        v->type = DBV_TEXT;
        v->p = sqlite3_column_text(ST(s), i);
        v->n = (size_t)sqlite3_column_bytes(ST(s), i);
        break;
    case SQLITE_BLOB:
        v->type = DBV_BLOB;
        v->p = sqlite3_column_blob(ST(s), i);
        v->n = (size_t)sqlite3_column_bytes(ST(s), i);
        break;
    default:
        v->type = DBV_NULL;
        break;
    }
}

static void sq_reset(struct db_stmt *s)
{
    sqlite3_reset(ST(s));
}

static long long sq_changes(db *d, struct db_stmt *s)
{
    (void)s;
    return sqlite3_changes(db_handle(d));
}

const struct db_engine db_sqlite_engine = {
    .name = "sqlite",
    .pg = 0,
    .open = sq_open,
    .close = sq_close,
    .prepare = sq_prepare,
    .bind = sq_bind,
    .step = sq_step,
    .column_count = sq_column_count,
    .column_name = sq_column_name,
    .column = sq_column,
    .reset = sq_reset,
    .changes = sq_changes,
    .exec = db_exec,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
    .savepoint = sq_savepoint,
    .backup = sq_backup,
    .check = sq_check,
    .copy = &db_sqlite_copy,
};
