/* units: readable units for values on pages, charts and reports; see units.h. */
#include "common/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MU "\xc2\xb5" /* µ */

struct step {
    double at; /* the smallest magnitude shown in this unit (in the base unit) */
    double div;
    const char *name;
};

static const struct step seconds[] = {
    {0, 1e-9, "ns"}, {1e-6, 1e-6, MU "s"}, {1e-3, 1e-3, "ms"}, {1, 1, "s"}};
static const struct step bytes[] = {{0, 1, "B"},
                                    {1024.0, 1024.0, "KiB"},
                                    {1048576.0, 1048576.0, "MiB"},
                                    {1073741824.0, 1073741824.0, "GiB"},
                                    {1099511627776.0, 1099511627776.0, "TiB"}};
static const struct step bytes_s[] = {{0, 1, "B/s"},
                                      {1024.0, 1024.0, "KiB/s"},
                                      {1048576.0, 1048576.0, "MiB/s"},
                                      {1073741824.0, 1073741824.0, "GiB/s"},
                                      {1099511627776.0, 1099511627776.0, "TiB/s"}};
/* MB/s as OSU measures it: decimal, the base unit being 1 MB/s. */
static const struct step mbytes_s[] = {{0, 1e-6, "B/s"},
                                       {1e-3, 1e-3, "kB/s"},
                                       {1, 1, "MB/s"},
                                       {1e3, 1e3, "GB/s"},
                                       {1e6, 1e6, "TB/s"}};

/* A rate of things that are not bytes (items, operations, messages per
 * second): decimal prefixes, the base unit being 1 per second. */
static const struct step per_s[] = {{0, 1, "/s"},
                                    {1e3, 1e3, "k/s"},
                                    {1e6, 1e6, "M/s"},
                                    {1e9, 1e9, "G/s"},
                                    {1e12, 1e12, "T/s"}};

#define PICK(table, v, div) pick_from(table, sizeof table / sizeof table[0], v, div)

static const char *pick_from(const struct step *t, size_t n, double v, double *div)
{
    double a = fabs(v);
    size_t i = n - 1;

    if (!isfinite(a) || a == 0) {
        for (i = 0; i < n && t[i].div != 1; i++)
            ;
        if (i == n)
            i = 0;
    } else {
        while (i > 0 && a < t[i].at * (1 - 1e-12))
            i--;
    }
    *div = t[i].div;
    return t[i].name;
}

const char *units_pick(const char *unit, double v, double *div)
{
    *div = 1;
    if (unit == NULL)
        return "";
    if (strcmp(unit, "s") == 0)
        return PICK(seconds, v, div);
    if (strcmp(unit, "B") == 0)
        return PICK(bytes, v, div);
    if (strcmp(unit, "B/s") == 0)
        return PICK(bytes_s, v, div);
    if (strcmp(unit, "MB/s") == 0)
        return PICK(mbytes_s, v, div);
    if (strcmp(unit, "/s") == 0)
        return PICK(per_s, v, div);
    return unit;
}

/* Drops trailing zeros of a fixed or exponent number ("2.500e-05" -> "2.5e-05"). */
static void trim_zeros(char *s)
{
    char *e = strchr(s, 'e'), *end, *z;
    if (strchr(s, '.') == NULL)
        return;
    end = e ? e : s + strlen(s);
    z = end;
    while (z[-1] == '0')
        z--;
    if (z[-1] == '.')
        z--;
    memmove(z, end, strlen(end) + 1);
}

char *units_num(char *out, size_t outsz, double v)
{
    double a = fabs(v);

    if (!isfinite(v)) {
        snprintf(out, outsz, "\xe2\x80\x94");
        return out;
    }
    if (a == 0) {
        snprintf(out, outsz, "0");
        return out;
    }
    if (a >= 1e15 || a < 1e-4) {
        snprintf(out, outsz, "%.3e", v);
    } else if (a >= 999.95) {
        snprintf(out, outsz, "%lld", (long long)llround(v));
    } else {
        /* 4 significant digits as fixed decimals, rounded as integers: a page
         * of 10,000 kernels prints 60,000 values, and integer formatting is
         * several times cheaper than %f's. */
        static const double p10[8] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7};
        static const long long i10[8] = {1,     10,     100,     1000,
                                         10000, 100000, 1000000, 10000000};
        int dec = 3 - (int)floor(log10(a)); /* 1..7 for a in [1e-4, 999.95) */
        long long m;
        if (dec < 1)
            dec = 1;
        if (dec > 7)
            dec = 7;
        m = llround(a * p10[dec]);
        if (m >= 10000 && dec > 1) { /* 9.9996 rounds up to 10.00 */
            dec--;
            m = llround(a * p10[dec]);
        }
        snprintf(out, outsz, "%s%lld.%0*lld", v < 0 ? "-" : "", m / i10[dec], dec,
                 m % i10[dec]);
    }
    trim_zeros(out);
    if (strcmp(out, "-0") == 0)
        snprintf(out, outsz, "0");
    return out;
}

