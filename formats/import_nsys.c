/* import_nsys: an Nsight Systems SQLite export (`nsys export --type sqlite`)
 * into one run (SPEC §16's nsys-sqlite).
 *
 * The export is an SQLite database, read by db/nsys.h into the typed rows of
 * formats/nsys.h (SQL lives in db/; this file never sees it): the reader is
 * registered by the caller (fmt_nsys_set_reader). What becomes of the rows:
 *  - each GPU kernel name (CUPTI_ACTIVITY_KIND_KERNEL by its demangled name
 *    in StringIds) is a kernel: time = the total of its launches' durations,
 *    calls and metric `count` the launches, metrics `min` and `max` the
 *    shortest and longest launch;
 *  - memory copies per direction ("[CUDA memcpy HtoD]", nsys' own names) and
 *    memsets ("[CUDA memset]") are kernels the same way, with metric `bytes`;
 *  - each CUDA runtime API (CUPTI_ACTIVITY_KIND_RUNTIME, "cudaMemcpy", ...)
 *    is a kernel the same way, and so is each NVTX range name (NVTX_EVENTS
 *    push/pop and start/end ranges: user ranges, and the MPI calls nsys
 *    traces as such);
 *  - the run: runtime = the capture's duration (ANALYSIS_DETAILS, else the
 *    span of the API calls or kernels), nprocs = the processes with CUDA
 *    activity, application = their program's name (PROCESSES) else the
 *    file's, start = the capture's UTC start; tags `hostname`, `gpu` and
 *    `nsys_version` where the export holds them.
 * All times are nanoseconds in the export, seconds here. GPU work overlaps
 * the API calls that launched it, so kernel times are not parts of the
 * runtime and may add up to more.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "formats/import.h"
#include "formats/limits.h"
#include "formats/nsys.h"

static _Atomic(fmt_nsys_read_fn) reader;

void fmt_nsys_set_reader(fmt_nsys_read_fn fn)
{
    atomic_store(&reader, fn);
}

/* nsys' names of CUPTI's copy kinds (CUpti_ActivityMemcpyKind). */
static const char *copy_name(long long kind)
{
    static const char *const names[] = {
        "[CUDA memcpy Unknown]", "[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]",
        "[CUDA memcpy HtoA]",    "[CUDA memcpy AtoH]", "[CUDA memcpy AtoA]",
        "[CUDA memcpy AtoD]",    "[CUDA memcpy DtoA]", "[CUDA memcpy DtoD]",
        "[CUDA memcpy HtoH]",    "[CUDA memcpy PtoP]"};
    return kind >= 0 && kind < (long long)(sizeof names / sizeof names[0])
               ? names[kind]
               : "[CUDA memcpy Unknown]";
}

/* The program's name from its path ("./saxpy" -> "saxpy"), in the arena. */
static const char *program(arena *a, const char *path)
{
    char cut[LIMIT_NAME + 1];
    const char *slash = strrchr(path, '/');
    if (slash != NULL && slash[1] != '\0')
        path = slash + 1;
    return imp_name_cut(path, cut) > 0 ? arena_strdup(a, cut) : NULL;
}

int import_nsys_sqlite(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err)
{
    fmt_nsys_read_fn read = atomic_load(&reader);
    struct imp_batch b = {0};
    struct nsys_export x;
    struct run_record *r;
    const char *file;
    arena *a = NULL;
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "nsys-sqlite reads one file at a time");
    file = files[0].name;
    if (read == NULL)
        return imp_fail_field(err, file, "format",
                              "this program cannot read Nsight Systems exports");
    if ((a = arena_new()) == NULL)
        return err_nomem(err);
    if (read(file, files[0].data, files[0].len, a, &x, err) != 0)
        goto out;
    if (x.ngroups == 0) {
        imp_fail_field(err, file, "CUPTI_ACTIVITY_KIND_KERNEL",
                       "the export holds no CUDA kernels, memory copies or API calls");
        goto out;
    }
    if (imp_batch_init(&b, "nsys-sqlite", file, sink, err) != 0 ||
        (r = imp_batch_slot(&b, err)) == NULL)
        goto out;
    if (opt && opt->application)
        r->application = opt->application;
    else if (x.process != NULL && (r->application = program(b.a, x.process)) != NULL)
        ;
    else
        r->application = imp_base_name(b.a, file);
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = x.nprocs > 0 ? x.nprocs : 1;
    r->runtime = x.duration_ns > 0 ? (double)x.duration_ns / 1e9 : 0;
    if (x.started != NULL) {
        const char *t = imp_timestamp(b.a, x.started);
        /* nsys writes the UTC time without a zone */
        if (t != NULL && strlen(t) == 19)
            t = arena_printf(b.a, "%sZ", t);
        r->started_at = t;
    }
    r->tags = arena_alloc(b.a, 3 * sizeof *r->tags);
    r->kernels = arena_alloc(b.a, x.ngroups * sizeof *r->kernels);
    if (r->application == NULL || r->tags == NULL || r->kernels == NULL) {
        err_nomem(err);
        goto out;
    }
    {
        const char *key[3] = {"hostname", "gpu", "nsys_version"};
        const char *val[3] = {x.hostname, x.gpu, x.version};
        char cut[LIMIT_NAME + 1];
        for (int i = 0; i < 3; i++)
            if (val[i] != NULL && imp_name_cut(val[i], cut) > 0)
                r->tags[r->ntags++] = (struct rec_tag){key[i], arena_strdup(b.a, cut)};
    }
    for (size_t i = 0; i < x.ngroups; i++) {
        const struct nsys_group *g = &x.groups[i];
        struct rec_kernel *k = &r->kernels[r->nkernels];
        struct rec_kv m[4];
        size_t nm = 0;
        int failed = 0;
        char cut[LIMIT_NAME + 1];
        const char *name = g->kind == NSYS_MEMCPY   ? copy_name(g->copy_kind)
                           : g->kind == NSYS_MEMSET ? "[CUDA memset]"
                                                    : g->name;
        if (name == NULL || imp_name_cut(name, cut) == 0)
            snprintf(cut, sizeof cut, "%s",
                     g->kind == NSYS_KERNEL ? "(unnamed kernel)"
                     : g->kind == NSYS_NVTX ? "(unnamed range)"
                                            : "(unnamed API call)");
        if ((k->name = arena_strdup(b.a, cut)) == NULL) {
            err_nomem(err);
            goto out;
        }
        k->time = (double)g->total_ns / 1e9;
        k->calls = g->count;
        m[nm++] = (struct rec_kv){"count", (double)g->count};
        m[nm++] = (struct rec_kv){"min", (double)g->min_ns / 1e9};
        m[nm++] = (struct rec_kv){"max", (double)g->max_ns / 1e9};
        if (g->kind == NSYS_MEMCPY || g->kind == NSYS_MEMSET)
            m[nm++] = (struct rec_kv){"bytes", (double)g->bytes};
        k->metrics_json = imp_metrics_json(b.a, m, nm, &failed);
        if (failed) {
            err_nomem(err);
            goto out;
        }
        r->nkernels++;
    }
    if (imp_batch_commit(&b, "export", err) != 0)
        goto out;
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    arena_free(a);
    return rc;
}

int sniff_nsys_sqlite(const struct fmt_file *files, size_t nfiles)
{
    if (nfiles != 1 || files[0].len < 100 ||
        memcmp(files[0].data, "SQLite format 3", 16) != 0)
        return 0;
    return imp_contains(&files[0], "StringIds") ||
           imp_contains(&files[0], "CUPTI_ACTIVITY_KIND") ||
           imp_contains(&files[0], "TARGET_INFO_");
}
