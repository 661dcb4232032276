/* page: the HTML layout and escaping writers of the web dashboard (SPEC §7).
 *
 * Every page is server-rendered HTML5 that works without JavaScript: one
 * layout (header with the navigation, main, footer), the stylesheet and the
 * small script served from /static/ (the Content-Security-Policy set in
 * server/http.c allows no inline style or script), and every string that
 * comes from users or the database written through page_text / page_attr /
 * page_url, which escape for their context. Plots are inline SVG (the
 * renderer escapes its own text) or <img> of a /plots/ URL.
 *
 * A page is a bounded buffer (PAGE_MAX) plus what a view needs to know
 * beyond its data: the request's arena for temporary strings and the CSRF
 * token of forms that write. It knows nothing of HTTP or the database: the
 * server adapters (server/dash.h) open it, hand the data to a view
 * (web/view.h) and send the buffer.
 */
#ifndef PROPHECY_PAGE_H
#define PROPHECY_PAGE_H

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/arena.h"

#define PAGE_MAX (16u << 20) /* bytes of one page */

#define PAGE_COLOR_NAMES 64 /* names page_colors keeps a colour for */
struct page {
    struct buf b;
    arena *arena;     /* temporary strings of the views; not owned */
    const char *csrf; /* the CSRF token forms that write carry, or NULL */
    const char *user; /* the signed-in token's name (forms then ask no token), or NULL */
    /* the names the page's charts coloured, in order: name i has colour i */
    const char *color_names[PAGE_COLOR_NAMES];
    size_t ncolor_names;
};

/* Starts a page in p: doctype, head (title "TITLE · Prophecy", stylesheet,
 * icon, script) and the header whose navigation marks `nav` ("overview",
 * "applications", "systems", "model", "models", "upload"; NULL for none) as
 * current. title is escaped here. a (may be NULL when no view needs
 * temporary strings) is not owned. */
void page_begin(struct page *p, arena *a, const char *title, const char *nav);
/* The same with the header's sign-in state: user the signed-in token's name
 * (a "Sign out" form posting csrf to /logout), or NULL (a "Sign in" link).
 * Sets p->user and p->csrf. */
void page_begin_as(struct page *p, arena *a, const char *title, const char *nav,
                   const char *user, const char *csrf);
/* Closes main and writes the footer. The caller checks buf_failed(&p->b)
 * and takes the buffer. */
void page_finish(struct page *p);
/* Frees the page's buffer (page_free(NULL-initialised page) is harmless). */
void page_free(struct page *p);

/* The palette colours (svg_stacked's colors) of n chart components named
 * names, so that a kernel keeps one colour in every chart of the page: a
 * name the page's charts coloured before keeps its colour, a new one takes
 * the next (names NULL or "other" take none, -1). Returns n ints in the
 * page's arena, or NULL without an arena or memory (the chart then colours
 * by position). */
const int *page_colors(struct page *p, const char *const *names, size_t n);

/* A commit in a table: <code>, its first 12 characters with the whole in
 * the title when it is longer (a 40-digit hash would crowd the columns
 * beside it out of the table); nothing for NULL. */
void page_commit(struct page *p, const char *commit);

/* Trusted markup: string constants of the program only. */
void page_puts(struct page *p, const char *html);
/* Trusted markup with printf formatting: every %s argument must be a
 * constant or already escaped; numbers are safe. */
