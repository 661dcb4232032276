/* upl_spool: atomic files in a directory; see upl_spool.h.
 *
 * Every write is tmp + fsync + rename + fsync(dir): the spool exists so that
 * an accepted result survives a crash of the uploader, the job or the node.
 */
#include "uploader/upl_spool.h"

#include "uploader/upl_run.h"

#include "common/buf.h"
#include "common/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PATH_MAX_LEN 4096

struct upl_spool {
    char *dir;
    char *rejected;
    int lockfd;
};

double upl_spool_backoff(long attempts)
{
    double s = 30;
    long i;
    for (i = 1; i < attempts && s < 6 * 3600; i++)
        s *= 2;
    return s < 6 * 3600 ? s : 6 * 3600;
}

int upl_spool_default_dir(char *out, size_t outsz)
{
    const char *v = getenv("PROPHECY_SPOOL");
    int n;

    if (v && *v)
        n = snprintf(out, outsz, "%s", v);
    else if ((v = getenv("XDG_CACHE_HOME")) && *v)
        n = snprintf(out, outsz, "%s/prophecy/spool", v);
    else if ((v = getenv("HOME")) && *v)
        n = snprintf(out, outsz, "%s/.cache/prophecy/spool", v);
    else
        n = snprintf(out, outsz, "/tmp/prophecy-spool-%ld", (long)getuid());
    return n < 0 || (size_t)n >= outsz ? -1 : 0;
}

/* mkdir -p with mode 0700 for the parts we create. */
static int mkdirs(const char *dir, struct err *err)
{
    char path[PATH_MAX_LEN];
    size_t i, n = strlen(dir);

    if (n == 0 || n >= sizeof path)
        return err_set(err, ERR_BAD_REQUEST, "spool", NULL,
                       "spool directory name empty or too long");
    memcpy(path, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (path[i] == '/' || path[i] == '\0') {
            char c = path[i];
            path[i] = '\0';
            if (mkdir(path, 0700) != 0 && errno != EEXIST)
                return err_set(err, ERR_INTERNAL, "spool", NULL, "cannot create %s: %s",
                               path, strerror(errno));
            path[i] = c;
        }
    }
    return 0;
}

upl_spool *upl_spool_open(const char *dir, struct err *err)
{
    upl_spool *s = xcalloc(1, sizeof *s);
    struct buf b;

    if (s == NULL) {
        err_nomem(err);
        return NULL;
    }
    s->lockfd = -1;
    buf_init(&b, PATH_MAX_LEN);
    buf_printf(&b, "%s/rejected", dir);
    s->dir = xstrdup(dir);
    s->rejected = buf_detach(&b, NULL);
    if (s->dir == NULL || s->rejected == NULL) {
        err_set(err, ERR_BAD_REQUEST, "spool", NULL,
                "spool directory name too long or out of memory");
        goto fail;
    }
    if (mkdirs(s->rejected, err) != 0)
        goto fail;
    return s;
fail:
    buf_free(&b);
    upl_spool_close(s);
    return NULL;
}

void upl_spool_close(upl_spool *s)
{
    if (s == NULL)
        return;
    if (s->lockfd >= 0)
        close(s->lockfd);
    xfree(s->dir);
    xfree(s->rejected);
    xfree(s);
}

const char *upl_spool_dir(const upl_spool *s)
{
    return s->dir;
}

int upl_spool_trylock(upl_spool *s)
{
    char path[PATH_MAX_LEN];

    if (s->lockfd >= 0)
        return 0;
    if (snprintf(path, sizeof path, "%s/.lock", s->dir) >= (int)sizeof path)
        return -1;
    s->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (s->lockfd < 0)
        return -1;
    if (flock(s->lockfd, LOCK_EX | LOCK_NB) != 0) {
        int busy = errno == EWOULDBLOCK;
        close(s->lockfd);
        s->lockfd = -1;
        return busy ? 1 : -1;
    }
    return 0;
}

