/* import_caliper: Caliper's JSON outputs into one run per file.
 *
 * Two shapes: cali-query's "format json" (a list of records, or with
 * json(object) an object whose "records" hold them), where each record names
 * its region path ("path", else "region", "annotation", "function", ...;
 * nested regions joined with "/"); and "json-split" (what Hatchet reads), where "nodes"
 * form trees (label, parent, the column they belong to), "columns" name the values and
 * "data" holds rows that reference nodes. The region path column of a json-split file is
 * "path", else the node column whose nodes have parents (a sampled profile's
 * "source.function#callpath.address").
 *
 * Values: rows with the same region path and rank (mpi.rank) are summed;
 * each region path is a kernel (SPEC §16): its time is the exclusive time
 * (the exclusive column, else the inclusive minus its children's inclusive
 * at the same rank), `inclusive` its inclusive time, both the largest over
 * the ranks, with `mean` and `min` over the ranks when there are several;
 * every other numeric column is a kernel metric (per rank summed, the
 * largest over ranks), as measured. The run time is the roots' inclusive
 * time (the largest over the ranks). A file without a time column imports
 * too (SPEC §16): its kernels carry the columns and have no time (NAN), and
 * the run has no runtime.
 *
 * Memory is bounded as the work grows (issue 34): a node's full path is
 * never built when it is longer than a name may be (its length and a hash
 * are carried down the tree instead), and kernels are found by hash.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

/* Inclusive and exclusive time columns, most specific first. */
static const char *const incl_keys[] = {"time (inc)",
                                        "max#inclusive#sum#time.duration",
                                        "inclusive#sum#time.duration",
                                        "time.inclusive.duration",
                                        "sum#time.inclusive.duration",
                                        "inclusive#time.duration",
                                        "avg#inclusive#sum#time.duration",
                                        "inclusive#sum#time.duration.ns",
                                        "sum#avg#inclusive#sum#time.duration",
                                        NULL};
static const char *const excl_keys[] = {"time",
                                        "max#sum#time.duration",
                                        "sum#time.duration",
                                        "sum#sum#time.duration",
                                        "time.duration",
                                        "avg#sum#time.duration",
                                        "sum#time.duration.ns",
                                        "time.duration.ns",
                                        "sum#avg#sum#time.duration",
                                        NULL};

struct cal_kernel {
    char *name;
    size_t parent; /* kernel index, or (size_t)-1 for a root */
    int depth;
};

struct cal_cell {
    size_t kernel;
    long long rank;
    size_t ri;        /* the rank's index among the file's ranks */
    double *v;        /* ncol values, NAN where absent */
    double child_inc; /* the children's inclusive time at this rank */
    int made;         /* made for a parent without rows at this rank */
    double inc, exc;
};

struct cal {
    const char *file;
    arena *a;
    const char *col[LIMIT_METRICS];
    double div[LIMIT_METRICS]; /* a time column's units per second */
    size_t ncol;
    int incl, excl; /* column indices or -1 */
    struct cal_kernel *k;
    size_t nk, kcap;
    struct imp_map names;
    struct cal_cell *c;
    size_t nc, ccap;
    struct imp_map cells;
    struct imp_map ranks;
    size_t nranks;
    long long nprocs;
    int micro;     /* Caliper 1.x: its timer's durations in microseconds */
    int versioned; /* the globals name cali.caliper.version */
    const char *program;
    const char *cluster;
    struct rec_tag *meta; /* the globals' scalars: Adiak's problem_size, ... */
    size_t nmeta;         /* when inputs are taken from the file (read_meta) */
    int read_meta;
};

static int col_index(const struct cal *c, const char *name)
{
    for (size_t i = 0; i < c->ncol; i++)
        if (strcmp(c->col[i], name) == 0)
            return (int)i;
    return -1;
}

/* The units of a time column in one second (divided by: exact for the
 * decimal numbers files hold). */
static double unit_scale(const struct cal *c, const char *name, const char *unit)
{
    if (unit != NULL) {
        if (!strcmp(unit, "sec") || !strcmp(unit, "s"))
            return 1;
        if (!strcmp(unit, "msec") || !strcmp(unit, "ms"))
            return 1e3;
        if (!strcmp(unit, "usec") || !strcmp(unit, "us"))
            return 1e6;
        if (!strcmp(unit, "nsec") || !strcmp(unit, "ns"))
            return 1e9;
    }
    if (strlen(name) > 3 && strcmp(name + strlen(name) - 3, ".ns") == 0)
        return 1e9;
    /* Caliper 1.x's timer wrote time.duration and time.inclusive.duration
     * (and their aggregates) as integer microseconds */
    return c->micro && strstr(name, "duration") ? 1e6 : 1;
}

