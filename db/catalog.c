/* catalog: everything but runs; see catalog.h. Written once for every
 * engine on db/query.h.
 *
 * Reads go through dq_json, which turns rows into JSON objects by column
 * name, so each read below is one SQL constant. Run counts come from the
 * configuration summaries (run_configs, kept with each run), so a list or a
 * count costs a few rows per configuration, not a walk over every run.
 * Sums over bigint columns are numeric on PostgreSQL; whole numerics come
 * back as JSON integers, as SQLite's sums do. Creations that may race with
 * another server use ON CONFLICT, never a read before the write.
 */
#include "db/catalog.h"
#include "db/query.h"
#include "common/sha256.h"
#include "common/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Name -> id, created on first use when create. The insert that loses a race
 * with another server's does nothing; the read after it sees the winner's
 * row. */
static long long named_id(db *d, const char *sel, const char *ins, const char *name,
                          int create, struct err *err)
{
    long long id = 0;
    for (int k = 0; k < 2; k++) {
        int rc = dq_scalar(d, &id, sel, err, "t", name);
        if (rc != 0 || !create)
            return rc < 0 ? -1 : rc ? id : 0;
        rc = dq_scalar(d, &id, ins, err, "t", name);
        if (rc != 0)
            return rc < 0 ? -1 : id;
    }
    return err_set(err, ERR_INTERNAL, "database", NULL,
                   "database error: cannot create %s", name);
}

long long db_app_id(db *d, const char *name, int create, struct err *err)
{
    return named_id(d, "SELECT id FROM applications WHERE name = ?1",
                    "INSERT INTO applications (name) VALUES (?1) ON CONFLICT (name) DO "
                    "NOTHING RETURNING id",
                    name, create, err);
}

long long db_system_id(db *d, const char *name, int create, struct err *err)
{
    return named_id(
        d, "SELECT id FROM systems WHERE name = ?1",
        "INSERT INTO systems (name) VALUES (?1) ON CONFLICT (name) DO NOTHING "
        "RETURNING id",
        name, create, err);
}

/* The id of an application or system that must already exist: catalog
 * writes (benchmarks, parameters, templates, couplings) never create one
 * (only a run does, SPEC §4), so a misspelt name is an ERR_NOT_FOUND naming it. */
static long long existing_app(db *d, const char *name, const char *field, struct err *err)
{
    long long id = db_app_id(d, name, 0, err);
    if (id == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", field, "no application named %s",
                       name);
    return id;
}

static long long existing_system(db *d, const char *name, const char *field,
                                 struct err *err)
{
    long long id = db_system_id(d, name, 0, err);
    if (id == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", field, "no system named %s",
                       name);
    return id;
}

/* ---- applications and systems ------------------------------------------ */

json_t *db_apps_list(db *d, struct err *err)
{
    return dq_json(
        d,
        "SELECT a.name, a.description, a.demo, a.created_at, "
        "(SELECT count(*) FROM executables e WHERE e.app_id = a.id) AS executables, "
        "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.app_id = a.id) AS "
        "runs, "
        "(SELECT count(DISTINCT c.system_id) FROM run_configs c WHERE c.app_id = a.id) "
        "AS systems, "
        "(SELECT count(*) FROM templates t WHERE t.app_id = a.id) AS templates "
        "FROM applications a ORDER BY a.name",
        err, "");
}

/* Everything but the templates comes from the summaries kept with each run
 * (run_configs, app_kernels, app_metrics: schema.sql), so the read costs a
 * few rows per configuration however many runs the application holds. The
 * inputs' minimum and maximum are read from the configurations' canonical
 * inputs, whose numbers SQLite writes with 15 significant digits. */
