/* form_xstep: the "x range, fixed values, prediction" step that curve
 * fitting and kernel coupling share; see form.h. */
#include "web/form.h"
#include "core/config_order.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define XSTEP_MAX_PREDICT 100
/* The value of fix.V for the runs without V (s->fit). */
#define XSTEP_NONE "none"

/* Whether var changes with the one x among the configurations with x
 * (config_varies_with_x: a weak-scaling series), which the fit takes as it
 * is (its "varies_with_x"); fixing var would leave one point. */
static int varies_with_x(struct fctx *c, const struct xstep *s, const char *var)
{
    struct config_xv *t = arena_alloc(c->arena, ((size_t)s->ncf + 1) * sizeof *t);
    size_t n = 0;
    if (t == NULL || s->x2 != NULL)
        return 0;
    for (int k = 0; k < s->ncf; k++) {
        if (!fconf_match(&s->cf[k], s->exe, s->sys) ||
            !fconf_var(&s->cf[k], s->x, &t[n].x))
            continue;
        if (!fconf_var(&s->cf[k], var, &t[n].v))
            return 0; /* some lack it: families, not a size */
        n++;
    }
    return config_varies_with_x(t, n);
}

/* The runs of the configurations that have x (and x2) but not var: those a
 * fit with var fixed to "none" takes. 0 unless s->fit. */
static long long runs_without(const struct xstep *s, const char *var)
{
    long long runs = 0;
    double v;
    for (int i = 0; s->fit && i < s->ncf; i++)
        if (fconf_match(&s->cf[i], s->exe, s->sys) && fconf_var(&s->cf[i], s->x, &v) &&
            (s->x2 == NULL || fconf_var(&s->cf[i], s->x2, &v)) &&
            !fconf_var(&s->cf[i], var, &v))
            runs += s->cf[i].c->runs;
    return runs;
}

int forms_xstep_check(struct fctx *c, const struct xstep *s, int strict, struct err *err)
{
    struct fval vals[FORMS_MAX_VALUES];
    size_t i, j, nv;
    int more;
    const char *agg = fs_get(c, "aggregate");

    for (i = 0; i < s->nvars; i++) {
        const char *name, *v;
        struct err local = {0};
        double x = 0;
        int seen = 0, rc;
        long long without, most;
        if (strcmp(s->vars[i], s->x) == 0)
            continue;
        name = fs_name(c, "fix.", s->vars[i]);
        v = fs_get(c, name);
        if (v != NULL && *v == '\0')
            continue; /* not fixed */
        without = runs_without(s, s->vars[i]);
        if (v != NULL && without > 0 && strcmp(v, XSTEP_NONE) == 0)
            continue; /* the runs without it */
        nv = forms_values(s->cf, s->ncf, s->exe, s->sys, s->vars[i], vals,
                          FORMS_MAX_VALUES, &more);
        if (v != NULL) {
            rc = fnum(v, name, s->vars[i], &x, &local);
            for (j = 0; rc == 0 && j < nv; j++)
                seen |= vals[j].v == x;
            if (strict && rc != 0) {
                *err = local;
                return -1;
            }
            /* Kept: a value of the list, or (when checking strictly) any number;
             * the answer says when no run has it. */
            if (rc == 0 && (seen || more || strict))
                continue;
        }
        /* the default: the value with the most runs, or none where more
         * runs lack the variable (Google Benchmark families of one argument
         * beside a family of two), or not fixed where it varies with x */
        for (j = 0, most = 0; j < nv; j++)
            most = vals[j].runs > most ? vals[j].runs : most;
        if (without > most)
            fs_set(c, name, XSTEP_NONE);
        else if (varies_with_x(c, s, s->vars[i]))
            fs_set(c, name, ""); /* not fixed */
        else
            fs_set(c, name, nv ? fnumtext(c, forms_common(vals, nv)) : "");
    }
    if (agg == NULL || (strcmp(agg, "mean") != 0 && strcmp(agg, "median") != 0 &&
                        strcmp(agg, "min") != 0)) {
        if (agg != NULL && strict)
            return err_invalid(err, "aggregate", "aggregate must be mean, median or min");
        fs_set(c, "aggregate", "mean");
    }
    return 0;
}

/* A fixed-value field: a select of the values the runs have (and "not
 * fixed"), or a text field when there are too many. */
