/* query: running SQL on any engine; see query.h. */
#include "db/query.h"

#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

static struct db_stmt *prepare_v(db *d, const char *sql, struct err *err, const char *fmt,
                                 va_list ap)
{
    struct db_stmt *st = d->eng->prepare(d, sql, fmt ? fmt : "", err);
    int i;
    if (st == NULL)
        return NULL;
    for (i = 0; fmt && fmt[i]; i++) {
        struct db_value v;
        memset(&v, 0, sizeof v);
        switch (fmt[i]) {
        case 't':
            v.p = va_arg(ap, const char *);
            v.type = v.p ? DBV_TEXT : DBV_NULL;
            v.n = v.p ? strlen(v.p) : 0;
            break;
        case 'i':
            v.type = DBV_INT;
            v.i = va_arg(ap, long long);
            break;
        case 'd':
            v.type = DBV_REAL;
            v.r = va_arg(ap, double);
            break;
        case 'b':
            v.p = va_arg(ap, const void *);
            v.n = va_arg(ap, size_t);
            v.type = v.p ? DBV_BLOB : DBV_NULL;
            break;
        default:
            d->eng->reset(st);
            err_set(err, ERR_INTERNAL, "internal", NULL, "bad SQL parameter type '%c'",
                    fmt[i]);
            return NULL;
        }
        d->eng->bind(st, i + 1, &v);
    }
    return st;
}

struct db_stmt *dq_prepare(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    struct db_stmt *st;
    va_list ap;
    va_start(ap, fmt);
    st = prepare_v(d, sql, err, fmt, ap);
    va_end(ap);
    return st;
}

int dq_step(db *d, struct db_stmt *st, struct err *err)
{
    int rc = d->eng->step(d, st, err);
    if (rc != 1)
        d->eng->reset(st);
    return rc;
}

void dq_reset(db *d, struct db_stmt *st)
{
    d->eng->reset(st);
}

static struct db_value col(db *d, struct db_stmt *st, int i)
{
    struct db_value v;
    memset(&v, 0, sizeof v);
    d->eng->column(st, i, &v);
    return v;
}

long long dq_ll(db *d, struct db_stmt *st, int i)
{
    struct db_value v = col(d, st, i);
    return v.type == DBV_INT ? v.i : v.type == DBV_REAL ? (long long)v.r : 0;
}

double dq_dbl(db *d, struct db_stmt *st, int i)
{
    struct db_value v = col(d, st, i);
    return v.type == DBV_REAL ? v.r : v.type == DBV_INT ? (double)v.i : 0;
}

const char *dq_text(db *d, struct db_stmt *st, int i)
{
    struct db_value v = col(d, st, i);
    return v.type == DBV_TEXT ? v.p : NULL;
}

const void *dq_blob(db *d, struct db_stmt *st, int i, size_t *len)
{
    struct db_value v = col(d, st, i);
    *len = v.type == DBV_BLOB || v.type == DBV_TEXT ? v.n : 0;
    return v.type == DBV_BLOB || v.type == DBV_TEXT ? v.p : NULL;
}

int dq_null(db *d, struct db_stmt *st, int i)
{
    return col(d, st, i).type == DBV_NULL;
}

double dq_opt_dbl(db *d, struct db_stmt *st, int i)
{
    struct db_value v = col(d, st, i);
    return v.type == DBV_REAL ? v.r : v.type == DBV_INT ? (double)v.i : NAN;
}

static json_t *value_json(const struct db_value *v)
{
    switch (v->type) {
    case DBV_INT:
        return json_integer(v->i);
    case DBV_REAL:
        return json_real(v->r);
    case DBV_TEXT:
        return json_stringn(v->p, v->n);
    default:
        return json_null();
    }
}

static json_t *rows_json(db *d, struct db_stmt *st, struct err *err)
{
    json_t *arr = json_array();
    int rc, ncol = -1, i;

    if (arr == NULL) {
        d->eng->reset(st);
        err_nomem(err);
        return NULL;
    }
    while ((rc = dq_step(d, st, err)) == 1) {
        json_t *obj = json_object();
        if (ncol < 0) /* known once the statement ran (PostgreSQL) */
            ncol = d->eng->column_count(st);
        if (obj == NULL || json_array_append_new(arr, obj) != 0) {
            d->eng->reset(st);
            json_decref(arr);
            err_nomem(err);
            return NULL;
        }
        for (i = 0; i < ncol; i++) {
            const char *name = d->eng->column_name(st, i);
            size_t len = strlen(name);
            struct db_value v = col(d, st, i);
            if (len > 5 && strcmp(name + len - 5, "_json") == 0) {
                char key[64];
                json_t *j = v.type == DBV_TEXT
                                ? json_loadb(v.p, v.n, JSON_DECODE_ANY, NULL)
                            : v.type == DBV_NULL ? json_null()
                                                 : NULL;
                snprintf(key, sizeof key, "%.*s", (int)(len - 5), name);
                json_object_set_new(obj, key, j ? j : json_null());
            } else {
                json_object_set_new(obj, name, value_json(&v));
            }
        }
    }
    if (rc < 0) {
        json_decref(arr);
        return NULL;
    }
    return arr;
}

json_t *dq_json(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    struct db_stmt *st;
    va_list ap;
    va_start(ap, fmt);
    st = prepare_v(d, sql, err, fmt, ap);
    va_end(ap);
    return st ? rows_json(d, st, err) : NULL;
}

json_t *dq_one(db *d, const char *what, const char *sql, struct err *err, const char *fmt,
               ...)
{
    struct db_stmt *st;
    json_t *arr, *one;
    va_list ap;
    va_start(ap, fmt);
    st = prepare_v(d, sql, err, fmt, ap);
    va_end(ap);
    arr = st ? rows_json(d, st, err) : NULL;
    if (arr == NULL)
        return NULL;
    one = json_array_get(arr, 0);
    if (one == NULL) {
        json_decref(arr);
        err_set(err, ERR_NOT_FOUND, "not_found", NULL, "%s not found", what);
        return NULL;
    }
    json_incref(one);
    json_decref(arr);
    return one;
}

long long dq_run(db *d, const char *sql, struct err *err, const char *fmt, ...)
{
    struct db_stmt *st;
    long long n;
    va_list ap;
    va_start(ap, fmt);
    st = prepare_v(d, sql, err, fmt, ap);
    va_end(ap);
    if (st == NULL || d->eng->step(d, st, err) < 0) {
        if (st != NULL)
            d->eng->reset(st);
        return -1;
    }
    n = d->eng->changes(d, st);
    d->eng->reset(st);
    return n;
}

int dq_scalar(db *d, long long *v, const char *sql, struct err *err, const char *fmt, ...)
{
    struct db_stmt *st;
    int rc;
    va_list ap;
    va_start(ap, fmt);
    st = prepare_v(d, sql, err, fmt, ap);
    va_end(ap);
    if (st == NULL)
        return -1;
    rc = dq_step(d, st, err);
    if (rc == 1) {
        rc = !dq_null(d, st, 0);
        if (rc)
            *v = dq_ll(d, st, 0);
        d->eng->reset(st);
    }
    return rc;
}

int dq_attach(db *d, json_t *obj, const char *key, const char *sql, long long id,
              struct err *err)
{
    json_t *rows = dq_json(d, sql, err, "i", id);
    return rows != NULL && json_object_set_new(obj, key, rows) == 0;
}

char *dq_object_text(json_t *o, struct err *err)
{
    json_t *empty = o ? NULL : json_object();
    char *t = json_dumps(o ? o : empty, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(empty);
    if (t == NULL)
        err_nomem(err);
    return t;
}
