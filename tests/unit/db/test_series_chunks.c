/* A runtime series read from its packed chunks (db/sqlite/series.c, schema
 * migration 10) answers exactly as the index rows do, through everything
 * that could make them disagree: runs in no time order with ties of time
 * across a chunk's edge, back-dated runs (stored, or re-timed), a run added
 * at a chunk's last time, a delete, a changed runtime and commit, commits of
 * every length and none. The truth is the old
 * read: the rows of runs in (at_ms, id) order through a second connection
 * that knows nothing of chunks. Also: a damaged chunk is an error, and a
 * read never waits for the writer's lock to pack (nor packs inside the
 * caller's transaction). */
#include "db/copy.h"
#include "db/db.h"
#include "db/history.h"
#include "db/runs.h"
#include "tests/harness.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-series-chunks-XXXXXX";
static char path[128];
static unsigned long long rng = 88172645463325252ull;

static unsigned next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* Stores n runs at nprocs with times drawn from `days` minutes (so many
 * share a time), in batches of 500. */
static void put(db *d, int nprocs, int n, int minutes)
{
    struct err e = {0};
    static char at[500][32], commit[500][80];
    struct run_record r[500];
    long long ids[500];
    int existed[500];

    while (n > 0) {
        int m = n < 500 ? n : 500;
        memset(r, 0, sizeof r);
        for (int k = 0; k < m; k++) {
            unsigned t = next() % (unsigned)minutes, c = next() % 4;
            snprintf(at[k], sizeof at[k], "2026-%02u-%02uT%02u:%02u:00Z",
                     1 + t / 40320 % 12, 1 + t / 1440 % 28, t / 60 % 24, t % 60);
            /* no commit, a short one, a 40-hex one, one of 64 bytes */
            snprintf(
                commit[k], sizeof commit[k], "%s",
                c == 1 ? "c1"
                : c == 2
                    ? "0123456789abcdef0123456789abcdef01234567"
                    : "v1.2.3-456-g0123456789abcdef0123456789abcdef01234567abcdefab");
            r[k].application = "app";
            r[k].executable = "a.x";
            r[k].system = "sys";
            r[k].nprocs = nprocs;
            r[k].runtime = 1.0 + (double)(next() % 100000) / 7.0;
            r[k].started_at = at[k];
            r[k].submitter = "";
            r[k].commit = c == 0 ? NULL : commit[k];
        }
        CHECK_INT(db_begin(d, &e), 0);
        CHECK_INT(db_runs_insert(d, r, (size_t)m, ids, existed, &e), 0);
        CHECK_INT(db_commit(d, &e), 0);
        n -= m;
    }
}

static long long config_of(sqlite3 *h, int nprocs)
{
    sqlite3_stmt *st;
    long long id = 0;
    sqlite3_prepare_v2(h, "SELECT id FROM run_configs WHERE nprocs = ?1", -1, &st, NULL);
    sqlite3_bind_int(st, 1, nprocs);
    if (sqlite3_step(st) == SQLITE_ROW)
        id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return id;
}

static long long scalar(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void exec(sqlite3 *h, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, msg);
        CHECK(0);
    }
    sqlite3_free(msg);
}

static int compared;

/* The series of nprocs through d equals the rows of runs read through h. */
static void same(db *d, sqlite3 *h, int nprocs)
{
    struct err e = {0};
    struct db_series_point *p;
    arena *a = arena_new();
    long long config = config_of(h, nprocs);
    sqlite3_stmt *st;
    int n = db_history_series(d, config, "runtime", a, &p, &e), i = 0, bad = 0;

    CHECK(n > 0);
    sqlite3_prepare_v2(
        h,
        "SELECT id, at_ms, vcs_commit, runtime FROM runs WHERE config_id = "
        "?1 ORDER BY at_ms, id",
        -1, &st, NULL);
    sqlite3_bind_int64(st, 1, config);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *c = (const char *)sqlite3_column_text(st, 2);
        if (i >= n || p[i].run != sqlite3_column_int64(st, 0) ||
            p[i].at != sqlite3_column_int64(st, 1) ||
            memcmp(&p[i].value, &(double){sqlite3_column_double(st, 3)}, 8) != 0 ||
            (c == NULL) != (p[i].commit == NULL) || (c && strcmp(c, p[i].commit) != 0)) {
            if (bad++ == 0)
                fprintf(stderr, "point %d of nprocs %d differs (run %lld)\n", i, nprocs,
                        i < n ? p[i].run : -1);
        }
        i++;
    }
    sqlite3_finalize(st);
    CHECK_INT(bad, 0);
    CHECK_INT(i, n);
    compared += n;
    arena_free(a);
}

static long long chunks(sqlite3 *h, int nprocs)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM series_chunks WHERE config_id = %lld",
             config_of(h, nprocs));
    return scalar(h, sql);
}

