/* db: the engine-neutral entry points of db/db.h. db_open picks the backend
 * from the path (db/backend.h); everything else dispatches through the
 * connection's table. */
#include "db/backend.h"
#include "common/isotime.h"
#include "common/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

extern const char db_schema_sql[];

/* libpq's connection keywords: "host=... password=..." is a PostgreSQL
 * connection string, never a file name (it was taken for one, printed and
 * created as an empty SQLite file named after the password). */
static const char *const PG_KEYWORDS[] = {"host",
                                          "hostaddr",
                                          "port",
                                          "dbname",
                                          "user",
                                          "password",
                                          "passfile",
                                          "service",
                                          "options",
                                          "sslmode",
                                          "connect_timeout",
                                          "application_name",
                                          "require_auth",
                                          "target_session_attrs",
                                          "gssencmode",
                                          "sslrootcert",
                                          "sslcert",
                                          "sslkey",
                                          NULL};

static int pg_keyword_string(const char *path)
{
    size_t n;
    while (*path == ' ' || *path == '\t')
        path++;
    n = strspn(path, "abcdefghijklmnopqrstuvwxyz_");
    if (n == 0)
        return 0;
    for (const char *p = path + n; *p != '='; p++)
        if (*p != ' ' && *p != '\t')
            return 0;
    for (int i = 0; PG_KEYWORDS[i]; i++)
        if (strlen(PG_KEYWORDS[i]) == n && strncmp(path, PG_KEYWORDS[i], n) == 0)
            return 1;
    return 0;
}

int db_is_postgres(const char *path)
{
    return path != NULL &&
           (strncasecmp(path, "postgresql://", 13) == 0 ||
            strncasecmp(path, "postgres://", 11) == 0 || pg_keyword_string(path));
}

int db_is_file(const char *path)
{
    return !db_is_postgres(path);
}

/* The password parts of a PostgreSQL connection string, each reported as
 * (offset, length) to fn: "user:PASSWORD@" of a URI, and the value of every
 * password=... parameter (URI query, or a keyword string, quoted or not). */
static void each_secret(const char *path, void (*fn)(void *ctx, size_t at, size_t len),
                        void *ctx)
{
    int uri = strstr(path, "://") != NULL && !pg_keyword_string(path);
    const char *p;
    if (uri) {
        const char *auth = strstr(path, "://") + 3, *end = auth + strcspn(auth, "/?#"),
                   *at = NULL, *colon;
        for (const char *q = auth; q < end; q++)
            if (*q == '@')
                at = q; /* the last '@' ends the user part */
        colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
        if (colon)
            fn(ctx, (size_t)(colon + 1 - path), (size_t)(at - colon - 1));
    }
    for (p = path; (p = strstr(p, "password")) != NULL; p += 8) {
        const char *v = p + 8;
        size_t len;
        if (p > path &&
            !(uri ? (p[-1] == '?' || p[-1] == '&') : (p[-1] == ' ' || p[-1] == '\t')))
            continue;
        while (!uri && (*v == ' ' || *v == '\t'))
            v++;
        if (*v != '=')
            continue;
        v++;
        while (!uri && (*v == ' ' || *v == '\t'))
            v++;
        if (!uri && *v == '\'') {
            const char *q = v + 1;
            while (*q && *q != '\'')
                q += q[0] == '\\' && q[1] ? 2 : 1;
            len = (size_t)(q - v) + (*q == '\'');
        } else {
            len = uri ? strcspn(v, "&#") : strcspn(v, " \t");
        }
        fn(ctx, (size_t)(v - path), len);
    }
}

struct mask_ctx {
    const char *path;
    char *text;
    size_t n;
};

/* Replaces every occurrence of the secret in the text by "***" (asterisks
 * of its own length when the text has no room to grow). */
static void mask_one(void *arg, size_t at, size_t len)
{
    struct mask_ctx *m = arg;
    const char *secret = m->path + at;
    char *q = m->text;
    if (len == 0)
        return;
    while (*q) {
        size_t tail;
        if (strncmp(q, secret, len) != 0) {
            q++;
            continue;
        }
        tail = strlen(q + len);
        if (len >= 3 || strlen(m->text) + 3 - len < m->n) {
            memmove(q + 3, q + len, tail + 1);
            memcpy(q, "***", 3);
            q += 3;
        } else {
            memset(q, '*', len);
            q += len;
        }
    }
}

void db_mask_secrets(const char *path, char *text, size_t n)
{
    struct mask_ctx m = {path, text, n};
    if (path != NULL && text != NULL && n > 0 && db_is_postgres(path))
        each_secret(path, mask_one, &m);
}

struct display_ctx {
    const char *path;
    size_t at[16], len[16];
    int n;
};

static void note_secret(void *arg, size_t at, size_t len)
{
    struct display_ctx *c = arg;
    if (c->n < 16) {
        c->at[c->n] = at;
        c->len[c->n++] = len;
    }
}

