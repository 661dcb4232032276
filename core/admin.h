/* admin: the store work of prophecyd's maintenance commands (prophecyd
 * token, export, backup, check, copy; docs/operations.md). server/main.c
 * parses the command line and prints; what a command opens, whether it may
 * create a store and what a check covered live here.
 */
#ifndef PROPHECY_CORE_ADMIN_H
#define PROPHECY_CORE_ADMIN_H

#include "common/err.h"
#include "db/db.h"

/* Opens the store at path (a SQLite file or a PostgreSQL URI) with full
 * durability and a 10 s busy wait; read_only for check. Only serve and
 * import create a database: with may_create 0 a SQLite file that is not
 * there is not created (a mistyped --db must not silently become a new
 * empty store). Returns 0 with *out; 1 when the file is not there (err's
 * message the system's reason, e.g. "No such file or directory"); -1 when
 * the store cannot be opened (err). */
int admin_open(const char *path, int may_create, int read_only, db **out,
               struct err *err);

/* The integrity check of the store opened (read_only) from path: 1 sound,
 * 0 damaged (*problems: one line per problem, xfree'd by the caller), -1
 * when it cannot be checked (err). *covered says what a sound answer
 * covered: every page, index and record of a SQLite file, or that the
 * PostgreSQL server answers with this prophecyd's schema. */
int admin_check(db *d, const char *path, char **problems, const char **covered,
                struct err *err);

#endif