static void test_chunks_answer_as_rows(void)
{
    struct err e = {0};
    char sql[256];
    sqlite3 *h;
    db *d;
    long long id, n;

    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
    /* 5,000 runs over 900 minutes: ties of time everywhere, chunk edges in them */
    put(d, 4, 5000, 900);
    put(d, 8, 3000, 100000);
    CHECK_INT(chunks(h, 4), 0);
    same(d, h, 4); /* from the rows, then packed */
    CHECK_INT(chunks(h, 4), 4);
    CHECK_INT(scalar(h, "SELECT sum(n) FROM series_chunks"), 4 * 1024);
    same(d, h, 4); /* from the chunks and a rest of 904 */
    same(d, h, 8);
    CHECK_INT(chunks(h, 8), 2);

    /* a run at the first chunk's last time, after its last point by id: the
     * first chunk stays, the ones after go, the run is in the rest */
    snprintf(sql, sizeof sql,
             "SELECT min(last_at) FROM series_chunks WHERE config_id = %lld",
             config_of(h, 4));
    n = scalar(h, sql);
    {
        struct run_record r = {0};
        char at[32];
        int existed;
        time_t t = (time_t)(n / 1000);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%SZ", &tm);
        r.application = "app";
        r.executable = "a.x";
        r.system = "sys";
        r.nprocs = 4;
        r.runtime = 0.5;
        r.started_at = at;
        r.submitter = "";
        CHECK_INT(db_begin(d, &e), 0);
        CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
        CHECK_INT(db_commit(d, &e), 0);
    }
    CHECK_INT(chunks(h, 4), 1);
    same(d, h, 4);

    /* a back-dated run drops every chunk after it */
    exec(h, "UPDATE runs SET at_ms = 0 WHERE id = (SELECT max(id) FROM runs)");
    CHECK_INT(chunks(h, 4), 0);
    same(d, h, 4);
    CHECK_INT(chunks(h, 4), 4);

    /* a delete in the middle, a changed runtime, a changed commit */
    snprintf(sql, sizeof sql,
             "SELECT id FROM runs WHERE config_id = %lld ORDER BY at_ms, id LIMIT 1 "
             "OFFSET 2500",
             config_of(h, 4));
    id = scalar(h, sql);
    CHECK_INT(db_run_delete(d, id, &e), 0);
    CHECK_INT(chunks(h, 4), 2);
    same(d, h, 4);
    snprintf(sql, sizeof sql, "UPDATE runs SET runtime = 1e300 WHERE id = %lld", id + 1);
    exec(h, sql);
    same(d, h, 4);
    snprintf(sql, sizeof sql, "UPDATE runs SET vcs_commit = NULL WHERE id = %lld",
             id + 2);
    exec(h, sql);
    same(d, h, 4);

    /* a back-dated run stored as any run is (db_summary_add_run drops the
     * chunks after it): 100 of them, spread over the other series */
    same(d, h, 8);
    CHECK_INT(chunks(h, 8), 2);
    put(d, 8, 100, 200000);
    CHECK(chunks(h, 8) < 2);
    same(d, h, 8);
    CHECK_INT(chunks(h, 8), 3);
    fprintf(stderr, "%d points compared\n", compared);
    sqlite3_close(h);
    db_close(d);
}

static void test_damaged_chunk_is_an_error(void)
{
    struct err e = {0};
    struct db_series_point *p;
    arena *a = arena_new();
    sqlite3 *h;
    db *d;
    long long config;

    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
    config = config_of(h, 4);
    same(d, h, 4);
    CHECK(chunks(h, 4) > 0);
    /* one byte short of its last point */
    exec(h, "UPDATE series_chunks SET points = substr(points, 1, length(points) - 1)");
    CHECK_INT(db_history_series(d, config, "runtime", a, &p, &e), -1);
    CHECK_INT(e.status, ERR_INTERNAL);
    CHECK(strstr(e.message, "damaged") != NULL);
    exec(h, "DELETE FROM series_chunks");
    same(d, h, 4);
    arena_free(a);
    sqlite3_close(h);
    db_close(d);
}

static void test_read_never_waits_to_pack(void)
{
    struct err e = {0};
    struct timespec t0, t1;
    sqlite3 *h;
    db *d;

    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
    exec(h, "DELETE FROM series_chunks");
    /* another connection holds the write lock: the read answers at once,
     * from the rows, and leaves the packing to a later read */
    exec(h, "BEGIN IMMEDIATE");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    same(d, h, 4);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK((double)(t1.tv_sec - t0.tv_sec) < 5.0); /* the busy timeout is 10 s */
    exec(h, "COMMIT");
    CHECK_INT(chunks(h, 4), 0);
    /* nor inside the caller's transaction */
    CHECK_INT(db_begin(d, &e), 0);
    same(d, h, 4);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(chunks(h, 4), 0);
    same(d, h, 4);
    CHECK(chunks(h, 4) > 0);
    sqlite3_close(h);
    db_close(d);
}

/* The chunks are this engine's cache, not data: a copy neither refuses the
 * table nor carries it, and the copy's first read packs its own. */
static void test_copy_leaves_the_chunks(void)
{
    struct err e = {0};
    char to[160];
    sqlite3 *h, *h2;
    db *d, *d2;

    snprintf(to, sizeof to, "%s/copy.db", dir);
    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    CHECK_INT(db_open(&d2, to, NULL, &e), 0);
    CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
    CHECK_INT(sqlite3_open(to, &h2), SQLITE_OK);
    CHECK(chunks(h, 4) > 0);
    if (db_copy(d, d2, NULL, &e) != 0)
        fprintf(stderr, "copy: %s\n", e.message);
    CHECK_INT(e.status, 0);
    CHECK_INT(scalar(h2, "SELECT count(*) FROM series_chunks"), 0);
    same(d2, h2, 4);
    CHECK_INT(chunks(h2, 4), chunks(h, 4));
    same(d2, h2, 8);
    sqlite3_close(h2);
    sqlite3_close(h);
    db_close(d2);
    db_close(d);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof path, "%s/s.db", dir);
    RUN(test_chunks_answer_as_rows);
    RUN(test_damaged_chunk_is_an_error);
    RUN(test_read_never_waits_to_pack);
    RUN(test_copy_leaves_the_chunks);
    return harness_report_removing(dir);
}
