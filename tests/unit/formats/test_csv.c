/* Unit tests for formats/csv.c (rundoc_parse_csv): columns in any order,
 * RFC 4180 quoting, inputs and metrics, and errors naming line and column. */
#include "formats/rundoc.h"
#include "tests/harness.h"

#include <string.h>

static int parse(const char *text, size_t len, struct run_record **runs, size_t *n,
                 struct err *e, arena *a)
{
    memset(e, 0, sizeof *e);
    return rundoc_parse_csv(text, len, a, runs, n, e);
}

static void test_columns_and_quoting(void)
{
    static const char text[] =
        "runtime,nprocs,application,executable,system,id,N,metric.mflops,started_at\r\n"
        "1.5,4,\"mat,mul\",\"exe \"\"x\"\"\",sys,r1,1000,12.5,2026-11-21T10:00:00Z\r\n"
        "2,8,matmul,exe,sys,,2000,,\n";
    struct run_record *runs;
    struct err e;
    size_t n;
    arena *a = arena_new();

    CHECK_INT(parse(text, strlen(text), &runs, &n, &e, a), 0);
    CHECK_INT(n, 2);
    CHECK_STR(runs[0].application, "mat,mul");
    CHECK_STR(runs[0].executable, "exe \"x\"");
    CHECK_STR(runs[0].uid, "r1");
    CHECK_INT(runs[0].nprocs, 4);
    CHECK_NEAR(runs[0].runtime, 1.5, 0);
    CHECK_INT(runs[0].ninputs, 1);
    CHECK_STR(runs[0].inputs[0].name, "N");
    CHECK_INT(runs[0].nmetrics, 1);
    CHECK_NEAR(runs[0].metrics[0].value, 12.5, 0);
    CHECK_STR(runs[0].started_at, "2026-11-21T10:00:00Z");
    CHECK(runs[1].uid == NULL);
    CHECK(runs[1].started_at == NULL);
    CHECK_INT(runs[1].nmetrics, 0);
    arena_free(a);
}

static void test_errors_name_line_and_column(void)
{
    static const char hdr[] = "application,executable,system,nprocs,runtime\n";
    struct run_record *runs;
    struct err e;
    size_t n;
    arena *a = arena_new();
    char text[256];
    size_t len;

    /* Issue 12: a NUL byte used to end the field silently ("yz" became "y"). */
    len = (size_t)snprintf(text, sizeof text, "%sx,y", hdr);
    text[len++] = '\0';
    memcpy(text + len, "z,s,1,2\n", 8);
    len += 8;
    CHECK_INT(parse(text, len, &runs, &n, &e, a), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.message, "line 2, column 2: a NUL byte is not allowed in a CSV field");
    /* The same inside quotes, in the third column. */
    len = (size_t)snprintf(text, sizeof text, "%sx,y,\"s", hdr);
    text[len++] = '\0';
    memcpy(text + len, "\",1,2\n", 6);
    len += 6;
    CHECK_INT(parse(text, len, &runs, &n, &e, a), -1);
    CHECK_STR(e.message, "line 2, column 3: a NUL byte is not allowed in a CSV field");

    CHECK_INT(
        parse("application,executable,system,nprocs\nx,y,z,1\n", 37, &runs, &n, &e, a),
        -1);
    CHECK(strstr(e.message, "runtime") != NULL);
    len = (size_t)snprintf(text, sizeof text, "%sx,y,z,0,1\n", hdr);
    CHECK_INT(parse(text, len, &runs, &n, &e, a), -1);
    CHECK_STR(e.field, "line 2: nprocs");
    len = (size_t)snprintf(text, sizeof text, "%sx,y,z,1,1\nx,y,z,1,inf\n", hdr);
    CHECK_INT(parse(text, len, &runs, &n, &e, a), -1);
    CHECK_STR(e.field, "line 3: runtime");
    len = (size_t)snprintf(text, sizeof text,
                           "application,executable,system,nprocs,runtime,started_at\n"
                           "x,y,z,1,1,2026-11-21T10:00:00+99:99\n");
    CHECK_INT(parse(text, len, &runs, &n, &e, a), -1);
    CHECK_STR(e.field, "line 2: started_at");
    len = (size_t)snprintf(text, sizeof text, "%s\"x,y,z,1,2\n", hdr);
    CHECK_INT(parse(text, len, &runs, &n, &e, a), -1);
    CHECK(strstr(e.message, "unterminated") != NULL);
    CHECK_INT(parse("", 0, &runs, &n, &e, a), -1);
    arena_free(a);
}

int main(void)
{
    RUN(test_columns_and_quoting);
    RUN(test_errors_name_line_and_column);
    return harness_report();
}
