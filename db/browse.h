/* browse: the small reads of the web dashboard that no other db/ module
 * answers (the forms' lists and the application page's links), each with a
 * typed result. Engine-neutral: no SQL and no backend types here; the
 * SQLite implementation is db/sqlite/browse.c.
 *
 * Reads take a connection used by one thread at a time; strings of results
 * live in the caller's arena. A read that fails (a damaged database) is an
 * error, never an empty success.
 */
#ifndef PROPHECY_DB_BROWSE_H
#define PROPHECY_DB_BROWSE_H

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"

/* Whether the latest run of some configuration of application app_id has
 * kernel records (kernel coupling needs them). Returns 1 or 0, or -1 with
 * err set. */
int db_app_has_kernels(db *d, long long app_id, struct err *err);

#endif
