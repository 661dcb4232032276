/* watch: watches, judgements, the ledger and alerts; see watch.h.
 *
 * The hook's cost when nothing watches is one count query per batch; with
 * watches, one query per new run finds the watches that cover it, one query
 * per distinct y reads the window (from the series index, a range of one
 * configuration's runs) that all the statistical watches of that y share,
 * and the run's judgements are stored in a few multi-row statements, so
 * judging stays a few index probes and one insert per watch.
 * A model watch predicts through the saved answer alone (fit_predict_saved
 * in core/method_fit.h, the same code that answers GET .../predict), so the
 * model is never re-fitted.
 */
#include "core/watch.h"
#include "common/isotime.h"
#include "common/arena.h"
#include "core/history.h"
#include "core/method_fit.h"
#include "db/catalog.h"
#include "db/history.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "models/detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_WINDOW 20

void watch_install(void)
{
    struct ingest_hooks h = {watch_judge, NULL, NULL};
    ingest_set_hooks(&h);
}

/* ---- creating ------------------------------------------------------------- */

static int check_y(json_t *v, const char **y, struct err *err)
{
    const char *s = json_string_value(v);
    if (v == NULL) {
        *y = "runtime";
        return 0;
    }
    if (s == NULL || json_check_name(s, strlen(s), "y", LIMIT_NAME + 8, err) != 0 ||
        !(strcmp(s, "runtime") == 0 ||
          ((strncmp(s, "metric:", 7) == 0 || strncmp(s, "kernel:", 7) == 0) && s[7])))
        return err_set(err, 422, "invalid", "y",
                       "y must be runtime, metric:NAME or kernel:NAME");
    *y = s;
    return 0;
}

/* The statistical form's detector: test, threshold, window. */
static int check_detector(json_t *det, enum detect_test *t, double *threshold,
                          long long *window, struct err *err)
{
    static const char *const fields[] = {"test", "threshold", "window", NULL};
    json_t *v;

    if (json_only_fields_at(det, fields, "detector", err) != 0)
        return -1;
    v = json_object_get(det, "test");
    if (!json_is_string(v))
        return err_invalid(err, "detector.test",
                           "detector.test must be zscore, ttest, percent or iqr");
    if (detect_parse(json_string_value(v), t, "detector.test", err) != 0)
        return -1;
    *threshold = detect_default_threshold(*t);
    v = json_object_get(det, "threshold");
    if (v != NULL &&
        (json_get_number(v, "detector.threshold", threshold, err) != 0 ||
         detect_check_threshold(*t, *threshold, "detector.threshold", err) != 0))
        return -1;
    *window = DEFAULT_WINDOW;
    v = json_object_get(det, "window");
    if (v != NULL) {
        if (!json_is_integer(v) ||
            json_integer_value(v) < (json_int_t)detect_min_history(*t) ||
            json_integer_value(v) > DETECT_MAX_WINDOW)
            return err_invalid(err, "detector.window",
                               "detector.window must be an integer from %zu to %d",
                               detect_min_history(*t), DETECT_MAX_WINDOW);
        *window = json_integer_value(v);
    }
    return 0;
}

