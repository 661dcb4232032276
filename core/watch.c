/* watch: watches, judgements, the ledger and alerts; see watch.h.
 *
 * The hook's cost when nothing watches is one query per batch (the watches'
 * version, migration 9); the watch set itself is kept in memory and matched
 * against each new run in C. One window per distinct y is read for the
 * statistical watches of that y (db_history_window: on SQLite the writer
 * keeps each configuration's latest window in memory), each distinct
 * question (y, test, threshold, window; or model) is answered once per run,
 * and the run's judgements are stored in a few multi-row statements.
 * A model watch predicts through the saved answer alone (fit_predict_saved
 * in core/method_fit.h, the same code that answers GET .../predict), so the
 * model is never re-fitted.
 */
#include "core/watch.h"
#include "common/isotime.h"
#include "common/arena.h"
#include "common/xalloc.h"
#include "core/history.h"
#include "core/method_fit.h"
#include "core/watch_scaling.h"
#include "db/catalog.h"
#include "db/history.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "models/changes.h"
#include "models/detect.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_WINDOW 20

void watch_install(void)
{
    struct ingest_hooks h = {watch_judge, NULL, NULL, watch_idle, watch_idle_known};
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
        return err_set(err, ERR_INVALID, "invalid", "y",
                       "y must be runtime, metric:NAME or kernel:NAME");
    *y = s;
    return 0;
}

/* ---- the changepoint watch (SPEC §17) ---------------------------------------
 *
 * {"test": "changepoint", "threshold": P}: each new run is asked whether it
 * reveals a change point of its configuration's series (models/changes.h:
 * changes_watch over the latest changes_watch_runs runs, the new one last;
 * the last change point it saw is kept in the watch set's changes_cache,
 * and found again in those runs when the set was read anew). Stored as a
 * statistical watch whose window is the runs read before the new one. */

#define CHANGEPOINT "changepoint"

static int check_changepoint(json_t *det, double *threshold, long long *window,
                             struct err *err)
{
    static const char *const fields[] = {"test", "threshold", NULL};
    struct changes_opts o = {0};
    json_t *v;

    if (json_only_fields_at(det, fields, "detector", err) != 0)
        return -1;
    v = json_object_get(det, "threshold");
    if (v != NULL) {
        if (json_get_number(v, "detector.threshold", &o.threshold, err) != 0)
            return -1;
        if (!(o.threshold > 0 && o.threshold < 1))
            return err_invalid(err, "detector.threshold",
                               "detector.threshold (a p value) must be in (0, 1)");
    }
    if (changes_check(&o, "detector", err) != 0)
        return -1;
    *threshold = o.threshold;
    *window = (long long)changes_watch_runs(&o) - 1;
    return 0;
}

/* A changepoint watch's verdict on a run of value `value`, the hist[0..n)
 * values before it latest first: out when the run reveals a change point;
 * expected is the mean of the runs it was tested against (of the latest
 * window when none), lo and hi their range. */
static int judge_changepoint(double threshold, struct changes_cache *cache,
                             const double *hist, size_t n, struct db_judgement *j,
                             struct err *err)
{
    struct changes_opts o = {.threshold = threshold};
    struct changes_point cp;
    double y[CHANGES_WATCH_MAX_RUNS], lo = INFINITY, hi = -INFINITY, sum = 0;
    size_t i, last;
    int found;

    if (changes_check(&o, NULL, err) != 0)
        return -1;
    if (n > CHANGES_WATCH_MAX_RUNS - 1)
        n = CHANGES_WATCH_MAX_RUNS - 1;
    for (i = 0; i < n; i++)
        y[n - 1 - i] = hist[i];
    y[n] = j->value;
    found = changes_watch(y, n + 1, &o, cache, &cp, err);
    if (found < 0)
        return -1;
    j->ready = n >= o.min_before + o.min_after - 1;
    if (!j->ready)
        return 0;
    /* the band: the runs before the change (or the latest window) */
    last = found ? cp.at : n;
    for (i = last > o.window ? last - o.window : 0; i < last; i++) {
        sum += y[i];
        lo = fmin(lo, y[i]);
        hi = fmax(hi, y[i]);
    }
    i = last > o.window ? o.window : last;
    j->expected = found ? cp.before : sum / (double)i;
    j->lo = lo;
    j->hi = hi;
    j->out = found;
    if (found) {
        double after = 0;
        for (i = cp.at; i <= n; i++)
            after += y[i];
        after /= (double)(n + 1 - cp.at);
        j->direction = after > cp.before ? 1 : after < cp.before ? -1 : 0;
        j->score = cp.before != 0 ? after / cp.before - 1 : 0;
    }
    return 0;
}

