/* Unit tests for the cube and extrap-experiment importers: exact records
 * from the fixtures tests/data/import/cube/make.py writes the way CubeLib
 * and Extra-P do (plain, gzip anchor + big-endian + zlib data, every kind of
 * metric value, an EXCLUSIVE time metric in msec, long call paths), the
 * loose members of an archive and a scaling-study directory, and exact
 * messages for files that must be refused. */
#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "common/xalloc_json.h"
#include "formats/formats.h"
#include "tests/data_file.h"
#include "tests/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREC 32

struct got {
    char *line[MAXREC];
    char *uid[MAXREC];
    size_t n;
};

static int take_runs(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    struct got *g = ctx;
    (void)err;
    for (size_t i = 0; i < n && g->n < MAXREC; i++) {
        struct buf b;
        buf_init(&b, 1 << 20);
        buf_printf(&b, "%s|np=%lld|rt=", r[i].application, r[i].nprocs);
        if (RUN_HAS_RUNTIME(r[i].runtime))
            buf_num(&b, r[i].runtime);
        else
            buf_puts(&b, "none");
        buf_puts(&b, "|in:");
        for (size_t k = 0; k < r[i].ninputs; k++) {
            buf_printf(&b, "%s%s=", k ? "," : "", r[i].inputs[k].name);
            buf_num(&b, r[i].inputs[k].value);
        }
        for (size_t k = 0; k < r[i].nkernels; k++) {
            buf_printf(&b, "\n%s=", r[i].kernels[k].name);
            if (KERNEL_HAS_TIME(r[i].kernels[k].time))
                buf_num(&b, r[i].kernels[k].time);
            else
                buf_puts(&b, "none");
            if (KERNEL_HAS_CALLS(r[i].kernels[k].calls))
                buf_printf(&b, "x%lld", r[i].kernels[k].calls);
            else
                buf_puts(&b, "x?"); /* not counted: no visits metric */
            buf_printf(&b, " %s",
                       r[i].kernels[k].metrics_json ? r[i].kernels[k].metrics_json : "");
        }
        for (size_t t = 0; t < r[i].ntags; t++)
            buf_printf(&b, "\n%s=%s", r[i].tags[t].key, r[i].tags[t].value);
        g->line[g->n] = xstrdup(buf_str(&b));
        g->uid[g->n++] = xstrdup(r[i].uid ? r[i].uid : "(none)");
        buf_free(&b);
    }
    return 0;
}

static void got_free(struct got *g)
{
    for (size_t i = 0; i < g->n; i++) {
        xfree(g->line[i]);
        xfree(g->uid[i]);
    }
    memset(g, 0, sizeof *g);
}

static int import_files(const char *fmt, const struct fmt_file *files, size_t n,
                        struct got *g, struct err *e)
{
    struct fmt_sink sink = {take_runs, NULL, g, NULL, NULL, NULL, 0};
    return fmt_parse(fmt, files, n, NULL, &sink, e);
}

/* Imports fixture `rel` under the name `name`. */
static int import(const char *fmt, const char *rel, const char *name, struct got *g,
                  struct err *e)
{
    size_t len = 0;
    char *data = data_file(rel, &len);
    struct fmt_file f = {name, data, len};
    int rc;
    if (data == NULL)
        return -2;
    rc = import_files(fmt, &f, 1, g, e);
    xfree(data);
    return rc;
}