/* Whether every value of `key` in the records is an integer (and one is
 * there): Caliper 1.x's timer attributes are unsigned integers in
 * microseconds, later versions' doubles in seconds. */
static int integer_times(json_t *list, const char *key)
{
    size_t i;
    json_t *r;
    int seen = 0;
    json_array_foreach(list, i, r)
    {
        json_t *v = json_object_get(r, key);
        if (json_is_real(v))
            return 0;
        seen |= json_is_integer(v);
    }
    return seen;
}

/* The inclusive and exclusive time columns, -1 where the file has none,
 * and their units (meta: json-split's column metadata). For a list of
 * records (list) without a version, time columns of integers only are
 * Caliper 1.x's microseconds. */
static void pick_times(struct cal *c, json_t *meta, json_t *list)
{
    c->incl = c->excl = -1;
    for (int i = 0; incl_keys[i] && c->incl < 0; i++)
        c->incl = col_index(c, incl_keys[i]);
    for (int i = 0; excl_keys[i] && c->excl < 0; i++)
        c->excl = col_index(c, excl_keys[i]);
    if (list != NULL)
        c->micro = !c->versioned && (c->incl >= 0 || c->excl >= 0) &&
                   (c->incl < 0 || integer_times(list, c->col[c->incl])) &&
                   (c->excl < 0 || integer_times(list, c->col[c->excl]));
    for (int w = 0; w < 2; w++) {
        int i = w ? c->excl : c->incl;
        json_t *md = json_array_get(meta, i < 0 ? 0 : (size_t)i);
        if (i >= 0)
            c->div[i] = unit_scale(
                c, c->col[i], json_string_value(json_object_get(md, "attribute.unit")));
    }
}

static int add_col(struct cal *c, const char *name, struct err *err)
{
    if (col_index(c, name) >= 0)
        return 0;
    if (c->ncol >= LIMIT_METRICS)
        return imp_fail_field(err, c->file, "columns", "more than %d columns",
                              LIMIT_METRICS);
    /* a name (checked), kept as the records spell it so they find it */
    if (imp_name(c->a, name, strlen(name), c->file, "column", err) == NULL)
        return -1;
    if ((c->col[c->ncol] = arena_strdup(c->a, name)) == NULL)
        return err_nomem(err);
    c->div[c->ncol++] = 1;
    return 0;
}

/* The kernel of a region path (name already a kernel name), created on
 * first use with the given parent. */
static long kernel(struct cal *c, const char *name, size_t len, size_t parent, int depth,
                   struct err *err)
{
    size_t i;
    if (imp_map_get(&c->names, name, len, &i))
        return (long)i;
    if (c->nk >= LIMIT_KERNELS)
        return imp_fail_field(err, c->file, "regions", "more than %d region paths",
                              LIMIT_KERNELS);
    if (c->nk == c->kcap) {
        size_t nc = c->kcap ? c->kcap * 2 : 64;
        struct cal_kernel *nk = xrealloc(c->k, nc * sizeof *nk);
        if (nk == NULL)
            return err_nomem(err);
        c->k = nk;
        c->kcap = nc;
    }
    c->k[c->nk].name = imp_name(c->a, name, len, c->file, "region path", err);
    if (c->k[c->nk].name == NULL)
        return -1;
    c->k[c->nk].parent = parent;
    c->k[c->nk].depth = depth;
    if (imp_map_put(&c->names, c->k[c->nk].name, strlen(c->k[c->nk].name), c->nk) != 0)
        return err_nomem(err);
    return (long)c->nk++;
}

/* The cell of (kernel, rank), created with every value absent. */
static struct cal_cell *cell(struct cal *c, size_t k, long long rank, struct err *err)
{
    char key[2 * sizeof(long long)];
    long long kk = (long long)k;
    size_t i;
    char *stored;

    memcpy(key, &kk, sizeof kk);
    memcpy(key + sizeof kk, &rank, sizeof rank);
    if (imp_map_get(&c->cells, key, sizeof key, &i))
        return &c->c[i];
    if (c->nc == c->ccap) {
        size_t nc = c->ccap ? c->ccap * 2 : 64;
        struct cal_cell *n = xrealloc(c->c, nc * sizeof *n);
        if (n == NULL) {
            err_nomem(err);
            return NULL;
        }
        c->c = n;
        c->ccap = nc;
    }
    stored = arena_alloc(c->a, sizeof key);
    c->c[c->nc].v = arena_alloc(c->a, (c->ncol ? c->ncol : 1) * sizeof(double));
    if (stored == NULL || c->c[c->nc].v == NULL ||
        imp_map_put(&c->cells, memcpy(stored, key, sizeof key), sizeof key, c->nc) != 0) {
        err_nomem(err);
        return NULL;
    }
    for (size_t j = 0; j < c->ncol; j++)
        c->c[c->nc].v[j] = NAN;
    if (!imp_map_get(&c->ranks, key + sizeof kk, sizeof rank, &c->c[c->nc].ri)) {
        c->c[c->nc].ri = c->nranks;
        if (imp_map_put(&c->ranks, stored + sizeof kk, sizeof rank, c->nranks++) != 0) {
            err_nomem(err);
            return NULL;
        }
    }
    c->c[c->nc].kernel = k;
    c->c[c->nc].rank = rank;
    c->c[c->nc].child_inc = 0;
    c->c[c->nc].made = 0;
    return &c->c[c->nc++];
}

