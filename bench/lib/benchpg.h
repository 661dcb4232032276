/* benchpg: PostgreSQL for the benchmarks (bench_ingest --db postgresql://...,
 * bench_scale_pg): scratch databases on a server, and PostgreSQL's own
 * ceiling for storing the runs bench_ingest uploads, through libpq directly
 * (a bench may speak SQL, as the SQLite ceilings use sqlite3 directly).
 */
#ifndef PROPHECY_BENCH_PG_H
#define PROPHECY_BENCH_PG_H

#include <stddef.h>

/* Creates (dropping any old one) the empty database `name` on the server of
 * the libpq URI base, UTF-8 with the C collation, and writes its URI (base
 * with the database replaced) to uri[n]. Exits with a message on failure. */
void benchpg_database(const char *base, const char *name, char *uri, size_t n);
/* The URI of database `name` on the server of base (not created). */
void benchpg_uri(const char *base, const char *name, char *uri, size_t n);
/* Drops the database `name` on the server of base (errors ignored). */
void benchpg_drop(const char *base, const char *name);

/* How the ceiling commits: one run per transaction with a round trip per
 * statement; one run per transaction with its statements pipelined (one
 * round trip); `batch` runs per transaction, pipelined. */
enum benchpg_mode { BENCHPG_TXN_PER_RUN, BENCHPG_PIPELINED, BENCHPG_BATCHED };

/* Stores n runs shaped like bench_ingest's (1 run, 3 inputs, 2 metrics, 10
 * kernels) with plain INSERTs of the same rows the server stores into the
 * database at uri (made by db_open, so the schema is prophecyd's own,
 * triggers included) and returns runs per second. Run uids start at first.
 * async: synchronous_commit off for the session (as prophecyd --sync normal
 * sets it). */
double benchpg_ceiling(const char *uri, long first, long n, enum benchpg_mode mode,
                       int batch, int async);

/* One value of the first column and row of sql on uri (0 when none). */
long long benchpg_scalar(const char *uri, const char *sql);

#endif
