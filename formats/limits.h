/* limits: every limit on outside input, in one place.
 *
 * Whatever a user, a job or a file sends is bounded by a number here, and
 * every layer that reads such input (run documents, CSV, imports, the JSON
 * API's modeling requests, the web forms, the pages' query strings) takes
 * its bound from this header. One number per kind of thing, so that anything
 * that can be stored can also be selected, fitted, plotted and shown: a
 * kernel name the upload accepts is a kernel name the fit accepts.
 *
 * Plain macros only: this header includes nothing and may be included from
 * any layer (models/ excepted, which stays free of our other headers; the
 * expression language's own bounds live in models/expr.h).
 */
#ifndef PROPHECY_FORMATS_LIMITS_H
#define PROPHECY_FORMATS_LIMITS_H

/* ---- transport ------------------------------------------------------------ */
#define LIMIT_BODY_DEFAULT (8u << 20) /* bytes of one request body (--max-body) */
#define LIMIT_PATH_PARAMS 4           /* captured segments of one route */
/* Bytes of a refused request body (413, 401, ...) read and dropped after the
 * early answer before the connection closes, so that a client sending it
 * without Expect: 100-continue reads the answer instead of a TCP reset
 * (lingering close, as nginx's lingering_close); announced larger bodies
 * are not waited for. */
#define LIMIT_LINGER_BODY (64ull << 20)
#define LIMIT_QUERY_PARAMS 64   /* parameters of one query string */
#define LIMIT_QUERY_BYTES 32768 /* bytes of one query string (raw) */

/* ---- names and text ------------------------------------------------------- */
/* Bytes of any name: application, executable, system, kernel, input, metric,
 * template, system parameter, benchmark, token, and a variable used as x. */
#define LIMIT_NAME 256
#define LIMIT_DESCRIPTION 4096 /* bytes of a description or other free text */
#define LIMIT_EXPR 4096        /* bytes of one template or parameter expression */
#define LIMIT_STAT 32          /* bytes of a benchmark statistic's name */
#define LIMIT_IDENT 64      /* bytes of an identifier (a parameter or benchmark name) */
#define LIMIT_BENCH_ARGS 16 /* arguments of one benchmark measurement */
/* bytes of a benchmark series' label ("Testing Same CCX") and of the test that
 * measured it (osu_latency) */
#define LIMIT_BENCH_LABEL 256
#define LIMIT_BENCH_TEST 64

/* ---- run documents (and every importer's runs) ---------------------------- */
#define LIMIT_KERNELS 10000     /* kernel records in one run */
#define LIMIT_INPUTS 64         /* named inputs of one run */
#define LIMIT_METRICS 256       /* named metrics of one run (and of one kernel) */
#define LIMIT_BATCH 10000       /* runs in one request, file or import */
#define LIMIT_BENCHMARKS 100000 /* system benchmark records in one request */
#define LIMIT_PARAMS 256        /* system parameters in one request */
#define LIMIT_CHAIN 16          /* kernels in one coupling chain */
#define LIMIT_COUPLINGS 10000   /* coupling measurements in one request */

/* ---- CSV -------------------------------------------------------------------- */
#define LIMIT_CSV_COLS 128   /* columns of one CSV row */
#define LIMIT_CSV_FIELD 4096 /* bytes of one CSV field */

/* ---- imports (SPEC §12) ------------------------------------------------------ */
#define LIMIT_IMPORT_FILE (1ull << 30) /* bytes of one imported file (streamed) */
#define LIMIT_IMPORT_FILES 100000      /* files of one directory import or tar */
#define LIMIT_IMPORT_LINE (16u << 20)  /* bytes of one line (text, JSON lines) */
#define LIMIT_IMPORT_DOC (64u << 20)   /* bytes of one whole-document JSON import */
#define LIMIT_IMPORT_PARAMS 16         /* parameters of an Extra-P experiment */
#define LIMIT_IMPORT_POINTS 100000     /* points of an Extra-P experiment */
#define LIMIT_IMPORT_REPS 1000         /* repetitions of one point */
#define LIMIT_IMPORT_VALUES 4000000    /* measured values of an Extra-P experiment */
#define LIMIT_IMPORT_RUNS 1000000      /* runs of one import (streamed in batches) */
#define LIMIT_IMPORT_BATCH 256         /* runs handed to the sink at once */
#define LIMIT_IMPORT_TAU_FUNCS 100000  /* functions of one TAU profile */
#define LIMIT_IMPORT_TAU_METRICS 16    /* metrics (MULTI__ directories) of one TAU run */
#define LIMIT_IMPORT_TAU_EVENTS 64     /* user events of one TAU run (4 metrics each) */
/* What an import says it left out (a table of a test it does not read): at
 * most this many notes of at most LIMIT_IMPORT_NOTE_LEN bytes each. */
