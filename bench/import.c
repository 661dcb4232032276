/* bench_import: imports (SPEC §12) next to the ingest path's ceiling,
 * measured in the same run on the same disk.
 *
 * Ceiling: the batched ingest path itself — runs of the same shape as the
 * Extra-P import makes (2 inputs, 10 kernels), already built in memory,
 * handed to ingest_records + ingest_store in batches of LIMIT_IMPORT_BATCH
 * inside one transaction (synchronous = FULL), as core/import stores them.
 * Then:
 *   - a ~100 MB Extra-P JSON-lines file (every line a point, call path and
 *     its repetitions), imported with core/import as `prophecyd import` does
 *     (files mapped, parsed in batches, one transaction);
 *   - a TAU directory of 10,000 profiles (20 functions each), one run.
 * Each phase runs in a child process on a fresh database, so its peak RSS
 * (ru_maxrss) is its own; each is repeated and the median printed. Target:
 * the Extra-P import's runs/s >= 50 % of the ceiling's.
 * Usage: bench_import [--reps R] [--mb M] [--profiles N] [--dir DIR]
 */
#include "common/arena.h"
#include "core/import.h"
#include "core/ingest.h"
#include "db/db.h"
#include "formats/limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KERNELS 10
#define REPS 4
#define RANKS 16 /* process counts 1, 2, 4, ... 2^15 */
#define TAU_FUNCS 20

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const kernel_names[KERNELS] = {
    "main",           "main->init",     "main->solve",    "main->solve->rhs",
    "main->solve->x", "main->solve->y", "main->solve->z", "main->exchange",
    "main->io",       "main->finalize"};

/* Writes the Extra-P JSON-lines file; returns the number of points. */
static long write_extrap(const char *path, double mb)
{
    FILE *f = fopen(path, "w");
    long points = 0;
    double bytes = 0;
    if (f == NULL) {
        perror(path);
        exit(1);
    }
    for (long n = 1; bytes < mb * 1e6; n++) {
        for (int r = 0; r < RANKS && bytes < mb * 1e6; r++, points++) {
            for (int k = 0; k < KERNELS; k++) {
                int w = fprintf(
                    f,
                    "{\"params\": {\"ranks\": %d, \"N\": %ld}, \"callpath\": \"%s\", "
                    "\"metric\": \"time\", \"value\": [%.6f, %.6f, %.6f, %.6f]}\n",
                    1 << r, n * 10, kernel_names[k], 1.0 + k + n * 1e-3, 1.01 + k,
                    0.99 + k + r * 1e-3, 1.02 + k);
                bytes += w;
            }
        }
    }
    fclose(f);
    return points;
}

/* Writes n TAU profiles of TAU_FUNCS functions into dir; returns bytes. */
static long write_tau(const char *dir, long n)
{
    char path[700];
    long bytes = 0;
    mkdir(dir, 0700);
    for (long i = 0; i < n; i++) {
        FILE *f;
        if (snprintf(path, sizeof path, "%s/profile.%ld.0.0", dir, i) >= (int)sizeof path)
            exit(1);
        f = fopen(path, "w");
        if (f == NULL) {
            perror(path);
            exit(1);
        }
        fprintf(f,
                "%d templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl "
                "ProfileCalls #\n",
                TAU_FUNCS);
        fprintf(f, "\".TAU application\" 1 1 1000 %ld 0 GROUP=\"TAU_DEFAULT\"\n",
                4000000 + i);
        for (int j = 1; j < TAU_FUNCS; j++)
            fprintf(
                f, "\"function_%d(int, double *) C\" %d 0 %ld %ld 0 GROUP=\"TAU_USER\"\n",
                j, 10 * j, 1000L * j + i, 2000L * j + i);
        fprintf(f, "0 aggregates\n");
        bytes += ftell(f);
        fclose(f);
    }
    return bytes;
}

static db *open_fresh(const char *path)
{
    struct err e = {0};
    struct db_options opt = {DB_SYNC_FULL, 0, 10000};
    char wal[640];
    db *d;
    unlink(path);
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "%s: %s\n", path, e.message);
        exit(1);
    }
    return d;
}

