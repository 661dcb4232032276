/* series: a configuration's runtime series from its packed chunks
 * (schema.sql migration 10) and the rest of runs_series after them.
 *
 * A chunk's points blob is db/codec.c's format; the row's (last_at,
 * last_id) is its last point.
 *
 * The chunks are a cache: every chunk that ends at or after a changed run
 * is dropped (by db_summary_add_run for a stored run, by triggers for a
 * deleted or hand-edited one), so they always cover a prefix of the series,
 * and the points after the last one come from the index as before. A read whose rest
 * holds PACK_AT points or more packs it afterwards on its own connection, in
 * its own transaction, without waiting for a busy writer: a failure there
 * (the writer holds the lock, a read-only connection) leaves the rest for a
 * later read and never fails the read.
 */
#include "db/history.h"
#include "common/xalloc.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#define PACK_AT 2048

static const char SQL_CHUNKS[] =
    "SELECT n, points FROM series_chunks WHERE config_id = ?1 ORDER BY last_at, "
    "last_id";
static const char SQL_END[] =
    "SELECT last_at, last_id FROM series_chunks WHERE "
    "config_id = ?1 ORDER BY last_at DESC, last_id DESC LIMIT 1";
static const char SQL_REST[] =
    "SELECT r.id, r.at_ms, r.vcs_commit, r.runtime FROM runs r WHERE r.config_id = ?1 "
    "AND (r.at_ms, r.id) > (?2, ?3) AND r.runtime IS NOT NULL ORDER BY r.at_ms, r.id";
static const char SQL_CHUNK_INS[] =
    "INSERT INTO series_chunks (config_id, last_at, last_id, n, points) "
    "VALUES (?1, ?2, ?3, ?4, ?5)";

/* Packs the rest of config_id's series into full chunks, in one write
 * transaction that reads the rest again. Returns 0 or -1 with err set (the
 * caller ignores it: the chunks are a cache). */
static int pack(db *d, long long config_id, struct err *err)
{
    sqlite3_stmt *end, *rest, *ins;
    long long last_at = INT64_MIN, last_id = INT64_MIN;
    unsigned char *blob = NULL;
    size_t len = 1, cap = 0;
    int n = 0, rc;

    if (db_exec(d, "BEGIN IMMEDIATE", err) != 0)
        return -1;
    end = db_stmt(d, SQL_END, err);
    if (end == NULL)
        goto fail;
    sqlite3_bind_int64(end, 1, config_id);
    rc = sqlite3_step(end);
    if (rc == SQLITE_ROW) {
        last_at = sqlite3_column_int64(end, 0);
        last_id = sqlite3_column_int64(end, 1);
    }
    sqlite3_reset(end);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        db_fail(d, err);
        goto fail;
    }
    rest = db_stmt(d, SQL_REST, err);
    if (rest == NULL)
        goto fail;
    sqlite3_bind_int64(rest, 1, config_id);
    sqlite3_bind_int64(rest, 2, last_at);
    sqlite3_bind_int64(rest, 3, last_id);
    while ((rc = sqlite3_step(rest)) == SQLITE_ROW) {
        const unsigned char *c = sqlite3_column_text(rest, 2);
        size_t clen = c ? (size_t)sqlite3_column_bytes(rest, 2) : 0;
        double v = sqlite3_column_double(rest, 3);

        if (clen >= DB_CHUNK_NO_COMMIT)
            break; /* not representable: the rest stays in the index */
        if (len + 26 + clen > cap) {
            unsigned char *q;
            cap = cap ? 2 * cap : 64 * 1024;
            if (cap < len + 26 + clen)
                cap = len + 26 + clen;
            q = xrealloc(blob, cap);
            if (q == NULL) {
                sqlite3_reset(rest);
                err_nomem(err);
                goto fail;
            }
            blob = q;
        }
        blob[0] = DB_CHUNK_FORMAT;
        last_id = sqlite3_column_int64(rest, 0);
        last_at = sqlite3_column_int64(rest, 1);
        db_chunk_put(blob + len, last_at, last_id, v, (const char *)c, clen);
        len += DB_CHUNK_POINT(clen);
        if (++n < DB_CHUNK)
            continue;
        ins = db_stmt(d, SQL_CHUNK_INS, err);
        if (ins == NULL) {
            sqlite3_reset(rest);
            goto fail;
        }
        sqlite3_bind_int64(ins, 1, config_id);
        sqlite3_bind_int64(ins, 2, last_at);
        sqlite3_bind_int64(ins, 3, last_id);
        sqlite3_bind_int(ins, 4, n);
        sqlite3_bind_blob(ins, 5, blob, (int)len, SQLITE_STATIC);
        rc = sqlite3_step(ins);
        sqlite3_reset(ins);
        if (rc != SQLITE_DONE) {
            sqlite3_reset(rest);
            db_fail(d, err);
            goto fail;
        }
        n = 0;
        len = 1;
    }
    sqlite3_reset(rest);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        db_fail(d, err);
        goto fail;
    }
    xfree(blob);
    if (db_exec(d, "COMMIT", err) != 0) {
        sq_rollback(d);
        return -1;
    }
    return 0;
