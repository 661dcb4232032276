/* http: libmicrohttpd integration; see http.h. */
#include "server/http.h"
#include "common/sha256.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "server/api_error.h"
#include "server/form.h"
#include "server/page.h"
#include "server/routes.h"
#include "formats/limits.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static atomic_int active_requests;

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

    if (wants_html(r))
        return page_error(r, e);
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

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *http_decode(arena *a, const char *s, size_t n, int plus)
{
    char *out = arena_alloc(a, n + 1), *o = out;
    size_t i;
    if (out == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        if (s[i] == '%') {
            int h, l;
            if (i + 2 >= n)
                return NULL;
            h = hexval((unsigned char)s[i + 1]);
            l = hexval((unsigned char)s[i + 2]);
            if (h < 0 || l < 0 || (h == 0 && l == 0))
                return NULL;
            *o++ = (char)(h * 16 + l);
            i += 2;
        } else if (plus && s[i] == '+') {
            *o++ = ' ';
        } else {
            *o++ = s[i];
        }
    }
    *o = '\0';
    return out;
}

/* ---- request values: from the connection, or from an in-process request -- */

typedef enum MHD_Result (*value_fn)(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value);

static const struct http_kv *inproc_list(const struct req *r, enum MHD_ValueKind kind,
                                         size_t *n)
{
    *n = kind == MHD_HEADER_KIND ? r->inproc->nheaders : r->inproc->nquery;
    return kind == MHD_HEADER_KIND ? r->inproc->headers : r->inproc->query;
}

static const char *lookup_value(struct req *r, enum MHD_ValueKind kind, const char *name)
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

