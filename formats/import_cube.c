/* import_cube: Score-P's CUBE4 profiles (.cubex) into runs.
 *
 * A .cubex file is a tar archive holding anchor.xml (the metrics, regions,
 * call tree and system tree; plain or gzip-compressed) and, per metric with
 * data, ID.index (the call-tree nodes that have values) and ID.data (one
 * value per such node and location, plain "CUBEX.DATA" or zlib-compressed
 * "ZCUBEX.DATA"). The tar is read with formats/formats.c's bounded reader,
 * the XML with expat (streamed: a gzip anchor is inflated chunk by chunk into
 * the parser), compression with zlib.
 *
 * One run per profile: nprocs is the number of process location groups,
 * `threads` (an input) the most locations of one group when above 1; each
 * call-tree node is a kernel named by its call path joined with "/"; its
 * time is the exclusive `time` (inclusive minus the children's inclusive for
 * an INCLUSIVE metric), averaged over the locations as Extra-P does, with the
 * kernel metrics `inclusive` (the largest inclusive time of a location),
 * `inclusive_mean`, `inclusive_min`, `exclusive_max` and `exclusive_min`;
 * calls is the largest visit count of a location (unknown without visits).
 * Every other metric with data is a kernel metric (exclusive, mean over the
 * locations; MINDOUBLE/MAXDOUBLE the min/max; TAU_ATOMIC its count, min, max
 * and mean; RATE the ratio of its sums). The run time is the largest
 * inclusive time of the roots on any location, so the kernels of a run sum
 * to at most it. A profile without a time metric gives kernels without a
 * time and a run without a runtime (SPEC §16), every metric kept.
 *
 * A directory of profiles laid out as Extra-P reads a scaling study
 * (NAME.p16.n1000.r1/profile.cubex: parameters between the first "." and
 * ".rN") gives one run per profile with those parameters as inputs.
 *
 * Memory: the anchor is streamed; the values of one metric are held at a
 * time (cnodes x locations doubles, at most LIMIT_IMPORT_CUBE_VALUES), read
 * in place from the archive when uncompressed.
 */
#include <ctype.h>
#include <expat.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "common/buf.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "formats/import.h"
#include "formats/limits.h"

#define CUBE_FORMAT "cube"

enum cube_kind { CK_SKIP, CK_SUM, CK_MIN, CK_MAX, CK_ATOMIC, CK_RATE };
enum cube_num { CN_F64, CN_I8, CN_U8, CN_I16, CN_U16, CN_I32, CN_U32, CN_I64, CN_U64 };

struct cube_metric {
    long long id;
    long parent; /* the metric this one is nested in, or -1 */
    char *name, *uom, *dtype;
    int inclusive;
    int kind, num;
    size_t size; /* bytes of one value */
};

struct cube_cnode {
    long long id, callee;
    int32_t parent, first_child, last_child, next_sibling;
    int32_t kernel;
};

struct cube_region {
    long long id;
    char *name;
};

struct cube_idx { /* id -> index, sorted by id */
    long long id;
    int32_t index;
};

/* Kernel-metric columns: name and per-kernel values (NAN = absent). */
struct cube_cols {
    char *name[LIMIT_METRICS];
    double *v[LIMIT_METRICS];
    size_t n;
};

enum el_kind {
    E_OTHER,
    E_CUBE,
    E_METRIC,
    E_REGION,
    E_CNODE,
    E_GROUP,
    E_LOC,
    E_T_UNIQ,
    E_T_DTYPE,
    E_T_UOM,
    E_T_RNAME,
    E_T_GTYPE
};

struct cube {
    const char *file; /* for messages */
    int loose;        /* the members are files of their own, not of an archive */
    arena *a;         /* names of this profile */
    struct err *err;
    XML_Parser xp;
    unsigned char stack[LIMIT_IMPORT_CUBE_DEPTH];
    size_t depth;
    struct buf text;
    int failed;
    /* anchor */
    char *creator, *version, *program;
    struct cube_metric *metric;
    size_t nmetric, capmetric;
    long cur_metric;
    struct cube_region *region;
    size_t nregion, capregion;
    long cur_region;
    struct cube_cnode *cnode;
    size_t ncnode, capcnode;
    int32_t cur_cnode;
    long long *loc;
    size_t nloc, caploc;
    size_t ngroups, nprocgroups, group_locs, max_threads;
    char group_type[32];
    /* derived */
    struct cube_idx *cidx, *ridx;
    int32_t *wide; /* wide enumeration position -> cnode */
    size_t nkernel;
    char **kname;
    size_t *kslot, nkslot;
    struct cube_cols cols;
    double *runtime_loc; /* per location: roots' inclusive time */
    int have_time;
    long long *calls;
};

/* ---- helpers ------------------------------------------------------------ */

