/* browse: the lists pages and forms offer (db/browse.h), written once for
 * every engine on db/query.h. Every loop checks how its statement ended, so a
 * damaged database never reads as an empty answer. */
#include "db/browse.h"
#include "db/query.h"

#include <stdlib.h>

/* Kernels here are kernels with a time: what a breakdown draws and a
 * coupling sums (a kernel without one, SPEC §16, offers neither). */
int db_app_has_kernels(db *d, long long app_id, struct err *err)
{
    long long one;
    return dq_scalar(
        d, &one,
        "SELECT 1 FROM run_configs c JOIN kernels k ON "
        "k.run_id = c.last_run_id AND k.time IS NOT NULL WHERE c.app_id = ?1 "
        "LIMIT 1",
        err, "i", app_id);
}

/* Each takes both parameters (typed, so a statement may leave one unused),
 * as "" when not given. */
static const char *const names_sql[] = {
    [DB_NAMES_KERNEL_APPS] =
        "SELECT a.name FROM applications a WHERE EXISTS (SELECT 1 "
        "FROM run_configs c JOIN kernels k ON k.run_id = c.last_run_id "
        "AND k.time IS NOT NULL WHERE c.app_id = a.id) ORDER BY a.name",
    [DB_NAMES_KERNEL_SYSTEMS] =
        "SELECT DISTINCT s.name FROM run_configs c JOIN systems s "
        "ON s.id = c.system_id WHERE c.app_id = (SELECT id FROM "
        "applications WHERE name = ?1) AND EXISTS (SELECT 1 FROM kernels "
        "k WHERE k.run_id = c.last_run_id AND k.time IS NOT NULL) ORDER BY s.name",
    [DB_NAMES_KERNEL_EXES] =
        "SELECT DISTINCT e.name FROM run_configs c JOIN "
        "executables e ON e.id = c.exe_id WHERE c.app_id = (SELECT id "
        "FROM applications WHERE name = ?1) AND c.system_id = (SELECT id "
        "FROM systems WHERE name = ?2) AND EXISTS (SELECT 1 FROM kernels "
        "k WHERE k.run_id = c.last_run_id AND k.time IS NOT NULL) ORDER BY e.name",
    [DB_NAMES_TEMPLATE_APPS] = "SELECT DISTINCT a.name FROM templates t JOIN "
                               "applications a ON a.id = t.app_id ORDER BY a.name",
    [DB_NAMES_APP_SYSTEMS] = "SELECT DISTINCT s.name FROM run_configs c JOIN systems "
                             "s ON s.id = c.system_id WHERE c.app_id = (SELECT id FROM "
                             "applications WHERE name = ?1) ORDER BY s.name",
    /* one entry a series: an OSU log's placements are curves of their own */
    [DB_NAMES_SYSTEM_CURVES] = "SELECT b.name, b.label, b.test FROM system_benchmarks b "
                               "JOIN systems s ON s.id = b.system_id WHERE s.name = ?2 "
                               "AND b.args <> '{}' GROUP BY b.name, b.label, b.test "
                               "ORDER BY b.name, min(b.id)",
};

/* Steps st to the end, appending column 0 of each row to out. Returns 0
 * or -1. */
static int collect_names(db *d, struct db_stmt *st, json_t *out, struct err *err)
{
    int rc;
    while ((rc = dq_step(d, st, err)) == 1) {
        const char *n = dq_text(d, st, 0);
        json_t *v = json_string(n ? n : "");
        if (v == NULL || json_array_append_new(out, v) != 0) {
            dq_reset(d, st);
            return err_nomem(err);
        }
    }
    return rc;
}

json_t *db_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err)
{
    if ((unsigned)which >= sizeof names_sql / sizeof names_sql[0]) {
        err_set(err, ERR_INTERNAL, "internal", NULL, "no such list");
        return NULL;
    }
    return dq_json(d, names_sql[which], err, "tt", app ? app : "", sys ? sys : "");
}

/* The names sql reads for the ids, given as one JSON array parameter. */
static json_t *names_of(db *d, const char *sql, const long long *ids, size_t n,
                        struct err *err)
{
    json_t *list = json_array(), *out = NULL;
    struct db_stmt *st;
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
    st = dq_prepare(d, sql, err, "t", text);
    if (st != NULL && (out = json_array()) != NULL) {
        if (collect_names(d, st, out, err) != 0) {
            json_decref(out);
            out = NULL;
        }
    } else if (st != NULL) {
        dq_reset(d, st);
        err_nomem(err);
    }
    free(text);
    return out;
}

json_t *db_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err)
{
    /* kernels with a time (what a fit of kernel:NAME or a scaling can use,
     * SPEC §16) */
    return names_of(
        d,
        kernels
            ? DQ_SQL(d,
                     "SELECT k.name FROM json_each(?1) j JOIN kernels k ON k.run_id = "
                     "j.value AND k.time IS NOT NULL GROUP BY k.name ORDER BY "
                     "min(k.seq), k.name LIMIT 200",
                     "SELECT k.name FROM jsonb_array_elements_text(?1::jsonb) j(v) "
                     "JOIN kernels k ON k.run_id = j.v::bigint AND k.time IS NOT NULL "
                     "GROUP BY k.name ORDER BY min(k.seq), k.name LIMIT 200")
            : DQ_SQL(d,
                     "SELECT DISTINCT m.name FROM json_each(?1) j JOIN run_metrics m "
                     "ON m.run_id = j.value ORDER BY m.name LIMIT 200",
                     "SELECT DISTINCT m.name FROM jsonb_array_elements_text(?1::jsonb) "
                     "j(v) JOIN run_metrics m ON m.run_id = j.v::bigint ORDER BY "
                     "m.name LIMIT 200"),
        ids, n, err);
}

json_t *db_config_names(db *d, const long long *ids, size_t n, int kernels,
                        struct err *err)
{
    /* every run of the configurations (runs_series: config_id first) */
    return names_of(
        d,
        kernels
            ? DQ_SQL(d,
                     "SELECT k.name FROM json_each(?1) j JOIN runs l ON l.id = j.value "
                     "JOIN runs r ON r.config_id = l.config_id JOIN kernels k ON "
                     "k.run_id = r.id AND k.time IS NOT NULL GROUP BY k.name ORDER BY "
                     "min(k.seq), k.name LIMIT 200",
                     "SELECT k.name FROM jsonb_array_elements_text(?1::jsonb) j(v) "
                     "JOIN runs l ON l.id = j.v::bigint JOIN runs r ON r.config_id = "
                     "l.config_id JOIN kernels k ON k.run_id = r.id AND k.time IS NOT "
                     "NULL GROUP BY k.name ORDER BY min(k.seq), k.name LIMIT 200")
            : DQ_SQL(d,
                     "SELECT DISTINCT m.name FROM json_each(?1) j JOIN runs l ON l.id = "
                     "j.value JOIN runs r ON r.config_id = l.config_id JOIN run_metrics "
                     "m ON m.run_id = r.id ORDER BY m.name LIMIT 200",
                     "SELECT DISTINCT m.name FROM jsonb_array_elements_text(?1::jsonb) "
                     "j(v) JOIN runs l ON l.id = j.v::bigint JOIN runs r ON r.config_id "
                     "= l.config_id JOIN run_metrics m ON m.run_id = r.id ORDER BY "
                     "m.name LIMIT 200"),
        ids, n, err);
}
