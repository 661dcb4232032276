/* import: the toolkit the importers share (see import.h). Why batches: the
 * sink sees at most LIMIT_IMPORT_BATCH runs at once, and the arena those runs
 * live in is dropped after each hand-over, so a long file costs the memory of
 * one batch, not of the file. */
#define _GNU_SOURCE /* memmem */
#include "formats/import.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/sha256.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "formats/limits.h"
#include "formats/rundoc.h"

int imp_batch_init(struct imp_batch *b, const char *format, const char *file,
                   const struct fmt_sink *sink, struct err *err)
{
    memset(b, 0, sizeof *b);
    b->format = format;
    b->file = file;
    b->sink = sink;
    b->a = arena_new();
    b->runs = xcalloc(LIMIT_IMPORT_BATCH, sizeof *b->runs);
    if (b->a == NULL || b->runs == NULL)
        return err_nomem(err);
    return 0;
}

void imp_batch_free(struct imp_batch *b)
{
    arena_free(b->a);
    xfree(b->runs);
    b->a = NULL;
    b->runs = NULL;
}

static int flush(struct imp_batch *b, struct err *err)
{
    if (b->n == 0)
        return 0;
    if (b->sink == NULL || b->sink->runs == NULL)
        return imp_fail_field(err, b->file, "format",
                              "%s holds runs, which this import "
                              "does not take",
                              b->format);
    if (b->sink->runs(b->sink->ctx, b->runs, b->n, err) != 0) {
        if (err && err->status == 0)
            err_set(err, ERR_INTERNAL, "sink_failed", NULL,
                    "storing the imported runs failed");
        return -1;
    }
    arena_free(b->a);
    b->a = arena_new();
    b->n = 0;
    if (b->a == NULL)
        return err_nomem(err);
    return 0;
}

struct run_record *imp_batch_slot(struct imp_batch *b, struct err *err)
{
    if (b->total >= LIMIT_IMPORT_RUNS) {
        imp_fail_field(err, b->file, "runs", "more than %d runs in one import",
                       LIMIT_IMPORT_RUNS);
        return NULL;
    }
    if (b->n == LIMIT_IMPORT_BATCH && flush(b, err) != 0)
        return NULL;
    memset(&b->runs[b->n], 0, sizeof b->runs[b->n]);
    return &b->runs[b->n];
}

static int check_time(double v)
{
    return isfinite(v) && v >= 0;
}

/* Numbers enter the uid hash as their IEEE 754 bytes (little-endian order
 * fixed here): exact, and far cheaper than formatting them. */
static void hash_num(struct buf *h, double v)
{
    unsigned char b[8];
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(u >> (8 * i));
    buf_append(h, b, sizeof b);
}

static void hash_str(struct buf *h, const char *s, char sep)
{
    if (s)
        buf_puts(h, s);
    buf_putc(h, sep);
}

static void hash_kv(struct buf *h, char tag, const struct rec_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        buf_putc(h, tag);
        hash_str(h, kv[i].name, '\x1f');
        hash_num(h, kv[i].value);
    }
}

/* The rules POST /api/v1/runs applies (formats/rundoc.c), so that every run
 * an import stores can be exported and imported back: names, provenance
 * (commit, branch, tags) and the start time. The failure names the file,
 * the run and the field. */
static int check_record(struct imp_batch *b, const struct run_record *r,
                        const char *identity, struct err *err)
{
    struct err in = {0};
    const char *const names[] = {"application", "executable", "system"};
    const char *const values[] = {r->application, r->executable, r->system};

    for (int i = 0; i < 3; i++)
        if (values[i] == NULL ||
            rundoc_check_name(values[i], strlen(values[i]), names[i], &in) != 0)
            return imp_fail_field(err, b->file, names[i], "%s: %s", identity,
                                  values[i] ? in.message : "no name is given");
    for (size_t i = 0; i < r->nkernels; i++)
        if (r->kernels[i].name == NULL ||
            rundoc_check_name(r->kernels[i].name, strlen(r->kernels[i].name), "kernel",
                              &in) != 0)
            return imp_fail_field(err, b->file, "kernels", "%s: kernel %zu: %s", identity,
                                  i, r->kernels[i].name ? in.message : "no name");
    if (rundoc_check_provenance(r, &in) != 0)
        return imp_fail_field(err, b->file, in.field, "%s: %s", identity, in.message);
    if (r->started_at != NULL && !rundoc_valid_timestamp(r->started_at))
        return imp_fail_field(err, b->file, "started_at",
                              "%s: %s is not a valid ISO 8601 time", identity,
                              r->started_at);
    return 0;
}