static void add_value(struct cal_cell *x, size_t j, double v)
{
    x->v[j] = isnan(x->v[j]) ? v : x->v[j] + v;
}

/* The globals' scalars (Adiak's values, which json-split writes as text:
 * problem_size = "30") as the run's metadata: what an input taken from the
 * file reads (fmt_sink.inputs_from). */
static void meta(struct cal *c, json_t *g)
{
    const char *key;
    json_t *v;

    if (!c->read_meta || !json_is_object(g) ||
        (c->meta = arena_alloc(c->a, LIMIT_META * sizeof *c->meta)) == NULL)
        return;
    json_object_foreach(g, key, v)
    {
        const char *text =
            json_is_string(v) ? json_string_value(v)
            : json_is_integer(v)
                ? arena_printf(c->a, "%lld", (long long)json_integer_value(v))
            : json_is_real(v) ? arena_printf(c->a, "%.17g", json_real_value(v))
                              : NULL;
        if (c->nmeta < LIMIT_META && text != NULL)
            c->meta[c->nmeta++] = (struct rec_tag){key, text};
    }
}

static void globals(struct cal *c, json_t *g)
{
    static const char *const prog[] = {"executable", "executablepath", "cali.program",
                                       "program",    "application",    NULL};
    json_t *v = json_object_get(g, "mpi.world.size");
    c->versioned |= json_object_get(g, "cali.caliper.version") != NULL;
    if (v == NULL)
        v = json_object_get(g, "jobsize"); /* adiak's */
    if (json_is_integer(v) && json_integer_value(v) >= 1)
        c->nprocs = json_integer_value(v);
    else if (json_is_string(v)) {
        long long n;
        if (imp_integer(json_string_value(v), json_string_length(v), &n) == 0 && n >= 1)
            c->nprocs = n;
    }
    if (json_is_string(json_object_get(g, "cluster"))) /* adiak's machine */
        c->cluster = imp_json_name(c->a, g, "cluster");
    meta(c, g);
    for (int i = 0; prog[i] && c->program == NULL; i++)
        if (json_is_string(json_object_get(g, prog[i])))
            c->program = imp_program_name(
                c->a, json_string_value(json_object_get(g, prog[i])), NULL);
}

/* Attributes that say where a record was measured, not what: not metrics
 * ("Node order" numbers the regions of a hatchet-region-profile in the order
 * they were entered). */
static int identity(const char *key)
{
    return strcmp(key, "mpi.rank") == 0 || strcmp(key, "rank") == 0 ||
           strcmp(key, "mpi.world.size") == 0 || strcmp(key, "thread.id") == 0 ||
           strcmp(key, "Node order") == 0;
}

static const char *record_path(json_t *r, size_t *len)
{
    /* Caliper 1.x named regions "annotation"; a sampled profile's call
     * path is source.function#callpath.address */
    static const char *const keys[] = {"path",       "region",
                                       "annotation", "function",
                                       "loop",       "source.function#callpath.address",
                                       NULL};
    for (int i = 0; keys[i]; i++) {
        json_t *v = json_object_get(r, keys[i]);
        if (json_is_string(v)) {
            *len = json_string_length(v);
            return json_string_value(v);
        }
    }
    return NULL;
}

/* The kernel of a "/"-joined path of a record, its ancestors' kernels first
 * (a parent is the longest leading part that is a region of the file; found
 * after all records are read). */
static long record_kernel(struct cal *c, const char *path, size_t len, struct err *err)
{
    int depth = 0;
    char *name;
    for (size_t i = 0; i < len; i++)
        depth += path[i] == '/';
    if (len <= LIMIT_NAME)
        return kernel(c, path, len, (size_t)-1, depth, err);
    name = imp_path_name(c->a, path, strcspn(path, "/"), path, len, len,
                         imp_hash(IMP_HASH0, path, len));
    if (name == NULL)
        return err_nomem(err);
    return kernel(c, name, strlen(name), (size_t)-1, depth, err);
}

