/* import_bmf: Bencher Metric Format (https://bencher.dev) into runs.
 *
 * BMF is one JSON object: benchmark name -> measure name -> {"value",
 * "lower_value", "upper_value"}; the v1 draft maps a benchmark to a list of
 * {"parameters", "measures"} instead. Each benchmark (each entry of a v1
 * list) is one run whose executable is the benchmark's name; numeric
 * parameters are inputs, the others name the executable too
 * ("bench{op=read}") so that different configurations stay apart; v1
 * entries of one parameter set are one run, their measures united (the later
 * entry's value where both name one), and a v1 measure may hold named values
 * only (no "value"), as Bencher's adapter reads the draft. Measures
 * of any name (latency, throughput, instructions, "Total Bytes", ...) are
 * metrics: the value, and every other number of the measure (lower_value,
 * upper_value, p50, ...) as NAME_lower, NAME_upper, NAME_p50. Bencher's
 * built-in units: latency in nanoseconds (stored in seconds), build-time in
 * seconds, throughput in operations per second, file-size in bytes; other
 * measures as measured. The run time is latency, else build-time. BMF
 * carries no machine or commit: the system comes from the caller (or is
 * "unknown").
 */
#include <jansson.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

static int add_metric(struct imp_batch *b, struct run_record *r, const char *measure,
                      const char *suffix, double v, struct err *err)
{
    if (r->nmetrics >= LIMIT_METRICS)
        return imp_fail_field(err, b->file, measure, "more than %d metrics",
                              LIMIT_METRICS);
    r->metrics[r->nmetrics].name = arena_printf(b->a, "%s%s", measure, suffix);
    if (r->metrics[r->nmetrics].name == NULL)
        return err_nomem(err);
    r->metrics[r->nmetrics++].value = v;
    return 0;
}

/* The part a measure's field adds to its metric's name. */
static const char *suffix_of(const char *field)
{
    if (strcmp(field, "value") == 0)
        return "";
    if (strcmp(field, "lower_value") == 0)
        return "_lower";
    if (strcmp(field, "upper_value") == 0)
        return "_upper";
    return NULL; /* "_" and the field itself */
}

/* Whether a measure holds a number under some name (the v1 draft lets a
 * measure carry only named values, "p99" without "value"). */
static int has_number(json_t *m)
{
    const char *k;
    json_t *x;
    json_object_foreach(m, k, x)
    {
        if (json_is_number(x))
            return 1;
    }
    return 0;
}