/* The text a run's file gives for `name`: its tag, else its metadata. */
static const char *said(const struct run_record *r, const char *name)
{
    for (size_t i = 0; i < r->ntags; i++)
        if (strcmp(r->tags[i].key, name) == 0)
            return r->tags[i].value;
    for (size_t i = 0; i < r->nmeta; i++)
        if (strcmp(r->meta[i].key, name) == 0)
            return r->meta[i].value;
    return NULL;
}

/* The inputs the import takes from the run's file (fmt_sink.inputs_from):
 * one the file gives as an input stays; else its tag or metadata of that
 * name, a number, becomes one (never a trace format's: OTF2 and Trace Event
 * runs have neither, so their traces keep the runs' uids). */
static int add_inputs_from(struct imp_batch *b, struct run_record *r,
                           const char *identity, struct err *err)
{
    size_t n = b->sink ? b->sink->ninputs_from : 0, k = r->ninputs;
    struct rec_kv *in;

    if (n == 0)
        return 0;
    if ((in = arena_alloc(b->a, (r->ninputs + n) * sizeof *in)) == NULL)
        return err_nomem(err);
    if (r->ninputs > 0)
        memcpy(in, r->inputs, r->ninputs * sizeof *in);
    for (size_t i = 0; i < n; i++) {
        const char *name = b->sink->inputs_from[i], *text;
        char field[LIMIT_NAME + 16];
        size_t j = 0;
        double v;
        while (j < r->ninputs && strcmp(in[j].name, name) != 0)
            j++;
        if (j < r->ninputs)
            continue;
        snprintf(field, sizeof field, "input.%s", name);
        if ((text = said(r, name)) == NULL)
            return imp_fail_field(err, b->file, field,
                                  "%s: no input, tag or metadata named %s to take "
                                  "the input from",
                                  identity, name);
        if (imp_number(text, strlen(text), &v) != 0)
            return imp_fail_field(err, b->file, field,
                                  "%s: %s is \"%.40s\", not a number", identity, name,
                                  text);
        if (k == LIMIT_INPUTS)
            return imp_fail_field(err, b->file, "inputs", "%s: more than %d inputs",
                                  identity, LIMIT_INPUTS);
        in[k++] = (struct rec_kv){name, v};
    }
    r->inputs = in;
    r->ninputs = k;
    return 0;
}

