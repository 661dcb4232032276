/* alerts: reading, paging and triaging alerts and their groups; see
 * alerts.h. */
#include "core/alerts.h"

#include "common/xalloc.h"
#include "db/history.h"
#include "formats/json.h"
#include "formats/limits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- alerts ----------------------------------------------------------------- */

static const char *const STATES[] = {"open",     "acknowledged", "false_positive",
                                     "resolved", "suspected",    NULL};

static int known_state(const char *s)
{
    for (int i = 0; STATES[i]; i++)
        if (strcmp(s, STATES[i]) == 0)
            return 1;
    return 0;
}

/* The API's shape of alert rows: direction as "up"/"down", inputs {}. */
static json_t *alerts_shape(json_t *rows)
{
    json_t *row;
    size_t i;
    if (rows == NULL)
        return NULL;
    json_array_foreach(rows, i, row)
    {
        json_int_t dir = json_integer_value(json_object_get(row, "direction"));
        json_object_set_new(row, "direction", json_string(dir > 0 ? "up" : "down"));
        if (json_object_get(row, "inputs") == NULL)
            json_object_set_new(row, "inputs", json_object());
    }
    return rows;
}

static int check_state(const char *state, struct err *err)
{
    if (state != NULL && !known_state(state))
        return err_set(err, ERR_BAD_REQUEST, "bad_parameter", "state",
                       "state must be suspected, open, acknowledged, false_positive or "
                       "resolved");
    return 0;
}

json_t *alert_list(db *d, const char *state, long long id, struct err *err)
{
    if (check_state(state, err) != 0)
        return NULL;
    return alerts_shape(db_alerts_list(d, state, id, err));
}

json_t *alert_page(db *d, const struct db_alert_filter *f, struct err *err)
{
    struct db_alert_filter one = *f;
    json_t *rows, *next = json_null();
    size_t n;

    if (check_state(f->state, err) != 0)
        return NULL;
    if (f->limit < 1 || f->limit > LIMIT_ALERTS_PAGE) {
        err_set(err, ERR_BAD_REQUEST, "bad_parameter", "limit", "limit must be 1 to %d",
                LIMIT_ALERTS_PAGE);
        return NULL;
    }
    one.limit = f->limit + 1; /* one more tells whether a next page exists */
    rows = alerts_shape(db_alerts_query(d, &one, err));
    if (rows == NULL)
        return NULL;
    n = json_array_size(rows);
    if (n > (size_t)f->limit) {
        json_array_remove(rows, n - 1);
        next = json_integer(
            json_integer_value(json_object_get(json_array_get(rows, n - 2), "id")));
    }
    return json_pack("{s:o, s:o}", "alerts", rows, "next", next);
}

