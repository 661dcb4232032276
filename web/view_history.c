/* view_history: the pages of run history (SPEC §11); see view.h.
 *
 * The alerts page (/alerts, a state filter and a triage form per alert), a
 * configuration's history page (/history?application=&executable=&system=
 * &nprocs=&input.NAME=&y=, the chart of web/chart_history.c with the model's
 * band, alerts and change points, and the runs of the series) and the
 * compare page (/compare?a=SIDE&b=SIDE..., a table per configuration, kernel
 * and metric, and the ratio bar chart). Built from data handed to them: the
 * alerts and the compare answer in the shapes of the JSON API (borrowed),
 * the series already decoded into chart points by the adapter.
 */
#include "web/chart_history.h"
#include "common/units.h"
#include "web/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A judgement's band "[lo, hi]" in the unit of y (a time's from 0 at the
 * least: units_floor). */
static void band_text(struct page *p, double lo, double hi, const char *y)
{
    const char *u = units_of_y(y);
    page_puts(p, "<span class=\"metric\">[");
    page_qty(p, units_floor(u, lo), u);
    page_puts(p, ",</span> <span class=\"metric\">");
    page_qty(p, hi, u);
    page_puts(p, "]</span>");
}

/* The four a triage sets, then "suspected", which only a watch sets. */
const char *const view_alert_states[5] = {"open", "acknowledged", "false_positive",
                                          "resolved", "suspected"};
static const char *const state_shown[5] = {"open", "acknowledged", "false positive",
                                           "resolved", "suspected"};

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static int has_num(const json_t *o, const char *k)
{
    return json_is_number(json_object_get(o, k));
}

static double num(const json_t *o, const char *k)
{
    return json_number_value(json_object_get(o, k));
}

/* An object's configuration: its "configuration" member, else itself. */
static const json_t *config_of(const json_t *o)
{
    const json_t *c = json_object_get(o, "configuration");
    return json_is_object(c) ? c : o;
}

/* An alert's commit linked to the compare page with it as side b (the
 * picker then offers side a), or the commit alone without an application. */
static void compare_link(struct page *p, const char *app, const char *commit)
{
    if (commit == NULL)
        return;
    if (app != NULL) {
        page_puts(p, "<a class=\"compare\" title=\"Compare this commit\" "
                     "href=\"/compare?application=");
        page_url(p, app);
        page_puts(p, "&amp;b=commit:");
        page_url(p, commit);
        page_puts(p, "\">");
    }
    page_commit(p, commit);
    if (app != NULL)
        page_puts(p, "</a>");
}

/* See view.h. */
void view_config_text(struct page *p, const json_t *c, const char *app)
{
    const char *k;
    json_t *v;
    page_text(p, str(c, "application") ? str(c, "application") : app ? app : "?");
    if (str(c, "executable")) {
        page_puts(p, "/");
        page_text(p, str(c, "executable"));
    }
    if (str(c, "system")) {
        page_puts(p, " on ");
        page_text(p, str(c, "system"));
    }
    if (json_is_integer(json_object_get(c, "nprocs"))) {
        long long n = (long long)json_integer_value(json_object_get(c, "nprocs"));
        page_printf(p, ", %lld proc%s", n, n == 1 ? "" : "s");
    }
    json_object_foreach(json_object_get(c, "inputs"), k, v)
    {
        page_puts(p, ", ");
        page_text(p, k);
        page_puts(p, "=");
        page_num(p, json_number_value(v));
    }
}

/* The history page's URL of a configuration and y ('&' as &amp;). */
static void config_query(struct page *p, const json_t *c, const char *app, const char *y);

static void history_href(struct page *p, const json_t *c, const char *app, const char *y)
{
    page_puts(p, "/history");
    config_query(p, c, app, y);
}

/* GET /api/v1/series of the configuration c, measure y. */
static void series_href(struct page *p, const json_t *c, const char *y)
{
    page_puts(p, "/api/v1/series");
    config_query(p, c, NULL, y && *y ? y : "runtime");
}

/* ?application=...&... of configuration c (application app when c names none). */
static void config_query(struct page *p, const json_t *c, const char *app, const char *y)
{
    const char *k;
    json_t *v;
    char n[64];
    page_puts(p, "?application=");
    page_url(p, str(c, "application") ? str(c, "application") : app ? app : "");
    if (str(c, "executable")) {
        page_puts(p, "&amp;executable=");
        page_url(p, str(c, "executable"));
    }
    if (str(c, "system")) {
        page_puts(p, "&amp;system=");
        page_url(p, str(c, "system"));
    }
    if (json_is_integer(json_object_get(c, "nprocs")))
        page_printf(p, "&amp;nprocs=%lld",
                    (long long)json_integer_value(json_object_get(c, "nprocs")));
    json_object_foreach(json_object_get(c, "inputs"), k, v)
    {
        page_puts(p, "&amp;input.");
        page_url(p, k);
        snprintf(n, sizeof n, "%.17g", json_number_value(v));
        page_puts(p, "=");
        page_url(p, n);
    }
    if (y && *y) {
        page_puts(p, "&amp;y=");
        page_url(p, y);
    }
}

