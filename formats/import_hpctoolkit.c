/* import_hpctoolkit: an HPCToolkit database directory into one run
 * (SPEC §16's hpctoolkit), in both of its layouts:
 *
 *  - hpcprof's `experiment.xml` (read with expat, never by hand) with one
 *    `*.metric-db` file per profile (rank and thread, in the file's name;
 *    "HPCPROF-metricdb__" header, big-endian u32 node and metric counts,
 *    then one f64 per node and metric column), or the summary values the
 *    XML carries inline (<M n= v=>) when there are no metric-db files;
 *  - the database of HPCToolkit 2022+ (format v4): `meta.db` (metrics, the
 *    context tree, functions) and `profile.db` (sparse values per profile),
 *    read from the format description HPCToolkit ships with every database
 *    (FORMATS.md), every offset and count checked against the bytes present.
 *
 * What becomes of it (one run):
 *  - each calling-context path of procedure frames (XML: PF/Pr elements;
 *    v4: function-like contexts, normal or inlined calls) is a kernel named
 *    by the procedures from the root joined with "/" (the root frame,
 *    `<program root>` or the v4 entry point such as "main thread", is not
 *    part of the names); frames met twice under one path are summed;
 *  - the time metric (the first whose name holds TIME, e.g. `CPUTIME (usec)`,
 *    `CPUTIME (sec)`, `REALTIME (sec)`; the unit in parentheses, seconds in
 *    v4 and microseconds in experiment.xml when none is written): a kernel's
 *    `time` is its exclusive time (where the database gives none: its
 *    inclusive time minus its callees') averaged over the profiles (so the kernels
 *    of the run add up to at most its runtime), metric `inclusive` its
 *    largest inclusive time over the profiles, `inclusive_mean`,
 *    `inclusive_min` and `exclusive_max` beside it;
 *  - every other metric (counters, other times) is kept per kernel as NAME
 *    (its largest inclusive value) and "NAME (exclusive)" (its mean);
 *  - runtime = the root's inclusive time, the largest over the profiles;
 *    nprocs = the number of MPI ranks (1 without), input `threads` the
 *    threads per rank when more than one; application = the database's
 *    title (v4) or the XML Header's name, else the directory's.
 * Bounds: LIMIT_IMPORT_HPC_* and LIMIT_KERNELS of formats/limits.h.
 */
#include <expat.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

/* ---- the kernels, aggregated over profiles ---------------------------------- */

struct hk {
    char *name;
    double incl_max, incl_min, incl_sum, excl_sum, excl_max;
    size_t seen; /* profiles with a value */
};

struct hpc {
    const char *file; /* for messages: the database's main file */
    struct err *err;
    struct hk *k;
    size_t nk, kcap;
    json_t *k_ix;            /* name -> kernel index */
    int32_t *node_k;         /* node id -> kernel, -1 none */
    int derive_excl;         /* the file gives no exclusive time: inclusive minus the
                                children's inclusive */
    int32_t *parent;         /* kernel -> its caller's kernel, -1 (derive_excl) */
    size_t nnodes;           /* ids 0..nnodes-1 */
    double *p_incl, *p_excl; /* one profile's values per kernel */
    double root_max;         /* seconds */
    size_t nprof;
    double per_s; /* values of the time metric per second (1e6 for usec) */
    int no_time;  /* no time metric (counters only): no runtime, no kernel time */
    /* the other metrics (counters, other times): per kernel their largest
     * inclusive and mean exclusive value */
    size_t nx;
    char *xname[LIMIT_IMPORT_HPC_EXTRA];
    double x_per_s[LIMIT_IMPORT_HPC_EXTRA];
    double *px;          /* one profile: [(k * nx + j) * 2 + exclusive] */
    double *xmax, *xsum; /* [k * nx + j]: inclusive max, exclusive sum */
    char *title;
    json_t *ranks, *threads; /* distinct rank and thread ids */
    /* the path of the node being read */
    char *path;
    size_t plen, pcap;
};

static void hpc_free(struct hpc *h)
{
    for (size_t i = 0; i < h->nk; i++)
        xfree(h->k[i].name);
    xfree(h->k);
    json_decref(h->k_ix);
    xfree(h->node_k);
    xfree(h->parent);
    xfree(h->p_incl);
    xfree(h->p_excl);
    for (size_t j = 0; j < h->nx; j++)
        xfree(h->xname[j]);
    xfree(h->px);
    xfree(h->xmax);
    xfree(h->xsum);
    xfree(h->title);
    json_decref(h->ranks);
    json_decref(h->threads);
    xfree(h->path);
}

static int hpc_init(struct hpc *h, const char *file, struct err *err)
{
    memset(h, 0, sizeof *h);
    h->file = file;
    h->err = err;
    h->per_s = 1;
    h->k_ix = json_object();
    h->ranks = json_object();
    h->threads = json_object();
    if (!h->k_ix || !h->ranks || !h->threads)
        return err_nomem(err);
    return 0;
}

/* Makes node ids 0..n-1 known, none mapped yet. */
static int hpc_nodes(struct hpc *h, size_t n)
{
    if (n > LIMIT_IMPORT_HPC_NODES)
        return imp_fail_field(h->err, h->file, "nodes",
                              "more than %d calling-context nodes",
                              LIMIT_IMPORT_HPC_NODES);
    if (n <= h->nnodes)
        return 0;
    /* ids arrive in increasing order: grow geometrically */
    if (n < 2 * h->nnodes)
        n = 2 * h->nnodes < LIMIT_IMPORT_HPC_NODES ? 2 * h->nnodes
                                                   : LIMIT_IMPORT_HPC_NODES;
    int32_t *m = xrealloc(h->node_k, n * sizeof *m);
    if (m == NULL)
        return err_nomem(h->err);
    for (size_t i = h->nnodes; i < n; i++)
        m[i] = -1;
    h->node_k = m;
    h->nnodes = n;
    return 0;
}

/* Enters a procedure frame named `proc` below the current path: node `id`
 * belongs to the kernel of the new path. Returns the path length to restore
 * on leaving, or -1. */
