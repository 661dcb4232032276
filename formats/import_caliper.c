/* import_caliper: Caliper's JSON outputs into one run per file.
 *
 * Two shapes: cali-query's "format json" (a list of records, or with
 * json(object) an object whose "records" hold them), where each record names
 * its region path ("path", else "region" or "function", nested regions
 * joined with "/") and carries aggregated attributes; and "json-split"
 * (what Hatchet reads), where "nodes" form the region tree (label, parent),
 * "columns" name the values and "data" holds one row per node. Each region
 * path is a kernel. The kernel time is the first time column found in this
 * order: time (inc), max#inclusive#sum#time.duration,
 * inclusive#sum#time.duration, time.inclusive.duration,
 * inclusive#time.duration, time, max#sum#time.duration, sum#time.duration,
 * sum#sum#time.duration, time.duration, avg#inclusive#sum#time.duration,
 * avg#sum#time.duration (seconds, as Caliper reports time.duration; a column
 * ending in ".ns" is converted from nanoseconds); every other numeric column
 * is a kernel metric (but mpi.rank, mpi.world.size and thread.id, which say
 * where a record was measured). A path met in several records (per-rank records) keeps
 * the largest time. The run time is the sum of the top-level regions' times
 * when the time is inclusive, else the sum of all. nprocs is mpi.world.size
 * when the file's globals hold it, else 1.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

static const char *const time_keys[] = {"time (inc)",
                                        "max#inclusive#sum#time.duration",
                                        "inclusive#sum#time.duration",
                                        "time.inclusive.duration",
                                        "inclusive#time.duration",
                                        "time",
                                        "max#sum#time.duration",
                                        "sum#time.duration",
                                        "sum#sum#time.duration",
                                        "time.duration",
                                        "avg#inclusive#sum#time.duration",
                                        "avg#sum#time.duration",
                                        "sum#time.duration.ns",
                                        "time.duration.ns",
                                        NULL};

struct cal_kernel {
    char *path;
    double time;
    struct rec_kv *m;
    size_t nm;
};

struct cal {
    const char *file;
    arena *a;
    struct cal_kernel *k;
    size_t nk, cap;
    const char *time_key;
    long long nprocs;
};

/* Picks the time column among the names offered by next(). */
static const char *pick_time(const char *const *names, size_t n)
{
    for (int i = 0; time_keys[i]; i++)
        for (size_t j = 0; j < n; j++)
            if (strcmp(names[j], time_keys[i]) == 0)
                return time_keys[i];
    return NULL;
}

static struct cal_kernel *kernel(struct cal *c, const char *path, size_t len,
                                 struct err *err)
{
    for (size_t i = 0; i < c->nk; i++)
        if (strlen(c->k[i].path) == len && memcmp(c->k[i].path, path, len) == 0)
            return &c->k[i];
    if (c->nk >= LIMIT_KERNELS) {
        imp_fail_field(err, c->file, "regions", "more than %d regions", LIMIT_KERNELS);
        return NULL;
    }
    if (c->nk == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        struct cal_kernel *nk = xrealloc(c->k, nc * sizeof *nk);
        if (nk == NULL) {
            err_nomem(err);
            return NULL;
        }
        c->k = nk;
        c->cap = nc;
    }
    memset(&c->k[c->nk], 0, sizeof c->k[c->nk]);
    c->k[c->nk].time = -1;
    c->k[c->nk].path = imp_name(c->a, path, len, c->file, "path", err);
    if (c->k[c->nk].path == NULL)
        return NULL;
    return &c->k[c->nk++];
}

static int set_value(struct cal *c, struct cal_kernel *k, const char *key, double v,
                     struct err *err)
{
    if (strcmp(key, c->time_key) == 0) {
        double t = strstr(key, ".ns") ? v * 1e-9 : v;
        if (t > k->time)
            k->time = t;
        return 0;
    }
    for (size_t i = 0; i < k->nm; i++)
        if (strcmp(k->m[i].name, key) == 0) {
            if (v > k->m[i].value)
                k->m[i].value = v;
            return 0;
        }
    if (k->nm >= LIMIT_METRICS)
        return imp_fail_field(err, c->file, k->path, "region %s has more than %d metrics",
                              k->path, LIMIT_METRICS);
    if (k->m == NULL && (k->m = arena_alloc(c->a, LIMIT_METRICS * sizeof *k->m)) == NULL)
        return err_nomem(err);
    k->m[k->nm].name = imp_name(c->a, key, strlen(key), c->file, key, err);
    if (k->m[k->nm].name == NULL)
        return -1;
    k->m[k->nm++].value = v;
    return 0;
}

