/* judged: a run's judgements packed into one row of run_judgements (schema.sql
 * migration 11), and everything that reads them back, one job per file:
 * judged_store.c (storing, merging, decoding rows), judged_live.c (the
 * watches that exist), judged_fold.c (the watch counts), judged_list.c (the
 * watch list), judged_series.c (a configuration's judgements), judged_ledger.c
 * (a model's ledger), judged_alerts.c (the alerts' values), judged_migrate.c
 * (the migration that packed the rows) and judged_copy.c (copy's judgements
 * table). This header holds what they share; for db/sqlite/judged_*.c only.
 *
 * The blob's format is db/codec.c's. A deleted watch's entries stay in the
 * blobs and every reader skips ids that are not watches any more (watch ids
 * are never handed out again: watch_ids, migration 11).
 */
#ifndef PROPHECY_DB_SQLITE_JUDGED_H
#define PROPHECY_DB_SQLITE_JUDGED_H

#include "db/sqlite/sql.h"

#include <stddef.h>

/* The statements more than one file runs; constants, as the statement cache
 * is keyed by their address. A run's packed row (judged_store.c): */
extern const char SQ_JUDGED_GET[];
/* The runs after run id ?1 with their packed rows, in order (judged_fold.c): */
extern const char SQ_JUDGED_AFTER[];
/* The fold's mark, the newest run counted into watch_counts (judged_fold.c): */
extern const char SQ_JUDGED_UPTO[];

/* The watches' ids (ascending) and models (0 for a statistical watch):
 * every watch, or those of one model (judged_live.c). */
struct sq_live {
    long long *id, *model;
    size_t n;
};
void sq_live_free(struct sq_live *l);
/* Every watch (model_id 0), or the watches of model_id. */
int sq_live_load(db *d, long long model_id, struct sq_live *l, struct err *err);
/* The position of watch id in l, or -1. */
long sq_live_find(const struct sq_live *l, long long id);

/* Judged and out per watch id: open addressing, a power-of-two table
 * (judged_fold.c). Zeroed to start; its caller frees e with xfree. */
struct sq_counts {
    struct sq_count {
        long long watch, judged, out;
    } * e;
    size_t n, cap;
};
/* The counts of watch, or NULL. */
const struct sq_count *sq_counts_get(const struct sq_counts *c, long long watch);
/* The judgements of runs after run id `after`, counted per watch. */
int sq_counts_after(db *d, long long after, struct sq_counts *c, struct err *err);

#endif
