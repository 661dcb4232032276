/* Unit tests for formats/rundoc: run documents into run records, the rules
 * of SPEC §4 with the field named, start times, and the JSON shapes back. */
#include "formats/rundoc.h"
#include "tests/harness.h"

#include <string.h>

static json_t *doc(const char *text)
{
    json_t *j = json_loads(text, 0, NULL);
    CHECK(j != NULL);
    return j;
}

static void test_parse_one_and_batch(void)
{
    struct err e = {0};
    struct run_record *runs;
    size_t n;
    arena *a = arena_new();
    json_t *j =
        doc("{\"id\": \"u1\", \"application\": \"app\", \"executable\": \"exe\", "
            "\"system\": \"sys\", \"nprocs\": 8, \"runtime\": 12.5, "
            "\"inputs\": {\"N\": 1000}, \"metrics\": {\"mflops\": 1596}, "
            "\"kernels\": [{\"name\": \"k\", \"time\": 11.2, \"metrics\": "
            "{\"b\": 2, \"a\": 1}}], \"started_at\": \"2026-11-21T10:00:00+02:00\"}");

    CHECK_INT(rundoc_parse_body(j, a, &runs, &n, &e), 0);
    CHECK_INT(n, 1);
    CHECK_STR(runs[0].uid, "u1");
    CHECK_INT(runs[0].nprocs, 8);
    CHECK_NEAR(runs[0].runtime, 12.5, 0);
    CHECK_INT(runs[0].ninputs, 1);
    CHECK_NEAR(runs[0].inputs[0].value, 1000, 0);
    CHECK_INT(runs[0].nkernels, 1);
    CHECK_INT(runs[0].kernels[0].calls, 1); /* default */
    /* Kernel metrics are canonical (sorted keys), so equal documents compare equal. */
    CHECK_STR(runs[0].kernels[0].metrics_json, "{\"a\":1,\"b\":2}");
    json_decref(j);

    j = doc(
        "{\"runs\": [{\"application\": \"a\", \"executable\": \"e\", \"system\": \"s\", "
        "\"nprocs\": 1, \"runtime\": 0}, {\"application\": \"a\", \"executable\": "
        "\"e\", \"system\": \"s\", \"nprocs\": 0, \"runtime\": 1}]}");
    CHECK_INT(rundoc_parse_body(j, a, &runs, &n, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "runs[1].nprocs");
    json_decref(j);
    arena_free(a);
}

static void test_rules_name_the_field(void)
{
    static const struct {
        const char *text, *field;
    } bad[] = {
        {"{\"executable\": \"e\", \"system\": \"s\", \"nprocs\": 1, \"runtime\": 1}",
         "application"},
        {"{\"application\": \"a\", \"executable\": \"e\", \"system\": \"s\", \"nprocs\": "
         "1, "
         "\"runtime\": -1}",
         "runtime"},
        {"{\"application\": \"a\", \"executable\": \"e\", \"system\": \"s\", \"nprocs\": "
         "1, "
         "\"runtime\": 1, \"runtme\": 2}",
         "runtme"},
        {"{\"application\": \"a\", \"executable\": \"e\", \"system\": \"s\", \"nprocs\": "
         "1, "
         "\"runtime\": 1, \"kernels\": [{\"name\": \"k\", \"time\": 1, \"calls\": -1}]}",
         "kernels[0].calls"},
        {"{\"application\": \"a\\u0001\", \"executable\": \"e\", \"system\": \"s\", "
         "\"nprocs\": 1, \"runtime\": 1}",
         "application"},
    };
    struct err e;
    struct run_record r;
    arena *a = arena_new();
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = doc(bad[i].text);
        memset(&e, 0, sizeof e);
        CHECK_INT(rundoc_parse(j, a, &r, &e), -1);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK_STR(e.field, bad[i].field);
        json_decref(j);
    }
    arena_free(a);
}

static void test_timestamps(void)
{
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00Z"), 1);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00"), 1);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00.125Z"), 1);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00+02:00"), 1);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00-23:59"), 1);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T23:59:60Z"), 1); /* leap second */
    /* Issue 12: the offset was only checked for its shape. */
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00+99:99"), 0);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00+24:00"), 0);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00+02:60"), 0);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00+ab:cd"), 0);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00+0200"), 0);
    CHECK_INT(rundoc_valid_timestamp("+026-11-21T10:00:00Z"), 0);
    CHECK_INT(rundoc_valid_timestamp("2026-13-21T10:00:00Z"), 0);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21 10:00:00Z"), 0);
    CHECK_INT(rundoc_valid_timestamp("2026-11-21T10:00:00."), 0);
    CHECK_INT(rundoc_valid_timestamp("yesterday"), 0);
    CHECK_INT(rundoc_valid_timestamp(""), 0);
}

static void test_json_shapes(void)
{
    struct rec_kv in[1] = {{"N", 1000}};
    struct rec_kernel k[1] = {{"k", 1.5, 2, "{\"x\":1}"}};
    struct run_record r = {0};
    json_t *o;

    r.uid = "u9";
    r.application = "a";
    r.executable = "e";
    r.system = "s";
    r.nprocs = 4;
    r.runtime = 2.5;
    r.submitter = "tester";
    r.inputs = in;
    r.ninputs = 1;
    r.kernels = k;
    r.nkernels = 1;
    o = rundoc_to_json(7, &r, "2026-11-21T10:00:00Z");
    CHECK_INT(json_integer_value(json_object_get(o, "id")), 7);
    CHECK_STR(json_string_value(json_object_get(o, "uid")), "u9");
    CHECK_STR(json_string_value(json_object_get(o, "submitter")), "tester");
    CHECK(json_is_null(json_object_get(o, "started_at")));
    CHECK_INT(
        json_integer_value(json_object_get(
            json_object_get(json_array_get(json_object_get(o, "kernels"), 0), "metrics"),
            "x")),
        1);
    json_decref(o);
    /* The export form is a run document again: id is the client's id. */
    o = rundoc_export_json(&r);
    CHECK_STR(json_string_value(json_object_get(o, "id")), "u9");
    CHECK(json_object_get(o, "uid") == NULL);
    CHECK(json_object_get(o, "submitter") == NULL);
    CHECK(json_object_get(o, "started_at") == NULL);
    {
        struct err e = {0};
        struct run_record back;
        arena *a = arena_new();
        CHECK_INT(rundoc_parse(o, a, &back, &e), 0);
        CHECK_STR(back.uid, "u9");
        CHECK_INT(back.nkernels, 1);
        CHECK_STR(back.kernels[0].metrics_json, "{\"x\":1}");
        arena_free(a);
    }
    json_decref(o);
}

int main(void)
{
    RUN(test_parse_one_and_batch);
    RUN(test_rules_name_the_field);
    RUN(test_timestamps);
    RUN(test_json_shapes);
    return harness_report();
}
