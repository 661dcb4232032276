/* http_internal: what the three parts of the HTTP layer share (http.c:
 * helpers for handlers; http_serve.c: the daemon and dispatch; http_guard.c:
 * budgets, deadlines, model workers). Not for handlers. */
#ifndef PROPHECY_HTTP_INTERNAL_H
#define PROPHECY_HTTP_INTERNAL_H

#include "server/http.h"

#include <microhttpd.h>

/* ---- http.c ---------------------------------------------------------------- */

typedef enum MHD_Result (*http_value_fn)(void *cls, enum MHD_ValueKind kind,
                                         const char *key, const char *value);
/* A header (MHD_HEADER_KIND) or raw query parameter (MHD_GET_ARGUMENT_KIND)
 * of the connection or of the in-process request. */
const char *http_lookup_value(struct req *r, enum MHD_ValueKind kind, const char *name);
/* Calls fn on each, in order, until it answers MHD_NO. */
void http_each_value(struct req *r, enum MHD_ValueKind kind, http_value_fn fn, void *cls);
/* Reads the Authorization header; sets r->token_name for an active token. */
void http_read_auth(struct req *r);
/* The writer's completion: resumes the connection (or wakes the in-process
 * caller). */
void http_write_done(struct db_job *job);
/* Submits r->job to the writer (a failed submit completes it at once). */
void http_submit_write(struct req *r);
/* MHD_suspend_connection / MHD_resume_connection, counted: the daemon must
 * not stop while a connection is suspended (libmicrohttpd aborts the
 * process), so http_stop waits for http_suspended() to reach 0. r may be
 * freed as soon as http_resume has resumed it. */
void http_suspend(struct req *r);
void http_resume(struct req *r);
int http_suspended(void);

/* ---- http_serve.c ------------------------------------------------------------ */

/* Runs the route's handler (route, token and query were checked on the
 * headers); answers 413 for a body that overflowed on the way. */
void http_run_handler(struct req *r);

/* ---- http_guard.c ------------------------------------------------------------ */

int guard_start(struct app *app, struct err *err);
/* Stops the reaper and the workers; the workers first finish every queued
 * request (the daemon must still run to resume their connections). */
void guard_stop(struct app *app);
/* Stops if needed and frees; after the daemon has stopped. */
void guard_free(struct app *app);
/* MHD_OPTION_NOTIFY_CONNECTION: registers connections with the reaper. */
void guard_on_connection(void *cls, struct MHD_Connection *conn, void **socket_ctx,
                         enum MHD_ConnectionNotificationCode code);
/* busy 1: a whole request is being answered (no deadline); 0: ready for the
 * next request, whose deadline starts now. */
void guard_conn_mark(struct req *r, int busy);
/* r was answered before its body came (a refusal): when its connection
 * closes, what the client still sends is read and dropped for a while
 * (lingering close), so that the client reads the answer, not a reset. */
void guard_linger(struct req *r);
/* A request line came on conn: no longer idle (not dropped to admit others;
 * its deadline is the request timeout). */
void guard_conn_started(struct app *app, struct MHD_Connection *conn);
/* Admits a new connection from peer, dropping the longest idle one of a full
 * server or address; -1: refuse it (every connection is mid-request). */
struct sockaddr_in;
int guard_admit(struct app *app, const struct sockaddr_in *peer);
/* Reserves n body bytes from the shared budget; -1 past it. */
int guard_reserve_body(struct req *r, size_t n);
void guard_release_body(struct req *r);
int guard_has_workers(const struct app *app);
/* Suspends the connection and queues r for a model worker; -1 when the
 * queue is full. */
int guard_to_worker(struct req *r);

#endif
