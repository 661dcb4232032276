/* import_tau: a TAU profile directory (profile.N.C.T per node, context and
 * thread; MULTI__<metric>/ directories for several metrics) into one run.
 *
 * Each profile starts "K templated_functions[_MULTI_<metric>]", a "# Name
 * Calls Subrs Excl Incl ProfileCalls #" header (possibly followed by
 * metadata), and K lines '"name" calls subrs excl incl profilecalls
 * GROUP="..."'; then "A aggregates" and "U userevents" with a "# eventname
 * numevents max min mean sumsqr" header and U lines. Profiles are read one at
 * a time and only per-function aggregates are kept, so 10,000 profiles cost
 * the memory of their distinct functions.
 *
 * The run (SPEC §16): nprocs is the number of distinct nodes N, the input
 * `threads` the largest number of threads (C.T) of a node. The time metric
 * is TIME (else the first metric whose name holds TIME), in microseconds;
 * profiles of counters alone give kernels without a time (NAN), each
 * counter a kernel metric, and a run without a runtime.
 * Each function is a kernel, aggregated over every profile (rank and
 * thread): its time is the largest exclusive time, with `mean` and `min` of
 * the exclusive time, `inclusive` (and `inclusive_mean`, `inclusive_min`);
 * calls is the largest call count. A function that only counter metrics
 * measured is a kernel too, without a time (SPEC §16), its calls those the
 * counters' profiles give. A call-path entry "A => B" is the kernel
 * A/B, and a flat function that a call path ends in is left out, so nothing
 * is counted twice; so are "f [THROTTLED]" beside f (one function), a
 * parameter entry "F [ <p> = <v> ]" (the kernel F/[ <p> = <v> ], its time
 * taken out of F's) and TAU_SAMPLING's [SAMPLE]/[CONTEXT] entries (kernels
 * without a time, their total as `sampled`). Every other metric (a MULTI__ directory:
 * PAPI_FP_OPS as counts, P_WALL_CLOCK_TIME in seconds) adds NAME (largest exclusive) and
 * NAME_inclusive, NAME_inclusive_mean, NAME_inclusive_min to its kernels. User
 * events (message sizes, ...) are run metrics NAME.count, .min, .max and
 * .mean over the profiles; context events ("NAME : path") are left out. The
 * run time is the root's inclusive time (the largest inclusive time of any
 * function); with several ranks each kernel's time is its largest over them,
 * so the kernels may sum to more. The application is the base name of
 * the profile's "Executable" metadata, else the directory's name
 * (fmt_options.source), else "tau".
 */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

struct tau_agg {
    double max, min, sum;
    size_t n;
};

static void agg_add(struct tau_agg *g, double v)
{
    if (g->n == 0 || v > g->max)
        g->max = v;
    if (g->n == 0 || v < g->min)
        g->min = v;
    g->sum += v;
    g->n++;
}

/* Adds the values o holds to g. */
static void agg_join(struct tau_agg *g, const struct tau_agg *o)
{
    if (o->n == 0)
        return;
    if (g->n == 0 || o->max > g->max)
        g->max = o->max;
    if (g->n == 0 || o->min < g->min)
        g->min = o->min;
    g->sum += o->sum;
    g->n += o->n;
}

struct tau_fn {
    char *name; /* as in the file, trimmed (any length) */
    struct tau_agg excl[LIMIT_IMPORT_TAU_METRICS], incl[LIMIT_IMPORT_TAU_METRICS];
    long long calls;       /* the largest call count in the time metric (metric 0) */
    long long calls_other; /* in the other metrics: for a function metric 0 lacks */
    int leaf;              /* a call path ends in it */
    int sample;            /* a sampled entry ([SAMPLE], [CONTEXT], ...), not a timer */
    size_t plen;           /* a parameter entry "F [ <p> = <v> ]": the length of F */
    size_t parent;         /* that F's index + 1, when F is a function too */
    size_t gen, rec;       /* the profile it was last read in, and its line there */
};

/* One function line of the profile being read. */
struct tau_rec {
    size_t fn;
    double calls, excl, incl;
};

struct tau_ev {
    char *name;
    double count, max, min, sum; /* sum of mean x count */
};

struct tau_loc {
    long long node, thread; /* thread: context * 2^20 + thread */
};

