/* import_extrap: Extra-P's input formats (text, JSON, JSON lines) into runs.
 *
 * Extra-P describes an experiment as parameters, measurement points (one
 * coordinate per parameter) and, per call path and metric, the values
 * measured at each point, one per repetition. Prophecy stores executions, so
 * each (point, repetition) becomes one run (SPEC §12): a parameter named p,
 * np, nprocs, procs, ranks or processes is the run's nprocs, the others are
 * inputs; each call path is a kernel whose time is the metric "time" (else
 * "runtime"; in seconds, as Extra-P's time is) and whose other metrics are
 * kernel metrics. Call paths nest ("main->solve" is the kernel main/solve,
 * a child of main): a nested path's time is exclusive (its value minus its
 * children's) with "inclusive" kept as a metric, and the run time is the
 * sum of the roots' times, never of nested regions (SPEC §16). A file with
 * no time metric imports too: its kernels carry the metrics and have no time
 * (NAN, as has a path without a value of the time metric), each metric
 * summed over the roots is a run metric, and the runs have no runtime.
 *
 * The three readers only collect values into one compact table (24 bytes a
 * value, no DOM of the file: JSON lines are decoded one line at a time);
 * one emitter sorts it and hands runs to the sink in batches.
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

/* One measured value: a cell (point, call path, metric) and its order. */
struct xp_value {
    uint32_t point;
    uint32_t seq; /* order of arrival within the file */
    uint16_t path;
    uint16_t metric;
    uint16_t rep; /* set by the emitter: position within its cell */
    double value;
};

/* Interned names: call paths or metrics, first appearance first. */
struct xp_names {
    char **name;
    size_t n, cap;
    size_t *slot; /* open addressing: index + 1, 0 = empty */
    size_t nslot;
    size_t max;
};

struct xp {
    const char *format;
    const char *file;
    arena *a;
    char *param[LIMIT_IMPORT_PARAMS];
    size_t nparam;
    double *coord; /* npoint * nparam */
    size_t npoint, cappoint;
    size_t *pslot; /* point hash: index + 1 */
    size_t npslot;
    /* text: the points as POINTS lists them, the one each DATA line of a
     * region measures; a point listed twice is measured twice (Extra-P) */
    uint32_t *listed;
    size_t nlisted, caplisted;
    struct xp_names paths, metrics;
    struct xp_value *v;
    size_t nv, capv;
    /* call paths (SPEC §16): per path its kernel name ("main/solve" for
     * "main->solve"), its parent path (-1: a root) and whether it has
     * children; per run the kernel each path became (scratch) */
    const char **kname;
    long *parent;
    char *nested;
    long *pos;
    double *below;
    long time; /* the time metric's index, -1 */
};

static uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

static int names_grow(struct xp_names *t)
{
    size_t ns = t->nslot ? t->nslot * 2 : 64;
    size_t *slot = xcalloc(ns, sizeof *slot);
    if (slot == NULL)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        size_t h = hash_bytes(t->name[i], strlen(t->name[i])) & (ns - 1);
        while (slot[h])
            h = (h + 1) & (ns - 1);
        slot[h] = i + 1;
    }
    xfree(t->slot);
    t->slot = slot;
    t->nslot = ns;
    return 0;
}

/* Returns the index of name s[0..len), or -1 when it is not there. */
static long names_find(const struct xp_names *t, const char *s, size_t len)
{
    size_t h;
    if (t->nslot == 0)
        return -1;
    h = hash_bytes(s, len) & (t->nslot - 1);
    while (t->slot[h]) {
        const char *o = t->name[t->slot[h] - 1];
        if (strlen(o) == len && memcmp(o, s, len) == 0)
            return (long)t->slot[h] - 1;
        h = (h + 1) & (t->nslot - 1);
    }
    return -1;
}

/* Returns the index of name s[0..len) (checked and copied when new), or -1. */
static long names_get(struct xp *x, struct xp_names *t, const char *s, size_t len,
                      const char *what, struct err *err)
{
    size_t h;
    char *copy;

    while (len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len == 0 && t == &x->paths) {
        s = "<root>"; /* Extra-P's unnamed call path, Callpath("") */
        len = 6;
    }
    if ((t->n + 1) * 2 > t->nslot && names_grow(t) != 0)
        return err_nomem(err);
    h = hash_bytes(s, len) & (t->nslot - 1);
    while (t->slot[h]) {
        const char *o = t->name[t->slot[h] - 1];
        if (strlen(o) == len && memcmp(o, s, len) == 0)
            return (long)t->slot[h] - 1;
        h = (h + 1) & (t->nslot - 1);
    }
    if (t->n >= t->max)
        return imp_fail_field(err, x->file, what, "more than %zu %ss", t->max, what);
    /* a call path may be longer than a name: its kernel name is shortened
     * (call_paths) */
    copy = t == &x->paths && len > LIMIT_NAME
               ? arena_strndup(x->a, s, len)
               : imp_name(x->a, s, len, x->file, what, err);
    if (copy == NULL)
        return err && err->status ? -1 : err_nomem(err);
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 16;
        char **nn = xrealloc(t->name, nc * sizeof *nn);
        if (nn == NULL)
            return err_nomem(err);
        t->name = nn;
        t->cap = nc;
    }
    t->name[t->n] = copy;
    t->slot[h] = ++t->n;
    return (long)t->n - 1;
}