static void globals(struct cal *c, json_t *g)
{
    json_t *v = json_object_get(g, "mpi.world.size");
    if (json_is_integer(v) && json_integer_value(v) >= 1)
        c->nprocs = json_integer_value(v);
    else if (json_is_string(v)) {
        long long n;
        if (imp_integer(json_string_value(v), json_string_length(v), &n) == 0 && n >= 1)
            c->nprocs = n;
    }
}

/* Attributes that say where a record was measured, not what: not metrics. */
static int identity(const char *key)
{
    return strcmp(key, "mpi.rank") == 0 || strcmp(key, "mpi.world.size") == 0 ||
           strcmp(key, "thread.id") == 0;
}

static const char *record_path(json_t *r, size_t *len)
{
    static const char *const keys[] = {"path", "region", "function", NULL};
    for (int i = 0; keys[i]; i++) {
        json_t *v = json_object_get(r, keys[i]);
        if (json_is_string(v)) {
            *len = json_string_length(v);
            return json_string_value(v);
        }
    }
    return NULL;
}

static int records(struct cal *c, json_t *list, struct err *err)
{
    size_t i;
    json_t *r;

    /* the time column: the first of time_keys any record holds */
    for (int t = 0; time_keys[t] && c->time_key == NULL; t++)
        json_array_foreach(list, i, r)
        {
            if (json_is_number(json_object_get(r, time_keys[t]))) {
                c->time_key = time_keys[t];
                break;
            }
        }
    if (c->time_key == NULL)
        return imp_fail_field(err, c->file, "time",
                              "no record holds a time column "
                              "(such as sum#time.duration)");
    json_array_foreach(list, i, r)
    {
        const char *path, *key;
        size_t len;
        struct cal_kernel *k;
        json_t *v;
        if (!json_is_object(r))
            return imp_fail_field(err, c->file, "records",
                                  "records[%zu] is not an object", i);
        if ((path = record_path(r, &len)) == NULL)
            continue; /* a record outside any region */
        if ((k = kernel(c, path, len, err)) == NULL)
            return -1;
        json_object_foreach(r, key, v)
        {
            if (json_is_number(v) && !identity(key) &&
                set_value(c, k, key, json_number_value(v), err) != 0)
                return -1;
        }
    }
    return 0;
}

static int split(struct cal *c, json_t *doc, struct err *err)
{
    json_t *nodes = json_object_get(doc, "nodes"),
           *cols = json_object_get(doc, "columns"), *data = json_object_get(doc, "data"),
           *row;
    const char *names[LIMIT_METRICS + 1];
    size_t ncol = json_array_size(cols), i, pathcol = (size_t)-1;
    char **full;

    if (!json_is_array(nodes) || !json_is_array(cols) || !json_is_array(data) ||
        ncol == 0 || ncol > LIMIT_METRICS)
        return imp_fail_field(
            err, c->file, "columns",
            "json-split needs \"nodes\", \"columns\" and \"data\" arrays");
    for (i = 0; i < ncol; i++) {
        names[i] = json_string_value(json_array_get(cols, i));
        if (names[i] == NULL)
            return imp_fail_field(err, c->file, "columns", "columns[%zu] is not a string",
                                  i);
        if (strcmp(names[i], "path") == 0 && pathcol == (size_t)-1)
            pathcol = i;
    }
    if (pathcol == (size_t)-1)
        return imp_fail_field(err, c->file, "columns",
                              "json-split has no \"path\" column");
    if ((c->time_key = pick_time(names, ncol)) == NULL)
        return imp_fail_field(err, c->file, "columns",
                              "no time column (such as time (inc))");
    if ((full = arena_alloc(c->a, (json_array_size(nodes) + 1) * sizeof *full)) == NULL)
        return err_nomem(err);
    /* nodes list parents before children: each full path is the parent's + label */
    for (i = 0; i < json_array_size(nodes); i++) {
        json_t *n = json_array_get(nodes, i), *parent = json_object_get(n, "parent");
        const char *label = json_string_value(json_object_get(n, "label"));
        json_int_t p = json_is_integer(parent) ? json_integer_value(parent) : -1;
        if (label == NULL || (parent && !json_is_integer(parent)) || p >= (json_int_t)i ||
            (parent && p < 0))
            return imp_fail_field(err, c->file, "nodes",
                                  "nodes[%zu] needs a label and an "
                                  "earlier parent",
                                  i);
        full[i] = p >= 0 ? arena_printf(c->a, "%s/%s", full[p], label)
                         : arena_strdup(c->a, label);
        if (full[i] == NULL)
            return err_nomem(err);
    }
    json_array_foreach(data, i, row)
    {
        json_t *node = json_array_get(row, pathcol);
        struct cal_kernel *k;
        json_int_t ni = json_integer_value(node);
        if (!json_is_array(row) || json_array_size(row) != ncol ||
            !json_is_integer(node) || ni < 0 || ni >= (json_int_t)json_array_size(nodes))
            return imp_fail_field(err, c->file, "data",
                                  "data[%zu] must hold %zu values and "
                                  "a node index",
                                  i, ncol);
        if ((k = kernel(c, full[ni], strlen(full[ni]), err)) == NULL)
            return -1;
        for (size_t j = 0; j < ncol; j++) {
            json_t *v = json_array_get(row, j);
            if (j != pathcol && json_is_number(v) &&
                set_value(c, k, names[j], json_number_value(v), err) != 0)
                return -1;
        }
    }
    return 0;
}

