/* import_gbench: Google Benchmark's JSON output (--benchmark_format=json or
 * --benchmark_out=FILE) into runs.
 *
 * Each measured repetition (run_type "iteration") is one run: the benchmark's
 * family name ("BM_SetInsert" of "BM_SetInsert/1024/8") is the executable,
 * its arguments are inputs ("size:1024" -> size = 1024, a positional one ->
 * arg1, arg2, ...; threads:N -> threads), the per-iteration real time is the
 * run time and cpu_time, iterations and every other number (bytes_per_second,
 * items_per_second, user counters) are metrics; times are converted from
 * time_unit (ns, us, ms, s) to seconds. Aggregates are not repetitions:
 * each repetition of a benchmark carries its aggregates as metrics
 * (real_time_mean, cpu_time_stddev, real_time_cv, ...: in seconds, but a
 * statistic whose aggregate_unit is "percentage" as the ratio it is; a
 * complexity fit's big_o_real_coefficient, big_o_cpu_coefficient and rms on
 * every run of its family), and a benchmark reported by its aggregates only is one run of
 * its mean. A benchmark that reported an error (SkipWithError) or was skipped with a
 * message (1.8's "skipped": true) measured nothing and is no run; a file of only errors
 * is refused with the first. context.host_name is the system, context.executable's name
 * the application (for a.out the directory it was built in), context.date the start time,
 * and context.commit / context.branch (set with --benchmark_context=commit=...) the
 * provenance, and the context's other string fields (library_build_type, ...) its tags.
 * The family name is the name up to its first argument, so a fixture's
 * "Fixture/BM_Get/8" stays apart from "Fixture/BM_Put/8"; files before 1.5
 * (no run_type) name aggregates "BM_x_mean", "BM_x_BigO", and files before
 * 1.2 write arguments as "8k", "1.95312k" (inputs 8192, 2000); NaN and Infinity
 * (not JSON, but written by the library) are absent numbers.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

static double unit_scale(const char *u)
{
    if (u == NULL || strcmp(u, "ns") == 0)
        return 1e-9;
    if (strcmp(u, "us") == 0)
        return 1e-6;
    if (strcmp(u, "ms") == 0)
        return 1e-3;
    if (strcmp(u, "s") == 0)
        return 1;
    return -1;
}

/* Fields that are not metrics: identity, bookkeeping, or turned into inputs. */
static int not_metric(const char *k)
{
    static const char *const skip[] = {"name",           "family_index",
                                       "run_name",       "run_type",
                                       "repetitions",    "repetition_index",
                                       "threads",        "real_time",
                                       "time_unit",      "aggregate_name",
                                       "aggregate_unit", "per_family_instance_index",
                                       "error_occurred", "error_message",
                                       "label",          NULL};
    for (int i = 0; skip[i]; i++)
        if (strcmp(k, skip[i]) == 0)
            return 1;
    return 0;
}

/* Options of how a benchmark ran, not parameters of what it measured. */
static int run_option(const char *s, size_t n)
{
    static const char *const opts[] = {"min_time", "min_warmup_time", "iterations",
                                       "repeats", NULL};
    for (int i = 0; opts[i]; i++)
        if (strlen(opts[i]) == n && memcmp(s, opts[i], n) == 0)
            return 1;
    return 0;
}

/* A number in a benchmark's name: "8", "-2", "0.5", and, before Google
 * Benchmark 1.2, its AppendHumanReadable form of an argument: "8k", "1M",
 * "1.95312k" (powers of 1024, six digits: the integer it stood for is the
 * nearest one). 0, or -1. */
static int name_number(const char *s, size_t n, double *out)
{
    static const char prefixes[] = "kMGTPEZY";
    const char *p = n >= 2 ? memchr(prefixes, s[n - 1], sizeof prefixes - 1) : NULL;
    if (imp_number(s, n, out) == 0)
        return 0;
    if (p == NULL || imp_number(s, n - 1, out) != 0)
        return -1;
    for (const char *q = prefixes; q <= p; q++)
        *out *= 1024;
    *out = round(*out);
    return 0;
}

/* Whether one "/"-separated part of a benchmark's name is an argument or a
 * run option ("8", "size:64", "threads:4", "min_time:0.5", "real_time"),
 * not part of the benchmark's own name. */
