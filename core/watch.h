/* watch: watches, the judgement of each stored run, the prediction ledger
 * and alerts (SPEC §11; docs/history.md).
 *
 * A watch is a saved fit model (it watches the runs of its own selection at
 * any value of its x and calls a run out when it falls outside the model's
 * 95 % prediction interval) or a statistical test of each new run against
 * the last N runs of the same configuration (models/detect.h). Every run
 * stored afterwards that a watch covers is judged by watch_judge, the ingest
 * `stored` hook, inside the transaction that stores it, so all five ingest
 * paths judge alike; every judgement is kept and one that is out raises an
 * alert. No HTTP, no SQL (db/history.h).
 */
#ifndef PROPHECY_CORE_WATCH_H
#define PROPHECY_CORE_WATCH_H

#include <jansson.h>

#include "common/err.h"
#include "core/ingest.h"
#include "db/db.h"

/* Registers watch_judge as the ingest stored hook. Call once at start-up
 * (not thread-safe, like ingest_set_hooks). */
void watch_install(void);

/* The stored hook: judges every newly stored run of the batch against the
 * watches covering it, records the judgements and raises alerts, listing
 * their ids in in->alerts. Returns 0 or -1 with err set (the batch rolls
 * back). */
int watch_judge(db *d, struct ingest *in, void *arg, struct err *err);
/* The ingest idle hook: 1 when no watch is set (watch_judge would judge
 * nothing), 0 when one is, -1 with err set. */
int watch_idle(db *d, void *arg, struct err *err);
/* The ingest idle_known hook: watch_idle's answer as of the watch set last
 * read from d's database, without reading it; -1 when none was read. */
int watch_idle_known(db *d, void *arg);

/* Checks a POST /api/v1/watches body without the store (on the pool
 * thread): 0, or -1 with an ERR_INVALID naming the field. */
int watch_check(json_t *body, struct err *err);
/* Creates the watch the body describes (inside the writer's transaction).
 * Returns 0 and *id, or -1 (ERR_NOT_FOUND for an unknown model, application, system
 * or executable; ERR_INVALID for a model that cannot watch). */
int watch_create(db *d, json_t *body, long long *id, struct err *err);
/* GET /api/v1/watches (new reference) or NULL with err set. */
json_t *watch_list(db *d, struct err *err);

/* GET /api/v1/models/{id}/ledger (new reference) or NULL (ERR_NOT_FOUND). */
json_t *watch_ledger(db *d, long long model_id, struct err *err);

#endif
