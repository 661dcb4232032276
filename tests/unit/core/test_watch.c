/* Unit tests for core/watch and core/history: the stored hook judges each
 * new run against the watches covering it inside the storing transaction
 * (exact windows, bands and alerts; a rolled-back batch leaves no
 * judgement), series come in time order, and compare's numbers are the
 * hand-computed means, spreads, ratios and Welch verdicts. */
#include "common/buf.h"
#include "core/history.h"
#include "core/ingest.h"
#include "core/alerts.h"
#include "core/watch.h"
#include "db/history.h"
#include "models/detect.h"
#include "tests/harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-watchtest-XXXXXX";

static const char *path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

/* Stores one run of app "a" on "s" at P processors. */
static long long put(db *d, long long p, double runtime, const char *at,
                     const char *commit, size_t *nalerts)
{
    struct err e = {0};
    arena *a = arena_new();
    struct run_record r;
    struct ingest in;
    long long id = -1;

    memset(&r, 0, sizeof r);
    r.application = "a";
    r.executable = "x";
    r.system = "s";
    r.nprocs = p;
    r.runtime = runtime;
    r.started_at = at;
    r.commit = commit;
    if (ingest_records(&in, &r, 1, "t", a, &e) == 0 && ingest_commit(d, &in, &e) == 0) {
        id = in.ids[0];
        if (nalerts)
            *nalerts = in.nalerts;
    }
    arena_free(a);
    return id;
}