static const char solver_kernels[] =
    "\nmain=1.875x1 {\"inclusive\": 12, \"inclusive_mean\": 11, \"inclusive_min\": 10, "
    "\"exclusive_max\": 2.25, \"exclusive_min\": 1.5, \"visits\": 1}"
    "\nmain/init=1.25x1 {\"inclusive\": 1.5, \"inclusive_mean\": 1.25, "
    "\"inclusive_min\": 1, \"exclusive_max\": 1.5, \"exclusive_min\": 1, \"visits\": 1}"
    "\nmain/solve=0.75x1 {\"inclusive\": 8, \"inclusive_mean\": 7.5, \"inclusive_min\": "
    "7, \"exclusive_max\": 1, \"exclusive_min\": 0.5, \"visits\": 1}"
    "\nmain/solve/halo=2.75x12 {\"inclusive\": 3.5, \"inclusive_mean\": 2.75, "
    "\"inclusive_min\": 2, \"exclusive_max\": 3.5, \"exclusive_min\": 2, \"visits\": 11}"
    "\nmain/solve/calc=4x10 {\"inclusive\": 4, \"inclusive_mean\": 4, \"inclusive_min\": "
    "4, \"exclusive_max\": 4, \"exclusive_min\": 4, \"visits\": 10}"
    "\nmain/halo=0.375x3 {\"inclusive\": 0.5, \"inclusive_mean\": 0.375, "
    "\"inclusive_min\": 0.25, \"exclusive_max\": 0.5, \"exclusive_min\": 0.25, "
    "\"visits\": 2.5}"
    "\ncreator=make.py\ncube_version=4.4";

static void test_solver(void)
{
    struct got g = {0};
    struct err e = {0};
    char want[4096];

    /* two ranks; inclusive time read in CubeLib's wide order, visits depth
     * first; exclusive = inclusive minus the children; mean over ranks */
    CHECK_INT(import("cube", "cube/solver.cubex", "solver.cubex", &g, &e), 0);
    CHECK_INT(g.n, 1);
    snprintf(want, sizeof want, "solver|np=2|rt=12|in:%s", solver_kernels);
    if (g.n == 1)
        CHECK_STR(g.line[0], want);
    got_free(&g);
    /* gzip anchor, big-endian index and data, ZCUBEX.DATA, "Id" attributes:
     * the same numbers */
    CHECK_INT(import("auto", "cube/solver_gz_big_z.cubex", "solver.cubex", &g, &e), 0);
    if (g.n == 1)
        CHECK_STR(g.line[0], want);
    got_free(&g);
    /* CubeLib 4.8 wrote wrong tar header checksums: read as pycubexr does */
    CHECK_INT(import("auto", "cube/solver_cube48.cubex", "solver.cubex", &g, &e), 0);
    if (g.n == 1)
        CHECK_STR(g.line[0], want);
    got_free(&g);
}

static void test_kinds(void)
{
    struct got g = {0};
    struct err e = {0};

    /* MINDOUBLE: the min; TAU_ATOMIC: count, min, max, mean; RATE: sum over
     * sum; INT32 and UINT8: means; HISTOGRAM(4): not read */
    CHECK_INT(import("cube", "cube/kinds.cubex", "kinds.cubex", &g, &e), 0);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  "kinds|np=1|rt=2|in:threads=2"
                  "\nmain=1x? {\"inclusive\": 2, \"inclusive_mean\": 2, "
                  "\"inclusive_min\": 2, \"exclusive_max\": 1.5, \"exclusive_min\": 0.5, "
                  "\"min_time\": 1, \"errs\": 0, \"flag\": 0.5, \"ctr\": 0}"
                  "\nmain/send=1x? {\"inclusive\": 1.5, \"inclusive_mean\": 1, "
                  "\"inclusive_min\": 0.5, \"exclusive_max\": 1.5, \"exclusive_min\": "
                  "0.5, \"min_time\": 0.25, \"msg.count\": 3, \"msg.min\": 8, "
                  "\"msg.max\": 64, \"msg.mean\": 29.333333333333332, \"rate\": 6, "
                  "\"errs\": -1, "
                  "\"flag\": 0, \"ctr\": 3.5}"
                  "\ncreator=make.py\ncube_version=4.4");
    got_free(&g);
    /* an EXCLUSIVE time metric in msec: inclusive from the subtree, seconds */
    CHECK_INT(import("cube", "cube/exclusive_time.cubex", "x.cubex", &g, &e), 0);
    if (g.n == 1)
        CHECK_STR(
            g.line[0],
            "x|np=1|rt=3.5|in:"
            "\nmain=1x? {\"inclusive\": 3.5, \"inclusive_mean\": 3.5, \"inclusive_min\": "
            "3.5, \"exclusive_max\": 1, \"exclusive_min\": 1}"
            "\nmain/a=2x? {\"inclusive\": 2, \"inclusive_mean\": 2, \"inclusive_min\": "
            "2, \"exclusive_max\": 2, \"exclusive_min\": 2}"
            "\nmain/b=0.5x? {\"inclusive\": 0.5, \"inclusive_mean\": 0.5, "
            "\"inclusive_min\": 0.5, \"exclusive_max\": 0.5, \"exclusive_min\": 0.5}"
            "\ncreator=make.py\ncube_version=4.4");
    got_free(&g);
}