static int arg_part(const char *s, size_t n)
{
    static const char *const words[] = {"real_time", "manual_time", "process_time", NULL};
    const char *colon = memchr(s, ':', n);
    double d;
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == n && memcmp(s, words[i], n) == 0)
            return 1;
    if (colon != NULL)
        return colon > s &&
               (name_number(colon + 1, n - (size_t)(colon + 1 - s), &d) == 0 ||
                run_option(s, (size_t)(colon - s)) ||
                ((size_t)(colon - s) == 7 && memcmp(s, "threads", 7) == 0));
    return name_number(s, n, &d) == 0;
}

/* The length of a benchmark's family name: its parts up to the first
 * argument. A fixture's benchmark ("MyFixture/BM_Get/8") and a captured one
 * ("BM_Parse/small_doc/8") keep the second part. */
static size_t family_len(const char *name)
{
    const char *s = strchr(name, '/');
    while (s != NULL) {
        const char *e = strchr(s + 1, '/');
        size_t n = e ? (size_t)(e - s - 1) : strlen(s + 1);
        if (arg_part(s + 1, n))
            return (size_t)(s - name);
        s = e;
    }
    return strlen(name);
}

/* Whether an argument-or-option part is a run option (how it ran:
 * "real_time", "threads:4", "repeats:3"), not an argument ("8", "n:64"). */
static int option_part(const char *s, size_t n)
{
    const char *colon = memchr(s, ':', n);
    if (colon == NULL)
        return (n == 9 && (memcmp(s, "real_time", 9) == 0)) ||
               (n == 11 && memcmp(s, "manual_time", 11) == 0) ||
               (n == 12 && memcmp(s, "process_time", 12) == 0);
    return run_option(s, (size_t)(colon - s)) ||
           ((size_t)(colon - s) == 7 && memcmp(s, "threads", 7) == 0);
}

/* The run_name of the complexity fit a benchmark's run belongs to: Google
 * Benchmark clears the arguments and keeps the run options
 * ("BM_Sort/64/real_time" -> "BM_Sort/real_time", whose fit is
 * "BM_Sort/real_time_BigO"). NULL when the name has no argument. */
static char *fit_name(arena *a, const char *run_name)
{
    size_t fam = family_len(run_name);
    struct buf b;
    char *out;
    const char *s;
    if (run_name[fam] != '/')
        return NULL;
    buf_init(&b, LIMIT_NAME * 4);
    buf_append(&b, run_name, fam);
    for (s = run_name + fam; s != NULL && *s == '/'; s = strchr(s + 1, '/')) {
        const char *e = strchr(s + 1, '/');
        size_t n = e ? (size_t)(e - s - 1) : strlen(s + 1);
        if (option_part(s + 1, n))
            buf_append(&b, s, n + 1);
    }
    out = buf_failed(&b) ? NULL : arena_strndup(a, buf_str(&b), b.len);
    buf_free(&b);
    return out;
}

/* Google Benchmark writes NaN, Infinity and -Infinity for a number it could
 * not compute (a rate over a zero time, the cv of a zero mean), which JSON
 * does not allow: returns a copy of the text with each of those tokens
 * (outside strings) written as null, or NULL when the text has none (or
 * on a failed allocation, *failed set). */
static char *without_nonfinite(const char *p, size_t n, size_t *len, int *failed)
{
    struct buf b;
    size_t from = 0;
    int in_str = 0, found = 0;
    buf_init(&b, n + n / 2 + 16); /* "NaN" grows to "null" */
    for (size_t i = 0; i < n; i++) {
        size_t t = 0;
        if (in_str) {
            if (p[i] == '\\')
                i++;
            else if (p[i] == '"')
                in_str = 0;
            continue;
        }
        if (p[i] == '"') {
            in_str = 1;
            continue;
        }
        if (p[i] == 'N' && n - i >= 3 && memcmp(p + i, "NaN", 3) == 0)
            t = 3;
        else if (p[i] == 'I' && n - i >= 8 && memcmp(p + i, "Infinity", 8) == 0)
            t = 8;
        else if (p[i] == '-' && n - i >= 9 && memcmp(p + i, "-Infinity", 9) == 0)
            t = 9;
        if (t == 0)
            continue;
        buf_append(&b, p + from, i - from);
        buf_puts(&b, "null");
        from = i + t;
        i += t - 1;
        found = 1;
    }
    if (!found) {
        buf_free(&b);
        return NULL;
    }
    buf_append(&b, p + from, n - from);
    if (buf_failed(&b)) {
        buf_free(&b);
        *failed = 1;
        return NULL;
    }
    return buf_detach(&b, len);
}