json_t *db_app_get(db *d, const char *name, struct err *err)
{
    json_t *app;
    long long id;
    int ok = 1;

    app = dq_one(d, "application",
                 "SELECT id, name, description, demo, created_at, "
                 "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE "
                 "c.app_id = a.id) AS runs FROM applications a WHERE name = ?1",
                 err, "t", name);
    if (app == NULL)
        return NULL;
    id = json_integer_value(json_object_get(app, "id"));
    json_object_del(app, "id");
    ok = ok && dq_attach(d, app, "executables",
                         "SELECT e.name, e.compiler, e.flags, e.version, "
                         "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE "
                         "c.app_id = ?1 AND c.exe_id = e.id) AS runs "
                         "FROM executables e WHERE e.app_id = ?1 ORDER BY e.name",
                         id, err);
    ok = ok && dq_attach(d, app, "systems",
                         "SELECT s.name, sum(c.runs) AS runs, min(c.nprocs) AS "
                         "min_nprocs, max(c.nprocs) AS max_nprocs FROM run_configs c "
                         "JOIN systems s ON s.id = c.system_id WHERE c.app_id = ?1 "
                         "GROUP BY s.id ORDER BY s.name",
                         id, err);
    ok = ok && dq_attach(d, app, "nprocs",
                         "SELECT DISTINCT nprocs FROM run_configs WHERE app_id = ?1 "
                         "ORDER BY nprocs",
                         id, err);
    ok = ok && dq_attach(d, app, "inputs",
                         DQ_SQL(d,
                                "SELECT j.key AS name, count(DISTINCT j.value) AS "
                                "values_count, min(j.value) AS min, max(j.value) AS max "
                                "FROM run_configs c, json_each(c.inputs) j WHERE "
                                "c.app_id = ?1 GROUP BY j.key ORDER BY j.key",
                                "SELECT j.key COLLATE \"C\" AS name, count(DISTINCT "
                                "(j.value #>> '{}')::float8) AS values_count, "
                                "min((j.value #>> '{}')::float8) AS min, "
                                "max((j.value #>> '{}')::float8) AS max "
                                "FROM run_configs c, jsonb_each(c.inputs::jsonb) j WHERE "
                                "c.app_id = ?1 GROUP BY 1 ORDER BY 1"),
                         id, err);
    ok = ok && dq_attach(d, app, "metrics",
                         "SELECT name FROM app_metrics WHERE app_id = ?1 ORDER BY name",
                         id, err);
    ok = ok && dq_attach(d, app, "kernels",
                         "SELECT name, records FROM app_kernels WHERE app_id = ?1 "
                         "ORDER BY first_seq, name",
                         id, err);
    ok = ok && dq_attach(d, app, "templates",
                         "SELECT name, kernel, expression, description FROM templates "
                         "WHERE app_id = ?1 ORDER BY name",
                         id, err);
    if (!ok) {
        json_decref(app);
        return NULL;
    }
    return app;
}

json_t *db_systems_list(db *d, struct err *err)
{
    return dq_json(
        d,
        "SELECT s.name, s.description, s.processor, s.cores, s.network, s.demo, "
        "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.system_id = s.id) "
        "AS runs, "
        "(SELECT count(*) FROM system_benchmarks b WHERE b.system_id = s.id) AS "
        "benchmarks, "
        "(SELECT count(*) FROM system_parameters p WHERE p.system_id = s.id) AS "
        "parameters "
        "FROM systems s ORDER BY s.name",
        err, "");
}

json_t *db_system_get(db *d, const char *name, struct err *err)
{
    json_t *sys, *v;
    sys = dq_one(d, "system",
                 "SELECT name, description, processor, cores, network, "
                 "metadata AS metadata_json, demo, created_at, "
                 "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE "
                 "c.system_id = s.id) AS runs "
                 "FROM systems s WHERE name = ?1",
                 err, "t", name);
    if (sys == NULL)
        return NULL;
    v = db_params_list(d, name, err);
    if (v == NULL) {
        json_decref(sys);
        return NULL;
    }
    json_object_set_new(sys, "parameters", v);
    /* one entry a series (a name with its label and test), a name's series
     * in the order they were stored */
    v = dq_json(d,
                "SELECT b.name, b.label, b.test, count(*) AS measurements, "
                "min(b.time) AS min_time, max(b.time) AS max_time FROM system_benchmarks "
                "b JOIN systems s ON s.id = b.system_id WHERE s.name = ?1 "
                "GROUP BY b.name, b.label, b.test ORDER BY b.name, min(b.id)",
                err, "t", name);
    if (v == NULL) {
        json_decref(sys);
        return NULL;
    }
    json_object_set_new(sys, "benchmarks", v);
    return sys;
}

