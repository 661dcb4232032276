/* config_order: see config_order.h. */
#include "core/config_order.h"

#include "common/xalloc.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct key {
    size_t group; /* the (executable, system) group's place */
    char *inputs; /* order-preserving text of the inputs (sort_key) */
    long long nprocs;
    size_t index; /* the element's place as given */
};

/* The 16 hex digits of v whose text order is v's numeric order: the IEEE
 * bits with the sign flipped for v >= 0, all flipped for v < 0. */
static void ordered_hex(double v, char out[17])
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    b = (b >> 63) ? ~b : b | (UINT64_C(1) << 63);
    for (int i = 15; i >= 0; i--, b >>= 4)
        out[i] = "0123456789abcdef"[b & 15];
    out[16] = '\0';
}

/* The inputs as text that sorts by name, then value: "NAME\1HEX\2..." (the
 * separators below every character of a name). NULL on memory exhaustion. */
static char *sort_key(const char *inputs_json)
{
    json_t *in = json_loads(inputs_json ? inputs_json : "{}", 0, NULL), *v;
    const char *name;
    size_t len = 1;
    char *out, *p;
    json_object_foreach(in, name, v) len += strlen(name) + 18;
    if ((out = xmalloc(len)) == NULL) {
        json_decref(in);
        return NULL;
    }
    p = out;
    json_object_foreach(in, name, v)
    {
        size_t n = strlen(name);
        memcpy(p, name, n);
        p += n;
        *p++ = '\1';
        ordered_hex(json_number_value(v), p);
        p += 16;
        *p++ = '\2';
    }
    *p = '\0';
    json_decref(in);
    return out;
}

static int cmp_key(const void *pa, const void *pb)
{
    const struct key *a = pa, *b = pb;
    int c;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if ((c = strcmp(a->inputs, b->inputs)) != 0)
        return c;
    if (a->nprocs != b->nprocs)
        return a->nprocs < b->nprocs ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index; /* stable */
}

/* The field at offset off of element el. */
#define FIELD(el, off, type) (*(const type *)((const char *)(el) + (off)))

int config_sort(void *base, size_t n, struct config_layout l, struct err *err)
{
    size_t size = l.size;
    struct key *k;
    char *copy;
    const char *pexe = NULL, *psys = NULL;
    size_t group = 0, i;
    int rc = 0;

    if (n < 2)
        return 0;
    k = xcalloc(n, sizeof *k);
    copy = xmalloc(n * size);
    if (k == NULL || copy == NULL) {
        xfree(k);
        xfree(copy);
        return err_nomem(err);
    }
    for (i = 0; i < n; i++) {
        const char *el = (const char *)base + i * size;
        const char *exe = FIELD(el, l.executable, char *),
                   *sys = FIELD(el, l.system, char *);
        const char *inputs = FIELD(el, l.inputs_json, char *);
        k[i].nprocs = FIELD(el, l.nprocs, long long);
        if (i > 0 && (strcmp(exe ? exe : "", pexe ? pexe : "") != 0 ||
                      strcmp(sys ? sys : "", psys ? psys : "") != 0))
            group++;
        pexe = exe;
        psys = sys;
        k[i].group = group;
        k[i].index = i;
        if ((k[i].inputs = sort_key(inputs)) == NULL) {
            rc = err_nomem(err);
            n = i; /* free what was made */
            goto out;
        }
    }
    qsort(k, n, sizeof *k, cmp_key);
    memcpy(copy, base, n * size);
    for (i = 0; i < n; i++)
        memcpy((char *)base + i * size, copy + k[i].index * size, size);
out:
    for (i = 0; i < n; i++)
        xfree(k[i].inputs);
    xfree(k);
    xfree(copy);
    return rc;
}

static int cmp_xv(const void *pa, const void *pb)
{
    const struct config_xv *a = pa, *b = pb;
    return a->x != b->x   ? (a->x < b->x ? -1 : 1)
           : a->v != b->v ? (a->v < b->v ? -1 : 1)
                          : 0;
}

int config_varies_with_x(struct config_xv *p, size_t n)
{
    size_t i, groups = 1;
    int dir = 0;
    double prev;
    if (n < 2)
        return 0;
    qsort(p, n, sizeof *p, cmp_xv);
    prev = p[0].v;
    for (i = 1; i < n; i++) {
        int d;
        if (p[i].x == p[i - 1].x) {
            if (p[i].v != p[i - 1].v)
                return 0; /* two values at one x */
            continue;
        }
        d = p[i].v > prev ? 1 : p[i].v < prev ? -1 : 0;
        if (d == 0 || (dir != 0 && d != dir))
            return 0; /* not one way with x */
        dir = d;
        prev = p[i].v;
        groups++;
    }
    return groups >= 2;
}