/* 1 (little-endian) or 2 (big-endian) when the text starts with a UTF-16
 * byte-order mark, else 0. */
static int utf16_bom(const char *p, size_t n)
{
    if (n >= 2 && (unsigned char)p[0] == 0xff && (unsigned char)p[1] == 0xfe)
        return 1;
    if (n >= 2 && (unsigned char)p[0] == 0xfe && (unsigned char)p[1] == 0xff)
        return 2;
    return 0;
}

/* The UTF-8 of UTF-16 text after its byte-order mark (Windows PowerShell 5
 * writes a redirected --benchmark_format=json so), xmalloc'd; NULL when it
 * is not valid UTF-16 (*bad set; `prefix`: a cut-off last unit is allowed)
 * or out of memory. */
static char *from_utf16(const char *text, size_t n, int prefix, size_t *len, int *bad)
{
    const unsigned char *p = (const unsigned char *)text;
    int be = utf16_bom(text, n) == 2;
    struct buf b;
    buf_init(&b, n * 2 + 16);
    for (size_t i = 2; i < n; i += 2) {
        unsigned long u, v;
        if (i + 1 >= n) {
            *bad = !prefix;
            break;
        }
        u = be ? (unsigned long)p[i] << 8 | p[i + 1]
               : (unsigned long)p[i + 1] << 8 | p[i];
        if (u >= 0xd800 && u <= 0xdbff) {
            if (i + 3 >= n) {
                *bad = !prefix;
                break;
            }
            v = be ? (unsigned long)p[i + 2] << 8 | p[i + 3]
                   : (unsigned long)p[i + 3] << 8 | p[i + 2];
            if (v < 0xdc00 || v > 0xdfff) {
                *bad = 1;
                break;
            }
            u = 0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00);
            i += 2;
        } else if (u >= 0xdc00 && u <= 0xdfff) {
            *bad = 1;
            break;
        }
        if (u < 0x80)
            buf_putc(&b, (char)u);
        else if (u < 0x800) {
            buf_putc(&b, (char)(0xc0 | u >> 6));
            buf_putc(&b, (char)(0x80 | (u & 0x3f)));
        } else if (u < 0x10000) {
            buf_putc(&b, (char)(0xe0 | u >> 12));
            buf_putc(&b, (char)(0x80 | (u >> 6 & 0x3f)));
            buf_putc(&b, (char)(0x80 | (u & 0x3f)));
        } else {
            buf_putc(&b, (char)(0xf0 | u >> 18));
            buf_putc(&b, (char)(0x80 | (u >> 12 & 0x3f)));
            buf_putc(&b, (char)(0x80 | (u >> 6 & 0x3f)));
            buf_putc(&b, (char)(0x80 | (u & 0x3f)));
        }
    }
    if (*bad || buf_failed(&b)) {
        buf_free(&b);
        return NULL;
    }
    return buf_detach(&b, len);
}

/* Reads the file as JSON, NaN and Infinity as null (a value not stored),
 * after a UTF-8 byte-order mark (Windows tools write one); UTF-16 text is
 * read as its UTF-8. */
