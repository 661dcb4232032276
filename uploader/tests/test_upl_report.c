/* test_upl_report: the pull-request summary of `prophecy-upload report`,
 * rendered from captured answers of GET /api/v1/compare and /api/v1/alerts
 * (SPEC §11 shapes): exact markdown, verdicts, alert matching by commit and
 * configuration, escaping of names, and the JSON form. */
#include "uploader/upl_report.h"

#include "tests/harness.h"

#include <stdlib.h>
#include <string.h>

/* Two configurations of one application: the run time of 8 procs got 10 %
 * slower (significant), a kernel of 16 procs is within noise, a metric with
 * single runs is not tested, and a configuration only the commit has. */
static const char compare_json[] =
    "{\"sides\": [\"branch:main\", \"commit:abc123\"], \"rows\": ["
    "{\"configuration\": {\"application\": \"matmul\", \"executable\": \"mm_gcc\","
    " \"system\": \"c1\", \"nprocs\": 8, \"inputs\": {\"N\": 1000}},"
    " \"kernel\": null, \"metric\": \"runtime\","
    " \"sides\": [{\"mean\": 2.0, \"n\": 5, \"spread\": 0.01},"
    "             {\"mean\": 2.2, \"n\": 3, \"spread\": 0.02, \"ratio\": 1.1,"
    "              \"significant\": true}]},"
    "{\"configuration\": {\"application\": \"matmul\", \"executable\": \"mm_gcc\","
    " \"system\": \"c1\", \"nprocs\": 16, \"inputs\": {\"N\": 1000}},"
    " \"kernel\": \"dgemm\", \"metric\": \"runtime\","
    " \"sides\": [{\"mean\": 1.0, \"n\": 4}, {\"mean\": 0.98, \"n\": 4}],"
    " \"ratio\": [1, 0.98], \"significant\": [null, false]},"
    "{\"configuration\": {\"application\": \"matmul\", \"executable\": \"mm_gcc\","
    " \"system\": \"c1\", \"nprocs\": 16, \"inputs\": {\"N\": 1000}},"
    " \"kernel\": null, \"metric\": \"gflops\","
    " \"sides\": [{\"mean\": 100, \"n\": 1}, {\"mean\": 120, \"n\": 1}]},"
    "{\"application\": \"matmul\", \"executable\": \"mm|icc\", \"system\": \"c1\","
    " \"nprocs\": 32, \"inputs\": {},"
    " \"metric\": \"runtime\", \"sides\": [{\"n\": 0}, {\"mean\": 0.5, \"n\": 2}]}"
    "]}";

/* One open alert of the commit on the 8-proc run time, one of another commit,
 * one of the commit already triaged as a false positive. */
static const char alerts_json[] =
    "{\"alerts\": ["
    "{\"id\": 7, \"state\": \"open\", \"commit\": \"abc123\", \"run\": \"r1\","
    " \"application\": \"matmul\", \"executable\": \"mm_gcc\", \"system\": \"c1\","
    " \"nprocs\": 8, \"inputs\": {\"N\": 1000}, \"y\": \"runtime\","
    " \"value\": 2.2, \"expected\": 2.0, \"low\": 1.9, \"high\": 2.1},"
    "{\"id\": 8, \"state\": \"open\", \"commit\": \"fff000\", \"application\": "
    "\"matmul\","
    " \"nprocs\": 16, \"y\": \"kernel:dgemm\"},"
    "{\"id\": 9, \"state\": \"false_positive\", \"commit\": \"abc123\","
    " \"application\": \"matmul\", \"nprocs\": 16, \"y\": \"metric:gflops\"}"
    "]}";

