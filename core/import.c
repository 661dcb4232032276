/* import: other tools' files into the store; see import.h. */
#include "core/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sha256.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "core/ingest.h"
#include "db/catalog.h"
#include "db/nsys.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "formats/rundoc.h"

void import_init(struct import *im, const char *format, const struct fmt_file *files,
                 size_t nfiles, const struct fmt_options *opt, const char *submitter)
{
    memset(im, 0, sizeof *im);
    im->format = format;
    im->files = files;
    im->nfiles = nfiles;
    if (opt)
        im->opt = *opt;
    im->submitter = submitter;
}

/* What import_prepare parsed: the runs (deep copies in the arena) and each
 * run's trace with its analyses (rank files in the arena). */
struct prep_trace {
    const char *uid;
    struct run_trace_upload up;
};
struct import_prepared {
    arena *a;
    struct run_record *runs; /* xrealloc'd */
    size_t n, cap;
    struct prep_trace *traces; /* xrealloc'd */
    size_t ntraces, tcap;
};

static void prep_free(struct import_prepared *p)
{
    if (p == NULL)
        return;
    for (size_t k = 0; k < p->ntraces; k++)
        run_trace_upload_free(&p->traces[k].up);
    xfree(p->traces);
    xfree(p->runs);
    arena_free(p->a);
    xfree(p);
}

static int ends_in(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n > k && memcmp(s + n - k, suffix, k) == 0;
}

/* The length of the n bytes of name without an archive's or a gzip file's
 * suffix: ".tar.gz", ".tgz", ".tar", or ".gz" too when gz. */
static size_t stem_len(const char *name, size_t n, int gz)
{
    if (ends_in(name, n, ".tar.gz"))
        return n - 7;
    if (ends_in(name, n, ".tgz") || ends_in(name, n, ".tar"))
        return n - 4;
    return gz && ends_in(name, n, ".gz") ? n - 3 : n;
}

/* The base name of path (trailing slashes dropped) and in *n its length. */
static const char *base_name(const char *path, size_t *n)
{
    size_t len = strlen(path);
    const char *base;

    while (len > 1 && path[len - 1] == '/')
        len--;
    for (base = path + len; base > path && base[-1] != '/'; base--)
        ;
    *n = len - (size_t)(base - path);
    return base;
}

void import_set_source(struct import *im, const char *path)
{
    size_t n;
    const char *base;

    if (path == NULL || path[0] == '\0' || strcmp(path, "/") == 0)
        return;
    base = base_name(path, &n);
    n = stem_len(base, n, 1);
    if (n == 0 || n > LIMIT_NAME || !utf8_valid(base, n))
        return; /* the format's own name stays */
    memcpy(im->source, base, n);
    im->source[n] = '\0';
    im->opt.source = im->source;
}

void import_free(struct import *im)
{
    xfree(im->ids);
    im->ids = NULL;
    im->cap = 0;
    xfree(im->alerts);
    im->alerts = NULL;
    im->nalerts = im->alerts_cap = 0;
    prep_free(im->prep);
    im->prep = NULL;
}

static int is_auto(const char *format)
{
    return format == NULL || format[0] == '\0' || strcmp(format, "auto") == 0;
}

/* A POSIX/GNU tar header carries "ustar" at byte 257 of the first block. */
static int looks_like_tar(const char *data, size_t len)
{
    return len >= 512 && memcmp(data + 257, "ustar", 5) == 0;
}

/* Whether the format (f; NULL: any) reads the compressed file as it is. */
static int reads_compressed(const struct fmt_format *f, const struct fmt_file *file)
{
    struct err scratch = {0};
    if (f != NULL)
        return !f->directory && f->sniff(file, 1);
    return fmt_detect(file, 1, &scratch) != NULL;
}

int import_unpack(const char *name, const char *data, size_t len, const char *format,
                  size_t max, arena *a, struct fmt_file **files, size_t *nfiles,
                  const char **set_name, struct err *err)
{
    const struct fmt_format *f = is_auto(format) ? NULL : fmt_find(format);
    struct fmt_file one = {name && name[0] ? name : "upload", data, len};

    *files = NULL;
    *nfiles = 0;
    *set_name = NULL;
    if (!fmt_whole_archive(one.name) && fmt_is_gzip(data, len) &&
        !reads_compressed(f, &one)) {
        size_t n = strlen(one.name);
        char *in;
        if (fmt_gunzip(one.name, data, len, max, a, &in, &one.len, err) != 0)
            return -1;
        one.data = in;
        /* NAME.gz is NAME, NAME.tgz is NAME.tar */
        if (ends_in(one.name, n, ".tgz"))
            one.name = arena_printf(a, "%.*s.tar", (int)(n - 4), one.name);
        else if (ends_in(one.name, n, ".gz"))
            one.name = arena_strndup(a, one.name, n - 3);
        if (one.name == NULL)
            return err_nomem(err);
    }
    if (((f && f->directory) || looks_like_tar(one.data, one.len)) &&
        !fmt_whole_archive(one.name)) {
        if (fmt_tar_read(one.data, one.len, a, files, nfiles, err) != 0)
            return -1;
        *set_name = one.name; /* the archive's name names the set */
        return 0;
    }
    if ((*files = arena_alloc(a, sizeof **files)) == NULL)
        return err_nomem(err);
    **files = one;
    *nfiles = 1;
    return 0;
}

