/* watch_scaling: the scaling-law watch; see watch_scaling.h.
 *
 * A judgement reads the runs of the commit (db_law_runs, newest
 * WATCH_SCALING_RUNS), keeps those of the judged run's curve (its inputs
 * other than x, and its processor count when x is an input), and only when
 * they cover LAWCHANGE_MIN_X values of x reads the baseline's the same way:
 * a commit's first runs cost one indexed read each, and the fits
 * (models/lawchange.h) are made once the commit can be judged.
 */
#include "core/watch_scaling.h"

#include "common/buf.h"
#include "common/xalloc.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "models/lawchange.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the detector ------------------------------------------------------------ */

int watch_scaling_decode(json_t *det, struct db_watch *w, arena *a, struct err *err)
{
    static const char *const dfields[] = {"scaling", NULL};
    static const char *const fields[] = {"x", "target", "baseline", "threshold", NULL};
    json_t *sc = json_object_get(det, "scaling"), *v;
    const char *s;

    if (json_only_fields_at(det, dfields, "detector", err) != 0)
        return -1;
    if (!json_is_object(sc))
        return err_invalid(err, "detector.scaling",
                           "detector.scaling must be {\"x\", \"target\", \"baseline\"}");
    if (json_only_fields_at(sc, fields, "detector.scaling", err) != 0)
        return -1;
    v = json_object_get(sc, "x");
    if (v == NULL) {
        w->x = "nprocs";
    } else if ((w->x = json_get_name(v, "detector.scaling.x", LIMIT_NAME, a, err)) ==
               NULL) {
        return -1;
    }
    v = json_object_get(sc, "target");
    if (v == NULL)
        return err_invalid(err, "detector.scaling.target",
                           "detector.scaling.target is required: the %s to predict at",
                           w->x);
    if (json_get_number(v, "detector.scaling.target", &w->target, err) != 0)
        return -1;
    if (!(w->target > 0))
        return err_invalid(err, "detector.scaling.target",
                           "detector.scaling.target must be greater than 0");
    s = json_string_value(json_object_get(sc, "baseline"));
    if (s == NULL || !((strncmp(s, "branch:", 7) == 0 && s[7] != '\0' &&
                        json_check_name(s + 7, strlen(s + 7), "detector.scaling.baseline",
                                        LIMIT_NAME, NULL) == 0) ||
                       (strncmp(s, "commit:", 7) == 0 && s[7] != '\0' &&
                        strlen(s + 7) <= LIMIT_COMMIT &&
                        json_check_name(s + 7, strlen(s + 7), "detector.scaling.baseline",
                                        LIMIT_COMMIT, NULL) == 0)))
        return err_invalid(err, "detector.scaling.baseline",
                           "detector.scaling.baseline must be branch:NAME or commit:SHA "
                           "(the runs the commits are compared with)");
    if ((w->baseline = arena_strdup(a, s)) == NULL)
        return err_nomem(err);
    w->threshold = LAWCHANGE_THRESHOLD;
    v = json_object_get(sc, "threshold");
    if (v != NULL &&
        (json_get_number(v, "detector.scaling.threshold", &w->threshold, err) != 0 ||
         !(w->threshold > 0 && w->threshold <= 100)))
        return err_invalid(err, "detector.scaling.threshold",
                           "detector.scaling.threshold (the least change of the "
                           "prediction at the target, 0.1 = 10 %%) must be in (0, 100]");
    w->test = WATCH_SCALING;
    w->window = 0;
    return 0;
}

int watch_scaling_check(const struct db_watch *w, json_t *body, struct err *err)
{
    json_t *in = json_object_get(body, "inputs");
    if (json_object_get(body, "confirm") != NULL)
        return err_invalid(err, "confirm",
                           "a scaling watch judges a commit once: it takes no confirm");
    if (strcmp(w->x, "nprocs") == 0 && w->nprocs != 0)
        return err_invalid(err, "nprocs",
                           "nprocs is the scaling watch's x: it cannot be fixed");
    if (json_is_object(in) && json_object_get(in, w->x) != NULL)
        return err_invalid(err, "inputs",
                           "%.200s is the scaling watch's x: it cannot be fixed", w->x);
    return 0;
}

json_t *watch_scaling_detector(const struct db_watch *w)
{
    return json_pack("{s:{s:s, s:f, s:s, s:f}}", "scaling", "x", w->x ? w->x : "nprocs",
                     "target", w->target, "baseline", w->baseline ? w->baseline : "",
                     "threshold", w->threshold);
}

/* ---- judging ------------------------------------------------------------------- */

/* The curve a run is on: every input but x (and nprocs when x is an input). */
struct curve {
    const char *x;
    int x_nprocs;
    long long nprocs;
    const struct rec_kv *in; /* the judged run's inputs */
    size_t nin;
};

/* Whether inputs (a configuration's JSON object) are on curve c, and its x
 * there (*x). */
