/* Fuzz target: one importer of the table of formats, chosen at build time
 * (FUZZ_FORMAT, e.g. "extrap-text"; fuzz/CMakeLists.txt makes one target
 * fuzz_import_<name> per format). The input is read as an upload is
 * (core/import.h import_unpack, bounded by the server's default body
 * limit): gzip inflated, a tar archive read as its files, and directory
 * formats (tau, otf2) always take it as a tar archive, so the gzip and tar
 * readers are fuzzed with them. Any input
 * must either give records that keep the upload rules (every string
 * readable, nprocs >= 1, finite non-negative times, a uid on every run) or
 * fail with a 4xx and a message, and never both hand over records and
 * succeed partially. */
#include "common/xalloc_json.h"
#include "common/arena.h"
#include "common/xalloc.h"
#include "core/import.h"
#include "formats/limits.h"
#include "formats/trace.h"
#include "db/nsys.h"
#include "formats/formats.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT "auto"
#endif

static size_t touch(const char *s)
{
    return s ? strlen(s) : 0;
}

static int runs(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    size_t *total = ctx;
    (void)err;
    for (size_t i = 0; i < n; i++) {
        *total += touch(r[i].application) + touch(r[i].executable) + touch(r[i].system) +
                  touch(r[i].commit) + touch(r[i].branch) + touch(r[i].started_at);
        /* The upload rules (SPEC §4, §16): a runtime is finite and
         * non-negative (0 is a legal measurement: a run shorter than its
         * clock resolution), or absent (NAN) in a run that carries a kernel
         * or a metric. A kernel's time likewise: finite and non-negative, or
         * absent (NAN) where the file has none for it; never infinite. */
        if (r[i].uid == NULL || r[i].nprocs < 1 ||
            (isnan(r[i].runtime) ? r[i].nkernels + r[i].nmetrics == 0
                                 : !isfinite(r[i].runtime) || r[i].runtime < 0))
            __builtin_trap();
        for (size_t k = 0; k < r[i].nkernels; k++) {
            *total += touch(r[i].kernels[k].name) + touch(r[i].kernels[k].metrics_json);
            double t = r[i].kernels[k].time;
            if (!isnan(t) && (!isfinite(t) || t < 0))
                __builtin_trap();
        }
        for (size_t k = 0; k < r[i].ninputs; k++) {
            *total += touch(r[i].inputs[k].name);
            if (!isfinite(r[i].inputs[k].value))
                __builtin_trap();
        }
        for (size_t k = 0; k < r[i].nmetrics; k++)
            *total += touch(r[i].metrics[k].name);
    }
    return 0;
}

static int benchmarks(void *ctx, const char *system, const struct bench_record *b,
                      size_t n, struct err *err)
{
    size_t *total = ctx;
    (void)err;
    *total += touch(system);
    for (size_t i = 0; i < n; i++) {
        *total += touch(b[i].name) + touch(b[i].args_json) + touch(b[i].stat);
        if (!isfinite(b[i].time) || b[i].time < 0)
            __builtin_trap();
    }
    return 0;
}

/* A trace a parser hands over (OTF2, chrome-trace) must be one the store
 * takes: every rank encodes in the recorder's format and reads back. */
static int traces(void *ctx, const char *uid, struct trace *t, struct err *err)
{
    unsigned char *buf[LIMIT_TRACE_RANKS];
    size_t len[LIMIT_TRACE_RANKS];
    struct trace *back = NULL;
    struct err e = {0};
    int n = 0;
    (void)ctx;
    (void)err;
    if (uid == NULL || t == NULL || t->nranks < 1 || t->nranks > LIMIT_TRACE_RANKS)
        __builtin_trap();
    for (; n < t->nranks; n++)
        if (trace_encode(t, n, &buf[n], &len[n], &e) != 0)
            __builtin_trap();
    if (trace_parse((const void *const *)buf, len, n, &back, &e) != 0)
        __builtin_trap();
    trace_free(back);
    for (int i = 0; i < n; i++)
        xfree(buf[i]);
    trace_free(t);
    return 0;
}

/* Jansson allocates through xalloc, as in the server. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    xalloc_json();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t total = 0;
    struct fmt_sink sink = {runs, benchmarks, &total, traces, NULL, NULL, 0};
    struct err e = {0};
    struct fmt_file *files;
    struct fmt_options opt = {0};
    const char *set_name;
    size_t n;
    arena *a = arena_new();
    int rc;

    if (a == NULL)
        return 0;
    fmt_nsys_set_reader(db_nsys_read); /* nsys-sqlite reads through db/ */
    if (import_unpack("fuzz.in", (const char *)data, size, FUZZ_FORMAT,
                      LIMIT_BODY_DEFAULT, a, &files, &n, &set_name, &e) != 0) {
        if ((e.status != ERR_INVALID && e.status != ERR_TOO_LARGE &&
             e.status != ERR_NOMEM) ||
            e.message[0] == '\0')
            __builtin_trap();
        arena_free(a);
        return 0;
    }
    opt.source = set_name; /* an archive's name names the set */
    for (int pass = 0; pass < 2; pass++) {
        /* then, where it was read, once more taking inputs from the files
         * (their metadata: Caliper's globals, TAU's attributes, tags) */
        static const char *const from[] = {"N", "problem_size"};
        if (pass == 1) {
            sink.inputs_from = from;
            sink.ninputs_from = 2;
        }
        rc = fmt_parse(FUZZ_FORMAT, files, n, &opt, &sink, &e);
        if (rc != 0 && (e.status == ERR_NONE || e.message[0] == '\0'))
            __builtin_trap();
        if (rc == 0 && e.status != 0)
            __builtin_trap();
        if (rc != 0)
            break;
    }
    arena_free(a);
    return 0;
}
