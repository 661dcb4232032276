/* Tests of models/couple: coupling values and coefficients against the
 * paper's formulas computed here independently, the NAS BT shape, chains,
 * loops of one and two kernels, duplicates, every error, composition of
 * intervals and the isocoupling choice. */
#include "models/couple.h"
#include "tests/harness.h"

#include <math.h>
#include <string.h>

static struct couple_measurement pair(const char *a, const char *b, double pa, double pb,
                                      double pab, size_t index)
{
    struct couple_measurement m;
    memset(&m, 0, sizeof m);
    m.n = 2;
    m.kernel[0] = a;
    m.kernel[1] = b;
    m.alone[0] = pa;
    m.alone[1] = pb;
    m.together = pab;
    m.index = index;
    return m;
}

/* The SPEC §5.3 example: init outside, loop A -> B -> C. */
static void test_paper_three_kernels(void)
{
    struct couple_kernel k[] = {{"init", 0}, {"A", 1}, {"B", 1}, {"C", 1}};
    struct couple_measurement m[3];
    struct couple_result r;
    struct err e = {0};
    double cab = 14.9 / (10.0 + 6.0), cbc = 9.4 / (6.0 + 3.0), cca = 12.1 / (3.0 + 10.0);
    double psi = (cab * 14.9 + cca * 12.1) / (14.9 + 12.1);
    double zeta = (cab * 14.9 + cbc * 9.4) / (14.9 + 9.4);
    double kappa = (cbc * 9.4 + cca * 12.1) / (9.4 + 12.1);

    m[0] = pair("A", "B", 10.0, 6.0, 14.9, 0);
    m[1] = pair("B", "C", 6.0, 3.0, 9.4, 1);
    m[2] = pair("C", "A", 3.0, 10.0, 12.1, 2);
    CHECK_INT(couple_coefficients(k, 4, m, 3, &r, &e), 0);
    CHECK_INT(r.nkernels, 4);
    CHECK_INT(r.nloop, 3);
    CHECK_INT(r.loop[0], 1);
    CHECK_INT(r.loop[2], 3);
    CHECK_INT(r.nchains, 3);
    CHECK_NEAR(r.chain[0].value, cab, 1e-15);
    CHECK_NEAR(r.chain[1].value, cbc, 1e-15);
    CHECK_NEAR(r.chain[2].value, cca, 1e-15);
    CHECK_INT(r.chain[2].kernel[0], 3); /* C then A: the wrap-around pair */
    CHECK_INT(r.chain[2].kernel[1], 1);
    CHECK(r.coef[0] == 1.0);
    CHECK_NEAR(r.coef[1], psi, 1e-15);
    CHECK_NEAR(r.coef[2], zeta, 1e-15);
    CHECK_NEAR(r.coef[3], kappa, 1e-15);
    /* The same figures from Python, as docs/models.md (kernel coupling) quotes them. */
    CHECK_NEAR(r.coef[1], 0.9310345441595442, 1e-14);
    CHECK_NEAR(r.coef[2], 0.9750371513488798, 1e-14);
    CHECK_NEAR(r.coef[3], 0.9804690916318823, 1e-14);
    couple_result_free(&r);
    couple_result_free(&r); /* safe twice */
}

/* Seven kernels shaped like NAS BT: initialisation and verification outside
 * a loop of five, pairs measured around the loop at P = 16. */
