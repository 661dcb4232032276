/* bench_detect: how often each regression detector cries wolf, and how soon
 * it sees a real step (SPEC §17), on series with realistic noise.
 *
 * Noise: each run's value is 1 (or 1 + step after the step) times a
 * log-normal factor of coefficient of variation CV, and with probability
 * OUTLIERS it is multiplied again by a factor drawn uniformly from
 * [1.2, 1.5] (a noisy neighbour, a slow node). Two kinds of series:
 *
 *   no change: WARMUP runs of history, then RUNS judged runs of the same
 *              law. Every alarm is false; reported per 1,000 judged runs.
 *   a step:    WARMUP runs, then the law steps up by STEP (10 %) and 20 more
 *              runs follow. Reported: the share of series where an alarm
 *              came within the first 5 runs after the step (recall), the
 *              median delay to it in runs (1 = the step's first run), and
 *              the share of series with an alarm before the step.
 *
 * The detectors are those a watch can have (models/detect.h): each new run
 * judged against the window of the 20 runs before it with zscore, ttest,
 * percent and iqr at their default thresholds, alone and with confirmation
 * (an alarm only when K more runs in a row are out as well, SPEC §17
 * "confirm": K); binary segmentation over the whole history so far
 * (detect_changepoints: an alarm when a change point appears within the
 * newest runs that was not there before); and the changepoint watch's rank
 * tests of the newest runs (models/changes.h, default threshold 0.001),
 * both as replayed with the history's state and as the changepoint watch
 * asks (changes_watch over the latest runs it reads, with its cache).
 *
 * Deterministic (GSL's mt19937, seed 1): two runs print the same table.
 * Usage: bench_detect [--series N] [--runs N] [--cv PCT] [--outliers PCT]
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/changes.h"
#include "models/detect.h"

#define WINDOW 20
#define WARMUP 40
#define AFTER 20
#define WITHIN 5
#define STEP 0.10
#define MAXLEN 4096

struct noise {
    double cv, outliers;
};

static double draw(gsl_rng *r, const struct noise *nz, double level)
{
    double s = sqrt(log(1 + nz->cv * nz->cv));
    double v = level * exp(gsl_ran_gaussian(r, s) - s * s / 2);
    if (gsl_rng_uniform(r) < nz->outliers)
        v *= 1.2 + 0.3 * gsl_rng_uniform(r);
    return v;
}

/* A detector: judges y[i] given y[0..i) and returns 1 for an alarm at i. */
struct detector {
    const char *name;
    enum detect_test test; /* statistical watches */
    int confirm;           /* K: alarm when runs i-K..i are all out */
    int changepoint;       /* 1: binary segmentation over the whole history;
                              2: rank tests of the newest runs (changes.h);
                              3: the changepoint watch as configured by
                              default (changes_watch, core/watch.c) */
    int out[MAXLEN];       /* per-series state: was run i out? */
    size_t known;          /* change points found before this run */
};

static struct changes_cache *watch_cache;

