/* bench_otf2: `prophecyd import` of a 64-rank, ~1,000,000-event OTF2 trace
 * (SPEC §16: at most 10 s), next to the ceiling measured in the same run:
 * the time Debian's OTF2 library itself takes to read every event of that
 * archive with callbacks that do nothing (what any importer must spend).
 *
 * The trace, written here with the OTF2 writer as Score-P writes MPI
 * traces (MPI_COMM_WORLD as a COMM_LOCATIONS group and a COMM_GROUP): each
 * rank iterates a "solve" region holding MPI_Send to the next rank and
 * MPI_Recv from the previous one (Enter, MpiSend/MpiRecv, Leave), with
 * rank-dependent compute, and an MPI_Allreduce (MpiCollectiveBegin/End)
 * every 50 iterations. The import (`prophecyd import --format otf2 DIR`, the
 * archive's directory) runs as a child process (the real
 * prophecyd next to this program, or --prophecyd PATH) on a fresh
 * database: wall time, the child's CPU time and peak RSS; median of --reps.
 * Usage: bench_otf2 [--reps R] [--prophecyd PATH] [--keep: leave the
 * trace and databases in /tmp/bench_otf2_*] */
#include <otf2/otf2.h>

#include <dirent.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define P 64
#define ITERS 1935 /* 8 events per iteration, 4 per allreduce: 1,000,577 in all */
#define ALLREDUCE_EVERY 50

enum { R_MAIN, R_SOLVE, R_SEND, R_RECV, R_ALLREDUCE, NREG };

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static OTF2_FlushType pre(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool f)
{
    (void)u, (void)ft, (void)l, (void)c, (void)f;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
    (void)u, (void)ft, (void)l;
    return 0;
}

static OTF2_FlushCallbacks flush = {pre, post};

/* Writes dir/traces.otf2; returns the number of events, or -1. */
static long write_trace(const char *dir)
{
    OTF2_Archive *ar =
        OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    OTF2_GlobalDefWriter *g;
    uint64_t end = 0, members[P];
    long events = 0;
    char name[32];

    if (ar == NULL)
        return -1;
    OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    OTF2_Archive_OpenEvtFiles(ar);
    for (int r = 0; r < P; r++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)r);
        uint64_t t = 0;
        if (r == 0) {
            OTF2_EvtWriter_ProgramBegin(w, NULL, t, 1, 0, NULL);
            events++;
        }
        OTF2_EvtWriter_Enter(w, NULL, t, R_MAIN);
        for (int i = 0; i < ITERS; i++) {
            uint64_t compute = 2000 + 37 * (uint64_t)(r % 8) + (uint64_t)(i % 7) * 11;
            OTF2_EvtWriter_Enter(w, NULL, t += 10, R_SOLVE);
            t += compute;
            OTF2_EvtWriter_Enter(w, NULL, t, R_SEND);
            OTF2_EvtWriter_MpiSend(w, NULL, t += 5, (uint32_t)((r + 1) % P), 0, 7, 4096);
            OTF2_EvtWriter_Leave(w, NULL, t += 300, R_SEND);
            OTF2_EvtWriter_Enter(w, NULL, t += 5, R_RECV);
            OTF2_EvtWriter_MpiRecv(w, NULL, t += 400, (uint32_t)((r + P - 1) % P), 0, 7,
                                   4096);
            OTF2_EvtWriter_Leave(w, NULL, t += 5, R_RECV);
            OTF2_EvtWriter_Leave(w, NULL, t += 10, R_SOLVE);
            events += 8;
            if (i % ALLREDUCE_EVERY == ALLREDUCE_EVERY - 1) {
                OTF2_EvtWriter_Enter(w, NULL, t += 5, R_ALLREDUCE);
                OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t += 1);
                OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t += 800,
                                                OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                                OTF2_UNDEFINED_UINT32, 8, 8);
                OTF2_EvtWriter_Leave(w, NULL, t += 1, R_ALLREDUCE);
                events += 4;
            }
        }
        OTF2_EvtWriter_Leave(w, NULL, t += 10, R_MAIN);
        events += 2;
        end = t > end ? t : end;
        OTF2_Archive_CloseEvtWriter(ar, w);
    }
    OTF2_Archive_CloseEvtFiles(ar);
    OTF2_Archive_OpenDefFiles(ar);
    for (int r = 0; r < P; r++)
        OTF2_Archive_CloseDefWriter(ar,
                                    OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)r));
    OTF2_Archive_CloseDefFiles(ar);
    g = OTF2_Archive_GetGlobalDefWriter(ar);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, end + 1,
                                              OTF2_UNDEFINED_TIMESTAMP);
    {
        /* strings: 0 "", 1 program, 2..6 regions, 7 node, 8 thread,
         * 9 MPI_COMM_WORLD, 10 + r "rank r" */
        const char *s[] = {
            "",         "bench_otf2",    "main",  "solve",         "MPI_Send",
            "MPI_Recv", "MPI_Allreduce", "node0", "master thread", "MPI_COMM_WORLD"};
        for (int i = 0; i < 10; i++)
            OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)i, s[i]);
        for (int r = 0; r < P; r++) {
            snprintf(name, sizeof name, "MPI Rank %d", r);
            OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)(10 + r), name);
        }
    }
    for (int i = 0; i < NREG; i++) {
        int mpi = i >= R_SEND;
        OTF2_RegionRole role = i == R_ALLREDUCE ? OTF2_REGION_ROLE_COLL_ALL2ALL
                               : mpi            ? OTF2_REGION_ROLE_POINT2POINT
                                                : OTF2_REGION_ROLE_FUNCTION;
        OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)i, (OTF2_StringRef)(2 + i),
                                         (OTF2_StringRef)(2 + i), 0, role,
                                         mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                         OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 7, 7, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int r = 0; r < P; r++) {
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, (OTF2_LocationGroupRef)r, (OTF2_StringRef)(10 + r),
            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(
            g, (OTF2_LocationRef)r, 8, OTF2_LOCATION_TYPE_CPU_THREAD,
            (uint64_t)(r == 0 ? 3 + 8 * ITERS + 4 * (ITERS / 50)
                              : 2 + 8 * ITERS + 4 * (ITERS / 50)),
            (OTF2_LocationGroupRef)r);
        members[r] = (uint64_t)r;
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, P, members);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, P, members);
    OTF2_GlobalDefWriter_WriteComm(g, 0, 9, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_Archive_CloseGlobalDefWriter(ar, g);
    return OTF2_Archive_Close(ar) == OTF2_SUCCESS ? events : -1;
}

