/* view_couple: the tables of a kernel coupling's answer (POST
 * /api/v1/couple, docs/api.md): its predictions, the coupling values of
 * the configuration it uses and each kernel's model and coefficient; the
 * coupling form's result and a saved coupling's page show the same. */
#include "web/html.h"
#include "web/page.h"
#include "web/view.h"

#include <math.h>
#include <string.h>

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *jstr(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

void view_signed_pct(struct page *p, double v)
{
    if (isfinite(v))
        page_printf(p, "%+.3g %%", v);
    else
        page_puts(p, "–");
}

static void predictions_table(struct page *p, json_t *preds)
{
    json_t *pr;
    size_t i;
    page_puts(p, "<h3>Predictions</h3>\n");
    page_table_open(p, "Predictions");
    page_puts(p, "<thead><tr><th class=\"num\">x</th><th class=\"num\">coupled</th>"
                 "<th class=\"num\">95 % interval</th><th class=\"num\">summation</th>"
                 "<th class=\"num\">measured</th><th class=\"num\">runs</th>"
                 "<th class=\"num\">error</th><th class=\"num\">summation error</th>"
                 "<th class=\"num\">beyond the data</th><th>warning</th>"
                 "</tr></thead><tbody>\n");
    json_array_foreach(preds, i, pr)
    {
        json_t *sum = json_object_get(pr, "summation");
        if (i == 200)
            break;
        page_puts(p, "<tr><td class=\"num\">");
        page_num(p, num(pr, "x"));
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, num(pr, "y"));
        page_puts(p, "</td><td class=\"num\">");
        if (json_is_number(json_object_get(pr, "lo"))) {
            page_num(p, num(pr, "lo"));
            page_puts(p, " – ");
            page_num(p, num(pr, "hi"));
        } else {
            page_puts(p, "–");
        }
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, num(sum, "y"));
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, num(pr, "actual"));
        page_printf(p, "</td><td class=\"num\">%lld</td><td class=\"num\">",
                    (long long)json_integer_value(json_object_get(pr, "runs")));
        view_signed_pct(p, num(pr, "error_pct"));
        page_puts(p, "</td><td class=\"num\">");
        view_signed_pct(p, num(pr, "summation_error_pct"));
        /* how far it reaches and its warning, as the API answers them */
        page_puts(p, "</td><td class=\"num\">");
        if (num(pr, "extrapolation") > 0)
            page_printf(p, "%.3g doubling%s", num(pr, "extrapolation"),
                        num(pr, "extrapolation") == 1 ? "" : "s");
        else
            page_puts(p, "inside");
        page_puts(p, "</td><td>");
        page_text(p, json_string_value(json_object_get(pr, "warning")));
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

static void couplings_table(struct page *p, json_t *ans)
{
    json_t *cps = json_object_get(ans, "couplings"), *cp, *k,
           *conf = json_object_get(ans, "configuration");
    const char *key;
    size_t i, j;
    int first = 1;

    page_puts(p, "<h3>Coupling values</h3>\n");
    if (json_array_size(cps) == 0) {
        page_puts(p, "<p class=\"muted\">No couplings: the model is the plain sum of "
                     "the kernels.</p>\n");
        return;
    }
    page_puts(p, "<p class=\"muted\">Measured at ");
    json_object_foreach(conf, key, k)
    {
        page_puts(p, first ? "" : ", ");
        page_text(p, key);
        page_puts(p, " = ");
        page_num(p, json_number_value(k));
        first = 0;
    }
    page_puts(p, json_array_size(json_object_get(ans, "predictions")) > 0
                     ? " (the configuration the first prediction uses)"
                     : " (the configuration nearest the middle of the fitted range)");
    page_puts(p, ". A value below 1 means the kernels run faster together than "
                 "alone.</p>\n");
    page_table_open(p, "Coupling values");
    page_puts(p, "<thead><tr><th>kernels</th><th class=\"num\">alone (s)</th>"
                 "<th class=\"num\">together (s)</th><th class=\"num\">coupling</th>"
                 "</tr></thead><tbody>\n");
    json_array_foreach(cps, i, cp)
    {
        json_t *al = json_object_get(cp, "alone");
        page_puts(p, "<tr><td>");
        json_array_foreach(json_object_get(cp, "kernels"), j, k)
        {
            page_puts(p, j ? " → " : "");
            page_text(p, json_string_value(k));
        }
        page_puts(p, "</td><td class=\"num\">");
        json_array_foreach(al, j, k)
        {
            page_puts(p, j ? ", " : "");
            page_num(p, json_number_value(k));
        }
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, num(cp, "together"));
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, num(cp, "value"));
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

static void kernels_table(struct page *p, json_t *ans)
{
    json_t *ks = json_object_get(ans, "kernels"), *k;
    size_t i;
    page_puts(p, "<h3>Kernels and coefficients</h3>\n");
    page_table_open(p, "Kernels");
    page_puts(p, "<thead><tr><th>kernel</th><th>loop</th>"
                 "<th class=\"num\">coefficient</th><th>model</th><th>type</th>"
                 "<th class=\"num\">R²</th></tr></thead><tbody>\n");
    json_array_foreach(ks, i, k)
    {
        json_t *m = json_object_get(k, "model");
        const char *chosen = jstr(m, "chosen");
        page_puts(p, "<tr><td>");
        page_text(p, jstr(k, "name"));
        page_printf(p, "</td><td>%s</td><td class=\"num\">",
                    json_is_true(json_object_get(k, "loop")) ? "yes" : "no");
        page_num(p, num(k, "coefficient"));
        page_puts(p, "</td><td>");
        page_law(p, jstr(m, "formula"));
        page_puts(p, "</td><td>");
        page_text(p, chosen ? chosen : jstr(m, "type"));
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, num(m, "r2"));
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

void view_couple_tables(struct page *p, json_t *answer)
{
    json_t *preds = json_object_get(answer, "predictions");
    if (json_array_size(preds) > 0)
        predictions_table(p, preds);
    couplings_table(p, answer);
    kernels_table(p, answer);
}