struct tau {
    arena *a;
    struct tau_fn *fn;
    size_t nfn, cap;
    struct imp_map fns;
    char *metric[LIMIT_IMPORT_TAU_METRICS];
    size_t nmetric;
    struct tau_ev ev[LIMIT_IMPORT_TAU_EVENTS];
    size_t nev;
    struct tau_loc *loc; /* profiles of the time metric */
    size_t nloc;
    const char *program;
    struct rec_tag *meta; /* node 0's metadata attributes, when inputs are */
    size_t nmeta;         /* taken from the file (read_meta) */
    int read_meta;
    struct tau_rec *rec; /* the function lines of the profile being read */
    size_t nrec, caprec, gen;
};

static const char *trim(const char *s, size_t *n)
{
    while (*n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        (*n)--;
    }
    while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t'))
        (*n)--;
    return s;
}

/* The last part of a call path "A => B => C" (C), trimmed. */
static const char *last_part(const char *s, size_t n, size_t *ln)
{
    const char *last = s;
    for (const char *p = s; p + 4 <= s + n; p++)
        if (memcmp(p, " => ", 4) == 0)
            last = p + 4;
    *ln = (size_t)(s + n - last);
    return trim(last, ln);
}

/* The length of s without TAU's mark of a throttled timer ("f [THROTTLED]":
 * TAU stopped measuring f there), trimmed; n when s has no mark. */
static size_t unthrottled(const char *s, size_t n)
{
    static const char thr[] = " [THROTTLED]";
    if (n <= sizeof thr - 1 || memcmp(s + n - (sizeof thr - 1), thr, sizeof thr - 1) != 0)
        return n;
    n -= sizeof thr - 1;
    trim(s, &n);
    return n;
}

/* Whether an entry is one of TAU's event-based samples (TAU_SAMPLING): its
 * name, or its call path's last part, is "[SAMPLE] f", "[CONTEXT] timer",
 * "[UNWIND] f" or "[SUMMARY] f". They estimate where the time of the timers
 * went; they are not timers, and their time is already in the timers'. */
static int is_sample(const char *s, size_t n)
{
    static const char *const mark[] = {"[SAMPLE] ", "[CONTEXT] ", "[UNWIND] ",
                                       "[SUMMARY] "};
    size_t ln;
    const char *last = last_part(s, n, &ln);
    for (size_t i = 0; i < sizeof mark / sizeof *mark; i++)
        if (ln >= strlen(mark[i]) && memcmp(last, mark[i], strlen(mark[i])) == 0)
            return 1;
    return 0;
}

/* A parameter entry "F [ <p> = <v> ]" (TAU_PROFILE_PARAM, the calls of F with
 * that value): the length of F (trimmed), else 0. */
static size_t param_base(const char *s, size_t n)
{
    const char *b = NULL;
    if (n < 12 || memcmp(s + n - 3, "> ]", 3) != 0)
        return 0;
    for (const char *p = s; p + 4 <= s + n; p++)
        if (memcmp(p, " [ <", 4) == 0)
            b = p;
    if (b == NULL || b == s)
        return 0;
    for (const char *p = b; p + 5 <= s + n; p++)
        if (memcmp(p, "> = <", 5) == 0) {
            size_t len = (size_t)(b - s);
            trim(s, &len);
            return len;
        }
    return 0;
}

static struct tau_fn *fn_get(struct tau *t, const char *file, const char *s, size_t n,
                             struct err *err)
{
    size_t i;
    s = trim(s, &n);
    if (n == 0) {
        imp_fail_field(err, file, "functions", "a function has an empty name");
        return NULL;
    }
    if (imp_map_get(&t->fns, s, n, &i))
        return &t->fn[i];
    if (t->nfn >= LIMIT_KERNELS) {
        imp_fail_field(err, file, "functions", "more than %d distinct functions",
                       LIMIT_KERNELS);
        return NULL;
    }
    if (t->nfn == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 256;
        struct tau_fn *nf = xrealloc(t->fn, nc * sizeof *nf);
        if (nf == NULL) {
            err_nomem(err);
            return NULL;
        }
        t->fn = nf;
        t->cap = nc;
    }
    memset(&t->fn[t->nfn], 0, sizeof t->fn[t->nfn]);
    t->fn[t->nfn].sample = is_sample(s, n);
    t->fn[t->nfn].plen = param_base(s, n);
    if ((t->fn[t->nfn].name = arena_strndup(t->a, s, n)) == NULL ||
        imp_map_put(&t->fns, t->fn[t->nfn].name, n, t->nfn) != 0) {
        err_nomem(err);
        return NULL;
    }
    return &t->fn[t->nfn++];
}

