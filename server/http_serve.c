/* http_serve: the libmicrohttpd daemon of prophecyd: its callbacks, the
 * checks made on the request line and headers before any body byte is read,
 * the dispatch to handlers, and the in-process entry the HTTP fuzzer uses.
 * See http.h. */
#include "common/sha256.h"
#include "common/xalloc.h"
#include "formats/limits.h"
#include "server/http_internal.h"
#include "server/routes.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static atomic_int active_requests;
/* Set by http_stop: requests that reach their handler from then on are
 * answered 503, so that none is suspended any more. */
static atomic_int stopping;
/* MHD threads inside on_request. A request that read stopping == 0 may still
 * be on its way to suspending its connection; http_stop waits until none is
 * inside (Dekker: each side writes its own flag, then reads the other's), so
 * that every suspension is counted before it waits for them to resume and
 * stops the daemon. A connection suspended after MHD_stop_daemon aborted the
 * server (MHD's panic on suspended connections at stop). */
static atomic_int in_callback;

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
    guard_release_body(r);
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
    guard_conn_mark(r, 0);
    (void)conn;
    req_free(r);
    *con_cls = NULL;
}

/* Counts the query parameters of the raw request target and, past the
 * limits (LIMIT_FORM_FIELDS parameters, LIMIT_QUERY_BYTES bytes), empties
 * the query so that libmicrohttpd does not run out of connection memory
 * parsing them (it would drop the connection without an answer); the
 * request is then answered 400. The URI is libmicrohttpd's writable read
 * buffer; it parses the query after this callback. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    struct req *r = req_new(cls, conn);
    guard_conn_started(cls, conn);
    const char *q = strchr(uri, '?'), *p;
    size_t n = 0;
    if (r == NULL || q == NULL)
        return r;
    for (p = q + 1; *p && *p != ' '; p++)
        n += *p == '&' || *p == ';';
    if (n + 1 > LIMIT_FORM_FIELDS || (size_t)(p - q - 1) > LIMIT_QUERY_BYTES) {
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
        err_set(&e, ERR_INTERNAL, "internal", NULL, "handler produced no response");
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
    if (r->set_cookie)
        MHD_add_response_header(resp, "Set-Cookie", r->set_cookie);
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
    int expect; /* Expect: 100-continue */
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
    } else if (strcasecmp(key, "Expect") == 0) {
        w->expect = 1;
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
        err_set(w->e, ERR_BAD_REQUEST, "bad_query", NULL,
                "a query parameter name is malformed");
        return MHD_NO;
    }
    if (!routes_query_allowed(w->r->route, k)) {
        err_set(w->e, ERR_BAD_REQUEST, "unknown_parameter", k,
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
static int check_head(struct req *r, int *has_body, int *linger)
{
    struct err e = {0};
    struct header_walk hw = {NULL, 0, 0, 0};
    struct query_check qc = {r, &e};
    unsigned long long length = 0;
    int status;

    http_each_value(r, MHD_HEADER_KIND, header_one, &hw);
    if (hw.length != NULL) {
        char *end;
        errno = 0;
        length = strtoull(hw.length, &end, 10);
        if (*hw.length < '0' || *hw.length > '9' || *end != '\0' || errno == ERANGE)
            hw.conflict = 1;
    }
    *has_body = length > 0 || hw.chunked;
    /* a refused body the client sends anyway (no Expect: 100-continue to
     * wait for) is read and dropped before the answer, up to a bound */
    *linger = *has_body && !hw.expect && !hw.conflict && length <= LIMIT_LINGER_BODY;
    r->route = routes_match(r, &status);
    if (hw.conflict) {
        err_set(&e, ERR_BAD_REQUEST, "bad_request", NULL,
                "conflicting or malformed Content-Length headers");
    } else if (r->too_many_query) {
        err_set(&e, ERR_BAD_REQUEST, "bad_query", NULL,
                "the query string has more than %d parameters or %d bytes",
                LIMIT_FORM_FIELDS, LIMIT_QUERY_BYTES);
    } else if (r->route == NULL) {
        if (status == 405)
            err_set(&e, ERR_NOT_ALLOWED, "method_not_allowed", NULL,
                    "%s is not allowed on %.200s", r->method, r->path);
        else if (status == 400)
            err_set(&e, ERR_BAD_REQUEST, "bad_path", NULL,
                    "a path segment is not valid percent-encoding: %.200s", r->path);
        else
            err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no such resource: %.200s",
                    r->path);
    } else if (length > r->app->cfg->max_body) {
        err_set(&e, ERR_TOO_LARGE, "too_large", NULL,
                "request body over the limit of %zu bytes", r->app->cfg->max_body);
    } else {
        http_read_auth(r);
        if (((r->route->flags & R_WRITE) ||
             (r->app->cfg->protect_reads && !(r->route->flags & R_PUBLIC))) &&
            http_require_token(r, &e) != 0) {
            /* A browser asks for the token (as the password) on a page. */
            if (r->route->flags & R_HTML) {
                r->extra_header[0] = "WWW-Authenticate";
                r->extra_header[1] = "Basic realm=\"Prophecy\", charset=\"UTF-8\"";
            }
        } else {
            http_each_value(r, MHD_GET_ARGUMENT_KIND, query_name, &qc);
            if (e.status == 0 && *has_body &&
                guard_reserve_body(r, hw.length ? (size_t)length
                                                : r->app->cfg->max_body) != 0)
                err_set(&e, ERR_UNAVAILABLE, "busy", NULL,
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
void http_run_handler(struct req *r)
{
    struct err e = {0};
    if (r->body_too_big) {
        err_set(&e, ERR_TOO_LARGE, "too_large", NULL,
                "request body over the limit of %zu bytes", r->app->cfg->max_body);
        http_error(r, &e);
        return;
    }
    if (r->route->fn(r) != 0 && r->resp == NULL && r->stream == NULL &&
        r->finish == NULL) {
        err_set(&e, ERR_INTERNAL, "internal", NULL, "internal error");
        http_error(r, &e);
    }
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
                              const char *method, const char *version,
                              const char *upload_data, size_t *upload_data_size,
                              void **con_cls)
{
    struct app *app = cls;
    struct req *r = *con_cls;
    struct err e = {0};
    (void)version;

    if (r == NULL) { /* no URI callback ran (cannot happen; be safe) */
        r = req_new(app, conn);
        if (r == NULL)
            return MHD_NO;
        *con_cls = r;
    }
    if (r->method == NULL) { /* the first call: headers only */
        int has_body, linger;
        r->method = arena_strdup(r->arena, method);
        r->path = arena_strdup(r->arena, url);
        if (r->method == NULL || r->path == NULL)
            return MHD_NO;
        if (check_head(r, &has_body, &linger) != 0) {
            r->state = REQ_DONE;
            /* A request with a body is answered now, unread (no 100 Continue,
             * no buffering); a bodiless one on the next call, which keeps
             * the connection alive (FACTS.md). A body the client sends
             * anyway (no Expect: 100-continue to wait for) is read and
             * dropped after the answer (guard_linger), so that it reads the
             * answer rather than a reset of a connection closed on its
             * unread data. */
            if (has_body) {
                if (linger)
                    guard_linger(r);
                return send_response(r);
            }
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
    if (atomic_load(&stopping)) {
        err_set(&e, ERR_UNAVAILABLE, "shutting_down", NULL,
                "the server is shutting down; retry");
        http_error(r, &e);
        return send_response(r);
    }
    guard_conn_mark(r, 1);
    if ((r->route->flags & R_COSTLY) && guard_has_workers(app) && !r->body_too_big) {
        if (guard_to_worker(r) == 0)
            return MHD_YES;
        err_set(&e, ERR_UNAVAILABLE, "busy", NULL,
                "too many model computations are queued; retry shortly");
        http_error(r, &e);
        return send_response(r);
    }
    http_run_handler(r);
    /* A deferred write answers when it is resumed. Test the handler's own
     * mark, not r->state: the writer may already have set REQ_DONE. */
    if (r->finish != NULL)
        return MHD_YES;
    return send_response(r);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    enum MHD_Result rc;
    atomic_fetch_add(&in_callback, 1);
    rc = handle(cls, conn, url, method, version, upload_data, upload_data_size, con_cls);
    atomic_fetch_sub(&in_callback, 1);
    return rc;
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

/* The acceptor: MHD_add_connection gives each connection to a pool thread
 * picked by its descriptor, so steady keep-alive clients spread over the
 * threads. Admission (guard_admit) applies the limits, total and per
 * address, by dropping the longest idle connection when full; MHD's own
 * limit is only a backstop above it. */
static void *acceptor_main(void *arg)
{
    struct app *app = arg;
    for (;;) {
        struct sockaddr_in peer;
        socklen_t len = sizeof peer;
        /* MHD makes the socket non-blocking and close-on-exec (TURBO). */
        int fd = accept(app->listen_fd, (struct sockaddr *)&peer, &len);
        if (fd >= 0) {
            if (peer.sin_family != AF_INET || guard_admit(app, &peer) != 0)
                close(fd);
            else
                MHD_add_connection(app->daemon, fd, (struct sockaddr *)&peer, len);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
            continue;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            struct timespec ts = {0, 10 * 1000000L}; /* out of descriptors: wait */
            nanosleep(&ts, NULL);
            continue;
        }
        return NULL; /* EINVAL after shutdown(): http_stop */
    }
}

static int listen_on(struct app *app, const struct sockaddr_in *addr)
{
    struct sockaddr_in bound;
    socklen_t len = sizeof bound;
    int one = 1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (const struct sockaddr *)addr, sizeof *addr) != 0 ||
        listen(fd, SOMAXCONN) != 0 ||
        getsockname(fd, (struct sockaddr *)&bound, &len) != 0) {
        close(fd);
        return -1;
    }
    app->listen_fd = fd;
    app->port = ntohs(bound.sin_port);
    return 0;
}

int http_start(struct app *app, struct err *err)
{
    const struct config *cfg = app->cfg;
    struct sockaddr_in addr;

    if (random_bytes(app->secret, sizeof app->secret) != 0)
        return err_set(err, ERR_INTERNAL, "random", NULL,
                       "no randomness for the form secret");
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)cfg->port);
    if (inet_pton(AF_INET, cfg->listen_host, &addr.sin_addr) != 1)
        return err_set(err, ERR_BAD_REQUEST, "usage", NULL,
                       "cannot use listen address %s (IPv4 only)", cfg->listen_host);
    app->listen_fd = -1;
    atomic_store(&stopping, 0);
    if (listen_on(app, &addr) != 0)
        return err_set(err, ERR_INTERNAL, "listen", NULL,
                       "cannot listen on %s:%d (in use?)", cfg->listen_host, cfg->port);
    if (guard_start(app, err) != 0) {
        guard_free(app);
        close(app->listen_fd);
        return -1;
    }
    app->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
            MHD_USE_TURBO | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC,
        0, NULL, NULL, on_request, app, MHD_OPTION_THREAD_POOL_SIZE,
        (unsigned)cfg->threads, MHD_OPTION_NOTIFY_COMPLETED, req_completed, app,
        MHD_OPTION_NOTIFY_CONNECTION, guard_on_connection, app,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, app, MHD_OPTION_UNESCAPE_CALLBACK,
        no_unescape, NULL, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->request_timeout,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)(2 * cfg->max_conns + 16),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024), MHD_OPTION_END);
    if (app->daemon == NULL ||
        pthread_create(&app->acceptor, NULL, acceptor_main, app) != 0) {
        if (app->daemon != NULL)
            MHD_stop_daemon(app->daemon);
        app->daemon = NULL;
        guard_free(app);
        close(app->listen_fd);
        return err_set(err, ERR_INTERNAL, "listen", NULL, "cannot serve on %s:%d",
                       cfg->listen_host, cfg->port);
    }
    return 0;
}

void http_stop(struct app *app, int timeout_ms)
{
    int waited = 0;
    if (app->daemon == NULL)
        return;
    atomic_store(&stopping, 1);
    /* Stop accepting: shutdown() wakes the acceptor out of accept(). */
    shutdown(app->listen_fd, SHUT_RDWR);
    pthread_join(app->acceptor, NULL);
    close(app->listen_fd);
    app->listen_fd = -1;
    while (atomic_load(&active_requests) > 0 && waited < timeout_ms) {
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
        waited += 10;
    }
    /* Whatever the grace: MHD_stop_daemon would wait for these callbacks
     * too, but after it a suspension would abort the process. */
    while (atomic_load(&in_callback) > 0) {
        struct timespec ts = {0, 1000000L};
        nanosleep(&ts, NULL);
    }
    guard_stop(app); /* the workers resume their connections: daemon still up */
    /* Past the timeout, requests still waiting for the writer are not given
     * up: their writes finish (the writer runs until db_writer_stop) and
     * resume them, and no new one is suspended (stopping). */
    while (http_suspended() > 0) {
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    MHD_stop_daemon(app->daemon);
    app->daemon = NULL;
    guard_free(app);
}

/* ---- in-process dispatch ------------------------------------------------- */

int http_dispatch(struct app *app, const struct http_inproc *in, struct http_answer *out)
{
    struct inproc_wait w;
    struct req *r = req_new(app, NULL);
    int has_body, linger;

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
    if (r->method != NULL && r->path != NULL && check_head(r, &has_body, &linger) == 0) {
        buf_append(&r->body, in->body, in->body_len);
        if (buf_failed(&r->body))
            r->body_too_big = 1;
        http_run_handler(r);
        if (r->finish != NULL) {
            http_submit_write(r);
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
        err_set(&e, ERR_INTERNAL, "internal", NULL, "handler produced no response");
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