static int cfail(struct cube *c, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int cfail(struct cube *c, const char *field, const char *fmt, ...)
{
    char msg[ERR_MESSAGE_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->failed = 1;
    return imp_fail_field(c->err, c->file, field, "%s", msg);
}

/* A failure in one member of the profile: "PROFILE.cubex: 1.data holds ..."
 * for an archive, "1.data: holds ..." for loose files. */
static int mfail(struct cube *c, const char *member, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int mfail(struct cube *c, const char *member, const char *fmt, ...)
{
    char msg[ERR_MESSAGE_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->failed = 1;
    if (c->loose)
        return imp_fail_field(c->err, member, member, "%s", msg);
    return imp_fail_field(c->err, c->file, member, "%s %s", member, msg);
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static const char *attr(const XML_Char **atts, const char *key)
{
    for (size_t i = 0; atts[i]; i += 2)
        if (strcasecmp(atts[i], key) == 0)
            return atts[i + 1];
    return NULL;
}

static int attr_id(const XML_Char **atts, const char *key, long long *out)
{
    const char *v = attr(atts, key);
    return v == NULL || imp_integer(v, strlen(v), out) != 0 || *out < 0 ? -1 : 0;
}

/* Sanitised arena copy of a text: blanks trimmed, control characters become
 * blanks, cut to max bytes on a character boundary. */
static char *text_copy(arena *a, const char *s, size_t len, size_t max)
{
    char *out;
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len > max)
        len = max;
    out = arena_strndup(a, s, len);
    if (out == NULL)
        return NULL;
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    utf8_cut(out);
    return out;
}

/* ---- the anchor (expat) --------------------------------------------------- */

#define afail(c, ...) mfail((c), (c)->loose ? (c)->file : "anchor.xml", __VA_ARGS__)

static void x_stop(struct cube *c)
{
    c->failed = 1;
    XML_StopParser(c->xp, XML_FALSE);
}

/* Refuses a metric or call-tree node (`what`, its id in atts) that sits in
 * another element of the one open around it (id `outer`), and stops. */
static void stray(struct cube *c, const XML_Char **atts, const char *field,
                  const char *what, long long outer)
{
    long long id = -1;
    cfail(c, field, "%s %lld sits in another element of %s %lld, not in the %s itself",
          what, attr_id(atts, "id", &id) == 0 ? id : -1, what, outer,
          strcmp(what, "metric") == 0 ? "metric" : "node");
    x_stop(c);
}

static void XMLCALL x_start(void *ud, const XML_Char *el, const XML_Char **atts)
{
    struct cube *c = ud;
    unsigned char parent = c->depth ? c->stack[c->depth - 1] : E_OTHER;
    unsigned char kind = E_OTHER;

    if (c->failed)
        return;
    if (c->depth >= LIMIT_IMPORT_CUBE_DEPTH) {
        afail(c, "nests elements more than %d deep", LIMIT_IMPORT_CUBE_DEPTH);
        x_stop(c);
        return;
    }
    if (c->depth == 0) {
        const char *v = attr(atts, "version");
        if (strcmp(el, "cube") != 0) {
            afail(c, "has the root element <%.32s>, not <cube>", el);
            x_stop(c);
            return;
        }
        if (v && (c->version = text_copy(c->a, v, strlen(v), 32)) == NULL)
            goto nomem;
        kind = E_CUBE;
    } else if (strcmp(el, "attr") == 0 && parent == E_CUBE) {
        const char *k = attr(atts, "key"), *v = attr(atts, "value");
        char **dst = NULL;
        if (k && v) {
            if (strcasecmp(k, "Creator") == 0)
                dst = &c->creator;
            else if (strcasecmp(k, "Program") == 0 ||
                     strcasecmp(k, "Program name") == 0 ||
                     strcasecmp(k, "Application") == 0 ||
                     strcasecmp(k, "Executable") == 0)
                dst = &c->program;
        }
        if (dst && (*dst = text_copy(c->a, v, strlen(v), LIMIT_NAME)) == NULL)
            goto nomem;
    } else if (strcmp(el, "metric") == 0) {
        struct cube_metric *m;
        const char *t = attr(atts, "type");
        if (c->nmetric >= LIMIT_IMPORT_CUBE_METRICS) {
            cfail(c, "metrics", "more than %d metrics", LIMIT_IMPORT_CUBE_METRICS);
            x_stop(c);
            return;
        }
        if (xgrow((void **)&c->metric, &c->capmetric, c->nmetric + 1,
                  sizeof *c->metric) != 0)
            goto nomem;
        if (c->cur_metric >= 0 && parent != E_METRIC) {
            /* sub-metrics nest directly; one inside another element of a
             * metric (its <descr>) would end with no metric to return to */
            stray(c, atts, "metrics", "metric", c->metric[c->cur_metric].id);
            return;
        }
        m = &c->metric[c->nmetric];
        memset(m, 0, sizeof *m);
        if (attr_id(atts, "id", &m->id) != 0) {
            cfail(c, "metrics", "metric %zu has no valid id", c->nmetric + 1);
            x_stop(c);
            return;
        }
        m->inclusive = t && strcasecmp(t, "INCLUSIVE") == 0;
        m->parent = parent == E_METRIC ? c->cur_metric : -1;
        c->cur_metric = (long)c->nmetric++;
        kind = E_METRIC;
    } else if (strcmp(el, "region") == 0) {
        struct cube_region *r;
        if (c->nregion >= LIMIT_IMPORT_CUBE_NODES) {
            cfail(c, "regions", "more than %d regions", LIMIT_IMPORT_CUBE_NODES);
            x_stop(c);
            return;
        }
        if (xgrow((void **)&c->region, &c->capregion, c->nregion + 1,
                  sizeof *c->region) != 0)
            goto nomem;
        r = &c->region[c->nregion];
        r->name = NULL;
        if (attr_id(atts, "id", &r->id) != 0) {
            cfail(c, "regions", "region %zu has no valid id", c->nregion + 1);
            x_stop(c);
            return;
        }
        c->cur_region = (long)c->nregion++;
        kind = E_REGION;
    } else if (strcmp(el, "cnode") == 0) {
        struct cube_cnode *n;
        int32_t me = (int32_t)c->ncnode;
        if (c->ncnode >= LIMIT_IMPORT_CUBE_NODES) {
            cfail(c, "cnodes", "more than %d call-tree nodes", LIMIT_IMPORT_CUBE_NODES);
            x_stop(c);
            return;
        }
        if (xgrow((void **)&c->cnode, &c->capcnode, c->ncnode + 1, sizeof *c->cnode) != 0)
            goto nomem;
        if (c->cur_cnode >= 0 && parent != E_CNODE) {
            /* callees nest directly, likewise */
            stray(c, atts, "cnodes", "call-tree node", c->cnode[c->cur_cnode].id);
            return;
        }
        n = &c->cnode[me];
        memset(n, 0, sizeof *n);
        if (attr_id(atts, "id", &n->id) != 0 ||
            attr_id(atts, "calleeId", &n->callee) != 0) {
            cfail(c, "cnodes", "call-tree node %zu has no valid id or calleeId",
                  c->ncnode + 1);
            x_stop(c);
            return;
        }
        n->parent = parent == E_CNODE ? c->cur_cnode : -1;
        n->first_child = n->last_child = n->next_sibling = -1;
        n->kernel = -1;
        if (n->parent >= 0) {
            struct cube_cnode *p = &c->cnode[n->parent];
            if (p->last_child >= 0)
                c->cnode[p->last_child].next_sibling = me;
            else
                p->first_child = me;
            p->last_child = me;
        }
        c->cur_cnode = me;
        c->ncnode++;
        kind = E_CNODE;
    } else if (strcmp(el, "locationgroup") == 0) {
        c->ngroups++;
        c->group_locs = 0;
        c->group_type[0] = '\0';
        kind = E_GROUP;
    } else if (strcmp(el, "location") == 0) {
        long long id;
        if (c->nloc >= LIMIT_IMPORT_CUBE_LOCATIONS) {
            cfail(c, "locations", "more than %d locations", LIMIT_IMPORT_CUBE_LOCATIONS);
            x_stop(c);
            return;
        }
        if (attr_id(atts, "id", &id) != 0) {
            cfail(c, "locations", "location %zu has no valid Id", c->nloc + 1);
            x_stop(c);
            return;
        }
        if (xgrow((void **)&c->loc, &c->caploc, c->nloc + 1, sizeof *c->loc) != 0)
            goto nomem;
        c->loc[c->nloc++] = id;
        if (parent == E_GROUP)
            c->group_locs++;
        kind = E_LOC;
    } else if (parent == E_METRIC && strcmp(el, "uniq_name") == 0) {
        kind = E_T_UNIQ;
    } else if (parent == E_METRIC && strcmp(el, "dtype") == 0) {
        kind = E_T_DTYPE;
    } else if (parent == E_METRIC && strcmp(el, "uom") == 0) {
        kind = E_T_UOM;
    } else if (parent == E_REGION && strcmp(el, "name") == 0) {
        kind = E_T_RNAME;
    } else if (parent == E_GROUP && strcmp(el, "type") == 0) {
        kind = E_T_GTYPE;
    }
    if (kind >= E_T_UNIQ)
        buf_reset(&c->text);
    c->stack[c->depth++] = kind;
    return;
nomem:
    err_nomem(c->err);
    x_stop(c);
}

static void XMLCALL x_end(void *ud, const XML_Char *el)
{
    struct cube *c = ud;
    unsigned char kind;
    const char *t;
    char **dst = NULL;
    size_t max = LIMIT_NAME;

    (void)el;
    if (c->failed || c->depth == 0)
        return;
    kind = c->stack[--c->depth];
    t = buf_str(&c->text);
    switch (kind) {
    case E_METRIC: /* metrics nest (Scalasca's time > execution > mpi ...) */
        c->cur_metric = c->metric[c->cur_metric].parent;
        break;
    case E_CNODE:
        c->cur_cnode = c->cnode[c->cur_cnode].parent;
        break;
    case E_GROUP:
        if (c->group_type[0] == '\0' || strcasecmp(c->group_type, "process") == 0)
            c->nprocgroups++;
        if (c->group_locs > c->max_threads)
            c->max_threads = c->group_locs;
        break;
    case E_T_UNIQ:
        dst = &c->metric[c->cur_metric].name;
        break;
    case E_T_DTYPE:
        dst = &c->metric[c->cur_metric].dtype;
        max = 64;
        break;
    case E_T_UOM:
        dst = &c->metric[c->cur_metric].uom;
        max = 64;
        break;
    case E_T_RNAME: /* short enough that a shortened path keeps it whole */
        dst = &c->region[c->cur_region].name;
        max = LIMIT_NAME - 72;
        break;
    case E_T_GTYPE:
        snprintf(c->group_type, sizeof c->group_type, "%s", t);
        break;
    default:
        break;
    }
    if (dst && (*dst = text_copy(c->a, t, strlen(t), max)) == NULL) {
        err_nomem(c->err);
        x_stop(c);
    }
}

static void XMLCALL x_text(void *ud, const XML_Char *s, int len)
{
    struct cube *c = ud;
    if (c->failed || c->depth == 0 || c->stack[c->depth - 1] < E_T_UNIQ)
        return;
    if (c->text.len + (size_t)len <= LIMIT_DESCRIPTION)
        buf_append(&c->text, s, (size_t)len);
}

/* A DOCTYPE may declare entities: a CUBE anchor has none, so refuse it. */
static void XMLCALL x_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                              const XML_Char *pubid, int has_internal)
{
    struct cube *c = ud;
    (void)name, (void)sysid, (void)pubid, (void)has_internal;
    afail(c, "has a DOCTYPE declaration, which a CUBE anchor has not");
    x_stop(c);
}

static int xml_feed(struct cube *c, const char *p, size_t n, int last)
{
    while (n > 0 || last) {
        int chunk = n > (1u << 20) ? 1 << 20 : (int)n;
        int fin = last && (size_t)chunk == n;
        if (XML_Parse(c->xp, p, chunk, fin) == XML_STATUS_ERROR) {
            if (c->failed && c->err && c->err->status)
                return -1;
            return afail(c, "line %lu: %s",
                         (unsigned long)XML_GetCurrentLineNumber(c->xp),
                         XML_ErrorString(XML_GetErrorCode(c->xp)));
        }
        if (c->failed)
            return -1;
        p += chunk;
        n -= (size_t)chunk;
        if (fin)
            break;
    }
    return 0;
}

/* expat allocates through xalloc (zlib too, imp_zstream), so that its
 * limits and fault injection reach it */
static void *x_malloc(size_t n)
{
    return xmalloc(n ? n : 1);
}

static void *x_realloc(void *p, size_t n)
{
    return xrealloc(p, n ? n : 1);
}

static const XML_Memory_Handling_Suite x_mem = {x_malloc, x_realloc, xfree};

static int parse_anchor(struct cube *c, const char *data, size_t len)
{
    int rc = -1;

    c->xp = XML_ParserCreate_MM("UTF-8", &x_mem, NULL);
    if (c->xp == NULL)
        return err_nomem(c->err);
    XML_SetUserData(c->xp, c);
    XML_SetElementHandler(c->xp, x_start, x_end);
    XML_SetCharacterDataHandler(c->xp, x_text);
    XML_SetStartDoctypeDeclHandler(c->xp, x_doctype);
    c->cur_metric = c->cur_region = -1;
    c->cur_cnode = -1;
    if (len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b) {
        /* gzip-compressed anchor: inflate in chunks into the parser */
        z_stream z;
        unsigned char out[1 << 16];
        unsigned long long total = 0;
        int zr = Z_OK;
        imp_zstream(&z);
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
            err_nomem(c->err);
            goto out;
        }
        z.next_in = (unsigned char *)data;
        z.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
        while (zr != Z_STREAM_END) {
            z.next_out = out;
            z.avail_out = sizeof out;
            zr = inflate(&z, Z_NO_FLUSH);
            if (zr != Z_OK && zr != Z_STREAM_END) {
                inflateEnd(&z);
                afail(c, "is damaged or truncated (gzip)");
                goto out;
            }
            total += sizeof out - z.avail_out;
            if (total > LIMIT_IMPORT_FILE) {
                inflateEnd(&z);
                afail(c, "inflates to more than %llu bytes",
                      (unsigned long long)LIMIT_IMPORT_FILE);
                goto out;
            }
            if (xml_feed(c, (const char *)out, sizeof out - z.avail_out,
                         zr == Z_STREAM_END) != 0) {
                inflateEnd(&z);
                goto out;
            }
        }
        inflateEnd(&z);
    } else if (xml_feed(c, data, len, 1) != 0) {
        goto out;
    }
    if (c->depth != 0) {
        afail(c, "ends inside an element (truncated?)");
        goto out;
    }
    rc = 0;
out:
    XML_ParserFree(c->xp);
    c->xp = NULL;
    return rc;
}

/* ---- checks and names ----------------------------------------------------- */

static int by_id(const void *pa, const void *pb)
{
    const struct cube_idx *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

static struct cube_idx *index_of(const struct cube_idx *ix, size_t n, long long id)
{
    struct cube_idx key = {id, 0};
    return bsearch(&key, ix, n, sizeof *ix, by_id);
}

static int cmp_ll(const void *pa, const void *pb)
{
    long long a = *(const long long *)pa, b = *(const long long *)pb;
    return a < b ? -1 : a > b;
}

static const struct {
    const char *name;
    int kind, num;
    size_t size;
} dtypes[] = {
    {"DOUBLE", CK_SUM, CN_F64, 8},
    {"FLOAT", CK_SUM, CN_F64, 8},
    {"MINDOUBLE", CK_MIN, CN_F64, 8},
    {"MAXDOUBLE", CK_MAX, CN_F64, 8},
    {"INT8", CK_SUM, CN_I8, 1},
    {"CHAR", CK_SUM, CN_U8, 1},
    {"UINT8", CK_SUM, CN_U8, 1},
    {"INT16", CK_SUM, CN_I16, 2},
    {"SHORT INT", CK_SUM, CN_I16, 2},
    {"SIGNED SHORT INT", CK_SUM, CN_I16, 2},
    {"UINT16", CK_SUM, CN_U16, 2},
    {"UNSIGNED SHORT INT", CK_SUM, CN_U16, 2},
    {"INT32", CK_SUM, CN_I32, 4},
    {"INT", CK_SUM, CN_I32, 4},
    {"SIGNED INT", CK_SUM, CN_I32, 4},
    {"UINT32", CK_SUM, CN_U32, 4},
    {"UNSIGNED INT", CK_SUM, CN_U32, 4},
    {"INT64", CK_SUM, CN_I64, 8},
    {"INTEGER", CK_SUM, CN_I64, 8},
    {"SIGNED INTEGER", CK_SUM, CN_I64, 8},
    {"UINT64", CK_SUM, CN_U64, 8},
    {"UNSIGNED INTEGER", CK_SUM, CN_U64, 8},
    {"TAU_ATOMIC", CK_ATOMIC, CN_F64, 36},
    {"RATE", CK_RATE, CN_F64, 16},
};

static int check_anchor(struct cube *c)
{
    if (c->nmetric == 0)
        return cfail(c, "metrics", "the anchor defines no metric");
    if (c->ncnode == 0)
        return cfail(c, "cnodes", "the anchor defines no call-tree node");
    if (c->nloc == 0)
        return cfail(c, "locations", "the anchor defines no location");
    for (size_t i = 0; i < c->nmetric; i++) {
        struct cube_metric *m = &c->metric[i];
        if (m->name == NULL || m->name[0] == '\0')
            return cfail(c, "metrics", "metric %lld has no uniq_name", m->id);
        m->kind = CK_SKIP;
        for (size_t j = 0; m->dtype && j < sizeof dtypes / sizeof dtypes[0]; j++)
            if (strcasecmp(m->dtype, dtypes[j].name) == 0) {
                m->kind = dtypes[j].kind;
                m->num = dtypes[j].num;
                m->size = dtypes[j].size;
            }
        for (size_t j = 0; j < i; j++) {
            if (c->metric[j].id == m->id)
                return cfail(c, "metrics", "metric id %lld is used twice", m->id);
            if (strcmp(c->metric[j].name, m->name) == 0)
                return cfail(c, "metrics", "metric %s is defined twice", m->name);
        }
    }
    c->ridx = xcalloc(c->nregion ? c->nregion : 1, sizeof *c->ridx);
    c->cidx = xcalloc(c->ncnode, sizeof *c->cidx);
    if (c->ridx == NULL || c->cidx == NULL)
        return err_nomem(c->err);
    for (size_t i = 0; i < c->nregion; i++) {
        if (c->region[i].name == NULL || c->region[i].name[0] == '\0')
            return cfail(c, "regions", "region %lld has no name", c->region[i].id);
        c->ridx[i] = (struct cube_idx){c->region[i].id, (int32_t)i};
    }
    qsort(c->ridx, c->nregion, sizeof *c->ridx, by_id);
    for (size_t i = 1; i < c->nregion; i++)
        if (c->ridx[i].id == c->ridx[i - 1].id)
            return cfail(c, "regions", "region id %lld is used twice", c->ridx[i].id);
    for (size_t i = 0; i < c->ncnode; i++)
        c->cidx[i] = (struct cube_idx){c->cnode[i].id, (int32_t)i};
    qsort(c->cidx, c->ncnode, sizeof *c->cidx, by_id);
    for (size_t i = 1; i < c->ncnode; i++)
        if (c->cidx[i].id == c->cidx[i - 1].id)
            return cfail(c, "cnodes", "call-tree node id %lld is used twice",
                         c->cidx[i].id);
    qsort(c->loc, c->nloc, sizeof *c->loc, cmp_ll);
    for (size_t i = 1; i < c->nloc; i++)
        if (c->loc[i] == c->loc[i - 1])
            return cfail(c, "locations", "location id %lld is used twice", c->loc[i]);
    if (c->loc[c->nloc - 1] != (long long)c->nloc - 1)
        return cfail(c, "locations", "location ids must be 0..%zu (the data's columns)",
                     c->nloc - 1);
    if ((unsigned long long)c->ncnode * c->nloc > LIMIT_IMPORT_CUBE_VALUES)
        return cfail(
            c, "cnodes",
            "%zu call-tree nodes x %zu locations is more than %d values a metric",
            c->ncnode, c->nloc, LIMIT_IMPORT_CUBE_VALUES);
    return 0;
}

/* Appends "/" + name to the parent's path; a path longer than LIMIT_NAME
 * keeps its first component (at most 64 bytes) and as many trailing ones as
 * fit after "/…/". Region names are at most LIMIT_NAME - 72 bytes. */
static char *make_path(arena *a, const char *parent, const char *name)
{
    static const char ell[] = "\xe2\x80\xa6"; /* … */
    char tmp[2 * LIMIT_NAME + 8], head[72];
    const char *rest;
    char *out;

    if (parent == NULL)
        return arena_strdup(a, name);
    if (strlen(parent) + 1 + strlen(name) <= LIMIT_NAME)
        return arena_printf(a, "%s/%s", parent, name);
    snprintf(tmp, sizeof tmp, "%s/%s", parent, name);
    rest = strchr(tmp, '/') + 1;
    snprintf(head, sizeof head, "%.*s", (int)(rest - 1 - tmp < 64 ? rest - 1 - tmp : 64),
             tmp);
    utf8_cut(head);
    /* skip a previous ellipsis, then drop leading components until it fits */
    if (strncmp(rest, ell, 3) == 0 && rest[3] == '/')
        rest += 4;
    while (strlen(head) + 5 + strlen(rest) > LIMIT_NAME && strchr(rest, '/'))
        rest = strchr(rest, '/') + 1;
    out = arena_printf(a, "%s/%s/%s", head, ell, rest);
    if (out && strlen(out) > LIMIT_NAME) {
        out[LIMIT_NAME] = '\0';
        utf8_cut(out);
    }
    return out;
}

static long kernel_get(struct cube *c, char *name)
{
    size_t h;
    if ((c->nkernel + 1) * 2 > c->nkslot) {
        size_t ns = c->nkslot ? c->nkslot * 2 : 256;
        size_t *slot = xcalloc(ns, sizeof *slot);
        if (slot == NULL)
            return err_nomem(c->err);
        for (size_t i = 0; i < c->nkernel; i++) {
            size_t k = hash_str(c->kname[i]) & (ns - 1);
            while (slot[k])
                k = (k + 1) & (ns - 1);
            slot[k] = i + 1;
        }
        xfree(c->kslot);
        c->kslot = slot;
        c->nkslot = ns;
    }
    h = hash_str(name) & (c->nkslot - 1);
    while (c->kslot[h]) {
        if (strcmp(c->kname[c->kslot[h] - 1], name) == 0)
            return (long)c->kslot[h] - 1;
        h = (h + 1) & (c->nkslot - 1);
    }
    if (c->nkernel >= LIMIT_KERNELS)
        return cfail(c, "kernels", "more than %d distinct call paths", LIMIT_KERNELS);
    c->kname[c->nkernel] = name;
    c->kslot[h] = ++c->nkernel;
    return (long)c->nkernel - 1;
}

static int name_kernels(struct cube *c)
{
    c->kname = xcalloc(LIMIT_KERNELS, sizeof *c->kname);
    if (c->kname == NULL)
        return err_nomem(c->err);
    /* cnodes are in document order: every parent before its children */
    for (size_t i = 0; i < c->ncnode; i++) {
        struct cube_cnode *n = &c->cnode[i];
        struct cube_idx *r = index_of(c->ridx, c->nregion, n->callee);
        const char *parent = n->parent >= 0 ? c->kname[c->cnode[n->parent].kernel] : NULL;
        char *path;
        long k;
        if (r == NULL)
            return cfail(c, "cnodes",
                         "call-tree node %lld calls region %lld, which is not "
                         "defined",
                         n->id, n->callee);
        path = make_path(c->a, parent, c->region[r->index].name);
        if (path == NULL)
            return err_nomem(c->err);
        if ((k = kernel_get(c, path)) < 0)
            return -1;
        n->kernel = (int32_t)k;
    }
    return 0;
}

/* ---- metric data ------------------------------------------------------------ */

static const struct fmt_file *member(const struct fmt_file *m, size_t n, const char *dir,
                                     long long id, const char *ext)
{
    char want[64];
    size_t dl = strlen(dir);
    snprintf(want, sizeof want, "%lld.%s", id, ext);
    for (size_t i = 0; i < n; i++) {
        const char *nm = m[i].name;
        if (strncmp(nm, "./", 2) == 0)
            nm += 2;
        if (strncmp(nm, dir, dl) == 0 && strcmp(nm + dl, want) == 0)
            return &m[i];
    }
    return NULL;
}

static uint32_t rd32(const unsigned char *p, int big)
{
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t rd64(const unsigned char *p, int big)
{
    uint64_t a = rd32(p, big), b = rd32(p + 4, big);
    return big ? a << 32 | b : b << 32 | a;
}

static double rdnum(const unsigned char *p, int num, int big)
{
    uint64_t u;
    double d;
    switch (num) {
    case CN_I8:
        return (double)(int8_t)p[0];
    case CN_U8:
        return (double)p[0];
    case CN_I16:
        return (double)(int16_t)(big ? p[0] << 8 | p[1] : p[1] << 8 | p[0]);
    case CN_U16:
        return (double)(uint16_t)(big ? p[0] << 8 | p[1] : p[1] << 8 | p[0]);
    case CN_I32:
        return (double)(int32_t)rd32(p, big);
    case CN_U32:
        return (double)rd32(p, big);
    case CN_I64:
        return (double)(int64_t)rd64(p, big);
    case CN_U64: /* CubeLib reads what no double holds (a counter that went
                  * below 0 and wrapped) as 0, and so does pycubexr */
        u = rd64(p, big);
        return u > 0xFFFFFFFFFFFFFBFFull ? 0 : (double)u;
    default:
        u = rd64(p, big);
        memcpy(&d, &u, sizeof d);
        return d;
    }
}

/* Reads ID.index: the cnodes with values, as cnode indices in *rows. Sets
 * *big for the byte order. */
static int read_index(struct cube *c, const struct cube_metric *m,
                      const struct fmt_file *f, int32_t **rows, size_t *nrows, int *big)
{
    const unsigned char *p = (const unsigned char *)f->data;
    uint32_t n;

    if (f->len < 22 || memcmp(p, "CUBEX.INDEX", 11) != 0)
        return mfail(c, f->name, "is not a CUBE index (no CUBEX.INDEX header)");
    if (rd32(p + 11, 0) == 1)
        *big = 0;
    else if (rd32(p + 11, 1) == 1)
        *big = 1;
    else
        return mfail(c, f->name, "has no byte-order mark");
    n = rd32(p + 18, *big);
    if (n > c->ncnode || f->len != 22 + 4 * (size_t)n)
        return mfail(c, f->name, "%u entries do not match its %zu bytes (truncated?)", n,
                     f->len);
    *rows = xcalloc(n ? n : 1, sizeof **rows);
    if (*rows == NULL)
        return err_nomem(c->err);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = rd32(p + 22 + 4 * (size_t)i, *big);
        if (t >= c->ncnode)
            return mfail(c, f->name, "names call-tree position %u of %zu", t, c->ncnode);
        /* positions count the call tree depth first (document order) for
         * exclusive metrics, "wide" for inclusive ones (as CubeLib writes) */
        (*rows)[i] = m->inclusive ? c->wide[t] : (int32_t)t;
    }
    *nrows = n;
    return 0;
}

/* CubeLib's wide enumeration of the call tree: per root, the root, then on
 * taking a node from a stack all its children at once, pushing them so
 * that the first child is taken next. */
static int wide_order(struct cube *c)
{
    int32_t *stack = xcalloc(c->ncnode, sizeof *stack);
    size_t pos = 0, top = 0;

    c->wide = xcalloc(c->ncnode, sizeof *c->wide);
    if (stack == NULL || c->wide == NULL) {
        xfree(stack);
        return err_nomem(c->err);
    }
    for (size_t r = 0; r < c->ncnode; r++) {
        if (c->cnode[r].parent >= 0)
            continue;
        c->wide[pos++] = (int32_t)r;
        stack[top++] = (int32_t)r;
        while (top > 0) {
            int32_t n = stack[--top];
            size_t first = top;
            for (int32_t ch = c->cnode[n].first_child; ch >= 0;
                 ch = c->cnode[ch].next_sibling) {
                c->wide[pos++] = ch;
                stack[top++] = ch;
            }
            /* reverse the children just pushed: the first is taken next */
            for (size_t a = first, b = top; a + 1 < b; a++, b--) {
                int32_t t = stack[a];
                stack[a] = stack[b - 1];
                stack[b - 1] = t;
            }
        }
    }
    xfree(stack);
    return 0;
}

/* The raw values of ID.data: in place when plain, inflated into *owned when
 * ZCUBEX.DATA. Exactly `want` bytes. */
static int read_data(struct cube *c, const struct fmt_file *f, size_t want, int big,
                     const unsigned char **out, unsigned char **owned)
{
    const unsigned char *p = (const unsigned char *)f->data;
    unsigned long long nseg, off;
    size_t got = 0;
    unsigned char *buf;

    *owned = NULL;
    if (f->len >= 10 && memcmp(p, "CUBEX.DATA", 10) == 0) {
        if (f->len - 10 != want)
            return mfail(c, f->name, "holds %zu bytes of values, not %zu (truncated?)",
                         f->len - 10, want);
        *out = p + 10;
        return 0;
    }
    if (f->len < 19 || memcmp(p, "ZCUBEX.DATA", 11) != 0)
        return mfail(c, f->name, "is not CUBE data (no CUBEX.DATA header)");
    nseg = rd64(p + 11, big);
    if (nseg > c->ncnode + 1 || (f->len - 19) / 24 < nseg)
        return mfail(c, f->name, "%llu compressed segments do not fit its %zu bytes",
                     nseg, f->len);
    /* zlib expands at most about 1032:1: refuse before allocating */
    if (want / 1100 > f->len)
        return mfail(c, f->name, "cannot hold %zu bytes of values", want);
    buf = xmalloc(want ? want : 1);
    if (buf == NULL)
        return err_nomem(c->err);
    off = 19 + 24 * nseg;
    for (unsigned long long s = 0; s < nseg; s++) {
        unsigned long long zs = rd64(p + 19 + 24 * s + 16, big);
        uLongf dl = (uLongf)(want - got);
        int zr;
        if (zs == 0)
            continue;
        if (zs > f->len - off) {
            xfree(buf);
            return mfail(c, f->name, "compressed segment %llu is truncated", s + 1);
        }
        zr = uncompress(buf + got, &dl, p + off, (uLong)zs);
        if (zr != Z_OK) {
            xfree(buf);
            return mfail(c, f->name, "compressed segment %llu is damaged%s", s + 1,
                         zr == Z_BUF_ERROR ? " or holds more values than announced" : "");
        }
        got += dl;
        off += zs;
    }
    if (got != want) {
        xfree(buf);
        return mfail(c, f->name, "holds %zu bytes of values, not %zu", got, want);
    }
    *out = *owned = buf;
    return 0;
}

static double *col_add(struct cube *c, const char *name)
{
    size_t i = c->cols.n;
    if (i >= LIMIT_METRICS) {
        cfail(c, "metrics", "more than %d kernel metrics", LIMIT_METRICS);
        return NULL;
    }
    c->cols.name[i] = arena_strdup(c->a, name);
    c->cols.v[i] = xmalloc(c->nkernel * sizeof(double));
    if (c->cols.name[i] == NULL || c->cols.v[i] == NULL) {
        xfree(c->cols.v[i]);
        err_nomem(c->err);
        return NULL;
    }
    for (size_t k = 0; k < c->nkernel; k++)
        c->cols.v[i][k] = NAN;
    c->cols.n++;
    return c->cols.v[i];
}

static double time_scale(const char *uom)
{
    if (uom == NULL)
        return 1;
    if (strcasecmp(uom, "ms") == 0 || strcasecmp(uom, "msec") == 0)
        return 1e-3;
    if (strcasecmp(uom, "us") == 0 || strcasecmp(uom, "usec") == 0)
        return 1e-6;
    if (strcasecmp(uom, "ns") == 0 || strcasecmp(uom, "nsec") == 0)
        return 1e-9;
    return 1;
}

/* Sums the cnode x location matrix M into kernels (K x L): M itself when
 * every cnode is its own kernel, else a new matrix in *owned. */
static double *per_kernel(struct cube *c, double *M, double **owned)
{
    size_t L = c->nloc, C = c->ncnode, K = c->nkernel;
    double *A;
    int ident = K == C;

    *owned = NULL;
    for (size_t i = 0; i < C && ident; i++)
        ident = c->cnode[i].kernel == (int32_t)i;
    if (ident)
        return M;
    if ((A = *owned = xcalloc(K * L, sizeof *A)) == NULL) {
        err_nomem(c->err);
        return NULL;
    }
    for (size_t i = 0; i < C; i++)
        for (size_t l = 0; l < L; l++)
            A[(size_t)c->cnode[i].kernel * L + l] += M[i * L + l];
    return A;
}

/* Mean, largest and smallest of each kernel's row of A (K x L). */
static void row_stats(const struct cube *c, const double *A, double *mean, double *hi,
                      double *lo)
{
    size_t L = c->nloc;
    for (size_t k = 0; k < c->nkernel; k++) {
        double s = 0, h = -INFINITY, w = INFINITY;
        for (size_t l = 0; l < L; l++) {
            double v = A[k * L + l];
            s += v;
            h = v > h ? v : h;
            w = v < w ? v : w;
        }
        mean[k] = s / (double)L;
        if (hi)
            hi[k] = h;
        if (lo)
            lo[k] = w;
    }
}

/* An additive metric: cnode x location matrix, made exclusive, summed per
 * kernel, the mean over the locations kept. For time also the largest and
 * smallest exclusive time, the inclusive time (largest, mean, smallest over
 * the locations) and the run time; for visits the calls. */
static int metric_sum(struct cube *c, const struct cube_metric *m, const int32_t *rows,
                      size_t nrows, const unsigned char *raw, int big)
{
    size_t L = c->nloc, C = c->ncnode, K = c->nkernel;
    int is_time = strcmp(m->name, "time") == 0,
        is_visits = strcmp(m->name, "visits") == 0;
    double scale = is_time ? time_scale(m->uom) : 1;
    double *M = xcalloc(C * L, sizeof *M), *I = NULL, *A, *AI, *ownA = NULL, *ownI = NULL;
    double *mean, *hi = NULL, *lo = NULL;
    int rc = -1;

    if (M == NULL)
        return err_nomem(c->err);
    for (size_t i = 0; i < nrows; i++)
        for (size_t l = 0; l < L; l++) {
            double v = rdnum(raw + (i * L + l) * m->size, m->num, big) * scale;
            M[(size_t)rows[i] * L + l] += isfinite(v) ? v : 0;
        }
    if (is_time) {
        /* the inclusive matrix: as stored, or the subtree sums (children
         * come after their parent, so a backward pass adds them up) */
        if ((I = xmalloc(C * L * sizeof *I)) == NULL ||
            (c->runtime_loc = xcalloc(L, sizeof *c->runtime_loc)) == NULL) {
            err_nomem(c->err);
            goto out;
        }
        memcpy(I, M, C * L * sizeof *I);
        if (!m->inclusive)
            for (size_t i = C; i-- > 0;)
                if (c->cnode[i].parent >= 0)
                    for (size_t l = 0; l < L; l++)
                        I[(size_t)c->cnode[i].parent * L + l] += I[i * L + l];
        for (size_t i = 0; i < C; i++)
            if (c->cnode[i].parent < 0)
                for (size_t l = 0; l < L; l++)
                    c->runtime_loc[l] += I[i * L + l];
        c->have_time = 1;
    }
    if (m->inclusive) /* pre-order: children still hold their inclusive values */
        for (size_t i = 0; i < C; i++)
            for (int32_t ch = c->cnode[i].first_child; ch >= 0;
                 ch = c->cnode[ch].next_sibling)
                for (size_t l = 0; l < L; l++)
                    M[i * L + l] -= M[(size_t)ch * L + l];
    if ((A = per_kernel(c, M, &ownA)) == NULL || (mean = col_add(c, m->name)) == NULL)
        goto out;
    if (is_time) {
        double *imean, *ihi, *ilo;
        if ((AI = per_kernel(c, I, &ownI)) == NULL ||
            (ihi = col_add(c, "inclusive")) == NULL ||
            (imean = col_add(c, "inclusive_mean")) == NULL ||
            (ilo = col_add(c, "inclusive_min")) == NULL ||
            (hi = col_add(c, "exclusive_max")) == NULL ||
            (lo = col_add(c, "exclusive_min")) == NULL)
            goto out;
        row_stats(c, AI, imean, ihi, ilo);
    } else if (is_visits) {
        if ((hi = xcalloc(K, sizeof *hi)) == NULL) {
            err_nomem(c->err);
            goto out;
        }
    }
    row_stats(c, A, mean, hi, lo);
    for (size_t k = 0; k < K; k++) {
        if (is_time) {
            /* exclusive = inclusive - children: rounding may leave -1e-17 */
            mean[k] = mean[k] > 0 ? mean[k] : 0;
            hi[k] = hi[k] > 0 ? hi[k] : 0;
            lo[k] = lo[k] > 0 ? lo[k] : 0;
        } else if (is_visits) {
            c->calls[k] = hi[k] >= 0 && hi[k] < 9e18 ? (long long)hi[k] : 0;
        }
    }
    rc = 0;
out:
    if (is_visits)
        xfree(hi);
    xfree(ownA);
    xfree(ownI);
    xfree(M);
    xfree(I);
    return rc;
}

/* MINDOUBLE / MAXDOUBLE, TAU_ATOMIC, RATE: no call-tree arithmetic. */
static int metric_other(struct cube *c, const struct cube_metric *m, const int32_t *rows,
                        size_t nrows, const unsigned char *raw, int big)
{
    size_t L = c->nloc, K = c->nkernel;
    double *v0, *v1 = NULL, *v2 = NULL, *v3 = NULL;
    char nm[LIMIT_NAME + 16];

    if (m->kind == CK_MIN || m->kind == CK_MAX || m->kind == CK_RATE) {
        double *den = NULL;
        if ((v0 = col_add(c, m->name)) == NULL)
            return -1;
        if (m->kind == CK_RATE && (den = xcalloc(K, sizeof *den)) == NULL)
            return err_nomem(c->err);
        for (size_t i = 0; i < nrows; i++) {
            size_t k = (size_t)c->cnode[rows[i]].kernel;
            for (size_t l = 0; l < L; l++) {
                const unsigned char *p = raw + (i * L + l) * m->size;
                double v = rdnum(p, CN_F64, big);
                if (!isfinite(v))
                    continue;
                if (m->kind == CK_RATE) {
                    double t = rdnum(p + 8, CN_F64, big);
                    v0[k] = isnan(v0[k]) ? v : v0[k] + v;
                    den[k] += isfinite(t) ? t : 0;
                } else if (isnan(v0[k]) || (m->kind == CK_MIN ? v < v0[k] : v > v0[k])) {
                    v0[k] = v;
                }
            }
        }
        if (den)
            for (size_t k = 0; k < K; k++)
                v0[k] = den[k] != 0 && !isnan(v0[k]) ? v0[k] / den[k] : NAN;
        xfree(den);
        return 0;
    }
    /* TAU_ATOMIC: count (uint32), min, max, sum, sum of squares */
    snprintf(nm, sizeof nm, "%s.count", m->name);
    if ((v0 = col_add(c, nm)) == NULL)
        return -1;
    snprintf(nm, sizeof nm, "%s.min", m->name);
    if ((v1 = col_add(c, nm)) == NULL)
        return -1;
    snprintf(nm, sizeof nm, "%s.max", m->name);
    if ((v2 = col_add(c, nm)) == NULL)
        return -1;
    snprintf(nm, sizeof nm, "%s.mean", m->name);
    if ((v3 = col_add(c, nm)) == NULL)
        return -1;
    for (size_t i = 0; i < nrows; i++) {
        size_t k = (size_t)c->cnode[rows[i]].kernel;
        for (size_t l = 0; l < L; l++) {
            const unsigned char *p = raw + (i * L + l) * m->size;
            double n = rd32(p, big), lo = rdnum(p + 4, CN_F64, big),
                   hi = rdnum(p + 12, CN_F64, big), s = rdnum(p + 20, CN_F64, big);
            if (n == 0 || !isfinite(lo) || !isfinite(hi) || !isfinite(s))
                continue;
            v0[k] = isnan(v0[k]) ? n : v0[k] + n;
            v1[k] = isnan(v1[k]) || lo < v1[k] ? lo : v1[k];
            v2[k] = isnan(v2[k]) || hi > v2[k] ? hi : v2[k];
            v3[k] = isnan(v3[k]) ? s : v3[k] + s; /* the sum until divided */
        }
    }
    for (size_t k = 0; k < K; k++)
        if (!isnan(v3[k]))
            v3[k] /= v0[k];
    return 0;
}

static int read_metrics(struct cube *c, const struct fmt_file *mem, size_t nmem,
                        const char *dir)
{
    size_t with_data = 0;
    /* time first: its columns lead the kernel metrics */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < c->nmetric; i++) {
            const struct cube_metric *m = &c->metric[i];
            const struct fmt_file *fi, *fd;
            int32_t *rows = NULL;
            size_t nrows = 0;
            int big = 0, rc;
            const unsigned char *raw = NULL;
            unsigned char *owned = NULL;
            if ((strcmp(m->name, "time") == 0) != (pass == 0) || m->kind == CK_SKIP)
                continue;
            fi = member(mem, nmem, dir, m->id, "index");
            fd = member(mem, nmem, dir, m->id, "data");
            if (fi == NULL && fd == NULL)
                continue; /* a metric without data (derived, or never measured) */
            if (fi == NULL || fd == NULL)
                return cfail(c, "metrics", "metric %s has a .%s file but no .%s file",
                             m->name, fi ? "index" : "data", fi ? "data" : "index");
            if (read_index(c, m, fi, &rows, &nrows, &big) != 0 ||
                read_data(c, fd, nrows * c->nloc * m->size, big, &raw, &owned) != 0) {
                xfree(rows);
                return -1;
            }
            rc = m->kind == CK_SUM ? metric_sum(c, m, rows, nrows, raw, big)
                                   : metric_other(c, m, rows, nrows, raw, big);
            xfree(rows);
            xfree(owned);
            if (rc != 0)
                return -1;
            with_data++;
        }
    /* the anchor alone (its .index/.data files lost): no measurement at all */
    if (with_data == 0)
        return cfail(c, "metrics",
                     "no metric has data: the profile holds none of its metrics' .index "
                     "and .data files");
    return 0;
}

/* ---- a profile into a run ---------------------------------------------------- */

struct cube_unit {
    const char *name;   /* for messages: the .cubex file, or the anchor's */
    const char *rundir; /* the directory naming the run ("" when none) */
    const char *base;   /* the file's base name, for the application */
    const struct fmt_file *members;
    size_t nmembers;
    const char *dir; /* prefix of the members' names */
    int loose;       /* members are files of their own (a directory, a tar body) */
};

/* Extra-P's directory names: PREFIX.NAMEvalueNAMEvalue...[.rN]; returns the
 * number of parameters put into names/values (0 when the name holds none). */
static size_t dir_params(const char *d, arena *a, char **names, double *values,
                         size_t max, char **prefix)
{
    const char *dot = strchr(d, '.'), *end, *p;
    size_t n = 0;

    *prefix = NULL;
    if (dot == NULL || dot == d)
        return 0;
    end = d + strlen(d);
    for (p = dot; (p = strstr(p, ".r")) != NULL; p++) {
        const char *q = p + 2;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q > p + 2 && *q == '\0') {
            end = p;
            break;
        }
    }
    p = dot + 1;
    while (p < end) {
        const char *ns = p, *vs;
        char num[64];
        size_t vl;
        double v;
        while (p < end && !((*p >= '0' && *p <= '9') || *p == '.' || *p == ','))
            p++;
        if (p == ns || p == end)
            return 0;
        vs = p;
        while (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == ','))
            p++;
        vl = (size_t)(p - vs);
        if (vl >= sizeof num || n >= max)
            return 0;
        for (size_t i = 0; i < vl; i++)
            num[i] = vs[i] == ',' ? '.' : vs[i];
        while (vl > 0 && num[vl - 1] == '.')
            vl--;
        if (imp_number(num, vl, &v) != 0)
            return 0;
        names[n] = arena_strndup(a, ns, (size_t)(vs - ns));
        if (names[n] == NULL ||
            imp_name(a, names[n], strlen(names[n]), NULL, "p", NULL) == NULL)
            return 0;
        values[n++] = v;
    }
    *prefix = arena_strndup(a, d, (size_t)(dot - d));
    return n;
}

