/* import_osu: OSU micro-benchmark output into system benchmarks.
 *
 * The OSU tests print a title ("# OSU MPI Broadcast Latency Test v7.3"), a
 * header naming the columns ("# Size  Avg Latency(us)  Min Latency(us) ...")
 * and one line per message size. Each value becomes one system benchmark
 * record (as prophecy-bench stores them, ready for the parameter fits of
 * SPEC §5.2): the test gives the name (osu_latency -> MPISR, osu_bcast ->
 * MPIBC, osu_allreduce -> MPIAR, ...), the size is L and the process count P
 * (2 for point-to-point tests; for collectives the caller's nprocs, since the
 * output does not print it), the column gives the statistic (mean for the
 * average, min, max, median for P50, p90, p99), and times are converted from
 * microseconds to seconds. A bandwidth (MB/s, 10^6 bytes per second) becomes
 * the time to move one message of L bytes: L / (bandwidth * 10^6) seconds,
 * and is kept as measured too (NAME_MBS, MB/s; a message rate NAME_MSGS,
 * messages per second). One-sided tests (MPI_Get, MPI_Put, ...) are
 * point-to-point; a multi-pair test's P is twice its pairs (osu_multi_lat's
 * the caller's nprocs). A non-blocking collective is its blocking name with
 * an I (osu_iallreduce -> MPIIAR: Overall, and Pure Comm. as MPIIAR_COMM);
 * osu_init's line is MPIINIT at its nprocs. Several outputs may follow each
 * other in one file, after a launcher's preamble or among a job's messages:
 * only lines that start with a number are measurements, and a test Prophecy
 * does not read (osu_hello, OpenSHMEM's) is skipped. A size whose data OSU's
 * --validation found wrong ("Fail" in its Validation column) is left out,
 * with a note: its time is of a transfer that did not deliver the message.
 * Every record names its test as OSU's program does (osu_latency), and the
 * tables of one test that the log tells apart by the line of its own words
 * before each ("Testing Same CCX", "Testing Same NUMA": core placements)
 * carry that line as their label, a series each; tables alike are
 * repetitions of one series.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/utf8.h"
#include "formats/import.h"
#include "formats/limits.h"
#include "formats/osu.h"

static const struct {
    const char *test;  /* between "OSU MPI" and "Test" in the title */
    const char *name;  /* the system benchmark */
    int p2p;           /* point to point: P = 2; 2: pairs of every rank (osu_multi_lat):
                          P = the caller's nprocs, else 2 */
    const char *prog;  /* the test as OSU names its program, what users know */
    const char *iprog; /* a collective's non-blocking test's (osu_ibcast), or NULL */
} tests[] = {
    {"Latency", "MPISR", 1, "osu_latency", NULL},
    {"Multi Latency", "MPISR", 2, "osu_multi_lat", NULL},
    {"Multi-threaded Latency", "MPISRMT", 1, "osu_latency_mt", NULL},
    /* osu_latency_mp: still two ranks */
    {"Multi-process Latency", "MPISR", 1, "osu_latency_mp", NULL},
    {"Bandwidth", "MPIBW", 1, "osu_bw", NULL},
    {"Bi-Directional Bandwidth", "MPIBIBW", 1, "osu_bibw", NULL},
    {"Bidirectional Bandwidth", "MPIBIBW", 1, "osu_bibw", NULL}, /* OMB 2.x */
    {"Multiple Bandwidth / Message Rate", "MPIMBW", 1, "osu_mbw_mr", NULL},
    {"Broadcast Latency", "MPIBC", 0, "osu_bcast", "osu_ibcast"},
    {"Allreduce Latency", "MPIAR", 0, "osu_allreduce", "osu_iallreduce"},
    {"Reduce Latency", "MPIRD", 0, "osu_reduce", "osu_ireduce"},
    {"Reduce_scatter Latency", "MPIRS", 0, "osu_reduce_scatter", "osu_ireduce_scatter"},
    {"Allgather Latency", "MPIAG", 0, "osu_allgather", "osu_iallgather"},
    {"Allgatherv Latency", "MPIAGV", 0, "osu_allgatherv", "osu_iallgatherv"},
    {"Alltoall Latency", "MPIA2A", 0, "osu_alltoall", "osu_ialltoall"},
    {"All-to-All Personalized Exchange Latency", "MPIA2A", 0, "osu_alltoall",
     "osu_ialltoall"},
    {"Alltoallv Latency", "MPIA2AV", 0, "osu_alltoallv", "osu_ialltoallv"},
    {"All-to-Allv Personalized Exchange Latency", "MPIA2AV", 0, "osu_alltoallv",
     "osu_ialltoallv"},
    /* the non-blocking test's words */
    {"All-to-All Latency", "MPIA2A", 0, "osu_alltoall", "osu_ialltoall"},
    {"All-to-Allv Latency", "MPIA2AV", 0, "osu_alltoallv", "osu_ialltoallv"},
    {"Alltoallw Latency", "MPIA2AW", 0, "osu_alltoallw", "osu_ialltoallw"},
    {"All-to-Allw Personalized Exchange Latency", "MPIA2AW", 0, "osu_alltoallw",
     "osu_ialltoallw"},
    {"Gather Latency", "MPIGA", 0, "osu_gather", "osu_igather"},
    {"Gatherv Latency", "MPIGAV", 0, "osu_gatherv", "osu_igatherv"},
    {"Scatter Latency", "MPISC", 0, "osu_scatter", "osu_iscatter"},
    {"Scatterv Latency", "MPISCV", 0, "osu_scatterv", "osu_iscatterv"},
    {"Barrier Latency", "MPIBAR", 0, "osu_barrier", "osu_ibarrier"},
    /* osu_init: "nprocs: 2, min: 13 ms, max: 14 ms, avg: 13 ms" */
    {"Init", "MPIINIT", 3, "osu_init", NULL},
    /* one-sided: "# OSU MPI_Get latency Test"; OMB 3.x's "# OSU One Sided
     * MPI_Get latency Test" and "# OSU MPI One Sided MPI_Accumulate Latency
     * Test" read as these (title) */
    {"_Get latency", "MPIGET", 1, "osu_get_latency", NULL},
    {"_Get Bandwidth", "MPIGETBW", 1, "osu_get_bw", NULL},
    {"_Put Latency", "MPIPUT", 1, "osu_put_latency", NULL},
    {"_Put Bandwidth", "MPIPUTBW", 1, "osu_put_bw", NULL},
    {"_Put Bi-directional Bandwidth", "MPIPUTBIBW", 1, "osu_put_bibw", NULL},
    {"_Accumulate latency", "MPIACC", 1, "osu_acc_latency", NULL},
    {"_Get_accumulate latency", "MPIGACC", 1, "osu_get_acc_latency", NULL},
    {"_Fetch_and_op latency", "MPIFOP", 1, "osu_fop_latency", NULL},
    {"_Compare_and_swap latency", "MPICAS", 1, "osu_cas_latency", NULL},
};

