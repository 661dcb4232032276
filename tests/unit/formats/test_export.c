/* Unit tests for formats/export: records as CSV (import columns, quoting,
 * missing values empty) and as a JSON document that parses back. */
#include "formats/export.h"
#include "formats/rundoc.h"
#include "tests/harness.h"

#include <string.h>

static struct run_record run(const char *uid, const char *app, double n)
{
    static struct rec_kv in[2][1];
    static int k;
    struct run_record r = {0};
    in[k][0].name = "N";
    in[k][0].value = n;
    r.uid = uid;
    r.application = app;
    r.executable = "exe";
    r.system = "sys";
    r.nprocs = 4;
    r.runtime = 1.25;
    r.inputs = in[k];
    r.ninputs = 1;
    k = (k + 1) % 2;
    return r;
}

static void test_csv(void)
{
    static const char *const inputs[] = {"M", "N"};
    static const char *const metrics[] = {"mflops"};
    struct export_columns c = {inputs, 2, metrics, 1, 0, NULL, 0};
    struct run_record a = run("u1", "mat,mul", 1000), b = run(NULL, "plain", 2000);
    struct buf out;

    buf_init(&out, 1 << 16);
    export_csv_header(&c, &out);
    export_csv_row(&c, &a, &out);
    export_csv_row(&c, &b, &out);
    CHECK(!buf_failed(&out));
    CHECK_STR(out.data, "id,application,executable,system,nprocs,runtime,started_at,M,N,"
                        "metric.mflops\r\n"
                        "u1,\"mat,mul\",exe,sys,4,1.25,,,1000,\r\n"
                        ",plain,exe,sys,4,1.25,,,2000,\r\n");
    buf_free(&out);
}

static void test_json_parses_back(void)
{
    struct run_record a = run("u1", "app", 1000), b = run(NULL, "app", 2000), *back;
    struct buf out;
    struct err e = {0};
    arena *ar = arena_new();
    json_t *doc;
    size_t n;

    buf_init(&out, 1 << 16);
    export_json_begin(&out);
    export_json_row(&a, 1, &out);
    export_json_row(&b, 0, &out);
    export_json_end(&out);
    CHECK(!buf_failed(&out));
    doc = json_loads(out.data, 0, NULL);
    CHECK(doc != NULL);
    CHECK_INT(rundoc_parse_body(doc, ar, &back, &n, &e), 0);
    CHECK_INT(n, 2);
    CHECK_STR(back[0].uid, "u1");
    CHECK(back[1].uid == NULL);
    CHECK_NEAR(back[1].inputs[0].value, 2000, 0);
    json_decref(doc);
    /* No runs: still a document. */
    buf_reset(&out);
    export_json_begin(&out);
    export_json_end(&out);
    doc = json_loads(out.data, 0, NULL);
    CHECK_INT(json_array_size(json_object_get(doc, "runs")), 0);
    json_decref(doc);
    buf_free(&out);
    arena_free(ar);
}

int main(void)
{
    RUN(test_csv);
    RUN(test_json_parses_back);
    return harness_report();
}
