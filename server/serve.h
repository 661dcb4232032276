/* serve: `prophecyd serve` — the server lock, the writer and the read pool,
 * the example data on an empty database, the HTTP daemon, and a clean stop on
 * SIGTERM/SIGINT (in-flight requests finish, the writer commits, the
 * database closes).
 */
#ifndef PROPHECY_SERVE_H
#define PROPHECY_SERVE_H

#include "server/http.h"

/* Runs the server per cfg until SIGTERM or SIGINT. Refuses, with a message
 * on stderr, when another prophecyd serves the same database file (by any
 * name: the lock follows the file's device and inode). Returns the exit
 * status: 0 after a clean stop, 1 on failure. */
int serve_run(const struct config *cfg);

/* Raises the descriptor limit to what cfg->max_conns needs (twice the
 * connections, and the database's); a hard limit below it lowers max_conns,
 * said once on stderr. 0, or -1 when not even 64 connections fit. */
int serve_fit_fd_limit(struct config *cfg);

#endif
