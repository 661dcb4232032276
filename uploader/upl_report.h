/* upl_report: the summary `prophecy-upload report` prints for a pull request.
 *
 * Pure rendering: it reads the server's answers to GET /api/v1/compare (side a
 * the baseline, side b the commit under review) and GET /api/v1/alerts, and
 * writes markdown (for a pull-request comment) or JSON (for machines). No
 * network, no files: the tests feed it captured answers.
 *
 * The compare answer it reads (SPEC §11):
 *   {"rows": [{"configuration": {"application", "executable", "system",
 *              "nprocs", "inputs": {...}},   (or these fields in the row itself)
 *             "kernel": "NAME" | null, "metric": "runtime" | "NAME",
 *             "sides": [{"mean", "n", "spread"[, "ratio", "significant"]}, ...],
 *             ["ratio": [...] | x, "significant": [...] | bool]}, ...]}
 * A side with n = 0 or without a mean has no value. The ratio of side b to a
 * is taken from sides[1].ratio, else ratio[1], else a number ratio, else
 * computed from the means; "significant" likewise.
 * The alerts answer: {"alerts": [{"id", "state", "commit" | "run": {"commit"},
 *   "application", "executable", "system", "nprocs", "inputs", "kernel", "metric"
 *   | "y", "value", "expected", ...}]}; only alerts of the reviewed commit that
 * are not marked false_positive or resolved count.
 */
#ifndef PROPHECY_UPL_REPORT_H
#define PROPHECY_UPL_REPORT_H

#include "common/buf.h"

#include <jansson.h>

enum upl_report_format { UPL_REPORT_MARKDOWN, UPL_REPORT_JSON };

struct upl_report_summary {
    size_t rows;        /* configuration × kernel × metric rows */
    size_t alerts;      /* alerts of the commit that count */
    size_t regressions; /* rows judged slower (significant) */
    size_t measured;    /* rows where the commit (side b) has runs */
    size_t baseline;    /* rows where the baseline (side a) has runs */
};

/* Renders the report of `commit` against `against` (a side spec such as
 * "branch:main", shown as given) into out. compare and alerts are the parsed
 * answers (alerts may be NULL: no alerts known). OUT: *sum when not NULL.
 * The verdict is "fail" (alerts), "pass" (runs and no alert) or "not
 * measured" (the commit has no runs in the compare answer); a change with
 * one run on either side is "not tested".
 * Returns 0, or -1 when compare has no "rows" array (out then holds nothing
 * useful); out's own overflow shows as buf_failed(out). */
int upl_report_render(const json_t *compare, const json_t *alerts, const char *commit,
                      const char *against, enum upl_report_format fmt, struct buf *out,
                      struct upl_report_summary *sum);

/* Leaves in alerts (the {"alerts": [...]} answer) only those inside the
 * selection the report was narrowed to (--executable, --system, --nprocs,
 * --input): an alert whose configuration names another value of one of them
 * concerns runs outside the report, which must neither fail it nor be listed.
 * A field the alert leaves out (a scaling alert's x) keeps it. NULL, 0 and
 * an empty inputs object narrow nothing. */
void upl_report_select(json_t *alerts, const char *executable, const char *system,
                       long nprocs, const json_t *inputs);

#endif