int import_check(const struct import *im, struct err *err)
{
    if (!is_auto(im->format) && fmt_find(im->format) == NULL) {
        size_t n, used = 0;
        const struct fmt_format *t = fmt_table(&n);
        char names[512];
        names[0] = '\0';
        for (size_t i = 0; i < n && used < sizeof names; i++) {
            int w = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                             t[i].name);
            if (w < 0)
                break;
            used += (size_t)w;
        }
        return err_set(err, ERR_INVALID, "unknown_format", "format",
                       "unknown format %.64s (one of auto, %s)", im->format, names);
    }
    if (im->nfiles == 0)
        return err_set(err, ERR_INVALID, "invalid_import", "files", "no file to import");
    if (im->nfiles > LIMIT_IMPORT_FILES)
        return err_set(err, ERR_INVALID, "invalid_import", "files", "more than %d files",
                       LIMIT_IMPORT_FILES);
    for (size_t i = 0; i < im->nfiles; i++)
        if (im->files[i].len > LIMIT_IMPORT_FILE)
            return err_set(err, ERR_TOO_LARGE, "too_large", "file",
                           "%s: larger than %llu bytes", im->files[i].name,
                           (unsigned long long)LIMIT_IMPORT_FILE);
    {
        /* the rules of a run document's commit and branch */
        struct run_record r = {0};
        r.commit = im->commit;
        r.branch = im->branch;
        if (rundoc_check_provenance(&r, err) != 0)
            return -1;
    }
    return 0;
}

int import_add_input(struct import *im, const char *name, size_t len, const char *value,
                     size_t vlen, struct err *err)
{
    char field[LIMIT_NAME + 16];
    struct rec_kv *in = im->inputs;
    double v;
    size_t at;

    char *row;
    snprintf(field, sizeof field, "input.%.*s",
             (int)(len < LIMIT_NAME ? len : LIMIT_NAME), name);
    if (rundoc_check_name(name, len, field, err) != 0)
        return -1;
    if (vlen > 0 &&
        (value == NULL || json_parse_decimal_n(value, vlen, field, &v, err) != 0)) {
        err_clear(err);
        return err_invalid(err, field, "%s=%.*s: the value must be a number", field,
                           (int)(vlen < 40 ? vlen : 40), value ? value : "");
    }
    for (size_t i = 0; i < im->ninputs + im->ninputs_from; i++)
        if (strncmp(im->input_names[i], name, len) == 0 &&
            im->input_names[i][len] == '\0')
            return err_invalid(err, field, "%s is given twice", field);
    if (im->ninputs + im->ninputs_from == LIMIT_INPUTS)
        return err_invalid(err, field, "more than %d inputs", LIMIT_INPUTS);
    /* the name in the next free row */
    row = im->input_names[im->ninputs + im->ninputs_from];
    memcpy(row, name, len);
    row[len] = '\0';
    if (vlen == 0) { /* the files say it */
        im->inputs_from[im->ninputs_from++] = row;
        return 0;
    }
    /* the inputs in name order, so that the uid does not depend on the
     * order given */
    for (at = 0; at < im->ninputs && strcmp(in[at].name, row) < 0; at++)
        ;
    memmove(&in[at + 1], &in[at], (im->ninputs - at) * sizeof in[0]);
    in[at].name = row;
    in[at].value = v;
    im->ninputs++;
    return 0;
}

int import_add_inputs(struct import *im, const char *list, struct err *err)
{
    const char *p = list ? list : "";

    for (;;) {
        const char *item, *name, *value = NULL;
        size_t len, vlen = 0;
        int quoted;
        p += strspn(p, ", \t\r\n");
        if (*p == '\0')
            return 0;
        item = p;
        if ((quoted = *p == '"')) { /* a name with blanks: "CPU Cores", "CPU Cores"=4 */
            const char *end = strchr(p + 1, '"');
            if (end == NULL)
                return err_invalid(err, "inputs",
                                   "%.64s: a quoted name needs its closing '\"'", p);
            name = p + 1;
            len = (size_t)(end - name);
            p = end + 1;
        } else {
            name = p;
            len = strcspn(p, "=, \t\r\n");
            p += len;
        }
        if (*p == '=') {
            value = ++p;
            vlen = strcspn(p, ", \t\r\n");
            p += vlen;
            if (vlen == 0)
                return err_invalid(
                    err, "inputs", "%s%.*s%s: a value after '=', or the name alone",
                    quoted ? "" : "\"", (int)(p - item < 64 ? p - item : 64), item,
                    quoted ? "" : "\"");
        } else if (*p != '\0' && strchr(", \t\r\n", *p) == NULL) {
            return err_invalid(err, "inputs",
                               "%.*s: after a quoted name, '=' and a value, or the next "
                               "input",
                               (int)(p - item < 64 ? p - item : 64), item);
        }
        /* without a value, each run's file says it */
        if (import_add_input(im, name, len, value, vlen, err) != 0)
            return -1;
    }
}