static void test_bt_shape(void)
{
    static const char *names[] = {"initialize", "compute_rhs", "x_solve", "y_solve",
                                  "z_solve",    "add",         "verify"};
    static const double a[] = {8, 120, 90, 92, 95, 20, 4},
                        b[] = {0.5, 1.2, 2.0, 2.1, 2.3, 0.3, 0.4};
    static const double c[] = {0.92, 0.97, 0.96, 0.94, 1.05};
    struct couple_kernel k[7];
    struct couple_measurement m[5];
    struct couple_result r;
    struct err e = {0};
    double t[7], C[5], P[5];
    int i;

    for (i = 0; i < 7; i++) {
        k[i].name = names[i];
        k[i].loop = i >= 1 && i <= 5;
        t[i] = a[i] / 16 + b[i];
    }
    for (i = 0; i < 5; i++) {
        int x = 1 + i, y = 1 + (i + 1) % 5;
        double cc = 0.5 * (c[i] + c[(i + 1) % 5]);
        /* measured in reverse order order for one pair: the same pair */
        if (i == 2)
            m[i] = pair(names[y], names[x], t[y], t[x], cc * (t[x] + t[y]), (size_t)i);
        else
            m[i] = pair(names[x], names[y], t[x], t[y], cc * (t[x] + t[y]), (size_t)i);
        P[i] = cc * (t[x] + t[y]);
        C[i] = P[i] / (t[x] + t[y]);
    }
    CHECK_INT(couple_coefficients(k, 7, m, 5, &r, &e), 0);
    CHECK_INT(r.nloop, 5);
    CHECK(r.coef[0] == 1.0 && r.coef[6] == 1.0);
    for (i = 0; i < 5; i++) {
        int prev = (i + 4) % 5; /* pair (K(i-1), Ki) */
        double want = (C[prev] * P[prev] + C[i] * P[i]) / (P[prev] + P[i]);
        CHECK_NEAR(r.coef[1 + i], want, 1e-14);
        CHECK_NEAR(r.chain[i].value, C[i], 1e-14);
    }
    CHECK_INT(r.chain[2].kernel[0], 3); /* normalised to loop order y -> z */
    CHECK_INT(r.chain[2].kernel[1], 4);
    CHECK_NEAR(r.chain[2].alone[0], t[3], 1e-15);
    couple_result_free(&r);

    /* Equal couplings everywhere: every loop coefficient is that value. */
    for (i = 0; i < 5; i++)
        m[i].together = 0.9 * (m[i].alone[0] + m[i].alone[1]);
    CHECK_INT(couple_coefficients(k, 7, m, 5, &r, &e), 0);
    for (i = 1; i <= 5; i++)
        CHECK_NEAR(r.coef[i], 0.9, 1e-15);
    couple_result_free(&r);
}

static void test_duplicates_are_averaged(void)
{
    struct couple_kernel k[] = {{"A", 1}, {"B", 1}, {"C", 1}};
    struct couple_measurement m[4];
    struct couple_result r;
    struct err e = {0};

    m[0] = pair("A", "B", 10, 6, 14, 0);
    m[1] = pair("B", "A", 8, 12, 18, 1); /* the same pair, written backwards */
    m[2] = pair("B", "C", 6, 3, 9, 2);
    m[3] = pair("C", "A", 3, 10, 13, 3);
    CHECK_INT(couple_coefficients(k, 3, m, 4, &r, &e), 0);
    CHECK_INT(r.nchains, 3);
    CHECK_INT(r.chain[0].measurements, 2);
    CHECK_INT(r.chain[0].first, 0);
    CHECK_NEAR(r.chain[0].alone[0], 11.0, 1e-15); /* A: (10 + 12) / 2 */
    CHECK_NEAR(r.chain[0].alone[1], 7.0, 1e-15);  /* B: (6 + 8) / 2 */
    CHECK_NEAR(r.chain[0].together, 16.0, 1e-15);
    CHECK_NEAR(r.chain[0].value, 16.0 / 18.0, 1e-15);
    CHECK_NEAR(r.coef[0], (16.0 / 18.0 * 16 + 1.0 * 13) / (16 + 13), 1e-15);
    couple_result_free(&r);
}

/* Chains of three and more: C_S = P_S / sum P_k, and a kernel's
 * coefficient averages every chain that contains it, weighted by P_S. */