/* The statistical form's detector: test, threshold, window. */
static int check_detector(json_t *det, enum detect_test *t, double *threshold,
                          long long *window, struct err *err)
{
    static const char *const fields[] = {"test", "threshold", "window", NULL};
    json_t *v;

    v = json_object_get(det, "test");
    if (json_is_string(v) && strcmp(json_string_value(v), CHANGEPOINT) == 0)
        return check_changepoint(det, threshold, window, err);
    if (json_only_fields_at(det, fields, "detector", err) != 0)
        return -1;
    if (!json_is_string(v))
        return err_invalid(err, "detector.test",
                           "detector.test must be zscore, ttest, "
                           "percent, iqr or changepoint");
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

/* "confirm": K, the runs out in a row that turn a suspected alert into an
 * open one (SPEC §17); absent: alerts open at once. */
static int check_confirm(json_t *v, long long *k, struct err *err)
{
    *k = 0;
    if (v == NULL)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        json_integer_value(v) > LIMIT_CONFIRM)
        return err_invalid(err, "confirm", "confirm must be an integer from 1 to %d",
                           LIMIT_CONFIRM);
    *k = json_integer_value(v);
    return 0;
}

/* Decodes the body into w (and the names), without the store. */
static int decode(json_t *body, struct db_watch *w, const char **app, const char **exe,
                  const char **sys, arena *a, struct err *err)
{
    static const char *const fields[] = {"application", "executable", "system",
                                         "nprocs",      "inputs",     "y",
                                         "detector",    "confirm",    NULL};
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
    t = DETECT_ZSCORE;
    if (json_object_get(det, "scaling") != NULL) {
        if (watch_scaling_decode(det, w, a, err) != 0)
            return -1;
    } else {
        if (check_detector(det, &t, &w->threshold, &w->window, err) != 0 ||
            check_confirm(json_object_get(body, "confirm"), &w->confirm, err) != 0)
            return -1;
        w->test =
            strcmp(json_string_value(json_object_get(det, "test")), CHANGEPOINT) == 0
                ? CHANGEPOINT
                : detect_name(t);
    }
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
    if (check_y(json_object_get(body, "y"), &w->y, err) != 0)
        return -1;
    return w->x != NULL ? watch_scaling_check(w, body, err) : 0;
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
        err_set(err, ERR_INVALID, "invalid", "detector.model",
                "model %lld cannot watch runs: only a fit over stored runs (one or two "
                "variables) can",
                w->model_id);
        goto out;
    }
    if (json_is_false(json_object_get(model_state(m), "has_interval"))) {
        err_set(
            err, ERR_INVALID, "invalid", "detector.model",
            "model %lld has no prediction interval (the fit has no degrees of freedom "
            "left), so every run would be out: fit more points or another graph",
            w->model_id);
        goto out;
    }
    y = json_string_value(json_object_get(req, "y"));
    if (y == NULL)
        y = "runtime";
    if (strcmp(y, "speedup") == 0 || strcmp(y, "efficiency") == 0) {
        err_set(err, ERR_INVALID, "invalid", "detector.model",
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
        err_set(err, ERR_INVALID, "invalid", NULL, "there are already %d watches",
                LIMIT_WATCHES);
        goto out;
    }
    rc = db_watch_add(d, &w, app, exe, sys, id, err);
out:
    arena_free(a);
    return rc;
}

