/* history: series and comparisons; see history.h.
 *
 * A comparison gathers every value of every side (db_history_side), sorts
 * them by (configuration, quantity, side) and sweeps once, so its cost is
 * the sides' values, with no per-row query.
 */
#include "core/history.h"
#include "core/config_order.h"
#include "core/watch_scaling.h"
#include "common/arena.h"
#include "core/alerts.h"
#include "core/watch.h"
#include "db/history.h"
#include "common/buf.h"
#include "common/isotime.h"
#include "formats/json.h"
#include "formats/json_text.h"
#include "formats/limits.h"
#include "models/changes.h"
#include "models/detect.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDES 8 /* a .. h */

static const char *qstr(json_t *q, const char *name)
{
    return json_string_value(json_object_get(q, name));
}

static int bad_param(struct err *err, const char *name, const char *what)
{
    return err_set(err, ERR_BAD_REQUEST, "bad_parameter", name, "%s %s", name, what);
}

int history_query_filter(json_t *query, arena *a, struct db_history_filter *f,
                         struct err *err)
{
    const char *key, *np = qstr(query, "nprocs");
    json_t *v, *inputs = json_object();
    char *s;

    memset(f, 0, sizeof *f);
    f->application = qstr(query, "application");
    f->executable = qstr(query, "executable");
    f->system = qstr(query, "system");
    if (f->application == NULL) {
        json_decref(inputs);
        return err_set(err, ERR_INVALID, "invalid", "application",
                       "application is required");
    }
    if (np != NULL) {
        char *end;
        long long n;
        errno = 0;
        n = strtoll(np, &end, 10);
        if (*np == '\0' || *end != '\0' || errno == ERANGE || n < 1 || n > 100000000) {
            json_decref(inputs);
            return bad_param(err, "nprocs", "must be an integer of at least 1");
        }
        f->nprocs = n;
    }
    json_object_foreach(query, key, v)
    {
        double x;
        const char *text = json_string_value(v);
        if (strncmp(key, "input.", 6) != 0)
            continue;
        struct err local = {0};
        if (key[6] == '\0' || text == NULL ||
            (text[0] != '\0' && json_parse_decimal(text, key, &x, &local) != 0)) {
            json_decref(inputs);
            return err_set(err, ERR_BAD_REQUEST, "bad_parameter", key,
                           "%s must be input.NAME=NUMBER (or input.NAME= for a "
                           "configuration without it)",
                           key);
        }
        /* empty: the configurations without that input (null: absent) */
        json_object_set_new(inputs, key + 6, text[0] ? json_real(x) : json_null());
    }
    if (json_object_size(inputs) > 0) {
        s = json_dumps(inputs, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
        f->inputs_json = s ? arena_strdup(a, s) : NULL;
        free(s);
        if (f->inputs_json == NULL) {
            json_decref(inputs);
            return err_nomem(err);
        }
    }
    json_decref(inputs);
    return 0;
}

static json_t *num_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *direction(json_t *dir)
{
    json_int_t d = json_integer_value(dir);
    return d > 0 ? json_string("up") : d < 0 ? json_string("down") : json_null();
}

static int check_y(const char *y, struct err *err)
{
    if (y == NULL)
        return err_set(err, ERR_INVALID, "invalid", "y",
                       "y is required: runtime, metric:NAME or kernel:NAME");
    if (strcmp(y, "runtime") == 0 ||
        ((strncmp(y, "metric:", 7) == 0 || strncmp(y, "kernel:", 7) == 0) && y[7]))
        return 0;
    return err_set(err, ERR_BAD_REQUEST, "bad_parameter", "y",
                   "y must be runtime, metric:NAME or kernel:NAME");
}

/* The configuration of a series query, its judgements (by run id text) and
 * the watches covering it: what the answer needs besides the points. */
struct series_head {
    struct db_history_filter f;
    struct db_history_config *c;
    const char *y;
    json_t *judged, *watches;
};

/* The judgements of scaling watches in judged (run id text -> [judgement])
 * keep their verdict (ready, out, the alert) but no band: they judge a
 * commit's law at its target (core/watch_scaling.h), not the run's value, so
 * their expected, lo and hi (the baseline's prediction at the target) are no
 * interval of the run. Left out, the run that raised a scaling alert showed
 * no judgement in the series and no verdict on the history page. 0 or -1. */
static int scaling_without_band(db *d, json_t *judged, struct err *err)
{
    json_t *ids = db_watch_ids(d, WATCH_SCALING, err), *list, *id, *j;
    const char *key;
    size_t i, k;

    if (ids == NULL)
        return -1;
    if (json_array_size(ids) > 0)
        json_object_foreach(judged, key, list)
        {
            json_array_foreach(list, i, j)
            {
                long long w = json_integer_value(json_object_get(j, "watch"));
                json_array_foreach(ids, k, id)
                {
                    if (json_integer_value(id) == w) {
                        json_object_set_new(j, "expected", json_null());
                        json_object_set_new(j, "lo", json_null());
                        json_object_set_new(j, "hi", json_null());
                        break;
                    }
                }
            }
        }
    json_decref(ids);
    return 0;
}

/* Where several configurations match, the one without an input beyond the
 * filter's is the one a configuration's own link names ({} beside {"arg1":
 * 4}, as Google Benchmark runs of no argument beside those of one): these
 * many are read to find it. */
#define HISTORY_EXACT_TRIES 64

/* Whether exactly one of the n configurations c has no input the filter
 * does not name; then it becomes c[0]. */
static int exactly_one(const struct db_history_filter *f, struct db_history_config *c,
                       int n)
{
    json_t *want = f->inputs_json ? json_loads(f->inputs_json, 0, NULL) : json_object();
    size_t named = 0;
    int i, found = -1;
    const char *key;
    json_t *v;
    json_object_foreach(want, key, v)
    {
        named += !json_is_null(v);
    }
    for (i = 0; i < n; i++) {
        json_t *in = json_loads(c[i].inputs_json, 0, NULL);
        /* the filter's values matched: the same count is the same names */
        if (json_object_size(in) == named)
            found = found < 0 ? i : -2;
        json_decref(in);
    }
    json_decref(want);
    if (found < 0)
        return 0;
    if (found > 0) {
        struct db_history_config t = c[0];
        c[0] = c[found];
        c[found] = t;
    }
    return 1;
}

static int series_head(db *d, json_t *query, arena *a, struct series_head *h, int judged,
                       struct err *err)
{
    int n;
    memset(h, 0, sizeof *h);
    h->y = qstr(query, "y");
    if (history_query_filter(query, a, &h->f, err) != 0 || check_y(h->y, err) != 0)
        return -1;
    if (h->f.system == NULL)
        return err_set(err, ERR_INVALID, "invalid", "system", "system is required");
    n = db_history_configs(d, &h->f, HISTORY_EXACT_TRIES, a, &h->c, err);
    if (n < 0)
        return -1;
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL,
                       "no configuration of %s matches", h->f.application);
    if (n > 1 && exactly_one(&h->f, h->c, n) == 0)
        return err_set(err, ERR_INVALID, "ambiguous", NULL,
                       "several configurations match; narrow with executable=, nprocs= "
                       "or input.NAME= (e.g. %s nprocs=%lld inputs %s)",
                       h->c[0].executable, h->c[0].nprocs, h->c[0].inputs_json);
    if (!judged)
        return 0;
    h->judged = db_history_judgements(d, h->c[0].id, &h->watches, err);
    if (h->judged == NULL)
        return -1;
    return json_object_size(h->judged) ? scaling_without_band(d, h->judged, err) : 0;
}