static int cmp_id(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

json_t *alert_batch(db *d, const long long *ids, size_t n, struct err *err)
{
    struct db_alert_filter f = {0};
    long long *sorted;
    json_t *rows, *out;
    size_t i;

    if (n == 0)
        return json_array();
    sorted = xmalloc(n * sizeof *sorted);
    if (sorted == NULL) {
        err_nomem(err);
        return NULL;
    }
    memcpy(sorted, ids, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_id);
    /* One query over the batch's id range; ids of another server's batch
     * inside it (PostgreSQL's shared sequence) are left out. */
    f.from = sorted[0];
    f.to = sorted[n - 1];
    f.limit = f.to - f.from + 1;
    rows = alerts_shape(db_alerts_query(d, &f, err));
    out = rows ? json_array() : NULL;
    for (i = rows ? json_array_size(rows) : 0; i-- > 0;) {
        json_t *row = json_array_get(rows, i);
        long long id = json_integer_value(json_object_get(row, "id"));
        if (bsearch(&id, sorted, n, sizeof *sorted, cmp_id) != NULL &&
            json_array_append(out, row) != 0) {
            json_decref(out);
            out = NULL;
            err_nomem(err);
            break;
        }
    }
    json_decref(rows);
    xfree(sorted);
    return out;
}

const char *alert_check_state(json_t *body, struct err *err)
{
    static const char *const fields[] = {"state", NULL};
    const char *s;
    if (!json_is_object(body)) {
        err_invalid(err, NULL, "the body must be {\"state\": ...}");
        return NULL;
    }
    if (json_only_fields(body, fields, "alert", err) != 0)
        return NULL;
    s = json_string_value(json_object_get(body, "state"));
    /* "suspected" is the watch's to set, never a triage */
    if (s == NULL || !known_state(s) || strcmp(s, "suspected") == 0) {
        err_invalid(err, "state",
                    "state must be open, acknowledged, false_positive or "
                    "resolved");
        return NULL;
    }
    return s;
}

/* ---- alert groups ------------------------------------------------------------ */

/* How far a ratio is from 1 either way: 2 and 0.5 are as bad. */
static double badness(double r)
{
    return r > 0 ? fabs(log(r)) : INFINITY;
}

json_t *alert_groups(db *d, const char *state, struct err *err)
{
    struct db_alert_group_row *v;
    json_t *groups = NULL, *g, *ids;
    arena *a;
    long n, i, k, j;

    if (check_state(state, err) != 0)
        return NULL;
    a = arena_new();
    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    n = db_alert_group_rows(d, state, LIMIT_ALERT_GROUPS, a, &v, err);
    if (n < 0)
        goto out;
    groups = json_array();
    /* rows come by group, newest group first, then by alert id */
    for (i = 0; groups != NULL && i < n; i = k) {
        long long nconf = 0;
        double worst = NAN;
        for (k = i; k < n && v[k].group == v[i].group; k++) {
            for (j = i; j < k && v[j].config != v[k].config; j++)
                ;
            nconf += j == k; /* a configuration not seen before in the group */
            if (isfinite(v[k].ratio) &&
                (isnan(worst) || badness(v[k].ratio) > badness(worst)))
                worst = v[k].ratio;
        }
        ids = json_array();
        for (j = i; ids != NULL && j < k; j++)
            if (json_array_append_new(ids, json_integer(v[j].alert)) != 0) {
                json_decref(ids);
                ids = NULL;
            }
        g = ids == NULL
                ? NULL
                : json_pack("{s:I, s:s?, s:o, s:I, s:o}", "id", (json_int_t)v[i].group,
                            "commit", v[i].commit, "alerts", ids, "configurations",
                            (json_int_t)nconf, "worst_ratio",
                            isnan(worst) ? json_null() : json_real(worst));
        if (g == NULL || json_array_append_new(groups, g) != 0) {
            json_decref(groups);
            groups = NULL;
        }
    }
    if (groups == NULL)
        err_nomem(err);
out:
    arena_free(a);
    return groups ? json_pack("{s:o}", "groups", groups) : NULL;
}

int alert_triage(db *d, long long id, const char *state, int group, json_t **answer,
                 struct err *err)
{
    json_t *rows, *g;
    size_t i;

    *answer = NULL;
    if (!group) {
        if (db_alert_set_state(d, id, state, err) != 0 ||
            (rows = alert_list(d, NULL, id, err)) == NULL)
            return -1;
        *answer = json_incref(json_array_get(rows, 0));
        json_decref(rows);
        return *answer ? 0 : err_nomem(err);
    }
    if (db_alert_group_set_state(d, id, state, err) != 0 ||
        (rows = alert_groups(d, NULL, err)) == NULL)
        return -1;
    json_array_foreach(json_object_get(rows, "groups"), i, g)
    {
        if (json_integer_value(json_object_get(g, "id")) == id) {
            *answer = json_incref(g);
            json_object_set_new(*answer, "state", json_string(state));
        }
    }
    json_decref(rows);
    if (*answer == NULL)
        *answer = json_pack("{s:I, s:s}", "id", (json_int_t)id, "state", state);
    return *answer ? 0 : err_nomem(err);
}