/* ---- the ceiling: the OTF2 library reading every event, doing nothing ---- */

static OTF2_CallbackCode count(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                               OTF2_AttributeList *a)
{
    (void)l, (void)t, (void)a;
    (*(long *)u)++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode count_region(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                      OTF2_AttributeList *a, OTF2_RegionRef reg)
{
    (void)reg;
    return count(l, t, u, a);
}

static OTF2_CallbackCode count_p2p(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                   OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c,
                                   uint32_t tag, uint64_t len)
{
    (void)peer, (void)c, (void)tag, (void)len;
    return count(l, t, u, a);
}

static OTF2_CallbackCode count_coll(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *a, OTF2_CollectiveOp op,
                                    OTF2_CommRef c, uint32_t root, uint64_t s, uint64_t r)
{
    (void)op, (void)c, (void)root, (void)s, (void)r;
    return count(l, t, u, a);
}

static OTF2_CallbackCode count_program(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *a, OTF2_StringRef name,
                                       uint32_t nargs, const OTF2_StringRef *args)
{
    (void)name, (void)nargs, (void)args;
    return count(l, t, u, a);
}

static long read_all(const char *anchor)
{
    OTF2_Reader *rd = OTF2_Reader_Open(anchor);
    OTF2_GlobalEvtReaderCallbacks *cb;
    OTF2_GlobalEvtReader *ge;
    uint64_t nloc = 0, got = 0;
    long n = 0;

    if (rd == NULL)
        return -1;
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    OTF2_Reader_GetNumberOfLocations(rd, &nloc);
    for (uint64_t l = 0; l < nloc; l++)
        OTF2_Reader_SelectLocation(rd, l);
    OTF2_Reader_OpenEvtFiles(rd);
    for (uint64_t l = 0; l < nloc; l++)
        OTF2_Reader_GetEvtReader(rd, l);
    ge = OTF2_Reader_GetGlobalEvtReader(rd);
    cb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(cb, count_program);
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, count_region);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, count_region);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, count_p2p);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, count_p2p);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, count);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, count_coll);
    OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ge, cb, &n);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    if (OTF2_Reader_ReadAllGlobalEvents(rd, ge, &got) != OTF2_SUCCESS)
        n = -1;
    OTF2_Reader_CloseGlobalEvtReader(rd, ge);
    OTF2_Reader_CloseEvtFiles(rd);
    OTF2_Reader_Close(rd);
    return n;
}

