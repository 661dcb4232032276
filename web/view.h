/* view: the pages of the web dashboard (SPEC §7, docs/web.md), each rendered
 * into a struct page (web/page.h) from data handed to it. A view knows no
 * HTTP and no database: the adapters of server/ (server/dash*.c) decode the
 * request, gather the data (core/browse.h) and call the view between
 * page_begin and page_finish, so every view can be rendered from hand-built
 * data (tests/unit/web/test_views.c).
 *
 * JSON arguments are borrowed (the shapes are those of db/summary.h and
 * db/catalog.h, named at each view); strings are borrowed; temporary
 * strings go to p->arena, which must be set.
 */
#ifndef PROPHECY_VIEW_H
#define PROPHECY_VIEW_H

#include <jansson.h>

#include "formats/form.h"
#include "formats/limits.h"
#include "formats/record.h"
#include "web/page.h"

/* ---- the overview and the lists (view_overview.c) ----------------------- */

struct view_overview {
    json_t *counts;  /* {applications, systems, runs, templates, models,
                        demo_applications} */
    json_t *apps;    /* [{name, description, demo, executables, systems, runs}] */
    json_t *systems; /* [{name, processor, cores, network, demo, applications,
                        runs, benchmarks, parameters}] */
    json_t *recent;  /* [{id, application, executable, system, nprocs, runtime,
                        created_at}], newest first */
};
void view_overview(struct page *p, const struct view_overview *d);
void view_apps(struct page *p, json_t *apps);
void view_systems(struct page *p, json_t *systems);

/* ---- one run (view_run.c) ----------------------------------------------- */

struct view_run {
    long long id;
    const struct run_record *run;
    const char *created_at;
    int stored;    /* show "The run was stored" (after an upload) */
    int has_trace; /* link the trace page (/runs/{id}/trace) */
};
void view_run(struct page *p, const struct view_run *d);

/* ---- one system (view_system.c) ---------------------------------------- */

struct view_system {
    const char *name;
    json_t *system;     /* db_system_get: {name, description, processor, cores,
                           network, demo, runs, metadata, parameters, benchmarks} */
    json_t *apps;       /* [{name, runs, min_nprocs, max_nprocs}] */
    json_t *benchmarks; /* db_benchmarks_list: the measurements */
};
void view_system(struct page *p, const struct view_system *d);

/* ---- saved models (view_models.c) ----------------------------------------- */

/* The list: db_models_list, [{id, method, application, formula, created_at}]
 * (1000 at most). */
void view_models(struct page *p, json_t *list);

struct view_model {
    long long id;
    json_t *model;             /* db_model_get: {method, application, created_at,
                                  formula, request, result} */
    const char *plot_url;      /* the model's plot (drawn inline and linked), or NULL */
    const char *plot_error;    /* why there is no plot (shown), or NULL */
    int predictable;           /* the method predicts: show the form */
    const char *const *vars;   /* the form's fields, nvars of them */
    const char *const *values; /* their submitted values (NULL: none) */
    size_t nvars;
    int asked;               /* every variable was given */
    json_t *prediction;      /* {y, lo?, hi?}, or NULL */
    const struct err *error; /* the prediction's error (at a field), or NULL */
    json_t *ledger;          /* watch_ledger's answer, or NULL: no section */
};
void view_model(struct page *p, const struct view_model *d);

/* ---- one application (view_app*.c) ---------------------------------------- */

#define VIEW_APP_PER_PAGE 50      /* runs per page of the runs table */
#define VIEW_APP_MAX_CONFIGS 2000 /* configurations the plots use */
#define VIEW_APP_MAX_BARS 24      /* configurations in the kernel breakdown */

/* The ?sort= names of the runs table, by column (0 = run id). */
extern const char *const view_app_sorts[3];
/* The ?axes= names of the plots' scales: "" (0, automatic: log where the data
 * spans decades), "linear" (1), "log" (2). */
extern const char *const view_app_axes[3];

/* One configuration's summary (db/summary.h struct db_config). */
struct view_config {
    long long exe_id, system_id, nprocs;
    const char *executable, *system;
    const char *inputs_json; /* canonical JSON object of the inputs */
    long long runs, last_run_id;
    double sum_runtime, min_runtime, max_runtime; /* of its timed runs */
    long long timed; /* runs with a runtime (SPEC §16); 0: none to plot */
};

/* One row of the runs table (db/summary.h struct db_page_row). */
struct view_run_row {
    long long id;
    const char *executable, *system;
    long long nprocs;
    double runtime;
    const char *created_at;
    long long nkernels;
    const struct rec_kv *inputs;
    size_t ninputs;
    const char *commit, *branch; /* provenance, or NULL */
};