static void fixed_field(struct fctx *c, const struct xstep *s, const char *var)
{
    struct fval vals[FORMS_MAX_VALUES];
    const char *name = fs_name(c, "fix.", var), *values[FORMS_MAX_VALUES + 2],
               *labels[FORMS_MAX_VALUES + 2];
    size_t nv, i, n;
    int more;
    long long without = runs_without(s, var);

    nv = forms_values(s->cf, s->ncf, s->exe, s->sys, var, vals, FORMS_MAX_VALUES, &more);
    if (more) {
        ff_text(c, name, var, "empty: not fixed", fs_get(c, name), NULL, "decimal");
        return;
    }
    values[0] = "";
    labels[0] = "not fixed";
    for (i = 0, n = 1; i < nv; i++, n++) {
        values[n] = fnumtext(c, vals[i].v);
        labels[n] = arena_printf(c->arena, "%s (%lld run%s)", values[n], vals[i].runs,
                                 vals[i].runs == 1 ? "" : "s");
    }
    if (without > 0) {
        values[n] = XSTEP_NONE;
        labels[n++] = arena_printf(c->arena, "none: the runs without %s (%lld run%s)",
                                   var, without, without == 1 ? "" : "s");
    }
    ff_select(c, name, var, NULL, values, labels, n, fs_get(c, name), 0);
}

void forms_xstep_render(struct fctx *c, const struct xstep *s)
{
    struct fval vals[FORMS_MAX_VALUES];
    size_t nv, i;
    int more, nfixed = 0;
    const char *hint = NULL;
    static const char *const aggs[] = {"mean", "median", "min"};

    nv = forms_values(s->cf, s->ncf, s->exe, s->sys, s->x, vals, FORMS_MAX_VALUES, &more);
    if (nv > 0)
        hint = arena_printf(c->arena, "measured: %s to %s%s; empty: every run",
                            fnumtext(c, vals[0].v), fnumtext(c, vals[nv - 1].v),
                            more ? " and more" : "");
    ff_group_open(c, arena_printf(c->arena, "Range of %s to fit", s->x), hint, NULL);
    ff_text(c, "xmin", "from", NULL, fs_get(c, "xmin"),
            nv ? fnumtext(c, vals[0].v) : NULL, "decimal");
    ff_text(c, "xmax", "to", NULL, fs_get(c, "xmax"),
            nv ? fnumtext(c, vals[nv - 1].v) : NULL, "decimal");
    ff_group_close(c);
    for (i = 0; i < s->nvars; i++)
        nfixed += strcmp(s->vars[i], s->x) != 0;
    if (nfixed) {
        ff_group_open(c, "Fixed values of the other variables",
                      "only runs with exactly these values are used", "fixed");
        for (i = 0; i < s->nvars; i++)
            if (strcmp(s->vars[i], s->x) != 0)
                fixed_field(c, s, s->vars[i]);
        ff_group_close(c);
    }
    page_puts(&c->p, "<div class=\"fields\">\n");
    ff_text(c, "predict", arena_printf(c->arena, "Predict at %s =", s->x),
            "one or more values, separated by commas", fs_get(c, "predict"), NULL,
            "decimal");
    ff_select(c, "aggregate", "Repetitions", "how runs of one configuration combine",
              aggs, NULL, 3, fs_get(c, "aggregate"), 0);
    page_puts(&c->p, "</div>\n");
}