static int records(struct cal *c, json_t *list, struct err *err)
{
    size_t i;
    json_t *r;

    json_array_foreach(list, i, r)
    {
        const char *key;
        json_t *v;
        if (!json_is_object(r))
            return imp_fail_field(err, c->file, "records",
                                  "records[%zu] is not an object", i);
        json_object_foreach(r, key, v)
        {
            if (json_is_number(v) && !identity(key) && add_col(c, key, err) != 0)
                return -1;
        }
    }
    pick_times(c, NULL, list); /* none: the kernels have no time (SPEC §16) */
    json_array_foreach(list, i, r)
    {
        const char *path, *key;
        size_t len;
        long k;
        long long rank = 0;
        struct cal_cell *x;
        json_t *v;
        if ((path = record_path(r, &len)) == NULL)
            continue; /* a record outside any region */
        if ((k = record_kernel(c, path, len, err)) < 0)
            return -1;
        if ((v = json_object_get(r, "mpi.rank")) == NULL)
            v = json_object_get(r, "rank"); /* hatchet's name for it */
        if (json_is_integer(v))
            rank = json_integer_value(v);
        if ((x = cell(c, (size_t)k, rank, err)) == NULL)
            return -1;
        json_object_foreach(r, key, v)
        {
            int j = col_index(c, key);
            if (json_is_number(v) && !identity(key) && j >= 0)
                add_value(x, (size_t)j, json_number_value(v));
        }
    }
    /* parents: the longest leading part of a name that is a region */
    for (size_t k = 0; k < c->nk; k++) {
        const char *n = c->k[k].name;
        for (size_t l = strlen(n); l > 0; l--) {
            size_t p;
            if (n[l - 1] == '/' && imp_map_get(&c->names, n, l - 1, &p)) {
                c->k[k].parent = p;
                break;
            }
        }
    }
    return 0;
}

/* A json-split file's tree: per node its label, parent, the length of its
 * full path (saturating past LIMIT_NAME), a hash of that path, the root's
 * label, its depth, and the kernel made for it. */
struct cal_node {
    const char *label;
    size_t lablen;
    long parent;
    size_t len;
    unsigned long long h;
    long root;
    int depth;
    long kernel;  /* -1 until a row names the node */
    long nearest; /* the nearest ancestor's kernel, -1 */
};

/* Builds the kernel name of node i: the whole path when it fits a name,
 * else its first label, a hash mark and the trailing labels that fit
 * (walking up at most LIMIT_NAME bytes). */
static char *node_name(struct cal *c, const struct cal_node *nd, long i)
{
    char tail[LIMIT_NAME + 1];
    size_t pos = sizeof tail, used = 0;
    long j = i;
    int first = 1;

    while (j >= 0) {
        size_t l = nd[j].lablen + (first ? 0 : 1);
        if (used + l > LIMIT_NAME) {
            /* the label that does not fit whole: its end */
            size_t room = LIMIT_NAME - used;
            if (pos == sizeof tail && room > 0) {
                memcpy(tail + pos - room, nd[j].label + nd[j].lablen - room, room);
                pos -= room;
                used += room;
            }
            break;
        }
        if (!first)
            tail[--pos] = '/';
        pos -= nd[j].lablen;
        memcpy(tail + pos, nd[j].label, nd[j].lablen);
        used += l;
        first = 0;
        j = nd[j].parent;
    }
    return imp_path_name(c->a, nd[nd[i].root].label, nd[nd[i].root].lablen, tail + pos,
                         used, nd[i].len, nd[i].h);
}

/* Whether a row's value in column col is the index of a node with a parent. */
static int nested_refs(json_t *data, size_t col, const struct cal_node *nd, size_t nn)
{
    size_t i;
    json_t *row;
    json_array_foreach(data, i, row)
    {
        json_t *v = json_array_get(row, col);
        json_int_t ni = json_is_integer(v) ? json_integer_value(v) : -1;
        if (ni >= 0 && ni < (json_int_t)nn && nd[ni].parent >= 0)
            return 1;
    }
    return 0;
}

