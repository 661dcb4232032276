/* copy: PostgreSQL's side of db/copy.c (db/copy_backend.h): tables and
 * columns from the catalog of the current schema, rows read in key order
 * through a cursor inside one REPEATABLE READ snapshot (memory stays flat
 * whatever the table's size), rows loaded with COPY FROM STDIN (text
 * format, sent in chunks), identity sequences moved past the copied ids at
 * the end. Statements name tables and columns that come from the catalog,
 * always quoted, never from input.
 */
#include "db/copy_backend.h"
#include "db/pg/pg.h"
#include "common/buf.h"
#include "common/xalloc.h"

#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failed result (or none) as the toolkit's error; clears it. */
static int fail(db *d, PGresult *r, struct err *err)
{
    int rc = pg_fail(d, r, err);
    PQclear(r);
    return rc;
}

/* Runs a built statement (not cached) expecting rows or a command. */
static PGresult *run(db *d, const char *sql, int nparams, const char *const *params,
                     struct err *err)
{
    PGresult *r;
    ExecStatusType s;
    if (pg_flush_begin(d, err) != 0)
        return NULL;
    r = PQexecParams(pg_conn(d), sql, nparams, NULL, params, NULL, NULL, 0);
    s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
        fail(d, r, err);
        return NULL;
    }
    return r;
}

static int pgc_snapshot(db *d, struct err *err)
{
    return pg_exec(d, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err);
}

static int names_of(db *d, const char *sql, const char *arg, char (*names)[DB_COPY_NAME],
                    int max, struct err *err)
{
    PGresult *r = run(d, sql, arg ? 1 : 0, &arg, err);
    int n, i;
    if (r == NULL)
        return -1;
    n = PQntuples(r);
    for (i = 0; i < n; i++)
        if (i == max || PQgetlength(r, i, 0) >= DB_COPY_NAME) {
            PQclear(r);
            return err_set(err, ERR_INTERNAL, "database", NULL,
                           "too many tables or columns, or a name too long, to copy");
        } else {
            snprintf(names[i], DB_COPY_NAME, "%s", PQgetvalue(r, i, 0));
        }
    PQclear(r);
    return n;
}

static int pgc_tables(db *d, char (*names)[DB_COPY_NAME], int max, struct err *err)
{
    /* The schema's version row is bookkeeping, not data: both sides have
     * their own. */
    return names_of(d,
                    "SELECT tablename::text FROM pg_tables WHERE schemaname = "
                    "current_schema() AND tablename NOT IN ('schema_version', "
                    "'prophecy_schema') ORDER BY 1",
                    NULL, names, max, err);
}

static int pgc_columns(db *d, const char *table, char (*names)[DB_COPY_NAME], int max,
                       struct err *err)
{
    return names_of(d,
                    "SELECT column_name::text FROM information_schema.columns WHERE "
                    "table_schema = current_schema() AND table_name = $1 ORDER BY "
                    "ordinal_position",
                    table, names, max, err);
}

static long long pgc_count(db *d, const char *table, struct err *err)
{
    char sql[160];
    PGresult *r;
    long long n;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    r = run(d, sql, 0, NULL, err);
    if (r == NULL)
        return -1;
    n = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return n;
}

static void column_list(struct buf *b, const char (*cols)[DB_COPY_NAME], int ncols)
{
    for (int i = 0; i < ncols; i++)
        buf_printf(b, "%s\"%s\"", i ? ", " : "", cols[i]);
}

/* Rows of one FETCH into values; bytea decoded into *blobs (PQfreemem). */
static int pump_rows(db *d, PGresult *r, int ncols, db_copy_row_fn fn, void *ctx,
                     struct err *err)
{
    struct db_value v[DB_COPY_COLS];
    unsigned char *blobs[DB_COPY_COLS];
    int rows = PQntuples(r), i, c, rc = 0;

    for (i = 0; i < rows && rc == 0; i++) {
        memset(blobs, 0, sizeof blobs);
        for (c = 0; c < ncols; c++) {
            const char *s = PQgetvalue(r, i, c);
            memset(&v[c], 0, sizeof v[c]);
            if (PQgetisnull(r, i, c)) {
                v[c].type = DBV_NULL;
                continue;
            }
            switch (PQftype(r, c)) {
            case OID_INT2:
            case OID_INT4:
            case OID_INT8:
                v[c].type = DBV_INT;
                v[c].i = strtoll(s, NULL, 10);
                break;
            case OID_BOOL:
                v[c].type = DBV_INT;
                v[c].i = s[0] == 't';
                break;
            case OID_FLOAT4:
            case OID_FLOAT8:
                v[c].type = DBV_REAL;
                v[c].r = strtod(s, NULL); /* "Infinity", "NaN" too */
                break;
            case OID_BYTEA:
                v[c].type = DBV_BLOB;
                blobs[c] = PQunescapeBytea((const unsigned char *)s, &v[c].n);
                v[c].p = blobs[c];
                if (blobs[c] == NULL)
                    rc = err_nomem(err);
                break;
            default:
                v[c].type = DBV_TEXT;
                v[c].p = s;
                v[c].n = (size_t)PQgetlength(r, i, c);
            }
        }
        if (rc == 0 && fn(ctx, v, ncols, err) != 0)
            rc = -1;
        for (c = 0; c < ncols; c++)
            if (blobs[c])
                PQfreemem(blobs[c]);
    }
    (void)d;
    return rc;
}

