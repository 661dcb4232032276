/* bench_scale: every page and read of the dashboard and the API over HTTP at
 * the scale of a whole center (1,000,000 runs by default, --runs 10000000
 * for ten million), each next to its bare-SQL ceiling measured in the same
 * run: the same rows read with sqlite3 directly, by the best query the schema
 * allows (keyset, covering index, summaries). The two fits' ceiling is each
 * configuration's count and sum from its summary and one pass over its runs
 * in runs_series for the sum of squares, the least a fit with its
 * repetitions' spread reads (the summaries hold no sum of squares). Also the database's
 * bytes per run, the load time through the store's batched path, and the single-run
 * ingest rate into the full database (POST /api/v1/runs, one client).
 *
 * The data is bench_pages's: one application, one executable, two systems,
 * processors 1..64 (7 values), input N (10 values) and L, 5 kernels per run:
 * 140 configurations. One keep-alive libcurl client asks each URL repeatedly
 * (after a warm-up) for --reps requests or about two seconds, whichever ends
 * first (at least 5; a request of seconds is warmed once and measured for
 * about 10 s, at least once), and prints the median, the 90th percentile,
 * the ceiling's median and the ratio.
 * Usage: bench_scale [--runs N] [--reps N] [--prophecyd PATH] [--db PATH]
 *        [--keep] [--no-fit]   (--db reuses a database a previous --keep
 *        left; --no-fit leaves out the two fits, which read every selected
 *        run: minutes each at 10,000,000 runs)
 */
#include "bench/lib/benchlib.h"
#include "common/arena.h"
#include "db/db.h"
#include "db/runs.h"

#include <curl/curl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int reps_max = 200;
static sqlite3 *bare;

/* Median of the bare-SQL ceiling: sql run to its end, same repetition rule. */
static double ceiling(const char *sql)
{
    double t[1000], t0 = bench_now(), start;
    int i, n = 0, rc;
    sqlite3_stmt *st;

    if (sql == NULL)
        return 0;
    if (sqlite3_prepare_v2(bare, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "bench_scale: %s: %s\n", sql, sqlite3_errmsg(bare));
        exit(1);
    }
    for (i = -2; i < reps_max && n < 1000; i++) {
        start = bench_now();
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            ;
        if (rc != SQLITE_DONE) {
            fprintf(stderr, "bench_scale: %s: %s\n", sql, sqlite3_errmsg(bare));
            exit(1);
        }
        sqlite3_reset(st);
        if (i >= 0)
            t[n++] = (bench_now() - start) * 1e3;
        if (i >= 4 && bench_now() - t0 > 2.0)
            break;
    }
    sqlite3_finalize(st);
    return bench_pct(t, n, 0.5);
}

/* One line of the table (bench_measure) with this bench's sqlite3 ceiling. */
static void measure(CURL *c, const char *base, const char *path, const char *post,
                    const char *sql, const char *label)
{
    bench_measure(c, base, path, post, sql, label, ceiling, reps_max, "bench_scale");
}

/* Single-run transactions through the store (db_runs_insert, sync normal)
 * into the full database for about s seconds: runs/s. */
static double store_rate(const char *path, double s)
{
    static const char *kn[5] = {"init", "rhs", "solve", "exchange", "final"};
    struct err e = {0};
    struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
    double t0;
    long n = 0;
    db *d;

    if (db_open(&d, path, &opt, &e) != 0)
        return 0;
    t0 = bench_now();
    while (bench_now() - t0 < s) {
        struct run_record r = {0};
        struct rec_kv in[2] = {{"N", 500}, {"L", 1024}};
        struct rec_kernel k[5];
        long long id;
        int existed, j;
        r.application = "bench app";
        r.executable = "bench.x";
        r.system = "system-b";
        r.nprocs = 16;
        r.runtime = 0.25 + 1e-9 * (double)n;
        r.submitter = "bench";
        r.inputs = in;
        r.ninputs = 2;
        for (j = 0; j < 5; j++)
            k[j] = (struct rec_kernel){kn[j], 0.01 * (j + 1), 1, NULL};
        r.kernels = k;
        r.nkernels = 5;
        if (db_begin(d, &e) != 0 || db_runs_insert(d, &r, 1, &id, &existed, &e) != 0 ||
            db_commit(d, &e) != 0) {
            fprintf(stderr, "bench_scale: %s\n", e.message);
            break;
        }
        n++;
    }
    t0 = (double)n / (bench_now() - t0);
    db_close(d);
    return t0;
}