#define LIMIT_IMPORT_NOTES 8
#define LIMIT_IMPORT_NOTE_LEN 240
#define LIMIT_IMPORT_OTF2_EVENTS 100000000 /* events read from one OTF2 trace */
/* Memory the OTF2 reader process may add to what it inherits: BASE plus
 * PER_BYTE times the archive's bytes, at most MEMORY (a 1 MB archive: 256 MiB;
 * the library's buffers and the events kept for the trace fit in it). */
#define LIMIT_IMPORT_OTF2_MEMORY (8ull << 30)
#define LIMIT_IMPORT_OTF2_MEMORY_BASE (192ull << 20)
#define LIMIT_IMPORT_OTF2_MEMORY_PER_BYTE 64
#define LIMIT_IMPORT_OTF2_CPU 600    /* CPU seconds of the OTF2 reader process */
#define LIMIT_COMMIT 64              /* bytes of a commit (SPEC §11) */
#define LIMIT_TAGS 32                /* tags of one run (SPEC §11) */
#define LIMIT_META 256               /* metadata of one run read for inputs (Adiak) */
#define LIMIT_COMPARE_CONFIGS 10000  /* configurations one comparison reports */
#define LIMIT_COMPARE_VALUES 2000000 /* values the sides of a comparison hold */
#define LIMIT_ALERTS_PAGE 1000       /* alerts of one GET /api/v1/alerts page (?limit=) */
#define LIMIT_WATCHES 1000           /* watches in one database */
#define LIMIT_CHANGES_CONFIGS                                                            \
    10000                       /* configurations one GET /api/v1/changes scans (413) */
#define LIMIT_CONFIRM 100       /* a watch's "confirm": runs that confirm an alert */
#define LIMIT_ALERT_GROUPS 1000 /* groups in one GET /api/v1/alert-groups answer */

/* ---- imports of SPEC §16: chrome-trace, hpctoolkit, nsys-sqlite -------------- */
#define LIMIT_IMPORT_CHROME_EVENT                                                        \
    (16u << 20)                              /* bytes of one event (or top-level value) */
#define LIMIT_IMPORT_CHROME_EVENTS 100000000 /* events of one Trace Event file */
#define LIMIT_IMPORT_CHROME_DEPTH 1000       /* open B events of one thread */
#define LIMIT_IMPORT_CHROME_TRACKS 100000    /* pid/tid pairs of one file */
#define LIMIT_IMPORT_HPC_NODES 10000000      /* calling-context nodes of a database */
#define LIMIT_IMPORT_HPC_METRICS 1024        /* metrics of a database */
#define LIMIT_IMPORT_HPC_PROFILES 1000000    /* profiles (rank, thread) of a database */
#define LIMIT_IMPORT_HPC_DEPTH 10000         /* nesting of the calling-context tree */
#define LIMIT_IMPORT_HPC_EXTRA 100       /* other metrics kept (2 kernel metrics each) */
#define LIMIT_IMPORT_NSYS_ROWS 100000000 /* activity rows read from one export */
#define LIMIT_IMPORT_NSYS_STEPS 2000000000 /* SQLite VM steps of one export's reads */

/* ---- modeling requests ------------------------------------------------------ */
#define LIMIT_PREDICT 1000 /* prediction points in one request */
#define LIMIT_SUGGEST 256  /* candidate points of one suggest request */
#define LIMIT_FIT_POINTS                                                                 \
    100000 /* points of one fit (models/fit.h FIT_MAX_POINTS agrees) */
#define LIMIT_FIT_RUNS                                                                   \
    10000000 /* runs the database form of a fit aggregates (models/fit.h FIT_MAX_OBS     \
                agrees) */
#define LIMIT_BASIS_POINTS                                                               \
    100000 /* measurements of one machine curve (models/fit.h FIT_BASIS_RAW_MAX agrees)  \
            */
#define LIMIT_BASIS_ARGS                                                                 \
    64 /* distinct arguments of one machine curve (models/fit.h FIT_BASIS_MAX agrees) */
#define LIMIT_BASIS_SCALE                                                                \
    1e15 /* a curve's "scale" (models/fit.h FIT_BASIS_SCALE_MAX agrees) */
#define LIMIT_BASIS_POWER 4       /* a curve's "power" (FIT_BASIS_POWER_MAX agrees) */
#define LIMIT_COUPLE_CONFIGS 1000 /* configurations in one coupling request */
#define LIMIT_COUPLE_FIXED 16     /* fixed variables of one coupling selection */
#define LIMIT_COUPLE_RUNS 20000   /* runs selected by coupling's database form */
#define LIMIT_COUPLE_KERNEL_ROWS 200000 /* kernel records read for them */
#define LIMIT_COUPLE_MEASURED 100000    /* measured totals given inline */
#define LIMIT_PARAM_RANGES 2   /* variables given as ranges (2-D curve, 3-D surface) */
#define LIMIT_PARAM_RUNS 10000 /* runs considered for a measured overlay */
#define LIMIT_PARAM_STEPS                                                                \
    200 /* grid points per range axis (web/svg.h SVG_MAX_GRID agrees) */