/* "profile.N.C.T" (after any directory): sets *loc. Returns 1 when it is one. */
static int profile_name(const char *path, struct tau_loc *loc)
{
    const char *s = strrchr(path, '/');
    const char *p;
    long long v[3];

    s = s ? s + 1 : path;
    if (strncmp(s, "profile.", 8) != 0)
        return 0;
    p = s + 8;
    for (int i = 0; i < 3; i++) {
        const char *q = p;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q == p || q - p > 9 || imp_integer(p, (size_t)(q - p), &v[i]) != 0)
            return 0;
        if (i < 2 && *q != '.')
            return 0;
        if (i == 2 && *q != '\0')
            return 0;
        p = q + 1;
    }
    loc->node = v[0];
    loc->thread = v[1] * (1ll << 20) + v[2];
    return 1;
}

/* Reads the last `count` blank-separated numbers before *end (moving it). */
static int numbers_back(const char *s, const char **end, double *num, int count)
{
    for (int i = count - 1; i >= 0; i--) {
        const char *w, *e = *end;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        w = e;
        while (w > s && w[-1] != ' ' && w[-1] != '\t')
            w--;
        if (w == e || imp_number(w, (size_t)(e - w), &num[i]) != 0)
            return -1;
        *end = w;
    }
    return 0;
}

/* '"name" calls subrs excl incl profilecalls GROUP="..."', read from the end
 * into t->rec (profile_add adds the profile's lines once all are read). */
static int fn_line(struct tau *t, const char *file, size_t lineno, const char *s,
                   size_t n, struct err *err)
{
    double num[5];
    const char *end = s + n, *g;
    struct tau_fn *f;

    /* g stays inside the line: one shorter than " GROUP=" has no group */
    for (g = n > 7 ? end - 7 : s; g > s; g--)
        if (memcmp(g, " GROUP=", 7) == 0)
            break;
    if (g > s)
        end = g;
    else { /* the group without its key: '... 0 "TAU_USER"' (apex-summary.py) */
        const char *q = end;
        while (q > s && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
        if (q - s > 3 && q[-1] == '"') {
            for (g = q - 2; g > s && *g != '"'; g--)
                ;
            if (g > s && g[-1] == ' ')
                end = g - 1;
        }
    }
    if (numbers_back(s, &end, num, 5) != 0)
        return imp_fail_line(err, file, lineno,
                             "a function line needs calls, subrs, "
                             "excl, incl and profile calls");
    if (num[0] < 0 || num[2] < 0 || num[3] < 0)
        return imp_fail_line(err, file, lineno,
                             "a function's calls, excl and incl must not be negative "
                             "(%g, %g, %g)",
                             num[0], num[2], num[3]);
    while (end > s && end[-1] == ' ')
        end--;
    if (n < 2 || s[0] != '"' || end - s < 2 || end[-1] != '"')
        return imp_fail_line(err, file, lineno,
                             "a function name must be in double quotes");
    if ((f = fn_get(t, file, s + 1, (size_t)(end - s - 2), err)) == NULL)
        return -1;
    f->gen = t->gen;
    f->rec = t->nrec;
    t->rec[t->nrec++] = (struct tau_rec){(size_t)(f - t->fn), num[0], num[2], num[3]};
    return 0;
}

/* Adds the function lines of one profile to their functions, a parameter
 * entry's exclusive time taken out of its function's ("F [ <size> = <8> ]"
 * is a part of F's calls: F keeps the time of its other calls). */
static void profile_add(struct tau *t, size_t m)
{
    for (size_t r = 0; r < t->nrec; r++) {
        struct tau_fn *f = &t->fn[t->rec[r].fn];
        size_t b;
        if (f->plen > 0 && imp_map_get(&t->fns, f->name, f->plen, &b) &&
            t->fn[b].gen == t->gen)
            t->rec[t->fn[b].rec].excl -= t->rec[r].excl;
    }
    for (size_t r = 0; r < t->nrec; r++) {
        struct tau_fn *f = &t->fn[t->rec[r].fn];
        long long calls = (long long)t->rec[r].calls;
        agg_add(&f->excl[m], fmax(t->rec[r].excl, 0));
        agg_add(&f->incl[m], t->rec[r].incl);
        if (m == 0 && calls > f->calls)
            f->calls = calls;
        else if (m > 0 && calls > f->calls_other)
            f->calls_other = calls;
    }
}

/* Whether a user event's name is "NAME : call path" (a context event). */
static int has_context(const char *s, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++)
        if (s[i] == ' ' && s[i + 1] == ':' && s[i + 2] == ' ')
            return 1;
    return 0;
}