/* The tag of commit, branch and inputs kv (in name order): "@" and 16 hex
 * digits of their hash into out, or "" when none is given. */
static void uid_tag(const char *commit, const char *branch, const struct rec_kv *kv,
                    size_t n, char out[24])
{
    struct buf b;
    uint8_t d[SHA256_LEN];

    out[0] = '\0';
    if (commit == NULL && branch == NULL && n == 0)
        return;
    buf_init(&b, 2 * LIMIT_COMMIT + 4 * LIMIT_IDENT + LIMIT_INPUTS * (LIMIT_NAME + 32));
    buf_puts(&b, commit ? commit : "");
    buf_putc(&b, '\x1d');
    buf_puts(&b, branch ? branch : "");
    for (size_t i = 0; i < n; i++) /* none: the tag of a commit as before */
        buf_printf(&b, "\x1d%s=%.17g", kv[i].name, kv[i].value);
    sha256(b.data ? b.data : "", b.len, d);
    buf_free(&b);
    out[0] = '@';
    for (size_t i = 0; i < 8; i++) {
        out[1 + 2 * i] = "0123456789abcdef"[d[i] >> 4];
        out[2 + 2 * i] = "0123456789abcdef"[d[i] & 15];
    }
    out[17] = '\0';
}

/* The given commit, branch and inputs as the suffix of every run's uid (""
 * when none is given): the same for a run and its trace. */
static void set_uid_tag(struct import *im)
{
    uid_tag(im->commit, im->branch, im->inputs, im->ninputs, im->uid_tag);
}

/* The tag of a run whose inputs came from its file too (the formats layer
 * added them to its inputs): the given ones and those, in name order, so
 * that a value the file gives and the same value given are one run. */
static void run_uid_tag(const struct import *im, const struct run_record *r, char out[24])
{
    struct rec_kv kv[2 * LIMIT_INPUTS];
    size_t n = im->ninputs;

    memcpy(kv, im->inputs, n * sizeof kv[0]);
    for (size_t i = 0; i < im->ninputs_from; i++)
        for (size_t k = 0; k < r->ninputs; k++)
            if (strcmp(r->inputs[k].name, im->inputs_from[i]) == 0) {
                size_t at = n;
                while (at > 0 && strcmp(kv[at - 1].name, r->inputs[k].name) > 0) {
                    kv[at] = kv[at - 1];
                    at--;
                }
                kv[at] = r->inputs[k];
                n++;
                break;
            }
    uid_tag(im->commit, im->branch, kv, n, out);
}

/* A run of the file with the import's inputs, and its commit and branch
 * where it names none; its uid tagged with them; the strings from a. */
static int add_given(const struct import *im, struct run_record *r, arena *a,
                     struct err *err)
{
    char tag[24];

    if (im->ninputs_from > 0)
        run_uid_tag(im, r, tag);
    else
        memcpy(tag, im->uid_tag, sizeof tag);
    if (tag[0] == '\0')
        return 0;
    if (r->commit == NULL)
        r->commit = im->commit;
    if (r->branch == NULL)
        r->branch = im->branch;
    if (im->ninputs > 0) {
        struct rec_kv *in = arena_alloc(a, (r->ninputs + im->ninputs) * sizeof *in);
        size_t n = r->ninputs;
        if (in == NULL)
            return err_nomem(err);
        if (n > 0)
            memcpy(in, r->inputs, n * sizeof *in);
        for (size_t i = 0; i < im->ninputs; i++) {
            size_t k = 0;
            while (k < r->ninputs && strcmp(in[k].name, im->inputs[i].name) != 0)
                k++;
            if (k == r->ninputs)
                in[n++] = im->inputs[i];
            else if (in[k].value != im->inputs[i].value) {
                char field[LIMIT_NAME + 16];
                snprintf(field, sizeof field, "input.%s", in[k].name);
                return err_invalid(err, field,
                                   "%s: the file gives %.17g, the import %.17g", field,
                                   in[k].value, im->inputs[i].value);
            }
        }
        if (n > LIMIT_INPUTS)
            return err_invalid(err, "inputs",
                               "a run would have more than %d inputs with the ones given",
                               LIMIT_INPUTS);
        r->inputs = in;
        r->ninputs = n;
    }
    if ((r->uid = arena_printf(a, "%s%s", r->uid, tag)) == NULL)
        return err_nomem(err);
    return 0;
}

/* The format the parse will use, for the answer: the named one, else what
 * detection picks for the set (a directory format, or the one file's). */
static const char *format_used(const struct import *im)
{
    const struct fmt_format *f;
    struct err ignored = {0};

    if (!is_auto(im->format))
        return im->format;
    f = fmt_detect(im->files, im->nfiles, &ignored);
    if (f == NULL)
        return "auto";
    if (im->nfiles == 1 || f->directory)
        return f->name;
    for (size_t i = 0; i < im->nfiles; i++) {
        const struct fmt_format *g = fmt_detect(&im->files[i], 1, &ignored);
        if (g != f)
            return "auto";
    }
    return f->name;
}

