/* tally: an application's runs counted by segments of each page order
 * (table run_tally, schema.sql migration 17), so that the page at an offset
 * is found by summing counts instead of walking the offset (db_runs_page).
 *
 * A segment is a stretch of one order of the application's runs (db/summary.h:
 * by id; by nprocs, executable, system, id; by runtime, executable, system,
 * id), counted per executable and system:
 *   DB_TALLY_ID      k = id >> DB_TALLY_BLOCK_BITS: a block of ids;
 *   DB_TALLY_NPROCS  k = nprocs, blk = the id block, per executable and
 *                    system (the order's tie groups cut into id blocks);
 *   DB_TALLY_TIMED   k = db_tally_runtime_key(runtime): every run whose
 *                    runtime cuts to k, which are the runs with k <= runtime
 *                    < the next key in use;
 *   DB_TALLY_UNTIMED k = 0, blk = the id block, per executable and system.
 * A segment of DB_TALLY_ID or DB_TALLY_TIMED spans its rows of one k (over
 * executables and systems, which the filters pick from); the other two are
 * one row each.
 *
 * The store keeps the counts in the transaction that adds or deletes runs
 * (db_runs_insert, db_run_delete, db_app_delete); the reads need one
 * snapshot (db_select_begin) for counts and runs to agree.
 */
#ifndef PROPHECY_TALLY_H
#define PROPHECY_TALLY_H

#include <stddef.h>

#include "common/err.h"
#include "db/db.h"

#define DB_TALLY_BLOCK_BITS 12 /* 4,096 ids a block */

enum db_tally_kind { DB_TALLY_ID, DB_TALLY_NPROCS, DB_TALLY_TIMED, DB_TALLY_UNTIMED };

/* The runtime cut to 9 significant bits (256 keys an octave), never more
 * than the runtime; 0 below 2^-900. The migration's backfill computes the
 * same in SQL. */
double db_tally_runtime_key(double runtime);

/* One count of a segment row (run_tally's key and its runs). */
struct db_tally_row {
    long long app_id;
    int kind; /* enum db_tally_kind */
    double k;
    long long exe_id, system_id, blk, runs;
};

/* The three rows (one per order) run id counts in, runs 1 each; runtime
 * NAN for a run without one. */
void db_tally_rows_of(long long id, long long app_id, long long exe_id,
                      long long system_id, long long nprocs, double runtime,
                      struct db_tally_row r[3]);
/* Sorts rows[n] by key (app_id, kind, k, exe_id, system_id, blk: the order
 * they are written in, so that two writers lock shared rows in the same
 * order) and sums the runs of each key into one row; returns their number. */
size_t db_tally_sum_rows(struct db_tally_row *rows, size_t n);

/* Adds rows[n], db_tally_rows_of's rows of new runs, to the counts, summed
 * by key first (db_tally_sum_rows: rows is reordered). Inside the caller's
 * transaction. 0 or -1. SQLite's store, from what it inserted; PostgreSQL's
 * sends the same sums as arrays at the transaction's commit (db/pg/runs.c,
 * SQL_TALLY_ADD). */
int db_tally_add(db *d, struct db_tally_row *rows, size_t n, struct err *err);
/* Takes run id out of its segments (before it is deleted); 0 or -1. */
int db_tally_drop_run(db *d, long long id, struct err *err);

/* A segment: its kind and key, and the position of its first run. */
struct db_tally_seg {
    enum db_tally_kind kind;
    double k;
    long long exe_id, system_id, blk;
    long long start;
};

/* The number of runs of app_id (exe_id / system_id 0: any) in sort order
 * (enum db_sort), or -1 with err set. */
long long db_tally_count(db *d, long long app_id, long long exe_id, long long system_id,
                         int sort, struct err *err);
/* The segment holding the run at 0-based position pos of that order,
 * ascending (runs without a runtime where the engine sorts NULL). Returns
 * 1 and *seg, 0 when pos is past the last run, or -1 with err set. */
int db_tally_find(db *d, long long app_id, long long exe_id, long long system_id,
                  int sort, long long pos, struct db_tally_seg *seg, struct err *err);

#endif
