/* prophecy-upload: submit run documents to a Prophecy server without losing any.
 *
 * Four commands: submit files (JSON or CSV), `exec` (run a program, time it,
 * collect what its probe library wrote, submit the run), `flush` (retry the
 * spool now) and `report` (a commit's comparison and alerts for a pull-request
 * comment, rendered by upl_report). Every run carries an id before it is sent,
 * so resending is always safe; anything that is not definitely accepted or
 * definitely refused lands in the spool, on disk, before the program says so.
 * Exit codes: 0 all delivered, 1 some spooled, 2 some rejected, 3 an alert
 * (with --fail-on-alert; report: always), 64 usage error (exec: the command's own
 * non-zero status wins).
 */
#include "uploader/upl_http.h"
#include "uploader/upl_report.h"
#include "uploader/upl_run.h"
#include "uploader/upl_spool.h"
#include "uploader/upl_trace.h"

#include "common/buf.h"
#include "common/xalloc.h"
#include "common/xalloc_json.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_SPOOLED 1
#define EXIT_REJECTED 2
#define EXIT_ALERT 3
#define EXIT_NOT_MEASURED 4
#define EXIT_USAGE 64
#define BATCH_RUNS 1000 /* runs per request */
#define BATCH_BYTES                                                                      \
    ((size_t)4 << 20)         /* body bytes per request, under the 8 MiB default */
#define AUTO_FLUSH_SECONDS 10 /* budget of the flush before every command */
#define PROGRESS_OVER 100     /* progress lines for inputs of more runs */

static const char usage_text[] =
    "usage: prophecy-upload [options] FILE...          submit run documents\n"
    "       prophecy-upload [options] exec --application A --executable E --system S\n"
    "                       --nprocs P [--input NAME=VALUE]... [--metric NAME=VALUE]...\n"
    "                       [--always] [--trace] -- COMMAND [ARGS...]\n"
    "       prophecy-upload [options] trace DIR (--run ID | --application A\n"
    "                       --executable E --system S [--nprocs P] [--input N=V]...)\n"
    "       prophecy-upload [options] flush [--rejected]\n"
    "       prophecy-upload [options] report --commit C --application A [--against B]\n"
    "                       [--format markdown|json] [--executable E] [--system S]\n"
    "                       [--nprocs P] [--input NAME=VALUE]...\n"
    "\n"
    "Files hold one run object or {\"runs\": [...]} (JSON), or with --csv a table with\n"
    "the header application,executable,system,nprocs,runtime,<input columns...>.\n"
    "\n"
    "options:\n"
    "  --server URL   server (default $PROPHECY_URL or http://127.0.0.1:8080)\n"
    "  --token T      write token (default $PROPHECY_TOKEN)\n"
    "  --spool DIR    spool directory (default $PROPHECY_SPOOL or "
    "~/.cache/prophecy/spool)\n"
    "  --csv          files are CSV\n"
    "  --timeout S    seconds per request (default 30)\n"
    "  --no-flush     do not retry the spool before this command\n"
    "  --dry-run      print the documents that would be sent, send nothing\n"
    "  --quiet        only errors on stderr\n"
    "  --fail-on-alert  exit 3 when the server raised an alert for a delivered run\n"
    "                 (report: when the commit has an open alert)\n"
    "  --help         this text\n"
    "\n"
    "exec runs COMMAND (no shell) with PROBE_OUTPUT set to a temporary file, times it\n"
    "with CLOCK_MONOTONIC and submits the run with the probe's kernels and metrics.\n"
    "A run is submitted only when the command exits 0, unless --always (then the\n"
    "metric exit_status is added). exec exits with the command's status when it is\n"
    "not 0, else with the upload's.\n"
    "\n"
    "exec --trace also records every MPI call: COMMAND runs with LD_PRELOAD of\n"
    "libprophecy_trace.so ($PROPHECY_TRACE_LIB, else the installed one) and\n"
    "PROPHECY_TRACE_DIR set to a temporary directory (with Open MPI pass them on:\n"
    "mpirun -x LD_PRELOAD -x PROPHECY_TRACE_DIR ...); the run is sent, then its trace.\n"
    "trace DIR sends the trace.RANK files of DIR for the stored run ID, or creates\n"
    "the run from the trace (runtime = the longest rank, nprocs = the ranks). Traces\n"
    "are not spooled: one that cannot be sent stays where it is, and the message\n"
    "says how to resend it.\n"
    "\n"
    "Runs without an \"id\" get one, so a resend never stores a run twice. Documents\n"
    "the server cannot take now (unreachable, timeout, 5xx, 408, 429) are written to\n"
    "the spool and retried with backoff (30 s doubling, at most 6 h) before every\n"
    "command, or at once by `flush`. A 4xx answer is printed and the document moved\n"
    "to <spool>/rejected/ (`flush --rejected` resends those, e.g. after a token fix).\n"
    "\n"
    "report compares the runs of commit C with those of branch B (default main; a\n"
    "side such as tag:K=V or commit:X is taken as given) through GET /api/v1/compare\n"
    "and lists the commit's alerts (GET /api/v1/alerts): per configuration the\n"
    "value, the change and a verdict, as markdown for a pull-request comment or as\n"
    "JSON. --application is required; --executable, --system, --nprocs and --input\n"
    "narrow it. A change with one run on either side is \"not tested\".\n"
    "\n"
    "exit status: 0 all delivered; 1 some spooled; 2 some rejected (or an input file\n"
    "unreadable or invalid); 3 alert raised (--fail-on-alert, when nothing was\n"
    "rejected); 64 usage error. report: 0 pass (the commit has runs, no alert),\n"
    "1 server unreachable, 2 refused or the baseline has no runs, 3 alert (with\n"
    "or without --fail-on-alert), 4 not measured (no runs in the selection).\n"
    "\n"
    "examples:\n"
    "  prophecy-upload --server http://perf:8080 --token $TOK results/*.json\n"
    "  prophecy-upload --csv runs.csv\n"
    "  prophecy-upload exec --application matmul --executable matmul_gcc \\\n"
    "      --system cluster1 --nprocs 8 --input N=1000 -- mpirun -np 8 ./matmul 1000\n"
    "  prophecy-upload flush\n"
    "  prophecy-upload --fail-on-alert results/*.json\n"
    "  prophecy-upload report --commit $SHA --against main --application matmul\n";

struct opts {
    const char *server, *token, *spool;
    long timeout;
    int csv, quiet, dry_run, no_flush, always, rejected, trace, fail_on_alert;
    long long run_id;                      /* trace --run */
    const char *commit, *against, *format; /* report */
    const char *application, *executable, *system;
    long nprocs;
    json_t *inputs, *metrics;
    char **pos; /* positional arguments (files, or the command after "--") */
    int npos;
    int dashdash; /* "--" was seen */
};

struct ctx {
    const struct opts *o;
    upl_http *http;
    upl_spool *spool;
    int down;                            /* server unreachable: spool without trying */
    size_t delivered, spooled, rejected; /* runs */
    size_t bad_inputs;                   /* files we could not read or parse */
    size_t alerts;                       /* alerts the server raised for our runs */
    size_t total, done;                  /* progress of the current source */
};

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "prophecy-upload: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(prophecy-upload --help shows the usage)\n");
}