struct sink_ctx {
    struct import *im; /* first, as in prep_ctx: on_note reads it */
    db *d;
};

/* Appends add[0..k) to the growable array *arr of n values (room *cap,
 * first 64): the ids a batch stored and the alerts it raised, kept past the
 * batch's arena for the answer. */
static int append_ids(long long **arr, size_t n, size_t *cap, const long long *add,
                      size_t k, struct err *err)
{
    if (n + k > *cap) {
        size_t c = *cap ? *cap : 64;
        long long *p;
        while (c < n + k)
            c *= 2;
        p = xrealloc(*arr, c * sizeof *p);
        if (p == NULL)
            return err_nomem(err);
        *arr = p;
        *cap = c;
    }
    if (k > 0)
        memcpy(*arr + n, add, k * sizeof *add);
    return 0;
}

/* One batch of runs: through the ingest path, inside the transaction. */
static int on_runs(void *ctx, const struct run_record *runs, size_t n, struct err *err)
{
    struct sink_ctx *c = ctx;
    struct import *im = c->im;
    arena *a = arena_new();
    struct run_record *copy;
    struct ingest in;
    int rc = -1;

    if (a == NULL)
        return err_nomem(err);
    /* the parser's records are read-only to us; ingest sets the submitter */
    copy = arena_alloc(a, (n ? n : 1) * sizeof *copy);
    if (copy == NULL) {
        err_nomem(err);
        goto out;
    }
    memcpy(copy, runs, n * sizeof *copy);
    for (size_t i = 0; i < n; i++)
        if (add_given(im, &copy[i], a, err) != 0)
            goto out;
    if (ingest_records(&in, copy, n, im->submitter, a, err) != 0 ||
        ingest_store(c->d, &in, err) != 0 ||
        append_ids(&im->ids, im->runs, &im->cap, in.ids, n, err) != 0 ||
        append_ids(&im->alerts, im->nalerts, &im->alerts_cap, in.alerts, in.nalerts,
                   err) != 0)
        goto out;
    im->nalerts += in.nalerts;
    im->runs += n;
    im->created += in.created;
    rc = 0;
out:
    arena_free(a);
    return rc;
}

/* What the parser left out: kept for the answer (the first
 * LIMIT_IMPORT_NOTES). Both sinks' ctx start with the import. */
static void on_note(void *ctx, const char *text)
{
    struct import *im = *(struct import **)ctx;
    if (im->nnotes < LIMIT_IMPORT_NOTES)
        snprintf(im->notes[im->nnotes++], LIMIT_IMPORT_NOTE_LEN, "%s", text);
}

/* System benchmarks (OSU output): into the catalog of the system named. */
static int on_benchmarks(void *ctx, const char *system, const struct bench_record *b,
                         size_t n, struct err *err)
{
    struct sink_ctx *c = ctx;
    struct import *im = c->im;
    size_t added = 0;

    if (im->ninputs + im->ninputs_from > 0)
        return err_invalid(
            err, "inputs",
            "inputs are a run's, and %s holds system benchmarks: import it "
            "without them",
            im->format_used ? im->format_used : "the file");
    /* The output does not say which machine it measured; the parser's
     * fallback "unknown" must not become a system. */
    if (im->opt.system == NULL || im->opt.system[0] == '\0')
        return err_set(err, ERR_INVALID, "missing_field", "system",
                       "system benchmarks (%s) need the system they measured: give "
                       "system= (--system)",
                       im->format_used ? im->format_used : "osu");
    if (db_benchmarks_import(c->d, system, b, n, &added, err) != 0)
        return -1;
    im->benchmarks += n;
    im->benchmarks_created += added;
    im->system = im->opt.system;
    return 0;
}

/* A run's trace (OTF2): stored with its analyses for the run just stored. */
static int on_traces(void *ctx, const char *uid, struct trace *t, struct err *err)
{
    struct sink_ctx *c = ctx;
    arena *a;
    int rc;

    if (c->im->trace_draw == NULL) {
        trace_free(t);
        return 0;
    }
    if ((a = arena_new()) == NULL) {
        trace_free(t);
        return err_nomem(err);
    }
    if (c->im->uid_tag[0] &&
        (uid = arena_printf(a, "%s%s", uid, c->im->uid_tag)) == NULL) {
        trace_free(t);
        arena_free(a);
        return err_nomem(err);
    }
    rc = run_trace_import(c->d, uid, t, a, c->im->trace_draw, err);
    arena_free(a);
    if (rc == 0)
        c->im->traces++;
    return rc;
}

/* ---- parsing before the job -------------------------------------------------- */

/* The formats parsed by import_prepare: costly to read, and small in what
 * they give (one run and its trace). */
static int parsed_first(const char *format_used)
{
    return strcmp(format_used, "otf2") == 0;
}

static const char *cp_str(arena *a, const char *s, int *failed)
{
    char *c;
    if (s == NULL)
        return NULL;
    if ((c = arena_strdup(a, s)) == NULL)
        *failed = 1;
    return c;
}