static void test_longer_chains(void)
{
    struct couple_kernel k[] = {{"A", 1}, {"B", 1}, {"C", 1}, {"D", 1}};
    struct couple_measurement m[3];
    struct couple_result r;
    struct err e = {0};
    double cabc, ccd, cda;

    memset(&m[0], 0, sizeof m[0]);
    m[0].n = 3;
    m[0].kernel[0] = "C"; /* written backwards: C <- B <- A */
    m[0].kernel[1] = "B";
    m[0].kernel[2] = "A";
    m[0].alone[0] = 3;
    m[0].alone[1] = 2;
    m[0].alone[2] = 1;
    m[0].together = 5.7;
    m[1] = pair("C", "D", 3, 4, 6.5, 1);
    m[2] = pair("D", "A", 4, 1, 5.2, 2);
    cabc = 5.7 / 6, ccd = 6.5 / 7, cda = 5.2 / 5;
    CHECK_INT(couple_coefficients(k, 4, m, 3, &r, &e), 0);
    CHECK_INT(r.chain[0].n, 3);
    CHECK_INT(r.chain[0].kernel[0], 0);
    CHECK_NEAR(r.chain[0].alone[0], 1.0, 0);
    CHECK_NEAR(r.chain[0].value, cabc, 1e-15);
    CHECK_NEAR(r.coef[0], (cabc * 5.7 + cda * 5.2) / (5.7 + 5.2), 1e-15);
    CHECK_NEAR(r.coef[1], cabc, 1e-15);
    CHECK_NEAR(r.coef[2], (cabc * 5.7 + ccd * 6.5) / (5.7 + 6.5), 1e-15);
    CHECK_NEAR(r.coef[3], (ccd * 6.5 + cda * 5.2) / (6.5 + 5.2), 1e-15);
    couple_result_free(&r);

    /* A chain of the whole loop covers all adjacencies but the closing one. */
    m[0].n = 4;
    m[0].kernel[0] = "B";
    m[0].kernel[1] = "C";
    m[0].kernel[2] = "D";
    m[0].kernel[3] = "A";
    m[0].alone[3] = 1;
    m[0].together = 8;
    CHECK_INT(couple_coefficients(k, 4, m, 1, &r, &e), -1);
    CHECK_STR(e.message,
              "loop kernel A has no measured coupling with the next loop kernel "
              "B: measure the pair [A, B] (loop A \xe2\x86\x92 B \xe2\x86\x92 "
              "C \xe2\x86\x92 D \xe2\x86\x92 A)");
    err_clear(&e);
    m[1] = pair("A", "B", 1, 3, 3.5, 1);
    CHECK_INT(couple_coefficients(k, 4, m, 2, &r, &e), 0);
    /* C lies only in the long chain: alone 3 + 2 + 1 + 1, together 8. */
    CHECK_NEAR(r.coef[2], 8.0 / 7.0, 1e-15);
    couple_result_free(&r);
}

static void test_small_loops(void)
{
    struct couple_kernel one[] = {{"init", 0}, {"K", 1}, {"final", 0}};
    struct couple_kernel two[] = {{"A", 1}, {"B", 1}};
    struct couple_measurement m[2];
    struct couple_result r;
    struct err e = {0};

    /* One loop kernel: the pair with its own next iteration. */
    m[0] = pair("K", "K", 2, 2, 3.8, 0);
    CHECK_INT(couple_coefficients(one, 3, m, 1, &r, &e), 0);
    CHECK_NEAR(r.coef[1], 0.95, 1e-15);
    CHECK(r.coef[0] == 1.0 && r.coef[2] == 1.0);
    CHECK_INT(r.chain[0].kernel[0], 1);
    CHECK_INT(r.chain[0].kernel[1], 1);
    couple_result_free(&r);
    CHECK_INT(couple_coefficients(one, 3, m, 0, &r, &e), -1);
    CHECK_STR(e.message, "loop kernel K has no measured coupling with its own next "
                         "iteration: measure the pair [K, K]");
    CHECK_STR(e.field, "couplings");
    err_clear(&e);
    m[0] = pair("K", "init", 2, 2, 3.8, 0);
    CHECK_INT(couple_coefficients(one, 3, m, 1, &r, &e), -1);
    CHECK_STR(e.message, "coupling [K, init]: init is outside the loop; couplings are "
                         "measured between adjacent loop kernels");
    err_clear(&e);

    /* Two loop kernels: one adjacency; [A, B] and [B, A] are one pair. */
    m[0] = pair("A", "B", 4, 2, 5.4, 0);
    m[1] = pair("B", "A", 2, 4, 5.4, 1);
    CHECK_INT(couple_coefficients(two, 2, m, 2, &r, &e), 0);
    CHECK_INT(r.nchains, 1);
    CHECK_INT(r.chain[0].measurements, 2);
    CHECK_NEAR(r.coef[0], 0.9, 1e-15);
    CHECK_NEAR(r.coef[1], 0.9, 1e-15);
    couple_result_free(&r);
    CHECK_INT(couple_coefficients(two, 2, m, 0, &r, &e), -1);
    CHECK_STR(e.message,
              "loop kernels A and B have no measured coupling: measure the pair "
              "[A, B]");
    err_clear(&e);

    /* No loop at all: every coefficient is 1. */
    one[1].loop = 0;
    CHECK_INT(couple_coefficients(one, 3, m, 0, &r, &e), 0);
    CHECK(r.coef[0] == 1 && r.coef[1] == 1 && r.coef[2] == 1 && r.nloop == 0);
    couple_result_free(&r);
    m[0] = pair("K", "K", 2, 2, 3.8, 0);
    CHECK_INT(couple_coefficients(one, 3, m, 1, &r, &e), -1);
    CHECK_STR(e.message,
              "coupling [K, K]: no kernel is marked as a loop kernel (\"loop\": "
              "true)");
    err_clear(&e);
}

