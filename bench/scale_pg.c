/* bench_scale_pg: bench_scale's reads on PostgreSQL — the same data set
 * (bench_fill: 140 configurations, 5 kernels per run), the same pages and API
 * reads over HTTP from one keep-alive client, each next to its bare-SQL
 * ceiling measured in the same run through libpq (the same rows by the best
 * query the schema allows, as bench_scale's sqlite3 ceilings), the database's
 * bytes per run and the single-run ingest rate into the full database.
 *
 * Usage: bench_scale_pg --db postgresql://... [--runs N] [--reps N]
 *        [--prophecyd PATH] [--keep | --reuse]
 * --db names a database to connect to for creating the scratch database
 * bench_scale_pg on the same server (e.g. postgresql:///postgres); --keep
 * leaves it for a later --reuse, which measures it without loading.
 */
#include "bench/lib/benchlib.h"
#include "bench/lib/benchpg.h"

#include <curl/curl.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int reps_max = 200;
static PGconn *bare;

/* Median of the bare-SQL ceiling: sql run to its end (every row fetched to
 * the client, as the server's own reads), same repetition rule as the
 * HTTP side. */
static double ceiling(const char *sql)
{
    double t[1000], t0 = bench_now(), start;
    int i, n = 0;

    if (sql == NULL)
        return 0;
    for (i = -2; i < reps_max && n < 1000; i++) {
        PGresult *r;
        start = bench_now();
        r = PQexecParams(bare, sql, 0, NULL, NULL, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            fprintf(stderr, "bench_scale_pg: %s: %s", sql, PQerrorMessage(bare));
            exit(1);
        }
        PQclear(r);
        if (i >= 0)
            t[n++] = (bench_now() - start) * 1e3;
        if (i >= 4 && bench_now() - t0 > 2.0)
            break;
    }
    return bench_pct(t, n, 0.5);
}

/* One line of the table (bench_measure) with this bench's libpq ceiling. */
static void measure(CURL *c, const char *base, const char *path, const char *post,
                    const char *sql, const char *label)
{
    bench_measure(c, base, path, post, sql, label, ceiling, reps_max, "bench_scale_pg");
}

static long long scalar(const char *sql)
{
    PGresult *r = PQexec(bare, sql);
    long long v = 0;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
        v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return v;
}