static long hpc_enter(struct hpc *h, size_t id, const char *proc)
{
    size_t old = h->plen, n;
    char cut[LIMIT_NAME + 1], name[LIMIT_NAME + 1];
    const char *key;
    json_t *ix;

    if (imp_name_cut(proc, cut) == 0)
        snprintf(cut, sizeof cut, "%s", "<unknown procedure>");
    n = strlen(cut);
    if (h->plen + n + 2 > h->pcap) {
        size_t cap = (h->plen + n + 2) * 2;
        char *p = xrealloc(h->path, cap);
        if (p == NULL)
            return err_nomem(h->err);
        h->path = p;
        h->pcap = cap;
    }
    if (h->plen > 0)
        h->path[h->plen++] = '/';
    memcpy(h->path + h->plen, cut, n + 1);
    h->plen += n;
    /* a path longer than a name keeps its end, marked as cut */
    if (h->plen <= LIMIT_NAME)
        key = h->path;
    else {
        const char *tail = h->path + h->plen - (LIMIT_NAME - 4);
        while (((unsigned char)*tail & 0xC0) == 0x80)
            tail++;
        snprintf(name, sizeof name, "...%s", tail);
        key = name;
    }
    if (id >= h->nnodes && hpc_nodes(h, id + 1) != 0)
        return -1;
    if ((ix = json_object_get(h->k_ix, key)) != NULL) {
        h->node_k[id] = (int32_t)json_integer_value(ix);
        return (long)old;
    }
    if (h->nk >= LIMIT_KERNELS)
        return imp_fail_field(h->err, h->file, "nodes",
                              "more than %d distinct calling-context paths",
                              LIMIT_KERNELS);
    if (h->nk == h->kcap) {
        size_t cap = h->kcap ? h->kcap * 2 : 64;
        struct hk *k = xrealloc(h->k, cap * sizeof *k);
        double *pi, *pe;
        if (k == NULL)
            return err_nomem(h->err);
        h->k = k;
        if ((pi = xrealloc(h->p_incl, cap * sizeof *pi)) != NULL)
            h->p_incl = pi;
        if (pi == NULL || (pe = xrealloc(h->p_excl, cap * sizeof *pe)) == NULL)
            return err_nomem(h->err);
        h->p_excl = pe;
        for (size_t i = h->kcap; i < cap; i++)
            h->p_incl[i] = h->p_excl[i] = 0;
        if (h->nx > 0) {
            double *px = xrealloc(h->px, cap * h->nx * 2 * sizeof *px), *mx = NULL, *sm;
            if (px != NULL)
                h->px = px;
            if (px != NULL && (mx = xrealloc(h->xmax, cap * h->nx * sizeof *mx)) != NULL)
                h->xmax = mx;
            if (mx == NULL || (sm = xrealloc(h->xsum, cap * h->nx * sizeof *sm)) == NULL)
                return err_nomem(h->err);
            h->xsum = sm;
            for (size_t i = h->kcap * h->nx; i < cap * h->nx; i++)
                h->px[2 * i] = h->px[2 * i + 1] = h->xmax[i] = h->xsum[i] = 0;
        }
        h->kcap = cap;
    }
    memset(&h->k[h->nk], 0, sizeof h->k[h->nk]);
    if ((h->k[h->nk].name = xstrdup(key)) == NULL ||
        json_object_set_new(h->k_ix, key, json_integer((json_int_t)h->nk)) != 0)
        return err_nomem(h->err);
    h->node_k[id] = (int32_t)h->nk++;
    return (long)old;
}

static void hpc_leave(struct hpc *h, long old)
{
    h->plen = (size_t)old;
    if (h->path)
        h->path[h->plen] = '\0';
}

/* Starts a profile: clears the per-kernel values. */
static int hpc_profile_begin(struct hpc *h)
{
    if (h->nprof >= LIMIT_IMPORT_HPC_PROFILES)
        return imp_fail_field(h->err, h->file, "profiles", "more than %d profiles",
                              LIMIT_IMPORT_HPC_PROFILES);
    for (size_t i = 0; i < h->nk; i++)
        h->p_incl[i] = h->p_excl[i] = 0;
    for (size_t i = 0; i < h->nk * h->nx * 2; i++)
        h->px[i] = 0;
    return 0;
}

/* Adds an other metric (before the first kernel): its index, or -1 when
 * LIMIT_IMPORT_HPC_EXTRA are kept already (the rest are left out). */
static long hpc_extra(struct hpc *h, const char *name, double per_s)
{
    char cut[LIMIT_NAME + 1];
    if (h->nx >= LIMIT_IMPORT_HPC_EXTRA || h->kcap > 0 || imp_name_cut(name, cut) == 0 ||
        strlen(cut) > LIMIT_NAME - 12)
        return -1;
    for (size_t j = 0; j < h->nx; j++)
        if (strcmp(h->xname[j], cut) == 0)
            return (long)j;
    if ((h->xname[h->nx] = xstrdup(cut)) == NULL)
        return -1;
    h->x_per_s[h->nx] = per_s;
    return (long)h->nx++;
}

/* One value of other metric j at node `id`. */
static int hpc_xvalue(struct hpc *h, size_t id, size_t j, int excl, double v,
                      const char *where)
{
    int32_t k;
    if (!isfinite(v))
        return imp_fail_field(h->err, h->file, where, "a metric value is not finite");
    if (id >= h->nnodes || (k = h->node_k[id]) < 0 || j >= h->nx)
        return 0;
    h->px[((size_t)k * h->nx + j) * 2 + (excl != 0)] += v / h->x_per_s[j];
    return 0;
}

/* One value of node `id`: its inclusive (excl = 0) or exclusive time. */
static int hpc_value(struct hpc *h, size_t id, int excl, double v, const char *where)
{
    int32_t k;
    if (!isfinite(v) || v < 0)
        return imp_fail_field(h->err, h->file, where,
                              "a time value is negative or not finite (%g)", v);
    if (id >= h->nnodes || (k = h->node_k[id]) < 0)
        return 0; /* a call site, loop or statement: not a frame */
    (excl ? h->p_excl : h->p_incl)[k] += v / h->per_s;
    return 0;
}

/* Each kernel's caller: the kernel named by its path without the last part
 * (a cut path, "...", has none). */
static int hpc_parents(struct hpc *h)
{
    if ((h->parent = xmalloc((h->nk ? h->nk : 1) * sizeof *h->parent)) == NULL)
        return err_nomem(h->err);
    for (size_t i = 0; i < h->nk; i++) {
        const char *name = h->k[i].name, *slash = strrchr(name, '/');
        json_t *ix;
        char up[LIMIT_NAME + 1];
        h->parent[i] = -1;
        if (slash == NULL || strncmp(name, "...", 3) == 0)
            continue;
        snprintf(up, sizeof up, "%.*s", (int)(slash - name), name);
        if ((ix = json_object_get(h->k_ix, up)) != NULL)
            h->parent[i] = (int32_t)json_integer_value(ix);
    }
    return 0;
}

static int hpc_profile_end(struct hpc *h, double root)
{
    if (h->derive_excl) {
        if (h->parent == NULL && hpc_parents(h) != 0)
            return -1;
        for (size_t i = 0; i < h->nk; i++)
            h->p_excl[i] = h->p_incl[i];
        for (size_t i = 0; i < h->nk; i++)
            if (h->parent[i] >= 0)
                h->p_excl[h->parent[i]] -= h->p_incl[i];
        for (size_t i = 0; i < h->nk; i++)
            if (h->p_excl[i] < 0)
                h->p_excl[i] = 0; /* rounding in the file */
    }
    root /= h->per_s;
    if (h->nprof == 0 || root > h->root_max)
        h->root_max = root;
    for (size_t i = 0; i < h->nk; i++) {
        struct hk *k = &h->k[i];
        double in = h->p_incl[i], ex = h->p_excl[i];
        k->incl_sum += in;
        k->excl_sum += ex;
        if (h->nprof == 0 || in > k->incl_max)
            k->incl_max = in;
        if (h->nprof == 0 || in < k->incl_min)
            k->incl_min = in;
        if (h->nprof == 0 || ex > k->excl_max)
            k->excl_max = ex;
        k->seen += in > 0 || ex > 0;
        for (size_t j = 0; j < h->nx; j++) {
            size_t c = i * h->nx + j;
            if (h->nprof == 0 || h->px[2 * c] > h->xmax[c])
                h->xmax[c] = h->px[2 * c];
            h->xsum[c] += h->px[2 * c + 1];
        }
    }
    h->nprof++;
    return 0;
}

/* How many values of a metric named `name` make a second (1e6 for
 * "(usec)"); `dflt` when the name does not say. */