static json_t *gb_load(const struct fmt_file *f, struct err *err)
{
    int failed = 0, bad = 0;
    size_t len = 0;
    struct fmt_file g = *f;
    char *utf8 = NULL, *copy;
    json_t *doc;
    if (utf16_bom(g.data, g.len)) {
        if (g.len / 2 > LIMIT_IMPORT_DOC) {
            imp_fail_field(err, f->name, "file", "the document is larger than %u bytes",
                           LIMIT_IMPORT_DOC);
            return NULL;
        }
        if ((utf8 = from_utf16(g.data, g.len, 0, &len, &bad)) == NULL) {
            if (bad)
                imp_fail_field(err, f->name, "file",
                               "the file starts as UTF-16 but is not valid UTF-16");
            else
                err_nomem(err);
            return NULL;
        }
        g.data = utf8;
        g.len = len;
    } else if (g.len >= 3 && memcmp(g.data, "\xef\xbb\xbf", 3) == 0)
        g.data += 3, g.len -= 3;
    copy = g.len <= LIMIT_IMPORT_DOC ? without_nonfinite(g.data, g.len, &len, &failed)
                                     : NULL;
    if (failed) {
        xfree(utf8);
        err_nomem(err);
        return NULL;
    }
    if (copy != NULL) {
        g.data = copy;
        g.len = len;
    }
    doc = imp_json_load(&g, err);
    xfree(copy);
    xfree(utf8);
    return doc;
}

/* Before Google Benchmark 1.5 a row had no run_type: an aggregate was a row
 * named after its benchmark and the statistic ("BM_Sort/8_mean",
 * "BM_Sort_BigO", "BM_Sort_RMS"). In such a file, marks each row with the
 * run_type, run_name and aggregate_name a newer version writes, so that
 * aggregates are not taken as repetitions. */
static int legacy_rows(json_t *list)
{
    static const char *const stats[] = {"_mean", "_median", "_stddev", "_cv",
                                        "_BigO", "_RMS",    NULL};
    size_t i;
    json_t *bm;
    json_array_foreach(list, i, bm)
    {
        if (json_object_get(bm, "run_type") != NULL)
            return 0; /* a current file */
    }
    json_array_foreach(list, i, bm)
    {
        const char *name = json_string_value(json_object_get(bm, "name"));
        const char *stat = NULL;
        size_t n, base = 0;
        if (name == NULL || json_object_get(bm, "run_name") != NULL)
            continue;
        n = strlen(name);
        for (int s = 0; stats[s] && stat == NULL; s++) {
            size_t l = strlen(stats[s]);
            if (n > l && strcmp(name + n - l, stats[s]) == 0) {
                stat = stats[s] + 1;
                base = n - l;
            }
        }
        if (stat != NULL && (strcmp(stat, "BigO") == 0 || strcmp(stat, "RMS") == 0)) {
            /* a complexity fit has coefficients, no real_time */
            if (json_object_get(bm, "real_time") != NULL)
                stat = NULL;
        } else if (stat != NULL) {
            /* a statistic of a benchmark listed before it */
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++) {
                const char *o =
                    json_string_value(json_object_get(json_array_get(list, j), "name"));
                seen = o != NULL && strlen(o) == base && memcmp(o, name, base) == 0;
            }
            if (!seen)
                stat = NULL;
        }
        if (stat == NULL) {
            if (json_object_set_new(bm, "run_type", json_string("iteration")) != 0 ||
                json_object_set_new(bm, "run_name", json_string(name)) != 0)
                return -1;
            continue;
        }
        if (json_object_set_new(bm, "run_type", json_string("aggregate")) != 0 ||
            json_object_set_new(bm, "aggregate_name", json_string(stat)) != 0 ||
            json_object_set_new(bm, "run_name", json_stringn(name, base)) != 0)
            return -1;
    }
    return 0;
}

/* The executable's path as imp_program_name reads it: "/" between its
 * directories (Google Benchmark on Windows writes
 * "C:\\src\\build\\Release\\bench.exe"), and MinGW's default a.exe
 * named like a.out (by the directory it was built in). In the arena. */
static const char *program_path(arena *a, const char *exe)
{
    size_t n = exe ? strlen(exe) : 0;
    char *p;
    int aexe = n >= 5 && strcmp(exe + n - 5, "a.exe") == 0 &&
               (n == 5 || exe[n - 6] == '/' || exe[n - 6] == '\\');
    if (exe == NULL || (strchr(exe, '\\') == NULL && !aexe) ||
        (p = arena_strdup(a, exe)) == NULL)
        return exe;
    for (char *q = p; *q; q++)
        if (*q == '\\')
            *q = '/';
    if (aexe)
        memcpy(p + n - 3, "out", 3);
    return p;
}

/* Whether an aggregate row's times are a ratio, not times: its
 * aggregate_unit says "percentage" (1.7's cv, and a user statistic registered
 * with StatisticUnit::kPercentage); before aggregate_unit, the cv. */
