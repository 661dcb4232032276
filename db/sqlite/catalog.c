/* catalog: the SQLite toolkit's rows as JSON (sql.h) and the ids of
 * applications and systems; the catalog itself is db/catalog.c. */
#include "db/catalog.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"
#include "common/sha256.h"
#include "common/xalloc.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <string.h>

static void bindv(sqlite3_stmt *st, const char *fmt, va_list ap)
{
    int i;
    for (i = 0; fmt && fmt[i]; i++) {
        switch (fmt[i]) {
        case 't': {
            const char *s = va_arg(ap, const char *);
            if (s)
                sqlite3_bind_text(st, i + 1, s, -1, SQLITE_TRANSIENT);
            else
                sqlite3_bind_null(st, i + 1);
            break;
        }
        case 'i':
            sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
            break;
        case 'd':
            sqlite3_bind_double(st, i + 1, va_arg(ap, double));
            break;
        default:
            break;
        }
    }
}

static json_t *column_value(sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        return json_integer(sqlite3_column_int64(st, i));
    case SQLITE_FLOAT:
        return json_real(sqlite3_column_double(st, i));
    case SQLITE_TEXT:
        return json_stringn((const char *)sqlite3_column_text(st, i),
                            (size_t)sqlite3_column_bytes(st, i));
    default:
        return json_null();
    }
}

static json_t *rows_json(db *d, sqlite3_stmt *st, struct err *err)
{
    json_t *arr = json_array();
    int rc, ncol = sqlite3_column_count(st), i;

    if (arr == NULL) {
        err_nomem(err);
        return NULL;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *obj = json_object();
        for (i = 0; i < ncol; i++) {
            const char *name = sqlite3_column_name(st, i);
            size_t len = strlen(name);
            json_t *v;
            if (len > 5 && strcmp(name + len - 5, "_json") == 0) {
                const char *txt = (const char *)sqlite3_column_text(st, i);
                char key[64];
                v = txt ? json_loads(txt, JSON_DECODE_ANY, NULL) : json_null();
                if (v == NULL)
                    v = json_null();
                snprintf(key, sizeof key, "%.*s", (int)(len - 5), name);
                json_object_set_new(obj, key, v);
            } else {
                json_object_set_new(obj, name, column_value(st, i));
            }
        }
        json_array_append_new(arr, obj);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        json_decref(arr);
        db_fail(d, err);
        return NULL;
    }
    return arr;
}

json_t *db_query_json(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    sqlite3_stmt *st = db_stmt(d, sql, err);
    va_list ap;
    if (st == NULL)
        return NULL;
    va_start(ap, fmt);
    bindv(st, fmt, ap);
    va_end(ap);
    return rows_json(d, st, err);
}

int db_attach_rows(db *d, json_t *obj, const char *key, const char *sql, long long id,
                   struct err *err)
{
    json_t *rows = db_query_json(d, sql, err, "i", id);
    return rows != NULL && json_object_set_new(obj, key, rows) == 0;
}

json_t *db_query_one(db *d, const char *what, const char *sql, struct err *err,
                     const char *fmt, ...)
{
    sqlite3_stmt *st = db_stmt(d, sql, err);
    json_t *arr, *one;
    va_list ap;
    if (st == NULL)
        return NULL;
    va_start(ap, fmt);
    bindv(st, fmt, ap);
    va_end(ap);
    arr = rows_json(d, st, err);
    if (arr == NULL)
        return NULL;
    one = json_array_get(arr, 0);
    if (one == NULL) {
        json_decref(arr);
        err_set(err, 404, "not_found", NULL, "%s not found", what);
        return NULL;
    }
    json_incref(one);
    json_decref(arr);
    return one;
}

int db_run_sql(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    sqlite3_stmt *st = db_stmt(d, sql, err);
    va_list ap;
    int rc;
    if (st == NULL)
        return -1;
    va_start(ap, fmt);
    bindv(st, fmt, ap);
    va_end(ap);
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return db_fail(d, err);
    return sqlite3_changes(db_handle(d));
}

static long long scalar_id(db *d, const char *sql, const char *name, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, sql, err);
    long long id = 0;
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(d, err);
    return id;
}

long long sq_app_id(db *d, const char *name, int create, struct err *err)
{
    long long id = scalar_id(d, "SELECT id FROM applications WHERE name = ?1", name, err);
    if (id != 0 || !create)
        return id;
    if (db_run_sql(d, "INSERT INTO applications (name) VALUES (?1)", err, "t", name) < 0)
        return -1;
    return sqlite3_last_insert_rowid(db_handle(d));
}

long long sq_system_id(db *d, const char *name, int create, struct err *err)
{
    long long id = scalar_id(d, "SELECT id FROM systems WHERE name = ?1", name, err);
    if (id != 0 || !create)
        return id;
    if (db_run_sql(d, "INSERT INTO systems (name) VALUES (?1)", err, "t", name) < 0)
        return -1;
    return sqlite3_last_insert_rowid(db_handle(d));
}
