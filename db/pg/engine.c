/* engine: the statement calls of db/engine.h on PostgreSQL.
 *
 * A statement is prepared once per connection, typed from its parameter
 * letters (text, int8, float8, bytea), with the SQL's "?N" placeholders
 * rewritten to "$N" (outside quoted texts and names). Parameters go as text
 * (a double as its shortest exact text) and bytes in binary; the result comes
 * back in text format and is read row by row. A connection that was reset
 * (db/pg/db.c) lost its prepared statements: they are prepared again.
 */
#include "db/pg/entries.h"
#include "db/pg/pg.h"
#include "common/buf.h"
#include "common/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE 256

struct db_stmt {
    const char *sql;
    char name[16];
    long gen; /* pg_generation when prepared */
    int nparams;
    Oid types[DB_MAX_PARAMS];
    char *values[DB_MAX_PARAMS];
    int lengths[DB_MAX_PARAMS], formats[DB_MAX_PARAMS];
    PGresult *r;
    int row;
    unsigned char *blob; /* the last bytea column read, unescaped */
};

struct pg_stmts {
    int n, next_id;
    struct db_stmt *s[CACHE];
};

/* "?N" to "$N" outside '...' and "..." */
static char *dollars(const char *sql)
{
    struct buf b;
    char q = 0, *text;
    buf_init(&b, 1u << 20);
    for (const char *p = sql; *p; p++) {
        if (q) {
            if (*p == q)
                q = 0;
        } else if (*p == '\'' || *p == '"') {
            q = *p;
        } else if (*p == '?' && p[1] >= '0' && p[1] <= '9') {
            buf_putc(&b, '$');
            continue;
        }
        buf_putc(&b, *p);
    }
    text = buf_detach(&b, NULL);
    buf_free(&b);
    return text;
}

static void clear(struct db_stmt *s)
{
    int i;
    for (i = 0; i < s->nparams; i++) {
        xfree(s->values[i]);
        s->values[i] = NULL;
        s->lengths[i] = 0;
        s->formats[i] = 0;
    }
    PQclear(s->r);
    s->r = NULL;
    s->row = -1;
    if (s->blob)
        PQfreemem(s->blob);
    s->blob = NULL;
}

void pg_stmts_free(struct pg_stmts *c)
{
    int i;
    if (c == NULL)
        return;
    for (i = 0; i < c->n; i++) {
        clear(c->s[i]);
        xfree(c->s[i]);
    }
    xfree(c);
}

static int typed_prepare(db *d, struct db_stmt *s, struct err *err)
{
    char *text = dollars(s->sql);
    PGresult *r;
    if (text == NULL)
        return err_nomem(err);
    r = PQprepare(pg_conn(d), s->name, text, s->nparams, s->types);
    xfree(text);
    if (r == NULL || PQresultStatus(r) != PGRES_COMMAND_OK)
        return pg_fail(d, r, err);
    PQclear(r);
    s->gen = pg_generation(d);
    return 0;
}

static struct db_stmt *pg_prepare(db *d, const char *sql, const char *types,
                                  struct err *err)
{
    struct pg_stmts **slot = pg_stmts_slot(d), *c;
    struct db_stmt *s;
    int i;

    pg_generation(d); /* resets a broken connection first */
    if (*slot == NULL && (*slot = xcalloc(1, sizeof **slot)) == NULL) {
        err_nomem(err);
        return NULL;
    }
    c = *slot;
    for (i = 0; i < c->n; i++) {
        s = c->s[i];
        if (s->sql == sql) {
            clear(s);
            if (s->gen != pg_generation(d) && typed_prepare(d, s, err) != 0)
                return NULL;
            return s;
        }
    }
    if (c->n == CACHE) {
        err_set(err, ERR_INTERNAL, "internal", NULL, "more than %d SQL statements",
                CACHE);
        return NULL;
    }
    s = xcalloc(1, sizeof *s);
    if (s == NULL) {
        err_nomem(err);
        return NULL;
    }
    s->sql = sql;
    s->row = -1;
    snprintf(s->name, sizeof s->name, "q%d", c->next_id++);
    for (i = 0; types[i] && i < DB_MAX_PARAMS; i++)
        s->types[i] = types[i] == 'i'   ? OID_INT8
                      : types[i] == 'd' ? OID_FLOAT8
                      : types[i] == 'b' ? OID_BYTEA
                                        : OID_TEXT;
    s->nparams = i;
    if (typed_prepare(d, s, err) != 0) {
        xfree(s);
        return NULL;
    }
    c->s[c->n++] = s;
    return s;
}