fail:
    xfree(blob);
    sq_rollback(d);
    return -1;
}

int sq_series_rows(db *d, sqlite3_stmt *st,
                   int (*fn)(void *ctx, const struct db_series_point *p, struct err *err),
                   void *ctx, long long *n, struct err *err)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        /* the texts in place: valid until the next step */
        struct db_series_point p = {
            sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
            (const char *)sqlite3_column_text(st, 2), sqlite3_column_double(st, 3)};
        ++*n;
        if (fn(ctx, &p, err) != 0) {
            sqlite3_reset(st);
            return -1;
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

/* Streams the chunks, then the rest; *rest gets the rest's length. */
static int read_series(db *d, long long config_id,
                       int (*fn)(void *ctx, const struct db_series_point *p,
                                 struct err *err),
                       void *ctx, long long *rest_n, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQL_CHUNKS, err);
    struct db_chunk *u = NULL;
    long long last_at = INT64_MIN, last_id = INT64_MIN;
    int rc;

    *rest_n = 0;
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, config_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long n = sqlite3_column_int64(st, 0);
        const unsigned char *blob = sqlite3_column_blob(st, 1);
        size_t len = (size_t)sqlite3_column_bytes(st, 1);
        if (u == NULL && (u = xcalloc(1, sizeof *u)) == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        if (db_chunk_decode(blob, len, n, u, config_id, err) != 0)
            goto fail;
        for (long long i = 0; i < n; i++)
            if (fn(ctx, &u->p[i], err) != 0)
                goto fail;
        last_at = u->p[n - 1].at;
        last_id = u->p[n - 1].run;
    }
    sqlite3_reset(st);
    if (u != NULL)
        xfree(u->text);
    xfree(u);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    st = db_stmt(d, SQL_REST, err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, config_id);
    sqlite3_bind_int64(st, 2, last_at);
    sqlite3_bind_int64(st, 3, last_id);
    return sq_series_rows(d, st, fn, ctx, rest_n, err);
fail:
    sqlite3_reset(st);
    xfree(u->text);
    xfree(u);
    return -1;
}

int sq_series_runtime_each(db *d, long long config_id,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err)
{
    /* Outside a caller's transaction the two reads share a snapshot of
     * their own, and only then may the rest be packed afterwards. */
    int own = sqlite3_get_autocommit(db_handle(d));
    long long rest = 0;
    int rc;

    if (own && db_exec(d, "BEGIN", err) != 0)
        return -1;
    rc = read_series(d, config_id, fn, ctx, &rest, err);
    if (!own)
        return rc;
    if (rc != 0) {
        sq_rollback(d);
        return -1;
    }
    if (db_exec(d, "COMMIT", err) != 0) {
        sq_rollback(d);
        return -1;
    }
    if (rest >= PACK_AT) {
        struct err ignored = {0};
        sq_busy_wait(d, 0);
        pack(d, config_id, &ignored);
        sq_busy_wait(d, 1);
    }
    return 0;
}