/* The ceiling: nruns runs of the import's shape through ingest_store in
 * batches, one transaction. Returns the runs stored. */
static long ceiling(const char *dbpath, long nruns)
{
    struct err e = {0};
    db *d = open_fresh(dbpath);
    long done = 0;

    if (db_begin(d, &e) != 0)
        goto fail;
    while (done < nruns) {
        arena *a = arena_new();
        size_t n = (size_t)(nruns - done < LIMIT_IMPORT_BATCH ? nruns - done
                                                              : LIMIT_IMPORT_BATCH);
        struct run_record *runs = arena_alloc(a, n * sizeof *runs);
        struct ingest in;
        for (size_t i = 0; i < n; i++) {
            long id = done + (long)i;
            struct rec_kv *inputs = arena_alloc(a, 2 * sizeof *inputs);
            struct rec_kernel *k = arena_alloc(a, KERNELS * sizeof *k);
            memset(&runs[i], 0, sizeof runs[i]);
            runs[i].uid = arena_printf(a, "extrap-jsonl:%064lx", (unsigned long)id);
            runs[i].application = "bench";
            runs[i].executable = "bench";
            runs[i].system = "unknown";
            runs[i].nprocs = 1L << (id % RANKS);
            inputs[0] = (struct rec_kv){"N", (double)(id / RANKS) * 10};
            runs[i].inputs = inputs;
            runs[i].ninputs = 1;
            for (int j = 0; j < KERNELS; j++)
                k[j] = (struct rec_kernel){kernel_names[j], 1.0 + j, 0, NULL};
            runs[i].kernels = k;
            runs[i].nkernels = KERNELS;
            runs[i].runtime = 55.0;
        }
        if (ingest_records(&in, runs, n, "bench", a, &e) != 0 ||
            ingest_store(d, &in, &e) != 0) {
            arena_free(a);
            goto fail;
        }
        arena_free(a);
        done += (long)n;
    }
    if (db_commit(d, &e) != 0)
        goto fail;
    db_close(d);
    return done;
fail:
    fprintf(stderr, "ceiling: %s\n", e.message);
    exit(1);
}

/* Imports the paths with core/import, as `prophecyd import` does. Returns
 * the runs stored. */
static long import_paths(const char *dbpath, const char *path, const char *app)
{
    struct err e = {0};
    struct import_files files;
    struct import im;
    struct fmt_options opt = {0};
    db *d = open_fresh(dbpath);
    long runs;

    opt.application = app;
    if (import_load_paths(&path, 1, &files, &e) != 0)
        goto fail;
    import_init(&im, "auto", files.files, files.n, &opt, "bench");
    if (import_commit(d, &im, &e) != 0)
        goto fail;
    runs = (long)im.created;
    import_free(&im);
    import_files_free(&files);
    db_close(d);
    return runs;
fail:
    fprintf(stderr, "import %s: %s\n", path, e.message);
    exit(1);
}

struct result {
    double seconds;
    long runs;
    long rss_kb;
};

/* Runs one phase in a child: its time, runs and peak RSS. */
static struct result phase(int which, const char *dbpath, const char *path, long n)
{
    int fds[2];
    pid_t pid;
    struct result r = {0};
    struct rusage ru;
    int status;

