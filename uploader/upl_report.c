/* upl_report: render the pull-request summary; see upl_report.h.
 *
 * Everything printed comes from the server's answers, so every string is
 * escaped for the markdown it lands in (a configuration named "a|b" must not
 * split a table cell, "<script>" must not reach a comment as HTML).
 */
#include "uploader/upl_report.h"
#include "common/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One row of the compare answer, read once. */
struct row {
    const json_t *cfg;  /* object holding application, executable, ... */
    const char *app;    /* the application (of the row or of the answer) */
    const char *kernel; /* NULL: the whole run */
    const char *metric; /* "runtime" unless named */
    char y[300];        /* the series' y: runtime | kernel:K | metric:M */
    int has_a, has_b;   /* each side has a value */
    double a, b;        /* means */
    long na, nb;        /* repetitions (-1 unknown) */
    int has_ratio;
    double ratio;    /* b / a */
    int significant; /* 1 yes, 0 no, -1 not tested */
    int alert;       /* a counted alert matches the row */
    const char *verdict;
};

static const char *str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* Bytes of a Unicode bidirectional control at s (U+202A..U+202E,
 * U+2066..U+2069, U+200E, U+200F, U+061C), or 0: one of them in a run name
 * would reorder what the reader sees of the comment. */
static size_t bidi_control(const unsigned char *s)
{
    if (s[0] == 0xE2 && s[1] == 0x80 &&
        ((s[2] >= 0xAA && s[2] <= 0xAE) || s[2] == 0x8E || s[2] == 0x8F))
        return 3;
    if (s[0] == 0xE2 && s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9)
        return 3;
    if (s[0] == 0xD8 && s[1] == 0x9C)
        return 2;
    return 0;
}

#define ZWSP "&#8203;" /* a zero-width space, as an entity markdown keeps */

/* Markdown-safe text for a pull-request comment: punctuation that would
 * start markup is escaped, line breaks become spaces, "@name" cannot
 * mention anyone and "http://", "https://" or "www." cannot become a link
 * (a zero-width space breaks them, after any ':' that ends the text or
 * comes before a '/'), and bidirectional controls become
 * U+FFFD. */
static void md(struct buf *out, const char *s)
{
    for (; s && *s; s++) {
        size_t bidi = bidi_control((const unsigned char *)s);
        if (bidi) {
            buf_puts(out, "\xEF\xBF\xBD");
            s += bidi - 1;
        } else if (*s == '\n' || *s == '\r') {
            buf_putc(out, ' ');
        } else if (*s == '@') {
            buf_puts(out, "@" ZWSP);
        } else if (*s == ':' && (s[1] == '/' || s[1] == '\0')) {
            /* also ":/" and a final ':': the line puts '/' between the
             * pieces it escapes one by one ("a:/" + '/' + "x"), and a link
             * formed across them is a link too */
            buf_puts(out, ":" ZWSP);
        } else if ((*s == 'w' || *s == 'W') && strncasecmp(s, "www.", 4) == 0) {
            buf_printf(out, "%.3s" ZWSP, s);
            s += 2;
        } else if (strchr("\\`*_[]<>|&#!", *s)) {
            buf_printf(out, "\\%c", *s);
        } else {
            buf_putc(out, *s);
        }
    }
}

static void num(struct buf *out, double v)
{
    char s[64];
    if (!isfinite(v))
        buf_puts(out, "-");
    else {
        snprintf(s, sizeof s, "%.4g", v);
        buf_puts(out, s);
    }
}

/* v measured in unit, as the pages show it ("61.17 ns", "1.5 MiB"; a count
 * or an unknown unit as a plain number); "-" when not finite. */
static void qty(struct buf *out, double v, const char *unit)
{
    char s[UNITS_MAX];
    if (!isfinite(v))
        buf_puts(out, "-");
    else
        buf_puts(out, units_fmt(s, sizeof s, v, unit));
}

/* "matmul/mm_gcc on sgi, 8 procs, N=1000", markdown-escaped; app names the
 * application when cfg does not (the compare answer names it once, on top). */
