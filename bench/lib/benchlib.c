/* benchlib: see benchlib.h. */
#include "bench/lib/benchlib.h"
#include "db/db.h"
#include "db/runs.h"

#include <curl/curl.h>
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

/* One line: median and p90 of GETs (or POSTs of post) of path on the
 * keep-alive connection, next to the ceiling's median. */
void bench_measure(CURL *c, const char *base, const char *path, const char *post,
                   const char *sql, const char *label, double (*ceiling)(const char *sql),
                   int reps_max, const char *prog)
{
    char url[1024];
    double t[1000], t0, start, med, p90, ceil;
    struct bench_body b = {0};
    long status = 0;
    int i, n = 0;
    struct curl_slist *h = NULL;

    snprintf(url, sizeof url, "%s%s", base, path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, bench_sink);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    if (post != NULL) {
        h = curl_slist_append(h, "Content-Type: application/json");
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, post);
    } else {
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
        curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    }
    t0 = bench_now();
    for (i = -2; i < reps_max && n < 1000; i++) {
        double took;
        start = bench_now();
        b.len = 0;
        if (curl_easy_perform(c) != CURLE_OK) {
            fprintf(stderr, "%s: %s failed\n", prog, url);
            exit(1);
        }
        took = bench_now() - start;
        if (i >= 0)
            t[n++] = took * 1e3;
        else if (took > 1.0)
            i = -1; /* a request of seconds is warm after one */
        /* at least 5 samples over 2 s, but a request of seconds (a read that
         * grows with the database) is not repeated past 10 s */
        if ((i >= 4 && bench_now() - t0 > 2.0) || (i >= 0 && bench_now() - t0 > 10.0))
            break;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    med = bench_pct(t, n, 0.5);
    p90 = bench_pct(t, n, 0.9);
    ceil = ceiling(sql);
    if (sql != NULL)
        printf("%-52s %9.2f %9.2f %9.3f %8.1fx %8zu%s\n", label, med, p90, ceil,
               med / (ceil > 0.001 ? ceil : 0.001), b.len,
               status == 200 ? "" : "  (!! not 200)");
    else
        printf("%-52s %9.2f %9.2f %9s %9s %8zu%s\n", label, med, p90, "-", "-", b.len,
               status == 200 ? "" : "  (!! not 200)");
    fflush(stdout);
    if (h != NULL) {
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
        curl_slist_free_all(h);
    }
}

/* Single-run POSTs into the full database for about seconds s: runs/s. */
double bench_ingest_rate(CURL *c, const char *base, const char *token, double s,
                         const char *prog)
{
    char url[256], doc[1024], auth[300];
    struct curl_slist *h = NULL;
    struct bench_body b = {0};
    double t0 = bench_now();
    long n = 0, status = 0;

    snprintf(url, sizeof url, "%s/api/v1/runs", base);
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
    h = curl_slist_append(h, "Content-Type: application/json");
    h = curl_slist_append(h, auth);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, bench_sink);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    while (bench_now() - t0 < s) {
        snprintf(doc, sizeof doc,
                 "{\"application\": \"bench app\", \"executable\": \"bench.x\", "
                 "\"system\": \"system-a\", \"nprocs\": 8, \"runtime\": %.6f, "
                 "\"inputs\": {\"N\": 500, \"L\": 1024}, \"kernels\": ["
                 "{\"name\": \"init\", \"time\": 0.01}, {\"name\": \"rhs\", \"time\": "
                 "0.02}, {\"name\": \"solve\", \"time\": 0.03}, {\"name\": \"exchange\", "
                 "\"time\": 0.04}, {\"name\": \"final\", \"time\": 0.05}]}",
                 0.5 + 1e-7 * (double)n);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, doc);
        if (curl_easy_perform(c) != CURLE_OK)
            break;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        if (status != 201 && status != 200) {
            fprintf(stderr, "%s: ingest answered %ld\n", prog, status);
            break;
        }
        n++;
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
    curl_slist_free_all(h);
    return (double)n / (bench_now() - t0);
}
