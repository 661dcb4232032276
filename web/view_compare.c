/* view_compare: the compare page without its sides (/compare, SPEC §17): a
 * picker of the application, then of its branches and commits for sides a
 * and b (see view.h). The comparison itself is view_history.c's. */
#include "web/view.h"

#include <string.h>

static void runs(struct page *p, long long n)
{
    page_printf(p, " (%lld run%s)</option>", n, n == 1 ? "" : "s");
}

/* One select of a side: every branch, then every commit (its branch and
 * run count in the label), sel the side asked for (kept selected). */
static void side_select(struct page *p, const char *name, const char *label, json_t *refs,
                        const char *sel)
{
    json_t *x;
    size_t i;
    page_printf(p,
                "<div class=\"field\"><label for=\"pick-%s\">%s</label><select "
                "id=\"pick-%s\" name=\"%s\" required><option value=\"\">choose…</option>",
                name, label, name, name);
    json_t *branches = json_object_get(refs, "branches"),
           *commits = json_object_get(refs, "commits");
    /* an empty group would show its heading over nothing */
    if (json_array_size(branches) > 0)
        page_puts(p, "<optgroup label=\"Branches\">");
    json_array_foreach(branches, i, x)
    {
        const char *b = json_string_value(json_object_get(x, "name"));
        const char *v = arena_printf(p->arena, "branch:%s", b ? b : "");
        page_puts(p, "<option value=\"");
        page_attr(p, v);
        page_puts(p, "\"");
        if (sel && v && strcmp(sel, v) == 0)
            page_puts(p, " selected");
        page_puts(p, ">");
        page_text(p, v);
        runs(p, json_integer_value(json_object_get(x, "runs")));
    }
    if (json_array_size(branches) > 0)
        page_puts(p, "</optgroup>");
    if (json_array_size(commits) > 0)
        page_puts(p, "<optgroup label=\"Commits, newest first\">");
    json_array_foreach(commits, i, x)
    {
        const char *c = json_string_value(json_object_get(x, "name"));
        const char *br = json_string_value(json_object_get(x, "branch"));
        const char *v = arena_printf(p->arena, "commit:%s", c ? c : "");
        page_puts(p, "<option value=\"");
        page_attr(p, v);
        page_puts(p, "\"");
        if (sel && v && strcmp(sel, v) == 0)
            page_puts(p, " selected");
        page_puts(p, ">");
        page_text(p, v);
        if (br) {
            page_puts(p, " on ");
            page_text(p, br);
        }
        runs(p, json_integer_value(json_object_get(x, "runs")));
    }
    page_puts(p, json_array_size(commits) > 0 ? "</optgroup></select></div>\n"
                                              : "</select></div>\n");
}

void view_compare_pick(struct page *p, const struct view_compare_pick *d)
{
    json_t *x;
    size_t i;

    page_puts(p,
              "<h1>Compare</h1>\n<p class=\"lead\">Compare the runs of two sides "
              "(branches, commits) configuration by configuration: each side's mean, "
              "the change from side a in percent, and whether it is significant.</p>\n");
    page_puts(p,
              "<form class=\"compare-pick\" id=\"compare-pick\" method=\"get\" "
              "action=\"/compare\"><div class=\"fields\">\n"
              "<div class=\"field\"><label for=\"pick-application\">Application</label>"
              "<select id=\"pick-application\" name=\"application\">");
    if (d->application == NULL)
        page_puts(p, "<option value=\"\">choose…</option>");
    json_array_foreach(d->apps, i, x)
    {
        const char *n = json_string_value(json_object_get(x, "name"));
        page_puts(p, "<option value=\"");
        page_attr(p, n ? n : "");
        page_puts(p, "\"");
        if (n && d->application && strcmp(n, d->application) == 0)
            page_puts(p, " selected");
        page_puts(p, ">");
        page_text(p, n ? n : "");
        page_puts(p, "</option>");
    }
    page_puts(p, "</select></div>\n");
    if (d->refs == NULL) {
        page_puts(p, "</div><button type=\"submit\">Next</button></form>\n");
        return;
    }
    if (json_array_size(json_object_get(d->refs, "branches")) == 0 &&
        json_array_size(json_object_get(d->refs, "commits")) == 0) {
        page_puts(p, "</div><button type=\"submit\">Next</button></form>\n"
                     "<p class=\"muted\" id=\"compare-no-refs\">No run of ");
        page_text(p, d->application);
        page_puts(p, " names a branch or a commit: upload runs with <code>commit</code> "
                     "and <code>branch</code> (docs/history.md) to compare them.</p>\n");
        return;
    }
    side_select(p, "a", "Side a (the baseline)", d->refs, d->a);
    side_select(p, "b", "Side b", d->refs, d->b);
    page_puts(p, "</div><button type=\"submit\">Compare</button></form>\n");
}
