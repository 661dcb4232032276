/* http_guard: the defenses of the HTTP layer against hostile or broken
 * clients: a deadline for receiving a whole request (the reaper), the
 * budget of buffered body bytes shared by every connection, and the bounded
 * pool of model workers that answers R_COSTLY routes so that cheap requests
 * keep answering meanwhile. See http_internal.h. */
#include "common/xalloc.h"
#include "formats/limits.h"
#include "server/http_internal.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---- the guard: budgets, deadlines and the model workers ----------------- */

/* One open connection, known to the reaper and to admission. */
struct conn_rec {
    struct conn_rec *prev, *next;
    int fd;                /* -1 once dropped (MHD closes it when it sees that) */
    int busy;              /* 1: the request is whole and being answered */
    int started;           /* 1: a request line came (headers or body on the way) */
    int linger;            /* 1: answered early; read what the client still sends */
    struct in_addr addr;   /* the client's address */
    struct timespec since; /* when the connection became ready for a request */
};

/* A closed connection whose client may still be sending a refused body: its
 * socket (a duplicate, kept when MHD closes its own) is read and the bytes
 * dropped until the client is done, LIMIT_LINGER_BODY bytes or the request
 * timeout, then closed: the client has read the answer by then. */
struct linger_rec {
    int fd;
    size_t read;
    struct timespec since;
};

#define LINGER_MAX 256 /* sockets lingering at once; past it, closed at once */