/* ---- delivery ------------------------------------------------------------- */

static void progress(struct ctx *c, size_t n)
{
    c->done += n;
    if (!c->o->quiet && c->total > PROGRESS_OVER)
        fprintf(stderr, "uploaded %zu/%zu runs\n", c->done, c->total);
}

static void describe(char *out, size_t outsz, json_t *runs, size_t from, size_t n)
{
    const char *id = json_string_value(json_object_get(json_array_get(runs, from), "id"));
    if (n == 1)
        snprintf(out, outsz, "run %zu (id %s)", from + 1, id ? id : "?");
    else
        snprintf(out, outsz, "runs %zu-%zu", from + 1, from + n);
}

/* Last resort when even the spool cannot be written: the document goes to
 * stdout so that it is in the job's log rather than nowhere. */
static void spool_or_print(struct ctx *c, json_t *body, size_t n, const char *reason)
{
    struct err e = {0};
    char *path = NULL;

    if (upl_spool_put(c->spool, body, reason, &path, &e) != 0) {
        char *text = json_dumps(body, JSON_COMPACT);
        fprintf(stderr,
                "prophecy-upload: cannot spool (%s); the undelivered document is "
                "printed on stdout\n",
                e.message);
        if (text)
            printf("%s\n", text);
        free(text);
    } else if (!c->o->quiet) {
        fprintf(stderr, "prophecy-upload: %zu run%s spooled to %s\n", n,
                n == 1 ? "" : "s", path);
    }
    xfree(path);
    c->spooled += n;
}

static void reject(struct ctx *c, json_t *body, json_t *runs, size_t from, size_t n,
                   const struct upl_reply *r, const char *src)
{
    struct err e = {0};
    char what[128];

    describe(what, sizeof what, runs, from, n);
    fprintf(stderr, "prophecy-upload: %s: %s rejected by the server (%ld %s): %s%s%s%s\n",
            src, what, r->status, r->code, r->message, r->field[0] ? " [field " : "",
            r->field, r->field[0] ? "]" : "");
    if (upl_spool_reject(c->spool, body, r->status, r->code, r->message, r->field, &e) !=
        0)
        fprintf(stderr, "prophecy-upload: cannot keep it in %s/rejected: %s\n",
                upl_spool_dir(c->spool), e.message);
    c->rejected += n;
}

static void send_runs(struct ctx *c, json_t *runs, size_t from, size_t n,
                      const char *src);

/* The index k when the server blamed "runs[k]..." of a batch, else -1. */
static long blamed_run(const char *field, size_t n)
{
    char *end;
    long k;

    if (strncmp(field, "runs[", 5) != 0)
        return -1;
    errno = 0;
    k = strtol(field + 5, &end, 10);
    if (errno || end == field + 5 || *end != ']' || k < 0 || (size_t)k >= n)
        return -1;
    return k;
}

/* Acts on a refusal of runs[from .. from+n) (sent as `body`): a batch that
 * was too large is halved; a batch refused for one run is resent without it
 * (the server takes batches all or nothing); anything else is rejected. */
static void on_rejected(struct ctx *c, json_t *body, json_t *runs, size_t from, size_t n,
                        const struct upl_reply *r, const char *src)
{
    long k;

    if (n > 1 && r->status == 413) {
        send_runs(c, runs, from, n / 2, src);
        send_runs(c, runs, from + n / 2, n - n / 2, src);
        return;
    }
    k = n > 1 ? blamed_run(r->field, n) : -1;
    if (k >= 0) {
        json_t *one = upl_batch_body(runs, from + (size_t)k, 1);
        struct upl_reply r1 = *r;
        /* Field relative to the run itself, as if sent alone. */
        const char *dot = strchr(r->field, ']');
        snprintf(r1.field, sizeof r1.field, "%s", dot && dot[1] == '.' ? dot + 2 : "");
        if (one)
            reject(c, one, runs, from + (size_t)k, 1, &r1, src);
        json_decref(one);
        if (k > 0)
            send_runs(c, runs, from, (size_t)k, src);
        if ((size_t)k + 1 < n)
            send_runs(c, runs, from + (size_t)k + 1, n - (size_t)k - 1, src);
        return;
    }
    reject(c, body, runs, from, n, r, src);
}

static void note_down(struct ctx *c, const struct upl_reply *r)
{
    if (r->unreachable && !c->down) {
        c->down = 1;
        if (!c->o->quiet)
            fprintf(stderr,
                    "prophecy-upload: server %s unreachable (%s); spooling the rest\n",
                    c->o->server, r->message);
    }
}

static json_t *get_json(struct ctx *c, const char *path, int *rc);
static json_t *get_commit_alerts(struct ctx *c, const char *commit, const char *app,
                                 int *rc);

/* With --fail-on-alert, the alerts that still stand on runs the server had
 * stored before (status "existing": a job run again stores nothing new and
 * raises nothing new, so a failed job re-run would pass): the run's commit's
 * alerts on that run, open, acknowledged or suspected, count as raised. */
static void standing_alerts(struct ctx *c, const char *src, json_t *answer)
{
    size_t i, k;
    json_t *r, *alerts = NULL, *key = NULL; /* the last commit's alerts, read once */
    json_array_foreach(json_object_get(answer, "runs"), i, r)
    {
        char path[64];
        json_t *run, *al, *want;
        long long id = (long long)json_integer_value(json_object_get(r, "id"));
        int rc = 0;
        if (id <= 0 || !json_is_string(json_object_get(r, "status")) ||
            strcmp(json_string_value(json_object_get(r, "status")), "existing") != 0)
            continue;
        snprintf(path, sizeof path, "/api/v1/runs/%lld", id);
        if ((run = get_json(c, path, &rc)) == NULL)
            continue; /* said why */
        want = json_pack(
            "[OO]",
            json_object_get(run, "commit") ? json_object_get(run, "commit") : json_null(),
            json_object_get(run, "application") ? json_object_get(run, "application")
                                                : json_null());
        if (alerts == NULL || key == NULL || want == NULL || !json_equal(key, want)) {
            json_decref(alerts);
            json_decref(key);
            key = want;
            want = NULL;
            alerts = get_commit_alerts(
                c, json_string_value(json_object_get(run, "commit")),
                json_string_value(json_object_get(run, "application")), &rc);
        }
        json_decref(want);
        json_array_foreach(json_object_get(alerts, "alerts"), k, al)
        {
            const char *st = json_string_value(json_object_get(al, "state"));
            if (json_integer_value(json_object_get(al, "run")) != id || st == NULL ||
                strcmp(st, "false_positive") == 0 || strcmp(st, "resolved") == 0)
                continue;
            c->alerts++;
            if (!c->o->quiet)
                fprintf(stderr,
                        "prophecy-upload: %s: run %lld was stored before; its alert %lld "
                        "(%s) still stands\n",
                        src, id, (long long)json_integer_value(json_object_get(al, "id")),
                        st);
        }
        json_decref(run);
    }
    json_decref(alerts);
    json_decref(key);
}