static void md_config(struct buf *out, const json_t *cfg, const char *app)
{
    const json_t *inputs = json_object_get(cfg, "inputs"), *v;
    const char *k;

    md(out, str(cfg, "application") ? str(cfg, "application") : app ? app : "?");
    if (str(cfg, "executable")) {
        buf_putc(out, '/');
        md(out, str(cfg, "executable"));
    }
    if (str(cfg, "system")) {
        buf_puts(out, " on ");
        md(out, str(cfg, "system"));
    }
    if (json_is_integer(json_object_get(cfg, "nprocs"))) {
        long long n = (long long)json_integer_value(json_object_get(cfg, "nprocs"));
        buf_printf(out, ", %lld proc%s", n, n == 1 ? "" : "s");
    }
    json_object_foreach((json_t *)inputs, k, v)
    {
        buf_puts(out, ", ");
        md(out, k);
        buf_putc(out, '=');
        if (json_is_number(v))
            num(out, json_number_value(v));
        else
            md(out, json_string_value(v));
    }
}

/* The value of field `key` of side i: sides[i].key, else key[i] (an array),
 * else key itself for side 1 of a two-sided answer. */
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

static int side_value(const json_t *r, size_t i, double *mean, long *n)
{
    const json_t *s = json_array_get(json_object_get(r, "sides"), i);
    const json_t *m = json_object_get(s, "mean"), *jn = json_object_get(s, "n");

    *n = json_is_integer(jn) ? (long)json_integer_value(jn) : -1;
    if (!json_is_number(m) || *n == 0)
        return 0;
    *mean = json_number_value(m);
    return isfinite(*mean);
}

/* The same value of a configuration field: numbers by value (4 and 4.0). */
static int same_value(const json_t *a, const json_t *b)
{
    return json_equal(a, b) || (json_is_number(a) && json_is_number(b) &&
                                json_number_value(a) == json_number_value(b));
}

/* The configuration an alert names: its "configuration", else its own
 * fields. */
static const json_t *alert_config(const json_t *al)
{
    const json_t *cfg = json_object_get(al, "configuration");
    return cfg ? cfg : al;
}

/* Whether configurations a and b differ in executable, system, nprocs or an
 * input both name; a field either leaves out does not differ. */
static int configs_differ(const json_t *a, const json_t *b)
{
    static const char *const keys[] = {"executable", "system"};
    const json_t *ai = json_object_get(a, "inputs"), *bi = json_object_get(b, "inputs"),
                 *v;
    const char *k;
    size_t i;

    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (str(a, keys[i]) && str(b, keys[i]) &&
            strcmp(str(a, keys[i]), str(b, keys[i])))
            return 1;
    if (json_is_number(json_object_get(a, "nprocs")) &&
        json_is_number(json_object_get(b, "nprocs")) &&
        !same_value(json_object_get(a, "nprocs"), json_object_get(b, "nprocs")))
        return 1;
    json_object_foreach((json_t *)ai, k, v)
    {
        const json_t *w = json_object_get(bi, k);
        if (w && !same_value(v, w))
            return 1;
    }
    return 0;
}

/* Does a counted alert concern this row? Fields the alert leaves out match. */
static int alert_matches(const json_t *al, const struct row *rw)
{
    const json_t *cfg = alert_config(al);

    if (str(cfg, "application") && rw->app && strcmp(str(cfg, "application"), rw->app))
        return 0;
    if (configs_differ(cfg, rw->cfg))
        return 0;
    if (str(al, "y"))
        return strcmp(str(al, "y"), rw->y) == 0;
    if (str(al, "kernel") && (!rw->kernel || strcmp(str(al, "kernel"), rw->kernel)))
        return 0;
    return 1;
}

void upl_report_select(json_t *alerts, const char *executable, const char *system,
                       long nprocs, const json_t *inputs)
{
    json_t *list = json_object_get(alerts, "alerts"), *sel = json_object();
    if (sel == NULL)
        return;
    if (executable)
        json_object_set_new(sel, "executable", json_string(executable));
    if (system)
        json_object_set_new(sel, "system", json_string(system));
    if (nprocs > 0)
        json_object_set_new(sel, "nprocs", json_integer(nprocs));
    if (inputs)
        json_object_set(sel, "inputs", (json_t *)inputs);
    for (size_t i = json_array_size(list); i-- > 0;)
        if (configs_differ(alert_config(json_array_get(list, i)), sel))
            json_array_remove(list, i);
    json_decref(sel);
}

static const char *alert_commit(const json_t *al)
{
    const char *c = str(al, "commit");
    return c ? c : str(json_object_get(al, "run"), "commit");
}

