/* form_couple: kernel coupling in three steps (GET /model/couple), as
 * in the paper: 1. application (those whose runs record kernels) and system
 * (and the executable when there are several); 2. a model type per kernel
 * and the arrangement of the loop (which kernels are in it, in order: by
 * default the chains of the stored coupling measurements); 3. x (nprocs or an
 * input), its range, the fixed values of the other variables and the
 * prediction points. The result is POST /api/v1/couple's answer for the
 * request the fields make (database form). See form.h for the driver.
 *
 * Fields: application, system, executable ("" = all); graph.K and pos.K for
 * each kernel K ("" = not in the loop, else its place 1, 2, ...); x, xmin,
 * xmax, fix.V, predict, aggregate.
 */
#include "web/form.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 100 /* COUPLE_MAX_KERNELS */
/* The kernels' fields (graph.K, pos.K) a step carries, in bytes of the
 * query as a browser encodes it: past this the rest get no fields (auto, not
 * in the loop), so that the link stays within LIMIT_QUERY_BYTES and what a
 * proxy passes (call-path names of 300 bytes, 100 kernels: 60 KB). */
#define KERNEL_FIELD_BYTES 12000

struct couple_data {
    json_t *apps, *systems, *exes, *kernels, *couplings;
    const char *app, *sys, *exe;
    struct fconf *cf;
    int ncf;
    size_t nk;               /* kernels modelled (at most MAX_KERNELS) */
    size_t nf;               /* the first nf of them have fields */
    size_t nall;             /* kernels the runs record (200 read at most) */
    int defpos[MAX_KERNELS]; /* default loop places, 0 = not in the loop */
    const char *vars[FORMS_MAX_VARS];
    size_t nvars;
    const char *x;
};

static struct couple_data *cd(struct fctx *c)
{
    return forms_data(c, sizeof(struct couple_data));
}

static int field_step(const char *n)
{
    if (strcmp(n, "application") == 0 || strcmp(n, "system") == 0 ||
        strcmp(n, "executable") == 0)
        return 1;
    if ((strncmp(n, "graph.", 6) == 0 && n[6] != '\0') ||
        (strncmp(n, "pos.", 4) == 0 && n[4] != '\0'))
        return 2;
    if (strcmp(n, "x") == 0 || strcmp(n, "xmin") == 0 || strcmp(n, "xmax") == 0 ||
        strcmp(n, "predict") == 0 || strcmp(n, "aggregate") == 0 ||
        (strncmp(n, "fix.", 4) == 0 && n[4] != '\0'))
        return 3;
    return 0;
}

static const char *kname(struct couple_data *d, size_t i)
{
    return json_string_value(json_array_get(d->kernels, i));
}

static int check1(struct fctx *c, struct couple_data *d, int strict, struct err *err)
{
    const char *v;

    d->apps = forms_list(c, FORM_LIST_KERNEL_APPS, NULL, NULL, err);
    if (d->apps == NULL)
        return -1;
    if (json_array_size(d->apps) == 0) {
        c->empty = 1;
        return err_invalid(
            err, "application",
            "no application's runs record kernel times yet: kernel coupling "
            "models an application by its kernels");
    }
    v = fs_val(c, "application");
    if (v == NULL)
        fs_set(c, "application", v = forms_str(json_array_get(d->apps, 0), "name"));
    else if (!forms_in_list(d->apps, v))
        return err_invalid(err, "application",
                           "the runs of %.200s record no kernel times: kernel coupling "
                           "models an application by its kernels",
                           v);
    d->app = v;
    d->systems = forms_list(c, FORM_LIST_KERNEL_SYSTEMS, d->app, NULL, err);
    if (d->systems == NULL)
        return -1;
    v = fs_get(c, "system");
    if (!forms_in_list(d->systems, v)) {
        if (v != NULL && strict)
            return err_invalid(err, "system",
                               "no runs of %.200s on %.200s record kernels", d->app, v);
        fs_set(c, "system", forms_str(json_array_get(d->systems, 0), "name"));
    }
    d->sys = fs_val(c, "system");
    d->exes = forms_list(c, FORM_LIST_KERNEL_EXES, d->app, d->sys, err);
    if (d->exes == NULL)
        return -1;
    v = fs_get(c, "executable");
    if (json_array_size(d->exes) < 2 || v == NULL ||
        (*v != '\0' && !forms_in_list(d->exes, v))) {
        if (v != NULL && *v != '\0' && strict && json_array_size(d->exes) >= 2)
            return err_invalid(
                err, "executable",
                "no runs of %.200s on %.200s with executable %.200s record "
                "kernels",
                d->app, d->sys, v);
        fs_set(c, "executable", "");
    }
    d->exe = fs_val(c, "executable");
    return 0;
}

