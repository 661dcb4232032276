/* import_lnt: an LLVM LNT report (JSON, format version 1 or 2) into runs.
 *
 * A report is one machine, one run and a list of tests, each test a name and
 * metrics whose values are a number or a list of samples. Version 1
 * ("Machine", "Run", "Tests") names one metric per entry by a suffix
 * ("nts.foo.exec", ".compile", ".score", ".hash", ...), as LNT's own upgrade
 * to version 2 reads it; its entries are grouped into tests first.
 *
 * Each sample of a test is one run: the test's name is the executable, the
 * run time is "execution_time", else "compile_time", else "wall_time" (the
 * compile suite), in seconds as LNT records them; every other numeric
 * metric (compile_time, code_size, mem_bytes, score, ...) is a run metric,
 * taken from the same sample index when it is a list; "hash" and its status
 * are ignored, and a test that measured nothing else (a status at most) is
 * left out.
 * machine.name is the system; the application is the run's test suite
 * (run.tag, else the report's schema, else LNT's default "nts"), so that the reports
 * of one nightly feed are one application; the commit is
 * run.llvm_project_revision (else revision, git_sha, commit, run_order), the
 * branch run.branch, the start time run.start_time; the run's other string
 * fields are provenance tags.
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

/* Sample i of a metric: the number itself, or element i of a list. */
static int number(json_t *v, double *out)
{
    const char *str = json_string_value(v);
    char *end;
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return 0;
    }
    /* LNT's server writes its reports' samples as strings ("1.3"; LNT reads
     * them into its float columns): a string that is a finite number whole */
    if (str == NULL || *str == '\0' || isspace((unsigned char)*str))
        return -1;
    errno = 0;
    *out = strtod(str, &end);
    return *end == '\0' && errno == 0 && isfinite(*out) ? 0 : -1;
}

static int sample(json_t *v, size_t i, double *out)
{
    if (json_is_array(v))
        return i < json_array_size(v) ? number(json_array_get(v, i), out) : -1;
    return number(v, out);
}

/* Not a measurement: the name, and the output hash with its status. */
static int ignored(const char *key)
{
    return strcmp(key, "name") == 0 || strncmp(key, "hash", 4) == 0;
}

/* A status (execution_status, compile_status, ...: LNT's PASS 0, FAIL 1,
 * XFAIL 2) says how a measurement went, not what it measured: a run's
 * metric beside a measurement, never a run of its own (a failed test of a
 * nightly report measured nothing). */
static int status(const char *key)
{
    size_t n = strlen(key);
    return n >= 7 && strcmp(key + n - 7, "_status") == 0;
}

/* Version 1's metric suffixes and the version 2 names they stand for (LNT's
 * lnt.testing upgrade_1_to_2), longest first. */
static const char *const v1_suffix[][2] = {
    {".compile.status", "compile_status"},
    {".exec.status", "execution_status"},
    {".hash.status", "hash_status"},
    {".mem.status", "mem_status"}, /* the compile suite's */
    {".size.status", "size_status"},
    {".sys.status", "sys_status"},
    {".user.status", "user_status"},
    {".wall.status", "wall_status"},
    {".code_size", "code_size"},
    {".compile", "compile_time"},
    {".exec", "execution_time"},
    {".hash", "hash"},
    {".mem", "mem_bytes"},
    {".score", "score"},
    {".profile", "profile"},
    {".wall", "wall_time"},
    {".user", "user_time"},
    {".sys", "sys_time"},
    {".size", "size_bytes"},
    {NULL, NULL},
};

/* Version 1 "Tests" into version 2 tests: entries grouped by the test name
 * (the entry's name without its metric suffix), in the order first met.
 * Returns a new array, or NULL with err. */
