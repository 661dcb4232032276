/* record: the typed records that outside data becomes.
 *
 * Every parser of outside input (run documents, CSV, the importers of SPEC
 * §12, traces) produces these plain value structs, and the store (db/)
 * takes them; neither side knows the other's details. Strings and arrays are
 * borrowed: they live in the arena or buffer of whoever parsed them, for as
 * long as that lives. A record is checked (formats/validate) before it is
 * stored, against the bounds of formats/limits.h.
 */
#ifndef PROPHECY_FORMATS_RECORD_H
#define PROPHECY_FORMATS_RECORD_H

#include <math.h>
#include <stddef.h>

/* A named number: one input (N = 1000) or one metric (mflops = 1596). */
struct rec_kv {
    const char *name;
    double value;
};

/* One kernel record within a run. */
struct rec_kernel {
    const char *name;
    /* Seconds, or NAN when the file has no time for it (SPEC §16: a file
     * whose metrics are counts, bytes, visits); KERNEL_HAS_TIME tells. */
    double time;
    /* How often it ran, or KERNEL_NO_CALLS when the file counts no calls
     * (SPEC §16: Extra-P, Caliper, HPCToolkit; a CUBE profile without
     * visits), stored as NULL; KERNEL_HAS_CALLS tells. Never a made-up 0. */
    long long calls;
    const char *metrics_json; /* JSON object text or NULL */
};

/* One tag of a run's provenance (SPEC §11): key = value. */
struct rec_tag {
    const char *key;
    const char *value;
};

/* One run: an execution of an executable on a system (SPEC §3). */
struct run_record {
    const char *uid; /* client id or NULL */
    const char *application;
    const char *executable;
    const char *system;
    long long nprocs;
    /* Seconds, or NAN when the run has no time of its own (SPEC §16: a file
     * with metrics or kernels but no time metric); RUN_HAS_RUNTIME tells. */
    double runtime;
    const char *started_at; /* ISO 8601 or NULL */
    const char *submitter;  /* token name or "" */
    struct rec_kv *inputs;
    size_t ninputs;
    struct rec_kv *metrics;
    size_t nmetrics;
    struct rec_kernel *kernels;
    size_t nkernels;
    /* Provenance (SPEC §11), filled by the importers; NULL / 0 when unknown.
     * Stored with the run (runs.vcs_commit, runs.vcs_branch, run_tags). */
    const char *commit;
    const char *branch;
    struct rec_tag *tags;
    size_t ntags;
    /* What the file says of the run besides (Caliper's and Adiak's globals:
     * problem_size = "30"): neither stored nor hashed; read only for an
     * input the import takes from the files (fmt_sink.inputs_from). */
    struct rec_tag *meta;
    size_t nmeta;
};

/* Whether a run's runtime is present (absent is NAN, stored as NULL). */
#define RUN_HAS_RUNTIME(rt) (!isnan(rt))
/* Whether a kernel's time is present (absent is NAN, stored as NULL). */
#define KERNEL_HAS_TIME(t) (!isnan(t))
/* A kernel's unknown call count (stored as NULL) and the test for one. */
#define KERNEL_NO_CALLS (-1LL)
#define KERNEL_HAS_CALLS(c) ((c) >= 0)

/* One system benchmark measurement (MPISR over L = 1024: 0.000078 s). A
 * series of measurements is a name with its label and test: label, the words
 * that tell it from another series of the same name (an OSU log's line before
 * its table, "Testing Same CCX"), and test, the tool's name of the test that
 * measured it (osu_latency); NULL or "" where the source gives none. */
struct bench_record {
    const char *name;
    const char *args_json; /* canonical JSON object text */
    double time;
    const char *stat;
    const char *label; /* at most LIMIT_BENCH_LABEL bytes of UTF-8 */
    const char *test;  /* at most LIMIT_BENCH_TEST bytes of UTF-8 */
};

/* One system parameter (MPISR(L) = a + b*L), SPEC §5.2. */
struct param_record {
    const char *name;
    const char *args; /* "L" or "L,P" or "" */
    const char *expression;
    const char *source;
};

/* One measured coupling of a chain of kernels (SPEC §5.3). */
struct coupling_record {
    const char *application, *system;
    long long nprocs;
    const char *inputs_json;  /* JSON object text */
    const char *kernels_json; /* JSON array of names */
    const char *alone_json;   /* JSON array of times */
    double together;
};

#endif