static void each_value(struct req *r, enum MHD_ValueKind kind, value_fn fn, void *cls)
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
    const char *raw = lookup_value(r, MHD_GET_ARGUMENT_KIND, name);
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
        return err_set(err, 400, "bad_parameter", name,
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
    each_value(r, MHD_GET_ARGUMENT_KIND, query_one, &w);
    if (w.bad) {
        json_decref(w.obj);
        err_set(err, 400, "bad_query", NULL,
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
    each_value(r, MHD_GET_ARGUMENT_KIND, query_field, &w);
    if (w.bad)
        return err_set(err, 400, "bad_query", NULL,
                       "the query string is malformed or has more than %d parameters "
                       "(or a name over %d bytes)",
                       FORM_MAX_FIELDS, FORM_MAX_NAME);
    return 0;
}

const char *http_header(struct req *r, const char *name)
{
    return lookup_value(r, MHD_HEADER_KIND, name);
}

json_t *http_body_json(struct req *r, struct err *err)
{
    const char *ct = http_header(r, "Content-Type");
    json_error_t je;
    json_t *v;

    if (ct == NULL || strncmp(ct, "application/json", 16) != 0 ||
        (ct[16] != '\0' && ct[16] != ';' && ct[16] != ' ')) {
        err_set(err, 400, "content_type", NULL,
                "Content-Type must be application/json (got %s)", ct ? ct : "none");
        return NULL;
    }
    v = json_loadb(r->body.data ? r->body.data : "", r->body.len, JSON_REJECT_DUPLICATES,
                   &je);
    if (v == NULL) {
        err_set(err, 400, "malformed_json", NULL,
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
static int check_token(struct req *r)
{
    const char *auth = http_header(r, "Authorization");
    if (auth == NULL)
        return 0;
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
    return 0;
}

int http_require_token(struct req *r, struct err *err)
{
    if (r->token_name)
        return 0;
    if (http_header(r, "Authorization") == NULL)
        return err_set(err, 401, "unauthorized", NULL,
                       "this request needs a write token: Authorization: Bearer TOKEN "
                       "(create one with 'prophecyd token create NAME')");
    return err_set(err, 401, "unauthorized", NULL, "unknown or revoked token");
}

int http_check_token(struct req *r, const char *token, const char *field, struct err *err)
{
    if (token == NULL || *token == '\0')
        return err_set(err, 401, "unauthorized", field,
                       "a write token is needed (create one with 'prophecyd token "
                       "create NAME')");
    /* The form's token stands on its own: a valid Authorization header sent
     * along must not make a wrong form token pass. */
    r->token_name = NULL;
    lookup_token(r, token, strlen(token));
    if (r->token_name == NULL)
        return err_set(err, 401, "unauthorized", field, "unknown or revoked token");
    return 0;
}

/* ---- the guard: budgets, deadlines and the model workers ----------------- */

/* One open connection, known to the reaper. */
struct conn_rec {
    struct conn_rec *prev, *next;
    int fd;
    int busy;              /* 1: the request is whole and being answered */
    struct timespec since; /* when the connection became ready for a request */
};

struct http_guard {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct conn_rec conns; /* list head */
    int stopping;
    pthread_t reaper;
    int reaper_started;
    atomic_size_t buffered; /* body bytes reserved by requests being read */

    /* the model workers: a bounded queue of suspended requests */
    struct req **queue;
    size_t qcap, qhead, qlen;
    pthread_t *workers;
    int nworkers;
};

static double since_s(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Drops connections that have not delivered a whole request within the
 * request timeout: idle ones, slow-drip headers and slow-drip bodies alike
 * (libmicrohttpd's own timeout restarts on every byte). */
static void *reaper_main(void *arg)
{
    struct app *app = arg;
    struct http_guard *g = app->guard;
    double limit = (double)app->cfg->request_timeout;

    pthread_mutex_lock(&g->lock);
    while (!g->stopping) {
        struct timespec until;
        struct conn_rec *c;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g->wake, &g->lock, &until);
        for (c = g->conns.next; c != &g->conns; c = c->next)
            if (!c->busy && c->fd >= 0 && since_s(&c->since) > limit) {
                shutdown(c->fd, SHUT_RDWR); /* MHD sees the end and closes it */
                c->fd = -1;
            }
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_ctx,
                          enum MHD_ConnectionNotificationCode code)
{
    struct app *app = cls;
    struct http_guard *g = app->guard;
    struct conn_rec *c = *socket_ctx;

    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        c = xcalloc(1, sizeof *c);
        if (c == NULL)
            return;
        c->fd = info ? info->connect_fd : -1;
        clock_gettime(CLOCK_MONOTONIC, &c->since);
        pthread_mutex_lock(&g->lock);
        c->next = g->conns.next;
        c->prev = &g->conns;
        g->conns.next->prev = c;
        g->conns.next = c;
        pthread_mutex_unlock(&g->lock);
        *socket_ctx = c;
    } else if (c != NULL) {
        pthread_mutex_lock(&g->lock);
        c->prev->next = c->next;
        c->next->prev = c->prev;
        pthread_mutex_unlock(&g->lock);
        xfree(c);
        *socket_ctx = NULL;
    }
}

/* Marks the connection busy (a whole request is being answered) or ready
 * for the next request (its deadline starts now). */
static void conn_mark(struct req *r, int busy)
{
    const union MHD_ConnectionInfo *info;
    struct conn_rec *c;
    if (r->conn == NULL || r->app->guard == NULL)
        return;
    info = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    c = info ? info->socket_context : NULL;
    if (c == NULL)
        return;
    pthread_mutex_lock(&r->app->guard->lock);
    c->busy = busy;
    if (!busy)
        clock_gettime(CLOCK_MONOTONIC, &c->since);
    pthread_mutex_unlock(&r->app->guard->lock);
}

/* Reserves body bytes from the budget shared by every connection. */
static int reserve_body(struct req *r, size_t n)
{
    struct http_guard *g = r->app->guard;
    size_t cur;
    if (g == NULL || n == 0)
        return 0;
    cur = atomic_load(&g->buffered);
    do {
        if (cur + n > r->app->cfg->max_buffered)
            return -1;
    } while (!atomic_compare_exchange_weak(&g->buffered, &cur, cur + n));
    r->reserved = n;
    return 0;
}

static void release_body(struct req *r)
{
    if (r->reserved && r->app->guard)
        atomic_fetch_sub(&r->app->guard->buffered, r->reserved);
    r->reserved = 0;
}

/* ---- deferred writes --------------------------------------------------- */

static void write_done(struct db_job *job)
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
    MHD_resume_connection(r->conn);
}

static void submit_write(struct req *r)
{
    if (db_writer_submit(r->app->writer, &r->job) != 0) {
        r->job.rc = -1;
        write_done(&r->job);
    }
}

int http_defer_write(struct req *r, int (*fn)(db *d, void *arg, struct err *err),
                     void *arg, handler_fn finish)
{
    r->job.fn = fn;
    r->job.arg = arg;
    r->job.done = write_done;
    r->job.done_arg = r;
    r->finish = finish;
    r->state = REQ_WAITING;
    /* On a model worker (or in process) the connection is already suspended
     * and the caller submits once the handler has returned. */
    if (r->on_worker || r->inproc != NULL)
        return 0;
    /* Suspend before submitting: the writer may finish (and resume) at once. */
    MHD_suspend_connection(r->conn);
    submit_write(r);
    return 0;
}

/* ---- the MHD callbacks ---------------------------------------------------- */

static struct req *req_new(struct app *app, struct MHD_Connection *conn)
{
    struct req *r = xcalloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->arena = arena_new();
    if (r->arena == NULL) {
        xfree(r);
        return NULL;
    }
    r->app = app;
    r->conn = conn;
    buf_init(&r->body, app->cfg->max_body);
    atomic_fetch_add(&active_requests, 1);
    return r;
}

static void req_free(struct req *r)
{
    if (r->stream)
        MHD_destroy_response(r->stream);
    if (r->resp_free)
        free((void *)r->resp);
    release_body(r);
    buf_free(&r->body);
    arena_free(r->arena);
    xfree(r);
    atomic_fetch_sub(&active_requests, 1);
}

static void req_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                          enum MHD_RequestTerminationCode toe)
{
    struct req *r = *con_cls;
    (void)cls;
    (void)toe;
    if (r == NULL)
        return;
    conn_mark(r, 0);
    (void)conn;
    req_free(r);
    *con_cls = NULL;
}

/* Counts the query parameters of the raw request target and, past the
 * limit, empties the query so that libmicrohttpd does not run out of
 * connection memory parsing them (it would drop the connection without an
 * answer); the request is then answered 400. The URI is libmicrohttpd's
 * writable read buffer; it parses the query after this callback. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    struct req *r = req_new(cls, conn);
    const char *q = strchr(uri, '?');
    size_t n = 0;
    if (r == NULL || q == NULL)
        return r;
    for (const char *p = q + 1; *p; p++)
        n += *p == '&' || *p == ';';
    if (n + 1 > LIMIT_FORM_FIELDS) {
        r->too_many_query = 1;
        ((char *)q)[1] = '\0';
    }
    return r;
}

static enum MHD_Result send_response(struct req *r)
{
    struct MHD_Response *resp;
    enum MHD_Result ret;

    if (r->resp == NULL && r->stream == NULL) {
        struct err e = {0};
        err_set(&e, 500, "internal", NULL, "handler produced no response");
        http_error(r, &e);
    }
    if (r->stream) {
        resp = r->stream;
        r->stream = NULL;
    } else {
        resp = MHD_create_response_from_buffer(r->resp_len, (void *)r->resp,
                                               r->resp_free ? MHD_RESPMEM_MUST_FREE
                                                            : MHD_RESPMEM_PERSISTENT);
    }
    if (resp == NULL)
        return MHD_NO;
    r->resp_free = 0; /* MHD owns it now */
    MHD_add_response_header(resp, "Content-Type", r->content_type);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (strncmp(r->content_type, "text/html", 9) == 0)
        MHD_add_response_header(resp, "Content-Security-Policy",
                                "default-src 'none'; style-src 'self'; img-src 'self'; "
                                "script-src 'self'; form-action 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'");
    if (strncmp(r->content_type, "image/svg", 9) == 0)
        MHD_add_response_header(resp, "Content-Security-Policy",
                                "default-src 'none'; style-src 'unsafe-inline'");
    if (r->extra_header[0])
        MHD_add_response_header(resp, r->extra_header[0], r->extra_header[1]);
    if (r->status == 405 && r->route == NULL)
        MHD_add_response_header(resp, "Allow", routes_allowed(r->path));
    if (r->status == 503)
        MHD_add_response_header(resp, "Retry-After", "1");
    ret = MHD_queue_response(r->conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    r->state = REQ_SENT;
    return ret;
}

struct header_walk {
    const char *length; /* the first Content-Length */
    int conflict;
    int chunked;
};

static enum MHD_Result header_one(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    struct header_walk *w = cls;
    (void)kind;
    if (strcasecmp(key, "Content-Length") == 0) {
        if (w->length != NULL && strcmp(w->length, value ? value : "") != 0)
            w->conflict = 1;
        if (w->length == NULL)
            w->length = value ? value : "";
    } else if (strcasecmp(key, "Transfer-Encoding") == 0) {
        w->chunked = 1;
    }
    return MHD_YES;
}

struct query_check {
    struct req *r;
    struct err *e;
};

static enum MHD_Result query_name(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    struct query_check *w = cls;
    char *k = http_decode(w->r->arena, key, strlen(key), 1);
    (void)kind;
    (void)value;
    if (k == NULL) {
        err_set(w->e, 400, "bad_query", NULL, "a query parameter name is malformed");
        return MHD_NO;
    }
    if (!routes_query_allowed(w->r->route, k)) {
        err_set(w->e, 400, "unknown_parameter", k,
                "unknown query parameter %.64s on %s %.200s", k, w->r->method,
                w->r->route->pattern);
        return MHD_NO;
    }
    return MHD_YES;
}

/* Everything decided by the request line and the headers, before a byte of
 * the body is read: route and method, path encoding, header sanity, the
 * size limit, the token, the query parameters and the body budget. Returns
 * 0, or -1 with the error answered (r->resp set). */
static int check_head(struct req *r, int *has_body)
{
    struct err e = {0};
    struct header_walk hw = {NULL, 0, 0};
    struct query_check qc = {r, &e};
    unsigned long long length = 0;
    int status;

    each_value(r, MHD_HEADER_KIND, header_one, &hw);
    if (hw.length != NULL) {
        char *end;
        errno = 0;
        length = strtoull(hw.length, &end, 10);
        if (*hw.length < '0' || *hw.length > '9' || *end != '\0' || errno == ERANGE)
            hw.conflict = 1;
    }
    *has_body = length > 0 || hw.chunked;
    r->route = routes_match(r, &status);
    if (hw.conflict) {
        err_set(&e, 400, "bad_request", NULL,
                "conflicting or malformed Content-Length headers");
    } else if (r->too_many_query) {
        err_set(&e, 400, "bad_query", NULL,
                "the query string has more than %d parameters", LIMIT_FORM_FIELDS);
    } else if (r->route == NULL) {
        if (status == 405)
            err_set(&e, 405, "method_not_allowed", NULL, "%s is not allowed on %.200s",
                    r->method, r->path);
        else if (status == 400)
            err_set(&e, 400, "bad_path", NULL,
                    "a path segment is not valid percent-encoding: %.200s", r->path);
        else
            err_set(&e, 404, "not_found", NULL, "no such resource: %.200s", r->path);
    } else if (length > r->app->cfg->max_body) {
        err_set(&e, 413, "too_large", NULL, "request body over the limit of %zu bytes",
                r->app->cfg->max_body);
    } else {
        check_token(r);
        if (((r->route->flags & R_WRITE) ||
             (r->app->cfg->protect_reads && !(r->route->flags & R_PUBLIC))) &&
            http_require_token(r, &e) != 0) {
            /* A browser asks for the token (as the password) on a page. */
            if (r->route->flags & R_HTML) {
                r->extra_header[0] = "WWW-Authenticate";
                r->extra_header[1] = "Basic realm=\"Prophecy\", charset=\"UTF-8\"";
            }
        } else {
            each_value(r, MHD_GET_ARGUMENT_KIND, query_name, &qc);
            if (e.status == 0 && *has_body &&
                reserve_body(r, hw.length ? (size_t)length : r->app->cfg->max_body) != 0)
                err_set(&e, 503, "busy", NULL,
                        "the server is receiving too many request bodies; retry shortly");
        }
    }
    if (e.status == 0)
        return 0;
    http_error(r, &e);
    return -1;
}

/* Runs the route's handler (the route, token and query were checked on the
 * headers). */
static void run_handler(struct req *r)
{
    struct err e = {0};
    if (r->body_too_big) {
        err_set(&e, 413, "too_large", NULL, "request body over the limit of %zu bytes",
                r->app->cfg->max_body);
        http_error(r, &e);
        return;
    }
    if (r->route->fn(r) != 0 && r->resp == NULL && r->stream == NULL &&
        r->finish == NULL) {
        err_set(&e, 500, "internal", NULL, "internal error");
        http_error(r, &e);
    }
}

static void *worker_main(void *arg)
{
    struct app *app = arg;
    struct http_guard *g = app->guard;
    for (;;) {
        struct req *r;
        pthread_mutex_lock(&g->lock);
        while (g->qlen == 0 && !g->stopping)
            pthread_cond_wait(&g->wake, &g->lock);
        if (g->qlen == 0) {
            pthread_mutex_unlock(&g->lock);
            return NULL;
        }
        r = g->queue[g->qhead];
        g->qhead = (g->qhead + 1) % g->qcap;
        g->qlen--;
        pthread_mutex_unlock(&g->lock);

        run_handler(r);
        /* r may be freed as soon as the connection resumes: decide first. */
        if (r->finish != NULL) {
            submit_write(r);
        } else {
            r->state = REQ_DONE;
            MHD_resume_connection(r->conn);
        }
    }
}

/* Hands a costly request to the model workers; -1 when the queue is full. */
static int to_worker(struct req *r)
{
    struct http_guard *g = r->app->guard;
    int rc = -1;
    pthread_mutex_lock(&g->lock);
    if (g->qlen < g->qcap && !g->stopping) {
        r->on_worker = 1;
        r->state = REQ_WAITING;
        MHD_suspend_connection(r->conn);
        g->queue[(g->qhead + g->qlen) % g->qcap] = r;
        g->qlen++;
        pthread_cond_broadcast(&g->wake);
        rc = 0;
    }
    pthread_mutex_unlock(&g->lock);
    return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    struct app *app = cls;
    struct req *r = *con_cls;
    (void)version;

    if (r == NULL) { /* no URI callback ran (cannot happen; be safe) */
        r = req_new(app, conn);
        if (r == NULL)
            return MHD_NO;
        *con_cls = r;
    }
    if (r->method == NULL) { /* the first call: headers only */
        int has_body;
        r->method = arena_strdup(r->arena, method);
        r->path = arena_strdup(r->arena, url);
        if (r->method == NULL || r->path == NULL)
            return MHD_NO;
        if (check_head(r, &has_body) != 0) {
            r->state = REQ_DONE;
            /* A request with a body is answered now, unread (no 100 Continue,
             * no buffering); a bodiless one on the next call, which keeps
             * the connection alive (FACTS.md). */
            if (has_body)
                return send_response(r);
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        if (!r->body_too_big && r->resp == NULL) {
            buf_append(&r->body, upload_data, *upload_data_size);
            if (buf_failed(&r->body))
                r->body_too_big = 1;
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (r->state == REQ_WAITING)
        return MHD_YES; /* spurious call while suspended */
    if (r->state == REQ_SENT)
        return MHD_YES;
    if (r->state == REQ_DONE) {
        if (r->resp == NULL && r->stream == NULL && r->finish != NULL)
            r->finish(r); /* answers the error too, and frees what it holds */
        return send_response(r);
    }
    conn_mark(r, 1);
    if ((r->route->flags & R_COSTLY) && app->guard != NULL && app->guard->nworkers > 0 &&
        !r->body_too_big) {
        if (to_worker(r) == 0)
            return MHD_YES;
        struct err e = {0};
        err_set(&e, 503, "busy", NULL,
                "too many model computations are queued; retry shortly");
        http_error(r, &e);
        return send_response(r);
    }
    run_handler(r);
    /* A deferred write answers when it is resumed. Test the handler's own
     * mark, not r->state: the writer may already have set REQ_DONE. */
    if (r->finish != NULL)
        return MHD_YES;
    return send_response(r);
}

/* Keep the URL raw: paths are split on '/' first and each segment decoded
 * after, so that a name containing "%2F" stays one segment. Query values are
 * decoded in http_query. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    return strlen(s);
}

static int guard_start(struct app *app, struct err *err)
{
    const struct config *cfg = app->cfg;
    struct http_guard *g = xcalloc(1, sizeof *g);
    int i;
    if (g == NULL)
        return err_nomem(err);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->wake, NULL);
    g->conns.next = g->conns.prev = &g->conns;
    atomic_init(&g->buffered, 0);
    g->qcap = cfg->queue > 0 ? (size_t)cfg->queue : 1;
    g->queue = xcalloc(g->qcap, sizeof *g->queue);
    g->workers =
        xcalloc((size_t)(cfg->workers > 0 ? cfg->workers : 1), sizeof *g->workers);
    app->guard = g;
    if (g->queue == NULL || g->workers == NULL)
        return err_nomem(err);
    if (pthread_create(&g->reaper, NULL, reaper_main, app) != 0)
        return err_set(err, 500, "thread", NULL, "cannot start a thread");
    g->reaper_started = 1;
    for (i = 0; i < cfg->workers; i++) {
        if (pthread_create(&g->workers[i], NULL, worker_main, app) != 0)
            return err_set(err, 500, "thread", NULL, "cannot start a thread");
        g->nworkers++;
    }
    return 0;
}

static void guard_stop(struct app *app)
{
    struct http_guard *g = app->guard;
    int i;
    if (g == NULL)
        return;
    pthread_mutex_lock(&g->lock);
    g->stopping = 1;
    pthread_cond_broadcast(&g->wake);
    pthread_mutex_unlock(&g->lock);
    if (g->reaper_started)
        pthread_join(g->reaper, NULL);
    for (i = 0; i < g->nworkers; i++)
        pthread_join(g->workers[i], NULL);
    xfree(g->queue);
    xfree(g->workers);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->wake);
    xfree(g);
    app->guard = NULL;
}

int http_start(struct app *app, struct err *err)
{
    const struct config *cfg = app->cfg;
    struct sockaddr_in addr;
    const union MHD_DaemonInfo *info;

    if (random_bytes(app->secret, sizeof app->secret) != 0)
        return err_set(err, 500, "random", NULL, "no randomness for the form secret");
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)cfg->port);
    if (inet_pton(AF_INET, cfg->listen_host, &addr.sin_addr) != 1)
        return err_set(err, 400, "usage", NULL,
                       "cannot use listen address %s (IPv4 only)", cfg->listen_host);
    if (guard_start(app, err) != 0) {
        guard_stop(app);
        return -1;
    }
    app->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
            MHD_USE_TURBO,
        (uint16_t)cfg->port, NULL, NULL, on_request, app, MHD_OPTION_SOCK_ADDR, &addr,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cfg->threads, MHD_OPTION_NOTIFY_COMPLETED,
        req_completed, app, MHD_OPTION_NOTIFY_CONNECTION, on_connection, app,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, app, MHD_OPTION_UNESCAPE_CALLBACK,
        no_unescape, NULL, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->request_timeout,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg->max_conns,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)cfg->max_conns_per_client,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024), MHD_OPTION_END);
    if (app->daemon == NULL) {
        guard_stop(app);
        return err_set(err, 500, "listen", NULL, "cannot listen on %s:%d (in use?)",
                       cfg->listen_host, cfg->port);
    }
    info = MHD_get_daemon_info(app->daemon, MHD_DAEMON_INFO_BIND_PORT);
    app->port = info ? info->port : cfg->port;
    return 0;
}

void http_stop(struct app *app, int timeout_ms)
{
    int waited = 0;
    if (app->daemon == NULL)
        return;
    MHD_quiesce_daemon(app->daemon);
    while (atomic_load(&active_requests) > 0 && waited < timeout_ms) {
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
        waited += 10;
    }
    MHD_stop_daemon(app->daemon);
    app->daemon = NULL;
    guard_stop(app);
}

/* ---- in-process dispatch ------------------------------------------------- */

int http_dispatch(struct app *app, const struct http_inproc *in, struct http_answer *out)
{
    struct inproc_wait w;
    struct req *r = req_new(app, NULL);
    int has_body;

    memset(out, 0, sizeof *out);
    if (r == NULL)
        return -1;
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.done, NULL);
    r->inproc = in;
    r->inproc_wait = &w;
    r->method = arena_strdup(r->arena, in->method);
    r->path = arena_strdup(r->arena, in->path);
    r->too_many_query = in->nquery > LIMIT_FORM_FIELDS;
    if (r->method != NULL && r->path != NULL && check_head(r, &has_body) == 0) {
        buf_append(&r->body, in->body, in->body_len);
        if (buf_failed(&r->body))
            r->body_too_big = 1;
        run_handler(r);
        if (r->finish != NULL) {
            submit_write(r);
            pthread_mutex_lock(&w.lock);
            while (r->state != REQ_DONE)
                pthread_cond_wait(&w.done, &w.lock);
            pthread_mutex_unlock(&w.lock);
            if (r->resp == NULL && r->stream == NULL)
                r->finish(r);
        }
    }
    if (r->resp == NULL && r->stream == NULL) {
        struct err e = {0};
        err_set(&e, 500, "internal", NULL, "handler produced no response");
        http_error(r, &e);
    }
    out->status = r->status;
    out->streamed = r->stream != NULL;
    if (r->resp != NULL) {
        out->body = xmalloc(r->resp_len + 1);
        if (out->body != NULL) {
            memcpy(out->body, r->resp, r->resp_len);
            out->body[r->resp_len] = '\0';
            out->len = r->resp_len;
        }
    }
    req_free(r);
    pthread_mutex_destroy(&w.lock);
    pthread_cond_destroy(&w.done);
    return 0;
}