static int split(struct cal *c, json_t *doc, struct err *err)
{
    json_t *nodes = json_object_get(doc, "nodes"),
           *cols = json_object_get(doc, "columns"), *data = json_object_get(doc, "data"),
           *meta = json_object_get(doc, "column_metadata"), *row;
    size_t ncol = json_array_size(cols), nn = json_array_size(nodes), i;
    long pathcol = -1, rankcol = -1, flatcol = -1;
    int isnode[LIMIT_METRICS] = {0};
    struct cal_node *nd = NULL;
    int rc = -1;

    if (!json_is_array(nodes) || !json_is_array(cols) || !json_is_array(data) ||
        ncol == 0)
        return imp_fail_field(
            err, c->file, "columns",
            "json-split needs \"nodes\", \"columns\" and \"data\" arrays");
    if (ncol > LIMIT_METRICS)
        return imp_fail_field(err, c->file, "columns", "more than %d columns",
                              LIMIT_METRICS);
    for (i = 0; i < ncol; i++) {
        const char *name = json_string_value(json_array_get(cols, i));
        if (name == NULL)
            return imp_fail_field(err, c->file, "columns", "columns[%zu] is not a string",
                                  i);
        c->col[i] = imp_name(c->a, name, strlen(name), c->file, "column", err);
        if (c->col[i] == NULL)
            return -1;
        c->div[i] = 1;
        if (strcmp(name, "path") == 0 && pathcol < 0)
            pathcol = (long)i;
        if (strcmp(name, "mpi.rank") == 0 || (strcmp(name, "rank") == 0 && rankcol < 0))
            rankcol = (long)i;
        if (identity(name))
            isnode[i] = 1; /* where a row was measured, not what */
    }
    c->ncol = ncol;
    if ((nd = xcalloc(nn ? nn : 1, sizeof *nd)) == NULL)
        return err_nomem(err);
    /* nodes list parents before children: each path's length and hash are
     * the parent's and the label's (no path is built here) */
    for (i = 0; i < nn; i++) {
        json_t *n = json_array_get(nodes, i), *parent = json_object_get(n, "parent");
        const char *label = json_string_value(json_object_get(n, "label"));
        const char *column = json_string_value(json_object_get(n, "column"));
        json_int_t p = json_is_integer(parent) ? json_integer_value(parent) : -1;
        int ci;
        if (label == NULL ||
            (parent && !json_is_null(parent) && !json_is_integer(parent)) ||
            p >= (json_int_t)i || (json_is_integer(parent) && p < 0)) {
            imp_fail_field(err, c->file, "nodes",
                           "nodes[%zu] needs a label and an earlier parent", i);
            goto out;
        }
        nd[i].label = label;
        nd[i].lablen = json_string_length(json_object_get(n, "label"));
        if (nd[i].lablen == 0 || nd[i].lablen > LIMIT_NAME) {
            imp_fail_field(err, c->file, "nodes",
                           "nodes[%zu]: a label must hold 1 to %d bytes", i, LIMIT_NAME);
            goto out;
        }
        nd[i].parent = (long)p;
        nd[i].kernel = nd[i].nearest = -1;
        if (p >= 0) {
            size_t l = nd[p].len + 1 + nd[i].lablen;
            nd[i].len = l > LIMIT_NAME ? LIMIT_NAME + 1 : l;
            nd[i].h = imp_hash(imp_hash(nd[p].h, "/", 1), label, nd[i].lablen);
            nd[i].root = nd[p].root;
            nd[i].depth = nd[p].depth + 1;
        } else {
            nd[i].len = nd[i].lablen;
            nd[i].h = imp_hash(IMP_HASH0, label, nd[i].lablen);
            nd[i].root = (long)i;
        }
        if (column != NULL && (ci = col_index(c, column)) >= 0) {
            isnode[ci] = 1;
            if (pathcol < 0 && p >= 0 && strcmp(column, "path") != 0)
                pathcol = ci; /* a column whose nodes form a tree */
            if (flatcol < 0 && ci != rankcol)
                flatcol = ci; /* the first column of nodes */
        }
    }
    /* Older Caliper names no column in its nodes: column_metadata's
     * is_value false marks the columns of node references; the first whose
     * rows reach nested nodes is the path (a sampled call path,
     * source.function#callpath.address), the others are where (file, line) */
    for (i = 0; json_is_array(meta) && i < ncol; i++)
        if (json_is_false(json_object_get(json_array_get(meta, i), "is_value")) &&
            (long)i != rankcol) {
            isnode[i] = 1;
            if (pathcol < 0 && nested_refs(data, i, nd, nn))
                pathcol = (long)i;
            if (flatcol < 0)
                flatcol = (long)i;
        }
    if (pathcol < 0)
        pathcol = flatcol; /* a flat profile (group by one function attribute) */
    if (pathcol < 0) {
        imp_fail_field(err, c->file, "columns",
                       "json-split has no \"path\" column and no column of nested nodes");
        goto out;
    }
    isnode[pathcol] = 1;
    if (rankcol >= 0)
        isnode[rankcol] = 1; /* where, not what */
    /* node and rank columns are not values: no time key matches "" */
    for (i = 0; i < ncol; i++)
        if (isnode[i])
            c->col[i] = "";
    pick_times(c, meta, NULL); /* none: the kernels have no time (SPEC §16) */
    json_array_foreach(data, i, row)
    {
        json_t *node = json_array_get(row, (size_t)pathcol), *rk;
        json_int_t ni = json_integer_value(node);
        long long rank = 0;
        struct cal_cell *x;
        if (!json_is_array(row) || json_array_size(row) != ncol) {
            imp_fail_field(err, c->file, "data", "data[%zu] must hold %zu values", i,
                           ncol);
            goto out;
        }
        if (json_is_null(node))
            continue; /* time outside any region */
        if (!json_is_integer(node) || ni < 0 || ni >= (json_int_t)nn) {
            imp_fail_field(err, c->file, "data",
                           "data[%zu] column %s must be a node index", i,
                           c->col[pathcol]);
            goto out;
        }
        if (nd[ni].kernel < 0) {
            char *name = node_name(c, nd, (long)ni);
            if (name == NULL) {
                err_nomem(err);
                goto out;
            }
            if ((nd[ni].kernel =
                     kernel(c, name, strlen(name), (size_t)-1, nd[ni].depth, err)) < 0)
                goto out;
        }
        rk = rankcol >= 0 ? json_array_get(row, (size_t)rankcol) : NULL;
        if (json_is_integer(rk))
            rank = json_integer_value(rk);
        if ((x = cell(c, (size_t)nd[ni].kernel, rank, err)) == NULL)
            goto out;
        for (size_t j = 0; j < ncol; j++) {
            json_t *v = json_array_get(row, j);
            if (!isnode[j] && json_is_number(v))
                add_value(x, j, json_number_value(v));
        }
    }
    /* each kernel's parent: the nearest ancestor node that has a kernel */
    for (i = 0; i < nn; i++) {
        long p = nd[i].parent;
        nd[i].nearest = p < 0 ? -1 : nd[p].kernel >= 0 ? nd[p].kernel : nd[p].nearest;
        if (nd[i].kernel >= 0 && nd[i].nearest >= 0 &&
            c->k[nd[i].kernel].parent == (size_t)-1)
            c->k[nd[i].kernel].parent = (size_t)nd[i].nearest;
    }
    rc = 0;
out:
    xfree(nd);
    return rc;
}

