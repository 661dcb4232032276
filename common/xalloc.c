/* xalloc: allocation wrapper with fault injection for tests; see xalloc.h. */
#include "common/xalloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Fault-injection state is the only process-wide mutable state here; it is
 * touched only by tests and is atomic so that threaded code stays race-free. */
static atomic_long fail_at;
static atomic_long counter;

static int should_fail(void)
{
    long n = atomic_fetch_add(&counter, 1) + 1;
    long f = atomic_load(&fail_at);
    return f > 0 && n == f;
}

void *xmalloc(size_t n)
{
    if (should_fail())
        return NULL;
    return malloc(n ? n : 1);
}

void *xcalloc(size_t count, size_t size)
{
    if (should_fail())
        return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

void *xrealloc(void *p, size_t n)
{
    if (should_fail())
        return NULL;
    return realloc(p, n ? n : 1);
}

int xgrow(void **p, size_t *cap, size_t need, size_t size)
{
    size_t c = *cap ? *cap : 64;
    void *v;
    if (need <= *cap)
        return 0;
    while (c < need && c <= SIZE_MAX / 2)
        c *= 2;
    if (c < need || (size && c > SIZE_MAX / size) || (v = xrealloc(*p, c * size)) == NULL)
        return -1;
    *p = v;
    *cap = c;
    return 0;
}

void xfree(void *p)
{
    free(p);
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    if (d == NULL)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

void xalloc_fail_at(long nth)
{
    atomic_store(&counter, 0);
    atomic_store(&fail_at, nth);
}

long xalloc_count(void)
{
    return atomic_load(&counter);
}