/* The scaling watch of id among w[0..n) (in id order), or NULL. */
static const struct db_watch *find_watch(const struct db_watch *w, int n, long long id)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (w[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && w[lo].id == id ? &w[lo] : NULL;
}

json_t *watch_list(db *d, struct err *err)
{
    json_t *rows = db_watches_list(d, err), *row;
    struct db_watch *all = NULL;
    arena *a = NULL;
    size_t i;
    int nall = 0;
    if (rows == NULL)
        return NULL;
    /* a scaling watch's own fields (x, target, baseline: migration 15) */
    json_array_foreach(rows, i, row)
    {
        const char *test = json_string_value(json_object_get(row, "test"));
        if (test != NULL && strcmp(test, WATCH_SCALING) == 0 && a == NULL) {
            if ((a = arena_new()) == NULL ||
                (nall = db_watches_all(d, a, &all, err)) < 0) {
                if (a == NULL)
                    err_nomem(err);
                arena_free(a);
                json_decref(rows);
                return NULL;
            }
        }
    }
    json_array_foreach(rows, i, row)
    {
        json_t *model = json_object_get(row, "model");
        const char *test = json_string_value(json_object_get(row, "test"));
        const struct db_watch *sw =
            test != NULL && strcmp(test, WATCH_SCALING) == 0
                ? find_watch(all, nall, json_integer_value(json_object_get(row, "id")))
                : NULL;
        json_t *det;
        if (sw != NULL)
            det = watch_scaling_detector(sw);
        else if (json_is_integer(model))
            det = json_pack("{s:O}", "model", model);
        else
            det = json_pack("{s:O, s:O, s:O}", "test", json_object_get(row, "test"),
                            "threshold", json_object_get(row, "threshold"), "window",
                            json_object_get(row, "window"));
        json_object_set_new(row, "detector", det);
        if (json_is_null(json_object_get(row, "confirm")))
            json_object_del(row, "confirm");
        json_object_del(row, "test");
        json_object_del(row, "threshold");
        json_object_del(row, "window");
    }
    arena_free(a);
    return json_pack("{s:o}", "watches", rows);
}

/* ---- judging -------------------------------------------------------------- */

/* y of a run as stored by this batch (the record in hand, no query). */
static int record_value(const struct run_record *r, const char *y, double *v)
{
    size_t i;
    int found = 0;
    if (strcmp(y, "runtime") == 0) {
        *v = r->runtime; /* a run without one is not judged (SPEC §16) */
        return RUN_HAS_RUNTIME(r->runtime);
    }
    if (strncmp(y, "metric:", 7) == 0) {
        for (i = 0; i < r->nmetrics; i++)
            if (strcmp(r->metrics[i].name, y + 7) == 0) {
                *v = r->metrics[i].value;
                return 1;
            }
        return 0;
    }
    *v = 0; /* records of the name with a time, summed; none: not judged */
    for (i = 0; i < r->nkernels; i++)
        if (strcmp(r->kernels[i].name, y + 7) == 0 &&
            KERNEL_HAS_TIME(r->kernels[i].time)) {
            *v += r->kernels[i].time;
            found = 1;
        }
    return found;
}

/* ---- the watch set in memory ------------------------------------------------
 *
 * The hook keeps every watch, decoded, with its model's saved answer: a run is
 * matched against them in C instead of a query per run, and a model is not
 * read and parsed again for every judgement. The set is read again when the
 * database's watches_version (migration 9: every change of a watch, by any
 * connection or server) or the connection (db_serial) differs from the one
 * it was read at, one cheap query per batch. */

struct cwatch {
    struct db_watch w;     /* strings in the set's arena */
    enum detect_test test; /* a statistical watch's */
    size_t ninputs;        /* the inputs it fixes */
    const char **in_name;
    double *in_value;
    int never;       /* it fixes an input to a non-number: covers nothing */
    json_t *result;  /* a model watch: the saved answer's result */
    const char *x;   /* and the model's x (NULL: none) */
    size_t yslot;    /* its y among the set's distinct ones (set.y) */
    size_t qslot;    /* the first watch of the set asking its question */
    size_t sslot;    /* the first with its test, y and window (its statistic) */
    int changepoint; /* a changepoint watch (test "changepoint") */
    int scaling;     /* a scaling watch (test "scaling", core/watch_scaling.h) */
};

struct wset {
    long long serial, version;
    int loaded;
    arena *a;
    struct cwatch *w;
    size_t n;
    const char **y; /* the distinct y of the watches */
    size_t ny;
    struct changes_cache *changes; /* the changepoint watches' tables */
    struct watch_law_cache *laws;  /* the scaling watches' fitted laws */
};

static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wset set;

static void set_clear(void)
{
    /* up to set.n included: a load that failed midway holds one more (set.w
     * has room for n + 1, zeroed) */
    for (size_t i = 0; set.w != NULL && i <= set.n; i++)
        json_decref(set.w[i].result);
    changes_cache_free(set.changes);
    watch_law_cache_free(set.laws);
    arena_free(set.a);
    memset(&set, 0, sizeof set);
}

static int decode_inputs(struct cwatch *c, arena *a, struct err *err)
{
    json_t *in, *v;
    const char *k;
    size_t i = 0;

    if (c->w.inputs_json == NULL)
        return 0;
    in = json_loads(c->w.inputs_json, 0, NULL);
    if (!json_is_object(in)) {
        json_decref(in);
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "watch %lld: inputs are not an object", c->w.id);
    }
    c->ninputs = json_object_size(in);
    c->in_name = arena_alloc(a, (c->ninputs + 1) * sizeof *c->in_name);
    c->in_value = arena_alloc(a, (c->ninputs + 1) * sizeof *c->in_value);
    if (c->in_name == NULL || c->in_value == NULL) {
        json_decref(in);
        return err_nomem(err);
    }
    json_object_foreach(in, k, v)
    {
        c->in_name[i] = arena_strdup(a, k);
        /* null (a fit's "fixed" of an absent input): runs without it */
        c->in_value[i] = json_is_null(v) ? NAN : json_number_value(v);
        if (c->in_name[i] == NULL) {
            json_decref(in);
            return err_nomem(err);
        }
        c->never |= !json_is_number(v) && !json_is_null(v);
        i++;
    }
    json_decref(in);
    return 0;
}