/* The judgements of run as the answer lists them (new reference). */
static json_t *point_judgements(json_t *judged, long long run)
{
    char key[32];
    json_t *list = json_array(), *js, *j;
    size_t k;
    if (json_object_size(judged) == 0)
        return list;
    snprintf(key, sizeof key, "%lld", run);
    js = json_object_get(judged, key);
    json_array_foreach(js, k, j)
    {
        /* A judgement made without enough history has no band: "not ready"
         * (SPEC §17), never an interval of zeros. */
        int ready = json_integer_value(json_object_get(j, "ready")) != 0;
        json_t *none = json_null();
        json_array_append_new(
            list, json_pack("{s:O, s:O, s:b, s:O, s:O, s:O, s:b, s:o, s:O}", "watch",
                            json_object_get(j, "watch"), "model",
                            json_object_get(j, "model"), "ready", ready, "expected",
                            ready ? json_object_get(j, "expected") : none, "lo",
                            ready ? json_object_get(j, "lo") : none, "hi",
                            ready ? json_object_get(j, "hi") : none, "out",
                            (int)json_integer_value(json_object_get(j, "out")),
                            "direction", direction(json_object_get(j, "direction")),
                            "alert", json_object_get(j, "alert")));
        json_decref(none);
    }
    return list;
}