static long long scalar(const char *sql)
{
    sqlite3_stmt *st;
    long long v = 0;
    if (sqlite3_prepare_v2(bare, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

int main(int argc, char **argv)
{
    const char *prophecyd = NULL, *reuse = NULL;
    char dir[] = "/tmp/prophecy-bench-scale-XXXXXX", dbpath[600], base[64], exe[512];
    char path[512], sql[1024], token[256] = "", cmd[1200];
    long runs = 1000000;
    int i, port, keep = 0, no_fit = 0;
    long long mid, last_id, first_id, sys_mid, rt_mid;
    double t0, load;
    struct stat sb;
    pid_t pid;
    CURL *c;
    FILE *p;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps_max = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--prophecyd") == 0 && i + 1 < argc)
            prophecyd = argv[++i];
        else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            reuse = argv[++i];
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
        else if (strcmp(argv[i], "--no-fit") == 0)
            no_fit = 1;
    }
    if (runs < 1000 || reps_max < 5 || reps_max > 1000) {
        fprintf(stderr, "usage: bench_scale [--runs N>=1000] [--reps 5..1000] "
                        "[--prophecyd P] [--db PATH] [--keep] [--no-fit]\n");
        return 64;
    }
    if (prophecyd == NULL) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 20);
        exe[n > 0 ? n : 0] = '\0';
        *(strrchr(exe, '/') ? strrchr(exe, '/') : exe) = '\0';
        snprintf(exe + strlen(exe), 20, "/prophecyd");
        prophecyd = exe;
    }
    if (reuse != NULL) {
        snprintf(dbpath, sizeof dbpath, "%s", reuse);
        load = 0;
    } else {
        if (mkdtemp(dir) == NULL)
            return 1;
        snprintf(dbpath, sizeof dbpath, "%s/scale.db", dir);
        t0 = bench_now();
        bench_fill(dbpath, runs, "bench_scale");
        load = bench_now() - t0;
    }
    /* Open once through the store (migrations), then bare. */
    {
        struct err e = {0};
        struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
        db *d;
        if (db_open(&d, dbpath, &opt, &e) != 0) {
            fprintf(stderr, "bench_scale: %s\n", e.message);
            return 1;
        }
        db_close(d);
    }
    if (sqlite3_open_v2(dbpath, &bare, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        return 1;
    runs = (long)scalar("SELECT count(*) FROM runs");
    first_id = scalar("SELECT min(id) FROM runs");
    last_id = scalar("SELECT max(id) FROM runs");
    mid = first_id + (last_id - first_id) / 2;
    sys_mid =
        scalar("SELECT id FROM runs WHERE system_id = (SELECT id FROM systems WHERE "
               "name = 'system-a') ORDER BY id LIMIT 1 OFFSET "
               "(SELECT count(*) / 2 FROM runs WHERE system_id = (SELECT id FROM "
               "systems WHERE name = 'system-a'))");
    /* the run in the middle of the runtime order: where a Next link from
     * the middle page of the sorted table starts */
    snprintf(sql, sizeof sql,
             "SELECT id FROM runs WHERE app_id = 1 ORDER BY runtime, exe_id, system_id, "
             "id LIMIT 1 OFFSET %ld",
             runs / 2);
    rt_mid = scalar(sql);
    stat(dbpath, &sb);
    {
        /* the pages in use: a reused database may hold free pages (a
         * migration that rebuilt an index) that the file still counts */
        double used =
            (double)(scalar("PRAGMA page_count") - scalar("PRAGMA freelist_count")) *
            (double)scalar("PRAGMA page_size");
        printf("bench_scale: %ld runs of one application (140 configurations, 5 kernels "
               "each); load %.1f s (%.0f runs/s, batched, sync off); %.0f bytes per run "
               "in use (%.0f runs per GB; the file: %.0f bytes per run)\n",
               runs, load, load > 0 ? (double)runs / load : 0, used / runs,
               1e9 * runs / used, (double)sb.st_size / runs);
    }

    snprintf(cmd, sizeof cmd, "%s token create bench-scale-%ld --db %s 2>/dev/null",
             prophecyd, (long)getpid(), dbpath);
    if ((p = popen(cmd, "r")) != NULL) {
        if (fgets(token, sizeof token, p) == NULL)
            token[0] = '\0';
        token[strcspn(token, "\r\n")] = '\0';
        pclose(p);
    }

    port = bench_first_port();
    pid = fork();
    if (pid == 0) {
        char listen[64];
        snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
        execl(prophecyd, "prophecyd", "serve", "--db", dbpath, "--listen", listen,
              "--sync", "normal", "--quiet", (char *)NULL);
        _exit(127);
    }
    usleep(800000);
    snprintf(base, sizeof base, "http://127.0.0.1:%d", port);
    curl_global_init(CURL_GLOBAL_ALL);
    c = curl_easy_init();

    printf("\n%-52s %9s %9s %9s %9s %8s\n", "request (one keep-alive client)",
           "median ms", "p90 ms", "ceiling", "ratio", "bytes");
    measure(c, base, "/api/v1/health", NULL, NULL,
            "trivial request (GET /api/v1/health)");
    measure(c, base, "/", NULL,
            "SELECT a.id, (SELECT sum(runs) FROM run_configs c WHERE c.app_id = a.id) "
            "FROM applications a",
            "overview");
    measure(c, base, "/applications/bench%20app", NULL,
            "SELECT id, runtime, nprocs FROM runs WHERE app_id = 1 ORDER BY id DESC "
            "LIMIT 50",
            "app page, first page");
    /* The pager's links carry a cursor (?after= the last run of the page
     * before); ?page=N alone is what an old link asks (an offset walk). */
    snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld&after=%lld",
             runs / 100, mid);
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE app_id = 1 AND id < %lld "
             "ORDER BY id DESC LIMIT 50",
             mid);
    measure(c, base, path, NULL, sql, "app page, middle page (Next link)");
    snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld&before=%lld",
             runs / 100, mid);
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE app_id = 1 AND id > %lld "
             "ORDER BY id LIMIT 50",
             mid);
    measure(c, base, path, NULL, sql, "app page, middle page (Previous link)");
    snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld", runs / 100);
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE app_id = 1 AND id < %lld "
             "ORDER BY id DESC LIMIT 50",
             mid);
    measure(c, base, path, NULL, sql, "app page, middle page (old ?page=N link)");
    snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld", (runs + 49) / 50);
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE app_id = 1 AND id < %lld "
             "ORDER BY id DESC LIMIT 50",
             first_id + 50);
    measure(c, base, path, NULL, sql, "app page, last page");
    snprintf(sql, sizeof sql,
             "SELECT id FROM runs WHERE app_id = 1 AND (runtime, exe_id, system_id) > "
             "(SELECT runtime, exe_id, system_id FROM runs WHERE id = %lld) ORDER BY "
             "runtime, exe_id, system_id, id LIMIT 50",
             rt_mid);
    snprintf(path, sizeof path,
             "/applications/bench%%20app?sort=runtime&page=%ld&after=%lld", runs / 100,
             rt_mid);
    measure(c, base, path, NULL, sql, "app page, sorted by runtime, middle (Next link)");
    snprintf(path, sizeof path, "/applications/bench%%20app?sort=runtime&page=%ld",
             runs / 100);
    measure(c, base, path, NULL, sql, "app page, sorted by runtime, middle (old link)");
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE system_id = (SELECT id FROM "
             "systems WHERE name = 'system-a') AND app_id = 1 AND id < %lld ORDER BY id "
             "DESC LIMIT 50",
             sys_mid);
    snprintf(path, sizeof path,
             "/applications/bench%%20app?system=system-a&page=%ld&after=%lld", runs / 200,
             sys_mid);
    measure(c, base, path, NULL, sql, "app page, by system, middle (Next link)");
    snprintf(path, sizeof path, "/applications/bench%%20app?system=system-a&page=%ld",
             runs / 200);
    measure(c, base, path, NULL, sql, "app page, by system, middle (old link)");
    snprintf(
        path, sizeof path,
        "/applications/bench%%20app?system=system-a&sort=runtime&page=%ld&after=%lld",
        runs / 200, rt_mid);
    snprintf(sql, sizeof sql,
             "SELECT id FROM runs WHERE app_id = 1 AND system_id = (SELECT id FROM "
             "systems WHERE name = 'system-a') AND (runtime, exe_id, system_id) > "
             "(SELECT runtime, exe_id, system_id FROM runs WHERE id = %lld) ORDER BY "
             "runtime, exe_id, system_id, id LIMIT 50",
             rt_mid);
    measure(c, base, path, NULL, sql, "app page, by system, by runtime (Next link)");
    snprintf(path, sizeof path, "/runs/%lld", mid);
    snprintf(sql, sizeof sql,
             "SELECT * FROM runs r, kernels k WHERE r.id = %lld AND k.run_id = r.id",
             mid);
    measure(c, base, path, NULL, sql, "run page");
    measure(c, base, "/systems/system-a", NULL,
            "SELECT app_id, sum(runs) FROM run_configs WHERE system_id = 1 GROUP BY "
            "app_id",
            "system page");
    measure(c, base, "/models", NULL, "SELECT * FROM models ORDER BY id DESC LIMIT 50",
            "models list");
    measure(c, base, "/api/v1/applications/bench%20app", NULL,
            "SELECT system_id, sum(runs), min(nprocs), max(nprocs) FROM run_configs "
            "WHERE app_id = 1 GROUP BY system_id",
            "GET /api/v1/applications/{name}");
    snprintf(path, sizeof path,
             "/api/v1/runs?application=bench%%20app&limit=100&after=%lld", mid);
    snprintf(sql, sizeof sql,
             "SELECT * FROM runs r, kernels k WHERE r.app_id = 1 AND r.id > %lld AND "
             "k.run_id = r.id ORDER BY r.id LIMIT 500",
             mid);
    measure(c, base, path, NULL, sql, "GET /api/v1/runs, cursor, 100 runs");
    if (no_fit)
        printf("%-52s (not measured: --no-fit)\n", "database fit, fit form result");
    else
        measure(
            c, base, "/api/v1/fit",
            "{\"application\": \"bench app\", \"system\": \"system-a\", \"x\": "
            "\"nprocs\", \"fixed\": {\"N\": 500, \"L\": 1024}, \"graph\": \"inv1\"}",
            "SELECT c.nprocs, c.runs, c.sum_runtime, (SELECT sum(r.runtime * r.runtime) "
            "FROM runs r WHERE r.config_id = c.id) FROM run_configs c WHERE c.app_id = 1 "
            "AND c.system_id = (SELECT id FROM systems WHERE name = 'system-a') AND "
            "json_extract(c.inputs, '$.N') = 500 AND json_extract(c.inputs, '$.L') = "
            "1024",
            "database fit over one series (x = nprocs)");
    if (!no_fit)
        measure(
            c, base,
            "/model/fit?application=bench%20app&system=system-a&x=N&graph=poly3&"
            "fix.nprocs=8&fix.L=1024&predict=1200&step=result",
            NULL,
            "SELECT json_extract(c.inputs, '$.N'), c.runs, c.sum_runtime, (SELECT "
            "sum(r.runtime * r.runtime) FROM runs r WHERE r.config_id = c.id) FROM "
            "run_configs c WHERE c.app_id = 1 AND c.system_id = (SELECT id FROM systems "
            "WHERE name = 'system-a') AND c.nprocs = 8 AND json_extract(c.inputs, '$.L') "
            "= 1024",
            "fit form, result (x = N, nprocs fixed)");
    {
        long long cfg = scalar(
            "SELECT c.id FROM run_configs c JOIN systems s ON s.id = c.system_id WHERE "
            "s.name = 'system-a' AND c.nprocs = 8 AND json_extract(c.inputs, '$.N') = "
            "500");
        char label[80];
        snprintf(sql, sizeof sql,
                 "SELECT r.id, coalesce(r.started_at, r.created_at), r.vcs_commit, "
                 "r.runtime FROM runs r WHERE r.config_id = %lld ORDER BY "
                 "coalesce(r.started_at, r.created_at), r.id",
                 cfg);
        snprintf(path, sizeof path, "SELECT count(*) FROM runs WHERE config_id = %lld",
                 cfg);
        snprintf(label, sizeof label, "GET /api/v1/series (%lld points)", scalar(path));
        measure(c, base,
                "/api/v1/series?application=bench%20app&system=system-a&nprocs=8&"
                "input.N=500&input.L=1024&y=runtime",
                NULL, sql, label);
    }
    if (token[0] != '\0')
        printf("\nsingle-run ingest into the full database (one client, sync normal): "
               "%.0f runs/s\n",
               bench_ingest_rate(c, base, token, 5.0, "bench_scale"));
    else
        printf("\n(no token: ingest rate not measured)\n");

    curl_easy_cleanup(c);
    curl_global_cleanup();
    sqlite3_close(bare);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    /* What the summaries' triggers cost ingest, in the same run: single-run
     * transactions through the store with the triggers and without them,
     * alternated three times (the machine is shared: medians of the rounds). */
    if (reuse == NULL) {
        double with[3], without[3];
        char trig[2][1024] = {"", ""};
        sqlite3 *w;
        sqlite3_stmt *st;
        int k = 0;
        if (sqlite3_open(dbpath, &w) != SQLITE_OK ||
            sqlite3_prepare_v2(w,
                               "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND "
                               "name IN ('app_kernels_add', 'app_metrics_add')",
                               -1, &st, NULL) != SQLITE_OK)
            return 1;
        while (k < 2 && sqlite3_step(st) == SQLITE_ROW)
            snprintf(trig[k++], sizeof trig[0], "%s", sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        for (i = 0; i < 3; i++) {
            with[i] = store_rate(dbpath, 3.0);
            if (sqlite3_exec(w,
                             "DROP TRIGGER app_kernels_add; DROP TRIGGER app_metrics_add",
                             NULL, NULL, NULL) != SQLITE_OK)
                return 1;
            without[i] = store_rate(dbpath, 3.0);
            if (sqlite3_exec(w, trig[0], NULL, NULL, NULL) != SQLITE_OK ||
                sqlite3_exec(w, trig[1], NULL, NULL, NULL) != SQLITE_OK)
                return 1;
        }
        sqlite3_close(w);
        printf("single-run transactions through the store (sync normal): %.0f runs/s "
               "with the summary triggers, %.0f without (%.2fx)\n",
               bench_pct(with, 3, 0.5), bench_pct(without, 3, 0.5),
               bench_pct(with, 3, 0.5) / bench_pct(without, 3, 0.5));
    }
    if (reuse == NULL) {
        if (keep) {
            printf("\nthe database is kept: %s\n", dbpath);
        } else {
            snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
            if (system(cmd) != 0)
                fprintf(stderr, "bench_scale: could not remove %s\n", dir);
        }
    }
    return 0;
}