/* Each error: status 422, the field of the measurement, the kernels named. */
static void test_errors(void)
{
    struct couple_kernel k[] = {{"init", 0}, {"A", 1}, {"B", 1}, {"C", 1}, {"D", 1}};
    struct couple_measurement m[4];
    struct couple_result r;
    struct err e = {0};
    struct {
        struct couple_measurement m;
        const char *message;
    } cases[] = {
        {pair("A", "C", 1, 1, 2, 2),
         "coupling [A, C]: A and C are not adjacent in the loop"},
        {pair("init", "A", 1, 1, 2, 2),
         "coupling [init, A]: init is outside the loop; couplings are measured between "
         "adjacent loop kernels"},
        {pair("A", "Z", 1, 1, 2, 2), "coupling [A, Z]: no kernel named Z in the model"},
        {pair("A", "B", 0, 1, 2, 2),
         "coupling [A, B]: the alone time of A must be a positive finite number"},
        {pair("A", "B", 1, -1, 2, 2),
         "coupling [A, B]: the alone time of B must be a positive finite number"},
        {pair("A", "B", 1, INFINITY, 2, 2),
         "coupling [A, B]: the alone time of B must be a positive finite number"},
        {pair("A", "B", 1, 1, 0, 2),
         "coupling [A, B]: the together time must be a positive finite number"},
        {pair("A", "B", 1, 1, NAN, 2),
         "coupling [A, B]: the together time must be a positive finite number"},
        {pair("A", "A", 1, 1, 2, 2),
         "coupling [A, A]: A and A are not adjacent in the loop"},
    };
    size_t i;

    m[0] = pair("A", "B", 1, 1, 2, 0);
    m[1] = pair("B", "C", 1, 1, 2, 1);
    m[3] = pair("D", "A", 1, 1, 2, 3);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        m[2] = cases[i].m;
        err_clear(&e);
        CHECK_INT(couple_coefficients(k, 5, m, 4, &r, &e), -1);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK_STR(e.field, "couplings[2]");
        CHECK_STR(e.message, cases[i].message);
        CHECK(r.coef == NULL && r.chain == NULL && r.loop == NULL);
    }

    /* A loop kernel without a measured pair on one side. */
    m[2] = pair("B", "C", 1, 1, 2, 2);
    err_clear(&e);
    CHECK_INT(couple_coefficients(k, 5, m, 4, &r, &e), -1);
    CHECK_STR(e.message,
              "loop kernel C has no measured coupling with the next loop kernel "
              "D: measure the pair [C, D] (loop A \xe2\x86\x92 B \xe2\x86\x92 "
              "C \xe2\x86\x92 D \xe2\x86\x92 A)");
    CHECK_STR(e.field, "couplings");

    /* Chains: not consecutive, too long, too short. */
    memset(&m[2], 0, sizeof m[2]);
    m[2].n = 3;
    m[2].kernel[0] = "B";
    m[2].kernel[1] = "C";
    m[2].kernel[2] = "B";
    m[2].alone[0] = m[2].alone[1] = m[2].alone[2] = 1;
    m[2].together = 3;
    m[2].index = 2;
    err_clear(&e);
    CHECK_INT(couple_coefficients(k, 5, m, 4, &r, &e), -1);
    CHECK_STR(e.message, "coupling [B, C, B]: C and B are not consecutive in the loop "
                         "A \xe2\x86\x92 B \xe2\x86\x92 C \xe2\x86\x92 D \xe2\x86\x92 A");
    m[2].n = 1;
    err_clear(&e);
    CHECK_INT(couple_coefficients(k, 5, m, 4, &r, &e), -1);
    CHECK_STR(e.message, "coupling [B]: a chain must hold 2 to 16 kernels, not 1");
    m[2].n = 5;
    m[2].kernel[0] = "A";
    m[2].kernel[1] = "B";
    m[2].kernel[2] = "C";
    m[2].kernel[3] = "D";
    m[2].kernel[4] = "A";
    m[2].alone[3] = m[2].alone[4] = 1;
    err_clear(&e);
    CHECK_INT(couple_coefficients(k, 5, m, 4, &r, &e), -1);
    CHECK_STR(
        e.message,
        "coupling [A, B, C, D, A]: the chain of 5 kernels is longer than the loop of 4");

    /* Kernel list errors. */
    k[2].name = "A";
    err_clear(&e);
    CHECK_INT(couple_coefficients(k, 5, m, 0, &r, &e), -1);
    CHECK_STR(e.message, "kernel A is listed twice");
    CHECK_STR(e.field, "kernels");
    k[2].name = "";
    err_clear(&e);
    CHECK_INT(couple_coefficients(k, 5, m, 0, &r, &e), -1);
    CHECK_STR(e.field, "kernels");
    err_clear(&e);
    CHECK_INT(couple_coefficients(k, COUPLE_MAX_KERNELS + 1, m, 0, &r, &e), -1);
    CHECK_STR(e.message, "at most 100 kernels in one model");
}

