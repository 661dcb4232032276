/* upl_trace: tar a trace directory and send it; see upl_trace.h. */
#include "uploader/upl_trace.h"

#include "common/xalloc.h"
#include "uploader/upl_run.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAR_BLOCK 512
#define TRACE_HEADER 64

/* The number of a "trace.NUMBER" name, or -1. */
static long rank_of(const char *name)
{
    const char *p = name + 6;
    char *end;
    long v;
    if (strncmp(name, "trace.", 6) != 0 || *p < '0' || *p > '9')
        return -1;
    errno = 0;
    v = strtol(p, &end, 10);
    if (*end != '\0' || errno != 0 || v >= UPL_TRACE_MAX_RANKS)
        return -1;
    return v;
}

/* width-1 octal digits and a NUL, as ustar writes them. */
static void octal(char *dst, size_t width, unsigned long long v)
{
    dst[width - 1] = '\0';
    for (size_t i = width - 1; i-- > 0; v >>= 3)
        dst[i] = (char)('0' + (v & 7));
}

static void tar_member(struct buf *out, const char *name, const char *data, size_t len)
{
    unsigned char h[TAR_BLOCK];
    static const char zeros[TAR_BLOCK];
    unsigned sum = 0;

    memset(h, 0, sizeof h);
    memcpy(h, name, strlen(name) < 99 ? strlen(name) : 99); /* "trace.N": short */
    octal((char *)h + 100, 8, 0644);
    octal((char *)h + 108, 8, 0);
    octal((char *)h + 116, 8, 0);
    octal((char *)h + 124, 12, len);
    octal((char *)h + 136, 12, 0);
    memset(h + 148, ' ', 8);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    for (size_t i = 0; i < sizeof h; i++)
        sum += h[i];
    octal((char *)h + 148, 7, sum);
    h[155] = ' ';
    buf_append(out, h, sizeof h);
    buf_append(out, data, len);
    if (len % TAR_BLOCK)
        buf_append(out, zeros, TAR_BLOCK - len % TAR_BLOCK);
}

static uint64_t le64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

int upl_trace_tar(const char *dir, const char *run_json, struct buf *out,
                  struct upl_trace_info *info, struct err *err)
{
    static const char zeros[2 * TAR_BLOCK];
    DIR *dh = opendir(dir);
    struct dirent *de;
    size_t total = 0;
    int nfiles = 0, rc = 0;

    info->nranks = 0;
    info->span = 0;
    if (dh == NULL)
        return err_set(err, ERR_BAD_REQUEST, "io", NULL,
                       "cannot read the trace directory %s: %s", dir, strerror(errno));
    while (rc == 0 && (de = readdir(dh)) != NULL) {
        char path[4096];
        char *data = NULL;
        size_t len;
        if (rank_of(de->d_name) < 0)
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >=
            sizeof path) {
            rc = err_set(err, ERR_BAD_REQUEST, "io", NULL, "path too long: %s", dir);
            break;
        }
        if (upl_read_file(path, UPL_TRACE_MAX_BYTES, &data, &len, err) != 0) {
            rc = -1;
            break;
        }
        if (len < TRACE_HEADER) {
            xfree(data);
            rc = err_set(err, ERR_INVALID, "invalid_trace", NULL,
                         "%s is too short to be a trace file (%zu bytes)", path, len);
            break;
        }
        total += len;
        if (total > UPL_TRACE_MAX_BYTES) {
            xfree(data);
            rc = err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                         "the trace in %s is over %zu bytes", dir, UPL_TRACE_MAX_BYTES);
            break;
        }
        {
            const unsigned char *b = (const unsigned char *)data;
            double t_end = (double)le64(b + 32) * 1e-9;
            info->nranks = (int)((uint32_t)b[16] | (uint32_t)b[17] << 8 |
                                 (uint32_t)b[18] << 16 | (uint32_t)b[19] << 24);
            if (t_end > info->span)
                info->span = t_end;
        }
        tar_member(out, de->d_name, data, len);
        xfree(data);
        nfiles++;
    }
    closedir(dh);
    if (rc != 0)
        return -1;
    if (nfiles == 0)
        return err_set(err, ERR_INVALID, "invalid_trace", NULL,
                       "%s holds no trace.RANK file (was the program run with "
                       "libprophecy_trace.so and PROPHECY_TRACE_DIR?)",
                       dir);
    if (run_json != NULL)
        tar_member(out, "run.json", run_json, strlen(run_json));
    buf_append(out, zeros, sizeof zeros);
    if (buf_failed(out))
        return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                       "the trace in %s is too large", dir);
    return 0;
}

