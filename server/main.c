/* prophecyd: the Prophecy server and its administrative commands.
 *
 *   prophecyd serve [--db FILE] [--listen HOST:PORT] [--threads N] [--demo] ...
 *   prophecyd token create|list|revoke NAME [--db FILE]
 *   prophecyd import [--format NAME] [--application A] [--executable E] [--system S]
 *       [--nprocs P] [--commit C] [--branch B] [--input N=X]... PATH... [--db FILE]
 *   prophecyd export [--db FILE] [--format csv|json]
 *   prophecyd backup DEST [--db FILE]
 *   prophecyd check [--db FILE]
 *   prophecyd copy --from SRC --to DST
 *
 * This file parses the command line and runs the administrative commands;
 * serve lives in server/serve.c. FILE may also be a PostgreSQL URI
 * (postgresql://user@host/dbname). On an SQLite file serve takes an exclusive
 * lock named after the file's identity so that a second server on the same
 * database refuses with a clear message instead of competing for it; several
 * servers may share one PostgreSQL database. The other commands work beside a
 * running server (SQLite WAL and busy timeout, or PostgreSQL's concurrency). */
#include "common/sha256.h"
#include "common/xalloc.h"
#include "common/xalloc_json.h"
#include "core/admin.h"
#include "core/demo.h"
#include "db/catalog.h"
#include "db/copy.h"
#include "db/runs.h"
#include "db/writer.h"
#include "server/dash.h"
#include "server/demo.h"
#include "core/watch.h"
#include "db/history.h"
#include "core/export.h"
#include "core/import.h"
#include "core/ingest.h"
#include "server/http.h"
#include "server/serve.h"
#include "server/trace_draw.h"
#include "formats/rundoc.h"

#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
    "usage: prophecyd COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  serve [--db FILE] [--listen HOST:PORT] [--threads N] [--demo]\n"
    "        [--max-body BYTES] [--sync full|normal] [--protect-reads] [--quiet]\n"
    "      Run the HTTP server (default --db ./prophecy.db --listen 127.0.0.1:8080,\n"
    "      --threads = number of cores). --demo loads the example data set into an\n"
    "      empty database. --sync full (default) fsyncs every commit; normal may lose\n"
    "      the last commits on power loss (never on a process crash).\n"
    "      --protect-reads: reads need a token too (/api/v1/health stays open).\n"
    "      Budgets: --max-conns N (4096) connections, --max-conns-per-client N (256)\n"
    "      from one address (full: the longest idle one goes), --idle-timeout S (10),\n"
    "      --request-timeout S (30), --max-buffered BYTES (64 MiB) of bodies (past it:\n"
    "      503), --stop-grace S (10) for requests in flight at SIGTERM (uploads\n"
    "      waiting for the writer always finish), --workers N (cores) threads for fits,\n"
    "      plots and predictions with --queue N (32) waiting (past it: 503).\n"
    "  token create NAME [--db FILE]   print a new write token once (only its hash is "
    "kept)\n"
    "  token list [--db FILE]          list tokens\n"
    "  token revoke NAME [--db FILE]   revoke a token\n"
    "  import [--format NAME] [--application A] [--executable E] [--system S]\n"
    "         [--nprocs P] [--commit C] [--branch B] [--input N=X]... PATH... [--db F]\n"
    "      Store runs (or system benchmarks) from other tools' files, all or nothing;\n"
    "      importing a file twice stores nothing new. --commit and --branch go to\n"
    "      the runs whose file names none (a file imported for two commits is\n"
    "      stored twice), --input N=1000 to every run (--input N: each file's N).\n"
    "      --format auto (default) recognises it; PATH may be a directory (tau, otf2).\n"
    "      Formats: docs/import.md, or 'prophecyd import --format list'.\n"
    "  export [--db FILE] [--format csv|json]   write all runs to standard output\n"
    "  backup DEST [--db FILE]         consistent online copy of the database\n"
    "  check [--db FILE]               check the database for damage (exit 0: sound)\n"
    "  demo remove [--db FILE]         remove the example data set and nothing else\n"
    "  copy --from SRC --to DST        copy a whole database into a new, empty one\n"
    "      (each an SQLite file or a postgresql:// URI; docs/operations.md)\n"
    "  --help                          this text\n";

