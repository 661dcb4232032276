/* Unit tests for db/codec: the configuration key is the text SQLite's
 * json_group_object writes (which keyed every existing database), checked
 * against SQLite itself over edge cases and 20,000 random values and names;
 * varints, judgements and series chunks read back what they wrote, and a
 * damaged blob is refused. */
#include "db/codec.h"
#include "common/xalloc.h"
#include "tests/harness.h"

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* json_group_object over (name, value) rows of a REAL column, ordered by name,
 * as schema.sql's backfill and the old insert computed the key. */
static char *sqlite_key(sqlite3 *h, const struct rec_kv *kv, size_t n)
{
    sqlite3_stmt *st;
    char *out;
    size_t i;
    sqlite3_exec(h, "DELETE FROM t", NULL, NULL, NULL);
    sqlite3_prepare_v2(h, "INSERT INTO t (name, value) VALUES (?1, ?2)", -1, &st, NULL);
    for (i = 0; i < n; i++) {
        sqlite3_bind_text(st, 1, kv[i].name, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 2, kv[i].value);
        sqlite3_step(st);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_prepare_v2(h,
                       "SELECT coalesce(json_group_object(name, value), '{}') FROM "
                       "(SELECT name, value FROM t ORDER BY name)",
                       -1, &st, NULL);
    sqlite3_step(st);
    out = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

static int same_key(sqlite3 *h, struct rec_kv *kv, size_t n)
{
    char *want = sqlite_key(h, kv, n);
    struct buf b;
    int ok;
    buf_init(&b, 1 << 20);
    db_inputs_key(kv, n, &b);
    ok = strcmp(buf_str(&b), want) == 0;
    if (!ok)
        printf("  key %s, SQLite %s\n", buf_str(&b), want);
    buf_free(&b);
    free(want);
    return ok;
}

static double random_double(unsigned *seed)
{
    switch (rand_r(seed) % 5) {
    case 0: /* any bits that are a finite number */
    {
        uint64_t u = 0;
        double v;
        for (int i = 0; i < 4; i++)
            u = u << 16 | (uint64_t)(rand_r(seed) & 0xffff);
        memcpy(&v, &u, sizeof v);
        return isfinite(v) ? v : 1.5;
    }
    case 1: /* whole numbers, some beyond 15 digits */
        return (double)(rand_r(seed) % 1000000) * pow(10, rand_r(seed) % 20);
    case 2: /* decimals as users type them */
        return (double)(rand_r(seed) % 100000) / pow(10, rand_r(seed) % 12);
    case 3:
        return -(double)rand_r(seed) / RAND_MAX * pow(10, rand_r(seed) % 40 - 20);
    default:
        return (double)rand_r(seed) / RAND_MAX;
    }
}

static void test_key_is_sqlites_json_group_object(void)
{
    static const double edge[] = {0.0,
                                  -0.0,
                                  1.0,
                                  -1.0,
                                  0.1,
                                  1e15,
                                  1e16,
                                  1e-5,
                                  1.5e-7,
                                  1e100,
                                  1e-300,
                                  5e-324,
                                  1e308,
                                  1.0 / 3,
                                  2.0 / 3,
                                  123456789012345678.0,
                                  4096.0,
                                  0.3,
                                  999999999999999.0,
                                  1e21};
    static const char *const names[] = {"N",    "L",    "eps", "k\"/", "a\\b", "tab\t",
                                        "nl\n", "\x01", "é",   "Zeta", "_",    "a b"};
    sqlite3 *h;
    unsigned seed = 20261129;
    struct rec_kv kv[8];
    size_t i, k;
    int bad = 0;

    CHECK(sqlite3_open(":memory:", &h) == SQLITE_OK);
    sqlite3_exec(h, "CREATE TABLE t (name TEXT NOT NULL, value REAL NOT NULL)", NULL,
                 NULL, NULL);
    CHECK(same_key(h, kv, 0));
    for (i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        kv[0] = (struct rec_kv){"x", edge[i]};
        bad += !same_key(h, kv, 1);
    }
    for (i = 0; i < 20000 && bad < 5; i++) {
        size_t n = 1 + (size_t)rand_r(&seed) % 6;
        for (k = 0; k < n; k++) {
            kv[k].name = names[(k * 2 + (size_t)rand_r(&seed) % 2) % 12];
            kv[k].value = random_double(&seed);
        }
        /* distinct names, as a run's inputs are */
        for (k = 1; k < n; k++)
            if (strcmp(kv[k].name, kv[k - 1].name) == 0)
                n = k;
        bad += !same_key(h, kv, n);
    }
    CHECK_INT(bad, 0);
    sqlite3_close(h);
}

static void test_varints_read_back(void)
{
    static const unsigned long long v[] = {0,   1,     127,   128,
                                           300, 16383, 16384, (1ull << 63) - 1};
    unsigned char p[10];
    unsigned long long got;
    size_t i, n;
    for (i = 0; i < sizeof v / sizeof v[0]; i++) {
        n = db_put_varint(p, v[i]);
        CHECK_INT(db_get_varint(p, n, &got), n);
        CHECK(got == v[i]);
        CHECK_INT(db_get_varint(p, n - 1, &got), 0); /* cut short */
    }
}

static void test_judgements_read_back_and_damage_is_refused(void)
{
    struct db_judgement j[3] = {0};
    struct db_judged u = {0};
    struct err e = {0};
    unsigned char out[512];
    size_t len;

    j[0] = (struct db_judgement){.watch_id = 3,
                                 .ready = 1,
                                 .value = 1.5,
                                 .expected = 1.0,
                                 .lo = 0.5,
                                 .hi = 2.0,
                                 .score = 0.25};
    j[1] = j[0];
    j[1].watch_id = 9; /* the same verdict: stored once */
    j[2] = j[0];
    j[2].watch_id = 400;
    j[2].out = 1;
    j[2].direction = -1;
    j[2].has_x = 1;
    j[2].x = 64;
    CHECK(db_judged_bound(3) <= sizeof out);
    len = db_judged_pack(j, 3, out);
    CHECK(len > 0);
    CHECK_INT(db_judged_decode(out, len, 77, &u, &e), 0);
    CHECK_INT(u.n, 3);
    CHECK_INT(u.j[1].watch_id, 9);
    CHECK_INT(u.j[2].watch_id, 400);
    CHECK_INT(u.j[2].direction, -1);
    CHECK(u.j[2].has_x && u.j[2].x == 64 && u.j[0].value == 1.5 && u.j[1].run_id == 77);
    CHECK_INT(db_judged_decode(out, len - 1, 77, &u, &e), -1);
    CHECK_INT(e.status, ERR_INTERNAL);
    CHECK(strstr(e.message, "run 77") != NULL);
    db_judged_free(&u);
}

static void test_chunk_reads_back(void)
{
    static struct db_chunk u;
    struct err e = {0};
    unsigned char blob[256];
    size_t len = 1;
    blob[0] = DB_CHUNK_FORMAT;
    db_chunk_put(blob + len, 1000, 5, 2.5, "abc", 3);
    len += DB_CHUNK_POINT(3);
    db_chunk_put(blob + len, -7, 6, -0.0, NULL, 0);
    len += DB_CHUNK_POINT(0);
    CHECK_INT(db_chunk_decode(blob, len, 2, &u, 42, &e), 0);
    CHECK_INT(u.p[0].at, 1000);
    CHECK_INT(u.p[0].run, 5);
    CHECK_STR(u.p[0].commit, "abc");
    CHECK(u.p[0].value == 2.5);
    CHECK_INT(u.p[1].at, -7);
    CHECK(u.p[1].commit == NULL && signbit(u.p[1].value));
    CHECK_INT(db_chunk_decode(blob, len - 1, 2, &u, 42, &e), -1);
    CHECK(strstr(e.message, "configuration 42") != NULL);
    xfree(u.text);
}

int main(void)
{
    RUN(test_key_is_sqlites_json_group_object);
    RUN(test_varints_read_back);
    RUN(test_judgements_read_back_and_damage_is_refused);
    RUN(test_chunk_reads_back);
    return harness_report();
}