/* Whether two watches ask the same question of a run (the same model; or the
 * same y, test, threshold and window), so reach the same verdict. */
static int same_question(const struct cwatch *o, const struct cwatch *c)
{
    if (c->scaling || o->scaling)
        return 0; /* its verdict is of the run's commit and curve: its own */
    return c->w.model_id ? o->w.model_id == c->w.model_id
                         : !o->w.model_id && o->test == c->test &&
                               o->changepoint == c->changepoint &&
                               o->w.threshold == c->w.threshold &&
                               o->w.window == c->w.window && strcmp(o->w.y, c->w.y) == 0;
}

/* Whether two statistical watches look at the same window the same way (y,
 * test and window; the threshold aside), so share its statistic. */
static int same_statistic(const struct cwatch *o, const struct cwatch *c)
{
    return !c->w.model_id && !o->w.model_id && !c->changepoint && !o->changepoint &&
           !c->scaling && !o->scaling && o->test == c->test &&
           o->w.window == c->w.window && strcmp(o->w.y, c->w.y) == 0;
}

static int set_load(db *d, long long version, struct err *err)
{
    struct db_watch *w;
    int n;

    set_clear();
    set.a = arena_new();
    if (set.a == NULL)
        return err_nomem(err);
    n = db_watches_all(d, set.a, &w, err);
    if (n < 0)
        return -1;
    set.w = arena_alloc(set.a, (size_t)(n + 1) * sizeof *set.w);
    if (set.w == NULL)
        return err_nomem(err);
    memset(set.w, 0, (size_t)(n + 1) * sizeof *set.w);
    for (set.n = 0; set.n < (size_t)n; set.n++) {
        struct cwatch *c = &set.w[set.n];
        c->w = w[set.n];
        if (decode_inputs(c, set.a, err) != 0)
            return -1;
        if (c->w.model_id) {
            json_t *m = db_model_get(d, c->w.model_id, err);
            const char *x;
            if (m == NULL)
                return -1;
            x = model_x(m);
            c->x = x ? arena_strdup(set.a, x) : NULL;
            c->result = json_incref(json_object_get(m, "result"));
            json_decref(m);
            if (x != NULL && c->x == NULL)
                return err_nomem(err);
        } else if (strcmp(c->w.test, WATCH_SCALING) == 0) {
            c->scaling = 1;
            if (set.laws == NULL && (set.laws = watch_law_cache_new()) == NULL)
                return err_nomem(err);
        } else if (strcmp(c->w.test, CHANGEPOINT) == 0) {
            struct changes_opts o = {0};
            c->changepoint = 1;
            if (set.changes == NULL && (set.changes = changes_cache_new(&o)) == NULL)
                return err_nomem(err);
        } else if (detect_parse(c->w.test, &c->test, "test", err) != 0) {
            return -1;
        }
    }
    /* Each watch's y and question as slots, so that judging a run reads
     * each y's value once and answers each question once. */
    set.y = arena_alloc(set.a, (set.n + 1) * sizeof *set.y);
    if (set.y == NULL)
        return err_nomem(err);
    for (size_t k = 0; k < set.n; k++) {
        struct cwatch *c = &set.w[k];
        size_t i;
        for (i = 0; i < set.ny && strcmp(set.y[i], c->w.y) != 0; i++)
            ;
        if (i == set.ny)
            set.y[set.ny++] = c->w.y;
        c->yslot = i;
        for (i = 0; i < k && !same_question(&set.w[i], c); i++)
            ;
        c->qslot = i;
        for (i = 0; i < k && !same_statistic(&set.w[i], c); i++)
            ;
        c->sslot = i;
    }
    set.serial = db_serial(d);
    set.version = version;
    set.loaded = 1;
    return 0;
}