enum { COL_TIME, COL_BW, COL_RATE, COL_SKIP, COL_VALID };

struct col {
    int kind;
    const char *stat;
    int comm; /* a non-blocking test's "Pure Comm." time: NAME_COMM */
};

/* One table's records, rec[first..end), and what tells its series from
 * another table's of the same benchmark: its test and the log's line of
 * text before it. */
struct table {
    const char *name, *test, *label;
    size_t first, end;
};

struct osu {
    const char *file;
    const char *name;                 /* current test's benchmark, NULL before a title */
    const char *test;                 /* its program (osu_latency), what users know */
    const char *label;                /* the line of text before its title, "" */
    char text[LIMIT_BENCH_LABEL + 1]; /* the last line of text since a row or title */
    int open;                         /* the current table has its entry in tab */
    struct table *tab;
    size_t ntab, captab;
    const char *name_mbs, *name_msgs; /* its bandwidth and message rate */
    const char *name_comm;            /* a non-blocking test's pure communication */
    const char *base;                 /* the title's benchmark, before buffers */
    char skipped[64];                 /* the first test Prophecy does not read */
    size_t nskipped;                  /* tables of tests it does not read */
    char unread[40];                  /* the first column Prophecy does not read */
    size_t nunread;                   /* such columns, over every header */
    size_t nfailed;                   /* sizes that failed OSU's validation */
    char failed[64];                  /* the first of them: "MPISR at 4 B" */
    int p2p;
    int has_size;    /* barrier prints no size column */
    long long pairs; /* "# [ pairs: 8 ]" of the multi-pair tests, 0 */
    long long procs; /* the processes a line states (osu_init's nprocs), 0 */
    struct col col[LIMIT_IMPORT_OSU_COLUMNS];
    size_t ncol;
    struct bench_record *rec;
    size_t n, cap;
    arena *a;
};

