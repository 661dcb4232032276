/* browse: the SQLite implementation of db/browse.h. Every step loop checks
 * its final result (SQLITE_DONE) and fails through db_fail otherwise, so a
 * damaged database never reads as an empty answer. */
#include "db/browse.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

#include <stdlib.h>

int sq_app_has_kernels(db *d, long long app_id, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d,
                               "SELECT 1 FROM run_configs c JOIN kernels k ON "
                               "k.run_id = c.last_run_id WHERE c.app_id = ?1 LIMIT 1",
                               err);
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, app_id);
    rc = sqlite3_step(st);
    sqlite3_reset(st); /* ends the read: the statement stays cached */
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

static const char *const names_sql[] = {
    [DB_NAMES_KERNEL_APPS] =
        "SELECT a.name FROM applications a WHERE EXISTS (SELECT 1 "
        "FROM run_configs c JOIN kernels k ON k.run_id = c.last_run_id "
        "WHERE c.app_id = a.id) ORDER BY a.name",
    [DB_NAMES_KERNEL_SYSTEMS] =
        "SELECT DISTINCT s.name FROM run_configs c JOIN systems s "
        "ON s.id = c.system_id WHERE c.app_id = (SELECT id FROM "
        "applications WHERE name = ?1) AND EXISTS (SELECT 1 FROM kernels "
        "k WHERE k.run_id = c.last_run_id) ORDER BY s.name",
    [DB_NAMES_KERNEL_EXES] =
        "SELECT DISTINCT e.name FROM run_configs c JOIN "
        "executables e ON e.id = c.exe_id WHERE c.app_id = (SELECT id "
        "FROM applications WHERE name = ?1) AND c.system_id = (SELECT id "
        "FROM systems WHERE name = ?2) AND EXISTS (SELECT 1 FROM kernels "
        "k WHERE k.run_id = c.last_run_id) ORDER BY e.name",
    [DB_NAMES_TEMPLATE_APPS] = "SELECT DISTINCT a.name FROM templates t JOIN "
                               "applications a ON a.id = t.app_id ORDER BY a.name",
    [DB_NAMES_APP_SYSTEMS] = "SELECT DISTINCT s.name FROM run_configs c JOIN systems "
                             "s ON s.id = c.system_id WHERE c.app_id = (SELECT id FROM "
                             "applications WHERE name = ?1) ORDER BY s.name",
    [DB_NAMES_SYSTEM_CURVES] = "SELECT DISTINCT b.name FROM system_benchmarks b JOIN "
                               "systems s ON s.id = b.system_id WHERE s.name = ?2 AND "
                               "b.args <> '{}' ORDER BY b.name",
};

/* Steps st to the end, appending column 0 of each row to out (as {"name"}
 * objects when as_obj). Returns 0, or -1 through db_fail. */
static int collect_names(db *d, sqlite3_stmt *st, json_t *out, int as_obj,
                         struct err *err)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(st, 0);
        json_t *v = json_string(n ? n : "");
        if (v == NULL || (as_obj && (v = json_pack("{s:o}", "name", v)) == NULL) ||
            json_array_append_new(out, v) != 0) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

json_t *sq_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err)
{
    sqlite3_stmt *st;
    json_t *out;
    if ((unsigned)which >= sizeof names_sql / sizeof names_sql[0]) {
        err_set(err, 500, "internal", NULL, "no such list");
        return NULL;
    }
    if ((st = db_stmt(d, names_sql[which], err)) == NULL)
        return NULL;
    if (sqlite3_bind_parameter_count(st) >= 1)
        sqlite3_bind_text(st, 1, app ? app : "", -1, SQLITE_TRANSIENT);
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_text(st, 2, sys ? sys : "", -1, SQLITE_TRANSIENT);
    if ((out = json_array()) == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (collect_names(d, st, out, 1, err) != 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *sq_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err)
{
    static const char sql_metrics[] =
        "SELECT DISTINCT m.name FROM json_each(?1) j JOIN run_metrics m ON m.run_id = "
        "j.value ORDER BY m.name LIMIT 200";
    static const char sql_kernels[] =
        "SELECT k.name FROM json_each(?1) j JOIN kernels k ON k.run_id = j.value "
        "GROUP BY k.name ORDER BY min(k.seq), k.name LIMIT 200";
    json_t *list = json_array(), *out = NULL;
    sqlite3_stmt *st;
    char *text;
    size_t i;

    for (i = 0; list && i < n; i++)
        json_array_append_new(list, json_integer(ids[i]));
    text = list ? json_dumps(list, JSON_COMPACT) : NULL;
    json_decref(list);
    if (text == NULL) {
        err_nomem(err);
        return NULL;
    }
    st = db_stmt(d, kernels ? sql_kernels : sql_metrics, err);
    if (st != NULL && (out = json_array()) != NULL) {
        sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
        if (collect_names(d, st, out, 0, err) != 0) {
            json_decref(out);
            out = NULL;
        }
    } else if (st != NULL) {
        err_nomem(err);
    }
    free(text);
    return out;
}