static int on_curve(const struct curve *c, long long nprocs, const char *inputs_json,
                    double *x)
{
    json_t *in = inputs_json ? json_loads(inputs_json, 0, NULL) : json_object();
    size_t k, others = 0;
    int ok = json_is_object(in) && (c->x_nprocs || nprocs == c->nprocs);

    for (k = 0; ok && k < c->nin; k++) {
        json_t *v;
        if (strcmp(c->in[k].name, c->x) == 0)
            continue;
        others++;
        v = json_object_get(in, c->in[k].name);
        ok = json_is_number(v) && json_number_value(v) == c->in[k].value;
    }
    /* no input the judged run lacks, x aside */
    ok = ok && json_object_size(in) == others + (json_object_get(in, c->x) != NULL);
    if (ok && c->x_nprocs) {
        *x = (double)nprocs;
    } else if (ok) {
        json_t *v = json_object_get(in, c->x);
        ok = json_is_number(v);
        *x = json_number_value(v);
    }
    json_decref(in);
    return ok && isfinite(*x);
}

/* Which configurations are on the curve, as seen so far in one read: a
 * side's runs cycle through a few configurations, each parsed once. */
#define SEEN_MAX 64
struct seen {
    size_t n;
    const char *inputs[SEEN_MAX];
    long long nprocs[SEEN_MAX];
    int ok[SEEN_MAX];
    double x[SEEN_MAX];
};

static int seen_on_curve(struct seen *s, const struct curve *c, long long nprocs,
                         const char *inputs_json, double *x)
{
    size_t i;
    int ok;
    for (i = 0; i < s->n; i++)
        if (s->nprocs[i] == nprocs &&
            (s->inputs[i] == NULL
                 ? inputs_json == NULL
                 : inputs_json != NULL && strcmp(s->inputs[i], inputs_json) == 0)) {
            *x = s->x[i];
            return s->ok[i];
        }
    ok = on_curve(c, nprocs, inputs_json, x);
    if (s->n < SEEN_MAX) {
        s->inputs[s->n] = inputs_json;
        s->nprocs[s->n] = nprocs;
        s->ok[s->n] = ok;
        s->x[s->n++] = *x;
    }
    return ok;
}

/* The x and y of the runs of one side on curve c, into arrays in a.
 * Returns their number or -1. */
static long side_points(db *d, const struct db_law_side *q, const struct curve *c,
                        arena *a, double **xs, double **ys, struct err *err)
{
    struct db_law_run *runs;
    struct seen seen = {0};
    long n = db_law_runs(d, q, a, &runs, err), i, m = 0;
    double x = 0;

    if (n < 0)
        return -1;
    *xs = arena_alloc(a, (size_t)(n + 1) * sizeof **xs);
    *ys = arena_alloc(a, (size_t)(n + 1) * sizeof **ys);
    if (*xs == NULL || *ys == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++)
        if (seen_on_curve(&seen, c, runs[i].nprocs, runs[i].inputs_json, &x) &&
            isfinite(runs[i].y)) {
            (*xs)[m] = x;
            (*ys)[m++] = runs[i].y;
        }
    return m;
}

/* ---- the cache of laws ------------------------------------------------------------ */

#define LAW_CACHE 64
struct law_entry {
    uint64_t key; /* 0: empty */
    size_t n;
    double target;
    int rc; /* lawchange_side's answer */
    struct lawchange_side side;
};
struct watch_law_cache {
    struct law_entry e[LAW_CACHE];
};

struct watch_law_cache *watch_law_cache_new(void)
{
    return xcalloc(1, sizeof(struct watch_law_cache));
}

void watch_law_cache_free(struct watch_law_cache *c)
{
    xfree(c);
}

static uint64_t mix(uint64_t h, double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    h = (h ^ b) * 0x100000001b3u;
    return h ^ (h >> 29);
}

/* lawchange_side through the cache: the same pairs (in the same order) and
 * target give the same law. */
static int cached_side(struct watch_law_cache *c, const double *x, const double *y,
                       size_t n, double target, struct lawchange_side *s, struct err *err)
{
    uint64_t key = 0xcbf29ce484222325u;
    struct law_entry *e;
    int rc;
    size_t i;

    if (c == NULL)
        return lawchange_side(x, y, n, target, s, err);
    key = mix(key, target);
    for (i = 0; i < n; i++)
        key = mix(mix(key, x[i]), y[i]);
    key |= 1;
    e = &c->e[key % LAW_CACHE];
    if (e->key == key && e->n == n && e->target == target) {
        *s = e->side;
        return e->rc;
    }
    rc = lawchange_side(x, y, n, target, s, err);
    if (rc >= 0)
        *e = (struct law_entry){key, n, target, rc, *s};
    return rc;
}

/* The value of input name of r, or NAN. */
static double input_of(const struct run_record *r, const char *name)
{
    for (size_t i = 0; i < r->ninputs; i++)
        if (strcmp(r->inputs[i].name, name) == 0)
            return r->inputs[i].value;
    return NAN;
}