static double unit_of(const char *name, double dflt)
{
    static const struct {
        const char *tag;
        double s;
    } u[] = {{"(sec)", 1},    {"(s)", 1},    {"(usec)", 1e6}, {"(us)", 1e6},
             {"(msec)", 1e3}, {"(ms)", 1e3}, {"(nsec)", 1e9}, {"(ns)", 1e9}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (strstr(name, u[i].tag) != NULL)
            return u[i].s;
    return dflt;
}

static int is_time_metric(const char *name)
{
    return strstr(name, "TIME") != NULL || strstr(name, "time") != NULL ||
           strstr(name, "WALLCLOCK") != NULL;
}

/* Which time metric is the run's time: CPU time first (hpcrun's default),
 * then real or wall-clock time, then any other time (GPU, I/O). 0: none. */
static int time_score(const char *name)
{
    if (strncmp(name, "CPUTIME", 7) == 0)
        return 3;
    if (strncmp(name, "REALTIME", 8) == 0 || strncmp(name, "WALLCLOCK", 9) == 0)
        return 2;
    return is_time_metric(name) ? 1 : 0;
}

static int hpc_emit(struct hpc *h, const char *dir_name, const struct fmt_options *opt,
                    const struct fmt_sink *sink)
{
    struct imp_batch b = {0};
    struct run_record *r;
    int rc = -1;
    size_t threads = 0;

    if (h->nprof == 0)
        return imp_fail_field(h->err, h->file, "profiles",
                              "the database has no profiles");
    if (imp_batch_init(&b, "hpctoolkit", h->file, sink, h->err) != 0 ||
        (r = imp_batch_slot(&b, h->err)) == NULL)
        goto out;
    if (opt && opt->application)
        r->application = opt->application;
    else if (h->title != NULL)
        r->application = arena_strdup(b.a, h->title);
    else
        r->application = arena_strdup(b.a, dir_name);
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs =
        json_object_size(h->ranks) > 0 ? (long long)json_object_size(h->ranks) : 1;
    r->runtime = h->no_time ? NAN : h->root_max;
    if (json_object_size(h->threads) > 1)
        threads = json_object_size(h->threads);
    r->inputs = arena_alloc(b.a, sizeof *r->inputs);
    r->kernels = arena_alloc(b.a, (h->nk ? h->nk : 1) * sizeof *r->kernels);
    if (r->application == NULL || r->inputs == NULL || r->kernels == NULL) {
        err_nomem(h->err);
        goto out;
    }
    if (threads > 1)
        r->inputs[r->ninputs++] = (struct rec_kv){"threads", (double)threads};
    for (size_t i = 0; i < h->nk; i++) {
        struct hk *k = &h->k[i];
        struct rec_kernel *rk;
        struct rec_kv m[4 + 2 * LIMIT_IMPORT_HPC_EXTRA];
        size_t nm = h->no_time ? 0 : 4;
        int failed = 0;
        rk = &r->kernels[r->nkernels++];
        rk->name = k->name;
        rk->calls = KERNEL_NO_CALLS; /* a sampled profile counts no calls */
        rk->time = h->no_time ? NAN : k->excl_sum / (double)h->nprof;
        m[0] = (struct rec_kv){"inclusive", k->incl_max};
        m[1] = (struct rec_kv){"inclusive_mean", k->incl_sum / (double)h->nprof};
        m[2] = (struct rec_kv){"inclusive_min", k->incl_min};
        m[3] = (struct rec_kv){"exclusive_max", k->excl_max};
        for (size_t j = 0; j < h->nx; j++) {
            size_t c = i * h->nx + j;
            m[nm++] = (struct rec_kv){h->xname[j], h->xmax[c]};
            m[nm].name = arena_printf(b.a, "%s (exclusive)", h->xname[j]);
            m[nm++].value = h->xsum[c] / (double)h->nprof;
            if (m[nm - 1].name == NULL)
                failed = 1;
        }
        rk->metrics_json = failed ? NULL : imp_metrics_json(b.a, m, nm, &failed);
        if (failed) {
            err_nomem(h->err);
            goto out;
        }
    }
    if (imp_batch_commit(&b, "database", h->err) != 0)
        goto out;
    rc = imp_batch_finish(&b, h->err);
out:
    imp_batch_free(&b);
    return rc;
}

/* ---- experiment.xml + *.metric-db ------------------------------------------------ */

struct xmetric {
    long id;     /* Metric i= (the <M n=> of the inline values) */
    int incl;    /* t="inclusive" */
    int raw;     /* t="nil": per-thread raw values (on statements), not summaries */
    long db_col; /* MetricDB db-id, -1 without */
    long x;      /* other metric index (hpc_extra), -1 for the time or none */
    char *name;
};

struct xml {
    struct hpc *h;
    XML_Parser p;
    int failed;
    int in_data;   /* inside SecCallPathProfileData */
    int depth;     /* element depth inside it */
    json_t *procs; /* Procedure i -> name */
    struct xmetric m[LIMIT_IMPORT_HPC_METRICS];
    size_t nm;
    long time_incl, time_excl; /* indexes into m, -1 none */
    long hdr_size;             /* db-header-sz */
    long ncols;                /* db-num-metrics */
    size_t ndbcols;            /* MetricDB elements: per-profile metric-db columns */
    /* the frame stack: path lengths to restore, 0 for non-frames */
    long *restore;
    size_t cap;
    /* inline values: node id of each element on the stack */
    size_t *node;
    double inl_root;
    size_t ninline;    /* inline time values met */
    int inline_values; /* read the <M> elements as the one profile */
};

static const char *attr(const XML_Char **a, const char *name)
{
    for (; a[0] != NULL; a += 2)
        if (strcmp(a[0], name) == 0)
            return a[1];
    return NULL;
}

static int xml_fail(struct xml *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int xml_fail(struct xml *x, const char *fmt, ...)
{
    if (!x->failed) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        imp_fail_line(x->h->err, x->h->file, XML_GetCurrentLineNumber(x->p), "%s", msg);
        x->failed = 1;
    }
    XML_StopParser(x->p, XML_FALSE);
    return -1;
}

/* The time metric: the first inclusive one whose name says time, and its
 * exclusive partner (the same name up to its " (I)" / " (E)" end). */
static void choose_time(struct xml *x)
{
    int best = 0;
    for (size_t i = 0; i < x->nm; i++)
        if (x->m[i].incl && time_score(x->m[i].name) > best) {
            best = time_score(x->m[i].name);
            x->time_incl = (long)i;
        }
    x->h->no_time = x->time_incl < 0;
    if (x->time_incl >= 0) {
        const char *in = x->m[x->time_incl].name, *end = strstr(in, "(I)");
        size_t base = end ? (size_t)(end - in) : strlen(in);
        for (size_t i = 0; i < x->nm && x->time_excl < 0; i++)
            if (!x->m[i].incl && strncmp(x->m[i].name, in, base) == 0)
                x->time_excl = (long)i;
    }
    x->h->per_s = x->time_incl >= 0 ? unit_of(x->m[x->time_incl].name, 1e6) : 1;
    x->h->derive_excl = x->time_incl >= 0 && x->time_excl < 0;
    /* every other metric: its name without ":Sum (I)" / " (I)" */
    for (size_t i = 0; i < x->nm; i++) {
        char base[LIMIT_NAME + 1];
        const char *mn = x->m[i].name, *colon = strchr(mn, ':'),
                   *par = strstr(mn, " (I)");
        size_t n = colon ? (size_t)(colon - mn) : par ? (size_t)(par - mn) : strlen(mn);
        if ((long)i == x->time_incl || (long)i == x->time_excl || x->m[i].raw)
            continue; /* raw values lie on statements: no frame's exclusive value */
        if (!colon && !par && (par = strstr(mn, " (E)")) != NULL)
            n = (size_t)(par - mn);
        snprintf(base, sizeof base, "%.*s", (int)(n < LIMIT_NAME ? n : LIMIT_NAME), mn);
        x->m[i].x = hpc_extra(x->h, base, is_time_metric(mn) ? unit_of(mn, 1e6) : 1);
    }
}

static int parse_long(const char *s, long *out)
{
    long long v;
    if (s == NULL || imp_integer(s, strlen(s), &v) != 0 || v < 0 || v > 0x7fffffff)
        return -1;
    *out = (long)v;
    return 0;
}

static void XMLCALL on_start(void *u, const XML_Char *el, const XML_Char **a)
{
    struct xml *x = u;
    struct hpc *h = x->h;
    long id = 0, n;

    if (x->failed)
        return;
    if (!x->in_data) {
        if (strcmp(el, "HPCToolkitExperiment") == 0 && attr(a, "version") != NULL &&
            strtol(attr(a, "version"), NULL, 10) >= 4) {
            /* hpcprof's experiment.xml 4.0 (before meta.db) holds the tree
             * only: its MetricDBs name no columns, the values lie in cct.db
             * and profile.db */
            xml_fail(x,
                     "experiment.xml version %.8s keeps its values in the sparse "
                     "cct.db and profile.db hpcprof wrote before meta.db, which are "
                     "not read (hpcprof 2022 or later writes meta.db, read here)",
                     attr(a, "version"));
        } else if (strcmp(el, "Header") == 0 && h->title == NULL &&
                   attr(a, "n") != NULL) {
            char cut[LIMIT_NAME + 1];
            if (imp_name_cut(attr(a, "n"), cut) > 0 && (h->title = xstrdup(cut)) == NULL)
                x->failed = err_nomem(h->err);
        } else if (strcmp(el, "Metric") == 0) {
            struct xmetric *m = &x->m[x->nm];
            if (x->nm >= LIMIT_IMPORT_HPC_METRICS) {
                xml_fail(x, "more than %d metrics", LIMIT_IMPORT_HPC_METRICS);
                return;
            }
            if (parse_long(attr(a, "i"), &m->id) != 0 || attr(a, "n") == NULL) {
                xml_fail(x, "a %s needs a numeric i and a name n", "Metric");
                return;
            }
            m->incl = attr(a, "t") && strcmp(attr(a, "t"), "inclusive") == 0;
            m->raw = attr(a, "t") && strcmp(attr(a, "t"), "nil") == 0;
            m->db_col = -1;
            m->x = -1;
            if ((m->name = xstrdup(attr(a, "n"))) == NULL) {
                x->failed = err_nomem(h->err);
                return;
            }
            x->nm++;
        } else if (strcmp(el, "MetricDB") == 0) {
            /* columns of the metric-db files: match them to the metrics by
             * name without the ":Sum"-style statistic ("CPUTIME (usec) (I)"
             * for "CPUTIME (usec):Sum (I)") and kind */
            long col, hs, nc;
            const char *name = attr(a, "n"), *t = attr(a, "t");
            if (parse_long(attr(a, "db-id"), &col) != 0 || name == NULL) {
                xml_fail(x, "a %s needs db-id and n", "MetricDB");
                return;
            }
            x->ndbcols++;
            if (parse_long(attr(a, "db-header-sz"), &hs) == 0)
                x->hdr_size = hs;
            if (parse_long(attr(a, "db-num-metrics"), &nc) == 0)
                x->ncols = nc;
            for (size_t i = 0; i < x->nm; i++) {
                const char *mn = x->m[i].name, *colon = strchr(mn, ':');
                size_t base = colon ? (size_t)(colon - mn) : strlen(mn);
                int incl = t && strcmp(t, "inclusive") == 0;
                if (x->m[i].db_col < 0 && x->m[i].incl == incl &&
                    strncmp(mn, name, base) == 0)
                    x->m[i].db_col = col;
            }
        } else if (strcmp(el, "Procedure") == 0) {
            const char *i = attr(a, "i"), *pn = attr(a, "n");
            if (i != NULL && pn != NULL &&
                json_object_set_new(x->procs, i, json_string(pn)) != 0) {
                /* not UTF-8 (expat gives UTF-8) or out of memory */
                x->failed = err_nomem(h->err);
            }
        } else if (strcmp(el, "SecCallPathProfileData") == 0) {
            x->in_data = 1;
            x->depth = 0;
            choose_time(x);
            if (x->inline_values && hpc_profile_begin(h) != 0)
                x->failed = 1;
        }
        return;
    }
    if ((size_t)x->depth >= x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 64;
        long *r;
        size_t *nd;
        if (cap > LIMIT_IMPORT_HPC_DEPTH + 1) {
            xml_fail(x, "the calling-context tree is deeper than %d levels",
                     LIMIT_IMPORT_HPC_DEPTH);
            return;
        }
        r = xrealloc(x->restore, cap * sizeof *r);
        nd = r ? xrealloc(x->node, cap * sizeof *nd) : NULL;
        if (r)
            x->restore = r;
        if (nd == NULL) {
            x->failed = err_nomem(h->err);
            return;
        }
        x->node = nd;
        x->cap = cap;
    }
    x->restore[x->depth] = -1;
    x->node[x->depth] = 0;
    if (strcmp(el, "M") == 0) {
        /* an inline value of the enclosing node (depth 0: the root) */
        long mid;
        double v;
        const char *vs = attr(a, "v");
        if (x->inline_values && parse_long(attr(a, "n"), &mid) == 0 && vs != NULL &&
            imp_number(vs, strlen(vs), &v) == 0) {
            size_t node = x->depth > 0 ? x->node[x->depth - 1] : 0;
            if (x->time_incl >= 0 && mid == x->m[x->time_incl].id) {
                x->ninline++;
                if (x->depth == 0)
                    x->inl_root += v;
                else if (hpc_value(h, node, 0, v, "M") != 0)
                    x->failed = 1;
            } else if (x->time_excl >= 0 && mid == x->m[x->time_excl].id &&
                       x->depth > 0) {
                if (hpc_value(h, node, 1, v, "M") != 0)
                    x->failed = 1;
            } else if (x->depth > 0)
                for (size_t i = 0; i < x->nm; i++)
                    if (x->m[i].id == mid && x->m[i].x >= 0) {
                        x->ninline += x->time_incl < 0; /* counters only */
                        if (hpc_xvalue(h, node, (size_t)x->m[i].x, !x->m[i].incl, v,
                                       "M") != 0)
                            x->failed = 1;
                    }
        }
        x->depth++;
        return;
    }
    if (attr(a, "i") != NULL && parse_long(attr(a, "i"), &id) != 0) {
        xml_fail(x, "a node's id (i=) must be a number, in <%s>", el);
        return;
    }
    x->node[x->depth] = (size_t)id;
    if (id > 0 && (size_t)id >= h->nnodes && hpc_nodes(h, (size_t)id + 1) != 0) {
        x->failed = 1;
        XML_StopParser(x->p, XML_FALSE);
        return;
    }
    if (strcmp(el, "PF") == 0 || strcmp(el, "Pr") == 0) {
        const char *pid = attr(a, "n");
        json_t *pn = pid ? json_object_get(x->procs, pid) : NULL;
        const char *proc = pn ? json_string_value(pn) : "<unknown procedure>";
        /* the root frame is not part of the names */
        if (x->depth > 0 || strcmp(proc, "<program root>") != 0) {
            if ((n = hpc_enter(h, (size_t)id, proc)) < 0) {
                x->failed = 1;
                XML_StopParser(x->p, XML_FALSE);
                return;
            }
            x->restore[x->depth] = n;
        }
    }
    x->depth++;
}

static void XMLCALL on_end(void *u, const XML_Char *el)
{
    struct xml *x = u;
    if (x->failed || !x->in_data)
        return;
    if (strcmp(el, "SecCallPathProfileData") == 0) {
        x->in_data = 0;
        return;
    }
    if (x->depth > 0)
        x->depth--;
    if (x->restore[x->depth] >= 0)
        hpc_leave(x->h, x->restore[x->depth]);
}

/* The rank and thread of a metric-db file named
 * "PROG-RANK-THREAD-HOSTID-PID-GEN.metric-db" (hpcprof's naming). */
static void rank_thread(struct hpc *h, const char *name)
{
    const char *base = strrchr(name, '/'), *p;
    long long f[6];
    int n = 0;
    char key[32];
    base = base ? base + 1 : name;
    /* the six dash-separated fields at the end, before ".metric-db" */
    p = base + strlen(base) - strlen(".metric-db");
    for (int i = 0; i < 6 && p > base; i++) {
        const char *q = p;
        while (q > base && q[-1] != '-')
            q--;
        if (imp_integer(q, (size_t)(p - q), &f[5 - i]) != 0 && i != 2 && i != 0) {
            f[5 - i] = -1;
        }
        n++;
        p = q > base ? q - 1 : base;
    }
    if (n < 5)
        return;
    snprintf(key, sizeof key, "%lld", f[1]);
    json_object_set_new(h->ranks, key, json_true());
    snprintf(key, sizeof key, "%lld", f[2]);
    json_object_set_new(h->threads, key, json_true());
}

static double be_f64(const unsigned char *p)
{
    uint64_t v = 0;
    double d;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    memcpy(&d, &v, sizeof d);
    return d;
}

static uint32_t be_u32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int metric_db(struct xml *x, const struct fmt_file *f)
{
    struct hpc *h = x->h;
    const unsigned char *d = (const unsigned char *)f->data;
    size_t hs = x->hdr_size > 0 ? (size_t)x->hdr_size : 24, nodes, cols, need;
    long ci = x->time_incl >= 0 ? x->m[x->time_incl].db_col : -1,
         ce = x->time_excl >= 0 ? x->m[x->time_excl].db_col : -1;

    if (f->len < hs + 8 || memcmp(d, "HPCPROF-metricdb", 16) != 0)
        return imp_fail_field(h->err, f->name, "file",
                              "not an hpcprof metric-db file (header)");
    nodes = be_u32(d + hs);
    cols = be_u32(d + hs + 4);
    if (nodes > LIMIT_IMPORT_HPC_NODES || cols == 0 || cols > LIMIT_IMPORT_HPC_METRICS ||
        (x->ncols > 0 && cols != (size_t)x->ncols) ||
        (x->time_incl >= 0 && (ci < 0 || (size_t)ci >= cols)) ||
        (ce >= 0 && (size_t)ce >= cols))
        return imp_fail_field(h->err, f->name, "file",
                              "%zu nodes of %zu metrics disagree with experiment.xml",
                              nodes, cols);
    need = hs + 8 + nodes * cols * 8;
    if (f->len != need)
        return imp_fail_field(h->err, f->name, "file",
                              "%zu bytes; %zu nodes of %zu metrics need %zu (truncated?)",
                              f->len, nodes, cols, need);
    if (hpc_profile_begin(h) != 0)
        return -1;
    for (size_t i = 0; i < nodes; i++) {
        const unsigned char *row = d + hs + 8 + i * cols * 8;
        /* row i is node id i + 1 */
        if ((ci >= 0 && hpc_value(h, i + 1, 0, be_f64(row + ci * 8), f->name) != 0) ||
            (ce >= 0 && hpc_value(h, i + 1, 1, be_f64(row + ce * 8), f->name) != 0))
            return -1;
        for (size_t j = 0; j < x->nm; j++) {
            long col = x->m[j].db_col;
            if (x->m[j].x >= 0 && col >= 0 && (size_t)col < cols &&
                hpc_xvalue(h, i + 1, (size_t)x->m[j].x, !x->m[j].incl,
                           be_f64(row + (size_t)col * 8), f->name) != 0)
                return -1;
        }
    }
    /* the root: node 1 (the implicit top of the tree) */
    if (hpc_profile_end(h, nodes > 0 && ci >= 0 ? be_f64(d + hs + 8 + (size_t)ci * 8)
                                                : 0) != 0)
        return -1;
    rank_thread(h, f->name);
    return 0;
}

static int import_xml(struct hpc *h, const struct fmt_file *files, size_t nfiles,
                      const struct fmt_file *xmlf)
{
    struct xml x = {0};
    size_t ndb = 0;
    int rc = -1;

    x.h = h;
    x.time_incl = x.time_excl = -1;
    x.procs = json_object();
    for (size_t i = 0; i < nfiles; i++) {
        size_t n = strlen(files[i].name);
        ndb += n > 10 && strcmp(files[i].name + n - 10, ".metric-db") == 0;
    }
    x.inline_values = ndb == 0;
    if (x.procs == NULL || (x.p = XML_ParserCreate("UTF-8")) == NULL) {
        err_nomem(h->err);
        goto out;
    }
    /* the DTD's entities stay unexpanded: no external fetches, no billion laughs */
    XML_SetParamEntityParsing(x.p, XML_PARAM_ENTITY_PARSING_NEVER);
    XML_SetUserData(x.p, &x);
    XML_SetElementHandler(x.p, on_start, on_end);
    /* the metrics come before the data: the time columns are chosen when
     * the data section opens (choose_time) */
    if (XML_Parse(x.p, xmlf->data, (int)(xmlf->len > 0x7fffffff ? 0x7fffffff : xmlf->len),
                  XML_TRUE) == XML_STATUS_ERROR &&
        !x.failed) {
        imp_fail_line(h->err, xmlf->name, XML_GetCurrentLineNumber(x.p), "not XML: %s",
                      XML_ErrorString(XML_GetErrorCode(x.p)));
        goto out;
    }
    if (x.failed)
        goto out;
    /* no time metric at all (counters only: SPEC §16) is a run without a
     * runtime; a time metric without inclusive values is not read */
    for (size_t i = 0; x.time_incl < 0 && i < x.nm; i++)
        if (is_time_metric(x.m[i].name)) {
            if (x.m[i].raw)
                imp_fail_field(
                    h->err, xmlf->name, "MetricTable",
                    "the time metric %s holds raw per-thread values (t=\"nil\", "
                    "neither inclusive nor exclusive), which are not read: open "
                    "the measurements with hpcprof to summarise them",
                    x.m[i].name);
            else
                imp_fail_field(h->err, xmlf->name, "MetricTable",
                               "no inclusive time metric (CPUTIME, REALTIME, ...)");
            goto out;
        }
    if (!x.inline_values) {
        if (x.time_incl >= 0 && x.m[x.time_incl].db_col < 0) {
            imp_fail_field(h->err, xmlf->name, "MetricDBTable",
                           "the time metric %s has no metric-db column",
                           x.m[x.time_incl].name);
            goto out;
        }
        for (size_t i = 0; i < nfiles; i++) {
            size_t n = strlen(files[i].name);
            if (n > 10 && strcmp(files[i].name + n - 10, ".metric-db") == 0 &&
                metric_db(&x, &files[i]) != 0)
                goto out;
        }
    } else {
        if (x.ndbcols > 0) {
            /* the values belong in per-profile files that are not here; the
             * inline ones sum (:Sum) or average the profiles: not one run's */
            imp_fail_field(h->err, xmlf->name, "files",
                           "it names %zu metric-db column%s (MetricDBTable) but no "
                           "*.metric-db file is here%s; import the database directory "
                           "with its metric-db files",
                           x.ndbcols, x.ndbcols == 1 ? "" : "s",
                           x.ninline ? ": its inline values are summaries over the "
                                       "profiles, not a run's"
                                     : "");
            goto out;
        }
        if (x.nm == 0) {
            /* hpcviewer's bug-nocallpath: a run whose sampling recorded nothing */
            imp_fail_field(h->err, xmlf->name, "MetricTable",
                           "experiment.xml defines no metric: the profile measured "
                           "nothing");
            goto out;
        }
        if (x.ninline == 0) {
            /* hpcprof 2020-2021 kept the values in its own sparse files */
            imp_fail_field(
                h->err, xmlf->name, "files",
                "the database holds neither *.metric-db files nor values in "
                "experiment.xml (HPCToolkit 2020-2021's sparse cct.db and "
                "profile.db are not read; hpcprof 2022 or later writes meta.db)");
            goto out;
        }
        if (hpc_profile_end(h, x.inl_root) != 0)
            goto out;
    }
    rc = 0;
out:
    for (size_t i = 0; i < x.nm; i++)
        xfree(x.m[i].name);
    xfree(x.restore);
    xfree(x.node);
    json_decref(x.procs);
    if (x.p)
        XML_ParserFree(x.p);
    return rc;
}

/* ---- the v4 database: meta.db + profile.db ---------------------------------------- */

struct blob {
    const unsigned char *d;
    size_t len;
    const char *name;
    struct err *err;
};

static int bad(struct blob *b, const char *what)
{
    return imp_fail_field(b->err, b->name, "file", "%s (damaged or truncated?)", what);
}

static int u8_at(struct blob *b, uint64_t off, unsigned *out)
{
    *out = 0;
    if (off >= b->len)
        return bad(b, "a field lies beyond the end of the file");
    *out = b->d[off];
    return 0;
}

static int u16_at(struct blob *b, uint64_t off, unsigned *out)
{
    *out = 0;
    if (off > b->len || b->len - off < 2)
        return bad(b, "a field lies beyond the end of the file");
    *out = (unsigned)b->d[off] | (unsigned)b->d[off + 1] << 8;
    return 0;
}

static int u32_at(struct blob *b, uint64_t off, uint32_t *out)
{
    *out = 0;
    if (off > b->len || b->len - off < 4)
        return bad(b, "a field lies beyond the end of the file");
    *out = (uint32_t)b->d[off] | (uint32_t)b->d[off + 1] << 8 |
           (uint32_t)b->d[off + 2] << 16 | (uint32_t)b->d[off + 3] << 24;
    return 0;
}

static int u64_at(struct blob *b, uint64_t off, uint64_t *out)
{
    uint64_t v = 0;
    *out = 0;
    if (off > b->len || b->len - off < 8)
        return bad(b, "a field lies beyond the end of the file");
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b->d[off + (uint64_t)i];
    *out = v;
    return 0;
}

static int f64_at(struct blob *b, uint64_t off, double *out)
{
    uint64_t v;
    if (u64_at(b, off, &v) != 0)
        return -1;
    memcpy(out, &v, sizeof *out);
    return 0;
}

/* The NUL-terminated string at off, or NULL (with err) when it runs out. */
static const char *str_at(struct blob *b, uint64_t off)
{
    const void *nul;
    if (off >= b->len || (nul = memchr(b->d + off, '\0', b->len - off)) == NULL) {
        bad(b, "a string lies beyond the end of the file");
        return NULL;
    }
    (void)nul;
    return (const char *)b->d + off;
}

static int header(struct blob *b, const char *fmt, const char *footer)
{
    if (b->len < 0x30 + 8 || memcmp(b->d, "HPCTOOLKIT", 10) != 0 ||
        memcmp(b->d + 10, fmt, 4) != 0)
        return imp_fail_field(b->err, b->name, "file", "not an HPCToolkit %s file", fmt);
    if (b->d[14] != 4)
        return imp_fail_field(b->err, b->name, "file",
                              "format version %u.%u; this reader knows version 4",
                              b->d[14], b->d[15]);
    if (memcmp(b->d + b->len - 8, footer, 8) != 0)
        return imp_fail_field(b->err, b->name, "file",
                              "the file does not end with %.8s (truncated?)", footer);
    return 0;
}

struct v4 {
    struct hpc *h;
    int32_t *xmap; /* [metric id]: (other metric index << 1 | exclusive) + 1, 0 none */
    struct blob meta, prof;
    unsigned incl_id, excl_id;
    int have_incl, have_excl;
    int rank_kind, thread_kind;
    size_t visited;
};

static int v4_metrics(struct v4 *v)
{
    struct blob *b = &v->meta;
    uint64_t sec, pm;
    uint32_t nm;
    unsigned szm, szsi;

    if (u64_at(b, 0x38, &sec) != 0 || u64_at(b, sec, &pm) != 0 ||
        u32_at(b, sec + 8, &nm) != 0 || u8_at(b, sec + 0x0c, &szm) != 0 ||
        u8_at(b, sec + 0x0d, &szsi) != 0)
        return -1;
    if (nm > LIMIT_IMPORT_HPC_METRICS)
        return imp_fail_field(b->err, b->name, "metrics", "more than %d metrics",
                              LIMIT_IMPORT_HPC_METRICS);
    long best = -1;
    int score = 0;
    if ((v->xmap = xcalloc(65536, sizeof *v->xmap)) == NULL)
        return err_nomem(b->err);
    for (uint32_t i = 0; i < nm; i++) { /* the time metric first */
        uint64_t pname;
        const char *name;
        if (u64_at(b, pm + (uint64_t)i * szm, &pname) != 0 ||
            (name = str_at(b, pname)) == NULL)
            return -1;
        if (time_score(name) > score)
            score = time_score(name), best = (long)i;
    }
    for (uint32_t i = 0; i < nm; i++) {
        uint64_t md = pm + (uint64_t)i * szm, pname, psi;
        unsigned nsi;
        const char *name;
        if (u64_at(b, md, &pname) != 0 || u64_at(b, md + 8, &psi) != 0 ||
            u16_at(b, md + 0x18, &nsi) != 0 || (name = str_at(b, pname)) == NULL)
            return -1;
        int time = (long)i == best;
        long xj =
            time ? -1
                 : hpc_extra(v->h, name, is_time_metric(name) ? unit_of(name, 1) : 1);
        for (unsigned j = 0; j < nsi; j++) {
            uint64_t inst = psi + (uint64_t)j * szsi, pscope, pscname;
            unsigned id, type;
            const char *scope;
            if (u64_at(b, inst, &pscope) != 0 || u16_at(b, inst + 8, &id) != 0 ||
                u64_at(b, pscope, &pscname) != 0 || u8_at(b, pscope + 8, &type) != 0 ||
                (scope = str_at(b, pscname)) == NULL)
                return -1;
            if (!time) {
                if (xj >= 0 && (type == 2 || strcmp(scope, "execution") == 0))
                    v->xmap[id] = (int32_t)(xj << 1) + 1;
                else if (xj >= 0 && strcmp(scope, "function") == 0)
                    v->xmap[id] = (int32_t)(xj << 1 | 1) + 1;
            } else if (type == 2 || strcmp(scope, "execution") == 0)
                v->incl_id = id, v->have_incl = 1;
            else if (strcmp(scope, "function") == 0)
                v->excl_id = id, v->have_excl = 1;
        }
        if (time && v->have_incl)
            v->h->per_s = unit_of(name, 1);
    }
    if (!v->have_incl)
        return imp_fail_field(
            b->err, b->name, "metrics",
            "no time metric with inclusive values (CPUTIME, REALTIME, ...)");
    return 0;
}

static int v4_idnames(struct v4 *v)
{
    struct blob *b = &v->meta;
    uint64_t sec, pp;
    unsigned n;
    v->rank_kind = v->thread_kind = -1;
    if (u64_at(b, 0x28, &sec) != 0 || u64_at(b, sec, &pp) != 0 ||
        u8_at(b, sec + 8, &n) != 0)
        return -1;
    for (unsigned k = 0; k < n; k++) {
        uint64_t p;
        const char *name;
        if (u64_at(b, pp + 8 * (uint64_t)k, &p) != 0 || (name = str_at(b, p)) == NULL)
            return -1;
        if (strcmp(name, "RANK") == 0)
            v->rank_kind = (int)k;
        else if (strcmp(name, "THREAD") == 0)
            v->thread_kind = (int)k;
    }
    return 0;
}

/* The name of a function-like context: its function's name, else its load
 * module's ("[libfoo.so]"), else "<unknown function>". */
static const char *v4_fname(struct v4 *v, unsigned flags, uint64_t flex, char *buf,
                            size_t n)
{
    struct blob *b = &v->meta;
    uint64_t pf, pname, pmod, ppath;
    if (!(flags & 1) || u64_at(b, flex, &pf) != 0 || pf == 0 ||
        u64_at(b, pf, &pname) != 0)
        return "<unknown function>";
    if (pname != 0) {
        const char *s = str_at(b, pname);
        return s ? s : NULL;
    }
    if (u64_at(b, pf + 8, &pmod) == 0 && pmod != 0 && u64_at(b, pmod + 8, &ppath) == 0) {
        const char *path = str_at(b, ppath), *slash;
        if (path == NULL)
            return NULL;
        slash = strrchr(path, '/');
        snprintf(buf, n, "[%s]", slash ? slash + 1 : path);
        return buf;
    }
    return "<unknown function>";
}

struct v4_frame {
    uint64_t cur, end;
    long restore; /* path length to restore when the frame ends, -1 none */
};

static int v4_tree(struct v4 *v)
{
    struct blob *b = &v->meta;
    struct v4_frame *st = NULL;
    size_t depth = 0, cap = 0;
    uint64_t sec, pe;
    unsigned ne, sze;
    int rc = -1;

    if (u64_at(b, 0x48, &sec) != 0 || u64_at(b, sec, &pe) != 0 ||
        u16_at(b, sec + 8, &ne) != 0 || u8_at(b, sec + 0x0a, &sze) != 0)
        return -1;
    for (unsigned e = 0; e < ne; e++) {
        uint64_t ent = pe + (uint64_t)e * sze, szc, pc;
        uint32_t id;
        if (u64_at(b, ent, &szc) != 0 || u64_at(b, ent + 8, &pc) != 0 ||
            u32_at(b, ent + 0x10, &id) != 0)
            goto out;
        if (id >= LIMIT_IMPORT_HPC_NODES) {
            imp_fail_field(b->err, b->name, "contexts", "context id %u is too large", id);
            goto out;
        }
        if (pc > b->len || szc > b->len - pc) {
            bad(b, "an entry point's children lie beyond the end of the file");
            goto out;
        }
        if (cap == 0) {
            cap = 64;
            if ((st = xmalloc(cap * sizeof *st)) == NULL) {
                err_nomem(b->err);
                goto out;
            }
        }
        depth = 0;
        st[depth++] = (struct v4_frame){pc, pc + szc, -1};
        hpc_leave(v->h, 0);
        while (depth > 0) {
            struct v4_frame *f = &st[depth - 1];
            uint64_t c = f->cur, szch, pch;
            uint32_t cid;
            unsigned flags, relation, lex, nflex;
            long restore = -1;
            if (f->cur >= f->end) {
                if (f->restore >= 0)
                    hpc_leave(v->h, f->restore);
                depth--;
                continue;
            }
            if (u64_at(b, c, &szch) != 0 || u64_at(b, c + 8, &pch) != 0 ||
                u32_at(b, c + 0x10, &cid) != 0 || u8_at(b, c + 0x14, &flags) != 0 ||
                u8_at(b, c + 0x15, &relation) != 0 || u8_at(b, c + 0x16, &lex) != 0 ||
                u8_at(b, c + 0x17, &nflex) != 0)
                goto out;
            f->cur = c + 0x20 + 8 * (uint64_t)nflex;
            if (f->cur > f->end) {
                bad(b, "a context runs past its parent's children");
                goto out;
            }
            if (++v->visited > LIMIT_IMPORT_HPC_NODES || cid >= LIMIT_IMPORT_HPC_NODES) {
                imp_fail_field(b->err, b->name, "contexts",
                               "more than %d contexts or a context id beyond it",
                               LIMIT_IMPORT_HPC_NODES);
                goto out;
            }
            if (hpc_nodes(v->h, (size_t)cid + 1) != 0)
                goto out;
            (void)relation;
            if (lex == 0) { /* function-like: a frame of the path */
                char buf[LIMIT_NAME + 8];
                const char *name = v4_fname(v, flags, c + 0x20, buf, sizeof buf);
                if (name == NULL || (restore = hpc_enter(v->h, cid, name)) < 0)
                    goto out;
            }
            if (szch == 0) {
                if (restore >= 0)
                    hpc_leave(v->h, restore);
                continue;
            }
            if (pch > b->len || szch > b->len - pch) {
                bad(b, "a context's children lie beyond the end of the file");
                goto out;
            }
            if (depth >= LIMIT_IMPORT_HPC_DEPTH) {
                imp_fail_field(b->err, b->name, "contexts",
                               "the calling-context tree is deeper than %d levels",
                               LIMIT_IMPORT_HPC_DEPTH);
                goto out;
            }
            if (depth == cap) {
                struct v4_frame *n = xrealloc(st, 2 * cap * sizeof *n);
                if (n == NULL) {
                    err_nomem(b->err);
                    goto out;
                }
                st = n;
                cap *= 2;
            }
            st[depth++] = (struct v4_frame){pch, pch + szch, restore};
        }
    }
    rc = 0;
out:
    xfree(st);
    return rc;
}

static int v4_profiles(struct v4 *v)
{
    struct blob *b = &v->prof;
    uint64_t sec, pp;
    uint32_t np;
    unsigned szp;

    if (u64_at(b, 0x18, &sec) != 0 || u64_at(b, sec, &pp) != 0 ||
        u32_at(b, sec + 8, &np) != 0 || u8_at(b, sec + 0x0c, &szp) != 0)
        return -1;
    for (uint32_t i = 0; i < np; i++) {
        uint64_t pi = pp + (uint64_t)i * szp, nvals, pvals, pidx, ptup;
        uint32_t nctx, flags;
        unsigned nids;
        double root = 0;
        if (u64_at(b, pi, &nvals) != 0 || u64_at(b, pi + 8, &pvals) != 0 ||
            u32_at(b, pi + 0x10, &nctx) != 0 || u64_at(b, pi + 0x18, &pidx) != 0 ||
            u64_at(b, pi + 0x20, &ptup) != 0 || u32_at(b, pi + 0x28, &flags) != 0)
            return -1;
        if (flags & 1)
            continue; /* a summary profile */
        if (pvals > b->len || nvals > (b->len - pvals) / 10 || pidx > b->len ||
            nctx > (b->len - pidx) / 12)
            return bad(b, "a profile's values lie beyond the end of the file");
        if (ptup != 0) {
            if (u16_at(b, ptup, &nids) != 0)
                return -1;
            for (unsigned k = 0; k < nids; k++) {
                unsigned kind;
                uint32_t logical;
                char key[16];
                if (u8_at(b, ptup + 8 + 16 * (uint64_t)k, &kind) != 0 ||
                    u32_at(b, ptup + 8 + 16 * (uint64_t)k + 4, &logical) != 0)
                    return -1;
                snprintf(key, sizeof key, "%u", logical);
                if ((int)kind == v->rank_kind)
                    json_object_set_new(v->h->ranks, key, json_true());
                else if ((int)kind == v->thread_kind)
                    json_object_set_new(v->h->threads, key, json_true());
            }
        }
        if (hpc_profile_begin(v->h) != 0)
            return -1;
        for (uint32_t c = 0; c < nctx; c++) {
            uint32_t ctx;
            uint64_t start, end;
            if (u32_at(b, pidx + 12 * (uint64_t)c, &ctx) != 0 ||
                u64_at(b, pidx + 12 * (uint64_t)c + 4, &start) != 0)
                return -1;
            if (c + 1 < nctx) {
                if (u64_at(b, pidx + 12 * (uint64_t)(c + 1) + 4, &end) != 0)
                    return -1;
            } else
                end = nvals;
            if (start > end || end > nvals)
                return bad(b, "a context's values are out of order");
            for (uint64_t k = start; k < end; k++) {
                unsigned mid;
                double val;
                if (u16_at(b, pvals + 10 * k, &mid) != 0 ||
                    f64_at(b, pvals + 10 * k + 2, &val) != 0)
                    return -1;
                if (mid == v->incl_id && ctx == 0)
                    root = val;
                else if (mid == v->incl_id &&
                         hpc_value(v->h, ctx, 0, val, "profile.db") != 0)
                    return -1;
                else if (v->have_excl && mid == v->excl_id && ctx != 0 &&
                         hpc_value(v->h, ctx, 1, val, "profile.db") != 0)
                    return -1;
                else if (v->xmap[mid] > 0 && ctx != 0 &&
                         hpc_xvalue(v->h, ctx, (size_t)((v->xmap[mid] - 1) >> 1),
                                    (v->xmap[mid] - 1) & 1, val, "profile.db") != 0)
                    return -1;
            }
        }
        if (hpc_profile_end(v->h, root) != 0)
            return -1;
    }
    return 0;
}

static int import_v4(struct hpc *h, const struct fmt_file *meta,
                     const struct fmt_file *prof)
{
    struct v4 v = {0};
    uint64_t gen, ptitle;
    int rc = -1;
    v.h = h;
    v.meta =
        (struct blob){(const unsigned char *)meta->data, meta->len, meta->name, h->err};
    v.prof =
        (struct blob){(const unsigned char *)prof->data, prof->len, prof->name, h->err};
    if (header(&v.meta, "meta", "_meta.db") != 0 ||
        header(&v.prof, "prof", "_prof.db") != 0)
        return -1;
    if (u64_at(&v.meta, 0x18, &gen) == 0 && u64_at(&v.meta, gen, &ptitle) == 0 &&
        ptitle != 0) {
        const char *t = str_at(&v.meta, ptitle);
        char cut[LIMIT_NAME + 1];
        if (t == NULL)
            return -1;
        if (imp_name_cut(t, cut) > 0 && (h->title = xstrdup(cut)) == NULL)
            return err_nomem(h->err);
    }
    if (v4_idnames(&v) != 0 || v4_metrics(&v) != 0 || v4_tree(&v) != 0)
        goto out;
    h->derive_excl = !v.have_excl;
    rc = v4_profiles(&v);
out:
    xfree(v.xmap);
    return rc;
}

/* ---- the row -------------------------------------------------------------------------
 */

static const struct fmt_file *named(const struct fmt_file *files, size_t n,
                                    const char *base)
{
    size_t bl = strlen(base);
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(files[i].name);
        if (l >= bl && strcmp(files[i].name + l - bl, base) == 0 &&
            (l == bl || files[i].name[l - bl - 1] == '/'))
            return &files[i];
    }
    return NULL;
}

