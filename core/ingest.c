/* ingest: the one path every run takes; see ingest.h. */
#include "core/ingest.h"
#include "common/xalloc.h"
#include "db/runs.h"
#include "formats/rundoc.h"

#include <string.h>

static struct ingest_hooks hooks;

void ingest_set_hooks(const struct ingest_hooks *h)
{
    if (h)
        hooks = *h;
    else
        memset(&hooks, 0, sizeof hooks);
}

int ingest_records(struct ingest *in, struct run_record *runs, size_t n,
                   const char *submitter, arena *a, struct err *err)
{
    size_t i;

    memset(in, 0, sizeof *in);
    in->runs = runs;
    in->n = n;
    in->arena = a;
    if (submitter)
        for (i = 0; i < n; i++)
            runs[i].submitter = submitter;
    /* One element at least, so that an empty batch still has arrays. */
    in->ids = arena_alloc(a, (n ? n : 1) * sizeof *in->ids);
    in->existed = arena_alloc(a, (n ? n : 1) * sizeof *in->existed);
    if (in->ids == NULL || in->existed == NULL)
        return err_nomem(err);
    return 0;
}

int ingest_json(struct ingest *in, json_t *body, const char *submitter, arena *a,
                struct err *err)
{
    struct run_record *runs;
    size_t n;

    if (rundoc_parse_body(body, a, &runs, &n, err) != 0)
        return -1;
    return ingest_records(in, runs, n, submitter, a, err);
}

int ingest_csv(struct ingest *in, const char *text, size_t len, const char *submitter,
               arena *a, struct err *err)
{
    struct run_record *runs;
    size_t n;

    if (rundoc_parse_csv(text ? text : "", len, a, &runs, &n, err) != 0)
        return -1;
    return ingest_records(in, runs, n, submitter, a, err);
}

/* After in's runs are stored (ids and existed set): counts the new ones and
 * runs the stored hook. 0, or -1 with err set. */
static int stored(db *d, struct ingest *in, struct err *err)
{
    in->created = 0;
    in->nalerts = 0;
    for (size_t i = 0; i < in->n; i++)
        in->created += !in->existed[i];
    if (hooks.stored && hooks.stored(d, in, hooks.arg, err) != 0)
        return -1;
    return 0;
}

int ingest_store(db *d, struct ingest *in, struct err *err)
{
    if (db_runs_insert(d, in->runs, in->n, in->ids, in->existed, err) != 0)
        return -1;
    return stored(d, in, err);
}

int ingest_job(db *d, void *arg, struct err *err)
{
    return ingest_store(d, arg, err);
}

/* Every job failed with e (the writer runs them again one by one). */
static int group_failed(struct db_job **jobs, size_t n, const struct err *e)
{
    for (size_t i = 0; i < n; i++) {
        jobs[i]->rc = -1;
        jobs[i]->err = *e;
    }
    return -1;
}

int ingest_group(db *d, struct db_job **jobs, size_t n)
{
    struct err e = {0};
    struct run_record *runs = NULL;
    long long *ids = NULL;
    int *existed = NULL, idle = hooks.stored == NULL, known = -1;
    size_t total = 0, at = 0, i;
    int rc = -1;

    /* Whether the stored hook is idle: as last known when the hooks know it
     * (then asked again once the runs are stored, below), else asked now. */
    if (!idle && hooks.idle != NULL) {
        if (hooks.idle_known != NULL)
            known = hooks.idle_known(d, hooks.arg);
        if ((idle = known >= 0 ? known : hooks.idle(d, hooks.arg, &e)) < 0)
            return group_failed(jobs, n, &e);
    }
    if (!idle)
        return 1;
    for (i = 0; i < n; i++)
        total += ((struct ingest *)jobs[i]->arg)->n;
    runs = xmalloc((total ? total : 1) * sizeof *runs);
    ids = xmalloc((total ? total : 1) * sizeof *ids);
    existed = xmalloc((total ? total : 1) * sizeof *existed);
    if (runs == NULL || ids == NULL || existed == NULL) {
        err_nomem(&e);
        goto out;
    }
    for (i = 0; i < n; i++) {
        struct ingest *in = jobs[i]->arg;
        memcpy(runs + at, in->runs, in->n * sizeof *runs);
        at += in->n;
    }
    if (db_runs_insert(d, runs, total, ids, existed, &e) != 0)
        goto out;
    if (known == 1) {
        int now = hooks.idle(d, hooks.arg, &e);
        if (now < 0)
            goto out;
        if (!now) { /* judged as they queued: each upload alone, again */
            err_set(&e, ERR_UNAVAILABLE, "busy", NULL,
                    "a watch was set while the uploads were stored; storing them again");
            goto out;
        }
    }
    for (i = 0, at = 0; i < n; i++) {
        struct ingest *in = jobs[i]->arg;
        memcpy(in->ids, ids + at, in->n * sizeof *ids);
        memcpy(in->existed, existed + at, in->n * sizeof *existed);
        at += in->n;
        if (stored(d, in, &e) != 0)
            goto out;
    }
    rc = 0;
out:
    xfree(runs);
    xfree(ids);
    xfree(existed);
    return rc == 0 ? 0 : group_failed(jobs, n, &e);
}

void ingest_committed(const struct ingest *in)
{
    if (hooks.committed)
        hooks.committed(in, hooks.arg);
}

int ingest_commit(db *d, struct ingest *in, struct err *err)
{
    if (db_begin(d, err) != 0)
        return -1;
    if (ingest_store(d, in, err) != 0 || db_commit(d, err) != 0) {
        db_rollback(d);
        return -1;
    }
    ingest_committed(in);
    return 0;
}
