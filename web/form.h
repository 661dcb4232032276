/* form: the step forms of the three modeling methods (SPEC §7,
 * docs/web.md "Modeling forms"): curve fitting in 3 steps (/model/fit),
 * parameterization in 2 (/model/parameterize), kernel coupling in 3
 * (/model/couple).
 *
 * Every step is the same URL with more query parameters (a GET form), so each
 * step and the result are bookmarkable and work without JavaScript. The whole
 * state of a form is its fields (struct form, from the query string or, for
 * Save, from the hidden field "q"); a step's page carries the fields of the
 * earlier steps as hidden inputs, the hidden "step" names the step shown and
 * the "next" button moves on (a submission without "next", as the
 * auto-submitting selects send, shows the same step with its lists
 * refreshed). The result page builds the method's JSON request from the
 * fields, calls method->answer once and renders the answer; Save (POST to
 * the same path) rebuilds the request from the same fields and stores it
 * through model_save, the JSON API's own path.
 *
 * What the three share, a file per job: web/form_state.c (the state),
 * form_num.c (numbers), form_field.c (the fields), form_configs.c (the
 * lists offered), form_xstep.c (the x step of fit and couple) and
 * form_page.c (the pages: steps, errors next to fields, result layout, Save
 * form, the JSON link); web/form_fit.c, form_param.c and form_couple.c
 * describe each method with a struct form_def. The HTTP side (decoding, running the
 * checks, calling the method, Save, answering) is server/dash_forms.c. The forms know no
 * database: a step reads what it offers from core/form_data.h, as its
 * checks need it, through the connection the adapter hands over in
 * fctx.store.
 */
#ifndef PROPHECY_PAGE_FORMS_H
#define PROPHECY_PAGE_FORMS_H

#include <jansson.h>

#include "core/form_data.h"
#include "formats/form.h"
#include "web/page.h"
#include "web/view.h"

#define FORM_RESULT 99         /* the "step" of the result page */
#define FORMS_MAX_CONFIGS 5000 /* configurations read for the lists */
#define FORMS_MAX_VARS 64      /* variables (nprocs and inputs) listed */
#define FORMS_MAX_VALUES 200   /* distinct values offered in a select */
#define FORMS_MAX_VALUE 4096   /* bytes of one field value */
#define FORMS_CURVE_VALUES 3   /* values of a variable that make a curve (auto's least) */

struct fctx;

struct form_def {
    const char *method; /* "fit": method_find name */
    const char *path;   /* "/model/fit" */
    const char *title;  /* "Curve fitting" */
    const char *lead;   /* introduction (trusted markup) */
    int nsteps;
    const char *const *step_names; /* nsteps labels */
    unsigned refresh;              /* bit k: step k has lists to refresh (a button) */
    /* The step a field of the state belongs to, 0 for none ("step", "next",
     * "format" and unknown names). */
    int (*field_step)(const char *name);
    /* Validates step k's fields and fills the absent ones with defaults
     * (loading what the step needs). strict: the step is behind the one
     * shown, so a bad value is an error (with err->field a form field);
     * otherwise it is replaced by the default. Returns 0 or -1. */
    int (*check)(struct fctx *c, int k, int strict, struct err *err);
    /* Writes the fields of step k inside the step's form. */
    void (*render_step)(struct fctx *c, int k);
    /* One line of text saying what step k chose (for the summary). */
    void (*summary)(struct fctx *c, int k);
    /* Builds the method's JSON request from the checked fields; errors name
     * a form field. */
    json_t *(*request)(struct fctx *c, struct err *err);
    /* The step and form field (NULL: none) an error of check, request or
     * the method's answer belongs to. */
    int (*error_at)(struct fctx *c, const struct err *e, const char **field);
    /* Renders the answer: headline, plots, figures. */
    void (*render_result)(struct fctx *c, json_t *request, json_t *answer);
};

struct fctx {
    arena *arena; /* the request's */
    const struct form_def *def;
    const char *method_name; /* "fit": its POST /api/v1/ path */
    /* the method's plot and predict (core/), NULL when it has none */
    int (*plot)(json_t *answer, struct buf *out, struct err *err);
    json_t *(*predict)(json_t *answer, json_t *point, struct err *err);
    /* a second plot of the answer (kernel coupling's breakdown), or NULL */
    int (*plot_extra)(json_t *answer, struct buf *out, struct err *err);
    const struct form_data *store; /* where the steps read (the adapter's connection) */
    struct form st;                /* the state */
    struct page p;
    int step;                /* shown: 1..nsteps or FORM_RESULT */
    struct err err;          /* the error shown, if err.status */
    const char *err_field;   /* the form field it is shown at, or NULL */
    int err_shown;           /* set once a field showed it */
    int nid;                 /* element id counter */
    json_t *keep;            /* JSON values freed with the context */
    void *data;              /* the method's own (arena) */
    const char *user;        /* the signed-in token's name (no token field), or NULL */
    const char *header_csrf; /* the header's sign-out form's CSRF token, or NULL */
    const char *save_name;   /* the Save form's name as sent (kept after a refusal) */
    /* the error is that step 1 has nothing to offer yet (no runs, no runs with
     * kernels, no template, no system parameters): not the user's doing, so the
     * page says so in place of the form, answered 200 */
    int empty;
};