static void test_nested_metrics(void)
{
    struct got g = {0};
    struct err e = {0};

    /* Scalasca nests metrics (time > execution); the parent's uom (usec)
     * comes after its child and still counts */
    CHECK_INT(import("cube", "cube/nested_metrics.cubex", "n.cubex", &g, &e), 0);
    if (g.n == 1)
        CHECK_STR(
            g.line[0],
            "n|np=1|rt=3|in:"
            "\nmain=2x? {\"inclusive\": 3, \"inclusive_mean\": 3, \"inclusive_min\": 3, "
            "\"exclusive_max\": 2, \"exclusive_min\": 2, \"execution\": 1}"
            "\nmain/work=1x? {\"inclusive\": 1, \"inclusive_mean\": 1, "
            "\"inclusive_min\": 1, \"exclusive_max\": 1, \"exclusive_min\": 1, "
            "\"execution\": 1}"
            "\ncreator=make.py\ncube_version=4.4");
    got_free(&g);
}

static void test_two_roots(void)
{
    struct got g = {0};
    struct err e = {0};

    /* two roots, rows missing from the sparse index (zeros): the run time
     * is the largest sum of the roots' inclusive times on one location
     * (5 + 2 on the first); the kernels add up to the mean, 5.5 */
    CHECK_INT(import("cube", "cube/two_roots.cubex", "t.cubex", &g, &e), 0);
    if (g.n == 1)
        CHECK_STR(
            g.line[0],
            "t|np=1|rt=7|in:threads=2"
            "\nmain=2x1 {\"inclusive\": 5, \"inclusive_mean\": 2.5, \"inclusive_min\": "
            "0, "
            "\"exclusive_max\": 4, \"exclusive_min\": 0, \"visits\": 0.5}"
            "\nmain/a=0x0 {\"inclusive\": 0, \"inclusive_mean\": 0, \"inclusive_min\": "
            "0, "
            "\"exclusive_max\": 0, \"exclusive_min\": 0, \"visits\": 0}"
            "\nmain/b=0.5x0 {\"inclusive\": 1, \"inclusive_mean\": 0.5, "
            "\"inclusive_min\": 0, \"exclusive_max\": 1, \"exclusive_min\": 0, "
            "\"visits\": 0}"
            "\n!$omp parallel=0.75x1 {\"inclusive\": 4, \"inclusive_mean\": 3, "
            "\"inclusive_min\": 2, \"exclusive_max\": 1, \"exclusive_min\": 0.5, "
            "\"visits\": 1}"
            "\n!$omp parallel/c=2.25x0 {\"inclusive\": 3, \"inclusive_mean\": 2.25, "
            "\"inclusive_min\": 1.5, \"exclusive_max\": 3, \"exclusive_min\": 1.5, "
            "\"visits\": 0}"
            "\ncreator=make.py\ncube_version=4.4");
    got_free(&g);
}