/* A long kernel name cut inside a UTF-8 sequence never leaves a broken
 * message. */
static void test_long_names_stay_utf8(void)
{
    char a[300], b[300];
    struct couple_kernel k[3];
    struct couple_measurement m[1];
    struct couple_result r;
    struct err e = {0};
    size_t i, n;

    for (i = 0; i + 2 < 257; i += 2) {
        a[i] = (char)0xc3; /* é */
        a[i + 1] = (char)0xa9;
    }
    a[i] = '\0';
    memcpy(b, a, sizeof b);
    b[0] = 'x';
    b[1] = 'y';
    k[0].name = a;
    k[0].loop = 1;
    k[1].name = b;
    k[1].loop = 1;
    k[2].name = "C";
    k[2].loop = 1;
    m[0] = pair(a, b, 1, 1, 2, 0);
    CHECK_INT(couple_coefficients(k, 3, m, 1, &r, &e), -1);
    n = strlen(e.message);
    CHECK(n > 0 && n < ERR_MESSAGE_MAX);
    for (i = 0; i < n; i++) /* every 0xc3 is followed by its continuation byte */
        if ((unsigned char)e.message[i] == 0xc3)
            CHECK(i + 1 < n && (unsigned char)e.message[i + 1] == 0xa9);
}

static void test_compose(void)
{
    double coef[] = {1, 0.9, 1.1}, y[] = {2, 10, 5}, half[] = {0.1, 1, 0.5};
    double ty, th;
    struct err e = {0};

    CHECK_INT(couple_compose(coef, y, half, 3, &ty, &th, &e), 0);
    CHECK_NEAR(ty, 2 + 9 + 5.5, 1e-15);
    CHECK_NEAR(th, sqrt(0.01 + 0.81 + 0.3025), 1e-15);
    y[1] = NAN;
    CHECK_INT(couple_compose(coef, y, half, 3, &ty, &th, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    err_clear(&e);
    y[1] = 1e308;
    coef[1] = 10;
    CHECK_INT(couple_compose(coef, y, half, 3, &ty, &th, &e), -1);
    CHECK_STR(e.message, "the composed prediction overflows");
}

static void test_nearest(void)
{
    /* Rows (nprocs, class_size). */
    double conf[] = {16, 64, 36, 64, 16, 102, 64, NAN};
    double t[2], dx;

    t[1] = 64;
    t[0] = 20;
    CHECK_INT(couple_nearest(conf, 3, 2, t, 0, &dx), 0);
    CHECK_NEAR(dx, log(20.0 / 16), 1e-15);
    t[0] = 30;
    CHECK_INT(couple_nearest(conf, 3, 2, t, 0, NULL), 1);
    t[0] = 81; /* beyond every measured configuration: the largest */
    CHECK_INT(couple_nearest(conf, 3, 2, t, 0, NULL), 1);
    t[1] = 102; /* the fixed variable wins over closeness in x */
    CHECK_INT(couple_nearest(conf, 3, 2, t, 0, NULL), 2);
    /* A row that does not record class_size matches any class. */
    t[0] = 60;
    t[1] = 80;
    CHECK_INT(couple_nearest(conf, 4, 2, t, 0, &dx), 3);
    CHECK_NEAR(dx, log(64.0 / 60), 1e-15);
    /* Ties go to the lower index; x <= 0 uses |a - b|. */
    {
        double c2[] = {1, 3}, t2[] = {2};
        CHECK_INT(couple_nearest(c2, 2, 1, t2, 0, NULL), 1); /* ln: 3/2 < 2/1 */
        t2[0] = 0;
        CHECK_INT(couple_nearest(c2, 2, 1, t2, 0, &dx), 0);
        CHECK_NEAR(dx, 1, 0);
        c2[1] = 1;
        t2[0] = 5;
        CHECK_INT(couple_nearest(c2, 2, 1, t2, 0, NULL), 0);
    }
}

/* Coupling modeled over x: a line in log2 x through the measured values,
 * held at the measured ends; one value is its own model. */
static void test_model_value(void)
{
    double x[4] = {512, 1024, 2048, 4096}, c[4] = {1.0, 1.1, 1.2, 1.3}, v;
    struct err e = {0};

    CHECK_INT(couple_model_value(x, c, 4, 1448.1546878700492, &v, &e), 0);
    CHECK(fabs(v - 1.15) < 1e-12);
    CHECK_INT(couple_model_value(x, c, 4, 1e6, &v, &e), 0);
    CHECK(fabs(v - 1.3) < 1e-12);
    CHECK_INT(couple_model_value(x, c, 4, 1, &v, &e), 0);
    CHECK(fabs(v - 1.0) < 1e-12);
    CHECK_INT(couple_model_value(x, c, 1, 4096, &v, &e), 0);
    CHECK(v == 1.0);
    CHECK_INT(couple_model_value(x, c, 0, 4096, &v, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    c[2] = NAN;
    e = (struct err){0};
    CHECK_INT(couple_model_value(x, c, 4, 4096, &v, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
}

/* The trend test: with 3 or more configurations the line is used only when
 * its slope differs from 0 at the 5 % level, otherwise the median. Here the
 * slope 0.004 per doubling has t = 0.318 < t(0.975, 3) = 3.182: the median
 * 1.02 everywhere, where the line gives 1.018 at 4096 (mean 1.014). */
static void test_model_value_trend(void)
{
    double x[5] = {512, 1024, 2048, 4096, 8192}, c[5] = {1.02, 0.97, 1.06, 0.99, 1.03}, v;
    double xl[3] = {1, 2, 4}, cl[3] = {0.9, 1.0, 1.1};
    struct err e = {0};

    CHECK_INT(couple_model_line(x, c, 5, 4096, &v, &e), 0);
    CHECK(fabs(v - 1.018) < 1e-12);
    CHECK_INT(couple_model_value(x, c, 5, 4096, &v, &e), 0);
    CHECK(v == 1.02);
    CHECK_INT(couple_model_value(x, c, 5, 1e9, &v, &e), 0);
    CHECK(v == 1.02);
    /* an exact trend (no residual) is always kept */
    CHECK_INT(couple_model_value(xl, cl, 3, 2.8284271247461903, &v, &e), 0);
    CHECK(fabs(v - 1.05) < 1e-12);
    /* two configurations: no residual to test against, the line */
    CHECK_INT(couple_model_value(x, c, 2, 724.07734393502459, &v, &e), 0);
    CHECK(fabs(v - 0.995) < 1e-12);
}

/* Repetition spread and shrinkage toward 1. Values 1.0, 1.1, 0.9, 1.3,
 * 1.05: median 1.05, MAD 0.05, se = 1.2533 * 1.4826 * 0.05 / sqrt(5). A
 * coupling 1.2 (or 0.8) with se 0.1 is two standard errors from 1 and keeps
 * 1 - 1/4 of its deviation; within one standard error it is 1. */
static void test_spread_shrink(void)
{
    double r[5] = {1.0, 1.1, 0.9, 1.3, 1.05};

    CHECK(fabs(couple_spread(r, 5) - 1.2533 * 1.4826 * 0.05 / sqrt(5.0)) < 1e-12);
    CHECK(couple_spread(r, 1) == 0);
    CHECK(fabs(couple_shrink(1.2, 0.1) - 1.15) < 1e-12);
    CHECK(fabs(couple_shrink(0.8, 0.1) - 0.85) < 1e-12);
    CHECK(couple_shrink(1.05, 0.1) == 1.0);
    CHECK(couple_shrink(0.96, 0.05) == 1.0);
    CHECK(couple_shrink(1.3, 0) == 1.3);
    CHECK(couple_shrink(1.3, NAN) == 1.3);
}

int main(void)
{
    RUN(test_paper_three_kernels);
    RUN(test_bt_shape);
    RUN(test_duplicates_are_averaged);
    RUN(test_longer_chains);
    RUN(test_small_loops);
    RUN(test_errors);
    RUN(test_long_names_stay_utf8);
    RUN(test_compose);
    RUN(test_nearest);
    RUN(test_model_value);
    RUN(test_model_value_trend);
    RUN(test_spread_shrink);
    return harness_report();
}