static void cube_free(struct cube *c)
{
    if (c->xp)
        XML_ParserFree(c->xp);
    buf_free(&c->text);
    arena_free(c->a);
    xfree(c->metric);
    xfree(c->region);
    xfree(c->cnode);
    xfree(c->loc);
    xfree(c->cidx);
    xfree(c->ridx);
    xfree(c->kname);
    xfree(c->kslot);
    xfree(c->wide);
    for (size_t i = 0; i < c->cols.n; i++)
        xfree(c->cols.v[i]);
    xfree(c->runtime_loc);
    xfree(c->calls);
}

static int unit_run(const struct cube_unit *u, const struct fmt_options *opt,
                    struct imp_batch *b, struct err *err)
{
    struct cube c;
    const struct fmt_file *anchor = NULL;
    struct run_record *r;
    char *pname[LIMIT_IMPORT_PARAMS], *prefix = NULL;
    double pval[LIMIT_IMPORT_PARAMS];
    size_t np = 0, dl = strlen(u->dir);
    struct rec_kv *km = NULL;
    const char *app;
    char *identity;
    int rc = -1;

    memset(&c, 0, sizeof c);
    c.file = u->name;
    c.err = err;
    buf_init(&c.text, LIMIT_DESCRIPTION + 1);
    if ((c.a = arena_new()) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < u->nmembers; i++) {
        const char *nm = u->members[i].name;
        if (strncmp(nm, "./", 2) == 0)
            nm += 2;
        if (strncmp(nm, u->dir, dl) == 0 && strcmp(nm + dl, "anchor.xml") == 0)
            anchor = &u->members[i];
    }
    c.loose = u->loose;
    if (anchor == NULL) {
        cfail(&c, "anchor.xml", "%s holds no anchor.xml (not a CUBE4 profile?)", u->name);
        goto out;
    }
    if (parse_anchor(&c, anchor->data, anchor->len) != 0 || check_anchor(&c) != 0 ||
        name_kernels(&c) != 0 || wide_order(&c) != 0)
        goto out;
    if ((c.calls = xcalloc(c.nkernel, sizeof *c.calls)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t k = 0; k < c.nkernel; k++)
        c.calls[k] = KERNEL_NO_CALLS; /* until the visits metric counts them */
    if (read_metrics(&c, u->members, u->nmembers, u->dir) != 0)
        goto out;

    np = u->rundir[0]
             ? dir_params(u->rundir, c.a, pname, pval, LIMIT_IMPORT_PARAMS, &prefix)
             : 0;
    if ((r = imp_batch_slot(b, err)) == NULL)
        goto out;
    /* Score-P names every profile profile.cubex: its directory names it */
    app = opt && opt->application                           ? opt->application
          : c.program                                       ? c.program
          : prefix && np                                    ? prefix
          : strcmp(u->base, "profile") == 0 && u->rundir[0] ? u->rundir
                                                            : u->base;
    r->application = arena_strdup(b->a, app);
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = (long long)(c.nprocgroups ? c.nprocgroups : c.ngroups ? c.ngroups : 1);
    /* no metric named time with data (SPEC §16): the run has no runtime,
     * its kernels carry the metrics (every column) */
    r->runtime = c.have_time ? 0 : NAN;
    for (size_t l = 0; c.have_time && l < c.nloc; l++)
        if (c.runtime_loc[l] > r->runtime)
            r->runtime = c.runtime_loc[l];
    r->inputs = arena_alloc(b->a, (np + 1) * sizeof *r->inputs);
    r->kernels = arena_alloc(b->a, c.nkernel * sizeof *r->kernels);
    r->tags = arena_alloc(b->a, 2 * sizeof *r->tags);
    km = xcalloc(c.cols.n + 1, sizeof *km);
    if (r->application == NULL || r->inputs == NULL || r->kernels == NULL ||
        r->tags == NULL || km == NULL) {
        err_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < np; i++) {
        if (imp_is_nprocs(pname[i]) && pval[i] == (double)r->nprocs)
            continue;
        r->inputs[r->ninputs].name = arena_strdup(b->a, pname[i]);
        r->inputs[r->ninputs++].value = pval[i];
    }
    if (c.max_threads > 1 && r->ninputs < LIMIT_IMPORT_PARAMS) {
        r->inputs[r->ninputs].name = "threads";
        r->inputs[r->ninputs++].value = (double)c.max_threads;
    }
    if (c.creator) {
        r->tags[r->ntags].key = "creator";
        r->tags[r->ntags++].value = arena_strdup(b->a, c.creator);
    }
    if (c.version) {
        r->tags[r->ntags].key = "cube_version";
        r->tags[r->ntags++].value = arena_strdup(b->a, c.version);
    }
    for (size_t k = 0; k < c.nkernel; k++) {
        struct rec_kernel *kr = &r->kernels[r->nkernels++];
        size_t nm = 0;
        int failed = 0;
        kr->name = arena_strdup(b->a, c.kname[k]);
        kr->calls = c.calls[k];
        /* the time column is the first; without one the kernel has no time */
        kr->time = c.have_time ? c.cols.v[0][k] : NAN;
        for (size_t j = c.have_time ? 1 : 0; j < c.cols.n; j++)
            if (isfinite(c.cols.v[j][k]))
                km[nm++] = (struct rec_kv){c.cols.name[j], c.cols.v[j][k]};
        kr->metrics_json = imp_metrics_json(b->a, km, nm, &failed);
        if (kr->name == NULL || failed) {
            err_nomem(err);
            goto out;
        }
    }
    /* the run's directory tells runs apart where it names them (Score-P's
     * profile.cubex, parameters in its name); a file of its own name is
     * itself, wherever it lies: the same file from a directory and uploaded
     * alone is one run */
    identity = arena_printf(b->a, "profile %s",
                            (strcmp(u->base, "profile") == 0 || np > 0) && u->rundir[0]
                                ? u->rundir
                                : u->base);
    if (identity == NULL) {
        err_nomem(err);
        goto out;
    }
    rc = imp_batch_commit(b, identity, err);
out:
    xfree(km);
    cube_free(&c);
    return rc;
}

/* ---- finding the profiles ----------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int looks_tar(const struct fmt_file *f)
{
    return f->len >= 512 && memcmp(f->data + 257, "ustar", 5) == 0;
}

/* The last directory component before the file name ("" when none). */
static const char *parent_dir(arena *a, const char *path)
{
    const char *slash = strrchr(path, '/'), *start;
    if (slash == NULL)
        return "";
    start = slash;
    while (start > path && start[-1] != '/')
        start--;
    return arena_strndup(a, start, (size_t)(slash - start));
}

static int by_name(const void *pa, const void *pb)
{
    const struct fmt_file *a = pa, *b = pb;
    return strcmp(a->name, b->name);
}

int import_cube(const struct fmt_file *files, size_t nfiles,
                const struct fmt_options *opt, const struct fmt_sink *sink,
                struct err *err)
{
    struct imp_batch b;
    arena *a = arena_new();
    struct fmt_file *sorted = NULL;
    size_t nunits = 0;
    int rc = -1;

