/* run_line: a run record as one line of text, so that an importer's test
 * checks a whole record in one comparison:
 *   app|exe|sys|np=N|rt=T|in:a=1,b=2|m:x=3|k:name=T[xCALLS][{metrics}];...
 *   [|c=COMMIT|t=STARTED][|key=value...]
 * The parts in brackets only with the flags that ask for them (each test
 * file keeps the lines its expectations were written in). */
#ifndef PROPHECY_TESTS_RUN_LINE_H
#define PROPHECY_TESTS_RUN_LINE_H

#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "formats/record.h"

enum {
    RUN_LINE_CALLS = 1,    /* "xN" after a kernel's time when its count is known */
    RUN_LINE_KMETRICS = 2, /* a kernel's metrics object after its time */
    RUN_LINE_VCS = 4,      /* "|c=...|t=..." when the run has a commit or a start */
    RUN_LINE_TAGS = 8      /* "|key=value" per tag */
};

static inline void run_line_kvs(struct buf *b, const char *tag, const struct rec_kv *kv,
                                size_t n)
{
    buf_printf(b, "|%s:", tag);
    for (size_t i = 0; i < n; i++) {
        buf_printf(b, "%s%s=", i ? "," : "", kv[i].name);
        buf_num(b, kv[i].value);
    }
}

static inline void run_line(struct buf *b, const struct run_record *r, unsigned flags)
{
    buf_printf(b, "%s|%s|%s|np=%lld|rt=", r->application, r->executable, r->system,
               r->nprocs);
    if (RUN_HAS_RUNTIME(r->runtime))
        buf_num(b, r->runtime);
    else
        buf_puts(b, "none");
    run_line_kvs(b, "in", r->inputs, r->ninputs);
    run_line_kvs(b, "m", r->metrics, r->nmetrics);
    buf_puts(b, "|k:");
    for (size_t k = 0; k < r->nkernels; k++) {
        const struct rec_kernel *kr = &r->kernels[k];
        buf_printf(b, "%s%s=", k ? ";" : "", kr->name);
        if (KERNEL_HAS_TIME(kr->time))
            buf_num(b, kr->time);
        else
            buf_puts(b, "none");
        /* a count shows, 0 too; an unknown one does not (SPEC §16) */
        if ((flags & RUN_LINE_CALLS) && KERNEL_HAS_CALLS(kr->calls))
            buf_printf(b, "x%lld", kr->calls);
        if ((flags & RUN_LINE_KMETRICS) && kr->metrics_json)
            buf_puts(b, kr->metrics_json);
    }
    if ((flags & RUN_LINE_VCS) && (r->commit || r->started_at))
        buf_printf(b, "|c=%s|t=%s", r->commit ? r->commit : "",
                   r->started_at ? r->started_at : "");
    for (size_t t = 0; (flags & RUN_LINE_TAGS) && t < r->ntags; t++)
        buf_printf(b, "|%s=%s", r->tags[t].key, r->tags[t].value);
}

/* What an importer gave a test: one line a record (up to RUN_LINES_MAX),
 * runs as run_line writes them with flags. */
#define RUN_LINES_MAX 64
struct run_lines {
    char *line[RUN_LINES_MAX];
    size_t n;
    unsigned flags;
};

/* Keeps b's text as the next line and frees b. */
static inline void run_lines_add(struct run_lines *g, struct buf *b)
{
    if (g->n < RUN_LINES_MAX)
        g->line[g->n++] = xstrdup(buf_str(b));
    buf_free(b);
}

/* A fmt_sink's runs callback; ctx is a struct run_lines. */
static inline int run_lines_take(void *ctx, const struct run_record *r, size_t n,
                                 struct err *err)
{
    struct run_lines *g = ctx;
    (void)err;
    for (size_t i = 0; i < n; i++) {
        struct buf b;
        buf_init(&b, 1 << 16);
        run_line(&b, &r[i], g->flags);
        run_lines_add(g, &b);
    }
    return 0;
}

/* Frees the lines (the flags stay). */
static inline void run_lines_free(struct run_lines *g)
{
    for (size_t i = 0; i < g->n; i++)
        xfree(g->line[i]);
    g->n = 0;
}

#endif
