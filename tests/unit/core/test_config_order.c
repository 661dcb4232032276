/* Tests of core/config_order: configurations as the store gives them (their
 * inputs in text order) put in the order people read, by inputs' values. */
#include "common/xalloc.h"
#include "core/config_order.h"
#include "db/history.h"
#include "tests/harness.h"

#include <stdio.h>
#include <string.h>

/* The configurations' executable, system, inputs and nprocs on one line. */
static void line(const struct db_history_config *c, size_t n, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++)
        len +=
            (size_t)snprintf(out + len, cap - len, "%s%s/%s %s %lld", i ? " | " : "",
                             c[i].executable, c[i].system, c[i].inputs_json, c[i].nprocs);
}

static void test_values_not_text(void)
{
    /* as the store orders them: executable, system, inputs' text, nprocs */
    /* clang-format off */
    struct db_history_config c[] = {
        {1, "a", "s", 8, "{\"N\":128.0}"}, {2, "a", "s", 4, "{\"N\":16.0}"},
        {3, "a", "s", 8, "{\"N\":16.0}"}, {4, "a", "s", 4, "{\"N\":2.0}"},
        {5, "a", "s", 4, "{\"N\":-3.5}"}, {6, "a", "s", 4, "{\"N\":-30.0}"},
        {7, "a", "t", 4, "{\"N\":1000.0}"}, {8, "a", "t", 4, "{\"N\":200.0}"},
        {9, "b", "s", 1, "{\"M\":5.0,\"N\":1.0}"}, {10, "b", "s", 1, "{\"N\":1.0}"},
        {11, "b", "s", 1, "{\"M\":10.0}"}, {12, "b", "s", 2, "{}"}, {13, "b", "s", 1, "{}"}};
    /* clang-format on */
    struct err e = {0};
    char got[2048];
    CHECK_INT(config_sort(c, 13, CONFIG_LAYOUT(struct db_history_config), &e), 0);
    line(c, 13, got, sizeof got);
    /* groups keep their order; in a group, by name then value, then nprocs;
     * fewer inputs first where the names agree */
    CHECK_STR(got,
              "a/s {\"N\":-30.0} 4 | a/s {\"N\":-3.5} 4 | a/s {\"N\":2.0} 4 | "
              "a/s {\"N\":16.0} 4 | a/s {\"N\":16.0} 8 | a/s {\"N\":128.0} 8 | "
              "a/t {\"N\":200.0} 4 | a/t {\"N\":1000.0} 4 | b/s {} 1 | b/s {} 2 | "
              "b/s {\"M\":5.0,\"N\":1.0} 1 | b/s {\"M\":10.0} 1 | b/s {\"N\":1.0} 1");
}

static void test_memory_exhausted(void)
{
    struct db_history_config c[] = {{1, "a", "s", 8, "{\"N\":128.0}"},
                                    {2, "a", "s", 4, "{\"N\":16.0}"}};
    struct err e = {0};
    /* the order as given, and an error */
    xalloc_fail_at(1);
    CHECK_INT(config_sort(c, 2, CONFIG_LAYOUT(struct db_history_config), &e), -1);
    xalloc_fail_at(0);
    CHECK_INT(e.status, ERR_NOMEM);
    CHECK_INT((int)c[0].id, 1);
    CHECK_INT((int)c[1].id, 2);
}

/* A variable that changes with x: one value at each x, one way. */
static void test_varies_with_x(void)
{
    /* weak scaling N = 100 p, given out of order, two runs at p = 2 */
    struct config_xv weak[] = {{4, 400}, {2, 200}, {8, 800}, {2, 200}, {1, 100}};
    /* a size that shrinks as p grows (strong scaling per process) */
    struct config_xv down[] = {{1, 64}, {2, 32}, {4, 16}};
    /* two sizes at p = 2: a mix */
    struct config_xv mix[] = {{1, 100}, {2, 100}, {2, 200}, {4, 400}};
    /* two sizes each over a range of p: blocks, not a series */
    struct config_xv blocks[] = {{1, 1000}, {2, 1000}, {4, 1000}, {8, 8000}, {16, 8000}};
    /* up then down */
    struct config_xv zigzag[] = {{1, 10}, {2, 20}, {4, 10}};
    /* one value everywhere, and one x only */
    struct config_xv same[] = {{1, 5}, {2, 5}}, one_x[] = {{4, 1}, {4, 1}};
    CHECK_INT(config_varies_with_x(weak, 5), 1);
    CHECK(weak[0].x == 1 && weak[4].x == 8); /* sorted by x */
    CHECK_INT(config_varies_with_x(down, 3), 1);
    CHECK_INT(config_varies_with_x(mix, 4), 0);
    CHECK_INT(config_varies_with_x(blocks, 5), 0);
    CHECK_INT(config_varies_with_x(zigzag, 3), 0);
    CHECK_INT(config_varies_with_x(same, 2), 0);
    CHECK_INT(config_varies_with_x(one_x, 2), 0);
    CHECK_INT(config_varies_with_x(weak, 1), 0);
    CHECK_INT(config_varies_with_x(weak, 0), 0);
}

int main(void)
{
    RUN(test_values_not_text);
    RUN(test_memory_exhausted);
    RUN(test_varies_with_x);
    return harness_report();
}