static int one(struct imp_batch *b, const char *bench, json_t *measures, json_t *params,
               const char *identity, const char *app, const struct fmt_options *opt,
               int v1, struct err *err)
{
    struct run_record *r;
    const char *mname, *pname;
    json_t *m, *pv;
    int have_time = 0;
    struct buf exe;

    if (!json_is_object(measures) || json_object_size(measures) == 0)
        return imp_fail_field(err, b->file, bench,
                              "benchmark %s must map measures to values", bench);
    if (params != NULL && !json_is_null(params) && !json_is_object(params))
        return imp_fail_field(err, b->file, bench,
                              "benchmark %s: parameters must be an object", bench);
    if ((r = imp_batch_slot(b, err)) == NULL)
        return -1;
    r->application = opt && opt->application ? opt->application : app;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = 1;
    r->metrics = arena_alloc(b->a, (LIMIT_METRICS + 1) * sizeof *r->metrics);
    r->inputs = arena_alloc(b->a, (LIMIT_INPUTS + 1) * sizeof *r->inputs);
    if (r->metrics == NULL || r->inputs == NULL)
        return err_nomem(err);
    buf_init(&exe, 4096);
    buf_puts(&exe, bench);
    {
        int first = 1;
        json_object_foreach(params, pname, pv)
        {
            if (json_is_number(pv)) {
                if (r->ninputs >= LIMIT_INPUTS) {
                    buf_free(&exe);
                    return imp_fail_field(err, b->file, bench, "more than %d parameters",
                                          LIMIT_INPUTS);
                }
                r->inputs[r->ninputs].name =
                    imp_name(b->a, pname, strlen(pname), b->file, "parameter", err);
                if (r->inputs[r->ninputs].name == NULL) {
                    buf_free(&exe);
                    return -1;
                }
                r->inputs[r->ninputs++].value = json_number_value(pv);
            } else if (json_is_string(pv) || json_is_boolean(pv)) {
                buf_printf(&exe, "%s%s=%s", first ? "{" : ",", pname,
                           json_is_string(pv) ? json_string_value(pv)
                           : json_is_true(pv) ? "true"
                                              : "false");
                first = 0;
            }
        }
        if (!first)
            buf_putc(&exe, '}');
    }
    r->executable =
        opt && opt->executable
            ? opt->executable
            : (buf_failed(&exe) ? NULL
                                : imp_name(b->a, buf_str(&exe), strlen(buf_str(&exe)),
                                           b->file, "benchmark", err));
    buf_free(&exe);
    if (r->executable == NULL)
        return err && err->status ? -1 : err_nomem(err);
    json_object_foreach(measures, mname, m)
    {
        double div = strcmp(mname, "latency") == 0 ? 1e9 : 1; /* ns */
        json_t *v = json_object_get(m, "value"), *x;
        const char *field;
        if (v1 && json_is_object(m) && v == NULL && !has_number(m))
            return imp_fail_field(err, b->file, mname, "%s.%s holds no number", bench,
                                  mname);
        if (!json_is_object(m) || (!json_is_number(v) && !(v1 && v == NULL)))
            return imp_fail_field(err, b->file, mname, "%s.%s.value must be a number",
                                  bench, mname);
        if (imp_name(b->a, mname, strlen(mname), b->file, "measure", err) == NULL)
            return -1;
        json_object_foreach(m, field, x)
        {
            const char *sfx = suffix_of(field);
            if (x == NULL || json_is_null(x))
                continue;
            if (!json_is_number(x))
                return imp_fail_field(err, b->file, mname, "%s.%s.%s must be a number",
                                      bench, mname, field);
            if (add_metric(b, r, mname, sfx ? sfx : arena_printf(b->a, "_%s", field),
                           json_number_value(x) / div, err) != 0)
                return -1;
        }
        if (v == NULL)
            continue; /* named values only: no value to time the run by */
        if (strcmp(mname, "latency") == 0) {
            r->runtime = json_number_value(v) / div;
            have_time = 2;
        } else if (strcmp(mname, "build-time") == 0 && have_time < 2) {
            r->runtime = json_number_value(v);
            have_time = 1;
        }
    }
    if (!have_time)
        r->runtime = NAN; /* no latency or build-time: its measures are its
                             metrics, and it has no runtime (SPEC §16) */
    return imp_batch_commit(b, identity, err);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The canonical text of a v1 entry's parameters: its keys in order and
 * numbers by value, so that entries whose parameters differ only in key
 * order or number spelling (16, 16.0, 1.6e1) are found to be one set. In
 * the arena; NULL when out of memory. */
static char *param_key(arena *a, json_t *params)
{
    size_t n = json_object_size(params), i = 0;
    const char **keys = xcalloc(n ? n : 1, sizeof *keys), *k;
    struct buf t;
    json_t *v;
    char *out = NULL;
    if (keys == NULL)
        return NULL;
    json_object_foreach(params, k, v) keys[i++] = k;
    qsort(keys, n, sizeof *keys, cmp_str);
    buf_init(&t, 1u << 24);
    for (i = 0; i < n; i++) {
        v = json_object_get(params, keys[i]);
        buf_puts(&t, keys[i]);
        buf_putc(&t, '\x1f');
        if (json_is_number(v)) {
            buf_putc(&t, 'n');
            buf_num(&t, json_number_value(v));
        } else if (json_is_string(v)) {
            buf_putc(&t, 's');
            buf_append(&t, json_string_value(v), json_string_length(v));
        } else
            buf_putc(&t, json_is_true(v) ? 't' : json_is_false(v) ? 'f' : 'o');
        buf_putc(&t, '\x1e');
    }
    if (!buf_failed(&t))
        out = arena_strndup(a, buf_str(&t), strlen(buf_str(&t)));
    buf_free(&t);
    xfree(keys);
    return out;
}

/* The entries of a v1 benchmark: entries of one parameter set (an absent
 * "parameters" is the empty set) are one run whose measures are the union
 * of theirs, a value named twice taking the later entry's, as Bencher
 * reads them. */
static int v1_entries(struct imp_batch *b, const char *bench, json_t *list,
                      const char *app, const struct fmt_options *opt, struct err *err)
{
    size_t n = json_array_size(list), i, j, *lead = NULL;
    struct imp_map sets = {0};
    arena *keys;
    json_t *e;
    int rc = -1;

    if (n == 0)
        return imp_fail_field(err, b->file, bench, "benchmark %s lists no entries",
                              bench);
    if ((keys = arena_new()) == NULL || (lead = xcalloc(n, sizeof *lead)) == NULL) {
        arena_free(keys);
        return err_nomem(err);
    }
    json_array_foreach(list, i, e)
    {
        json_t *params = json_object_get(e, "parameters");
        char *key;
        if (!json_is_object(e)) {
            imp_fail_field(err, b->file, bench,
                           "benchmark %s: entry %zu is not an object", bench, i);
            goto out;
        }
        lead[i] = i;
        if (params != NULL && !json_is_null(params) && !json_is_object(params))
            continue; /* refused with its entry below */
        if ((key = param_key(keys, params)) == NULL) {
            err_nomem(err);
            goto out;
        }
        if (!imp_map_get(&sets, key, strlen(key), &lead[i]) &&
            imp_map_put(&sets, key, strlen(key), i) != 0) {
            err_nomem(err);
            goto out;
        }
    }
    for (i = 0; i < n; i++) {
        json_t *first = json_array_get(list, i), *merged = NULL, *measures;
        char id[64];
        if (lead[i] != i)
            continue;
        measures = json_object_get(first, "measures");
        for (j = i + 1; j < n; j++) {
            json_t *m = json_object_get(json_array_get(list, j), "measures"), *mv;
            const char *mn;
            if (lead[j] != i)
                continue;
            if (!json_is_object(measures))
                break; /* refused as it is */
            if (merged == NULL && (merged = json_deep_copy(measures)) == NULL) {
                err_nomem(err);
                goto out;
            }
            if (!json_is_object(m)) {
                json_decref(merged);
                merged = NULL;
                measures = m; /* refused as it is */
                break;
            }
            json_object_foreach(m, mn, mv)
            {
                json_t *dst = json_object_get(merged, mn);
                if (!json_is_object(mv) || !json_is_object(dst)) {
                    if (json_object_set(merged, mn, mv) != 0) {
                        json_decref(merged);
                        err_nomem(err);
                        goto out;
                    }
                } else if (json_object_update(dst, mv) != 0) {
                    json_decref(merged);
                    err_nomem(err);
                    goto out;
                }
            }
        }
        snprintf(id, sizeof id, "entry %zu of ", i);
        rc = one(b, bench, merged ? merged : measures,
                 json_object_get(first, "parameters"),
                 arena_printf(b->a, "%s%s", id, bench), app, opt, 1, err);
        json_decref(merged);
        if (rc != 0)
            goto out;
    }
    rc = 0;
out:
    imp_map_free(&sets);
    arena_free(keys);
    xfree(lead);
    return rc;
}

int import_bmf(const struct fmt_file *files, size_t nfiles, const struct fmt_options *opt,
               const struct fmt_sink *sink, struct err *err)
{
    struct imp_batch b = {0};
    json_t *doc, *measures;
    const char *bench;
    char *app;
    arena *names = NULL;
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "bmf reads one file at a time");
    {
        struct fmt_file f = files[0];
        if (f.len >= 3 && memcmp(f.data, "\xef\xbb\xbf", 3) == 0)
            f.data += 3, f.len -= 3; /* a byte-order mark (Windows tools) */
        if ((doc = imp_json_load(&f, err)) == NULL)
            return -1;
    }
    if (!json_is_object(doc) || json_object_size(doc) == 0) {
        imp_fail_field(err, files[0].name, "benchmarks",
                       "a BMF file is a non-empty object of benchmarks");
        goto out;
    }
    if ((names = arena_new()) == NULL ||
        imp_batch_init(&b, "bmf", files[0].name, sink, err) != 0 ||
        (app = imp_base_name(names, files[0].name)) == NULL) {
        err_nomem(err);
        goto out;
    }
    json_object_foreach(doc, bench, measures)
    {
        if (json_is_array(measures)) { /* BMF v1 draft */
            if (v1_entries(&b, bench, measures, app, opt, err) != 0)
                goto out;
        } else if (one(&b, bench, measures, NULL, bench, app, opt, 0, err) != 0)
            goto out;
    }
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    arena_free(names);
    json_decref(doc);
    return rc;
}

