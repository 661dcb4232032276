/* view_watch: the watches of a history page (SPEC §17: forms to create and
 * delete watches) and the confirmation step before every delete; see
 * view.h. */
#include "web/view.h"

#include <stdio.h>
#include <string.h>

static const char *sget(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static void token_field(struct page *p, const char *id)
{
    if (p->user != NULL)
        return;
    page_printf(
        p,
        "<div class=\"field\"><label for=\"%s\">Write token</label><input "
        "type=\"password\" id=\"%s\" name=\"token\" autocomplete=\"off\" required "
        "placeholder=\"pt_…\"></div>",
        id, id);
}

static void hidden(struct page *p, const char *name, const char *value)
{
    if (value == NULL)
        return;
    page_printf(p, "<input type=\"hidden\" name=\"%s\" value=\"", name);
    page_attr(p, value);
    page_puts(p, "\">");
}

void view_series_watches(struct page *p, const struct view_series *d)
{
    const char *app = sget(d->config, "application");
    const char *y = d->y && *d->y ? d->y : "runtime";
    json_t *w, *list = json_is_object(d->watches) ? json_object_get(d->watches, "watches")
                                                  : d->watches;
    size_t i, shown = 0;

    if (d->watches == NULL || app == NULL)
        return;
    page_puts(p, "<h2 id=\"watches\">Watches</h2>\n");
    json_array_foreach(list, i, w)
    {
        const char *wa = sget(w, "application");
        json_t *det = json_object_get(w, "detector");
        json_t *model = json_object_get(det, "model");
        long long id = json_integer_value(json_object_get(w, "id"));
        if (wa == NULL || strcmp(wa, app) != 0)
            continue;
        if (shown++ == 0)
            page_puts(p, "<ul class=\"watches\" id=\"watch-list\">");
        page_printf(p, "<li id=\"watch-%lld\">Watch %lld: ", id, id);
        page_text(p, sget(w, "y") ? sget(w, "y") : "runtime");
        page_puts(p, " of ");
        view_config_text(p, w, NULL);
        page_puts(p, " \xe2\x80\x94 ");
        /* the detector as the API names it (GET /api/v1/watches), read */
        if (json_is_integer(model))
            page_printf(p,
                        "outside the prediction interval of <a href=\"/models/%lld\">"
                        "model %lld</a>",
                        (long long)json_integer_value(model),
                        (long long)json_integer_value(model));
        else
            page_json(p, det);
        page_printf(p,
                    " <a class=\"delete\" id=\"watch-%lld-delete\" "
                    "href=\"/watches/%lld/delete\">Delete</a></li>",
                    id, id);
    }
    if (shown)
        page_puts(p, "</ul>\n");
    else
        page_puts(p, "<p class=\"muted\" id=\"watch-none\">No watch judges this "
                     "application's runs yet.</p>\n");
    if (p->csrf == NULL)
        return;
    page_puts(p, "<form class=\"watch-form\" id=\"watch-form\" method=\"post\" "
                 "action=\"/watches\"><input type=\"hidden\" name=\"csrf\" value=\"");
    page_attr(p, p->csrf);
    page_puts(p, "\">");
    hidden(p, "application", app);
    hidden(p, "system", sget(d->config, "system"));
    hidden(p, "y", y);
    page_puts(
        p,
        "<div class=\"fields\"><div class=\"field\"><label for=\"watch-test\">"
        "Test</label><select id=\"watch-test\" name=\"test\">"
        "<option value=\"zscore\">zscore (threshold: standard deviations, 3)"
        "</option><option value=\"ttest\">ttest (threshold: significance, 0.05)"
        "</option><option value=\"percent\">percent (threshold: %, 10)</option>"
        "<option value=\"iqr\">iqr (threshold: IQRs, 1.5)</option>"
        "<option value=\"changepoint\">changepoint (threshold: p-value, 0.001)"
        "</option><option value=\"scaling\">scaling law of each commit against a "
        "baseline (threshold: change at the target, 0.1)</option></select></div>"
        "<div class=\"field\"><label for=\"watch-threshold\">Threshold "
        "<span class=\"hint\">optional</span></label><input type=\"text\" "
        "id=\"watch-threshold\" "
        "name=\"threshold\" inputmode=\"decimal\"></div>"
        "<div class=\"field\"><label for=\"watch-window\">Window <span "
        "class=\"hint\">runs, optional</span></label><input type=\"text\" "
        "id=\"watch-window\" "
        "name=\"window\" inputmode=\"numeric\"></div>"
        "<div class=\"field\"><label for=\"watch-x\">Law over <span "
        "class=\"hint\">scaling: nprocs or an input</span></label><input "
        "type=\"text\" id=\"watch-x\" name=\"x\" placeholder=\"nprocs\"></div>"
        "<div class=\"field\"><label for=\"watch-target\">Target <span "
        "class=\"hint\">scaling: where to compare</span></label><input "
        "type=\"text\" id=\"watch-target\" name=\"target\" inputmode=\"decimal\"></div>"
        "<div class=\"field\"><label for=\"watch-baseline\">Baseline <span "
        "class=\"hint\">scaling: branch:B or commit:C</span></label><input "
        "type=\"text\" id=\"watch-baseline\" name=\"baseline\" "
        "placeholder=\"branch:main\"></div>");
    token_field(p, "watch-token");
    page_puts(p, "</div><p class=\"muted\">The watch judges every new run of ");
    page_text(p, app);
    if (sget(d->config, "system")) {
        page_puts(p, " on ");
        page_text(p, sget(d->config, "system"));
    }
    page_puts(p, " (");
    page_text(p, y);
    page_puts(p, ").</p><button type=\"submit\" id=\"watch-add\">Add the watch</button>"
                 "</form>\n");
}

void view_confirm(struct page *p, const struct view_confirm *d)
{
    page_puts(p, "<h1>");
    page_text(p, d->title);
    page_puts(p, "</h1>\n<p class=\"notice bad\" id=\"confirm-what\">");
    page_text(p, d->what);
    page_puts(p, "</p>\n<form method=\"post\" id=\"confirm-form\" action=\"");
    page_attr(p, d->action);
    page_puts(p, "\"><input type=\"hidden\" name=\"csrf\" value=\"");
    page_attr(p, p->csrf ? p->csrf : "");
    page_puts(p, "\"><div class=\"fields\">");
    token_field(p, "confirm-token");
    page_puts(p, "</div><button type=\"submit\" class=\"danger\" id=\"confirm-delete\">"
                 "Delete</button> <a href=\"");
    page_attr(p, d->cancel);
    page_puts(p, "\" id=\"confirm-cancel\">Cancel</a></form>\n");
}