int main(int argc, char **argv)
{
    const char *prophecyd = NULL, *pg = NULL;
    char uri[1024], base[64], exe[512], path[512], sql[1024], token[256] = "", cmd[1600];
    long runs = 1000000;
    int i, port, keep = 0, reuse = 0;
    long long mid, last_id, first_id, sys_mid, bytes;
    double t0, load = 0;
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
            pg = argv[++i];
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
        else if (strcmp(argv[i], "--reuse") == 0)
            reuse = 1;
    }
    if (pg == NULL || runs < 1000 || reps_max < 5 || reps_max > 1000) {
        fprintf(stderr, "usage: bench_scale_pg --db postgresql://... [--runs N>=1000] "
                        "[--reps 5..1000] [--prophecyd P] [--keep | --reuse]\n");
        return 64;
    }
    if (prophecyd == NULL) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 20);
        exe[n > 0 ? n : 0] = '\0';
        *(strrchr(exe, '/') ? strrchr(exe, '/') : exe) = '\0';
        snprintf(exe + strlen(exe), 20, "/prophecyd");
        prophecyd = exe;
    }
    if (reuse) {
        benchpg_uri(pg, "bench_scale_pg", uri, sizeof uri);
    } else {
        benchpg_database(pg, "bench_scale_pg", uri, sizeof uri);
        t0 = bench_now();
        bench_fill(uri, runs, "bench_scale_pg");
        load = bench_now() - t0;
    }
    bare = PQconnectdb(uri);
    if (PQstatus(bare) != CONNECTION_OK) {
        fprintf(stderr, "bench_scale_pg: %s", PQerrorMessage(bare));
        return 1;
    }
    PQclear(PQexec(bare, "VACUUM ANALYZE"));
    runs = (long)scalar("SELECT count(*) FROM runs");
    first_id = scalar("SELECT min(id) FROM runs");
    last_id = scalar("SELECT max(id) FROM runs");
    mid = first_id + (last_id - first_id) / 2;
    sys_mid =
        scalar("SELECT id FROM runs WHERE system_id = (SELECT id FROM systems WHERE "
               "name = 'system-a') ORDER BY id LIMIT 1 OFFSET "
               "(SELECT count(*) / 2 FROM runs WHERE system_id = (SELECT id FROM "
               "systems WHERE name = 'system-a'))");
    bytes = scalar("SELECT pg_database_size(current_database()) - (SELECT "
                   "pg_database_size('template0'))");
    printf("bench_scale_pg: %ld runs of one application (140 configurations, 5 kernels "
           "each) in PostgreSQL; load %.1f s (%.0f runs/s, batched through the store); "
           "%.0f bytes per run (%.0f runs per GB; tables and indexes, after VACUUM)\n",
           runs, load, load > 0 ? (double)runs / load : 0, (double)bytes / runs,
           1e9 * runs / (double)bytes);

    snprintf(cmd, sizeof cmd, "%s token create bench-scale-%ld --db '%s' 2>/dev/null",
             prophecyd, (long)getpid(), uri);
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
        execl(prophecyd, "prophecyd", "serve", "--db", uri, "--listen", listen, "--sync",
              "normal", "--quiet", (char *)NULL);
        _exit(127);
    }
    usleep(1500000);
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
    snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld", runs / 100);
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE app_id = 1 AND id < %lld "
             "ORDER BY id DESC LIMIT 50",
             mid);
    measure(c, base, path, NULL, sql, "app page, middle page");
    snprintf(path, sizeof path, "/applications/bench%%20app?page=%ld", (runs + 49) / 50);
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE app_id = 1 AND id < %lld "
             "ORDER BY id DESC LIMIT 50",
             first_id + 50);
    measure(c, base, path, NULL, sql, "app page, last page");
    snprintf(path, sizeof path, "/applications/bench%%20app?sort=runtime&page=%ld",
             runs / 100);
    measure(c, base, path, NULL,
            "SELECT id FROM runs WHERE app_id = 1 AND runtime > (SELECT runtime FROM "
            "runs WHERE id = 7) ORDER BY runtime LIMIT 50",
            "app page, sorted by runtime, middle page");
    snprintf(path, sizeof path, "/applications/bench%%20app?system=system-a&page=%ld",
             runs / 200);
    snprintf(sql, sizeof sql,
             "SELECT id, runtime, nprocs FROM runs WHERE system_id = (SELECT id FROM "
             "systems WHERE name = 'system-a') AND app_id = 1 AND id < %lld ORDER BY id "
             "DESC LIMIT 50",
             sys_mid);
    measure(c, base, path, NULL, sql, "app page, filtered by system, middle page");
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
             "SELECT * FROM (SELECT * FROM runs WHERE app_id = 1 AND id > %lld ORDER BY "
             "id LIMIT 100) r JOIN kernels k ON k.run_id = r.id ORDER BY r.id, k.seq",
             mid);
    measure(c, base, path, NULL, sql, "GET /api/v1/runs, cursor, 100 runs");
    measure(
        c, base, "/api/v1/fit",
        "{\"application\": \"bench app\", \"system\": \"system-a\", \"x\": "
        "\"nprocs\", \"fixed\": {\"N\": 500, \"L\": 1024}, \"graph\": \"inv1\"}",
        "SELECT nprocs, sum(runs), sum(sum_runtime) FROM run_configs WHERE app_id = 1 "
        "AND system_id = (SELECT id FROM systems WHERE name = 'system-a') AND "
        "(inputs::jsonb->>'N')::float8 = 500 GROUP BY nprocs",
        "database fit over one series (x = nprocs)");
    measure(c, base,
            "/model/fit?application=bench%20app&system=system-a&x=N&graph=poly3&"
            "fix.nprocs=8&fix.L=1024&predict=1200&step=result",
            NULL,
            "SELECT (inputs::jsonb->>'N')::float8, sum(runs), sum(sum_runtime) FROM "
            "run_configs WHERE app_id = 1 AND system_id = (SELECT id FROM systems WHERE "
            "name = 'system-a') AND nprocs = 8 GROUP BY 1",
            "fit form, result (x = N, nprocs fixed)");
    if (token[0] != '\0')
        printf("\nsingle-run ingest into the full database (one client, sync normal): "
               "%.0f runs/s\n",
               bench_ingest_rate(c, base, token, 5.0, "bench_scale_pg"));
    else
        printf("\n(no token: ingest rate not measured)\n");

    curl_easy_cleanup(c);
    curl_global_cleanup();
    PQfinish(bare);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    if (keep || reuse)
        printf("\nthe database is kept: %s (measure it again with --reuse)\n", uri);
    else
        benchpg_drop(pg, "bench_scale_pg");
    return 0;
}