/* The form definitions. */
extern const struct form_def form_fit, form_param, form_couple;

/* The string member key of o, or NULL. */
const char *forms_str(json_t *o, const char *key);
/* Whether the array of objects list has one whose "name" is name. */
int forms_in_list(json_t *list, const char *name);

/* The method's own data of c: size zeroed arena bytes, made on first use
 * (later calls return the same block). NULL on out of memory. */
void *forms_data(struct fctx *c, size_t size);

/* ---- the state ---------------------------------------------------------------- */

/* The value of field name, or NULL when absent ("" when sent empty). */
const char *fs_get(struct fctx *c, const char *name);
/* The value when present and not empty, else NULL. */
const char *fs_val(struct fctx *c, const char *name);
/* Sets a field (replacing the first of that name, or appending). */
void fs_set(struct fctx *c, const char *name, const char *value);
/* name = prefix + rest, in the arena. */
const char *fs_name(struct fctx *c, const char *prefix, const char *rest);

/* ---- numbers -------------------------------------------------------------------- */

/* Parses a finite number; empty or absent is 1 (absent), bad is -1 with an
 * ERR_INVALID naming field. Returns 0 when *out was set. */
int fnum(const char *s, const char *field, const char *what, double *out,
         struct err *err);
/* "1200", "1200, 1500" or "1200 1500": up to max numbers. Returns the count,
 * or -1 with an ERR_INVALID naming field. */
int fnums(const char *s, const char *field, double *out, int max, struct err *err);
/* A number for a JSON request: an integer when it is a whole number of
 * moderate size (a request reads {"nprocs": 8}), else a real. */
json_t *forms_jnum(double v);
/* A number as its shortest exact text (arena). */
const char *fnumtext(struct fctx *c, double v);

/* ---- fields ---------------------------------------------------------------------- */

/* A <select> field. values/labels (labels NULL: the values) of n options;
 * the selected one is `selected`. label and hint are plain text. With
 * autosubmit the select submits its form when changed (web/static/app.js). */
void ff_select(struct fctx *c, const char *name, const char *label, const char *hint,
               const char *const *values, const char *const *labels, size_t n,
               const char *selected, int autosubmit);
/* A text field. */
void ff_text(struct fctx *c, const char *name, const char *label, const char *hint,
             const char *value, const char *placeholder, const char *inputmode);
/* Opens and closes a group of fields (<fieldset> with a legend, plain text).
 * An error at `field` (may be NULL) is shown at the top of the group. */
void ff_group_open(struct fctx *c, const char *legend, const char *hint,
                   const char *field);
void ff_group_close(struct fctx *c);

/* ---- data shared by the forms ------------------------------------------------------ */

/* One configuration with its inputs parsed. */
struct fconf {
    const struct form_config *c;
    json_t *inputs;
};

/* The configurations of application app_id on system_id (0: all). Returns
 * the count (capped at FORMS_MAX_CONFIGS) or -1. */
int forms_configs(struct fctx *c, long long app_id, long long system_id,
                  struct fconf **out, struct err *err);
/* A list of names (core/form_data.h; kept until the request ends). */
json_t *forms_list(struct fctx *c, enum form_list which, const char *app, const char *sys,
                   struct err *err);

/* One value a variable takes, with the number of runs. */
struct fval {
    double v;
    long long runs;
};

/* Does configuration f match the executable and system (NULL: any)? */
int fconf_match(const struct fconf *f, const char *exe, const char *sys);
/* The value of variable var (nprocs or an input) in f; 0 when absent. */
int fconf_var(const struct fconf *f, const char *var, double *out);
/* The variables of the matching configurations: "nprocs", then the inputs
 * in name order. Returns the count. */
size_t forms_vars(const struct fconf *cf, int n, const char *exe, const char *sys,
                  const char **out, size_t max);
/* Distinct values of var over the matching configurations, ascending, with
 * run counts. Returns the count (at most max; *more set when there were more). */
size_t forms_values(const struct fconf *cf, int n, const char *exe, const char *sys,
                    const char *var, struct fval *out, size_t max, int *more);
/* The x a form offers first among vars (vars[0] = "nprocs", forms_vars):
 * nprocs, or, where the configurations were measured at fewer than 3
 * process counts, the variable measured at the most values (a problem-size
 * series of one process count). */
