/* http: libmicrohttpd integration; see http.h. */
#include "server/http.h"
#include "common/sha256.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "server/api_error.h"
#include "formats/form.h"
#include "server/routes.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
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

const char *http_query(struct req *r, const char *name)
{
    const char *raw = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
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
    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, query_one, &w);
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
    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, query_field, &w);
    if (w.bad)
        return err_set(err, 400, "bad_query", NULL,
                       "the query string is malformed or has more than %d parameters "
                       "(or a name over %d bytes)",
                       FORM_MAX_FIELDS, FORM_MAX_NAME);
    return 0;
}

const char *http_header(struct req *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
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
    if (strncmp(auth, "Bearer ", 7) == 0) {
        auth += 7;
        while (*auth == ' ')
            auth++;
        lookup_token(r, auth, strlen(auth));
    } else if (strncmp(auth, "Basic ", 6) == 0 && strlen(auth) < 1024) {
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
    lookup_token(r, token, strlen(token));
    if (r->token_name == NULL)
        return err_set(err, 401, "unauthorized", field, "unknown or revoked token");
    return 0;
}

/* ---- deferred writes --------------------------------------------------- */

static void write_done(struct db_job *job)
{
    struct req *r = job->done_arg;
    r->state = REQ_DONE;
    MHD_resume_connection(r->conn);
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
    /* Suspend before submitting: the writer may finish (and resume) at once. */
    MHD_suspend_connection(r->conn);
    if (db_writer_submit(r->app->writer, &r->job) != 0) {
        r->job.rc = -1;
        r->state = REQ_DONE;
        MHD_resume_connection(r->conn);
    }
    return 0;
}

/* ---- the MHD callbacks ---------------------------------------------------- */

static struct req *req_new(struct app *app, struct MHD_Connection *conn,
                           const char *method, const char *url)
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
    r->method = arena_strdup(r->arena, method);
    r->path = arena_strdup(r->arena, url);
    buf_init(&r->body, app->cfg->max_body);
    atomic_fetch_add(&active_requests, 1);
    return r;
}

static void req_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                          enum MHD_RequestTerminationCode toe)
{
    struct req *r = *con_cls;
    (void)cls;
    (void)conn;
    (void)toe;
    if (r == NULL)
        return;
    if (r->stream)
        MHD_destroy_response(r->stream);
    if (r->resp_free)
        free((void *)r->resp);
    buf_free(&r->body);
    arena_free(r->arena);
    xfree(r);
    *con_cls = NULL;
    atomic_fetch_sub(&active_requests, 1);
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
        MHD_add_response_header(resp, "Allow", "GET, POST, PUT, DELETE");
    ret = MHD_queue_response(r->conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static void dispatch(struct req *r)
{
    struct err e = {0};
    int method_mismatch = 0;

    r->route = routes_match(r, &method_mismatch);
    if (r->route == NULL) {
        if (method_mismatch)
            err_set(&e, 405, "method_not_allowed", NULL, "%s is not allowed on %s",
                    r->method, r->path);
        else
            err_set(&e, 404, "not_found", NULL, "no such resource: %s", r->path);
        http_error(r, &e);
        return;
    }
    if (r->body_too_big) {
        err_set(&e, 413, "too_large", NULL, "request body over the limit of %zu bytes",
                r->app->cfg->max_body);
        http_error(r, &e);
        return;
    }
    check_token(r);
    if ((r->route->flags & R_WRITE) ||
        (r->app->cfg->protect_reads && !(r->route->flags & R_PUBLIC))) {
        if (http_require_token(r, &e) != 0) {
            /* A browser asks for the token (as the password) on a page. */
            if (r->route->flags & R_HTML) {
                r->extra_header[0] = "WWW-Authenticate";
                r->extra_header[1] = "Basic realm=\"Prophecy\", charset=\"UTF-8\"";
            }
            http_error(r, &e);
            return;
        }
    }
    if (r->route->fn(r) != 0 && r->resp == NULL && r->stream == NULL &&
        r->finish == NULL) {
        err_set(&e, 500, "internal", NULL, "internal error");
        http_error(r, &e);
    }
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    struct app *app = cls;
    struct req *r = *con_cls;
    (void)version;

    if (r == NULL) {
        r = req_new(app, conn, method, url);
        if (r == NULL)
            return MHD_NO;
        *con_cls = r;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        if (!r->body_too_big) {
            buf_append(&r->body, upload_data, *upload_data_size);
            if (buf_failed(&r->body))
                r->body_too_big = 1;
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (r->state == REQ_WAITING)
        return MHD_YES; /* spurious call while suspended */
    if (r->state == REQ_DONE) {
        if (r->resp == NULL)
            r->finish(r); /* answers the error too, and frees what it holds */
        return send_response(r);
    }
    dispatch(r);
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
    app->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
            MHD_USE_TURBO,
        (uint16_t)cfg->port, NULL, NULL, on_request, app, MHD_OPTION_SOCK_ADDR, &addr,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cfg->threads, MHD_OPTION_NOTIFY_COMPLETED,
        req_completed, app, MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)1000, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_END);
    if (app->daemon == NULL)
        return err_set(err, 500, "listen", NULL, "cannot listen on %s:%d (in use?)",
                       cfg->listen_host, cfg->port);
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
}
