/* test_probe_mpi: probe_mpi aggregates kernels over ranks.
 *
 * Run on 2+ ranks (run_probe_mpi.sh). Rank r sleeps (r+1)*SLEEP_MS in
 * "work"; only rank 0 runs "root_only"; every rank counts r+1 "msgs". After
 * probe_mpi_finalize() rank 0 reads $PROBE_OUTPUT and checks that the kernel
 * time is the max over ranks, with mean, min and rank counts as metrics.
 */
#include "probe.h"
#include "tests/harness.h"

#include <jansson.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLEEP_MS 20

static int rank, size;

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static double metric(json_t *frag, const char *name)
{
    json_t *v = json_object_get(json_object_get(frag, "metrics"), name);
    return v ? json_number_value(v) : -1;
}

static json_t *kernel(json_t *frag, const char *name)
{
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(frag, "kernels"), i, k)
    {
        if (strcmp(json_string_value(json_object_get(k, "name")), name) == 0)
            return k;
    }
    return NULL;
}

static void test_aggregate(void)
{
    const char *path = getenv("PROBE_OUTPUT");
    json_t *frag, *k;
    double t, expect_max = size * SLEEP_MS / 1e3, expect_min = SLEEP_MS / 1e3;
    double expect_mean = (size + 1) / 2.0 * SLEEP_MS / 1e3;

    CHECK(path != NULL);
    frag = path ? json_load_file(path, 0, NULL) : NULL;
    CHECK(frag != NULL);
    if (frag == NULL)
        return;
    k = kernel(frag, "work");
    CHECK(k != NULL);
    if (k) {
        t = json_number_value(json_object_get(k, "time"));
        CHECK(t >= expect_max * 0.999 && t < expect_max + 0.05);
        CHECK_INT(json_integer_value(json_object_get(k, "calls")), 2);
    }
    CHECK_NEAR(metric(frag, "work.time_max"), expect_max, 0.05);
    CHECK(metric(frag, "work.time_min") >= expect_min * 0.999);
    CHECK_NEAR(metric(frag, "work.time_min"), expect_min, 0.05);
    CHECK_NEAR(metric(frag, "work.time_mean"), expect_mean, 0.05);
    CHECK_NEAR(metric(frag, "work.ranks"), size, 0);
    CHECK_NEAR(metric(frag, "root_only.ranks"), 1, 0);
    CHECK_NEAR(metric(frag, "msgs"), size * (size + 1) / 2.0, 0);
    CHECK(kernel(frag, "root_only") != NULL);
    json_decref(frag);
}

int main(int argc, char **argv)
{
    int rc = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    PROBE_BEGIN("work");
    sleep_ms((rank + 1) * SLEEP_MS);
    PROBE_END("work");
    PROBE_BEGIN("work"); /* a second, empty call: calls = 2 on every rank */
    PROBE_END("work");
    if (rank == 0) {
        PROBE_BEGIN("root_only");
        PROBE_END("root_only");
    }
    PROBE_COUNT("msgs", rank + 1);
    if (probe_mpi_finalize() != 0) {
        fprintf(stderr, "rank %d: probe_mpi_finalize failed\n", rank);
        rc = 1;
    }
    if (rank == 0) {
        CHECK(size >= 2);
        RUN(test_aggregate);
        rc |= harness_report();
    }
    MPI_Finalize();
    return rc;
}
