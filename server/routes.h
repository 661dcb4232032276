/* routes: the declarative route table of prophecyd. Reading routes.c tells
 * the whole HTTP surface: method, path pattern, handler, flags. */
#ifndef PROPHECY_ROUTES_H
#define PROPHECY_ROUTES_H

#include "server/http.h"

/* Finds the route for r->method and r->path (HEAD is matched as GET) and
 * fills r->params with the decoded captures. Returns NULL when none matches,
 * with *status 404 (no such path), 405 (the path exists with another method)
 * or 400 (a captured segment is not valid percent-encoding). */
const struct route *routes_match(struct req *r, int *status);

/* The methods the path answers, for an Allow header ("GET, HEAD, POST"). */
const char *routes_allowed(const char *path);

/* Returns 1 when the route reads the query parameter name: a name of its
 * query list, a name under a prefix of it ("v.*"), or anything for "*"
 * (routes whose parameter names are data: model variables). Else 0. */
int routes_query_allowed(const struct route *rt, const char *name);

/* Returns 1 when some route answers method on path (a page shows a link or
 * an image only where the server serves it), else 0. */
int routes_serves(const char *method, const char *path);

/* Handlers, by module. */
int api_health(struct req *r);
int api_runs_post(struct req *r);
int api_runs_list(struct req *r);
int api_import_post(struct req *r); /* api_import.c */
int api_run_get(struct req *r);
int api_export(struct req *r);
int api_apps_list(struct req *r);
int api_app_get(struct req *r);
int api_app_put(struct req *r);
int api_systems_list(struct req *r);
int api_system_get(struct req *r);
int api_system_put(struct req *r);
int api_benchmarks_post(struct req *r);
int api_benchmarks_list(struct req *r);
int api_params_post(struct req *r);
int api_params_list(struct req *r);
int api_param_delete(struct req *r);
int api_param_fit(struct req *r);
int api_templates_list(struct req *r);
int api_template_get(struct req *r);
int api_templates_post(struct req *r);
int api_couplings_list(struct req *r);
int api_couplings_post(struct req *r);
int api_model_post(struct req *r); /* POST /api/v1/{fit,parameterize,couple} */
int api_suggest(struct req *r);    /* POST /api/v1/suggest */
int api_models_list(struct req *r);
int api_model_get(struct req *r);
int api_model_predict(struct req *r);
int api_predict(struct req *r);
int api_plot(struct req *r);
/* Traces (api_trace.c). */
int api_trace_post(struct req *r);
int api_trace_get(struct req *r);
int api_traces_post(struct req *r); /* a run and its trace in one go */
int api_trace_occupancy_fit(struct req *r);
/* Whole-application scaling (api_scaling.c, SPEC §18). */
int api_app_scaling(struct req *r);
/* /plots/run-ID-NAME.svg: api_plot hands "ID-NAME" over. */
int api_trace_plot(struct req *r, const char *name);
int page_trace(struct req *r);
/* GET /runs/{id}/trace.json: the trace as Trace Event JSON (api_trace_json.c). */
int page_trace_json(struct req *r);
/* History, comparison and regression detection (server/api_history.c). */
int api_series(struct req *r);
int api_compare(struct req *r);
int api_changes(struct req *r);
int api_watches_post(struct req *r);
int api_watches_list(struct req *r);
int api_watch_delete(struct req *r);
int api_model_ledger(struct req *r);
int api_alerts_list(struct req *r);
int api_alert_patch(struct req *r);
int api_alert_groups(struct req *r);
int api_alert_group_patch(struct req *r);
int api_run_delete(struct req *r);
int api_app_delete(struct req *r);
int api_model_delete(struct req *r);
int api_template_delete(struct req *r);
int api_executable_put(struct req *r);
/* The alerts an upload raised, as the API shows them (new reference). */
json_t *api_upload_alerts(struct req *r, const long long *ids, size_t n);

/* The web dashboard. */
/* History pages (dash_history.c): alerts with triage, a configuration's
 * history, a comparison. */
int page_alerts(struct req *r);
int page_alert_triage(struct req *r);
int page_alert_group_triage(struct req *r);
int page_history(struct req *r);
int page_compare(struct req *r);
/* Deletes with a confirmation and adding a watch (dash_delete.c). */
int page_delete_confirm(struct req *r);
int page_delete(struct req *r);
int page_watch_add(struct req *r);
/* Signing in and out (dash_login.c). */
int page_login(struct req *r);
int page_login_post(struct req *r);
int page_logout(struct req *r);
/* GET /compare without both sides: the picker (dash_compare.c); q the
 * request's query object (borrowed). */
int page_compare_pick(struct req *r, json_t *q);
int page_overview(struct req *r);
int page_apps(struct req *r);
int page_app(struct req *r);
int page_run(struct req *r);
int page_systems(struct req *r);
int page_system(struct req *r);
int page_models(struct req *r);
int page_model(struct req *r);
int page_model_index(struct req *r); /* the modeling forms (dash_forms.c) */
int page_form_fit(struct req *r);
int page_form_fit_save(struct req *r);
int page_form_param(struct req *r);
int page_form_param_save(struct req *r);
int page_form_couple(struct req *r);
int page_form_couple_save(struct req *r);
int page_upload(struct req *r);
int page_upload_run(struct req *r);
int page_upload_csv(struct req *r);
int page_upload_import(struct req *r);
int dash_static(struct req *r);

#endif
