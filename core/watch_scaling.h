/* watch_scaling: the scaling-law watch (SPEC §17; docs/history.md).
 *
 * {"application": A, "system": S, "y": Y, "detector": {"scaling": {"x":
 * "nprocs", "target": X, "baseline": "branch:B", "threshold": T}}} fits the
 * law over x of each new commit's runs (once the commit has runs at
 * LAWCHANGE_MIN_X values of x) and of the baseline's, with curve fitting's
 * `auto`, and calls the commit out when their predictions at the target
 * differ beyond both intervals and by more than the threshold
 * (models/lawchange.h). A run is fitted with the runs of its commit (or
 * baseline) of its own executable, system and inputs other than x (and
 * processor count when x is an input), so that one law never mixes two
 * problem sizes. One commit raises at most one alert per watch and curve; the
 * alert
 * keeps the target, both formulas and both predictions, refined by each
 * later run of the commit. Part of core/watch.c's judging (the
 * ingest `stored` hook); no HTTP, no SQL.
 */
#ifndef PROPHECY_CORE_WATCH_SCALING_H
#define PROPHECY_CORE_WATCH_SCALING_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/history.h"
#include "formats/record.h"

#define WATCH_SCALING "scaling" /* the watch's test, as stored */
/* The runs of one side a judgement fits at most (the newest): a baseline
 * branch measured for years is judged by its recent law, at a bounded cost. */
#define WATCH_SCALING_RUNS 2000

/* Decodes det (the value of "detector") of a scaling watch into w: x,
 * target, baseline, threshold and test, strings in a. 0, or -1 with a 422
 * naming the field ("detector.scaling.target", ...). */
int watch_scaling_decode(json_t *det, struct db_watch *w, arena *a, struct err *err);

/* Checks the rest of a scaling watch against its detector: x is not fixed
 * (nprocs, or one of the inputs) and it takes no "confirm". 0 or -1 (422). */
int watch_scaling_check(const struct db_watch *w, json_t *body, struct err *err);

/* The detector as GET /api/v1/watches shows it: {"scaling": {"x", "target",
 * "baseline", "threshold"}}. New reference or NULL. */
json_t *watch_scaling_detector(const struct db_watch *w);

/* The laws fitted lately, each under the content it was fitted to (the
 * x, y pairs and the target): the runs of one commit judged again within a
 * batch, and a baseline that did not move, are fitted once (the fits are
 * nearly all of a judgement's cost). Not thread-safe: held under the
 * caller's lock (the watch set's, core/watch.c). NULL when out of memory. */
struct watch_law_cache;
struct watch_law_cache *watch_law_cache_new(void);
void watch_law_cache_free(struct watch_law_cache *c);

/* Whether watch w judges runs a and b alike: the same commit and curve
 * (executable, system, inputs but x, and nprocs when x is an input), so
 * that within one batch (nothing else stored meanwhile) the second is
 * judged as the first. */
int watch_scaling_same(const struct db_watch *w, const struct run_record *a,
                       const struct run_record *b);

/* What a scaling judgement found, for its alert. */
struct watch_law {
    int ready;               /* the laws were compared: law holds what they say */
    struct db_alert_law law; /* strings in the arena given */
    long long alert;         /* the alert the watch raised on the commit already, or 0 */
};

/* Judges run r by scaling watch w. Returns 1 with *j (value and expected:
 * the commit's and the baseline's predictions at the target, lo..hi the
 * baseline's interval there; ready 0 while either side has too few values
 * of x) and *law; 0 when the watch does not judge the run (it has no
 * commit, or it is of the baseline commit itself); -1 with err set. When
 * the watch has alerted on the commit's curve already (law->alert), the
 * judgement
 * must raise nothing: the alert is refined with law->law instead
 * (db_alert_law), so that it tells what all the commit's runs say. cache
 * may be NULL (every side fitted). */
int watch_scaling_judge(db *d, const struct db_watch *w, const struct run_record *r,
                        struct watch_law_cache *cache, struct db_judgement *j,
                        struct watch_law *law, arena *a, struct err *err);

#endif
