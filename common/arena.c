/* arena: chained-block region allocator; see arena.h. */
#include "common/arena.h"
#include "common/xalloc.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARENA_BLOCK 8192

struct block {
    struct block *next;
    size_t used, size;
    alignas(max_align_t) unsigned char mem[];
};

struct arena {
    struct block *head;
    size_t total;
};

arena *arena_new(void)
{
    return xcalloc(1, sizeof(arena));
}

void arena_free(arena *a)
{
    struct block *b, *next;
    if (a == NULL)
        return;
    for (b = a->head; b; b = next) {
        next = b->next;
        xfree(b);
    }
    xfree(a);
}

void *arena_grow(arena *a, void *p, size_t n, size_t *cap, size_t first, size_t sz)
{
    void *q;
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : first;
    q = arena_alloc(a, *cap * sz);
    if (q != NULL && n)
        memcpy(q, p, n * sz);
    return q;
}

void *arena_alloc(arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    struct block *b = a->head;
    size_t off;
    void *p;

    if (n > SIZE_MAX / 2)
        return NULL;
    n = n ? n : 1;
    off = b ? (b->used + align - 1) & ~(align - 1) : 0;
    if (b == NULL || off + n > b->size) {
        size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        struct block *nb = xmalloc(sizeof *nb + size);
        if (nb == NULL)
            return NULL;
        nb->size = size;
        nb->used = 0;
        /* A large one-off allocation goes behind the current block so the
         * current block's free space stays usable. */
        if (b != NULL && n > ARENA_BLOCK) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
        off = 0;
    }
    p = b->mem + off;
    b->used = off + n;
    a->total += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *d = arena_alloc(a, n + 1);
    if (d == NULL)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *arena_strdup(arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *d;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    d = arena_alloc(a, (size_t)n + 1);
    if (d == NULL)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

size_t arena_used(const arena *a)
{
    return a->total;
}
