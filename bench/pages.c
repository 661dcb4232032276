/* bench_pages: latency of the dashboard's pages over HTTP with 100,000 runs
 * of one application, next to the machine's ceiling measured in the same run.
 *
 * The database: one application, one executable, two systems, processors
 * 1..64 (7 values), input N (10 values) and L, 5 kernels per run: 140
 * configurations of ~714 repeated runs each. The real prophecyd serves it;
 * one keep-alive libcurl client asks each URL many times (after a warm-up)
 * and the median and 90th percentile are printed.
 *
 * Ceilings in the same run: a trivial request through the same server
 * (GET /api/v1/health: HTTP and routing, no page), and the bare database
 * reads the application page needs (the summaries, the run count, one page
 * of runs, the configurations), called directly on a connection: what is
 * left for rendering HTML and SVG is the difference. For comparison, the
 * API's application read (db_app_get), which aggregates over every run.
 * Usage: bench_pages [--runs N] [--reps N] [--prophecyd PATH] [--keep]
 * (--keep leaves the database in /tmp for inspection).
 */
#include "bench/lib/benchlib.h"
#include "common/arena.h"
#include "db/catalog.h"
#include "db/db.h"
#include "db/runs.h"
#include "db/summary.h"

#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Median and p90 of reps GETs of url on one keep-alive connection. */
static void measure(CURL *c, const char *base, const char *path, int reps,
                    const char *label)
{
    char url[1024];
    double *t = malloc((size_t)reps * sizeof *t), med, p90;
    struct bench_body b = {0};
    long status = 0;
    int i;

    snprintf(url, sizeof url, "%s%s", base, path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, bench_sink);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    for (i = 0; i < 3; i++) /* warm-up: statement caches, page cache */
        curl_easy_perform(c);
    for (i = 0; i < reps; i++) {
        double t0 = bench_now();
        b.len = 0;
        if (curl_easy_perform(c) != CURLE_OK) {
            fprintf(stderr, "bench_pages: %s failed\n", url);
            exit(1);
        }
        t[i] = (bench_now() - t0) * 1e3;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    med = bench_pct(t, reps, 0.5);
    p90 = bench_pct(t, reps, 0.9);
    printf("%-58s %9.2f %9.2f %8zu%s\n", label, med, p90, b.len,
           status == 200 ? "" : "  (!! not 200)");
    free(t);
}

/* Median of the bare reads of the application page, straight on SQLite. */
static void bare_reads(const char *path, int reps, long long offset, int sort, int desc,
                       const char *label)
{
    struct err e = {0};
    struct db_options opt = {DB_SYNC_FULL, 1, 10000};
    double *t = malloc((size_t)reps * sizeof *t);
    db *d;
    int i;

    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "bench_pages: %s\n", e.message);
        exit(1);
    }
    for (i = -3; i < reps; i++) {
        arena *a = arena_new();
        struct db_page_row *rows;
        struct db_config *c;
        double t0 = bench_now();
        json_t *app = db_summary_app(d, "bench app", &e);
        long long id = json_integer_value(json_object_get(app, "id"));
        struct db_page_query q = {id, 0, 0, (enum db_sort)sort, desc, offset, 50,
                                  0,  0, 0};
        if (app == NULL || db_summary_count(d, id, 0, 0, &e) < 0 ||
            db_runs_page(d, &q, a, &rows, &e) != 50 ||
            db_summary_configs(d, id, 0, 0, 2001, a, &c, &e) < 0) {
            fprintf(stderr, "bench_pages: bare reads failed: %s\n", e.message);
            exit(1);
        }
        json_decref(app);
        arena_free(a);
        if (i >= 0)
            t[i] = (bench_now() - t0) * 1e3;
    }
    printf("%-58s %9.2f %9.2f %8s\n", label, bench_pct(t, reps, 0.5),
           bench_pct(t, reps, 0.9), "-");
    db_close(d);
    free(t);
}

static void api_app_read(const char *path, int reps)
{
    struct err e = {0};
    struct db_options opt = {DB_SYNC_FULL, 1, 10000};
    double *t = malloc((size_t)reps * sizeof *t);
    db *d;
    int i;
    if (db_open(&d, path, &opt, &e) != 0)
        exit(1);
    for (i = 0; i < reps; i++) {
        double t0 = bench_now();
        json_decref(db_app_get(d, "bench app", &e));
        t[i] = (bench_now() - t0) * 1e3;
    }
    printf("%-58s %9.2f %9.2f %8s\n", "for comparison: db_app_get (aggregates every run)",
           bench_pct(t, reps, 0.5), bench_pct(t, reps, 0.9), "-");
    db_close(d);
    free(t);
}