/* Alerts of this commit that still stand (open or acknowledged). */
static int alert_counts(const json_t *al, const char *commit)
{
    const char *c = alert_commit(al), *st = str(al, "state");
    if (st && (strcmp(st, "false_positive") == 0 || strcmp(st, "resolved") == 0))
        return 0;
    return c && commit && strcmp(c, commit) == 0;
}

static void read_row(const json_t *r, const json_t *alerts, const char *commit,
                     const char *app, struct row *rw)
{
    const json_t *v, *al;
    size_t i;
    int lower_better;

    memset(rw, 0, sizeof *rw);
    rw->cfg = json_object_get(r, "configuration");
    if (!json_is_object(rw->cfg))
        rw->cfg = r;
    rw->app = str(rw->cfg, "application") ? str(rw->cfg, "application") : app;
    rw->kernel = str(r, "kernel");
    rw->metric = str(r, "metric") ? str(r, "metric") : "runtime";
    if (str(r, "y")) { /* the answer's "y": runtime | kernel:NAME | metric:NAME */
        const char *y = str(r, "y");
        if (strncmp(y, "kernel:", 7) == 0)
            rw->kernel = y + 7;
        else if (strncmp(y, "metric:", 7) == 0)
            rw->metric = y + 7;
    }
    if (rw->kernel)
        snprintf(rw->y, sizeof rw->y, "kernel:%s", rw->kernel);
    else if (strcmp(rw->metric, "runtime") == 0)
        snprintf(rw->y, sizeof rw->y, "runtime");
    else
        snprintf(rw->y, sizeof rw->y, "metric:%s", rw->metric);
    rw->has_a = side_value(r, 0, &rw->a, &rw->na);
    rw->has_b = side_value(r, 1, &rw->b, &rw->nb);
    v = side_field(r, 1, "ratio");
    if (json_is_number(v) && isfinite(json_number_value(v))) {
        rw->has_ratio = 1;
        rw->ratio = json_number_value(v);
    } else if (rw->has_a && rw->has_b && rw->a != 0) {
        rw->has_ratio = 1;
        rw->ratio = rw->b / rw->a;
    }
    v = side_field(r, 1, "significant");
    rw->significant = json_is_boolean(v) ? json_is_true(v) : -1;
    /* A side of one run has no spread: the change was not tested, whatever
     * the answer's "significant" says (SPEC §17). */
    if ((rw->na >= 0 && rw->na < 2) || (rw->nb >= 0 && rw->nb < 2))
        rw->significant = -1;
    json_array_foreach(json_object_get(alerts, "alerts"), i, al)
    {
        if (alert_counts(al, commit) && alert_matches(al, rw))
            rw->alert = 1;
    }

    /* Times (the run's, a kernel's) are better lower; of another metric we
     * do not know which way is better, so say which way it went. */
    lower_better = rw->kernel != NULL || strcmp(rw->metric, "runtime") == 0;
    if (rw->alert)
        rw->verdict = "alert";
    else if (!rw->has_a)
        rw->verdict = "new";
    else if (!rw->has_b)
        rw->verdict = "missing";
    else if (rw->significant < 0)
        rw->verdict = "not tested";
    else if (rw->significant == 0 || !rw->has_ratio || rw->ratio == 1)
        rw->verdict = "unchanged";
    else if (rw->ratio > 1)
        rw->verdict = lower_better ? "slower" : "higher";
    else
        rw->verdict = lower_better ? "faster" : "lower";
}

/* One side's mean in the unit of the row's y, as the pages show it
 * ("61.17 ns", "1.5 MiB"; a count or an unknown unit as a plain number),
 * and its number of runs. */
static void md_side(struct buf *out, int has, double v, long n, const char *y)
{
    if (!has) {
        buf_puts(out, "-");
        return;
    }
    qty(out, v, units_of_y(y));
    if (n > 0)
        buf_printf(out, " (n=%ld)", n);
}

/* The rest of a scaling watch's alert (SPEC §17): the law changed, the
 * prediction at the target against the baseline's, and both laws. */