struct opts {
    struct config cfg;
    char host[64]; /* storage for cfg.listen_host from --listen */
    const char *format;
    const char *from, *to; /* copy */
    struct fmt_options
        names; /* import: --application, --executable, --system, --nprocs */
    const char *commit, *branch;      /* import: --commit, --branch */
    const char *inputs[LIMIT_INPUTS]; /* import: --input, each "N=1000" or "N=1,p=4" */
    int ninputs;
    const char *args[256];
    int nargs;
    int help; /* --help after the command */
};

static int parse_listen(const char *s, struct opts *o)
{
    struct config *cfg = &o->cfg;
    const char *colon = strrchr(s, ':');
    char *host = o->host;
    char *end;
    long port;
    if (colon == NULL || (size_t)(colon - s) >= sizeof o->host)
        return -1;
    memcpy(host, s, (size_t)(colon - s));
    host[colon - s] = '\0';
    errno = 0;
    port = strtol(colon + 1, &end, 10);
    if (*end != '\0' || errno || port < 0 || port > 65535)
        return -1;
    cfg->listen_host = strcmp(host, "localhost") == 0 ? "127.0.0.1" : host;
    cfg->port = (int)port;
    return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    *out = strtol(s, &end, 10);
    return (*end != '\0' || errno || *out < lo || *out > hi) ? -1 : 0;
}

/* Where an option that takes its value as given is kept, or NULL. */
static const char **string_opt(struct opts *o, const char *a)
{
    static const struct {
        const char *name;
        size_t at;
    } t[] = {{"--db", offsetof(struct opts, cfg.db_path)},
             {"--from", offsetof(struct opts, from)},
             {"--to", offsetof(struct opts, to)},
             {"--format", offsetof(struct opts, format)},
             {"--application", offsetof(struct opts, names.application)},
             {"--executable", offsetof(struct opts, names.executable)},
             {"--system", offsetof(struct opts, names.system)},
             {"--commit", offsetof(struct opts, commit)},
             {"--branch", offsetof(struct opts, branch)}};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strcmp(a, t[k].name) == 0)
            return (const char **)(void *)((char *)o + t[k].at);
    return NULL;
}

/* A numeric option a with its value next: 1 when kept, -1 (said) when out of
 * range, 0 when a is not one. */
