/* xalloc: the one allocation wrapper.
 *
 * Every allocation in Prophecy's own code goes through these so that tests can
 * make the Nth allocation fail (fault injection) and check that each failure
 * path reports "out of memory" cleanly instead of crashing. They never abort:
 * a NULL return must be handled by the caller.
 */
#ifndef PROPHECY_XALLOC_H
#define PROPHECY_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
void xfree(void *p);
/* Makes the array *p (*cap elements of size bytes) hold need elements at
 * least: grown by doubling (from 64), *p and *cap updated. 0, or -1 on
 * memory exhaustion or overflow with *p and *cap unchanged. */
int xgrow(void **p, size_t *cap, size_t need, size_t size);
/* Returns a malloc'd copy of s (free with xfree), or NULL. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Testing only: make the nth allocation from now fail (1 = the next one);
 * 0 turns injection off. Thread-safe. */
void xalloc_fail_at(long nth);
/* Testing only: number of allocations since the last xalloc_fail_at(). */
long xalloc_count(void);

#endif