char *units_fmt(char *out, size_t outsz, double v, const char *unit)
{
    double div;
    const char *u;
    char num[UNITS_MAX];

    if (!isfinite(v)) {
        snprintf(out, outsz, "\xe2\x80\x94");
        return out;
    }
    u = units_pick(unit, v, &div);
    units_num(num, sizeof num, v / div);
    {
        size_t n = strlen(num), m = strlen(u);
        if (outsz == 0)
            return out;
        if (n + (m ? m + 1 : 0) >= outsz) { /* cannot happen with UNITS_MAX */
            snprintf(out, outsz, "%s%s%s", num, m ? " " : "", u);
            return out;
        }
        memcpy(out, num, n);
        if (m) {
            out[n++] = ' ';
            memcpy(out + n, u, m);
            n += m;
        }
        out[n] = '\0';
    }
    return out;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* name is the measure m itself or one of its values (m_lower, m_p99). */
static int is_measure(const char *name, const char *m)
{
    size_t n = strlen(m);
    return strncasecmp(name, m, n) == 0 && (name[n] == '\0' || name[n] == '_');
}

const char *units_of_y(const char *y)
{
    if (y == NULL || !*y || strcmp(y, "runtime") == 0 || strncmp(y, "kernel:", 7) == 0)
        return "s";
    if (strncmp(y, "metric:", 7) == 0)
        return units_of_metric(y + 7);
    return NULL;
}

const char *units_of_metric(const char *name)
{
    static const char *const times[] = {
        "time",  "inclusive", "exclusive",      "mean",           "min",
        "max",   "median",    "stddev",         "real_time",      "cpu_time",
        "wtime", "runtime",   "inclusive_time", "exclusive_time", "time (s)"};
    size_t i;

    if (name == NULL)
        return "";
    for (i = 0; i < sizeof times / sizeof times[0]; i++)
        if (strcasecmp(name, times[i]) == 0)
            return "s";
    /* a coefficient of variation (Google Benchmark's real_time_cv,
     * bytes_per_second_cv) is a ratio whatever it varies over */
    if (ends_with(name, "_cv"))
        return "";
    if (ends_with(name, "_time") || ends_with(name, "_seconds") || ends_with(name, "(s)"))
        return "s";
    /* statistics of a time over ranks or threads (CUBE, TAU: inclusive_mean,
     * exclusive_max) and of Google Benchmark's times (real_time_mean) */
    if (starts_with(name, "inclusive_") || starts_with(name, "exclusive_") ||
        starts_with(name, "real_time_") || starts_with(name, "cpu_time_"))
        return "s";
    /* TAU's MPI user events: "Message size for broadcast.max" */
    if (strstr(name, "Message size") != NULL && !ends_with(name, ".count"))
        return "B";
    /* rates, and Google Benchmark's statistics of them (bytes_per_second_mean) */
    {
        const char *ps = strstr(name, "_per_second");
        if (ps != NULL && (ps[11] == '\0' || ps[11] == '_'))
            return ps - name >= 5 && strncasecmp(ps - 5, "bytes", 5) == 0 ? "B/s" : "/s";
    }
    if (ends_with(name, "(B/s)"))
        return "B/s";
    if (ends_with(name, "(MB/s)"))
        return "MB/s";
    /* Bencher's built-in measures, as import_bmf stores them with their
     * bounds and named values (latency_upper, latency_p99): latency and
     * build-time in seconds, file-size in bytes, throughput per second */
    if (is_measure(name, "latency") || is_measure(name, "build-time"))
        return "s";
    if (is_measure(name, "file-size"))
        return "B";
    /* other per-second rates: Bencher's throughput, Google Benchmark's
     * items_per_second and counters named so are above) */
    if (is_measure(name, "throughput"))
        return "/s";
    if (strstr(name, "bytes") != NULL || strstr(name, "Bytes") != NULL ||
        ends_with(name, "(B)"))
        return "B";
    return "";
}

double units_floor(const char *unit, double lo)
{
    return unit != NULL && strcmp(unit, "s") == 0 && lo < 0 ? 0 : lo;
}