/* Whether watch c covers run r (as its application, and executable, system,
 * nprocs and inputs where it fixes them). */
static int covers(const struct cwatch *c, const struct run_record *r)
{
    if (c->never || strcmp(c->w.application, r->application) != 0 ||
        (c->w.executable && strcmp(c->w.executable, r->executable) != 0) ||
        (c->w.system && strcmp(c->w.system, r->system) != 0) ||
        (c->w.nprocs && c->w.nprocs != r->nprocs))
        return 0;
    for (size_t i = 0; i < c->ninputs; i++) {
        size_t k;
        for (k = 0; k < r->ninputs; k++)
            if (strcmp(r->inputs[k].name, c->in_name[i]) == 0)
                break;
        /* NAN: the input is absent from the runs it covers */
        if (isnan(c->in_value[i])
                ? k < r->ninputs
                : k == r->ninputs || r->inputs[k].value != c->in_value[i])
            return 0;
    }
    return 1;
}

/* ---- judging ---------------------------------------------------------------- */

/* A model watch's verdict: inside or outside the 95 % prediction interval.
 * point is the run's nprocs and inputs. */
static void judge_model(const struct cwatch *c, json_t *point, struct db_judgement *j)
{
    json_t *pred = NULL;

    if (c->x != NULL && json_object_get(point, c->x) != NULL) {
        struct err local = {0};
        j->has_x = 1;
        j->x = json_number_value(json_object_get(point, c->x));
        /* A point the model cannot evaluate (outside its domain) is judged
         * "not ready" rather than failing the upload. */
        pred = fit_predict_saved(c->result, point, &local);
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
    json_decref(pred);
}

/* One quantity the statistical watches covering a run look back on: y, the
 * largest window any of them asks for, and its values, latest first. The
 * window query is ordered (time, id) and limited, so a watch of window w
 * judges against the first min(w, n) values whichever limit read them: one
 * query per distinct y instead of one per watch, with the same answers. */
struct series {
    const char *y;
    double value; /* the run's own */
    long long want;
    size_t at; /* offset of the values in the shared buffer */
    int n;
};

/* Buffers reused across the runs of a batch, sized by the set: per y slot
 * the run's value and its series, per question slot the verdict, per
 * statistic slot the window's statistic, each valid for the run whose stamp
 * it carries. */
struct judge_scratch {
    const struct cwatch **c; /* the watches covering the run */
    struct series *s;
    struct db_judgement *j; /* a run's judgements, stored together */
    struct watch_law *law;  /* per judgement: a scaling watch's laws */
    /* the scaling judgements of this batch: a run judged alike by the same
     * watch takes the first one's verdict (watch_scaling_same) */
    struct batch_law {
        const struct cwatch *c;
        const struct run_record *r;
        struct db_judgement j;
    } done[16];
    size_t ndone;
    long long *alerts;
    double *v;
    size_t vcap;
    double *yvalue;          /* per y slot */
    long *ystamp;            /* run stamp of yvalue; -stamp: the run lacks it */
    size_t *yseries;         /* per y slot: its series in s */
    long *sstamp;            /* run stamp of yseries */
    struct db_judgement *qj; /* per question slot: its verdict */
    long *qstamp;            /* run stamp of qj */
    struct detect_stat *st;  /* per statistic slot: the window's statistic */
    long *ststamp;           /* run stamp of st */
    long stamp;
    size_t alerts_cap; /* room in in->alerts (arena, grown by doubling) */
};

static int scratch_init(struct judge_scratch *sc, struct err *err)
{
    size_t n = set.n, ny = set.ny;
    memset(sc, 0, sizeof *sc);
    sc->c = xmalloc(n * sizeof *sc->c);
    sc->s = xmalloc(ny * sizeof *sc->s);
    sc->j = xmalloc(n * sizeof *sc->j);
    sc->law = xmalloc(n * sizeof *sc->law);
    sc->alerts = xmalloc(n * sizeof *sc->alerts);
    sc->yvalue = xmalloc(ny * sizeof *sc->yvalue);
    sc->ystamp = xcalloc(ny, sizeof *sc->ystamp);
    sc->yseries = xmalloc(ny * sizeof *sc->yseries);
    sc->sstamp = xcalloc(ny, sizeof *sc->sstamp);
    sc->qj = xmalloc(n * sizeof *sc->qj);
    sc->qstamp = xcalloc(n, sizeof *sc->qstamp);
    sc->st = xmalloc(n * sizeof *sc->st);
    sc->ststamp = xcalloc(n, sizeof *sc->ststamp);
    if (!sc->c || !sc->s || !sc->j || !sc->law || !sc->alerts || !sc->yvalue ||
        !sc->ystamp || !sc->yseries || !sc->sstamp || !sc->qj || !sc->qstamp || !sc->st ||
        !sc->ststamp)
        return err_nomem(err);
    return 0;
}

static void scratch_free(struct judge_scratch *sc)
{
    xfree(sc->c);
    xfree(sc->s);
    xfree(sc->j);
    xfree(sc->law);
    xfree(sc->alerts);
    xfree(sc->v);
    xfree(sc->yvalue);
    xfree(sc->ystamp);
    xfree(sc->yseries);
    xfree(sc->sstamp);
    xfree(sc->qj);
    xfree(sc->qstamp);
    xfree(sc->st);
    xfree(sc->ststamp);
}

/* The run's value of watch c's y, read from the record once per run. */
static int value_of(struct judge_scratch *sc, const struct run_record *r,
                    const struct cwatch *c, double *v)
{
    size_t y = c->yslot;
    if (sc->ystamp[y] != sc->stamp && sc->ystamp[y] != -sc->stamp)
        sc->ystamp[y] = record_value(r, c->w.y, &sc->yvalue[y]) ? sc->stamp : -sc->stamp;
    *v = sc->yvalue[y];
    return sc->ystamp[y] == sc->stamp;
}

/* Reads, for run_id, the window of every y its nc statistical watches
 * judge (sc->s, through sc->yseries). */
static int read_series(db *d, long long run_id, const struct run_record *r, size_t nc,
                       struct judge_scratch *sc, struct err *err)
{
    size_t n = 0, total = 0, i, k;
    double v;

    for (k = 0; k < nc; k++) {
        const struct cwatch *c = sc->c[k];
        if (c->w.model_id || c->scaling || !value_of(sc, r, c, &v))
            continue;
        if (sc->sstamp[c->yslot] != sc->stamp) {
            sc->sstamp[c->yslot] = sc->stamp;
            sc->yseries[c->yslot] = n;
            sc->s[n++] = (struct series){c->w.y, v, 0, 0, 0};
        }
        i = sc->yseries[c->yslot];
        if (c->w.window > sc->s[i].want)
            sc->s[i].want = c->w.window;
    }
    for (i = 0; i < n; i++) {
        sc->s[i].at = total;
        total += (size_t)sc->s[i].want;
    }
    if (total > sc->vcap) {
        double *grown = xrealloc(sc->v, total * sizeof *grown);
        if (grown == NULL)
            return err_nomem(err);
        sc->v = grown;
        sc->vcap = total;
    }
    for (i = 0; i < n; i++) {
        int got = db_history_window(d, run_id, sc->s[i].y, sc->s[i].value, sc->s[i].want,
                                    sc->v + sc->s[i].at, err);
        if (got < 0)
            return -1;
        sc->s[i].n = got;
    }
    return 0;
}

/* Appends an alert id to in->alerts, doubling its room in the arena when
 * full: the copies left behind add up to less than the final array, so a
 * batch raising N alerts holds O(N) memory (one more element at a time was
 * O(N^2): 20,000 alerts took 1.6 GB). */
static int add_alert(struct ingest *in, struct judge_scratch *sc, long long alert,
                     struct err *err)
{
    if (in->nalerts == sc->alerts_cap) {
        size_t cap = sc->alerts_cap ? 2 * sc->alerts_cap : 64;
        long long *more;
        if (cap > SIZE_MAX / sizeof *more)
            return err_nomem(err);
        more = arena_alloc(in->arena, cap * sizeof *more);
        if (more == NULL)
            return err_nomem(err);
        if (in->nalerts)
            memcpy(more, in->alerts, in->nalerts * sizeof *more);
        in->alerts = more;
        sc->alerts_cap = cap;
    }
    in->alerts[in->nalerts++] = alert;
    return 0;
}

/* Confirmation (SPEC §17) of watch c's judgement j of a run: with a
 * suspected alert pending in the run's configuration, a run out confirms it
 * (raising nothing itself) and opens it at the watch's K-th, a run inside
 * resolves it as "not confirmed"; with none pending, a run out raises a
 * suspected alert. */
static int confirm_judgement(db *d, const struct cwatch *c, struct db_judgement *j,
                             struct err *err)
{
    long long id = 0, seen = 0;
    int rc = db_alert_suspected(d, c->w.id, j->run_id, &id, &seen, err);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        j->raise = DB_RAISE_SUSPECTED;
        return 0;
    }
    if (!j->out)
        return db_alert_confirm(d, id, seen, "resolved", "not confirmed", err);
    j->raise = DB_RAISE_NONE;
    seen++;
    return db_alert_confirm(d, id, seen, seen >= c->w.confirm ? "open" : NULL, NULL, err);
}