static const char want_md[] =
    "### Prophecy: commit abc123 against branch:main\n"
    "\n"
    "**FAIL**: 1 alert raised by this commit.\n"
    "\n"
    "| Configuration | Measure | branch:main | abc123 | Change | Verdict |\n"
    "|---|---|---:|---:|---:|---|\n"
    "| matmul/mm\\_gcc on c1, 8 procs, N=1000 | runtime | 2 s (n=5) | 2.2 s (n=3) | "
    "+10.0 % "
    "| **alert** |\n"
    "| matmul/mm\\_gcc on c1, 16 procs, N=1000 | kernel dgemm | 1 s (n=4) | 980 ms (n=4) "
    "| "
    "-2.0 % | unchanged |\n"
    "| matmul/mm\\_gcc on c1, 16 procs, N=1000 | gflops | 100 (n=1) | 120 (n=1) | +20.0 "
    "% "
    "| not tested |\n"
    "| matmul/mm\\|icc on c1, 32 procs | runtime | - | 500 ms (n=2) | - | new |\n"
    "\n"
    "#### Alerts\n"
    "\n"
    "- alert 7 (open): matmul/mm\\_gcc on c1, 8 procs, N=1000, runtime: 2.2 s, expected "
    "2 s [1.9 s, 2.1 s]\n";

static json_t *load(const char *s)
{
    json_error_t e;
    json_t *j = json_loads(s, 0, &e);
    if (j == NULL)
        fprintf(stderr, "test data: %s (line %d)\n", e.text, e.line);
    return j;
}

static void test_markdown(void)
{
    json_t *c = load(compare_json), *a = load(alerts_json);
    struct upl_report_summary sum;
    struct buf out;

    buf_init(&out, 1 << 20);
    CHECK_INT(
        upl_report_render(c, a, "abc123", "branch:main", UPL_REPORT_MARKDOWN, &out, &sum),
        0);
    CHECK(!buf_failed(&out));
    CHECK_STR(buf_str(&out), want_md);
    CHECK_INT(sum.rows, 4);
    CHECK_INT(sum.alerts, 1);
    CHECK_INT(sum.regressions, 0); /* the one slower row is reported as the alert */
    buf_free(&out);
    json_decref(c);
    json_decref(a);
}

/* Without alerts the significant slowdown is "slower" and the report passes;
 * a faster significant change is "faster", a higher metric "higher". */
static void test_verdicts_without_alerts(void)
{
    json_t *c = load("{\"rows\": ["
                     "{\"application\": \"a\", \"metric\": \"runtime\", \"sides\": "
                     "[{\"mean\": 2, \"n\": 3}, {\"mean\": 3, \"n\": 3}], "
                     "\"significant\": true},"
                     "{\"application\": \"a\", \"kernel\": \"k\", \"sides\": "
                     "[{\"mean\": 4, \"n\": 3}, {\"mean\": 2, \"n\": 3}], "
                     "\"significant\": true},"
                     "{\"application\": \"a\", \"metric\": \"bw\", \"sides\": "
                     "[{\"mean\": 4, \"n\": 3}, {\"mean\": 5, \"n\": 3}], "
                     "\"significant\": true},"
                     "{\"application\": \"a\", \"metric\": \"bw\", \"sides\": "
                     "[{\"mean\": 4, \"n\": 3}, {\"n\": 0}]}]}");
    struct upl_report_summary sum;
    struct buf out;
    json_t *doc, *rows;

    buf_init(&out, 1 << 20);
    CHECK_INT(
        upl_report_render(c, NULL, "c1", "branch:main", UPL_REPORT_JSON, &out, &sum), 0);
    CHECK_INT(sum.regressions, 1);
    CHECK_INT(sum.alerts, 0);
    doc = json_loads(buf_str(&out), 0, NULL);
    CHECK(doc != NULL);
    rows = json_object_get(doc, "configurations");
    CHECK_STR(json_string_value(json_object_get(doc, "verdict")), "pass");
    CHECK_STR(json_string_value(json_object_get(doc, "commit")), "c1");
    CHECK_STR(json_string_value(json_object_get(doc, "against")), "branch:main");
    CHECK_INT(json_array_size(rows), 4);
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 0), "verdict")),
              "slower");
    CHECK_NEAR(json_number_value(json_object_get(json_array_get(rows, 0), "change")), 0.5,
               1e-12);
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 1), "verdict")),
              "faster");
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 1), "kernel")), "k");
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 2), "verdict")),
              "higher");
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 3), "verdict")),
              "missing");
    CHECK(json_is_null(json_object_get(json_array_get(rows, 3), "value")));
    CHECK(json_is_null(json_object_get(json_array_get(rows, 3), "change")));
    CHECK_INT(json_array_size(json_object_get(doc, "alerts")), 0);
    json_decref(doc);
    buf_free(&out);
    json_decref(c);
}

