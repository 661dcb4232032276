/* import_lnt: an LLVM LNT report (JSON, format version 2) into runs.
 *
 * A report is one machine, one run and a list of tests, each test a name and
 * metrics whose values are a number or a list of samples. Each sample of a
 * test is one run: the test's name is the executable, "execution_time" (or,
 * for a compile-only test, "compile_time") is the run time in seconds as LNT
 * records it, and every other numeric metric (compile_time, code_size,
 * mem_bytes, score, ...) is a run metric, taken from the same sample index
 * when it is a list. machine.name is the system; run.llvm_project_revision
 * (or run.revision, run.git_sha) is the commit, run.branch the branch and
 * run.start_time the start time; the run's other string fields (tag, ...)
 * are provenance tags. Format version 1 ("Machine", "Run",
 * "Tests") is refused with a hint.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "formats/import.h"
#include "formats/limits.h"

/* Sample i of a metric: the number itself, or element i of a list. */
static int sample(json_t *v, size_t i, double *out)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return 0;
    }
    if (json_is_array(v) && i < json_array_size(v) &&
        json_is_number(json_array_get(v, i))) {
        *out = json_number_value(json_array_get(v, i));
        return 0;
    }
    return -1;
}

struct lnt_ctx {
    const char *app, *system, *commit, *branch, *started;
    struct rec_tag *tags;
    size_t ntags;
};

static int one_test(struct imp_batch *b, json_t *t, size_t ti, const struct lnt_ctx *c,
                    const struct fmt_options *opt, struct err *err)
{
    char field[48];
    const char *name = json_string_value(json_object_get(t, "name"));
    const char *tkey = "execution_time", *key;
    json_t *time = json_object_get(t, tkey), *v;
    size_t nsamples;

    snprintf(field, sizeof field, "tests[%zu]", ti);
    if (!json_is_object(t) || name == NULL)
        return imp_fail_field(err, b->file, field, "%s needs a \"name\"", field);
    if (time == NULL) {
        tkey = "compile_time";
        time = json_object_get(t, tkey);
    }
    if (time == NULL)
        return imp_fail_field(err, b->file, field,
                              "%s (%.64s) has neither execution_time nor compile_time",
                              field, name);
    nsamples = json_is_array(time) ? json_array_size(time) : 1;
    if (nsamples == 0 || nsamples > LIMIT_IMPORT_REPS)
        return imp_fail_field(err, b->file, field, "%s.%s must hold 1 to %d samples",
                              field, tkey, LIMIT_IMPORT_REPS);
    for (size_t s = 0; s < nsamples; s++) {
        struct run_record *r = imp_batch_slot(b, err);
        char id[80];
        if (r == NULL)
            return -1;
        r->application = opt && opt->application ? opt->application : c->app;
        r->executable = opt && opt->executable
                            ? opt->executable
                            : imp_name(b->a, name, strlen(name), b->file, field, err);
        r->system = c->system;
        r->nprocs = 1;
        r->commit = c->commit;
        r->branch = c->branch;
        r->started_at = c->started;
        r->tags = c->tags;
        r->ntags = c->ntags;
        r->metrics = arena_alloc(b->a, (LIMIT_METRICS + 1) * sizeof *r->metrics);
        if (r->executable == NULL)
            return -1;
        if (r->metrics == NULL)
            return err_nomem(err);
        if (sample(time, s, &r->runtime) != 0)
            return imp_fail_field(err, b->file, field, "%s.%s[%zu] is not a number",
                                  field, tkey, s);
        json_object_foreach(t, key, v)
        {
            double d;
            if (strcmp(key, "name") == 0 || strcmp(key, tkey) == 0 ||
                sample(v, s, &d) != 0)
                continue;
            if (r->nmetrics >= LIMIT_METRICS)
                return imp_fail_field(err, b->file, field, "%s has more than %d metrics",
                                      field, LIMIT_METRICS);
            r->metrics[r->nmetrics].name =
                imp_name(b->a, key, strlen(key), b->file, key, err);
            if (r->metrics[r->nmetrics].name == NULL)
                return -1;
            r->metrics[r->nmetrics++].value = d;
        }
        snprintf(id, sizeof id, "%s sample %zu", field, s);
        if (imp_batch_commit(b, id, err) != 0)
            return -1;
    }
    return 0;
}

