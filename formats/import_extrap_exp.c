/* import_extrap_exp: Extra-P's saved experiment (.extra-p) into runs.
 *
 * Extra-P's "Save experiment" writes a ZIP archive (read here with libzip)
 * holding experiment.json: the parameters, and per call path and metric the
 * measurements, one per point, each with the statistics Extra-P keeps
 * (mean, median, minimum, maximum, std, repetitions) and, in newer versions,
 * a reference to the raw repetitions in values/N.vals. Each point becomes one
 * run, as in the other Extra-P importers: a parameter named p, np, nprocs,
 * procs, ranks or processes is nprocs, the others are inputs; each call path
 * ("a->b") is a kernel named "a/b" whose time is the mean of the metric
 * "time" (else "runtime") made exclusive (minus the means of the call paths
 * directly inside it), with the metric `inclusive` beside it; every metric's statistics
 * are kernel metrics (NAME = its mean, NAME.median, NAME.min, NAME.max, NAME.std,
 * NAME.repetitions). The run time is the sum of the top-level call paths'
 * times. When every measurement keeps its repetitions (values/N.vals, NumPy
 * arrays located through values/N.indx), each (point, repetition) is a run
 * instead, with the values of that repetition, as Extra-P's other inputs.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "common/buf.h"
#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

#define XE_FORMAT "extrap-experiment"

/* One measurement: a (point, call path, metric) cell and its JSON object. */
struct xe_cell {
    uint32_t point, path, metric;
    uint32_t nraw; /* repetitions read from values/N.vals (0: none) */
    size_t raw;    /* where they start in xe.rawv */
    json_t *m;     /* borrowed from the document */
};

struct xe {
    const char *file;
    struct err *err;
    arena *a;
    const char *param[LIMIT_IMPORT_PARAMS];
    size_t nparam;
    double *coord; /* npoint * nparam */
    size_t npoint, cappoint;
    const char **path; /* kernel names ("/"-joined) */
    const char **raw;  /* call paths as written ("->"-joined) */
    long *parent;      /* index of the enclosing call path, or -1 */
    size_t *byname;    /* call paths sorted by raw name */
    size_t npath;
    const char **metric;
    size_t nmetric;
    long time_metric;
    struct xe_cell *cell;
    size_t ncell, capcell;
    zip_t *za;    /* the archive, open while reading */
    double *rawv; /* every repetition read */
    size_t nrawv, caprawv;
    long long chunk;            /* the values/N files loaded (-1: none) */
    unsigned char *indx, *vals; /* their bytes */
    size_t nindx, nvals;
};