/* Counts and shows the alerts a delivered batch raised: the upload answer
 * lists them as "alerts": [...] (SPEC §11); with --fail-on-alert also those
 * still standing on runs stored before (standing_alerts). */
static void note_alerts(struct ctx *c, const char *src)
{
    size_t len = 0, i;
    const char *body = upl_http_body(c->http, &len);
    json_t *j = body ? json_loadb(body, len, 0, NULL) : NULL, *al;

    json_array_foreach(json_object_get(j, "alerts"), i, al)
    {
        json_t *id = json_object_get(al, "id"), *run = json_object_get(al, "run");
        const char *y = json_string_value(json_object_get(al, "y"));
        const char *commit = json_string_value(json_object_get(al, "commit"));
        c->alerts++;
        if (c->o->quiet)
            continue;
        fprintf(stderr, "prophecy-upload: %s: alert", src);
        if (json_is_integer(id))
            fprintf(stderr, " %lld", (long long)json_integer_value(id));
        if (json_string_value(json_object_get(al, "application")))
            fprintf(stderr, " on %s",
                    json_string_value(json_object_get(al, "application")));
        if (json_is_integer(json_object_get(al, "nprocs"))) {
            long long n = (long long)json_integer_value(json_object_get(al, "nprocs"));
            fprintf(stderr, " (%lld proc%s)", n, n == 1 ? "" : "s");
        }
        if (y && json_is_number(json_object_get(al, "value")))
            fprintf(stderr, ": %s %g", y,
                    json_number_value(json_object_get(al, "value")));
        if (json_is_number(json_object_get(al, "lo")) &&
            json_is_number(json_object_get(al, "hi")))
            fprintf(stderr, " outside [%g, %g]",
                    json_number_value(json_object_get(al, "lo")),
                    json_number_value(json_object_get(al, "hi")));
        if (json_is_integer(run))
            fprintf(stderr, ", run %lld", (long long)json_integer_value(run));
        if (commit)
            fprintf(stderr, ", commit %s", commit);
        fputc('\n', stderr);
    }
    if (c->o->fail_on_alert && json_integer_value(json_object_get(j, "existing")) > 0)
        standing_alerts(c, src, j);
    json_decref(j);
}

/* Sends runs[from .. from+n) as one request and files the outcome. */
static void send_runs(struct ctx *c, json_t *runs, size_t from, size_t n, const char *src)
{
    json_t *body = upl_batch_body(runs, from, n);
    struct upl_reply r;
    char *text = NULL;
    size_t len;

    if (body == NULL || (text = json_dumps(body, JSON_COMPACT)) == NULL) {
        fprintf(stderr, "prophecy-upload: %s: out of memory\n", src);
        c->rejected += n;
        goto out;
    }
    len = strlen(text);
    if (len > BATCH_BYTES && n > 1) {
        free(text);
        text = NULL;
        send_runs(c, runs, from, n / 2, src);
        send_runs(c, runs, from + n / 2, n - n / 2, src);
        goto out;
    }
    if (c->o->dry_run) {
        printf("%s\n", text);
        c->delivered += n;
        goto out;
    }
    if (c->down) {
        spool_or_print(c, body, n, "server unreachable");
        goto out;
    }
    upl_http_post(c->http, "/api/v1/runs", text, len, &r);
    free(text);
    text = NULL;
    switch (r.outcome) {
    case UPL_DELIVERED:
        c->delivered += n;
        note_alerts(c, src);
        progress(c, n);
        break;
    case UPL_RETRY:
        note_down(c, &r);
        if (!c->o->quiet && !r.unreachable)
            fprintf(stderr, "prophecy-upload: %s: server answered %ld: %s\n", src,
                    r.status, r.message);
        spool_or_print(c, body, n, r.message);
        break;
    case UPL_REJECTED:
        on_rejected(c, body, runs, from, n, &r, src);
        break;
    }
out:
    free(text);
    json_decref(body);
}

static void deliver(struct ctx *c, json_t *runs, const char *src)
{
    size_t n = json_array_size(runs), i;

    c->total = n;
    c->done = 0;
    for (i = 0; i < n; i += BATCH_RUNS)
        send_runs(c, runs, i, n - i < BATCH_RUNS ? n - i : BATCH_RUNS, src);
}

/* ---- spool flushing ------------------------------------------------------------ */

/* Retries spooled documents: all of them when `force`, else those whose
 * backoff has passed, until `deadline` (0 = none). `rejected` resends
 * <spool>/rejected/ instead. Returns the number of entries left waiting. */
static size_t flush_spool(struct ctx *c, int force, double deadline, int rejected)
{
    struct upl_spool_entry *v = NULL;
    struct err e = {0};
    size_t n = 0, i, left = 0;
    int lk = upl_spool_trylock(c->spool);

    if (lk != 0) {
        if (lk > 0 && !c->o->quiet)
            fprintf(stderr, "prophecy-upload: another prophecy-upload is flushing %s\n",
                    upl_spool_dir(c->spool));
        return 0;
    }
    if (upl_spool_list(c->spool, rejected, &v, &n, &e) != 0) {
        fprintf(stderr, "prophecy-upload: %s\n", e.message);
        return 0;
    }
    for (i = 0; i < n; i++) {
        struct upl_spool_entry *en = &v[i];
        json_t *runs = upl_body_runs(en->body);
        size_t nr = json_array_size(runs);
        const char *name = strrchr(en->path, '/') ? strrchr(en->path, '/') + 1 : en->path;
        struct upl_reply r;
        char *text;

        if (runs == NULL || c->down ||
            (!force && en->next_attempt > (double)time(NULL)) ||
            (deadline > 0 && (double)time(NULL) >= deadline)) {
            json_decref(runs);
            left++;
            continue;
        }
        text = json_dumps(en->body, JSON_COMPACT);
        if (text == NULL) {
            json_decref(runs);
            left++;
            continue;
        }
        upl_http_post(c->http, "/api/v1/runs", text, strlen(text), &r);
        free(text);
        memset(&e, 0, sizeof e);
        if (r.outcome == UPL_DELIVERED) {
            c->delivered += nr;
            note_alerts(c, name);
            if (!c->o->quiet)
                fprintf(stderr, "prophecy-upload: delivered %zu spooled run%s (%s)\n", nr,
                        nr == 1 ? "" : "s", name);
            upl_spool_remove(c->spool, en, &e);
        } else if (r.outcome == UPL_RETRY) {
            note_down(c, &r);
            left++;
            if (rejected) {
                if (upl_spool_put(c->spool, en->body, r.message, NULL, &e) == 0)
                    upl_spool_remove(c->spool, en, &e);
            } else {
                upl_spool_defer(c->spool, en, r.message, &e);
            }
        } else if (rejected) {
            fprintf(stderr, "prophecy-upload: %s: still rejected (%ld %s): %s\n", name,
                    r.status, r.code, r.message);
            c->rejected += nr;
        } else {
            /* Filed again piece by piece (rejected/ or a fresh spool entry)
             * before the entry is removed, so nothing is lost on a crash. */
            on_rejected(c, en->body, runs, 0, nr, &r, name);
            upl_spool_remove(c->spool, en, &e);
        }
        if (e.status)
            fprintf(stderr, "prophecy-upload: %s\n", e.message);
        json_decref(runs);
    }
    upl_spool_entries_free(v, n);
    return left;
}