void forms_xstep_summary(struct fctx *c, const struct xstep *s)
{
    const char *lo = fs_val(c, "xmin"), *hi = fs_val(c, "xmax"), *p;
    size_t i;
    page_text(&c->p, s->x);
    if (lo || hi) {
        page_puts(&c->p, " from ");
        page_text(&c->p, lo ? lo : "?");
        page_puts(&c->p, " to ");
        page_text(&c->p, hi ? hi : "?");
    } else {
        page_puts(&c->p, ": every measured value");
    }
    for (i = 0; i < s->nvars; i++) {
        const char *v;
        if (strcmp(s->vars[i], s->x) == 0)
            continue;
        v = fs_val(c, fs_name(c, "fix.", s->vars[i]));
        page_puts(&c->p, ", ");
        if (v && strcmp(v, XSTEP_NONE) == 0 && s->fit) {
            page_puts(&c->p, "without ");
            page_text(&c->p, s->vars[i]);
            continue;
        }
        page_text(&c->p, s->vars[i]);
        if (v) {
            page_puts(&c->p, " = ");
            page_text(&c->p, v);
        } else {
            page_puts(&c->p, " not fixed");
        }
    }
    if ((p = fs_val(c, "predict")) != NULL) {
        double v[XSTEP_MAX_PREDICT];
        struct err e = {0};
        int n = s->x2 ? fnums(p, "predict", v, XSTEP_MAX_PREDICT, &e) : -1;
        page_puts(&c->p, "; predict at ");
        if (n < 2 || n % 2 != 0) { /* one axis, or not pairs (the step says so) */
            page_text(&c->p, p);
            return;
        }
        /* two axes: the pairs as the request reads them, (x, x2), ... */
        for (i = 0; i + 1 < (size_t)n; i += 2) {
            page_puts(&c->p, i ? ", (" : "(");
            page_text(&c->p, s->x);
            page_puts(&c->p, " = ");
            page_text(&c->p, fnumtext(c, v[i]));
            page_puts(&c->p, ", ");
            page_text(&c->p, s->x2);
            page_puts(&c->p, " = ");
            page_text(&c->p, fnumtext(c, v[i + 1]));
            page_puts(&c->p, ")");
        }
    }
}

int forms_xstep_request(struct fctx *c, const struct xstep *s, json_t *req,
                        struct err *err)
{
    json_t *fixed = json_object(), *pred;
    double lo = 0, hi = 0, pts[XSTEP_MAX_PREDICT];
    int has_lo, has_hi, n, i;
    size_t k;

    for (k = 0; k < s->nvars; k++) {
        const char *name;
        double x;
        int rc;
        if (strcmp(s->vars[k], s->x) == 0)
            continue;
        name = fs_name(c, "fix.", s->vars[k]);
        if (s->fit && fs_get(c, name) && strcmp(fs_get(c, name), XSTEP_NONE) == 0) {
            json_object_set_new(fixed, s->vars[k], json_null()); /* runs without it */
            continue;
        }
        rc = fnum(fs_get(c, name), name, s->vars[k], &x, err);
        if (rc < 0) {
            json_decref(fixed);
            return -1;
        }
        if (rc == 0)
            json_object_set_new(fixed, s->vars[k], forms_jnum(x));
    }
    if (json_object_size(fixed) > 0)
        json_object_set(req, "fixed", fixed);
    json_decref(fixed);
    if ((has_lo = fnum(fs_get(c, "xmin"), "xmin", "from", &lo, err)) < 0 ||
        (has_hi = fnum(fs_get(c, "xmax"), "xmax", "to", &hi, err)) < 0)
        return -1;
    if (has_lo != has_hi)
        return err_invalid(err, has_lo ? "xmin" : "xmax",
                           "give both ends of the range of %s, or neither", s->x);
    if (has_lo == 0)
        json_object_set_new(req, "range",
                            json_pack("[o, o]", forms_jnum(lo), forms_jnum(hi)));
    if ((n = fnums(fs_get(c, "predict"), "predict", pts, XSTEP_MAX_PREDICT, err)) < 0)
        return -1;
    if (n > 0) {
        pred = json_array();
        for (i = 0; i < n; i++)
            json_array_append_new(pred, forms_jnum(pts[i]));
        json_object_set_new(req, "predict", pred);
    }
    json_object_set_new(req, "aggregate", json_string(fs_get(c, "aggregate")));
    return 0;
}

const char *forms_xstep_field(struct fctx *c, const struct xstep *s, const struct err *e)
{
    const char *f = e->field;
    size_t n = strcspn(f, "[."), i;
#define IS(name) (n == strlen(name) && strncmp(f, name, n) == 0)
    if (IS("range"))
        return "xmin";
    if (IS("predict"))
        return "predict";
    if (IS("aggregate"))
        return "aggregate";
    if (IS("fixed")) {
        for (i = 0; s->x != NULL && i < s->nvars; i++)
            if (strcmp(s->vars[i], s->x) != 0 && forms_mentions(e->message, s->vars[i]))
                return fs_name(c, "fix.", s->vars[i]);
        return "fixed"; /* the group of fixed values */
    }
#undef IS
    return NULL;
}