static int xp_init(struct xp *x, const char *format, const char *file, struct err *err)
{
    memset(x, 0, sizeof *x);
    x->format = format;
    x->file = file;
    x->paths.max = LIMIT_KERNELS;
    x->metrics.max = LIMIT_METRICS;
    x->a = arena_new();
    return x->a ? 0 : err_nomem(err);
}

static void xp_free(struct xp *x)
{
    arena_free(x->a);
    xfree(x->coord);
    xfree(x->pslot);
    xfree(x->listed);
    xfree(x->paths.name);
    xfree(x->paths.slot);
    xfree(x->metrics.name);
    xfree(x->metrics.slot);
    xfree(x->v);
    xfree(x->kname);
    xfree(x->parent);
    xfree(x->nested);
    xfree(x->pos);
    xfree(x->below);
}

static int add_param(struct xp *x, const char *s, size_t len, struct err *err)
{
    char *name;
    if (x->nparam >= LIMIT_IMPORT_PARAMS)
        return imp_fail_field(err, x->file, "parameters", "more than %d parameters",
                              LIMIT_IMPORT_PARAMS);
    name = imp_name(x->a, s, len, x->file, "parameter", err);
    if (name == NULL)
        return -1;
    for (size_t i = 0; i < x->nparam; i++)
        if (strcmp(x->param[i], name) == 0)
            return imp_fail_field(err, x->file, "parameters",
                                  "parameter %s is named twice", name);
    x->param[x->nparam++] = name;
    return 0;
}

/* Returns the index of the point with coordinates c[0..nparam), adding it. */
static long point_get(struct xp *x, const double *c, struct err *err)
{
    size_t bytes = x->nparam * sizeof *c, h;

    if ((x->npoint + 1) * 2 > x->npslot) {
        size_t ns = x->npslot ? x->npslot * 2 : 64;
        size_t *slot = xcalloc(ns, sizeof *slot);
        if (slot == NULL)
            return err_nomem(err);
        for (size_t i = 0; i < x->npoint; i++) {
            size_t k = hash_bytes(x->coord + i * x->nparam, bytes) & (ns - 1);
            while (slot[k])
                k = (k + 1) & (ns - 1);
            slot[k] = i + 1;
        }
        xfree(x->pslot);
        x->pslot = slot;
        x->npslot = ns;
    }
    h = hash_bytes(c, bytes) & (x->npslot - 1);
    while (x->pslot[h]) {
        if (memcmp(x->coord + (x->pslot[h] - 1) * x->nparam, c, bytes) == 0)
            return (long)x->pslot[h] - 1;
        h = (h + 1) & (x->npslot - 1);
    }
    if (x->npoint >= LIMIT_IMPORT_POINTS)
        return imp_fail_field(err, x->file, "points", "more than %d points",
                              LIMIT_IMPORT_POINTS);
    if (x->npoint == x->cappoint) {
        size_t nc = x->cappoint ? x->cappoint * 2 : 16;
        double *nco = xrealloc(x->coord, nc * bytes);
        if (nco == NULL)
            return err_nomem(err);
        x->coord = nco;
        x->cappoint = nc;
    }
    memcpy(x->coord + x->npoint * x->nparam, c, bytes);
    x->pslot[h] = ++x->npoint;
    return (long)x->npoint - 1;
}

static int add_value(struct xp *x, size_t point, long path, long metric, double v,
                     struct err *err)
{
    if (x->nv >= LIMIT_IMPORT_VALUES)
        return imp_fail_field(err, x->file, "values", "more than %d measured values",
                              LIMIT_IMPORT_VALUES);
    if (x->nv == x->capv) {
        size_t nc = x->capv ? x->capv * 2 : 1024;
        struct xp_value *nv = xrealloc(x->v, nc * sizeof *nv);
        if (nv == NULL)
            return err_nomem(err);
        x->v = nv;
        x->capv = nc;
    }
    x->v[x->nv] = (struct xp_value){.point = (uint32_t)point,
                                    .seq = (uint32_t)x->nv,
                                    .path = (uint16_t)path,
                                    .metric = (uint16_t)metric,
                                    .value = v};
    x->nv++;
    return 0;
}