json_t *history_series(db *d, json_t *query, struct err *err)
{
    struct series_head h;
    struct db_series_point *p;
    json_t *out = NULL, *points, *inputs;
    arena *a = arena_new();
    int n, i;

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (series_head(d, query, a, &h, 1, err) != 0)
        goto out;
    n = db_history_series(d, h.c[0].id, h.y, a, &p, err);
    if (n < 0)
        goto out;
    points = json_array();
    for (i = 0; i < n; i++) {
        char at[32];
        isotime_format(p[i].at, at);
        json_array_append_new(points, json_pack("{s:I, s:s, s:s?, s:o, s:o}", "run",
                                                (json_int_t)p[i].run, "at", at, "commit",
                                                p[i].commit, "value",
                                                num_or_null(p[i].value), "judgements",
                                                point_judgements(h.judged, p[i].run)));
    }
    inputs = json_loads(h.c[0].inputs_json, 0, NULL);
    out = json_pack("{s:s, s:s, s:s, s:I, s:o, s:s, s:o, s:O}", "application",
                    h.f.application, "executable", h.c[0].executable, "system",
                    h.c[0].system, "nprocs", (json_int_t)h.c[0].nprocs, "inputs",
                    inputs ? inputs : json_object(), "y", h.y, "points", points,
                    "watches", h.watches);
    if (out == NULL)
        err_nomem(err);
out:
    json_decref(h.judged);
    json_decref(h.watches);
    arena_free(a);
    return out;
}

json_t *history_series_alerts(db *d, json_t *query, struct err *err)
{
    struct series_head h;
    struct db_alert_filter f = {0};
    json_t *page, *alerts = NULL;
    arena *a = arena_new();

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (series_head(d, query, a, &h, 0, err) != 0)
        goto out;
    f.application = h.f.application;
    f.config_id = h.c[0].id;
    f.y = h.y ? h.y : "runtime";
    f.limit = LIMIT_ALERTS_PAGE;
    page = alert_page(d, &f, err);
    if (page != NULL) {
        alerts = json_incref(json_object_get(page, "alerts"));
        json_decref(page);
    }
out:
    json_decref(h.judged);
    json_decref(h.watches);
    arena_free(a);
    return alerts;
}

struct series_writer {
    struct buf *out;
    json_t *judged;
    size_t n;
};

/* Appends a string field's value: in place when plain, else escaped. */
static int put_str(struct buf *b, char *t, size_t *o, size_t room, const char *s)
{
    size_t n = json_text_fmt_plain(t + *o, room - *o, s);
    if (n > 0) {
        *o += n;
        return 0;
    }
    buf_append(b, t, *o);
    *o = 0;
    return json_text_str(b, s);
}

/* One point, as json_pack's object above dumps it, assembled on the stack
 * and appended once. */
