/* Classes of real files (other tool versions, other producers) the importers
 * of osu, lnt-json, extrap-text, extrap-json, extrap-jsonl and tau once
 * refused or read wrong: each test is a small file written here that
 * reproduces one class, with the exact records it must give. */
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "formats/formats.h"
#include "formats/limits.h"
#include "tests/harness.h"
#include "tests/unit/formats/run_line.h"

#include <string.h>

/* A system benchmark as "NAME ARGS STAT TIME". */
static int take_benchmarks(void *ctx, const char *system, const struct bench_record *r,
                           size_t n, struct err *err)
{
    (void)err;
    (void)system;
    for (size_t i = 0; i < n; i++) {
        struct buf b;
        buf_init(&b, 4096);
        buf_printf(&b, "%s %s %s ", r[i].name, r[i].args_json, r[i].stat);
        buf_num(&b, r[i].time);
        run_lines_add(ctx, &b);
    }
    return 0;
}

/* Imports the text `data` as the file `name` in format `fmt` ("auto" too). */
static int import(const char *fmt, const char *name, const char *data, long long nprocs,
                  struct run_lines *g, struct err *e)
{
    struct fmt_sink sink = {run_lines_take, take_benchmarks, g, NULL, NULL, NULL, 0};
    struct fmt_options o = {NULL, NULL, NULL, nprocs, NULL};
    struct fmt_file f = {name, data, strlen(data)};
    g->flags = RUN_LINE_VCS; /* runs: times, commit and start; no counts */
    err_clear(e);
    return fmt_parse(fmt, &f, 1, &o, &sink, e);
}

/* OSU: a whole suite's log (osu_hello, osu_init, osu_latency_mp and the
 * non-blocking collectives of 5.x/7.x, osu_ibarrier's header without "#")
 * imports; osu_init's times are MPIINIT at its nprocs; a test Prophecy does
 * not read (osu_hello) is skipped, not refused. */