static struct rec_kv *cp_kv(arena *a, const struct rec_kv *kv, size_t n, int *failed)
{
    struct rec_kv *c = n ? arena_alloc(a, n * sizeof *c) : NULL;
    if (n && c == NULL)
        *failed = 1;
    for (size_t i = 0; c && i < n; i++)
        c[i] = (struct rec_kv){cp_str(a, kv[i].name, failed), kv[i].value};
    return c;
}

/* A deep copy of a parser's run (the parser frees its batch once handed). */
static int copy_run(arena *a, struct run_record *dst, const struct run_record *src)
{
    int failed = 0;
    *dst = *src;
    dst->uid = cp_str(a, src->uid, &failed);
    dst->application = cp_str(a, src->application, &failed);
    dst->executable = cp_str(a, src->executable, &failed);
    dst->system = cp_str(a, src->system, &failed);
    dst->started_at = cp_str(a, src->started_at, &failed);
    dst->submitter = cp_str(a, src->submitter, &failed);
    dst->commit = cp_str(a, src->commit, &failed);
    dst->branch = cp_str(a, src->branch, &failed);
    dst->inputs = cp_kv(a, src->inputs, src->ninputs, &failed);
    dst->metrics = cp_kv(a, src->metrics, src->nmetrics, &failed);
    dst->kernels =
        src->nkernels ? arena_alloc(a, src->nkernels * sizeof *dst->kernels) : NULL;
    if (src->nkernels && dst->kernels == NULL)
        failed = 1;
    for (size_t i = 0; dst->kernels && i < src->nkernels; i++) {
        dst->kernels[i] = src->kernels[i];
        dst->kernels[i].name = cp_str(a, src->kernels[i].name, &failed);
        dst->kernels[i].metrics_json = cp_str(a, src->kernels[i].metrics_json, &failed);
    }
    dst->meta = NULL; /* read by the parse (inputs_from), not kept */
    dst->nmeta = 0;
    dst->tags = src->ntags ? arena_alloc(a, src->ntags * sizeof *dst->tags) : NULL;
    if (src->ntags && dst->tags == NULL)
        failed = 1;
    for (size_t i = 0; dst->tags && i < src->ntags; i++)
        dst->tags[i] = (struct rec_tag){cp_str(a, src->tags[i].key, &failed),
                                        cp_str(a, src->tags[i].value, &failed)};
    return failed ? -1 : 0;
}

struct prep_ctx {
    struct import *im;
    struct import_prepared *p;
};

static int prep_runs(void *ctx, const struct run_record *runs, size_t n, struct err *err)
{
    struct import_prepared *p = ((struct prep_ctx *)ctx)->p;
    if (p->n + n > p->cap) {
        size_t cap = p->cap ? p->cap : 4;
        struct run_record *r;
        while (cap < p->n + n)
            cap *= 2;
        if ((r = xrealloc(p->runs, cap * sizeof *r)) == NULL)
            return err_nomem(err);
        p->runs = r;
        p->cap = cap;
    }
    for (size_t i = 0; i < n; i++, p->n++)
        if (copy_run(p->a, &p->runs[p->n], &runs[i]) != 0)
            return err_nomem(err);
    return 0;
}

/* A run's trace: analysed and drawn now, stored by the job. */
static int prep_traces(void *ctx, const char *uid, struct trace *t, struct err *err)
{
    struct prep_ctx *c = ctx;
    struct import_prepared *p = c->p;
    struct prep_trace *pt;

    if (c->im->trace_draw == NULL) {
        trace_free(t);
        return 0;
    }
    if (p->ntraces == p->tcap) {
        size_t cap = p->tcap ? p->tcap * 2 : 2;
        struct prep_trace *q = xrealloc(p->traces, cap * sizeof *q);
        if (q == NULL) {
            trace_free(t);
            return err_nomem(err);
        }
        p->traces = q;
        p->tcap = cap;
    }
    pt = &p->traces[p->ntraces];
    if ((pt->uid = arena_printf(p->a, "%s%s", uid, c->im->uid_tag)) == NULL) {
        trace_free(t);
        return err_nomem(err);
    }
    if (run_trace_from_trace(&pt->up, 0, t, p->a, c->im->trace_draw, err) != 0)
        return -1;
    p->ntraces++;
    return 0;
}

int import_prepare(struct import *im, struct err *err)
{
    struct prep_ctx c = {im, NULL};
    struct fmt_sink sink = {
        prep_runs, NULL, &c, prep_traces, on_note, im->inputs_from, im->ninputs_from};

    if (import_check(im, err) != 0)
        return -1;
    set_uid_tag(im);
    im->format_used = format_used(im);
    if (!parsed_first(im->format_used) || im->prep != NULL)
        return 0;
    if ((c.p = xcalloc(1, sizeof *c.p)) == NULL || (c.p->a = arena_new()) == NULL) {
        prep_free(c.p);
        return err_nomem(err);
    }
    if (fmt_parse(is_auto(im->format) ? "auto" : im->format, im->files, im->nfiles,
                  &im->opt, &sink, err) != 0) {
        prep_free(c.p);
        return -1;
    }
    im->prep = c.p;
    return 0;
}

