/* bench_trace: every trace analysis on a synthetic 64-rank, 1,000,000-event
 * trace, next to the time to read (parse) that trace in the same run.
 * Target (SPEC §13): each analysis under a second.
 *
 * The trace: each rank iterates a "solve" probe state holding an
 * MPI_Send to the next rank and an MPI_Recv from the previous one, with
 * rank-dependent compute, an MPI_Allreduce on the world every 50 iterations
 * and an MPI_Barrier on its half (the ranks of its parity: a communicator of
 * 32) every 50; every 10th receive is an MPI_Irecv completed in a Test loop
 * (two MPI_Test calls, a completed receive of format version 3). Written in
 * the binary format of formats/trace.h (version 3, with its communicator
 * table), one buffer per rank, then parsed.
 *
 * Then the stored path (unless --no-http): the real prophecyd (next to this
 * program, or --prophecyd PATH) on a temporary database; the trace is
 * POSTed as a tar to /api/v1/runs/{id}/trace (parse, every analysis and
 * chart, store: once), and each analysis is read back over HTTP as JSON and
 * as SVG (median wall time of a few reads on one keep-alive connection),
 * with the timeline at another width than the stored one (read from the
 * store, parsed and computed per request). */
#include "bench/lib/benchlib.h"
#include "common/err.h"
#include "formats/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define P 64
#define ITERS 4850 /* 3 events per iteration + collectives + Test loops: ~1,000,000 */
#define HALF (P / 2)

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
    int comm_size = op == TRACE_OP_STATE ? 0 : name == 2 ? HALF : P;
    memset(e, 0, TRACE_EVENT_SIZE);
    put(e, b, 8);
    put(e + 8, en, 8);
    put(e + 16, (uint64_t)bytes, 8);
    put(e + 24, (uint32_t)peer, 4);
    put(e + 28, (uint32_t)-1, 4);
    put(e + 32, (uint32_t)tag, 4);
    put(e + 40, (uint64_t)comm_size, 4);
    put(e + 44, (uint64_t)op, 2);
    put(e + 46, (uint64_t)name, 2);
    return e + TRACE_EVENT_SIZE;
}

/* One rank's file. Iteration i starts at i * 20 us; rank r computes
 * 5 + r % 8 us, sends (1 us), receives until its predecessor's send began
 * (every 10th time in a Test loop). Calls name communicator 1 (the world)
 * or 2 (the rank's half). */
static unsigned char *make_rank(int r, size_t *len, size_t *nev)
{
    size_t n = (size_t)ITERS * 3 + ITERS / 50 * 2 + ITERS / 10 * 2, ndone = ITERS / 10;
    size_t sz =
        TRACE_HEADER_SIZE + 2 + 5 + 16 + HALF * 4 + n * 48 + ndone * TRACE_DONE_SIZE;
    unsigned char *b = calloc(1, sz), *e, *d;
    uint64_t t_end = (uint64_t)(ITERS + 1) * 20000;
    size_t at = 0;

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
    put(b + 52, 2, 4);
    put(b + 56, ndone, 8);
    put(b + 64, 5, 2);
    memcpy(b + 66, "solve", 5);
    e = b + 71;
    put(e, 0, 4); /* communicator 1: the world, in order */
    put(e + 4, 0, 4);
    put(e + 8, HALF, 4); /* communicator 2: the ranks of r's parity */
    put(e + 12, 0, 4);
    for (int m = 0; m < HALF; m++)
        put(e + 16 + 4 * m, (uint64_t)(r % 2 + 2 * m), 4);
    e += 16 + HALF * 4;
    d = b + sz - ndone * TRACE_DONE_SIZE;
    for (int i = 0; i < ITERS; i++) {
        uint64_t t = (uint64_t)i * 20000, c = 5000 + (uint64_t)(r % 8) * 1000;
        uint64_t prev_send = t + 5000 + (uint64_t)(((r + P - 1) % P) % 8) * 1000;
        uint64_t rb = t + c + 1000, re = (prev_send > rb ? prev_send : rb) + 500;
        e = event(e, t + c, t + c + 1000, 4096, (r + 1) % P, 0, TRACE_OP_SEND, 1);
        if (i % 10 == 9) { /* Irecv, a Test that finds nothing, one that completes */
            e = event(e, rb, rb + 100, 4096, (r + P - 1) % P, 0, TRACE_OP_IRECV, 1);
            e = event(e, rb + 200, rb + 300, 0, -1, 0, TRACE_OP_TEST, 0);
            e = event(e, re - 100, re, 0, -1, 0, TRACE_OP_TEST, 0);
            put(d, at + 3, 8);
            put(d + 8, 4096, 8);
            put(d + 16, (uint64_t)((r + P - 1) % P), 4);
            put(d + 24, at + 2, 8);
            d += TRACE_DONE_SIZE;
            at += 5;
        } else {
            e = event(e, rb, re, 4096, (r + P - 1) % P, 0, TRACE_OP_RECV, 1);
            at += 3;
        }
        e = event(e, t, re, 0, -1, 0, TRACE_OP_STATE, 0);
        if (i % 50 == 49)
            e = event(e, re + 100 + (uint64_t)r * 10, t + 19000, 8, -1, 0,
                      TRACE_OP_ALLREDUCE, 1);
        if (i % 50 == 24)
            e = event(e, re + 100 + (uint64_t)r * 10, t + 19000, 0, -1, 0,
                      TRACE_OP_BARRIER, 2);
        at += (i % 50 == 49) + (i % 50 == 24);
    }
    *len = (size_t)(e - b) + ndone * TRACE_DONE_SIZE;
    *nev = n;
    return b;
}