#define LIMIT_PLOT_URL_REQUEST 6000   /* bytes of a request that travels in a plot URL */
#define LIMIT_TABLE_CSV_RUNS 100000   /* runs of one CSV download of a page's table */
#define LIMIT_SERIES_BYTES (1u << 30) /* bytes of one GET /api/v1/series answer (413) */
#define LIMIT_SCALING_CONFIGS 10000   /* configurations one scaling view reads (413) */

/* ---- web forms -------------------------------------------------------------- */
#define LIMIT_FORM_FIELDS 512 /* fields (parts) in one submission */
#define LIMIT_FORM_NAME 320   /* bytes of a field name (a LIMIT_NAME plus a prefix) */
#define LIMIT_FORM_TEXT (1u << 20)  /* bytes of one field that is not a file */
#define LIMIT_FORM_BOUNDARY 70      /* RFC 2046 */
#define LIMIT_FORM_PART_HEADERS 16  /* header lines of one multipart part */
#define LIMIT_FORM_HEADER_LINE 1024 /* bytes of one such header line */
#define LIMIT_FORM_FILENAME 256
#define LIMIT_FORM_LINES                                                                 \
    10000 /* name=value lines of one upload-form text box */ /* bytes of a file name */
#define LIMIT_SESSIONS 4096    /* dashboard sessions held at once (server/session.h) */
#define LIMIT_FORM_LINES 10000 /* lines of one inputs/kernels/metrics box */

/* ---- web form submissions (formats/form.h) ---------------------------------- */
/* A modeling form's state has two or five fields per kernel or variable,
 * named by a prefix and the kernel's or variable's name (up to LIMIT_NAME
 * bytes): "graph.x_solve", "fix.nprocs" (docs/web.md). */
#define LIMIT_FORM_FIELDS 512       /* fields (parts) in one submission */
#define LIMIT_FORM_NAME 320         /* bytes of a field name */
#define LIMIT_FORM_TEXT (1u << 20)  /* bytes of one field that is not a file */
#define LIMIT_FORM_BOUNDARY 70      /* RFC 2046 */
#define LIMIT_FORM_PART_HEADERS 16  /* header lines of one multipart part */
#define LIMIT_FORM_HEADER_LINE 1024 /* bytes of one such header line */
#define LIMIT_FORM_FILENAME 256     /* bytes of a file name */

/* ---- traces (formats/trace.h) ------------------------------------------------ */
#define LIMIT_TRACE_RANKS 4096            /* ranks (files) of one trace */
#define LIMIT_TRACE_EVENTS_RANK 4000000   /* events recorded by one rank */
#define LIMIT_TRACE_EVENTS 16000000       /* events of a whole trace */
#define LIMIT_TRACE_BYTES (1024ull << 20) /* bytes of a whole trace */
#define LIMIT_TRACE_NAMES 256             /* probe state names of a trace */
#define LIMIT_TRACE_COMMS 4096            /* communicators named by one rank file */
#define LIMIT_TRACE_TABLE_ROWS 10000      /* macrostate rows in an occupancy answer */
/* The wait and traffic answers are p x p matrices up to this many ranks;
 * above, the pairs that waited or communicated, the largest
 * LIMIT_TRACE_PAIRS of them listed and the rest summed as "other". */
#define LIMIT_TRACE_DENSE_RANKS 256
#define LIMIT_TRACE_PAIRS 100000
#define LIMIT_TRACE_FIT_RUNS 1000 /* traced runs in an occupancy estimator */

/* ---- CUBE4 profiles (.cubex) and Extra-P experiments (.extra-p) ---------------- */
#define LIMIT_IMPORT_CUBE_NODES 1000000     /* regions or call-tree nodes */
#define LIMIT_IMPORT_CUBE_LOCATIONS 1000000 /* locations (threads) */
#define LIMIT_IMPORT_CUBE_METRICS 1024      /* metrics an anchor defines */
#define LIMIT_IMPORT_CUBE_DEPTH 4096        /* nesting of the anchor's elements */
#define LIMIT_IMPORT_CUBE_VALUES (1 << 23)  /* call-tree nodes x locations, a metric */

/* ---- OSU micro-benchmark output ------------------------------------------------- */
/* Value columns of one table (a non-blocking test's -f output has 7 and more). */
#define LIMIT_IMPORT_OSU_COLUMNS 16

#endif
