/* nsys (SQLite): an Nsight Systems export read into formats/nsys.h's rows.
 *
 * Why here: the export is an SQLite file and the project keeps every SQL
 * text in db/ (check-layout); but this is NOT the store — the connection is
 * private to one call, opened on the upload's bytes in memory
 * (sqlite3_deserialize, read-only: the bytes are never written or copied)
 * and closed before returning.
 *
 * The file comes from outside, so the connection trusts nothing in it:
 * SQLITE_DBCONFIG_DEFENSIVE, no trusted schema (a view or trigger of the
 * file cannot call functions with side effects), query_only; the tables
 * read must be ordinary tables (not views a hostile file could make
 * expensive); a progress handler stops any read beyond
 * LIMIT_IMPORT_NSYS_STEPS virtual-machine steps; strings are capped by
 * SQLITE_LIMIT_LENGTH. A file shorter than its header says (a truncated
 * copy) is refused before any read, so a half file never passes for a
 * smaller export.
 */
#include "db/nsys.h"
#include "db/sqlite/sql.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats/limits.h"

struct nr {
    sqlite3 *db;
    const char *file;
    arena *a;
    struct err *err;
    long long steps; /* progress callbacks seen */
    int soft;        /* a query the export's version cannot answer (a column
                        it lacks) leaves its field unknown instead of failing */
};

#define STEP_GRAIN 1000 /* VM steps between progress callbacks */

static int progress(void *u)
{
    struct nr *r = u;
    return ++r->steps > LIMIT_IMPORT_NSYS_STEPS / STEP_GRAIN;
}

static int fail(struct nr *r, const char *what)
{
    if (r->steps > LIMIT_IMPORT_NSYS_STEPS / STEP_GRAIN)
        return err_set(r->err, ERR_INVALID, "invalid_import", "file",
                       "%s: reading the export takes more than %lld SQLite steps",
                       r->file, (long long)LIMIT_IMPORT_NSYS_STEPS);
    return err_set(r->err, ERR_INVALID, "invalid_import", "file",
                   "%s: %s: %s (a damaged or foreign SQLite file?)", r->file, what,
                   r->db ? sqlite3_errmsg(r->db) : "cannot open");
}

/* 1 when `name` is an ordinary table of the file, 0 when not, -1 error. */
static int has_table(struct nr *r, const char *name)
{
    sqlite3_stmt *st = NULL;
    int rc;
    if (sqlite3_prepare_v2(
            r->db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1", -1,
            &st, NULL) != SQLITE_OK)
        return fail(r, "the schema cannot be read");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return fail(r, "the schema cannot be read");
}

/* 1 when the optional table `name` is there; 0 when not or on error
 * (*failed set then). */
static int optional(struct nr *r, const char *name, int *failed)
{
    int rc;
    if (*failed)
        return 0;
    if ((rc = has_table(r, name)) < 0)
        *failed = -1;
    return rc == 1;
}

/* The text of the first column of the first row (arena), or NULL. When
 * `one` is set, NULL too when a second row differs. */
static const char *text1(struct nr *r, const char *sql, int one, int *failed)
{
    sqlite3_stmt *st = NULL;
    const char *out = NULL;
    int rc;
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
        if (!r->soft)
            *failed = fail(r, "a table of the export cannot be read");
        return NULL;
    }
    if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        if (t != NULL && t[0] != '\0')
            out = arena_strdup(r->a, (const char *)t);
        if (one && (rc = sqlite3_step(st)) == SQLITE_ROW)
            out = NULL;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        *failed = fail(r, "a table of the export cannot be read");
    sqlite3_finalize(st);
    return out;
}

static long long int1(struct nr *r, const char *sql, long long dflt, int *failed)
{
    sqlite3_stmt *st = NULL;
    long long v = dflt;
    int rc;
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
        if (!r->soft)
            *failed = fail(r, "a table of the export cannot be read");
        return dflt;
    }
    if ((rc = sqlite3_step(st)) == SQLITE_ROW &&
        sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = sqlite3_column_int64(st, 0);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        *failed = fail(r, "a table of the export cannot be read");
    sqlite3_finalize(st);
    return v;
}