static int ratio_stat(json_t *bm, const char *an)
{
    const char *unit = json_string_value(json_object_get(bm, "aggregate_unit"));
    return unit ? strcmp(unit, "percentage") == 0 : strcmp(an, "cv") == 0;
}

/* The aggregates of one benchmark (by run_name), as metrics of its runs. */
struct gb_agg {
    const char *run_name;
    struct rec_kv *m; /* statistics of the times and of every counter (arena) */
    size_t n, cap;
    json_t *mean; /* the mean row, for a benchmark without repetitions */
    int reps;     /* repetitions seen */
};

static struct gb_agg *agg_find(struct gb_agg *g, const struct imp_map *m,
                               const char *run_name)
{
    size_t i;
    return imp_map_get(m, run_name, strlen(run_name), &i) ? &g[i] : NULL;
}

/* Adds metric NAME = v of an aggregate row (as many as the file has: a run
 * with more than LIMIT_METRICS metrics is refused where it is made). */
static void agg_put(arena *a, struct gb_agg *g, const char *a1, const char *a2, double v)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        struct rec_kv *m = arena_alloc(a, cap * sizeof *m);
        if (m == NULL)
            return;
        if (g->n)
            memcpy(m, g->m, g->n * sizeof *m);
        g->m = m;
        g->cap = cap;
    }
    if (g->n < g->cap) {
        g->m[g->n].name = arena_printf(a, "%s%s", a1, a2);
        if (g->m[g->n].name != NULL)
            g->m[g->n++].value = v;
    }
}

/* The context's fields that are not provenance tags: taken for themselves. */
static const char *const ctx_not_tags[] = {"date",   "host_name", "executable",
                                           "commit", "branch",    NULL};

/* context.date: ISO 8601 since Google Benchmark 1.2; 1.0 and 1.1 wrote the C
 * locale's "%x %X", "08/16/16 05:04:01" (MM/DD/YY, years 69-99 of the 1900s
 * as strptime's %y reads them). NULL when neither. */
static const char *start_time(arena *a, const char *s)
{
    const char *iso = imp_timestamp(a, s);
    int mo, d, y, h, mi, sec, n = 0;
    if (iso != NULL || s == NULL)
        return iso;
    if (sscanf(s, "%2d/%2d/%2d %2d:%2d:%2d%n", &mo, &d, &y, &h, &mi, &sec, &n) != 6 ||
        s[n] != '\0' || n != 17 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
        mi > 59 || sec > 60)
        return NULL;
    return arena_printf(a, "%04d-%02d-%02dT%02d:%02d:%02d", y < 69 ? 2000 + y : 1900 + y,
                        mo, d, h, mi, sec);
}