json_t *db_counts(db *d, struct err *err)
{
    return dq_one(
        d, "counts",
        "SELECT (SELECT count(*) FROM applications) AS applications, "
        "(SELECT count(*) FROM systems) AS systems, "
        "(SELECT coalesce(sum(runs), 0) FROM run_configs) AS runs, "
        "(SELECT count(*) FROM models) AS models, "
        "(SELECT count(*) FROM templates) AS templates, "
        "(SELECT count(*) FROM applications WHERE demo = 1) AS demo_applications",
        err, "");
}

static const char *str_field(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

int db_app_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err)
{
    if (db_app_id(d, name, 1, err) < 0)
        return -1;
    if (dq_run(d,
               "UPDATE applications SET description = coalesce(?2, description), "
               "demo = CASE WHEN demo > ?3 THEN demo ELSE ?3 END WHERE name = ?1",
               err, "tti", name, str_field(fields, "description"), (long long)demo) < 0)
        return -1;
    return 0;
}

int db_system_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err)
{
    json_t *cores = json_object_get(fields, "cores");
    json_t *meta = json_object_get(fields, "metadata");
    char *meta_txt = NULL;
    long long rc;

    if (db_system_id(d, name, 1, err) < 0)
        return -1;
    if (json_is_object(meta))
        meta_txt = json_dumps(meta, JSON_COMPACT | JSON_SORT_KEYS);
    rc = dq_run(d,
                "UPDATE systems SET description = coalesce(?2, description), "
                "processor = coalesce(?3, processor), network = coalesce(?4, network), "
                "cores = CASE WHEN ?5 >= 0 THEN ?5 ELSE cores END, "
                "metadata = coalesce(?6, metadata) WHERE name = ?1",
                err, "ttttit", name, str_field(fields, "description"),
                str_field(fields, "processor"), str_field(fields, "network"),
                json_is_integer(cores) ? (long long)json_integer_value(cores) : -1LL,
                meta_txt);
    free(meta_txt);
    if (rc < 0)
        return -1;
    if (demo &&
        dq_run(d, "UPDATE systems SET demo = 1 WHERE name = ?1", err, "t", name) < 0)
        return -1;
    return 0;
}

/* ---- benchmarks and parameters ------------------------------------------ */

int db_benchmarks_add(db *d, const char *system, const struct bench_record *b, size_t n,
                      struct err *err)
{
    long long sid = existing_system(d, system, NULL, err);
    size_t i;
    if (sid < 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (dq_run(d,
                   "INSERT INTO system_benchmarks (system_id, name, args, time, stat, "
                   "label, test) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                   err, "ittdttt", sid, b[i].name, b[i].args_json, b[i].time,
                   b[i].stat ? b[i].stat : "", b[i].label ? b[i].label : "",
                   b[i].test ? b[i].test : "") < 0)
            return -1;
    }
    return 0;
}

/* A benchmark record and its place in the import, ordered by what identifies
 * one (name, label, test, args, time, stat), then the place: for counting how
 * often each occurs. */
struct bench_at {
    const struct bench_record *r;
    size_t i;
};

