/* rundoc: run document validation; see rundoc.h.
 *
 * Unknown fields are rejected rather than ignored: a typo such as "runtme"
 * would otherwise store a run without the value the user meant to send.
 */
#include "formats/rundoc.h"
#include "common/isotime.h"
#include "common/utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rundoc_check_name(const char *s, size_t len, const char *field, struct err *err)
{
    size_t i;
    if (len == 0)
        return err_invalid(err, field, "%s must not be empty", field);
    if (len > LIMIT_NAME)
        return err_invalid(err, field, "%s is longer than %d bytes", field, LIMIT_NAME);
    if (!utf8_valid(s, len))
        return err_invalid(err, field, "%s is not valid UTF-8", field);
    for (i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return err_invalid(err, field, "%s contains a control character", field);
    return 0;
}

static int get_name(json_t *doc, const char *key, int required, arena *a,
                    const char **out, struct err *err)
{
    json_t *v = json_object_get(doc, key);
    *out = NULL;
    if (v == NULL || json_is_null(v)) {
        if (required)
            return err_invalid(err, key, "%s is required", key);
        return 0;
    }
    if (!json_is_string(v))
        return err_invalid(err, key, "%s must be a string", key);
    if (rundoc_check_name(json_string_value(v), json_string_length(v), key, err) != 0)
        return -1;
    *out = arena_strndup(a, json_string_value(v), json_string_length(v));
    return *out ? 0 : err_nomem(err);
}

static int get_number(json_t *v, const char *field, int nonneg, double *out,
                      struct err *err)
{
    double x;
    if (!json_is_number(v))
        return err_invalid(err, field, "%s must be a number", field);
    x = json_number_value(v);
    if (!isfinite(x))
        return err_invalid(err, field, "%s must be finite", field);
    if (nonneg && x < 0)
        return err_invalid(err, field, "%s must not be negative", field);
    *out = x;
    return 0;
}

static int get_kvs(json_t *obj, const char *what, size_t max, arena *a,
                   struct rec_kv **out, size_t *n, struct err *err)
{
    const char *key;
    json_t *v;
    size_t i = 0;
    char field[ERR_FIELD_MAX];

    *out = NULL;
    *n = 0;
    if (obj == NULL || json_is_null(obj))
        return 0;
    if (!json_is_object(obj))
        return err_invalid(err, what, "%s must be an object of name: number", what);
    if (json_object_size(obj) > max)
        return err_invalid(err, what, "%s has more than %zu entries", what, max);
    *out = arena_alloc(a, (json_object_size(obj) + 1) * sizeof **out);
    if (*out == NULL)
        return err_nomem(err);
    json_object_foreach(obj, key, v)
    {
        snprintf(field, sizeof field, "%s.%s", what, key);
        if (rundoc_check_name(key, strlen(key), field, err) != 0 ||
            get_number(v, field, 0, &(*out)[i].value, err) != 0)
            return -1;
        (*out)[i].name = arena_strdup(a, key);
        i++;
    }
    *n = i;
    return 0;
}

static int get_kernels(json_t *arr, arena *a, struct run_record *r, struct err *err)
{
    size_t i;
    json_t *k;
    char field[64];

    if (arr == NULL || json_is_null(arr))
        return 0;
    if (!json_is_array(arr))
        return err_invalid(err, "kernels", "kernels must be an array");
    if (json_array_size(arr) > LIMIT_KERNELS)
        return err_invalid(err, "kernels", "more than %d kernels in one run",
                           LIMIT_KERNELS);
    r->kernels = arena_alloc(a, (json_array_size(arr) + 1) * sizeof *r->kernels);
    if (r->kernels == NULL)
        return err_nomem(err);
    json_array_foreach(arr, i, k)
    {
        struct rec_kernel *kr = &r->kernels[i];
        const char *key;
        json_t *v;
        snprintf(field, sizeof field, "kernels[%zu]", i);
        if (!json_is_object(k))
            return err_invalid(err, field, "%s must be an object", field);
        json_object_foreach(k, key, v)
        {
            if (strcmp(key, "name") && strcmp(key, "time") && strcmp(key, "calls") &&
                strcmp(key, "metrics")) {
                err_invalid(err, key, "unknown field %s", key);
                err_prefix_field(err, field);
                return -1;
            }
        }
        v = json_object_get(k, "time");
        kr->time = NAN; /* absent or null: the kernel has no time (SPEC §16) */
        if (get_name(k, "name", 1, a, &kr->name, err) != 0 ||
            (v != NULL && !json_is_null(v) &&
             get_number(v, "time", 1, &kr->time, err) != 0)) {
            err_prefix_field(err, field);
            return -1;
        }
        v = json_object_get(k, "calls");
        /* absent: once (the documented default); null: not counted, as an
         * export writes a kernel whose file counted no calls (SPEC §16) */
        kr->calls = v == NULL ? 1 : KERNEL_NO_CALLS;
        if (v != NULL && !json_is_null(v)) {
            if (!json_is_integer(v) || json_integer_value(v) < 0) {
                err_invalid(err, "calls", "calls must be a non-negative integer");
                err_prefix_field(err, field);
                return -1;
            }
            kr->calls = json_integer_value(v);
        }
        v = json_object_get(k, "metrics");
        if (v != NULL && !json_is_null(v)) {
            struct rec_kv *kv;
            size_t nkv;
            char *txt;
            if (get_kvs(v, "metrics", LIMIT_METRICS, a, &kv, &nkv, err) != 0) {
                err_prefix_field(err, field);
                return -1;
            }
            txt = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
            kr->metrics_json = txt ? arena_strdup(a, txt) : NULL;
            free(txt);
        }
    }
    r->nkernels = json_array_size(arr);
    return 0;
}

/* The forms common/isotime.h accepts. */
int rundoc_valid_timestamp(const char *s)
{
    return isotime_parse(s, NULL) == 0;
}

int rundoc_check_provenance(const struct run_record *r, struct err *err)
{
    size_t i, k;

    if (r->commit != NULL &&
        rundoc_check_name(r->commit, strlen(r->commit), "commit", err) != 0)
        return -1;
    if (r->commit != NULL && strlen(r->commit) > LIMIT_COMMIT)
        return err_invalid(err, "commit", "commit is longer than %d bytes", LIMIT_COMMIT);
    if (r->branch != NULL &&
        rundoc_check_name(r->branch, strlen(r->branch), "branch", err) != 0)
        return -1;
    if (r->ntags > LIMIT_TAGS)
        return err_invalid(err, "tags", "more than %d tags", LIMIT_TAGS);
    for (i = 0; i < r->ntags; i++) {
        char field[LIMIT_IDENT + 8];
        snprintf(field, sizeof field, "tags.%.*s", LIMIT_IDENT, r->tags[i].key);
        if (rundoc_check_name(r->tags[i].key, strlen(r->tags[i].key), "tags", err) != 0)
            return -1;
        if (strlen(r->tags[i].key) > LIMIT_IDENT)
            return err_invalid(err, "tags", "a tag name is longer than %d bytes",
                               LIMIT_IDENT);
        if (rundoc_check_name(r->tags[i].value, strlen(r->tags[i].value), field, err) !=
            0)
            return -1;
        for (k = 0; k < i; k++)
            if (strcmp(r->tags[k].key, r->tags[i].key) == 0)
                return err_invalid(err, field, "tag %s given twice", r->tags[i].key);
    }
    return 0;
}

/* "commit", "branch" and "tags" (SPEC §11), each optional. */
static int get_provenance(json_t *doc, arena *a, struct run_record *r, struct err *err)
{
    json_t *tags = json_object_get(doc, "tags"), *v;
    const char *key;
    size_t i = 0;

    if (get_name(doc, "commit", 0, a, &r->commit, err) != 0 ||
        get_name(doc, "branch", 0, a, &r->branch, err) != 0)
        return -1;
    if (tags != NULL && !json_is_null(tags)) {
        if (!json_is_object(tags))
            return err_invalid(err, "tags", "tags must be an object of strings");
        if (json_object_size(tags) > LIMIT_TAGS)
            return err_invalid(err, "tags", "more than %d tags", LIMIT_TAGS);
        r->tags = arena_alloc(a, (json_object_size(tags) + 1) * sizeof *r->tags);
        if (r->tags == NULL)
            return err_nomem(err);
        json_object_foreach(tags, key, v)
        {
            if (!json_is_string(v))
                return err_invalid(err, "tags", "tag %s must be a string", key);
            r->tags[i].key = arena_strdup(a, key);
            r->tags[i].value =
                arena_strndup(a, json_string_value(v), json_string_length(v));
            if (r->tags[i].key == NULL || r->tags[i].value == NULL)
                return err_nomem(err);
            i++;
        }
        r->ntags = i;
    }
    return rundoc_check_provenance(r, err);
}

int rundoc_parse(json_t *doc, arena *a, struct run_record *r, struct err *err)
{
    static const char *const known[] = {
        "id",      "application", "executable", "system", "nprocs", "inputs", "runtime",
        "kernels", "metrics",     "started_at", "commit", "branch", "tags",   NULL};
    const char *key;
    json_t *v;

    memset(r, 0, sizeof *r);
    if (!json_is_object(doc))
        return err_invalid(err, NULL, "a run document must be a JSON object");
    json_object_foreach(doc, key, v)
    {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(key, known[i]) == 0;
        if (!ok)
            return err_invalid(err, key, "unknown field %s", key);
    }
    if (get_name(doc, "id", 0, a, &r->uid, err) != 0 ||
        get_name(doc, "application", 1, a, &r->application, err) != 0 ||
        get_name(doc, "executable", 1, a, &r->executable, err) != 0 ||
        get_name(doc, "system", 1, a, &r->system, err) != 0)
        return -1;
    v = json_object_get(doc, "nprocs");
    if (v == NULL)
        return err_invalid(err, "nprocs", "nprocs is required");
    if (!json_is_integer(v))
        return err_invalid(err, "nprocs", "nprocs must be an integer");
    if (json_integer_value(v) < 1)
        return err_invalid(err, "nprocs", "nprocs must be at least 1");
    if (json_integer_value(v) > 100000000)
        return err_invalid(err, "nprocs", "nprocs is larger than 100000000");
    r->nprocs = json_integer_value(v);
    v = json_object_get(doc, "runtime");
    if (v == NULL || json_is_null(v))
        r->runtime = NAN; /* absent: only with a kernel or metric, below */
    else if (get_number(v, "runtime", 1, &r->runtime, err) != 0)
        return -1;
    if (get_kvs(json_object_get(doc, "inputs"), "inputs", LIMIT_INPUTS, a, &r->inputs,
                &r->ninputs, err) != 0 ||
        get_kvs(json_object_get(doc, "metrics"), "metrics", LIMIT_METRICS, a, &r->metrics,
                &r->nmetrics, err) != 0 ||
        get_kernels(json_object_get(doc, "kernels"), a, r, err) != 0)
        return -1;
    if (!RUN_HAS_RUNTIME(r->runtime) && r->nkernels == 0 && r->nmetrics == 0)
        return err_invalid(err, "runtime",
                           "runtime is required unless the run has a kernel or a metric");
    v = json_object_get(doc, "started_at");
    if (v != NULL && !json_is_null(v)) {
        if (!json_is_string(v) || !rundoc_valid_timestamp(json_string_value(v)))
            return err_invalid(err, "started_at",
                               "started_at must be an ISO 8601 time such as "
                               "2026-11-21T10:00:00Z");
        r->started_at = arena_strdup(a, json_string_value(v));
    }
    return get_provenance(doc, a, r, err);
}

int rundoc_parse_body(json_t *body, arena *a, struct run_record **runs, size_t *n,
                      struct err *err)
{
    json_t *arr = json_is_object(body) ? json_object_get(body, "runs") : NULL;
    size_t i;
    json_t *doc;
    char field[32];

    *runs = NULL;
    *n = 0;
    if (!json_is_object(body))
        return err_invalid(err, NULL,
                           "the body must be a run document or {\"runs\": [...]}");
    if (arr == NULL) {
        *runs = arena_alloc(a, sizeof **runs);
        if (*runs == NULL)
            return err_nomem(err);
        *n = 1;
        return rundoc_parse(body, a, *runs, err);
    }
    if (json_object_size(body) != 1)
        return err_invalid(err, NULL,
                           "a batch is {\"runs\": [...]} with no other fields");
    if (!json_is_array(arr))
        return err_invalid(err, "runs", "runs must be an array");
    if (json_array_size(arr) == 0)
        return err_invalid(err, "runs", "runs must not be empty");
    if (json_array_size(arr) > LIMIT_BATCH)
        return err_invalid(err, "runs", "more than %d runs in one batch", LIMIT_BATCH);
    *runs = arena_alloc(a, json_array_size(arr) * sizeof **runs);
    if (*runs == NULL)
        return err_nomem(err);
    json_array_foreach(arr, i, doc)
    {
        if (rundoc_parse(doc, a, &(*runs)[i], err) != 0) {
            snprintf(field, sizeof field, "runs[%zu]", i);
            err_prefix_field(err, field);
            return -1;
        }
    }
    *n = json_array_size(arr);
    return 0;
}

json_t *rundoc_to_json(long long id, const struct run_record *r, const char *created_at)
{
    json_t *o = json_object(), *inputs = json_object(), *metrics = json_object(),
           *kernels = json_array();
    size_t i;

    for (i = 0; i < r->ninputs; i++)
        json_object_set_new(inputs, r->inputs[i].name, json_real(r->inputs[i].value));
    for (i = 0; i < r->nmetrics; i++)
        json_object_set_new(metrics, r->metrics[i].name, json_real(r->metrics[i].value));
    for (i = 0; i < r->nkernels; i++) {
        double t = r->kernels[i].time;
        long long c = r->kernels[i].calls;
        json_t *k = json_pack("{s:s, s:o, s:o}", "name", r->kernels[i].name, "time",
                              KERNEL_HAS_TIME(t) ? json_real(t) : json_null(), "calls",
                              KERNEL_HAS_CALLS(c) ? json_integer(c) : json_null());
        if (k && r->kernels[i].metrics_json) {
            json_t *m = json_loads(r->kernels[i].metrics_json, 0, NULL);
            if (m)
                json_object_set_new(k, "metrics", m);
        }
        json_array_append_new(kernels, k);
    }
    json_object_set_new(o, "id", json_integer(id));
    json_object_set_new(o, "uid", r->uid ? json_string(r->uid) : json_null());
    json_object_set_new(o, "application", json_string(r->application));
    json_object_set_new(o, "executable", json_string(r->executable));
    json_object_set_new(o, "system", json_string(r->system));
    json_object_set_new(o, "nprocs", json_integer(r->nprocs));
    json_object_set_new(o, "inputs", inputs);
    json_object_set_new(
        o, "runtime", RUN_HAS_RUNTIME(r->runtime) ? json_real(r->runtime) : json_null());
    json_object_set_new(o, "kernels", kernels);
    json_object_set_new(o, "metrics", metrics);
    json_object_set_new(o, "started_at",
                        r->started_at ? json_string(r->started_at) : json_null());
    json_object_set_new(o, "commit", r->commit ? json_string(r->commit) : json_null());
    json_object_set_new(o, "branch", r->branch ? json_string(r->branch) : json_null());
    {
        json_t *tags = json_object();
        for (i = 0; i < r->ntags; i++)
            json_object_set_new(tags, r->tags[i].key, json_string(r->tags[i].value));
        json_object_set_new(o, "tags", tags);
    }
    json_object_set_new(o, "submitter", json_string(r->submitter ? r->submitter : ""));
    json_object_set_new(o, "created_at", json_string(created_at ? created_at : ""));
    return o;
}

json_t *rundoc_export_json(const struct run_record *run)
{
    json_t *o = rundoc_to_json(0, run, NULL);
    json_t *uid = json_object_get(o, "uid");
    if (json_is_string(uid))
        json_object_set(o, "id", uid);
    else
        json_object_del(o, "id");
    json_object_del(o, "uid");
    json_object_del(o, "submitter");
    json_object_del(o, "created_at");
    if (json_is_null(json_object_get(o, "started_at")))
        json_object_del(o, "started_at");
    if (json_is_null(json_object_get(o, "commit")))
        json_object_del(o, "commit");
    if (json_is_null(json_object_get(o, "branch")))
        json_object_del(o, "branch");
    if (json_object_size(json_object_get(o, "tags")) == 0)
        json_object_del(o, "tags");
    return o;
}