static int judge(struct detector *d, const double *y, size_t i)
{
    if (d->changepoint == 3) {
        /* what the watch does: its window of the runs before (the latest
         * changes_watch_runs), the new run last, its cache as the watch
         * set keeps one */
        struct changes_opts o = {0};
        struct changes_point cp;
        return changes_watch(y, i + 1, &o, watch_cache, &cp, NULL) == 1;
    }
    if (d->changepoint == 2) {
        struct changes_opts o = {0};
        struct changes_point cp;
        if (changes_newest(y, i + 1, d->known, &o, &cp, NULL) != 1)
            return 0;
        d->known = cp.at;
        return 1;
    }
    if (d->changepoint) {
        size_t cps[64];
        int n = detect_changepoints(y, i + 1, 0, cps, 64, NULL), alarm = 0, k;
        if (n < 0)
            return 0;
        /* a change point among the newest WITHIN runs that is new */
        for (k = 0; k < n; k++)
            if (cps[k] + WITHIN > i)
                alarm = 1;
        alarm = alarm && (size_t)n > d->known;
        d->known = (size_t)n;
        return alarm;
    } else {
        struct detect_verdict v;
        int k;
        if (i < WINDOW)
            return 0;
        if (detect_judge(d->test, detect_default_threshold(d->test), y + i - WINDOW,
                         WINDOW, y[i], &v, NULL) != 0)
            return 0;
        d->out[i] = v.out;
        if (!v.out || i < (size_t)d->confirm)
            return 0;
        for (k = 1; k <= d->confirm; k++)
            if (!d->out[i - (size_t)k])
                return 0;
        /* an alarm once per confirmed run of outs: not again on the next */
        return i == (size_t)d->confirm || !d->out[i - (size_t)d->confirm - 1];
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

struct outcome {
    double false_per_1000; /* alarms per 1,000 judged runs of no-change series */
    double recall;         /* share of step series alarmed within WITHIN runs */
    int median_delay;      /* runs after the step to the first alarm, 0: none */
    double early;          /* share of step series alarmed before the step */
};

static void reset(struct detector *d)
{
    memset(d->out, 0, sizeof d->out);
    d->known = 0;
}

static int run(struct detector *d, gsl_rng *rng, const struct noise *nz, int nseries,
               int runs, struct outcome *o)
{
    static double y[MAXLEN];
    int *delays = malloc((size_t)nseries * sizeof *delays);
    long false_alarms = 0, judged = 0;
    int found = 0, early = 0, ndelay = 0, s;
    size_t i;

    if (delays == NULL)
        return -1;
    for (s = 0; s < nseries; s++) {
        reset(d);
        for (i = 0; i < (size_t)(WARMUP + runs); i++) {
            int alarm;
            y[i] = draw(rng, nz, 1.0);
            alarm = judge(d, y, i);
            if (i >= WARMUP) {
                judged++;
                false_alarms += alarm;
            }
        }
    }
    for (s = 0; s < nseries; s++) {
        int alarm_before = 0, delay = 0;
        reset(d);
        for (i = 0; i < WARMUP + AFTER; i++) {
            y[i] = draw(rng, nz, i < WARMUP ? 1.0 : 1.0 + STEP);
            if (judge(d, y, i)) {
                if (i < WARMUP)
                    alarm_before = 1;
                else if (delay == 0)
                    delay = (int)(i - WARMUP) + 1;
            }
        }
        early += alarm_before;
        if (!alarm_before && delay > 0 && delay <= WITHIN)
            found++;
        if (delay > 0)
            delays[ndelay++] = delay;
    }
    qsort(delays, (size_t)ndelay, sizeof *delays, cmp_int);
    o->false_per_1000 = 1000.0 * (double)false_alarms / (double)judged;
    o->recall = (double)found / nseries;
    o->median_delay = ndelay > nseries / 2 ? delays[nseries / 2] : 0;
    o->early = (double)early / nseries;
    free(delays);
    return 0;
}

/* A whole positive number from text, or -1. */
static long count_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && *end == '\0' && v > 0 && v <= 1000000 ? v : -1;
}

int main(int argc, char **argv)
{
    struct noise nz = {0.02, 0.02};
    long nseries = 200, runs = 1000;
    int i;
    size_t k;
    gsl_rng *rng;
    static struct detector dets[] = {
        {"zscore 3", DETECT_ZSCORE, 0, 0, {0}, 0},
        {"zscore 3, confirm 2", DETECT_ZSCORE, 2, 0, {0}, 0},
        {"ttest 0.05", DETECT_TTEST, 0, 0, {0}, 0},
        {"ttest 0.05, confirm 2", DETECT_TTEST, 2, 0, {0}, 0},
        {"percent 10", DETECT_PERCENT, 0, 0, {0}, 0},
        {"percent 10, confirm 2", DETECT_PERCENT, 2, 0, {0}, 0},
        {"iqr 1.5", DETECT_IQR, 0, 0, {0}, 0},
        {"iqr 1.5, confirm 2", DETECT_IQR, 2, 0, {0}, 0},
        {"binary segmentation (history)", DETECT_ZSCORE, 0, 1, {0}, 0},
        {"changepoint 0.001 (ranks)", DETECT_ZSCORE, 0, 2, {0}, 0},
        {"changepoint watch, as configured by default", DETECT_ZSCORE, 0, 3, {0}, 0},
    };
    struct changes_opts defaults = {0};

    for (i = 1; i < argc; i++) {
        char *end = NULL;
        if (i + 1 < argc && strcmp(argv[i], "--series") == 0)
            nseries = count_arg(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--runs") == 0)
            runs = count_arg(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--cv") == 0)
            nz.cv = strtod(argv[++i], &end) / 100;
        else if (i + 1 < argc && strcmp(argv[i], "--outliers") == 0)
            nz.outliers = strtod(argv[++i], &end) / 100;
        else
            nseries = -1;
        if (nseries < 0 || runs < 0 || runs + WARMUP > MAXLEN || (end && *end) ||
            !(nz.cv >= 0 && nz.cv < 1) || !(nz.outliers >= 0 && nz.outliers <= 1)) {
            fprintf(stderr,
                    "usage: bench_detect [--series N] [--runs N (<= %d)] "
                    "[--cv PCT] [--outliers PCT]\n",
                    MAXLEN - WARMUP);
            return 64;
        }
    }
    gsl_set_error_handler_off();
    watch_cache = changes_cache_new(&defaults);
    if (watch_cache == NULL)
        return 1;
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (rng == NULL)
        return 1;
    gsl_rng_set(rng, 1);
    printf("noise: log-normal, CV %.1f %%; outliers %.1f %% of runs at x1.2-1.5\n",
           100 * nz.cv, 100 * nz.outliers);
    printf("no change: %ld series of %d + %ld runs; a step of +%.0f %%: %ld series "
           "of %d + %d runs; window %d\n\n",
           nseries, WARMUP, runs, 100 * STEP, nseries, WARMUP, AFTER, WINDOW);
    printf("| detector | false alarms per 1,000 runs | step caught within %d runs | "
           "median delay (runs) | alarmed before the step |\n",
           WITHIN);
    printf("| --- | --- | --- | --- | --- |\n");
    for (k = 0; k < sizeof dets / sizeof dets[0]; k++) {
        struct outcome o;
        if (run(&dets[k], rng, &nz, (int)nseries, (int)runs, &o) != 0) {
            fprintf(stderr, "bench_detect: out of memory\n");
            gsl_rng_free(rng);
            return 1;
        }
        if (o.median_delay > 0)
            printf("| %s | %.2f | %.1f %% | %d | %.1f %% |\n", dets[k].name,
                   o.false_per_1000, 100 * o.recall, o.median_delay, 100 * o.early);
        else
            printf("| %s | %.2f | %.1f %% | none in half | %.1f %% |\n", dets[k].name,
                   o.false_per_1000, 100 * o.recall, 100 * o.early);
        fflush(stdout);
    }
    gsl_rng_free(rng);
    changes_cache_free(watch_cache);
    return 0;
}