/* The job's half of a prepared import: the runs through ingest, then the
 * traces for their runs. */
static int store_prepared(struct sink_ctx *c, struct err *err)
{
    struct import_prepared *p = c->im->prep;
    for (size_t k = 0; k < p->n; k += LIMIT_IMPORT_BATCH) {
        size_t n = p->n - k < LIMIT_IMPORT_BATCH ? p->n - k : LIMIT_IMPORT_BATCH;
        if (on_runs(c, p->runs + k, n, err) != 0)
            return -1;
    }
    for (size_t k = 0; k < p->ntraces; k++) {
        int existed;
        if (run_trace_store_uid(c->d, p->traces[k].uid, &p->traces[k].up, &existed,
                                err) != 0)
            return -1;
        c->im->traces++;
    }
    return 0;
}

int import_store(db *d, struct import *im, struct err *err)
{
    struct sink_ctx c = {im, d};
    struct fmt_sink sink = {on_runs,         on_benchmarks,   &c, on_traces, on_note,
                            im->inputs_from, im->ninputs_from};
    /* nsys-sqlite reads an SQLite file: SQL lives in db/ (db/nsys.h) */
    fmt_nsys_set_reader(db_nsys_read);

    im->runs = im->created = im->benchmarks = im->benchmarks_created = im->traces = 0;
    im->nalerts = 0; /* a job run again counts afresh */
    im->system = NULL;
    if (im->prep != NULL)
        return store_prepared(&c, err); /* its notes came with the parse */
    im->nnotes = 0;
    if (import_check(im, err) != 0)
        return -1;
    set_uid_tag(im);
    im->format_used = format_used(im);
    return fmt_parse(is_auto(im->format) ? "auto" : im->format, im->files, im->nfiles,
                     &im->opt, &sink, err);
}

int import_job(db *d, void *arg, struct err *err)
{
    return import_store(d, arg, err);
}

int import_commit(db *d, struct import *im, struct err *err)
{
    if (db_begin(d, err) != 0)
        return -1;
    if (import_store(d, im, err) != 0 || db_commit(d, err) != 0) {
        db_rollback(d);
        return -1;
    }
    return 0;
}

/* ---- reading paths --------------------------------------------------------- */

#define IMPORT_MAX_DEPTH 8
/* A directory's base name as the prefix of its files' names (dir_prefix). */
#define IMPORT_PREFIX_MAX 255

/* A file's mapping, unmapped by import_files_free. */
struct import_map {
    void *p;
    size_t len;
};

/* Maps the regular file at path read-only into *data, *len (an empty file:
 * "" and 0), the mapping kept in out->maps. 0, or -1 with err. */
static int map_file(struct import_files *out, const char *path, const char **data,
                    size_t *len, struct err *err)
{
    struct stat st;
    int fd;
    void *map;

    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(err, ERR_INVALID, "invalid_import", "files", "cannot read %s: %s",
                       path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set(err, ERR_INVALID, "invalid_import", "files",
                       "%s is not a regular file", path);
    }
    if ((unsigned long long)st.st_size > LIMIT_IMPORT_FILE) {
        close(fd);
        return err_set(err, ERR_TOO_LARGE, "too_large", "file",
                       "%s: larger than %llu bytes", path,
                       (unsigned long long)LIMIT_IMPORT_FILE);
    }
    *data = "";
    *len = 0;
    if (st.st_size == 0) {
        close(fd);
        return 0;
    }
    if (out->nmaps == out->maps_cap) {
        void *p = out->maps;
        if (xgrow(&p, &out->maps_cap, out->nmaps + 1, sizeof *out->maps) != 0) {
            close(fd);
            return err_nomem(err);
        }
        out->maps = p;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return err_set(err, ERR_INVALID, "invalid_import", "files", "cannot map %s: %s",
                       path, strerror(errno));
    out->maps[out->nmaps++] = (struct import_map){map, (size_t)st.st_size};
    *data = map;
    *len = (size_t)st.st_size;
    return 0;
}

/* Appends a file named prefix/name (name alone when prefix is "") holding the
 * len bytes of data. 0, or -1 with err (path names the given path). */
static int push_file(struct import_files *out, const char *path, const char *prefix,
                     const char *name, const char *data, size_t len, struct err *err)
{
    struct fmt_file *f;

    if (out->n >= LIMIT_IMPORT_FILES)
        return err_set(err, ERR_INVALID, "invalid_import", "files",
                       "%s: more than %d files", path, LIMIT_IMPORT_FILES);
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 16;
        struct fmt_file *p = xrealloc(out->files, cap * sizeof *p);
        if (p == NULL)
            return err_nomem(err);
        out->files = p;
        out->cap = cap;
    }
    f = &out->files[out->n];
    f->name = prefix[0] ? arena_printf(out->a, "%s/%s", prefix, name)
                        : arena_strdup(out->a, name);
    f->data = data;
    f->len = len;
    if (f->name == NULL)
        return err_nomem(err);
    out->n++;
    return 0;
}

static int add_file(struct import_files *out, const char *path, const char *name,
                    struct err *err)
{
    const char *data;
    size_t len;

