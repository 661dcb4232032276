/* form: the modeling forms' state, fields, shared steps and pages; see
 * form.h. Routes: GET /model (the three methods), GET and POST
 * /model/{fit,parameterize,couple} (steps and result; Save). */
#include "web/form.h"
#include "common/utf8.h"
#include "models/expr.h"
#include "web/html.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the state ------------------------------------------------------------------ */

const char *fs_get(struct fctx *c, const char *name)
{
    return form_get(&c->st, name);
}

const char *fs_val(struct fctx *c, const char *name)
{
    const char *s = form_get(&c->st, name);
    return s && *s ? s : NULL;
}

void fs_set(struct fctx *c, const char *name, const char *value)
{
    struct form_field *f;
    size_t i;
    value = arena_strdup(c->arena, value ? value : "");
    if (value == NULL)
        return;
    for (i = 0; i < c->st.n; i++)
        if (strcmp(c->st.fields[i].name, name) == 0) {
            c->st.fields[i].value = value;
            c->st.fields[i].len = strlen(value);
            return;
        }
    f = arena_alloc(c->arena, (c->st.n + 1) * sizeof *f);
    name = arena_strdup(c->arena, name);
    if (f == NULL || name == NULL)
        return;
    if (c->st.n)
        memcpy(f, c->st.fields, c->st.n * sizeof *f);
    memset(&f[c->st.n], 0, sizeof *f);
    f[c->st.n].name = name;
    f[c->st.n].value = value;
    f[c->st.n].len = strlen(value);
    c->st.fields = f;
    c->st.n++;
}

const char *fs_name(struct fctx *c, const char *prefix, const char *rest)
{
    return arena_printf(c->arena, "%s%s", prefix, rest);
}

/* Rejects a state that is not text: every name and value valid UTF-8 of
 * bounded length. */
int forms_state_ok(const struct form *f, struct err *err)
{
    size_t i;
    for (i = 0; i < f->n; i++) {
        const struct form_field *x = &f->fields[i];
        if (!utf8_valid(x->name, strlen(x->name)) || x->len != strlen(x->value) ||
            !utf8_valid(x->value, x->len))
            return err_set(err, 400, "bad_form", NULL,
                           "the form holds text that is not UTF-8");
        if (x->len > FORMS_MAX_VALUE)
            return err_set(err, 413, "too_large", NULL,
                           "a field of the form is longer than %d bytes",
                           FORMS_MAX_VALUE);
    }
    return 0;
}

/* Appends the state's fields of steps 1..upto as a query string (raw, for
 * an attribute pass it through page_attr), steps in order, then step=. */
static void state_query(struct fctx *c, struct buf *b, int upto, const char *step)
{
    size_t i;
    int k, first = 1;
    for (k = 1; k <= upto; k++)
        for (i = 0; i < c->st.n; i++) {
            const struct form_field *x = &c->st.fields[i];
            if (c->def->field_step(x->name) != k || form_get(&c->st, x->name) != x->value)
                continue;
            buf_puts(b, first ? "" : "&");
            web_url_encode(b, x->name);
            buf_putc(b, '=');
            web_url_encode(b, x->value);
            first = 0;
        }
    if (step)
        buf_printf(b, "%sstep=%s", first ? "" : "&", step);
}

/* href of the form at `step` with every field of the state. */
static void step_href(struct fctx *c, const char *step, const char *extra)
{
    struct buf b;
    buf_init(&b, 1 << 20);
    buf_puts(&b, c->def->path);
    buf_putc(&b, '?');
    state_query(c, &b, c->def->nsteps, step);
    if (extra)
        buf_puts(&b, extra);
    page_attr(&c->p, buf_str(&b));
    buf_free(&b);
}

/* ---- numbers --------------------------------------------------------------------- */

