/* eval.h: what the parts of eval_modeling share (eval/README.md).
 * stats.c: the random numbers, tallies and the table row; score.c: one case
 * fitted by `auto` or by Extra-P's rules and scored; synthetic.c: the
 * synthetic laws; real.c: the measured data sets of eval/data; scaling.c:
 * the shared corpus of real measurements with Extra-P's own predictions;
 * couple.c: kernel coupling across configurations. */
#ifndef EVAL_H
#define EVAL_H

#include "models/fit.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The selections compared: `auto` (fit_run, fit_predict_ext) and Extra-P's
 * rules as written again here (fit_pmnf1 for one variable, fit_pmnf2 for
 * two; no interval). */
enum { AUTO, XP, NSEL };
extern const char *const sel_name[NSEL];
/* Which of Extra-P's one-variable rules XP is (--xp): its default, its
 * option allow_negative_exponents, or per case the better of the two judged
 * on the truth (as the shared corpus and issue 32 compare). Two variables:
 * always its default multi-parameter rule. */
enum { XP_DEFAULT, XP_NEGEXP, XP_BEST };
extern int xp_variant;

/* One scored prediction per selection. */
struct tally {
    double *err, *width;
    size_t n, cap, within, over1, covered, failed;
    size_t low0; /* lower bounds <= 0 of predictions of a positive quantity */
    /* fit_warning's precision: predictions warned about, off by more than
     * 50 % (far), both */
    size_t warned, far, warned_far;
};

extern uint64_t rng;
double uniform(void);
double gauss(void);
void tally_add(struct tally *t, double err, double width, int covered);
void tally_free(struct tally *t);
int cmp_double(const void *a, const void *b);
int cmp_triple(const void *a, const void *b); /* rows x1 x2 y, by x1 then x2 */
double median(double *v, size_t n);           /* sorts v; NAN when n is 0 */
/* A case's error as the shared corpus's score.py and issue 32 compute it:
 * the mean relative error of the predictions yp[0..n-1] against truth;
 * INFINITY when it is not finite. */
double case_error(const double *yp, const double *truth, size_t n);
void print_header(void);
void print_row(const char *corpus, const char *sel, struct tally *t);
void print_warnings(const char *corpus, const struct tally *t);

/* What score() leaves for its caller. */
extern int nv;                 /* variables of the case being scored (1 or 2) */
extern double last_width[256]; /* of score's last predictions, relative */
extern double last_lo[256];    /* their lower bounds */
extern char last_law[256];     /* the law score last fitted, as text */
extern size_t n_breaks, n_outliers, n_fits;

/* Fits x, y (n observations of nv values) with `auto` (AUTO; on the machine
 * curve basis when not NULL) or Extra-P's rule (XP); predicts at each of the
 * nq points xq (nv values each); scores against truth[k] (error) and
 * obs[k][0..nobs[k]-1] (coverage, each observation counts). pred_out, when
 * not NULL, receives the predictions. Returns 0, or -1 when the fit failed. */
/* --dump FILE: one line per scored observation of `auto` (eval/README.md):
 * tag case nvars npoints prediction truth observation lo hi reach xunc dof
 * warned; written while dump_tag is set. */
extern FILE *dump_fp;
extern const char *dump_tag;
extern size_t dump_case;

int score_on(int sel, const struct fit_basis *basis, const double *x, const double *y,
             size_t n, const double *xq, const double *truth, double *const *obs,
             const size_t *nobs, size_t nq, struct tally *t, double *pred_out);
int score(int sel, const double *x, const double *y, size_t n, const double *xq,
          const double *truth, double *const *obs, const size_t *nobs, size_t nq,
          struct tally *t, double *pred_out);

/* synthetic.c */
void named_cases(void);
/* syn_oracle: the synthetic laws' own terms fitted (the ceiling of any
 * selection, synthetic.c), tallied by synthetic(). */
extern struct tally syn_oracle;
void synthetic(struct tally *t, int verbose);
void synthetic2(struct tally *t);

/* real.c: the options of the measured sets, and the sets themselves. */
extern double train_frac;    /* of a real case's distinct x, the smaller */
extern unsigned single_seed; /* > 0: train on one observation per x */
int load_curve(const char *path);
int load_map(const char *path);
int curve_loaded(void);
void real(const char *dir, struct tally *t, int verbose);
void print_curve_summary(void);
void real_totals(void); /* pooled over every set real() read */

/* scaling.c: the corpus of real measurements at dir (cases/NAME.json,
 * extrap_baseline.json); prints its figures, and writes `auto`'s
 * predictions to preds_path (as the corpus's score.py reads them) when not
 * NULL. Returns 0, or -1 when the corpus cannot be read. */
int scaling_corpus(const char *dir, const char *preds_path, int verbose);

/* couple.c */
void couple_eval(const char *dir, const char *file, const char *what);

#endif
