/* couple: kernel coupling (SPEC §5.3), the paper's third modeling method.
 *
 * An application is a sequence of kernels, some of them inside the main loop.
 * For a chain S of adjacent loop kernels measured at one configuration, the
 * coupling value is C_S = P_S / sum_{k in S} P_k (P_S the time of the chain
 * run together, P_k each kernel's time alone). Each loop kernel's coefficient
 * is the average of the coupling values of the measured chains that contain
 * it, weighted by the chains' together-times; for pairs around a loop
 * K1 -> ... -> Kn -> K1 that is exactly the paper's
 *   coef_k = (C_{k-1,k} P_{k-1,k} + C_{k,k+1} P_{k,k+1}) / (P_{k-1,k} + P_{k,k+1}).
 * Kernels outside the loop have coefficient 1. The application model is
 * T(x) = sum_k coef_k * model_k(x); couple_compose combines the kernels'
 * predictions and their intervals. docs/models.md (kernel coupling) has the
 * mathematics, the assumptions and the rules for chains, duplicates, loops of
 * one or two kernels and isocoupling (couple_nearest).
 *
 * Pure computation: no I/O, no JSON, no globals; thread-safe on distinct
 * arguments. Errors are ERR_INVALID "invalid" with a message naming the kernels at
 * fault and, for a measurement, the field "couplings[i]" (i = its index).
 */
#ifndef PROPHECY_COUPLE_H
#define PROPHECY_COUPLE_H

#include <stddef.h>

#include "common/err.h"

#define COUPLE_MAX_KERNELS 100 /* kernels in one application model */
#define COUPLE_MAX_CHAIN 16    /* kernels in one measured chain */
#define COUPLE_MAX_MEASUREMENTS 10000

struct couple_kernel {
    const char *name; /* unique, non-empty */
    int loop;         /* 1: inside the main loop (loop order = order in the array) */
};

/* One measurement of a chain of adjacent loop kernels at one configuration.
 * The kernels are named in execution order; a chain written against the
 * loop's direction ([C, B] in the loop A -> B -> C) is accepted as the same
 * chain. */
struct couple_measurement {
    size_t n;                             /* 2..COUPLE_MAX_CHAIN */
    const char *kernel[COUPLE_MAX_CHAIN]; /* names */
    double alone[COUPLE_MAX_CHAIN];       /* each kernel's time alone, > 0 */
    double together;                      /* time of the chain together, > 0 */
    size_t index; /* the caller's index, for the error field "couplings[index]" */
};

/* A distinct measured chain after merging repeated measurements. */
struct couple_chain {
    size_t n;
    size_t kernel[COUPLE_MAX_CHAIN]; /* indices into the kernel array, in loop order */
    double alone[COUPLE_MAX_CHAIN];  /* mean over the merged measurements, loop order */
    double together;                 /* mean over the merged measurements */
    double value;                    /* C = together / sum(alone) */
    int measurements;                /* how many measurements were merged */
    size_t first;                    /* index of the first of them */
};

struct couple_result {
    double *coef; /* one per kernel (owned); 1 outside the loop */
    size_t nkernels;
    struct couple_chain *chain; /* owned; in order of first appearance */
    size_t nchains;
    size_t *loop; /* owned: kernel indices in loop order */
    size_t nloop;
};

/* Computes coupling values and coefficients. Kernel names must be unique.
 * Every adjacency of the loop (Kk -> Kk+1, and Kn -> K1) must be covered by a
 * measured chain that holds both kernels next to each other; a loop of one
 * kernel K needs the pair [K, K] (K followed by its own next iteration); a
 * loop of two kernels has one adjacency, the pair [A, B] (or [B, A]).
 * Repeated measurements of the same chain are merged by averaging their
 * alone and together times before C is computed.
 *
 * Returns 0 and fills *out (free with couple_result_free), or -1 with an ERR_INVALID
 * error and *out holding nothing to free. Errors, each naming the kernels:
 * more than COUPLE_MAX_KERNELS kernels or COUPLE_MAX_MEASUREMENTS
 * measurements, an empty or repeated kernel name, a chain of fewer than 2 or
 * more than COUPLE_MAX_CHAIN kernels or longer than the loop, a name that is
 * not a kernel or is outside the loop, a chain whose kernels are not adjacent
 * in the loop, an alone or together time that is zero, negative or not
 * finite, and a loop adjacency without a measurement. ERR_NOMEM on out of memory. */
