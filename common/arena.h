/* arena: a region allocator for per-request memory (h2o's req->pool).
 *
 * Created when a request starts and freed when it completes; everything a
 * handler builds for one request (strings, HTML, SVG, decoded forms) lives in
 * it, so handlers never free piecemeal. Not thread-safe: one arena belongs to
 * one request, handled by one thread at a time.
 */
#ifndef PROPHECY_ARENA_H
#define PROPHECY_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct arena arena;

/* Returns a new empty arena (free with arena_free), or NULL on out of memory. */
arena *arena_new(void);
/* Frees the arena and everything allocated from it; NULL does nothing. */
void arena_free(arena *a);

/* Returns n bytes aligned for any type, zeroed, or NULL on out of memory.
 * The memory lives until arena_free(). */
void *arena_alloc(arena *a, size_t n);
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Room for one more element in the arena array p of n elements of size sz
 * and capacity *cap: p itself while n < *cap; else a new array of twice the
 * capacity (first when *cap is 0) holding p's n elements, *cap updated. NULL
 * on out of memory (p stays as it was, until arena_free). */
void *arena_grow(arena *a, void *p, size_t n, size_t *cap, size_t first, size_t sz);

/* Bytes handed out so far (for limits and tests). */
size_t arena_used(const arena *a);

#endif