/* Exclusive and inclusive time of every cell; deepest cells first so that
 * a parent sees its children's inclusive time. */
static int times(struct cal *c, struct err *err)
{
    size_t *order = xcalloc(c->nc ? c->nc : 1, sizeof *order);
    int maxd = 0;
    size_t n = 0;
    if (order == NULL)
        return err_nomem(err);
    for (size_t i = 0; i < c->nk; i++)
        if (c->k[i].depth > maxd)
            maxd = c->k[i].depth;
    /* a counting order by depth, deepest first (depth is bounded by the
     * nodes of the file) */
    {
        size_t *count = xcalloc((size_t)maxd + 2, sizeof *count);
        if (count == NULL) {
            xfree(order);
            return err_nomem(err);
        }
        for (size_t i = 0; i < c->nc; i++)
            count[maxd - c->k[c->c[i].kernel].depth + 1]++;
        for (int d = 1; d <= maxd + 1; d++)
            count[d] += count[d - 1];
        for (size_t i = 0; i < c->nc; i++)
            order[count[maxd - c->k[c->c[i].kernel].depth]++] = i;
        n = c->nc;
        xfree(count);
    }
    for (size_t o = 0; o < n; o++) {
        struct cal_cell *x = &c->c[order[o]];
        double inc = c->incl >= 0 ? x->v[c->incl] / c->div[c->incl] : NAN;
        double exc = c->excl >= 0 ? x->v[c->excl] / c->div[c->excl] : NAN;
        size_t p = c->k[x->kernel].parent;
        /* a row with neither time column has no time of its own (NAN, SPEC
         * §16); its inclusive time is then what its children measured */
        if (isnan(exc) && !isnan(inc))
            exc = fmax(0, inc - x->child_inc);
        if (isnan(inc))
            inc = (isnan(exc) ? 0 : exc) + x->child_inc;
        if (!isfinite(inc) || inc < 0 || (!isnan(exc) && (!isfinite(exc) || exc < 0))) {
            xfree(order);
            return imp_fail_field(
                err, c->file, c->k[x->kernel].name,
                "region %s has a time that is not a non-negative number",
                c->k[x->kernel].name);
        }
        x->inc = inc;
        x->exc = exc;
        if (p != (size_t)-1) {
            size_t before = c->nc;
            struct cal_cell *px = cell(c, p, x->rank, err);
            if (px == NULL) {
                xfree(order);
                return -1;
            }
            x = &c->c[order[o]]; /* cell() may have moved the cells */
            px->child_inc += x->inc;
            if (c->nc > before) {
                px->made = 1;
                /* a parent with no row of its own at this rank: it was made
                 * now and is handled after its children */
                order = xrealloc(order, (n + 1) * sizeof *order);
                if (order == NULL)
                    return err_nomem(err);
                order[n++] = (size_t)(px - c->c);
            }
        }
    }
    xfree(order);
    return 0;
}

