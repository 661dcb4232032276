/* http: the helpers handlers use (answers, query, headers, tokens, deferred
 * writes); the daemon is in http_serve.c, the defenses in http_guard.c. See
 * http.h. */
#include "server/http.h"
#include "common/sha256.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "server/api_error.h"
#include "formats/form.h"
#include "server/http_internal.h"
#include "server/routes.h"
#include "server/session.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- helpers for handlers ------------------------------------------------ */

int http_body(struct req *r, int status, const char *content_type, const char *body,
              size_t len)
{
    r->status = status;
    r->content_type = content_type;
    r->resp = body;
    r->resp_len = len;
    r->resp_free = 0;
    return 0;
}

struct stream {
    int (*next)(void *ctx, struct buf *out, struct err *err);
    void (*release)(void *ctx);
    void *ctx;
    struct buf out;
    size_t pos;
    int more;
};

static ssize_t stream_read(void *cls, uint64_t pos, char *dst, size_t max)
{
    struct stream *st = cls;
    size_t avail;
    (void)pos;
    while (st->pos >= st->out.len) {
        if (!st->more)
            return MHD_CONTENT_READER_END_OF_STREAM;
        buf_reset(&st->out);
        st->pos = 0;
        st->more = st->next(st->ctx, &st->out, NULL);
        if (st->more < 0)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    avail = st->out.len - st->pos;
    if (avail > max)
        avail = max;
    memcpy(dst, st->out.data + st->pos, avail);
    st->pos += avail;
    return (ssize_t)avail;
}

static void stream_free(void *cls)
{
    struct stream *st = cls;
    st->release(st->ctx);
    buf_free(&st->out);
    xfree(st);
}

int http_stream(struct req *r, const char *content_type, size_t piece_max,
                int (*next)(void *ctx, struct buf *out, struct err *err),
                void (*release)(void *ctx), void *ctx)
{
    struct stream *st = xcalloc(1, sizeof *st);
    struct err e = {0};

    if (st == NULL) {
        release(ctx);
        err_nomem(&e);
        return http_error(r, &e);
    }
    st->next = next;
    st->release = release;
    st->ctx = ctx;
    buf_init(&st->out, piece_max);
    if ((st->more = next(ctx, &st->out, &e)) < 0) {
        stream_free(st);
        return http_error(r, &e);
    }
    r->stream = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024,
                                                  stream_read, st, stream_free);
    if (r->stream == NULL) {
        stream_free(st);
        err_nomem(&e);
        return http_error(r, &e);
    }
    r->status = 200;
    r->content_type = content_type;
    return 0;
}

int http_json(struct req *r, int status, json_t *v)
{
    /* 16 significant digits: 11.2 reads as 11.2, not 11.199999999999999;
     * exports use 17 and are lossless. */
    char *s = v ? json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(16)) : NULL;
    json_decref(v);
    if (s == NULL) {
        struct err e = {0};
        err_nomem(&e);
        return http_error(r, &e);
    }
    r->status = status;
    r->content_type = "application/json";
    r->resp = s;
    r->resp_len = strlen(s);
    r->resp_free = 1;
    return 0;
}

int http_json_buf(struct req *r, struct buf *out)
{
    size_t len;
    char *s = buf_detach(out, &len);
    buf_free(out);
    if (s == NULL) {
        struct err e = {0};
        err_nomem(&e);
        return http_error(r, &e);
    }
    r->status = 200;
    r->content_type = "application/json";
    r->resp = s;
    r->resp_len = len;
    r->resp_free = 1;
    return 0;
}

/* Pages answer errors as pages; so does any unknown path outside the API
 * (a mistyped dashboard URL), while /api/ stays JSON. */
static int wants_html(const struct req *r)
{
    if (r->route != NULL)
        return (r->route->flags & R_HTML) != 0;
    return r->path == NULL || strncmp(r->path, "/api/", 5) != 0;
}