    if (imp_batch_init(&b, CUBE_FORMAT, nfiles ? files[0].name : "input", sink, err) !=
            0 ||
        a == NULL || (sorted = xcalloc(nfiles ? nfiles : 1, sizeof *sorted)) == NULL) {
        err_nomem(err);
        goto out;
    }
    memcpy(sorted, files, nfiles * sizeof *files);
    qsort(sorted, nfiles, sizeof *sorted, by_name);
    for (size_t i = 0; i < nfiles; i++) {
        const struct fmt_file *f = &sorted[i];
        struct cube_unit u = {0};
        const char *slash;
        if (ends_with(f->name, ".cubex") || (nfiles == 1 && looks_tar(f))) {
            struct fmt_file *mem;
            size_t nmem;
            struct err inner = {0};
            if (f->len >= 2 && (unsigned char)f->data[0] == 0x1f &&
                (unsigned char)f->data[1] == 0x8b) {
                imp_fail_field(err, f->name, "tar",
                               "the archive is gzip-compressed: gunzip it (a .cubex is a "
                               "plain tar archive)");
                goto out;
            }
            if (fmt_tar_read_lax(f->data, f->len, a, &mem, &nmem, &inner) != 0) {
                imp_fail_field(err, f->name, "tar", "not a CUBE4 archive (%s)",
                               inner.message);
                goto out;
            }
            u = (struct cube_unit){
                f->name, parent_dir(a, f->name), imp_base_name(a, f->name), mem, nmem, "",
                0};
        } else if (strcmp(f->name, "anchor.xml") == 0 ||
                   ends_with(f->name, "/anchor.xml")) {
            slash = strrchr(f->name, '/');
            u.name = f->name;
            u.dir = slash ? arena_strndup(a, f->name, (size_t)(slash - f->name + 1)) : "";
            u.rundir = slash ? parent_dir(a, f->name) : "";
            u.base = u.rundir[0] ? u.rundir : "profile";
            u.members = sorted;
            u.nmembers = nfiles;
            u.loose = 1;
            if (strncmp(u.dir, "./", 2) == 0)
                u.dir += 2;
        } else {
            continue; /* job scripts, scorep.cfg, remapping.spec, ... */
        }
        if (u.rundir == NULL || u.base == NULL || u.dir == NULL) {
            err_nomem(err);
            goto out;
        }
        b.file = u.name;
        if (unit_run(&u, opt, &b, err) != 0)
            goto out;
        nunits++;
    }
    if (nunits == 0) {
        imp_fail_field(
            err, nfiles ? files[0].name : "input", "files",
            "no CUBE4 profile (a .cubex file, or anchor.xml with its .index and "
            ".data files)");
        goto out;
    }
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    xfree(sorted);
    arena_free(a);
    return rc;
}

int fmt_whole_archive(const char *filename)
{
    return filename != NULL && ends_with(filename, ".cubex");
}

/* ---- sniffing ------------------------------------------------------------------ */

static int anchor_looks(const struct fmt_file *f)
{
    if (f->len >= 2 && (unsigned char)f->data[0] == 0x1f &&
        (unsigned char)f->data[1] == 0x8b)
        return 1;
    return imp_starts_with(f, "<?xml") && imp_contains(f, "<cube");
}

int sniff_cube(const struct fmt_file *files, size_t nfiles)
{
    for (size_t i = 0; i < nfiles; i++) {
        const struct fmt_file *f = &files[i];
        if (ends_with(f->name, ".cubex") &&
            (looks_tar(f) || (f->len >= 2 && (unsigned char)f->data[0] == 0x1f)))
            return 1;
        if ((strcmp(f->name, "anchor.xml") == 0 || ends_with(f->name, "/anchor.xml")) &&
            anchor_looks(f))
            return 1;
    }
    if (nfiles == 1 && looks_tar(&files[0])) {
        /* a .cubex under another name: a tar whose members are a profile */
        arena *a = arena_new();
        struct fmt_file *mem;
        size_t nmem;
        int yes = 0;
        if (a && fmt_tar_read_lax(files[0].data, files[0].len, a, &mem, &nmem, NULL) == 0)
            for (size_t i = 0; i < nmem && !yes; i++)
                yes = (strcmp(mem[i].name, "anchor.xml") == 0 ||
                       strcmp(mem[i].name, "./anchor.xml") == 0) &&
                      anchor_looks(&mem[i]);
        arena_free(a);
        return yes;
    }
    return 0;
}