static int pgc_read(db *d, const char *table, const char (*cols)[DB_COPY_NAME], int ncols,
                    const char *const *key, db_copy_row_fn fn, void *ctx, struct err *err)
{
    struct buf sql;
    PGresult *r;
    int i, rc = 0;

    buf_init(&sql, 4096);
    buf_puts(&sql, "DECLARE prophecy_copy NO SCROLL CURSOR FOR SELECT ");
    column_list(&sql, cols, ncols);
    buf_printf(&sql, " FROM \"%s\" ORDER BY ", table);
    for (i = 0; key[i] != NULL; i++)
        buf_printf(&sql, "%s\"%s\"", i ? ", " : "", key[i]);
    if (buf_failed(&sql)) {
        buf_free(&sql);
        return err_nomem(err);
    }
    r = run(d, buf_str(&sql), 0, NULL, err);
    buf_free(&sql);
    if (r == NULL)
        return -1;
    PQclear(r);
    for (;;) {
        r = run(d, "FETCH 5000 FROM prophecy_copy", 0, NULL, err);
        if (r == NULL)
            return -1;
        if (PQntuples(r) == 0) {
            PQclear(r);
            break;
        }
        rc = pump_rows(d, r, ncols, fn, ctx, err);
        PQclear(r);
        if (rc != 0)
            return -1;
    }
    r = run(d, "CLOSE prophecy_copy", 0, NULL, err);
    if (r == NULL)
        return -1;
    PQclear(r);
    return 0;
}

/* Rows go to the server in chunks of about this many bytes. */
#define CHUNK (1u << 20)

struct loader {
    db *d;
    struct buf out; /* COPY text of the rows not yet sent */
    int ncols;
    char table[DB_COPY_NAME];
};

/* The table's own triggers (watch_version_bump on watches, ...; before
 * migration 16 also app_kernels_add on kernels) are off while it loads: what
 * they maintain is copied from the source as it is (db/copy.c), and a
 * trigger call per row made loading kernels many times slower. Inside the
 * copy's transaction, so a failed copy leaves them on. */
static int triggers(db *d, const char *table, int on, struct err *err)
{
    char sql[160];
    snprintf(sql, sizeof sql, "ALTER TABLE \"%s\" %s TRIGGER USER", table,
             on ? "ENABLE" : "DISABLE");
    return pg_exec(d, sql, err);
}

static int pgc_load_open(db *d, const char *table, const char (*cols)[DB_COPY_NAME],
                         int ncols, int clear, void **w, struct err *err)
{
    struct loader *l;
    struct buf sql;
    PGresult *r;
    char del[160];

    *w = NULL;
    if (clear) {
        snprintf(del, sizeof del, "DELETE FROM \"%s\"", table);
        if (pg_exec(d, del, err) != 0)
            return -1;
    }
    if (triggers(d, table, 0, err) != 0)
        return -1;
    buf_init(&sql, 4096);
    buf_printf(&sql, "COPY \"%s\" (", table);
    column_list(&sql, cols, ncols);
    buf_puts(&sql, ") FROM STDIN");
    if (buf_failed(&sql)) {
        buf_free(&sql);
        return err_nomem(err);
    }
    if (pg_flush_begin(d, err) != 0) {
        buf_free(&sql);
        return -1;
    }
    r = PQexec(pg_conn(d), buf_str(&sql));
    buf_free(&sql);
    if (r == NULL || PQresultStatus(r) != PGRES_COPY_IN)
        return fail(d, r, err);
    PQclear(r);
    l = xcalloc(1, sizeof *l);
    if (l == NULL) {
        PQputCopyEnd(pg_conn(d), "out of memory");
        PQclear(PQgetResult(pg_conn(d)));
        return err_nomem(err);
    }
    l->d = d;
    l->ncols = ncols;
    snprintf(l->table, sizeof l->table, "%s", table);
    buf_init(&l->out, (size_t)CHUNK * 64);
    *w = l;
    return 0;
}

/* Text with COPY's escapes: backslash, newline, carriage return, tab. */
static int put_text(struct buf *b, const char *s, size_t n)
{
    size_t i, from = 0;
    for (i = 0; i < n; i++) {
        const char *esc = s[i] == '\\'   ? "\\\\"
                          : s[i] == '\n' ? "\\n"
                          : s[i] == '\r' ? "\\r"
                          : s[i] == '\t' ? "\\t"
                                         : NULL;
        if (s[i] == '\0')
            return -1; /* PostgreSQL text cannot hold NUL */
        if (esc) {
            buf_append(b, s + from, i - from);
            buf_puts(b, esc);
            from = i + 1;
        }
    }
    buf_append(b, s + from, n - from);
    return 0;
}

