/* import_bmf: Bencher Metric Format (https://bencher.dev) into runs.
 *
 * BMF is one JSON object: benchmark name -> measure name -> {"value",
 * "lower_value", "upper_value"}. Each benchmark is one run whose executable is
 * the benchmark's name. The run time is the "latency" measure (Bencher's
 * built-in, in nanoseconds, converted to seconds) or else "build-time"
 * (seconds); a benchmark with neither is refused. Every measure becomes a
 * metric (its value; lower_value and upper_value as NAME_lower, NAME_upper),
 * latency's in seconds. BMF carries no machine or commit: the system comes
 * from the caller (or is "unknown").
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

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

static int one(struct imp_batch *b, const char *bench, json_t *measures, const char *app,
               const struct fmt_options *opt, struct err *err)
{
    static const char *const part[] = {"value", "lower_value", "upper_value"};
    static const char *const suffix[] = {"", "_lower", "_upper"};
    struct run_record *r;
    const char *mname;
    json_t *m;
    int have_time = 0;

    if (!json_is_object(measures) || json_object_size(measures) == 0)
        return imp_fail_field(err, b->file, bench,
                              "benchmark %s must map measures to values", bench);
    if ((r = imp_batch_slot(b, err)) == NULL)
        return -1;
    r->application = opt && opt->application ? opt->application : app;
    r->executable = opt && opt->executable
                        ? opt->executable
                        : imp_name(b->a, bench, strlen(bench), b->file, bench, err);
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = 1;
    r->metrics = arena_alloc(b->a, (LIMIT_METRICS + 1) * sizeof *r->metrics);
    if (r->executable == NULL)
        return -1;
    if (r->metrics == NULL)
        return err_nomem(err);
    json_object_foreach(measures, mname, m)
    {
        double scale = strcmp(mname, "latency") == 0 ? 1e-9 : 1;
        json_t *v = json_object_get(m, "value");
        if (!json_is_object(m) || !json_is_number(v))
            return imp_fail_field(err, b->file, mname, "%s.%s.value must be a number",
                                  bench, mname);
        if (imp_name(b->a, mname, strlen(mname), b->file, "measure", err) == NULL)
            return -1;
        for (int i = 0; i < 3; i++) {
            json_t *x = json_object_get(m, part[i]);
            if (x == NULL || json_is_null(x))
                continue;
            if (!json_is_number(x))
                return imp_fail_field(err, b->file, mname, "%s.%s.%s must be a number",
                                      bench, mname, part[i]);
            if (add_metric(b, r, mname, suffix[i], json_number_value(x) * scale, err) !=
                0)
                return -1;
        }
        if (strcmp(mname, "latency") == 0) {
            r->runtime = json_number_value(v) * scale;
            have_time = 2;
        } else if (strcmp(mname, "build-time") == 0 && have_time < 2) {
            r->runtime = json_number_value(v);
            have_time = 1;
        }
    }
    if (!have_time)
        return imp_fail_field(
            err, b->file, bench,
            "benchmark %s has neither a latency nor a build-time measure", bench);
    return imp_batch_commit(b, bench, err);
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
    if ((doc = imp_json_load(&files[0], err)) == NULL)
        return -1;
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
        if (one(&b, bench, measures, app, opt, err) != 0)
            goto out;
    }
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    arena_free(names);
    json_decref(doc);
    return rc;
}

int sniff_bmf(const struct fmt_file *files, size_t nfiles)
{
    return nfiles == 1 && imp_starts_with(&files[0], "{") &&
           imp_contains(&files[0], "\"value\"") &&
           (imp_contains(&files[0], "\"latency\"") ||
            imp_contains(&files[0], "\"throughput\"") ||
            imp_contains(&files[0], "\"build-time\"") ||
            imp_contains(&files[0], "\"lower_value\""));
}
