/* copy: SQLite's side of db/copy.c (db/copy_backend.h): tables and columns
 * from the schema catalog, rows read in key order inside one read
 * transaction (a WAL snapshot: a server may write meanwhile), rows loaded
 * through one prepared INSERT per table. Statements name tables and columns
 * that come from the catalog, always quoted, never from input.
 */
#include "db/copy_backend.h"
#include "db/history.h"
#include "db/sqlite/sql.h"
#include "common/buf.h"
#include "common/xalloc.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int sq_snapshot(db *d, struct err *err)
{
    /* A deferred BEGIN: the snapshot starts with the first read and takes no
     * write lock, so a server on the same file keeps committing. */
    return db_exec(d, "BEGIN", err);
}

/* Runs a one-column query (prepared here: its text is built) and copies up
 * to max names. Returns the count or -1. */
static int names_of(db *d, const char *sql, const char *arg, char (*names)[DB_COPY_NAME],
                    int max, struct err *err)
{
    sqlite3_stmt *st;
    int n = 0, rc;
    if (sqlite3_prepare_v2(db_handle(d), sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, err);
    if (arg)
        sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *s = (const char *)sqlite3_column_text(st, 0);
        if (n == max || s == NULL || strlen(s) >= DB_COPY_NAME) {
            sqlite3_finalize(st);
            return err_set(err, ERR_INTERNAL, "database", NULL,
                           "too many tables or columns, or a name too long, to copy");
        }
        snprintf(names[n++], DB_COPY_NAME, "%s", s);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return n;
}

/* The judgements table of the other engine is this one's run_judgements,
 * a packed row per run (schema.sql migration 11): copy reads and loads it
 * as the rows it packs, in these columns. */
static const char JUDGEMENTS[] = "judgements";
/* Each column as a field of struct db_judgement: an id, a flag (int), a
 * real, or x (a real, NULL when the judgement has none). */
enum jkind { JK_ID, JK_FLAG, JK_REAL, JK_X };
#define JF(field) offsetof(struct db_judgement, field)
static const struct jcol {
    const char *name;
    enum jkind kind;
    size_t at;
} JCOLS[] = {
    {"run_id", JK_ID, JF(run_id)},
    {"watch_id", JK_ID, JF(watch_id)},
    {"x", JK_X, JF(x)},
    {"value", JK_REAL, JF(value)},
    {"expected", JK_REAL, JF(expected)},
    {"lo", JK_REAL, JF(lo)},
    {"hi", JK_REAL, JF(hi)},
    {"score", JK_REAL, JF(score)},
    {"ready", JK_FLAG, JF(ready)},
    {"out", JK_FLAG, JF(out)},
    {"direction", JK_FLAG, JF(direction)},
};
#undef JF
enum { NJCOLS = sizeof JCOLS / sizeof *JCOLS };

static int sq_tables(db *d, char (*names)[DB_COPY_NAME], int max, struct err *err)
{
    /* Tables of this engine alone, neither copied nor expected: series_chunks
     * (migration 10), a cache of runs_series (reads of the target pack its
     * series again), watch_counts_upto (set by sq_finish) and watch_ids (kept
     * by a trigger as watches load); and run_judgements, copied as
     * judgements. */
    int n = names_of(d,
                     "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT "
                     "LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT IN ('series_chunks', "
                     "'watch_counts_upto', 'watch_ids', 'run_judgements') ORDER BY name",
                     NULL, names, max, err);
    if (n < 0)
        return -1;
    if (n == max)
        return err_set(err, ERR_INTERNAL, "database", NULL, "too many tables to copy");
    snprintf(names[n++], DB_COPY_NAME, "%s", JUDGEMENTS);
    return n;
}

static int sq_columns(db *d, const char *table, char (*names)[DB_COPY_NAME], int max,
                      struct err *err)
{
    if (strcmp(table, JUDGEMENTS) == 0) {
        if (max < NJCOLS)
            return err_set(err, ERR_INTERNAL, "database", NULL,
                           "too many columns to copy");
        for (int i = 0; i < NJCOLS; i++)
            snprintf(names[i], DB_COPY_NAME, "%s", JCOLS[i].name);
        return NJCOLS;
    }
    return names_of(d, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", table,
                    names, max, err);
}

static long long sq_count(db *d, const char *table, struct err *err)
{
    char sql[160];
    sqlite3_stmt *st;
    long long n = -1;
    /* judgements: the runs that have any (copy asks whether it is empty) */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"",
             strcmp(table, JUDGEMENTS) == 0 ? "run_judgements" : table);
    if (sqlite3_prepare_v2(db_handle(d), sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, err);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (n < 0)
        return db_fail(d, err);
    return n;
}

/* "a", "b", "c" into b. */
static void column_list(struct buf *b, const char (*cols)[DB_COPY_NAME], int ncols)
{
    for (int i = 0; i < ncols; i++)
        buf_printf(b, "%s\"%s\"", i ? ", " : "", cols[i]);
}

/* The position of each of cols in JCOLS; -1 (err set) for a column the
 * packed rows do not have. */
static int jcols_map(const char (*cols)[DB_COPY_NAME], int ncols, int *map,
                     struct err *err)
{
    for (int i = 0; i < ncols; i++) {
        int k;
        for (k = 0; k < NJCOLS && strcmp(cols[i], JCOLS[k].name) != 0; k++)
            ;
        if (k == NJCOLS)
            return err_set(err, ERR_INTERNAL, "database", NULL,
                           "table judgements has no column %s here", cols[i]);
        map[i] = k;
    }
    return 0;
}

struct jread {
    int map[DB_COPY_COLS], ncols;
    db_copy_row_fn fn;
    void *ctx;
};

static int jread_one(void *ctx, const struct db_judgement *j, struct err *err)
{
    struct jread *r = ctx;
    struct db_value v[DB_COPY_COLS];
    for (int i = 0; i < r->ncols; i++) {
        const struct jcol *c = &JCOLS[r->map[i]];
        const char *f = (const char *)j + c->at;
        memset(&v[i], 0, sizeof v[i]);
        switch (c->kind) {
        case JK_ID:
            v[i].type = DBV_INT;
            memcpy(&v[i].i, f, sizeof v[i].i);
            break;
        case JK_FLAG: {
            int flag;
            memcpy(&flag, f, sizeof flag);
            v[i].type = DBV_INT;
            v[i].i = flag;
            break;
        }
        case JK_X:
        case JK_REAL:
            v[i].type = c->kind == JK_X && !j->has_x ? DBV_NULL : DBV_REAL;
            memcpy(&v[i].r, f, sizeof v[i].r);
            break;
        }
    }
    return r->fn(r->ctx, v, r->ncols, err);
}

static int sq_read(db *d, const char *table, const char (*cols)[DB_COPY_NAME], int ncols,
                   const char *const *key, db_copy_row_fn fn, void *ctx, struct err *err)
{
    struct db_value v[DB_COPY_COLS];
    struct buf sql;
    sqlite3_stmt *st = NULL;
    int rc, i;

    if (strcmp(table, JUDGEMENTS) == 0) {
        /* in (run_id, watch_id) order, as the key asks */
        struct jread r = {{0}, ncols, fn, ctx};
        if (jcols_map(cols, ncols, r.map, err) != 0)
            return -1;
        return sq_judged_each(d, jread_one, &r, err);
    }

    buf_init(&sql, 4096);
    buf_puts(&sql, "SELECT ");
    column_list(&sql, cols, ncols);
    buf_printf(&sql, " FROM \"%s\" ORDER BY ", table);
    for (i = 0; key[i] != NULL; i++)
        buf_printf(&sql, "%s\"%s\"", i ? ", " : "", key[i]);
    if (buf_failed(&sql)) {
        buf_free(&sql);
        return err_nomem(err);
    }
    rc = sqlite3_prepare_v2(db_handle(d), buf_str(&sql), -1, &st, NULL);
    buf_free(&sql);
    if (rc != SQLITE_OK)
        return db_fail(d, err);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (i = 0; i < ncols; i++) {
            memset(&v[i], 0, sizeof v[i]);
            switch (sqlite3_column_type(st, i)) {
            case SQLITE_INTEGER:
                v[i].type = DBV_INT;
                v[i].i = sqlite3_column_int64(st, i);
                break;
            case SQLITE_FLOAT:
                v[i].type = DBV_REAL;
                v[i].r = sqlite3_column_double(st, i);
                break;
            case SQLITE_TEXT:
                v[i].type = DBV_TEXT;
                v[i].p = sqlite3_column_text(st, i);
                v[i].n = (size_t)sqlite3_column_bytes(st, i);
                break;
            case SQLITE_BLOB:
                v[i].type = DBV_BLOB;
                v[i].p = sqlite3_column_blob(st, i);
                v[i].n = (size_t)sqlite3_column_bytes(st, i);
                break;
            default:
                v[i].type = DBV_NULL;
            }
        }
        if (fn(ctx, v, ncols, err) != 0) {
            sqlite3_finalize(st);
            return -1;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

struct loader {
    db *d;
    sqlite3_stmt *st;
    /* judgements: the column map, and the rows of one run until the next */
    int judged, map[DB_COPY_COLS];
    struct db_judgement *j;
    size_t n, cap;
};

/* Stores the run's judgements the loader holds. */
static int jflush(struct loader *l, struct err *err)
{
    int rc = sq_judged_put(l->d, l->j, l->n, err);
    l->n = 0;
    return rc;
}

static int jload_row(struct loader *l, const struct db_value *v, int ncols,
                     struct err *err)
{
    struct db_judgement j = {0};
    for (int i = 0; i < ncols; i++) {
        const struct jcol *c = &JCOLS[l->map[i]];
        char *f = (char *)&j + c->at;
        switch (c->kind) {
        case JK_ID:
            memcpy(f, &v[i].i, sizeof v[i].i);
            break;
        case JK_FLAG: {
            int flag = (int)v[i].i;
            memcpy(f, &flag, sizeof flag);
            break;
        }
        case JK_X:
        case JK_REAL: {
            double r = v[i].type == DBV_REAL ? v[i].r : (double)v[i].i;
            if (c->kind == JK_X && (j.has_x = v[i].type != DBV_NULL) == 0)
                r = 0;
            memcpy(f, &r, sizeof r);
            break;
        }
        }
    }
    /* rows come in (run_id, watch_id) order: a new run stores the last */
    if (l->n > 0 && l->j[0].run_id != j.run_id && jflush(l, err) != 0)
        return -1;
    if (l->n == l->cap) {
        struct db_judgement *more =
            xrealloc(l->j, (l->cap ? 2 * l->cap : 256) * sizeof *more);
        if (more == NULL)
            return err_nomem(err);
        l->j = more;
        l->cap = l->cap ? 2 * l->cap : 256;
    }
    l->j[l->n++] = j;
    return 0;
}

static int sq_load_open(db *d, const char *table, const char (*cols)[DB_COPY_NAME],
                        int ncols, int clear, void **w, struct err *err)
{
    struct loader *l;
    struct buf sql;
    char del[160];
    int rc, i;

    *w = NULL;
    if (strcmp(table, JUDGEMENTS) == 0) {
        if ((l = xcalloc(1, sizeof *l)) == NULL)
            return err_nomem(err);
        l->d = d;
        l->judged = 1;
        if (jcols_map(cols, ncols, l->map, err) != 0) {
            xfree(l);
            return -1;
        }
        *w = l;
        return 0;
    }
    if (clear) {
        snprintf(del, sizeof del, "DELETE FROM \"%s\"", table);
        if (db_exec(d, del, err) != 0)
            return -1;
    }
    buf_init(&sql, 4096);
    buf_printf(&sql, "INSERT INTO \"%s\" (", table);
    column_list(&sql, cols, ncols);
    buf_puts(&sql, ") VALUES (");
    for (i = 0; i < ncols; i++)
        buf_printf(&sql, "%s?%d", i ? ", " : "", i + 1);
    buf_puts(&sql, ")");
    l = buf_failed(&sql) ? NULL : xcalloc(1, sizeof *l);
    if (l == NULL) {
        buf_free(&sql);
        return err_nomem(err);
    }
    l->d = d;
    rc = sqlite3_prepare_v2(db_handle(d), buf_str(&sql), -1, &l->st, NULL);
    buf_free(&sql);
    if (rc != SQLITE_OK) {
        xfree(l);
        return db_fail(d, err);
    }
    *w = l;
    return 0;
}

static int sq_load_row(void *w, const struct db_value *v, int ncols, struct err *err)
{
    struct loader *l = w;
    int rc;
    if (l->judged)
        return jload_row(l, v, ncols, err);
    for (int i = 0; i < ncols; i++) {
        switch (v[i].type) {
        case DBV_INT:
            sqlite3_bind_int64(l->st, i + 1, v[i].i);
            break;
        case DBV_REAL:
            sqlite3_bind_double(l->st, i + 1, v[i].r);
            break;
        case DBV_TEXT:
            sqlite3_bind_text64(l->st, i + 1, v[i].p, (sqlite3_uint64)v[i].n,
                                SQLITE_STATIC, SQLITE_UTF8);
            break;
        case DBV_BLOB:
            sqlite3_bind_blob64(l->st, i + 1, v[i].n ? v[i].p : "",
                                (sqlite3_uint64)v[i].n, SQLITE_STATIC);
            break;
        default:
            sqlite3_bind_null(l->st, i + 1);
        }
    }
    rc = sqlite3_step(l->st);
    sqlite3_reset(l->st);
    sqlite3_clear_bindings(l->st);
    if (rc != SQLITE_DONE)
        return db_fail(l->d, err);
    return 0;
}

static int sq_load_close(void *w, int ok, struct err *err)
{
    struct loader *l = w;
    int rc = 0;
    if (l == NULL)
        return 0;
    if (l->judged && ok && l->n > 0)
        rc = jflush(l, err);
    sqlite3_finalize(l->st);
    xfree(l->j);
    xfree(l);
    return rc;
}

static int sq_finish(db *d, struct err *err)
{
    /* INTEGER PRIMARY KEY takes max(id) + 1 by itself. db/copy.c leaves
     * watch_counts to the target: every judgement counted, the mark at the
     * newest judged run (schema.sql migration 10). */
    return sq_judged_recount(d, err);
}

const struct db_copy_ops db_sqlite_copy = {
    sq_snapshot,  sq_tables,   sq_columns,    sq_count,  sq_read,
    sq_load_open, sq_load_row, sq_load_close, sq_finish,
};