struct http_guard {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct conn_rec conns;       /* list head */
    pthread_mutex_t linger_lock; /* the lingering sockets' own: drained unlocked */
    struct linger_rec linger[LINGER_MAX];
    size_t nlinger;
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

/* Reads and drops what lingering sockets hold (at most 1 MiB each a pass);
 * closes those whose client closed or failed, or that read
 * LIMIT_LINGER_BODY bytes or lingered for the request timeout. Takes
 * g->linger_lock only, so that admissions and requests never wait on it. */
static void drain_lingering(struct http_guard *g, double limit)
{
    static char sink[65536];
    size_t i = 0;
    pthread_mutex_lock(&g->linger_lock);
    while (i < g->nlinger) {
        struct linger_rec *l = &g->linger[i];
        int done = 0;
        for (int k = 0; k < 16 && !done; k++) {
            ssize_t n = recv(l->fd, sink, sizeof sink, MSG_DONTWAIT);
            if (n > 0)
                l->read += (size_t)n;
            else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                break;
            else if (n < 0 && errno == EINTR)
                continue;
            else
                done = 1; /* the client closed, or the socket failed */
        }
        if (done || l->read > LIMIT_LINGER_BODY || since_s(&l->since) > limit) {
            close(l->fd);
            g->linger[i] = g->linger[--g->nlinger];
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&g->linger_lock);
}

/* The seconds a connection may wait for its next request line: the idle
 * timeout, never more than the request timeout. */
static double idle_limit(const struct config *cfg)
{
    int idle = cfg->idle_timeout > 0 ? cfg->idle_timeout : HTTP_IDLE_TIMEOUT;
    return (double)(idle < cfg->request_timeout ? idle : cfg->request_timeout);
}

/* Drops connections that have not delivered a whole request within the
 * request timeout (slow-drip headers and slow-drip bodies alike:
 * libmicrohttpd's own timeout restarts on every byte), and idle ones (no
 * request line yet) sooner, after the idle timeout. */
static void *reaper_main(void *arg)
{
    struct app *app = arg;
    struct http_guard *g = app->guard;
    double limit = (double)app->cfg->request_timeout, idle = idle_limit(app->cfg);
    struct timespec scanned;

    clock_gettime(CLOCK_MONOTONIC, &scanned);
    pthread_mutex_lock(&g->lock);
    while (!g->stopping) {
        struct timespec until;
        struct conn_rec *c;
        int lingering;
        pthread_mutex_lock(&g->linger_lock);
        lingering = g->nlinger > 0;
        pthread_mutex_unlock(&g->linger_lock);
        clock_gettime(CLOCK_REALTIME, &until);
        /* lingering sockets are drained often: the client's sends wait on
         * the receive buffer between passes */
        until.tv_nsec += (lingering ? 5 : 250) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g->wake, &g->lock, &until);
        if (since_s(&scanned) >= 0.25) { /* the deadlines, four times a second */
            clock_gettime(CLOCK_MONOTONIC, &scanned);
            for (c = g->conns.next; c != &g->conns; c = c->next)
                if (!c->busy && c->fd >= 0 &&
                    since_s(&c->since) > (c->started ? limit : idle)) {
                    shutdown(c->fd, SHUT_RDWR); /* MHD sees the end and closes it */
                    c->fd = -1;
                }
        }
        pthread_mutex_unlock(&g->lock);
        drain_lingering(g, limit);
        pthread_mutex_lock(&g->lock);
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

void guard_on_connection(void *cls, struct MHD_Connection *conn, void **socket_ctx,
                         enum MHD_ConnectionNotificationCode code)
{
    struct app *app = cls;
    struct http_guard *g = app->guard;
    struct conn_rec *c = *socket_ctx;

    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *peer =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        c = xcalloc(1, sizeof *c);
        if (c == NULL)
            return;
        c->fd = info ? info->connect_fd : -1;
        if (peer != NULL && peer->client_addr != NULL &&
            peer->client_addr->sa_family == AF_INET)
            c->addr =
                ((const struct sockaddr_in *)(const void *)peer->client_addr)->sin_addr;
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
        if (c->linger && c->fd >= 0) {
            /* MHD closes its descriptor next: keep the socket open on a
             * duplicate, write side done, and read the rest of the body */
            pthread_mutex_lock(&g->linger_lock);
            if (g->nlinger < LINGER_MAX) {
                int fd = fcntl(c->fd, F_DUPFD_CLOEXEC, 0);
                if (fd >= 0) {
                    shutdown(fd, SHUT_WR);
                    g->linger[g->nlinger].fd = fd;
                    g->linger[g->nlinger].read = 0;
                    clock_gettime(CLOCK_MONOTONIC, &g->linger[g->nlinger].since);
                    g->nlinger++;
                    pthread_cond_broadcast(&g->wake);
                }
            }
            pthread_mutex_unlock(&g->linger_lock);
        }
        c->prev->next = c->next;
        c->next->prev = c->prev;
        pthread_mutex_unlock(&g->lock);
        xfree(c);
        *socket_ctx = NULL;
    }
}

/* Marks the connection busy (a whole request is being answered) or ready
 * for the next request (its deadline starts now). */
void guard_conn_mark(struct req *r, int busy)
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
    if (!busy) {
        c->started = 0;
        clock_gettime(CLOCK_MONOTONIC, &c->since);
    }
    pthread_mutex_unlock(&r->app->guard->lock);
}

void guard_linger(struct req *r)
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
    c->linger = 1;
    pthread_mutex_unlock(&r->app->guard->lock);
}

void guard_conn_started(struct app *app, struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *info;
    struct conn_rec *c;
    if (conn == NULL || app->guard == NULL)
        return;
    info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    c = info ? info->socket_context : NULL;
    if (c == NULL)
        return;
    pthread_mutex_lock(&app->guard->lock);
    c->started = 1;
    pthread_mutex_unlock(&app->guard->lock);
}