int import_lnt_json(const struct fmt_file *files, size_t nfiles,
                    const struct fmt_options *opt, const struct fmt_sink *sink,
                    struct err *err)
{
    static const char *const revs[] = {"llvm_project_revision", "revision", "git_sha",
                                       "commit", NULL};
    struct imp_batch b = {0};
    struct lnt_ctx c = {0};
    json_t *doc, *machine, *run, *tests, *t, *ver;
    arena *names = NULL;
    size_t i;
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "lnt-json reads one file at a time");
    if ((doc = imp_json_load(&files[0], err)) == NULL)
        return -1;
    ver = json_object_get(doc, "format_version");
    machine = json_object_get(doc, "machine");
    run = json_object_get(doc, "run");
    tests = json_object_get(doc, "tests");
    if (json_object_get(doc, "Machine") != NULL && machine == NULL) {
        imp_fail_field(err, files[0].name, "format_version",
                       "LNT report format version 1 is not read; write version 2 "
                       "(lnt.testing.Report(..., report_version=2))");
        goto out;
    }
    if (!((json_is_string(ver) && strcmp(json_string_value(ver), "2") == 0) ||
          (json_is_integer(ver) && json_integer_value(ver) == 2))) {
        imp_fail_field(err, files[0].name, "format_version",
                       "format_version must be \"2\"");
        goto out;
    }
    if (!json_is_object(machine) || !json_is_object(run) || !json_is_array(tests)) {
        imp_fail_field(err, files[0].name, "tests",
                       "an LNT report needs \"machine\", \"run\" and \"tests\"");
        goto out;
    }
    if ((names = arena_new()) == NULL ||
        imp_batch_init(&b, "lnt-json", files[0].name, sink, err) != 0) {
        err_nomem(err);
        goto out;
    }
    c.app = imp_base_name(names, files[0].name);
    c.system = opt && opt->system ? opt->system : imp_json_name(names, machine, "name");
    if (c.system == NULL) {
        imp_fail_field(err, files[0].name, "machine.name", "machine.name must be a name");
        goto out;
    }
    for (i = 0; revs[i] && c.commit == NULL; i++) {
        json_t *v = json_object_get(run, revs[i]);
        if (json_is_string(v) && json_string_length(v) <= LIMIT_COMMIT)
            c.commit = imp_json_name(names, run, revs[i]);
        else if (json_is_integer(v))
            c.commit = arena_printf(names, "%lld", (long long)json_integer_value(v));
    }
    c.branch = imp_json_name(names, run, "branch");
    c.started =
        imp_timestamp(names, json_string_value(json_object_get(run, "start_time")));
    {
        static const char *const skip[] = {
            "start_time", "end_time", "llvm_project_revision",
            "revision",   "git_sha",  "commit",
            "branch",     NULL};
        imp_json_tags(names, run, skip, &c.tags, &c.ntags);
    }
    if (json_array_size(tests) == 0) {
        imp_fail_field(err, files[0].name, "tests", "the report holds no tests");
        goto out;
    }
    json_array_foreach(tests, i, t)
    {
        if (one_test(&b, t, i, &c, opt, err) != 0)
            goto out;
    }
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    arena_free(names);
    json_decref(doc);
    return rc;
}

int sniff_lnt_json(const struct fmt_file *files, size_t nfiles)
{
    return nfiles == 1 && imp_starts_with(&files[0], "{") &&
           ((imp_contains(&files[0], "\"format_version\"") &&
             imp_contains(&files[0], "\"machine\"")) ||
            (imp_contains(&files[0], "\"Machine\"") &&
             imp_contains(&files[0], "\"Run\"")));
}
