/* view_app_priv: what the files of the application page share (view_app.c
 * the page, view_app_plots.c its scaling plots and kernel breakdown,
 * view_app_csv.c the runs table as CSV); not for other modules. */
#ifndef PROPHECY_WEB_VIEW_APP_PRIV_H
#define PROPHECY_WEB_VIEW_APP_PRIV_H

#include "web/view.h"

/* A page of the runs table: its number and the cursor it is read from
 * (after / before a run id; 0 = none: read by its number). */
struct at {
    long long page, after, before;
};

/* Writes the URL of this page with the view's filters, the given order,
 * page (with its cursor) and axes, omitting defaults, then `tail` (a
 * fragment, or "" ); '&' written as "&amp;" for an attribute. */
void view_app_href(struct page *p, const struct view_app *v, int sort, int desc,
                   struct at at, int axes, const char *tail);

/* The scaling section: runtime, speedup and efficiency over processors (the
 * series with the most runs first), runtime over each input. */
void view_app_scaling(struct page *p, const struct view_app *v);
/* The kernel breakdown of the largest processor series, else of the latest
 * configurations (the runs view_app_kernel_runs chose). */
void view_app_breakdown(struct page *p, const struct view_app *v);

#endif