static int earlier(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Admission of a new connection from peer, as nginx and h2o do it: a full
 * server (max_conns) or address (max_conns_per_client) makes room by
 * dropping its longest idle connection (no request line since it became
 * ready), so idle sockets held open from one address can never shut out a
 * client that is about to send a request; only when every connection is in
 * the middle of a request is the new one refused. */
int guard_admit(struct app *app, const struct sockaddr_in *peer)
{
    struct http_guard *g = app->guard;
    const struct config *cfg = app->cfg;
    struct conn_rec *c, *oldest = NULL, *oldest_mine = NULL, *victim = NULL;
    size_t live = 0, mine = 0, dropped = 0;
    int rc = 0;

    pthread_mutex_lock(&g->lock);
    for (c = g->conns.next; c != &g->conns; c = c->next) {
        int same = c->addr.s_addr == peer->sin_addr.s_addr;
        if (c->fd < 0) {
            dropped++;
            continue;
        }
        live++;
        mine += (size_t)same;
        if (c->busy || c->started)
            continue;
        if (oldest == NULL || earlier(&c->since, &oldest->since))
            oldest = c;
        if (same && (oldest_mine == NULL || earlier(&c->since, &oldest_mine->since)))
            oldest_mine = c;
    }
    if (mine >= (size_t)cfg->max_conns_per_client)
        victim = oldest_mine;
    else if (live >= (size_t)cfg->max_conns)
        victim = oldest;
    if ((victim == NULL &&
         (mine >= (size_t)cfg->max_conns_per_client || live >= (size_t)cfg->max_conns)) ||
        live + dropped >= 2 * (size_t)cfg->max_conns)
        rc = -1; /* all busy, or too many dropped ones not yet closed */
    if (rc == 0 && victim != NULL) {
        shutdown(victim->fd, SHUT_RDWR); /* MHD sees the end and closes it */
        victim->fd = -1;
    }
    pthread_mutex_unlock(&g->lock);
    return rc;
}

/* Reserves body bytes from the budget shared by every connection. */
int guard_reserve_body(struct req *r, size_t n)
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

void guard_release_body(struct req *r)
{
    if (r->reserved && r->app->guard)
        atomic_fetch_sub(&r->app->guard->buffered, r->reserved);
    r->reserved = 0;
}

int guard_has_workers(const struct app *app)
{
    return app->guard != NULL && app->guard->nworkers > 0;
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

        http_run_handler(r);
        /* r may be freed as soon as the connection resumes: decide first. */
        if (r->finish != NULL) {
            http_submit_write(r);
        } else {
            r->state = REQ_DONE;
            http_resume(r);
        }
    }
}

/* Hands a costly request to the model workers; -1 when the queue is full. */
int guard_to_worker(struct req *r)
{
    struct http_guard *g = r->app->guard;
    int rc = -1;
    pthread_mutex_lock(&g->lock);
    if (g->qlen < g->qcap && !g->stopping) {
        r->on_worker = 1;
        r->state = REQ_WAITING;
        http_suspend(r);
        g->queue[(g->qhead + g->qlen) % g->qcap] = r;
        g->qlen++;
        pthread_cond_broadcast(&g->wake);
        rc = 0;
    }
    pthread_mutex_unlock(&g->lock);
    return rc;
}

int guard_start(struct app *app, struct err *err)
{
    const struct config *cfg = app->cfg;
    struct http_guard *g = xcalloc(1, sizeof *g);
    int i;
    if (g == NULL)
        return err_nomem(err);
    pthread_mutex_init(&g->lock, NULL);
    pthread_mutex_init(&g->linger_lock, NULL);
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

void guard_stop(struct app *app)
{
    struct http_guard *g = app->guard;
    int i;
    if (g != NULL && g->stopping)
        return;
    if (g == NULL)
        return;
    pthread_mutex_lock(&g->lock);
    g->stopping = 1;
    pthread_cond_broadcast(&g->wake);
    pthread_mutex_unlock(&g->lock);
    if (g->reaper_started)
        pthread_join(g->reaper, NULL);
    while (g->nlinger > 0)
        close(g->linger[--g->nlinger].fd);
    for (i = 0; i < g->nworkers; i++)
        pthread_join(g->workers[i], NULL);
    g->reaper_started = 0;
    g->nworkers = 0;
}

void guard_free(struct app *app)
{
    struct http_guard *g = app->guard;
    if (g == NULL)
        return;
    guard_stop(app);
    xfree(g->queue);
    xfree(g->workers);
    pthread_mutex_destroy(&g->lock);
    pthread_mutex_destroy(&g->linger_lock);
    pthread_cond_destroy(&g->wake);
    xfree(g);
    app->guard = NULL;
}