static int one(struct imp_batch *b, json_t *bm, size_t idx, const char *app,
               const char *system, const struct fmt_options *opt, json_t *ctx,
               const struct gb_agg *agg, const struct gb_agg *family, struct err *err)
{
    char field[64], id[80];
    const char *name = json_string_value(json_object_get(bm, "run_name"));
    const char *key, *slash, *arg;
    double scale = unit_scale(json_string_value(json_object_get(bm, "time_unit")));
    struct run_record *r;
    json_t *v;
    size_t npos = 0;

    snprintf(field, sizeof field, "benchmarks[%zu]", idx);
    if (name == NULL)
        name = json_string_value(json_object_get(bm, "name"));
    if (name == NULL)
        return imp_fail_field(err, b->file, field, "%s has no name", field);
    if (json_is_true(json_object_get(bm, "error_occurred")))
        return imp_fail_field(
            err, b->file, field, "%s (%.64s) reported an error: %.80s", field, name,
            json_string_value(json_object_get(bm, "error_message"))
                ? json_string_value(json_object_get(bm, "error_message"))
                : "");
    if (scale < 0)
        return imp_fail_field(err, b->file, field, "%s has an unknown time_unit", field);
    if ((r = imp_batch_slot(b, err)) == NULL)
        return -1;
    r->application = opt && opt->application ? opt->application : app;
    slash = name[family_len(name)] == '/' ? name + family_len(name) : NULL;
    r->executable = opt && opt->executable
                        ? opt->executable
                        : imp_name(b->a, name, family_len(name), b->file, field, err);
    r->system = system;
    r->nprocs = 1;
    r->inputs = arena_alloc(b->a, (LIMIT_INPUTS + 1) * sizeof *r->inputs);
    r->metrics = arena_alloc(b->a, (LIMIT_METRICS + 1) * sizeof *r->metrics);
    if (r->executable == NULL || r->inputs == NULL || r->metrics == NULL)
        return err ? (err->status ? -1 : err_nomem(err)) : -1;
    for (arg = slash; arg && *arg == '/'; arg = slash) {
        const char *s = arg + 1, *colon;
        size_t len;
        double d;
        slash = strchr(s, '/');
        len = slash ? (size_t)(slash - s) : strlen(s);
        colon = memchr(s, ':', len);
        if (r->ninputs >= LIMIT_INPUTS)
            return imp_fail_field(err, b->file, field, "%s has more than %d arguments",
                                  field, LIMIT_INPUTS);
        if (colon) {
            if (name_number(colon + 1, len - (size_t)(colon + 1 - s), &d) != 0 ||
                run_option(s, (size_t)(colon - s)))
                continue; /* "real_time", "process_time", "min_time:0.5", ... */
            r->inputs[r->ninputs].name =
                imp_name(b->a, s, (size_t)(colon - s), b->file, field, err);
        } else {
            if (name_number(s, len, &d) != 0)
                continue;
            r->inputs[r->ninputs].name = arena_printf(b->a, "arg%zu", ++npos);
        }
        if (r->inputs[r->ninputs].name == NULL)
            return -1;
        r->inputs[r->ninputs++].value = d;
    }
    v = json_object_get(bm, "threads");
    if (json_is_integer(v) && r->ninputs < LIMIT_INPUTS) {
        int dup = 0;
        for (size_t i = 0; i < r->ninputs; i++)
            dup |= strcmp(r->inputs[i].name, "threads") == 0;
        if (!dup)
            r->inputs[r->ninputs++] =
                (struct rec_kv){"threads", (double)json_integer_value(v)};
    }
    v = json_object_get(bm, "real_time");
    if (!json_is_number(v))
        return imp_fail_field(err, b->file, field, "%s has no real_time", field);
    r->runtime = json_number_value(v) * scale;
    json_object_foreach(bm, key, v)
    {
        double d;
        if (not_metric(key) || !json_is_number(v))
            continue;
        /* a benchmark reported by its aggregates only: its mean row's
         * "iterations" is the number of repetitions, not of iterations */
        if (strcmp(key, "iterations") == 0 &&
            json_is_string(json_object_get(bm, "aggregate_name")))
            continue;
        d = json_number_value(v);
        if (strcmp(key, "cpu_time") == 0)
            d *= scale;
        if (r->nmetrics >= LIMIT_METRICS)
            return imp_fail_field(err, b->file, field, "%s has more than %d metrics",
                                  field, LIMIT_METRICS);
        r->metrics[r->nmetrics].name =
            imp_name(b->a, key, strlen(key), b->file, key, err);
        if (r->metrics[r->nmetrics].name == NULL)
            return -1;
        r->metrics[r->nmetrics++].value = d;
    }
    for (int w = 0; w < 2; w++) {
        const struct gb_agg *g = w ? family : agg;
        for (size_t i = 0; g && g != (w ? agg : NULL) && i < g->n; i++) {
            if (r->nmetrics >= LIMIT_METRICS)
                return imp_fail_field(err, b->file, field, "%s has more than %d metrics",
                                      field, LIMIT_METRICS);
            r->metrics[r->nmetrics++] = g->m[i];
        }
    }
    r->started_at = start_time(b->a, json_string_value(json_object_get(ctx, "date")));
    r->commit = imp_json_name(b->a, ctx, "commit");
    r->branch = imp_json_name(b->a, ctx, "branch");
    imp_json_tags(b->a, ctx, ctx_not_tags, &r->tags, &r->ntags, NULL);
    snprintf(id, sizeof id, "benchmarks[%zu]", idx);
    return imp_batch_commit(b, id, err);
}

