/* alerts: reading, paging and triaging alerts and their groups; see
 * alerts.h. */
#include "core/alerts.h"

#include "common/xalloc.h"
#include "db/history.h"
#include "formats/json.h"
#include "formats/json_text.h"
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

/* The columns of a scaling watch's alert (migration 15): NULL on others. */
static const char *const LAW_COLUMNS[] = {"x",           "target",
                                          "formula",     "baseline_formula",
                                          "predicted",   "baseline_predicted",
                                          "baseline_lo", "baseline_hi",
                                          NULL};

/* The API's shape of alert rows: direction as "up"/"down", inputs {}; a
 * scaling watch's alert (SPEC §17) says "kind": "scaling" with "x",
 * "target", "formula", "baseline_formula" and "ratio_at_target", and its
 * value, expected, lo and hi are what the laws say at the target as last
 * refined (the commit's prediction, the baseline's and its interval); other
 * alerts have none of these. */
static json_t *alerts_shape(json_t *rows)
{
    json_t *row;
    size_t i;
    if (rows == NULL)
        return NULL;
    json_array_foreach(rows, i, row)
    {
        json_int_t dir;
        if (json_is_string(json_object_get(row, "formula"))) {
            double v = json_number_value(json_object_get(row, "predicted")),
                   e = json_number_value(json_object_get(row, "baseline_predicted"));
            json_object_set_new(row, "kind", json_string("scaling"));
            json_object_set(row, "value", json_object_get(row, "predicted"));
            json_object_set(row, "expected", json_object_get(row, "baseline_predicted"));
            json_object_set(row, "lo", json_object_get(row, "baseline_lo"));
            json_object_set(row, "hi", json_object_get(row, "baseline_hi"));
            json_object_set_new(row, "direction",
                                json_integer(v > e   ? 1
                                             : v < e ? -1
                                                     : 0));
            json_object_set_new(row, "ratio_at_target",
                                e != 0 && isfinite(v / e) ? json_real(v / e)
                                                          : json_null());
            for (int k = 4; LAW_COLUMNS[k]; k++)
                json_object_del(row, LAW_COLUMNS[k]);
        } else {
            for (int k = 0; LAW_COLUMNS[k]; k++)
                json_object_del(row, LAW_COLUMNS[k]);
        }
        dir = json_integer_value(json_object_get(row, "direction"));
        json_object_set_new(row, "direction", json_string(dir > 0 ? "up" : "down"));
        if (json_object_get(row, "inputs") == NULL)
            json_object_set_new(row, "inputs", json_object());
    }
    return rows;
}

static int check_state(const char *state, struct err *err)
{
    if (state != NULL && !known_state(state))
        return err_set(err, 400, "bad_parameter", "state",
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
        err_set(err, 400, "bad_parameter", "limit", "limit must be 1 to %d",
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

/* One group of the list: its rows v[from..to), its count of distinct
 * configurations and its worst ratio (NAN when none is known). */
struct group {
    long from, to;
    long long nconf;
    double worst;
};

static int cmp_ll(const void *pa, const void *pb)
{
    long long x = *(const long long *)pa, y = *(const long long *)pb;
    return (x > y) - (x < y);
}

/* The groups of the rows (by group, newest first): *out (in a) and their
 * number, or -1 (out of memory). */
static long group_rows(const struct db_alert_group_row *v, long n, arena *a,
                       struct group **out)
{
    struct group *g = arena_alloc(a, (size_t)(n + 1) * sizeof *g);
    long long *cfg = arena_alloc(a, (size_t)(n + 1) * sizeof *cfg);
    long i, k, j, ng = 0;

    if (g == NULL || cfg == NULL)
        return -1;
    for (i = 0; i < n; i = k) {
        struct group *x = &g[ng++];
        x->from = i;
        x->nconf = 0;
        x->worst = NAN;
        for (k = i; k < n && v[k].group == v[i].group; k++) {
            cfg[k - i] = v[k].config;
            if (isfinite(v[k].ratio) &&
                (isnan(x->worst) || badness(v[k].ratio) > badness(x->worst)))
                x->worst = v[k].ratio;
        }
        x->to = k;
        /* distinct configurations: sorted, not compared pairwise (a group of
         * thousands of alerts, one commit slowing everything) */
        qsort(cfg, (size_t)(k - i), sizeof *cfg, cmp_ll);
        for (j = 0; j < k - i; j++)
            x->nconf += j == 0 || cfg[j] != cfg[j - 1];
    }
    *out = g;
    return ng;
}

/* The rows and groups of state's list; a is the caller's to free. */
static long list_groups(db *d, const char *state, arena *a, struct db_alert_group_row **v,
                        long *n, struct group **g, struct err *err)
{
    long ng;
    if (check_state(state, err) != 0)
        return -1;
    *n = db_alert_group_rows(d, state, LIMIT_ALERT_GROUPS, a, v, err);
    if (*n < 0)
        return -1;
    ng = group_rows(*v, *n, a, g);
    return ng < 0 ? err_nomem(err) : ng;
}

json_t *alert_groups(db *d, const char *state, struct err *err)
{
    struct db_alert_group_row *v;
    struct group *gs;
    json_t *groups = NULL, *g, *ids;
    arena *a = arena_new();
    long n, ng, i, j;

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    ng = list_groups(d, state, a, &v, &n, &gs, err);
    if (ng < 0)
        goto out;
    groups = json_array();
    for (i = 0; groups != NULL && i < ng; i++) {
        const struct group *x = &gs[i];
        ids = json_array();
        for (j = x->from; ids != NULL && j < x->to; j++)
            if (json_array_append_new(ids, json_integer(v[j].alert)) != 0) {
                json_decref(ids);
                ids = NULL;
            }
        g = ids == NULL ? NULL
                        : json_pack("{s:I, s:s?, s:o, s:I, s:o}", "id",
                                    (json_int_t)v[x->from].group, "commit",
                                    v[x->from].commit, "alerts", ids, "configurations",
                                    (json_int_t)x->nconf, "worst_ratio",
                                    isnan(x->worst) ? json_null() : json_real(x->worst));
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

int alert_groups_text(db *d, const char *state, struct buf *out, struct err *err)
{
    struct db_alert_group_row *v;
    struct group *gs;
    arena *a = arena_new();
    long n, ng, i, j;
    int rc = -1;

    if (a == NULL)
        return err_nomem(err);
    ng = list_groups(d, state, a, &v, &n, &gs, err);
    if (ng < 0)
        goto out;
    buf_puts(out, "{\"groups\":[");
    for (i = 0; i < ng; i++) {
        const struct group *x = &gs[i];
        buf_puts(out, i ? ",{\"id\":" : "{\"id\":");
        json_text_int(out, v[x->from].group);
        buf_puts(out, ",\"commit\":");
        if (json_text_str(out, v[x->from].commit) != 0) {
            err_set(err, 500, "internal", NULL,
                    "alert group %lld: its commit is not UTF-8", v[x->from].group);
            goto out;
        }
        buf_puts(out, ",\"alerts\":[");
        for (j = x->from; j < x->to; j++) {
            if (j > x->from)
                buf_putc(out, ',');
            json_text_int(out, v[j].alert);
        }
        buf_puts(out, "],\"configurations\":");
        json_text_int(out, x->nconf);
        buf_puts(out, ",\"worst_ratio\":");
        if (isnan(x->worst))
            buf_puts(out, "null");
        else
            json_text_real(out, x->worst);
        buf_putc(out, '}');
    }
    buf_puts(out, "]}");
    rc = buf_failed(out) ? err_nomem(err) : 0;
out:
    arena_free(a);
    return rc;
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
