/* http: the HTTP layer of prophecyd on libmicrohttpd.
 *
 * Threading: MHD's internal epoll thread pool (--threads N, default one per
 * core). One thread of ours accepts connections and hands them to the pool
 * threads in turn (MHD's own accept gives a burst of connections to the one
 * thread that wakes first: 8 clients connecting at once all landed on one
 * thread, which then did all the HTTP work while the other core idled).
 * Reads run on the pool threads with a borrowed read connection.
 * Writes are handed to the single writer thread (db/writer.h); the request's
 * connection is suspended meanwhile and resumed when the write is durable, so
 * a pool thread never waits for an fsync and many uploads share one commit.
 *
 * Routes flagged R_COSTLY (fits, plots, predictions, the model form pages)
 * run on their own bounded pool of model workers (--workers, --queue; 503
 * past it) with the connection suspended, so that cheap requests such as
 * /api/v1/health keep answering while they compute (http_guard.c).
 *
 * Everything the request line and headers decide (path encoding, route and
 * method, Content-Length sanity and limit, token, query parameters, the
 * shared budget of buffered body bytes) is checked before any body byte is
 * read; a rejected request with a body is answered at once, unread. A
 * reaper drops connections that do not deliver a whole request within
 * --request-timeout; connections are limited in total and per client.
 *
 * Every request gets an arena that lives until MHD reports the request
 * complete; handlers build bodies in it. Responses are queued only after the
 * whole request has been read (never on the headers-only first call, which
 * would cost keep-alive: FACTS.md), except for a request rejected on its
 * headers while a body is pending, which is worth a closed connection.
 */
#ifndef PROPHECY_HTTP_H
#define PROPHECY_HTTP_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "db/pool.h"
#include "db/writer.h"

#define HTTP_IDLE_TIMEOUT 10 /* config.idle_timeout's default, seconds */

struct config {
    const char *db_path;
    const char *listen_host;
    int port;
    int threads;
    size_t max_body;   /* bytes; default 8 MiB */
    int protect_reads; /* reads need a token too */
    int demo;          /* load example data into an empty database */
    enum db_sync sync;
    int quiet;
    /* budgets and deadlines against hostile or broken clients */
    int max_conns;            /* open connections in total */
    int max_conns_per_client; /* open connections from one address */
    size_t max_buffered;      /* body bytes buffered across all connections */
    int request_timeout;      /* seconds to deliver a whole request (headers+body) */
    int idle_timeout; /* seconds a connection may wait for a request line (0: 10) */
    int stop_grace; /* seconds SIGTERM waits for requests in flight (writes always finish)
                     */
    int workers;    /* threads for R_COSTLY requests (fits, plots) */
    int queue;      /* R_COSTLY requests waiting for a worker; more: 503 */
};

struct req;

struct app {
    const struct config *cfg;
    db_writer *writer;
    db_pool *pool;
    struct MHD_Daemon *daemon;
    int port;                 /* the port actually bound (for --listen host:0) */
    unsigned char secret[32]; /* random per process; keys the forms' CSRF tokens */
    struct http_guard *guard; /* budgets, deadlines, model workers (http_guard.c) */
    int listen_fd;            /* the listening socket, accepted on by acceptor */
    pthread_t acceptor;       /* hands connections to MHD's threads in turn */
    /* Answers an error of an R_HTML route (or an unknown path outside /api/)
     * as a page; NULL: JSON everywhere. Set once at start (server/dash.h). */
    int (*error_page)(struct req *r, const struct err *e);
};

typedef int (*handler_fn)(struct req *r);

enum route_flags {
    R_WRITE = 1,  /* needs a write token */
    R_HTML = 2,   /* a dashboard page: errors are HTML pages, not JSON */
    R_PUBLIC = 4, /* open even with --protect-reads (static assets, health) */
    R_COSTLY = 8, /* runs on the bounded pool of model workers (fits, plots) */
};