int main(int argc, char **argv)
{
    const char *prophecyd = NULL;
    char dir[] = "/tmp/prophecy-bench-pages-XXXXXX", dbpath[600], base[64], exe[512];
    long runs = 100000;
    int reps = 200, i, port, keep = 0;
    double t0;
    pid_t pid;
    CURL *c;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--prophecyd") == 0 && i + 1 < argc)
            prophecyd = argv[++i];
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
    }
    if (runs < 100 || reps < 5) {
        fprintf(stderr,
                "usage: bench_pages [--runs N>=100] [--reps N>=5] [--prophecyd P]\n");
        return 64;
    }
    if (prophecyd == NULL) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 20);
        exe[n > 0 ? n : 0] = '\0';
        *(strrchr(exe, '/') ? strrchr(exe, '/') : exe) = '\0';
        snprintf(exe + strlen(exe), 20, "/prophecyd");
        prophecyd = exe;
    }
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(dbpath, sizeof dbpath, "%s/pages.db", dir);
    t0 = bench_now();
    bench_fill(dbpath, runs, "bench_pages");
    printf("bench_pages: %ld runs of one application (140 configurations, 5 kernels "
           "each) stored in %.1f s; %d requests per URL, one keep-alive client\n\n",
           runs, bench_now() - t0, reps);

    port = bench_first_port();
    pid = fork();
    if (pid == 0) {
        char listen[64];
        snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
        execl(prophecyd, "prophecyd", "serve", "--db", dbpath, "--listen", listen,
              "--quiet", (char *)NULL);
        _exit(127);
    }
    usleep(500000);
    snprintf(base, sizeof base, "http://127.0.0.1:%d", port);
    curl_global_init(CURL_GLOBAL_ALL);
    c = curl_easy_init();

    printf("%-58s %9s %9s %8s\n", "", "median ms", "p90 ms", "bytes");
    measure(c, base, "/api/v1/health", reps, "ceiling: GET /api/v1/health (no page)");
    bare_reads(dbpath, reps, 0, 0, 1, "ceiling: bare reads of the app page, first page");
    bare_reads(dbpath, reps, runs / 2, 2, 0,
               "ceiling: bare reads, runtime order, middle page");
    measure(c, base, "/applications/bench%20app", reps,
            "app page, first page (default order)");
    {
        char path[256];
        snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld", runs / 100);
        measure(c, base, path, reps, "app page, middle page (page runs/100)");
        snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld",
                 (runs + 49) / 50);
        measure(c, base, path, reps, "app page, last page");
        measure(c, base, "/applications/bench%20app?sort=runtime&dir=desc", reps,
                "app page, sorted by runtime (desc), first page");
        snprintf(path, sizeof path, "/applications/bench%%20app?sort=runtime&page=%ld",
                 runs / 100);
        measure(c, base, path, reps, "app page, sorted by runtime, middle page");
        snprintf(path, sizeof path, "/applications/bench%%20app?sort=nprocs&page=%ld",
                 runs / 100);
        measure(c, base, path, reps, "app page, sorted by nprocs, middle page");
        measure(c, base, "/applications/bench%20app?system=system-a", reps,
                "app page, filtered by system, first page");
        snprintf(path, sizeof path, "/applications/bench%%20app?system=system-a&page=%ld",
                 runs / 200);
        measure(c, base, path, reps, "app page, filtered by system, middle page");
    }
    /* The modeling forms (docs/web.md): the steps read configurations and
     * the latest run of each; a result is one answer of the method, whose
     * cost is the method's (the fit reads the system's runs). */
    measure(c, base, "/model/fit?application=bench%20app&step=3", reps,
            "fit form, step 3 (lists from the configurations)");
    measure(c, base, "/model/couple?application=bench%20app&system=system-a&step=2", reps,
            "coupling form, step 2 (kernels, stored couplings)");
    measure(c, base,
            "/model/fit?application=bench%20app&system=system-a&x=N&graph=poly3&"
            "fix.nprocs=8&fix.L=1024&predict=1200&step=result",
            reps < 20 ? reps : 20, "fit form, result (fit of 7,140 of 50,000 runs)");
    measure(c, base, "/", reps, "overview");
    measure(c, base, "/runs/1", reps, "run page");
    measure(c, base, "/systems/system-a", reps, "system page");
    api_app_read(dbpath, reps < 20 ? reps : 20);

    curl_easy_cleanup(c);
    curl_global_cleanup();
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    if (keep) {
        printf("\nthe database is kept: %s\n", dbpath);
    } else {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "bench_pages: could not remove %s\n", dir);
    }
    return 0;
}