const char *forms_default_x(struct fctx *c, const struct fconf *cf, int n,
                            const char *exe, const char *sys, const char *const *vars,
                            size_t nvars);
/* The labels of vars (forms_vars) in an axis select: what each is and at how
 * many values the matching configurations measured it ("nprocs (processors,
 * 1 value)", "N (input, 5 values)"). NULL when out of memory. */
const char **forms_var_labels(struct fctx *c, const struct fconf *cf, int n,
                              const char *exe, const char *sys, const char *const *vars,
                              size_t nvars);
/* An axis needs the matching runs at two values of var at least: one
 * measured at a single value is an ERR_INVALID at field, at the step that
 * chooses it rather than when the model is computed. 0 or -1. */
int forms_axis_varies(struct fctx *c, const struct fconf *cf, int n, const char *exe,
                      const char *sys, const char *var, const char *field,
                      struct err *err);
/* The value with the most runs (ties: the smallest); NAN when none. */
double forms_common(const struct fval *v, size_t n);
/* The names of the metrics ("metrics") or kernels ("kernels", in the order
 * the runs record them) of the latest run of each matching configuration:
 * a JSON array of strings, or NULL with err. */
json_t *forms_names(struct fctx *c, const struct fconf *cf, int n, const char *exe,
                    const char *sys, const char *what, struct err *err);
/* Keeps v (taken) until the request ends; returns v. */
json_t *forms_keep(struct fctx *c, json_t *v);

/* The graph types of curve fitting: values and labels. */
extern const char *const forms_graphs[];
extern const char *const forms_graph_labels[];
#define FORMS_NGRAPHS 14
int forms_graph_ok(const char *g);

/* Does text mention word as a whole word? */
int forms_mentions(const char *text, const char *word);

/* ---- the "x range, fixed values, prediction" step (fit and couple) --------------------
 * *
 *
 * Fields xmin, xmax (the range of x), fix.V for every variable V other than
 * x ("" = not fixed; absent = the value with the most runs), predict,
 * aggregate. vars/nvars are the variables of the selected configurations. */

struct xstep {
    const struct fconf *cf;
    int ncf;
    const char *exe, *sys; /* the configurations' filter */
    const char *const *vars;
    size_t nvars;
    const char *x;
    const char *x2; /* NULL, or a second axis: the predictions are pairs x, x2 */
    /* the fit's selection rules (its "fixed" takes null; a variable at one
     * value for each x is no mix): a variable some runs lack may be fixed to
     * "none", the runs without it; one that varies with x is by default not
     * fixed. Kernel coupling has neither. */
    int fit;
};

int forms_xstep_check(struct fctx *c, const struct xstep *s, int strict, struct err *err);
void forms_xstep_render(struct fctx *c, const struct xstep *s);
void forms_xstep_summary(struct fctx *c, const struct xstep *s);
/* Adds "fixed", "range", "predict" and "aggregate" to req. */
int forms_xstep_request(struct fctx *c, const struct xstep *s, json_t *req,
                        struct err *err);
/* The form field of this step an answer's error names (range -> xmin,
 * predict[i] -> predict, fixed -> fix.V of a variable the message names, else
 * "fixed", the group), or NULL. */
const char *forms_xstep_field(struct fctx *c, const struct xstep *s, const struct err *e);

/* ---- result pieces ----------------------------------------------------------------- */

/* A plot rendered by fn(answer) inline, or a muted note when it cannot be
 * drawn. */
void forms_plot(struct fctx *c, int (*fn)(json_t *, struct buf *, struct err *),
                json_t *answer, const char *caption);
/* After "Fitted to N runs": "; N changes with the x axis (one value at each
 * point: a weak-scaling series)" for the names of an answer's
 * "varies_with_x" array; nothing when it is empty. */
void forms_with_x(struct fctx *c, json_t *names);

/* ---- the pages (the adapter opens nothing: these begin c->p) ------------------------
 */

/* Checks the state's names and sizes. Returns 0 or -1 with an
 * ERR_BAD_REQUEST/ERR_TOO_LARGE. */
int forms_state_ok(const struct form *f, struct err *err);
/* The step the request asks for: 1..nsteps or FORM_RESULT ("step", "next",
 * "format=json"); *as_json set for format=json. */
int forms_target(struct fctx *c, int *as_json);
/* Records e as the error shown and returns the step it belongs to (at most
 * upto). */
int forms_fail(struct fctx *c, const struct err *e, int upto);
/* Writes step k's page into c->p (begun here; the caller finishes it). */
void forms_step_page(struct fctx *c, int k);
/* Writes the result page into c->p; save_err (may be NULL) is the Save
 * form's error, csrf the token its form carries. */
void forms_result_page(struct fctx *c, json_t *request, json_t *answer,
                       const struct err *save_err, const char *csrf);
/* The /model page: the three methods. */
void view_model_index(struct page *p);

#endif