static int number_opt(struct opts *o, const char *a, const char *next)
{
    static const struct {
        const char *name;
        long lo, hi;
        size_t at;
        char kind; /* the field's type: i int, z size_t, L long long */
        const char *unit;
    } t[] = {
        {"--threads", 1, 256, offsetof(struct opts, cfg.threads), 'i', ""},
        {"--max-body", 1024, 1L << 30, offsetof(struct opts, cfg.max_body), 'z',
         " bytes"},
        {"--max-conns", 1, 100000, offsetof(struct opts, cfg.max_conns), 'i', ""},
        {"--max-conns-per-client", 1, 100000,
         offsetof(struct opts, cfg.max_conns_per_client), 'i', ""},
        {"--max-buffered", 1024, 1L << 40, offsetof(struct opts, cfg.max_buffered), 'z',
         " bytes"},
        {"--stop-grace", 0, 3600, offsetof(struct opts, cfg.stop_grace), 'i', " seconds"},
        {"--request-timeout", 1, 3600, offsetof(struct opts, cfg.request_timeout), 'i',
         " seconds"},
        {"--idle-timeout", 1, 3600, offsetof(struct opts, cfg.idle_timeout), 'i',
         " seconds"},
        {"--workers", 1, 256, offsetof(struct opts, cfg.workers), 'i', ""},
        {"--queue", 1, 100000, offsetof(struct opts, cfg.queue), 'i', ""},
        {"--nprocs", 1, 100000000, offsetof(struct opts, names.nprocs), 'L', ""}};
    long v;
    for (size_t k = 0; next && k < sizeof t / sizeof t[0]; k++) {
        char *at = (char *)o + t[k].at;
        if (strcmp(a, t[k].name) != 0)
            continue;
        if (parse_long(next, t[k].lo, t[k].hi, &v) != 0) {
            fprintf(stderr, "prophecyd: %s wants %ld..%ld%s\n", a, t[k].lo, t[k].hi,
                    t[k].unit);
            return -1;
        }
        if (t[k].kind == 'i')
            *(int *)(void *)at = (int)v;
        else if (t[k].kind == 'z')
            *(size_t *)(void *)at = (size_t)v;
        else
            *(long long *)(void *)at = v;
        return 1;
    }
    return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    int i, rc;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        const char **value = string_opt(o, a);
        if (value != NULL && next) {
            *value = next;
            i++;
        } else if ((rc = number_opt(o, a, next)) != 0) {
            if (rc < 0)
                return -1;
            i++;
        } else if (strcmp(a, "--listen") == 0 && next) {
            if (parse_listen(next, o) != 0) {
                fprintf(stderr, "prophecyd: --listen wants HOST:PORT, got %s\n", next);
                return -1;
            }
            i++;
        } else if (strcmp(a, "--sync") == 0 && next) {
            if (strcmp(next, "full") == 0)
                o->cfg.sync = DB_SYNC_FULL;
            else if (strcmp(next, "normal") == 0)
                o->cfg.sync = DB_SYNC_NORMAL;
            else {
                fprintf(stderr, "prophecyd: --sync wants full or normal\n");
                return -1;
            }
            i++;
        } else if (strcmp(a, "--input") == 0 && next) {
            if (o->ninputs < LIMIT_INPUTS)
                o->inputs[o->ninputs] = next;
            o->ninputs++, i++; /* past LIMIT_INPUTS: refused by cmd_import */
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = 1;
        } else if (strcmp(a, "--demo") == 0) {
            o->cfg.demo = 1;
        } else if (strcmp(a, "--protect-reads") == 0) {
            o->cfg.protect_reads = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            o->cfg.quiet = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "prophecyd: unknown option %s\n\n%s", a, usage);
            return -1;
        } else if (o->nargs < (int)(sizeof o->args / sizeof o->args[0])) {
            o->args[o->nargs++] = a;
        } else {
            fprintf(stderr, "prophecyd: too many arguments\n");
            return -1;
        }
    }
    return 0;
}

static int open_db(struct opts *o, db **d, int may_create)
{
    struct err e = {0};
    int rc = admin_open(o->cfg.db_path, may_create, 0, d, &e);
    if (rc == 1)
        fprintf(stderr,
                "prophecyd: no database at %s (%s); 'prophecyd serve --db %s' creates "
                "one\n",
                o->cfg.db_path, e.message, o->cfg.db_path);
    else if (rc != 0)
        fprintf(stderr, "prophecyd: %s\n", e.message);
    return rc == 0 ? 0 : -1;
}