/* ---- exec ----------------------------------------------------------------------- */

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- traces (uploader/upl_trace.h) ---------------------------------------------- */

/* In the child of exec --trace: LD_PRELOAD gets the recorder (in front of
 * what was preloaded already) and PROPHECY_TRACE_DIR the trace directory. */
static int trace_env(const char *dir, const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    struct buf b;
    int rc;
    buf_init(&b, 65536);
    buf_printf(&b, "%s%s%s", lib, old && *old ? " " : "", old && *old ? old : "");
    rc = buf_failed(&b) || setenv("LD_PRELOAD", buf_str(&b), 1) != 0 ||
                 setenv("PROPHECY_TRACE_DIR", dir, 1) != 0
             ? -1
             : 0;
    buf_free(&b);
    return rc;
}

/* Removes the trace.* files of a temporary trace directory and the directory. */
static void remove_trace_dir(const char *dir)
{
    for (int i = 0; i < UPL_TRACE_MAX_RANKS; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/trace.%d", dir, i);
        if (unlink(path) != 0 && errno == ENOENT)
            break;
    }
    rmdir(dir);
}

/* exec --trace, once the command ran: the run, then its trace. */
static void exec_send_traced(struct ctx *c, json_t *run, json_t *runs, const char *dir)
{
    long long id;
    int t = upl_trace_deliver(c->http, run, 0, dir, c->o->quiet, &id);
    if (t == 1) {
        fprintf(
            stderr,
            "prophecy-upload: the run goes to the spool; its trace stays in %s: once "
            "the run is stored, send it with `prophecy-upload trace %s --run ID` (the "
            "run's client id is %s)\n",
            dir, dir, json_string_value(json_object_get(run, "id")));
        deliver(c, runs, "exec");
        return;
    }
    if (id > 0)
        c->delivered++;
    if (t != 0) {
        c->rejected++;
        rmdir(dir); /* kept for a retry when it holds a trace; empty, it goes */
    } else
        remove_trace_dir(dir);
}

static int check_trace_args(const struct opts *o)
{
    if (o->npos != 1) {
        usage_error("%s", "trace needs one DIR");
        return -1;
    }
    if (o->run_id && (o->application || o->executable || o->system || o->nprocs ||
                      json_object_size(o->inputs))) {
        usage_error("%s", "trace takes --run ID or the run's names, not both");
        return -1;
    }
    if (!o->run_id && (!o->application || !o->executable || !o->system)) {
        usage_error("%s",
                    "trace needs --run ID, or --application, --executable and --system");
        return -1;
    }
    if (o->always || json_object_size(o->metrics)) {
        usage_error("%s", "--always and --metric belong to exec");
        return -1;
    }
    return 0;
}

/* prophecy-upload trace DIR (--run ID | the run's names). */
static int cmd_trace(struct ctx *c, const struct opts *o)
{
    struct upl_trace_info info;
    struct err e = {0};
    struct buf tar;
    json_t *run = NULL;
    long long id;
    char uid[UPL_ID_LEN + 1];
    int t;

    if (!o->run_id) {
        /* The run from the trace: its ranks and its longest rank's time. */
        buf_init(&tar, UPL_TRACE_MAX_BYTES + ((size_t)UPL_TRACE_MAX_RANKS + 2) * 1024);
        t = upl_trace_tar(o->pos[0], NULL, &tar, &info, &e);
        buf_free(&tar);
        if (t != 0) {
            fprintf(stderr, "prophecy-upload: trace: %s\n", e.message);
            return EXIT_REJECTED;
        }
        if (upl_random_id(uid, sizeof uid, &e) != 0) {
            fprintf(stderr, "prophecy-upload: %s\n", e.message);
            return EXIT_USAGE;
        }
        run = json_pack("{s:s, s:s, s:s, s:s, s:I, s:O, s:f}", "id", uid, "application",
                        o->application, "executable", o->executable, "system", o->system,
                        "nprocs", (json_int_t)(o->nprocs ? o->nprocs : info.nranks),
                        "inputs", o->inputs, "runtime", info.span);
        if (run == NULL) {
            fprintf(stderr, "prophecy-upload: names must be valid UTF-8\n");
            return EXIT_USAGE;
        }
    }
    if (o->dry_run) {
        if (run)
            json_dumpf(run, stdout, JSON_INDENT(2));
        printf("\n(trace of %s not sent: --dry-run)\n", o->pos[0]);
        json_decref(run);
        return 0;
    }
    t = upl_trace_deliver(c->http, run, o->run_id, o->pos[0], o->quiet, &id);
    json_decref(run);
    if (t == 0 && !o->quiet)
        printf("%lld\n", id);
    return t == 0 ? 0 : t == 1 ? EXIT_SPOOLED : EXIT_REJECTED;
}

/* Runs argv with PROBE_OUTPUT=probe_path. OUT: *seconds. Returns the exit
 * status (128 + signal when killed, 127 when it could not be started). */
static int run_command(char **argv, const char *probe_path, const char *trace_dir,
                       const char *trace_lib, double *seconds)
{
    struct sigaction ign, old_int, old_quit;
    double t0;
    int status = 0;
    pid_t pid;

    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    /* Like system(): ^C goes to the command; we stay to submit or spool. */
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    fflush(NULL);
    t0 = mono_seconds();
    pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        if (setenv("PROBE_OUTPUT", probe_path, 1) != 0 ||
            (trace_dir && trace_env(trace_dir, trace_lib) != 0))
            _exit(127);
        execvp(argv[0], argv);
        fprintf(stderr, "prophecy-upload: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (pid < 0) {
        fprintf(stderr, "prophecy-upload: fork: %s\n", strerror(errno));
        status = 127;
    } else {
        while (waitpid(pid, &status, 0) < 0) {
            if (errno != EINTR) {
                status = 127 << 8;
                break;
            }
        }
        status = WIFEXITED(status)     ? WEXITSTATUS(status)
                 : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                       : 127;
    }
    *seconds = mono_seconds() - t0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return status;
}

/* Reads the probe's fragment into run (kernels and metrics). An empty file
 * (program not instrumented) adds nothing; a broken one is reported. */
static void add_probe_output(json_t *run, const char *path, int quiet)
{
    struct err e = {0};
    json_error_t jerr;
    json_t *frag, *k, *m;
    char *data = NULL;
    size_t len = 0;

    if (upl_read_file(path, UPL_FILE_MAX, &data, &len, &e) != 0) {
        fprintf(stderr, "prophecy-upload: probe output: %s\n", e.message);
        return;
    }
    if (len == 0) {
        if (!quiet)
            fprintf(stderr,
                    "prophecy-upload: no probe output (program not instrumented "
                    "or it did not exit normally); submitting the total time only\n");
        xfree(data);
        return;
    }
    frag = json_loadb(data, len, 0, &jerr);
    xfree(data);
    if (!json_is_object(frag)) {
        fprintf(stderr, "prophecy-upload: probe output %s is not valid: %s\n", path,
                frag ? "not an object" : jerr.text);
        json_decref(frag);
        return;
    }
    k = json_object_get(frag, "kernels");
    if (json_is_array(k) && json_array_size(k) > 0)
        json_object_set(run, "kernels", k);
    m = json_object_get(frag, "metrics");
    if (json_is_object(m) && json_object_size(m) > 0)
        json_object_set(run, "metrics", m);
    json_decref(frag);
}