int fnum(const char *s, const char *field, const char *what, double *out, struct err *err)
{
    char *end;
    double v;
    while (s && (*s == ' ' || *s == '\t'))
        s++;
    if (s == NULL || *s == '\0')
        return 1;
    errno = 0;
    v = strtod(s, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return err_invalid(err, field, "%s must be a number (got %.40s)", what, s);
    *out = v;
    return 0;
}

int fnums(const char *s, const char *field, double *out, int max, struct err *err)
{
    int n = 0;
    const char *p = s ? s : "";
    while (*p) {
        char *end;
        double v;
        while (*p == ' ' || *p == ',' || *p == ';' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        errno = 0;
        v = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(v) ||
            (*end != '\0' && !strchr(" ,;\t", *end)))
            return err_invalid(err, field,
                               "predict takes numbers separated by commas or spaces "
                               "(got %.40s)",
                               p);
        if (n == max)
            return err_invalid(err, field, "at most %d prediction points", max);
        out[n++] = v;
        p = end;
    }
    return n;
}

json_t *forms_jnum(double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

const char *fnumtext(struct fctx *c, double v)
{
    struct buf b;
    const char *s;
    buf_init(&b, 64);
    expr_print_number(&b, v);
    s = arena_strdup(c->arena, buf_str(&b));
    buf_free(&b);
    return s ? s : "0";
}

void forms_num10(struct fctx *c, double v)
{
    if (!isfinite(v))
        page_puts(&c->p, "–");
    else
        page_printf(&c->p, "%.10g", v);
}

/* ---- fields ---------------------------------------------------------------------- */

/* A readable element id for a field name ("fix.nprocs" -> "f-fix-nprocs");
 * names with other characters get a counter to stay unique. */
static const char *field_id(struct fctx *c, const char *name)
{
    struct buf b;
    const char *s, *id;
    int plain = 1, dot = 0;
    buf_init(&b, 256);
    buf_puts(&b, "f-");
    for (s = name; *s && s - name < 64; s++) {
        char ch = *s;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
            (ch >= '0' && ch <= '9') || ch == '_') {
            buf_putc(&b, ch);
        } else if (ch == '.' && !dot) {
            buf_putc(&b, '-');
            dot = 1;
        } else {
            buf_putc(&b, '-');
            plain = 0;
        }
    }
    if (*s)
        plain = 0;
    if (!plain)
        buf_printf(&b, "-%d", ++c->nid);
    id = arena_strdup(c->arena, buf_str(&b));
    buf_free(&b);
    return id ? id : "f";
}

static int err_here(struct fctx *c, const char *name)
{
    return c->err.status && c->err_field && strcmp(c->err_field, name) == 0;
}

static void label_open(struct fctx *c, const char *id, const char *label,
                       const char *hint)
{
    page_printf(&c->p, "<div class=\"field\"><label for=\"%s\">", id);
    page_text(&c->p, label);
    if (hint) {
        page_puts(&c->p, " <span class=\"hint\">");
        page_text(&c->p, hint);
        page_puts(&c->p, "</span>");
    }
    page_puts(&c->p, "</label>");
}

static void field_close(struct fctx *c, const char *id, int bad)
{
    if (bad) {
        page_printf(&c->p, "<p class=\"field-error\" id=\"%s-error\">", id);
        page_text(&c->p, c->err.message);
        page_puts(&c->p, "</p>");
        c->err_shown = 1;
    }
    page_puts(&c->p, "</div>\n");
}

void ff_select(struct fctx *c, const char *name, const char *label, const char *hint,
               const char *const *values, const char *const *labels, size_t n,
               const char *selected, int autosubmit)
{
    const char *id = field_id(c, name);
    int bad = err_here(c, name);
    size_t i;
    label_open(c, id, label, hint);
    page_printf(&c->p, "<select id=\"%s\" name=\"", id);
    page_attr(&c->p, name);
    page_puts(&c->p, "\"");
    if (autosubmit)
        page_puts(&c->p, " data-autosubmit");
    if (bad)
        page_printf(&c->p, " aria-invalid=\"true\" aria-describedby=\"%s-error\"", id);
    page_puts(&c->p, ">");
    for (i = 0; i < n; i++) {
        page_puts(&c->p, "<option value=\"");
        page_attr(&c->p, values[i]);
        page_puts(&c->p, "\"");
        if (selected && strcmp(selected, values[i]) == 0)
            page_puts(&c->p, " selected");
        page_puts(&c->p, ">");
        page_text(&c->p, labels && labels[i] ? labels[i] : values[i]);
        page_puts(&c->p, "</option>");
    }
    page_puts(&c->p, "</select>");
    field_close(c, id, bad);
}

void ff_text(struct fctx *c, const char *name, const char *label, const char *hint,
             const char *value, const char *placeholder, const char *inputmode)
{
    const char *id = field_id(c, name);
    int bad = err_here(c, name);
    label_open(c, id, label, hint);
    page_printf(&c->p, "<input type=\"text\" id=\"%s\" name=\"", id);
    page_attr(&c->p, name);
    page_puts(&c->p, "\" value=\"");
    page_attr(&c->p, value ? value : "");
    page_puts(&c->p, "\"");
    if (placeholder) {
        page_puts(&c->p, " placeholder=\"");
        page_attr(&c->p, placeholder);
        page_puts(&c->p, "\"");
    }
    if (inputmode)
        page_printf(&c->p, " inputmode=\"%s\"", inputmode);
    if (bad)
        page_printf(&c->p, " aria-invalid=\"true\" aria-describedby=\"%s-error\"", id);
    page_puts(&c->p, ">");
    field_close(c, id, bad);
}

void ff_group_open(struct fctx *c, const char *legend, const char *hint,
                   const char *field)
{
    page_puts(&c->p, "<fieldset class=\"group\"><legend>");
    page_text(&c->p, legend);
    page_puts(&c->p, "</legend>");
    if (hint) {
        page_puts(&c->p, "<p class=\"hint\">");
        page_text(&c->p, hint);
        page_puts(&c->p, "</p>");
    }
    /* An error that names the group as a whole. */
    if (field && err_here(c, field)) {
        page_puts(&c->p, "<p class=\"field-error\" role=\"alert\">");
        page_text(&c->p, c->err.message);
        page_puts(&c->p, "</p>");
        c->err_shown = 1;
    }
    page_puts(&c->p, "<div class=\"fields\">\n");
}

void ff_group_close(struct fctx *c)
{
    page_puts(&c->p, "</div></fieldset>\n");
}

/* ---- data -------------------------------------------------------------------------- */

json_t *forms_keep(struct fctx *c, json_t *v)
{
    if (v != NULL)
        json_array_append_new(c->keep, v);
    return v;
}

int forms_configs(struct fctx *c, long long app_id, long long system_id,
                  struct fconf **out, struct err *err)
{
    struct form_config *cfgs;
    struct fconf *f;
    int n = form_data_configs(c->store, app_id, system_id, FORMS_MAX_CONFIGS, c->arena,
                              &cfgs, err);
    int i;
    if (n < 0)
        return -1;
    f = arena_alloc(c->arena, ((size_t)n + 1) * sizeof *f);
    if (f == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++) {
        f[i].c = &cfgs[i];
        f[i].inputs = forms_keep(c, json_loads(cfgs[i].inputs_json, 0, NULL));
        if (!json_is_object(f[i].inputs))
            f[i].inputs = NULL;
    }
    *out = f;
    return n;
}

json_t *forms_list(struct fctx *c, enum form_list which, const char *app, const char *sys,
                   struct err *err)
{
    return forms_keep(c, form_data_list(c->store, which, app, sys, err));
}

int fconf_match(const struct fconf *f, const char *exe, const char *sys)
{
    return (exe == NULL || strcmp(f->c->executable, exe) == 0) &&
           (sys == NULL || strcmp(f->c->system, sys) == 0);
}

int fconf_var(const struct fconf *f, const char *var, double *out)
{
    json_t *v;
    if (strcmp(var, "nprocs") == 0) {
        *out = (double)f->c->nprocs;
        return 1;
    }
    v = json_object_get(f->inputs, var);
    if (!json_is_number(v))
        return 0;
    *out = json_number_value(v);
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t forms_vars(const struct fconf *cf, int n, const char *exe, const char *sys,
                  const char **out, size_t max)
{
    size_t nv = 0, j;
    int i;
    const char *key;
    json_t *v;
    if (max == 0)
        return 0;
    out[nv++] = "nprocs";
    for (i = 0; i < n; i++) {
        if (!fconf_match(&cf[i], exe, sys))
            continue;
        json_object_foreach(cf[i].inputs, key, v)
        {
            for (j = 1; j < nv && strcmp(out[j], key) != 0; j++)
                ;
            if (j == nv && nv < max && strcmp(key, "nprocs") != 0)
                out[nv++] = key;
        }
    }
    qsort(out + 1, nv - 1, sizeof *out, cmp_str);
    return nv;
}

static int cmp_fval(const void *a, const void *b)
{
    const struct fval *x = a, *y = b;
    return x->v < y->v ? -1 : x->v > y->v ? 1 : 0;
}

size_t forms_values(const struct fconf *cf, int n, const char *exe, const char *sys,
                    const char *var, struct fval *out, size_t max, int *more)
{
    size_t nv = 0, j;
    int i;
    *more = 0;
    for (i = 0; i < n; i++) {
        double x;
        if (!fconf_match(&cf[i], exe, sys) || !fconf_var(&cf[i], var, &x))
            continue;
        for (j = 0; j < nv && out[j].v != x; j++)
            ;
        if (j < nv) {
            out[j].runs += cf[i].c->runs;
        } else if (nv < max) {
            out[nv].v = x;
            out[nv].runs = cf[i].c->runs;
            nv++;
        } else {
            *more = 1;
        }
    }
    qsort(out, nv, sizeof *out, cmp_fval);
    return nv;
}

double forms_common(const struct fval *v, size_t n)
{
    size_t i, best = 0;
    if (n == 0)
        return NAN;
    for (i = 1; i < n; i++)
        if (v[i].runs > v[best].runs)
            best = i;
    return v[best].v;
}

json_t *forms_names(struct fctx *c, const struct fconf *cf, int n, const char *exe,
                    const char *sys, const char *what, struct err *err)
{
    long long *ids = arena_alloc(c->arena, ((size_t)n + 1) * sizeof *ids);
    size_t nids = 0;
    int k;

    if (ids == NULL) {
        err_nomem(err);
        return NULL;
    }
    for (k = 0; k < n; k++)
        if (fconf_match(&cf[k], exe, sys))
            ids[nids++] = cf[k].c->last_run_id;
    return forms_keep(c, form_data_names(c->store, ids, nids, what, err));
}

const char *const forms_graphs[FORMS_NGRAPHS] = {
    "unknown", "auto", "poly1", "poly2", "poly3", "poly4", "poly5",
    "poly6",   "inv1", "inv2",  "inv3",  "inv4",  "inv5",  "inv6"};
const char *const forms_graph_labels[FORMS_NGRAPHS] = {
    "unknown: the best of the 12 (least residual norm)",
    "auto: cross-validated normal form",
    "linear",
    "quadratic",
    "cubic",
    "4th degree",
    "5th degree",
    "6th degree",
    "inverse linear",
    "inverse quadratic",
    "inverse cubic",
    "inverse 4th",
    "inverse 5th",
    "inverse 6th"};

int forms_graph_ok(const char *g)
{
    int i;
    for (i = 0; g && i < FORMS_NGRAPHS; i++)
        if (strcmp(g, forms_graphs[i]) == 0)
            return 1;
    return 0;
}

static int word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_';
}

int forms_mentions(const char *text, const char *word)
{
    size_t n = strlen(word);
    const char *p = text;
    if (n == 0)
        return 0;
    while ((p = strstr(p, word)) != NULL) {
        if ((p == text || !word_char(p[-1])) && !word_char(p[n]))
            return 1;
        p++;
    }
    return 0;
}

/* ---- the x step
 * ------------------------------------------------------------------------ */

#define XSTEP_MAX_PREDICT 100

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
        if (strcmp(s->vars[i], s->x) == 0)
            continue;
        name = fs_name(c, "fix.", s->vars[i]);
        v = fs_get(c, name);
        if (v != NULL && *v == '\0')
            continue; /* not fixed */
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
    const char *name = fs_name(c, "fix.", var), *values[FORMS_MAX_VALUES + 1],
               *labels[FORMS_MAX_VALUES + 1];
    size_t nv, i;
    int more;

    nv = forms_values(s->cf, s->ncf, s->exe, s->sys, var, vals, FORMS_MAX_VALUES, &more);
    if (more) {
        ff_text(c, name, var, "empty: not fixed", fs_get(c, name), NULL, "decimal");
        return;
    }
    values[0] = "";
    labels[0] = "not fixed";
    for (i = 0; i < nv; i++) {
        values[i + 1] = fnumtext(c, vals[i].v);
        labels[i + 1] = arena_printf(c->arena, "%s (%lld run%s)", values[i + 1],
                                     vals[i].runs, vals[i].runs == 1 ? "" : "s");
    }
    ff_select(c, name, var, NULL, values, labels, nv + 1, fs_get(c, name), 0);
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
        page_text(&c->p, s->vars[i]);
        if (v) {
            page_puts(&c->p, " = ");
            page_text(&c->p, v);
        } else {
            page_puts(&c->p, " not fixed");
        }
    }
    if ((p = fs_val(c, "predict")) != NULL) {
        page_puts(&c->p, "; predict at ");
        page_text(&c->p, p);
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

/* ---- result pieces ------------------------------------------------------------------
 */

void forms_plot(struct fctx *c, int (*fn)(json_t *, struct buf *, struct err *),
                json_t *answer, const char *caption)
{
    struct buf svg;
    struct err e = {0};
    if (fn == NULL)
        return; /* the method draws no such plot */
    buf_init(&svg, 16u << 20);
    if (fn(answer, &svg, &e) == 0 && !buf_failed(&svg)) {
        page_svg(&c->p, &svg, caption);
    } else {
        page_puts(&c->p, "<p class=\"muted\">No plot: ");
        page_text(&c->p, e.message[0] ? e.message : "out of memory");
        page_puts(&c->p, "</p>\n");
    }
    buf_free(&svg);
}

/* ---- page layout ------------------------------------------------------------------- */

static void header(struct fctx *c, int shown)
{
    int k;
    char title[128];
    if (shown == FORM_RESULT)
        snprintf(title, sizeof title, "%s: result", c->def->title);
    else
        snprintf(title, sizeof title, "%s: step %d of %d", c->def->title, shown,
                 c->def->nsteps);
    page_begin(&c->p, c->arena, title, "model");
    page_puts(&c->p, "<p class=\"crumbs\"><a href=\"/model\">Model</a> ›</p>\n<h1>");
    page_text(&c->p, c->def->title);
    page_puts(&c->p, "</h1>\n<p class=\"lead\">");
    page_puts(&c->p, c->def->lead);
    page_puts(&c->p, "</p>\n<ol class=\"steps\" aria-label=\"Steps\">");
    for (k = 1; k <= c->def->nsteps + 1; k++) {
        int result = k > c->def->nsteps,
            here = result ? shown == FORM_RESULT : shown == k;
        const char *name = result ? "Result" : c->def->step_names[k - 1];
        if (here)
            page_puts(&c->p, "<li aria-current=\"step\">");
        else
            page_printf(&c->p, "<li%s>", k < shown ? " class=\"done\"" : "");
        if (!here && !result && k < shown) {
            char s[16];
            snprintf(s, sizeof s, "%d", k);
            page_puts(&c->p, "<a href=\"");
            step_href(c, s, NULL);
            page_puts(&c->p, "\">");
        }
        if (result)
            page_puts(&c->p, "Result");
        else {
            page_printf(&c->p, "%d. ", k);
            page_text(&c->p, name);
        }
        if (!here && !result && k < shown)
            page_puts(&c->p, "</a>");
        page_puts(&c->p, "</li>");
    }
    page_puts(&c->p, "</ol>\n");
    if (shown > 1) {
        page_puts(&c->p, "<dl class=\"facts choices\">\n");
        for (k = 1; k < shown && k <= c->def->nsteps; k++) {
            char s[16];
            snprintf(s, sizeof s, "%d", k);
            page_printf(&c->p, "<dt>%d. ", k);
            page_text(&c->p, c->def->step_names[k - 1]);
            page_puts(&c->p, "</dt><dd>");
            c->def->summary(c, k);
            page_puts(&c->p, " <a class=\"change\" href=\"");
            step_href(c, s, NULL);
            page_puts(&c->p, "\">change</a></dd>\n");
        }
        page_puts(&c->p, "</dl>\n");
    }
}

static void error_notice(struct fctx *c)
{
    if (!c->err.status)
        return;
    page_puts(&c->p, "<div class=\"notice bad\" role=\"alert\" id=\"form-error\">");
    if (c->err_field) {
        page_puts(&c->p, "Not computed: see the field marked below.");
    } else {
        page_puts(&c->p, "Not computed: ");
        page_text(&c->p, c->err.message);
    }
    page_puts(&c->p, "</div>\n");
}

void forms_step_page(struct fctx *c, int k)
{
    size_t i;
    int last = k == c->def->nsteps;
    header(c, k);
    error_notice(c);
    page_printf(&c->p,
                "<form class=\"card step\" method=\"get\" action=\"%s\" "
                "id=\"step-form\"%s>\n",
                c->def->path, k == 1 ? " data-autosubmit" : "");
    for (i = 0; i < c->st.n; i++) {
        const struct form_field *x = &c->st.fields[i];
        int s = c->def->field_step(x->name);
        if (s < 1 || s == k || form_get(&c->st, x->name) != x->value)
            continue;
        page_puts(&c->p, "<input type=\"hidden\" name=\"");
        page_attr(&c->p, x->name);
        page_puts(&c->p, "\" value=\"");
        page_attr(&c->p, x->value);
        page_puts(&c->p, "\">");
    }
    page_printf(&c->p, "<input type=\"hidden\" name=\"step\" value=\"%d\">\n", k);
    page_printf(&c->p, "<h2>Step %d: ", k);
    page_text(&c->p, c->def->step_names[k - 1]);
    page_puts(&c->p, "</h2>\n");
    c->def->render_step(c, k);
    if (c->err.status && c->err_field && !c->err_shown) {
        page_puts(&c->p, "<p class=\"notice bad\">");
        page_text(&c->p, c->err.message);
        page_puts(&c->p, "</p>\n");
    }
    /* "next" first: it is the button Enter submits. The other one is the
     * fallback of the auto-submitting selects. */
    page_printf(&c->p,
                "<div class=\"buttons\"><button type=\"submit\" name=\"next\" "
                "value=\"1\" id=\"next\">%s</button>%s</div>\n</form>\n",
                last ? "Compute the model" : "Next",
                c->def->refresh & (1u << k)
                    ? "<button type=\"submit\" class=\"secondary\" id=\"refresh\">"
                      "Update the lists</button>"
                    : "");
}

/* The Save section. After a failed Save (save_err) it comes first, right
 * under the heading, so that the answer to the POST shows the error where
 * the page opens, with the result's permanent link beside it (app.js also
 * puts that link back in the address bar and focuses a refused token). */
static void save_section(struct fctx *c, const struct err *save_err, const char *csrf)
{
    int token_bad = save_err && save_err->status == 401;
    struct buf q;

    page_puts(&c->p, "<h2 id=\"save\">Save</h2>\n<p>A saved model keeps this answer: it "
                     "has a permanent page and answers predictions, and runs uploaded "
                     "later do not change it.</p>\n");
    if (save_err) {
        page_puts(&c->p, "<div class=\"notice bad\" role=\"alert\" id=\"save-error\">"
                         "Not saved: ");
        page_text(&c->p, save_err->message);
        {
            size_t n = strlen(save_err->message);
            page_puts(&c->p, n && save_err->message[n - 1] == '.' ? "" : ".");
        }
        page_puts(&c->p, " The result is unchanged: <a id=\"save-permalink\" "
                         "data-permalink href=\"");
        step_href(c, "result", NULL);
        page_puts(&c->p, "\">its permanent link</a>.</div>\n");
    }
    page_printf(&c->p,
                "<form class=\"card\" method=\"post\" action=\"%s\" "
                "id=\"save-form\" enctype=\"application/x-www-form-urlencoded\">\n"
                "<input type=\"hidden\" name=\"csrf\" value=\"",
                c->def->path);
    page_attr(&c->p, csrf);
    page_puts(&c->p, "\"><input type=\"hidden\" name=\"q\" value=\"");
    buf_init(&q, 1 << 20);
    state_query(c, &q, c->def->nsteps, NULL);
    page_attr(&c->p, buf_str(&q));
    buf_free(&q);
    page_puts(&c->p, "\">\n<div class=\"fields\"><div class=\"field\">"
                     "<label for=\"save-token\">Write token <span class=\"hint\">from "
                     "prophecyd token create NAME</span></label><input type=\"password\" "
                     "id=\"save-token\" name=\"token\" autocomplete=\"off\" required "
                     "placeholder=\"pt_…\"");
    if (token_bad)
        page_puts(&c->p, " aria-invalid=\"true\" aria-describedby=\"save-token-error\">"
                         "<p class=\"field-error\" id=\"save-token-error\">");
    else
        page_puts(&c->p, ">");
    if (token_bad) {
        page_text(&c->p, save_err->message);
        page_puts(&c->p, "</p>");
    }
    page_puts(&c->p, "</div></div>\n<button type=\"submit\" id=\"save-button\">Save the "
                     "model</button>\n</form>\n");
}

void forms_result_page(struct fctx *c, json_t *request, json_t *answer,
                       const struct err *save_err, const char *csrf)
{
    char *text;

    header(c, FORM_RESULT);
    if (save_err)
        save_section(c, save_err, csrf);
    c->def->render_result(c, request, answer);

    page_puts(&c->p, "<h2 id=\"links\">Links</h2>\n<dl class=\"facts\">\n"
                     "<dt>Permanent link</dt><dd><a id=\"permalink\" href=\"");
    step_href(c, "result", NULL);
    page_puts(&c->p, "\">this result</a> (the form's fields; computed again from the "
                     "runs stored when it is opened)</dd>\n<dt>JSON</dt><dd><a "
                     "id=\"json-link\" href=\"");
    step_href(c, "result", "&format=json");
    page_printf(&c->p,
                "\">the answer as JSON</a>, the same as <code>POST /api/v1/%s</code> "
                "with the request below</dd>\n</dl>\n",
                c->method_name);
    text = json_dumps(request, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    page_printf(&c->p,
                "<details class=\"request\" id=\"request\"><summary>Request "
                "(<code>POST /api/v1/%s</code>)</summary>",
                c->method_name);
    page_pre(&c->p, text ? text : "");
    page_puts(&c->p, "</details>\n");
    free(text);

    if (save_err == NULL)
        save_section(c, NULL, csrf);
}

/* ---- the driver's pure parts ------------------------------------------------------ */

int forms_fail(struct fctx *c, const struct err *e, int upto)
{
    const char *field = NULL;
    int at;
    c->err = *e;
    c->err_field = NULL;
    c->err_shown = 0;
    at = c->def->error_at(c, &c->err, &field);
    c->err_field = field;
    return at >= 1 && at <= upto ? at : upto;
}

int forms_target(struct fctx *c, int *as_json)
{
    const char *s = fs_get(c, "step");
    int target = 1, n = c->def->nsteps;
    if (s && strcmp(s, "result") == 0)
        target = FORM_RESULT;
    else if (s && s[0] >= '1' && s[0] <= '0' + n && s[1] == '\0')
        target = s[0] - '0';
    if (fs_get(c, "next") && target != FORM_RESULT)
        target = target == n ? FORM_RESULT : target + 1;
    *as_json = (s = fs_get(c, "format")) != NULL && strcmp(s, "json") == 0;
    if (*as_json)
        target = FORM_RESULT;
    return target;
}

/* ---- /model
 * ----------------------------------------------------------------------------- */

void view_model_index(struct page *p)
{
    page_puts(
        p,
        "<h1>Build a model</h1>\n<p class=\"lead\">Three methods, each a short form that "
        "follows the Prophecy paper. Every step is a link you can keep; the result "
        "shows the model, its plot and its prediction, and can be saved.</p>\n"
        "<div class=\"methods\">\n"
        "<section class=\"card\"><h2><a href=\"/model/fit\">Curve fitting</a></h2>"
        "<p>Fit one of the paper's 12 graph types (or let the data choose) to the "
        "stored runs of an application on a system: runtime, speedup, efficiency, a "
        "metric or a kernel's time over processors or an input. Three steps: "
        "application and executable; graph type and axes; range, fixed values and "
        "prediction.</p></section>\n"
        "<section class=\"card\"><h2><a href=\"/model/parameterize\">Parameterization"
        "</a></h2><p>Evaluate an application's model template with a system's "
        "parameters (ADDM, MPISR(L), …) at a point, over a range or over a surface, "
        "and compare it with the measured runs. Two steps: template and system; the "
        "template's variables.</p></section>\n"
        "<section class=\"card\"><h2><a href=\"/model/couple\">Kernel coupling</a>"
        "</h2><p>Model an application as its kernels, each fitted on its own, "
        "composed with the coupling values measured between adjacent loop kernels. "
        "Three steps: application and system; a model per kernel and the loop; "
        "processors or input, range and prediction.</p></section>\n</div>\n"
        "<p>The same models over HTTP: <code>POST /api/v1/fit</code>, "
        "<code>/api/v1/parameterize</code>, <code>/api/v1/couple</code>; saved ones are "
        "under <a href=\"/models\">Models</a>.</p>\n");
}

void *forms_data(struct fctx *c, size_t size)
{
    if (c->data == NULL && (c->data = arena_alloc(c->arena, size)) != NULL)
        memset(c->data, 0, size);
    return c->data;
}

const char *forms_str(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

int forms_in_list(json_t *list, const char *name)
{
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x)
    {
        const char *n = forms_str(x, "name");
        if (name && n && strcmp(n, name) == 0)
            return 1;
    }
    return 0;
}