static int cmd_token(struct opts *o)
{
    struct err e = {0};
    db *d = NULL;
    int rc = 1;
    if (o->nargs < 1 || (strcmp(o->args[0], "list") != 0 && o->nargs < 2)) {
        fprintf(stderr,
                "usage: prophecyd token create|revoke NAME | token list [--db FILE]\n");
        return 64;
    }
    if (open_db(o, &d, 0) != 0)
        return 1;
    if (strcmp(o->args[0], "create") == 0) {
        uint8_t raw[24], hash[SHA256_LEN];
        char token[3 + 2 * sizeof raw + 1];
        size_t i;
        if (rundoc_check_name(o->args[1], strlen(o->args[1]), "NAME", &e) != 0 ||
            random_bytes(raw, sizeof raw) != 0) {
            fprintf(stderr, "prophecyd: %s\n",
                    e.message[0] ? e.message : "no randomness");
            goto out;
        }
        memcpy(token, "pt_", 3);
        for (i = 0; i < sizeof raw; i++)
            snprintf(token + 3 + 2 * i, 3, "%02x", raw[i]);
        sha256(token, strlen(token), hash);
        if (db_token_create(d, o->args[1], hash, &e) != 0) {
            fprintf(stderr, "prophecyd: %s\n", e.message);
            goto out;
        }
        printf("%s\n", token);
        rc = 0;
    } else if (strcmp(o->args[0], "revoke") == 0) {
        if (db_token_revoke(d, o->args[1], &e) != 0) {
            fprintf(stderr, "prophecyd: %s\n", e.message);
            goto out;
        }
        rc = 0;
    } else if (strcmp(o->args[0], "list") == 0) {
        json_t *list = db_tokens_list(d, &e), *t;
        size_t i;
        if (list == NULL) {
            fprintf(stderr, "prophecyd: %s\n", e.message);
            goto out;
        }
        json_array_foreach(list, i, t)
        {
            json_t *rev = json_object_get(t, "revoked_at");
            printf("%s\tcreated %s\t%s%s\n",
                   json_string_value(json_object_get(t, "name")),
                   json_string_value(json_object_get(t, "created_at")),
                   json_is_string(rev) ? "revoked " : "active",
                   json_is_string(rev) ? json_string_value(rev) : "");
        }
        json_decref(list);
        rc = 0;
    } else {
        fprintf(stderr, "prophecyd: unknown token command %s\n", o->args[0]);
        rc = 64;
    }
out:
    db_close(d);
    return rc;
}

/* `prophecyd import`: options and paths here; the feature is core/import. */
static int cmd_import(struct opts *o)
{
    struct err e = {0};
    struct import_files files;
    struct import im;
    db *d = NULL;
    int rc = 1;

    if (o->format && strcmp(o->format, "list") == 0) {
        size_t n;
        const struct fmt_format *t = fmt_table(&n);
        for (size_t i = 0; i < n; i++)
            printf("%-17s %s\n", t[i].name, t[i].summary);
        return 0;
    }
    if (o->nargs < 1) {
        fprintf(stderr, "usage: prophecyd import [options] PATH... (prophecyd --help)\n");
        return 64;
    }
    if (import_load_paths(o->args, (size_t)o->nargs, &files, &e) != 0 ||
        import_check_paths(&files, o->args, o->format, &e) != 0) {
        import_files_free(&files);
        fprintf(stderr, "prophecyd: %s\nprophecyd: nothing was imported\n", e.message);
        return 1;
    }
    import_init(&im, o->format, files.files, files.n, &o->names, "import");
    import_set_source(&im, files.source); /* TAU's, HPCToolkit's default application */
    im.commit = o->commit;
    im.branch = o->branch;
    im.trace_draw = trace_draw; /* OTF2: the run's trace too */
    if (o->ninputs > LIMIT_INPUTS)
        err_invalid(&e, "inputs", "more than %d inputs", LIMIT_INPUTS);
    for (int k = 0; k < o->ninputs && k < LIMIT_INPUTS && e.message[0] == '\0'; k++)
        import_add_inputs(&im, o->inputs[k], &e);
    if (e.message[0] == '\0' && import_check(&im, &e) == 0 && open_db(o, &d, 1) == 0 &&
        import_commit(d, &im, &e) == 0) {
        const char *from = o->nargs == 1 ? o->args[0] : "the files";
        size_t n = im.created, nb = im.benchmarks_created;
        if (im.runs > 0 || im.benchmarks == 0)
            printf("imported %zu run%s (%zu already stored) from %s (%s)\n", n,
                   n == 1 ? "" : "s", im.runs - n, from, im.format_used);
        if (im.benchmarks > 0)
            printf("imported %zu system benchmark%s of %s (%zu already stored) from %s "
                   "(%s)\n",
                   nb, nb == 1 ? "" : "s", im.system, im.benchmarks - nb, from,
                   im.format_used);
        for (size_t i = 0; i < im.nnotes; i++)
            printf("note: %s\n", im.notes[i]);
        for (size_t i = 0; i < im.nalerts; i++) /* the watches' verdicts on the runs */
            printf("%s %lld%s", i ? "," : "alerts raised:", im.alerts[i],
                   i + 1 < im.nalerts ? "" : " (the /alerts page, GET /api/v1/alerts)\n");
        rc = 0;
    } else if (d != NULL || e.message[0]) {
        int say_field = e.field[0] && strstr(e.message, e.field) == NULL;
        fprintf(stderr, "prophecyd: %s%s%s%s\n", e.message[0] ? e.message : "failed",
                say_field ? " (field " : "", say_field ? e.field : "",
                say_field ? ")" : "");
        fprintf(stderr, "prophecyd: nothing was imported\n");
    }
    db_close(d);
    import_free(&im);
    import_files_free(&files);
    return rc;
}