/* Appends the groups one query gives: columns name-or-kind, count, total,
 * min, max, bytes. */
static int groups(struct nr *r, const char *table, int kind, const char *sql,
                  struct nsys_export *out, size_t *cap)
{
    sqlite3_stmt *st = NULL;
    int rc, failed = 0;
    long long rows;
    char count_sql[128];

    snprintf(count_sql, sizeof count_sql, "SELECT COUNT(*) FROM \"%s\"", table);
    rows = int1(r, count_sql, 0, &failed);
    if (failed)
        return -1;
    if (rows > LIMIT_IMPORT_NSYS_ROWS)
        return err_set(r->err, ERR_INVALID, "invalid_import", table,
                       "%s: %s holds %lld rows; the limit is %d", r->file, table, rows,
                       LIMIT_IMPORT_NSYS_ROWS);
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK)
        return fail(r, table);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct nsys_group *g;
        if (out->ngroups >= LIMIT_KERNELS) {
            sqlite3_finalize(st);
            return err_set(r->err, ERR_INVALID, "invalid_import", table,
                           "%s: more than %d kernel, copy and API names", r->file,
                           LIMIT_KERNELS);
        }
        if (out->ngroups == *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            struct nsys_group *n = arena_alloc(r->a, ncap * sizeof *n);
            if (n == NULL) {
                sqlite3_finalize(st);
                return err_nomem(r->err);
            }
            if (out->ngroups)
                memcpy(n, out->groups, out->ngroups * sizeof *n);
            out->groups = n;
            *cap = ncap;
        }
        g = &out->groups[out->ngroups];
        memset(g, 0, sizeof *g);
        g->kind = kind;
        if (kind == NSYS_KERNEL || kind == NSYS_RUNTIME || kind == NSYS_NVTX) {
            const unsigned char *t = sqlite3_column_text(st, 0);
            g->name = arena_strdup(r->a, t ? (const char *)t : "");
        } else
            g->copy_kind = sqlite3_column_int64(st, 0);
        g->count = sqlite3_column_int64(st, 1);
        g->total_ns = sqlite3_column_int64(st, 2);
        g->min_ns = sqlite3_column_int64(st, 3);
        g->max_ns = sqlite3_column_int64(st, 4);
        g->bytes = sqlite3_column_int64(st, 5);
        if (g->count == 0)
            continue; /* an aggregate over no rows (MEMSET) */
        if (g->min_ns < 0) {
            sqlite3_finalize(st);
            return err_set(r->err, ERR_INVALID, "invalid_import", table,
                           "%s: %s: an activity ends before it starts", r->file, table);
        }
        out->ngroups++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(r, table);
    return 0;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The file's own length against its header (https://sqlite.org/fileformat.html
 * §1.3): page size at 16, and at 28 the page count, valid when the
 * version-valid-for number at 92 equals the change counter at 24. */
static int whole(const char *file, const unsigned char *d, size_t len, struct err *err)
{
    unsigned psize;
    if (len < 100 || memcmp(d, "SQLite format 3", 16) != 0)
        return err_set(err, ERR_INVALID, "invalid_import", "file",
                       "%s: not an SQLite database (an nsys export is written by "
                       "nsys export --type sqlite)",
                       file);
    psize = (unsigned)d[16] << 8 | d[17];
    if (psize == 1)
        psize = 65536;
    if (psize < 512 || (psize & (psize - 1)) != 0)
        return err_set(err, ERR_INVALID, "invalid_import", "file",
                       "%s: the SQLite header is damaged (page size %u)", file, psize);
    if (len % psize != 0 ||
        (be32(d + 92) == be32(d + 24) && (unsigned long long)be32(d + 28) * psize > len))
        return err_set(err, ERR_INVALID, "invalid_import", "file",
                       "%s: the file is truncated: %zu bytes, its header says %llu", file,
                       len, (unsigned long long)be32(d + 28) * psize);
    return 0;
}