static void test_osu_suite_log(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *log =
        "openmpi@4.0.5 osu_hello\n"
        "# OSU MPI Hello World Test v5.6.3\n"
        "This is a test with 2 processes\n"
        "openmpi@4.0.5 osu_init\n"
        "# OSU MPI Init Test v5.6.3\n"
        "nprocs: 2, min: 13 ms, max: 14 ms, avg: 13 ms\n"
        "# OSU MPI Multi-process Latency Test v5.6.3\n"
        "# Number of forked processes in sender: 2\n"
        "# Size          Latency (us)\n"
        "0                       0.25\n"
        "\n"
        "# OSU MPI Non-blocking Barrier Latency Test v5.7\n"
        "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n"
        "\n"
        "       Overall(us)       Compute(us)    Coll. Init(us)      MPI_Test(us)      "
        "MPI_Wait(us)    Pure Comm.(us)        Overlap(%)\n"
        "              8.5              5.04              4.06              0.00         "
        "    "
        "16.71              4.25              5.04\n"
        "# OSU MPI-CUDA Non-Blocking Broadcast Latency Test v7.5\n"
        "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n"
        "# Datatype: MPI_CHAR.\n"
        "# Size           Overall(us)       Compute(us)    Pure Comm.(us)"
        "        Overlap(%)\n"
        "1                       4.5              2.42              1.75     "
        "        16.31\n"
        "# OSU MPI Non-blocking All-to-Allw Personalized Exchange Latency "
        "Test v5.6.3\n"
        "# Size           Overall(us)       Compute(us)    Pure Comm.(us)"
        "        Overlap(%)\n"
        "8                      10.5              5.58              4.75     "
        "         0.00\n";
    CHECK_INT(import("auto", "suite.log", log, 8, &g, &e), 0);
    CHECK_INT(g.n, 10);
    CHECK_STR(g.line[0], "MPIINIT {\"P\":2} min 0.013");
    CHECK_STR(g.line[1], "MPIINIT {\"P\":2} max 0.014");
    CHECK_STR(g.line[2], "MPIINIT {\"P\":2} mean 0.013");
    CHECK_STR(g.line[3], "MPISR {\"L\":0,\"P\":2} mean 2.5e-07");
    CHECK_STR(g.line[4], "MPIIBAR {\"P\":8} mean 8.5e-06");
    CHECK_STR(g.line[5], "MPIIBAR_COMM {\"P\":8} mean 4.25e-06");
    /* a collective run with -d cuda: every buffer on the device */
    CHECK_STR(g.line[6], "MPIIBC_DD {\"L\":1,\"P\":8} mean 4.5e-06");
    CHECK_STR(g.line[7], "MPIIBC_DD_COMM {\"L\":1,\"P\":8} mean 1.75e-06");
    CHECK_STR(g.line[8], "MPIIA2AW {\"L\":8,\"P\":8} mean 1.05e-05");
    CHECK_STR(g.line[9], "MPIIA2AW_COMM {\"L\":8,\"P\":8} mean 4.75e-06");
    run_lines_free(&g);
    /* osu_init's line in another unit: refused, naming it */
    CHECK_INT(import("osu", "init.log",
                     "# OSU MPI Init Test v7.4\n"
                     "nprocs: 4, min: 1.5 s, max: 2 s, avg: 1.75 s\n",
                     0, &g, &e),
              -1);
    CHECK_STR(e.message, "init.log:2: an osu_init time is not in ms");
    CHECK_INT(g.n, 0);
    /* osu_multi_lat pairs all its ranks: P is the caller's nprocs */
    CHECK_INT(import("osu", "multi.log",
                     "# OSU MPI Multi Latency Test v5.6.3\n"
                     "# Size          Latency (us)\n"
                     "0                       0.25\n",
                     16, &g, &e),
              0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "MPISR {\"L\":0,\"P\":16} mean 2.5e-07");
    run_lines_free(&g);
    /* another OSU suite's table after an MPI one is not the MPI test's */
    CHECK_INT(import("osu", "mixed.log",
                     "# OSU MPI Latency Test v5.6.2\n"
                     "# Size          Latency (us)\n"
                     "8                       1.5\n"
                     "# OSU OpenSHMEM Put Test v5.6.2\n"
                     "# Size          Latency (us)\n"
                     "8                       0.75\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "MPISR {\"L\":8,\"P\":2} mean 1.5e-06");
    run_lines_free(&g);
    CHECK_INT(import("osu", "shmem.log",
                     "# OSU OpenSHMEM Put Test v5.6.2\n"
                     "# Size          Latency (us)\n"
                     "8                       0.75\n",
                     0, &g, &e),
              -1);
    CHECK_STR(e.message, "shmem.log: no OSU measurements Prophecy reads in the file (the "
                         "\"OpenSHMEM Put\" test is not one it reads)");
    CHECK_INT(g.n, 0);
    /* only tests Prophecy does not read: refused, naming one */
    CHECK_INT(import("osu", "hello.log",
                     "# OSU MPI Hello World Test v5.6.3\n"
                     "This is a test with 2 processes\n",
                     0, &g, &e),
              -1);
    CHECK_STR(e.message, "hello.log: no OSU measurements Prophecy reads in the file (the "
                         "\"Hello World\" test is not one it reads)");
    CHECK_INT(g.n, 0);
}

/* OSU 7.x --validation: a "Validation" column of words; a tab-separated
 * header (older OSU); a job's timestamp line after a table is no row. */
static void test_osu_columns(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(import("osu", "bw.out",
                     "# OSU MPI-CUDA Bandwidth Test v7.5\n"
                     "# Datatype: MPI_CHAR.\n"
                     "# Size      Bandwidth (MB/s)        Validation\n"
                     "1                       0.5              Pass\n"
                     "2024-05-01T10:00:00 job finished\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0], "MPIBW_MBS {\"L\":1,\"P\":2} mean 0.5");
    CHECK_STR(g.line[1], "MPIBW {\"L\":1,\"P\":2} mean 2e-06");
    run_lines_free(&g);
    CHECK_INT(import("osu", "lat.out",
                     "# OSU MPI Latency Test v3.1.1\n"
                     "# Size\t\tLatency (us)\n"
                     "0\t\t1.25\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "MPISR {\"L\":0,\"P\":2} mean 1.25e-06");
    run_lines_free(&g);
    /* more than eight value columns (a non-blocking test's -f table) */
    CHECK_INT(import("osu", "wide.out",
                     "# OSU MPI Non-blocking Allreduce Latency Test v7.4\n"
                     "# Size  Overall(us)  Compute(us)  Coll. Init(us)  MPI_Test(us)  "
                     "MPI_Wait(us)  Pure Comm.(us)  Min Comm.(us)  Max Comm.(us)  "
                     "Overlap(%)\n"
                     "4  79.5  55.6  5.6  0.0  18.0  53.25  50.1  56.0  55.2\n",
                     4, &g, &e),
              0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[0], "MPIIAR {\"L\":4,\"P\":4} mean 7.95e-05");
    CHECK_STR(g.line[1], "MPIIAR_COMM {\"L\":4,\"P\":4} mean 5.325e-05");
    /* the pure communication's least and largest over the ranks */
    CHECK_STR(g.line[2], "MPIIAR_COMM {\"L\":4,\"P\":4} min 5.01e-05");
    CHECK_STR(g.line[3], "MPIIAR_COMM {\"L\":4,\"P\":4} max 5.6e-05");
    run_lines_free(&g);
    /* a number where a value column is a word: still refused */
    CHECK_INT(import("osu", "bad.out",
                     "# OSU MPI Latency Test v7.5\n"
                     "# Size          Latency (us)\n"
                     "8                 fast\n",
                     0, &g, &e),
              -1);
    CHECK_STR(e.message, "bad.out:3: \"fast\" is not a number");
    CHECK_INT(g.n, 0);
}

/* A test on GPU buffers ("-d cuda D H": "# Send Buffer on DEVICE (D) and
 * Receive Buffer on HOST (H)", OMB 5.3 to 7.2; 7.5 prints no places) is a
 * benchmark of its own, named by the codes in parentheses (OMB 7's managed
 * MD and MH too): one log of host and device runs once made one curve of
 * both. Host to host keeps the plain name; each title starts from it. */
static void test_osu_gpu_buffers(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(import("osu", "gpu.out",
                     "# OSU MPI-CUDA Latency Test v7.2\n"
                     "# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\n"
                     "# Size          Latency (us)\n"
                     "1                       4.5\n"
                     "# OSU MPI-CUDA Latency Test v7.2\n"
                     "# Send Buffer on HOST (H) and Receive Buffer on HOST (H)\n"
                     "# Size          Latency (us)\n"
                     "1                       1.5\n"
                     "# OSU MPI-CUDA Bandwidth Test v7.1\n"
                     "# Send Buffer on MANAGED (MD) and Receive Buffer on HOST (H)\n"
                     "# Size      Bandwidth (MB/s)\n"
                     "1                       0.5\n"
                     "# OSU MPI Latency Test v7.2\n"
                     "# Size          Latency (us)\n"
                     "2                       1.25\n"
                     /* collectives print no places: -d puts all on the device
                      * (OMB 5.3, ALCF Polaris); the host run keeps the name */
                     "# OSU MPI-CUDA Allreduce Latency Test v5.3\n"
                     "# Size         Avg Latency(us)\n"
                     "4                      49.64\n"
                     "# OSU MPI Allreduce Latency Test v5.3\n"
                     "# Size         Avg Latency(us)\n"
                     "4                       4.15\n"
                     /* a one-sided test's places */
                     "# OSU MPI_Put Latency Test v7.2\n"
                     "# Window creation: MPI_Win_allocate\n"
                     "# Synchronization: MPI_Win_flush\n"
                     "# Rank 0 Memory on DEVICE (D) and Rank 1 Memory on HOST (H)\n"
                     "# Size          Latency (us)\n"
                     "1                       3.5\n",
                     8, &g, &e),
              0);
    CHECK_INT(g.n, 8);
    if (g.n == 8) {
        CHECK_STR(g.line[5], "MPIAR_DD {\"L\":4,\"P\":8} mean 4.964e-05");
        CHECK_STR(g.line[6], "MPIAR {\"L\":4,\"P\":8} mean 4.15e-06");
        CHECK_STR(g.line[7], "MPIPUT_DH {\"L\":1,\"P\":2} mean 3.5e-06");
        CHECK_STR(g.line[0], "MPISR_DD {\"L\":1,\"P\":2} mean 4.5e-06");
        CHECK_STR(g.line[1], "MPISR {\"L\":1,\"P\":2} mean 1.5e-06");
        CHECK_STR(g.line[2], "MPIBW_MDH_MBS {\"L\":1,\"P\":2} mean 0.5");
        CHECK_STR(g.line[3], "MPIBW_MDH {\"L\":1,\"P\":2} mean 2e-06");
        CHECK_STR(g.line[4], "MPISR {\"L\":2,\"P\":2} mean 1.25e-06");
    }
    run_lines_free(&g);
}

/* A system benchmark's series as "NAME TEST [LABEL] L": its test and its
 * label, and the message size. */
static int take_series(void *ctx, const char *system, const struct bench_record *r,
                       size_t n, struct err *err)
{
    (void)err;
    (void)system;
    for (size_t i = 0; i < n; i++) {
        struct buf b;
        const char *L = strstr(r[i].args_json, "\"L\":");
        buf_init(&b, 4096);
        buf_printf(&b, "%s %s [%s] %.*s", r[i].name, r[i].test ? r[i].test : "(none)",
                   r[i].label ? r[i].label : "(none)", L ? (int)strcspn(L + 4, ",}") : 1,
                   L ? L + 4 : "-");
        run_lines_add(ctx, &b);
    }
    return 0;
}

static int import_series(const char *name, const char *data, struct run_lines *g,
                         struct err *e)
{
    struct fmt_sink sink = {run_lines_take, take_series, g, NULL, NULL, NULL, 0};
    struct fmt_options o = {NULL, NULL, NULL, 4, NULL};
    struct fmt_file f = {name, data, strlen(data)};
    err_clear(e);
    return fmt_parse("osu", &f, 1, &o, &sink, e);
}

/* A log of several tables of one test, each after a line of the job's own
 * words that tells it from the others (a Slurm script measuring osu_latency
 * across core placements): each table is a series of its own, labelled with
 * its line as written; tables the log does not tell apart (the same line, or
 * none) stay one series, measured again. Every record names its test as
 * OSU's program does. */
static void test_osu_labelled_tables(void)
{
    static const char placements[] =
        "Running osu_latency tests across core placements...\n"
        "Testing Same CCX\n"
        "\n"
        "# OSU MPI Latency Test v7.4\n"
        "# Datatype: MPI_CHAR.\n"
        "# Size       Avg Latency(us)\n"
        "1  0.16\n"
        "2  0.15\n"
        "Testing Same CCD, Different CCX\n"
        "\n"
        "# OSU MPI Latency Test v7.4\n"
        "# Datatype: MPI_CHAR.\n"
        "# Size       Avg Latency(us)\n"
        "1  0.32\n"
        "2  0.31\n"
        "Testing Different NODE  \n"
        "# OSU MPI Latency Test v7.4\n"
        "# Datatype: MPI_CHAR.\n"
        "# Size       Avg Latency(us)\n"
        "1  1.80\n"
        "2  1.79\n"
        "All tests completed.\n";
    static const char again[] = "Testing Same CCX\n"
                                "# OSU MPI Latency Test v7.4\n"
                                "# Datatype: MPI_CHAR.\n"
                                "# Size       Avg Latency(us)\n"
                                "1  0.16\n"
                                "2  0.15\n"
                                "Testing Same CCX\n"
                                "# OSU MPI Latency Test v7.4\n"
                                "# Datatype: MPI_CHAR.\n"
                                "# Size       Avg Latency(us)\n"
                                "1  0.17\n"
                                "2  0.15\n";
    static const char twice[] = "# OSU MPI Latency Test v7.4\n"
                                "# Datatype: MPI_CHAR.\n"
                                "# Size       Avg Latency(us)\n"
                                "1  0.16\n"
                                "2  0.15\n"
                                "# OSU MPI Latency Test v7.4\n"
                                "# Datatype: MPI_CHAR.\n"
                                "# Size       Avg Latency(us)\n"
                                "1  0.17\n"
                                "2  0.15\n";
    static const char suite[] =
        "[0] MPI startup(): I_MPI_DEBUG=5\n"
        "# OSU MPI Latency Test v7.4\n"
        "# Datatype: MPI_CHAR.\n"
        "# Size       Avg Latency(us)\n"
        "1  0.16\n"
        "2  0.15\n"
        "srun: step 2\n"
        "# OSU MPI Multi-process Latency Test v7.4\n"
        "# Size  Latency (us)\n"
        "1  0.5\n"
        "# OSU MPI Non-blocking Allreduce Latency Test v7.4\n"
        "# Size  Overall(us)  Compute(us)  Pure Comm.(us)  Overlap(%)\n"
        "4  79.5  55.6  53.25  55.2\n";
    static const char mixed[] = "# OSU MPI Latency Test v7.4\n"
                                "# Datatype: MPI_CHAR.\n"
                                "# Size       Avg Latency(us)\n"
                                "1  0.16\n"
                                "2  0.15\n"
                                "=== pinned to socket 1 ===\n"
                                "\xff\xfe junk\n"
                                "# OSU MPI Latency Test v7.4\n"
                                "# Datatype: MPI_CHAR.\n"
                                "# Size       Avg Latency(us)\n"
                                "1  0.5\n"
                                "2  0.5\n"
                                "np 2 a\n"
                                "# OSU MPI Bandwidth Test v7.4\n"
                                "# Size  Bandwidth (MB/s)\n"
                                "8  16.0\n"
                                "np 2\tb\n"
                                "# OSU MPI Bandwidth Test v7.4\n"
                                "# Size  Bandwidth (MB/s)\n"
                                "8  15.0\n";
    struct run_lines g = {0};
    struct err e = {0};

    CHECK_INT(import_series("placements.out", placements, &g, &e), 0);
    CHECK_INT(g.n, 6);
    CHECK_STR(g.line[0], "MPISR osu_latency [Testing Same CCX] 1");
    CHECK_STR(g.line[1], "MPISR osu_latency [Testing Same CCX] 2");
    CHECK_STR(g.line[2], "MPISR osu_latency [Testing Same CCD, Different CCX] 1");
    CHECK_STR(g.line[4], "MPISR osu_latency [Testing Different NODE] 1");
    run_lines_free(&g);
    /* the same line before every table, or none: repetitions of one series */
    CHECK_INT(import_series("again.out", again, &g, &e), 0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[0], "MPISR osu_latency [] 1");
    CHECK_STR(g.line[3], "MPISR osu_latency [] 2");
    run_lines_free(&g);
    CHECK_INT(import_series("twice.out", twice, &g, &e), 0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[2], "MPISR osu_latency [] 1");
    run_lines_free(&g);
    /* a launcher's words before the only table of its test label nothing;
     * another test of the same benchmark is told apart by its test
     * (osu_latency_mp); non-blocking tests are named as OSU names them */
    CHECK_INT(import_series("suite.out", suite, &g, &e), 0);
    CHECK_INT(g.n, 5);
    CHECK_STR(g.line[0], "MPISR osu_latency [] 1");
    CHECK_STR(g.line[2], "MPISR osu_latency_mp [] 1");
    CHECK_STR(g.line[3], "MPIIAR osu_iallreduce [] 4");
    CHECK_STR(g.line[4], "MPIIAR_COMM osu_iallreduce [] 4");
    run_lines_free(&g);
    /* a table with no line before it beside a labelled one: told apart; a
     * line that is not UTF-8 text labels nothing, the one before it does; a
     * bandwidth table's MB/s as measured and derived time share its label */
    CHECK_INT(import_series("mixed.out", mixed, &g, &e), 0);
    CHECK_INT(g.n, 8);
    CHECK_STR(g.line[0], "MPISR osu_latency [] 1");
    CHECK_STR(g.line[2], "MPISR osu_latency [=== pinned to socket 1 ===] 1");
    CHECK_STR(g.line[4], "MPIBW_MBS osu_bw [np 2 a] 8");
    CHECK_STR(g.line[5], "MPIBW osu_bw [np 2 a] 8");
    CHECK_STR(g.line[7], "MPIBW osu_bw [np 2\tb] 8"); /* a tab kept */
    run_lines_free(&g);
}

/* OSU's older and GPU titles and columns, as OMB wrote them: 2.x and 3.x
 * bibw's "Bi-Bandwidth (MB/s)" (its table was dropped, silently beside other
 * tests), 2.x's "Bidirectional", 1.x-3.x's one-sided titles ("OSU One Sided
 * MPI_Put ...", "OSU MPI One Sided MPI_Accumulate ...", "Passive", "OSU MPI2
 * One-sided ..."), 5.x-7.x's one-sided tests on GPU buffers ("MPI_Put-CUDA"),
 * and 7.2's tail percentiles of -z, of latency and of bandwidth. */
static void test_osu_old_and_gpu_titles(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(import("osu", "old.out",
                     "# OSU MPI Bi-Directional Bandwidth Test v3.3\n"
                     "# Size     Bi-Bandwidth (MB/s)\n"
                     "4                        13.08\n"
                     "# OSU MPI Bidirectional Bandwidth Test (Version 2.1)\n"
                     "# Size\t\tBi-Bandwidth (MB/s) \n"
                     "1\t\t0.5\n"
                     "# OSU One Sided MPI_Put Bi-directional Bandwidth Test v3.1.1\n"
                     "# Size     Bi-Bandwidth (MB/s)\n"
                     "1                         0.25\n"
                     "# OSU MPI One Sided MPI_Accumulate Latency Test v3.3\n"
                     "# Size          Latency (us)\n"
                     "1                       5.00\n"
                     "# OSU One Sided MPI_Get Passive latency Test v3.3\n"
                     "# Size          Latency (us)\n"
                     "8                       2.50\n"
                     "# OSU MPI2 One-sided MPI_Get Latency Test (Version 1.0)\n"
                     "# Size\t\tLatency (us) \n"
                     "16\t\t7.5\n"
                     "# OSU MPI_Put-CUDA Latency Test v7.3\n"
                     "# Window creation: MPI_Win_allocate\n"
                     "# Synchronization: MPI_Win_flush\n"
                     "# Rank 0 Memory on DEVICE (D) and Rank 1 Memory on DEVICE (D)\n"
                     "# Size          Latency (us)\n"
                     "1                       9.00\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 10);
    if (g.n == 10) {
        CHECK_STR(g.line[0], "MPIBIBW_MBS {\"L\":4,\"P\":2} mean 13.08");
        CHECK_STR(g.line[1], "MPIBIBW {\"L\":4,\"P\":2} mean 3.0581039755351683e-07");
        CHECK_STR(g.line[2], "MPIBIBW_MBS {\"L\":1,\"P\":2} mean 0.5");
        CHECK_STR(g.line[3], "MPIBIBW {\"L\":1,\"P\":2} mean 2e-06");
        CHECK_STR(g.line[4], "MPIPUTBIBW_MBS {\"L\":1,\"P\":2} mean 0.25");
        CHECK_STR(g.line[5], "MPIPUTBIBW {\"L\":1,\"P\":2} mean 4e-06");
        CHECK_STR(g.line[6], "MPIACC {\"L\":1,\"P\":2} mean 5e-06");
        CHECK_STR(g.line[7], "MPIGET {\"L\":8,\"P\":2} mean 2.5e-06");
        CHECK_STR(g.line[8], "MPIGET {\"L\":16,\"P\":2} mean 7.5e-06");
        CHECK_STR(g.line[9], "MPIPUT_DD {\"L\":1,\"P\":2} mean 9e-06");
    }
    run_lines_free(&g);
    CHECK_INT(
        import("osu", "tail.out",
               "# OSU MPI Latency Test v7.4\n"
               "# Size       Avg Latency(us)    P50 Tail Lat(us)    P95 Tail Lat(us)\n"
               "1                       1.50                1.25                2.00\n"
               "# OSU MPI Bandwidth Test v7.4\n"
               "# Size        Bandwidth (MB/s)   P50 Tail BW(MB/s)   P99 Tail BW(MB/s)\n"
               "1                         2.50                2.00                1.00\n",
               0, &g, &e),
        0);
    CHECK_INT(g.n, 9);
    if (g.n == 9) {
        CHECK_STR(g.line[1], "MPISR {\"L\":1,\"P\":2} median 1.25e-06");
        CHECK_STR(g.line[2], "MPISR {\"L\":1,\"P\":2} p95 2e-06");
        CHECK_STR(g.line[5], "MPIBW_MBS {\"L\":1,\"P\":2} median 2");
        CHECK_STR(g.line[7], "MPIBW_MBS {\"L\":1,\"P\":2} p99 1");
        CHECK_STR(g.line[8], "MPIBW {\"L\":1,\"P\":2} p99 1e-06");
    }
    run_lines_free(&g);
}

/* LNT: a report without format_version is version 2 (LNT's own upgrade
 * reads it so); a version 5 report (LNT v5: "run_parameters", "commit"). */
static void test_lnt_versions(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(
        import("auto", "nover.json",
               "{\"machine\": {\"name\": \"m1\"},\n"
               " \"run\": {\"llvm_project_revision\": \"311066\",\n"
               "         \"start_time\": \"2017-07-18T11:28:33\"},\n"
               " \"tests\": [{\"name\": \"t1\", \"execution_time\": [0.25, 0.5]}]}\n",
               0, &g, &e),
        0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0],
              "nts|t1|m1|np=1|rt=0.25|in:|m:|k:|c=311066|t=2017-07-18T11:28:33");
    CHECK_STR(g.line[1],
              "nts|t1|m1|np=1|rt=0.5|in:|m:|k:|c=311066|t=2017-07-18T11:28:33");
    run_lines_free(&g);
    CHECK_INT(
        import("auto", "v5.json",
               "{\"format_version\": \"5\", \"uuid\": \"5f85edeb\",\n"
               " \"machine\": {\"name\": \"linux-x86_64\", \"fields\": {}},\n"
               " \"commit\": {\"value\": \"53a4e4a77bd7\", \"ordinal\": 552558},\n"
               " \"run_parameters\": {\"start_time\": \"2026-08-14T04:10:20\"},\n"
               " \"tests\": [{\"name\": \"b/x\", \"execution_time\": [77.5, 77.25],\n"
               "             \"hash\": \"9cfd\", \"code_size\": 7360.0}]}\n",
               0, &g, &e),
        0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0], "nts|b/x|linux-x86_64|np=1|rt=77.5|in:|m:code_size=7360|k:|"
                         "c=53a4e4a77bd7|t=2026-08-14T04:10:20");
    CHECK_STR(g.line[1], "nts|b/x|linux-x86_64|np=1|rt=77.25|in:|m:code_size=7360|k:|"
                         "c=53a4e4a77bd7|t=2026-08-14T04:10:20");
    run_lines_free(&g);
    /* another version: refused, naming the field */
    CHECK_INT(import("lnt-json", "v3.json",
                     "{\"format_version\": \"3\", \"machine\": {\"name\": \"m\"}, "
                     "\"run\": {}, \"tests\": []}",
                     0, &g, &e),
              -1);
    CHECK_STR(e.field, "format_version");
    CHECK_INT(g.n, 0);
}

/* Extra-P: DATA before any REGION, and an empty call path (Extra-P's unnamed
 * one), is the root;
 * the recommended JSON form's "point": 4 for one parameter; the id form's
 * numbers and ids as strings (Extra-P reads them with float() and int()). */
static void test_extrap_forms(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(import("extrap-text", "noregion.txt",
                     "PARAMETER x\nPOINTS ( 20 ) ( 30 )\nMETRIC time\nDATA 1.5 2.5\n"
                     "DATA 3.5\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[0], "noregion|noregion|unknown|np=1|rt=1.5|in:x=20|m:|k:<root>=1.5");
    CHECK_STR(g.line[1], "noregion|noregion|unknown|np=1|rt=2.5|in:x=20|m:|k:<root>=2.5");
    CHECK_STR(g.line[2], "noregion|noregion|unknown|np=1|rt=3.5|in:x=30|m:|k:<root>=3.5");
    run_lines_free(&g);
    /* an empty call path is Extra-P's unnamed one: the root */
    CHECK_INT(import("extrap-jsonl", "empty.jsonl",
                     "{\"params\":{\"p\":2},\"callpath\":\"\",\"metric\":\"time\","
                     "\"value\":1.5}\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "empty|empty|unknown|np=2|rt=1.5|in:|m:|k:<root>=1.5");
    run_lines_free(&g);
    CHECK_INT(import("extrap-json", "scalar.json",
                     "{\"parameters\": [\"p\"], \"measurements\": {\"sweep\": {\"time\": "
                     "[{\"point\": 4, \"values\": [3.5, 3.75]}, {\"point\": [8], "
                     "\"values\": [5.5]}]}}}",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[0], "scalar|scalar|unknown|np=4|rt=3.5|in:|m:|k:sweep=3.5");
    CHECK_STR(g.line[1], "scalar|scalar|unknown|np=4|rt=3.75|in:|m:|k:sweep=3.75");
    CHECK_STR(g.line[2], "scalar|scalar|unknown|np=8|rt=5.5|in:|m:|k:sweep=5.5");
    run_lines_free(&g);
    /* two parameters: a bare number is not a point */
    CHECK_INT(import("extrap-json", "scalar2.json",
                     "{\"parameters\": [\"p\", \"n\"], \"measurements\": {\"s\": "
                     "{\"time\": [{\"point\": 4, \"values\": [1]}]}}}",
                     0, &g, &e),
              -1);
    CHECK_STR(e.message, "scalar2.json: measurements.s.time[0].point must hold 2 "
                         "coordinates");
    CHECK_INT(g.n, 0);
    CHECK_INT(import("extrap-json", "ids.json",
                     "{\"parameters\": [{\"id\": \"1\", \"name\": \"x\"}],\n"
                     " \"callpaths\": [{\"id\": \"1\", \"name\": \"sweep\"}],\n"
                     " \"metrics\": [{\"id\": 1, \"name\": \"time\"}],\n"
                     " \"coordinates\": [{\"id\": 1, \"parameter_value_pairs\": "
                     "[{\"parameter_id\": 1, \"parameter_value\": \"4\"}]}],\n"
                     " \"measurements\": [{\"callpath_id\": \"1\", \"coordinate_id\": 1, "
                     "\"id\": 1, \"metric_id\": 1, \"value\": \"3.25\"}]}",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "ids|ids|unknown|np=1|rt=3.25|in:x=4|m:|k:sweep=3.25");
    run_lines_free(&g);
    /* a word where a number belongs: still refused */
    CHECK_INT(import("extrap-json", "idsbad.json",
                     "{\"parameters\": [{\"id\": 1, \"name\": \"x\"}],\n"
                     " \"callpaths\": [{\"id\": 1, \"name\": \"sweep\"}],\n"
                     " \"metrics\": [{\"id\": 1, \"name\": \"time\"}],\n"
                     " \"coordinates\": [{\"id\": 1, \"parameter_value_pairs\": "
                     "[{\"parameter_id\": 1, \"parameter_value\": 4}]}],\n"
                     " \"measurements\": [{\"callpath_id\": 1, \"coordinate_id\": 1, "
                     "\"id\": 1, \"metric_id\": 1, \"value\": \"fast\"}]}",
                     0, &g, &e),
              -1);
    CHECK_STR(e.message, "idsbad.json: measurements[0] refers to a missing callpath, "
                         "coordinate or metric, or has no numeric value");
    CHECK_INT(g.n, 0);
}

/* TAU (and APEX's TAU-format profiles): a user event whose name holds a
 * colon ("status:VmRSS", "GPU: Bytes Allocated") is a run metric; only
 * "NAME : call path" is a context event. */
static void test_tau_event_names(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(import("tau", "apex/profile.0.0.0",
                     "1 templated_functions_MULTI_TIME\n"
                     "# Name Calls Subrs Excl Incl ProfileCalls #\n"
                     "\"APEX MAIN\" 1 0 67830.5 354026 0 GROUP=\"TAU_USER\"\n"
                     "0 aggregates\n"
                     "3 userevents\n"
                     "# eventname numevents max min mean sumsqr\n"
                     "\"status:VmRSS\" 1 219008 219008 219008 4.79645e+10\n"
                     "\"GPU: Bytes Allocated\" 2 16 6 11 292\n"
                     "\"GPU: Bytes Allocated : APEX MAIN\" 2 16 6 11 292\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "tau|tau|unknown|np=1|rt=0.354026|in:threads=1|m:status:VmRSS.count=1,"
              "status:VmRSS.max=219008,status:VmRSS.min=219008,status:VmRSS.mean="
              "219008,GPU: Bytes Allocated.count=2,GPU: Bytes Allocated.max=16,GPU: "
              "Bytes Allocated.min=6,GPU: Bytes Allocated.mean=11|k:APEX MAIN=0.0678305");
    run_lines_free(&g);
}

/* TAU: a flat function's name longer than a kernel name may be (templated
 * C++ with its source file, as compiler instrumentation writes it) kept only
 * the end of its source path ("…3f646df6/home/u/src/KDTree.cpp} {86,0}]"),
 * not which function it was: the name's start stays, with the mark and the
 * end. */
static void test_tau_long_flat_name(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    struct buf t, fn;
    const char *k;
    buf_init(&t, 4096);
    buf_init(&fn, 1024);
    buf_puts(&fn, "KDTree::make_tree(__gnu_cxx::__normal_iterator<");
    for (int i = 0; i < 8; i++)
        buf_puts(&fn, "std::pair<std::vector<float, std::allocator<float> >, int>*, ");
    buf_puts(&fn, "int) [{/home/u/Projs/dbscan/src/KDTree.cpp} {86,0}]");
    buf_printf(&t,
               "2 templated_functions_MULTI_TIME\n"
               "# Name Calls Subrs Excl Incl ProfileCalls #\n"
               "\"main\" 1 1 1000 3000 0 GROUP=\"TAU_USER\"\n"
               "\"%s\" 4 0 2000 2000 0 GROUP=\"TAU_USER\"\n"
               "0 aggregates\n",
               buf_str(&fn));
    CHECK(fn.len > 500);
    CHECK_INT(import("tau", "long/profile.0.0.0", buf_str(&t), 0, &g, &e), 0);
    CHECK_INT(g.n, 1);
    k = g.n == 1 ? strstr(g.line[0],
                          ";KDTree::make_tree(__gnu_cxx::__normal_iterator<std::pair<"
                          "std::ve/\xe2\x80\xa6")
                 : NULL;
    CHECK(k != NULL);
    if (k != NULL)
        CHECK(strstr(k, "/home/u/Projs/dbscan/src/KDTree.cpp} {86,0}]=0.002") != NULL);
    run_lines_free(&g);
    buf_free(&t);
    buf_free(&fn);
}

/* TAU: a single-counter build's "N templated_functions_hw_counters" profile
 * is a profile of counters (no time), not a malformed file. */
static void test_tau_hw_counters(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(import("tau", "hw/profile.0.0.0",
                     "2 templated_functions_hw_counters\n"
                     "# Name Calls Subrs Excl Incl ProfileCalls\n"
                     "\"main() int (void)\" 1 1 1000 5000 0 GROUP=\"TAU_DEFAULT\"\n"
                     "\"compute() void (void)\" 10 0 4000 4000 0 GROUP=\"TAU_USER\"\n"
                     "0 aggregates\n",
                     0, &g, &e),
              0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "tau|tau|unknown|np=1|rt=none|in:threads=1|m:|k:main() int "
                         "(void)=none;compute() void (void)=none");
    run_lines_free(&g);
    /* another header word is still refused */
    CHECK_INT(
        import("tau", "hw/profile.0.0.0",
               "2 templated_functions_hw\n# Name Calls Subrs Excl Incl ProfileCalls\n", 0,
               &g, &e),
        -1);
    CHECK_STR(e.message, "hw/profile.0.0.0:1: a TAU profile starts \"N "
                         "templated_functions[_MULTI_NAME]\" (or \"N "
                         "templated_functions_hw_counters\")");
    CHECK_INT(g.n, 0);
}

/* LNT version 1, as LNT's upgrade reads it: a metric it does not rename is
 * the name's last ".word" (not a refusal); the compile suite's ".user.status"
 * is user_status; the same test and metric twice is one list of samples; a
 * metric of one sample is a number, which every sample's run carries. */
static void test_lnt_v1_metrics(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(
        import("auto", "v1.json",
               "{\"Machine\": {\"Info\": {}, \"Name\": \"m\"},\n"
               " \"Run\": {\"Start Time\": \"2017-07-06 15:05:23\",\n"
               "         \"Info\": {\"run_order\": \"663345\", \"tag\": \"compile\"}},\n"
               " \"Tests\": [\n"
               "  {\"Data\": [14.5], \"Info\": {}, \"Name\": \"compile.a.user\"},\n"
               "  {\"Data\": [0], \"Info\": {}, \"Name\": \"compile.a.user.status\"},\n"
               "  {\"Data\": [20.25], \"Info\": {}, \"Name\": \"compile.a.wall\"},\n"
               "  {\"Data\": [1024], \"Info\": {}, \"Name\": \"compile.a.rss_kb\"},\n"
               "  {\"Data\": [19.75], \"Info\": {}, \"Name\": \"compile.a.wall\"}]}\n",
               0, &g, &e),
        0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0],
              "compile|compile.a|m|np=1|rt=20.25|in:|m:user_time=14.5,user_status=0,"
              "rss_kb=1024|k:|c=663345|t=2017-07-06T15:05:23");
    CHECK_STR(g.line[1],
              "compile|compile.a|m|np=1|rt=19.75|in:|m:user_time=14.5,user_status="
              "0,rss_kb=1024|k:|c=663345|t=2017-07-06T15:05:23");
    run_lines_free(&g);
    /* a name without ".metric" is still refused */
    CHECK_INT(
        import("lnt-json", "v1bad.json",
               "{\"Machine\": {\"Info\": {}, \"Name\": \"m\"}, \"Run\": {\"Info\": {}},"
               " \"Tests\": [{\"Data\": [1], \"Info\": {}, \"Name\": \"plain\"}]}",
               0, &g, &e),
        -1);
    CHECK_STR(e.message, "v1bad.json: Tests[0] (plain) does not end in .metric (such as "
                         ".exec)");
    CHECK_INT(g.n, 0);
}

/* A test of an LNT report whose only datum is a status (a nightly report's
 * failed test, LNT's own sample-failed-report1.json: nts.FailingTest.exec.status
 * = 1) measured nothing and stores nothing; beside a measurement a status is
 * the run's metric. */
static void test_lnt_status_only(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    CHECK_INT(
        import(
            "lnt-json", "failed.json",
            "{\"Machine\": {\"Info\": {}, \"Name\": \"m\"},\n"
            " \"Run\": {\"Start Time\": \"2017-07-06 15:05:23\",\n"
            "         \"Info\": {\"run_order\": \"12\", \"tag\": \"nts\"}},\n"
            " \"Tests\": [\n"
            "  {\"Data\": [1], \"Info\": {}, \"Name\": "
            "\"nts.FailingTest.exec.status\"},\n"
            "  {\"Data\": [0.5], \"Info\": {}, \"Name\": \"nts.Slow.exec\"},\n"
            "  {\"Data\": [1], \"Info\": {}, \"Name\": \"nts.Slow.compile.status\"}]}\n",
            0, &g, &e),
        0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0], "nts|nts.Slow|m|np=1|rt=0.5|in:|m:compile_status=1|k:|c=12|"
                             "t=2017-07-06T15:05:23");
    run_lines_free(&g);
    /* a report of failed tests only is read and stores nothing (0 runs) */
    CHECK_INT(
        import("lnt-json", "allfailed.json",
               "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": "
               "{\"llvm_project_revision\": \"12\"}, \"tests\": [{\"name\": \"F\", "
               "\"execution_status\": 1}]}",
               0, &g, &e),
        0);
    CHECK_INT(g.n, 0);
    run_lines_free(&g);
}

/* What an import leaves out is said (fmt_sink.note), not dropped silently:
 * an OSU log's tables of a test Prophecy does not read (the NCCL tests of
 * OMB 7.5's xccl suite beside MPI ones), an LNT report's tests that measured
 * nothing, a Google Benchmark file's skipped or failed benchmarks. A file
 * that leaves nothing out says nothing. */
static char noted[2][LIMIT_IMPORT_NOTE_LEN];
static size_t nnoted;

static void take_note(void *ctx, const char *text)
{
    (void)ctx;
    if (nnoted < 2)
        snprintf(noted[nnoted], sizeof noted[0], "%s", text);
    nnoted++;
}

static void test_notes_left_out(void)
{
    static const struct {
        const char *format, *file, *text, *note; /* note: NULL for none */
    } cases[] = {
        {"osu", "gpu.out",
         "# OSU MPI-CUDA Latency Test v7.5\n# Size          Latency (us)\n"
         "1                       2.5\n"
         "# OSU NCCL-CUDA Allreduce Latency Test v7.5\n# Size       Avg Latency(us)\n"
         "8                    8955.18\n"
         "# OSU NCCL-CUDA Allreduce Latency Test v7.5\n# Size       Avg Latency(us)\n"
         "8                    13482.19\n",
         "gpu.out: 2 tables left out, of tests Prophecy does not read (the first: "
         "\"NCCL-CUDA Allreduce Latency\")"},
        {"lnt-json", "nightly.json",
         "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": "
         "{\"llvm_project_revision\": \"12\"}, \"tests\": [{\"name\": \"F\", "
         "\"execution_status\": 1}, {\"name\": \"G\", \"execution_time\": 0.5}]}",
         "nightly.json: 1 test measured nothing (a hash or a status only: a failed test) "
         "and was left out"},
        {"gbench", "gpu.json",
         "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [{\"name\": "
         "\"BM_Gpu/8\", "
         "\"run_name\": \"BM_Gpu/8\", \"run_type\": \"iteration\", \"error_occurred\": "
         "true, \"error_message\": \"no device\", \"real_time\": 0.0, \"cpu_time\": 0.0, "
         "\"time_unit\": \"ns\"}, {\"name\": \"BM_Cpu/8\", \"run_name\": \"BM_Cpu/8\", "
         "\"run_type\": \"iteration\", \"iterations\": 10, \"real_time\": 5.0, "
         "\"cpu_time\": 5.0, \"time_unit\": \"us\"}]}",
         "gpu.json: 1 benchmark left out, skipped or failed with an error (nothing "
         "measured)"},
        {"osu", "flow.out",
         "# OSU MPI Latency Test v7.2\n# Size      Latency (us)   Flow Ctl(us)\n"
         "1            1.5            0.2\n",
         "flow.out: 1 column of a kind Prophecy does not read left out (the first: "
         "\"Flow Ctl(us)\")"},
        {"osu", "plain.out", "# OSU MPI Latency Test v7.2\n# Size Latency (us)\n1 1.5\n",
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct run_lines g = {0};
        struct err e = {0};
        struct fmt_sink sink = {
            run_lines_take, take_benchmarks, &g, NULL, take_note, NULL, 0};
        struct fmt_options o = {NULL, NULL, NULL, 0, NULL};
        struct fmt_file f = {cases[i].file, cases[i].text, strlen(cases[i].text)};
        nnoted = 0;
        CHECK_INT(fmt_parse(cases[i].format, &f, 1, &o, &sink, &e), 0);
        CHECK_INT(g.n, 1);
        CHECK_INT((long long)nnoted, cases[i].note ? 1 : 0);
        if (cases[i].note)
            CHECK_STR(noted[0], cases[i].note);
        run_lines_free(&g);
    }
    /* a report of no test at all (LNT's compile-run3.json) is read like
     * one whose tests all failed: no run, a note, not a refusal */
    {
        static const char empty[] =
            "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": "
            "{\"llvm_project_revision\": \"12\"}, \"tests\": []}";
        struct run_lines g = {0};
        struct err e = {0};
        struct fmt_sink sink = {
            run_lines_take, take_benchmarks, &g, NULL, take_note, NULL, 0};
        struct fmt_options o = {NULL, NULL, NULL, 0, NULL};
        struct fmt_file f = {"run3.json", empty, sizeof empty - 1};
        nnoted = 0;
        CHECK_INT(fmt_parse("lnt-json", &f, 1, &o, &sink, &e), 0);
        CHECK_INT(g.n, 0);
        CHECK_INT((long long)nnoted, 1);
        CHECK_STR(noted[0], "run3.json: the report holds no tests: nothing was stored");
        run_lines_free(&g);
    }
}

/* Google Benchmark 1.0 and 1.1 wrote context.date as the C locale's
 * "%x %X" (MM/DD/YY); ISO 8601 since. Context fields beyond the 32 tags a
 * run keeps are said in a note, never dropped silently (LNT's run fields
 * alike). */
static void test_gbench_old_date_and_many_tags(void)
{
    struct buf t = {0};
    struct run_lines g = {.flags = RUN_LINE_VCS | RUN_LINE_TAGS};
    struct err e = {0};
    struct fmt_sink sink = {
        run_lines_take, take_benchmarks, &g, NULL, take_note, NULL, 0};
    struct fmt_options o = {NULL, NULL, NULL, 0, NULL};
    struct fmt_file f;
    buf_init(&t, 1 << 16);
    buf_puts(&t, "{\"context\": {\"date\": \"08/16/16 05:04:01\", \"host_name\": \"h\"");
    for (int i = 0; i < 34; i++)
        buf_printf(&t, ", \"k%02d\": \"v\"", i);
    buf_puts(&t, "}, \"benchmarks\": [{\"name\": \"BM_A\", \"iterations\": 10, "
                 "\"real_time\": 5.0, \"cpu_time\": 5.0, \"time_unit\": \"us\"}]}");
    f = (struct fmt_file){"old.json", buf_str(&t), t.len};
    nnoted = 0;
    CHECK_INT(fmt_parse("gbench", &f, 1, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1) {
        CHECK(strstr(g.line[0], "|c=|t=2016-08-16T05:04:01|k00=v|") != NULL);
        CHECK(strstr(g.line[0], "|k31=v") != NULL);
        CHECK(strstr(g.line[0], "|k32=v") == NULL);
    }
    CHECK_INT((long long)nnoted, 1);
    CHECK_STR(noted[0],
              "old.json: 2 context fields left out beyond the 32 tags a run keeps "
              "(the first: \"k32\")");
    run_lines_free(&g);
    /* a date in neither form is no start time, not a refusal */
    buf_reset(&t);
    buf_puts(&t, "{\"context\": {\"date\": \"13/16/16 05:04:01\"}, \"benchmarks\": "
                 "[{\"name\": \"BM_A\", \"iterations\": 1, \"real_time\": 5.0, "
                 "\"cpu_time\": 5.0, \"time_unit\": \"us\"}]}");
    f = (struct fmt_file){"bad.json", buf_str(&t), t.len};
    nnoted = 0;
    CHECK_INT(fmt_parse("gbench", &f, 1, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK(strstr(g.line[0], "|t=") == NULL);
    CHECK_INT((long long)nnoted, 0);
    run_lines_free(&g);
    /* an LNT run's fields alike */
    buf_reset(&t);
    buf_puts(&t, "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, "
                 "\"run\": {\"llvm_project_revision\": \"12\"");
    for (int i = 0; i < 33; i++)
        buf_printf(&t, ", \"f%02d\": \"v\"", i);
    buf_puts(&t, "}, \"tests\": [{\"name\": \"G\", \"execution_time\": 0.5}]}");
    f = (struct fmt_file){"lnt.json", buf_str(&t), t.len};
    nnoted = 0;
    CHECK_INT(fmt_parse("lnt-json", &f, 1, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_INT((long long)nnoted, 1);
    CHECK_STR(noted[0],
              "lnt.json: 1 run field left out beyond the 32 tags a run keeps (the "
              "first: \"f32\")");
    run_lines_free(&g);
    buf_free(&t);
}

/* LNT's server writes a report's samples as strings ("execution_time": "1.4"),
 * which LNT reads into its float columns: a string that is a number whole is
 * one; any other string at the run time of a test that measured something
 * is refused at its field. */
static void test_lnt_numbers_as_strings(void)
{
    static const char ok[] =
        "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": "
        "{\"llvm_project_revision\": \"12\"}, \"tests\": [{\"name\": \"T\", "
        "\"compile_time\": \"1.3\", \"execution_time\": \"1.4\", \"hash\": \"a1\"}]}";
    static const char *const bad[][2] = {
        {"\"fast\"", "lnt.json: tests[0].execution_time is not a number"},
        {"\"1.4 \"", "lnt.json: tests[0].execution_time is not a number"},
        {"\"inf\"", "lnt.json: tests[0].execution_time is not a number"},
        {"[0.5, \"x\"]", "lnt.json: tests[0].execution_time[1] is not a number"},
    };
    struct run_lines g = {.flags = RUN_LINE_KMETRICS};
    struct err e = {0};
    struct fmt_sink sink = {
        run_lines_take, take_benchmarks, &g, NULL, take_note, NULL, 0};
    struct fmt_options o = {NULL, NULL, NULL, 0, NULL};
    struct fmt_file f = {"lnt.json", ok, sizeof ok - 1};
    CHECK_INT(fmt_parse("lnt-json", &f, 1, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK(strstr(g.line[0], "rt=1.4") != NULL &&
              strstr(g.line[0], "compile_time=1.3"));
    run_lines_free(&g);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": "
                 "{}, \"tests\": [{\"name\": \"T\", \"code_size\": 7, "
                 "\"execution_time\": %s}]}",
                 bad[i][0]);
        f = (struct fmt_file){"lnt.json", text, strlen(text)};
        memset(&e, 0, sizeof e);
        CHECK_INT(fmt_parse("lnt-json", &f, 1, &o, &sink, &e), -1);
        CHECK_STR(e.message, bad[i][1]);
        CHECK_INT(g.n, 0);
        run_lines_free(&g);
    }
}

/* A complexity fit's run_name keeps the run options Google Benchmark puts
 * in the name (real_time, threads:2): "BM_S/real_time_BigO" is the fit of
 * "BM_S/64/real_time". The aggregates of a benchmark are all kept, however
 * many counters it has. */
static void test_gbench_fit_options_and_many_aggregates(void)
{
    struct buf t;
    struct run_lines g = {0};
    struct err e = {0};
    struct fmt_sink sink = {
        run_lines_take, take_benchmarks, &g, NULL, take_note, NULL, 0};
    struct fmt_options o = {NULL, NULL, NULL, 0, NULL};
    struct fmt_file f;
    static const char *const stats[] = {"mean", "median", "stddev", "cv"};
    buf_init(&t, 1 << 20);
    buf_puts(&t, "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [");
    for (int n = 64; n <= 128; n *= 2)
        buf_printf(&t,
                   "{\"name\": \"BM_S/%d/real_time/threads:2\", \"run_name\": "
                   "\"BM_S/%d/real_time/threads:2\", \"run_type\": \"iteration\", "
                   "\"iterations\": 10, \"real_time\": %d, \"cpu_time\": %d, "
                   "\"time_unit\": \"ns\"},",
                   n, n, n, n);
    buf_puts(&t, "{\"name\": \"BM_S/real_time/threads:2_BigO\", \"run_name\": "
                 "\"BM_S/real_time/threads:2\", \"run_type\": \"aggregate\", "
                 "\"aggregate_name\": \"BigO\", \"cpu_coefficient\": 0.5, "
                 "\"real_coefficient\": 1.5, \"big_o\": \"N\", \"time_unit\": \"ns\"},"
                 "{\"name\": \"BM_S/real_time/threads:2_RMS\", \"run_name\": "
                 "\"BM_S/real_time/threads:2\", \"run_type\": \"aggregate\", "
                 "\"aggregate_name\": \"RMS\", \"rms\": 0.25}");
    /* 20 counters, 2 repetitions: 4 statistics of 22 measures each */
    for (int r = 0; r < 2; r++) {
        buf_puts(&t, ",{\"name\": \"BM_C\", \"run_name\": \"BM_C\", \"run_type\": "
                     "\"iteration\", \"repetitions\": 2, \"iterations\": 1, "
                     "\"real_time\": 5, \"cpu_time\": 5, \"time_unit\": \"us\"");
        for (int c = 0; c < 20; c++)
            buf_printf(&t, ", \"c%02d\": %d", c, c + r);
        buf_puts(&t, "}");
    }
    for (int a = 0; a < 4; a++) {
        buf_printf(&t,
                   ",{\"name\": \"BM_C_%s\", \"run_name\": \"BM_C\", \"run_type\": "
                   "\"aggregate\", \"aggregate_name\": \"%s\", \"iterations\": 2, "
                   "\"real_time\": 5, \"cpu_time\": 5, \"time_unit\": \"us\"",
                   stats[a], stats[a]);
        for (int c = 0; c < 20; c++)
            buf_printf(&t, ", \"c%02d\": %d.5", c, c);
        buf_puts(&t, "}");
    }
    buf_puts(&t, "]}");
    g.flags = 0;
    f = (struct fmt_file){"fit.json", buf_str(&t), t.len};
    CHECK_INT(fmt_parse("gbench", &f, 1, &o, &sink, &e), 0);
    CHECK_INT(g.n, 4);
    for (size_t i = 0; i < g.n && i < 2; i++)
        CHECK(strstr(g.line[i], "big_o_cpu_coefficient=0.5,big_o_real_coefficient=1.5,"
                                "rms=0.25") != NULL);
    for (size_t i = 2; i < g.n; i++) {
        CHECK(strstr(g.line[i], "c19_cv=19.5") != NULL);
        CHECK(strstr(g.line[i], "real_time_cv=") != NULL &&
              strstr(g.line[i], "cpu_time_cv="));
    }
    run_lines_free(&g);
    buf_free(&t);
}

int main(void)
{
    RUN(test_gbench_fit_options_and_many_aggregates);
    RUN(test_lnt_numbers_as_strings);
    RUN(test_gbench_old_date_and_many_tags);
    RUN(test_osu_suite_log);
    RUN(test_osu_columns);
    RUN(test_osu_labelled_tables);
    RUN(test_osu_gpu_buffers);
    RUN(test_osu_old_and_gpu_titles);
    RUN(test_notes_left_out);
    RUN(test_lnt_versions);
    RUN(test_lnt_v1_metrics);
    RUN(test_lnt_status_only);
    RUN(test_extrap_forms);
    RUN(test_tau_event_names);
    RUN(test_tau_hw_counters);
    RUN(test_tau_long_flat_name);
    return harness_report();
}
