/* Traces of format versions 1 and 2 (tests/data/trace, README.md there) give
 * the same answers as before format version 3, byte for byte: every analysis'
 * JSON (core/trace.h run_trace_json) against the answers recorded by the
 * earlier code. Version 3 added routines (the profile and cluster vectors
 * grew), communicators and Test loops; none of it may change an old answer.
 * Fields added since (the load's mpi_calls, the profile's classes) are
 * checked apart. */
#include "common/err.h"
#include "core/trace.h"
#include "formats/trace.h"
#include "tests/harness.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The stored text (run_trace_text, the timeline written without Jansson)
 * is json_dumps of the answer, byte for byte. */
static void check_text(const struct run_trace_set *s, int k, json_t *j)
{
    struct buf b;
    struct err e = {0};
    char *want = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;

    buf_init(&b, RUN_TRACE_TEXT_MAX);
    CHECK_INT(run_trace_text(s, k, &b, &e), 0);
    CHECK(want != NULL && strcmp(buf_str(&b), want) == 0);
    /* a buffer too small: 413 naming the analysis */
    if (want != NULL && strlen(want) > 8) {
        struct buf small;
        buf_init(&small, strlen(want) - 1);
        CHECK_INT(run_trace_text(s, k, &small, &e), -1);
        CHECK_INT(e.status, ERR_TOO_LARGE);
        CHECK(strstr(e.message, run_trace_name(k)) != NULL);
        buf_free(&small);
    }
    free(want);
    buf_free(&b);
}

/* The fields added since the answers were recorded, checked on their own
 * and taken out so that the rest compares byte for byte: the load's
 * mpi_calls (every call of the trace, counted here) and each profile rank's
 * seconds per class (adding up to its execution time). */
static void set_apart_new_fields(const struct trace *t, int k, json_t *j)
{
    if (k == RUN_TRACE_LOAD) {
        long long calls = 0;
        for (int r = 0; r < t->nranks; r++)
            for (size_t i = 0; i < t->ranks[r].nevents; i++)
                calls += t->ranks[r].ev[i].op != TRACE_OP_STATE;
        CHECK(calls > 0);
        CHECK(json_integer_value(json_object_get(j, "mpi_calls")) == calls);
        CHECK_INT(json_object_del(j, "mpi_calls"), 0);
    }
    if (k == RUN_TRACE_PROFILE) {
        size_t i;
        json_t *rank;
        json_array_foreach(json_object_get(j, "ranks"), i, rank)
        {
            json_t *cls = json_object_get(rank, "classes"), *v;
            const char *key;
            double sum = 0;
            CHECK(json_is_object(cls) && json_object_size(cls) > 0);
            json_object_foreach(cls, key, v)
            {
                CHECK(json_number_value(v) > 0);
                sum += json_number_value(v);
            }
            CHECK_NEAR(sum, json_number_value(json_object_get(rank, "exec")), 1e-9);
            CHECK_INT(json_object_del(rank, "classes"), 0);
        }
    }
}

static void check_answers(const char *name)
{
    const char *root = getenv("PROPHECY_TEST_DATA");
    char dir[4096], path[4200], line[1 << 16];
    struct trace *t = NULL;
    struct run_trace_set s = {0};
    struct err e = {0};
    FILE *f;

    snprintf(dir, sizeof dir, "%s/trace/%s", root ? root : "tests/data", name);
    snprintf(path, sizeof path, "%s/answers.txt", dir);
    CHECK_INT(trace_read_dir(dir, &t, &e), 0);
    f = fopen(path, "r");
    CHECK(f != NULL);
    if (t == NULL || f == NULL)
        goto out;
    s.t = t;
    for (int k = 0; k < 7; k++) {
        json_t *j;
        char *txt, *want = fgets(line, sizeof line, f);
        CHECK_INT(run_trace_compute(&s, k, RUN_TRACE_WIDTH, &e), 0);
        j = run_trace_json(&s, k);
        check_text(&s, k, j);
        if (j != NULL)
            set_apart_new_fields(t, k, j);
        txt = j ? json_dumps(j, JSON_SORT_KEYS | JSON_REAL_PRECISION(17)) : NULL;
        CHECK(want != NULL && txt != NULL);
        if (want != NULL && txt != NULL) {
            size_t n = strlen(run_trace_name(k));
            want[strcspn(want, "\n")] = '\0';
            CHECK(strncmp(want, run_trace_name(k), n) == 0 && want[n] == ':');
            if (strcmp(want + n + 2, txt) != 0) {
                fprintf(stderr, "%s %s differs:\n  was %s\n  now %s\n", name,
                        run_trace_name(k), want + n + 2, txt);
                CHECK(0);
            }
        }
        free(txt);
        json_decref(j);
    }
out:
    if (f != NULL)
        fclose(f);
    run_trace_set_free(&s);
    trace_free(t);
}

static void test_version2_answers(void)
{
    check_answers("v2-halo");
}

static void test_version1_answers(void)
{
    check_answers("v1-e2e");
}

int main(void)
{
    RUN(test_version2_answers);
    RUN(test_version1_answers);
    return harness_report();
}