static void md_scaling(struct buf *out, const json_t *al)
{
    const json_t *v;
    const char *unit = units_of_y(str(al, "y"));
    buf_puts(out, ": scaling law over ");
    md(out, str(al, "x") ? str(al, "x") : "x");
    buf_puts(out, " changed; at ");
    md(out, str(al, "x") ? str(al, "x") : "x");
    buf_puts(out, " = ");
    num(out, json_number_value(json_object_get(al, "target")));
    buf_puts(out, " it predicts ");
    qty(out, json_number_value(json_object_get(al, "value")), unit);
    buf_puts(out, " against ");
    qty(out, json_number_value(json_object_get(al, "expected")), unit);
    if (json_is_number(v = json_object_get(al, "ratio_at_target"))) {
        buf_puts(out, " (ratio ");
        num(out, json_number_value(v));
        buf_putc(out, ')');
    }
    buf_puts(out, "; law ");
    md(out, str(al, "formula") ? str(al, "formula") : "?");
    buf_puts(out, ", baseline ");
    md(out, str(al, "baseline_formula") ? str(al, "baseline_formula") : "?");
    buf_putc(out, '\n');
}

static void md_alert(struct buf *out, const json_t *al)
{
    const json_t *v;
    const char *unit = units_of_y(str(al, "y"));
    buf_puts(out, "- alert");
    if (json_is_integer(json_object_get(al, "id")))
        buf_printf(out, " %lld",
                   (long long)json_integer_value(json_object_get(al, "id")));
    if (str(al, "state")) {
        buf_puts(out, " (");
        md(out, str(al, "state"));
        buf_putc(out, ')');
    }
    buf_puts(out, ": ");
    md_config(out,
              json_is_object(json_object_get(al, "configuration"))
                  ? json_object_get(al, "configuration")
                  : al,
              NULL);
    if (str(al, "y")) {
        buf_puts(out, ", ");
        md(out, str(al, "y"));
    }
    if (str(al, "kind") && strcmp(str(al, "kind"), "scaling") == 0) {
        md_scaling(out, al);
        return;
    }
    if (json_is_number(v = json_object_get(al, "value"))) {
        buf_puts(out, ": ");
        qty(out, json_number_value(v), unit);
    }
    if (json_is_number(v = json_object_get(al, "expected"))) {
        buf_puts(out, ", expected ");
        qty(out, json_number_value(v), unit);
    }
    {
        const char *lk = json_is_number(json_object_get(al, "lo")) ? "lo" : "low";
        const char *hk = json_is_number(json_object_get(al, "hi")) ? "hi" : "high";
        if (json_is_number(json_object_get(al, lk)) &&
            json_is_number(json_object_get(al, hk))) {
            buf_puts(out, " [");
            /* a time's band from 0 at the least, as the pages show it */
            qty(out, units_floor(unit, json_number_value(json_object_get(al, lk))), unit);
            buf_puts(out, ", ");
            qty(out, json_number_value(json_object_get(al, hk)), unit);
            buf_putc(out, ']');
        }
    }
    if (str(al, "message")) {
        buf_puts(out, " - ");
        md(out, str(al, "message"));
    }
    buf_putc(out, '\n');
}

static json_t *json_num_or_null(int has, double v)
{
    return has && isfinite(v) ? json_real(v) : json_null();
}

int upl_report_render(const json_t *compare, const json_t *alerts, const char *commit,
                      const char *against, enum upl_report_format fmt, struct buf *out,
                      struct upl_report_summary *sum)
{
    const json_t *rows = json_object_get(compare, "rows"), *r, *al;
    struct upl_report_summary s = {0};
    const char *verdict;
    json_t *jrows = NULL, *jalerts = NULL, *doc = NULL;
    size_t i;
    char *text;

