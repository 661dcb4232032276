/* pool: a fixed set of read connections shared by the server's threads.
 *
 * WAL lets readers run beside the single writer; each reader connection keeps
 * its own prepared statements. db_pool_get blocks until one is free.
 */
#ifndef PROPHECY_POOL_H
#define PROPHECY_POOL_H

#include "db/db.h"

typedef struct db_pool db_pool;

/* Opens n read-only connections to path. Returns 0 or -1 with err set. */
int db_pool_open(db_pool **out, const char *path, int n, struct err *err);
/* Closes all connections; every connection must have been returned. */
void db_pool_close(db_pool *p);
/* Borrows a connection (waits if all are in use). Never NULL. */
db *db_pool_get(db_pool *p);
/* Returns a borrowed connection. */
void db_pool_put(db_pool *p, db *d);

#endif