int import_hpctoolkit(const struct fmt_file *files, size_t nfiles,
                      const struct fmt_options *opt, const struct fmt_sink *sink,
                      struct err *err)
{
    const struct fmt_file *xmlf = named(files, nfiles, "experiment.xml"),
                          *meta = named(files, nfiles, "meta.db"),
                          *prof = named(files, nfiles, "profile.db");
    struct hpc h;
    int rc = -1;

    if (hpc_init(&h, xmlf ? xmlf->name : meta ? meta->name : "hpctoolkit", err) != 0)
        goto out;
    if (meta != NULL && prof != NULL)
        rc = import_v4(&h, meta, prof);
    else if (xmlf != NULL)
        rc = import_xml(&h, files, nfiles, xmlf);
    else
        rc = imp_fail_field(err, NULL, "files",
                            "an HPCToolkit database holds experiment.xml, or meta.db "
                            "and profile.db");
    if (rc == 0)
        rc = hpc_emit(&h, opt && opt->source ? opt->source : "hpctoolkit", opt, sink);
out:
    hpc_free(&h);
    return rc;
}

/* A database's experiment.xml (HPCToolkit before 2023) or meta.db. */
long root_hpctoolkit(const char *name)
{
    long d = imp_dir_len(name);
    const char *base = name + d + (d > 0);
    return strcmp(base, "experiment.xml") == 0 || strcmp(base, "meta.db") == 0 ? d : -1;
}

int sniff_hpctoolkit(const struct fmt_file *files, size_t nfiles)
{
    const struct fmt_file *x = named(files, nfiles, "experiment.xml"),
                          *m = named(files, nfiles, "meta.db");
    if (m != NULL && m->len >= 14 && memcmp(m->data, "HPCTOOLKITmeta", 14) == 0)
        return 1;
    return x != NULL && imp_contains(x, "<HPCToolkitExperiment");
}
