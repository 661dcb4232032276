/* prophecy-bench: characterise a system for parameterized models.
 *
 * Run under MPI on the machine to characterise (at least 2 ranks). It measures
 *   MPISR  ping-pong between ranks 0 and 1, one-way time = round trip / 2,
 *   MPIBC  broadcast from rank 0 over all ranks (slowest rank per repetition),
 *          both over message sizes L = 1 B ... 16 MiB (powers of 4: past the
 *          caches and the transport's protocol switches, so the measured
 *          curve can serve fits on a machine curve, docs/models.md §12),
 *   IADD, MULADD, FMA  one integer add, integer multiply-add and floating
 *          multiply-add (x*a+b as ISO C compiles it: no contraction) in
 *          dependent chains the compiler can neither fold nor vectorise,
 *   TRIAD  one pass of the STREAM triad a[i] = b[i] + s*c[i] on rank 0 over
 *          three arrays of B bytes in all, B = 4 KiB ... 1 GiB (steps of 2:
 *          through L1, L2, L3 and DRAM, so the curve can serve fits over a
 *          problem size n read at its working set, docs/models.md §12),
 * reports min and median per point, fits MPISR(L) = a + b*L (Hockney) and
 * MPIBC(L) = log2(P)*(a + b*L) to the minima with relative-error weights
 * (plain least squares is dominated by the large messages and gets the
 * latency wrong), and uploads the benchmarks and parameters for --system.
 * ADDM (the paper's time of one floating add+multiply) is set to FMA.
 *
 * Only rank 0 talks to the server. The fit is a closed-form weighted
 * 2-parameter least squares, so this tool needs no GSL.
 */
#include "uploader/upl_http.h"

#include "common/buf.h"
#include "common/xalloc.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_UNAVAILABLE 1
#define EXIT_REJECTED 2
#define EXIT_USAGE 64
#define NSIZES 13 /* 1, 4, ..., 4^12 = 16 MiB */
#define NTRIAD 19 /* B = 4 KiB * 2^k, k = 0 ... 18: 4 KiB ... 1 GiB */
#define TAG 7

struct bopts {
    const char *system, *server, *token;
    int quick, dry_run, quiet;
};

struct series { /* one benchmark over the sizes */
    const char *name;
    int P;
    double L[NSIZES], tmin[NSIZES], tmed[NSIZES];
    int n;
};

struct linefit {
    double a, b, max_rel;
};

static const char usage_text[] =
    "usage: mpirun -np P prophecy-bench --system NAME [--server URL] [--token T]\n"
    "                                   [--quick] [--dry-run] [--quiet]\n"
    "\n"
    "Measures MPI ping-pong (ranks 0 and 1) and broadcast (all P ranks) times over\n"
    "message sizes 1 B ... 16 MiB, the time of one integer add (IADD), integer\n"
    "multiply-add (MULADD) and floating multiply-add (FMA, also stored as ADDM), and\n"
    "of one pass of the STREAM triad over B = 4 KiB ... 1 GiB of arrays (TRIAD); fits\n"
    "MPISR(L) = a+b*L and MPIBC(L) = log2(P)*(a+b*L) with relative-error weights, and\n"
    "uploads benchmarks and parameters for system NAME (POST /api/v1/systems/NAME/...).\n"
    "\n"
    "  --server URL  default $PROPHECY_URL or http://127.0.0.1:8080\n"
    "  --token T     default $PROPHECY_TOKEN\n"
    "  --quick       fewer repetitions (on 2 ranks about 2 s instead of 6 s)\n"
    "  --dry-run     print the JSON that would be uploaded on stdout, upload nothing\n"
    "  --quiet       no table on stderr\n"
    "\n"
    "exit status: 0 uploaded (or dry run); 1 server unreachable or 5xx (the JSON is\n"
    "printed on stdout so nothing is lost); 2 rejected by the server; 64 usage error.\n"
    "\n"
    "example: mpirun -np 8 prophecy-bench --system cluster1 --token $TOK\n";

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void min_median(double *v, int n, double *mn, double *med)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *mn = v[0];
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Repetitions that fit `budget` seconds for an operation of `each` seconds. */
static int reps_for(double budget, double each, int lo, int hi)
{
    double r = each > 0 ? budget / each : hi;
    return r < lo ? lo : r > hi ? hi : (int)r;
}

