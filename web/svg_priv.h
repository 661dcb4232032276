/* svg_priv: helpers shared by the SVG renderers (svg*.c); not for other modules.
 *
 * Number and text output, the document frame, validation shorthands, the
 * colour map, plot axes and the colour bar. Everything here writes into a
 * struct buf and keeps no state.
 */
#ifndef PROPHECY_SVG_PRIV_H
#define PROPHECY_SVG_PRIV_H

#include <stddef.h>

#include "common/buf.h"
#include "common/err.h"
#include "web/svg.h"

/* Average glyph advance of the sans-serif font as a fraction of font-size;
 * used to estimate text widths for layout and truncation. */
#define SVG_GLYPH 0.6

/* Font size of tick labels, legends and colour-bar labels (the base text is
 * 12, titles 15). 12 rather than 11: a plot scaled to a 390 px phone (the
 * stylesheet keeps it at least 600 px wide there, scrolling in its box)
 * still shows them at about 9.5 px. */
#define SVG_FS_SMALL 12

/* Appends v rounded to 2 decimals with trailing zeros dropped ("12.5", "3",
 * "-0.25"); non-finite gives "0" and |v| is clamped to 1e7. */
void svg_num(struct buf *b, double v);

/* Appends "#rrggbb". */
void svg_rgb(struct buf *b, const unsigned char rgb[3]);

/* Appends the first n bytes of s escaped as svg_text() does. */
void svg_text_n(struct buf *b, const char *s, size_t n);

/* Appends s escaped, cut to at most maxchars characters with "…" appended
 * when cut. */
void svg_text_fit(struct buf *b, const char *s, size_t maxchars);

/* Number of characters (UTF-8 lead bytes and stray bytes) in s; 0 for NULL. */
size_t svg_utf8_chars(const char *s);

/* Byte length of the longest prefix of s with at most maxchars characters,
 * ending on a character boundary. */
size_t svg_utf8_prefix(const char *s, size_t maxchars);

/* Estimated width in px of nchars characters at font size fs. */
double svg_text_width(size_t nchars, double fs);

/* Maximum number of characters that fit into width px at font size fs. */
size_t svg_fit_chars(double width, double fs);

/* Appends `<text x y [anchor] [attrs]>escaped s (fitted)</text>`. anchor is
 * "start", "middle" or "end"; extra may be NULL or more attributes. */
void svg_label(struct buf *b, double x, double y, const char *anchor, const char *extra,
               const char *s, size_t maxchars);

/* Appends the axis titles of a plot area (x0..x1, y0..y1): xlabel centred
 * under it at baseline xlabel_y, ylabel rotated along the left edge. NULL or
 * "" labels are skipped. */
void svg_axis_titles(struct buf *b, double x0, double x1, double y0, double y1,
                     double xlabel_y, const char *xlabel, const char *ylabel);

/* Validation: NULL or a string of at most SVG_MAX_TEXT bytes. */
int svg_check_text(const char *s, const char *field, struct err *err);
/* Validation: width/height 0 (default) or within SVG_MIN_SIZE..SVG_MAX_SIZE. */
int svg_check_size(int w, int h, struct err *err);

/* Opens the document: XML declaration, <svg> root with xmlns, viewBox,
 * width/height and font defaults, <title> (title escaped; "" when NULL),
 * <desc> with desc (plain text, escaped) and a white background. */
void svg_begin(struct buf *b, int w, int h, const char *title, const char *desc);
/* Closes the document. */
void svg_end(struct buf *b);
/* Draws the plot title centred at the top. */
void svg_title(struct buf *b, int w, const char *title);

/* Ends a render: on rc == 0 checks the buffer's sticky error. On any failure
 * restores out to length start, clears its error and returns -1 with err set
 * (buffer over maximum = ERR_INVALID plot_too_large, out of memory = ERR_NOMEM);
 * otherwise returns 0. */
int svg_finish(struct buf *out, size_t start, int rc, struct err *err);

/* Viridis-like colour map, t clamped to [0, 1] (non-finite = 0). */
void svg_cmap(double t, unsigned char rgb[3]);

/* A 2-D plot axis: range in axis space (log10 of the value on a log axis),
 * pixel positions of both ends, major ticks (labelled) and minor ticks. */
struct svg_axis {
    int log;
    double lo, hi; /* axis space */
    double p0, p1; /* pixel of lo and of hi */
    int nmajor;
    double major[SVG_MAX_TICKS]; /* data values */
    unsigned char labelled[SVG_MAX_TICKS];
    int nminor;
    double minor[64];
    double step; /* tick step for svg_fmt_tick (per tick on log axes) */
    /* The values' unit (common/units.h: "s", "B", "MB/s", ...), or NULL: plain
     * numbers. Set after svg_axis_setup. A linear axis shows every tick in
     * one readable unit, named in its title (svg_axis_title); a log axis
     * names each tick's own ("100 ns", "1 µs"; bytes in decimal prefixes,
     * as its ticks are powers of ten, or, after svg_axis_binary, powers of
     * two in KiB, MiB). */
    const char *unit;
    int binary; /* ticks are powers of two (svg_axis_binary) */
};

/* Sets up an axis over data [dmin, dmax] (have = 0: no data, [0, 1]) with
 * about max_ticks labelled ticks: linear axes get 4 % padding and nice ticks
 * inside the range; log axes get powers of ten, minor ticks 2..9 when at most
 * six decades are shown (2 and 5 labelled when about two or fewer), and nice
 * linear ticks when fewer than two labelled ticks fall inside. dmin/dmax must be positive
 * for a log axis. */
void svg_axis_setup(struct svg_axis *a, int log, double dmin, double dmax, int have,
                    int max_ticks);

/* Sets a's unit; a log axis of bytes ("B": message sizes, memory) then
 * takes powers of two for its ticks (1 B, 16 B, 256 B, 4 KiB, ...; about
 * max_ticks labelled, the others minor), as such sizes are measured, where
 * it spans two or more of them. */
void svg_axis_set_unit(struct svg_axis *a, const char *unit, int max_ticks);

/* Pixel position of data value v (must be finite, and > 0 on a log axis). */
double svg_axis_px(const struct svg_axis *a, double v);

/* Formats major tick i of the axis into out. */
char *svg_axis_tick_label(const struct svg_axis *a, int i, char *out, size_t outsz);

/* The axis title for label on axis a: "label (µs)" when a linear axis has a
 * unit, else label itself (may be NULL). Returns out or label. */
const char *svg_axis_title(const struct svg_axis *a, const char *label, char *out,
                           size_t outsz);

/* Draws a vertical colour bar at (x, y) of size w x h for values zmin..zmax
 * (zmin at the bottom) with tick labels to its right and label rotated beside
 * them. levels > 0 draws that many flat bands (the heat map's quantisation). */
void svg_colorbar(struct buf *b, double x, double y, double w, double h, double zmin,
                  double zmax, const char *label, int levels);

#endif