int import_caliper_json(const struct fmt_file *files, size_t nfiles,
                        const struct fmt_options *opt, const struct fmt_sink *sink,
                        struct err *err)
{
    struct cal c = {0};
    struct imp_batch b = {0};
    struct run_record *r;
    json_t *doc;
    int rc = -1, inclusive;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files",
                              "caliper-json reads one file at a time");
    if ((doc = imp_json_load(&files[0], err)) == NULL)
        return -1;
    c.file = files[0].name;
    c.nprocs = 1;
    if ((c.a = arena_new()) == NULL) {
        err_nomem(err);
        goto out;
    }
    if (json_is_array(doc))
        rc = records(&c, doc, err);
    else if (json_is_array(json_object_get(doc, "records"))) {
        globals(&c, json_object_get(doc, "globals"));
        rc = records(&c, json_object_get(doc, "records"), err);
    } else if (json_is_array(json_object_get(doc, "nodes"))) {
        globals(&c, doc);
        rc = split(&c, doc, err);
    } else
        rc =
            imp_fail_field(err, c.file, "records",
                           "a Caliper file is a list of records, {\"records\": [...]} or "
                           "json-split");
    if (rc != 0)
        goto out;
    rc = -1;
    if (c.nk == 0) {
        imp_fail_field(err, c.file, "records", "no record names a region");
        goto out;
    }
    if (imp_batch_init(&b, "caliper-json", c.file, sink, err) != 0 ||
        (r = imp_batch_slot(&b, err)) == NULL)
        goto out;
    r->application =
        opt && opt->application ? opt->application : imp_base_name(c.a, c.file);
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = c.nprocs;
    if ((r->kernels = arena_alloc(b.a, c.nk * sizeof *r->kernels)) == NULL) {
        err_nomem(err);
        goto out;
    }
    inclusive = strstr(c.time_key, "inclusive") || strstr(c.time_key, "(inc)");
    for (size_t i = 0; i < c.nk; i++) {
        struct rec_kernel *k = &r->kernels[r->nkernels++];
        int failed = 0;
        k->name = c.k[i].path;
        k->time = c.k[i].time < 0 ? 0 : c.k[i].time;
        k->metrics_json = imp_metrics_json(b.a, c.k[i].m, c.k[i].nm, &failed);
        if (failed) {
            err_nomem(err);
            goto out;
        }
        if (!inclusive || strchr(k->name, '/') == NULL)
            r->runtime += k->time;
    }
    if (imp_batch_commit(&b, "file", err) != 0)
        goto out;
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    xfree(c.k);
    arena_free(c.a);
    json_decref(doc);
    return rc;
}

int sniff_caliper_json(const struct fmt_file *files, size_t nfiles)
{
    if (nfiles != 1)
        return 0;
    if (imp_starts_with(&files[0], "{"))
        return (imp_contains(&files[0], "\"nodes\"") &&
                imp_contains(&files[0], "\"columns\"")) ||
               (imp_contains(&files[0], "\"records\"") &&
                imp_contains(&files[0], "time.duration"));
    return imp_starts_with(&files[0], "[") &&
           (imp_contains(&files[0], "time.duration") ||
            imp_contains(&files[0], "time.inclusive.duration"));
}
