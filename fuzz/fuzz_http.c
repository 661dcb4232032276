/* Fuzz target: the whole HTTP surface in process. The input is a request
 *
 *     METHOD SP PATH[?QUERY] LF (NAME: VALUE LF)* LF BODY
 *
 * given to http_dispatch (server/http_serve.c): the same header checks,
 * route table, token check, handlers and writer thread as the daemon, on a
 * temporary database with one token ("Authorization: Bearer pt_fuzz" reaches
 * the writes). Each input must produce an answer with a valid status; every
 * 256 inputs (and at exit) the database must pass SQLite's integrity check
 * and foreign-key check. */
#include "common/sha256.h"
#include "db/catalog.h"
#include "db/db.h"
#include "server/dash.h"
#include "server/http.h"

#include <gsl/gsl_errno.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KV 600

static struct config cfg;
static struct app app;
static char dir[] = "/tmp/prophecy-fuzz-http-XXXXXX", path[64];
static unsigned long inputs;

static void consistent(void)
{
    sqlite3 *c;
    sqlite3_stmt *st;
    const char *checks[] = {"PRAGMA integrity_check", "PRAGMA foreign_key_check"};
    size_t i;
    if (sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        abort();
    for (i = 0; i < 2; i++) {
        int rc;
        if (sqlite3_prepare_v2(c, checks[i], -1, &st, NULL) != SQLITE_OK)
            abort();
        rc = sqlite3_step(st);
        if (i == 0 && (rc != SQLITE_ROW ||
                       strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)) {
            fprintf(stderr, "fuzz_http: integrity_check failed\n");
            abort();
        }
        if (i == 1 && rc != SQLITE_DONE) {
            fprintf(stderr, "fuzz_http: foreign_key_check found violations\n");
            abort();
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(c);
}

static void cleanup(void)
{
    char cmd[128];
    consistent();
    db_writer_stop(app.writer);
    db_pool_close(app.pool);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz_http: cannot remove %s\n", dir);
}

static void setup(void)
{
    struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
    struct err e = {0};
    uint8_t hash[SHA256_LEN];
    db *d;

    gsl_set_error_handler_off();
    if (mkdtemp(dir) == NULL)
        abort();
    snprintf(path, sizeof path, "%s/fuzz.db", dir);
    cfg.db_path = path;
    cfg.listen_host = "127.0.0.1";
    cfg.threads = 1;
    cfg.max_body = 1u << 16;
    cfg.max_buffered = 1u << 20;
    cfg.request_timeout = 30;
    cfg.sync = DB_SYNC_NORMAL;
    cfg.quiet = 1;
    app.cfg = &cfg;
    app.error_page = dash_error; /* as prophecyd serve does */
    sha256("pt_fuzz", 7, hash);
    if (db_open(&d, path, &opt, &e) != 0 || db_token_create(d, "fuzz", hash, &e) != 0)
        abort();
    db_close(d);
    if (db_writer_start(&app.writer, path, &opt, 100, &e) != 0 ||
        db_pool_open(&app.pool, path, 2, &e) != 0)
        abort();
    atexit(cleanup);
}

/* Splits s[0..n) at the first c; returns the length before it. */
static size_t upto(const char *s, size_t n, char c)
{
    const char *p = memchr(s, c, n);
    return p ? (size_t)(p - s) : n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct http_kv headers[MAX_KV], query[MAX_KV];
    struct http_inproc in;
    struct http_answer out;
    char *copy, *s, *end, *line, *sp, *q;
    size_t n;

    if (app.cfg == NULL)
        setup();
    copy = malloc(size + 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    if (strlen(copy) != size) { /* NULs cannot travel in a request line or header */
        free(copy);
        return 0;
    }
    memset(&in, 0, sizeof in);
    s = copy;
    end = copy + size;

    /* request line */
    n = upto(s, (size_t)(end - s), '\n');
    line = s;
    s += n < (size_t)(end - s) ? n + 1 : n;
    line[n] = '\0';
    sp = strchr(line, ' ');
    if (sp == NULL || sp == line || sp[1] != '/') {
        free(copy);
        return 0;
    }
    *sp = '\0';
    in.method = line;
    in.path = sp + 1;
    q = strchr(sp + 1, '?');
    if (q != NULL) {
        *q++ = '\0';
        while (q != NULL && in.nquery < MAX_KV) {
            char *amp = strchr(q, '&'), *eq;
            if (amp != NULL)
                *amp++ = '\0';
            eq = strchr(q, '=');
            if (eq != NULL)
                *eq++ = '\0';
            if (*q != '\0') {
                query[in.nquery].name = q;
                query[in.nquery].value = eq ? eq : "";
                in.nquery++;
            }
            q = amp;
        }
    }

    /* headers up to an empty line */
    while (s < end) {
        char *colon;
        n = upto(s, (size_t)(end - s), '\n');
        line = s;
        s += n < (size_t)(end - s) ? n + 1 : n;
        line[n] = '\0';
        if (n == 0)
            break;
        colon = strchr(line, ':');
        if (colon == NULL || colon == line || in.nheaders == MAX_KV)
            continue;
        *colon++ = '\0';
        while (*colon == ' ')
            colon++;
        headers[in.nheaders].name = line;
        headers[in.nheaders].value = colon;
        in.nheaders++;
    }
    in.headers = headers;
    in.query = query;
    in.body = s;
    in.body_len = (size_t)(end - s);

    if (http_dispatch(&app, &in, &out) == 0) {
        if (out.status < 200 || out.status > 599 || (out.body == NULL && !out.streamed)) {
            fprintf(stderr, "fuzz_http: no answer (status %d)\n", out.status);
            abort();
        }
        if (getenv("FUZZ_HTTP_VERBOSE") != NULL) /* see what a seed reaches */
            fprintf(stderr, "fuzz_http: %s %s -> %d %.200s\n", in.method, in.path,
                    out.status, out.body ? out.body : "(streamed)");
        free(out.body);
    }
    free(copy);
    if (++inputs % 256 == 0)
        consistent();
    return 0;
}
