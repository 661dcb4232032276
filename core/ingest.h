/* ingest: the one path every run takes into the store.
 *
 * Runs arrive five ways — POST /api/v1/runs as JSON or CSV, the web upload
 * form, `prophecyd import`, and the demo loader — and all of them go
 * through here:
 *
 *   1. parse and validate (formats/rundoc.h) into a struct ingest, with
 *      ingest_json / ingest_csv, or ingest_records for runs a caller built
 *      itself (the upload form's run document, the demo data);
 *   2. store inside one transaction with ingest_store: every run is inserted
 *      (db/runs.h), then the stored hook judges the stored runs in the same
 *      transaction; any error (a conflicting id, a hook error) fails the
 *      whole batch and the caller rolls back. In the server ingest_job is the
 *      group-commit writer's job function (db/writer.h: the job's SAVEPOINT
 *      is the transaction); the CLI uses ingest_commit, which brackets
 *      ingest_store with db_begin/db_commit;
 *   3. after the commit is durable, ingest_committed runs the committed hook
 *      (the server calls it from the request's finish step when the job
 *      succeeded; ingest_commit calls it itself).
 *
 * Hooks (issue 14's regression detection judges each stored run in the
 * `stored` hook) are registered once at start-up, before any thread ingests.
 */
#ifndef PROPHECY_CORE_INGEST_H
#define PROPHECY_CORE_INGEST_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"
#include "db/writer.h"
#include "formats/record.h"

/* One batch of runs on its way in; everything lives in the arena given to
 * the ingest_* function that filled it. */
struct ingest {
    struct run_record *runs;
    size_t n;
    long long *ids;    /* OUT of ingest_store: the stored id of each run */
    int *existed;      /* OUT: 1 when an identical run with the same id was stored */
    size_t created;    /* OUT: runs newly stored */
    arena *arena;      /* the arena the batch lives in (for the hooks' results) */
    long long *alerts; /* OUT of the stored hook: ids of the alerts raised (arena) */
    size_t nalerts;
};

/* Hooks around the store. Either function may be NULL. */
struct ingest_hooks {
    /* Inside the transaction, after all n runs are stored (existed[i] tells
     * which were already there). Returns 0, or -1 with err set: the batch
     * fails and is rolled back. */
    int (*stored)(db *d, struct ingest *in, void *arg, struct err *err);
    /* After the commit is durable; cannot fail the batch. */
    void (*committed)(const struct ingest *in, void *arg);
    void *arg;
    /* Optional, inside the transaction, before anything is stored: 1 when
     * `stored` would do nothing for any run stored now (no watch is set),
     * 0 when it may act, -1 with err set on failure. Only then may several
     * uploads be stored as one (ingest_group): otherwise each one's runs
     * are judged before the next one's are stored, as they queued. */
    int (*idle)(db *d, void *arg, struct err *err);
    /* Optional: what idle answered when last asked on d's database, without
     * asking the store (1 or 0), or -1 when it was not asked yet. With it,
     * ingest_group stores the uploads as one first and asks idle after (on
     * PostgreSQL its read then rides in the insert's round trip); when idle
     * then says 0 (a watch was set meanwhile, through another connection),
     * the group fails, and the writer runs each upload alone. */
    int (*idle_known)(db *d, void *arg);
};

/* Registers the hooks (a copy is kept; NULL removes them). Not thread-safe:
 * call at start-up, or in a test before ingesting. */
void ingest_set_hooks(const struct ingest_hooks *h);

/* Fills in from a JSON body (one run document or {"runs": [...]}), setting
 * each run's submitter. Returns 0 or -1 with an ERR_INVALID error naming the field. */
int ingest_json(struct ingest *in, json_t *body, const char *submitter, arena *a,
                struct err *err);
/* Fills in from CSV text (formats/csv.c). Errors name line and column. */
int ingest_csv(struct ingest *in, const char *text, size_t len, const char *submitter,
               arena *a, struct err *err);
/* Fills in from n runs the caller built or parsed itself (borrowed, not
 * copied), setting each submitter unless submitter is NULL. Returns 0 or -1. */
int ingest_records(struct ingest *in, struct run_record *runs, size_t n,
                   const char *submitter, arena *a, struct err *err);

/* Stores the batch inside the caller's transaction and runs the stored
 * hook. Returns 0, or -1 with err set (ERR_CONFLICT for an id already stored with
 * other content); on -1 the caller rolls back. */
int ingest_store(db *d, struct ingest *in, struct err *err);
/* The same as a group-commit writer job: arg is a struct ingest *. */
int ingest_job(db *d, void *arg, struct err *err);
/* The writer's group function for ingest_job's jobs (db/writer.h,
 * db_job.group): the runs of jobs[0..n) stored by one db_runs_insert, each
 * job's ids, existed and created set as ingest_store would, when the stored
 * hook is idle; else 1 (each job alone), or -1 (every job failed: the writer
 * rolls back and runs each alone) when the hook turned out not idle only
 * after the runs were stored (idle_known above). */
int ingest_group(db *d, struct db_job **jobs, size_t n);
/* Runs the committed hook; call once the transaction has committed. */
void ingest_committed(const struct ingest *in);

/* For a connection of one's own (the CLI, tests): begin, store, commit,
 * then the committed hook; rolls back on any error. Returns 0 or -1. */
int ingest_commit(db *d, struct ingest *in, struct err *err);

#endif