/* The JSON form carries the counted alerts and fails. */
static void test_json_alerts(void)
{
    json_t *c = load(compare_json), *a = load(alerts_json), *doc, *al;
    struct buf out;

    buf_init(&out, 1 << 20);
    CHECK_INT(
        upl_report_render(c, a, "abc123", "branch:main", UPL_REPORT_JSON, &out, NULL), 0);
    doc = json_loads(buf_str(&out), 0, NULL);
    CHECK_STR(json_string_value(json_object_get(doc, "verdict")), "fail");
    al = json_object_get(doc, "alerts");
    CHECK_INT(json_array_size(al), 1);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(al, 0), "id")), 7);
    CHECK(json_is_true(json_object_get(
        json_array_get(json_object_get(doc, "configurations"), 0), "alert")));
    json_decref(doc);
    buf_free(&out);
    json_decref(c);
    json_decref(a);
}

/* The answer exactly as the history API documents it (docs/api.md): the
 * application named once on top, "y" naming the quantity, ratio and
 * significant per side, alerts with lo/hi and an integer run. */
static void test_api_shapes(void)
{
    json_t *c = load(
        "{\"application\": \"matmul\", \"sides\": [\"branch:main\", \"commit:a01b2c3\"],"
        " \"rows\": ["
        "  {\"executable\": \"matmul_sgi\", \"system\": \"SGI\", \"nprocs\": 8,"
        "   \"inputs\": {\"N\": 1000}, \"y\": \"runtime\","
        "   \"sides\": [{\"n\": 4, \"mean\": 12.5, \"spread\": 0.2, \"ratio\": null,"
        "               \"significant\": false},"
        "              {\"n\": 3, \"mean\": 14.9, \"spread\": 0.1, \"ratio\": 1.192,"
        "               \"significant\": true}]},"
        "  {\"executable\": \"matmul_sgi\", \"system\": \"SGI\", \"nprocs\": 8,"
        "   \"inputs\": {\"N\": 1000}, \"y\": \"kernel:multiply\","
        "   \"sides\": [{\"n\": 4, \"mean\": 11.0, \"spread\": 0.2, \"ratio\": null,"
        "               \"significant\": false},"
        "              {\"n\": 3, \"mean\": 9.0, \"spread\": 0.1, \"ratio\": 0.818,"
        "               \"significant\": true}]}]}");
    json_t *a = load("{\"alerts\": [{\"id\": 5, \"state\": \"open\", \"run\": 18,"
                     " \"watch\": 2, \"model\": 3, \"application\": \"matmul\","
                     " \"executable\": \"matmul_sgi\", \"system\": \"SGI\","
                     " \"nprocs\": 8, \"inputs\": {\"N\": 1000}, \"y\": \"runtime\","
                     " \"commit\": \"a01b2c3\", \"value\": 14.9, \"expected\": 12.4,"
                     " \"lo\": 11.9, \"hi\": 12.9, \"direction\": \"up\"},"
                     "{\"id\": 6, \"state\": \"open\", \"application\": \"other\","
                     " \"executable\": \"matmul_sgi\", \"system\": \"SGI\","
                     " \"nprocs\": 8, \"y\": \"kernel:multiply\","
                     " \"commit\": \"a01b2c3\"}]}");
    struct upl_report_summary sum;
    struct buf out;
    json_t *doc, *rows;

    buf_init(&out, 1 << 20);
    CHECK_INT(upl_report_render(c, a, "a01b2c3", "branch:main", UPL_REPORT_MARKDOWN, &out,
                                &sum),
              0);
    CHECK(strstr(buf_str(&out),
                 "| matmul/matmul\\_sgi on SGI, 8 procs, N=1000 | runtime | "
                 "12.5 s (n=4) | 14.9 s (n=3) | +19.2 % | **alert** |\n") != NULL);
    /* the other application's alert on the kernel does not mark this row */
    CHECK(strstr(buf_str(&out),
                 "| matmul/matmul\\_sgi on SGI, 8 procs, N=1000 | kernel "
                 "multiply | 11 s (n=4) | 9 s (n=3) | -18.2 % | faster |\n") != NULL);
    CHECK(strstr(buf_str(&out),
                 "- alert 5 (open): matmul/matmul\\_sgi on SGI, 8 procs, "
                 "N=1000, runtime: 14.9 s, expected 12.4 s [11.9 s, 12.9 s]\n") != NULL);
    CHECK_INT(sum.alerts, 2); /* both alerts are the commit's */
    buf_reset(&out);
    CHECK_INT(
        upl_report_render(c, a, "a01b2c3", "branch:main", UPL_REPORT_JSON, &out, NULL),
        0);
    doc = json_loads(buf_str(&out), 0, NULL);
    rows = json_object_get(doc, "configurations");
    CHECK_STR(
        json_string_value(json_object_get(
            json_object_get(json_array_get(rows, 0), "configuration"), "application")),
        "matmul");
    CHECK(json_object_get(json_object_get(json_array_get(rows, 0), "configuration"),
                          "sides") == NULL);
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 1), "kernel")),
              "multiply");
    CHECK_NEAR(json_number_value(json_object_get(json_array_get(rows, 1), "change")),
               -0.182, 1e-9);
    json_decref(doc);
    buf_free(&out);
    json_decref(c);
    json_decref(a);
}