static int str_cmp(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int bench_same(const struct bench_record *a, const struct bench_record *b)
{
    return strcmp(a->name, b->name) == 0 && str_cmp(a->label, b->label) == 0 &&
           str_cmp(a->test, b->test) == 0 && strcmp(a->args_json, b->args_json) == 0 &&
           a->time == b->time && str_cmp(a->stat, b->stat) == 0;
}

static int bench_cmp(const void *pa, const void *pb)
{
    const struct bench_at *x = pa, *y = pb;
    const struct bench_record *a = x->r, *b = y->r;
    int c = strcmp(a->name, b->name);
    if (c == 0)
        c = str_cmp(a->label, b->label);
    if (c == 0)
        c = str_cmp(a->test, b->test);
    if (c == 0)
        c = strcmp(a->args_json, b->args_json);
    if (c == 0)
        c = (a->time > b->time) - (a->time < b->time);
    if (c == 0)
        c = strcmp(a->stat ? a->stat : "", b->stat ? b->stat : "");
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

int db_benchmarks_import(db *d, const char *system, const struct bench_record *b,
                         size_t n, size_t *added, struct err *err)
{
    long long sid = db_system_id(d, system, 1, err);
    struct bench_at *order = NULL;
    size_t i, *nth = NULL;
    long long rc;
    int ret = -1;
    *added = 0;
    if (sid < 0)
        return -1;
    /* The same value measured twice in one output (a repetition, another
     * table of the same test) is two measurements: the k-th equal record of
     * the import is stored when fewer than k are, so that importing the
     * output again stores nothing and no repetition is lost. A series is
     * its name, label and test; a row stored without a test (before
     * migration 20 kept one) is of every test, so that importing an output
     * again after the upgrade stores nothing new either. */
    if (n > 0 && ((order = xcalloc(n, sizeof *order)) == NULL ||
                  (nth = xcalloc(n, sizeof *nth)) == NULL)) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < n; i++)
        order[i] = (struct bench_at){&b[i], i};
    if (n > 1)
        qsort(order, n, sizeof *order, bench_cmp);
    for (i = 0; i < n; i++)
        nth[order[i].i] =
            i && bench_same(order[i - 1].r, order[i].r) ? nth[order[i - 1].i] + 1 : 1;
    for (i = 0; i < n; i++) {
        rc = dq_run(d,
                    "INSERT INTO system_benchmarks (system_id, name, args, time, stat, "
                    "label, test) SELECT ?1, ?2, ?3, ?4, ?5, ?7, ?8 WHERE (SELECT "
                    "count(*) FROM system_benchmarks WHERE system_id = ?1 AND "
                    "name = ?2 AND args = ?3 AND time = ?4 AND stat = ?5 AND "
                    "label = ?7 AND (test = ?8 OR test = '')) < ?6",
                    err, "ittdtitt", sid, b[i].name, b[i].args_json, b[i].time,
                    b[i].stat ? b[i].stat : "", (long long)nth[i],
                    b[i].label ? b[i].label : "", b[i].test ? b[i].test : "");
        if (rc < 0)
            goto out;
        *added += (size_t)rc;
    }
    ret = 0;
out:
    xfree(order);
    xfree(nth);
    return ret;
}

json_t *db_benchmarks_list(db *d, const char *system, const char *name, struct err *err)
{
    return dq_json(d,
                   "SELECT b.name, b.label, b.test, b.args AS args_json, b.time, b.stat, "
                   "b.created_at "
                   "FROM system_benchmarks b JOIN systems s ON s.id = b.system_id "
                   "WHERE s.name = ?1 AND (?2 IS NULL OR b.name = ?2) "
                   "ORDER BY b.name, b.id",
                   err, "tt", system, name);
}

int db_params_set(db *d, const char *system, const struct param_record *p, size_t n,
                  struct err *err)
{
    long long sid = existing_system(d, system, NULL, err);
    size_t i;
    if (sid < 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (dq_run(
                d,
                "INSERT INTO system_parameters (system_id, name, args, expression, "
                "source) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (system_id, name) "
                "DO UPDATE SET args = excluded.args, expression = excluded.expression, "
                "source = excluded.source, "
                "updated_at = prophecy_now()",
                err, "itttt", sid, p[i].name, p[i].args, p[i].expression,
                p[i].source ? p[i].source : "") < 0)
            return -1;
    }
    return 0;
}

json_t *db_params_list(db *d, const char *system, struct err *err)
{
    return dq_json(d,
                   "SELECT p.name, p.args, p.expression, p.source, p.updated_at, "
                   "CASE WHEN p.args = '' THEN p.name ELSE p.name || '(' || p.args "
                   "|| ')' END AS signature FROM system_parameters p JOIN systems s "
                   "ON s.id = p.system_id WHERE s.name = ?1 ORDER BY p.name",
                   err, "t", system);
}

int db_param_delete(db *d, const char *system, const char *name, struct err *err)
{
    long long n = dq_run(d,
                         "DELETE FROM system_parameters WHERE name = ?2 AND system_id = "
                         "(SELECT id FROM systems WHERE name = ?1)",
                         err, "tt", system, name);
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "parameter %s not found",
                       name);
    return n < 0 ? -1 : 0;
}