/* ---- the stored path, over HTTP ---------------------------------------------- */

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void octal(char *dst, size_t width, unsigned long long v)
{
    dst[width - 1] = '\0';
    for (size_t i = width - 1; i-- > 0; v >>= 3)
        dst[i] = (char)('0' + (v & 7));
}

/* A ustar archive of trace.0 .. trace.P-1. */
static unsigned char *make_tar(unsigned char **bufs, const size_t *lens, size_t *len)
{
    size_t cap = 1024, n = 0;
    unsigned char *t;
    for (int r = 0; r < P; r++)
        cap += 512 + (lens[r] + 511) / 512 * 512;
    if ((t = calloc(1, cap)) == NULL)
        return NULL;
    for (int r = 0; r < P; r++) {
        unsigned char *h = t + n;
        unsigned sum = 0;
        snprintf((char *)h, 100, "trace.%d", r);
        octal((char *)h + 100, 8, 0644);
        octal((char *)h + 108, 8, 0);
        octal((char *)h + 116, 8, 0);
        octal((char *)h + 124, 12, lens[r]);
        octal((char *)h + 136, 12, 0);
        memset(h + 148, ' ', 8);
        h[156] = '0';
        memcpy(h + 257, "ustar", 6);
        memcpy(h + 263, "00", 2);
        for (int i = 0; i < 512; i++)
            sum += h[i];
        octal((char *)h + 148, 7, sum);
        h[155] = ' ';
        memcpy(h + 512, bufs[r], lens[r]);
        n += 512 + (lens[r] + 511) / 512 * 512;
    }
    *len = n + 1024;
    return t;
}

struct got {
    char *data;
    size_t len;
};

static size_t keep(char *p, size_t s, size_t n, void *u)
{
    struct got *g = u;
    char *nd = realloc(g->data, g->len + s * n + 1);
    if (nd == NULL)
        return 0;
    memcpy(nd + g->len, p, s * n);
    g->data = nd;
    g->len += s * n;
    g->data[g->len] = '\0';
    return s * n;
}

/* One request; returns the status, the body in *g (caller frees g->data). */
static long request(CURL *c, const char *url, const char *token, const char *ctype,
                    const void *body, size_t len, struct got *g)
{
    struct curl_slist *h = NULL;
    char auth[256];
    long status = 0;
    g->data = NULL;
    g->len = 0;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, keep);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, g);
    if (body != NULL) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
        h = curl_slist_append(h, auth);
        h = curl_slist_append(h, ctype);
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    } else {
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
        curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    }
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(h);
    return status;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median wall time of reps GETs of url (ms), and the body size. */