int db_nsys_read(const char *file, const char *data, size_t len, arena *a,
                 struct nsys_export *out, struct err *err)
{
    struct nr r = {.db = NULL, .file = file, .a = a, .err = err};
    size_t cap = 0;
    int rc = -1, failed = 0, t_kernel, t_memcpy, t_memset, t_runtime, t_nvtx;
    unsigned char *copy = NULL;

    memset(out, 0, sizeof *out);
    out->duration_ns = -1;
    if (whole(file, (const unsigned char *)data, len, err) != 0)
        return -1;
    /* The bytes are the caller's and outlive the connection (closed below);
     * SQLITE_DESERIALIZE_READONLY never writes them, so a read-only mapping
     * is fine and nothing is copied. */
    copy = (unsigned char *)(uintptr_t)data;
    sq_library_init();
    if (sqlite3_open_v2(":memory:", &r.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        fail(&r, "cannot open");
        goto out;
    }
    sqlite3_db_config(r.db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(r.db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_db_config(r.db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
    sqlite3_db_config(r.db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)NULL);
    sqlite3_limit(r.db, SQLITE_LIMIT_LENGTH, 1 << 20);
    sqlite3_limit(r.db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_progress_handler(r.db, STEP_GRAIN, progress, &r);
    if (sqlite3_deserialize(r.db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
                            SQLITE_DESERIALIZE_READONLY) != SQLITE_OK) {
        fail(&r, "the database cannot be opened");
        goto out;
    }
    if (sqlite3_exec(r.db, "PRAGMA query_only = 1", NULL, NULL, NULL) != SQLITE_OK) {
        fail(&r, "the database cannot be opened");
        goto out;
    }
    if ((t_kernel = has_table(&r, "CUPTI_ACTIVITY_KIND_KERNEL")) < 0 ||
        (t_memcpy = has_table(&r, "CUPTI_ACTIVITY_KIND_MEMCPY")) < 0 ||
        (t_memset = has_table(&r, "CUPTI_ACTIVITY_KIND_MEMSET")) < 0 ||
        (t_runtime = has_table(&r, "CUPTI_ACTIVITY_KIND_RUNTIME")) < 0 ||
        (t_nvtx = has_table(&r, "NVTX_EVENTS")) < 0)
        goto out;
    if ((t_kernel || t_runtime) && has_table(&r, "StringIds") != 1) {
        err_set(
            err, ERR_INVALID, "invalid_import", "StringIds",
            "%s: the export has CUDA activities but no StringIds table for their names",
            file);
        goto out;
    }
    if (t_kernel &&
        groups(
            &r, "CUPTI_ACTIVITY_KIND_KERNEL", NSYS_KERNEL,
            "SELECT coalesce(s.value, '(kernel ' || k.demangledName || ')'), COUNT(*), "
            "SUM(k.\"end\" - k.start), MIN(k.\"end\" - k.start), "
            "MAX(k.\"end\" - k.start), 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k "
            "LEFT JOIN StringIds s ON s.id = k.demangledName "
            "GROUP BY 1 ORDER BY 3 DESC, 1",
            out, &cap) != 0)
        goto out;
    if (t_memcpy &&
        groups(&r, "CUPTI_ACTIVITY_KIND_MEMCPY", NSYS_MEMCPY,
               "SELECT copyKind, COUNT(*), SUM(\"end\" - start), MIN(\"end\" - start), "
               "MAX(\"end\" - start), SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY "
               "GROUP BY copyKind ORDER BY 3 DESC, 1",
               out, &cap) != 0)
        goto out;
    if (t_memset &&
        groups(&r, "CUPTI_ACTIVITY_KIND_MEMSET", NSYS_MEMSET,
               "SELECT 0, COUNT(*), SUM(\"end\" - start), MIN(\"end\" - start), "
               "MAX(\"end\" - start), SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMSET",
               out, &cap) != 0)
        goto out;
    if (t_runtime &&
        groups(&r, "CUPTI_ACTIVITY_KIND_RUNTIME", NSYS_RUNTIME,
               "SELECT coalesce(s.value, '(CUDA API ' || r.nameId || ')'), COUNT(*), "
               "SUM(r.\"end\" - r.start), MIN(r.\"end\" - r.start), "
               "MAX(r.\"end\" - r.start), 0 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
               "LEFT JOIN StringIds s ON s.id = r.nameId GROUP BY 1 ORDER BY 3 DESC, 1",
               out, &cap) != 0)
        goto out;
    /* NVTX ranges (push/pop 59, start/end 60) that ended: their text, or
     * the registered string it names */
    if (t_nvtx && groups(&r, "NVTX_EVENTS", NSYS_NVTX,
                         "SELECT coalesce(n.text, s.value, '(unnamed range)'), COUNT(*), "
                         "SUM(n.\"end\" - n.start), MIN(n.\"end\" - n.start), "
                         "MAX(n.\"end\" - n.start), 0 FROM NVTX_EVENTS n "
                         "LEFT JOIN StringIds s ON s.id = n.textId "
                         "WHERE n.eventType IN (59, 60) AND n.\"end\" IS NOT NULL "
                         "GROUP BY 1 ORDER BY 3 DESC, 1",
                         out, &cap) != 0)
        goto out;
    /* what follows only describes the run: an export too old to hold a
     * column leaves that field unknown */
    r.soft = 1;
    /* the processes with CUDA activity: a kernel's globalPid, an API call's
     * globalTid without its thread part (nsys packs the thread in the low
     * 24 bits) */
    if (t_kernel && t_runtime)
        out->nprocs =
            int1(&r,
                 "SELECT COUNT(*) FROM (SELECT globalPid AS p FROM "
                 "CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT (globalTid >> 24) << 24 "
                 "FROM CUPTI_ACTIVITY_KIND_RUNTIME)",
                 0, &failed);
    else if (t_runtime)
        out->nprocs = int1(&r,
                           "SELECT COUNT(DISTINCT (globalTid >> 24) << 24) FROM "
                           "CUPTI_ACTIVITY_KIND_RUNTIME",
                           0, &failed);
    else if (t_kernel)
        out->nprocs =
            int1(&r, "SELECT COUNT(DISTINCT globalPid) FROM CUPTI_ACTIVITY_KIND_KERNEL",
                 0, &failed);
    if ((t_kernel || t_runtime) && optional(&r, "PROCESSES", &failed))
        out->process = text1(
            &r,
            t_runtime ? "SELECT DISTINCT p.name FROM PROCESSES p WHERE p.globalPid IN "
                        "(SELECT DISTINCT (globalTid >> 24) << 24 FROM "
                        "CUPTI_ACTIVITY_KIND_RUNTIME)"
                      : "SELECT DISTINCT p.name FROM PROCESSES p WHERE p.globalPid IN "
                        "(SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL)",
            1, &failed);
    if (optional(&r, "ANALYSIS_DETAILS", &failed))
        out->duration_ns = int1(&r, "SELECT duration FROM ANALYSIS_DETAILS", -1, &failed);
    if (!failed && out->duration_ns < 0 && t_runtime)
        out->duration_ns =
            int1(&r, "SELECT MAX(\"end\") - MIN(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME",
                 -1, &failed);
    if (!failed && out->duration_ns < 0 && t_kernel)
        out->duration_ns =
            int1(&r, "SELECT MAX(\"end\") - MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL",
                 -1, &failed);
    if (optional(&r, "TARGET_INFO_SESSION_START_TIME", &failed))
        out->started =
            text1(&r, "SELECT utcTime FROM TARGET_INFO_SESSION_START_TIME", 0, &failed);
    if (optional(&r, "TARGET_INFO_SYSTEM_ENV", &failed))
        out->hostname = text1(
            &r,
            "SELECT DISTINCT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname'",
            1, &failed);
    if (optional(&r, "TARGET_INFO_GPU", &failed))
        out->gpu = text1(&r, "SELECT DISTINCT name FROM TARGET_INFO_GPU", 1, &failed);
    if (optional(&r, "EXPORT_META_DATA", &failed))
        out->version = text1(
            &r,
            "SELECT value FROM EXPORT_META_DATA WHERE name = 'EXPORT_PRODUCT_VERSION'", 1,
            &failed);
    if (failed)
        goto out;
    rc = 0;
out:
    sqlite3_close(r.db);
    return rc;
}