/* Removes path and, for a directory, what it holds. */
static int rm_tree(const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    char sub[4300];
    int rc = 0;

    if (lstat(path, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode) && (d = opendir(path)) != NULL) {
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            rc |= rm_tree(sub);
        }
        closedir(d);
    }
    return remove(path) | rc;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    char prophecyd[4096], dir[] = "/tmp/bench_otf2_XXXXXX", anchor[128], db[128],
                          out[128], tdir[64];
    int reps = 3, keep = 0;
    double ceil_t[16], imp_t[16], imp_cpu[16];
    long imp_rss = 0, events;

    snprintf(prophecyd, sizeof prophecyd, "%s", argv[0]);
    if (strrchr(prophecyd, '/'))
        snprintf(strrchr(prophecyd, '/') + 1,
                 sizeof prophecyd - (size_t)(strrchr(prophecyd, '/') + 1 - prophecyd),
                 "prophecyd");
    else
        snprintf(prophecyd, sizeof prophecyd, "prophecyd");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--prophecyd") == 0 && i + 1 < argc)
            snprintf(prophecyd, sizeof prophecyd, "%s", argv[++i]);
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
        else
            reps = 0;
    }
    if (reps < 1 || reps > 16) {
        fprintf(stderr, "usage: bench_otf2 [--reps 1..16] [--prophecyd PATH] [--keep]\n");
        return 64;
    }
    if (mkdtemp(dir) == NULL) {
        perror("bench_otf2: mkdtemp");
        return 1;
    }
    /* the archive in DIR/trace, the databases beside it: `prophecyd import
     * DIR/trace` reads every file of that directory */
    snprintf(tdir, sizeof tdir, "%s/trace", dir);
    events = write_trace(tdir);
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", tdir);
    if (events < 0) {
        fprintf(stderr, "bench_otf2: cannot write the trace in %s\n", dir);
        return 1;
    }
    printf("trace: %d ranks, %ld events (OTF2, written by libotf2)\n", P, events);
    for (int k = 0; k < reps; k++) {
        /* alternate: ceiling, then the import, on the same warm files */
        double t0 = wall();
        long n = read_all(anchor);
        ceil_t[k] = wall() - t0;
        if (n != events) {
            fprintf(stderr, "bench_otf2: the OTF2 reader saw %ld of %ld events\n", n,
                    events);
            return 1;
        }
        snprintf(db, sizeof db, "%s/bench%d.db", dir, k);
        struct rusage ru;
        int status;
        snprintf(out, sizeof out, "%s/import%d.txt", dir, k);
        fflush(stdout);
        t0 = wall();
        pid_t pid = fork();
        if (pid == 0) {
            if (freopen(out, "w", stdout) == NULL)
                _exit(127);
            execl(prophecyd, "prophecyd", "import", "--db", db, "--format", "otf2",
                  "--system", "bench", tdir, (char *)NULL);
            _exit(127);
        }
        if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            fprintf(stderr, "bench_otf2: %s import failed\n", prophecyd);
            return 1;
        }
        imp_t[k] = wall() - t0;
        {
            /* what it says it stored: the one run (with its trace) */
            char said[512] = "";
            FILE *f = fopen(out, "r");
            if (f == NULL || fgets(said, sizeof said, f) == NULL ||
                strncmp(said, "imported 1 run ", 15) != 0) {
                fprintf(stderr, "bench_otf2: the import said: %s\n", said);
                return 1;
            }
            fclose(f);
            if (k == 0)
                printf("prophecyd: %s", said);
        }
        imp_cpu[k] = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
        imp_rss = ru.ru_maxrss > imp_rss ? ru.ru_maxrss : imp_rss;
    }
    qsort(ceil_t, (size_t)reps, sizeof *ceil_t, cmp);
    qsort(imp_t, (size_t)reps, sizeof *imp_t, cmp);
    qsort(imp_cpu, (size_t)reps, sizeof *imp_cpu, cmp);
    printf("%-8s %8.2f s wall  (libotf2 reading every event: the ceiling)\n", "read",
           ceil_t[reps / 2]);
    printf(
        "%-8s %8.2f s wall, %.2f s CPU (its process tree), peak RSS %ld MB  (%.1fx read; "
        "target <= 10 s)\n",
        "import", imp_t[reps / 2], imp_cpu[reps / 2], imp_rss / 1024,
        imp_t[reps / 2] / ceil_t[reps / 2]);
    if (keep)
        printf("kept: %s\n", dir);
    else if (rm_tree(dir) != 0)
        fprintf(stderr, "bench_otf2: could not remove %s\n", dir);
    return 0;
}
