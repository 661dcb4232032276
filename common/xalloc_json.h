/* xalloc_json: route Jansson's allocations through xalloc.
 *
 * Jansson keeps one process-wide pair of allocation functions. Every program
 * that uses Jansson calls xalloc_json() once at start, before any JSON value
 * exists (values made with one pair must be freed with the same pair), so
 * that Jansson's allocations count in xalloc_count() and fail when a test
 * injects a failure with xalloc_fail_at(): fault injection then reaches the
 * JSON paths too. (Only programs that call it pull in Jansson: common/'s
 * other modules do not use it.)
 */
#ifndef PROPHECY_XALLOC_JSON_H
#define PROPHECY_XALLOC_JSON_H

/* Not thread-safe: call from main (or a fuzzer's initializer) before threads. */
void xalloc_json(void);

#endif
