/* import_tau: a TAU profile directory (profile.N.C.T per node, context and
 * thread) into one run.
 *
 * Each profile starts "K templated_functions[_MULTI_METRIC]", a "# Name Calls
 * Subrs Excl Incl ProfileCalls #" header (possibly followed by metadata), and
 * K lines '"name" calls subrs excl incl profilecalls GROUP="..."' with times
 * in microseconds. Only time profiles are read (plain, or a MULTI metric
 * whose name holds TIME); the others of a multi-metric directory are
 * skipped. nprocs is the number of distinct nodes N; each function is a
 * kernel whose time is its largest inclusive time over the profiles (the
 * critical path), with metrics mean and min (over the profiles that ran it),
 * exclusive (largest exclusive time), all in seconds; calls is the largest
 * call count. The run time is the largest inclusive time of any function
 * (the application's root). Profiles are read one at a time and only the
 * per-function aggregates are kept, so 10,000 profiles cost the memory of
 * their distinct functions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

struct tau_fn {
    char *name;
    double max, min, sum, excl;
    long long calls;
    size_t n;
};

struct tau {
    arena *a;
    struct tau_fn *fn;
    size_t nfn, cap;
    size_t *slot; /* index + 1 */
    size_t nslot;
    long long *nodes; /* distinct node ids, sorted at the end */
    size_t nnodes;
};

static size_t hash(const char *s, size_t n)
{
    size_t h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)s[i];
    return h;
}

static struct tau_fn *fn_get(struct tau *t, const char *file, const char *s, size_t n,
                             struct err *err)
{
    size_t h;

    if ((t->nfn + 1) * 2 > t->nslot) {
        size_t ns = t->nslot ? t->nslot * 2 : 256;
        size_t *slot = xcalloc(ns, sizeof *slot);
        if (slot == NULL) {
            err_nomem(err);
            return NULL;
        }
        for (size_t i = 0; i < t->nfn; i++) {
            size_t k = hash(t->fn[i].name, strlen(t->fn[i].name)) & (ns - 1);
            while (slot[k])
                k = (k + 1) & (ns - 1);
            slot[k] = i + 1;
        }
        xfree(t->slot);
        t->slot = slot;
        t->nslot = ns;
    }
    h = hash(s, n) & (t->nslot - 1);
    while (t->slot[h]) {
        struct tau_fn *f = &t->fn[t->slot[h] - 1];
        if (strlen(f->name) == n && memcmp(f->name, s, n) == 0)
            return f;
        h = (h + 1) & (t->nslot - 1);
    }
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
    t->fn[t->nfn].name = imp_name(t->a, s, n, file, "function", err);
    if (t->fn[t->nfn].name == NULL)
        return NULL;
    t->slot[h] = ++t->nfn;
    return &t->fn[t->nfn - 1];
}

/* "profile.N.C.T" (after any directory): sets *node. Returns 1 when it is one. */
static int profile_name(const char *path, long long *node)
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
    *node = v[0];
    return 1;
}

/* '"name" calls subrs excl incl profilecalls GROUP="..."', read from the end. */
static int fn_line(struct tau *t, const char *file, size_t lineno, const char *s,
                   size_t n, struct err *err)
{
    double num[5];
    const char *end = s + n, *g;
    struct tau_fn *f;

    for (g = end - 7; g > s; g--)
        if (memcmp(g, " GROUP=", 7) == 0)
            break;
    if (g > s)
        end = g;
    for (int i = 4; i >= 0; i--) {
        const char *w;
        while (end > s && end[-1] == ' ')
            end--;
        w = end;
        while (w > s && w[-1] != ' ')
            w--;
        if (w == end || imp_number(w, (size_t)(end - w), &num[i]) != 0 || num[i] < 0)
            return imp_fail_line(err, file, lineno,
                                 "a function line needs calls, subrs, "
                                 "excl, incl and profile calls");
        end = w;
    }
    while (end > s && end[-1] == ' ')
        end--;
    if (n < 2 || s[0] != '"' || end - s < 2 || end[-1] != '"')
        return imp_fail_line(err, file, lineno,
                             "a function name must be in double quotes");
    if ((f = fn_get(t, file, s + 1, (size_t)(end - s - 2), err)) == NULL)
        return -1;
    num[2] *= 1e-6;
    num[3] *= 1e-6;
    if (f->n == 0 || num[3] > f->max)
        f->max = num[3];
    if (f->n == 0 || num[3] < f->min)
        f->min = num[3];
    if (num[2] > f->excl)
        f->excl = num[2];
    if ((long long)num[0] > f->calls)
        f->calls = (long long)num[0];
    f->sum += num[3];
    f->n++;
    return 0;
}

