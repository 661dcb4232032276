/* eval_modeling: the evaluation of `auto` (eval/README.md). Fits every case
 * of its corpora with `auto` (fit_run, fit_predict_ext) and with Extra-P's
 * rules as written again in models/ (fit_pmnf1, fit_pmnf2; no interval),
 * predicts beyond the training range and prints, side by side, the median
 * relative error, the predictions within 10 % and off by more than 100 %,
 * how many 95 % intervals hold the truth, their median width relative to the
 * prediction and how many lower bounds are <= 0:
 *  - synthetic laws of one and two variables (synthetic.c);
 *  - the data sets measured here (real.c), SET... (default eval/data/dev;
 *    "all": every set of eval/data/MANIFEST.md with cases);
 *  - the shared corpus of other people's measurements with Extra-P 4.2.5's
 *    own predictions (scaling.c; --scaling DIR, default
 *    ../shared/corpus/scaling; --preds FILE writes `auto`'s predictions for
 *    its score.py; "--scaling none" skips it);
 *  - kernel coupling (couple.c; --coupling DIR, default eval/data/coupling).
 * --train F: a real case is trained on a fraction F (0.3...0.9, default 0.6)
 * of its distinct x; --single SEED: on one observation per x drawn with
 * SEED; --basis FILE [--map MAP]: the cases over message size (or those the
 * map names) are also fitted on that machine curve (docs/models.md §12);
 * -v: every case and the synthetic breakdown. Run from the repository root.
 * Not a test. */
#include "eval.h"

#include "common/xalloc.h"

#include <dirent.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXSETS 64

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* "all": every directory of eval/data holding case files (not the coupling
 * data, not the machine curves, not a corpus of the shared corpus's format,
 * which --scaling reads: a directory with cases/). */
static int all_sets(char (*sets)[256])
{
    DIR *d = opendir("eval/data");
    struct dirent *de;
    int n = 0;

    if (d == NULL)
        return 0;
    while ((de = readdir(d)) != NULL && n < MAXSETS) {
        char sub[300];
        snprintf(sub, sizeof sub, "eval/data/%.200s/cases", de->d_name);
        if (de->d_name[0] != '.' && strcmp(de->d_name, "coupling") != 0 &&
            strcmp(de->d_name, "machine") != 0 && strchr(de->d_name, '.') == NULL &&
            strlen(de->d_name) < 200 && access(sub, F_OK) != 0)
            snprintf(sets[n++], 256, "eval/data/%.200s", de->d_name);
    }
    closedir(d);
    qsort(sets, (size_t)n, 256, cmp_str);
    return n;
}

static int usage(const char *what)
{
    fprintf(
        stderr,
        "eval_modeling: %s\nusage: eval_modeling [--train F] [--single SEED] "
        "[--basis FILE [--map MAP]] [--scaling DIR|none] [--preds FILE] [--dump FILE] "
        "[--coupling DIR] [--xp default|negexp|best] [-v] [SET...|all]\n",
        what);
    return 2;
}