static json_t *v1_tests(json_t *list, const char *file, struct err *err)
{
    json_t *out = json_array(), *e;
    struct imp_map seen = {0};
    size_t i;

    if (out == NULL || !json_is_array(list)) {
        json_decref(out);
        imp_fail_field(err, file, "Tests", "Tests must be a list");
        return NULL;
    }
    json_array_foreach(list, i, e)
    {
        const char *name = json_string_value(json_object_get(e, "Name")), *metric;
        json_t *data = json_object_get(e, "Data"), *t = NULL, *prev;
        size_t len, j;
        int k;
        char *test;
        if (name == NULL || !json_is_array(data)) {
            imp_map_free(&seen);
            json_decref(out);
            imp_fail_field(err, file, "Tests", "Tests[%zu] needs a Name and Data", i);
            return NULL;
        }
        len = strlen(name);
        for (k = 0; v1_suffix[k][0]; k++) {
            size_t sl = strlen(v1_suffix[k][0]);
            if (len > sl && strcmp(name + len - sl, v1_suffix[k][0]) == 0)
                break;
        }
        if (v1_suffix[k][0] != NULL) {
            metric = v1_suffix[k][1];
            len -= strlen(v1_suffix[k][0]);
        } else {
            /* a metric LNT's upgrade does not rename: the name's last
             * ".word", as LNT takes it */
            const char *dot = strrchr(name, '.');
            if (dot == NULL || dot == name || dot[1] == '\0' ||
                strcmp(dot, ".name") == 0) {
                imp_map_free(&seen);
                json_decref(out);
                imp_fail_field(
                    err, file, "Tests",
                    "Tests[%zu] (%.64s) does not end in .metric (such as .exec)", i,
                    name);
                return NULL;
            }
            metric = dot + 1;
            len = (size_t)(dot - name);
        }
        test = xstrndup(name, len);
        if (test == NULL) {
            imp_map_free(&seen);
            json_decref(out);
            err_nomem(err);
            return NULL;
        }
        if (imp_map_get(&seen, test, len, &j))
            t = json_array_get(out, j);
        else {
            t = json_object();
            json_object_set_new(t, "name", json_string(test));
            json_array_append_new(out, t);
            /* the key lives in the test's own name string */
            if (imp_map_put(&seen, json_string_value(json_object_get(t, "name")), len,
                            json_array_size(out) - 1) != 0) {
                xfree(test);
                imp_map_free(&seen);
                json_decref(out);
                err_nomem(err);
                return NULL;
            }
        }
        xfree(test);
        /* the same test and metric again: its samples follow the first's,
         * as LNT's upgrade merges them */
        if ((prev = json_object_get(t, metric)) != NULL) {
            json_t *all = json_is_array(prev) ? json_copy(prev) : json_array();
            if (all == NULL ||
                (!json_is_array(prev) && json_array_append(all, prev) != 0) ||
                json_array_extend(all, data) != 0 ||
                json_object_set_new(t, metric, all) != 0) {
                imp_map_free(&seen);
                json_decref(out);
                err_nomem(err);
                return NULL;
            }
        } else /* one sample is a number, as LNT's upgrade keeps it */
            json_object_set(t, metric,
                            json_array_size(data) == 1 ? json_array_get(data, 0) : data);
    }
    imp_map_free(&seen);
    return out;
}

struct lnt_ctx {
    const char *app, *system, *commit, *branch, *started;
    struct rec_tag *tags;
    size_t ntags;
};

/* The runs of test ti. Returns 0, 1 when it measured nothing (left out), or
 * -1 with err. */