void page_printf(struct page *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Escaped text content and attribute values (NULL writes nothing). */
void page_text(struct page *p, const char *s);
void page_attr(struct page *p, const char *s);
/* A model's law ("y = -0.004 + 1.05e-08·N^2") as <code class="law">, escaped;
 * a line breaks only at its blanks, between terms, never inside a term
 * (browsers break after the hyphen of "e-08"). NULL writes nothing. */
void page_law(struct page *p, const char *law);
/* A timestamp ("2026-12-02T07:25:13Z"), escaped: it may break after its "T",
 * never at its hyphens. NULL writes nothing. */
void page_when(struct page *p, const char *ts);
/* Preformatted text (<pre>): escaped as page_text, line breaks kept. */
void page_pre(struct page *p, const char *s);
/* s percent-encoded for a path segment or query value (then safe in an
 * attribute as well). */
void page_url(struct page *p, const char *s);
/* A number without a unit, at the precision modeling results need (%.6g:
 * coefficients, errors, ratios); never nan/inf ("–" for a non-finite value).
 * A measured value with a unit goes through page_qty. */
void page_num(struct page *p, double v);
/* A JSON value as people read it, never as JSON text: a number as page_num,
 * a string escaped, yes/no, an object as "N = 1000, P = 8" and an array as
 * "1, 2, 3" (nested ones in parentheses; 16 items of each at most, then
 * "… (40 in all)"; 4 levels deep); "–" for null or an empty one. */
void page_json(struct page *p, json_t *v);
/* A measured value in readable units (common/units.h): v in `unit` ("s", "B",
 * "B/s", "MB/s"; NULL or "" a plain number) as "2.15 µs", "1.5 MiB", "12";
 * "—" for a non-finite (absent) value. */
void page_qty(struct page *p, double v, const char *unit);
/* A headline value: <strong id="ID" data-value="V">v in unit for people
 * (page_qty, "13.61 ms")</strong>, its exact value (10 significant digits)
 * in data-value and, with the unit, in the title, for programs and copying.
 * id may be NULL (no id). */
void page_value(struct page *p, const char *id, double v, const char *unit);
/* <a href="PREFIX<url-encoded name>">escaped text</a>. */
void page_link(struct page *p, const char *prefix, const char *name, const char *text);
/* Inlines an SVG document rendered by web/svg.h (without its XML
 * declaration) inside <figure class="plot">, with an optional caption. */
void page_svg(struct page *p, const struct buf *svg, const char *caption);
/* The same plot rendered twice, wide (desktop) and narrow (a viewBox about
 * 400 wide, for phones), in one figure: the stylesheet shows one of them by
 * the window's width, so that a phone shows text at a readable size instead
 * of a desktop plot shrunk to half. */
void page_svg_pair(struct page *p, const struct buf *wide, const struct buf *narrow,
                   const char *caption);

/* ---- charts: a drawing for desktops and one for phones ---------------------- */

#define PAGE_NARROW_W 400 /* the phone's drawing of a chart, in SVG units ... */
#define PAGE_NARROW_H 340 /* ... and its usual height */

/* A chart's renderer: appends one SVG document (web/svg.h's contract: 0, or
 * -1 with err set and out as on entry) of the chart drawn width x height
 * units large; 0 x 0 is the chart's own (desktop) size. */
typedef int (*page_draw_fn)(const void *chart, int width, int height, struct buf *out,
                            struct err *err);

/* Every chart of a page is drawn through this: twice, at its own size for
 * desktops and PAGE_NARROW_W x narrow_h (0: PAGE_NARROW_H) units for phones,
 * in one figure as page_svg_pair shows them, so that a phone never shows a
 * desktop drawing shrunk to half with 5 px text (the desktop drawing alone
 * when the narrow one cannot be drawn). Returns 0, or -1 with err set and
 * nothing written when the desktop drawing fails (the caller says why). */
int page_chart(struct page *p, page_draw_fn draw, const void *chart, int narrow_h,
               const char *caption, struct err *err);
/* page_chart of web/svg.h's plots; their width and height are the desktop's. */
struct svg_plot2d;
struct svg_plot3d;
struct svg_stacked;
int page_plot2d(struct page *p, const struct svg_plot2d *plot, int narrow_h,
                const char *caption, struct err *err);
int page_plot3d(struct page *p, const struct svg_plot3d *plot, int narrow_h,
                const char *caption, struct err *err);
int page_stacked(struct page *p, const struct svg_stacked *chart, int narrow_h,
                 const char *caption, struct err *err);

/* Opens and closes a horizontally scrollable table box. */
void page_table_open(struct page *p, const char *caption);
void page_table_close(struct page *p);

/* The error page of e ("Not found", "Invalid input" ...: its kind) headed by
 * status, the HTTP status server/ answers with, with e's message and a way
 * back, as a malloc'd body (free with xfree); NULL on out of memory. */
char *page_error_html(const struct err *e, int status, size_t *len);

/* ---- shared pieces for modeling pages -------------------------------------- */

/* The variables of a fit's or the scaling view's "selection" as a phrase:
 * ", N = 1000" for each fixed value, ", without M" for one fixed to null (the
 * runs without that input) and ", N changing with X" for each of
 * "varies_with_x" (a weak-scaling series over x). */
void page_selection_vars(struct page *p, json_t *sel, const char *x);

/* Renders the key figures of a modeling answer (the modeling methods): its
 * formula ("model.formula", "formula" or "parsed"), the statistics and
 * values that are numbers at the top level or under "model", coefficients,
 * and the "predictions" array as a table. Used by the saved-model page and
 * meant for the result pages of the modeling forms. */
void page_model_answer(struct page *p, json_t *answer);
/* The same without the arrays of records: the formula and key figures, for
 * a method that draws its records itself (a coupling: view_couple_tables). */
void page_model_facts(struct page *p, json_t *answer);

#endif