static int ieq(const char *a, size_t n, const char *b)
{
    if (strlen(b) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
}

/* The names a test's values are stored under: NAME and its bandwidth
 * (NAME_MBS), message rate (NAME_MSGS), pure communication (NAME_COMM). */
static int names(struct osu *o, const char *name, struct err *err)
{
    o->name = name;
    o->open = 0; /* its records start a table of their own */
    o->name_mbs = arena_printf(o->a, "%s_MBS", name);
    o->name_msgs = arena_printf(o->a, "%s_MSGS", name);
    o->name_comm = arena_printf(o->a, "%s_COMM", name);
    if (o->name_mbs == NULL || o->name_msgs == NULL || o->name_comm == NULL)
        return err_nomem(err);
    return 0;
}

/* The code of a buffer's place in "Send Buffer on DEVICE (D) and Receive
 * Buffer on HOST (H)" after `at`: the letters in its parentheses (H, D, M,
 * and OMB 7's MD, MH for managed memory on the device or the host), copied
 * to out (3 bytes); 0, or -1 if there is none. */
static int buffer_place(const char *at, const char *end, char *out)
{
    const char *o = at, *c;
    while (o < end && *o != '(' && *o != ')')
        o++;
    if (o >= end || *o != '(')
        return -1;
    for (c = ++o; c < end && c - o < 3 && *c >= 'A' && *c <= 'Z'; c++)
        ;
    if (c == o || c - o > 2 || c >= end || *c != ')')
        return -1;
    memcpy(out, o, (size_t)(c - o));
    out[c - o] = '\0';
    return 0;
}

/* A table of a test Prophecy does not read (osu_hello, another OSU suite's):
 * counted, the first one's name (len bytes) kept for the messages, and its
 * lines skipped up to the next title. */
static void skip_test(struct osu *o, const char *name, size_t len)
{
    o->text[0] = '\0';
    o->nskipped++;
    if (o->skipped[0] == '\0')
        snprintf(o->skipped, sizeof o->skipped, "%.*s", (int)(len < 60 ? len : 60), name);
    o->name = NULL;
}

/* "# OSU MPI[-CUDA] Broadcast Latency Test v7.3": picks the benchmark. A
 * non-blocking collective ("Non-blocking Allreduce Latency Test", osu_iallreduce)
 * is the blocking one's name with an I (MPIIAR). A test Prophecy does not read
 * (osu_hello, ...) is skipped: its lines are not measurements. */
static int title(struct osu *o, const char *s, size_t n, size_t line, struct err *err)
{
    const char *p = memchr(s, 'O', n), *end, *name;
    char words[96];
    size_t i, nw;
    int nb = 0, accel = 0;

    if (p == NULL || (size_t)(s + n - p) < 8 || memcmp(p, "OSU ", 4) != 0)
        return imp_fail_line(err, o->file, line, "not an OSU title");
    p += 4;
    if (s + n - p >= 3 && memcmp(p, "MPI", 3) == 0) {
        p += 3;
        accel = p < s + n && *p == '-'; /* MPI-CUDA, MPI-ROCM: run with -d */
        if (p < s + n && *p != '_')
            while (p < s + n && *p != ' ')
                p++; /* "-CUDA", OMB 1.x's "MPI2"; "_Get" names a one-sided test */
    }
    while (p < s + n && *p == ' ')
        p++;
    for (end = s + n; end > p + 4 && memcmp(end - 5, " Test", 5) != 0; end--)
        ;
    if (end <= p + 4)
        return imp_fail_line(err, o->file, line, "the OSU title names no test");
    end -= 5;
    name = p; /* as printed, for the messages */
    if (end - p > 13 && ieq(p, 13, "Non-blocking ")) {
        nb = 1;
        p += 13;
    }
    /* OMB 1.x-3.x's one-sided titles, "One Sided MPI_Put Bandwidth",
     * "One-sided MPI_Get Latency", "One Sided MPI_Get Passive latency", and
     * 5.x-7.x's on GPU buffers, "_Put-CUDA Latency", are the words of
     * today's "_Put Bandwidth" and "_Get latency": the test's words without
     * "One Sided", "MPI", "Passive" (the synchronization, which today's
     * titles do not name either) and the accelerator */
    if (end - p > 10 && (ieq(p, 10, "One Sided ") || ieq(p, 10, "One-sided ")))
        p += 10;
    if (end - p > 4 && memcmp(p, "MPI_", 4) == 0)
        p += 3;
    nw = 0;
    while (p < end) {
        const char *w = p, *we;
        while (p < end && *p != ' ')
            p++;
        we = p;
        while (p < end && *p == ' ')
            p++;
        if (ieq(w, (size_t)(we - w), "Passive"))
            continue;
        if (*w == '_') { /* "_Put-CUDA": the accelerator's name off */
            const char *d = memchr(w, '-', (size_t)(we - w));
            if (d != NULL && d + 1 < we && d[1] >= 'A' && d[1] <= 'Z') {
                we = d;
                accel = 1;
            }
        }
        if (nw + (size_t)(we - w) + 1 >= sizeof words)
            break; /* longer than any test's words: not one Prophecy reads */
        if (nw > 0)
            words[nw++] = ' ';
        memcpy(words + nw, w, (size_t)(we - w));
        nw += (size_t)(we - w);
    }
    o->ncol = 0;
    o->pairs = 0;
    o->procs = 0;
    /* the line of text just before the title ("Testing Same CCX") may tell
     * this table from others of the same test (unlabel_repeats) */
    if ((o->label = arena_strdup(o->a, o->text)) == NULL)
        return err_nomem(err);
    o->text[0] = '\0';
    for (i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (ieq(words, nw, tests[i].test) && (!nb || !tests[i].p2p)) {
            const char *nm;
            o->base =
                nb ? arena_printf(o->a, "MPII%s", tests[i].name + 3) : tests[i].name;
            o->test = nb ? tests[i].iprog : tests[i].prog;
            o->p2p = tests[i].p2p;
            /* a collective run with -d has every buffer on the device and
             * prints no places: the device curve, never the host's name */
            nm = accel && !o->p2p && o->base ? arena_printf(o->a, "%s_DD", o->base)
                                             : o->base;
            return nm ? names(o, nm, err) : err_nomem(err);
        }
    skip_test(o, name, (size_t)(end - name));
    return 0;
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Where the header's label at i ends: two blanks or more, or a tab, end a
 * label ("Avg Latency(us)  Min Latency(us)"). */
static size_t label_end(const char *s, size_t i, size_t n)
{
    while (i < n && !(s[i] == '\t' || (s[i] == ' ' && i + 1 < n && blank(s[i + 1]))))
        i++;
    return i;
}

/* OMB 7.2's tail columns (-z, percentiles of its choice): "P50 Tail Lat(us)",
 * "P95 Tail BW(MB/s)". Adds the column (P50 is the median, Pk is "pk") and
 * returns the label's length; 0 if s is not one; -1 out of memory. */
static int tail_column(struct osu *o, const char *s, size_t n)
{
    size_t d = 1;
    int kind;
    const char *stat;
    if (n < 2 || s[0] != 'P')
        return 0;
    while (d < n && d < 4 && s[d] >= '0' && s[d] <= '9')
        d++;
    if (d == 1)
        return 0;
    if (n - d >= 9 && memcmp(s + d, " Tail Lat", 9) == 0)
        kind = COL_TIME;
    else if (n - d >= 8 && memcmp(s + d, " Tail BW", 8) == 0)
        kind = COL_BW;
    else
        return 0;
    stat = d == 3 && memcmp(s + 1, "50", 2) == 0
               ? "median"
               : arena_printf(o->a, "p%.*s", (int)(d - 1), s + 1);
    if (stat == NULL)
        return -1;
    o->col[o->ncol++] = (struct col){kind, stat, 0};
    return (int)(d + (kind == COL_TIME ? 9 : 8));
}

/* "# Size  Avg Latency(us)  Min Latency(us)  Max Latency(us)  Iterations";
 * a non-blocking test's "# Size  Overall(us)  Compute(us)  Pure Comm.(us)
 * Overlap(%)" (osu_ibarrier's without "#" and "Size"). */
static int header(struct osu *o, const char *s, size_t n, size_t line, struct err *err)
{
    static const struct {
        const char *label;
        int kind;
        const char *stat;
        int comm;
    } labels[] = {
        {"Avg Latency", COL_TIME, "mean", 0}, {"Min Latency", COL_TIME, "min", 0},
        {"Max Latency", COL_TIME, "max", 0},  {"Bi-Bandwidth", COL_BW, "mean", 0},
        {"Latency", COL_TIME, "mean", 0},     {"Bandwidth", COL_BW, "mean", 0},
        {"MB/s", COL_BW, "mean", 0},          {"Iterations", COL_SKIP, NULL, 0},
        {"Messages/s", COL_RATE, "mean", 0},  {"Overall", COL_TIME, "mean", 0},
        {"Pure Comm.", COL_TIME, "mean", 1},  {"Min Comm.", COL_TIME, "min", 1},
        {"Max Comm.", COL_TIME, "max", 1},    {"Compute", COL_SKIP, NULL, 0},
        {"Overlap", COL_SKIP, NULL, 0},       {"Validation", COL_VALID, NULL, 0}};
    size_t i = n > 0 && s[0] == '#' ? 1 : 0;
    int rc;

    o->ncol = 0;
    o->has_size = 0;
    while (i < n) {
        size_t k, len;
        while (i < n && blank(s[i]))
            i++;
        if (i >= n)
            break;
        if (n - i >= 4 && memcmp(s + i, "Size", 4) == 0) {
            o->has_size = 1;
            i += 4;
            continue;
        }
        if (o->ncol >= LIMIT_IMPORT_OSU_COLUMNS)
            return imp_fail_line(err, o->file, line, "more than %d columns",
                                 LIMIT_IMPORT_OSU_COLUMNS);
        if ((rc = tail_column(o, s + i, n - i)) < 0)
            return err_nomem(err);
        if (rc > 0) {
            len = (size_t)rc;
        } else {
            for (k = 0; k < sizeof labels / sizeof labels[0]; k++) {
                len = strlen(labels[k].label);
                if (n - i >= len && memcmp(s + i, labels[k].label, len) == 0)
                    break;
            }
            if (k == sizeof labels / sizeof labels[0]) {
                /* a column Prophecy does not read still takes a place in each
                 * row; the import's note names it */
                size_t e = label_end(s, i, n);
                if (o->nunread++ == 0)
                    snprintf(o->unread, sizeof o->unread, "%.*s",
                             (int)(e - i < 36 ? e - i : 36), s + i);
                o->col[o->ncol++] = (struct col){COL_SKIP, NULL, 0};
                len = 0;
            } else {
                o->col[o->ncol++] =
                    (struct col){labels[k].kind, labels[k].stat, labels[k].comm};
            }
        }
        i += len;
        if (len > 0 && o->col[o->ncol - 1].kind == COL_TIME &&
            !(n - i >= 4 && memcmp(s + i, "(us)", 4) == 0) &&
            !(n - i >= 5 && memcmp(s + i, " (us)", 5) == 0))
            return imp_fail_line(err, o->file, line, "a latency column is not in us");
        i = label_end(s, i, n);
    }
    if (o->ncol == 0)
        return imp_fail_line(err, o->file, line, "the header names no column");
    return 0;
}

static int add(struct osu *o, const char *name, const char *stat, double L, double t,
               const struct fmt_options *opt, size_t line, struct err *err)
{
    long long np = opt ? opt->nprocs : 0;
    long long P = o->procs > 0            ? o->procs
                  : o->pairs > 0          ? 2 * o->pairs
                  : o->p2p == 2 && np > 0 ? np
                  : o->p2p                ? 2
                                          : np;
    struct bench_record *r;

    if (o->n >= LIMIT_BENCHMARKS)
        return imp_fail_line(err, o->file, line, "more than %d benchmark records",
                             LIMIT_BENCHMARKS);
    if ((o->rec = arena_grow(o->a, o->rec, o->n, &o->cap, 64, sizeof *o->rec)) == NULL)
        return err_nomem(err);
    if (!o->open) {
        o->tab = arena_grow(o->a, o->tab, o->ntab, &o->captab, 16, sizeof *o->tab);
        if (o->tab == NULL)
            return err_nomem(err);
        o->tab[o->ntab++] = (struct table){o->name, o->test, o->label, o->n, o->n};
        o->open = 1;
    }
    o->text[0] = '\0'; /* a line before the next table is not this one's */
    r = &o->rec[o->n++];
    o->tab[o->ntab - 1].end = o->n;
    r->name = name;
    r->stat = stat;
    r->time = t;
    r->label = o->label;
    r->test = o->test;
    if (!o->has_size)
        r->args_json = P > 0 ? arena_printf(o->a, "{\"P\":%lld}", P) : "{}";
    else if (P > 0)
        r->args_json = arena_printf(o->a, "{\"L\":%.0f,\"P\":%lld}", L, P);
    else
        r->args_json = arena_printf(o->a, "{\"L\":%.0f}", L);
    return r->args_json ? 0 : err_nomem(err);
}

/* Whether a line that starts with a number is a line of text: its second
 * word starts with a letter (and is not "nan" or "inf", a measurement gone
 * wrong) and it has more or fewer words than a row of the table. "2 total
 * processes killed (some possibly by mpirun during cleanup)", Open MPI's last
 * words after a crash, is text; "8 fast" under "# Size Latency (us)" and
 * "1024 3.2x" are malformed rows. */
static int text_line(const struct osu *o, const char *s, size_t n)
{
    size_t i = 0, words = 0, second = 0, second_end = 0;
    while (i < n) {
        while (i < n && blank(s[i]))
            i++;
        if (i >= n)
            break;
        if (++words == 2)
            second = i;
        while (i < n && !blank(s[i]))
            i++;
        if (words == 2)
            second_end = i;
    }
    if (words < 2 || words == o->ncol + (o->has_size ? 1 : 0))
        return 0;
    if (!((s[second] >= 'a' && s[second] <= 'z') ||
          (s[second] >= 'A' && s[second] <= 'Z')))
        return 0;
    return !ieq(s + second, second_end - second, "nan") &&
           !ieq(s + second, second_end - second, "inf") &&
           !ieq(s + second, second_end - second, "infinity");
}

/* One measurement line. Returns 0, also for a line that only starts with a
 * digit ("2024-05-01T10:00 job started": its first word is not a number, so
 * it is not a measurement; "2 total processes killed": text_line); -1 with
 * err for a malformed one. */
static int row(struct osu *o, const char *s, size_t n, const struct fmt_options *opt,
               size_t line, struct err *err)
{
    double L = 0, v, val[LIMIT_IMPORT_OSU_COLUMNS] = {0}; /* skipped columns: 0 */
    size_t i = 0, c = 0;
    int first = 1, num, fail = 0;

    if (o->ncol == 0)
        return imp_fail_line(err, o->file, line,
                             "a value before the \"# Size ...\" header");
    while (i < n) {
        size_t j;
        while (i < n && blank(s[i]))
            i++;
        if (i >= n)
            break;
        j = i;
        while (j < n && !blank(s[j]))
            j++;
        num = imp_number(s + i, j - i, &v) == 0 && v >= 0;
        if (first && (!num || text_line(o, s, n)))
            return 0;
        if (!(first && o->has_size) && c < o->ncol && o->col[c].kind == COL_VALID) {
            /* OSU 7's --validation: "Pass", or "Fail" */
            if (ieq(s + i, j - i, "Fail"))
                fail = 1;
            else if (!ieq(s + i, j - i, "Pass"))
                return imp_fail_line(
                    err, o->file, line,
                    "\"%.*s\" in the Validation column, not Pass or Fail",
                    (int)(j - i < 40 ? j - i : 40), s + i);
            c++;
            first = 0;
            i = j;
            continue;
        }
        if (!(first && o->has_size) && c < o->ncol && o->col[c].kind == COL_SKIP) {
            c++; /* "Iterations", "Compute(us)", an unknown column */
            first = 0;
            i = j;
            continue;
        }
        if (!num)
            return imp_fail_line(err, o->file, line, "\"%.*s\" is not a number",
                                 (int)(j - i < 40 ? j - i : 40), s + i);
        if (first && o->has_size) {
            if (v > 1e15 || v != floor(v))
                return imp_fail_line(err, o->file, line,
                                     "the message size must be an integer");
            L = v;
        } else {
            if (c >= o->ncol)
                return imp_fail_line(err, o->file, line,
                                     "more values than the header's columns");
            val[c++] = v;
        }
        first = 0;
        i = j;
    }
    if (c != o->ncol)
        return imp_fail_line(err, o->file, line,
                             "%zu values for %zu columns (truncated?)", c, o->ncol);
    if (fail) {
        if (o->nfailed++ == 0)
            snprintf(o->failed, sizeof o->failed, "%s at %.0f B", o->name, L);
        return 0;
    }
    for (c = 0; c < o->ncol; c++) {
        const char *name = o->col[c].comm ? o->name_comm : o->name;
        v = val[c];
        if (o->col[c].kind == COL_TIME) {
            if (add(o, name, o->col[c].stat, L, v / 1e6, opt, line, err) != 0)
                return -1;
        } else if (o->col[c].kind == COL_BW) {
            /* as measured (NAME_MBS, MB/s), and the time to move one
             * message derived from it (NAME, seconds) */
            if (add(o, o->name_mbs, o->col[c].stat, L, v, opt, line, err) != 0 ||
                (L > 0 && v > 0 &&
                 add(o, o->name, o->col[c].stat, L, L / (v * 1e6), opt, line, err) != 0))
                return -1;
        } else if (o->col[c].kind == COL_RATE) {
            if (add(o, o->name_msgs, o->col[c].stat, L, v, opt, line, err) != 0)
                return -1;
        }
    }
    return 0;
}

/* osu_init's "nprocs: 2, min: 13 ms, max: 14 ms, avg: 13 ms": MPIINIT at
 * P = nprocs, its min, max and mean in seconds. */
static int init_line(struct osu *o, const char *s, size_t n, size_t line, struct err *err)
{
    static const char *const keys[] = {"nprocs", "min", "max", "avg"};
    static const char *const stats[] = {NULL, "min", "max", "mean"};
    double v[4];
    size_t i = 0;

    for (int k = 0; k < 4; k++) {
        size_t kl = strlen(keys[k]), j;
        while (i < n && (s[i] == ' ' || s[i] == ','))
            i++;
        if (n - i < kl + 1 || memcmp(s + i, keys[k], kl) != 0 || s[i + kl] != ':')
            return imp_fail_line(err, o->file, line,
                                 "osu_init's line must read \"nprocs: N, min: T ms, max: "
                                 "T ms, avg: T ms\"");
        i += kl + 1;
        while (i < n && s[i] == ' ')
            i++;
        for (j = i; j < n && s[j] != ' ' && s[j] != ','; j++)
            ;
        if (imp_number(s + i, j - i, &v[k]) != 0 || v[k] < 0)
            return imp_fail_line(err, o->file, line, "\"%.*s\" is not a number",
                                 (int)(j - i < 40 ? j - i : 40), s + i);
        i = j;
        while (i < n && s[i] == ' ')
            i++;
        if (k > 0) {
            if (n - i < 2 || memcmp(s + i, "ms", 2) != 0)
                return imp_fail_line(err, o->file, line, "an osu_init time is not in ms");
            i += 2;
        }
    }
    if (v[0] < 1 || v[0] > 1e9 || v[0] != floor(v[0]))
        return imp_fail_line(err, o->file, line, "nprocs must be a positive integer");
    o->procs = (long long)v[0];
    o->has_size = 0;
    for (int k = 1; k < 4; k++)
        if (add(o, o->name, stats[k], 0, v[k] / 1e3, NULL, line, err) != 0)
            return -1;
    return 0;
}

/* A line of the log's own words (not OSU's): kept as the candidate label of
 * the next table, trimmed and cut to LIMIT_BENCH_LABEL bytes; a line that is
 * not UTF-8 text (or holds control characters other than tabs) is none. */
static void keep_text(struct osu *o, const char *s, size_t n)
{
    while (n > 0 && blank(s[n - 1]))
        n--;
    if (n == 0 || !utf8_valid(s, n))
        return;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
            return;
    if (n > LIMIT_BENCH_LABEL)
        n = LIMIT_BENCH_LABEL;
    memcpy(o->text, s, n);
    o->text[n] = '\0';
    utf8_cut(o->text);
}

static int cmp_table(const void *pa, const void *pb)
{
    const struct table *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    if (c == 0)
        c = strcmp(a->test, b->test);
    return c ? c : strcmp(a->label, b->label);
}

/* Labels only where the log tells tables apart: the tables of one benchmark
 * and test whose lines before them all read the same, or that stand alone,
 * are one series (a repetition is measured twice), and their records carry
 * no label; where those lines differ ("Testing Same CCX", "Testing Same
 * NUMA"), each table's records keep its line as their label. */
static void unlabel_repeats(struct osu *o)
{
    size_t i, j, k, r;
    if (o->ntab > 1)
        qsort(o->tab, o->ntab, sizeof *o->tab, cmp_table);
    for (i = 0; i < o->ntab; i = j) {
        for (j = i + 1; j < o->ntab && strcmp(o->tab[j].name, o->tab[i].name) == 0 &&
                        strcmp(o->tab[j].test, o->tab[i].test) == 0;
             j++)
            ;
        if (strcmp(o->tab[i].label, o->tab[j - 1].label) != 0)
            continue;
        for (k = i; k < j; k++)
            for (r = o->tab[k].first; r < o->tab[k].end; r++)
                o->rec[r].label = "";
    }
}

/* The first "needle" in s[0..n), or NULL. */
static const char *find(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0)
            return s + i;
    return NULL;
}

int import_osu(const struct fmt_file *files, size_t nfiles, const struct fmt_options *opt,
               const struct fmt_sink *sink, struct err *err)
{
    struct osu o = {0};
    struct imp_lines l;
    const char *line;
    size_t len;
    int rc;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "osu reads one file at a time");
    o.file = files[0].name;
    if ((o.a = arena_new()) == NULL)
        return err_nomem(err);
    imp_lines_init(&l, files[0].data, files[0].len);
    while ((rc = imp_lines_next(&l, o.file, &line, &len, err)) == 1) {
        while (len > 0 && (*line == ' ' || *line == '\t')) {
            line++;
            len--;
        }
        if (len == 0)
            continue;
        if (line[0] == '#') {
            const char *t = line + 1;
            size_t tn = len - 1;
            while (tn > 0 && *t == ' ') {
                t++;
                tn--;
            }
            if ((tn >= 7 && memcmp(t, "OSU MPI", 7) == 0) ||
                (tn >= 13 && memcmp(t, "OSU One Sided", 13) == 0))
                rc = title(&o, line, len, l.lineno, err);
            else if (tn >= 4 && memcmp(t, "OSU ", 4) == 0) {
                /* "# OSU OpenSHMEM Put Test", "# OSU UPC ...": not MPI; its
                 * rows are not the previous test's */
                const char *te = find(t + 4, tn - 4, " Test");
                skip_test(&o, t + 4, te ? (size_t)(te - (t + 4)) : tn - 4);
                rc = 0;
            } else if ((tn >= 4 && memcmp(t, "Size", 4) == 0) ||
                       (tn >= 3 && memcmp(t, "Avg", 3) == 0 && o.name) ||
                       (tn >= 8 && memcmp(t, "Overall(", 8) == 0 && o.name))
                rc = header(&o, line, len, l.lineno, err);
            else {
                /* "# [ pairs: 8 ] [ window size: 64 ]", "# Datatype: MPI_CHAR."
                 * and other notes */
                const char *pp = find(t, tn, "pairs:");
                const char *sb = find(t, tn, "Send Buffer on "),
                           *rb = find(t, tn, "Receive Buffer on ");
                long long np;
                if (sb == NULL && rb == NULL) {
                    /* a one-sided test's: "Rank 0 Memory on DEVICE (D) and
                     * Rank 1 Memory on HOST (H)" */
                    sb = find(t, tn, "Rank 0 Memory on ");
                    rb = find(t, tn, "Rank 1 Memory on ");
                }
                if (sb != NULL && rb != NULL && o.name != NULL) {
                    /* a test on GPU buffers is a benchmark of its own: the
                     * name with the places, MPISR_DH; host to host keeps it */
                    char sp[3], rp[3];
                    if (buffer_place(sb, rb, sp) == 0 &&
                        buffer_place(rb, t + tn, rp) == 0) {
                        const char *nm =
                            strcmp(sp, "H") == 0 && strcmp(rp, "H") == 0
                                ? o.base
                                : arena_printf(o.a, "%s_%s%s", o.base, sp, rp);
                        if ((rc = nm ? names(&o, nm, err) : err_nomem(err)) != 0)
                            break;
                    }
                }
                if (pp != NULL && o.name != NULL) {
                    const char *q = pp + 6, *e;
                    while (q < t + tn && *q == ' ')
                        q++;
                    for (e = q; e < t + tn && *e >= '0' && *e <= '9'; e++)
                        ;
                    if (imp_integer(q, (size_t)(e - q), &np) == 0 && np > 0 &&
                        np < 1000000)
                        o.pairs = np;
                }
                rc = 0;
            }
        } else if (line[0] >= '0' && line[0] <= '9' && o.name != NULL) {
            rc = row(&o, line, len, opt, l.lineno, err);
        } else if (len >= 7 && memcmp(line, "nprocs:", 7) == 0 && o.name != NULL &&
                   o.p2p == 3) {
            rc = init_line(&o, line, len, l.lineno, err);
        } else if (len >= 8 && memcmp(line, "Overall(", 8) == 0 && o.name != NULL) {
            /* osu_ibarrier (5.x) prints its header without "#" */
            rc = header(&o, line, len, l.lineno, err);
        } else {
            /* a launcher's or a job script's words ("[0] MPI startup(): ...",
             * "Testing Same CCX", "2024-05-01 job started" before any
             * title): only lines that start with a number after a title
             * are measurements; the last such line before a title that
             * does not start with a digit may label its table */
            if (!(line[0] >= '0' && line[0] <= '9'))
                keep_text(&o, line, len);
            rc = 0;
        }
        if (rc != 0)
            break;
    }
    if (rc == 0 && o.n == 0 && o.nfailed > 0)
        rc = imp_fail_field(err, o.file, "file",
                            "every message size failed OSU's validation (\"Fail\"; the "
                            "first: %s): nothing to store",
                            o.failed);
    else if (rc == 0 && o.n == 0)
        rc = o.skipped[0]
                 ? imp_fail_field(err, o.file, "file",
                                  "no OSU measurements Prophecy reads in the file (the "
                                  "\"%s\" test is not one it reads)",
                                  o.skipped)
                 : imp_fail_field(err, o.file, "file", "no OSU measurements in the file");
    if (rc == 0 && o.nfailed > 0)
        fmt_note(sink,
                 "%s: %zu message size%s failed OSU's validation (\"Fail\") and %s left "
                 "out (the first: %s)",
                 o.file, o.nfailed, o.nfailed == 1 ? "" : "s",
                 o.nfailed == 1 ? "was" : "were", o.failed);
    if (rc == 0 && o.nunread > 0)
        fmt_note(sink,
                 "%s: %zu column%s of a kind Prophecy does not read left out (the first: "
                 "\"%s\")",
                 o.file, o.nunread, o.nunread == 1 ? "" : "s", o.unread);
    if (rc == 0 && o.nskipped > 0)
        fmt_note(sink,
                 "%s: %zu table%s left out, of tests Prophecy does not read (the first: "
                 "\"%s\")",
                 o.file, o.nskipped, o.nskipped == 1 ? "" : "s", o.skipped);
    if (rc == 0) {
        const char *system = opt && opt->system ? opt->system : "unknown";
        unlabel_repeats(&o);
        if (sink == NULL || sink->benchmarks == NULL)
            rc = imp_fail_field(
                err, o.file, "format",
                "osu holds system benchmarks, which this import does not take");
        else if (sink->benchmarks(sink->ctx, system, o.rec, o.n, err) != 0) {
            if (err && err->status == 0)
                err_set(err, ERR_INTERNAL, "sink_failed", NULL,
                        "storing the benchmarks failed");
            rc = -1;
        }
    }
    arena_free(o.a);
    return rc < 0 ? -1 : 0;
}

const char *osu_program_of(const char *name)
{
    size_t n = strcspn(name, "_"), i;
    /* the importer's suffixes are capitals: _MBS, _MSGS, _COMM, _DH, _MDH */
    for (i = n; name[i]; i++)
        if (!(name[i] == '_' || (name[i] >= 'A' && name[i] <= 'Z')))
            return NULL;
    for (i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (strlen(tests[i].name) == n && strncmp(tests[i].name, name, n) == 0)
            return tests[i].prog;
    /* a non-blocking collective: MPII and the blocking one's rest (MPIIAR) */
    for (i = 0;
         n > 4 && memcmp(name, "MPII", 4) == 0 && i < sizeof tests / sizeof tests[0]; i++)
        if (tests[i].iprog != NULL && strlen(tests[i].name) == n - 1 &&
            strncmp(tests[i].name + 3, name + 4, n - 4) == 0)
            return tests[i].iprog;
    return NULL;
}

int sniff_osu(const struct fmt_file *files, size_t nfiles)
{
    /* OSU output may follow a launcher's preamble (Intel MPI's debug lines,
     * a Slurm job's messages) */
    return nfiles == 1 && (imp_contains(&files[0], "# OSU MPI") ||
                           imp_contains(&files[0], "# OSU One Sided"));
}