/* Names from the server cannot inject markup into the comment. */
static void test_escaping(void)
{
    const char *p;
    json_t *c = load("{\"rows\": [{\"application\": \"<img src=x>\", \"executable\": "
                     "\"a*b\\nc\", \"metric\": \"t`x`\", \"sides\": [{\"mean\": 1}, "
                     "{\"mean\": 1}], \"significant\": false}]}");
    struct buf out;

    buf_init(&out, 1 << 20);
    CHECK_INT(upl_report_render(c, NULL, "[x](y)", "branch:m_1", UPL_REPORT_MARKDOWN,
                                &out, NULL),
              0);
    for (p = buf_str(&out); (p = strchr(p, '<')) != NULL; p++)
        CHECK(p[-1] == '\\'); /* every '<' escaped: no HTML reaches the comment */
    CHECK(strstr(buf_str(&out), "\\<img src=x\\>/a\\*b c | t\\`x\\` | 1 | 1 | +0.0 % | "
                                "unchanged |") != NULL);
    CHECK(strstr(buf_str(&out), "commit \\[x\\](y) against branch:m\\_1") != NULL);
    buf_free(&out);
    json_decref(c);
}

/* Run names reach a pull-request comment: no @mention, no bare link, no
 * bidirectional override (issue 34 item 15). */
static void test_neutralised(void)
{
    json_t *c =
        load("{\"rows\": [{\"application\": \"@team x@y.org\", \"executable\": "
             "\"see https://evil.example/a www.evil.example\", \"metric\": "
             "\"t\u202egnp.exe\\u2066\", \"sides\": [{\"mean\": 1}, {\"mean\": 1}], "
             "\"significant\": false}]}");
    struct buf out;
    const char *o;

    buf_init(&out, 1 << 20);
    CHECK_INT(upl_report_render(c, NULL, "@owner", "branch:main", UPL_REPORT_MARKDOWN,
                                &out, NULL),
              0);
    o = buf_str(&out);
    CHECK(strstr(o, "@team") == NULL && strstr(o, "@y.org") == NULL &&
          strstr(o, "@owner") == NULL);
    CHECK(strstr(o, "@&#8203;team x@&#8203;y.org/see https:&#8203;//evil.example/a "
                    "www&#8203;.evil.example") != NULL);
    CHECK(strstr(o, "://") == NULL && strstr(o, "www.") == NULL);
    CHECK(strstr(o, "\xE2\x80\xAE") == NULL && strstr(o, "\xE2\x81\xA6") == NULL);
    CHECK(strstr(o, "t\xEF\xBF\xBDgnp.exe\xEF\xBF\xBD") != NULL);
    buf_free(&out);
    json_decref(c);

    /* a link formed across the pieces the line joins with '/' (found by
     * fuzz_report): application "matmul:/" or "matmul:", executable "x" or
     * "/x" */
    c = load("{\"application\": \"matmul:/\", \"rows\": [{\"configuration\": "
             "{\"executable\": \"x\"}, \"metric\": \"t\", \"sides\": [{\"mean\": 1}, "
             "{\"mean\": 1}]}, {\"configuration\": {\"application\": \"b:\", "
             "\"executable\": \"/y\"}, \"metric\": \"t\", \"sides\": [{\"mean\": 1}, "
             "{\"mean\": 1}]}]}");
    buf_init(&out, 1 << 20);
    CHECK_INT(
        upl_report_render(c, NULL, "c", "branch:main", UPL_REPORT_MARKDOWN, &out, NULL),
        0);
    o = buf_str(&out);
    CHECK(strstr(o, "://") == NULL);
    CHECK(strstr(o, "matmul:&#8203;//x") != NULL && strstr(o, "b:&#8203;//y") != NULL);
    buf_free(&out);
    json_decref(c);
}