struct cal_agg {
    double max, sum, min;
    size_t n;
};

static void agg_add(struct cal_agg *g, double v)
{
    if (g->n == 0 || v > g->max)
        g->max = v;
    if (g->n == 0 || v < g->min)
        g->min = v;
    g->sum += v;
    g->n++;
}

static int emit(struct cal *c, const struct fmt_options *opt, const struct fmt_sink *sink,
                struct err *err)
{
    struct imp_batch b = {0};
    struct run_record *r;
    struct cal_agg *kt = NULL, *ki = NULL, *km = NULL, *roots = NULL;
    unsigned char *untimed = NULL;
    int timed = c->incl >= 0 || c->excl >= 0;
    size_t nranks = c->nranks;
    double rootmax = 0;
    int rc = -1;

    kt = xcalloc(c->nk, sizeof *kt);
    ki = xcalloc(c->nk, sizeof *ki);
    km = xcalloc(c->nk * (c->ncol ? c->ncol : 1), sizeof *km);
    untimed = xcalloc(c->nk ? c->nk : 1, 1);
    if (kt == NULL || ki == NULL || km == NULL || untimed == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < c->nc; i++) {
        struct cal_cell *x = &c->c[i];
        agg_add(&ki[x->kernel], x->inc);
        if (x->made)
            continue; /* measured nothing itself at this rank */
        if (isnan(x->exc))
            untimed[x->kernel] = 1; /* a row of its own, without a time */
        else
            agg_add(&kt[x->kernel], x->exc);
        for (size_t j = 0; j < c->ncol; j++)
            if (!isnan(x->v[j]) && (int)j != c->incl && (int)j != c->excl)
                agg_add(&km[x->kernel * c->ncol + j], x->v[j]);
    }
    /* the run time: the roots' inclusive time, the largest over ranks */
    if ((roots = xcalloc(nranks ? nranks : 1, sizeof *roots)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < c->nc; i++)
        if (c->k[c->c[i].kernel].parent == (size_t)-1)
            roots[c->c[i].ri].sum += c->c[i].inc;
    for (size_t r2 = 0; r2 < nranks; r2++)
        rootmax = fmax(rootmax, roots[r2].sum);
    if (imp_batch_init(&b, "caliper-json", c->file, sink, err) != 0 ||
        (r = imp_batch_slot(&b, err)) == NULL)
        goto out;
    r->application = opt && opt->application ? opt->application
                     : c->program            ? c->program
                                             : imp_base_name(b.a, c->file);
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : c->cluster ? c->cluster : "unknown";
    r->nprocs = c->nprocs > 0 ? c->nprocs : (long long)(nranks ? nranks : 1);
    r->meta = c->meta;
    r->nmeta = c->nmeta;
    if ((r->kernels = arena_alloc(b.a, c->nk * sizeof *r->kernels)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < c->nk; i++) {
        struct rec_kernel *k = &r->kernels[r->nkernels++];
        struct rec_kv m[LIMIT_METRICS];
        size_t nm = 0;
        int failed = 0;
        k->name = c->k[i].name;
        k->calls = KERNEL_NO_CALLS; /* a count column stays a metric, as measured */
        /* a parent made for its children alone implies 0 s of its own; a
         * region whose rows carry no time has none, nor has any region of a
         * file without a time column */
        k->time = kt[i].n ? kt[i].max : untimed[i] || !timed ? NAN : 0;
        if (timed)
            m[nm++] = (struct rec_kv){"inclusive", ki[i].n ? ki[i].max : 0};
        if (nranks > 1 && kt[i].n) {
            m[nm++] = (struct rec_kv){"mean", kt[i].sum / (double)kt[i].n};
            m[nm++] = (struct rec_kv){"min", kt[i].min};
        }
        for (size_t j = 0; j < c->ncol && nm < LIMIT_METRICS; j++)
            if (km[i * c->ncol + j].n)
                m[nm++] = (struct rec_kv){c->col[j], km[i * c->ncol + j].max};
        k->metrics_json = imp_metrics_json(b.a, m, nm, &failed);
        if (failed) {
            err_nomem(err);
            goto out;
        }
    }
    /* the root's inclusive time (SPEC §16); with several ranks each
     * kernel's time is its largest over them, so the kernels may sum to
     * more. A file without a time column has none. */
    r->runtime = timed ? rootmax : NAN;
    if (imp_batch_commit(&b, "file", err) != 0)
        goto out;
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    xfree(kt);
    xfree(ki);
    xfree(km);
    xfree(roots);
    xfree(untimed);
    return rc;
}

int import_caliper_json(const struct fmt_file *files, size_t nfiles,
                        const struct fmt_options *opt, const struct fmt_sink *sink,
                        struct err *err)
{
    struct cal c = {0};
    json_t *doc;
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files",
                              "caliper-json reads one file at a time");
    {
        struct fmt_file f = files[0];
        if (f.len >= 3 && memcmp(f.data, "\xef\xbb\xbf", 3) == 0)
            f.data += 3, f.len -= 3; /* a byte-order mark, as sniffing allows */
        if ((doc = imp_json_load(&f, err)) == NULL)
            return -1;
    }
    c.file = files[0].name;
    c.read_meta = sink != NULL && sink->ninputs_from > 0;
    if ((c.a = arena_new()) == NULL) {
        err_nomem(err);
        goto out;
    }
    if (json_is_array(doc))
        rc = records(&c, doc, err);
    else if (json_is_array(json_object_get(doc, "records"))) {
        globals(&c, json_object_get(doc, "globals"));
        rc = records(&c, json_object_get(doc, "records"), err);
    } else if (json_is_array(json_object_get(doc, "nodes"))) {
        globals(&c, doc);
        /* json-split of Caliper 1.x (no version): time.duration in us */
        c.micro = json_object_get(doc, "cali.caliper.version") == NULL;
        rc = split(&c, doc, err);
    } else
        rc =
            imp_fail_field(err, c.file, "records",
                           "a Caliper file is a list of records, {\"records\": [...]} or "
                           "json-split");
    if (rc != 0)
        goto out;
    rc = -1;
    if (c.nk == 0) {
        imp_fail_field(err, c.file, "records", "no record names a region");
        goto out;
    }
    if (times(&c, err) != 0)
        goto out;
    rc = emit(&c, opt, sink, err);
out:
    xfree(c.k);
    xfree(c.c);
    imp_map_free(&c.names);
    imp_map_free(&c.cells);
    imp_map_free(&c.ranks);
    arena_free(c.a);
    json_decref(doc);
    return rc;
}

/* The index of the first byte at or after i that is not blank, n if none. */
static size_t skip_blank(const char *p, size_t i, size_t n)
{
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i;
}

/* Whether the list that opens at p[0] ('[') holds Caliper records, by their
 * shape rather than by a time column (a file of counts or bytes has none):
 * its first records (those whole within the n bytes sniffed, at most
 * SNIFF_RECORDS) are flat objects, every value a string, number, boolean or
 * null, and one of them names a region as the importer reads it (a string
 * "path", "region" or "function") or carries Caliper's time attribute. */
#define SNIFF_RECORDS 64
static int record_list(const char *p, size_t n)
{
    size_t i = 1;
    int caliper = 0;

    for (int rec = 0; rec < SNIFF_RECORDS; rec++) {
        json_error_t je;
        json_t *r, *v;
        const char *key;
        size_t len;
        i = skip_blank(p, i, n);
        if (i >= n || p[i] != '{')
            break; /* the end of the list, or of what was sniffed */
        if ((r = json_loadb(p + i, n - i, JSON_DISABLE_EOF_CHECK, &je)) == NULL)
            break; /* a record cut off where sniffing stops */
        json_object_foreach(r, key, v)
        {
            if (json_is_object(v) || json_is_array(v)) {
                json_decref(r);
                return 0; /* not flat: another format's list */
            }
            caliper |= strstr(key, "time.duration") != NULL;
        }
        caliper |= record_path(r, &len) != NULL;
        json_decref(r);
        i = skip_blank(p, i + (size_t)je.position, n);
        if (i >= n || p[i] != ',')
            break;
        i++;
    }
    return caliper;
}

int sniff_caliper_json(const struct fmt_file *files, size_t nfiles)
{
    size_t n, at;
    const char *p;

    if (nfiles != 1)
        return 0;
    n = files[0].len < 65536 ? files[0].len : 65536;
    p = files[0].data;
    at = n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0 ? 3 : 0; /* a byte-order mark */
    at = skip_blank(p, at, n);
    if (at < n && p[at] == '[')
        return record_list(p + at, n - at); /* cali-query's json */
    if (at >= n || p[at] != '{')
        return 0;
    if (imp_contains(&files[0], "\"nodes\"") && imp_contains(&files[0], "\"columns\""))
        return 1; /* json-split */
    /* json(object): {"records": [...], "globals": ..., "attributes": ...} */
    for (size_t i = at; i + 9 <= n; i++)
        if (memcmp(p + i, "\"records\"", 9) == 0) {
            size_t j = skip_blank(p, i + 9, n);
            if (j < n && p[j] == ':' && (j = skip_blank(p, j + 1, n)) < n && p[j] == '[')
                return record_list(p + j, n - j);
        }
    return 0;
}