const char *db_display_name(const char *path, char *out, size_t n)
{
    struct display_ctx c = {path, {0}, {0}, 0};
    size_t len = 0;

    if (n == 0)
        return out;
    out[0] = '\0';
    if (path == NULL)
        return out;
    if (!db_is_postgres(path)) {
        snprintf(out, n, "%s", path);
        return out;
    }
    each_secret(path, note_secret, &c);
    for (size_t i = 0; path[i] && len + 1 < n;) {
        int k;
        for (k = 0; k < c.n && c.at[k] != i; k++)
            ;
        if (k < c.n) { /* an empty password shows as *** too */
            len += (size_t)snprintf(out + len, n - len, "***");
            if (len >= n)
                len = n - 1;
            i += c.len[k];
            c.at[k] = (size_t)-1; /* once */
        } else {
            out[len++] = path[i++];
        }
    }
    out[len] = '\0';
    return out;
}

int db_open(db **out, const char *path, const struct db_options *opt, struct err *err)
{
    static _Atomic long long opened;
    const struct db_engine *e = db_is_postgres(path) ? &db_pg_engine : &db_sqlite_engine;
    if (e->open(out, path, opt, err) != 0)
        return -1;
    (*out)->serial = ++opened;
    return 0;
}

long long db_serial(db *d)
{
    return d->serial;
}

void db_close(db *d)
{
    if (d != NULL)
        d->eng->close(d);
}

int db_schema_version(void)
{
    /* schema_pg.sql carries the same migration numbers as schema.sql. */
    const char *p = db_schema_sql;
    int v = 0;
    while ((p = strstr(p, "\n-- migration ")) != NULL) {
        p += strlen("\n-- migration ");
        v = (int)strtol(p, NULL, 10);
    }
    return v;
}

int db_migrate(db *d, const char *schema, int have,
               int (*finish)(db *d, int version, struct err *err), struct err *err)
{
    const char *p = schema, *next;
    int target = db_schema_version();

    if (have > target)
        return err_set(err, ERR_INTERNAL, "schema", NULL,
                       "database schema version %d is newer than this prophecyd (%d): "
                       "upgrade prophecyd",
                       have, target);
    while ((p = strstr(p, "\n-- migration ")) != NULL) {
        int v = (int)strtol(p + strlen("\n-- migration "), NULL, 10), rc;
        char *sql;
        next = strstr(p + 1, "\n-- migration ");
        if (v > have) {
            sql = xstrndup(p, next ? (size_t)(next - p) : strlen(p));
            if (sql == NULL)
                return err_nomem(err);
            rc = d->eng->begin(d, err) != 0 || d->eng->exec(d, sql, err) != 0 ||
                 finish(d, v, err) != 0 || d->eng->commit(d, err) != 0;
            if (rc != 0)
                d->eng->rollback(d);
            xfree(sql);
            if (rc != 0)
                return -1;
        }
        p = next ? next : p + strlen(p);
    }
    return 0;
}

int db_begin(db *d, struct err *err)
{
    if (d->eng->begin(d, err) != 0)
        return -1;
    d->txns++;
    d->in_txn = 1;
    return 0;
}

int db_commit(db *d, struct err *err)
{
    d->in_txn = 0;
    return d->eng->commit(d, err);
}

void db_rollback(db *d)
{
    d->in_txn = 0;
    d->eng->rollback(d);
}

int db_savepoint(db *d, enum db_savepoint op, struct err *err)
{
    if (op == DB_SAVEPOINT_ROLLBACK)
        d->wv_txn = 0; /* a watch the job wrote is gone again */
    return d->eng->savepoint(d, op, err);
}

/* The copy at dest checked as `prophecyd check` does (every page, index and
 * record): 0 when sound, else -1 with err saying what is wrong. */
static int verify_copy(const char *dest, struct err *err)
{
    struct db_options ro = {DB_SYNC_FULL, 1, 10000};
    struct err e = {0};
    char *problems = NULL;
    db *copy = NULL;
    int sound = -1;

    if (db_open(&copy, dest, &ro, &e) == 0)
        sound = db_check(copy, &problems, &e);
    db_close(copy);
    if (sound == 1)
        return 0;
    if (problems != NULL)
        problems[strcspn(problems, "\n")] = '\0';
    err_set(err, ERR_INTERNAL, "backup", NULL,
            "the copy fails its check (%s): the database is damaged; nothing was "
            "kept (prophecyd check says more; restore an earlier backup)",
            problems ? problems : e.message);
    xfree(problems);
    return -1;
}

int db_backup(db *d, const char *dest, struct err *err)
{
    if (d->eng->backup(d, dest, err) != 0)
        return -1;
    /* SQLite's backup copies pages as they are: a database whose tail was
     * cut off or whose page 2 is damaged was copied with success. What was
     * written is read back before the backup is called one. */
    if (db_is_file(dest) && verify_copy(dest, err) != 0) {
        remove(dest);
        return -1;
    }
    return 0;
}

int db_check(db *d, char **problems, struct err *err)
{
    return d->eng->check(d, problems, err);
}

long long db_run_at(const char *started_at, const char *now)
{
    long long ms;
    /* Every started_at was checked by its reader; a text that still does not
     * parse (none should) is placed at the store time. */
    if (started_at != NULL && isotime_parse(started_at, &ms) == 0)
        return ms;
    if (isotime_parse(now, &ms) == 0)
        return ms;
    return (long long)time(NULL) * 1000;
}

void db_now(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