struct view_app {
    /* the view state, from the query */
    const char *name;
    const char *exe, *sys;       /* filters by name, or NULL */
    const char *commit, *branch; /* provenance filters (runs table), or NULL */
    long long exe_id, sys_id;
    int sort, desc; /* sort: index of view_app_sorts */
    int axes;       /* index of view_app_axes */
    long long page, pages, total;
    long long after, before; /* the cursor the page was read from (0: none) */
    int many_exe, many_sys;  /* series labels need to name them */
    /* the data */
    json_t *app; /* db_summary_app: {name, description, demo, runs, executables,
                    systems, templates} */
    const struct view_config *configs;
    int nconfigs;  /* at most VIEW_APP_MAX_CONFIGS */
    int truncated; /* the application has more configurations */
    const struct view_run_row *rows;
    int nrows;
    int has_kernels; /* link the kernel-coupling form */
    json_t *kernels; /* [{run_id, name, time}] of view_app_kernel_runs' runs */
    int history;     /* link each configuration to its history page (/history) */
    /* "Scaling at …" (view_scaling.c): core/scaling.h's answer for the
     * page's filters and the picker's x and target, or NULL with the reason
     * in scaling_error (NULL too: no section) */
    json_t *scaling;
    const struct err *scaling_error;
    const char *scaling_x, *scaling_target; /* the picker's values as asked, or NULL */
    /* the values the picker fixed, as asked: {"nprocs" or an input's name:
     * "value"}, or NULL */
    json_t *scaling_fixed;
};
void view_app(struct page *p, const struct view_app *v);
/* The "Scaling at …" section of the application page (view_scaling.c; SPEC
 * §18): the bottleneck, the kernels that scale worse than the whole, the
 * table of laws and shares, and the picker of x and target. */
void view_scaling_at(struct page *p, const struct view_app *v);
/* The x the section's picker offers: nprocs, then the inputs of the
 * configurations in order of first appearance (at most 32), appended to the
 * JSON array vars; returns how many. */
size_t view_scaling_x_choices(const struct view_app *v, json_t *vars);
/* How far a prediction ({"extrapolation", "warning"?}, as the API answers
 * it) reaches beyond the data and its warning, as the modeling pages show
 * them: a line "Extrapolated N doublings beyond the measured range" (when
 * N > 0) and the warning in a notice. id (NULL: none) prefixes the elements'
 * ids ("ID-extrapolation", "ID-warning"). */
void view_reach(struct page *p, json_t *prediction, const char *id);
/* A kernel coupling's answer as tables (web/view_couple.c): its predictions
 * (at most 200; with their reach and warning), the coupling values of the
 * configuration it uses and each kernel's model and coefficient. */
void view_couple_tables(struct page *p, json_t *answer);
/* A signed error in percent ("+1.2 %"), "–" when not a number. */
void view_signed_pct(struct page *p, double v);
/* Appends the runs table as CSV (view_app_csv.c): the header
 * run,executable,system,nprocs, one column per input name the rows have
 * (sorted), runtime,kernels,stored,commit,branch, then one line per row in the given
 * order, through formats/export.h's writer (RFC 4180 quoting, CRLF, numbers
 * that read back exactly, an absent runtime empty; a text a spreadsheet
 * would run as a formula gets a leading '). Temporary memory from a
 * (an arena). Returns 0, or -1 when a is out of memory (out's own overflow
 * shows as buf_failed). */
int view_app_csv(struct buf *out, arena *a, const struct view_run_row *rows, size_t n);
/* The runs whose kernel records the breakdown of these configurations may
 * show (at most 2 * VIEW_APP_MAX_BARS, into ids). Returns their number. */
size_t view_app_kernel_runs(arena *a, const struct view_config *c, int nc,
                            long long *ids);

/* ---- history, alerts, compare (view_history.c; SPEC §11) ---------------------- */

/* The alert states, in order: open, acknowledged, false_positive, resolved. */
extern const char *const view_alert_states[5];

/* The alerts page (/alerts). alerts: [{id, state, run (id, or {id, commit}),
 * commit, application, executable, system, nprocs, inputs (or these in
 * "configuration"), y, value, expected, low, high, message, created_at}];
 * state: the filter shown as current (NULL: all); error: a refused triage,
 * shown on top (NULL: none). With p->csrf set each alert gets a triage form
 * (POST /alerts/{id}: csrf, state, token). */
struct view_alerts {
    json_t *alerts;
    const char *state;
    const struct err *error;
    json_t *groups; /* GET /api/v1/alert-groups' answer, shown first (NULL: none) */
};
void view_alerts(struct page *p, const struct view_alerts *d);
/* A configuration {application, executable, system, nprocs, inputs} (as an
 * alert, a watch or GET /api/v1/series name it) as escaped text: "app/exe on
 * sys, 8 procs, N=1000"; app names the application when c does not (a
 * compare answer names it once, on top). */
void view_config_text(struct page *p, const json_t *c, const char *app);

struct chart_hist_point;
/* A configuration's history page (/history?...): config {application,
 * executable, system, nprocs, inputs}; y as in GET /api/v1/series ("runtime",
 * "metric:NAME", "kernel:NAME"); ylabel the axis title (NULL: y); the series
 * decoded into chart points in time order (web/chart_history.h) with the
 * indices of its change points; model the watching model (0: none); alerts
 * of the configuration in the shape of view_alerts. */
