/* bench_trace: every trace analysis on a synthetic 64-rank, 1,000,000-event
 * trace, next to the time to read (parse) that trace in the same run.
 * Target (SPEC §13): each analysis under a second.
 *
 * The trace: each rank iterates a "solve" probe state holding an
 * MPI_Send to the next rank and an MPI_Recv from the previous one, with
 * rank-dependent compute, and an MPI_Allreduce every 50 iterations. Written in
 * the binary format of formats/trace.h, one buffer per rank, then parsed. */
#include "common/err.h"
#include "formats/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define P 64
#define ITERS 5180 /* 3 events per iteration + the allreduces: ~1,000,000 events */

/* CPU time of this process: the machine is shared, and wall time under
 * other load says more about the neighbours than about the analysis. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void put(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned char *event(unsigned char *e, uint64_t b, uint64_t en, int64_t bytes,
                            int peer, int tag, int op, int name)
{
    memset(e, 0, TRACE_EVENT_SIZE);
    put(e, b, 8);
    put(e + 8, en, 8);
    put(e + 16, (uint64_t)bytes, 8);
    put(e + 24, (uint32_t)peer, 4);
    put(e + 28, (uint32_t)-1, 4);
    put(e + 32, (uint32_t)tag, 4);
    put(e + 40, P, 4);
    put(e + 44, (uint64_t)op, 2);
    put(e + 46, (uint64_t)name, 2);
    return e + TRACE_EVENT_SIZE;
}

/* One rank's file. Iteration i starts at i * 20 us; rank r computes
 * 5 + r % 8 us, sends (1 us), receives until its predecessor's send began. */
static unsigned char *make_rank(int r, size_t *len, size_t *nev)
{
    size_t n = (size_t)ITERS * 3 + ITERS / 50, sz = TRACE_HEADER_SIZE + 2 + 5 + n * 48;
    unsigned char *b = calloc(1, sz), *e;
    uint64_t t_end = (uint64_t)(ITERS + 1) * 20000;

    if (b == NULL)
        return NULL;
    memcpy(b, TRACE_MAGIC, 8);
    put(b + 8, TRACE_FORMAT_VERSION, 4);
    put(b + 12, (uint64_t)r, 4);
    put(b + 16, P, 4);
    put(b + 20, 1, 4);
    put(b + 24, n, 8);
    put(b + 32, t_end, 8);
    put(b + 48, TRACE_EVENT_SIZE, 4);
    put(b + 64, 5, 2);
    memcpy(b + 66, "solve", 5);
    e = b + 71;
    for (int i = 0; i < ITERS; i++) {
        uint64_t t = (uint64_t)i * 20000, c = 5000 + (uint64_t)(r % 8) * 1000;
        uint64_t prev_send = t + 5000 + (uint64_t)(((r + P - 1) % P) % 8) * 1000;
        uint64_t rb = t + c + 1000, re = (prev_send > rb ? prev_send : rb) + 500;
        e = event(e, t + c, t + c + 1000, 4096, (r + 1) % P, 0, TRACE_OP_SEND, 0);
        e = event(e, rb, re, 4096, (r + P - 1) % P, 0, TRACE_OP_RECV, 0);
        e = event(e, t, re, 0, -1, 0, TRACE_OP_STATE, 0);
        if (i % 50 == 49)
            e = event(e, re + 100 + (uint64_t)r * 10, t + 19000, 8, -1, 0,
                      TRACE_OP_ALLREDUCE, 0);
    }
    *len = (size_t)(e - b);
    *nev = n;
    return b;
}

int main(void)
{
    unsigned char *bufs[P];
    size_t lens[P], total = 0, nev;
    struct trace *t = NULL;
    struct err err = {0};
    double t0, t1;

    for (int r = 0; r < P; r++) {
        bufs[r] = make_rank(r, &lens[r], &nev);
        if (bufs[r] == NULL)
            return 1;
        total += nev;
    }
    t0 = now();
    if (trace_parse((const void *const *)bufs, lens, P, &t, &err) < 0) {
        fprintf(stderr, "bench_trace: %s\n", err.message);
        return 1;
    }
    t1 = now();
    printf("trace: %d ranks, %zu events, %.1f MB\n", P, total,
           (double)(total * TRACE_EVENT_SIZE) / 1e6);
    printf("%-10s %8.1f ms CPU  (the ceiling every analysis is compared with)\n", "read",
           (t1 - t0) * 1e3);
#define TIME(NAME, CALL, FREE)                                                           \
    do {                                                                                 \
        double a = now();                                                                \
        if (CALL < 0) {                                                                  \
            fprintf(stderr, "bench_trace: %s: %s\n", NAME, err.message);                 \
            return 1;                                                                    \
        }                                                                                \
        double z = now();                                                                \
        printf("%-10s %8.1f ms CPU  (%.2fx read; target < 1000 ms)\n", NAME,             \
               (z - a) * 1e3, (z - a) / (t1 - t0));                                      \
        FREE;                                                                            \
    } while (0)
    {
        struct trace_profile *p;
        struct trace_wait *w;
        struct trace_traffic *tr;
        struct trace_load *l;
        struct trace_timeline *tl;
        struct trace_occupancy *o;
        struct trace_clusters *c;
        TIME("profile", trace_profile(t, &p, &err), trace_profile_free(p));
        TIME("wait", trace_wait(t, &w, &err), trace_wait_free(w));
        TIME("traffic", trace_traffic(t, &tr, &err), trace_traffic_free(tr));
        TIME("load", trace_load(t, &l, &err), trace_load_free(l));
        TIME("timeline", trace_timeline(t, 1000, &tl, &err), trace_timeline_free(tl));
        TIME("occupancy", trace_occupancy(t, &o, &err),
             (printf("           %zu macrostate rows\n", o->nrows),
              trace_occupancy_free(o)));
        TIME("clusters", trace_clusters(t, &c, &err),
             (printf("           k = %d, silhouette %.2f\n", c->k, c->silhouette),
              trace_clusters_free(c)));
    }
    trace_free(t);
    for (int r = 0; r < P; r++)
        free(bufs[r]);
    return 0;
}
