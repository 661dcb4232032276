/* Unit tests of models/changes: the exact Mann-Whitney p values counted by
 * hand, and change points on series whose shifts are placed by construction
 * (with outliers that must not count as shifts). */
#include "models/changes.h"
#include "tests/harness.h"

#include <math.h>

/* The U distributions below are counted by listing the placements: for m = 2
 * after values among 4 (k = 2), U = 0, 1, 2, 2, 3, 4 (6 placements); for m =
 * k = 3, the 20 placements give U = 0..9 with counts 1 1 2 3 3 3 3 2 1 1. */
static void test_mw_p(void)
{
    CHECK_NEAR(changes_mw_p(4, 2, 2), 2.0 / 6, 1e-15);
    CHECK_NEAR(changes_mw_p(0, 2, 2), 2.0 / 6, 1e-15);
    CHECK_NEAR(changes_mw_p(3, 2, 2), 2.0 * 2 / 6, 1e-15);
    CHECK_NEAR(changes_mw_p(2, 2, 2), 1, 1e-15);
    CHECK_NEAR(changes_mw_p(9, 3, 3), 2.0 / 20, 1e-15);
    CHECK_NEAR(changes_mw_p(8, 3, 3), 2.0 * 2 / 20, 1e-15);
    CHECK_NEAR(changes_mw_p(7, 3, 3), 2.0 * 4 / 20, 1e-15);
    /* a tie makes a half: 8.5 counts as 8 (the conservative side) */
    CHECK_NEAR(changes_mw_p(8.5, 3, 3), 2.0 * 2 / 20, 1e-15);
    /* every one of 3 above all of 50: 1 placement of C(53, 3) = 23,426 */
    CHECK_NEAR(changes_mw_p(150, 3, 50), 2.0 / 23426, 1e-18);
    /* 8 above all of 200: C(208, 8) = 75,824,205,888,366 (exact in a double) */
    CHECK_NEAR(changes_mw_p(1600, 8, 200), 2.0 / 75824205888366.0, 1e-28);
    CHECK_NEAR(changes_mw_p(0, 0, 5), 1, 0);
    CHECK_NEAR(changes_mw_p(0, 3, 0), 1, 0);
}

/* 1 +- 0.5 %, alternating, so that no two values tie and the noise is known. */
static void flat(double *y, size_t from, size_t to, double level)
{
    size_t i;
    for (i = from; i < to; i++)
        y[i] = level * (1 + 0.005 * ((i % 2) ? 1 : -1) * (1 + 0.01 * (double)(i % 7)));
}

static void test_step(void)
{
    double y[60];
    struct changes_opts o = {0};
    struct changes_point cp[4];
    struct err e = {0};
    double before = 0, after = 0;
    size_t i;

    /* 15 % up after 20 runs: every one of the first 4 new runs is above all
     * 20 before them, p = 2 / C(24, 4) = 1 / 5313, over its share of the
     * significance (1/4: sizes 3, 4, 5 share 3/4 and 6, 7, 8 the rest) =
     * 7.5e-4 < 0.001; with 3 new runs 2 / C(23, 3) * 4 = 4.5e-3 is not
     * enough. So it is found with the 24th run (index 23), at 20. */
    flat(y, 0, 20, 1.0);
    flat(y, 20, 40, 1.15);
    CHECK_INT(changes_scan(y, 40, &o, cp, 4, &e), 1);
    CHECK_INT(cp[0].at, 20);
    CHECK_INT(cp[0].found, 23);
    CHECK_NEAR(cp[0].p, 4.0 * 2 / 10626, 1e-15);
    for (i = 0; i < 20; i++)
        before += y[i] / 20;
    for (i = 20; i < 40; i++)
        after += y[i] / 20;
    CHECK_NEAR(cp[0].before, before, 1e-12);
    CHECK_NEAR(cp[0].after, after, 1e-12);

    /* the same step down is found the same way (two-sided) */
    flat(y, 0, 20, 1.15);
    flat(y, 20, 40, 1.0);
    CHECK_INT(changes_scan(y, 40, &o, cp, 4, &e), 1);
    CHECK_INT(cp[0].at, 20);

    /* two steps, the second tested only against the runs after the first */
    flat(y, 0, 20, 1.0);
    flat(y, 20, 40, 1.15);
    flat(y, 40, 60, 1.0);
    CHECK_INT(changes_scan(y, 60, &o, cp, 4, &e), 2);
    CHECK_INT(cp[0].at, 20);
    CHECK_INT(cp[1].at, 40);
    CHECK_NEAR(cp[0].after, after, 1e-12); /* runs 20..39 only */

    /* changes_newest asks the same of the newest run alone */
    flat(y, 0, 20, 1.0);
    flat(y, 20, 40, 1.15);
    CHECK_INT(changes_newest(y, 23, 0, &o, cp, &e), 0);
    CHECK_INT(changes_newest(y, 24, 0, &o, cp, &e), 1);
    CHECK_INT(cp[0].at, 20);
    /* once it is known, the runs after it are not a change again */
    CHECK_INT(changes_newest(y, 25, 20, &o, cp, &e), 0);
}