static int by_cell(const void *pa, const void *pb)
{
    const struct xp_value *a = pa, *b = pb;
    if (a->point != b->point)
        return a->point < b->point ? -1 : 1;
    if (a->path != b->path)
        return a->path < b->path ? -1 : 1;
    if (a->metric != b->metric)
        return a->metric < b->metric ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int by_run(const void *pa, const void *pb)
{
    const struct xp_value *a = pa, *b = pb;
    if (a->point != b->point)
        return a->point < b->point ? -1 : 1;
    if (a->rep != b->rep)
        return a->rep < b->rep ? -1 : 1;
    if (a->path != b->path)
        return a->path < b->path ? -1 : 1;
    return a->metric < b->metric ? -1 : a->metric > b->metric;
}

/* A file without a time metric (SPEC §16): the run has no runtime, and each
 * metric is also a run metric, the roots' values summed (never nested ones,
 * as the run time is), so that y = metric:NAME models it. */
static int no_time(const struct xp *x, struct run_record *r, arena *a,
                   const struct xp_value *v, size_t n)
{
    r->runtime = NAN;
    r->metrics = arena_alloc(a, (x->metrics.n + 1) * sizeof *r->metrics);
    if (r->metrics == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        long p = x->parent[v[i].path];
        const char *name = x->metrics.name[v[i].metric];
        size_t m = 0;
        if (p >= 0 && x->pos[p] >= 0)
            continue; /* nested: its root's value holds it */
        while (m < r->nmetrics && strcmp(r->metrics[m].name, name) != 0)
            m++;
        if (m == r->nmetrics)
            r->metrics[r->nmetrics++] = (struct rec_kv){name, 0};
        r->metrics[m].value += v[i].value;
    }
    return 0;
}

/* Builds the run of values v[0..n) (one point, one repetition). */
static int emit_run(struct xp *x, struct imp_batch *b, const struct fmt_options *opt,
                    const char *app, const struct xp_value *v, size_t n, struct err *err)
{
    const double *c = x->coord + (size_t)v[0].point * x->nparam;
    struct run_record *r = imp_batch_slot(b, err);
    struct rec_kv *km;
    struct buf id;
    size_t i, nk = 0, nin = 0;
    int failed = 0;

    if (r == NULL)
        return -1;
    r->application = opt && opt->application ? opt->application : app;
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = 1;
    r->inputs = arena_alloc(b->a, (x->nparam + 1) * sizeof *r->inputs);
    for (i = 1; i <= n; i++)
        nk += i == n || v[i].path != v[i - 1].path;
    r->kernels = arena_alloc(b->a, nk * sizeof *r->kernels);
    km = arena_alloc(b->a, (x->metrics.n + 2) * sizeof *km);
    if (r->inputs == NULL || r->kernels == NULL || km == NULL)
        return err_nomem(err);
    buf_init(&id, 4096);
    buf_printf(&id, "point (");
    for (i = 0; i < x->nparam; i++) {
        buf_printf(&id, "%s%s=", i ? ", " : "", x->param[i]);
        buf_num(&id, c[i]);
        if (imp_is_nprocs(x->param[i])) {
            if (c[i] < 1 || c[i] > 100000000 || c[i] != (double)(long long)c[i]) {
                buf_free(&id);
                return imp_fail_field(err, x->file, x->param[i],
                                      "parameter %s is the process count and must be a "
                                      "positive integer",
                                      x->param[i]);
            }
            r->nprocs = (long long)c[i];
        } else {
            r->inputs[nin].name = x->param[i];
            r->inputs[nin++].value = c[i];
        }
    }
    buf_printf(&id, ") repetition %u", (unsigned)v[0].rep + 1);
    r->ninputs = nin;
    /* the time each path measured (inclusive where paths nest), and the
     * kernel it becomes in this run; none (NAN) where the path has no value
     * of the time metric or the file no time metric (SPEC §16) */
    for (i = 0; i < n; i++) {
        if (x->pos[v[i].path] < 0) {
            x->pos[v[i].path] = (long)r->nkernels;
            r->kernels[r->nkernels].calls = KERNEL_NO_CALLS; /* Extra-P counts none */
            r->kernels[r->nkernels++].time = NAN;
        }
        if ((long)v[i].metric == x->time)
            r->kernels[x->pos[v[i].path]].time = v[i].value;
    }
    /* nested paths: a kernel's time is exclusive (its inclusive time minus
     * its children's), the run time the roots' inclusive time */
    r->runtime = NAN;
    for (i = 0; i < n; i++)
        if ((i == 0 || v[i].path != v[i - 1].path)) {
            long p = x->parent[v[i].path];
            double t = r->kernels[x->pos[v[i].path]].time;
            if (!KERNEL_HAS_TIME(t))
                continue;
            if (p >= 0 && x->pos[p] >= 0)
                x->below[p] += t;
            else
                r->runtime = RUN_HAS_RUNTIME(r->runtime) ? r->runtime + t : t;
        }
    if (x->time < 0 && no_time(x, r, b->a, v, n) != 0) {
        buf_free(&id);
        return err_nomem(err);
    }
    for (i = 0; i < n;) {
        struct rec_kernel *k = &r->kernels[x->pos[v[i].path]];
        size_t nm = 0, j = i;
        k->name = x->kname[v[i].path];
        if (x->nested[v[i].path] && KERNEL_HAS_TIME(k->time)) {
            km[nm++] = (struct rec_kv){"inclusive", k->time};
            k->time = k->time > x->below[v[i].path] ? k->time - x->below[v[i].path] : 0;
        }
        for (; j < n && v[j].path == v[i].path; j++)
            if ((long)v[j].metric != x->time)
                km[nm++] = (struct rec_kv){x->metrics.name[v[j].metric], v[j].value};
        k->metrics_json = imp_metrics_json(b->a, km, nm, &failed);
        x->pos[v[i].path] = -1;
        x->below[v[i].path] = 0;
        i = j;
    }
    if (failed || buf_failed(&id)) {
        buf_free(&id);
        return err_nomem(err);
    }
    i = (size_t)imp_batch_commit(b, buf_str(&id), err);
    buf_free(&id);
    return (int)i;
}

/* The metrics that are the kernel time (seconds), the first one present. */
static const char *const time_names[] = {"time", "runtime", NULL};

/* Extra-P call paths ("main->solve"): the kernel name joins the regions with
 * "/", the parent is the longest leading part that is a path of the file. */
static int call_paths(struct xp *x, struct err *err)
{
    size_t n = x->paths.n;
    x->kname = xcalloc(n + 1, sizeof *x->kname);
    x->parent = xcalloc(n + 1, sizeof *x->parent);
    x->nested = xcalloc(n + 1, 1);
    x->pos = xcalloc(n + 1, sizeof *x->pos);
    x->below = xcalloc(n + 1, sizeof *x->below);
    if (!x->kname || !x->parent || !x->nested || !x->pos || !x->below)
        return err_nomem(err);
    for (size_t i = 0; i < n; i++) {
        const char *s = x->paths.name[i];
        struct buf nb;
        x->pos[i] = -1;
        x->parent[i] = -1;
        for (size_t l = strlen(s); l > 2; l--)
            if (s[l - 2] == '-' && s[l - 1] == '>') {
                long p = names_find(&x->paths, s, l - 2);
                if (p >= 0) {
                    x->parent[i] = p;
                    x->nested[i] = x->nested[p] = 1;
                    break;
                }
            }
        if (strstr(s, "->") == NULL && strlen(s) <= LIMIT_NAME) {
            x->kname[i] = s;
            continue;
        }
        buf_init(&nb, LIMIT_IMPORT_LINE);
        for (const char *c = s; *c; c++)
            if (c[0] == '-' && c[1] == '>') {
                buf_putc(&nb, '/');
                c++;
            } else
                buf_putc(&nb, *c);
        if (buf_failed(&nb) ||
            (x->kname[i] =
                 nb.len <= LIMIT_NAME
                     ? arena_strdup(x->a, buf_str(&nb))
                     : imp_path_name(x->a, buf_str(&nb), strcspn(buf_str(&nb), "/"),
                                     buf_str(&nb), nb.len, nb.len,
                                     imp_hash(IMP_HASH0, buf_str(&nb), nb.len))) ==
                NULL) {
            buf_free(&nb);
            return err_nomem(err);
        }
        buf_free(&nb);
    }
    return 0;
}

/* Sorts the values into runs and hands them to the sink. */
static int emit(struct xp *x, const struct fmt_options *opt, const struct fmt_sink *sink,
                struct err *err)
{
    struct imp_batch b = {0};
    const char *app;
    size_t i, start;
    int rc = -1;
    long time = -1;

    for (int t = 0; time_names[t] && time < 0; t++)
        for (i = 0; i < x->metrics.n && time < 0; i++)
            if (strcmp(x->metrics.name[i], time_names[t]) == 0)
                time = (long)i;
    if (x->nv == 0)
        return imp_fail_field(err, x->file, "measurements",
                              "the file holds no "
                              "measurements");
    x->time = time; /* -1: no time metric, the runs have none (no_time) */
    if (call_paths(x, err) != 0)
        return -1;
    qsort(x->v, x->nv, sizeof *x->v, by_cell);
    for (i = 0; i < x->nv; i++) {
        int same = i > 0 && x->v[i].point == x->v[i - 1].point &&
                   x->v[i].path == x->v[i - 1].path &&
                   x->v[i].metric == x->v[i - 1].metric;
        unsigned rep = same ? x->v[i - 1].rep + 1u : 0u;
        if (rep >= LIMIT_IMPORT_REPS)
            return imp_fail_field(err, x->file, "values",
                                  "more than %d repetitions of one point",
                                  LIMIT_IMPORT_REPS);
        x->v[i].rep = (uint16_t)rep;
    }
    qsort(x->v, x->nv, sizeof *x->v, by_run);
    app = imp_base_name(x->a, x->file);
    if (app == NULL || imp_batch_init(&b, x->format, x->file, sink, err) != 0) {
        imp_batch_free(&b);
        return err_nomem(err);
    }
    for (start = 0, i = 1; i <= x->nv; i++)
        if (i == x->nv || x->v[i].point != x->v[start].point ||
            x->v[i].rep != x->v[start].rep) {
            if (emit_run(x, &b, opt, app, x->v + start, i - start, err) != 0)
                goto out;
            start = i;
        }
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    return rc;
}

/* ---- text ------------------------------------------------------------------- */

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Splits off the next blank-separated word of *s[0..*n). */
static int next_word(const char **s, size_t *n, const char **w, size_t *wn)
{
    while (*n > 0 && is_blank(**s)) {
        (*s)++;
        (*n)--;
    }
    if (*n == 0)
        return 0;
    *w = *s;
    while (*n > 0 && !is_blank(**s)) {
        (*s)++;
        (*n)--;
    }
    *wn = (size_t)(*s - *w);
    return 1;
}

static int keyword(const char *line, size_t len, const char *kw, const char **rest,
                   size_t *rn)
{
    size_t k = strlen(kw);
    if (len < k || memcmp(line, kw, k) != 0 || (len > k && !is_blank(line[k])))
        return 0;
    *rest = line + k;
    *rn = len - k;
    return 1;
}

/* Appends point (an index, or -1 on an error already set) to the text's list
 * of points in file order. */
static int list_point(struct xp *x, long point, struct err *err)
{
    if (point < 0)
        return -1;
    if (x->nlisted >= LIMIT_IMPORT_POINTS)
        return imp_fail_field(err, x->file, "points", "more than %d points",
                              LIMIT_IMPORT_POINTS);
    if (xgrow((void **)&x->listed, &x->caplisted, x->nlisted + 1, sizeof *x->listed) != 0)
        return err_nomem(err);
    x->listed[x->nlisted++] = (uint32_t)point;
    return 0;
}

/* POINTS: numbers, alone (one parameter) or grouped in parentheses, where a
 * coordinate may carry its own parentheses: "( (1) (2) )". */
static int text_points(struct xp *x, const char *s, size_t n, size_t line,
                       struct err *err)
{
    double c[LIMIT_IMPORT_PARAMS];
    size_t nc = 0, i = 0;
    int depth = 0;

    if (x->nparam == 0)
        return imp_fail_line(err, x->file, line, "POINTS before any PARAMETER");
    while (i < n) {
        char ch = s[i];
        if (is_blank(ch)) {
            i++;
        } else if (ch == '(') {
            if (++depth > 2)
                return imp_fail_line(err, x->file, line, "too many parentheses");
            i++;
        } else if (ch == ')') {
            if (depth == 0)
                return imp_fail_line(err, x->file, line, "unbalanced parenthesis");
            i++;
            if (--depth == 0) {
                if (nc != x->nparam)
                    return imp_fail_line(err, x->file, line,
                                         "a point has %zu coordinates for %zu parameters",
                                         nc, x->nparam);
                if (list_point(x, point_get(x, c, err), err) != 0)
                    return -1;
                nc = 0;
            }
        } else {
            size_t j = i;
            double d;
            while (j < n && !is_blank(s[j]) && s[j] != '(' && s[j] != ')')
                j++;
            if (imp_number(s + i, j - i, &d) != 0)
                return imp_fail_line(err, x->file, line,
                                     "coordinate \"%.*s\" is not a "
                                     "number",
                                     (int)(j - i < 40 ? j - i : 40), s + i);
            if (depth == 0) {
                if (x->nparam != 1)
                    return imp_fail_line(err, x->file, line,
                                         "with %zu parameters each point needs "
                                         "parentheses",
                                         x->nparam);
                if (list_point(x, point_get(x, &d, err), err) != 0)
                    return -1;
            } else {
                if (nc >= x->nparam)
                    return imp_fail_line(err, x->file, line,
                                         "a point has more coordinates than the %zu "
                                         "parameters",
                                         x->nparam);
                c[nc++] = d;
            }
            i = j;
        }
    }
    if (depth != 0)
        return imp_fail_line(err, x->file, line, "unbalanced parenthesis");
    return 0;
}

static int text_parse(const struct fmt_file *f, struct xp *x, struct err *err)
{
    struct imp_lines l;
    const char *line, *rest, *w;
    size_t len, rn, wn, ndata = 0, data_line = 0, head_line = 0;
    long path = -1, metric = -1;
    struct err inner = {0};
    int rc;

    imp_lines_init(&l, f->data, f->len);
    while ((rc = imp_lines_next(&l, f->name, &line, &len, err)) == 1) {
        while (len > 0 && is_blank(*line)) {
            line++;
            len--;
        }
        if (len == 0 || line[0] == '#')
            continue;
        if (keyword(line, len, "PARAMETER", &rest, &rn)) {
            if (x->npoint > 0)
                return imp_fail_line(err, f->name, l.lineno, "PARAMETER after POINTS");
            if (!next_word(&rest, &rn, &w, &wn))
                return imp_fail_line(err, f->name, l.lineno, "PARAMETER without a name");
            do {
                if (add_param(x, w, wn, &inner) != 0)
                    return imp_at_line(err, &inner, f->name, l.lineno);
            } while (next_word(&rest, &rn, &w, &wn));
        } else if (keyword(line, len, "POINTS", &rest, &rn)) {
            if (path >= 0)
                return imp_fail_line(err, f->name, l.lineno, "POINTS after REGION");
            if (text_points(x, rest, rn, l.lineno, &inner) != 0)
                return imp_at_line(err, &inner, f->name, l.lineno);
        } else if (keyword(line, len, "REGION", &rest, &rn) ||
                   keyword(line, len, "METRIC", &rest, &rn)) {
            int is_region = line[0] == 'R';
            head_line = l.lineno;
            if (x->npoint == 0)
                return imp_fail_line(err, f->name, l.lineno, "%s before POINTS",
                                     is_region ? "REGION" : "METRIC");
            if (ndata != 0 && ndata != x->nlisted)
                return imp_fail_line(err, f->name, data_line,
                                     "%zu DATA lines for %zu points", ndata, x->nlisted);
            ndata = 0;
            /* the name without the blanks around it: "REGION  main " is main,
             * once however many METRIC blocks list it (issue 34) */
            while (rn > 0 && is_blank(*rest)) {
                rest++;
                rn--;
            }
            while (rn > 0 && is_blank(rest[rn - 1]))
                rn--;
            if (is_region)
                path = names_get(x, &x->paths, rest, rn, "region", &inner);
            else
                metric = names_get(x, &x->metrics, rest, rn, "metric", &inner);
            if ((is_region ? path : metric) < 0)
                return imp_at_line(err, &inner, f->name, l.lineno);
        } else if (keyword(line, len, "DATA", &rest, &rn)) {
            /* DATA before any REGION: Extra-P's unnamed call path, the
             * root (as a JSON line without "callpath") */
            if (path < 0 &&
                (path = names_get(x, &x->paths, "<root>", 6, "region", err)) < 0)
                return -1;
            if (ndata >= x->nlisted)
                return imp_fail_line(err, f->name, l.lineno,
                                     "more DATA lines than the %zu points", x->nlisted);
            if (metric < 0 &&
                (metric = names_get(x, &x->metrics, "time", 4, "metric", err)) < 0)
                return -1;
            if (!next_word(&rest, &rn, &w, &wn))
                return imp_fail_line(err, f->name, l.lineno, "DATA without values");
            do {
                double d;
                if (imp_number(w, wn, &d) != 0)
                    return imp_fail_line(err, f->name, l.lineno,
                                         "value \"%.*s\" is not a number",
                                         (int)(wn < 40 ? wn : 40), w);
                if (add_value(x, x->listed[ndata], path, metric, d, &inner) != 0)
                    return imp_at_line(err, &inner, f->name, l.lineno);
            } while (next_word(&rest, &rn, &w, &wn));
            ndata++;
            data_line = l.lineno;
        } else {
            return imp_fail_line(err, f->name, l.lineno, "unknown line \"%.*s\"",
                                 (int)(len < 40 ? len : 40), line);
        }
    }
    if (rc < 0)
        return -1;
    if (x->nparam == 0)
        return imp_fail_line(err, f->name, l.lineno, "no PARAMETER line");
    if (head_line > data_line)
        return imp_fail_line(err, f->name, head_line,
                             "the file ends after a REGION or METRIC line without DATA "
                             "(truncated?)");
    if (ndata != 0 && ndata != x->nlisted)
        return imp_fail_line(err, f->name, l.lineno,
                             "the file ends after %zu DATA lines for %zu points", ndata,
                             x->nlisted);
    return 0;
}

/* ---- JSON ------------------------------------------------------------------- */

static int json_params(struct xp *x, json_t *params, const char *file, struct err *err)
{
    size_t i;
    json_t *p;

    if (!json_is_array(params) || json_array_size(params) == 0)
        return imp_fail_field(err, file, "parameters",
                              "parameters must be a non-empty array");
    json_array_foreach(params, i, p)
    {
        const char *s = NULL;
        if (json_is_string(p))
            s = json_string_value(p);
        else if (json_is_object(p) && json_is_string(json_object_get(p, "name")))
            s = json_string_value(json_object_get(p, "name"));
        if (s == NULL)
            return imp_fail_field(err, file, "parameters",
                                  "parameters[%zu] is not a name", i);
        if (add_param(x, s, strlen(s), err) != 0)
            return -1;
    }
    return 0;
}

static int json_number(json_t *v, double *out)
{
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

/* The id form's numbers, which Extra-P reads with float() and int(): a JSON
 * number or a string of one ("3.5"). */
static int json_number_text(json_t *v, double *out)
{
    if (json_is_string(v))
        return imp_number(json_string_value(v), json_string_length(v), out);
    return json_number(v, out);
}

/* An id of the id form: an integer, or a string of one ("1"); -1 if none. */
static json_int_t json_id(json_t *v)
{
    long long id;
    if (json_is_integer(v))
        return json_integer_value(v);
    if (json_is_string(v) &&
        imp_integer(json_string_value(v), json_string_length(v), &id) == 0)
        return (json_int_t)id;
    return -1;
}

/* The recommended form: measurements: {callpath: {metric: [{point, values}]}}. */
static int json_new(struct xp *x, json_t *doc, const char *file, struct err *err)
{
    const char *cp, *mn;
    json_t *metrics, *list;

    if (json_params(x, json_object_get(doc, "parameters"), file, err) != 0)
        return -1;
    json_object_foreach(json_object_get(doc, "measurements"), cp, metrics)
    {
        long path = names_get(x, &x->paths, cp, strlen(cp), "callpath", err);
        if (path < 0)
            return -1;
        if (!json_is_object(metrics))
            return imp_fail_field(err, file, cp, "measurements.%s must be an object", cp);
        json_object_foreach(metrics, mn, list)
        {
            long metric = names_get(x, &x->metrics, mn, strlen(mn), "metric", err);
            size_t i;
            json_t *m;
            if (metric < 0)
                return -1;
            if (!json_is_array(list))
                return imp_fail_field(err, file, mn,
                                      "measurements.%s.%s must be an array", cp, mn);
            json_array_foreach(list, i, m)
            {
                json_t *pt = json_object_get(m, "point"),
                       *vals = json_object_get(m, "values");
                double c[LIMIT_IMPORT_PARAMS];
                size_t j;
                json_t *e;
                long point;
                if (json_is_number(pt) && x->nparam == 1)
                    c[0] = json_number_value(pt); /* one parameter: "point": 4 */
                else if (!json_is_array(pt) || json_array_size(pt) != x->nparam)
                    return imp_fail_field(err, file, "point",
                                          "measurements.%s.%s[%zu].point must hold %zu "
                                          "coordinates",
                                          cp, mn, i, x->nparam);
                json_array_foreach(pt, j, e)
                {
                    if (json_number(e, &c[j]) != 0)
                        return imp_fail_field(err, file, "point",
                                              "measurements.%s.%s[%zu].point[%zu] is not "
                                              "a number",
                                              cp, mn, i, j);
                }
                if ((point = point_get(x, c, err)) < 0)
                    return -1;
                if (!json_is_array(vals) || json_array_size(vals) == 0)
                    return imp_fail_field(err, file, "values",
                                          "measurements.%s.%s[%zu].values must be a "
                                          "non-empty array",
                                          cp, mn, i);
                json_array_foreach(vals, j, e)
                {
                    double d;
                    if (json_number(e, &d) != 0)
                        return imp_fail_field(
                            err, file, "values",
                            "measurements.%s.%s[%zu].values[%zu] is not "
                            "a number",
                            cp, mn, i, j);
                    if (add_value(x, (size_t)point, path, metric, d, err) != 0)
                        return -1;
                }
            }
        }
    }
    return 0;
}

/* Finds the element of an id-referenced list with "id": id. */
static json_t *by_id(json_t *list, json_int_t id)
{
    size_t i;
    json_t *e;
    if (id < 0)
        return NULL;
    json_array_foreach(list, i, e)
    {
        if (json_id(json_object_get(e, "id")) == id)
            return e;
    }
    return NULL;
}

/* The older form: callpaths, coordinates, metrics, parameters by id. */
static int json_old(struct xp *x, json_t *doc, const char *file, struct err *err)
{
    json_t *params = json_object_get(doc, "parameters"),
           *paths = json_object_get(doc, "callpaths"),
           *coords = json_object_get(doc, "coordinates"),
           *metrics = json_object_get(doc, "metrics"),
           *ms = json_object_get(doc, "measurements"), *m;
    size_t i;

    if (!json_is_array(paths) || !json_is_array(coords) || !json_is_array(metrics))
        return imp_fail_field(
            err, file, "measurements",
            "the id form needs callpaths, coordinates and metrics arrays");
    if (json_params(x, params, file, err) != 0)
        return -1;
    json_array_foreach(ms, i, m)
    {
        json_t *cp = by_id(paths, json_id(json_object_get(m, "callpath_id")));
        json_t *co = by_id(coords, json_id(json_object_get(m, "coordinate_id")));
        json_t *me = by_id(metrics, json_id(json_object_get(m, "metric_id")));
        json_t *pairs = json_object_get(co, "parameter_value_pairs"), *pv;
        double c[LIMIT_IMPORT_PARAMS], d;
        size_t j;
        long path, metric, point;
        const char *cs = json_string_value(json_object_get(cp, "name"));
        const char *msn = json_string_value(json_object_get(me, "name"));

        if (cs == NULL || msn == NULL || !json_is_array(pairs) ||
            json_array_size(pairs) != x->nparam ||
            json_number_text(json_object_get(m, "value"), &d))
            return imp_fail_field(err, file, "measurements",
                                  "measurements[%zu] refers to a missing callpath, "
                                  "coordinate or metric, or has no numeric value",
                                  i);
        json_array_foreach(pairs, j, pv)
        {
            json_t *par = by_id(params, json_id(json_object_get(pv, "parameter_id")));
            size_t k;
            for (k = 0; k < x->nparam; k++)
                if (json_is_string(json_object_get(par, "name")) &&
                    strcmp(json_string_value(json_object_get(par, "name")),
                           x->param[k]) == 0)
                    break;
            if (k == x->nparam ||
                json_number_text(json_object_get(pv, "parameter_value"), &c[k]))
                return imp_fail_field(err, file, "coordinates",
                                      "a coordinate of measurements[%zu] is malformed",
                                      i);
        }
        if ((path = names_get(x, &x->paths, cs, strlen(cs), "callpath", err)) < 0 ||
            (metric = names_get(x, &x->metrics, msn, strlen(msn), "metric", err)) < 0 ||
            (point = point_get(x, c, err)) < 0 ||
            add_value(x, (size_t)point, path, metric, d, err) != 0)
            return -1;
    }
    return 0;
}

static int json_parse(const struct fmt_file *f, struct xp *x, struct err *err)
{
    json_t *doc = imp_json_load(f, err);
    json_t *ms;
    int rc;

    if (doc == NULL)
        return -1;
    ms = json_object_get(doc, "measurements");
    if (json_is_object(ms))
        rc = json_new(x, doc, f->name, err);
    else if (json_is_array(ms))
        rc = json_old(x, doc, f->name, err);
    else
        rc = imp_fail_field(err, f->name, "measurements",
                            "an Extra-P JSON file needs \"parameters\" and "
                            "\"measurements\"");
    json_decref(doc);
    return rc;
}

/* ---- JSON lines ------------------------------------------------------------- */

static int jsonl_line(struct xp *x, json_t *o, const char *file, size_t line,
                      struct err *err)
{
    json_t *params = json_object_get(o, "params"), *value = json_object_get(o, "value");
    json_t *cp = json_object_get(o, "callpath"), *mt = json_object_get(o, "metric"), *v;
    double c[LIMIT_IMPORT_PARAMS];
    const char *key;
    long path, metric, point;
    size_t i;

    if (!json_is_object(params) || json_object_size(params) == 0)
        return imp_fail_line(err, file, line, "\"params\" must be a non-empty object");
    if (x->nparam == 0) {
        json_object_foreach(params, key, v)
        {
            if (add_param(x, key, strlen(key), err) != 0)
                return -1;
        }
    }
    if (json_object_size(params) != x->nparam)
        return imp_fail_line(err, file, line,
                             "\"params\" must name the %zu parameters of "
                             "the first line",
                             x->nparam);
    for (i = 0; i < x->nparam; i++)
        if (json_number(json_object_get(params, x->param[i]), &c[i]) != 0)
            return imp_fail_line(err, file, line, "params.%s is missing or not a number",
                                 x->param[i]);
    if ((cp && !json_is_string(cp)) || (mt && !json_is_string(mt)))
        return imp_fail_line(err, file, line, "callpath and metric must be strings");
    path = cp ? names_get(x, &x->paths, json_string_value(cp), json_string_length(cp),
                          "callpath", err)
              : names_get(x, &x->paths, "<root>", 6, "callpath", err);
    metric = mt ? names_get(x, &x->metrics, json_string_value(mt), json_string_length(mt),
                            "metric", err)
                : names_get(x, &x->metrics, "time", 4, "metric", err);
    if (path < 0 || metric < 0 || (point = point_get(x, c, err)) < 0)
        return -1;
    if (json_is_number(value))
        return add_value(x, (size_t)point, path, metric, json_number_value(value), err);
    if (!json_is_array(value) || json_array_size(value) == 0)
        return imp_fail_line(err, file, line,
                             "\"value\" must be a number or a non-empty list of numbers");
    json_array_foreach(value, i, v)
    {
        if (!json_is_number(v))
            return imp_fail_line(err, file, line, "value[%zu] is not a number", i);
        if (add_value(x, (size_t)point, path, metric, json_number_value(v), err) != 0)
            return -1;
    }
    return 0;
}

static int jsonl_parse(const struct fmt_file *f, struct xp *x, struct err *err)
{
    struct imp_lines l;
    const char *line;
    size_t len;
    struct err inner = {0};
    int rc;

    imp_lines_init(&l, f->data, f->len);
    while ((rc = imp_lines_next(&l, f->name, &line, &len, err)) == 1) {
        json_error_t je;
        json_t *o;
        size_t k = 0;
        while (k < len && (line[k] == ' ' || line[k] == '\t'))
            k++;
        if (k == len)
            continue;
        o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
        if (o == NULL)
            return imp_fail_line(err, f->name, l.lineno, "column %d: %s", je.column,
                                 je.text);
        if (!json_is_object(o))
            rc = imp_fail_line(&inner, f->name, l.lineno, "a line must be a JSON object");
        else
            rc = jsonl_line(x, o, f->name, l.lineno, &inner);
        json_decref(o);
        if (rc != 0)
            return imp_at_line(err, &inner, f->name, l.lineno);
    }
    return rc < 0 ? -1 : 0;
}

/* Extra-P's JSON reader (extrap --json) reads JSON Lines too: a file of
 * "params" lines given as extrap-json is read as extrap-jsonl, so its runs are
 * the ones format=auto and extrap-jsonl store. */
static int json_or_lines(const struct fmt_file *f, struct xp *x, struct err *err)
{
    if (sniff_extrap_jsonl(f, 1) && !sniff_extrap_json(f, 1)) {
        x->format = "extrap-jsonl";
        return jsonl_parse(f, x, err);
    }
    return json_parse(f, x, err);
}

/* ---- the three rows --------------------------------------------------------- */

typedef int (*xp_reader)(const struct fmt_file *f, struct xp *x, struct err *err);

static int run_reader(const char *format, xp_reader read, const struct fmt_file *files,
                      size_t nfiles, const struct fmt_options *opt,
                      const struct fmt_sink *sink, struct err *err)
{
    struct xp x;
    int rc;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "%s reads one file at a time", format);
    if (xp_init(&x, format, files[0].name, err) != 0) {
        xp_free(&x);
        return -1;
    }
    rc = read(&files[0], &x, err);
    if (rc == 0)
        rc = emit(&x, opt, sink, err);
    xp_free(&x);
    return rc;
}

int import_extrap_text(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err)
{
    return run_reader("extrap-text", text_parse, files, nfiles, opt, sink, err);
}

int import_extrap_json(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err)
{
    return run_reader("extrap-json", json_or_lines, files, nfiles, opt, sink, err);
}

int import_extrap_jsonl(const struct fmt_file *files, size_t nfiles,
                        const struct fmt_options *opt, const struct fmt_sink *sink,
                        struct err *err)
{
    return run_reader("extrap-jsonl", jsonl_parse, files, nfiles, opt, sink, err);
}

int sniff_extrap_text(const struct fmt_file *files, size_t nfiles)
{
    struct imp_lines l;
    const char *line;
    size_t len;

    if (nfiles != 1)
        return 0;
    imp_lines_init(&l, files[0].data, files[0].len < 65536 ? files[0].len : 65536);
    while (imp_lines_next(&l, NULL, &line, &len, NULL) == 1) {
        while (len > 0 && is_blank(*line)) {
            line++;
            len--;
        }
        if (len == 0 || line[0] == '#')
            continue;
        return len > 10 && memcmp(line, "PARAMETER", 9) == 0 && is_blank(line[9]);
    }
    return 0;
}

int sniff_extrap_json(const struct fmt_file *files, size_t nfiles)
{
    /* the id form may list its parameters after 64 KiB of callpaths and
     * coordinates */
    return nfiles == 1 && imp_starts_with(&files[0], "{") &&
           ((imp_contains(&files[0], "\"measurements\"") &&
             imp_contains(&files[0], "\"parameters\"")) ||
            (imp_contains(&files[0], "\"callpaths\"") &&
             imp_contains(&files[0], "\"coordinates\"") &&
             imp_contains(&files[0], "\"parameter_value_pairs\"")));
}

int sniff_extrap_jsonl(const struct fmt_file *files, size_t nfiles)
{
    return nfiles == 1 && imp_starts_with(&files[0], "{") &&
           imp_contains(&files[0], "\"params\"") && imp_contains(&files[0], "\"value\"");
}