/* Reads one profile. Returns 1 when read, 0 when it is not a time profile. */
static int profile(struct tau *t, const struct fmt_file *f, struct err *err)
{
    struct imp_lines l;
    const char *line, *sp;
    size_t len;
    long long k;
    int rc;

    imp_lines_init(&l, f->data, f->len);
    if ((rc = imp_lines_next(&l, f->name, &line, &len, err)) <= 0)
        return rc < 0 ? -1 : imp_fail_line(err, f->name, 1, "the profile is empty");
    sp = memchr(line, ' ', len);
    if (sp == NULL || imp_integer(line, (size_t)(sp - line), &k) != 0 || k < 0 ||
        (size_t)(line + len - sp - 1) < 20 ||
        memcmp(sp + 1, "templated_functions", 19) != 0)
        return imp_fail_line(err, f->name, 1,
                             "a TAU profile starts \"N templated_functions\"");
    if (k > LIMIT_IMPORT_TAU_FUNCS)
        return imp_fail_line(err, f->name, 1, "more than %d functions",
                             LIMIT_IMPORT_TAU_FUNCS);
    if (sp + 20 < line + len) { /* "_MULTI_<metric>": time metrics only */
        size_t mn = (size_t)(line + len - (sp + 20));
        int time = 0;
        for (size_t i = 0; i + 4 <= mn; i++)
            time |= memcmp(sp + 20 + i, "TIME", 4) == 0;
        if (!time)
            return 0;
    }
    if ((rc = imp_lines_next(&l, f->name, &line, &len, err)) <= 0 || len < 6 ||
        memcmp(line, "# Name", 6) != 0)
        return rc < 0 ? -1
                      : imp_fail_line(err, f->name, 2,
                                      "the \"# Name Calls ...\" header is "
                                      "missing");
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
    return 1;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

int import_tau(const struct fmt_file *files, size_t nfiles, const struct fmt_options *opt,
               const struct fmt_sink *sink, struct err *err)
{
    struct tau t = {0};
    struct imp_batch b = {0};
    struct run_record *r;
    const char *dir = nfiles ? files[0].name : NULL;
    size_t read = 0, distinct = 0;
    int rc = -1;

    if ((t.a = arena_new()) == NULL ||
        (t.nodes = xcalloc(nfiles + 1, sizeof *t.nodes)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < nfiles; i++) {
        long long node;
        int got;
        if (!profile_name(files[i].name, &node))
            continue; /* other files of the directory */
        if ((got = profile(&t, &files[i], err)) < 0)
            goto out;
        if (got) {
            t.nodes[t.nnodes++] = node;
            read++;
        }
    }
    if (read == 0) {
        imp_fail_field(err, dir, "files",
                       "no TAU time profile (profile.N.C.T) among %zu files", nfiles);
        goto out;
    }
    qsort(t.nodes, t.nnodes, sizeof *t.nodes, cmp_ll);
    for (size_t i = 0; i < t.nnodes; i++)
        distinct += i == 0 || t.nodes[i] != t.nodes[i - 1];
    if (imp_batch_init(&b, "tau", dir, sink, err) != 0 ||
        (r = imp_batch_slot(&b, err)) == NULL)
        goto out;
    r->application = opt && opt->application ? opt->application : "tau";
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = (long long)distinct;
    if ((r->kernels = arena_alloc(b.a, t.nfn * sizeof *r->kernels + 1)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < t.nfn; i++) {
        struct rec_kernel *k = &r->kernels[r->nkernels++];
        struct rec_kv m[3] = {{"mean", t.fn[i].sum / (double)t.fn[i].n},
                              {"min", t.fn[i].min},
                              {"exclusive", t.fn[i].excl}};
        int failed = 0;
        k->name = t.fn[i].name;
        k->time = t.fn[i].max;
        k->calls = t.fn[i].calls;
        k->metrics_json = imp_metrics_json(b.a, m, 3, &failed);
        if (failed) {
            err_nomem(err);
            goto out;
        }
        if (k->time > r->runtime)
            r->runtime = k->time;
    }
    if (imp_batch_commit(&b, "profiles", err) != 0)
        goto out;
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    arena_free(t.a);
    xfree(t.fn);
    xfree(t.slot);
    xfree(t.nodes);
    return rc;
}

int sniff_tau(const struct fmt_file *files, size_t nfiles)
{
    long long node;
    for (size_t i = 0; i < nfiles; i++)
        if (profile_name(files[i].name, &node))
            return imp_contains(&files[i], " templated_functions");
    return nfiles == 1 && imp_contains(&files[0], " templated_functions") &&
           imp_contains(&files[0], "# Name Calls");
}