int http_error(struct req *r, const struct err *e)
{
    char *body;
    size_t len;
    int status;

    if (r->app != NULL && r->app->error_page != NULL && wants_html(r))
        return r->app->error_page(r, e);
    status = api_error_json(e, &body, &len);
    r->status = status;
    r->content_type = "application/json";
    r->resp =
        body ? body
             : "{\"error\":{\"code\":\"out_of_memory\",\"message\":\"out of memory\"}}";
    r->resp_len = body ? len : strlen(r->resp);
    r->resp_free = body != NULL;
    return 0;
}

int http_redirect(struct req *r, const char *location)
{
    r->extra_header[0] = "Location";
    r->extra_header[1] = location;
    return http_body(r, 303, "text/plain; charset=utf-8", "See Other\n", 10);
}

char *http_decode(arena *a, const char *s, size_t n, int plus)
{
    const char *why;
    return form_url_decode(a, s, n, plus, NULL, &why);
}

/* ---- request values: from the connection, or from an in-process request -- */

static const struct http_kv *inproc_list(const struct req *r, enum MHD_ValueKind kind,
                                         size_t *n)
{
    *n = kind == MHD_HEADER_KIND ? r->inproc->nheaders : r->inproc->nquery;
    return kind == MHD_HEADER_KIND ? r->inproc->headers : r->inproc->query;
}

const char *http_lookup_value(struct req *r, enum MHD_ValueKind kind, const char *name)
{
    const struct http_kv *kv;
    size_t i, n;
    if (r->inproc == NULL)
        return MHD_lookup_connection_value(r->conn, kind, name);
    kv = inproc_list(r, kind, &n);
    for (i = 0; i < n; i++)
        if (kind == MHD_HEADER_KIND ? strcasecmp(kv[i].name, name) == 0
                                    : strcmp(kv[i].name, name) == 0)
            return kv[i].value;
    return NULL;
}

void http_each_value(struct req *r, enum MHD_ValueKind kind, http_value_fn fn, void *cls)
{
    const struct http_kv *kv;
    size_t i, n;
    if (r->inproc == NULL) {
        MHD_get_connection_values(r->conn, kind, fn, cls);
        return;
    }
    kv = inproc_list(r, kind, &n);
    for (i = 0; i < n; i++)
        if (fn(cls, kind, kv[i].name, kv[i].value) != MHD_YES)
            return;
}

const char *http_query(struct req *r, const char *name)
{
    const char *raw = http_lookup_value(r, MHD_GET_ARGUMENT_KIND, name);
    if (raw == NULL)
        return NULL;
    return http_decode(r->arena, raw, strlen(raw), 1);
}

int http_query_int(struct req *r, const char *name, long long lo, long long hi,
                   long long *out, struct err *err)
{
    const char *s = http_query(r, name);
    char *end;
    long long v;
    if (s == NULL || *s == '\0')
        return 0;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < lo || v > hi)
        return err_set(err, ERR_BAD_REQUEST, "bad_parameter", name,
                       "%s must be a whole number from %lld to %lld", name, lo, hi);
    *out = v;
    return 0;
}

struct query_walk {
    struct req *r;
    json_t *obj;
    int bad, count;
};

static enum MHD_Result query_one(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    struct query_walk *w = cls;
    char *k = http_decode(w->r->arena, key, strlen(key), 1);
    char *v = value ? http_decode(w->r->arena, value, strlen(value), 1) : "";
    json_t *s = v ? json_string(v) : NULL; /* NULL for invalid UTF-8 */
    (void)kind;
    if (k == NULL || s == NULL || ++w->count > REQ_MAX_QUERY) {
        json_decref(s);
        w->bad = 1;
        return MHD_NO;
    }
    if (json_object_set_new(w->obj, k, s) != 0) /* a key with invalid UTF-8 */
        w->bad = 1;
    return w->bad ? MHD_NO : MHD_YES;
}

json_t *http_query_object(struct req *r, struct err *err)
{
    struct query_walk w = {r, json_object(), 0, 0};
    http_each_value(r, MHD_GET_ARGUMENT_KIND, query_one, &w);
    if (w.bad) {
        json_decref(w.obj);
        err_set(err, ERR_BAD_REQUEST, "bad_query", NULL,
                "the query string is malformed or has more than %d parameters",
                REQ_MAX_QUERY);
        return NULL;
    }
    return w.obj;
}