/* Default loop places from the stored couplings: their pairs and chains form
 * one chain or one cycle through the loop kernels; a cycle starts at the
 * kernel the runs record first (the API's rule). No defaults when they do
 * not form one loop. */
static void default_loop(struct couple_data *d)
{
    int succ[MAX_KERNELS], pred[MAX_KERNELS], start = -1, i, p = 1;
    size_t r, j, nk = d->nk;
    json_t *row;

    for (i = 0; i < (int)nk; i++)
        succ[i] = pred[i] = -1;
    json_array_foreach(d->couplings, r, row)
    {
        json_t *ks = json_object_get(row, "kernels");
        for (j = 0; j + 1 < json_array_size(ks); j++) {
            const char *a = json_string_value(json_array_get(ks, j)),
                       *b = json_string_value(json_array_get(ks, j + 1));
            int ia = -1, ib = -1;
            for (i = 0; i < (int)nk; i++) {
                if (a && strcmp(kname(d, (size_t)i), a) == 0)
                    ia = i;
                if (b && strcmp(kname(d, (size_t)i), b) == 0)
                    ib = i;
            }
            if (ia < 0 || ib < 0)
                continue;
            if ((succ[ia] >= 0 && succ[ia] != ib) || (pred[ib] >= 0 && pred[ib] != ia))
                return; /* not one loop: the user arranges it */
            succ[ia] = ib;
            pred[ib] = ia;
        }
    }
    for (i = 0; i < (int)nk && start < 0; i++)
        if (pred[i] < 0 && succ[i] >= 0)
            start = i;
    for (i = 0; i < (int)nk && start < 0; i++)
        if (succ[i] >= 0)
            start = i;
    for (i = start; i >= 0 && d->defpos[i] == 0; i = succ[i])
        d->defpos[i] = p++;
    for (i = 0; i < (int)nk; i++)
        if ((succ[i] >= 0 || pred[i] >= 0) && d->defpos[i] == 0) {
            memset(d->defpos, 0, sizeof d->defpos); /* more than one chain */
            return;
        }
}