/* '"name" numevents max min mean sumsqr' of the userevents section. */
static int event_line(struct tau *t, const char *file, size_t lineno, const char *s,
                      size_t n, struct err *err)
{
    double num[5];
    const char *end = s + n, *name;
    size_t nl;
    struct tau_ev *e = NULL;

    if (numbers_back(s, &end, num, 5) != 0 || num[0] < 0)
        return imp_fail_line(err, file, lineno,
                             "a user event line needs numevents, max, min, mean and "
                             "sumsqr");
    while (end > s && end[-1] == ' ')
        end--;
    if (n < 2 || s[0] != '"' || end - s < 2 || end[-1] != '"')
        return imp_fail_line(err, file, lineno,
                             "a user event name must be in double quotes");
    nl = (size_t)(end - s - 2);
    name = trim(s + 1, &nl);
    /* a context event ("NAME : call path"): its plain event counts; a colon
     * alone is part of a name (APEX's "status:VmRSS", "GPU: Bytes Allocated");
     * "(null)" is an event TAU had no name for (TAU 2.25's pthreads write
     * two, of uninitialised numbers): nothing to keep */
    if (nl == 0 || nl > LIMIT_NAME - 6 || has_context(name, nl) ||
        (nl == 6 && memcmp(name, "(null)", 6) == 0))
        return 0;
    for (size_t i = 0; i < t->nev && e == NULL; i++)
        if (strlen(t->ev[i].name) == nl && memcmp(t->ev[i].name, name, nl) == 0)
            e = &t->ev[i];
    if (num[0] == 0)
        return 0;
    if (e == NULL) {
        if (t->nev >= LIMIT_IMPORT_TAU_EVENTS)
            return imp_fail_line(err, file, lineno, "more than %d user events",
                                 LIMIT_IMPORT_TAU_EVENTS);
        e = &t->ev[t->nev];
        if ((e->name = imp_name(t->a, name, nl, file, "user event", err)) == NULL)
            return -1;
        t->nev++;
        e->max = num[1];
        e->min = num[2];
    }
    e->count += num[0];
    e->max = fmax(e->max, num[1]);
    e->min = fmin(e->min, num[2]);
    e->sum += num[3] * num[0];
    return 0;
}

/* The index of a metric name, added when new; -1 with err. */
static long metric_index(struct tau *t, const char *file, const char *s, size_t n,
                         struct err *err)
{
    for (size_t i = 0; i < t->nmetric; i++)
        if (strlen(t->metric[i]) == n && memcmp(t->metric[i], s, n) == 0)
            return (long)i;
    if (t->nmetric >= LIMIT_IMPORT_TAU_METRICS)
        return imp_fail_field(err, file, "metrics", "more than %d metrics",
                              LIMIT_IMPORT_TAU_METRICS);
    if ((t->metric[t->nmetric] = imp_name(t->a, s, n, file, "metric", err)) == NULL)
        return -1;
    return (long)t->nmetric++;
}

/* The value of a metadata attribute <name>KEY</name><value>V</value>. */
static const char *attribute(arena *a, const char *s, size_t n, const char *key)
{
    char tag[96];
    const char *p, *v, *e;
    size_t tl = (size_t)snprintf(tag, sizeof tag, "<name>%s</name><value>", key);
    for (p = s; p + tl <= s + n; p++)
        if (memcmp(p, tag, tl) == 0) {
            v = p + tl;
            for (e = v; e + 8 <= s + n && memcmp(e, "</value>", 8) != 0; e++)
                ;
            if (e + 8 > s + n || e == v)
                return NULL;
            return arena_strndup(a, v, (size_t)(e - v));
        }
    return NULL;
}

/* Every attribute <name>K</name><value>V</value> of the metadata of node
 * 0's profiles (TAU's own, "CPU Cores", and the program's TAU_METADATA),
 * each name once, as the run's metadata: read for inputs taken from the
 * file (fmt_sink.inputs_from). */
static void metadata(struct tau *t, const char *file, const char *s, size_t n)
{
    static const char nt[] = "<attribute><name>", vt[] = "</name><value>",
                      et[] = "</value></attribute>";
    const char *p = s, *end = s + n, *base = strrchr(file, '/');

    if (strncmp(base ? base + 1 : file, "profile.0.", 10) != 0)
        return;
    if (t->meta == NULL &&
        (t->meta = arena_alloc(t->a, LIMIT_META * sizeof *t->meta)) == NULL)
        return;
    while (t->nmeta < LIMIT_META) {
        const char *k = memmem(p, (size_t)(end - p), nt, sizeof nt - 1), *v = NULL,
                   *e = NULL;
        size_t kl, i = 0;
        if (k != NULL) {
            k += sizeof nt - 1;
            v = memmem(k, (size_t)(end - k), vt, sizeof vt - 1);
        }
        if (v != NULL)
            e = memmem(v + sizeof vt - 1, (size_t)(end - v - (sizeof vt - 1)), et,
                       sizeof et - 1);
        if (e == NULL)
            return;
        kl = (size_t)(v - k);
        v += sizeof vt - 1;
        p = e + sizeof et - 1;
        while (i < t->nmeta &&
               !(strncmp(t->meta[i].key, k, kl) == 0 && t->meta[i].key[kl] == '\0'))
            i++;
        if (i < t->nmeta)
            continue;
        t->meta[t->nmeta] = (struct rec_tag){arena_strndup(t->a, k, kl),
                                             arena_strndup(t->a, v, (size_t)(e - v))};
        if (t->meta[t->nmeta].key == NULL || t->meta[t->nmeta].value == NULL)
            return;
        t->nmeta++;
    }
}