    if (out->n >= LIMIT_IMPORT_FILES)
        return err_set(err, ERR_INVALID, "invalid_import", "files",
                       "%s: more than %d files", path, LIMIT_IMPORT_FILES);
    if (map_file(out, path, &data, &len, err) != 0)
        return -1;
    return push_file(out, path, "", name, data, len, err);
}

/* A file read from path and named `name` in the set, unwrapped as an upload
 * is (import_unpack): a gzip file inflated and named without ".gz", a tar
 * archive read as its files. An archive's files are named under prefix
 * (NULL: name without .tar, .tgz or .tar.gz, "runs/p16.tgz" ->
 * "runs/p16/profile.0.0.0"), or, when it is the only path (only), as in the
 * archive, which then names the set. */
static int add_unpacked(struct import_files *out, const char *path, const char *name,
                        const char *prefix, int only, struct err *err)
{
    const char *data, *set_name;
    struct fmt_file *files;
    size_t len, n;

    if (out->n >= LIMIT_IMPORT_FILES)
        return err_set(err, ERR_INVALID, "invalid_import", "files",
                       "%s: more than %d files", path, LIMIT_IMPORT_FILES);
    if (map_file(out, path, &data, &len, err) != 0 ||
        import_unpack(name, data, len, NULL, LIMIT_IMPORT_FILE, out->a, &files, &n,
                      &set_name, err) != 0)
        return -1;
    if (set_name == NULL) /* one file */
        return push_file(out, path, "", files[0].name, files[0].data, files[0].len, err);
    if (only) {
        out->source = set_name;
        prefix = "";
    } else if (prefix == NULL &&
               (prefix = arena_strndup(out->a, name, stem_len(name, strlen(name), 0))) ==
                   NULL) {
        return err_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        const char *member = files[i].name;
        while (!only && strncmp(member, "./", 2) == 0) /* "p16/profile.0.0.0" */
            member += 2;
        if (push_file(out, path, prefix, member, files[i].data, files[i].len, err) != 0)
            return -1;
    }
    return 0;
}

/* Adds the regular files under dir (named prefix/NAME), sorted. */
static int add_dir(struct import_files *out, const char *dir, const char *prefix,
                   int depth, struct err *err)
{
    struct dirent **ents = NULL;
    int n, i, rc = 0;

    /* Deeper directories are not read (an HPCToolkit database's src/ copies
     * sources under their full absolute paths; no format needs them). */
    if (depth > IMPORT_MAX_DEPTH)
        return 0;
    n = scandir(dir, &ents, NULL, alphasort);
    if (n < 0)
        return err_set(err, ERR_INVALID, "invalid_import", "files", "cannot read %s: %s",
                       dir, strerror(errno));
    for (i = 0; i < n; i++) {
        const char *e = ents[i]->d_name;
        char path[4096], name[4096];
        struct stat st;

        if (rc != 0 || e[0] == '.')
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, e) >= (int)sizeof path ||
            snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] ? "/" : "", e) >=
                (int)sizeof name) {
            rc = err_set(err, ERR_INVALID, "invalid_import", "files", "%s: path too long",
                         dir);
            continue;
        }
        if (lstat(path, &st) != 0)
            rc = err_set(err, ERR_INVALID, "invalid_import", "files",
                         "cannot read %s: %s", path, strerror(errno));
        else if (S_ISDIR(st.st_mode))
            rc = add_dir(out, path, name, depth + 1, err);
        else if (S_ISREG(st.st_mode))
            rc = add_unpacked(out, path, name, NULL, 0, err);
        /* links, sockets, devices: not part of a tool's output directory */
    }
    for (i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
    return rc;
}

int import_check_paths(const struct import_files *f, const char *const *paths,
                       const char *format, struct err *err)
{
    const struct fmt_format *t, *set = NULL;
    size_t nt, i, p;

    if (!is_auto(format) || f->npaths < 2)
        return 0;
    t = fmt_table(&nt);
    for (i = 0; i < nt && set == NULL; i++) /* as fmt_parse chooses */
        if (t[i].directory && t[i].sniff(f->files, f->n))
            set = &t[i];
    if (set == NULL)
        return 0; /* each file is read by its own format */
    for (p = 0; p < f->npaths; p++) {
        size_t a = f->first[p], n = f->first[p + 1] - a;
        struct err scratch = {0};
        const struct fmt_format *own;
        if (n == 0 || set->sniff(f->files + a, n))
            continue;
        /* a file no format reads (a job script, a trace's event files
         * given apart) stays with the set, which skips it */
        own = fmt_detect(f->files + a, n, &scratch);
        if (own != NULL && own != set)
            return err_set(err, ERR_INVALID, "invalid_import", "files",
                           "%s is %s data, not part of the %s data beside it (read as "
                           "one set): import it on its own",
                           paths[p], own->name, set->name);
    }
    return 0;
}

/* One path that is the anchor file of a format read as a directory, as its
 * tools are given it: an OTF2 archive's NAME.otf2 (with NAME.def and NAME/
 * beside it: those three, named as in a directory import), an HPCToolkit
 * database's experiment.xml or meta.db (its directory). 1 when path was
 * such an anchor and its files were added, 0 when it is not one, -1 with
 * err. */