static void test_long_paths(void)
{
    struct got g = {0};
    struct err e = {0};

    /* 40 levels: names stay within 256 bytes, keeping the root and the
     * innermost calls */
    CHECK_INT(import("cube", "cube/deep.cubex", "deep.cubex", &g, &e), 0);
    if (g.n == 1) {
        const char *last = strrchr(g.line[0], '\n'), *k = strstr(g.line[0], "\nf");
        CHECK(strstr(g.line[0], "\nfunction_with_a_long_name_39/\xe2\x80\xa6/"
                                "function_with_a_long_name_07/") != NULL);
        (void)last;
        for (const char *p = strchr(g.line[0], '\n'); p; p = strchr(p + 1, '\n')) {
            const char *eq = strchr(p, '=');
            CHECK(eq && eq - p - 1 <= 256);
        }
        (void)k;
    }
    got_free(&g);
}

/* No metric named time (SPEC §16): a run without a runtime whose kernels
 * carry the metrics and have no time (never a made-up 0). */
static void test_no_time(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("cube", "cube/no_time.cubex", "d.cubex", &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0], "d|np=1|rt=none|in:\nmain=nonex1 {\"visits\": 1}"
                             "\ncreator=make.py\ncube_version=4.4");
    /* the id it had when such kernels were stored as 0 s (before migration
     * 14): the same file imported again after the upgrade stores nothing */
    if (g.n == 1)
        CHECK_STR(
            g.uid[0],
            "cube:5e0d7b5dfe54c28724212c43e793dd034af5d0e5d1b195e7845847139f5e2da6");
    got_free(&g);
}

