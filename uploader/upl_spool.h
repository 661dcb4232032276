/* upl_spool: the on-disk queue of documents not yet delivered.
 *
 * Each entry is one file `<dir>/<time>-<random>.json` holding an envelope
 *   {"attempts": n, "next_attempt": unix-seconds, "last_error": "...",
 *    "body": <the run or {"runs": [...]} exactly as it will be POSTed>}
 * written atomically (temporary file, fsync, rename, fsync of the directory),
 * so a crash leaves either the old or the new file, never half of one.
 * Documents the server refused go to `<dir>/rejected/` with the server's
 * status, code, message and field added; they are kept aside, not retried
 * (until the user asks with `flush --rejected`). The spool knows nothing of
 * HTTP; prophecy-upload decides what goes where.
 */
#ifndef PROPHECY_UPL_SPOOL_H
#define PROPHECY_UPL_SPOOL_H

#include "common/err.h"

#include <jansson.h>
#include <stddef.h>

typedef struct upl_spool upl_spool;

struct upl_spool_entry {
    char *path;    /* owned */
    json_t *body;  /* owned reference */
    long attempts; /* failed deliveries so far */
    double next_attempt;
};

/* Seconds to wait after `attempts` failed deliveries: 30 s doubling each
 * time, at most 6 hours. */
double upl_spool_backoff(long attempts);

/* The default directory: $PROPHECY_SPOOL, else $XDG_CACHE_HOME/prophecy/spool,
 * else $HOME/.cache/prophecy/spool, else /tmp/prophecy-spool-<uid>. Writes it
 * into out; returns 0 or -1 when it does not fit. */
int upl_spool_default_dir(char *out, size_t outsz);

/* Opens (creating with mode 0700, parents included) the spool at dir and its
 * rejected/ subdirectory. Free with upl_spool_close(). NULL with err. */
upl_spool *upl_spool_open(const char *dir, struct err *err);
void upl_spool_close(upl_spool *s);
const char *upl_spool_dir(const upl_spool *s);

/* Takes the spool's lock (flock on <dir>/.lock) without waiting. Returns 0
 * when held, 1 when another process holds it, -1 on error. Released by
 * upl_spool_close(). Only flushing needs it; adding entries never waits. */
int upl_spool_trylock(upl_spool *s);

/* Adds `body` as a new entry after one failed delivery (`reason` is kept as
 * last_error). OUT: *path_out (optional; free with xfree). Returns 0 or -1. */
int upl_spool_put(upl_spool *s, json_t *body, const char *reason, char **path_out,
                  struct err *err);

/* Puts `body` into rejected/ with the server's answer. Returns 0 or -1. */
int upl_spool_reject(upl_spool *s, json_t *body, long status, const char *code,
                     const char *message, const char *field, struct err *err);

/* Lists entries, oldest first (rejected = 1: the rejected/ ones). OUT: *out
 * (free with upl_spool_entries_free), *n. Unreadable files are skipped with a
 * warning on stderr (they stay on disk). Returns 0 or -1. */
int upl_spool_list(upl_spool *s, int rejected, struct upl_spool_entry **out, size_t *n,
                   struct err *err);
void upl_spool_entries_free(struct upl_spool_entry *v, size_t n);

/* Removes a delivered (or re-filed) entry. Returns 0 or -1. */
int upl_spool_remove(upl_spool *s, const struct upl_spool_entry *e, struct err *err);

/* Rewrites an entry after one more failed delivery: attempts + 1 and the
 * next attempt after the backoff. Returns 0 or -1. */
int upl_spool_defer(upl_spool *s, struct upl_spool_entry *e, const char *reason,
                    struct err *err);

#endif