int upl_trace_send(upl_http *h, long long run_id, const struct buf *tar,
                   struct upl_reply *r)
{
    char path[64];
    snprintf(path, sizeof path, "/api/v1/runs/%lld/trace", run_id);
    return upl_http_post_tar(h, path, tar->data, tar->len, r);
}

const char *upl_trace_library(void)
{
    static const char *const candidates[] = {
#ifdef PROPHECY_TRACE_LIB_INSTALLED
        PROPHECY_TRACE_LIB_INSTALLED,
#endif
#ifdef PROPHECY_TRACE_LIB_BUILD
        PROPHECY_TRACE_LIB_BUILD,
#endif
    };
    const char *env = getenv("PROPHECY_TRACE_LIB");
    if (env != NULL && *env != '\0')
        return access(env, R_OK) == 0 ? env : NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (access(candidates[i], R_OK) == 0)
            return candidates[i];
    return NULL;
}

int upl_trace_deliver(upl_http *h, json_t *run, long long run_id, const char *dir,
                      int quiet, long long *stored_id)
{
    struct upl_trace_info info;
    struct upl_reply r;
    struct err e = {0};
    struct buf tar;
    int rc = 0;

    char *doc = run ? json_dumps(run, JSON_COMPACT) : NULL;

    *stored_id = 0;
    buf_init(&tar, UPL_TRACE_MAX_BYTES + ((size_t)UPL_TRACE_MAX_RANKS + 3) * 1024 +
                       (doc ? strlen(doc) : 0));
    if ((run && doc == NULL) || upl_trace_tar(dir, doc, &tar, &info, &e) != 0) {
        fprintf(stderr, "prophecy-upload: trace: %s\n",
                run && doc == NULL ? "out of memory" : e.message);
        buf_free(&tar);
        free(doc);
        return 2;
    }
    free(doc);
    if (run != NULL) {
        /* The run and its trace in one request, stored together or not at all. */
        if (upl_http_post_tar(h, "/api/v1/traces", tar.data, tar.len, &r) != 0 ||
            r.outcome != UPL_DELIVERED) {
            fprintf(stderr, "prophecy-upload: run and trace not stored: %s%s%s%s\n",
                    r.message, r.field[0] ? " (" : "", r.field, r.field[0] ? ")" : "");
            buf_free(&tar);
            return r.outcome == UPL_REJECTED ? 2 : 1;
        }
        {
            size_t len = 0;
            const char *ans = upl_http_body(h, &len); /* NULL: over 1 MiB */
            json_t *j = ans ? json_loadb(ans, len, 0, NULL) : NULL;
            *stored_id = (long long)json_integer_value(json_object_get(j, "run_id"));
            json_decref(j);
        }
        if (!quiet)
            fprintf(stderr,
                    "prophecy-upload: run %lld and its trace stored (%d ranks, "
                    "%zu bytes)\n",
                    *stored_id, info.nranks, tar.len);
        buf_free(&tar);
        return 0;
    }
    *stored_id = run_id;
    if (upl_trace_send(h, run_id, &tar, &r) != 0 || r.outcome != UPL_DELIVERED) {
        fprintf(stderr,
                "prophecy-upload: trace of run %lld not stored: %s%s%s%s\n"
                "prophecy-upload: the trace stays in %s; resend it with "
                "`prophecy-upload trace %s --run %lld`\n",
                run_id, r.message, r.field[0] ? " (" : "", r.field, r.field[0] ? ")" : "",
                dir, dir, run_id);
        rc = 2;
    } else if (!quiet) {
        fprintf(stderr,
                "prophecy-upload: trace of run %lld stored (%d ranks, %zu bytes)\n",
                run_id, info.nranks, tar.len);
    }
    buf_free(&tar);
    return rc;
}