static long long watch(db *d, const char *json)
{
    struct err e = {0};
    json_t *body = json_loads(json, 0, NULL);
    long long id = 0;
    CHECK_INT(watch_check(body, &e), 0);
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(watch_create(d, body, &id, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    json_decref(body);
    return id;
}

/* history_series_text writes the bytes the API wrote for history_series
 * (json_dumps, compact, 16 digits), or fails as it does. */
static void check_series_text(db *d, json_t *q)
{
    struct err e1 = {0}, e2 = {0};
    struct buf b;
    json_t *v = history_series(d, q, &e1);
    char *want = v ? json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(16)) : NULL;
    buf_init(&b, 1 << 24);
    CHECK_INT(history_series_text(d, q, &b, &e2), v ? 0 : -1);
    if (v != NULL)
        CHECK_STR(buf_str(&b), want);
    else {
        CHECK_INT(e2.status, e1.status);
        CHECK_STR(e2.message, e1.message);
    }
    free(want);
    json_decref(v);
    buf_free(&b);
}

static void test_zscore_window_and_alert(void)
{
    struct err e = {0};
    size_t na = 9;
    json_t *alerts, *al;
    db *d;

    CHECK_INT(db_open(&d, path("z.db"), NULL, &e), 0);
    watch_install();
    put(d, 4, 10.0, "2026-01-01T00:00:00Z", NULL, NULL);
    put(d, 4, 12.0, "2026-01-02T00:00:00Z", NULL, NULL);
    put(d, 8, 99.0, "2026-01-02T00:00:00Z", NULL, NULL); /* another configuration */
    watch(d, "{\"application\": \"a\", \"system\": \"s\", \"detector\": {\"test\": "
             "\"zscore\", \"threshold\": 2, \"window\": 3}}");
    /* window {10, 12}: mean 11, sd sqrt(2); band 11 +- 2*sqrt(2) */
    put(d, 4, 13.0, "2026-01-03T00:00:00Z", NULL, &na);
    CHECK_INT(na, 0);
    /* window {10, 12, 13} (the last 3 before it): mean 35/3, sd 1.5275 */
    put(d, 4, 20.0, "2026-01-04T00:00:00Z", "c9", &na);
    CHECK_INT(na, 1);
    /* a run stored later but dated earlier is judged against the runs before
     * it in time: window {} for P = 4 on 2025-12-31 -> not ready, not out */
    put(d, 4, 500.0, "2025-12-31T00:00:00Z", NULL, &na);
    CHECK_INT(na, 0);
    alerts = alert_list(d, "open", 0, &e);
    CHECK(alerts != NULL);
    CHECK_INT(json_array_size(alerts), 1);
    al = json_array_get(alerts, 0);
    CHECK_NEAR(json_number_value(json_object_get(al, "expected")), 35.0 / 3, 1e-12);
    CHECK_NEAR(json_number_value(json_object_get(al, "hi")),
               35.0 / 3 + 2 * sqrt((1.0 / 9 + 16.0 / 9 + 25.0 / 9) / 2), 1e-9);
    CHECK_STR(json_string_value(json_object_get(al, "commit")), "c9");
    CHECK_STR(json_string_value(json_object_get(al, "direction")), "up");
    json_decref(alerts);
    {
        /* the series with its judgements, an alert and null commits, and
         * the errors, as text */
        json_t *q = json_pack("{s:s, s:s, s:s, s:s}", "application", "a", "system", "s",
                              "nprocs", "4", "y", "runtime");
        put(d, 4, 0.1 + 0.2, "2026-01-05T00:00:00Z", "tab\t\"q\" é", NULL);
        put(d, 4, 1e-9, "2026-01-06T00:00:00Z", "c", NULL);
        check_series_text(d, q);
        json_object_set_new(q, "nprocs", json_string("3"));
        check_series_text(d, q); /* 404 */
        json_object_del(q, "nprocs");
        check_series_text(d, q); /* 422 ambiguous */
        json_object_set_new(q, "nprocs", json_string("8"));
        json_object_set_new(q, "y", json_string("kernel:none"));
        check_series_text(d, q); /* no points */
        json_decref(q);
    }
    db_close(d);
}

/* Watches that share a window's statistic (same test, y and window) or a
 * whole question (the threshold too) each get the band of their own
 * threshold and window: every judgement equals detect_judge on its own
 * window. */
static void test_shared_statistics(void)
{
    static const char *const w[] = {
        "\"zscore\", \"threshold\": 2, \"window\": 3",
        "\"zscore\", \"threshold\": 1, \"window\": 3", /* W1's statistic */
        "\"zscore\", \"threshold\": 2, \"window\": 2", /* another window */
        "\"zscore\", \"threshold\": 2, \"window\": 4",
        "\"iqr\", \"threshold\": 1.5, \"window\": 4",  /* another test, same window */
        "\"zscore\", \"threshold\": 2, \"window\": 3", /* W1's question */
        "\"ttest\", \"threshold\": 0.2, \"window\": 3",
        "\"ttest\", \"threshold\": 0.01, \"window\": 3",
    };
    static const enum detect_test test[] = {DETECT_ZSCORE, DETECT_ZSCORE, DETECT_ZSCORE,
                                            DETECT_ZSCORE, DETECT_IQR,    DETECT_ZSCORE,
                                            DETECT_TTEST,  DETECT_TTEST};
    static const double thr[] = {2, 1, 2, 2, 1.5, 2, 0.2, 0.01};
    static const size_t win[] = {3, 3, 2, 4, 4, 3, 3, 3};
    const double hist[] = {11, 13, 12, 10}; /* newest first */
    struct err e = {0};
    json_t *by_run, *cover = NULL, *list;
    long long id;
    char key[32];
    db *d;

    CHECK_INT(db_open(&d, path("shared.db"), NULL, &e), 0);
    watch_install();
    put(d, 4, 10.0, "2026-01-01T00:00:00Z", NULL, NULL);
    put(d, 4, 12.0, "2026-01-02T00:00:00Z", NULL, NULL);
    put(d, 4, 13.0, "2026-01-03T00:00:00Z", NULL, NULL);
    put(d, 4, 11.0, "2026-01-04T00:00:00Z", NULL, NULL);
    for (size_t k = 0; k < sizeof w / sizeof *w; k++) {
        char body[256];
        snprintf(
            body, sizeof body,
            "{\"application\": \"a\", \"system\": \"s\", \"detector\": {\"test\": %s}}",
            w[k]);
        watch(d, body);
    }
    id = put(d, 4, 14.0, "2026-01-05T00:00:00Z", NULL, NULL);
    by_run = db_history_judgements(d, 1, &cover, &e);
    CHECK(by_run != NULL);
    snprintf(key, sizeof key, "%lld", id);
    list = json_object_get(by_run, key);
    CHECK_INT((long long)json_array_size(list), (long long)(sizeof w / sizeof *w));
    for (size_t k = 0; k < json_array_size(list); k++) {
        json_t *j = json_array_get(list, k);
        struct detect_verdict v;
        CHECK_INT(detect_judge(test[k], thr[k], hist, win[k], 14.0, &v, &e), 0);
        CHECK_NEAR(json_number_value(json_object_get(j, "lo")), v.lo, 1e-12);
        CHECK_NEAR(json_number_value(json_object_get(j, "hi")), v.hi, 1e-12);
        CHECK_NEAR(json_number_value(json_object_get(j, "expected")), v.expected, 1e-12);
        CHECK_INT(json_integer_value(json_object_get(j, "out")), v.out);
    }
    json_decref(by_run);
    json_decref(cover);
    db_close(d);
}

static int fail_after(db *d, struct ingest *in, void *arg, struct err *err)
{
    (void)arg;
    if (watch_judge(d, in, NULL, err) != 0)
        return -1;
    return err_set(err, ERR_INTERNAL, "internal", NULL, "injected after judging");
}

/* A field of the first watch as GET /api/v1/watches lists it. */
static long long first_watch(db *d, const char *field)
{
    struct err e = {0};
    json_t *w = watch_list(d, &e);
    long long v = json_integer_value(
        json_object_get(json_array_get(json_object_get(w, "watches"), 0), field));
    json_decref(w);
    return v;
}

static void test_rollback_keeps_no_judgement(void)
{
    struct err e = {0};
    struct ingest_hooks h = {fail_after, NULL, NULL, NULL, NULL};
    db *d;

    CHECK_INT(db_open(&d, path("r.db"), NULL, &e), 0);
    watch_install();
    put(d, 4, 1.0, "2026-01-01T00:00:00Z", NULL, NULL);
    watch(d, "{\"application\": \"a\", \"system\": \"s\", \"detector\": {\"test\": "
             "\"percent\"}}");
    ingest_set_hooks(&h);
    CHECK_INT(put(d, 4, 5.0, "2026-01-02T00:00:00Z", NULL, NULL), -1);
    watch_install();
    CHECK_INT(first_watch(d, "judged"), 0);
    json_decref(alert_list(d, NULL, 0, &e));
    put(d, 4, 5.0, "2026-01-02T00:00:00Z", NULL, NULL);
    CHECK_INT(first_watch(d, "out"), 1);
    db_close(d);
}

/* The writer stores many uploads and other jobs in one transaction, and the
 * hook reads the watches' version once per transaction: a watch made by a
 * job of the transaction still judges the runs stored after it there. */
static void test_watch_made_mid_transaction_judges_later_runs(void)
{
    struct err e = {0};
    arena *a = arena_new();
    struct run_record r;
    struct ingest in;
    json_t *body;
    long long id = 0;
    db *d;

    CHECK_INT(db_open(&d, path("m.db"), NULL, &e), 0);
    watch_install();
    memset(&r, 0, sizeof r);
    r.application = "a";
    r.executable = "x";
    r.system = "s";
    r.nprocs = 4;
    r.runtime = 1.0;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(ingest_records(&in, &r, 1, "t", a, &e), 0);
    CHECK_INT(ingest_store(d, &in, &e), 0); /* reads the version: no watch */
    body = json_loads("{\"application\": \"a\", \"system\": \"s\", \"detector\": "
                      "{\"test\": \"percent\"}}",
                      0, NULL);
    CHECK_INT(watch_check(body, &e), 0);
    CHECK_INT(watch_create(d, body, &id, &e), 0);
    json_decref(body);
    r.runtime = 1.1;
    CHECK_INT(ingest_records(&in, &r, 1, "t", a, &e), 0);
    CHECK_INT(ingest_store(d, &in, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(first_watch(d, "judged"), 1);
    arena_free(a);
    db_close(d);
}

static void test_series_and_compare(void)
{
    struct err e = {0};
    json_t *q, *v, *rows, *sides;
    db *d;

    CHECK_INT(db_open(&d, path("c.db"), NULL, &e), 0);
    ingest_set_hooks(NULL);
    put(d, 2, 3.0, "2026-01-03T00:00:00Z", "new", NULL);
    put(d, 2, 1.0, "2026-01-01T00:00:00Z", "old", NULL);
    put(d, 2, 2.0, "2026-01-02T00:00:00Z", "old", NULL);
    put(d, 2, 5.0, "2026-01-04T00:00:00Z", "new", NULL);
    q = json_pack("{s:s, s:s, s:s}", "application", "a", "system", "s", "y", "runtime");
    v = history_series(d, q, &e);
    CHECK(v != NULL);
    CHECK_INT(json_array_size(json_object_get(v, "points")), 4);
    CHECK_NEAR(json_real_value(json_object_get(
                   json_array_get(json_object_get(v, "points"), 0), "value")),
               1.0, 0);
    CHECK_STR(json_string_value(json_object_get(
                  json_array_get(json_object_get(v, "points"), 3), "commit")),
              "new");
    json_decref(v);
    json_decref(q);

    q = json_pack("{s:s, s:s, s:s}", "application", "a", "a", "commit:old", "b",
                  "commit:new");
    v = history_compare(d, q, &e);
    CHECK(v != NULL);
    rows = json_object_get(v, "rows");
    CHECK_INT(json_array_size(rows), 1);
    sides = json_object_get(json_array_get(rows, 0), "sides");
    /* old {1, 2}: mean 1.5, sd 0.7071; new {3, 5}: mean 4, sd 1.4142 */
    CHECK_NEAR(json_real_value(json_object_get(json_array_get(sides, 0), "mean")), 1.5,
               1e-12);
    CHECK_NEAR(json_real_value(json_object_get(json_array_get(sides, 0), "spread")),
               sqrt(0.5), 1e-12);
    CHECK_NEAR(json_real_value(json_object_get(json_array_get(sides, 1), "spread")),
               sqrt(2.0), 1e-12);
    CHECK_NEAR(json_real_value(json_object_get(json_array_get(sides, 1), "ratio")),
               4.0 / 1.5, 1e-12);
    /* Welch: t = 2.5 / sqrt(0.25 + 1) = 2.236, df = 1.47: p ~ 0.2, not significant */
    CHECK(json_is_false(json_object_get(json_array_get(sides, 1), "significant")));
    json_decref(v);
    json_decref(q);
    db_close(d);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_zscore_window_and_alert);
    RUN(test_shared_statistics);
    RUN(test_rollback_keeps_no_judgement);
    RUN(test_watch_made_mid_transaction_judges_later_runs);
    RUN(test_series_and_compare);
    return harness_report_removing(dir);
}