static int fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;
    if (fd < 0)
        return -1;
    rc = fsync(fd);
    close(fd);
    return rc;
}

/* Writes `doc` to dir/name atomically. */
static int write_atomic(const char *dir, const char *name, json_t *doc, struct err *err)
{
    char tmp[PATH_MAX_LEN], path[PATH_MAX_LEN];
    char *text = NULL;
    size_t len, off = 0;
    int fd = -1, rc = -1;

    if (snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir) >= (int)sizeof tmp ||
        snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return err_set(err, ERR_INTERNAL, "spool", NULL, "spool path too long");
    text = json_dumps(doc, JSON_COMPACT);
    if (text == NULL)
        return err_nomem(err);
    len = strlen(text);
    fd = mkstemp(tmp);
    if (fd < 0) {
        err_set(err, ERR_INTERNAL, "spool", NULL, "cannot write in %s: %s", dir,
                strerror(errno));
        goto out;
    }
    while (off < len) {
        ssize_t n = write(fd, text + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err_set(err, ERR_INTERNAL, "spool", NULL, "cannot write %s: %s", tmp,
                    strerror(errno));
            goto out;
        }
        off += (size_t)n;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        fd = -1;
        err_set(err, ERR_INTERNAL, "spool", NULL, "cannot write %s: %s", tmp,
                strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        err_set(err, ERR_INTERNAL, "spool", NULL, "cannot rename to %s: %s", path,
                strerror(errno));
        goto out;
    }
    tmp[0] = '\0';
    fsync_dir(dir);
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    if (rc != 0 && tmp[0])
        unlink(tmp);
    free(text); /* json_dumps uses Jansson's allocator: malloc by default */
    return rc;
}

/* A fresh entry name: sortable time, then random hex so names never clash. */
static int new_name(char *out, size_t outsz, struct err *err)
{
    char id[UPL_ID_LEN + 1];
    struct timespec ts;

    if (upl_random_id(id, sizeof id, err) != 0)
        return -1;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(out, outsz, "%011lld.%09ld-%.12s.json", (long long)ts.tv_sec, ts.tv_nsec,
             id);
    return 0;
}

static json_t *envelope(json_t *body, long attempts, const char *reason)
{
    return json_pack("{s:I, s:f, s:s, s:O}", "attempts", (json_int_t)attempts,
                     "next_attempt", (double)time(NULL) + upl_spool_backoff(attempts),
                     "last_error", reason ? reason : "", "body", body);
}

int upl_spool_put(upl_spool *s, json_t *body, const char *reason, char **path_out,
                  struct err *err)
{
    char name[128];
    json_t *env;
    int rc;

    if (path_out)
        *path_out = NULL;
    if (new_name(name, sizeof name, err) != 0)
        return -1;
    env = envelope(body, 1, reason);
    if (env == NULL)
        return err_nomem(err);
    rc = write_atomic(s->dir, name, env, err);
    json_decref(env);
    if (rc == 0 && path_out) {
        struct buf b;
        buf_init(&b, PATH_MAX_LEN);
        buf_printf(&b, "%s/%s", s->dir, name);
        *path_out = buf_detach(&b, NULL);
    }
    return rc;
}

int upl_spool_reject(upl_spool *s, json_t *body, long status, const char *code,
                     const char *message, const char *field, struct err *err)
{
    char name[128], when[32];
    json_t *env;
    int rc;

    if (new_name(name, sizeof name, err) != 0)
        return -1;
    env = json_pack("{s:I, s:s, s:s, s:s, s:s, s:O}", "status", (json_int_t)status,
                    "code", code ? code : "", "message", message ? message : "", "field",
                    field ? field : "", "rejected_at", upl_iso8601_now(when, sizeof when),
                    "body", body);
    if (env == NULL)
        return err_nomem(err);
    rc = write_atomic(s->rejected, name, env, err);
    json_decref(env);
    return rc;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const struct upl_spool_entry *)a)->path,
                  ((const struct upl_spool_entry *)b)->path);
}