static int one_test(struct imp_batch *b, json_t *t, size_t ti, const struct lnt_ctx *c,
                    const struct fmt_options *opt, struct err *err)
{
    char field[48];
    const char *name = json_string_value(json_object_get(t, "name"));
    static const char *const tkeys[] = {"execution_time", "compile_time", "wall_time",
                                        NULL};
    const char *tkey = NULL, *key;
    json_t *time = NULL, *v;
    size_t nsamples, measured = 0;

    snprintf(field, sizeof field, "tests[%zu]", ti);
    if (!json_is_object(t) || name == NULL)
        return imp_fail_field(err, b->file, field, "%s needs a \"name\"", field);
    for (int i = 0; tkeys[i] && time == NULL; i++)
        if ((time = json_object_get(t, tkeys[i])) != NULL)
            tkey = tkeys[i];
    json_object_foreach(t, key, v)
    {
        double d;
        measured += !ignored(key) && !status(key) && sample(v, 0, &d) == 0;
    }
    if (measured == 0)
        return 1; /* a hash or a status only: nothing measured */
    if (time != NULL)
        nsamples = json_is_array(time) ? json_array_size(time) : 1;
    else { /* no time (SPEC §16): runs without a runtime, as many as the
              measures have samples */
        nsamples = 1;
        json_object_foreach(t, key, v)
        {
            if (!ignored(key) && json_is_array(v) && json_array_size(v) > nsamples)
                nsamples = json_array_size(v);
        }
        tkey = "measures";
    }
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
        if (time == NULL)
            r->runtime = NAN;
        else if (sample(time, s, &r->runtime) != 0)
            return json_is_array(time)
                       ? imp_fail_field(err, b->file, field, "%s.%s[%zu] is not a number",
                                        field, tkey, s)
                       : imp_fail_field(err, b->file, field, "%s.%s is not a number",
                                        field, tkey);
        json_object_foreach(t, key, v)
        {
            double d;
            if (v == time || ignored(key) || sample(v, s, &d) != 0)
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
    static const char *const revs[] = {
        "llvm_project_revision", "revision", "git_sha", "commit", "run_order", NULL};
    static const char *const skip[] = {"start_time", "end_time", "llvm_project_revision",
                                       "revision",   "git_sha",  "commit",
                                       "run_order",  "branch",   "__report_version__",
                                       NULL};
    struct imp_batch b = {0};
    struct lnt_ctx c = {0};
    json_t *doc, *machine, *run, *info, *tests, *t, *ver, *v1 = NULL, *v;
    json_t *v5_commit = NULL, *empty = NULL;
    const char *start, *suite = NULL;
    arena *names = NULL;
    size_t i, left_out = 0, tags_over = 0;
    const char *tags_first = NULL;
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "lnt-json reads one file at a time");
    if ((doc = imp_json_load(&files[0], err)) == NULL)
        return -1;
    ver = json_object_get(doc, "format_version");
    if (json_is_object(json_object_get(doc, "Machine")) &&
        json_object_get(doc, "machine") == NULL) {
        /* version 1: Machine.Name, Run.Info, Run["Start Time"], Tests */
        json_t *R = json_object_get(doc, "Run");
        machine = json_object_get(doc, "Machine");
        info = json_object_get(R, "Info");
        run = json_is_object(info) ? info : R;
        if ((v1 = v1_tests(json_object_get(doc, "Tests"), files[0].name, err)) == NULL)
            goto out;
        tests = v1;
        start = json_string_value(json_object_get(R, "Start Time"));
        v = json_object_get(machine, "Name");
        suite = json_string_value(json_object_get(run, "tag"));
    } else {
        /* no format_version: version 2, as LNT's own upgrade reads it;
         * version 5 (LNT v5) puts the run's fields in "run_parameters" and
         * the revision in "commit" */
        long long vn =
            json_is_integer(ver) ? (long long)json_integer_value(ver)
            : json_is_string(ver) && strcmp(json_string_value(ver), "2") == 0 ? 2
            : json_is_string(ver) && strcmp(json_string_value(ver), "5") == 0 ? 5
            : ver == NULL                                                     ? 2
                                                                              : 0;
        if (vn != 2 && vn != 5) {
            imp_fail_field(err, files[0].name, "format_version",
                           "format_version must be \"2\" (or a version 1 report with "
                           "\"Machine\", \"Run\" and \"Tests\")");
            goto out;
        }
        machine = json_object_get(doc, "machine");
        run = json_object_get(doc, vn == 5 ? "run_parameters" : "run");
        if (vn == 5 && run == NULL)
            run = json_object_get(doc, "run");
        if (vn == 5 && run == NULL)
            run = empty = json_object(); /* every field of it is optional */
        if (vn == 5) {
            json_t *cm = json_object_get(doc, "commit");
            v5_commit = json_is_object(cm) ? json_object_get(cm, "value") : cm;
        }
        tests = json_object_get(doc, "tests");
        start = json_string_value(json_object_get(run, "start_time"));
        v = json_object_get(machine, "name");
        suite = json_string_value(json_object_get(run, "tag"));
        if (suite == NULL)
            suite = json_string_value(json_object_get(doc, "schema"));
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
    /* the test suite names the application: one nightly feed, one
     * application, whatever its files are called */
    if (suite == NULL)
        suite = "nts"; /* LNT's default test suite */
    c.app = imp_name(names, suite, strlen(suite), files[0].name, "run.tag", err);
    if (c.app == NULL)
        goto out;
    c.system = opt && opt->system ? opt->system
               : json_is_string(v)
                   ? imp_name(names, json_string_value(v), json_string_length(v),
                              files[0].name, "machine.name", err)
                   : NULL;
    if (c.system == NULL) {
        if (err == NULL || err->status == 0)
            imp_fail_field(err, files[0].name, "machine.name",
                           "machine.name must be a name");
        goto out;
    }
    /* the v5 commit first, then the run's revision fields; -1 is the v5 one */
    for (long k = v5_commit ? -1 : 0; (k < 0 || revs[k]) && c.commit == NULL; k++) {
        json_t *r = k < 0 ? v5_commit : json_object_get(run, revs[k]);
        /* taken whole: a revision too long for a commit is refused, never
         * dropped (the run rules check it) */
        if (json_is_string(r))
            c.commit = arena_strndup(names, json_string_value(r), json_string_length(r));
        else if (json_is_integer(r))
            c.commit = arena_printf(names, "%lld", (long long)json_integer_value(r));
    }
    c.branch = imp_json_name(names, run, "branch");
    if (start != NULL && (c.started = imp_timestamp(names, start)) == NULL)
        c.started = arena_strdup(names, start); /* refused by the run rules */
    tags_over = imp_json_tags(names, run, skip, &c.tags, &c.ntags, &tags_first);
    json_array_foreach(tests, i, t)
    {
        int r = one_test(&b, t, i, &c, opt, err);
        if (r < 0)
            goto out;
        left_out += (size_t)r;
    }
    rc = imp_batch_finish(&b, err);
    /* a run that reported no test (LNT's own compile-run3.json) is a report
     * like one whose tests all failed: nothing to store, said, not refused */
    if (rc == 0 && json_array_size(tests) == 0)
        fmt_note(sink, "%s: the report holds no tests: nothing was stored",
                 files[0].name);
    if (rc == 0 && left_out > 0)
        fmt_note(sink,
                 "%s: %zu test%s measured nothing (a hash or a status only: a failed "
                 "test) and %s left out",
                 files[0].name, left_out, left_out == 1 ? "" : "s",
                 left_out == 1 ? "was" : "were");
    if (rc == 0 && tags_over > 0)
        fmt_note(
            sink,
            "%s: %zu run field%s left out beyond the %d tags a run keeps (the first: "
            "\"%s\")",
            files[0].name, tags_over, tags_over == 1 ? "" : "s", LIMIT_TAGS, tags_first);
out:
    imp_batch_free(&b);
    arena_free(names);
    json_decref(v1);
    json_decref(empty);
    json_decref(doc);
    return rc;
}

int sniff_lnt_json(const struct fmt_file *files, size_t nfiles)
{
    return nfiles == 1 && imp_starts_with(&files[0], "{") &&
           ((imp_contains(&files[0], "\"format_version\"") &&
             imp_contains(&files[0], "\"machine\"")) ||
            /* a version 2 report without its format_version */
            (imp_contains(&files[0], "\"machine\"") &&
             imp_contains(&files[0], "\"run\"") &&
             imp_contains(&files[0], "\"tests\"")) ||
            (imp_contains(&files[0], "\"Machine\"") &&
             imp_contains(&files[0], "\"Run\"")));
}
