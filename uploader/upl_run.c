/* upl_run: input files, ids and batches; see upl_run.h.
 *
 * Ids derived from file contents: 128 bits of two independent FNV-1a passes
 * over the file, then the run's index. Not cryptographic, but a collision
 * needs two different files with equal hashes; a re-upload of the same file
 * is then recognised by the server as the same runs.
 */
#include "uploader/upl_run.h"

#include "uploader/upl_csv.h"

#include "common/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int upl_read_file(const char *path, size_t max, char **data, size_t *len, struct err *err)
{
    struct stat st;
    char *p = NULL;
    size_t got = 0;
    int fd, rc = -1;

    *data = NULL;
    *len = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(err, ERR_BAD_REQUEST, "io", NULL, "%s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        err_set(err, ERR_BAD_REQUEST, "io", NULL, "%s: not a regular file", path);
        goto out;
    }
    if ((unsigned long long)st.st_size > max) {
        err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                "%s: %lld bytes, over the limit of %zu MiB per file; split it", path,
                (long long)st.st_size, max >> 20);
        goto out;
    }
    p = xmalloc((size_t)st.st_size + 1);
    if (p == NULL) {
        err_nomem(err);
        goto out;
    }
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, p + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err_set(err, ERR_BAD_REQUEST, "io", NULL, "%s: %s", path, strerror(errno));
            goto out;
        }
        if (n == 0)
            break; /* file shrank while reading: take what is there */
        got += (size_t)n;
    }
    p[got] = '\0';
    *data = p;
    *len = got;
    p = NULL;
    rc = 0;
out:
    xfree(p);
    close(fd);
    return rc;
}

static uint64_t fnv1a(const char *p, size_t n, uint64_t h)
{
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211u;
    }
    return h;
}

json_t *upl_parse_runs(const char *data, size_t len, int csv, struct err *err)
{
    json_t *doc = NULL, *runs = NULL, *run;
    json_error_t jerr;
    uint64_t h1, h2;
    size_t i;

    if (csv) {
        runs = upl_csv_parse(data, len, err);
        if (runs == NULL)
            return NULL;
    } else {
        doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
        if (doc == NULL) {
            err_set(err, ERR_BAD_REQUEST, "json", NULL, "line %d, column %d: %s",
                    jerr.line, jerr.column, jerr.text);
            return NULL;
        }
        if (!json_is_object(doc)) {
            err_set(err, ERR_INVALID, "shape", NULL,
                    "expected a run object or {\"runs\": [...]} at the top level");
            goto fail;
        }
        runs = json_object_get(doc, "runs");
        if (runs != NULL) {
            if (!json_is_array(runs) || json_object_size(doc) != 1) {
                runs = NULL; /* borrowed from doc: not ours to release */
                err_set(err, ERR_INVALID, "shape", "runs",
                        "\"runs\" must be an array and the only key of a batch document");
                goto fail;
            }
            json_incref(runs);
        } else {
            runs = json_array();
            if (runs == NULL || json_array_append(runs, doc) != 0) {
                err_nomem(err);
                goto fail;
            }
        }
        json_decref(doc);
        doc = NULL;
    }
    h1 = fnv1a(data, len, 1469598103934665603u);
    h2 = fnv1a(data, len, 0x6c62272e07bb0142u ^ (uint64_t)len);
    json_array_foreach(runs, i, run)
    {
        char id[64];
        if (!json_is_object(run)) {
            err_set(err, ERR_INVALID, "shape", NULL, "run %zu is not a JSON object", i);
            goto fail;
        }
        if (json_object_get(run, "id") != NULL)
            continue;
        snprintf(id, sizeof id, "%016llx%016llx-%zu", (unsigned long long)h1,
                 (unsigned long long)h2, i);
        if (json_object_set_new(run, "id", json_string(id)) != 0) {
            err_nomem(err);
            goto fail;
        }
    }
    return runs;
fail:
    json_decref(doc);
    json_decref(runs);
    return NULL;
}

int upl_random_id(char *out, size_t outsz, struct err *err)
{
    unsigned char raw[UPL_ID_LEN / 2];
    size_t got = 0, i;
    int fd;

    if (outsz < UPL_ID_LEN + 1)
        return err_set(err, ERR_INTERNAL, "internal", NULL, "id buffer too small");
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(err, ERR_INTERNAL, "io", NULL, "/dev/urandom: %s",
                       strerror(errno));
    while (got < sizeof raw) {
        ssize_t n = read(fd, raw + got, sizeof raw - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return err_set(err, ERR_INTERNAL, "io", NULL, "/dev/urandom: short read");
        }
        got += (size_t)n;
    }
    close(fd);
    for (i = 0; i < sizeof raw; i++) {
        static const char hex[] = "0123456789abcdef";
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[UPL_ID_LEN] = '\0';
    return 0;
}

char *upl_iso8601_now(char *out, size_t outsz)
{
    time_t now = time(NULL);
    struct tm tm;

    if (gmtime_r(&now, &tm) == NULL ||
        strftime(out, outsz, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, outsz, "1970-01-01T00:00:00Z");
    return out;
}

json_t *upl_batch_body(json_t *runs, size_t from, size_t n)
{
    json_t *arr, *body;
    size_t i;

    if (n == 1)
        return json_incref(json_array_get(runs, from));
    arr = json_array();
    if (arr == NULL)
        return NULL;
    for (i = from; i < from + n; i++)
        if (json_array_append(arr, json_array_get(runs, i)) != 0) {
            json_decref(arr);
            return NULL;
        }
    body = json_object();
    if (body == NULL || json_object_set_new(body, "runs", arr) != 0) {
        json_decref(body);
        return NULL;
    }
    return body;
}

json_t *upl_body_runs(json_t *body)
{
    json_t *runs;

    if (!json_is_object(body))
        return NULL;
    runs = json_object_get(body, "runs");
    if (runs != NULL)
        return json_is_array(runs) ? json_incref(runs) : NULL;
    runs = json_array();
    if (runs == NULL || json_array_append(runs, body) != 0) {
        json_decref(runs);
        return NULL;
    }
    return runs;
}
