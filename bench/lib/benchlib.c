/* benchlib: see benchlib.h. */
#include "bench/lib/benchlib.h"
#include "db/db.h"
#include "db/runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_pct(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[(int)(q * (n - 1) + 0.5)];
}

void bench_fill(const char *path, long n, const char *prog)
{
    static const char *kn[5] = {"init", "rhs", "solve", "exchange", "final"};
    struct err e = {0};
    struct db_options opt = {DB_SYNC_OFF, 0, 10000};
    db *d;
    long i;
    unsigned seed = 12345;

    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "%s: %s\n", prog, e.message);
        exit(1);
    }
    for (i = 0; i < n;) {
        struct run_record r[1000];
        struct rec_kv in[1000][2];
        struct rec_kernel k[1000][5];
        long long ids[1000];
        int existed[1000], j, m = 0;
        for (; m < 1000 && i < n; m++, i++) {
            int np = 1 << (i % 7), N = 100 * (1 + (int)((i / 7) % 10));
            double base = 1e-9 * N * N * N / np + 0.01 * np;
            seed = seed * 1103515245u + 12345u;
            memset(&r[m], 0, sizeof r[m]);
            r[m].application = "bench app";
            r[m].executable = "bench.x";
            r[m].system = (i / 70) % 2 ? "system-a" : "system-b";
            r[m].nprocs = np;
            r[m].runtime = base * (0.95 + 0.1 * ((seed >> 8) & 0xffff) / 65535.0);
            r[m].submitter = "bench";
            in[m][0] = (struct rec_kv){"N", N};
            in[m][1] = (struct rec_kv){"L", 1024};
            r[m].inputs = in[m];
            r[m].ninputs = 2;
            for (j = 0; j < 5; j++)
                k[m][j] =
                    (struct rec_kernel){kn[j], r[m].runtime * (j + 1) / 15.0, 1, NULL};
            r[m].kernels = k[m];
            r[m].nkernels = 5;
        }
        if (db_begin(d, &e) != 0 ||
            db_runs_insert(d, r, (size_t)m, ids, existed, &e) != 0 ||
            db_commit(d, &e) != 0) {
            fprintf(stderr, "%s: %s\n", prog, e.message);
            exit(1);
        }
    }
    db_close(d);
}

size_t bench_sink(char *p, size_t s, size_t n, void *u)
{
    (void)p;
    ((struct bench_body *)u)->len += s * n;
    return s * n;
}