/* The shape of BMF: an object of benchmarks, each an object of measures
 * (objects with a numeric "value") or a v1 list of {"measures": ...}. */
static int bmf_shape(json_t *doc)
{
    const char *k;
    json_t *v;
    if (!json_is_object(doc) || json_object_size(doc) == 0)
        return 0;
    json_object_foreach(doc, k, v)
    {
        const char *mk;
        json_t *m;
        int v1 = json_is_array(v) && json_array_size(v) > 0;
        if (v1)
            v = json_object_get(json_array_get(v, 0), "measures");
        if (!json_is_object(v) || json_object_size(v) == 0)
            return 0;
        json_object_foreach(v, mk, m)
        {
            if (!json_is_number(json_object_get(m, "value")) &&
                !(v1 && json_is_object(m) && has_number(m)))
                return 0;
        }
    }
    return 1;
}

int sniff_bmf(const struct fmt_file *files, size_t nfiles)
{
    json_t *doc;
    int ok;
    if (nfiles != 1 || !imp_starts_with(&files[0], "{") ||
        (!imp_contains(&files[0], "\"value\"") &&
         !imp_contains(&files[0], "\"measures\""))) /* v1: named values only */
        return 0;
    if (files[0].len > (1u << 20)) /* large: by its words */
        return imp_contains(&files[0], "\"latency\"") ||
               imp_contains(&files[0], "\"throughput\"") ||
               imp_contains(&files[0], "\"build-time\"") ||
               imp_contains(&files[0], "\"lower_value\"");
    {
        size_t bom =
            files[0].len >= 3 && memcmp(files[0].data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
        doc = json_loadb(files[0].data + bom, files[0].len - bom, 0, NULL);
    }
    ok = bmf_shape(doc);
    json_decref(doc);
    return ok;
}