static int cmd_export(struct opts *o)
{
    struct err e = {0};
    struct exporter *x;
    struct buf out;
    db *d = NULL;
    int more = 1;

    if (o->format && strcmp(o->format, "json") != 0 && strcmp(o->format, "csv") != 0) {
        fprintf(stderr, "prophecyd: --format wants csv or json\n");
        return 64;
    }
    if (open_db(o, &d, 0) != 0)
        return 1;
    x = export_new(o->format && strcmp(o->format, "csv") == 0);
    buf_init(&out, 64u << 20);
    while (x != NULL && more > 0) {
        buf_reset(&out);
        more = export_page(x, d, &out, &e);
        if (more >= 0)
            fwrite(out.data ? out.data : "", 1, out.len, stdout);
    }
    buf_free(&out);
    export_free(x);
    db_close(d);
    if (x == NULL || more < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "prophecyd: export failed%s%s\n", e.message[0] ? ": " : "",
                e.message);
        return 1;
    }
    return 0;
}

/* `prophecyd check`: the store's integrity check in plain words; exit 0 when
 * sound, 1 when damaged or when the file cannot be checked (docs/operations.md). */
/* prophecyd demo remove: the demo applications and systems with everything
 * under them, in one transaction. */
static int cmd_demo(struct opts *o)
{
    struct err e = {0};
    db *d = NULL;
    int n = -1;

    if (o->nargs != 1 || strcmp(o->args[0], "remove") != 0) {
        fprintf(stderr, "usage: prophecyd demo remove [--db FILE]\n");
        return 64;
    }
    if (admin_open(o->cfg.db_path, 1, 0, &d, &e) == 0)
        n = demo_remove(d, &e);
    db_close(d);
    if (n < 0) {
        fprintf(stderr, "prophecyd: demo remove: %s\n", e.message);
        return 1;
    }
    printf("removed %d demo application%s\n", n, n == 1 ? "" : "s");
    return 0;
}

static int cmd_check(struct opts *o)
{
    struct err e = {0};
    char *problems = NULL;
    const char *covered = NULL;
    db *d = NULL;
    int sound;
    char shown[1024];
    const char *name = db_display_name(o->cfg.db_path, shown, sizeof shown);

    sound = admin_open(o->cfg.db_path, 0, 1, &d, &e);
    if (sound == 1) {
        fprintf(stderr, "prophecyd: cannot check %s: %s\n", name, e.message);
        return 1;
    }
    if (sound != 0) {
        printf("%s is damaged or not a Prophecy database: %s\n", name, e.message);
        return 1;
    }
    sound = admin_check(d, o->cfg.db_path, &problems, &covered, &e);
    db_close(d);
    if (sound < 0) {
        fprintf(stderr, "prophecyd: cannot check %s: %s\n", name, e.message);
        return 1;
    }
    if (sound) {
        printf("%s is sound: %s\n", name, covered);
        return 0;
    }
    printf(
        "%s is DAMAGED; restore it from a backup (prophecyd backup). Problems found:\n%s",
        name, problems);
    xfree(problems);
    return 1;
}