/* The metric of a profile: "_MULTI_<metric>" of its first line, else TIME. */
static const char *profile_metric(const char *line, size_t len, size_t *mn)
{
    const char *sp = memchr(line, ' ', len);
    if (sp == NULL || sp + 20 > line + len)
        return NULL;
    if (sp + 20 == line + len) {
        *mn = 4;
        return "TIME";
    }
    if ((size_t)(line + len - (sp + 20)) > 7 && memcmp(sp + 20, "_MULTI_", 7) == 0) {
        *mn = (size_t)(line + len - (sp + 27));
        return sp + 27;
    }
    /* a single-counter TAU build (PAPI, no MULTIPLECOUNTERS) names no metric */
    if ((size_t)(line + len - (sp + 20)) == 12 &&
        memcmp(sp + 20, "_hw_counters", 12) == 0) {
        *mn = 11;
        return "hw_counters";
    }
    /* APEX's converter (apex-summary.py --tau) writes "_TIME" without MULTI */
    if ((size_t)(line + len - (sp + 20)) == 5 && memcmp(sp + 20, "_TIME", 5) == 0) {
        *mn = 4;
        return "TIME";
    }
    return NULL;
}

/* Reads one profile into the metric it measures. */
static int profile(struct tau *t, const struct fmt_file *f, struct err *err)
{
    struct imp_lines l;
    const char *line, *sp, *mname;
    size_t len, mn = 0;
    long long k;
    long m;
    int rc;

    imp_lines_init(&l, f->data, f->len);
    if ((rc = imp_lines_next(&l, f->name, &line, &len, err)) <= 0)
        return rc < 0 ? -1 : imp_fail_line(err, f->name, 1, "the profile is empty");
    while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    sp = memchr(line, ' ', len);
    if (sp == NULL || imp_integer(line, (size_t)(sp - line), &k) != 0 || k < 0 ||
        (size_t)(line + len - sp - 1) < 19 ||
        memcmp(sp + 1, "templated_functions", 19) != 0 ||
        (mname = profile_metric(line, len, &mn)) == NULL || mn == 0)
        return imp_fail_line(
            err, f->name, 1,
            "a TAU profile starts \"N templated_functions[_MULTI_NAME]\" (or "
            "\"N templated_functions_hw_counters\")");
    if (k > LIMIT_IMPORT_TAU_FUNCS)
        return imp_fail_line(err, f->name, 1, "more than %d functions",
                             LIMIT_IMPORT_TAU_FUNCS);
    if (xgrow((void **)&t->rec, &t->caprec, (size_t)k, sizeof *t->rec) != 0)
        return err_nomem(err);
    t->nrec = 0;
    t->gen++;
    if ((m = metric_index(t, f->name, mname, mn, err)) < 0)
        return -1;
    if ((rc = imp_lines_next(&l, f->name, &line, &len, err)) <= 0 || len < 6 ||
        memcmp(line, "# Name", 6) != 0)
        return rc < 0 ? -1
                      : imp_fail_line(err, f->name, 2,
                                      "the \"# Name Calls ...\" header is "
                                      "missing");
    if (t->read_meta)
        metadata(t, f->name, line, len);
    if (t->program == NULL) {
        const char *exe = attribute(t->a, line, len, "Executable");
        if (exe != NULL)
            t->program = imp_program_name(t->a, exe, NULL);
    }
    for (long long i = 0; i < k; i++) {
        if ((rc = imp_lines_next(&l, f->name, &line, &len, err)) <= 0)
            return rc < 0 ? -1
                          : imp_fail_line(err, f->name, l.lineno + 1,
                                          "the profile ends after %lld of %lld functions "
                                          "(truncated?)",
                                          i, k);
        if (fn_line(t, f->name, l.lineno, line, len, err) != 0)
            return -1;
    }
    profile_add(t, (size_t)m);
    /* "A aggregates", "U userevents" and their lines: read once, from the
     * time metric's profiles (each metric's profile repeats them) */
    while ((rc = imp_lines_next(&l, f->name, &line, &len, err)) == 1) {
        const char *w = memchr(line, ' ', len);
        long long u;
        if (w == NULL || imp_integer(line, (size_t)(w - line), &u) != 0 || u < 0)
            continue;
        if ((size_t)(line + len - w) >= 11 && memcmp(w + 1, "userevents", 10) == 0) {
            if (u > LIMIT_IMPORT_TAU_FUNCS)
                return imp_fail_line(err, f->name, l.lineno, "more than %d user events",
                                     LIMIT_IMPORT_TAU_FUNCS);
            if (u == 0)
                break;
            if ((rc = imp_lines_next(&l, f->name, &line, &len, err)) <= 0 || len < 1 ||
                line[0] != '#')
                return rc < 0
                           ? -1
                           : imp_fail_line(err, f->name, l.lineno,
                                           "the \"# eventname ...\" header is missing");
            for (long long i = 0; i < u; i++) {
                if ((rc = imp_lines_next(&l, f->name, &line, &len, err)) <= 0)
                    return rc < 0 ? -1
                                  : imp_fail_line(err, f->name, l.lineno + 1,
                                                  "the profile ends after %lld of %lld "
                                                  "user events (truncated?)",
                                                  i, u);
                if (m == 0 && event_line(t, f->name, l.lineno, line, len, err) != 0)
                    return -1;
            }
            break;
        }
    }
    return rc < 0 ? -1 : (int)m;
}

