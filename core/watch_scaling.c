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

/* The x and y of the runs of one side on curve c, into arrays in a.
 * Returns their number or -1. Runs of one configuration come in a row
 * often: the previous one's answer is kept. */
static long side_points(db *d, const struct db_law_side *q, const struct curve *c,
                        arena *a, double **xs, double **ys, struct err *err)
{
    struct db_law_run *runs;
    const char *last = NULL;
    long long last_np = -1;
    int last_ok = 0;
    double last_x = 0;
    long n = db_law_runs(d, q, a, &runs, err), i, m = 0;

    if (n < 0)
        return -1;
    *xs = arena_alloc(a, (size_t)(n + 1) * sizeof **xs);
    *ys = arena_alloc(a, (size_t)(n + 1) * sizeof **ys);
    if (*xs == NULL || *ys == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++) {
        const char *ij = runs[i].inputs_json;
        if (last == NULL || runs[i].nprocs != last_np || ij == NULL || strcmp(ij, last)) {
            last_ok = on_curve(c, runs[i].nprocs, ij, &last_x);
            last = ij ? ij : "";
            last_np = runs[i].nprocs;
        }
        if (last_ok && isfinite(runs[i].y)) {
            (*xs)[m] = last_x;
            (*ys)[m++] = runs[i].y;
        }
    }
    return m;
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

int watch_scaling_judge(db *d, const struct db_watch *w, const struct run_record *r,
                        struct db_judgement *j, struct watch_law *law, arena *a,
                        struct err *err)
{
    struct curve c = {w->x, strcmp(w->x, "nprocs") == 0, r->nprocs, r->inputs,
                      r->ninputs};
    struct db_law_side q = {w->app_id,      r->system, r->executable, w->y,
                            DB_SIDE_COMMIT, r->commit, NULL,          WATCH_SCALING_RUNS};
    struct lawchange lc;
    double *xn, *yn, *xb, *yb;
    long nn, nb;
    int rc;

    memset(law, 0, sizeof *law);
    if (r->commit == NULL || w->baseline == NULL ||
        (strncmp(w->baseline, "commit:", 7) == 0 &&
         strcmp(w->baseline + 7, r->commit) == 0))
        return 0;
    if (db_alert_of_commit(d, w->id, r->commit, &law->alert, err) < 0)
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
    rc = lawchange_compare(xn, yn, (size_t)nn, xb, yb, (size_t)nb, w->target,
                           w->threshold, &lc, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return 1; /* not ready: the baseline has too few x, or a side no law */
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
