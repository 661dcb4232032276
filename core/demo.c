/* demo: the example data set; see demo.h. The measurements are generated
 * from known laws with a fixed-seed noise so the data set is the same on
 * every machine (and the models fitted to it are checkable). */
#include "core/demo.h"
#include "core/ingest.h"
#include "db/catalog.h"
#include "db/history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SGI "SGI Origin2000 (example)"
#define SP2 "IBM SP2 (example)"
#define MATMUL "matmul (example)"
#define BT "NAS BT (example)"

/* Deterministic multiplicative noise in [1 - amp, 1 + amp]. */
static double noise(unsigned *state, double amp)
{
    *state = *state * 1103515245u + 12345u;
    return 1.0 + amp * (2.0 * ((*state >> 8) & 0xffff) / 65535.0 - 1.0);
}

static int add_run(db *d, const char *app, const char *exe, const char *sys, long long np,
                   double runtime, struct rec_kv *inputs, size_t ninputs,
                   struct rec_kernel *kernels, size_t nkernels, struct err *err)
{
    struct run_record r;
    struct ingest in;
    long long id;
    int existed;
    memset(&r, 0, sizeof r);
    r.application = app;
    r.executable = exe;
    r.system = sys;
    r.nprocs = np;
    r.runtime = runtime;
    r.submitter = "example data";
    r.inputs = inputs;
    r.ninputs = ninputs;
    r.kernels = kernels;
    r.nkernels = nkernels;
    /* The one ingest path, one run at a time: arrays of one on the stack. */
    memset(&in, 0, sizeof in);
    in.runs = &r;
    in.n = 1;
    in.ids = &id;
    in.existed = &existed;
    return ingest_store(d, &in, err);
}

static int matmul(db *d, unsigned *seed, struct err *err)
{
    static const struct param_record sp2[] = {
        {"ADDM", "", "4.83e-8", "example"},
        {"MPISR", "L", "0.001*(15.94+0.0608*L)", "example"},
        {"MPIBC", "L", "log2(P)*0.001*(15.94+0.0608*L)", "example"},
    };
    static const struct param_record sgi[] = {
        {"ADDM", "", "2.1e-8", "example"},
        {"MPISR", "L", "0.001*(11.2+0.0125*L)", "example"},
        {"MPIBC", "L", "log2(P)*0.001*(11.2+0.0125*L)", "example"},
    };
    int n, rep, p;
    json_t *fields;

    fields =
        json_pack("{s:s, s:s, s:i, s:s}", "description",
                  "Example system: 1990s distributed-memory machine (paper's Figure 8)",
                  "processor", "POWER2", "cores", 128, "network", "SP switch");
    if (db_system_upsert(d, SP2, fields, 1, err) != 0) {
        json_decref(fields);
        return -1;
    }
    json_decref(fields);
    fields = json_pack("{s:s, s:s, s:i, s:s}", "description",
                       "Example system: ccNUMA shared memory (paper's Figure 6)",
                       "processor", "MIPS R10000", "cores", 128, "network", "CrayLink");
    if (db_system_upsert(d, SGI, fields, 1, err) != 0) {
        json_decref(fields);
        return -1;
    }
    json_decref(fields);
    fields =
        json_pack("{s:s}", "description",
                  "Example data: parallel matrix-matrix multiplication (master/slave), "
                  "from the Prophecy paper");
    if (db_app_upsert(d, MATMUL, fields, 1, err) != 0) {
        json_decref(fields);
        return -1;
    }
    json_decref(fields);
    if (db_params_set(d, SP2, sp2, 3, err) != 0 ||
        db_params_set(d, SGI, sgi, 3, err) != 0)
        return -1;
    /* Ping-pong and broadcast benchmarks the parameters were fitted from. */
    for (n = 0; n <= 16; n += 2) {
        double L = (double)(1 << n);
        char args[64];
        struct bench_record b[2];
        memset(b, 0, sizeof b); /* no label, no test: entered by hand */
        snprintf(args, sizeof args, "{\"L\":%.0f,\"P\":2}", L);
        b[0].name = "MPISR";
        b[0].args_json = args;
        b[0].time = 0.001 * (15.94 + 0.0608 * L) * noise(seed, 0.03);
        b[0].stat = "min";
        if (db_benchmarks_add(d, SP2, b, 1, err) != 0)
            return -1;
        snprintf(args, sizeof args, "{\"L\":%.0f,\"P\":8}", L);
        b[1].name = "MPIBC";
        b[1].args_json = args;
        b[1].time = 3 * 0.001 * (15.94 + 0.0608 * L) * noise(seed, 0.03);
        b[1].stat = "min";
        if (db_benchmarks_add(d, SP2, b + 1, 1, err) != 0)
            return -1;
    }
    {
        struct bench_record b = {"ADDM", "{}", 4.83e-8, "median", NULL, NULL};
        if (db_benchmarks_add(d, SP2, &b, 1, err) != 0)
            return -1;
    }
    if (db_template_put(
            d, "matmul master/slave", MATMUL, "",
            "ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)",
            "Hand-counted model of the master/slave matrix multiplication: "
            "N^3 multiply-adds spread over P-1 slaves, rows sent and broadcast",
            err) != 0)
        return -1;
    /* The paper's Figure 6: N = 100..1000 at P = 8 on the Origin2000. */
    for (n = 100; n <= 1000; n += 100) {
        for (rep = 0; rep < 3; rep++) {
            struct rec_kv in[2] = {{"N", n}, {"L", 1024}};
            double t = 2e-9 * n * n * n + 1e-6 * n * n + 1e-4 * n + 0.01;
            if (add_run(d, MATMUL, "matmul_sgi", SGI, 8, t * noise(seed, 0.02), in, 2,
                        NULL, 0, err) != 0)
                return -1;
        }
    }
    /* Strong scaling at N = 1000 on both systems. */
    for (p = 2; p <= 64; p *= 2) {
        for (rep = 0; rep < 2; rep++) {
            struct rec_kv in[2] = {{"N", 1000}, {"L", 1024}};
            double N = 1000, L = 1024, P = p;
            double sp2t = 4.83e-8 * N * N * N / (P - 1) +
                          2 * N * 0.001 * (15.94 + 0.0608 * L) / (P - 1) +
                          N * log2(P) * 0.001 * (15.94 + 0.0608 * L);
            /* Agrees with the N series above at P = 8. */
            double sgit = (2e-9 * N * N * N + 1e-6 * N * N + 1e-4 * N) * 8 / P + 0.01 +
                          0.004 * log2(P / 8);
            if (add_run(d, MATMUL, "matmul_sp2", SP2, p, sp2t * noise(seed, 0.03), in, 2,
                        NULL, 0, err) != 0 ||
                add_run(d, MATMUL, "matmul_sgi", SGI, p, sgit * noise(seed, 0.02), in, 2,
                        NULL, 0, err) != 0)
                return -1;
        }
    }
    return 0;
}