static int write_point(void *ctx, const struct db_series_point *p, struct err *err)
{
    static const char k_run[] = "{\"run\":", k_at[] = ",\"at\":",
                      k_commit[] = ",\"commit\":", k_value[] = ",\"value\":",
                      k_none[] = ",\"judgements\":[]}", k_list[] = ",\"judgements\":";
    struct series_writer *w = ctx;
    struct buf *b = w->out;
    char t[512];
    size_t o = 0;

    if (w->n++)
        t[o++] = ',';
    memcpy(t + o, k_run, sizeof k_run - 1);
    o += sizeof k_run - 1;
    o += json_text_fmt_int(t + o, p->run);
    memcpy(t + o, k_at, sizeof k_at - 1);
    o += sizeof k_at - 1;
    t[o++] = '"';
    o += isotime_format(p->at, t + o);
    t[o++] = '"';
    memcpy(t + o, k_commit, sizeof k_commit - 1);
    o += sizeof k_commit - 1;
    if (put_str(b, t, &o, sizeof t - 128, p->commit) != 0)
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "run %lld: its commit is not UTF-8", p->run);
    memcpy(t + o, k_value, sizeof k_value - 1);
    o += sizeof k_value - 1;
    if (isfinite(p->value)) {
        o += json_text_fmt_real(t + o, p->value);
    } else {
        memcpy(t + o, "null", 4);
        o += 4;
    }
    if (json_object_size(w->judged) == 0) {
        memcpy(t + o, k_none, sizeof k_none - 1);
        o += sizeof k_none - 1;
        buf_append(b, t, o);
    } else {
        json_t *list = point_judgements(w->judged, p->run);
        int rc;
        memcpy(t + o, k_list, sizeof k_list - 1);
        o += sizeof k_list - 1;
        buf_append(b, t, o);
        rc = list ? json_text_value(b, list) : -1;
        json_decref(list);
        if (rc != 0)
            return err_nomem(err);
        buf_putc(b, '}');
    }
    if (buf_failed(b))
        return buf_failed(b) == BUF_TOOBIG
                   ? err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                             "the series is larger than one answer holds")
                   : err_nomem(err);
    return 0;
}

int history_series_text(db *d, json_t *query, struct buf *out, struct err *err)
{
    struct series_head h;
    struct series_writer w = {out, NULL, 0};
    json_t *inputs = NULL;
    arena *a = arena_new();
    int rc = -1;

    if (a == NULL)
        return err_nomem(err);
    if (series_head(d, query, a, &h, 1, err) != 0)
        goto out;
    w.judged = h.judged;
    inputs = json_loads(h.c[0].inputs_json, 0, NULL);
    buf_puts(out, "{\"application\":");
    json_text_str(out, h.f.application);
    buf_puts(out, ",\"executable\":");
    json_text_str(out, h.c[0].executable);
    buf_puts(out, ",\"system\":");
    json_text_str(out, h.c[0].system);
    buf_puts(out, ",\"nprocs\":");
    json_text_int(out, h.c[0].nprocs);
    buf_puts(out, ",\"inputs\":");
    if (inputs != NULL)
        json_text_value(out, inputs);
    else
        buf_puts(out, "{}");
    buf_puts(out, ",\"y\":");
    json_text_str(out, h.y);
    buf_puts(out, ",\"points\":[");
    if (db_history_series_each(d, h.c[0].id, h.y, write_point, &w, err) != 0)
        goto out;
    buf_puts(out, "],\"watches\":");
    json_text_value(out, h.watches);
    buf_putc(out, '}');
    if (buf_failed(out)) {
        if (buf_failed(out) == BUF_TOOBIG)
            err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                    "the series is larger than one answer holds");
        else
            err_nomem(err);
        goto out;
    }
    rc = 0;
out:
    if (rc != 0)
        buf_reset(out);
    json_decref(inputs);
    json_decref(h.judged);
    json_decref(h.watches);
    arena_free(a);
    return rc;
}

/* ---- change points ---------------------------------------------------------- */

