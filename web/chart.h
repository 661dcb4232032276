/* chart: a modeling method's answer -> SVG (through web/svg.h).
 *
 * Each function reads a saved or fresh answer (the schema of the method's
 * core/method_*.h), renders deterministically into b (the same answer gives
 * the same bytes) and returns 0, or -1 with err set (ERR_INVALID for an answer it
 * cannot read). They are the `plot` column of the table in web/methods.c.
 */
#ifndef PROPHECY_WEB_CHART_H
#define PROPHECY_WEB_CHART_H

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"

/* Curve fitting: measured points, fitted curve, first prediction (one x);
 * the fitted surface and the points (two). */
int fit_plot(json_t *answer, struct buf *b, struct err *err);

/* Parameterization: the curve over one range with the measured runs, or the
 * surface over two; an ERR_INVALID when the answer has no range. */
int param_plot(json_t *answer, struct buf *b, struct err *err);

/* Kernel coupling: the composed model over x with the measured totals and
 * the predictions; and the per-kernel breakdown (coefficient x kernel
 * model) stacked per x, at the measured and predicted x values. */
int couple_plot(json_t *answer, struct buf *b, struct err *err);
int couple_plot_breakdown(json_t *answer, struct buf *b, struct err *err);

/* The plots above drawn w x h units large (0 x 0: the desktop size they
 * have above). */
int fit_plot_at(json_t *answer, int w, int h, struct buf *b, struct err *err);
int param_plot_at(json_t *answer, int w, int h, struct buf *b, struct err *err);
int couple_plot_at(json_t *answer, int w, int h, struct buf *b, struct err *err);
int couple_plot_breakdown_at(json_t *answer, int w, int h, struct buf *b,
                             struct err *err);

/* The plot `plot` (one of the four above, as the method table and the forms
 * hold them) of answer as a figure of the page, drawn for desktops and for
 * phones through page_chart, with caption (may be NULL). Returns 0, or -1
 * with err set and nothing written. */
struct page;
int chart_figure(struct page *p, int (*plot)(json_t *, struct buf *, struct err *),
                 json_t *answer, const char *caption, struct err *err);

#endif