static int check2(struct fctx *c, struct couple_data *d, int strict, struct err *err)
{
    long long app_id, sys_id;
    int seen[MAX_KERNELS + 1];
    size_t i, j, bytes;

    if (form_data_ids(c->store, d->app, d->sys, &app_id, &sys_id, err) != 0)
        return -1;
    d->ncf = forms_configs(c, app_id, sys_id, &d->cf, err);
    if (d->ncf < 0)
        return -1;
    if ((d->kernels = forms_names(c, d->cf, d->ncf, d->exe, NULL, "kernels", err)) ==
        NULL)
        return -1;
    d->nall = d->nk = json_array_size(d->kernels);
    if (d->nk > MAX_KERNELS)
        d->nk = MAX_KERNELS;
    if (d->nk == 0)
        return err_invalid(err, "system", "these runs record no kernel times");
    for (i = 0, bytes = 0; i < d->nk; i++) {
        /* "&graph.K=inv6&pos.K=100", K percent-encoded but its unreserved bytes */
        const unsigned char *k = (const unsigned char *)kname(d, i);
        size_t len = 0;
        for (; *k; k++)
            len += isalnum(*k) || strchr("-_.~", *k) ? 1 : 3;
        if ((bytes += 2 * len + 22) > KERNEL_FIELD_BYTES && i > 0)
            break;
    }
    d->nf = i;
    if ((d->couplings =
             forms_keep(c, form_data_couplings(c->store, d->app, d->sys, err))) == NULL)
        return -1;
    default_loop(d);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < d->nk; i++) {
        const char *g = fs_name(c, "graph.", kname(d, i)),
                   *pn = fs_name(c, "pos.", kname(d, i)), *v = fs_get(c, g);
        char *end;
        long pos;
        if (!forms_graph_ok(v)) {
            if (v != NULL && strict)
                return err_invalid(err, g, "choose a model type of the list");
            if (i < d->nf) /* the others: auto without a field */
                fs_set(c, g, "auto");
        }
        v = fs_get(c, pn);
        if (v == NULL) {
            if (i < d->nf)
                fs_set(c, pn, d->defpos[i] ? fnumtext(c, d->defpos[i]) : "");
            continue;
        }
        if (*v == '\0')
            continue;
        pos = strtol(v, &end, 10);
        if (*end != '\0' || pos < 1 || pos > (long)d->nk) {
            if (strict)
                return err_invalid(err, pn, "the place in the loop must be 1 to %zu",
                                   d->nk);
            fs_set(c, pn, d->defpos[i] ? fnumtext(c, d->defpos[i]) : "");
            continue;
        }
        if (seen[pos] && strict) {
            for (j = 0; j < i; j++)
                if (fs_val(c, fs_name(c, "pos.", kname(d, j))) &&
                    atol(fs_get(c, fs_name(c, "pos.", kname(d, j)))) == pos)
                    break;
            return err_invalid(err, pn, "place %ld in the loop is also given to %.200s",
                               pos, j < i ? kname(d, j) : "another kernel");
        }
        seen[pos] = 1;
    }
    return 0;
}

static struct xstep xs(struct couple_data *d)
{
    struct xstep s = {d->cf, d->ncf, d->exe, NULL, d->vars, d->nvars, d->x, NULL, 0};
    return s;
}

static int check3(struct fctx *c, struct couple_data *d, int strict, struct err *err)
{
    const char *v = fs_get(c, "x");
    struct xstep x;
    size_t i;

    d->nvars = forms_vars(d->cf, d->ncf, d->exe, NULL, d->vars, FORMS_MAX_VARS);
    for (i = 0; v && i < d->nvars && strcmp(d->vars[i], v) != 0; i++)
        ;
    if (v == NULL || i == d->nvars) {
        /* the step is rendered again next to the error: its fields need an x the
         * runs know (issue 12: an unknown x reached strcmp as NULL) */
        d->x = "nprocs";
        if (v != NULL && strict)
            return err_invalid(err, "x", "the runs have no variable %.200s", v);
        fs_set(c, "x",
               forms_default_x(c, d->cf, d->ncf, d->exe, NULL, d->vars, d->nvars));
    }
    d->x = fs_val(c, "x");
    if (strict && forms_axis_varies(c, d->cf, d->ncf, d->exe, NULL, d->x, "x", err) != 0)
        return -1;
    x = xs(d);
    return forms_xstep_check(c, &x, strict, err);
}

static int check(struct fctx *c, int k, int strict, struct err *err)
{
    struct couple_data *d = cd(c);
    if (d == NULL)
        return err_nomem(err);
    if (k == 1)
        return check1(c, d, strict, err);
    if (k == 2)
        return check2(c, d, strict, err);
    return check3(c, d, strict, err);
}

/* ---- steps ------------------------------------------------------------------------- */