static int cmd_backup(struct opts *o)
{
    struct err e = {0};
    db *d = NULL;
    int rc;
    if (o->nargs < 1) {
        fprintf(stderr, "usage: prophecyd backup DEST [--db FILE]\n");
        return 64;
    }
    if (open_db(o, &d, 0) != 0)
        return 1;
    rc = db_backup(d, o->args[0], &e);
    db_close(d);
    if (rc != 0) {
        fprintf(stderr, "prophecyd: %s\n", e.message);
        return 1;
    }
    printf("backed up to %s\n", o->args[0]); /* --db may hold a password */
    return 0;
}

/* prophecyd copy: every table of SRC into the new, empty DST (db/copy.h). */
static int cmd_copy(struct opts *o)
{
    struct db_options opt = {DB_SYNC_FULL, 0, 10000};
    struct db_copy_stats st = {0};
    struct err e = {0};
    db *src = NULL, *dst = NULL;
    int rc = 1;

    if (o->from == NULL || o->to == NULL || o->nargs > 0) {
        fprintf(stderr, "usage: prophecyd copy --from SRC --to DST (SQLite files or "
                        "postgresql:// URIs)\n");
        return 64;
    }
    o->cfg.db_path = o->from;
    if (open_db(o, &src, 0) != 0)
        return 1;
    if (db_open(&dst, o->to, &opt, &e) == 0 && db_copy(src, dst, &st, &e) == 0) {
        printf("copied %lld rows of %d tables\n", st.rows, st.tables);
        rc = 0;
    } else {
        fprintf(stderr, "prophecyd: copy: %s\nprophecyd: nothing was copied\n",
                e.message);
    }
    db_close(dst);
    db_close(src);
    return rc;
}

int main(int argc, char **argv)
{
    struct opts o;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    memset(&o, 0, sizeof o);
    o.cfg.db_path = "./prophecy.db";
    o.cfg.listen_host = "127.0.0.1";
    o.cfg.port = 8080;
    o.cfg.threads = ncpu > 0 ? (int)ncpu : 2;
    o.cfg.max_body = 8u << 20;
    o.cfg.sync = DB_SYNC_FULL;
    o.cfg.max_conns = 4096;
    o.cfg.max_conns_per_client = 256;
    o.cfg.max_buffered = 64u << 20;
    o.cfg.request_timeout = 30;
    o.cfg.stop_grace = 10;
    o.cfg.workers = o.cfg.threads;
    o.cfg.queue = 32;
    xalloc_json(); /* before any JSON value exists */
    gsl_set_error_handler_off();
    watch_install(); /* every ingest path judges what the watches cover */

    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 64 : 0;
    }
    if (parse_opts(argc, argv, &o) != 0)
        return 64;
    if (o.help) {
        fputs(usage, stdout);
        return 0;
    }
    if (o.cfg.max_buffered < o.cfg.max_body)
        o.cfg.max_buffered = o.cfg.max_body;
    if (strcmp(argv[1], "serve") == 0)
        return serve_fit_fd_limit(&o.cfg) != 0 ? 1 : serve_run(&o.cfg);
    if (strcmp(argv[1], "token") == 0)
        return cmd_token(&o);
    if (strcmp(argv[1], "import") == 0)
        return cmd_import(&o);
    if (strcmp(argv[1], "export") == 0)
        return cmd_export(&o);
    if (strcmp(argv[1], "backup") == 0)
        return cmd_backup(&o);
    if (strcmp(argv[1], "check") == 0)
        return cmd_check(&o);
    if (strcmp(argv[1], "demo") == 0)
        return cmd_demo(&o);
    if (strcmp(argv[1], "copy") == 0)
        return cmd_copy(&o);
    fprintf(stderr, "prophecyd: unknown command %s\n\n%s", argv[1], usage);
    return 64;
}