int imp_batch_commit(struct imp_batch *b, const char *identity, struct err *err)
{
    struct run_record *r = &b->runs[b->n];
    struct buf h;
    double no_calls;
    uint8_t d[SHA256_LEN];
    char hex[2 * SHA256_LEN + 1];

    if (r->nprocs < 1 || r->nprocs > 100000000)
        return imp_fail_field(err, b->file, "nprocs", "%s: nprocs %lld is out of range",
                              identity, r->nprocs);
    /* the API's rule (SPEC §4): a run time is a non-negative number, so that
     * what POST /api/v1/runs stored and export wrote imports again */
    if (RUN_HAS_RUNTIME(r->runtime) && !check_time(r->runtime))
        return imp_fail_field(err, b->file, "runtime",
                              "%s: the run time must be a non-negative number of seconds",
                              identity);
    /* SPEC §16: a run without a time stands on its kernels or metrics */
    if (!RUN_HAS_RUNTIME(r->runtime) && r->nkernels == 0 && r->nmetrics == 0)
        return imp_fail_field(err, b->file, "runtime",
                              "%s: neither a run time nor a kernel or metric", identity);
    if (check_record(b, r, identity, err) != 0)
        return -1;
    if (r->nkernels > LIMIT_KERNELS)
        return imp_fail_field(err, b->file, "kernels", "%s: more than %d kernels",
                              identity, LIMIT_KERNELS);
    if (r->ninputs > LIMIT_INPUTS)
        return imp_fail_field(err, b->file, "inputs", "%s: more than %d inputs", identity,
                              LIMIT_INPUTS);
    if (r->nmetrics > LIMIT_METRICS)
        return imp_fail_field(err, b->file, "metrics", "%s: more than %d metrics",
                              identity, LIMIT_METRICS);
    for (size_t i = 0; i < r->nkernels; i++) {
        if (KERNEL_HAS_TIME(r->kernels[i].time) && !check_time(r->kernels[i].time))
            return imp_fail_field(err, b->file, r->kernels[i].name,
                                  "%s: the time of %s must be a non-negative number",
                                  identity, r->kernels[i].name);
        if (r->kernels[i].calls < KERNEL_NO_CALLS)
            return imp_fail_field(err, b->file, r->kernels[i].name,
                                  "%s: the calls of %s must be a non-negative integer",
                                  identity, r->kernels[i].name);
    }

    buf_init(&h, 64u << 20);
    hash_str(&h, b->format, '\x1d');
    hash_str(&h, identity, '\x1d');
    hash_str(&h, r->application, '\x1d');
    hash_str(&h, r->executable, '\x1d');
    hash_str(&h, r->system, '\x1d');
    hash_num(&h, (double)r->nprocs);
    hash_num(&h, r->runtime);
    hash_kv(&h, 'i', r->inputs, r->ninputs);
    hash_kv(&h, 'm', r->metrics, r->nmetrics);
    /* an unknown count hashes as what such kernels were stored with before
     * migration 18 (0; 1 from Extra-P experiments), so that a file imported
     * then (its counts mended by that migration) is not stored again */
    no_calls = strcmp(b->format, "extrap-experiment") == 0 ? 1 : 0;
    for (size_t i = 0; i < r->nkernels; i++) {
        buf_putc(&h, 'k');
        hash_str(&h, r->kernels[i].name, '\x1f');
        hash_num(&h, KERNEL_HAS_CALLS(r->kernels[i].calls) ? (double)r->kernels[i].calls
                                                           : no_calls);
        /* an absent time hashes as the 0 s such kernels were stored with
         * before migration 14, so that a file imported then (its kernels
         * mended by that migration) is not stored again; the run's absent
         * runtime keeps these runs apart from timed ones */
        hash_num(&h, KERNEL_HAS_TIME(r->kernels[i].time) ? r->kernels[i].time : 0);
        hash_str(&h, r->kernels[i].metrics_json, '\x1e');
    }
    hash_str(&h, r->commit, '\x1d');
    hash_str(&h, r->branch, '\x1d');
    hash_str(&h, r->started_at, '\x1d');
    for (size_t i = 0; i < r->ntags; i++) {
        hash_str(&h, r->tags[i].key, '\x1f');
        hash_str(&h, r->tags[i].value, '\x1e');
    }
    if (buf_failed(&h)) {
        buf_free(&h);
        return err_nomem(err);
    }
    sha256(h.data, h.len, d);
    buf_free(&h);
    /* by table: 32 snprintf calls cost half as much as the hash itself */
    for (size_t i = 0; i < SHA256_LEN; i++) {
        hex[2 * i] = "0123456789abcdef"[d[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[d[i] & 15];
    }
    hex[2 * SHA256_LEN] = '\0';
    r->uid = arena_printf(b->a, "%s:%s", b->format, hex);
    if (r->uid == NULL)
        return err_nomem(err);
    /* after the uid: the import's inputs enter it as a tag (core/import.c),
     * the same whether the file or the import gives the value */
    if (add_inputs_from(b, r, identity, err) != 0)
        return -1;
    if (r->submitter == NULL)
        r->submitter = "";
    b->n++;
    b->total++;
    return 0;
}

int imp_batch_finish(struct imp_batch *b, struct err *err)
{
    return flush(b, err);
}

void imp_lines_init(struct imp_lines *l, const char *data, size_t len)
{
    l->p = data;
    l->end = data + len;
    l->lineno = 0;
}

int imp_lines_next(struct imp_lines *l, const char *file, const char **line, size_t *len,
                   struct err *err)
{
    const char *nl;
    size_t n;

    if (l->p >= l->end)
        return 0;
    l->lineno++;
    nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
    n = nl ? (size_t)(nl - l->p) : (size_t)(l->end - l->p);
    if (n > LIMIT_IMPORT_LINE)
        return imp_fail_line(err, file, l->lineno, "the line is longer than %u bytes",
                             LIMIT_IMPORT_LINE);
    if (memchr(l->p, '\0', n) != NULL)
        return imp_fail_line(err, file, l->lineno, "the line holds a NUL byte");
    *line = l->p;
    *len = n > 0 && l->p[n - 1] == '\r' ? n - 1 : n;
    l->p = nl ? nl + 1 : l->end;
    return 1;
}

__attribute__((format(printf, 4, 0))) static int fail_v(struct err *err,
                                                        const char *field,
                                                        const char *prefix,
                                                        const char *fmt, va_list ap)
{
    char msg[ERR_MESSAGE_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return err_set(err, ERR_INVALID, "invalid_import", field, "%s: %s", prefix, msg);
}

int imp_fail_line(struct err *err, const char *file, size_t line, const char *fmt, ...)
{
    char where[ERR_FIELD_MAX];
    va_list ap;
    int rc;

    snprintf(where, sizeof where, "%s:%zu", file ? file : "input", line);
    va_start(ap, fmt);
    rc = fail_v(err, where, where, fmt, ap);
    va_end(ap);
    return rc;
}

int imp_fail_field(struct err *err, const char *file, const char *field, const char *fmt,
                   ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = fail_v(err, field, file ? file : "input", fmt, ap);
    va_end(ap);
    return rc;
}

int imp_at_line(struct err *err, const struct err *inner, const char *file, size_t line)
{
    char where[ERR_FIELD_MAX];
    const char *msg = inner->message;
    size_t fl = strlen(file ? file : "input");

    if (err == NULL || err->status != 0)
        return -1;
    snprintf(where, sizeof where, "%s:%zu", file ? file : "input", line);
    if (inner->status != ERR_INVALID ||
        strncmp(inner->message, where, strlen(where)) == 0) {
        *err = *inner;
        return -1;
    }
    if (strncmp(msg, file ? file : "input", fl) == 0 && msg[fl] == ':' &&
        msg[fl + 1] == ' ')
        msg += fl + 2;
    return imp_fail_line(err, file, line, "%s", msg);
}

int imp_number(const char *s, size_t len, double *out)
{
    char tmp[64], *end;

    if (len == 0 || len >= sizeof tmp)
        return -1;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    if (isspace((unsigned char)tmp[0]))
        return -1;
    errno = 0;
    *out = strtod(tmp, &end);
    /* an underflow (4.9E-324, 1e-400) is a value, tiny or 0; an overflow is not */
    if (end != tmp + len || (errno == ERANGE && fabs(*out) > DBL_MIN) || !isfinite(*out))
        return -1;
    return 0;
}

int imp_integer(const char *s, size_t len, long long *out)
{
    char tmp[32], *end;

    if (len == 0 || len >= sizeof tmp)
        return -1;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    if (isspace((unsigned char)tmp[0]))
        return -1;
    errno = 0;
    *out = strtoll(tmp, &end, 10);
    if (end != tmp + len || errno == ERANGE)
        return -1;
    return 0;
}

char *imp_name(arena *a, const char *s, size_t len, const char *file, const char *what,
               struct err *err)
{
    char *out;

    while (len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len == 0) {
        imp_fail_field(err, file, what, "%s is empty", what);
        return NULL;
    }
    if (len > LIMIT_NAME) {
        imp_fail_field(err, file, what, "%s is longer than %d bytes", what, LIMIT_NAME);
        return NULL;
    }
    if (!utf8_valid(s, len)) {
        imp_fail_field(err, file, what, "%s is not valid UTF-8", what);
        return NULL;
    }
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
            imp_fail_field(err, file, what, "%s holds a control character", what);
            return NULL;
        }
    out = arena_strndup(a, s, len);
    if (out == NULL)
        err_nomem(err);
    return out;
}

static void json_str(struct buf *b, const char *s)
{
    buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            buf_putc(b, '\\');
        buf_putc(b, *s);
    }
    buf_putc(b, '"');
}

const char *imp_metrics_json(arena *a, const struct rec_kv *kv, size_t n, int *failed)
{
    struct buf b;
    char *out;

    if (n == 0)
        return NULL;
    buf_init(&b, 16u << 20);
    buf_putc(&b, '{');
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            buf_puts(&b, ", ");
        json_str(&b, kv[i].name); /* names are checked: no control characters */
        buf_puts(&b, ": ");
        buf_num(&b, kv[i].value);
    }
    buf_putc(&b, '}');
    out = buf_failed(&b) ? NULL : arena_strndup(a, b.data, b.len);
    buf_free(&b);
    if (out == NULL)
        *failed = 1;
    return out;
}

