/* bench_series: the series of a system's benchmark a request reads.
 *
 * One benchmark name may hold several series on one system: an OSU log with
 * several labelled tables (core placements, "Testing Same CCX" ...) stores
 * each as a series of MPISR with its "label", and several OSU programs
 * (osu_latency, osu_multi_lat) store under one name with their "test"
 * (docs/import.md). A request that reads the rows as one curve or one fit
 * (a fit's stored "basis", a system parameter fit) names the series by
 * "label" and "test"; several are never pooled.
 */
#ifndef PROPHECY_CORE_BENCH_SERIES_H
#define PROPHECY_CORE_BENCH_SERIES_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"

struct bench_series {
    /* as asked (borrowed from the request; NULL: not named), then as read
     * (arena; "" for a series without one) */
    const char *label, *test;
};

/* Reads obj's optional "label" and "test" (strings of at most
 * LIMIT_BENCH_LABEL / LIMIT_BENCH_TEST bytes; "" names the series without
 * one) into *s. 0, or -1 with ERR_INVALID at field prefix + "label"/"test"
 * (prefix "basis." or ""). */
int bench_series_decode(json_t *obj, const char *prefix, struct bench_series *s,
                        struct err *err);

/* Replaces *rows (db_benchmarks_list's rows of bench on system) by those of
 * the one series s names, or of the benchmark's only one, and sets s to the
 * series read. 0, or -1 with ERR_INVALID: a label or test the benchmark does
 * not have (field prefix + "label" / "test", the message lists those it
 * has), or several series and none named (field prefix + "label", or
 * prefix + "test" when only the tests differ; the message lists them). */
int bench_series_pick(json_t **rows, struct bench_series *s, const char *prefix,
                      const char *system, const char *bench, arena *a, struct err *err);

#endif
