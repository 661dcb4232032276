/* session: dashboard sessions held in memory by the SHA-256 of their ids;
 * see session.h. */
#include "server/session.h"
#include "common/sha256.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "formats/limits.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define SID_BYTES 32 /* random bytes of a session id (64 hex digits in the cookie) */

struct session {
    const struct app *app;     /* the server that started it */
    uint8_t sid[SHA256_LEN];   /* SHA-256 of the session id */
    uint8_t token[SHA256_LEN]; /* SHA-256 of the token, as the store keeps it */
    long long expires;         /* 0: a free slot */
};

static struct session sessions[LIMIT_SESSIONS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void hex(const uint8_t *d, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = '\0';
}

/* The session id of r's cookie (64 hex digits) into sid; 0, or -1 when r
 * has no well-formed session cookie. */
static int cookie_sid(struct req *r, uint8_t sid[SID_BYTES])
{
    const char *c = http_header(r, "Cookie"), *v;
    size_t klen = strlen(SESSION_COOKIE), i;
    if (c == NULL)
        return -1;
    for (v = c; (v = strstr(v, SESSION_COOKIE)) != NULL; v += klen) {
        if ((v == c || v[-1] == ' ' || v[-1] == ';') && v[klen] == '=')
            break;
    }
    if (v == NULL)
        return -1;
    v += klen + 1;
    for (i = 0; i < 2 * SID_BYTES; i++) {
        int x = v[i] >= '0' && v[i] <= '9'   ? v[i] - '0'
                : v[i] >= 'a' && v[i] <= 'f' ? v[i] - 'a' + 10
                                             : -1;
        if (x < 0)
            return -1;
        if (i % 2 == 0)
            sid[i / 2] = (uint8_t)(x << 4);
        else
            sid[i / 2] |= (uint8_t)x;
    }
    return v[i] == '\0' || v[i] == ';' || v[i] == ' ' ? 0 : -1;
}

/* The slot of the session whose id hashes to h, or -1 (call locked). */
static int find(const struct app *app, const uint8_t h[SHA256_LEN], long long now)
{
    int i;
    for (i = 0; i < LIMIT_SESSIONS; i++)
        if (sessions[i].expires > now && sessions[i].app == app &&
            ct_equal(sessions[i].sid, h, SHA256_LEN))
            return i;
    return -1;
}

int session_start(struct req *r, const char *token, const char **cookie, struct err *err)
{
    uint8_t sid[SID_BYTES];
    char text[2 * SID_BYTES + 1];
    long long now = (long long)time(NULL);
    int i, slot = 0;

    if (random_bytes(sid, sizeof sid) != 0)
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "no randomness for a session id");
    pthread_mutex_lock(&lock);
    /* a free or expired slot, else the one that expires first */
    for (i = 0; i < LIMIT_SESSIONS; i++) {
        if (sessions[i].expires <= now) {
            slot = i;
            break;
        }
        if (sessions[i].expires < sessions[slot].expires)
            slot = i;
    }
    sessions[slot].app = r->app;
    sha256(sid, sizeof sid, sessions[slot].sid);
    sha256(token, strlen(token), sessions[slot].token);
    sessions[slot].expires = now + SESSION_MAX_AGE;
    pthread_mutex_unlock(&lock);
    hex(sid, sizeof sid, text);
    *cookie = arena_printf(r->arena,
                           SESSION_COOKIE "=%s; Path=/; Max-Age=%d; HttpOnly; "
                                          "SameSite=Strict",
                           text, SESSION_MAX_AGE);
    r->session_checked = 1;
    r->session_name = r->token_name;
    return *cookie ? 0 : err_nomem(err);
}

const char *session_user(struct req *r)
{
    uint8_t sid[SID_BYTES], h[SHA256_LEN], token[SHA256_LEN];
    long long now = (long long)time(NULL);
    struct err e = {0};
    char *name;
    int slot;
    db *d;

    if (r->session_checked)
        return r->session_name;
    r->session_checked = 1;
    if (cookie_sid(r, sid) != 0)
        return NULL;
    sha256(sid, sizeof sid, h);
    pthread_mutex_lock(&lock);
    slot = find(r->app, h, now);
    if (slot >= 0)
        memcpy(token, sessions[slot].token, sizeof token);
    pthread_mutex_unlock(&lock);
    if (slot < 0)
        return NULL;
    /* the token may have been revoked since */
    d = db_pool_get(r->app->pool);
    name = db_token_check(d, token, &e);
    db_pool_put(r->app->pool, d);
    if (name == NULL)
        return NULL;
    r->session_name = arena_strdup(r->arena, name);
    xfree(name);
    return r->session_name;
}

void session_end(struct req *r, const char **cookie)
{
    uint8_t sid[SID_BYTES], h[SHA256_LEN];
    int slot;
    if (cookie_sid(r, sid) == 0) {
        sha256(sid, sizeof sid, h);
        pthread_mutex_lock(&lock);
        slot = find(r->app, h, (long long)time(NULL));
        if (slot >= 0)
            memset(&sessions[slot], 0, sizeof sessions[slot]);
        pthread_mutex_unlock(&lock);
    }
    r->session_checked = 1;
    r->session_name = NULL;
    *cookie = SESSION_COOKIE "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict";
}
