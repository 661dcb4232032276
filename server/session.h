/* session: signing in to the dashboard (SPEC §17, docs/web.md "Signing in").
 * POST /login with a write token starts a session: the browser gets a
 * random session id in a cookie (HttpOnly; SameSite=Strict); the server
 * keeps, in memory, only the SHA-256 of that id beside the SHA-256 of the
 * token (as the store keeps tokens), so that a revoked token ends its
 * sessions and nothing the server holds lets anyone sign in. Forms then need
 * no token field; CSRF checks stay. Sessions end at /logout, after
 * SESSION_MAX_AGE, or when the server stops. Transport only.
 */
#ifndef PROPHECY_SESSION_H
#define PROPHECY_SESSION_H

#include "common/err.h"
#include "server/http.h"

#define SESSION_COOKIE "prophecy_session"
#define SESSION_MAX_AGE (12 * 3600) /* seconds a session lasts */

/* Starts a session for r->token_name's token (already checked) given as
 * text: the Set-Cookie header value (arena) into *cookie. Returns 0, or -1
 * with err (500: no randomness). */
int session_start(struct req *r, const char *token, const char **cookie, struct err *err);
/* The token name of r's session (its cookie, still valid, its token not
 * revoked), set as r->token_name; NULL when r has none. Cached per request. */
const char *session_user(struct req *r);
/* Ends r's session (when it has one); the Set-Cookie value that clears the
 * cookie into *cookie. */
void session_end(struct req *r, const char **cookie);

#endif