static int state_index(const char *s)
{
    int i;
    for (i = 0; s && i < 5; i++)
        if (strcmp(s, view_alert_states[i]) == 0)
            return i;
    return -1;
}

/* ---- alerts ------------------------------------------------------------------- */

/* A scaling watch's alert (SPEC §17): value and expected are the commit's
 * and the baseline's predictions at the target; the note says so, with the
 * ratio and both laws. */
static void scaling_note(struct page *p, const json_t *al)
{
    const char *x = str(al, "x") ? str(al, "x") : "x";
    page_puts(p, "<div class=\"scaling-law\"><strong>Scaling law changed</strong>: at ");
    page_text(p, x);
    page_puts(p, " = ");
    page_num(p, num(al, "target"));
    if (has_num(al, "ratio_at_target")) {
        page_puts(p, " this commit costs ");
        page_printf(p, "%.3g", num(al, "ratio_at_target"));
        page_puts(p, "× the baseline");
    }
    page_puts(p, "<br>this commit: ");
    page_law(p, str(al, "formula"));
    page_puts(p, "<br>baseline: ");
    page_law(p, str(al, "baseline_formula"));
    page_puts(p, "</div>");
}

/* The table of alerts; `triage` adds the form that changes an alert's state. */
static void alerts_table(struct page *p, json_t *alerts, int triage, int link_history)
{
    size_t i;
    json_t *al;

    /* The alerts page names each alert's configuration; a history page is of
     * one configuration, whose alerts differ by the watch that raised them
     * (two watches judge the same run: one row each) */
    page_table_open(p, "Alerts");
    page_printf(p,
                "<thead><tr><th class=\"num\">Alert</th><th>State</th><th>%s</th>"
                "<th>Measure</th><th class=\"num\">Value</th>"
                "<th>Expected</th><th>Run</th><th>Commit</th><th>Raised</th>",
                link_history ? "Configuration" : "Watch");
    if (triage)
        page_puts(p, "<th>Triage</th>");
    page_puts(p, "</tr></thead><tbody>\n");
    json_array_foreach(alerts, i, al)
    {
        const json_t *c = config_of(al), *run = json_object_get(al, "run");
        long long id = json_integer_value(json_object_get(al, "id"));
        int st = state_index(str(al, "state"));
        const char *commit = str(al, "commit") ? str(al, "commit") : str(run, "commit");
        page_printf(
            p, "<tr id=\"alert-%lld\" class=\"alert-%s\"><td class=\"num\">%lld</td><td>",
            id, st >= 0 ? view_alert_states[st] : "unknown", id);
        page_text(p, st >= 0 ? state_shown[st] : str(al, "state"));
        page_puts(p, "</td><td>");
        if (link_history) {
            page_puts(p, "<a href=\"");
            history_href(p, c, NULL, str(al, "y"));
            page_puts(p, "\">");
            view_config_text(p, c, NULL);
            page_puts(p, "</a>");
        } else if (json_is_integer(json_object_get(al, "watch"))) {
            long long w = (long long)json_integer_value(json_object_get(al, "watch"));
            page_printf(p, "<a href=\"#watch-%lld\">watch %lld</a>", w, w);
        }
        page_puts(p, "</td><td>");
        page_text(p, str(al, "y") ? str(al, "y") : "runtime");
        page_puts(p, "</td><td class=\"num\">");
        if (has_num(al, "value"))
            page_qty(p, num(al, "value"), units_of_y(str(al, "y")));
        page_puts(p, "</td><td>");
        /* a line breaks between quantities, never inside one ("452.5 / ms]") */
        if (has_num(al, "expected")) {
            page_puts(p, "<span class=\"metric\">");
            page_qty(p, num(al, "expected"), units_of_y(str(al, "y")));
            page_puts(p, "</span>");
        }
        /* the band as the API names it (GET /api/v1/alerts: "lo", "hi") */
        if (has_num(al, "lo") && has_num(al, "hi")) {
            page_puts(p, " ");
            band_text(p, num(al, "lo"), num(al, "hi"), str(al, "y"));
        }
        if (str(al, "message")) {
            page_puts(p, "<br><span class=\"muted\">");
            page_text(p, str(al, "message"));
            page_puts(p, "</span>");
        }
        if (str(al, "kind") && strcmp(str(al, "kind"), "scaling") == 0)
            scaling_note(p, al);
        page_puts(p, "</td><td>");
        if (json_is_integer(run) || json_is_integer(json_object_get(run, "id"))) {
            long long rid =
                json_is_integer(run)
                    ? (long long)json_integer_value(run)
                    : (long long)json_integer_value(json_object_get(run, "id"));
            page_printf(p, "<a href=\"/runs/%lld\">%lld</a>", rid, rid);
        } else if (json_is_string(run)) {
            page_text(p, json_string_value(run));
        }
        page_puts(p, "</td><td>");
        compare_link(p, str(c, "application"), commit);
        page_puts(p, "</td><td class=\"when\">");
        page_when(p, str(al, "created_at"));
        page_puts(p, "</td>");
        if (triage) {
            int k;
            page_printf(
                p,
                "<td><form class=\"triage\" method=\"post\" action=\"/alerts/%lld\">"
                "<input type=\"hidden\" name=\"csrf\" value=\"",
                id);
            page_attr(p, p->csrf);
            page_printf(p,
                        "\"><label class=\"vh\" for=\"state-%lld\">New state</label>"
                        "<select id=\"state-%lld\" name=\"state\">",
                        id, id);
            for (k = 0; k < 4; k++)
                page_printf(p, "<option value=\"%s\"%s>%s</option>", view_alert_states[k],
                            k == st ? " selected" : "", state_shown[k]);
            page_puts(p, "</select>");
            if (p->user == NULL) /* signed in: the session's token */
                page_printf(p,
                            "<label class=\"vh\" for=\"token-%lld\">Write token</label>"
                            "<input type=\"password\" id=\"token-%lld\" name=\"token\" "
                            "autocomplete=\"off\" required placeholder=\"token\">",
                            id, id);
            page_puts(p, "<button type=\"submit\">Set</button></form></td>");
        }
        page_puts(p, "</tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

/* The alert groups (SPEC §17): the alerts one commit raised, worst change
 * first shown as percent, each triaged with one form (POST /alert-groups/{id}). */
static void groups_table(struct page *p, json_t *groups, int triage)
{
    json_t *g, *a;
    size_t i, k;

    page_puts(p, "<h2 id=\"groups\">By commit</h2>\n<p class=\"muted\">The alerts each "
                 "commit raised, triaged together.</p>\n");
    page_table_open(p, "Alert groups");
    page_puts(p, "<thead><tr><th>Commit</th><th class=\"num\">Alerts</th>"
                 "<th class=\"num\">Configurations</th><th class=\"num\">Worst change"
                 "</th>");
    if (triage)
        page_puts(p, "<th>Triage all</th>");
    page_puts(p, "</tr></thead><tbody>\n");
    json_array_foreach(groups, i, g)
    {
        long long id = json_integer_value(json_object_get(g, "id"));
        json_t *alerts = json_object_get(g, "alerts"),
               *w = json_object_get(g, "worst_ratio");
        page_printf(p, "<tr id=\"group-%lld\"><td>", id);
        if (str(g, "commit"))
            page_commit(p, str(g, "commit"));
        else
            page_puts(p, "<code>(no commit)</code>");
        page_printf(p, "</td><td class=\"num\">%zu: ", json_array_size(alerts));
        json_array_foreach(alerts, k, a)
        {
            long long al = json_integer_value(a);
            if (k == 8) {
                page_puts(p, " …");
                break;
            }
            page_printf(p, "%s<a href=\"#alert-%lld\">%lld</a>", k ? ", " : "", al, al);
        }
        page_printf(p, "</td><td class=\"num\">%lld</td><td class=\"num\">",
                    (long long)json_integer_value(json_object_get(g, "configurations")));
        if (json_is_number(w))
            page_printf(p, "%+.1f %%", (json_number_value(w) - 1) * 100);
        else
            page_puts(p, "–");
        page_puts(p, "</td>");
        if (triage) {
            page_printf(p,
                        "<td><form class=\"triage\" method=\"post\" "
                        "action=\"/alert-groups/%lld\"><input type=\"hidden\" "
                        "name=\"csrf\" value=\"",
                        id);
            page_attr(p, p->csrf);
            page_printf(p,
                        "\"><label class=\"vh\" for=\"gstate-%lld\">New state</label>"
                        "<select id=\"gstate-%lld\" name=\"state\">",
                        id, id);
            for (int s = 0; s < 4; s++)
                page_printf(p, "<option value=\"%s\">%s</option>", view_alert_states[s],
                            state_shown[s]);
            page_puts(p, "</select>");
            if (p->user == NULL) /* signed in: the session's token, as each alert's */
                page_printf(p,
                            "<label class=\"vh\" for=\"gtoken-%lld\">Write token</label>"
                            "<input type=\"password\" id=\"gtoken-%lld\" name=\"token\" "
                            "autocomplete=\"off\" required placeholder=\"token\">",
                            id, id);
            page_puts(p, "<button type=\"submit\">Set all</button></form></td>");
        }
        page_puts(p, "</tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

void view_alerts(struct page *p, const struct view_alerts *d)
{
    int i, cur = state_index(d->state);
    size_t n = json_array_size(d->alerts);

    page_puts(p,
              "<h1>Alerts</h1>\n<p class=\"lead\">Runs that a watch judged out of line: "
              "outside a saved model's 95 % prediction interval, or against the "
              "recent runs of their configuration. Triage each one; the CI report "
              "no longer counts false positives and resolved alerts.</p>\n");
    page_puts(p, "<p class=\"axes\" id=\"alert-states\">Show: ");
    page_printf(p, "<a href=\"/alerts\"%s>all</a>",
                cur < 0 ? " aria-current=\"true\"" : "");
    for (i = 0; i < 5; i++)
        page_printf(p, " · <a href=\"/alerts?state=%s\"%s>%s</a>", view_alert_states[i],
                    cur == i ? " aria-current=\"true\"" : "", state_shown[i]);
    page_puts(p, "</p>\n");
    if (d->error) {
        page_puts(p, "<div class=\"notice bad\" role=\"alert\" id=\"triage-error\">");
        page_text(p, d->error->message);
        page_puts(p, "</div>\n");
    }
    if (n == 0) {
        page_printf(p, "<p class=\"muted\" id=\"alerts-none\">No %s%salerts.</p>\n",
                    cur >= 0 ? state_shown[cur] : "", cur >= 0 ? " " : "");
        return;
    }
    if (json_array_size(json_object_get(d->groups, "groups")) > 0)
        groups_table(p, json_object_get(d->groups, "groups"), p->csrf != NULL);
    page_puts(p, "<h2 id=\"each-alert\">Each alert</h2>\n");
    page_printf(p, "<p class=\"muted\" id=\"alerts-summary\">%zu alert%s.</p>\n", n,
                n == 1 ? "" : "s");
    alerts_table(p, d->alerts, p->csrf != NULL, 1);
}

/* ---- a configuration's history ------------------------------------------------ */

void view_series(struct page *p, const struct view_series *d)
{
    struct chart_history h = {0};
    struct buf svg, narrow;
    struct err e = {0};
    char title[400], when[32];
    size_t i, k;

    page_puts(p, "<p class=\"crumbs\"><a href=\"/applications/");
    page_url(p, str(d->config, "application"));
    page_puts(p, "\">");
    page_text(p, str(d->config, "application"));
    page_puts(p, "</a> ›</p>\n<h1>History: ");
    view_config_text(p, d->config, NULL);
    page_puts(p, "</h1>\n<p class=\"compare-link\"><a id=\"history-compare\" "
                 "href=\"/compare?application=");
    page_url(p, str(d->config, "application"));
    page_puts(p, "\">Compare branches and commits</a></p>\n<p class=\"lead\">");
    page_text(p, d->y && *d->y ? d->y : "runtime");
    page_printf(p, " of %zu run%s in time order", d->n, d->n == 1 ? "" : "s");
    if (d->model > 0)
        page_printf(p,
                    "; watched by <a href=\"/models/%lld\">model %lld</a>, whose 95 %% "
                    "prediction interval is the band",
                    d->model, d->model);
    page_puts(p, ".</p>\n");
    if (d->n == 0) {
        page_puts(p, "<p class=\"muted\">No runs of this configuration yet.</p>\n");
        view_series_watches(p, d);
        return;
    }
    snprintf(title, sizeof title, "%.300s over time", d->y && *d->y ? d->y : "runtime");
    h.title = title;
    h.ylabel = d->ylabel ? d->ylabel : (d->y && *d->y ? d->y : "runtime");
    h.yunit = units_of_y(d->y && *d->y ? d->y : "runtime");
    h.points = d->points;
    h.n = d->n;
    h.changes = d->changes;
    h.nchanges = d->nchanges;
    buf_init(&svg, 16u << 20);
    buf_init(&narrow, 16u << 20);
    if (chart_history(&svg, &h, &e) == 0) {
        struct chart_history small = h;
        struct err e2 = {0};
        static const char cap[] = "Each point is a run (hover for its run, commit and "
                                  "time); red points raised an alert; dashed lines mark "
                                  "where the series shifted.";
        small.width = 400;
        small.height = 320;
        /* the page holds both drawings only while they fit its budget */
        if (chart_history(&narrow, &small, &e2) == 0 &&
            svg.len + narrow.len <= VIEW_SERIES_SVG_MAX)
            page_svg_pair(p, &svg, &narrow, cap);
        else if (svg.len <= VIEW_SERIES_SVG_MAX)
            page_svg(p, &svg, cap);
        else
            page_puts(p, "<p class=\"notice bad\">The chart is too large to draw; "
                         "the series is whole in GET /api/v1/series.</p>\n");
    } else {
        page_puts(p, "<p class=\"notice bad\">The chart could not be drawn: ");
        page_text(p, e.message);
        page_puts(p, "</p>\n");
    }
    buf_free(&svg);
    buf_free(&narrow);

    if (d->nchanges > 0) {
        page_puts(p, "<h2 id=\"changes\">Change points</h2>\n<ul class=\"changes\">\n");
        for (k = 0; k < d->nchanges; k++) {
            const struct chart_hist_point *pt = &d->points[d->changes[k]];
            chart_format_time(pt->t, when, sizeof when);
            page_puts(p, "<li>Shifted at ");
            if (pt->commit && *pt->commit) {
                page_puts(p, "commit <code>");
                page_text(p, pt->commit);
                page_puts(p, "</code>, ");
            }
            page_printf(p, "<a href=\"/runs/%lld\">run %lld</a>, %s", pt->run, pt->run,
                        when);
            if (d->changes[k] > 0) {
                const struct chart_hist_point *prev = &d->points[d->changes[k] - 1];
                if (prev->commit && *prev->commit) {
                    page_puts(p, "; culprit range <code class=\"range\">");
                    page_text(p, prev->commit);
                    page_puts(p, "..");
                    page_text(p, pt->commit ? pt->commit : "");
                    page_puts(p, "</code>");
                }
                page_puts(p, d->change_before ? " (mean from " : " (from ");
                page_qty(p, d->change_before ? d->change_before[k] : prev->y,
                         units_of_y(d->y));
                page_puts(p, " to ");
                page_qty(p, d->change_after ? d->change_after[k] : pt->y,
                         units_of_y(d->y));
                page_puts(p, ")");
            }
            page_puts(p, "</li>\n");
        }
        page_puts(p, "</ul>\n");
    }
    if (json_array_size(d->alerts) > 0) {
        page_puts(p, "<h2 id=\"alerts\">Alerts</h2>\n");
        alerts_table(p, d->alerts, 0, 0);
    }

    page_puts(p, "<h2 id=\"runs\">Runs</h2>\n");
    if (d->n > VIEW_SERIES_ROWS) {
        /* a page never grows past its budget with the series: the newest
         * rows, the whole series from the API */
        page_printf(p,
                    "<p class=\"muted\">The newest %d of %zu runs; every run is in "
                    "<a href=\"",
                    VIEW_SERIES_ROWS, d->n);
        series_href(p, d->config, d->y);
        page_puts(p, "\">the series as JSON</a>.</p>\n");
    }
    page_table_open(p, "Runs of the series");
    page_puts(p, "<thead><tr><th>Time (UTC)</th><th class=\"num\">Run</th><th>Commit</th>"
                 "<th class=\"num\">Value</th><th>Interval</th><th>Verdict</th></tr>"
                 "</thead><tbody>\n");
    for (i = d->n; i > 0 && d->n - i < VIEW_SERIES_ROWS; i--) { /* newest first */
        const struct chart_hist_point *pt = &d->points[i - 1];
        chart_format_time(pt->t, when, sizeof when);
        page_printf(p, "<tr%s><td>%s</td><td class=\"num\">",
                    pt->alert ? " class=\"alert\"" : "", when);
        if (pt->run)
            page_printf(p, "<a href=\"/runs/%lld\">%lld</a>", pt->run, pt->run);
        page_puts(p, "</td><td>");
        page_commit(p, pt->commit);
        page_puts(p, "</td><td class=\"num\">");
        page_qty(p, pt->y, units_of_y(d->y));
        page_puts(p, "</td><td>");
        if (pt->has_band)
            band_text(p, pt->lo, pt->hi, d->y);
        /* the watches' verdicts, not the value against the band: a change
         * point watch's band is its window's range, so every new low would
         * read "outside" where the watch judged the run inside */
        page_printf(p, "</td><td>%s</td></tr>\n",
                    pt->alert       ? "alert"
                    : pt->out       ? "outside"
                    : pt->judged    ? "inside"
                    : pt->not_ready ? "not ready"
                                    : "");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    view_series_watches(p, d);
}

/* ---- compare ------------------------------------------------------------------- */

/* Side i's value of row r: sides[i] = {mean, n, spread}. */
static void side_cell(struct page *p, const json_t *r, size_t i, const char *unit)
{
    const json_t *s = json_array_get(json_object_get(r, "sides"), i);
    const json_t *n = json_object_get(s, "n");
    if (!has_num(s, "mean") || (json_is_integer(n) && json_integer_value(n) == 0)) {
        page_puts(p, "<td class=\"num\">–</td>");
        return;
    }
    page_puts(p, "<td class=\"num\">");
    page_qty(p, num(s, "mean"), unit);
    if (has_num(s, "spread") && num(s, "spread") > 0) {
        page_puts(p, " ± ");
        page_qty(p, num(s, "spread"), unit);
    }
    if (json_is_integer(n))
        page_printf(p, " <span class=\"muted\">(n=%lld)</span>",
                    (long long)json_integer_value(n));
    page_puts(p, "</td>");
}

/* The ratio and significance of side i (>= 1) to side a: sides[i].ratio,
 * else ratio[i], else a number ratio (two sides), else from the means. */
static const json_t *side_field(const json_t *r, size_t i, const char *key)
{
    const json_t *s = json_array_get(json_object_get(r, "sides"), i), *v;
    v = json_object_get(s, key);
    if (v && !json_is_null(v))
        return v;
    v = json_object_get(r, key);
    if (json_is_array(v))
        return json_array_get(v, i);
    return i == 1 && v && !json_is_null(v) ? v : NULL;
}

static double side_ratio(const json_t *r, size_t i)
{
    const json_t *v = side_field(r, i, "ratio");
    const json_t *a = json_array_get(json_object_get(r, "sides"), 0),
                 *b = json_array_get(json_object_get(r, "sides"), i);
    if (json_is_number(v))
        return json_number_value(v);
    if (has_num(a, "mean") && has_num(b, "mean") && num(a, "mean") != 0)
        return num(b, "mean") / num(a, "mean");
    return NAN;
}

/* A side measured once: no test of a change is possible (SPEC §17). */
static int single_run(const json_t *r, size_t i)
{
    const json_t *n =
        json_object_get(json_array_get(json_object_get(r, "sides"), i), "n");
    return json_is_integer(n) && json_integer_value(n) == 1;
}

/* 1 significant, 0 not, -1 not tested (either side one run, or no answer):
 * "n.s." beside a change of a single run said a test was made. */
static int side_significant(const json_t *r, size_t i)
{
    const json_t *v = side_field(r, i, "significant");
    if (single_run(r, 0) || single_run(r, i))
        return -1;
    return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* A short plain-text label of a configuration for chart rows (the SVG
 * renderer escapes it): "exe on sys, P=8, N=1000". */
static void config_plain(struct buf *b, const json_t *c)
{
    const char *k;
    json_t *v;
    const char *sep = "";
    if (str(c, "executable")) {
        buf_puts(b, str(c, "executable"));
        sep = " ";
    }
    if (str(c, "system")) {
        buf_printf(b, "%son %s", sep, str(c, "system"));
        sep = ", ";
    }
    if (json_is_integer(json_object_get(c, "nprocs"))) {
        buf_printf(b, "%sP=%lld", sep,
                   (long long)json_integer_value(json_object_get(c, "nprocs")));
        sep = ", ";
    }
    json_object_foreach(json_object_get(c, "inputs"), k, v)
    {
        buf_printf(b, "%s%s=%.6g", sep, k, json_number_value(v));
        sep = ", ";
    }
}

/* A change from side a as a percentage ("+12.3 %", "-4.56 %", "0 %"). */
static void change(struct page *p, double ratio)
{
    double pc = 100 * (ratio - 1);
    if (fabs(pc) < 5e-4)
        page_puts(p, "0 %");
    else
        page_printf(p, "%+.3g %%", pc);
}

/* Which parts of the configurations tell the rows apart (the chart's row
 * labels show only those, so that rows differing only in their last input
 * do not share one label cut to its first 40 characters): bit 0 the
 * executable, 1 the system, 2 nprocs, 3 the inputs. All bits when nothing
 * differs. */
static int label_parts(const json_t *rows)
{
    const json_t *first = config_of(json_array_get(rows, 0)), *r;
    int keep = 0;
    size_t i;
    json_array_foreach(rows, i, r)
    {
        const json_t *c = config_of(r);
        const char *e0 = str(first, "executable"), *e1 = str(c, "executable");
        const char *s0 = str(first, "system"), *s1 = str(c, "system");
        if ((e0 == NULL) != (e1 == NULL) || (e0 && strcmp(e0, e1) != 0))
            keep |= 1;
        if ((s0 == NULL) != (s1 == NULL) || (s0 && strcmp(s0, s1) != 0))
            keep |= 2;
        if (!json_equal(json_object_get(first, "nprocs"), json_object_get(c, "nprocs")))
            keep |= 4;
        if (!json_equal(json_object_get(first, "inputs"), json_object_get(c, "inputs")))
            keep |= 8;
    }
    return keep ? keep : 15;
}

/* 1 when input k has the same value in every row's configuration. */
static int input_same(const json_t *rows, const char *k)
{
    const json_t *r,
        *v0 = json_object_get(
            json_object_get(config_of(json_array_get(rows, 0)), "inputs"), k);
    size_t i;
    json_array_foreach(rows, i, r)
    {
        if (!json_equal(v0, json_object_get(json_object_get(config_of(r), "inputs"), k)))
            return 0;
    }
    return 1;
}

/* config_plain with only the parts keep names (label_parts), and of the
 * inputs only those whose values differ among rows. */
static void config_label(struct buf *b, const json_t *c, int keep, const json_t *rows)
{
    const char *k;
    json_t *v;
    const char *sep = "";
    if (keep == 15) {
        config_plain(b, c);
        return;
    }
    if ((keep & 1) && str(c, "executable")) {
        buf_puts(b, str(c, "executable"));
        sep = " ";
    }
    if ((keep & 2) && str(c, "system")) {
        buf_printf(b, "%son %s", sep, str(c, "system"));
        sep = ", ";
    }
    if ((keep & 4) && json_is_integer(json_object_get(c, "nprocs"))) {
        buf_printf(b, "%sP=%lld", sep,
                   (long long)json_integer_value(json_object_get(c, "nprocs")));
        sep = ", ";
    }
    if (keep & 8)
        json_object_foreach(json_object_get(c, "inputs"), k, v)
        {
            if (input_same(rows, k))
                continue;
            buf_printf(b, "%s%s=%.6g", sep, k, json_number_value(v));
            sep = ", ";
        }
}

static const char *measure_of(arena *a, const json_t *r)
{
    const char *k = str(r, "kernel"),
               *m = str(r, "metric") ? str(r, "metric") : "runtime";
    const char *y = str(r, "y"); /* the API's form: runtime | kernel:K | metric:M */
    if (y && strncmp(y, "kernel:", 7) == 0)
        k = y + 7;
    else if (y && strncmp(y, "metric:", 7) == 0)
        m = y + 7;
    if (k)
        return strcmp(m, "runtime") == 0 ? arena_printf(a, "kernel %s", k)
                                         : arena_printf(a, "kernel %s %s", k, m);
    return m;
}

/* The unit of a row's measure (as measure_of reads it): a kernel's time and
 * the runtime in seconds, a metric by its name. */
static const char *measure_unit(const json_t *r)
{
    const char *k = str(r, "kernel"),
               *m = str(r, "metric") ? str(r, "metric") : "runtime";
    const char *y = str(r, "y");
    if (y && strncmp(y, "kernel:", 7) == 0)
        k = y + 7;
    else if (y && strncmp(y, "metric:", 7) == 0)
        m = y + 7;
    if (strcmp(m, "runtime") == 0 || (k && strcmp(m, "time") == 0))
        return "s";
    return units_of_metric(m);
}

/* chart_compare at a width (page_chart; its height follows its rows). */
static int draw_compare(const void *chart, int width, int height, struct buf *out,
                        struct err *err)
{
    struct chart_compare c = *(const struct chart_compare *)chart;
    (void)height;
    if (width > 0)
        c.width = width;
    return chart_compare(out, &c, err);
}

void view_compare(struct page *p, const struct view_compare *d)
{
    const json_t *rows = json_object_get(d->compare, "rows"), *r;
    size_t nrows = json_array_size(rows), ns = d->nsides, i, k;
    const char *app = str(d->compare, "application");
    struct chart_compare_row *crow;
    double *ratios;
    int *sig;

    page_puts(p, "<h1>Compare</h1>\n<p class=\"lead\">");
    for (k = 0; k < ns; k++) {
        page_printf(p, "%s<strong>%c</strong> = <code>", k ? ", " : "", (char)('a' + k));
        page_text(p, d->sides[k]);
        page_puts(p, "</code>");
    }
    page_puts(p, ". Per configuration, kernel and metric: each side's mean ± spread "
                 "(n runs), its change from a in percent, and whether it is significant "
                 "(Welch's t-test at 5 % where both sides have repetitions).</p>\n");
    if (nrows == 0 || ns < 2) {
        page_puts(p, "<p class=\"muted\" id=\"compare-none\">No configuration has runs "
                     "on two sides.</p>\n");
        return;
    }
    /* the chart: at most 200 rows, the table has them all */
    crow = arena_alloc(p->arena, nrows * sizeof *crow);
    ratios = arena_alloc(p->arena, nrows * ns * sizeof *ratios);
    sig = arena_alloc(p->arena, nrows * ns * sizeof *sig);
    if (crow && ratios && sig) {
        struct chart_compare c = {0};
        struct err e = {0};
        int keep = label_parts(rows);
        json_array_foreach(rows, i, r)
        {
            struct buf lb;
            buf_init(&lb, 1024);
            config_label(&lb, config_of(r), keep, rows);
            buf_puts(&lb, " · ");
            buf_puts(&lb, measure_of(p->arena, r));
            crow[i].label = arena_strdup(p->arena, buf_failed(&lb) ? "" : buf_str(&lb));
            buf_free(&lb);
            for (k = 1; k < ns; k++) {
                int s = side_significant(r, k);
                ratios[i * ns + k - 1] = side_ratio(r, k);
                sig[i * ns + k - 1] = s > 0;
            }
            crow[i].ratio = &ratios[i * ns];
            crow[i].significant = &sig[i * ns];
        }
        c.title = "Change from a per configuration and measure";
        c.sides = d->sides;
        c.nsides = ns;
        c.rows = crow;
        c.nrows = nrows < 200 ? nrows : 200;
        if (page_chart(p, draw_compare, &c, 0,
                       nrows > 200 ? "The first 200 rows; the table lists them all. Red: "
                                     "larger than a, green: smaller; pale bars are not "
                                     "significant."
                                   : "Red: larger than a, green: smaller; pale bars are "
                                     "not significant.",
                       &e) != 0) {
            page_puts(p, "<p class=\"notice bad\">The chart could not be drawn: ");
            page_text(p, e.message);
            page_puts(p, "</p>\n");
        }
    }

    page_table_open(p, "Comparison");
    page_puts(p, "<thead><tr><th>Configuration</th><th>Measure</th>");
    for (k = 0; k < ns; k++)
        page_printf(p, "<th class=\"num\">%c</th>", (char)('a' + k));
    for (k = 1; k < ns; k++)
        page_printf(p, "<th class=\"num\">%c vs a</th>", (char)('a' + k));
    page_puts(p, "</tr></thead><tbody>\n");
    json_array_foreach(rows, i, r)
    {
        const json_t *c = config_of(r);
        const char *k0 = str(r, "kernel"), *m = str(r, "metric");
        char y[400];
        if (str(r, "y"))
            snprintf(y, sizeof y, "%s", str(r, "y"));
        else if (k0)
            snprintf(y, sizeof y, "kernel:%s", k0);
        else if (m && strcmp(m, "runtime") != 0)
            snprintf(y, sizeof y, "metric:%s", m);
        else
            snprintf(y, sizeof y, "runtime");
        page_puts(p, "<tr><td><a href=\"");
        history_href(p, c, app, y);
        page_puts(p, "\">");
        view_config_text(p, c, app);
        page_puts(p, "</a></td><td>");
        page_text(p, measure_of(p->arena, r));
        page_puts(p, "</td>");
        for (k = 0; k < ns; k++)
            side_cell(p, r, k, measure_unit(r));
        for (k = 1; k < ns; k++) {
            double ratio = side_ratio(r, k);
            int s = side_significant(r, k);
            page_printf(p, "<td class=\"num%s\">",
                        s > 0 ? (ratio > 1 ? " worse" : " better") : "");
            if (isfinite(ratio)) {
                change(p, ratio);
                page_puts(p, s > 0    ? " <strong>significant</strong>"
                             : s == 0 ? " <span class=\"muted\">n.s.</span>"
                                      : " <span class=\"muted\">not tested</span>");
            } else {
                page_puts(p, "–");
            }
            page_puts(p, "</td>");
        }
        page_puts(p, "</tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

long view_series_points(arena *a, json_t *series, struct chart_hist_point **out,
                        long long *model, struct err *err)
{
    json_t *pts = json_object_get(series, "points"), *pt;
    size_t n = json_array_size(pts), i;
    struct chart_hist_point *v = arena_alloc(a, (n + 1) * sizeof *v);

    *model = 0;
    *out = v;
    if (v == NULL)
        return err_nomem(err);
    json_array_foreach(pts, i, pt)
    {
        json_t *js = json_object_get(pt, "judgements"), *j, *band = NULL;
        size_t k;
        memset(&v[i], 0, sizeof v[i]);
        if (chart_parse_time(str(pt, "at"), &v[i].t) != 0)
            return err_set(err, ERR_BAD_ANSWER, "bad_answer", "points",
                           "point %zu has no time", i);
        v[i].y = has_num(pt, "value") ? num(pt, "value") : NAN;
        v[i].run = json_integer_value(json_object_get(pt, "run"));
        v[i].commit = str(pt, "commit");
        json_array_foreach(js, k, j)
        {
            json_t *al = json_object_get(j, "alert");
            if (al && !json_is_null(al))
                v[i].alert = 1;
            if (json_is_false(json_object_get(j, "ready")))
                v[i].not_ready = 1;
            else
                v[i].judged = 1;
            if (json_is_true(json_object_get(j, "out")))
                v[i].out = 1;
            /* the band: a model's judgement first, else the first one's */
            if (has_num(j, "lo") && has_num(j, "hi") &&
                (band == NULL || (json_is_integer(json_object_get(j, "model")) &&
                                  !json_is_integer(json_object_get(band, "model")))))
                band = j;
        }
        if (band) {
            v[i].has_band = 1;
            v[i].lo = num(band, "lo");
            v[i].hi = num(band, "hi");
            if (json_is_integer(json_object_get(band, "model")) && *model == 0)
                *model = json_integer_value(json_object_get(band, "model"));
        }
    }
    return (long)n;
}