/* path = $TMPDIR (else /tmp) + "/" + name + "-XXXXXX", for mkstemp or
 * mkdtemp; the per-user and per-job temporary directory a batch system
 * sets is honoured. 0, or -1 when it does not fit. */
static int temp_template(char *path, size_t size, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(path, size, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

static int cmd_exec(struct ctx *c, const struct opts *o)
{
    char probe_path[1024], trace_dir[1024];
    const char *trace_lib = NULL;
    char id[UPL_ID_LEN + 1], when[32];
    struct err e = {0};
    json_t *run = NULL, *runs = NULL, *metrics;
    double seconds;
    int fd, status, rc;

    if (temp_template(probe_path, sizeof probe_path, "prophecy-probe") != 0 ||
        temp_template(trace_dir, sizeof trace_dir, "prophecy-trace") != 0) {
        fprintf(stderr, "prophecy-upload: TMPDIR is too long\n");
        return EXIT_USAGE;
    }
    fd = mkstemp(probe_path);
    if (fd < 0) {
        fprintf(stderr, "prophecy-upload: cannot create a temporary file: %s\n",
                strerror(errno));
        return EXIT_USAGE;
    }
    close(fd);
    if (upl_random_id(id, sizeof id, &e) != 0) {
        fprintf(stderr, "prophecy-upload: %s\n", e.message);
        unlink(probe_path);
        return EXIT_USAGE;
    }
    upl_iso8601_now(when, sizeof when);
    if (o->trace) {
        trace_lib = upl_trace_library();
        if (trace_lib == NULL || mkdtemp(trace_dir) == NULL) {
            fprintf(stderr, "prophecy-upload: %s\n",
                    trace_lib ? "cannot create a temporary trace directory"
                              : "exec --trace: libprophecy_trace.so not found (set "
                                "PROPHECY_TRACE_LIB to its path)");
            unlink(probe_path);
            return EXIT_USAGE;
        }
    }
    status =
        run_command(o->pos, probe_path, o->trace ? trace_dir : NULL, trace_lib, &seconds);
    if (status != 0 && !o->always) {
        if (o->trace)
            remove_trace_dir(trace_dir);
        if (!o->quiet)
            fprintf(stderr,
                    "prophecy-upload: command exited with status %d; run not submitted "
                    "(--always submits failed runs)\n",
                    status);
        unlink(probe_path);
        return status;
    }
    run = json_pack("{s:s, s:s, s:s, s:s, s:I, s:O, s:f, s:s}", "id", id, "application",
                    o->application, "executable", o->executable, "system", o->system,
                    "nprocs", (json_int_t)o->nprocs, "inputs", o->inputs, "runtime",
                    seconds, "started_at", when);
    if (run == NULL) {
        fprintf(stderr, "prophecy-upload: names must be valid UTF-8\n");
        unlink(probe_path);
        return status ? status : EXIT_USAGE;
    }
    add_probe_output(run, probe_path, o->quiet);
    unlink(probe_path);
    metrics = json_object_get(run, "metrics");
    if (metrics == NULL) {
        metrics = json_object();
        json_object_set_new(run, "metrics", metrics);
    }
    json_object_update(metrics, o->metrics); /* --metric wins over the probe */
    if (status != 0)
        json_object_set_new(metrics, "exit_status", json_integer(status));
    if (json_object_size(metrics) == 0)
        json_object_del(run, "metrics");
    runs = json_array();
    json_array_append(runs, run);
    if (o->trace && !o->dry_run)
        exec_send_traced(c, run, runs, trace_dir);
    else
        deliver(c, runs, "exec");
    if (o->trace && o->dry_run)
        remove_trace_dir(trace_dir);
    json_decref(run);
    json_decref(runs);
    if (status != 0)
        return status;
    rc = c->rejected ? EXIT_REJECTED : c->spooled ? EXIT_SPOOLED : 0;
    if (o->fail_on_alert && c->alerts && rc != EXIT_REJECTED)
        rc = EXIT_ALERT;
    if (!o->quiet && rc == 0 && !o->dry_run)
        fprintf(stderr, "prophecy-upload: run %s submitted (%.3f s)\n", id, seconds);
    return rc;
}

/* ---- files ---------------------------------------------------------------------- */

static void submit_file(struct ctx *c, const char *path)
{
    struct err e = {0};
    json_t *runs;
    char *data = NULL;
    size_t len;

    if (upl_read_file(path, UPL_FILE_MAX, &data, &len, &e) != 0) {
        fprintf(stderr, "prophecy-upload: %s\n", e.message);
        c->bad_inputs++;
        return;
    }
    runs = upl_parse_runs(data, len, c->o->csv, &e);
    xfree(data);
    if (runs == NULL) {
        fprintf(stderr, "prophecy-upload: %s: %s%s%s\n", path, e.message,
                e.field[0] ? " (column/field " : "", e.field[0] ? e.field : "");
        if (e.field[0])
            fprintf(stderr, ")\n");
        c->bad_inputs++;
        return;
    }
    deliver(c, runs, path);
    json_decref(runs);
}

/* ---- report --------------------------------------------------------------------- */

/* Appends "key=escaped(value)" to the query, '&'-separated; *bad is set when
 * out of memory. */
static void query_param(struct buf *q, upl_http *h, const char *key, const char *value,
                        int *bad)
{
    char *esc = upl_http_escape(h, value);
    if (esc == NULL) {
        *bad = 1;
        return;
    }
    buf_printf(q, "%s%s=%s", q->data[q->len - 1] == '?' ? "" : "&", key, esc);
    upl_http_free_str(esc);
}

/* GETs path and parses the answer. Returns NULL (after saying why) unless the
 * server answered 2xx with JSON; *rc gets the exit status for that case. */
static json_t *get_json(struct ctx *c, const char *path, int *rc)
{
    struct upl_reply r;
    json_error_t jerr;
    const char *body;
    size_t len = 0;
    json_t *j;

    upl_http_get(c->http, path, &r);
    if (r.outcome != UPL_DELIVERED) {
        if (r.status)
            fprintf(stderr, "prophecy-upload: GET %s: %ld %s%s%s\n", path, r.status,
                    r.code, r.code[0] ? ": " : "", r.message);
        else
            fprintf(stderr, "prophecy-upload: GET %s: no answer: %s\n", path, r.message);
        *rc = r.outcome == UPL_RETRY ? EXIT_SPOOLED : EXIT_REJECTED;
        return NULL;
    }
    body = upl_http_body(c->http, &len);
    if (body == NULL) {
        fprintf(stderr, "prophecy-upload: GET %s: the answer is over %d MiB\n", path,
                UPL_HTTP_ANSWER_MAX_MIB);
        *rc = EXIT_REJECTED;
        return NULL;
    }
    j = json_loadb(body, len, 0, &jerr);
    if (!json_is_object(j)) {
        fprintf(stderr, "prophecy-upload: GET %s: the answer is not a JSON object%s%s\n",
                path, j ? "" : ": ", j ? "" : jerr.text);
        json_decref(j);
        *rc = EXIT_REJECTED;
        return NULL;
    }
    return j;
}

/* Every alert of commit, page by page (GET /api/v1/alerts?commit=...&before=
 * ...), as one {"alerts": [...]}: the server's filter, not the newest page of
 * all alerts, so other commits' alerts can never hide this one's. NULL (after
 * saying why) with *rc set. */
static json_t *get_commit_alerts(struct ctx *c, const char *commit, const char *app,
                                 int *rc)
{
    json_t *all = json_array(), *page = NULL, *next;
    long long before = 0;
    struct buf q;
    int bad = 0;

    buf_init(&q, 16384);
    for (;;) {
        char num[32];
        buf_reset(&q);
        buf_puts(&q, "/api/v1/alerts?");
        if (commit != NULL)
            query_param(&q, c->http, "commit", commit, &bad);
        if (app != NULL)
            query_param(&q, c->http, "application", app, &bad);
        if (before > 0) {
            snprintf(num, sizeof num, "%lld", before);
            query_param(&q, c->http, "before", num, &bad);
        }
        if (bad || buf_failed(&q) || all == NULL) {
            fprintf(stderr, "prophecy-upload: report: out of memory\n");
            *rc = EXIT_REJECTED;
            goto fail;
        }
        page = get_json(c, buf_str(&q), rc);
        if (page == NULL)
            goto fail;
        next = json_object_get(page, "next");
        if (!json_is_array(json_object_get(page, "alerts")) ||
            (!json_is_null(next) &&
             !(json_is_integer(next) && json_integer_value(next) > 0 &&
               (before == 0 || json_integer_value(next) < before)))) {
            fprintf(stderr,
                    "prophecy-upload: GET %s: the answer is not a page of alerts\n",
                    buf_str(&q));
            *rc = EXIT_REJECTED;
            goto fail;
        }
        if (json_array_extend(all, json_object_get(page, "alerts")) != 0) {
            fprintf(stderr, "prophecy-upload: report: out of memory\n");
            *rc = EXIT_REJECTED;
            goto fail;
        }
        if (json_is_null(next))
            break;
        before = (long long)json_integer_value(next);
        json_decref(page);
        page = NULL;
    }
    json_decref(page);
    buf_free(&q);
    return json_pack("{s:o}", "alerts", all);
fail:
    json_decref(page);
    json_decref(all);
    buf_free(&q);
    return NULL;
}

/* A side spec: kept when it already names its kind, else a branch name. */
static void side_spec(char *out, size_t outsz, const char *kind, const char *v)
{
    if (strncmp(v, "run:", 4) == 0 || strncmp(v, "commit:", 7) == 0 ||
        strncmp(v, "branch:", 7) == 0 || strncmp(v, "tag:", 4) == 0)
        snprintf(out, outsz, "%s", v);
    else
        snprintf(out, outsz, "%s:%s", kind, v);
}

/* Whether commit has runs of application on branch (GET /api/v1/runs). */
static int commit_on_branch(struct ctx *c, const char *application, const char *commit,
                            const char *branch)
{
    struct buf q;
    json_t *runs;
    int bad = 0, rc = 0, on;

    buf_init(&q, 4096);
    buf_puts(&q, "/api/v1/runs?limit=1");
    query_param(&q, c->http, "application", application, &bad);
    query_param(&q, c->http, "commit", commit, &bad);
    query_param(&q, c->http, "branch", branch, &bad);
    runs = bad || buf_failed(&q) ? NULL : get_json(c, buf_str(&q), &rc);
    on = json_array_size(json_object_get(runs, "runs")) > 0;
    json_decref(runs);
    buf_free(&q);
    return on;
}

static int cmd_report(struct ctx *c, const struct opts *o)
{
    enum upl_report_format fmt =
        strcmp(o->format, "json") == 0 ? UPL_REPORT_JSON : UPL_REPORT_MARKDOWN;
    char a[512], b[512], num[64];
    struct upl_report_summary sum;
    json_t *compare = NULL, *alerts = NULL, *v;
    struct buf q, out;
    const char *k;
    int rc = 0, bad = 0;

    buf_init(&q, 16384);
    buf_init(&out, (size_t)64 << 20);
    side_spec(a, sizeof a, "branch", o->against ? o->against : "main");
    side_spec(b, sizeof b, "commit", o->commit);
    buf_puts(&q, "/api/v1/compare?");
    query_param(&q, c->http, "a", a, &bad);
    query_param(&q, c->http, "b", b, &bad);
    if (o->application)
        query_param(&q, c->http, "application", o->application, &bad);
    if (o->executable)
        query_param(&q, c->http, "executable", o->executable, &bad);
    if (o->system)
        query_param(&q, c->http, "system", o->system, &bad);
    if (o->nprocs) {
        snprintf(num, sizeof num, "%ld", o->nprocs);
        query_param(&q, c->http, "nprocs", num, &bad);
    }
    json_object_foreach(o->inputs, k, v)
    {
        char key[300];
        if (json_is_integer(v))
            snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
        else
            snprintf(num, sizeof num, "%.17g", json_number_value(v));
        snprintf(key, sizeof key, "input.%s", k);
        query_param(&q, c->http, key, num, &bad);
    }
    if (bad || buf_failed(&q)) {
        fprintf(stderr, "prophecy-upload: report: query too long\n");
        rc = EXIT_USAGE;
        goto out;
    }
    compare = get_json(c, buf_str(&q), &rc);
    if (compare == NULL)
        goto out;
    alerts = get_commit_alerts(c, b + 7, o->application, &rc);
    if (alerts == NULL)
        goto out;
    upl_report_select(alerts, o->executable, o->system, o->nprocs, o->inputs);
    if (upl_report_render(compare, alerts, b + 7, a, fmt, &out, &sum) != 0) {
        fprintf(stderr, "prophecy-upload: report: the compare answer has no \"rows\"\n");
        rc = EXIT_REJECTED;
        goto out;
    }
    if (buf_failed(&out)) {
        fprintf(stderr, "prophecy-upload: report: out of memory\n");
        rc = EXIT_REJECTED;
        goto out;
    }
    if (sum.baseline == 0 && sum.measured > 0 && strncmp(a, "branch:", 7) == 0 &&
        commit_on_branch(c, o->application, b + 7, a + 7)) {
        /* the first measured commit of the branch: the branch side leaves
         * out the commit's own runs (GET /api/v1/compare), so nothing is
         * left to compare with; every value is new, and a misspelt
         * --against still has no runs at all */
        fprintf(stderr,
                "prophecy-upload: report: %s has no runs of %s other than commit %s's: "
                "every value is new\n",
                a, o->application, b + 7);
    } else if (sum.baseline == 0) {
        /* a misspelt branch must not pass as "nothing to compare"; with
         * --executable, --system, --nprocs or --input the selection may be
         * what holds no runs, and the message says which it is */
        int narrowed =
            o->executable || o->system || o->nprocs || json_object_size(o->inputs);
        if (narrowed && json_array_size(json_object_get(compare, "rows")) == 0)
            fprintf(stderr,
                    "prophecy-upload: report: no run of %s matches --executable, "
                    "--system, --nprocs and --input as given: check them\n",
                    o->application);
        else
            fprintf(stderr,
                    "prophecy-upload: report: the baseline %s has no runs of %s%s: check "
                    "--against%s\n",
                    a, o->application, narrowed ? " in the selection" : "",
                    narrowed ? " and the selection" : "");
        rc = EXIT_REJECTED;
        goto out;
    }
    fwrite(buf_str(&out), 1, out.len, stdout);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "prophecy-upload: report: cannot write: %s\n", strerror(errno));
        rc = EXIT_REJECTED;
        goto out;
    }
    /* SPEC §17: exit 0 only for a commit that has runs and no alert; a
     * FAIL is 3 whether or not --fail-on-alert was given (for report the
     * flag changes nothing) */
    rc = sum.alerts ? EXIT_ALERT : sum.measured == 0 ? EXIT_NOT_MEASURED : 0;
out:
    json_decref(compare);
    json_decref(alerts);
    buf_free(&q);
    buf_free(&out);
    return rc;
}