int import_gbench(const struct fmt_file *files, size_t nfiles,
                  const struct fmt_options *opt, const struct fmt_sink *sink,
                  struct err *err)
{
    struct imp_batch b = {0};
    json_t *doc, *ctx, *list, *bm;
    const char *app, *system;
    arena *names = NULL;
    size_t i, taken = 0, nagg = 0, left_out = 0, tags_over = 0;
    const char *tags_first = NULL;
    long first_error = -1;
    struct gb_agg *agg = NULL;
    struct imp_map byname = {0};
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "gbench reads one file at a time");
    if ((doc = gb_load(&files[0], err)) == NULL)
        return -1;
    ctx = json_object_get(doc, "context");
    list = json_object_get(doc, "benchmarks");
    if (!json_is_object(ctx) || !json_is_array(list)) {
        imp_fail_field(err, files[0].name, "benchmarks",
                       "a Google Benchmark file needs \"context\" and \"benchmarks\"");
        goto out;
    }
    if ((names = arena_new()) == NULL || legacy_rows(list) != 0 ||
        imp_batch_init(&b, "gbench", files[0].name, sink, err) != 0) {
        err_nomem(err);
        goto out;
    }
    app = imp_program_name(
        names, program_path(names, json_string_value(json_object_get(ctx, "executable"))),
        files[0].name);
    system = opt && opt->system ? opt->system : imp_json_name(names, ctx, "host_name");
    if (system == NULL)
        system = "unknown";
    /* first the aggregates, by the benchmark they summarise */
    if ((agg = xcalloc(json_array_size(list) + 1, sizeof *agg)) == NULL) {
        err_nomem(err);
        goto out;
    }
    json_array_foreach(list, i, bm)
    {
        const char *type = json_string_value(json_object_get(bm, "run_type"));
        const char *rn = json_string_value(json_object_get(bm, "run_name"));
        const char *an = json_string_value(json_object_get(bm, "aggregate_name"));
        double scale = unit_scale(json_string_value(json_object_get(bm, "time_unit")));
        struct gb_agg *g;
        const char *key;
        json_t *v;
        if (!json_is_object(bm)) {
            imp_fail_field(err, files[0].name, "benchmarks",
                           "benchmarks[%zu] is not an object", i);
            goto out;
        }
        if (rn == NULL)
            continue;
        if ((g = agg_find(agg, &byname, rn)) == NULL) {
            if (imp_map_put(&byname, rn, strlen(rn), nagg) != 0) {
                err_nomem(err);
                goto out;
            }
            g = &agg[nagg++];
            g->run_name = rn;
        }
        if (json_is_true(json_object_get(bm, "skipped")) ||
            json_is_true(json_object_get(bm, "error_occurred")))
            continue; /* SkipWithMessage (1.8), SkipWithError: nothing was measured */
        if (type == NULL || strcmp(type, "aggregate") != 0 || an == NULL) {
            g->reps++;
            continue;
        }
        if (strcmp(an, "mean") == 0 || (g->mean == NULL && strcmp(an, "median") == 0))
            g->mean = bm;
        if (strcmp(an, "BigO") == 0) {
            json_object_foreach(bm, key, v)
            {
                if (json_is_number(v) && strstr(key, "coefficient"))
                    agg_put(names, g, "big_o_", key, json_number_value(v));
            }
            continue;
        }
        if (strcmp(an, "RMS") == 0) {
            if (json_is_number(json_object_get(bm, "rms")))
                agg_put(names, g, "rms", "",
                        json_number_value(json_object_get(bm, "rms")));
            continue;
        }
        /* mean, median, stddev, cv (a ratio: no unit), and user aggregates */
        {
            /* of every counter too (items_per_second_mean, a user counter's
             * _stddev), as they are; not of "iterations", which an aggregate
             * row fills with the number of repetitions */
            const char *sfx = arena_printf(names, "_%s", an);
            json_object_foreach(bm, key, v)
            {
                if (sfx != NULL && json_is_number(v) && !not_metric(key) &&
                    strcmp(key, "cpu_time") != 0 && strcmp(key, "iterations") != 0)
                    agg_put(names, g, key, sfx, json_number_value(v));
            }
        }
        if (ratio_stat(bm, an) || scale < 0)
            scale = 1; /* a ratio (cv, a user statistic in percent): no unit */
        if (json_is_number(json_object_get(bm, "real_time")))
            agg_put(names, g, "real_time_", an,
                    json_number_value(json_object_get(bm, "real_time")) * scale);
        if (json_is_number(json_object_get(bm, "cpu_time")))
            agg_put(names, g, "cpu_time_", an,
                    json_number_value(json_object_get(bm, "cpu_time")) * scale);
    }
    json_array_foreach(list, i, bm)
    {
        const char *type = json_string_value(json_object_get(bm, "run_type"));
        const char *rn = json_string_value(json_object_get(bm, "run_name"));
        const struct gb_agg *g = rn ? agg_find(agg, &byname, rn) : NULL, *fam = NULL;
        if (json_is_true(json_object_get(bm, "skipped"))) {
            left_out++; /* skipped with a message: not a measurement */
            continue;
        }
        if (json_is_true(json_object_get(bm, "error_occurred"))) {
            if (first_error < 0)
                first_error = (long)i; /* no run; named if nothing else was measured */
            left_out++;
            continue;
        }
        if (type && strcmp(type, "aggregate") == 0) {
            /* reported by its aggregates only: one run of its mean */
            if (g == NULL || g->reps > 0 || g->mean != bm)
                continue;
        }
        if (rn != NULL && rn[family_len(rn)] == '/') {
            /* the family's complexity fit: its run_name is the family's
             * with the run options (BM_Sort/real_time), else (a file written
             * otherwise) the family's alone */
            char *fitname = fit_name(names, rn);
            fam = fitname ? agg_find(agg, &byname, fitname) : NULL;
            if (fam == NULL || fam->n == 0) {
                char *famname = arena_strndup(names, rn, family_len(rn));
                fam = famname ? agg_find(agg, &byname, famname) : NULL;
            }
        }
        if (one(&b, bm, i, app, system, opt, ctx, g, fam, err) != 0)
            goto out;
        taken++;
    }
    {
        struct rec_tag *t; /* every run has the same tags: counted once */
        size_t nt;
        tags_over = imp_json_tags(names, ctx, ctx_not_tags, &t, &nt, &tags_first);
    }
    if (taken == 0 && first_error >= 0) {
        /* every benchmark reported an error: refused with the first one's */
        one(&b, json_array_get(list, (size_t)first_error), (size_t)first_error, app,
            system, opt, ctx, NULL, NULL, err);
        goto out;
    }
    if (taken == 0) {
        imp_fail_field(err, files[0].name, "benchmarks",
                       "the file holds no measured benchmark");
        goto out;
    }
    rc = imp_batch_finish(&b, err);
    if (rc == 0 && left_out > 0)
        fmt_note(sink,
                 "%s: %zu benchmark%s left out, skipped or failed with an error "
                 "(nothing measured)",
                 files[0].name, left_out, left_out == 1 ? "" : "s");
    if (rc == 0 && tags_over > 0)
        fmt_note(sink,
                 "%s: %zu context field%s left out beyond the %d tags a run keeps (the "
                 "first: \"%s\")",
                 files[0].name, tags_over, tags_over == 1 ? "" : "s", LIMIT_TAGS,
                 tags_first);
out:
    imp_batch_free(&b);
    xfree(agg);
    imp_map_free(&byname);
    arena_free(names);
    json_decref(doc);
    return rc;
}

int sniff_gbench(const struct fmt_file *files, size_t nfiles)
{
    struct fmt_file f;
    int bad = 0, ok;
    size_t len = 0;
    char *utf8;
    if (nfiles != 1)
        return 0;
    if (!utf16_bom(files[0].data, files[0].len))
        return imp_starts_with(&files[0], "{") &&
               imp_contains(&files[0], "\"context\"") &&
               imp_contains(&files[0], "\"benchmarks\"");
    /* UTF-16: its first 128 KiB, as UTF-8 */
    f = files[0];
    if ((utf8 = from_utf16(f.data, f.len < 131072 ? f.len : 131072, 1, &len, &bad)) ==
        NULL)
        return 0;
    f.data = utf8;
    f.len = len;
    ok = imp_starts_with(&f, "{") && imp_contains(&f, "\"context\"") &&
         imp_contains(&f, "\"benchmarks\"");
    xfree(utf8);
    return ok;
}
