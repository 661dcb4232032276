/* chart: a modeling answer's plot as a figure of a page (web/chart.h): the
 * method table and the forms hold each plot as the one function that draws
 * it at its desktop size; this finds the same plot at a width, so that a
 * result or saved model on a phone gets a drawing made for it
 * (page_chart). It draws nothing itself. */
#include "web/chart.h"
#include "web/page.h"

#include <stddef.h>

typedef int (*plot_fn)(json_t *, struct buf *, struct err *);
typedef int (*plot_at_fn)(json_t *, int, int, struct buf *, struct err *);

static const struct {
    plot_fn plot;
    plot_at_fn at;
} sized[] = {
    {fit_plot, fit_plot_at},
    {param_plot, param_plot_at},
    {couple_plot, couple_plot_at},
    {couple_plot_breakdown, couple_plot_breakdown_at},
};

struct drawing {
    plot_fn plot;
    plot_at_fn at; /* NULL: the plot has its desktop size only */
    json_t *answer;
};

static int draw(const void *chart, int w, int h, struct buf *out, struct err *err)
{
    const struct drawing *d = chart;
    if (d->at != NULL)
        return d->at(d->answer, w, h, out, err);
    if (w > 0) /* no narrow drawing: page_chart shows the desktop one alone */
        return err_invalid(err, NULL, "this plot has no narrow drawing");
    return d->plot(d->answer, out, err);
}

int chart_figure(struct page *p, plot_fn plot, json_t *answer, const char *caption,
                 struct err *err)
{
    struct drawing d = {plot, NULL, answer};
    size_t i;
    for (i = 0; i < sizeof sized / sizeof sized[0]; i++)
        if (sized[i].plot == plot)
            d.at = sized[i].at;
    return page_chart(p, draw, &d, 0, caption, err);
}