int couple_coefficients(const struct couple_kernel *k, size_t nk,
                        const struct couple_measurement *m, size_t nm,
                        struct couple_result *out /* OUT */, struct err *err);

/* Frees what couple_coefficients allocated; r may be NULL; safe twice. */
void couple_result_free(struct couple_result *r);

/* Composes kernel predictions: *y = sum coef[k] * y[k] and, assuming the
 * kernels' prediction errors are independent and the coefficients exact,
 * *half = sqrt(sum (coef[k] * half[k])^2) where half[k] >= 0 is the
 * half-width of kernel k's interval. Returns 0, or -1 with an ERR_INVALID error when
 * an input is not finite or the result overflows. */
int couple_compose(const double *coef, const double *y, const double *half, size_t n,
                   double *ty /* OUT */, double *thalf /* OUT */, struct err *err);

/* Isocoupling: picks the measured configuration to use at a target point.
 * conf holds nconf rows of nvars values (row-major); NaN marks a variable a
 * configuration does not record, which then matches any value. target holds
 * nvars values; variable xvar is the model's x, the others are fixed.
 * Distance between two values a, b: |ln a - ln b| when both are > 0, else
 * |a - b|. The chosen row minimises first the summed distance over the fixed
 * variables, then the distance in x; ties go to the lower index. Returns the
 * row index; nconf must be >= 1. OUT: *dx (may be NULL) gets the distance in
 * x of the chosen row. */
size_t couple_nearest(const double *conf, size_t nconf, size_t nvars,
                      const double *target, size_t xvar, double *dx);

/* Coupling across configurations: models one coupling value (or a kernel's
 * coefficient) over the configuration variable x from its values c[i]
 * measured at n configurations x[i] (the other variables fixed), and
 * evaluates it at xt into *out. The model is the least-squares line in
 * log2 x (in x when some x <= 0), held at the value of the nearest measured
 * end beyond the measured range (couplings are ratios near 1 that saturate:
 * extrapolating their trend costs more than it gains) -- but only when the
 * data show a trend: with n >= 3 values the slope must differ from 0 at the
 * 5 % level (|b| > t(0.975, n - 2) * se(b)), otherwise the model is the
 * median of the values (a line through noise moves the value by the noise;
 * the median, unlike the mean, is not pulled by the one configuration on a
 * cache cliff or measured in a burst of load). With
 * n = 2 there is no residual to judge a trend against and the line through
 * both is used; n = 1 or all x equal give the mean. Use it instead of
 * couple_nearest where couplings are measured at several configurations.
 * Returns 0, or -1 with ERR_INVALID "invalid" when n is 0 or a value is not finite. */
int couple_model_value(const double *x, const double *c, size_t n, double xt,
                       double *out /* OUT */, struct err *err);

/* The same line without the trend test (the rule before the test; kept for
 * the comparison in eval/). */
int couple_model_line(const double *x, const double *c, size_t n, double xt,
                      double *out /* OUT */, struct err *err);

/* Standard error of a coupling value from its n repetitions: c[i] is the
 * value measured in repetition i (the chain's time over its kernels' alone
 * times of the same, interleaved, repetition). Robust to the bursts of a
 * shared machine: 1.2533 * 1.4826 * MAD / sqrt(n) (the standard error of a
 * median under normal noise, with the scale estimated by the median absolute
 * deviation). 0 when n < 2 (no spread known). */
double couple_spread(const double *c, size_t n);

/* Shrinks a coupling value toward 1 (no interaction) by its standard error:
 * 1 + (c - 1) * max(0, 1 - se^2 / (c - 1)^2), the positive-part
 * James-Stein factor of one value. A deviation from 1 within one standard
 * error is indistinguishable from noise and gives 1; one of z standard
 * errors keeps the fraction 1 - 1/z^2 of itself. se <= 0 or not finite
 * returns c unchanged. */
double couple_shrink(double c, double se);

#endif