int upl_spool_list(upl_spool *s, int rejected, struct upl_spool_entry **out, size_t *n,
                   struct err *err)
{
    const char *dir = rejected ? s->rejected : s->dir;
    struct upl_spool_entry *v = NULL;
    size_t cnt = 0, cap = 0;
    struct dirent *de;
    DIR *d;

    *out = NULL;
    *n = 0;
    d = opendir(dir);
    if (d == NULL)
        return err_set(err, ERR_INTERNAL, "spool", NULL, "cannot read %s: %s", dir,
                       strerror(errno));
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        json_error_t jerr;
        json_t *env, *body;
        struct buf path;
        if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        buf_init(&path, PATH_MAX_LEN);
        buf_printf(&path, "%s/%s", dir, de->d_name);
        if (buf_failed(&path)) {
            buf_free(&path);
            continue;
        }
        env = json_load_file(buf_str(&path), 0, &jerr);
        body = json_object_get(env, "body");
        if (!json_is_object(body)) {
            fprintf(stderr, "prophecy-upload: skipping unreadable spool file %s: %s\n",
                    buf_str(&path), env ? "no \"body\" object" : jerr.text);
            json_decref(env);
            buf_free(&path);
            continue;
        }
        if (cnt == cap) {
            size_t nc = cap ? cap * 2 : 16;
            struct upl_spool_entry *nv = xrealloc(v, nc * sizeof *nv);
            if (nv == NULL) {
                json_decref(env);
                buf_free(&path);
                closedir(d);
                upl_spool_entries_free(v, cnt);
                return err_nomem(err);
            }
            v = nv;
            cap = nc;
        }
        v[cnt].path = buf_detach(&path, NULL);
        v[cnt].body = json_incref(body);
        v[cnt].attempts = (long)json_integer_value(json_object_get(env, "attempts"));
        v[cnt].next_attempt = json_number_value(json_object_get(env, "next_attempt"));
        json_decref(env);
        if (v[cnt].path == NULL) {
            json_decref(v[cnt].body);
            continue;
        }
        cnt++;
    }
    closedir(d);
    if (cnt > 1)
        qsort(v, cnt, sizeof *v, cmp_entry);
    *out = v;
    *n = cnt;
    return 0;
}

void upl_spool_entries_free(struct upl_spool_entry *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        xfree(v[i].path);
        json_decref(v[i].body);
    }
    xfree(v);
}

int upl_spool_remove(upl_spool *s, const struct upl_spool_entry *e, struct err *err)
{
    (void)s;
    if (unlink(e->path) != 0 && errno != ENOENT)
        return err_set(err, ERR_INTERNAL, "spool", NULL, "cannot remove %s: %s", e->path,
                       strerror(errno));
    return 0;
}

int upl_spool_defer(upl_spool *s, struct upl_spool_entry *e, const char *reason,
                    struct err *err)
{
    const char *slash = strrchr(e->path, '/');
    json_t *env;
    int rc;

    (void)s;
    e->attempts++;
    e->next_attempt = (double)time(NULL) + upl_spool_backoff(e->attempts);
    env = envelope(e->body, e->attempts, reason);
    if (env == NULL)
        return err_nomem(err);
    {
        char dir[PATH_MAX_LEN];
        size_t dl = slash ? (size_t)(slash - e->path) : 0;
        if (slash == NULL || dl >= sizeof dir) {
            json_decref(env);
            return err_set(err, ERR_INTERNAL, "spool", NULL, "bad spool path %s",
                           e->path);
        }
        memcpy(dir, e->path, dl);
        dir[dl] = '\0';
        rc = write_atomic(dir, slash + 1, env, err);
    }
    json_decref(env);
    return rc;
}