/* SPEC §17: a 24.9 % slower change with one run on a side is "not tested"
 * even when the answer says "significant": false, and a commit without runs
 * is "not measured", never a pass. */
static void test_one_run_and_not_measured(void)
{
    json_t *c = load("{\"rows\": [{\"application\": \"a\", \"y\": \"kernel:k\", "
                     "\"sides\": [{\"mean\": 1.0, \"n\": 5}, {\"mean\": 1.249, "
                     "\"n\": 1, \"ratio\": 1.249, \"significant\": false}]}]}");
    json_t *none = load("{\"rows\": [{\"application\": \"a\", \"y\": \"runtime\", "
                        "\"sides\": [{\"mean\": 1.0, \"n\": 5}, {\"n\": 0, "
                        "\"mean\": null}]}]}");
    struct upl_report_summary sum;
    struct buf out;
    json_t *doc;

    buf_init(&out, 1 << 20);
    CHECK_INT(
        upl_report_render(c, NULL, "c1", "branch:main", UPL_REPORT_JSON, &out, &sum), 0);
    CHECK_INT(sum.measured, 1);
    CHECK_INT(sum.baseline, 1);
    doc = json_loads(buf_str(&out), 0, NULL);
    CHECK_STR(json_string_value(json_object_get(
                  json_array_get(json_object_get(doc, "configurations"), 0), "verdict")),
              "not tested");
    CHECK_STR(json_string_value(json_object_get(doc, "verdict")), "pass");
    json_decref(doc);
    buf_reset(&out);
    CHECK_INT(
        upl_report_render(none, NULL, "c2", "branch:main", UPL_REPORT_JSON, &out, &sum),
        0);
    CHECK_INT(sum.measured, 0);
    CHECK_INT(sum.baseline, 1);
    doc = json_loads(buf_str(&out), 0, NULL);
    CHECK_STR(json_string_value(json_object_get(doc, "verdict")), "not measured");
    json_decref(doc);
    buf_reset(&out);
    CHECK_INT(upl_report_render(none, NULL, "c2", "branch:main", UPL_REPORT_MARKDOWN,
                                &out, &sum),
              0);
    CHECK(strstr(buf_str(&out), "**NOT MEASURED**: this commit has no runs in the "
                                "selection.\n") != NULL);
    CHECK(strstr(buf_str(&out), "PASS") == NULL);
    buf_free(&out);
    json_decref(c);
    json_decref(none);
}

/* A report narrowed to a selection (--system cpu) counts only the alerts
 * inside it: an alert of the commit on system gpu failed the cpu runner's
 * report (exit 3, "FAIL: 1 alert", listing the gpu alert under a cpu row
 * that was unchanged), and one measured only on gpu was FAIL where it is
 * not measured. Fields the alert leaves out keep it. */