/* ---- templates ------------------------------------------------------------ */

int db_template_put(db *d, const char *name, const char *application, const char *kernel,
                    const char *expression, const char *description, struct err *err)
{
    long long aid = existing_app(d, application, "application", err);
    if (aid < 0)
        return -1;
    if (dq_run(d,
               "INSERT INTO templates (name, app_id, kernel, expression, description) "
               "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (app_id, name) DO UPDATE SET "
               "kernel = excluded.kernel, "
               "expression = excluded.expression, description = excluded.description",
               err, "tittt", name, aid, kernel ? kernel : "", expression,
               description ? description : "") < 0)
        return -1;
    return 0;
}

json_t *db_templates_list(db *d, const char *application, struct err *err)
{
    return dq_json(d,
                   "SELECT t.name, a.name AS application, t.kernel, t.expression, "
                   "t.description, t.created_at FROM templates t JOIN applications a "
                   "ON a.id = t.app_id WHERE ?1 IS NULL OR a.name = ?1 "
                   "ORDER BY a.name, t.name",
                   err, "t", application);
}

json_t *db_template_get(db *d, const char *name, struct err *err)
{
    /* Templates are scoped to an application (migration 3); the global name
     * still finds one when it is unique, and says so when it is not. */
    json_t *all = dq_json(d, "SELECT app_id FROM templates WHERE name = ?1 LIMIT 2", err,
                          "t", name);
    size_t n = all ? json_array_size(all) : 0;
    json_decref(all);
    if (all == NULL)
        return NULL;
    if (n > 1) {
        err_set(err, ERR_CONFLICT, "conflict", NULL,
                "template %s exists in several applications: name the application", name);
        return NULL;
    }
    return dq_one(d, "template",
                  "SELECT t.name, a.name AS application, t.kernel, t.expression, "
                  "t.description, t.created_at FROM templates t JOIN applications a "
                  "ON a.id = t.app_id WHERE t.name = ?1",
                  err, "t", name);
}

/* ---- couplings ------------------------------------------------------------ */

int db_couplings_add(db *d, const struct coupling_record *c, size_t n, long long *ids,
                     struct err *err)
{
    size_t i;
    for (i = 0; i < n; i++) {
        long long aid = existing_app(d, c[i].application, "application", err);
        long long sid = aid < 0 ? -1 : existing_system(d, c[i].system, "system", err);
        if (sid < 0)
            return -1;
        if (dq_scalar(
                d, &ids[i],
                "INSERT INTO couplings (app_id, system_id, nprocs, inputs, kernels, "
                "alone, together) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
                err, "iiitttd", aid, sid, c[i].nprocs, c[i].inputs_json,
                c[i].kernels_json, c[i].alone_json, c[i].together) <= 0)
            return -1;
    }
    return 0;
}

json_t *db_couplings_list(db *d, const char *application, const char *system,
                          struct err *err)
{
    return dq_json(d,
                   "SELECT c.id, a.name AS application, s.name AS system, c.nprocs, "
                   "c.inputs AS inputs_json, c.kernels AS kernels_json, "
                   "c.alone AS alone_json, c.together, c.created_at FROM couplings c "
                   "JOIN applications a ON a.id = c.app_id JOIN systems s ON "
                   "s.id = c.system_id WHERE (?1 IS NULL OR a.name = ?1) AND "
                   "(?2 IS NULL OR s.name = ?2) ORDER BY c.id",
                   err, "tt", application, system);
}

/* ---- models ----------------------------------------------------------------- */