static void test_refused(void)
{
    static const struct {
        const char *rel, *msg, *field;
    } cases[] = {
        {"cube/doctype.cubex",
         "d.cubex: anchor.xml has a DOCTYPE declaration, which a CUBE anchor has not",
         "anchor.xml"},
        {"cube/short_index.cubex",
         "d.cubex: metric time has a .data file but no .index file", "metrics"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct got g = {0};
        struct err e = {0};
        CHECK_INT(import("cube", cases[i].rel, "d.cubex", &g, &e), -1);
        CHECK_STR(e.message, cases[i].msg);
        CHECK_STR(e.field, cases[i].field);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK_INT(g.n, 0);
        got_free(&g);
    }
}

static void test_truncated(void)
{
    size_t len = 0;
    char *data = data_file("cube/solver.cubex", &len);
    struct got g = {0};
    struct err e = {0};
    struct fmt_file f = {"cut.cubex", data, len / 2};
    arena *a = arena_new();
    struct fmt_file *mem = NULL;
    size_t nmem = 0;

    CHECK(data != NULL && a != NULL);
    if (data == NULL || a == NULL)
        goto out;
    CHECK_INT(import_files("cube", &f, 1, &g, &e), -1);
    CHECK(strncmp(e.message, "cut.cubex: not a CUBE4 archive (tar: ", 37) == 0);
    CHECK(strstr(e.message, "truncated") != NULL);
    CHECK_INT(g.n, 0);
    /* a gzip-compressed archive: refused with what to do */
    memset(&e, 0, sizeof e);
    f.data = "\x1f\x8b\x08\0\0\0\0\0";
    f.len = 8;
    CHECK_INT(import_files("auto", &f, 1, &g, &e), -1);
    CHECK_STR(e.message,
              "cut.cubex: the archive is gzip-compressed: gunzip it (a .cubex is "
              "a plain tar archive)");
    f.data = data;
    /* the members on their own (a tar body through the API): a data file
     * eight bytes short names itself */
    memset(&e, 0, sizeof e);
    CHECK_INT(fmt_tar_read(data, len, a, &mem, &nmem, &e), 0);
    for (size_t i = 0; i < nmem; i++)
        if (strcmp(mem[i].name, "1.data") == 0)
            mem[i].len -= 8;
    CHECK_INT(import_files("auto", mem, nmem, &g, &e), -1);
    CHECK_STR(e.message, "1.data: holds 88 bytes of values, not 96 (truncated?)");
    CHECK_INT(g.n, 0);
    /* the anchor without any .index/.data file (a profile whose data files
     * were lost): no measurement, refused, never an empty run */
    memset(&e, 0, sizeof e);
    for (size_t i = 0; i < nmem; i++)
        if (strcmp(mem[i].name, "anchor.xml") == 0) {
            CHECK_INT(import_files("cube", &mem[i], 1, &g, &e), -1);
            CHECK_STR(e.message, "anchor.xml: no metric has data: the profile holds none "
                                 "of its metrics' .index and .data files");
            CHECK_STR(e.field, "metrics");
        }
    CHECK_INT(g.n, 0);
out:
    got_free(&g);
    arena_free(a);
    xfree(data);
}

/* Replaces the first `after` in the archive's anchor.xml by itself followed by
 * `insert`; the members are `mem`, the new anchor in `a`. */
static int splice_anchor(struct fmt_file *mem, size_t nmem, arena *a, const char *after,
                         const char *insert)
{
    for (size_t i = 0; i < nmem; i++) {
        const char *at;
        char *xml;
        size_t head;
        if (strcmp(mem[i].name, "anchor.xml") != 0)
            continue;
        xml = arena_printf(a, "%.*s", (int)mem[i].len, mem[i].data);
        at = strstr(xml, after);
        if (at == NULL)
            return -1;
        head = (size_t)(at - xml) + strlen(after);
        mem[i].data = arena_printf(a, "%.*s%s%s", (int)head, xml, insert, xml + head);
        mem[i].len = strlen(mem[i].data);
        return 0;
    }
    return -1;
}

/* A metric or call-tree node with another element between it and the one it
 * sits in (a <metric> inside a metric's <descr>, found by libFuzzer): refused
 * at the node; it read the array at index -1 when it ended before. */
static void test_stray_nesting(void)
{
    static const struct {
        const char *after, *insert, *field, *msg;
    } cases[] = {
        {"<uniq_name>visits</uniq_name>",
         "<descr><metrics><metric id=\"7\" "
         "type=\"EXCLUSIVE\"><uniq_name>stray</uniq_name>"
         "</metric></metrics></descr>",
         "metrics",
         "anchor.xml: metric 7 sits in another element of metric 0, not in the metric "
         "itself"},
        {"<cnode id=\"1\" calleeId=\"1\">",
         "<note><cnode id=\"6\" calleeId=\"4\"></cnode></note>", "cnodes",
         "anchor.xml: call-tree node 6 sits in another element of call-tree node 1, not "
         "in "
         "the node itself"},
    };
    size_t len = 0;
    char *data = data_file("cube/solver.cubex", &len);

    CHECK(data != NULL);
    for (size_t i = 0; data && i < sizeof cases / sizeof cases[0]; i++) {
        arena *a = arena_new();
        struct fmt_file *mem = NULL;
        size_t nmem = 0;
        struct got g = {0};
        struct err e = {0};
        CHECK_INT(fmt_tar_read(data, len, a, &mem, &nmem, &e), 0);
        CHECK_INT(splice_anchor(mem, nmem, a, cases[i].after, cases[i].insert), 0);
        CHECK_INT(import_files("cube", mem, nmem, &g, &e), -1);
        CHECK_STR(e.message, cases[i].msg);
        CHECK_STR(e.field, cases[i].field);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK_INT(g.n, 0);
        got_free(&g);
        arena_free(a);
    }
    xfree(data);
}

static void test_loose_and_study(void)
{
    size_t len = 0, len2 = 0;
    char *data = data_file("cube/solver.cubex", &len);
    char *other = data_file("cube/exclusive_time.cubex", &len2);
    struct got g = {0}, g2 = {0};
    struct err e = {0};
    arena *a = arena_new();
    struct fmt_file *mem = NULL;
    size_t nmem = 0;
    char want[4096];

    CHECK(data && other && a);
    if (!data || !other || !a)
        goto out;
    /* the members of the archive, as the API's tar body gives them */
    CHECK_INT(fmt_tar_read(data, len, a, &mem, &nmem, &e), 0);
    CHECK_INT(import_files("auto", mem, nmem, &g, &e), 0);
    snprintf(want, sizeof want, "profile|np=2|rt=12|in:%s", solver_kernels);
    if (g.n == 1)
        CHECK_STR(g.line[0], want);
    got_free(&g);
    /* Extra-P's layout: NAME.PARAMS.rN/profile.cubex; p matches nprocs */
    {
        struct fmt_file study[] = {{"sweep.p2.n10.r1/profile.cubex", data, len},
                                   {"sweep.p2.n20.r1/profile.cubex", data, len},
                                   {"sweep.p2.n20.r2/profile.cubex", other, len2},
                                   {"notes.txt", "not a profile", 13}};
        CHECK_INT(import_files("auto", study, 4, &g, &e), 0);
        CHECK_INT(g.n, 3);
        if (g.n == 3) {
            CHECK(strncmp(g.line[0], "sweep|np=2|rt=12|in:n=10\n", 25) == 0);
            CHECK(strncmp(g.line[1], "sweep|np=2|rt=12|in:n=20\n", 25) == 0);
            /* one process: p = 2 is not its nprocs, so it stays an input */
            CHECK(strncmp(g.line[2], "sweep|np=1|rt=3.5|in:p=2,n=20\n", 30) == 0);
        }
        /* Score-P's profile.cubex in its experiment directory */
        {
            struct got g3 = {0};
            struct fmt_file one = {"runs/scorep_bt-mz_sum/profile.cubex", data, len};
            CHECK_INT(import_files("auto", &one, 1, &g3, &e), 0);
            if (g3.n == 1)
                CHECK(strncmp(g3.line[0], "scorep_bt-mz_sum|np=2|", 22) == 0);
            got_free(&g3);
        }
        /* the same set again: the same uids */
        CHECK_INT(import_files("cube", study, 4, &g2, &e), 0);
        for (size_t i = 0; i < g.n && i < g2.n; i++)
            CHECK_STR(g.uid[i], g2.uid[i]);
    }
out:
    got_free(&g);
    got_free(&g2);
    arena_free(a);
    xfree(data);
    xfree(other);
}

static void test_extrap_experiment(void)
{
    struct got g = {0};
    struct err e = {0};
    size_t len = 0;
    char *data;

    CHECK_INT(
        import("auto", "extrap-experiment/solver.extra-p", "solver.extra-p", &g, &e), 0);
    CHECK_INT(g.n, 6);
    /* p is nprocs, n an input; main's time is exclusive of main->solve */
    if (g.n == 6)
        CHECK_STR(
            g.line[0],
            "solver|np=2|rt=10.1|in:n=10"
            "\nmain=2.5249999999999995x? {\"inclusive\": 10.1, \"time.median\": 10, "
            "\"time.min\": 9, \"time.max\": 12, \"time.std\": 0.5, "
            "\"time.repetitions\": 3, \"bytes\": 80.8, \"bytes.median\": 80, "
            "\"bytes.min\": 72, \"bytes.max\": 96, \"bytes.std\": 4, "
            "\"bytes.repetitions\": 3}"
            "\nmain/solve=7.575x? {\"inclusive\": 7.575, \"time.median\": 7.5, "
            "\"time.min\": 6.75, \"time.max\": 9, \"time.std\": 0.375, "
            "\"time.repetitions\": 3, \"bytes\": 60.6, \"bytes.median\": 60, "
            "\"bytes.min\": 54, \"bytes.max\": 72, \"bytes.std\": 3, "
            "\"bytes.repetitions\": 3}");
    got_free(&g);
    /* the metric runtime is the time; main->a->b lies inside main when
     * main->a is not measured */
    CHECK_INT(import("extrap-experiment", "extrap-experiment/runtime.extra-p",
                     "r.extra-p", &g, &e),
              0);
    CHECK_INT(g.n, 2);
    if (g.n == 2)
        CHECK_STR(g.line[1],
                  "r|np=1|rt=20|in:n=2"
                  "\nmain=12x? {\"inclusive\": 20, \"runtime.median\": 20, "
                  "\"runtime.min\": 20, \"runtime.max\": 20, \"runtime.std\": 0, "
                  "\"runtime.repetitions\": 1}"
                  "\nmain/a/b=8x? {\"inclusive\": 8, \"runtime.median\": 8, "
                  "\"runtime.min\": 8, \"runtime.max\": 8, \"runtime.std\": 0, "
                  "\"runtime.repetitions\": 1}");
    got_free(&g);
    /* repetitions kept in values/0.vals: one run per (point, repetition);
     * a masked entry (1e20) is no value; a repetition a call path lacks
     * leaves it out */
    CHECK_INT(import("auto", "extrap-experiment/values.extra-p", "v.extra-p", &g, &e), 0);
    CHECK_INT(g.n, 6);
    if (g.n == 6) {
        CHECK_STR(g.line[1], "v|np=1|rt=11|in:"
                             "\nmain=4x? {\"inclusive\": 11, \"bytes\": 20}"
                             "\nmain/work=7x? {\"inclusive\": 7}");
        CHECK_STR(g.line[5], "v|np=2|rt=24|in:"
                             "\nmain=24x? {\"inclusive\": 24, \"bytes\": 32}");
    }
    got_free(&g);
    /* a ZIP cut short */
    data = data_file("extrap-experiment/solver.extra-p", &len);
    if (data) {
        struct fmt_file f = {"cut.extra-p", data, len - 30};
        CHECK_INT(import_files("extrap-experiment", &f, 1, &g, &e), -1);
        CHECK(strncmp(e.message, "cut.extra-p: not a readable ZIP archive (", 41) == 0);
        CHECK_INT(g.n, 0);
        /* a ZIP without experiment.json */
        memset(&e, 0, sizeof e);
        f.data = "PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
        f.len = 22;
        CHECK_INT(import_files("extrap-experiment", &f, 1, &g, &e), -1);
        CHECK_STR(e.message, "cut.extra-p: the archive holds no experiment.json (not an "
                             "Extra-P experiment?)");
    }
    got_free(&g);
    xfree(data);
}

/* Every allocation failing in turn: a clean error or success, never a
 * crash; the profile and the experiment both. */
static void test_fault_injection(void)
{
    static const char *const rel[] = {"cube/solver_gz_big_z.cubex", "cube/kinds.cubex",
                                      "extrap-experiment/solver.extra-p",
                                      "extrap-experiment/values.extra-p"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        size_t len = 0;
        char *data = data_file(rel[i], &len);
        struct fmt_file f = {strrchr(rel[i], '/') + 1, data, len};
        long fails = 0;
        CHECK(data != NULL);
        for (long nth = 1; data && nth < 100000; nth++) {
            struct got g = {0};
            struct err e = {0};
            int rc;
            xalloc_fail_at(nth);
            rc = import_files("auto", &f, 1, &g, &e);
            xalloc_fail_at(0);
            got_free(&g);
            if (rc == 0)
                break;
            fails++;
            CHECK(e.status != 0 && e.message[0] != '\0');
        }
        CHECK(fails > 10);
        xfree(data);
    }
}

int main(void)
{
    xalloc_json(); /* fault injection reaches Jansson too */
    RUN(test_solver);
    RUN(test_kinds);
    RUN(test_nested_metrics);
    RUN(test_two_roots);
    RUN(test_long_paths);
    RUN(test_no_time);
    RUN(test_refused);
    RUN(test_truncated);
    RUN(test_stray_nesting);
    RUN(test_loose_and_study);
    RUN(test_extrap_experiment);
    RUN(test_fault_injection);
    return harness_report();
}