static void test_outliers_and_flat(void)
{
    double y[80];
    struct changes_opts o = {0};
    struct changes_point cp[4];
    struct err e = {0};
    size_t i;

    /* outliers alone, even two in a row, are not a change of law */
    flat(y, 0, 80, 1.0);
    y[30] *= 1.5;
    y[50] *= 1.3;
    y[51] *= 1.4;
    y[79] *= 1.5;
    CHECK_INT(changes_scan(y, 80, &o, cp, 4, &e), 0);
    /* identical values: every pair ties, U = m k / 2, p = 1 */
    for (i = 0; i < 80; i++)
        y[i] = 2.5;
    CHECK_INT(changes_scan(y, 80, &o, cp, 4, &e), 0);
    /* a step behind an outlier before it is still found, later: with the
     * outlier above the new runs, U = 19 m of 20 m, and the placements at
     * least that far number 12, 19, 30, 45, 67 for m = 4..8 (partitions of
     * up to m into at most m parts). Only m = 8 gets below: 2 * 67 / C(28, 8)
     * * 12 = 5.2e-4 (m = 7: 2 * 45 / C(27, 7) * 12 = 1.2e-3). */
    flat(y, 0, 20, 1.0);
    flat(y, 20, 40, 1.15);
    y[10] = 1.4;
    CHECK_INT(changes_scan(y, 40, &o, cp, 4, &e), 1);
    CHECK_INT(cp[0].at, 20);
    CHECK_INT(cp[0].found, 27);
    CHECK_NEAR(cp[0].p, 12.0 * 2 * 67 / 3108105, 1e-15);
}

static void test_errors(void)
{
    double y[30];
    struct changes_opts o = {0};
    struct changes_point cp[2];
    struct err e = {0};

    flat(y, 0, 30, 1.0);
    y[12] = NAN;
    CHECK_INT(changes_scan(y, 30, &o, cp, 2, &e), -1);
    CHECK_INT(e.status, 422);
    CHECK_STR(e.message, "value 12 of the series is not finite");
    e = (struct err){0};
    o.threshold = 1.5;
    CHECK_INT(changes_check(&o, "threshold", &e), -1);
    CHECK_STR(e.field, "threshold");
    e = (struct err){0};
    o = (struct changes_opts){.window = 500};
    CHECK_INT(changes_check(&o, "window", &e), -1);
    CHECK_INT(e.status, 422);
    o = (struct changes_opts){0};
    CHECK_INT(changes_check(&o, NULL, NULL), 0);
    CHECK_NEAR(o.threshold, 0.001, 0);
    CHECK_INT(o.window, 50);
    CHECK_INT(o.min_before, 10);
    CHECK_INT(o.min_after, 3);
    CHECK_INT(o.max_after, 8);
}

/* The watch, judging run after run from the window it reads, raises an
 * alert exactly where the whole-history scan finds each change point (steps
 * 70 runs apart, so every window reaches back past the change it saw), and
 * with a cache as without one. */
static void test_watch_agrees_with_scan(void)
{
    struct changes_opts o = {0};
    struct changes_point cp[16], w;
    struct changes_cache *c = changes_cache_new(&o);
    double y[300];
    struct err e = {0};
    size_t i, k = 0;
    int n;

    CHECK(c != NULL);
    CHECK_INT(changes_watch_runs(&o), 68);
    for (i = 0; i < 300; i++)
        y[i] = (1 + 0.1 * (double)(i / 70 % 2) + 0.2 * (double)(i / 140)) *
               (1 + 0.02 * sin((double)i * 1.7));
    n = changes_scan(y, 300, &o, cp, 16, &e);
    CHECK_INT(n, 4);
    for (i = 1; i <= 300; i++) {
        int got = changes_watch(y, i, &o, c, &w, &e), bare;
        struct changes_point w2;
        bare = changes_watch(y, i, &o, NULL, &w2, &e);
        CHECK_INT(got, bare);
        if (k < (size_t)n && cp[k].found == i - 1) {
            CHECK_INT(got, 1);
            CHECK_INT(w.at, cp[k].at);
            CHECK_NEAR(w.p, cp[k].p, 0);
            CHECK_NEAR(w2.p, w.p, 0);
            k++;
        } else {
            CHECK_INT(got, 0);
        }
    }
    CHECK_INT(k, 4);
    changes_cache_free(c);
}

/* The culprit is the first run of the new law even when the last run of
 * the old one is the highest of its window: taking that run into the newer
 * side makes the rank test stronger still (5 newest above all 19 before
 * them, p = 2 / C(24, 5), against 4 above 20, 2 / C(24, 4)), and the shift
 * was placed one run early, naming the last good commit as the culprit. */
static void test_culprit_after_high_last_good(void)
{
    double y[40];
    struct changes_opts o = {0};
    struct changes_point cp[4], w;
    struct err e = {0};
    size_t i;

    flat(y, 0, 20, 1.0);
    y[19] = 1.01; /* the highest of the 20 before the step, well below it */
    flat(y, 20, 40, 1.15);
    CHECK_INT(changes_scan(y, 40, &o, cp, 4, &e), 1);
    CHECK_INT(cp[0].at, 20);
    CHECK(cp[0].found >= 22 && cp[0].found <= 23);
    /* the watch names the same run, judging run after run */
    for (i = 1; i <= 40; i++)
        if (changes_watch(y, i, &o, NULL, &w, &e) == 1)
            break;
    CHECK_INT(i - 1, cp[0].found);
    CHECK_INT(w.at, 20);
    /* and a step down after a lowest last good run */
    flat(y, 0, 20, 1.15);
    y[19] = 1.14;
    flat(y, 20, 40, 1.0);
    CHECK_INT(changes_scan(y, 40, &o, cp, 4, &e), 1);
    CHECK_INT(cp[0].at, 20);
    CHECK_INT(e.status, 0);
}

int main(void)
{
    RUN(test_mw_p);
    RUN(test_step);
    RUN(test_outliers_and_flat);
    RUN(test_errors);
    RUN(test_watch_agrees_with_scan);
    RUN(test_culprit_after_high_last_good);
    return harness_report();
}