int db_model_save(db *d, const char *method, const char *application, const char *formula,
                  const char *request_json, const char *result_json, long long *id,
                  struct err *err)
{
    long long aid = 0;
    if (application && (aid = db_app_id(d, application, 0, err)) < 0)
        return -1;
    /* The request's "system": only a JSON object's string member names a
     * system (json_extract's reading, copied on PostgreSQL). */
    if (dq_scalar(
            d, id,
            DQ_SQL(d,
                   "INSERT INTO models (method, app_id, formula, request, result, "
                   "system_id) VALUES (?1, nullif(?2, 0), ?3, ?4, ?5, (SELECT id FROM "
                   "systems WHERE name = json_extract(?4, '$.system'))) RETURNING id",
                   "INSERT INTO models (method, app_id, formula, request, result, "
                   "system_id) VALUES (?1, nullif(?2, 0), ?3, ?4, ?5, (SELECT id "
                   "FROM systems WHERE name = (CASE WHEN jsonb_typeof(?4::jsonb) = "
                   "'object' THEN ?4::jsonb ->> 'system' END))) RETURNING id"),
            err, "tittt", method, aid, formula ? formula : "", request_json,
            result_json) <= 0)
        return -1;
    return 0;
}

json_t *db_model_get(db *d, long long id, struct err *err)
{
    return dq_one(
        d, "model",
        "SELECT m.id, m.method, m.name, a.name AS application, s.name AS system, "
        "m.formula, m.request AS request_json, m.result AS result_json, m.created_at "
        "FROM models m LEFT JOIN applications a ON a.id = m.app_id "
        "LEFT JOIN systems s ON s.id = m.system_id WHERE m.id = ?1",
        err, "i", id);
}

json_t *db_models_list(db *d, int limit, struct err *err)
{
    return dq_json(d,
                   "SELECT m.id, m.method, m.name, a.name AS application, "
                   "s.name AS system, m.formula, m.created_at FROM models m "
                   "LEFT JOIN applications a ON a.id = m.app_id LEFT JOIN systems "
                   "s ON s.id = m.system_id ORDER BY m.id DESC LIMIT ?1",
                   err, "i", (long long)limit);
}

/* ---- tokens ------------------------------------------------------------------ */

int db_token_create(db *d, const char *name, const uint8_t hash[32], struct err *err)
{
    long long n = dq_run(d,
                         "INSERT INTO tokens (name, hash) VALUES (?1, ?2) "
                         "ON CONFLICT (name) DO NOTHING",
                         err, "tb", name, (const void *)hash, (size_t)32);
    if (n == 0)
        return err_set(err, ERR_CONFLICT, "conflict", "name",
                       "a token named %s already exists", name);
    return n < 0 ? -1 : 0;
}

int db_token_revoke(db *d, const char *name, struct err *err)
{
    long long n = dq_run(d,
                         "UPDATE tokens SET revoked_at = prophecy_now() "
                         "WHERE name = ?1 AND revoked_at IS NULL",
                         err, "t", name);
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "name",
                       "no active token named %s", name);
    return n < 0 ? -1 : 0;
}

json_t *db_tokens_list(db *d, struct err *err)
{
    return dq_json(d, "SELECT name, created_at, revoked_at FROM tokens ORDER BY name",
                   err, "");
}

char *db_token_check(db *d, const uint8_t hash[32], struct err *err)
{
    struct db_stmt *st =
        dq_prepare(d, "SELECT name, hash FROM tokens WHERE revoked_at IS NULL", err, "");
    char *found = NULL;
    int rc;
    if (st == NULL)
        return NULL;
    /* Compare against every active token without stopping early, so the time
     * taken does not depend on which (if any) matches. */
    while ((rc = dq_step(d, st, err)) == 1) {
        size_t len = 0;
        const uint8_t *h = dq_blob(d, st, 1, &len);
        int match = h != NULL && len == 32 && ct_equal(h, hash, 32);
        if (match && found == NULL)
            found = xstrdup(dq_text(d, st, 0));
    }
    if (rc < 0) { /* a damaged store is an error, not "no such token" */
        xfree(found);
        return NULL;
    }
    return found;
}
