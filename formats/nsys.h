/* nsys: what an Nsight Systems SQLite export (`nsys export --type sqlite`)
 * holds for an import, as typed rows (SPEC §16's nsys-sqlite).
 *
 * The export is an SQLite database; reading it needs SQL, which lives only
 * in db/ (db/nsys.h reads one into these rows). formats/import_nsys.c turns
 * the rows into a run, through the reader the caller registers
 * (fmt_nsys_set_reader), so formats/ stays free of SQL and of the database
 * while the table of formats keeps the row.
 */
#ifndef PROPHECY_FORMATS_NSYS_H
#define PROPHECY_FORMATS_NSYS_H

#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"

enum nsys_kind {
    NSYS_KERNEL = 0, /* CUPTI_ACTIVITY_KIND_KERNEL, by demangled name */
    NSYS_MEMCPY,     /* CUPTI_ACTIVITY_KIND_MEMCPY, by copy kind */
    NSYS_MEMSET,     /* CUPTI_ACTIVITY_KIND_MEMSET, all together */
    NSYS_RUNTIME,    /* CUPTI_ACTIVITY_KIND_RUNTIME (CUDA API calls), by name */
    NSYS_NVTX        /* NVTX_EVENTS push/pop and start/end ranges, by text */
};

/* One aggregate: `count` activities of one name (or copy kind), their
 * durations in ns (total, shortest, longest) and the bytes they moved. */
struct nsys_group {
    int kind;            /* enum nsys_kind */
    const char *name;    /* kernel or API name (arena); NULL for MEMCPY, MEMSET */
    long long copy_kind; /* MEMCPY: CUPTI's copyKind (1 HtoD, 2 DtoH, 8 DtoD, ...) */
    long long count;
    long long total_ns, min_ns, max_ns;
    long long bytes;
};

struct nsys_export {
    struct nsys_group *groups; /* arena; kernels by total time first */
    size_t ngroups;
    long long duration_ns; /* the capture's length (ANALYSIS_DETAILS), else the
                              activities' span; -1 when nothing says */
    long long nprocs;      /* processes with CUDA activity (>= 0) */
    const char *process;   /* their one program name (PROCESSES), or NULL */
    const char *started;   /* the capture's UTC start as written, or NULL */
    const char *hostname;  /* TARGET_INFO_SYSTEM_ENV Hostname, or NULL */
    const char *gpu;       /* the one GPU model (TARGET_INFO_GPU), or NULL */
    const char *version;   /* EXPORT_PRODUCT_VERSION, or NULL */
};

/* Reads the export `data` (len bytes, borrowed, unchanged) into *out (strings
 * and arrays in a). Returns 0, or -1 with an ERR_INVALID error naming `file` for a
 * file that is not an SQLite database, is damaged, or exceeds the limits of
 * formats/limits.h. */
typedef int (*fmt_nsys_read_fn)(const char *file, const char *data, size_t len, arena *a,
                                struct nsys_export *out, struct err *err);

/* Sets the reader nsys-sqlite imports go through (db/nsys.h's db_nsys_read;
 * core/import.c sets it before every import). Until set, nsys-sqlite is
 * refused with an ERR_INVALID. Thread-safe (an atomic pointer). */
void fmt_nsys_set_reader(fmt_nsys_read_fn fn);

#endif