static void pg_bind(struct db_stmt *s, int i, const struct db_value *v)
{
    char num[32];
    i--;
    if (i < 0 || i >= s->nparams)
        return;
    xfree(s->values[i]);
    s->values[i] = NULL;
    s->lengths[i] = 0;
    s->formats[i] = 0;
    switch (v->type) {
    case DBV_INT:
        snprintf(num, sizeof num, "%lld", v->i);
        s->values[i] = xstrdup(num);
        break;
    case DBV_REAL:
        if (isnan(v->r))
            snprintf(num, sizeof num, "NaN");
        else if (isinf(v->r))
            snprintf(num, sizeof num, "%sInfinity", v->r < 0 ? "-" : "");
        else
            snprintf(num, sizeof num, "%.17g", v->r);
        s->values[i] = xstrdup(num);
        break;
    case DBV_TEXT:
        s->values[i] = xstrndup(v->p, v->n);
        break;
    case DBV_BLOB:
        s->values[i] = xmalloc(v->n ? v->n : 1);
        if (s->values[i] != NULL && v->n)
            memcpy(s->values[i], v->p, v->n);
        s->lengths[i] = (int)v->n;
        s->formats[i] = 1;
        break;
    default:
        break;
    }
}

static int pg_step(db *d, struct db_stmt *s, struct err *err)
{
    if (s->r == NULL) {
        PGresult *r =
            pg_exec_prepared(d, s->name, s->nparams, (const char *const *)s->values,
                             s->lengths, s->formats);
        if (r == NULL || (PQresultStatus(r) != PGRES_TUPLES_OK &&
                          PQresultStatus(r) != PGRES_COMMAND_OK))
            return pg_fail(d, r, err);
        s->r = r;
        s->row = -1;
    }
    if (s->blob) {
        PQfreemem(s->blob);
        s->blob = NULL;
    }
    s->row++;
    return s->row < PQntuples(s->r) ? 1 : 0;
}

static int pg_column_count(struct db_stmt *s)
{
    return s->r ? PQnfields(s->r) : 0;
}

static const char *pg_column_name(struct db_stmt *s, int i)
{
    return s->r ? PQfname(s->r, i) : "";
}

static void pg_column(struct db_stmt *s, int i, struct db_value *v)
{
    const char *t;
    char *end;

    v->type = DBV_NULL;
    if (s->r == NULL || s->row < 0 || s->row >= PQntuples(s->r) ||
        PQgetisnull(s->r, s->row, i))
        return;
    t = PQgetvalue(s->r, s->row, i);
    switch (PQftype(s->r, i)) {
    case OID_INT2:
    case OID_INT4:
    case OID_INT8:
        v->type = DBV_INT;
        v->i = strtoll(t, NULL, 10);
        break;
    case OID_FLOAT4:
    case OID_FLOAT8:
        v->type = DBV_REAL;
        v->r = strtod(t, NULL);
        break;
    case OID_NUMERIC:
        errno = 0;
        v->i = strtoll(t, &end, 10);
        if (*end == '\0' && errno == 0) {
            v->type = DBV_INT;
        } else {
            v->type = DBV_REAL;
            v->r = strtod(t, NULL);
        }
        break;
    case OID_BOOL:
        v->type = DBV_INT;
        v->i = t[0] == 't';
        break;
    case OID_BYTEA: {
        size_t n = 0;
        if (s->blob)
            PQfreemem(s->blob);
        s->blob = PQunescapeBytea((const unsigned char *)t, &n);
        v->type = s->blob ? DBV_BLOB : DBV_NULL;
        v->p = s->blob;
        v->n = n;
        break;
    }
    default:
        v->type = DBV_TEXT;
        v->p = t;
        v->n = (size_t)PQgetlength(s->r, s->row, i);
        break;
    }
}

static void pg_reset(struct db_stmt *s)
{
    clear(s);
}

static long long pg_changes(db *d, struct db_stmt *s)
{
    (void)d;
    return s->r ? strtoll(PQcmdTuples(s->r), NULL, 10) : 0;
}

const struct db_engine db_pg_engine = {
    .name = "postgresql",
    .pg = 1,
    .open = pg_open,
    .close = pg_close,
    .prepare = pg_prepare,
    .bind = pg_bind,
    .step = pg_step,
    .column_count = pg_column_count,
    .column_name = pg_column_name,
    .column = pg_column,
    .reset = pg_reset,
    .changes = pg_changes,
    .exec = pg_exec,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .savepoint = pg_savepoint,
    .backup = pg_backup,
    .check = pg_check,
    .copy = &db_pg_copy,
};