/* Decodes the body into w (and the names), without the store. */
static int decode(json_t *body, struct db_watch *w, const char **app, const char **exe,
                  const char **sys, arena *a, struct err *err)
{
    static const char *const fields[] = {
        "application", "executable", "system", "nprocs", "inputs", "y", "detector", NULL};
    json_t *det, *v, *inputs;
    enum detect_test t;

    memset(w, 0, sizeof *w);
    *app = *exe = *sys = NULL;
    if (!json_is_object(body))
        return err_invalid(err, NULL, "a watch is a JSON object");
    if (json_only_fields(body, fields, "watch", err) != 0)
        return -1;
    det = json_object_get(body, "detector");
    if (!json_is_object(det))
        return err_invalid(err, "detector",
                           "detector is required: {\"model\": ID} or "
                           "{\"test\", \"threshold\", \"window\"}");
    if (json_object_get(det, "model") != NULL) {
        static const char *const mfields[] = {"model", NULL};
        v = json_object_get(det, "model");
        if (json_only_fields_at(det, mfields, "detector", err) != 0)
            return -1;
        if (!json_is_integer(v) || json_integer_value(v) < 1)
            return err_invalid(err, "detector.model",
                               "detector.model must be a model id");
        if (json_object_size(body) != 1)
            return err_invalid(err, "detector",
                               "a model watches its own selection: give only "
                               "{\"detector\": {\"model\": ID}}");
        w->model_id = json_integer_value(v);
        return 0;
    }
    if (check_detector(det, &t, &w->threshold, &w->window, err) != 0)
        return -1;
    w->test = detect_name(t);
    if ((*app = json_get_name(json_object_get(body, "application"), "application",
                              LIMIT_NAME, a, err)) == NULL ||
        (*sys = json_get_name(json_object_get(body, "system"), "system", LIMIT_NAME, a,
                              err)) == NULL)
        return -1;
    if (json_object_get(body, "executable") != NULL &&
        (*exe = json_get_name(json_object_get(body, "executable"), "executable",
                              LIMIT_NAME, a, err)) == NULL)
        return -1;
    v = json_object_get(body, "nprocs");
    if (v != NULL) {
        if (!json_is_integer(v) || json_integer_value(v) < 1 ||
            json_integer_value(v) > 100000000)
            return err_invalid(err, "nprocs", "nprocs must be an integer of at least 1");
        w->nprocs = json_integer_value(v);
    }
    inputs = json_object_get(body, "inputs");
    if (inputs != NULL && json_object_size(inputs) > 0) {
        const char *key;
        char *s;
        if (!json_is_object(inputs) || json_object_size(inputs) > LIMIT_INPUTS)
            return err_invalid(err, "inputs",
                               "inputs must be an object of at most %d numbers",
                               LIMIT_INPUTS);
        json_object_foreach(inputs, key, v)
        {
            double x;
            if (json_check_name(key, strlen(key), "inputs", LIMIT_NAME, err) != 0 ||
                json_get_number(v, "inputs", &x, err) != 0)
                return -1;
        }
        s = json_dumps(inputs, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
        w->inputs_json = s ? arena_strdup(a, s) : NULL;
        free(s);
        if (w->inputs_json == NULL)
            return err_nomem(err);
    } else if (inputs != NULL && !json_is_object(inputs)) {
        return err_invalid(err, "inputs", "inputs must be an object of numbers");
    }
    return check_y(json_object_get(body, "y"), &w->y, err);
}

int watch_check(json_t *body, struct err *err)
{
    struct db_watch w;
    const char *app, *exe, *sys;
    arena *a = arena_new();
    int rc;
    if (a == NULL)
        return err_nomem(err);
    rc = decode(body, &w, &app, &exe, &sys, a, err);
    arena_free(a);
    return rc;
}

/* The first variable of a saved fit's request ("x": "N" or ["nprocs", "N"]):
 * the one a judgement records as its x. NULL when the request names none. */
static const char *model_x(const json_t *m)
{
    const json_t *x = json_object_get(json_object_get(m, "request"), "x");
    if (json_is_array(x) && json_array_size(x) >= 1 && json_array_size(x) <= 2)
        x = json_array_get(x, 0);
    return json_string_value(x);
}

/* The fitted law's state in a saved fit's answer ({"model": {"state": ...}}). */
static const json_t *model_state(const json_t *m)
{
    return json_object_get(json_object_get(json_object_get(m, "result"), "model"),
                           "state");
}

/* A saved fit model's selection becomes the watch's: application, system,
 * executable, the fixed values (nprocs and inputs) and y. */
static int from_model(db *d, struct db_watch *w, const char **app, const char **exe,
                      const char **sys, arena *a, struct err *err)
{
    json_t *m = db_model_get(d, w->model_id, err), *req, *fixed, *v;
    const char *key, *y;
    json_t *inputs = NULL;
    int rc = -1;

    if (m == NULL)
        return -1;
    req = json_object_get(m, "request");
    if (strcmp(json_string_value(json_object_get(m, "method")), "fit") != 0 ||
        json_object_get(req, "data") != NULL || model_x(m) == NULL) {
        err_set(err, 422, "invalid", "detector.model",
                "model %lld cannot watch runs: only a fit over stored runs (one or two "
                "variables) can",
                w->model_id);
        goto out;
    }
    if (json_is_false(json_object_get(model_state(m), "has_interval"))) {
        err_set(
            err, 422, "invalid", "detector.model",
            "model %lld has no prediction interval (the fit has no degrees of freedom "
            "left), so every run would be out: fit more points or another graph",
            w->model_id);
        goto out;
    }
    y = json_string_value(json_object_get(req, "y"));
    if (y == NULL)
        y = "runtime";
    if (strcmp(y, "speedup") == 0 || strcmp(y, "efficiency") == 0) {
        err_set(err, 422, "invalid", "detector.model",
                "model %lld fits %s, which one run does not have", w->model_id, y);
        goto out;
    }
    w->y = arena_strdup(a, y);
    *app = arena_strdup(a, json_string_value(json_object_get(req, "application")));
    *sys = arena_strdup(a, json_string_value(json_object_get(req, "system")));
    *exe = json_is_string(json_object_get(req, "executable"))
               ? arena_strdup(a, json_string_value(json_object_get(req, "executable")))
               : NULL;
    fixed = json_object_get(req, "fixed");
    inputs = json_object();
    json_object_foreach(fixed, key, v)
    {
        if (strcmp(key, "nprocs") == 0)
            w->nprocs = (long long)json_number_value(v);
        else
            json_object_set(inputs, key, v);
    }
    if (json_object_size(inputs) > 0) {
        char *s =
            json_dumps(inputs, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
        w->inputs_json = s ? arena_strdup(a, s) : NULL;
        free(s);
    }
    if (w->y == NULL || *app == NULL || *sys == NULL) {
        err_nomem(err);
        goto out;
    }
    rc = 0;
out:
    json_decref(inputs);
    json_decref(m);
    return rc;
}

int watch_create(db *d, json_t *body, long long *id, struct err *err)
{
    struct db_watch w;
    const char *app, *exe, *sys;
    arena *a = arena_new();
    long long n;
    int rc = -1;

    if (a == NULL)
        return err_nomem(err);
    if (decode(body, &w, &app, &exe, &sys, a, err) != 0)
        goto out;
    if (w.model_id && from_model(d, &w, &app, &exe, &sys, a, err) != 0)
        goto out;
    n = db_watches_count(d, err);
    if (n < 0)
        goto out;
    if (n >= LIMIT_WATCHES) {
        err_set(err, 422, "invalid", NULL, "there are already %d watches", LIMIT_WATCHES);
        goto out;
    }
    rc = db_watch_add(d, &w, app, exe, sys, id, err);
out:
    arena_free(a);
    return rc;
}

json_t *watch_list(db *d, struct err *err)
{
    json_t *rows = db_watches_list(d, err), *row;
    size_t i;
    if (rows == NULL)
        return NULL;
    json_array_foreach(rows, i, row)
    {
        json_t *model = json_object_get(row, "model");
        json_t *det;
        if (json_is_integer(model))
            det = json_pack("{s:O}", "model", model);
        else
            det = json_pack("{s:O, s:O, s:O}", "test", json_object_get(row, "test"),
                            "threshold", json_object_get(row, "threshold"), "window",
                            json_object_get(row, "window"));
        json_object_set_new(row, "detector", det);
        json_object_del(row, "test");
        json_object_del(row, "threshold");
        json_object_del(row, "window");
    }
    return json_pack("{s:o}", "watches", rows);
}

/* ---- judging -------------------------------------------------------------- */

/* y of a run as stored by this batch (the record in hand, no query). */
static int record_value(const struct run_record *r, const char *y, double *v)
{
    size_t i;
    int found = 0;
    if (strcmp(y, "runtime") == 0) {
        *v = r->runtime;
        return 1;
    }
    if (strncmp(y, "metric:", 7) == 0) {
        for (i = 0; i < r->nmetrics; i++)
            if (strcmp(r->metrics[i].name, y + 7) == 0) {
                *v = r->metrics[i].value;
                return 1;
            }
        return 0;
    }
    *v = 0;
    for (i = 0; i < r->nkernels; i++)
        if (strcmp(r->kernels[i].name, y + 7) == 0) {
            *v += r->kernels[i].time;
            found = 1;
        }
    return found;
}

/* A model watch's verdict: inside or outside the 95 % prediction interval. */
static int judge_model(db *d, const struct db_watch *w, const struct run_record *r,
                       struct db_judgement *j, struct err *err)
{
    json_t *m = db_model_get(d, w->model_id, err), *point, *pred = NULL;
    const char *x;
    size_t i;
    int rc = -1;

    if (m == NULL)
        return -1;
    x = model_x(m);
    point = json_object();
    json_object_set_new(point, "nprocs", json_integer(r->nprocs));
    for (i = 0; i < r->ninputs; i++)
        json_object_set_new(point, r->inputs[i].name, json_real(r->inputs[i].value));
    if (x != NULL && json_object_get(point, x) != NULL) {
        struct err local = {0};
        j->has_x = 1;
        j->x = json_number_value(json_object_get(point, x));
        /* A point the model cannot evaluate (outside its domain) is judged
         * "not ready" rather than failing the upload. */
        pred = fit_predict_saved(json_object_get(m, "result"), point, &local);
    }
    if (pred != NULL) {
        json_t *lo = json_object_get(pred, "lo"), *hi = json_object_get(pred, "hi");
        j->expected = json_number_value(json_object_get(pred, "y"));
        j->lo = json_is_number(lo) ? json_number_value(lo) : j->expected;
        j->hi = json_is_number(hi) ? json_number_value(hi) : j->expected;
        /* Without an interval there is no band to be out of. */
        j->ready = isfinite(j->expected) && isfinite(j->lo) && isfinite(j->hi) &&
                   !json_is_false(json_object_get(pred, "interval"));
        if (j->ready) {
            j->direction = j->value > j->hi ? 1 : j->value < j->lo ? -1 : 0;
            j->out = j->direction != 0;
            j->score =
                j->expected != 0 ? (j->value - j->expected) / fabs(j->expected) : 0;
        } else {
            j->expected = j->lo = j->hi = 0;
        }
    }
    rc = 0;
    json_decref(pred);
    json_decref(point);
    json_decref(m);
    return rc;
}

static int judge_test(const struct db_watch *w, const double *hist, size_t n,
                      struct db_judgement *j, struct err *err)
{
    enum detect_test t;
    struct detect_verdict v;

    if (detect_parse(w->test, &t, "test", err) != 0)
        return -1;
    if (detect_judge(t, w->threshold, hist, n, j->value, &v, err) != 0)
        return -1;
    j->ready = v.ready;
    j->out = v.out;
    j->direction = v.direction;
    j->expected = v.expected;
    j->lo = v.lo;
    j->hi = v.hi;
    j->score = v.score;
    return 0;
}

/* One quantity the statistical watches covering a run look back on: y, the
 * largest window any of them asks for, and its values, latest first. The
 * window query is ordered (time, id) and limited, so a watch of window w
 * judges against the first min(w, n) values whichever limit read them: one
 * query per distinct y instead of one per watch, with the same answers. */
struct series {
    const char *y;
    long long want;
    size_t at; /* offset of the values in the shared buffer */
    int n;
};

/* Buffers reused across the runs of a batch. */
struct judge_scratch {
    struct series *s;
    size_t scap;
    double *v;
    size_t vcap;
    struct db_judgement *j; /* a run's judgements, stored together */
    long long *alerts;
    size_t jcap;
};

static int scratch_reserve(struct judge_scratch *sc, size_t nseries, size_t nvalues,
                           struct err *err)
{
    if (nseries > sc->scap) {
        struct series *s = realloc(sc->s, nseries * sizeof *s);
        if (s == NULL)
            return err_nomem(err);
        sc->s = s;
        sc->scap = nseries;
    }
    if (nvalues > sc->vcap) {
        double *v = realloc(sc->v, nvalues * sizeof *v);
        if (v == NULL)
            return err_nomem(err);
        sc->v = v;
        sc->vcap = nvalues;
    }
    return 0;
}

static int scratch_judgements(struct judge_scratch *sc, size_t n, struct err *err)
{
    if (n > sc->jcap) {
        struct db_judgement *j = realloc(sc->j, n * sizeof *j);
        long long *alerts;
        if (j == NULL)
            return err_nomem(err);
        sc->j = j;
        alerts = realloc(sc->alerts, n * sizeof *alerts);
        if (alerts == NULL)
            return err_nomem(err);
        sc->alerts = alerts;
        sc->jcap = n;
    }
    return 0;
}

/* Reads, for run i, the window of every y its statistical watches w[0..nw)
 * judge; *ns is the number of series. */
static int read_series(db *d, long long run_id, const struct run_record *r,
                       const struct db_watch *w, int nw, struct judge_scratch *sc,
                       size_t *ns, struct err *err)
{
    size_t n = 0, total = 0, i;
    double unused;
    int k;

    *ns = 0;
    if (scratch_reserve(sc, (size_t)nw, 0, err) != 0)
        return -1;
    for (k = 0; k < nw; k++) {
        if (w[k].model_id || !record_value(r, w[k].y, &unused))
            continue;
        for (i = 0; i < n && strcmp(sc->s[i].y, w[k].y) != 0; i++)
            ;
        if (i == n)
            sc->s[n++] = (struct series){w[k].y, 0, 0, 0};
        if (w[k].window > sc->s[i].want)
            sc->s[i].want = w[k].window;
    }
    for (i = 0; i < n; i++) {
        sc->s[i].at = total;
        total += (size_t)sc->s[i].want;
    }
    if (scratch_reserve(sc, 0, total, err) != 0)
        return -1;
    for (i = 0; i < n; i++) {
        int got = db_history_window(d, run_id, sc->s[i].y, sc->s[i].want,
                                    sc->v + sc->s[i].at, err);
        if (got < 0)
            return -1;
        sc->s[i].n = got;
    }
    *ns = n;
    return 0;
}

static int add_alert(struct ingest *in, long long alert, struct err *err)
{
    long long *more = arena_alloc(in->arena, (in->nalerts + 1) * sizeof *more);
    if (more == NULL)
        return err_nomem(err);
    if (in->nalerts)
        memcpy(more, in->alerts, in->nalerts * sizeof *more);
    more[in->nalerts++] = alert;
    in->alerts = more;
    return 0;
}

int watch_judge(db *d, struct ingest *in, void *arg, struct err *err)
{
    long long nwatch = db_watches_count(d, err);
    struct judge_scratch sc = {0};
    arena *a;
    size_t i;
    int rc = -1;

    (void)arg;
    if (nwatch <= 0)
        return nwatch < 0 ? -1 : 0;
    a = arena_new();
    if (a == NULL)
        return err_nomem(err);
    for (i = 0; i < in->n; i++) {
        struct db_watch *w;
        size_t ns, s, nj = 0;
        int nw, k;
        if (in->existed[i])
            continue; /* judged when it was first stored */
        nw = db_watches_for_run(d, in->ids[i], a, &w, err);
        if (nw < 0)
            goto out;
        if (nw == 0)
            continue;
        if (read_series(d, in->ids[i], &in->runs[i], w, nw, &sc, &ns, err) != 0 ||
            scratch_judgements(&sc, (size_t)nw, err) != 0)
            goto out;
        for (k = 0; k < nw; k++) {
            struct db_judgement j = {0};
            j.watch_id = w[k].id;
            j.run_id = in->ids[i];
            if (!record_value(&in->runs[i], w[k].y, &j.value))
                continue; /* the run lacks the watched quantity */
            if (w[k].model_id) {
                if (judge_model(d, &w[k], &in->runs[i], &j, err) != 0)
                    goto out;
            } else {
                size_t n;
                for (s = 0; strcmp(sc.s[s].y, w[k].y) != 0; s++)
                    ;
                n = (size_t)sc.s[s].n;
                if (n > (size_t)w[k].window)
                    n = (size_t)w[k].window;
                if (judge_test(&w[k], sc.v + sc.s[s].at, n, &j, err) != 0)
                    goto out;
            }
            sc.j[nj++] = j;
        }
        if (db_judgements_add(d, sc.j, nj, sc.alerts, err) != 0)
            goto out;
        for (s = 0; s < nj; s++)
            if (sc.alerts[s] && add_alert(in, sc.alerts[s], err) != 0)
                goto out;
    }
    rc = 0;
out:
    free(sc.s);
    free(sc.v);
    free(sc.j);
    free(sc.alerts);
    arena_free(a);
    return rc;
}

/* ---- the ledger ------------------------------------------------------------ */

json_t *watch_ledger(db *d, long long model_id, struct err *err)
{
    json_t *m = db_model_get(d, model_id, err), *rows, *row;
    double sum_err = 0;
    size_t i, nerr = 0, inside = 0;

    if (m == NULL)
        return NULL;
    json_decref(m);
    rows = db_model_judgements(d, model_id, err);
    if (rows == NULL)
        return NULL;
    json_array_foreach(rows, i, row)
    {
        double p = json_number_value(json_object_get(row, "predicted"));
        double y = json_number_value(json_object_get(row, "actual"));
        int in_band = !json_integer_value(json_object_get(row, "out"));
        char at[32];
        /* the run's instant in UTC, as the series gives it */
        isotime_format(json_integer_value(json_object_get(row, "at")), at);
        json_object_set_new(row, "at", json_string(at));
        json_object_del(row, "out");
        json_object_set_new(row, "inside", json_boolean(in_band));
        inside += (size_t)in_band;
        if (p != 0 && isfinite((y - p) / p)) {
            double e = fabs(y - p) / fabs(p);
            sum_err += e;
            nerr++;
            json_object_set_new(row, "error", json_real(e));
        } else {
            json_object_set_new(row, "error", json_null());
        }
        json_object_set_new(row, "running_error",
                            nerr ? json_real(sum_err / (double)nerr) : json_null());
        json_object_set_new(row, "running_coverage",
                            json_real((double)inside / (double)(i + 1)));
    }
    return json_pack("{s:I, s:I, s:o, s:o, s:o}", "model", (json_int_t)model_id, "n",
                     (json_int_t)json_array_size(rows), "mean_abs_error",
                     nerr ? json_real(sum_err / (double)nerr) : json_null(), "coverage",
                     json_array_size(rows)
                         ? json_real((double)inside / (double)json_array_size(rows))
                         : json_null(),
                     "entries", rows);
}

/* ---- alerts ----------------------------------------------------------------- */

static const char *const STATES[] = {"open", "acknowledged", "false_positive", "resolved",
                                     NULL};

static int known_state(const char *s)
{
    for (int i = 0; STATES[i]; i++)
        if (strcmp(s, STATES[i]) == 0)
            return 1;
    return 0;
}

json_t *alert_list(db *d, const char *state, long long id, struct err *err)
{
    json_t *rows, *row;
    size_t i;
    if (state != NULL && !known_state(state)) {
        err_set(err, 400, "bad_parameter", "state",
                "state must be open, acknowledged, false_positive or resolved");
        return NULL;
    }
    rows = db_alerts_list(d, state, id, err);
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
    if (s == NULL || !known_state(s)) {
        err_invalid(err, "state",
                    "state must be open, acknowledged, false_positive or "
                    "resolved");
        return NULL;
    }
    return s;
}