int watch_scaling_same(const struct db_watch *w, const struct run_record *a,
                       const struct run_record *b)
{
    size_t i, na = 0, nb = 0;
    if (a->commit == NULL || b->commit == NULL || strcmp(a->commit, b->commit) != 0 ||
        strcmp(a->executable, b->executable) != 0 || strcmp(a->system, b->system) != 0 ||
        (strcmp(w->x, "nprocs") != 0 && a->nprocs != b->nprocs))
        return 0;
    for (i = 0; i < a->ninputs; i++) {
        if (strcmp(a->inputs[i].name, w->x) == 0)
            continue;
        na++;
        if (input_of(b, a->inputs[i].name) != a->inputs[i].value)
            return 0;
    }
    for (i = 0; i < b->ninputs; i++)
        nb += strcmp(b->inputs[i].name, w->x) != 0;
    return na == nb;
}

/* The law's formula in the arena (NULL when memory ran out). */
static const char *formula(const struct fit_model *m, const char *x, arena *a)
{
    const char *names[1] = {x};
    struct buf b;
    const char *s;
    buf_init(&b, 4096);
    fit_formula(m, names, &b);
    s = buf_failed(&b) ? NULL : arena_strdup(a, buf_str(&b));
    buf_free(&b);
    return s;
}

/* The alert w raised on r's commit and curve c already (*id, 0 when none):
 * a commit measured at two problem sizes has a law, and an alert, for each.
 * 0 or -1. */
static int curve_alert(db *d, const struct db_watch *w, const struct run_record *r,
                       const struct curve *c, arena *a, long long *id, struct err *err)
{
    struct db_commit_alert *al;
    long n = db_alerts_of_commit(d, w->id, r->commit, a, &al, err), i;
    double x;

    *id = 0;
    if (n < 0)
        return -1;
    for (i = 0; i < n && *id == 0; i++)
        if (strcmp(al[i].executable, r->executable) == 0 &&
            strcmp(al[i].system, r->system) == 0 &&
            on_curve(c, al[i].nprocs, al[i].inputs_json, &x))
            *id = al[i].id;
    return 0;
}

int watch_scaling_judge(db *d, const struct db_watch *w, const struct run_record *r,
                        struct watch_law_cache *cache, struct db_judgement *j,
                        struct watch_law *law, arena *a, struct err *err)
{
    struct curve c = {w->x, strcmp(w->x, "nprocs") == 0, r->nprocs, r->inputs,
                      r->ninputs};
    struct db_law_side q = {w->app_id,      r->system, r->executable, w->y,
                            DB_SIDE_COMMIT, r->commit, NULL,          WATCH_SCALING_RUNS};
    struct lawchange lc;
    struct lawchange_side now, base;
    double *xn, *yn, *xb, *yb;
    long nn, nb;
    int rc;

    memset(law, 0, sizeof *law);
    if (r->commit == NULL || w->baseline == NULL ||
        (strncmp(w->baseline, "commit:", 7) == 0 &&
         strcmp(w->baseline + 7, r->commit) == 0))
        return 0;
    if (curve_alert(d, w, r, &c, a, &law->alert, err) != 0)
        return -1;
    nn = side_points(d, &q, &c, a, &xn, &yn, err);
    if (nn < 0)
        return -1;
    j->ready = 0;
    if (lawchange_distinct(xn, (size_t)nn) < LAWCHANGE_MIN_X)
        return 1; /* not ready: the commit is measured at too few x yet */
    q.kind = strncmp(w->baseline, "branch:", 7) == 0 ? DB_SIDE_BRANCH : DB_SIDE_COMMIT;
    q.value = w->baseline + 7;
    q.except = r->commit;
    nb = side_points(d, &q, &c, a, &xb, &yb, err);
    if (nb < 0)
        return -1;
    if ((rc = cached_side(cache, xn, yn, (size_t)nn, w->target, &now, err)) < 0)
        return -1;
    if (rc == 0)
        return 1; /* not ready: the commit's runs make no law */
    if ((rc = cached_side(cache, xb, yb, (size_t)nb, w->target, &base, err)) < 0)
        return -1;
    if (rc == 0)
        return 1; /* not ready: the baseline has too few x, or no law */
    lawchange_decide(&now, &base, w->threshold, &lc);
    j->ready = 1;
    j->value = lc.now.y;
    j->expected = lc.base.y;
    j->lo = lc.base.lo;
    j->hi = lc.base.hi;
    j->score = lc.ratio - 1;
    j->out = lc.out;
    j->direction = lc.out ? (lc.now.y > lc.base.y ? 1 : -1) : 0;
    law->ready = 1;
    law->law = (struct db_alert_law){
        .target = w->target,
        .formula = formula(&lc.now.law, w->x, a),
        .baseline_formula = formula(&lc.base.law, w->x, a),
        .predicted = lc.now.y,
        .baseline_predicted = lc.base.y,
        .baseline_lo = lc.base.lo,
        .baseline_hi = lc.base.hi,
        .out = lc.out,
    };
    if (law->law.formula == NULL || law->law.baseline_formula == NULL)
        return err_nomem(err);
    return 1;
}