static void names_select(struct fctx *c, json_t *list, const char *field,
                         const char *label, const char *hint, const char *extra_value,
                         const char *extra_label)
{
    size_t n = json_array_size(list), i;
    const char **values = arena_alloc(c->arena, (n + 2) * sizeof *values);
    json_t *x;
    const char **labels = arena_alloc(c->arena, (n + 2) * sizeof *labels);
    if (values == NULL || labels == NULL)
        return;
    json_array_foreach(list, i, x)
    {
        values[i] = labels[i] = forms_str(x, "name");
    }
    if (extra_value) {
        values[n] = extra_value;
        labels[n++] = extra_label;
    }
    ff_select(c, field, label, hint, values, labels, n, fs_get(c, field), 1);
}

static void render1(struct fctx *c, struct couple_data *d)
{
    page_puts(&c->p, "<div class=\"fields\">\n");
    names_select(c, d->apps, "application", "Application",
                 "those whose runs record kernels", NULL, NULL);
    names_select(c, d->systems, "system", "System", NULL, NULL, NULL);
    if (json_array_size(d->exes) > 1)
        names_select(c, d->exes, "executable", "Executable", NULL, "", "all executables");
    page_puts(&c->p, "</div>\n");
}

static void render2(struct fctx *c, struct couple_data *d)
{
    const char **places = arena_alloc(c->arena, (d->nk + 2) * sizeof *places);
    const char **labels = arena_alloc(c->arena, (d->nk + 2) * sizeof *labels);
    size_t i;

    if (places == NULL || labels == NULL)
        return;
    places[0] = "";
    labels[0] = "not in the loop";
    for (i = 1; i <= d->nk; i++) {
        places[i] = fnumtext(c, (double)i);
        labels[i] = arena_printf(c->arena, "place %zu in the loop", i);
    }
    page_printf(&c->p,
                "<p class=\"muted\">Each kernel gets its own model of its time over x "
                "(fitted to its records; auto lets the data choose). The loop is the "
                "kernels repeated together, in order; coupling values are measured "
                "between neighbours in it (%zu stored measurement%s). The default order "
                "follows the stored measurements' chains.</p>\n",
                json_array_size(d->couplings),
                json_array_size(d->couplings) == 1 ? "" : "s");
    for (i = 0; i < d->nf; i++) {
        const char *K = kname(d, i);
        ff_group_open(c, arena_printf(c->arena, "Kernel %s", K), NULL, NULL);
        ff_select(c, fs_name(c, "graph.", K), "model type", NULL, forms_graphs,
                  forms_graph_labels, FORMS_NGRAPHS, fs_get(c, fs_name(c, "graph.", K)),
                  0);
        ff_select(c, fs_name(c, "pos.", K), "loop", NULL, places, labels, d->nk + 1,
                  fs_get(c, fs_name(c, "pos.", K)), 0);
        ff_group_close(c);
    }
    if (d->nall > d->nk || d->nf < d->nk) {
        page_puts(&c->p, "<p class=\"notice\" id=\"kernels-more\">");
        if (d->nall > d->nk)
            page_printf(&c->p,
                        "The runs record %s%zu kernels; a coupling model takes at most "
                        "%d, the first %d as the runs record them. ",
                        d->nall >= 200 ? "at least " : "", d->nall, MAX_KERNELS,
                        MAX_KERNELS);
        if (d->nf < d->nk)
            page_printf(&c->p,
                        "The other %zu kernels are modelled with auto and are not in the "
                        "loop: a field for each would make this page's link longer than "
                        "browsers and proxies carry (POST /api/v1/couple sets any of "
                        "them).",
                        d->nk - d->nf);
        page_puts(&c->p, "</p>\n");
    }
}