/* The change points of one configuration's series appended to list. */
static int config_changes(db *d, const struct db_history_config *c, const char *y,
                          const struct changes_opts *o, arena *a, json_t *list,
                          struct err *err)
{
    struct db_series_point *p;
    struct changes_point *cp;
    double *v;
    size_t *at;
    int n, k, i, m = 0;

    n = db_history_series(d, c->id, y, a, &p, err);
    if (n < 0)
        return -1;
    v = arena_alloc(a, sizeof *v * (size_t)(n + 1));
    at = arena_alloc(a, sizeof *at * (size_t)(n + 1));
    cp = arena_alloc(a, sizeof *cp * (size_t)(n / 2 + 1));
    if (v == NULL || at == NULL || cp == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++)
        if (isfinite(p[i].value)) {
            at[m] = (size_t)i;
            v[m++] = p[i].value;
        }
    k = changes_scan(v, (size_t)m, o, cp, (size_t)(n / 2 + 1), err);
    if (k < 0)
        return -1;
    for (i = 0; i < k; i++) {
        const struct db_series_point *first = &p[at[cp[i].at]],
                                     *last = &p[at[cp[i].at - 1]];
        json_t *inputs = json_loads(c->inputs_json, 0, NULL);
        json_t *cfg = json_pack("{s:s, s:s, s:I, s:o}", "executable", c->executable,
                                "system", c->system, "nprocs", (json_int_t)c->nprocs,
                                "inputs", inputs ? inputs : json_object());
        json_t *one = json_pack(
            "{s:o, s:s, s:I, s:s?, s:s?, s:s?, s:o, s:o, s:o, s:f}", "configuration", cfg,
            "y", y, "run", (json_int_t)first->run, "commit", first->commit, "from_commit",
            last->commit, "to_commit", first->commit, "before", num_or_null(cp[i].before),
            "after", num_or_null(cp[i].after), "ratio",
            num_or_null(cp[i].before > 0 ? cp[i].after / cp[i].before : NAN), "p_value",
            cp[i].p);
        if (one == NULL || json_array_append_new(list, one) != 0)
            return err_nomem(err);
    }
    return 0;
}

json_t *history_changes(db *d, json_t *query, struct err *err)
{
    struct db_history_filter f;
    struct db_history_config *c;
    struct changes_opts o = {0};
    const char *y = qstr(query, "y");
    json_t *list = NULL, *out = NULL;
    arena *a = arena_new();
    int n, i;

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (y == NULL)
        y = "runtime";
    if (history_query_filter(query, a, &f, err) != 0 || check_y(y, err) != 0 ||
        changes_check(&o, NULL, err) != 0)
        goto out;
    n = db_history_configs(d, &f, LIMIT_CHANGES_CONFIGS + 1, a, &c, err);
    if (n < 0)
        goto out;
    if (n > LIMIT_CHANGES_CONFIGS) {
        err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                "more than %d configurations match; narrow with executable=, system=, "
                "nprocs= or input.NAME=",
                LIMIT_CHANGES_CONFIGS);
        goto out;
    }
    list = json_array();
    for (i = 0; i < n && list != NULL; i++) {
        /* each configuration's points in an arena of its own: a scan over
         * many configurations holds one series at a time */
        arena *one = arena_new();
        int rc = one ? config_changes(d, &c[i], y, &o, one, list, err) : err_nomem(err);
        arena_free(one);
        if (rc != 0)
            goto out;
    }
    out = list ? json_pack("{s:O}", "changes", list) : NULL;
    if (out == NULL)
        err_nomem(err);
out:
    json_decref(list);
    arena_free(a);
    return out;
}

/* ---- compare ---------------------------------------------------------------- */

struct val {
    long long config_id;
    const char *y;
    int side;
    double value;
};

static int y_rank(const char *y)
{
    return strcmp(y, "runtime") == 0 ? 0 : strncmp(y, "kernel:", 7) == 0 ? 1 : 2;
}