/* The judgement of this batch by scaling watch c of a run judged as r. */
static const struct batch_law *judged_alike(const struct judge_scratch *sc,
                                            const struct cwatch *c,
                                            const struct run_record *r)
{
    for (size_t i = 0; i < sc->ndone; i++)
        if (sc->done[i].c == c && watch_scaling_same(&c->w, sc->done[i].r, r))
            return &sc->done[i];
    return NULL;
}

/* Judges run i of the batch by the sc->c[0..nc) covering it. Watches asking
 * the same question (their qslot) share one verdict: a run judged by many
 * watches computes each distinct judgement once. */
static int judge_run(db *d, struct ingest *in, size_t i, size_t nc,
                     struct judge_scratch *sc, struct err *err)
{
    const struct run_record *r = &in->runs[i];
    const struct batch_law *k2;
    json_t *point = NULL;
    arena *a = NULL; /* a scaling judgement's runs and formulas */
    size_t k, nj = 0;
    int rc = -1;

    sc->stamp++;
    if (read_series(d, in->ids[i], r, nc, sc, err) != 0)
        return -1;
    for (k = 0; k < nc; k++) {
        const struct cwatch *c = sc->c[k];
        struct db_judgement j = {0};
        struct watch_law law = {0};
        if (!value_of(sc, r, c, &j.value))
            continue; /* the run lacks the watched quantity */
        if (sc->qstamp[c->qslot] == sc->stamp) {
            j = sc->qj[c->qslot];
        } else if (c->scaling && (k2 = judged_alike(sc, c, r)) != NULL) {
            /* its commit and curve were judged by this batch already: the
             * same verdict, and the alert it raised or refined as it is */
            double v = j.value;
            j = k2->j;
            if (!j.ready)
                j.value = v;
            j.raise = DB_RAISE_NONE;
        } else if (c->scaling) {
            int got;
            if (a == NULL && (a = arena_new()) == NULL) {
                err_nomem(err);
                goto out;
            }
            got = watch_scaling_judge(d, &c->w, r, set.laws, &j, &law, a, err);
            if (got < 0)
                goto out;
            if (got == 0)
                continue; /* not the scaling watch's to judge */
            if (law.alert)
                j.raise = DB_RAISE_NONE; /* its alert is refined below */
            if (sc->ndone < sizeof sc->done / sizeof sc->done[0])
                sc->done[sc->ndone++] = (struct batch_law){c, r, j};
        } else if (c->w.model_id) {
            if (point == NULL) {
                point = json_object();
                json_object_set_new(point, "nprocs", json_integer(r->nprocs));
                for (size_t p = 0; p < r->ninputs; p++)
                    json_object_set_new(point, r->inputs[p].name,
                                        json_real(r->inputs[p].value));
            }
            judge_model(c, point, &j);
        } else if (c->changepoint) {
            const struct series *s = &sc->s[sc->yseries[c->yslot]];
            size_t n = (size_t)s->n;
            if (n > (size_t)c->w.window)
                n = (size_t)c->w.window;
            if (judge_changepoint(c->w.threshold, set.changes, sc->v + s->at, n, &j,
                                  err) != 0)
                goto out;
        } else {
            const struct series *s = &sc->s[sc->yseries[c->yslot]];
            struct detect_verdict v;
            if (sc->ststamp[c->sslot] != sc->stamp) {
                size_t n = (size_t)s->n;
                if (n > (size_t)c->w.window)
                    n = (size_t)c->w.window;
                if (detect_stat(c->test, sc->v + s->at, n, &sc->st[c->sslot], err) != 0)
                    goto out;
                sc->ststamp[c->sslot] = sc->stamp;
            }
            if (detect_band(c->test, c->w.threshold, &sc->st[c->sslot], j.value, &v,
                            err) != 0)
                goto out;
            j.ready = v.ready;
            j.out = v.out;
            j.direction = v.direction;
            j.expected = v.expected;
            j.lo = v.lo;
            j.hi = v.hi;
            j.score = v.score;
        }
        sc->qj[c->qslot] = j;
        sc->qstamp[c->qslot] = sc->stamp;
        j.watch_id = c->w.id;
        j.run_id = in->ids[i];
        if (c->w.confirm > 0 && j.ready && confirm_judgement(d, c, &j, err) != 0)
            goto out;
        sc->law[nj] = law;
        sc->j[nj++] = j; /* in watch order, without the watches the run lacked */
    }
    if (db_judgements_add(d, sc->j, nj, sc->alerts, err) != 0)
        goto out;
    for (k = 0; k < nj; k++) {
        long long law_alert = sc->law[k].alert ? sc->law[k].alert : sc->alerts[k];
        if (sc->law[k].ready && law_alert &&
            db_alert_law(d, law_alert, &sc->law[k].law, err) != 0)
            goto out;
        if (sc->alerts[k] && add_alert(in, sc, sc->alerts[k], err) != 0)
            goto out;
    }
    rc = 0;
out:
    json_decref(point);
    arena_free(a);
    return rc;
}

