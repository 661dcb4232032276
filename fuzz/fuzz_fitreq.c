/* Fuzz target: the curve-fitting request decoder and everything a decoded
 * request reaches without a database (aggregation, fitting, selection,
 * predictions, the answer, the saved-model round trip and the plot; an inline
 * machine curve ("basis") too), and
 * the same input as a suggest request (target, candidates) and the form's
 * suggestion from the answer. The database form fails cleanly here (no
 * connection). */
#include "common/xalloc_json.h"
#include "common/buf.h"
#include "core/method_fit.h"
#include "web/chart.h"

#include <gsl/gsl_errno.h>
#include <stddef.h>
#include <stdint.h>

/* Jansson allocates through xalloc, as in the server. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    xalloc_json();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    struct err e = {0};
    json_t *req, *ans, *point, *p;
    struct buf b;

    if (!init) {
        gsl_set_error_handler_off();
        init = 1;
    }
    req = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    if (req == NULL)
        return 0;
    ans = fit_answer(NULL, req, &e);
    if (ans != NULL) {
        /* Predict where the first point was, then draw the plot. */
        point = json_pack("{s:f, s:f, s:f}", "x", 2.0, "N", 100.0, "P", 4.0);
        p = fit_predict_saved(ans, point, &e);
        json_decref(p);
        json_decref(point);
        buf_init(&b, 1 << 22);
        fit_plot(ans, &b, &e);
        buf_free(&b);
        {
            struct fit_model m;
            const char *names[FIT_MAX_VARS];
            double cand[2 * 10], target[FIT_MAX_VARS];
            size_t n;
            if (fit_answer_read(ans, &m, names, &e) == 0) {
                target[0] = 4 * m.xmax[0];
                target[1] = 2 * m.xmax[1];
                n = fit_suggest_candidates(&m, target, cand, 10);
                if (n > 0)
                    json_decref(fit_suggest_saved(ans, target, cand, n, &e));
            }
        }
        json_decref(ans);
    }
    json_decref(fit_suggest_answer(NULL, req, &e));
    json_decref(req);
    return 0;
}