char *imp_base_name(arena *a, const char *path)
{
    const char *s = path ? path : "", *slash = strrchr(s, '/'), *dot;
    size_t n;

    if (slash)
        s = slash + 1;
    dot = strrchr(s, '.');
    n = dot && dot != s ? (size_t)(dot - s) : strlen(s);
    if (n == 0)
        return arena_strdup(a, "import");
    if (n > LIMIT_NAME)
        n = LIMIT_NAME;
    return arena_strndup(a, s, n);
}

static const char *skip_blank(const struct fmt_file *f, size_t *left)
{
    const char *p = f->data, *end = f->data + (f->len < 4096 ? f->len : 4096);

    if (f->len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3;
    while (p < end && isspace((unsigned char)*p))
        p++;
    *left = (size_t)(end - p);
    return p;
}

long imp_dir_len(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash ? (long)(slash - name) : 0;
}

int imp_starts_with(const struct fmt_file *f, const char *prefix)
{
    size_t left, n = strlen(prefix);
    const char *p = skip_blank(f, &left);
    return left >= n && memcmp(p, prefix, n) == 0;
}

int imp_contains(const struct fmt_file *f, const char *needle)
{
    size_t hay = f->len < 65536 ? f->len : 65536, n = strlen(needle);

    if (n == 0 || hay < n)
        return 0;
    /* memmem, not a memcmp at each occurrence of needle's first byte: that
     * is often '"', at every other byte of a JSON file, and each importer
     * that probes a file asks several needles */
    return memmem(f->data, hay, needle, n) != NULL;
}

json_t *imp_json_load(const struct fmt_file *f, struct err *err)
{
    json_error_t je;
    json_t *doc;

    if (f->len > LIMIT_IMPORT_DOC) {
        imp_fail_field(err, f->name, "file", "the document is larger than %u bytes",
                       LIMIT_IMPORT_DOC);
        return NULL;
    }
    doc = json_loadb(f->data, f->len, JSON_REJECT_DUPLICATES, &je);
    if (doc == NULL)
        imp_fail_line(err, f->name, (size_t)(je.line > 0 ? je.line : 1), "column %d: %s",
                      je.column, je.text);
    return doc;
}

int imp_is_nprocs(const char *param)
{
    static const char *const names[] = {"p",     "np",        "nprocs", "procs",
                                        "ranks", "processes", NULL};
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        if (strlen(param) == n) {
            size_t j = 0;
            while (j < n && tolower((unsigned char)param[j]) == names[i][j])
                j++;
            if (j == n)
                return 1;
        }
    }
    return 0;
}

