/* chart_history: the SVG charts of run history and comparison (SPEC §11).
 *
 * chart_history draws one configuration's series over time: a point per run
 * (its run id, commit and time in the point's <title>), the watching model's
 * prediction interval as a band, alerts marked in red, change points as
 * dashed vertical lines naming the commit where the series shifted.
 * chart_compare draws the ratio of each side to side a per row (kernel or
 * metric of a configuration) as horizontal bars around 1.
 *
 * Both take plain value structs (the adapters decode the API's answers into
 * them), validate them (limits of web/svg.h; an ERR_INVALID names the field), append
 * one standalone SVG document to out and are pure functions of their input:
 * times are formatted in UTC by arithmetic, not by the C library's locale or
 * time zone. Like web/svg*.c they use the renderer toolkit web/svg_priv.h.
 */
#ifndef PROPHECY_CHART_HISTORY_H
#define PROPHECY_CHART_HISTORY_H

#include <stddef.h>

#include "common/buf.h"
#include "common/err.h"

/* One run of the series. */
struct chart_hist_point {
    double t;           /* seconds since 1970-01-01T00:00:00Z */
    double y;           /* the value (non-finite: skipped) */
    long long run;      /* run id (0: none shown) */
    const char *commit; /* may be NULL */
    int alert;          /* an alert was raised on this run */
    int not_ready;      /* judged, but without enough history for a band */
    int judged;         /* a watch judged it with enough history */
    int out;            /* ... and judged it out (its verdict, not the band) */
    int has_band;       /* the watching model's interval at this run: */
    double lo, hi;      /* [lo, hi] */
};

struct chart_history {
    const char *title, *ylabel;            /* may be NULL */
    const struct chart_hist_point *points; /* in time order */
    size_t n;                              /* 1..SVG_MAX_POINTS */
    const size_t *changes; /* indices of points where the series shifted */
    size_t nchanges;
    int width, height; /* px; 0 = 760 x 400 */
    const char *yunit; /* unit of the values (common/units.h), or NULL */
};

/* Runs of a series drawn as points with their titles; a longer series is
 * drawn as a line through every run with this many of them marked (evenly
 * spaced), besides the newest, every alert and every change point. */
#define CHART_HIST_MARKS 2000

/* Appends the history chart. Returns 0, or -1 with err (ERR_INVALID invalid input or
 * output too large, ERR_NOMEM out of memory); out is then as on entry. */
int chart_history(struct buf *out, const struct chart_history *h, struct err *err);

/* One bar group of the comparison: a row (e.g. "P=8, N=1000 · runtime") with
 * the ratio of each side after the first to side a. */
struct chart_compare_row {
    const char *label;
    const double *ratio;    /* nsides - 1 values (non-finite: no bar) */
    const int *significant; /* nsides - 1 flags, or NULL (none known) */
};

struct chart_compare {
    const char *title;
    const char *const *sides; /* nsides labels, sides[0] the baseline a */
    size_t nsides;            /* 2..16 */
    const struct chart_compare_row *rows;
    size_t nrows; /* 1..200 */
    int width;    /* px; 0 = 760; the height follows the rows */
};

/* Appends the comparison bar chart. Errors as chart_history. */
int chart_compare(struct buf *out, const struct chart_compare *c, struct err *err);

/* Parses an ISO 8601 UTC time "YYYY-MM-DDTHH:MM:SS[.fff]Z" (or with a space
 * for the T, or without the Z, or a date alone) into seconds since the epoch.
 * Returns 0, or -1 when s is not such a time. */
int chart_parse_time(const char *s, double *t);

/* Formats t as "YYYY-MM-DD HH:MM" (UTC) into out (at least 20 bytes). */
void chart_format_time(double t, char *out, size_t outsz);

#endif