static int flush(struct loader *l, struct err *err)
{
    if (buf_failed(&l->out))
        return err_nomem(err);
    if (l->out.len > 0 && PQputCopyData(pg_conn(l->d), l->out.data, (int)l->out.len) != 1)
        return err_set(err, ERR_INTERNAL, "database", NULL, "copy: %s",
                       PQerrorMessage(pg_conn(l->d)));
    buf_reset(&l->out);
    return 0;
}

static int pgc_load_row(void *w, const struct db_value *v, int ncols, struct err *err)
{
    static const char hex[] = "0123456789abcdef";
    struct loader *l = w;
    struct buf *b = &l->out;

    for (int i = 0; i < ncols; i++) {
        if (i)
            buf_putc(b, '\t');
        switch (v[i].type) {
        case DBV_INT:
            buf_printf(b, "%lld", v[i].i);
            break;
        case DBV_REAL:
            if (isnan(v[i].r))
                buf_puts(b, "NaN");
            else if (isinf(v[i].r))
                buf_puts(b, v[i].r > 0 ? "Infinity" : "-Infinity");
            else
                buf_printf(b, "%.17g", v[i].r);
            break;
        case DBV_TEXT:
            if (put_text(b, v[i].p, v[i].n) != 0)
                return err_set(err, ERR_INVALID, "invalid", NULL,
                               "a text value holds a NUL byte, which PostgreSQL "
                               "cannot store");
            break;
        case DBV_BLOB:
            buf_puts(b, "\\\\x");
            for (size_t k = 0; k < v[i].n; k++) {
                unsigned char c = ((const unsigned char *)v[i].p)[k];
                buf_putc(b, hex[c >> 4]);
                buf_putc(b, hex[c & 15]);
            }
            break;
        default:
            buf_puts(b, "\\N");
        }
    }
    buf_putc(b, '\n');
    return b->len >= CHUNK || buf_failed(b) ? flush(l, err) : 0;
}

static int pgc_load_close(void *w, int ok, struct err *err)
{
    struct loader *l = w;
    PGconn *c;
    PGresult *r;
    int rc = 0;

    if (l == NULL)
        return 0;
    c = pg_conn(l->d);
    if (ok && flush(l, err) != 0)
        ok = 0, rc = -1;
    if (PQputCopyEnd(c, ok ? NULL : "copy abandoned") != 1 && rc == 0)
        rc = err_set(err, ERR_INTERNAL, "database", NULL, "copy: %s", PQerrorMessage(c));
    while ((r = PQgetResult(c)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && ok && rc == 0)
            rc = pg_fail(l->d, r, err);
        PQclear(r);
    }
    if (ok && rc == 0 && triggers(l->d, l->table, 1, err) != 0)
        rc = -1;
    buf_free(&l->out);
    xfree(l);
    return ok ? rc : -1;
}

static int pgc_finish(db *d, struct err *err)
{
    /* Every identity column's sequence continues after the largest copied
     * id (setval(..., false): the next value is exactly max + 1). */
    PGresult *r = run(d,
                      "SELECT table_name::text, column_name::text FROM "
                      "information_schema.columns WHERE table_schema = current_schema() "
                      "AND (is_identity = 'YES' OR column_default LIKE 'nextval(%') "
                      "ORDER BY 1",
                      0, NULL, err);
    int i, n;
    if (r == NULL)
        return -1;
    n = PQntuples(r);
    for (i = 0; i < n; i++) {
        char sql[512];
        PGresult *s;
        snprintf(
            sql, sizeof sql,
            "SELECT setval(pg_get_serial_sequence('\"%s\"', '%s'), coalesce(max(\"%s\"), "
            "0) + 1, false) FROM \"%s\"",
            PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 1),
            PQgetvalue(r, i, 0));
        s = run(d, sql, 0, NULL, err);
        if (s == NULL) {
            PQclear(r);
            return -1;
        }
        PQclear(s);
    }
    PQclear(r);
    /* db/copy.c leaves watch_counts to the target: every judgement counted */
    r = run(d,
            "INSERT INTO watch_counts (watch_id, judged, out) SELECT watch_id, count(*), "
            "sum(out) FROM judgements GROUP BY watch_id",
            0, NULL, err);
    if (r == NULL)
        return -1;
    PQclear(r);
    return 0;
}

const struct db_copy_ops db_pg_copy = {
    pgc_snapshot,  pgc_tables,   pgc_columns,    pgc_count,  pgc_read,
    pgc_load_open, pgc_load_row, pgc_load_close, pgc_finish,
};