/* ---- arguments ------------------------------------------------------------------ */

static int parse_number_arg(const char *name, const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno == ERANGE || !isfinite(*out)) {
        fprintf(stderr, "prophecy-upload: %s: not a finite number: %s\n", name, s);
        return -1;
    }
    return 0;
}

/* NAME=VALUE into obj (integers stay integers). */
static int add_pair(json_t *obj, const char *opt, const char *arg)
{
    const char *eq = strchr(arg, '=');
    char name[257];
    double v;
    json_t *num;

    if (eq == NULL || eq == arg || (size_t)(eq - arg) >= sizeof name) {
        usage_error("%s expects NAME=VALUE with a non-empty name of at most 256 bytes",
                    opt);
        return -1;
    }
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    if (parse_number_arg(opt, eq + 1, &v) != 0)
        return -1;
    num = (v == floor(v) && fabs(v) < 9007199254740992.0) ? json_integer((json_int_t)v)
                                                          : json_real(v);
    if (json_object_set_new(obj, name, num) != 0) {
        usage_error("%s: name is not valid UTF-8", opt);
        return -1;
    }
    return 0;
}

static int takes_value(const char *opt)
{
    static const char *const with_value[] = {
        "--server",     "--token",  "--spool",   "--timeout", "--application",
        "--executable", "--system", "--nprocs",  "--input",   "--metric",
        "--run",        "--commit", "--against", "--format"};
    size_t i;
    for (i = 0; i < sizeof with_value / sizeof with_value[0]; i++)
        if (strcmp(opt, with_value[i]) == 0)
            return 1;
    return 0;
}