static int bt(db *d, unsigned *seed, struct err *err)
{
    /* Kernel time laws t = a/P + b (seconds) for class A on the SP2. */
    static const struct {
        const char *name;
        double a, b;
    } k[] = {{"initialize", 8.0, 0.5}, {"compute_rhs", 120.0, 1.2},
             {"x_solve", 90.0, 2.0},   {"y_solve", 92.0, 2.1},
             {"z_solve", 95.0, 2.3},   {"add", 20.0, 0.3},
             {"verify", 4.0, 0.4}};
    static const int procs[] = {4, 9, 16, 25, 36, 49, 64};
    /* Measured chains around the loop compute_rhs -> x -> y -> z -> add. */
    static const char *const loop[] = {"compute_rhs", "x_solve", "y_solve", "z_solve",
                                       "add"};
    static const double coupling[] = {0.92, 0.97, 0.96, 0.94, 1.05};
    json_t *fields;
    size_t i;
    int pi, rep;

    fields =
        json_pack("{s:s}", "description",
                  "Example data: NAS Parallel Benchmark BT class A shaped application: "
                  "initialisation, a loop of five kernels, verification");
    if (db_app_upsert(d, BT, fields, 1, err) != 0) {
        json_decref(fields);
        return -1;
    }
    json_decref(fields);
    for (pi = 0; pi < 7; pi++) {
        double P = procs[pi];
        for (rep = 0; rep < 2; rep++) {
            struct rec_kernel kr[7];
            struct rec_kv in[1] = {{"class_size", 64}};
            double total = 0;
            for (i = 0; i < 7; i++) {
                kr[i].name = k[i].name;
                kr[i].time = (k[i].a / P + k[i].b) * noise(seed, 0.02);
                kr[i].calls = (i == 0 || i == 6) ? 1 : 200;
                kr[i].metrics_json = NULL;
                total += kr[i].time * (i >= 1 && i <= 5 ? coupling[i - 1] : 1.0);
            }
            if (add_run(d, BT, "bt.A", SP2, procs[pi], total, in, 1, kr, 7, err) != 0)
                return -1;
        }
    }
    /* Coupling measurements at P = 16 and P = 36 (isocoupling reuse). */
    for (pi = 2; pi <= 4; pi += 2) {
        double P = procs[pi];
        for (i = 0; i < 5; i++) {
            size_t j = (i + 1) % 5;
            double ta = k[i + 1].a / P + k[i + 1].b, tb = k[j + 1].a / P + k[j + 1].b;
            double c = 0.5 * (coupling[i] + coupling[j]);
            char kernels[128], alone[128];
            struct coupling_record cp;
            long long id;
            snprintf(kernels, sizeof kernels, "[\"%s\",\"%s\"]", loop[i], loop[j]);
            snprintf(alone, sizeof alone, "[%.6g,%.6g]", ta, tb);
            cp.application = BT;
            cp.system = SP2;
            cp.nprocs = procs[pi];
            cp.inputs_json = "{\"class_size\":64}";
            cp.kernels_json = kernels;
            cp.alone_json = alone;
            cp.together = c * (ta + tb);
            if (db_couplings_add(d, &cp, 1, &id, err) != 0)
                return -1;
        }
    }
    return 0;
}

int demo_write(db *d, struct err *err)
{
    unsigned seed = 20261122u;
    if (matmul(d, &seed, err) != 0 || bt(d, &seed, err) != 0)
        return -1;
    return 0;
}

int demo_load_if_empty(db *d, struct err *err)
{
    long long napps;
    json_t *counts = db_counts(d, err);
    if (counts == NULL)
        return -1;
    napps = json_integer_value(json_object_get(counts, "applications"));
    json_decref(counts);
    if (napps > 0)
        return 0;
    return demo_write(d, err);
}

int demo_remove(db *d, struct err *err)
{
    int n;
    if (db_begin(d, err) != 0)
        return -1;
    n = db_demo_remove(d, err);
    if (n < 0 || db_commit(d, err) != 0) {
        db_rollback(d);
        return -1;
    }
    return n;
}