static int cmp_loc(const void *a, const void *b)
{
    const struct tau_loc *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* The kernel name of a function: "A => B => C" is A/B/C (each part without
 * its blanks); names longer than LIMIT_NAME keep their first part, a hash
 * mark and their end. */
static const char *kernel_name(arena *a, const char *s, struct buf *nb)
{
    size_t head = 0, len;
    const char *p = s;
    buf_reset(nb);
    while (*p) {
        const char *q = strstr(p, " => ");
        size_t n = q ? (size_t)(q - p) : strlen(p);
        const char *part = trim(p, &n);
        if (nb->len > 0)
            buf_putc(nb, '/');
        else
            head = n;
        buf_append(nb, part, n);
        p = q ? q + 4 : p + strlen(p);
    }
    if (buf_failed(nb))
        return NULL;
    len = nb->len;
    if (len <= LIMIT_NAME)
        return arena_strndup(a, buf_str(nb), len);
    return imp_path_name(a, buf_str(nb), head, buf_str(nb), len, len,
                         imp_hash(IMP_HASH0, buf_str(nb), len));
}

int import_tau(const struct fmt_file *files, size_t nfiles, const struct fmt_options *opt,
               const struct fmt_sink *sink, struct err *err)
{
    struct tau t = {0};
    t.read_meta = sink != NULL && sink->ninputs_from > 0;
    struct imp_batch b = {0};
    struct run_record *r;
    struct buf nb;
    const char *dir = nfiles ? files[0].name : NULL;
    size_t distinct = 0, threads = 0;
    int rc = -1, timed;

    buf_init(&nb, LIMIT_IMPORT_LINE);
    if ((t.a = arena_new()) == NULL ||
        (t.loc = xcalloc(nfiles + 1, sizeof *t.loc)) == NULL) {
        err_nomem(err);
        goto out;
    }
    /* the time metric's profiles first, so that it is metric 0: plain
     * profiles and MULTI__TIME/, then other MULTI__...TIME... directories,
     * then the counters */
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < nfiles; i++) {
            struct tau_loc loc;
            const char *multi = strstr(files[i].name, "MULTI__");
            int m, rank = multi == NULL || strncmp(multi, "MULTI__TIME/", 12) == 0 ? 0
                          : strstr(multi, "TIME") != NULL                          ? 1
                                                                                   : 2;
            if (rank != pass || !profile_name(files[i].name, &loc))
                continue; /* other files of the directory */
            if ((m = profile(&t, &files[i], err)) < 0)
                goto out;
            if (m == 0)
                t.loc[t.nloc++] = loc;
        }
    if (t.nloc == 0) {
        imp_fail_field(err, dir, "files",
                       "no TAU profile (profile.N.C.T) among %zu files", nfiles);
        goto out;
    }
    /* without a time metric (only counters) the kernels have no time and
     * the run no runtime (SPEC §16); every metric is then a kernel metric */
    timed = strstr(t.metric[0], "TIME") != NULL;
    qsort(t.loc, t.nloc, sizeof *t.loc, cmp_loc);
    for (size_t i = 0, run = 0; i < t.nloc; i++) {
        if (i > 0 && t.loc[i].node == t.loc[i - 1].node &&
            t.loc[i].thread == t.loc[i - 1].thread)
            continue;
        if (i == 0 || t.loc[i].node != t.loc[i - 1].node) {
            distinct++;
            run = 0;
        }
        if (++run > threads)
            threads = run;
    }
    /* TAU renames a timer "f [THROTTLED]" where it stopped measuring it:
     * throttled in some profiles and not in others it is still one function,
     * and its profiles join those of f */
    for (size_t i = 0; i < t.nfn; i++) {
        size_t j, len = strlen(t.fn[i].name), n = unthrottled(t.fn[i].name, len);
        if (n == len || !imp_map_get(&t.fns, t.fn[i].name, n, &j) || j == i)
            continue;
        for (size_t m = 0; m < t.nmetric; m++) {
            agg_join(&t.fn[j].excl[m], &t.fn[i].excl[m]);
            agg_join(&t.fn[j].incl[m], &t.fn[i].incl[m]);
        }
        if (t.fn[i].calls > t.fn[j].calls)
            t.fn[j].calls = t.fn[i].calls;
        if (t.fn[i].calls_other > t.fn[j].calls_other)
            t.fn[j].calls_other = t.fn[i].calls_other;
        t.fn[i].leaf = 1; /* counted in f */
    }
    /* a flat function that a call path ends in is inside that call path;
     * TAU marks a throttled timer "f [THROTTLED]" in one place and not the
     * other (the flat "[SAMPLE] f [THROTTLED]" of "A => [SAMPLE] f"), so the
     * mark does not tell them apart */
    for (size_t i = 0; i < t.nfn; i++) {
        size_t j, n, len = strlen(t.fn[i].name);
        const char *last = last_part(t.fn[i].name, len, &n);
        if (last == t.fn[i].name)
            continue;
        n = unthrottled(last, n);
        buf_reset(&nb);
        buf_append(&nb, last, n);
        buf_append(&nb, " [THROTTLED]", 12);
        if (buf_failed(&nb)) {
            err_nomem(err);
            goto out;
        }
        if (imp_map_get(&t.fns, last, n, &j))
            t.fn[j].leaf = 1;
        if (imp_map_get(&t.fns, buf_str(&nb), nb.len, &j))
            t.fn[j].leaf = 1;
    }
    /* a parameter entry is a child of its function where that is one */
    for (size_t i = 0; i < t.nfn; i++) {
        size_t j;
        if (t.fn[i].plen > 0 && imp_map_get(&t.fns, t.fn[i].name, t.fn[i].plen, &j))
            t.fn[i].parent = j + 1;
    }
    if (imp_batch_init(&b, "tau", dir, sink, err) != 0 ||
        (r = imp_batch_slot(&b, err)) == NULL)
        goto out;
    r->application = opt && opt->application ? opt->application
                     : t.program             ? t.program
                     : opt && opt->source    ? opt->source
                                             : "tau";
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = (long long)distinct;
    r->meta = t.meta;
    r->nmeta = t.nmeta;
    r->inputs = arena_alloc(b.a, sizeof *r->inputs);
    r->metrics = arena_alloc(b.a, (4 * t.nev + 1) * sizeof *r->metrics);
    if ((r->kernels = arena_alloc(b.a, t.nfn * sizeof *r->kernels + 1)) == NULL ||
        r->inputs == NULL || r->metrics == NULL) {
        err_nomem(err);
        goto out;
    }
    r->inputs[r->ninputs++] = (struct rec_kv){"threads", (double)threads};
    r->runtime = timed ? 0 : NAN;
    for (size_t i = 0; i < t.nev; i++) {
        static const char *const part[] = {".count", ".max", ".min", ".mean"};
        double v[4] = {t.ev[i].count, t.ev[i].max, t.ev[i].min,
                       t.ev[i].sum / t.ev[i].count};
        for (int j = 0; j < 4; j++) {
            r->metrics[r->nmetrics].name =
                arena_printf(b.a, "%s%s", t.ev[i].name, part[j]);
            if (r->metrics[r->nmetrics].name == NULL) {
                err_nomem(err);
                goto out;
            }
            r->metrics[r->nmetrics++].value = v[j];
        }
    }
    for (size_t i = 0; i < t.nfn; i++) {
        struct tau_fn *f = &t.fn[i];
        struct rec_kv m[5 + 4 * LIMIT_IMPORT_TAU_METRICS];
        size_t nm = 0;
        struct rec_kernel *k;
        const char *path;
        int failed = 0;
        /* measured in metric 0 (the time metric, else the first counter) */
        int in0 = f->excl[0].n > 0;
        if (f->leaf)
            continue; /* counted in its call paths */
        k = &r->kernels[r->nkernels++];
        /* a parameter entry "F [ <p> = <v> ]" is the kernel F/[ <p> = <v> ] */
        path = f->name;
        if (f->parent) {
            const char *label = f->name + f->plen;
            while (*label == ' ')
                label++;
            path = arena_printf(b.a, "%.*s => %s", (int)f->plen, f->name, label);
        }
        if (path == NULL || (k->name = kernel_name(b.a, path, &nb)) == NULL) {
            err_nomem(err);
            goto out;
        }
        /* a function that only counters measured is kept, without a time
         * (SPEC §16), its calls from the counters' profiles; a sampled entry
         * has no time of its own: what the samples add up to is `sampled` */
        k->time = timed && in0 && !f->sample ? f->excl[0].max / 1e6 : NAN;
        k->calls = in0 ? f->calls : f->calls_other;
        if (f->sample) {
            if (timed && in0)
                m[nm++] = (struct rec_kv){"sampled", f->incl[0].max / 1e6};
        } else if (timed && in0) {
            m[nm++] =
                (struct rec_kv){"mean", f->excl[0].sum / (double)f->excl[0].n / 1e6};
            m[nm++] = (struct rec_kv){"min", f->excl[0].min / 1e6};
            m[nm++] = (struct rec_kv){"inclusive", f->incl[0].max / 1e6};
            m[nm++] = (struct rec_kv){"inclusive_mean",
                                      f->incl[0].sum / (double)f->incl[0].n / 1e6};
            m[nm++] = (struct rec_kv){"inclusive_min", f->incl[0].min / 1e6};
        }
        for (size_t x = timed ? 1 : 0; x < t.nmetric && !f->sample; x++) {
            /* time-like metrics are microseconds, counters counts */
            double d = strstr(t.metric[x], "TIME") ? 1e6 : 1;
            if (f->excl[x].n == 0)
                continue;
            m[nm++] = (struct rec_kv){t.metric[x], f->excl[x].max / d};
            m[nm++] = (struct rec_kv){arena_printf(b.a, "%s_inclusive", t.metric[x]),
                                      f->incl[x].max / d};
            m[nm++] = (struct rec_kv){arena_printf(b.a, "%s_inclusive_mean", t.metric[x]),
                                      f->incl[x].sum / (double)f->incl[x].n / d};
            m[nm++] = (struct rec_kv){arena_printf(b.a, "%s_inclusive_min", t.metric[x]),
                                      f->incl[x].min / d};
            if (m[nm - 1].name == NULL || m[nm - 2].name == NULL ||
                m[nm - 3].name == NULL) {
                err_nomem(err);
                goto out;
            }
        }
        k->metrics_json = imp_metrics_json(b.a, m, nm, &failed);
        if (failed) {
            err_nomem(err);
            goto out;
        }
        if (timed && in0 && !f->sample && f->incl[0].max / 1e6 > r->runtime)
            r->runtime = f->incl[0].max / 1e6;
    }
    if (imp_batch_commit(&b, "profiles", err) != 0)
        goto out;
    rc = imp_batch_finish(&b, err);
out:
    buf_free(&nb);
    imp_batch_free(&b);
    arena_free(t.a);
    xfree(t.fn);
    imp_map_free(&t.fns);
    xfree(t.loc);
    xfree(t.rec);
    return rc;
}

/* A profile's directory; a MULTI__<metric>/ directory's parent. */
long root_tau(const char *name)
{
    struct tau_loc loc;
    long d = imp_dir_len(name), up;

    if (!profile_name(name, &loc))
        return -1;
    for (up = d; up > 0 && name[up - 1] != '/'; up--)
        ;
    if (d > 0 && strncmp(name + up, "MULTI__", 7) == 0)
        return up > 0 ? up - 1 : 0;
    return d;
}

int sniff_tau(const struct fmt_file *files, size_t nfiles)
{
    struct tau_loc loc;
    for (size_t i = 0; i < nfiles; i++)
        if (profile_name(files[i].name, &loc))
            return imp_contains(&files[i], " templated_functions");
    return nfiles == 1 && imp_contains(&files[0], " templated_functions") &&
           imp_contains(&files[0], "# Name Calls");
}