static int add_anchor(struct import_files *out, const char *path, struct err *err)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    size_t blen = strlen(base);
    char dir[4096], def[4096], defname[4096];
    struct stat st;

    if (blen > 5 && strcmp(base + blen - 5, ".otf2") == 0) {
        /* NAME.otf2 with NAME.def and NAME/ beside it, named NAME.* as in
         * the directory */
        char stem[4096], name[4096];
        if (snprintf(stem, sizeof stem, "%.*s", (int)(strlen(path) - 5), path) >=
                (int)sizeof stem ||
            snprintf(def, sizeof def, "%s.def", stem) >= (int)sizeof def ||
            snprintf(name, sizeof name, "%.*s", (int)(blen - 5), base) >=
                (int)sizeof name ||
            snprintf(defname, sizeof defname, "%s.def", name) >= (int)sizeof defname ||
            stat(def, &st) != 0 || !S_ISREG(st.st_mode) || stat(stem, &st) != 0 ||
            !S_ISDIR(st.st_mode))
            return 0;
        return add_file(out, path, base, err) != 0 ||
                       add_file(out, def, defname, err) != 0 ||
                       add_dir(out, stem, name, 0, err) != 0
                   ? -1
                   : 1;
    }
    if (strcmp(base, "experiment.xml") == 0 || strcmp(base, "meta.db") == 0) {
        /* the database is the directory the anchor is in */
        int dlen = slash == NULL || slash == path ? 1 : (int)(slash - path);
        if (snprintf(dir, sizeof dir, "%.*s", dlen,
                     slash == NULL   ? "."
                     : slash == path ? "/"
                                     : path) >= (int)sizeof dir)
            return 0;
        if ((out->source = arena_strdup(out->a, dir)) == NULL)
            return err_nomem(err);
        return add_dir(out, dir, "", 0, err) != 0 ? -1 : 1;
    }
    return 0;
}

/* The name under which directory paths[i]'s files go when several paths are
 * given: its base name ("runs/p16/" -> "p16"; an archive's without ".tar",
 * ".tgz", ".tar.gz": "runs/p16.tar.gz" -> "p16"), so that two runs'
 * directories are two directories of the set (the formats read each apart)
 * and not one with every file twice; "~2/p16" for a second path of that
 * base name. */
static const char *dir_prefix(const char *const *paths, size_t i, char *out)
{
    size_t n, same = 1;
    const char *base = base_name(paths[i], &n);

    n = stem_len(base, n, 0);
    if (n == 0 || n > IMPORT_PREFIX_MAX || (n <= 2 && memcmp(base, "..", n) == 0))
        base = "dir", n = 3; /* "/", "." or "..": no name of its own */
    for (size_t j = 0; j < i; j++) {
        size_t m;
        const char *other = base_name(paths[j], &m);
        if (stem_len(other, m, 0) == n && memcmp(other, base, n) == 0)
            same++;
    }
    if (same > 1) /* its directory keeps its name: the run's default name */
        snprintf(out, IMPORT_PREFIX_MAX + 24, "~%zu/%.*s", same, (int)n, base);
    else
        snprintf(out, IMPORT_PREFIX_MAX + 24, "%.*s", (int)n, base);
    return out;
}

int import_load_paths(const char *const *paths, size_t npaths, struct import_files *out,
                      struct err *err)
{
    char prefix[IMPORT_PREFIX_MAX + 24];

    memset(out, 0, sizeof *out);
    out->first = xcalloc(npaths + 1, sizeof *out->first);
    out->a = arena_new();
    if (out->first == NULL || out->a == NULL) {
        import_files_free(out);
        return err_nomem(err);
    }
    out->npaths = npaths;
    for (size_t i = 0; i < npaths; i++) {
        struct stat st;
        int rc;
        out->first[i] = out->n;
        if (stat(paths[i], &st) != 0)
            rc = err_set(err, ERR_INVALID, "invalid_import", "files",
                         "cannot read %s: %s", paths[i], strerror(errno));
        else if (S_ISDIR(st.st_mode))
            rc = add_dir(out, paths[i], npaths > 1 ? dir_prefix(paths, i, prefix) : "", 0,
                         err);
        else if (npaths > 1 || (rc = add_anchor(out, paths[i], err)) == 0)
            rc = add_unpacked(out, paths[i], paths[i],
                              npaths > 1 ? dir_prefix(paths, i, prefix) : "", npaths == 1,
                              err);
        else if (rc > 0)
            rc = 0;
        if (rc == 0 && npaths == 1 && S_ISDIR(st.st_mode))
            out->source = paths[i];
        if (rc != 0) {
            import_files_free(out);
            return -1;
        }
    }
    out->first[npaths] = out->n;
    return 0;
}

void import_files_free(struct import_files *f)
{
    for (size_t i = 0; i < f->nmaps; i++)
        munmap(f->maps[i].p, f->maps[i].len);
    xfree(f->maps);
    xfree(f->files);
    xfree(f->first);
    arena_free(f->a);
    memset(f, 0, sizeof *f);
}