struct query_fields {
    struct req *r;
    struct form *f;
    size_t cap;
    int bad;
};

static enum MHD_Result query_field(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    struct query_fields *w = cls;
    char *k = http_decode(w->r->arena, key, strlen(key), 1);
    char *v = value ? http_decode(w->r->arena, value, strlen(value), 1) : "";
    (void)kind;
    if (k == NULL || v == NULL || w->f->n == w->cap || strlen(k) > FORM_MAX_NAME) {
        w->bad = 1;
        return MHD_NO;
    }
    w->f->fields[w->f->n].name = k;
    w->f->fields[w->f->n].value = v;
    w->f->fields[w->f->n].len = strlen(v);
    w->f->fields[w->f->n].filename = NULL;
    w->f->fields[w->f->n].content_type = NULL;
    w->f->n++;
    return MHD_YES;
}

int http_query_form(struct req *r, struct form *out, struct err *err)
{
    struct query_fields w = {r, out, FORM_MAX_FIELDS, 0};
    out->n = 0;
    out->fields = arena_alloc(r->arena, FORM_MAX_FIELDS * sizeof *out->fields);
    if (out->fields == NULL)
        return err_nomem(err);
    http_each_value(r, MHD_GET_ARGUMENT_KIND, query_field, &w);
    if (w.bad)
        return err_set(err, ERR_BAD_REQUEST, "bad_query", NULL,
                       "the query string is malformed or has more than %d parameters "
                       "(or a name over %d bytes)",
                       FORM_MAX_FIELDS, FORM_MAX_NAME);
    return 0;
}

const char *http_header(struct req *r, const char *name)
{
    return http_lookup_value(r, MHD_HEADER_KIND, name);
}

json_t *http_body_json(struct req *r, struct err *err)
{
    const char *ct = http_header(r, "Content-Type");
    json_error_t je;
    json_t *v;

    if (ct == NULL || strncmp(ct, "application/json", 16) != 0 ||
        (ct[16] != '\0' && ct[16] != ';' && ct[16] != ' ')) {
        err_set(err, ERR_BAD_REQUEST, "content_type", NULL,
                "Content-Type must be application/json (got %s)", ct ? ct : "none");
        return NULL;
    }
    v = json_loadb(r->body.data ? r->body.data : "", r->body.len, JSON_REJECT_DUPLICATES,
                   &je);
    if (v == NULL) {
        err_set(err, ERR_BAD_REQUEST, "malformed_json", NULL,
                "malformed JSON at line %d column %d: %s", je.line, je.column, je.text);
        return NULL;
    }
    return v;
}

/* Looks token up; sets r->token_name when it is an active token. */
static void lookup_token(struct req *r, const char *token, size_t len)
{
    uint8_t hash[SHA256_LEN];
    struct err e = {0};
    char *name;
    db *d;

    sha256(token, len, hash);
    d = db_pool_get(r->app->pool);
    name = db_token_check(d, hash, &e);
    db_pool_put(r->app->pool, d);
    if (name) {
        r->token_name = arena_strdup(r->arena, name);
        xfree(name);
    }
}

/* Decodes standard base64 (with padding) into out; returns the length or -1. */
static long base64_decode(const char *s, char *out, size_t outsz)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned acc = 0;
    int bits = 0;
    size_t n = 0;
    for (; *s && *s != '='; s++) {
        const char *c = strchr(alphabet, *s);
        if (c == NULL)
            return -1;
        acc = (acc << 6) | (unsigned)(c - alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (n + 1 >= outsz)
                return -1;
            out[n++] = (char)((acc >> bits) & 0xff);
        }
    }
    out[n] = '\0';
    return (long)n;
}

/* Reads the Authorization header: "Bearer TOKEN", or "Basic" with the token
 * as the password (browsers, --protect-reads). */