struct route {
    const char *method;  /* "GET", "POST", "PUT", "DELETE" */
    const char *pattern; /* "/api/v1/systems/{}/benchmarks": {} captures one segment */
    handler_fn fn;
    int flags;
    /* The query parameters the handler reads, comma-separated ("limit,after"),
     * "v.*" for a prefix, NULL for none, "*" for data-named ones (model
     * variables). Any other is a 400 naming it. */
    const char *query;
};

#define REQ_MAX_PARAMS 4

/* A request given in process (fuzz/fuzz_http.c): header names and query
 * parameters as sent on the wire (query names and values still
 * percent-encoded). */
struct http_kv {
    const char *name, *value;
};
struct http_inproc {
    const char *method, *path;
    const struct http_kv *headers;
    size_t nheaders;
    const struct http_kv *query;
    size_t nquery;
    const char *body;
    size_t body_len;
};
struct http_answer {
    int status;
    char *body; /* malloc'd copy (NULL for a streamed answer); free() it */
    size_t len;
    int streamed;
};
struct inproc_wait {
    pthread_mutex_t lock;
    pthread_cond_t done;
};

struct req {
    struct app *app;
    struct MHD_Connection *conn;
    arena *arena;
    const char *method;
    const char *path; /* raw path, not decoded */
    const struct route *route;
    const char *params[REQ_MAX_PARAMS]; /* decoded path captures */
    struct buf body;
    int body_too_big;
    int too_many_query; /* the query string had more parameters than allowed */
    size_t reserved;    /* body bytes reserved from the shared budget */
    int on_worker;      /* being answered on a model worker */
    const struct http_inproc *inproc; /* set for an in-process request */
    struct inproc_wait *inproc_wait;
    const char *token_name;   /* set when a valid token was presented */
    int session_checked;      /* session_user looked (server/session.h) */
    const char *session_name; /* its answer: the session's token name, or NULL */

    /* response */
    int status;
    const char *content_type;
    const char *resp; /* arena- or malloc-owned, see resp_free */
    size_t resp_len;
    int resp_free;               /* 1: free() after sending */
    const char *extra_header[2]; /* name, value (e.g. Cache-Control) */
    const char *set_cookie;      /* a Set-Cookie value (server/session.h), or NULL */
    struct MHD_Response *stream; /* a streamed response built by the handler */

    /* deferred write */
    struct db_job job;
    handler_fn finish; /* builds the response once the job is done */
    int state;         /* REQ_NEW, REQ_WAITING, REQ_DONE, REQ_SENT */
    void *ctx;         /* handler's own state between the two halves */
};

enum { REQ_NEW = 0, REQ_WAITING = 1, REQ_DONE = 2, REQ_SENT = 3 };

/* Starts the daemon per cfg. Returns 0 or -1 with err set. */
int http_start(struct app *app, struct err *err);
/* Stops accepting, lets in-flight requests finish (up to timeout_ms), stops. */
void http_stop(struct app *app, int timeout_ms);

/* Answers one request in process through the same checks, handlers and
 * writer as the daemon (no sockets; app needs writer and pool, no daemon).
 * Returns 0 with *out filled, or -1 when out of memory. */
int http_dispatch(struct app *app, const struct http_inproc *in, struct http_answer *out);

/* ---- for handlers ------------------------------------------------------- */

/* Responds with a JSON value (takes ownership of v) and status. Returns 0. */
int http_json(struct req *r, int status, json_t *v);
/* Responds 200 with JSON text written into out (for answers too large to
 * build as Jansson values); takes out over and frees it. Returns 0. */
int http_json_buf(struct req *r, struct buf *out);
/* Responds with an error: JSON, or an HTML page for R_HTML routes and for
 * unknown paths outside /api/. Returns 0. */