/* ---- communication ---------------------------------------------------------------- */

/* Ping-pong of L bytes between ranks 0 and 1; rank 0 fills out[0..reps) with
 * one-way times. Other ranks do nothing. */
static void pingpong(char *buf, int L, int reps, int rank, double *out)
{
    int r;
    for (r = 0; r < reps; r++) {
        if (rank == 0) {
            double t0 = MPI_Wtime();
            MPI_Send(buf, L, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(buf, L, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            out[r] = (MPI_Wtime() - t0) / 2;
        } else if (rank == 1) {
            MPI_Recv(buf, L, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, L, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
}

/* Broadcasts of L bytes; every rank times each one from the common barrier;
 * rank 0 gets the slowest rank's time per repetition in out. */
static void broadcast(char *buf, int L, int reps, double *local, double *out)
{
    int r;
    for (r = 0; r < reps; r++) {
        double t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Bcast(buf, L, MPI_BYTE, 0, MPI_COMM_WORLD);
        local[r] = MPI_Wtime() - t0;
    }
    MPI_Reduce(local, out, reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
}

static void measure_comm(const struct bopts *o, int rank, int size, char *buf,
                         struct series *sr, struct series *bc)
{
    double budget = o->quick ? 0.05 : 0.4; /* seconds per size and benchmark */
    int lo = o->quick ? 5 : 20, hi = o->quick ? 200 : 20000;
    double *t = xcalloc((size_t)hi, sizeof *t), *loc = xcalloc((size_t)hi, sizeof *loc);
    int i, L = 1;

    if (t == NULL || loc == NULL) {
        fprintf(stderr, "prophecy-bench: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    sr->name = "MPISR";
    sr->P = 2;
    bc->name = "MPIBC";
    bc->P = size;
    for (i = 0; i < NSIZES; i++, L *= 4) {
        int reps = 0;
        /* Pilot: warm the path, then time one round to size the repetitions. */
        pingpong(buf, L, 2, rank, t);
        if (rank == 0)
            reps = reps_for(budget, t[1] * 2, lo, hi);
        MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD);
        pingpong(buf, L, reps, rank, t);
        if (rank == 0) {
            sr->L[i] = L;
            min_median(t, reps, &sr->tmin[i], &sr->tmed[i]);
        }
        broadcast(buf, L, reps, loc, t);
        if (rank == 0) {
            bc->L[i] = L;
            min_median(t, reps, &bc->tmin[i], &bc->tmed[i]);
            if (!o->quiet)
                fprintf(stderr,
                        "L=%8d  MPISR min %.3e med %.3e   MPIBC(P=%d) min %.3e med %.3e  "
                        "(%d reps)\n",
                        L, sr->tmin[i], sr->tmed[i], size, bc->tmin[i], bc->tmed[i],
                        reps);
        }
    }
    sr->n = bc->n = NSIZES;
    xfree(t);
    xfree(loc);
}

/* ---- core operations ----------------------------------------------------------------
 */

static volatile uint64_t seed_u = 3;
static volatile double seed_d = 0.9999999;
static volatile uint64_t sink_u;
static volatile double sink_d;

/* Each loop is one dependent chain: the next operation needs the previous
 * result, so neither vectorisation nor reordering shortens it, and the
 * seeds come from volatiles so the compiler cannot fold the loop. */
static double op_iadd(long n)
{
    uint64_t x = seed_u, y = seed_u + 1;
    double t0 = MPI_Wtime();
    long i;
    for (i = 0; i < n; i++) {
        x += y; /* Fibonacci-like: no closed form the compiler knows */
        y += x;
    }
    sink_u = x ^ y;
    return (MPI_Wtime() - t0) / (2.0 * (double)n);
}

static double op_muladd(long n)
{
    uint64_t x = seed_u, a = seed_u * 2 + 1, b = seed_u + 7;
    double t0 = MPI_Wtime();
    long i;
    for (i = 0; i < n; i++)
        x = x * a + b;
    sink_u = x;
    return (MPI_Wtime() - t0) / (double)n;
}

static double op_fma(long n)
{
    double x = 1, a = seed_d, b = 1e-7 * seed_d;
    double t0 = MPI_Wtime();
    long i;
    for (i = 0; i < n; i++)
        x = x * a + b;
    sink_d = x;
    return (MPI_Wtime() - t0) / (double)n;
}

struct opres {
    const char *name;
    double tmin, tmed;
};

static void measure_ops(const struct bopts *o, struct opres *res)
{
    static double (*const fns[3])(long) = {op_iadd, op_muladd, op_fma};
    static const char *const names[3] = {"IADD", "MULADD", "FMA"};
    long n = o->quick ? 2000000 : 20000000;
    int repeats = o->quick ? 5 : 9, k, r;
    double v[9];

    for (k = 0; k < 3; k++) {
        fns[k](n / 10); /* warm-up: clock frequency, caches */
        for (r = 0; r < repeats; r++)
            v[r] = fns[k](n);
        res[k].name = names[k];
        min_median(v, repeats, &res[k].tmin, &res[k].tmed);
        if (!o->quiet)
            fprintf(stderr, "%-6s min %.3e s  median %.3e s per operation\n", names[k],
                    res[k].tmin, res[k].tmed);
    }
}

/* ---- memory -------------------------------------------------------------------------
 */

struct triad { /* TRIAD over its sizes, rank 0 */
    int n;     /* sizes measured: NTRIAD, fewer when memory is short */
    double B[NTRIAD], tmin[NTRIAD], tmed[NTRIAD];
};

static double *volatile triad_seen; /* the arrays escape: no store is dead */

/* Seconds of one pass of a[i] = b[i] + s*c[i] over n elements, the mean of
 * `inner` passes timed together: a pass over 4 KiB takes tens of
 * nanoseconds, about what reading the clock costs. */
static double triad_pass(double *a, const double *b, const double *c, long n, long inner)
{
    double s = seed_d, t0 = MPI_Wtime(), acc = 0;
    long i, k;

    for (k = 0; k < inner; k++) {
        for (i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        acc += a[k % n]; /* each pass is used */
    }
    t0 = MPI_Wtime() - t0;
    sink_d = acc;
    return t0 / (double)inner;
}

/* TRIAD on this rank: three arrays of the largest size, touched once, whose
 * first B/24 elements each make the working set of size B. A node without
 * 1 GiB to spare gets the sizes that fit (said on stderr), not an abort that
 * would lose the other benchmarks. */
static void measure_triad(const struct bopts *o, struct triad *res)
{
    double budget = o->quick ? 0.02 : 0.15; /* seconds per size */
    int lo = o->quick ? 3 : 7, k, r, reps, kmax;
    double *a = NULL, *b = NULL, *c = NULL, v[64];
    long i, nmax = 0;

    for (kmax = NTRIAD; kmax > 0; kmax--) {
        nmax = (4096L << (kmax - 1)) / 24;
        a = xmalloc((size_t)nmax * sizeof *a);
        b = xmalloc((size_t)nmax * sizeof *b);
        c = xmalloc((size_t)nmax * sizeof *c);
        if (a != NULL && b != NULL && c != NULL)
            break;
        xfree(a);
        xfree(b);
        xfree(c);
        a = b = c = NULL;
    }
    res->n = kmax;
    if (kmax < NTRIAD)
        fprintf(stderr,
                "prophecy-bench: TRIAD stops at %ld bytes: no memory for larger\n",
                kmax > 0 ? 24 * nmax : 0L);
    if (kmax == 0)
        return;
    triad_seen = a;
    for (i = 0; i < nmax; i++) { /* first touch: the pages exist before timing */
        a[i] = 0;
        b[i] = 1 + (double)(i & 7);
        c[i] = 0.5;
    }
    for (k = 0; k < kmax; k++) {
        long n = (4096L << k) / 24, inner = 1 + 65536 / n;
        double one;

        triad_pass(a, b, c, n, inner); /* warm: caches and TLB hold the arrays */
        one = triad_pass(a, b, c, n, inner) * (double)inner;
        reps = reps_for(budget, one, lo, 64);
        for (r = 0; r < reps; r++)
            v[r] = triad_pass(a, b, c, n, inner);
        res->B[k] = 24.0 * (double)n;
        min_median(v, reps, &res->tmin[k], &res->tmed[k]);
        if (!o->quiet)
            fprintf(stderr,
                    "B=%10.0f  TRIAD min %.3e med %.3e  (%d reps of %ld passes)\n",
                    res->B[k], res->tmin[k], res->tmed[k], reps, inner);
    }
    triad_seen = NULL;
    xfree(a);
    xfree(b);
    xfree(c);
}

/* ---- fitting -------------------------------------------------------------------------
 */

/* Fits y = a + b*x minimising sum ((y_i - f_i)/y_i)^2 (closed-form weighted
 * least squares, w_i = 1/y_i^2). Negative coefficients are not physical
 * (latency and time per byte): they are refitted with that term at 0. */
static struct linefit fit_line(const double *x, const double *y, int n)
{
    double S = 0, Sx = 0, Sy = 0, Sxx = 0, Sxy = 0, D;
    struct linefit f = {0, 0, 0};
    int i;

    for (i = 0; i < n; i++) {
        double w = y[i] > 0 ? 1 / (y[i] * y[i]) : 0;
        S += w;
        Sx += w * x[i];
        Sy += w * y[i];
        Sxx += w * x[i] * x[i];
        Sxy += w * x[i] * y[i];
    }
    D = S * Sxx - Sx * Sx;
    if (D > 0) {
        f.b = (S * Sxy - Sx * Sy) / D;
        f.a = (Sxx * Sy - Sx * Sxy) / D;
    }
    if (D <= 0 || f.b < 0) { /* constant */
        f.b = 0;
        f.a = S > 0 ? Sy / S : 0;
    } else if (f.a < 0) { /* through the origin */
        f.a = 0;
        f.b = Sxx > 0 ? Sxy / Sxx : 0;
    }
    for (i = 0; i < n; i++) {
        double rel = y[i] > 0 ? fabs(f.a + f.b * x[i] - y[i]) / y[i] : 0;
        if (rel > f.max_rel)
            f.max_rel = rel;
    }
    return f;
}

/* ---- output ------------------------------------------------------------------------ */

static json_t *bench_entry(const char *name, double L, int P, double t, const char *stat)
{
    if (L < 0)
        return json_pack("{s:s, s:f, s:s}", "name", name, "time", t, "stat", stat);
    return json_pack("{s:s, s:{s:I, s:i}, s:f, s:s}", "name", name, "args", "L",
                     (json_int_t)L, "P", P, "time", t, "stat", stat);
}

static json_t *benchmarks_body(const struct series *s[2], const struct opres *ops,
                               const struct triad *tr)
{
    json_t *arr = json_array();
    int k, i;

    for (k = 0; k < 2; k++)
        for (i = 0; i < s[k]->n; i++) {
            json_array_append_new(
                arr, bench_entry(s[k]->name, s[k]->L[i], s[k]->P, s[k]->tmin[i], "min"));
            json_array_append_new(arr, bench_entry(s[k]->name, s[k]->L[i], s[k]->P,
                                                   s[k]->tmed[i], "median"));
        }
    for (k = 0; k < 3; k++) {
        json_array_append_new(arr, bench_entry(ops[k].name, -1, 0, ops[k].tmin, "min"));
        json_array_append_new(arr,
                              bench_entry(ops[k].name, -1, 0, ops[k].tmed, "median"));
    }
    for (k = 0; k < tr->n; k++) {
        json_array_append_new(arr, json_pack("{s:s, s:{s:I}, s:f, s:s}", "name", "TRIAD",
                                             "args", "B", (json_int_t)tr->B[k], "time",
                                             tr->tmin[k], "stat", "min"));
        json_array_append_new(arr, json_pack("{s:s, s:{s:I}, s:f, s:s}", "name", "TRIAD",
                                             "args", "B", (json_int_t)tr->B[k], "time",
                                             tr->tmed[k], "stat", "median"));
    }
    return json_pack("{s:o}", "benchmarks", arr);
}

static char *num(char *out, size_t sz, double v)
{
    snprintf(out, sz, "%.4g", isfinite(v) ? v : 0);
    return out;
}

static json_t *parameters_body(const struct linefit *sr, const struct linefit *bc,
                               const struct opres *ops)
{
    char a[32], b[32], e1[128], e2[160], v[3][32];
    int k;

    snprintf(e1, sizeof e1, "%s+%s*L", num(a, sizeof a, sr->a), num(b, sizeof b, sr->b));
    snprintf(e2, sizeof e2, "log2(P)*(%s+%s*L)", num(a, sizeof a, bc->a),
             num(b, sizeof b, bc->b));
    for (k = 0; k < 3; k++)
        num(v[k], sizeof v[k], ops[k].tmed);
    return json_pack("{s:{s:s, s:s, s:s, s:s, s:s, s:s}, s:s}", "parameters", "MPISR(L)",
                     e1, "MPIBC(L)", e2, "IADD", v[0], "MULADD", v[1], "FMA", v[2],
                     "ADDM", v[2], "source", "prophecy-bench");
}

/* what NULL: PUT {} to the system itself, which registers it when new and
 * changes nothing when it exists (benchmarks never create their system). */
static int post(upl_http *h, const char *system, const char *what, json_t *body)
{
    char *esc = upl_http_escape(h, system), *text = json_dumps(body, JSON_COMPACT);
    struct upl_reply r;
    struct buf path;
    int rc = EXIT_UNAVAILABLE;

    buf_init(&path, 4096);
    if (esc == NULL || text == NULL) {
        fprintf(stderr, "prophecy-bench: out of memory\n");
        goto out;
    }
    buf_printf(&path, "/api/v1/systems/%s%s%s", esc, what ? "/" : "", what ? what : "");
    if (buf_failed(&path)) {
        fprintf(stderr, "prophecy-bench: system name too long\n");
        rc = EXIT_USAGE;
        goto out;
    }
    upl_http_send(h, what ? "POST" : "PUT", buf_str(&path), text, strlen(text), &r);
    if (r.outcome == UPL_DELIVERED) {
        rc = 0;
    } else {
        fprintf(stderr, "prophecy-bench: %s %s: %s%ld %s: %s%s%s\n",
                what ? "POST" : "PUT", buf_str(&path), r.status ? "" : "no answer ",
                r.status, r.code, r.message, r.field[0] ? " field " : "", r.field);
        rc = r.outcome == UPL_REJECTED ? EXIT_REJECTED : EXIT_UNAVAILABLE;
    }
out:
    buf_free(&path);
    upl_http_free_str(esc);
    free(text);
    return rc;
}

/* ---- main ----------------------------------------------------------------------------
 */

static int parse_args(int argc, char **argv, struct bopts *o)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **dst = NULL;
        if (strcmp(a, "--quick") == 0)
            o->quick = 1;
        else if (strcmp(a, "--dry-run") == 0)
            o->dry_run = 1;
        else if (strcmp(a, "--quiet") == 0)
            o->quiet = 1;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return 1;
        else if (strcmp(a, "--system") == 0)
            dst = &o->system;
        else if (strcmp(a, "--server") == 0)
            dst = &o->server;
        else if (strcmp(a, "--token") == 0)
            dst = &o->token;
        else {
            fprintf(stderr, "prophecy-bench: unknown argument %s (--help for usage)\n",
                    a);
            return -1;
        }
        if (dst) {
            if (i + 1 >= argc) {
                fprintf(stderr, "prophecy-bench: %s needs a value\n", a);
                return -1;
            }
            *dst = argv[++i];
        }
    }
    if (o->server == NULL)
        o->server = getenv("PROPHECY_URL");
    if (o->server == NULL || *o->server == '\0')
        o->server = "http://127.0.0.1:8080";
    if (o->token == NULL)
        o->token = getenv("PROPHECY_TOKEN");
    if (!o->dry_run && (o->system == NULL || *o->system == '\0')) {
        fprintf(stderr, "prophecy-bench: --system NAME is required (or --dry-run)\n");
        return -1;
    }
    if (!o->dry_run && (o->token == NULL || *o->token == '\0')) {
        fprintf(stderr,
                "prophecy-bench: no token: pass --token T or set PROPHECY_TOKEN\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct bopts o = {0};
    struct series sr, bc;
    struct opres ops[3];
    struct triad tr;
    int rank, size, rc = 0, pr;
    char *buf;
    double t_start;

    memset(&sr, 0, sizeof sr);
    memset(&bc, 0, sizeof bc);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pr = parse_args(argc, argv, &o); /* same argv everywhere: all ranks agree */
    if (pr != 0 || size < 2) {
        if (rank == 0 && pr == 1)
            fputs(usage_text, stdout);
        else if (rank == 0 && pr == 0)
            fprintf(stderr,
                    "prophecy-bench: needs at least 2 MPI ranks (mpirun -np 2 ...)\n");
        MPI_Finalize();
        return pr == 1 ? 0 : EXIT_USAGE;
    }
    t_start = MPI_Wtime();
    buf = xcalloc((size_t)1 << 24, 1); /* the largest message, 4^12 bytes */
    if (buf == NULL) {
        fprintf(stderr, "prophecy-bench: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    measure_comm(&o, rank, size, buf, &sr, &bc);
    xfree(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        const struct series *s[2] = {&sr, &bc};
        struct linefit fsr, fbc;
        double ybc[NSIZES], lg = log2((double)size);
        json_t *bodies[2];
        int i;

        measure_ops(&o, ops);
        measure_triad(&o, &tr);
        fsr = fit_line(sr.L, sr.tmin, sr.n);
        for (i = 0; i < bc.n; i++)
            ybc[i] = bc.tmin[i] / lg;
        fbc = fit_line(bc.L, ybc, bc.n);
        bodies[0] = benchmarks_body(s, ops, &tr);
        bodies[1] = parameters_body(&fsr, &fbc, ops);
        if (!o.quiet)
            fprintf(stderr,
                    "MPISR(L) = %s   (max relative error %.0f%%)\n"
                    "MPIBC(L) = %s   (P = %d, max relative error %.0f%%)\n"
                    "ADDM = FMA = %s, IADD = %s, MULADD = %s   (%.1f s)\n",
                    json_string_value(json_object_get(
                        json_object_get(bodies[1], "parameters"), "MPISR(L)")),
                    fsr.max_rel * 100,
                    json_string_value(json_object_get(
                        json_object_get(bodies[1], "parameters"), "MPIBC(L)")),
                    size, fbc.max_rel * 100,
                    json_string_value(
                        json_object_get(json_object_get(bodies[1], "parameters"), "FMA")),
                    json_string_value(json_object_get(
                        json_object_get(bodies[1], "parameters"), "IADD")),
                    json_string_value(json_object_get(
                        json_object_get(bodies[1], "parameters"), "MULADD")),
                    MPI_Wtime() - t_start);
        if (o.dry_run || bodies[0] == NULL || bodies[1] == NULL) {
            json_t *all = json_pack(
                "{s:s?, s:O?, s:O?}", "system", o.system, "benchmarks",
                json_object_get(bodies[0], "benchmarks"), "parameters", bodies[1]);
            char *text = json_dumps(all, JSON_INDENT(1));
            if (text)
                printf("%s\n", text);
            free(text);
            json_decref(all);
            rc = o.dry_run ? 0 : EXIT_UNAVAILABLE;
        } else {
            struct err e = {0};
            upl_http *h = NULL;
            if (upl_http_global_init() == 0)
                h = upl_http_new(o.server, o.token, 30, &e);
            if (h == NULL) {
                fprintf(stderr, "prophecy-bench: %s\n",
                        e.message[0] ? e.message : "curl");
                rc = EXIT_UNAVAILABLE;
            } else {
                json_t *none = json_object();
                rc = post(h, o.system, NULL, none);
                json_decref(none);
                if (rc == 0)
                    rc = post(h, o.system, "benchmarks", bodies[0]);
                if (rc == 0)
                    rc = post(h, o.system, "parameters", bodies[1]);
                upl_http_free(h);
            }
            if (rc != 0) {
                /* Keep the measurements: print them to resend by hand. */
                char *t0 = json_dumps(bodies[0], JSON_COMPACT);
                char *t1 = json_dumps(bodies[1], JSON_COMPACT);
                if (t0 && t1)
                    printf("%s\n%s\n", t0, t1);
                free(t0);
                free(t1);
            } else if (!o.quiet) {
                fprintf(stderr,
                        "prophecy-bench: uploaded benchmarks and parameters for %s\n",
                        o.system);
            }
        }
        json_decref(bodies[0]);
        json_decref(bodies[1]);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rank == 0 ? rc : 0;
}