static int cmp_val(const void *pa, const void *pb)
{
    const struct val *a = pa, *b = pb;
    int c;
    if (a->config_id != b->config_id)
        return a->config_id < b->config_id ? -1 : 1;
    if (y_rank(a->y) != y_rank(b->y))
        return y_rank(a->y) - y_rank(b->y);
    if ((c = strcmp(a->y, b->y)) != 0)
        return c;
    return a->side - b->side;
}

struct cfg_pos {
    long long id;
    int order;
    const struct db_history_config *c;
};

static int cmp_cfg(const void *pa, const void *pb)
{
    const struct cfg_pos *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

struct row {
    int order;  /* the configuration's place */
    size_t idx; /* the row's place in quantity order within it */
    json_t *json;
};

static int cmp_row(const void *pa, const void *pb)
{
    const struct row *a = pa, *b = pb;
    if (a->order != b->order)
        return a->order - b->order;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int parse_side(const char *name, const char *s, arena *a, struct db_side *out,
                      struct err *err)
{
    memset(out, 0, sizeof *out);
    if (strncmp(s, "run:", 4) == 0) {
        char *end;
        errno = 0;
        out->kind = DB_SIDE_RUN;
        out->run = strtoll(s + 4, &end, 10);
        if (s[4] == '\0' || *end != '\0' || errno == ERANGE || out->run < 1)
            return bad_param(err, name, "run:ID needs a run id");
        return 0;
    }
    if (strncmp(s, "commit:", 7) == 0 && s[7]) {
        out->kind = DB_SIDE_COMMIT;
        out->value = s + 7;
        return 0;
    }
    if (strncmp(s, "branch:", 7) == 0 && s[7]) {
        out->kind = DB_SIDE_BRANCH;
        out->value = s + 7;
        return 0;
    }
    if (strncmp(s, "tag:", 4) == 0) {
        /* KEY ends at the first '=' not escaped: a key holding '=' (a valid
         * tag name) is written with "\\=", a backslash with "\\\\" */
        const char *p = s + 4;
        char *key = arena_alloc(a, strlen(p) + 1), *k = key;
        if (key == NULL)
            return err_nomem(err);
        while (*p && *p != '=') {
            if (*p == '\\' && (p[1] == '=' || p[1] == '\\'))
                p++;
            *k++ = *p++;
        }
        *k = '\0';
        if (*p != '=' || k == key)
            return bad_param(
                err, name,
                "tag:KEY=VALUE needs a key and a value (write = in KEY as \\=)");
        out->kind = DB_SIDE_TAG;
        out->value = key;
        out->tag_value = p + 1;
        return 0;
    }
    return bad_param(err, name, "must be run:ID, commit:C, branch:B or tag:K=V");
}

/* Mean and sample standard deviation of v[0..n). */
static void stats(const struct val *v, size_t n, double *mean, double *sd)
{
    double m = 0, s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        m += v[i].value;
    m /= (double)n;
    for (i = 0; i < n; i++)
        s += (v[i].value - m) * (v[i].value - m);
    *mean = m;
    *sd = n > 1 ? sqrt(s / (double)(n - 1)) : 0;
}

json_t *history_compare(db *d, json_t *query, struct err *err)
{
    static const char names[MAX_SIDES][2] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    struct db_history_filter f;
    struct db_history_config *cfgs;
    struct cfg_pos *pos = NULL;
    struct db_side sides[MAX_SIDES];
    struct val *all = NULL;
    struct row *rows = NULL;
    size_t nall = 0, cap = 0, nrows = 0, i, k;
    int nsides = 0, ncfg, s;
    json_t *out = NULL, *side_names, *arr;
    arena *a = arena_new();

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (history_query_filter(query, a, &f, err) != 0)
        goto out;
    for (s = 0; s < MAX_SIDES; s++) {
        const char *v = qstr(query, names[s]);
        if (v == NULL)
            break;
        if (parse_side(names[s], v, a, &sides[s], err) != 0)
            goto out;
        nsides++;
    }
    for (s = nsides; s < MAX_SIDES; s++)
        if (qstr(query, names[s]) != NULL)
            break;
    if (nsides < 2 || s < MAX_SIDES) {
        err_set(err, ERR_BAD_REQUEST, "bad_parameter",
                s < MAX_SIDES ? names[s] : names[nsides],
                "compare needs sides a and b (then c, d, ... in order)");
        goto out;
    }
    /* A branch side leaves out the runs of the comparison's commit sides: a
     * commit on the branch is compared with the branch's other runs, not
     * with a mean that holds its own (docs/history.md, "Comparing") */
    {
        json_t *commits = json_array();
        char *text = NULL;
        for (s = 0; commits != NULL && s < nsides; s++)
            if (sides[s].kind == DB_SIDE_COMMIT)
                json_array_append_new(commits, json_string(sides[s].value));
        if (commits != NULL && json_array_size(commits) > 0)
            text = json_dumps(commits, JSON_COMPACT);
        json_decref(commits);
        if (commits == NULL) {
            err_nomem(err);
            goto out;
        }
        if (text != NULL) {
            const char *copy = arena_strdup(a, text);
            free(text);
            if (copy == NULL) {
                err_nomem(err);
                goto out;
            }
            for (s = 0; s < nsides; s++)
                if (sides[s].kind == DB_SIDE_BRANCH)
                    sides[s].except_commits = copy;
        }
    }
    ncfg = db_history_configs(d, &f, LIMIT_COMPARE_CONFIGS, a, &cfgs, err);
    if (ncfg < 0 || config_sort(cfgs, (size_t)ncfg,
                                CONFIG_LAYOUT(struct db_history_config), err) != 0)
        goto out;
    pos = arena_alloc(a, ((size_t)ncfg + 1) * sizeof *pos);
    if (pos == NULL) {
        err_nomem(err);
        goto out;
    }
    for (s = 0; s < ncfg; s++)
        pos[s] = (struct cfg_pos){cfgs[s].id, s, &cfgs[s]};
    qsort(pos, (size_t)ncfg, sizeof *pos, cmp_cfg);
    for (s = 0; s < nsides; s++) {
        struct db_side_value *v;
        size_t n;
        /* one more than the values left: the limit is checked as the side is
         * read, not after a whole side of any size is in memory */
        f.max_values = (size_t)LIMIT_COMPARE_VALUES - nall + 1;
        if (db_history_side(d, &f, &sides[s], a, &v, &n, err) != 0)
            goto out;
        if (nall + n > LIMIT_COMPARE_VALUES) {
            err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                    "the sides hold more than %d values; narrow with system=, "
                    "executable=, nprocs= or input.NAME=",
                    LIMIT_COMPARE_VALUES);
            goto out;
        }
        if (nall + n > cap) {
            struct val *bigger;
            cap = (nall + n) * 2;
            bigger = arena_alloc(a, cap * sizeof *bigger);
            if (bigger == NULL) {
                err_nomem(err);
                goto out;
            }
            if (nall)
                memcpy(bigger, all, nall * sizeof *all);
            all = bigger;
        }
        for (k = 0; k < n; k++)
            all[nall++] = (struct val){v[k].config_id, v[k].y, s, v[k].value};
    }
    if (nall)
        qsort(all, nall, sizeof *all, cmp_val);
    rows = arena_alloc(a, (nall + 1) * sizeof *rows);
    if (rows == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < nall;) {
        struct cfg_pos key = {all[i].config_id, 0, NULL}, *cp;
        double mean[MAX_SIDES], sd[MAX_SIDES];
        long cnt[MAX_SIDES] = {0};
        size_t j = i, start;
        json_t *js;
        while (j < nall && all[j].config_id == all[i].config_id &&
               strcmp(all[j].y, all[i].y) == 0)
            j++;
        for (start = i; start < j;) {
            size_t e = start;
            while (e < j && all[e].side == all[start].side)
                e++;
            stats(&all[start], e - start, &mean[all[start].side], &sd[all[start].side]);
            cnt[all[start].side] = (long)(e - start);
            start = e;
        }
        cp = bsearch(&key, pos, (size_t)ncfg, sizeof *pos, cmp_cfg);
        if (cp == NULL) { /* outside the filter's first configurations */
            i = j;
            continue;
        }
        js = json_array();
        for (s = 0; s < nsides; s++) {
            struct detect_welch w = {0};
            int sig = 0;
            json_t *ratio = json_null();
            if (s > 0 && cnt[s] >= 2 && cnt[0] >= 2 &&
                detect_welch(mean[0], sd[0], cnt[0], mean[s], sd[s], cnt[s], 0.05, &w,
                             NULL) == 0)
                sig = w.significant;
            if (s > 0 && cnt[s] && cnt[0] && mean[0] != 0) {
                json_decref(ratio);
                ratio = num_or_null(mean[s] / mean[0]);
            }
            if (cnt[s])
                json_array_append_new(
                    js, json_pack("{s:i, s:o, s:o, s:o, s:b}", "n", (int)cnt[s], "mean",
                                  num_or_null(mean[s]), "spread", num_or_null(sd[s]),
                                  "ratio", ratio, "significant", sig));
            else
                json_array_append_new(js, json_pack("{s:i, s:n, s:n, s:o, s:b}", "n", 0,
                                                    "mean", "spread", "ratio", ratio,
                                                    "significant", 0));
        }
        rows[nrows].order = cp->order;
        rows[nrows].idx = nrows;
        rows[nrows].json = json_pack(
            "{s:s, s:s, s:I, s:o, s:s, s:o}", "executable", cp->c->executable, "system",
            cp->c->system, "nprocs", (json_int_t)cp->c->nprocs, "inputs",
            json_loads(cp->c->inputs_json, 0, NULL), "y", all[i].y, "sides", js);
        nrows++;
        i = j;
    }
    /* Configurations in their filter order, quantities in the order swept. */
    qsort(rows, nrows, sizeof *rows, cmp_row);
    side_names = json_array();
    for (s = 0; s < nsides; s++)
        json_array_append_new(side_names, json_string(qstr(query, names[s])));
    arr = json_array();
    for (i = 0; i < nrows; i++)
        json_array_append_new(arr, rows[i].json);
    nrows = 0;
    out = json_pack("{s:s, s:o, s:o}", "application", f.application, "sides", side_names,
                    "rows", arr);
    if (out == NULL)
        err_nomem(err);
out:
    for (i = 0; rows && i < nrows; i++)
        json_decref(rows[i].json);
    arena_free(a);
    return out;
}

/* ---- executables' build settings -------------------------------------------- */

int history_build_check(json_t *body, struct history_build *out, struct err *err)
{
    static const char *const fields[] = {"compiler", "flags", "version", NULL};
    const char **slot[3] = {&out->compiler, &out->flags, &out->version};
    int i;

    memset(out, 0, sizeof *out);
    if (!json_is_object(body))
        return err_invalid(err, NULL,
                           "the body must be {\"compiler\", \"flags\", "
                           "\"version\"}");
    if (json_only_fields(body, fields, "executable", err) != 0)
        return -1;
    for (i = 0; i < 3; i++) {
        json_t *v = json_object_get(body, fields[i]);
        if (v == NULL)
            continue;
        if (!json_is_string(v))
            return err_invalid(err, fields[i], "%s must be a string", fields[i]);
        /* Flags may be empty (built without any); control characters never. */
        if (json_string_length(v) > 0 &&
            json_check_name(json_string_value(v), json_string_length(v), fields[i],
                            LIMIT_NAME, err) != 0)
            return -1;
        *slot[i] = json_string_value(v);
    }
    return 0;
}

json_t *history_refs(db *d, const char *app, struct err *err)
{
    json_t *out = db_history_refs(d, app, HISTORY_REFS, err);
    if (out == NULL && err->status == ERR_NOT_FOUND) {
        memset(err, 0, sizeof *err);
        err_set(err, ERR_NOT_FOUND, "not_found", "application",
                "no application named %.200s", app);
    }
    return out;
}
