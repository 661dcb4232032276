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

int db_is_postgres(const char *path)
{
    return path != NULL && (strncasecmp(path, "postgresql://", 13) == 0 ||
                            strncasecmp(path, "postgres://", 11) == 0);
}

int db_is_file(const char *path)
{
    return !db_is_postgres(path);
}

const char *db_display_name(const char *path, char *out, size_t n)
{
    const char *auth, *at, *colon, *p;
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
    /* scheme://[user[:password]@]host...[?...password=...&...] */
    auth = strstr(path, "://") + 3;
    at = strchr(auth, '@');
    colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    for (p = path; *p && len + 1 < n; p++) {
        if (colon && p == colon + 1) {
            len += (size_t)snprintf(out + len, n - len, "***");
            p = at - 1;
            colon = NULL; /* once: an empty password leaves p at the colon */
        } else if ((p == path || p[-1] == '?' || p[-1] == '&') &&
                   strncasecmp(p, "password=", 9) == 0) {
            len += (size_t)snprintf(out + len, n - len, "password=***");
            p += 9;
            while (p[0] && p[0] != '&')
                p++;
            p--;
        } else {
            out[len++] = *p;
        }
        if (len >= n)
            len = n - 1;
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
        return err_set(err, 500, "schema", NULL,
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
    return d->eng->begin(d, err);
}

int db_commit(db *d, struct err *err)
{
    return d->eng->commit(d, err);
}

void db_rollback(db *d)
{
    d->eng->rollback(d);
}

int db_savepoint(db *d, enum db_savepoint op, struct err *err)
{
    return d->eng->savepoint(d, op, err);
}

int db_backup(db *d, const char *dest, struct err *err)
{
    return d->eng->backup(d, dest, err);
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