    if (pipe(fds) != 0) {
        perror("pipe");
        exit(1);
    }
    pid = fork();
    if (pid == 0) {
        double t0 = now();
        long runs = which == 0   ? ceiling(dbpath, n)
                    : which == 1 ? import_paths(dbpath, path, "bench")
                                 : import_paths(dbpath, path, "tau bench");
        r.seconds = now() - t0;
        r.runs = runs;
        if (write(fds[1], &r, sizeof r) != (ssize_t)sizeof r)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    if (read(fds[0], &r, sizeof r) != (ssize_t)sizeof r) {
        fprintf(stderr, "phase %d failed\n", which);
        exit(1);
    }
    close(fds[0]);
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "phase %d failed\n", which);
        exit(1);
    }
    r.rss_kb = ru.ru_maxrss;
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int reps = 3;
    double mb = 100;
    long profiles = 10000;
    char dir[512] = "", file[600], taudir[600], dbpath[600], cmd[700];
    double t[3][16], rss[3][16], rate[3];
    long runs[3] = {0, 0, 0}, points, taubytes;
    struct stat st;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--mb") == 0 && i + 1 < argc)
            mb = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--profiles") == 0 && i + 1 < argc)
            profiles = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            snprintf(dir, sizeof dir, "%s", argv[++i]);
        else {
            fprintf(
                stderr,
                "usage: bench_import [--reps R] [--mb M] [--profiles N] [--dir DIR]\n");
            return 64;
        }
    }
    if (reps < 1 || reps > 16 || mb <= 0 || profiles < 1) {
        fprintf(stderr, "bench_import: --reps 1..16, --mb > 0, --profiles >= 1\n");
        return 64;
    }
    if (dir[0] == '\0') {
        snprintf(dir, sizeof dir, "/tmp/bench-import-XXXXXX");
        if (mkdtemp(dir) == NULL) {
            perror("mkdtemp");
            return 1;
        }
    }
    snprintf(file, sizeof file, "%s/experiment.jsonl", dir);
    snprintf(taudir, sizeof taudir, "%s/tau", dir);
    snprintf(dbpath, sizeof dbpath, "%s/bench.db", dir);
    points = write_extrap(file, mb);
    taubytes = write_tau(taudir, profiles);
    if (stat(file, &st) != 0) {
        perror(file);
        return 1;
    }
    printf("bench_import: Extra-P JSON lines %.1f MB (%ld points x %d repetitions, %d "
           "call paths), TAU %ld profiles x %d functions; %d repetitions, medians\n",
           (double)st.st_size / 1e6, points, REPS, KERNELS, profiles, TAU_FUNCS, reps);
    fflush(stdout);
    for (int r = 0; r < reps; r++) {
        /* the ceiling stores as many runs as the import makes */
        struct result ri = phase(1, dbpath, file, 0);
        struct result rc = phase(0, dbpath, NULL, ri.runs);
        struct result rt = phase(2, dbpath, taudir, 0);
        t[0][r] = rc.seconds, rss[0][r] = (double)rc.rss_kb, runs[0] = rc.runs;
        t[1][r] = ri.seconds, rss[1][r] = (double)ri.rss_kb, runs[1] = ri.runs;
        t[2][r] = rt.seconds, rss[2][r] = (double)rt.rss_kb, runs[2] = rt.runs;
    }
    for (int p = 0; p < 3; p++)
        rate[p] = (double)runs[p] / median(t[p], reps);
    printf("\n%-56s %10s %10s %12s %12s\n", "", "seconds", "runs", "runs/s",
           "peak RSS MB");
    printf("%-56s %10.2f %10ld %12.0f %12.1f\n",
           "ceiling: ingest_store, batches of 256, one txn", median(t[0], reps), runs[0],
           rate[0], median(rss[0], reps) / 1024);
    printf("%-56s %10.2f %10ld %12.0f %12.1f\n",
           "import: Extra-P JSON lines (core/import)", median(t[1], reps), runs[1],
           rate[1], median(rss[1], reps) / 1024);
    printf("%-56s %10.2f %10ld %12.0f %12.1f\n", "import: TAU directory (one run)",
           median(t[2], reps), runs[2], (double)profiles / median(t[2], reps),
           median(rss[2], reps) / 1024);
    printf("\nExtra-P import / ceiling = %.0f %% (target >= 50 %%); %.1f MB/s\n",
           100 * rate[1] / rate[0], (double)st.st_size / 1e6 / median(t[1], reps));
    printf("TAU: %.0f profiles/s (the runs/s column), %.1f MB/s of profiles\n",
           (double)profiles / median(t[2], reps),
           (double)taubytes / 1e6 / median(t[2], reps));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return 0;
}