static void test_selection_narrows_alerts(void)
{
    json_t *alerts = load(
        "{\"alerts\": ["
        "{\"id\": 1, \"state\": \"open\", \"commit\": \"c\", \"configuration\": "
        "{\"application\": \"a\", \"executable\": \"x\", \"system\": \"gpu\", "
        "\"nprocs\": 8, \"inputs\": {\"N\": 10}}, \"y\": \"runtime\"},"
        "{\"id\": 2, \"state\": \"open\", \"commit\": \"c\", \"configuration\": "
        "{\"application\": \"a\", \"executable\": \"x\", \"system\": \"cpu\", "
        "\"nprocs\": 8, \"inputs\": {\"N\": 10}}, \"y\": \"runtime\"},"
        "{\"id\": 3, \"state\": \"open\", \"commit\": \"c\", \"application\": \"a\", "
        "\"system\": \"cpu\", \"nprocs\": 16, \"inputs\": {\"N\": 20}, \"y\": "
        "\"runtime\"},"
        "{\"id\": 4, \"state\": \"open\", \"commit\": \"c\", \"kind\": \"scaling\", "
        "\"configuration\": {\"application\": \"a\", \"system\": \"cpu\"}, \"y\": "
        "\"runtime\"}]}");
    json_t *inputs = load("{\"N\": 10.0}");
    json_t *list = json_object_get(alerts, "alerts");
    upl_report_select(alerts, NULL, NULL, 0, NULL);
    CHECK_INT((long long)json_array_size(list), 4);
    upl_report_select(alerts, NULL, "cpu", 0, NULL);
    CHECK_INT((long long)json_array_size(list), 3);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(list, 0), "id")), 2);
    upl_report_select(alerts, "x", "cpu", 8, inputs);
    CHECK_INT((long long)json_array_size(list), 2);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(list, 0), "id")), 2);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(list, 1), "id")), 4);
    json_decref(alerts);
    json_decref(inputs);
}

/* A scaling watch's alert (SPEC §17) says the law changed: the prediction
 * at the target against the baseline's, the ratio and both laws. */
static void test_scaling_alert(void)
{
    json_t *c = load("{\"rows\": [{\"application\": \"solver\", \"executable\": "
                     "\"s\", \"system\": \"c1\", \"nprocs\": 64, \"inputs\": {}, "
                     "\"metric\": \"runtime\", \"sides\": [{\"mean\": 2.56, \"n\": "
                     "2}, {\"mean\": 5.76, \"n\": 1}]}]}"),
           *a = load("{\"alerts\": [{\"id\": 3, \"state\": \"open\", \"commit\": "
                     "\"b2\", \"kind\": \"scaling\", \"application\": \"solver\", "
                     "\"executable\": \"s\", \"system\": \"c1\", \"nprocs\": 64, "
                     "\"inputs\": {}, \"y\": \"runtime\", \"x\": \"nprocs\", "
                     "\"target\": 256, \"value\": 14.19, \"expected\": 1.391, "
                     "\"lo\": 1.3, \"hi\": 1.5, \"ratio_at_target\": 10.2, "
                     "\"formula\": \"y = 1 + 100·nprocs^-1 + 0.05·nprocs\", "
                     "\"baseline_formula\": \"y = 1 + 100·nprocs^-1\"}]}");
    struct upl_report_summary sum;
    struct buf out;
    const char *want = "- alert 3 (open): solver/s on c1, 64 procs, runtime: scaling law "
                       "over nprocs changed; at nprocs = 256 it predicts 14.19 s against "
                       "1.391 s (ratio 10.2); law y = 1 + 100·nprocs^-1 + 0.05·nprocs, "
                       "baseline y = 1 + 100·nprocs^-1\n";

    buf_init(&out, 1 << 20);
    CHECK_INT(
        upl_report_render(c, a, "b2", "branch:main", UPL_REPORT_MARKDOWN, &out, &sum), 0);
    CHECK_INT(sum.alerts, 1);
    CHECK(strstr(buf_str(&out), "**FAIL**: 1 alert raised by this commit.") != NULL);
    CHECK(strstr(buf_str(&out), want) != NULL);
    if (strstr(buf_str(&out), want) == NULL)
        fprintf(stderr, "%s", buf_str(&out));
    buf_free(&out);
    json_decref(c);
    json_decref(a);
}

static void test_bad_answer(void)
{
    json_t *c = load("{\"error\": {\"code\": \"x\"}}");
    struct buf out;
    buf_init(&out, 1 << 20);
    CHECK_INT(
        upl_report_render(c, NULL, "c", "branch:main", UPL_REPORT_MARKDOWN, &out, NULL),
        -1);
    buf_free(&out);
    json_decref(c);
}

int main(void)
{
    RUN(test_markdown);
    RUN(test_verdicts_without_alerts);
    RUN(test_json_alerts);
    RUN(test_api_shapes);
    RUN(test_escaping);
    RUN(test_neutralised);
    RUN(test_one_run_and_not_measured);
    RUN(test_bad_answer);
    RUN(test_scaling_alert);
    RUN(test_selection_narrows_alerts);
    return harness_report();
}