static double median_get(CURL *c, const char *url, int reps, size_t *size, long *status)
{
    double t[16];
    struct got g;
    for (int i = 0; i < reps && i < 16; i++) {
        double a = wall();
        *status = request(c, url, NULL, NULL, NULL, 0, &g);
        t[i] = (wall() - a) * 1e3;
        *size = g.len;
        free(g.data);
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

static int stored_path(const char *prophecyd, unsigned char **bufs, const size_t *lens,
                       double read_ms)
{
    static const char *const names[] = {"profile",  "wait",      "traffic", "load",
                                        "timeline", "occupancy", "clusters"};
    char dir[] = "/tmp/bench-trace-XXXXXX", dbpath[256], cmd[8192], token[128] = "";
    char listen[64], base[96], url[256];
    unsigned char *tar;
    size_t tarlen, size;
    struct got g;
    long status;
    int port = bench_first_port();
    pid_t pid;
    CURL *c;
    FILE *f;
    double a;
    int rc = 1;

    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(dbpath, sizeof dbpath, "%s/b.db", dir);
    snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
    snprintf(base, sizeof base, "http://%s", listen);
    pid = fork();
    if (pid == 0) {
        execl(prophecyd, "prophecyd", "serve", "--db", dbpath, "--listen", listen,
              "--quiet", "--max-body", "200000000", "--request-timeout", "600",
              (char *)NULL);
        _exit(127);
    }
    usleep(500000);
    snprintf(cmd, sizeof cmd, "'%s' token create bench --db '%s'", prophecyd, dbpath);
    if ((f = popen(cmd, "r")) == NULL || fgets(token, sizeof token, f) == NULL) {
        fprintf(stderr, "bench_trace: cannot create a token with %s\n", prophecyd);
        if (f)
            pclose(f);
        c = NULL;
        tar = NULL;
        goto out;
    }
    pclose(f);
    token[strcspn(token, "\n")] = '\0';
    c = curl_easy_init();
    tar = make_tar(bufs, lens, &tarlen);
    if (c == NULL || tar == NULL)
        goto out;
    snprintf(url, sizeof url, "%s/api/v1/runs", base);
    status = request(c, url, token, "Content-Type: application/json",
                     "{\"application\": \"bench\", \"executable\": \"b\", \"system\": "
                     "\"s\", \"nprocs\": 64, \"runtime\": 0.1}",
                     strlen("{\"application\": \"bench\", \"executable\": \"b\", "
                            "\"system\": \"s\", \"nprocs\": 64, \"runtime\": 0.1}"),
                     &g);
    free(g.data);
    if (status != 201) {
        fprintf(stderr, "bench_trace: storing the run answered %ld\n", status);
        goto out;
    }
    snprintf(url, sizeof url, "%s/api/v1/runs/1/trace", base);
    a = wall();
    status = request(c, url, token, "Content-Type: application/x-tar", tar, tarlen, &g);
    printf("\nstored path over HTTP (wall time; read above: %.1f ms CPU)\n", read_ms);
    printf("%-22s %8.1f ms  (%.1f MB tar: parse, 7 analyses and charts, store; once)\n",
           "POST trace", (wall() - a) * 1e3, (double)tarlen / 1e6);
    if (status != 201) {
        fprintf(stderr, "bench_trace: POST trace answered %ld: %s\n", status,
                g.data ? g.data : "");
        free(g.data);
        goto out;
    }
    free(g.data);
    rc = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double ms;
        snprintf(url, sizeof url, "%s/api/v1/runs/1/trace/%s", base, names[i]);
        ms = median_get(c, url, 5, &size, &status);
        printf("GET %-18s %8.2f ms  %9zu bytes JSON%s\n", names[i], ms, size,
               status == 200 ? "" : "  (!! not 200)");
        rc |= status != 200 || ms >= 1000;
        snprintf(url, sizeof url, "%s/plots/run-1-%s.svg", base, names[i]);
        ms = median_get(c, url, 5, &size, &status);
        printf("GET %-18s %8.2f ms  %9zu bytes SVG%s\n", names[i], ms, size,
               status == 200 ? "" : "  (!! not 200)");
        rc |= status != 200 || ms >= 1000;
    }
    snprintf(url, sizeof url, "%s/api/v1/runs/1/trace/timeline?width=1000", base);
    {
        double ms = median_get(c, url, 3, &size, &status);
        printf(
            "GET %-18s %8.2f ms  %9zu bytes JSON (not stored: read, parse, compute)%s\n",
            "timeline?width=1000", ms, size, status == 200 ? "" : "  (!! not 200)");
        rc |= status != 200 || ms >= 1000;
    }
out:
    if (c)
        curl_easy_cleanup(c);
    free(tar);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_trace: could not remove %s\n", dir);
    return rc;
}

int main(int argc, char **argv)
{
    char prophecyd[4096];
    int http = 1;
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
    snprintf(prophecyd, sizeof prophecyd, "%s", argv[0]);
    if (strrchr(prophecyd, '/'))
        snprintf(strrchr(prophecyd, '/') + 1,
                 sizeof prophecyd - (size_t)(strrchr(prophecyd, '/') + 1 - prophecyd),
                 "prophecyd");
    else
        snprintf(prophecyd, sizeof prophecyd, "prophecyd");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-http") == 0)
            http = 0;
        else if (strcmp(argv[i], "--prophecyd") == 0 && i + 1 < argc)
            snprintf(prophecyd, sizeof prophecyd, "%s", argv[++i]);
        else {
            fprintf(stderr, "usage: bench_trace [--no-http] [--prophecyd PATH]\n");
            return 64;
        }
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
    {
        int rc = http ? stored_path(prophecyd, bufs, lens, (t1 - t0) * 1e3) : 0;
        for (int r = 0; r < P; r++)
            free(bufs[r]);
        return rc;
    }
}
