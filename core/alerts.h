/* alerts: the alerts watches raise and their groups, as the API and the
 * pages show and triage them (SPEC §11, §17). Judging, which raises them,
 * is core/watch.c; this module reads, pages and triages what was raised.
 * No HTTP here: errors are struct err records.
 */
#ifndef PROPHECY_CORE_ALERTS_H
#define PROPHECY_CORE_ALERTS_H

#include <jansson.h>
#include <stddef.h>

#include "common/buf.h"
#include "common/err.h"
#include "db/db.h"

/* Alerts by state (NULL any; else one of the four, 400 otherwise) or one
 * id (> 0), as the API shows them; new reference or NULL. */
json_t *alert_list(db *d, const char *state, long long id, struct err *err);
/* GET /api/v1/alerts: the page f selects (state checked, 400; limit 1 to
 * LIMIT_ALERTS_PAGE, 400) as {"alerts": [...], "next": id or null}, where
 * next is the `before` of the following page. New reference or NULL. */
struct db_alert_filter;
json_t *alert_page(db *d, const struct db_alert_filter *f, struct err *err);
/* The alerts of ids[0..n) (one batch's, core/ingest.h), in the order the
 * batch raised them, read with one query. New reference or NULL. */
json_t *alert_batch(db *d, const long long *ids, size_t n, struct err *err);
/* GET /api/v1/alert-groups (SPEC §17): the groups holding an alert in state
 * (NULL any; else checked, 400), newest first, at most LIMIT_ALERT_GROUPS:
 * {"groups": [{"id", "commit", "alerts": [ids in that state],
 * "configurations": N, "worst_ratio": R}]}, where a group is the alerts one
 * commit raised and worst_ratio the ratio (value over expected) farthest
 * from 1. New reference or NULL. PATCH .../{id} is db_alert_group_set_state
 * with the state alert_check_state accepts. */
json_t *alert_groups(db *d, const char *state, struct err *err);
/* The same answer as the JSON text the API sends (the same bytes as
 * alert_groups dumped compact), appended to out without a Jansson value
 * per group: 0, or -1 with err set. */
int alert_groups_text(db *d, const char *state, struct buf *out, struct err *err);
/* Checks a PATCH body {"state": ...}: returns the state or NULL (422). */
const char *alert_check_state(json_t *body, struct err *err);

/* Triage: sets alert id (or, with group, every alert of group id) to state
 * (checked by alert_check_state) and reads it back as now stored: the alert
 * as alert_list shows it, or the group as alert_groups does (NULL when it
 * holds no alert any more). A writer job's work: 0 and *answer (new
 * reference), or -1 with err (404 for an unknown id). */
int alert_triage(db *d, long long id, const char *state, int group, json_t **answer,
                 struct err *err);

#endif