static void render3(struct fctx *c, struct couple_data *d)
{
    const char **labels =
        forms_var_labels(c, d->cf, d->ncf, d->exe, NULL, d->vars, d->nvars);
    struct xstep x = xs(d);
    if (labels == NULL)
        return;
    page_puts(&c->p, "<div class=\"fields\">\n");
    ff_select(c, "x", "x axis", "changing it updates the fields below", d->vars, labels,
              d->nvars, fs_get(c, "x"), 1);
    page_puts(&c->p, "</div>\n");
    forms_xstep_render(c, &x);
}

static void render_step(struct fctx *c, int k)
{
    struct couple_data *d = cd(c);
    if (k == 1)
        render1(c, d);
    else if (k == 2)
        render2(c, d);
    else
        render3(c, d);
}

/* The loop kernels in order, by their places. */
static size_t loop_of(struct fctx *c, struct couple_data *d, const char **out)
{
    size_t n = 0, i;
    long p;
    for (p = 1; p <= (long)d->nk; p++)
        for (i = 0; i < d->nk; i++) {
            const char *v = fs_val(c, fs_name(c, "pos.", kname(d, i)));
            if (v && atol(v) == p)
                out[n++] = kname(d, i);
        }
    return n;
}

static void summary(struct fctx *c, int k)
{
    struct couple_data *d = cd(c);
    if (k == 1) {
        page_text(&c->p, d->app);
        if (d->exe) {
            page_puts(&c->p, " / ");
            page_text(&c->p, d->exe);
        }
        page_puts(&c->p, " on ");
        page_text(&c->p, d->sys);
    } else if (k == 2) {
        const char *loop[MAX_KERNELS];
        size_t n = loop_of(c, d, loop), i;
        int any = 0;
        page_puts(&c->p, "loop ");
        for (i = 0; i < n; i++) {
            page_puts(&c->p, i ? " → " : "");
            page_text(&c->p, loop[i]);
        }
        if (n == 0)
            page_puts(&c->p, "empty");
        for (i = 0; i < d->nk; i++) {
            const char *g = fs_get(c, fs_name(c, "graph.", kname(d, i)));
            if (g == NULL || strcmp(g, "auto") == 0)
                continue;
            page_puts(&c->p, any ? ", " : "; models: ");
            page_text(&c->p, kname(d, i));
            page_puts(&c->p, " ");
            page_text(&c->p, g);
            any = 1;
        }
        if (!any)
            page_puts(&c->p, "; every kernel's model chosen by the data");
    } else {
        struct xstep x = xs(d);
        forms_xstep_summary(c, &x);
    }
}

/* ---- request and answer -------------------------------------------------------------
 */

static json_t *request(struct fctx *c, struct err *err)
{
    struct couple_data *d = cd(c);
    struct xstep x = xs(d);
    json_t *req = json_object(), *kernels = json_object(), *loop = json_array();
    const char *names[MAX_KERNELS];
    size_t n, i;

    json_object_set_new(req, "application", json_string(d->app));
    json_object_set_new(req, "system", json_string(d->sys));
    if (d->exe)
        json_object_set_new(req, "executable", json_string(d->exe));
    json_object_set_new(req, "x", json_string(d->x));
    for (i = 0; i < d->nk; i++) {
        const char *g = fs_get(c, fs_name(c, "graph.", kname(d, i)));
        if (g && strcmp(g, "auto") != 0)
            json_object_set_new(kernels, kname(d, i), json_pack("{s:s}", "graph", g));
    }
    if (d->nall > d->nk) {
        /* more than the API models: the first nk, as a list (exactly those) */
        json_t *list = json_array();
        for (i = 0; i < d->nk; i++) {
            json_t *k = json_object_get(kernels, kname(d, i));
            json_array_append_new(list,
                                  k ? json_pack("{s:s, s:O}", "name", kname(d, i),
                                                "graph", json_object_get(k, "graph"))
                                    : json_string(kname(d, i)));
        }
        json_object_set_new(req, "kernels", list);
    } else if (json_object_size(kernels) > 0) {
        json_object_set(req, "kernels", kernels);
    }
    n = loop_of(c, d, names);
    for (i = 0; i < n; i++)
        json_array_append_new(loop, json_string(names[i]));
    json_object_set(req, "loop", loop);
    json_decref(kernels);
    json_decref(loop);
    if (forms_xstep_request(c, &x, req, err) != 0) {
        json_decref(req);
        return NULL;
    }
    return req;
}