void http_read_auth(struct req *r)
{
    const char *auth = http_header(r, "Authorization");
    if (auth == NULL)
        return;
    /* The scheme is case-insensitive (RFC 9110 11.1). */
    if (strncasecmp(auth, "Bearer ", 7) == 0) {
        auth += 7;
        while (*auth == ' ')
            auth++;
        lookup_token(r, auth, strlen(auth));
    } else if (strncasecmp(auth, "Basic ", 6) == 0 && strlen(auth) < 1024) {
        char plain[800];
        long n = base64_decode(auth + 6, plain, sizeof plain);
        const char *colon = n > 0 ? memchr(plain, ':', (size_t)n) : NULL;
        if (colon != NULL)
            lookup_token(r, colon + 1, (size_t)(plain + n - colon - 1));
    }
}

int http_require_token(struct req *r, struct err *err)
{
    if (r->token_name)
        return 0;
    if (http_header(r, "Authorization") == NULL)
        return err_set(err, ERR_UNAUTHORIZED, "unauthorized", NULL,
                       "this request needs a write token: Authorization: Bearer TOKEN "
                       "(create one with 'prophecyd token create NAME')");
    return err_set(err, ERR_UNAUTHORIZED, "unauthorized", NULL,
                   "unknown or revoked token");
}

int http_check_token(struct req *r, const char *token, const char *field, struct err *err)
{
    if (token == NULL || *token == '\0') {
        /* a form without a token: the signed-in session's (server/session.h) */
        const char *name = session_user(r);
        if (name != NULL) {
            r->token_name = name;
            return 0;
        }
        return err_set(
            err, ERR_UNAUTHORIZED, "unauthorized", field,
            "a write token is needed: sign in (/login) or give one (create one "
            "with 'prophecyd token create NAME')");
    }
    /* The form's token stands on its own: a valid Authorization header sent
     * along must not make a wrong form token pass. */
    r->token_name = NULL;
    lookup_token(r, token, strlen(token));
    if (r->token_name == NULL)
        return err_set(err, ERR_UNAUTHORIZED, "unauthorized", field,
                       "unknown or revoked token");
    return 0;
}

/* ---- deferred writes --------------------------------------------------- */

void http_write_done(struct db_job *job)
{
    struct req *r = job->done_arg;
    if (r->inproc != NULL) {
        pthread_mutex_lock(&r->inproc_wait->lock);
        r->state = REQ_DONE;
        pthread_cond_signal(&r->inproc_wait->done);
        pthread_mutex_unlock(&r->inproc_wait->lock);
        return;
    }
    r->state = REQ_DONE;
    http_resume(r);
}

static atomic_int suspended;

void http_suspend(struct req *r)
{
    atomic_fetch_add(&suspended, 1);
    MHD_suspend_connection(r->conn);
}

void http_resume(struct req *r)
{
    MHD_resume_connection(r->conn);
    atomic_fetch_sub(&suspended, 1);
}

int http_suspended(void)
{
    return atomic_load(&suspended);
}

void http_submit_write(struct req *r)
{
    if (db_writer_submit(r->app->writer, &r->job) != 0) {
        r->job.rc = -1;
        http_write_done(&r->job);
    }
}

int http_defer_write(struct req *r, int (*fn)(db *d, void *arg, struct err *err),
                     void *arg, handler_fn finish)
{
    return http_defer_write_group(r, fn, NULL, arg, finish);
}

int http_defer_write_group(struct req *r, int (*fn)(db *d, void *arg, struct err *err),
                           int (*group)(db *d, struct db_job **jobs, size_t n), void *arg,
                           handler_fn finish)
{
    r->job.fn = fn;
    r->job.group = group;
    r->job.arg = arg;
    r->job.done = http_write_done;
    r->job.done_arg = r;
    r->finish = finish;
    r->state = REQ_WAITING;
    /* On a model worker (or in process) the connection is already suspended
     * and the caller submits once the handler has returned. */
    if (r->on_worker || r->inproc != NULL)
        return 0;
    /* Suspend before submitting: the writer may finish (and resume) at once. */
    http_suspend(r);
    http_submit_write(r);
    return 0;
}