#define VIEW_SERIES_ROWS 1000          /* newest runs in the history page's table */
#define VIEW_SERIES_SVG_MAX (6u << 20) /* bytes of the history page's drawings */
struct view_series {
    json_t *config;
    const char *y, *ylabel;
    const struct chart_hist_point *points;
    size_t n;
    const size_t *changes;       /* indices of the change points' first runs */
    const double *change_before; /* their means before and after (NULL: the */
    const double *change_after;  /* values of the runs either side) */
    size_t nchanges;
    long long model;
    json_t *alerts;
    /* the watches ([{id, application, system, executable, y, detector}],
     * GET /api/v1/watches), the page lists its application's with a delete
     * link each and, with p->csrf set, a form to add one (POST /watches:
     * csrf, token unless p->user, application, system, executable, y, test,
     * threshold, window, next); NULL: no section */
    json_t *watches;
};
void view_series(struct page *p, const struct view_series *d);
/* The watches section of a history page (view_watch.c). */
void view_series_watches(struct page *p, const struct view_series *d);

/* A confirmation before deleting (view_watch.c): what (HTML-escaped here)
 * names the thing and its consequences; action the POST path; cancel the
 * page to go back to. The form carries p->csrf and, unless p->user, a
 * token field. */
struct view_confirm {
    const char *title, *what, *action, *cancel;
};
void view_confirm(struct page *p, const struct view_confirm *d);
/* Decodes the answer of GET /api/v1/series ({"points": [{run, at, commit,
 * value, judgements: [{watch, model, expected, lo, hi, out, alert}]}]}) into
 * chart points (arena a): a point is marked when a judgement raised an alert,
 * and its band is a model judgement's interval (else the first judgement's).
 * OUT: *out, *model (the watching model, 0 none). Returns the number of
 * points, or -1 with err (out of memory; ERR_BAD_ANSWER when a point's time is not
 * ISO 8601). */
long view_series_points(arena *a, json_t *series, struct chart_hist_point **out,
                        long long *model, struct err *err);

/* The compare page (/compare?a=SIDE&b=SIDE...): sides[0..nsides) the side
 * specs as asked (a first); compare the answer of GET /api/v1/compare:
 * {"rows": [{configuration (or its fields in the row), kernel, metric,
 * sides: [{mean, n, spread[, ratio, significant]}], [ratio, significant]}]}. */
struct view_compare {
    json_t *compare;
    const char *const *sides;
    size_t nsides;
};
void view_compare(struct page *p, const struct view_compare *d);
/* The compare page without both sides (view_compare.c): apps the
 * applications ([{name, ...}], db_summary_apps); application the one
 * chosen (NULL: none yet) and refs its branches and commits (core/history.h
 * history_refs; NULL when none is chosen); a, b the sides already asked
 * (kept selected; NULL: none). */
struct view_compare_pick {
    json_t *apps;
    const char *application;
    json_t *refs;
    const char *a, *b;
};
void view_compare_pick(struct page *p, const struct view_compare_pick *d);

/* ---- sign-in (view_login.c) ------------------------------------------------ */

/* The sign-in page: with p->user set, who is signed in and a Sign out form;
 * else the token form (POST /login: csrf, token, next). next: the page to
 * return to (a path), or NULL; error: a refused token, shown at the field. */
struct view_login {
    const char *next;
    const struct err *error;
};
void view_login(struct page *p, const struct view_login *d);

/* ---- upload (view_upload.c) ------------------------------------------------- */

/* One choice of a select: its value and a label. */
struct view_choice {
    const char *value, *label;
};

struct view_upload {
    int which;               /* the form submitted: 0 none, 1 one run, 2 CSV, 3 import */
    const struct form *form; /* its values, kept in the fields; or NULL */
    const struct err *error; /* shown next to the field it names, or on top */
    const char *client_id;   /* the run form's fresh "id" (a resend stores once) */
    const struct view_choice *formats; /* the import form's formats (after "auto") */
    size_t nformats;
};
/* The upload page; its forms carry p->csrf. */
void view_upload(struct page *p, const struct view_upload *d);
/* After a CSV upload: the n runs with their ids and whether each was
 * already stored, and how many alerts the watches raised on them. */
void view_upload_done(struct page *p, const struct run_record *runs, const long long *ids,
                      const int *existed, size_t n, size_t nalerts);
/* After an import: what was read and stored. */
struct view_import_done {
    const char *format;
    size_t runs, created;
    const long long *ids; /* runs of them */
    const char *system;   /* of the benchmarks, or NULL */
    size_t benchmarks, benchmarks_created;
    const char *notes[LIMIT_IMPORT_NOTES]; /* what the file held that was left out */
    size_t nnotes;
    size_t nalerts; /* the alerts the watches raised on the runs */
};
void view_import_done(struct page *p, const struct view_import_done *d);

#endif