static int error_at(struct fctx *c, const struct err *e, const char **field)
{
    struct couple_data *d = cd(c);
    const char *f = e->field;
    size_t n = strcspn(f, "[."), i;
    int s = field_step(f);

    *field = NULL;
    if (s > 0) {
        *field = f;
        return s;
    }
#define IS(name) (n == strlen(name) && strncmp(f, name, n) == 0)
    if (IS("application") || IS("executable") || IS("system")) {
        *field = IS("application") ? "application"
                 : IS("system")    ? "system"
                                   : "executable";
        return 1;
    }
    if (strstr(e->message, "x values") != NULL) {
        *field = "x"; /* "all x values are equal": x does not vary in these runs */
        return 3;
    }
    if (IS("kernels") || IS("loop") || IS("couplings")) {
        const char *prefix = IS("kernels") ? "graph." : "pos.";
        /* "K is outside the loop" names the kernel to place */
        for (i = 0; d && i < d->nk && *field == NULL; i++) {
            const char *K = kname(d, i), *at = strstr(e->message, K);
            for (; at != NULL; at = strstr(at + 1, K))
                if (strncmp(at + strlen(K), " is outside the loop", 20) == 0 &&
                    (at == e->message || at[-1] == ' '))
                    *field = fs_name(c, prefix, K);
        }
        /* "kernel NAME: ..." names the kernel; otherwise the first one named */
        for (i = 0; d && i < d->nk && *field == NULL; i++) {
            const char *K = kname(d, i);
            size_t kl = strlen(K);
            if (strncmp(e->message, "kernel ", 7) == 0 &&
                strncmp(e->message + 7, K, kl) == 0 && e->message[7 + kl] == ':')
                *field = fs_name(c, prefix, K);
        }
        for (i = 0; d && i < d->nk && *field == NULL; i++)
            if (forms_mentions(e->message, kname(d, i)))
                *field = fs_name(c, prefix, kname(d, i));
        return 2;
    }
    if (IS("x")) {
        *field = "x";
        return 3;
    }
#undef IS
    if (d && d->x) {
        struct xstep x = xs(d);
        *field = forms_xstep_field(c, &x, e);
    }
    return 3;
}

/* ---- the result -----------------------------------------------------------------------
 */

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void interval(struct fctx *c, json_t *o)
{
    if (json_is_number(json_object_get(o, "lo")) &&
        json_is_number(json_object_get(o, "hi"))) {
        page_puts(&c->p, " <span class=\"interval\">(95 % interval ");
        page_qty(&c->p, num(o, "lo"), "s");
        page_puts(&c->p, " to ");
        page_qty(&c->p, num(o, "hi"), "s");
        page_puts(&c->p, ")</span>");
    }
}