static int xfail(struct xe *x, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int xfail(struct xe *x, const char *field, const char *fmt, ...)
{
    char msg[ERR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return imp_fail_field(x->err, x->file, field, "%s", msg);
}

/* ---- the ZIP ----------------------------------------------------------------- */

static int open_zip(struct xe *x, const struct fmt_file *f)
{
    zip_error_t ze;
    zip_source_t *src;

    zip_error_init(&ze);
    src = zip_source_buffer_create(f->data, f->len, 0, &ze);
    if (src == NULL)
        return err_nomem(x->err);
    x->za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
    if (x->za == NULL) {
        zip_source_free(src);
        xfail(x, "file", "not a readable ZIP archive (%s); truncated?",
              zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return -1;
    }
    return 0;
}

/* Reads member `name` whole into *out (malloc'd, NUL-terminated). Returns 0,
 * 1 when the archive has no such member, or -1 with err. */
static int read_member(struct xe *x, const char *name, char **out, size_t *len)
{
    zip_file_t *zf = NULL;
    zip_stat_t st;
    zip_int64_t idx, got = 0;
    char *buf = NULL;
    size_t n = 0;
    int rc = -1;

    if ((idx = zip_name_locate(x->za, name, 0)) < 0)
        return 1;
    zip_stat_init(&st);
    if (zip_stat_index(x->za, (zip_uint64_t)idx, 0, &st) != 0 ||
        !(st.valid & ZIP_STAT_SIZE)) {
        xfail(x, name, "%s: %s", name, zip_strerror(x->za));
        goto out;
    }
    if (st.size > LIMIT_IMPORT_DOC) {
        xfail(x, name, "%s is larger than %u bytes", name, LIMIT_IMPORT_DOC);
        goto out;
    }
    if ((zf = zip_fopen_index(x->za, (zip_uint64_t)idx, 0)) == NULL) {
        xfail(x, name, "%s cannot be read: %s", name, zip_strerror(x->za));
        goto out;
    }
    if ((buf = xmalloc((size_t)st.size + 1)) == NULL) {
        err_nomem(x->err);
        goto out;
    }
    /* read to the end (and one byte past) so that libzip checks the CRC */
    while ((got = zip_fread(zf, buf + n, (size_t)st.size + 1 - n)) > 0) {
        n += (size_t)got;
        if (n > st.size)
            break;
    }
    if (got < 0 || n != st.size) {
        xfail(x, name, "%s is damaged (%s)", name,
              got < 0 ? zip_file_strerror(zf) : "its size does not match the directory");
        goto out;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    buf = NULL;
    rc = 0;
out:
    xfree(buf);
    if (zf)
        zip_fclose(zf);
    return rc;
}

/* ---- raw repetitions (values/N.indx, values/N.vals) ------------------------------ */

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int load_chunk(struct xe *x, long long chunk)
{
    char name[64];
    int rc;

    xfree(x->indx);
    xfree(x->vals);
    x->indx = x->vals = NULL;
    x->chunk = -1;
    snprintf(name, sizeof name, "values/%lld.indx", chunk);
    if ((rc = read_member(x, name, (char **)&x->indx, &x->nindx)) != 0)
        return rc > 0 ? xfail(x, name, "the archive holds no %s", name) : -1;
    snprintf(name, sizeof name, "values/%lld.vals", chunk);
    if ((rc = read_member(x, name, (char **)&x->vals, &x->nvals)) != 0)
        return rc > 0 ? xfail(x, name, "the archive holds no %s", name) : -1;
    if (x->nindx < 24 || memcmp(x->indx, "Extra-P INDEX\0\0\0", 16) != 0 ||
        le64(x->indx + 16) != (x->nindx - 24) / 8)
        return xfail(x, name, "values/%lld.indx is not an Extra-P value index", chunk);
    if (x->nvals < 16 || memcmp(x->vals, "Extra-P VALUES\0\0", 16) != 0)
        return xfail(x, name, "values/%lld.vals is not an Extra-P value file", chunk);
    x->chunk = chunk;
    return 0;
}

/* Finds "'key':" in a NumPy header and returns what follows it, or NULL. */
static const char *npy_key(const char *h, size_t n, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl + 3 <= n; i++)
        if (h[i] == '\'' && memcmp(h + i + 1, key, kl) == 0 && h[i + 1 + kl] == '\'' &&
            h[i + 2 + kl] == ':') {
            const char *p = h + i + 3 + kl;
            while (p < h + n && *p == ' ')
                p++;
            return p;
        }
    return NULL;
}

/* Reads the NumPy array at byte `pos` of the value file (Extra-P writes
 * each measurement's repetitions with numpy.lib.format.write_array): one
 * value per repetition, a row's mean when each repetition holds several.
 * Returns 0 with *n values appended to rawv, 1 when the array is of a kind
 * not read (the statistics stand for it), -1 with err when damaged. */
static int npy_read(struct xe *x, uint64_t pos, uint32_t *n)
{
    const unsigned char *p;
    size_t left, hl, off, isz, rows = 1, cols = 1, dims = 0;
    const char *h, *d, *f, *sh;
    char kind;

    if (pos >= x->nvals || x->nvals - pos < 10)
        return xfail(x, "values", "a NumPy array of the value file is damaged");
    p = x->vals + pos;
    left = x->nvals - (size_t)pos;
    if (memcmp(p, "\x93NUMPY", 6) != 0)
        return xfail(x, "values", "a NumPy array of the value file is damaged");
    if (p[6] == 1) {
        hl = (size_t)p[8] | (size_t)p[9] << 8;
        off = 10;
    } else if (left >= 12 && (p[6] == 2 || p[6] == 3)) {
        hl = (size_t)p[8] | (size_t)p[9] << 8 | (size_t)p[10] << 16 | (size_t)p[11] << 24;
        off = 12;
    } else {
        return 1;
    }
    if (hl > left - off)
        return xfail(x, "values", "a NumPy array of the value file is truncated");
    h = (const char *)p + off;
    d = npy_key(h, hl, "descr");
    f = npy_key(h, hl, "fortran_order");
    sh = npy_key(h, hl, "shape");
    if (d == NULL || sh == NULL || *d != '\'' || d + 5 > h + hl || d[1] != '<' ||
        (d[2] != 'f' && d[2] != 'i' && d[2] != 'u') || (d[3] != '4' && d[3] != '8') ||
        d[4] != '\'' || *sh != '(')
        return 1;
    kind = d[2];
    isz = (size_t)(d[3] - '0');
    for (const char *q = sh + 1; q < h + hl && *q != ')';) {
        char *end;
        unsigned long long v;
        while (q < h + hl && (*q == ' ' || *q == ','))
            q++;
        if (q >= h + hl || *q == ')')
            break;
        if (*q < '0' || *q > '9')
            return 1;
        v = strtoull(q, &end, 10);
        if (end == q || v > LIMIT_IMPORT_VALUES)
            return 1;
        if (dims == 0)
            rows = (size_t)v;
        else
            cols *= (size_t)v;
        dims++;
        q = end;
    }
    if (dims == 0 || dims > 2 || (dims == 2 && f && strncmp(f, "True", 4) == 0))
        return 1;
    if (rows == 0 || rows > LIMIT_IMPORT_REPS)
        return xfail(x, "values", "a measurement holds %zu repetitions (1..%d)", rows,
                     LIMIT_IMPORT_REPS);
    if (cols == 0 || rows * cols > LIMIT_IMPORT_VALUES ||
        rows * cols * isz > left - off - hl)
        return xfail(x, "values", "a NumPy array of the value file is truncated");
    if (x->nrawv + rows > LIMIT_IMPORT_VALUES)
        return xfail(x, "values", "more than %d repetitions", LIMIT_IMPORT_VALUES);
    if (x->nrawv + rows > x->caprawv) {
        size_t nc = x->caprawv ? x->caprawv : 1024;
        double *nv;
        while (nc < x->nrawv + rows)
            nc *= 2;
        if ((nv = xrealloc(x->rawv, nc * sizeof *nv)) == NULL)
            return err_nomem(x->err);
        x->rawv = nv;
        x->caprawv = nc;
    }
    p += off + hl;
    for (size_t r = 0; r < rows; r++) {
        double sum = 0;
        size_t used = 0;
        for (size_t c = 0; c < cols; c++) {
            const unsigned char *e = p + (r * cols + c) * isz;
            uint64_t u = isz == 8 ? le64(e)
                                  : (uint64_t)e[0] | (uint64_t)e[1] << 8 |
                                        (uint64_t)e[2] << 16 | (uint64_t)e[3] << 24;
            double v;
            if (kind == 'f' && isz == 8)
                memcpy(&v, &u, sizeof v);
            else if (kind == 'f') {
                uint32_t w = (uint32_t)u;
                float fv;
                memcpy(&fv, &w, sizeof fv);
                v = fv;
            } else if (kind == 'i')
                v = isz == 8 ? (double)(int64_t)u : (double)(int32_t)(uint32_t)u;
            else
                v = (double)u;
            /* a masked entry of an uneven array is written as its fill value */
            if (!isfinite(v) || v == 1e20)
                continue;
            sum += v;
            used++;
        }
        if (used == 0)
            return 1;
        x->rawv[x->nrawv++] = sum / (double)used;
    }
    *n = (uint32_t)rows;
    return 0;
}

/* The repetitions a measurement's "values" ([chunk, index]) names, if any. */
static int raw_of(struct xe *x, json_t *ref, struct xe_cell *cell)
{
    json_t *jc = json_array_get(ref, 0), *ji = json_array_get(ref, 1);
    long long chunk, index;
    uint64_t count, pos;
    size_t start = x->nrawv;
    int rc;

    if (!json_is_array(ref) || json_array_size(ref) != 2 || !json_is_integer(jc) ||
        !json_is_integer(ji))
        return 0; /* none, or a form not read: the statistics stand */
    chunk = json_integer_value(jc);
    index = json_integer_value(ji);
    if (chunk < 0 || index < 0)
        return xfail(x, "values", "a measurement names values %lld/%lld", chunk, index);
    if (chunk != x->chunk && load_chunk(x, chunk) != 0)
        return -1;
    count = le64(x->indx + 16);
    if ((uint64_t)index >= count)
        return xfail(x, "values", "values/%lld.indx holds %llu arrays, not %lld", chunk,
                     (unsigned long long)count, index + 1);
    pos = le64(x->indx + 24 + 8 * (size_t)index);
    if ((rc = npy_read(x, pos, &cell->nraw)) < 0)
        return -1;
    if (rc == 0)
        cell->raw = start;
    return 0;
}

/* ---- collecting ------------------------------------------------------------------ */

static long point_of(struct xe *x, const double *c)
{
    /* points are few (Extra-P's experiments hold tens to thousands); the
     * cells of one series arrive in the same order, so look back first */
    for (size_t i = x->npoint; i-- > 0;)
        if (memcmp(x->coord + i * x->nparam, c, x->nparam * sizeof *c) == 0)
            return (long)i;
    if (x->npoint >= LIMIT_IMPORT_POINTS)
        return xfail(x, "points", "more than %d points", LIMIT_IMPORT_POINTS);
    if (x->npoint == x->cappoint) {
        size_t nc = x->cappoint ? x->cappoint * 2 : 64;
        double *p = xrealloc(x->coord, nc * (x->nparam ? x->nparam : 1) * sizeof *p);
        if (p == NULL)
            return err_nomem(x->err);
        x->coord = p;
        x->cappoint = nc;
    }
    memcpy(x->coord + x->npoint * x->nparam, c, x->nparam * sizeof *c);
    return (long)x->npoint++;
}

static long metric_of(struct xe *x, const char *name)
{
    for (size_t i = 0; i < x->nmetric; i++)
        if (strcmp(x->metric[i], name) == 0)
            return (long)i;
    return -1;
}

/* A JSON number, or Extra-P's "nan"/"inf" strings (absent). */
static int stat_of(json_t *m, const char *key, double *out)
{
    json_t *v = json_object_get(m, key);
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return isfinite(*out) ? 0 : -1;
}

static const struct xe *sorting; /* for qsort's comparator (one thread) */

static int by_raw(const void *pa, const void *pb)
{
    return strcmp(sorting->raw[*(const size_t *)pa], sorting->raw[*(const size_t *)pb]);
}

/* The call path whose raw name is s[0..len), or -1. */
static long path_find(const struct xe *x, const char *s, size_t len)
{
    size_t lo = 0, hi = x->npath;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *r = x->raw[x->byname[mid]];
        int c = strncmp(r, s, len);
        if (c == 0 && r[len] != '\0')
            c = 1;
        if (c == 0)
            return (long)x->byname[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int collect(struct xe *x, json_t *doc)
{
    json_t *params = json_object_get(doc, "parameters");
    json_t *ms = json_object_get(doc, "measurements");
    const char *pname, *mname;
    json_t *pv, *mv;
    size_t i, npath;

    if (!json_is_object(doc) || !json_is_object(ms))
        return xfail(x, "measurements", "experiment.json has no \"measurements\" object");
    if (!json_is_array(params))
        return xfail(x, "parameters", "experiment.json has no \"parameters\" list");
    if (json_array_size(params) > LIMIT_IMPORT_PARAMS)
        return xfail(x, "parameters", "more than %d parameters", LIMIT_IMPORT_PARAMS);
    json_array_foreach(params, i, pv)
    {
        const char *s = json_is_string(pv) ? json_string_value(pv)
                        : json_is_string(json_object_get(pv, "name"))
                            ? json_string_value(json_object_get(pv, "name"))
                            : NULL;
        if (s == NULL)
            return xfail(x, "parameters", "parameter %zu is not a name", i + 1);
        if ((x->param[i] = imp_name(x->a, s, strlen(s), x->file, "parameter", x->err)) ==
            NULL)
            return -1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(x->param[j], x->param[i]) == 0)
                return xfail(x, "parameters", "parameter %s is named twice", x->param[i]);
    }
    x->nparam = json_array_size(params);
    npath = json_object_size(ms);
    if (npath > LIMIT_KERNELS)
        return xfail(x, "measurements", "more than %d call paths", LIMIT_KERNELS);
    x->path = arena_alloc(x->a, (npath + 1) * sizeof *x->path);
    x->raw = arena_alloc(x->a, (npath + 1) * sizeof *x->raw);
    x->parent = arena_alloc(x->a, (npath + 1) * sizeof *x->parent);
    x->metric = arena_alloc(x->a, LIMIT_METRICS * sizeof *x->metric);
    if (x->path == NULL || x->raw == NULL || x->parent == NULL || x->metric == NULL)
        return err_nomem(x->err);
    x->time_metric = -1;
    json_object_foreach(ms, pname, pv)
    {
        size_t pi = x->npath;
        struct buf nm;
        char *name;
        if (!json_is_object(pv))
            return xfail(x, pname, "call path %.64s: metrics must be an object", pname);
        /* "a->b" is the call path b below a; kernel names join with "/" */
        buf_init(&nm, 1u << 20);
        for (const char *s = pname; *s;) {
            const char *arrow = strstr(s, "->");
            size_t n = arrow ? (size_t)(arrow - s) : strlen(s);
            if (s != pname)
                buf_putc(&nm, '/');
            buf_append(&nm, s, n);
            s += n + (arrow ? 2 : 0);
        }
        name = imp_name(x->a, buf_str(&nm), strlen(buf_str(&nm)), x->file, "call path",
                        x->err);
        buf_free(&nm);
        if (name == NULL)
            return -1;
        x->path[pi] = name;
        x->raw[pi] = pname;
        x->parent[pi] = -1;
        x->npath++;
        json_object_foreach(pv, mname, mv)
        {
            long mi = metric_of(x, mname);
            size_t k;
            json_t *one;
            if (mi < 0) {
                if (x->nmetric >= LIMIT_METRICS / 8)
                    return xfail(x, "metrics", "more than %d metrics", LIMIT_METRICS / 8);
                if ((x->metric[x->nmetric] = imp_name(x->a, mname, strlen(mname), x->file,
                                                      "metric", x->err)) == NULL)
                    return -1;
                mi = (long)x->nmetric++;
            }
            if (!json_is_array(mv))
                return xfail(x, pname, "%.64s/%.64s: the measurements must be a list",
                             pname, mname);
            json_array_foreach(mv, k, one)
            {
                json_t *co = json_object_get(one, "coordinate"), *cv;
                double c[LIMIT_IMPORT_PARAMS], mean;
                size_t j;
                long pt;
                if (!json_is_object(one) || !json_is_array(co) ||
                    json_array_size(co) != x->nparam)
                    return xfail(x, pname,
                                 "%.64s/%.64s: measurement %zu needs a coordinate of %zu "
                                 "numbers",
                                 pname, mname, k + 1, x->nparam);
                json_array_foreach(co, j, cv)
                {
                    if (!json_is_number(cv) || !isfinite(json_number_value(cv)))
                        return xfail(
                            x, pname,
                            "%.64s/%.64s: measurement %zu: coordinate %zu is not a "
                            "number",
                            pname, mname, k + 1, j + 1);
                    c[j] = json_number_value(cv);
                }
                if (stat_of(one, "mean", &mean) != 0 &&
                    stat_of(one, "median", &mean) != 0)
                    return xfail(x, pname,
                                 "%.64s/%.64s: measurement %zu has neither a mean nor a "
                                 "median",
                                 pname, mname, k + 1);
                if ((pt = point_of(x, c)) < 0)
                    return -1;
                if (x->ncell >= LIMIT_IMPORT_VALUES)
                    return xfail(x, "measurements", "more than %d measurements",
                                 LIMIT_IMPORT_VALUES);
                if (x->ncell == x->capcell) {
                    size_t nc = x->capcell ? x->capcell * 2 : 1024;
                    struct xe_cell *p = xrealloc(x->cell, nc * sizeof *p);
                    if (p == NULL)
                        return err_nomem(x->err);
                    x->cell = p;
                    x->capcell = nc;
                }
                x->cell[x->ncell] =
                    (struct xe_cell){(uint32_t)pt, (uint32_t)pi, (uint32_t)mi, 0, 0, one};
                if (raw_of(x, json_object_get(one, "values"), &x->cell[x->ncell]) != 0)
                    return -1;
                x->ncell++;
            }
        }
    }
    if (x->ncell == 0)
        return xfail(x, "measurements", "the experiment holds no measurement");
    /* the kernel time: "time", else "runtime", as the other Extra-P formats */
    if ((x->time_metric = metric_of(x, "time")) < 0)
        x->time_metric = metric_of(x, "runtime");
    /* neither (SPEC §16): runs without a runtime, their kernels carry the
     * metrics (time_metric -1 matches no value) */
    /* the parent: the longest leading part ("a" of "a->b->c" when "a->b"
     * is not measured) that is a call path of the experiment */
    if ((x->byname = xcalloc(x->npath + 1, sizeof *x->byname)) == NULL)
        return err_nomem(x->err);
    for (size_t p = 0; p < x->npath; p++)
        x->byname[p] = p;
    sorting = x;
    qsort(x->byname, x->npath, sizeof *x->byname, by_raw);
    for (size_t p = 0; p < x->npath; p++)
        for (size_t l = strlen(x->raw[p]); l > 2 && x->parent[p] < 0; l--)
            if (x->raw[p][l - 2] == '-' && x->raw[p][l - 1] == '>')
                x->parent[p] = path_find(x, x->raw[p], l - 2);
    return 0;
}

/* ---- runs ----------------------------------------------------------------------------
 */

static int by_cell(const void *pa, const void *pb)
{
    const struct xe_cell *a = pa, *b = pb;
    if (a->point != b->point)
        return a->point < b->point ? -1 : 1;
    if (a->path != b->path)
        return a->path < b->path ? -1 : 1;
    return a->metric < b->metric ? -1 : a->metric > b->metric;
}

/* A cell's value in run `rep` (-1: the point's mean, else the median). */
static int value_of(const struct xe *x, const struct xe_cell *v, long rep, double *out)
{
    if (rep >= 0) {
        if ((uint32_t)rep >= v->nraw)
            return -1;
        *out = x->rawv[v->raw + (size_t)rep];
        return 0;
    }
    return stat_of(v->m, "mean", out) == 0 || stat_of(v->m, "median", out) == 0 ? 0 : -1;
}

/* One run: the point's cells v[0..n) (sorted by call path), with their
 * statistics (rep < 0) or the values of repetition rep. */
static int emit_point(struct xe *x, struct imp_batch *b, const struct fmt_options *opt,
                      const char *app, const struct xe_cell *v, size_t n, double *tmean,
                      long rep)
{
    static const char *const stat[] = {"median", "minimum", "maximum", "std"};
    static const char *const label[] = {"median", "min", "max", "std"};
    const double *c = x->coord + (size_t)v[0].point * x->nparam;
    double *excl = tmean + x->npath + 1;
    struct run_record *r = imp_batch_slot(b, x->err);
    struct rec_kv *km;
    struct buf id;
    size_t i, nk = 0;
    int rc = -1;

    if (r == NULL)
        return -1;
    r->application = opt && opt->application ? opt->application : app;
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = 1;
    for (i = 1; i <= n; i++)
        nk += i == n || v[i].path != v[i - 1].path;
    r->inputs = arena_alloc(b->a, (x->nparam + 1) * sizeof *r->inputs);
    r->kernels = arena_alloc(b->a, nk * sizeof *r->kernels);
    km = arena_alloc(b->a, (6 * x->nmetric + 2) * sizeof *km);
    if (r->inputs == NULL || r->kernels == NULL || km == NULL)
        return err_nomem(x->err);
    buf_init(&id, 4096);
    buf_puts(&id, "point (");
    for (i = 0; i < x->nparam; i++) {
        buf_printf(&id, "%s%s=", i ? ", " : "", x->param[i]);
        buf_num(&id, c[i]);
        if (imp_is_nprocs(x->param[i])) {
            if (c[i] < 1 || c[i] > 100000000 || c[i] != (double)(long long)c[i]) {
                xfail(x, x->param[i],
                      "parameter %s is the process count and must be a positive integer",
                      x->param[i]);
                goto out;
            }
            r->nprocs = (long long)c[i];
        } else {
            r->inputs[r->ninputs].name = x->param[i];
            r->inputs[r->ninputs++].value = c[i];
        }
    }
    buf_putc(&id, ')');
    if (rep >= 0)
        buf_printf(&id, " repetition %ld", rep + 1);
    /* the time of this run's call paths, for the exclusive times */
    for (i = 0; i < n; i++)
        if (v[i].metric == (uint32_t)x->time_metric)
            value_of(x, &v[i], rep, &tmean[v[i].path]);
    for (i = 0; i < n; i++) /* excl[] = inclusive minus the children present */
        excl[v[i].path] = tmean[v[i].path];
    for (i = 0; i < n; i++) {
        long up = x->parent[v[i].path];
        if (v[i].metric == (uint32_t)x->time_metric && up >= 0 && !isnan(tmean[up]) &&
            !isnan(tmean[v[i].path]))
            excl[up] -= tmean[v[i].path];
    }
    for (i = 0; i < n;) {
        struct rec_kernel *k = &r->kernels[r->nkernels++];
        size_t j, nm = 0;
        int failed = 0;
        double t = tmean[v[i].path];
        k->name = x->path[v[i].path];
        k->calls = KERNEL_NO_CALLS; /* an experiment keeps no call counts */
        k->time = NAN;              /* no value of the time metric: no time (SPEC §16) */
        if (!isnan(t)) {
            double e = excl[v[i].path];
            k->time = e > 0 ? e : 0;
            if (x->parent[v[i].path] < 0 || isnan(tmean[x->parent[v[i].path]]))
                r->runtime += t;
            km[nm++] = (struct rec_kv){"inclusive", t};
        }
        for (j = i; j < n && v[j].path == v[i].path; j++) {
            const char *m = x->metric[v[j].metric];
            double s;
            int is_time = v[j].metric == (uint32_t)x->time_metric;
            if (!is_time && (rep >= 0 ? value_of(x, &v[j], rep, &s) == 0
                                      : stat_of(v[j].m, "mean", &s) == 0))
                km[nm++] = (struct rec_kv){m, s};
            if (rep >= 0)
                continue; /* a repetition: its values, not the point's statistics */
            for (size_t q = 0; q < 4; q++)
                if (stat_of(v[j].m, stat[q], &s) == 0) {
                    const char *nmq = arena_printf(b->a, "%s.%s", m, label[q]);
                    if (nmq == NULL)
                        goto nomem;
                    km[nm++] = (struct rec_kv){nmq, s};
                }
            if (stat_of(v[j].m, "repetitions", &s) == 0) {
                const char *nmq = arena_printf(b->a, "%s.repetitions", m);
                if (nmq == NULL)
                    goto nomem;
                km[nm++] = (struct rec_kv){nmq, s};
            }
        }
        k->metrics_json = imp_metrics_json(b->a, km, nm, &failed);
        if (failed)
            goto nomem;
        i = j;
    }
    for (i = 0; i < n; i++)
        tmean[v[i].path] = excl[v[i].path] = NAN;
    if (x->time_metric < 0)
        r->runtime = NAN;
    if (buf_failed(&id))
        goto nomem;
    rc = imp_batch_commit(b, buf_str(&id), x->err);
    goto out;
nomem:
    err_nomem(x->err);
out:
    buf_free(&id);
    return rc;
}

int import_extrap_experiment(const struct fmt_file *files, size_t nfiles,
                             const struct fmt_options *opt, const struct fmt_sink *sink,
                             struct err *err)
{
    struct xe x;
    struct imp_batch b;
    struct fmt_file doc_file;
    char *text = NULL;
    size_t len = 0, start = 0;
    json_t *doc = NULL;
    double *tmean = NULL;
    struct xe_cell *sel = NULL;
    const char *app;
    int rc = -1, all_raw = 1, got;

    if (nfiles != 1)
        return imp_fail_field(err, nfiles ? files[0].name : "input", "files",
                              "an Extra-P experiment is one .extra-p file");
    memset(&x, 0, sizeof x);
    x.file = files[0].name;
    x.err = err;
    if (imp_batch_init(&b, XE_FORMAT, x.file, sink, err) != 0 ||
        (x.a = arena_new()) == NULL) {
        err_nomem(err);
        goto out;
    }
    x.chunk = -1;
    if (open_zip(&x, &files[0]) != 0)
        goto out;
    if ((got = read_member(&x, "experiment.json", &text, &len)) != 0) {
        if (got > 0)
            xfail(&x, "experiment.json",
                  "the archive holds no experiment.json (not an Extra-P experiment?)");
        goto out;
    }
    doc_file.name = arena_printf(x.a, "%s:experiment.json", x.file);
    doc_file.data = text;
    doc_file.len = len;
    if (doc_file.name == NULL) {
        err_nomem(err);
        goto out;
    }
    if ((doc = imp_json_load(&doc_file, err)) == NULL || collect(&x, doc) != 0)
        goto out;
    qsort(x.cell, x.ncell, sizeof *x.cell, by_cell);
    if ((tmean = xmalloc(2 * (x.npath + 1) * sizeof *tmean)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < 2 * (x.npath + 1); i++)
        tmean[i] = NAN;
    app = imp_base_name(x.a, x.file);
    if (app == NULL) {
        err_nomem(err);
        goto out;
    }
    /* every measurement with its repetitions: one run per (point, repetition),
     * as Extra-P's other inputs; else one run per point with statistics */
    for (size_t i = 0; i < x.ncell; i++)
        all_raw = all_raw && x.cell[i].nraw > 0;
    if (all_raw && (sel = xcalloc(x.ncell, sizeof *sel)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 1; i <= x.ncell; i++) {
        uint32_t reps = 0;
        if (i < x.ncell && x.cell[i].point == x.cell[start].point)
            continue;
        if (!all_raw &&
            emit_point(&x, &b, opt, app, x.cell + start, i - start, tmean, -1) != 0)
            goto out;
        for (size_t j = start; all_raw && j < i; j++)
            reps = x.cell[j].nraw > reps ? x.cell[j].nraw : reps;
        for (uint32_t r = 0; all_raw && r < reps; r++) {
            size_t ns = 0;
            for (size_t j = start; j < i; j++)
                if (x.cell[j].nraw > r)
                    sel[ns++] = x.cell[j];
            if (emit_point(&x, &b, opt, app, sel, ns, tmean, (long)r) != 0)
                goto out;
        }
        start = i;
    }
    rc = imp_batch_finish(&b, err);
out:
    json_decref(doc);
    xfree(text);
    xfree(tmean);
    xfree(x.coord);
    xfree(x.cell);
    xfree(x.byname);
    xfree(x.rawv);
    xfree(x.indx);
    xfree(x.vals);
    xfree(sel);
    if (x.za)
        zip_discard(x.za);
    arena_free(x.a);
    imp_batch_free(&b);
    return rc;
}

int sniff_extrap_experiment(const struct fmt_file *files, size_t nfiles)
{
    return nfiles == 1 && files[0].len >= 30 &&
           memcmp(files[0].data, "PK\x03\x04", 4) == 0 &&
           imp_contains(&files[0], "experiment.json");
}