/* With set_lock held: the watch set as the store has it now (read again
 * when another connection changed it). 0, or -1 with err set. */
static int set_current(db *d, struct err *err)
{
    long long version = db_watches_version(d, err);
    if (version < 0)
        return -1;
    if ((!set.loaded || set.serial != db_serial(d) || set.version != version) &&
        set_load(d, version, err) != 0) {
        set_clear(); /* read again by the next batch */
        return -1;
    }
    return 0;
}

int watch_idle(db *d, void *arg, struct err *err)
{
    int rc;
    (void)arg;
    pthread_mutex_lock(&set_lock);
    rc = set_current(d, err) != 0 ? -1 : set.n == 0;
    pthread_mutex_unlock(&set_lock);
    return rc;
}

int watch_idle_known(db *d, void *arg)
{
    int rc = -1;
    (void)arg;
    pthread_mutex_lock(&set_lock);
    if (set.loaded && set.serial == db_serial(d))
        rc = set.n == 0;
    pthread_mutex_unlock(&set_lock);
    return rc;
}

int watch_judge(db *d, struct ingest *in, void *arg, struct err *err)
{
    struct judge_scratch sc = {0};
    size_t i;
    int rc = -1;

    (void)arg;
    pthread_mutex_lock(&set_lock);
    if (set_current(d, err) != 0)
        goto out;
    if (set.n == 0) {
        rc = 0;
        goto out;
    }
    if (scratch_init(&sc, err) != 0)
        goto out;
    for (i = 0; i < in->n; i++) {
        size_t nc = 0;
        if (in->existed[i])
            continue; /* judged when it was first stored */
        for (size_t k = 0; k < set.n; k++)
            if (covers(&set.w[k], &in->runs[i]))
                sc.c[nc++] = &set.w[k];
        if (nc > 0 && judge_run(d, in, i, nc, &sc, err) != 0)
            goto out;
    }
    rc = 0;
out:
    pthread_mutex_unlock(&set_lock);
    scratch_free(&sc);
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