static void headline(struct fctx *c, json_t *ans, json_t *p)
{
    json_t *sum = json_object_get(p, "summation");
    const char *x = json_string_value(json_object_get(ans, "x"));

    /* green only for a prediction without a warning, as the fit form */
    page_printf(&c->p,
                "<p class=\"notice%s headline\" id=\"prediction\" role=\"status\">"
                "Predicted runtime at ",
                json_object_get(p, "warning") ? "" : " good");
    page_text(&c->p, x ? x : "x");
    page_puts(&c->p, " = ");
    page_num(&c->p, num(p, "x"));
    page_puts(&c->p, ": ");
    page_value(&c->p, "predicted", num(p, "y"), "s"); /* runtimes: seconds */
    interval(c, p);
    page_puts(&c->p, "</p>\n");
    view_reach(&c->p, p, "prediction"); /* its reach and warning, as the API */
    page_puts(&c->p, "<p id=\"summation\">The plain sum of the kernel models: ");
    page_value(&c->p, "summed", num(sum, "y"), "s");
    interval(c, sum);
    page_puts(&c->p, ".");
    if (json_is_number(json_object_get(p, "actual"))) {
        page_puts(&c->p, " Measured: ");
        page_value(&c->p, "actual", num(p, "actual"), "s");
        page_printf(&c->p, " (%lld run%s); error of the coupled model ",
                    (long long)json_integer_value(json_object_get(p, "runs")),
                    json_integer_value(json_object_get(p, "runs")) == 1 ? "" : "s");
        view_signed_pct(&c->p, num(p, "error_pct"));
        page_puts(&c->p, ", of the sum ");
        view_signed_pct(&c->p, num(p, "summation_error_pct"));
        page_puts(&c->p, ".");
    } else {
        page_puts(&c->p, " No run was measured there.");
    }
    page_puts(&c->p, "</p>\n");
}

static void render_result(struct fctx *c, json_t *request, json_t *ans)
{
    json_t *preds = json_object_get(ans, "predictions"), *skipped;
    (void)request;

    page_puts(&c->p, "<h2 id=\"result\">Result</h2>\n");
    if (json_array_size(preds) > 0)
        headline(c, ans, json_array_get(preds, 0));
    else
        page_puts(&c->p, "<p class=\"muted\">No prediction point was given (step 3): the "
                         "composed model is shown.</p>\n");
    page_puts(&c->p, "<div class=\"plots\">\n");
    forms_plot(c, c->plot, ans,
               "Measured total runtimes, the coupled model and the plain sum of the "
               "kernel models, with the first prediction and its interval.");
    forms_plot(c, c->plot_extra, ans,
               "Each kernel's share (its coefficient times its model) stacked, at the "
               "measured and predicted x.");
    page_puts(&c->p, "</div>\n");
    if (json_array_size(json_object_get(ans, "varies_with_x")) > 0) {
        page_puts(&c->p, "<p class=\"muted\" id=\"fitted-to\">Fitted to the selected "
                         "runs' kernel records");
        forms_with_x(c, json_object_get(ans, "varies_with_x"));
        page_puts(&c->p, ".</p>\n");
    }
    page_puts(&c->p, "<h3>Composed model</h3>\n<code class=\"formula\" id=\"formula\">");
    page_text(&c->p, forms_str(ans, "formula"));
    page_puts(&c->p, "</code>\n<p><code>");
    page_text(&c->p, forms_str(ans, "composition"));
    page_puts(&c->p, "</code></p>\n");
    skipped = json_object_get(ans, "skipped_configurations");
    if (json_array_size(skipped) > 0)
        page_printf(&c->p,
                    "<p class=\"notice\">%zu measured configuration%s of couplings broke "
                    "a rule and %s left out (the JSON says why).</p>\n",
                    json_array_size(skipped), json_array_size(skipped) == 1 ? "" : "s",
                    json_array_size(skipped) == 1 ? "was" : "were");
    view_couple_tables(&c->p, ans);
}

static const char *const steps[] = {"Application and system", "Kernels and loop",
                                    "Range and prediction"};

const struct form_def form_couple = {
    "couple",
    "/model/couple",
    "Kernel coupling",
    "Model an application as its kernels, as in the Prophecy paper: each kernel's time "
    "gets its own model, and the loop kernels are weighted by the coupling values "
    "measured between neighbours. Choose the runs, the kernels' models and the loop, "
    "then x and where to predict.",
    3,
    steps,
    (1u << 1) | (1u << 3),
    field_step,
    check,
    render_step,
    summary,
    request,
    error_at,
    render_result,
};
