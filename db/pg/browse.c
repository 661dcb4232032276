/* browse: the PostgreSQL implementation of db/browse.h (the same reads as
 * db/sqlite/browse.c). */
#include "db/browse.h"
#include "common/buf.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

int pg_app_has_kernels(db *d, long long app_id, struct err *err)
{
    long long one;
    return pg_scalar(d, &one,
                     "SELECT 1 FROM run_configs c JOIN kernels k ON "
                     "k.run_id = c.last_run_id WHERE c.app_id = $1 LIMIT 1",
                     err, "i", app_id);
}

static const char *const names_sql[] = {
    [DB_NAMES_KERNEL_APPS] = "SELECT a.name FROM applications a WHERE EXISTS (SELECT 1 "
                             "FROM run_configs c JOIN kernels k ON k.run_id = "
                             "c.last_run_id WHERE c.app_id = a.id) AND $1::text IS NOT "
                             "NULL AND $2::text IS NOT NULL ORDER BY a.name",
    [DB_NAMES_KERNEL_SYSTEMS] =
        "SELECT DISTINCT s.name FROM run_configs c JOIN systems s "
        "ON s.id = c.system_id WHERE c.app_id = (SELECT id FROM "
        "applications WHERE name = $1) AND EXISTS (SELECT 1 FROM kernels "
        "k WHERE k.run_id = c.last_run_id) AND $2::text IS NOT NULL ORDER BY s.name",
    [DB_NAMES_KERNEL_EXES] =
        "SELECT DISTINCT e.name FROM run_configs c JOIN "
        "executables e ON e.id = c.exe_id WHERE c.app_id = (SELECT id "
        "FROM applications WHERE name = $1) AND c.system_id = (SELECT id "
        "FROM systems WHERE name = $2) AND EXISTS (SELECT 1 FROM kernels "
        "k WHERE k.run_id = c.last_run_id) ORDER BY e.name",
    [DB_NAMES_TEMPLATE_APPS] = "SELECT DISTINCT a.name FROM templates t JOIN "
                               "applications a ON a.id = t.app_id WHERE $1::text IS NOT "
                               "NULL AND $2::text IS NOT NULL ORDER BY a.name",
    [DB_NAMES_APP_SYSTEMS] = "SELECT DISTINCT s.name FROM run_configs c JOIN systems "
                             "s ON s.id = c.system_id WHERE c.app_id = (SELECT id FROM "
                             "applications WHERE name = $1) AND $2::text IS NOT NULL "
                             "ORDER BY s.name",
    [DB_NAMES_SYSTEM_CURVES] = "SELECT DISTINCT b.name FROM system_benchmarks b JOIN "
                               "systems s ON s.id = b.system_id WHERE s.name = $2 AND "
                               "b.args <> '{}' AND $1::text IS NOT NULL ORDER BY b.name",
};

/* Column 0 of every row of r appended to out (as {"name"} objects when
 * as_obj). Clears r. Returns 0 or -1. */
static int collect_names(PGresult *r, json_t *out, int as_obj, struct err *err)
{
    int i;
    for (i = 0; i < PQntuples(r); i++) {
        json_t *v = json_string(PQgetvalue(r, i, 0));
        if (v == NULL || (as_obj && (v = json_pack("{s:o}", "name", v)) == NULL) ||
            json_array_append_new(out, v) != 0) {
            PQclear(r);
            return err_nomem(err);
        }
    }
    PQclear(r);
    return 0;
}

json_t *pg_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err)
{
    PGresult *r;
    json_t *out;
    if ((unsigned)which >= sizeof names_sql / sizeof names_sql[0]) {
        err_set(err, 500, "internal", NULL, "no such list");
        return NULL;
    }
    /* Every statement takes both parameters (a prepared statement must
     * know the type of each), as "" when not given, as on SQLite. */
    r = pg_params(d, names_sql[which], err, "tt", app ? app : "", sys ? sys : "");
    if (r == NULL)
        return NULL;
    if ((out = json_array()) == NULL) {
        PQclear(r);
        err_nomem(err);
        return NULL;
    }
    if (collect_names(r, out, 1, err) != 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *pg_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err)
{
    static const char sql_metrics[] =
        "SELECT DISTINCT m.name FROM unnest($1::bigint[]) j(id) JOIN run_metrics m ON "
        "m.run_id = j.id ORDER BY m.name LIMIT 200";
    static const char sql_kernels[] =
        "SELECT k.name FROM unnest($1::bigint[]) j(id) JOIN kernels k ON k.run_id = j.id "
        "GROUP BY k.name ORDER BY min(k.seq), k.name LIMIT 200";
    json_t *out = NULL;
    struct buf list;
    PGresult *r;

    buf_init(&list, 1u << 20);
    pg_id_array(ids, n, &list);
    if (buf_failed(&list)) {
        buf_free(&list);
        err_nomem(err);
        return NULL;
    }
    r = pg_params(d, kernels ? sql_kernels : sql_metrics, err, "t", buf_str(&list));
    buf_free(&list);
    if (r == NULL)
        return NULL;
    if ((out = json_array()) == NULL) {
        PQclear(r);
        err_nomem(err);
        return NULL;
    }
    if (collect_names(r, out, 0, err) != 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}