int main(int argc, char **argv)
{
    const char *map = NULL, *scaling = "../shared/corpus/scaling", *preds = NULL;
    const char *coupling = "eval/data/coupling";
    static char sets[MAXSETS][256];
    struct tally syn[NSEL] = {{0}}, syn2[NSEL] = {{0}}, re[NSEL] = {{0}};
    char mapbuf[1024];
    int i, nsets = 0, verbose = 0;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (strcmp(a, "-v") == 0) {
            verbose = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            if (strcmp(a, "all") == 0)
                nsets = all_sets(sets);
            else if (nsets < MAXSETS && strlen(a) < 256)
                snprintf(sets[nsets++], sizeof sets[0], "%s", a);
            continue;
        }
        if (v == NULL)
            return usage("an option wants a value");
        i++;
        if (strcmp(a, "--train") == 0) {
            train_frac = strtod(v, &end);
            if (*end != '\0' || !(train_frac >= 0.3 && train_frac <= 0.9))
                return usage("--train wants a fraction of 0.3...0.9");
        } else if (strcmp(a, "--basis") == 0) {
            if (load_curve(v) != 0)
                return 2;
        } else if (strcmp(a, "--map") == 0) {
            map = v;
        } else if (strcmp(a, "--scaling") == 0) {
            scaling = strcmp(v, "none") == 0 ? NULL : v;
        } else if (strcmp(a, "--preds") == 0) {
            preds = v;
        } else if (strcmp(a, "--dump") == 0) {
            dump_fp = fopen(v, "w");
            if (dump_fp == NULL)
                return usage("--dump wants a file that can be written");
        } else if (strcmp(a, "--coupling") == 0) {
            coupling = strcmp(v, "none") == 0 ? NULL : v;
        } else if (strcmp(a, "--xp") == 0) {
            if (strcmp(v, "default") == 0)
                xp_variant = XP_DEFAULT;
            else if (strcmp(v, "negexp") == 0)
                xp_variant = XP_NEGEXP;
            else if (strcmp(v, "best") == 0)
                xp_variant = XP_BEST;
            else
                return usage("--xp wants default, negexp or best");
        } else if (strcmp(a, "--single") == 0) {
            long s = strtol(v, &end, 10);
            if (*end != '\0' || s < 1 || s > 1000000)
                return usage("--single wants a seed of 1...1000000");
            single_seed = (unsigned)s;
        } else {
            return usage("unknown option");
        }
    }
    if (nsets == 0)
        snprintf(sets[nsets++], sizeof sets[0], "eval/data/dev");
    if (map == NULL && curve_loaded() && nsets == 1) {
        snprintf(mapbuf, sizeof mapbuf, "%.1000s/basis.txt", sets[0]);
        if (access(mapbuf, R_OK) == 0)
            map = mapbuf;
    }
    if (map != NULL && (!curve_loaded() || load_map(map) != 0))
        return curve_loaded() ? 2 : usage("--map needs --basis");
    gsl_set_error_handler_off();
    named_cases();
    for (i = 0; i < nsets; i++) {
        printf("\nreal cases of %s%s:\n", sets[i],
               verbose ? " (x:prediction(measured median)interval width)" : "");
        dump_tag = sets[i];
        real(sets[i], re, verbose);
    }
    dump_tag = "synthetic";
    synthetic(syn, verbose);
    dump_tag = "synthetic2";
    synthetic2(syn2);
    dump_tag = NULL;
    print_header();
    for (i = 0; i < NSEL; i++)
        print_row("synthetic", sel_name[i], &syn[i]);
    print_row("synthetic", "law", &syn_oracle);
    for (i = 0; i < NSEL; i++)
        print_row("synthetic, two variables", sel_name[i], &syn2[i]);
    for (i = 0; i < NSEL; i++)
        print_row(nsets > 1 ? "real, the sets above" : "real", sel_name[i], &re[i]);
    print_warnings("synthetic", &syn[AUTO]);
    print_warnings("synthetic, two variables", &syn2[AUTO]);
    print_warnings(nsets > 1 ? "real, the sets above" : "real", &re[AUTO]);
    real_totals();
    printf("auto: %zu fits, %zu with a regime change, %zu with outliers left out\n",
           n_fits, n_breaks, n_outliers);
    if (curve_loaded())
        print_curve_summary();
    if (scaling != NULL) {
        dump_tag = "shared";
        scaling_corpus(scaling, preds, verbose);
        dump_tag = NULL;
    }
    if (dump_fp != NULL)
        fclose(dump_fp);
    if (coupling != NULL) {
        couple_eval(coupling, "kernels.txt", "four loop kernels of kernels.c");
        couple_eval(coupling, "chain.txt",
                    "solver loop stencil -> residual -> update -> norm");
    }
    for (i = 0; i < NSEL; i++) {
        tally_free(&syn[i]);
        tally_free(&syn2[i]);
        tally_free(&re[i]);
    }
    tally_free(&syn_oracle);
    return 0;
}
