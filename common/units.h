/* units: values for people in readable units (SPEC §16 "where users look").
 *
 * One place that turns a measured value and its unit into what a page or a
 * chart prints: seconds as ns, µs, ms or s; bytes as B, KiB, MiB, GiB, TiB;
 * rates ("B/s", "MB/s", "/s"; "s/..." no) with the prefix of their own base
 * (binary for B/s, decimal for MB/s as OSU measures it and for "/s",
 * "41.51 M/s"); any other unit
 * with an SI prefix only when the number is large or tiny ("1.2 M ops").
 * Numbers carry 4 significant digits at most and no float noise
 * ("2.15 µs", not "2.1499e-07 s"); a non-finite value is "—".
 *
 * The views (page_qty in web/page.h), the charts (the unit fields of
 * web/svg.h's plots, which scale an axis once and name the unit in its
 * title) and the CI report (uploader/upl_report.c) all use these functions,
 * so a value reads the same everywhere.
 * No state, no allocation: thread-safe.
 */
#ifndef PROPHECY_COMMON_UNITS_H
#define PROPHECY_COMMON_UNITS_H

#include <stddef.h>

#define UNITS_MAX 48 /* bytes a formatted value or a unit name needs */

/* The unit to show values of magnitude about |v| in, measured in `unit`
 * ("s", "B", "B/s", "MB/s", ... ; NULL or "" = a plain number): returns the
 * display unit (static storage, e.g. "µs") and sets *div to what a value is
 * divided by to be in it (1e-6 for µs). Unknown units come back unchanged
 * with *div = 1. A non-finite or zero v picks the base unit. */
const char *units_pick(const char *unit, double v, double *div);

/* Formats v measured in `unit` into out ("2.15 µs", "1.5 MiB", "12", "—")
 * and returns out; outsz >= UNITS_MAX. */
char *units_fmt(char *out, size_t outsz, double v, const char *unit);

/* A plain number with at most 4 significant digits and no exponent between
 * 1e-4 and 1e15 ("0.0123", "12.35", "123457"); non-finite gives "—". */
char *units_num(char *out, size_t outsz, double v);

/* The unit of a metric by its name, as the importers name them (SPEC §16):
 * "s" for time metrics (time, inclusive, exclusive, mean, min, max, median,
 * real_time, cpu_time, ...), "B" for byte counts (a name holding "bytes"),
 * "B/s" for "bytes_per_second", "/s" for other rates (items_per_second,
 * Bencher's throughput), Bencher's latency and build-time (and their bounds
 * and named values, latency_p99) in "s" and file-size in "B", else "" (a
 * count or an unknown unit). */
const char *units_of_metric(const char *name);

/* The unit of a modelled or watched y: "runtime" and "kernel:NAME" are
 * seconds, "metric:NAME" goes by the metric's name (units_of_metric); NULL
 * or "" is the runtime. */
const char *units_of_y(const char *y);

/* The lower edge lo of a band of a quantity in unit, as shown: 0 at the
 * least for a time ("s"), which is never negative (a statistical watch's
 * band, mean ± k·sd, may reach below 0); lo otherwise. */
double units_floor(const char *unit, double lo);

#endif