    if (!json_is_array(rows))
        return -1;
    json_array_foreach(json_object_get(alerts, "alerts"), i, al)
    {
        if (alert_counts(al, commit))
            s.alerts++;
    }
    json_array_foreach(rows, i, r)
    {
        long n;
        double m;
        s.measured += side_value(r, 1, &m, &n);
        s.baseline += side_value(r, 0, &m, &n);
    }
    /* Never a pass for a commit without runs: "not measured" (SPEC §17). */
    verdict = s.alerts ? "fail" : s.measured ? "pass" : "not measured";
    if (fmt == UPL_REPORT_JSON) {
        jrows = json_array();
        jalerts = json_array();
    } else {
        buf_puts(out, "### Prophecy: commit ");
        md(out, commit);
        buf_puts(out, " against ");
        md(out, against);
        buf_puts(out, "\n\n");
        if (s.alerts)
            buf_printf(out, "**FAIL**: %zu alert%s raised by this commit.\n\n", s.alerts,
                       s.alerts == 1 ? "" : "s");
        else if (s.measured)
            buf_puts(out, "**PASS**: no alert raised by this commit.\n\n");
        else
            buf_puts(out,
                     "**NOT MEASURED**: this commit has no runs in the selection.\n\n");
        if (json_array_size(rows) == 0)
            buf_puts(out, "No configuration has runs on either side.\n");
        else {
            buf_puts(out, "| Configuration | Measure | ");
            md(out, against);
            buf_puts(out, " | ");
            md(out, commit);
            buf_puts(out, " | Change | Verdict |\n");
            buf_puts(out, "|---|---|---:|---:|---:|---|\n");
        }
    }
    json_array_foreach(rows, i, r)
    {
        struct row rw;
        read_row(r, alerts, commit, str(compare, "application"), &rw);
        s.rows++;
        if (strcmp(rw.verdict, "slower") == 0)
            s.regressions++;
        if (fmt == UPL_REPORT_JSON) {
            json_t *cfg = json_deep_copy(rw.cfg), *o;
            if (cfg == NULL)
                goto nomem;
            /* a row holding its configuration itself: keep only that */
            json_object_del(cfg, "sides");
            json_object_del(cfg, "ratio");
            json_object_del(cfg, "significant");
            json_object_del(cfg, "y");
            json_object_del(cfg, "kernel");
            json_object_del(cfg, "metric");
            if (!json_object_get(cfg, "application") && str(compare, "application"))
                json_object_set_new(cfg, "application",
                                    json_string(str(compare, "application")));
            o = json_pack("{s:o, s:s?, s:s, s:o, s:o, s:o, s:o, s:o, s:s}",
                          "configuration", cfg, "kernel", rw.kernel, "metric", rw.metric,
                          "baseline", json_num_or_null(rw.has_a, rw.a), "value",
                          json_num_or_null(rw.has_b, rw.b), "change",
                          json_num_or_null(rw.has_ratio, rw.ratio - 1), "significant",
                          rw.significant < 0 ? json_null() : json_boolean(rw.significant),
                          "alert", json_boolean(rw.alert), "verdict", rw.verdict);
            if (o == NULL || json_array_append_new(jrows, o) != 0)
                goto nomem;
            continue;
        }
        buf_puts(out, "| ");
        md_config(out, rw.cfg, str(compare, "application"));
        buf_puts(out, " | ");
        if (rw.kernel) {
            buf_puts(out, "kernel ");
            md(out, rw.kernel);
            if (strcmp(rw.metric, "runtime") != 0) {
                buf_putc(out, ' ');
                md(out, rw.metric);
            }
        } else {
            md(out, rw.metric);
        }
        buf_puts(out, " | ");
        md_side(out, rw.has_a, rw.a, rw.na, rw.y);
        buf_puts(out, " | ");
        md_side(out, rw.has_b, rw.b, rw.nb, rw.y);
        buf_puts(out, " | ");
        if (rw.has_ratio && isfinite(rw.ratio))
            buf_printf(out, "%+.1f %%", (rw.ratio - 1) * 100);
        else
            buf_puts(out, "-");
        buf_printf(out, " | %s%s%s |\n", rw.alert ? "**" : "", rw.verdict,
                   rw.alert ? "**" : "");
    }
    if (fmt == UPL_REPORT_JSON) {
        json_array_foreach(json_object_get(alerts, "alerts"), i, al)
        {
            if (alert_counts(al, commit) && json_array_append(jalerts, (json_t *)al) != 0)
                goto nomem;
        }
        doc =
            json_pack("{s:s?, s:s?, s:s, s:o, s:o}", "commit", commit, "against", against,
                      "verdict", verdict, "configurations", jrows, "alerts", jalerts);
        jrows = jalerts = NULL;
        if (doc == NULL)
            goto nomem;
        text = json_dumps(doc, JSON_INDENT(2));
        if (text == NULL)
            goto nomem;
        buf_puts(out, text);
        buf_putc(out, '\n');
        free(text);
        json_decref(doc);
    } else if (s.alerts) {
        buf_puts(out, "\n#### Alerts\n\n");
        json_array_foreach(json_object_get(alerts, "alerts"), i, al)
        {
            if (alert_counts(al, commit))
                md_alert(out, al);
        }
    }
    if (sum)
        *sum = s;
    return 0;
nomem:
    json_decref(jrows);
    json_decref(jalerts);
    json_decref(doc);
    return -1;
}