int http_error(struct req *r, const struct err *e);
/* Redirects (303 See Other) to location (arena or static). Returns 0. */
int http_redirect(struct req *r, const char *location);
/* Responds with text of the given type; body must live in the arena or be
 * static. Returns 0. */
int http_body(struct req *r, int status, const char *content_type, const char *body,
              size_t len);
/* Responds 200 with a body streamed in pieces, so that memory stays flat
 * however long it is: next(ctx, out, err) appends the next piece to out
 * (empty before each call, at most piece_max bytes) and returns 1 while more
 * follows, 0 after the last piece, -1 on failure. The first piece is made
 * before answering, so a failure there answers its error (a 404, a damaged
 * store's 500) instead of a cut-off 200; a later failure closes the
 * connection (the client sees a truncated body). release(ctx) runs when
 * the response is done, or at once when nothing could be answered. Returns
 * 0. */
int http_stream(struct req *r, const char *content_type, size_t piece_max,
                int (*next)(void *ctx, struct buf *out, struct err *err),
                void (*release)(void *ctx), void *ctx);
/* Returns the decoded query parameter (arena), or NULL. */
const char *http_query(struct req *r, const char *name);
/* Returns every query parameter as an object of decoded strings (a name
 * given twice keeps the last value), or NULL with a 400 error for a bad
 * encoding or more than REQ_MAX_QUERY parameters. New reference. */
#define REQ_MAX_QUERY 64
json_t *http_query_object(struct req *r, struct err *err);
/* Returns every query parameter, decoded, in the order sent, as the fields
 * of a form (formats/form.h; arena), so a GET form is read like a POSTed one.
 * At most FORM_MAX_FIELDS parameters with names of FORM_MAX_NAME bytes; more,
 * or a bad encoding, is a 400 error. */
struct form;
int http_query_form(struct req *r, struct form *out, struct err *err);
/* Reads ?name= as an integer in [lo, hi] into *out; absent or empty leaves
 * *out as it is (the caller's default). Returns 0, or -1 with a 400
 * "bad_parameter" error naming the parameter. */
int http_query_int(struct req *r, const char *name, long long lo, long long hi,
                   long long *out, struct err *err);
/* Returns a request header, or NULL. */
const char *http_header(struct req *r, const char *name);
/* Parses the body as JSON (content type must be application/json). Returns a
 * new reference, or NULL with a 400 error. */
json_t *http_body_json(struct req *r, struct err *err);
/* Requires a valid write token (or records a 401); returns 0 or -1. The
 * token comes from "Authorization: Bearer TOKEN", or from HTTP Basic
 * authentication with the token as the password (how a browser sends it for
 * the pages of a server run with --protect-reads). */
int http_require_token(struct req *r, struct err *err);
/* Checks a token given in a form field with the same rule as the
 * Authorization header (hash, constant-time compare against every active
 * token); sets r->token_name. Returns 0, or -1 with a 401 error naming
 * `field`. */
int http_check_token(struct req *r, const char *token, const char *field,
                     struct err *err);

/* Queues fn(conn, arg) on the writer; when it completes, finish(r) is called
 * on a pool thread to build the response, whatever the outcome: when
 * r->job.rc != 0 it must answer http_error(r, &r->job.err) (and release what
 * r->ctx holds). Returns 0; the handler must return immediately after. */
int http_defer_write(struct req *r, int (*fn)(db *d, void *arg, struct err *err),
                     void *arg, handler_fn finish);
/* The same, with a group function that may run this job together with the
 * jobs of the same function queued next to it (db/writer.h, db_job.group). */
int http_defer_write_group(struct req *r, int (*fn)(db *d, void *arg, struct err *err),
                           int (*group)(db *d, struct db_job **jobs, size_t n), void *arg,
                           handler_fn finish);

/* Decodes %XX (and '+' as space when plus is set) into the arena. Returns
 * NULL on invalid encoding or a decoded NUL byte. */
char *http_decode(arena *a, const char *s, size_t n, int plus);

#endif