static int digits(const char *s, int n)
{
    for (int i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

const char *imp_timestamp(arena *a, const char *s)
{
    char out[40];
    const char *rest;
    size_t i = 19;

    if (s == NULL || strlen(s) < 19 || !digits(s, 4) || (s[4] != '-' && s[4] != '/') ||
        !digits(s + 5, 2) || s[7] != s[4] || !digits(s + 8, 2) ||
        (s[10] != 'T' && s[10] != ' ' && s[10] != '-') || !digits(s + 11, 2) ||
        s[13] != ':' || !digits(s + 14, 2) || s[16] != ':' || !digits(s + 17, 2))
        return NULL;
    if (s[i] == '.') {
        i++;
        while (s[i] >= '0' && s[i] <= '9' && i < 29)
            i++;
    }
    rest = s + i;
    if (!(*rest == '\0' || strcmp(rest, "Z") == 0 ||
          ((*rest == '+' || *rest == '-') && strlen(rest) == 6 && digits(rest + 1, 2) &&
           rest[3] == ':' && digits(rest + 4, 2))))
        return NULL;
    snprintf(out, sizeof out, "%.4s-%.2s-%.2sT%.8s%.*s%s", s, s + 5, s + 8, s + 11,
             (int)(i - 19), s + 19, rest);
    return arena_strdup(a, out);
}

const char *imp_json_name(arena *a, json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return NULL;
    return imp_name(a, json_string_value(v), json_string_length(v), NULL, key, NULL);
}

size_t imp_json_tags(arena *a, json_t *obj, const char *const *skip,
                     struct rec_tag **tags, size_t *n, const char **first_over)
{
    const char *key;
    json_t *v;
    size_t over = 0;

    *tags = NULL;
    *n = 0;
    if (first_over)
        *first_over = NULL;
    if (!json_is_object(obj) ||
        (*tags = arena_alloc(a, LIMIT_TAGS * sizeof **tags)) == NULL)
        return 0;
    json_object_foreach(obj, key, v)
    {
        int skipped = 0;
        const char *k, *val;
        if (!json_is_string(v))
            continue;
        for (size_t i = 0; skip[i]; i++)
            skipped |= strcmp(key, skip[i]) == 0;
        if (skipped)
            continue;
        /* a key that is too long stays, for the run rules to refuse */
        k = arena_strdup(a, key);
        val = imp_name(a, json_string_value(v), json_string_length(v), NULL, "tag", NULL);
        if (k == NULL || val == NULL)
            continue;
        if (*n >= LIMIT_TAGS) {
            if (over++ == 0 && first_over)
                *first_over = k;
            continue;
        }
        (*tags)[(*n)++] = (struct rec_tag){k, val};
    }
    return over;
}

unsigned long long imp_hash(unsigned long long h, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static int map_grow(struct imp_map *m)
{
    size_t nc = m->cap ? m->cap * 2 : 64;
    struct imp_map_slot *ne = xcalloc(nc, sizeof *ne);
    if (ne == NULL)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        size_t j;
        if (m->e[i].key == NULL)
            continue;
        j = (size_t)imp_hash(IMP_HASH0, m->e[i].key, m->e[i].len) & (nc - 1);
        while (ne[j].key != NULL)
            j = (j + 1) & (nc - 1);
        ne[j] = m->e[i];
    }
    xfree(m->e);
    m->e = ne;
    m->cap = nc;
    return 0;
}

int imp_map_get(const struct imp_map *m, const char *key, size_t len, size_t *val)
{
    size_t j;
    if (m->cap == 0)
        return 0;
    j = (size_t)imp_hash(IMP_HASH0, key, len) & (m->cap - 1);
    for (; m->e[j].key != NULL; j = (j + 1) & (m->cap - 1))
        if (m->e[j].len == len && memcmp(m->e[j].key, key, len) == 0) {
            *val = m->e[j].val;
            return 1;
        }
    return 0;
}

int imp_map_put(struct imp_map *m, const char *key, size_t len, size_t val)
{
    size_t j;
    if ((m->n + 1) * 2 > m->cap && map_grow(m) != 0)
        return -1;
    j = (size_t)imp_hash(IMP_HASH0, key, len) & (m->cap - 1);
    while (m->e[j].key != NULL)
        j = (j + 1) & (m->cap - 1);
    m->e[j].key = key;
    m->e[j].len = len;
    m->e[j].val = val;
    m->n++;
    return 0;
}

void imp_map_free(struct imp_map *m)
{
    xfree(m->e);
    memset(m, 0, sizeof *m);
}

char *imp_path_name(arena *a, const char *head, size_t head_len, const char *tail,
                    size_t tail_len, size_t full_len, unsigned long long h)
{
    char mark[32];
    size_t ml, room, start;

    if (full_len <= LIMIT_NAME && tail_len == full_len)
        return arena_strndup(a, tail, tail_len);
    /* a long first part keeps its start: the function's name of a flat TAU
     * or Caliper label ("KDTree::make_tree(...) [{/home/.../KDTree.cpp}
     * {86,0}]"), whose end below is its source file's */
    if (head_len > LIMIT_NAME / 4) {
        head_len = LIMIT_NAME / 4;
        while (head_len > 0 && ((unsigned char)head[head_len] & 0xc0) == 0x80)
            head_len--;
    }
    /* "HEAD/…XXXXXXXX/" */
    ml = (size_t)snprintf(mark, sizeof mark, "\xe2\x80\xa6%08llx/", h & 0xffffffffull);
    room = LIMIT_NAME - ml - (head_len ? head_len + 1 : 0);
    /* the longest end of tail that fits and starts at a label ("/x"), else
     * at a character */
    start = tail_len > room ? tail_len - room : 0;
    {
        size_t s = start;
        while (s < tail_len && tail[s] != '/')
            s++;
        if (s + 1 < tail_len)
            start = s + 1;
        else
            while (start < tail_len && ((unsigned char)tail[start] & 0xc0) == 0x80)
                start++;
    }
    return arena_printf(a, "%.*s%s%s%.*s", (int)head_len, head ? head : "",
                        head_len ? "/" : "", mark, (int)(tail_len - start), tail + start);
}

/* See import.h. The application a binary names: its file name ("./bench_sort"
 * -> bench_sort, "x.exe" -> x); for a.out, which names nothing, the nearest
 * directory that is not a build directory ("proj/build/a.out" -> proj); else
 * the imported file's name. */
const char *imp_program_name(arena *a, const char *exe, const char *file)
{
    static const char *const generic[] = {
        "build",          "bin",    "out",     "release", "debug", "Release", "Debug",
        "RelWithDebInfo", "x86_64", "aarch64", ".",       "..",    "",        NULL};
    const char *end, *start;
    size_t len;

    if (exe == NULL || *exe == '\0')
        return file ? imp_base_name(a, file) : NULL;
    end = exe + strlen(exe);
    while (end > exe && end[-1] == '/')
        end--;
    start = end;
    while (start > exe && start[-1] != '/')
        start--;
    len = (size_t)(end - start);
    if (len > 4 && strcmp(start + len - 4, ".exe") == 0)
        len -= 4;
    if (!(len == 5 && memcmp(start, "a.out", 5) == 0) && len > 0 && len <= LIMIT_NAME)
        return arena_strndup(a, start, len);
    /* a.out: walk up the directories */
    while (start > exe) {
        int g = 0;
        end = start - 1; /* at the "/" */
        while (end > exe && end[-1] == '/')
            end--;
        start = end;
        while (start > exe && start[-1] != '/')
            start--;
        len = (size_t)(end - start);
        for (int i = 0; generic[i]; i++)
            g |= strlen(generic[i]) == len && memcmp(generic[i], start, len) == 0;
        if (!g && len <= LIMIT_NAME)
            return arena_strndup(a, start, len);
    }
    return file ? imp_base_name(a, file) : NULL;
}

static voidpf imp_zalloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return size && items > SIZE_MAX / size ? NULL : xmalloc((size_t)items * size);
}

static void imp_zfree(voidpf opaque, voidpf p)
{
    (void)opaque;
    xfree(p);
}

void imp_zstream(z_stream *z)
{
    memset(z, 0, sizeof *z);
    z->zalloc = imp_zalloc;
    z->zfree = imp_zfree;
}