/* Parses options from argv[i..]; non-options are positional. A "--" makes
 * everything after it positional. Returns 0, 1 for --help, -1 usage error. */
static int parse_args(int argc, char **argv, int i, struct opts *o)
{
    for (; i < argc; i++) {
        const char *a = argv[i], *val = NULL, *eq;
        char name[32];
        size_t nl;

        if (!o->dashdash && strcmp(a, "-h") == 0)
            return 1;
        if (o->dashdash || a[0] != '-' || a[1] != '-') {
            if (!o->dashdash && a[0] == '-' && a[1] != '\0') {
                usage_error("unknown option %s", a);
                return -1;
            }
            o->pos[o->npos++] = argv[i];
            continue;
        }
        if (a[2] == '\0') {
            o->dashdash = 1;
            continue;
        }
        eq = strchr(a, '=');
        nl = eq ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name) {
            usage_error("unknown option %s", a);
            return -1;
        }
        memcpy(name, a, nl);
        name[nl] = '\0';
#define FLAG(s, field)                                                                   \
    if (strcmp(name, s) == 0) {                                                          \
        if (eq) {                                                                        \
            usage_error("%s takes no value", s);                                         \
            return -1;                                                                   \
        }                                                                                \
        o->field = 1;                                                                    \
        continue;                                                                        \
    }
        FLAG("--csv", csv)
        FLAG("--quiet", quiet)
        FLAG("--dry-run", dry_run)
        FLAG("--no-flush", no_flush)
        FLAG("--always", always)
        FLAG("--rejected", rejected)
        FLAG("--trace", trace)
        FLAG("--fail-on-alert", fail_on_alert)
#undef FLAG
        if (strcmp(name, "--help") == 0)
            return 1;
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else {
            usage_error("%s needs a value", name);
            return -1;
        }
        if (strcmp(name, "--server") == 0)
            o->server = val;
        else if (strcmp(name, "--token") == 0)
            o->token = val;
        else if (strcmp(name, "--spool") == 0)
            o->spool = val;
        else if (strcmp(name, "--application") == 0)
            o->application = val;
        else if (strcmp(name, "--executable") == 0)
            o->executable = val;
        else if (strcmp(name, "--system") == 0)
            o->system = val;
        else if (strcmp(name, "--run") == 0) {
            char *end;
            errno = 0;
            o->run_id = strtoll(val, &end, 10);
            if (*val == '\0' || *end != '\0' || errno || o->run_id < 1) {
                usage_error("%s expects a run id >= 1", name);
                return -1;
            }
        } else if (strcmp(name, "--commit") == 0)
            o->commit = val;
        else if (strcmp(name, "--against") == 0)
            o->against = val;
        else if (strcmp(name, "--format") == 0)
            o->format = val;
        else if (strcmp(name, "--nprocs") == 0 || strcmp(name, "--timeout") == 0) {
            char *end;
            long v;
            errno = 0;
            v = strtol(val, &end, 10);
            if (*val == '\0' || *end != '\0' || errno || v < 1 || v > 100000000) {
                usage_error("%s expects a whole number >= 1", name);
                return -1;
            }
            if (name[2] == 'n')
                o->nprocs = v;
            else
                o->timeout = v;
        } else if (strcmp(name, "--input") == 0) {
            if (add_pair(o->inputs, "--input", val) != 0)
                return -1;
        } else if (strcmp(name, "--metric") == 0) {
            if (add_pair(o->metrics, "--metric", val) != 0)
                return -1;
        } else {
            usage_error("unknown option %s", name);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    struct ctx c;
    struct err e = {0};
    char spool_dir[4096];
    enum { SUBMIT, EXEC, FLUSH, TRACE, REPORT } cmd = SUBMIT;
    int rc = EXIT_USAGE, pr, first = 1;
    size_t left = 0;

    xalloc_json(); /* before any JSON value exists */
    memset(&o, 0, sizeof o);
    memset(&c, 0, sizeof c);
    c.o = &o;
    o.timeout = 30;
    o.inputs = json_object();
    o.metrics = json_object();
    o.pos = xcalloc((size_t)argc + 1, sizeof *o.pos);
    if (o.inputs == NULL || o.metrics == NULL || o.pos == NULL) {
        fprintf(stderr, "prophecy-upload: out of memory\n");
        goto out;
    }
    /* The command word is the first argument that is neither an option nor
     * an option's value (so a file named "exec" needs "./exec"). */
    while (first < argc && strncmp(argv[first], "--", 2) == 0 && argv[first][2] != '\0')
        first += (strchr(argv[first], '=') == NULL && takes_value(argv[first])) ? 2 : 1;
    if (first < argc && strcmp(argv[first], "exec") == 0)
        cmd = EXEC;
    else if (first < argc && strcmp(argv[first], "flush") == 0)
        cmd = FLUSH;
    else if (first < argc && strcmp(argv[first], "trace") == 0)
        cmd = TRACE;
    else if (first < argc && strcmp(argv[first], "report") == 0)
        cmd = REPORT;
    if (cmd != SUBMIT) {
        /* Remove the command word so the option parser does not see it. */
        memmove(&argv[first], &argv[first + 1],
                (size_t)(argc - first - 1) * sizeof *argv);
        argc--;
    }
    pr = parse_args(argc, argv, 1, &o);
    if (pr == 1) {
        fputs(usage_text, stdout);
        rc = 0;
        goto out;
    }
    if (pr < 0)
        goto out;
    if (o.server == NULL)
        o.server = getenv("PROPHECY_URL");
    if (o.server == NULL || *o.server == '\0')
        o.server = "http://127.0.0.1:8080";
    if (o.token == NULL)
        o.token = getenv("PROPHECY_TOKEN");
    if (o.spool == NULL) {
        if (upl_spool_default_dir(spool_dir, sizeof spool_dir) != 0) {
            usage_error("%s", "spool directory name too long");
            goto out;
        }
        o.spool = spool_dir;
    }
    if (cmd == EXEC) {
        if (!o.dashdash || o.npos == 0) {
            usage_error("%s", "exec needs -- COMMAND [ARGS...]");
            goto out;
        }
        if (!o.application || !o.executable || !o.system || o.nprocs < 1) {
            usage_error("%s",
                        "exec needs --application, --executable, --system and --nprocs");
            goto out;
        }
    } else if (cmd == TRACE) {
        if (check_trace_args(&o) != 0)
            goto out;
    } else if (cmd == REPORT) {
        if (o.commit == NULL || *o.commit == '\0' || strchr(o.commit, ':')) {
            usage_error("%s", "report needs --commit C (a commit id, no kind prefix)");
            goto out;
        }
        if (o.application == NULL || *o.application == '\0') {
            usage_error("%s", "report needs --application A");
            goto out;
        }
        if (o.format == NULL)
            o.format = "markdown";
        if (strcmp(o.format, "markdown") != 0 && strcmp(o.format, "json") != 0) {
            usage_error("--format is markdown or json, not %s", o.format);
            goto out;
        }
        if (o.npos > 0 || o.always || json_object_size(o.metrics) || o.csv || o.dry_run) {
            usage_error("%s", "report takes only --commit, --against, --format, "
                              "--fail-on-alert and the configuration filters");
            goto out;
        }
    } else if (o.always || o.application || o.executable || o.system || o.nprocs ||
               json_object_size(o.inputs) || json_object_size(o.metrics)) {
        usage_error("%s", "--application/--executable/--system/--nprocs/--input/--metric/"
                          "--always belong to exec");
        goto out;
    }
    if (cmd == SUBMIT && o.npos == 0) {
        usage_error("%s", "no FILE given");
        goto out;
    }
    if (cmd == FLUSH && o.npos > 0) {
        usage_error("flush takes no files (got %s)", o.pos[0]);
        goto out;
    }
    if ((cmd != EXEC && o.trace) || (cmd != TRACE && o.run_id)) {
        usage_error("%s", "--trace belongs to exec, --run to trace");
        goto out;
    }
    if (cmd != FLUSH && o.rejected) {
        usage_error("%s", "--rejected belongs to flush");
        goto out;
    }
    if (cmd != REPORT && (o.commit || o.against || o.format)) {
        usage_error("%s", "--commit/--against/--format belong to report");
        goto out;
    }
    if (cmd == REPORT) {
        /* Reading needs no token and no spool: a fork's CI job can report too. */
        if (upl_http_global_init() != 0) {
            fprintf(stderr, "prophecy-upload: cannot initialise libcurl\n");
            goto out;
        }
        c.http = upl_http_new(o.server, o.token, o.timeout, &e);
        if (c.http == NULL) {
            fprintf(stderr, "prophecy-upload: %s\n", e.message);
            goto out;
        }
        rc = cmd_report(&c, &o);
        goto out;
    }
    if (!o.dry_run && (o.token == NULL || *o.token == '\0')) {
        usage_error("%s", "no token: pass --token T or set PROPHECY_TOKEN "
                          "(create one with `prophecyd token create NAME`)");
        goto out;
    }
    if (upl_http_global_init() != 0) {
        fprintf(stderr, "prophecy-upload: cannot initialise libcurl\n");
        goto out;
    }
    c.spool = upl_spool_open(o.spool, &e);
    if (c.spool == NULL) {
        fprintf(stderr, "prophecy-upload: %s\n", e.message);
        goto out;
    }
    c.http = upl_http_new(o.server, o.token, o.timeout, &e);
    if (c.http == NULL) {
        fprintf(stderr, "prophecy-upload: %s\n", e.message);
        goto out;
    }
    if (cmd == FLUSH) {
        left = flush_spool(&c, 1, 0, o.rejected);
        rc = c.rejected ? EXIT_REJECTED : left ? EXIT_SPOOLED : 0;
        if (!o.quiet)
            fprintf(stderr, "prophecy-upload: %zu run%s delivered, %zu entr%s still %s\n",
                    c.delivered, c.delivered == 1 ? "" : "s", left,
                    left == 1 ? "y" : "ies",
                    o.rejected ? "rejected or spooled" : "spooled");
        goto out;
    }
    if (!o.no_flush && !o.dry_run) {
        /* Older results first, within a bounded time and with short timeouts. */
        upl_http_set_timeout(c.http, o.timeout < 5 ? o.timeout : 5);
        flush_spool(&c, 0, (double)time(NULL) + AUTO_FLUSH_SECONDS, 0);
        upl_http_set_timeout(c.http, o.timeout);
        c.delivered = 0;
    }
    if (cmd == EXEC) {
        rc = cmd_exec(&c, &o);
        goto out;
    }
    if (cmd == TRACE) {
        rc = cmd_trace(&c, &o);
        goto out;
    }
    for (pr = 0; pr < o.npos; pr++)
        submit_file(&c, o.pos[pr]);
    rc = (c.rejected || c.bad_inputs) ? EXIT_REJECTED : c.spooled ? EXIT_SPOOLED : 0;
    if (o.fail_on_alert && c.alerts && rc != EXIT_REJECTED)
        rc = EXIT_ALERT;
    if (!o.quiet && !o.dry_run)
        fprintf(
            stderr,
            "prophecy-upload: %zu delivered, %zu spooled, %zu rejected, %zu alert%s\n",
            c.delivered, c.spooled, c.rejected, c.alerts, c.alerts == 1 ? "" : "s");
out:
    upl_http_free(c.http);
    upl_spool_close(c.spool);
    json_decref(o.inputs);
    json_decref(o.metrics);
    xfree(o.pos);
    return rc;
}
