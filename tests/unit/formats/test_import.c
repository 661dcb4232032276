/* Unit tests for formats/formats (the table, detection, tar) and every
 * importer: exact records from the fixtures in tests/data/import/, the
 * upload rules (stable uids, all or nothing, exact messages for truncated
 * and malformed files). A sink writes each run as one line of text so a
 * whole record is checked in one comparison. */
#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "formats/formats.h"
#include "tests/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREC 64

struct got {
    char *line[MAXREC];
    char *uid[MAXREC];
    size_t n;
    size_t calls; /* sink calls */
    char *system;
};

static void kvs(struct buf *b, const char *tag, const struct rec_kv *kv, size_t n)
{
    buf_printf(b, "|%s:", tag);
    for (size_t i = 0; i < n; i++) {
        buf_printf(b, "%s%s=", i ? "," : "", kv[i].name);
        buf_num(b, kv[i].value);
    }
}

static int take_runs(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    struct got *g = ctx;
    (void)err;
    g->calls++;
    for (size_t i = 0; i < n && g->n < MAXREC; i++) {
        struct buf b;
        buf_init(&b, 1 << 20);
        buf_printf(&b, "%s|%s|%s|np=%lld|rt=", r[i].application, r[i].executable,
                   r[i].system, r[i].nprocs);
        buf_num(&b, r[i].runtime);
        kvs(&b, "in", r[i].inputs, r[i].ninputs);
        kvs(&b, "m", r[i].metrics, r[i].nmetrics);
        buf_puts(&b, "|k:");
        for (size_t k = 0; k < r[i].nkernels; k++) {
            buf_printf(&b, "%s%s=", k ? ";" : "", r[i].kernels[k].name);
            buf_num(&b, r[i].kernels[k].time);
            if (r[i].kernels[k].calls)
                buf_printf(&b, "x%lld", r[i].kernels[k].calls);
            if (r[i].kernels[k].metrics_json)
                buf_puts(&b, r[i].kernels[k].metrics_json);
        }
        if (r[i].commit || r[i].started_at)
            buf_printf(&b, "|c=%s|t=%s", r[i].commit ? r[i].commit : "",
                       r[i].started_at ? r[i].started_at : "");
        for (size_t t = 0; t < r[i].ntags; t++)
            buf_printf(&b, "|%s=%s", r[i].tags[t].key, r[i].tags[t].value);
        g->line[g->n] = xstrdup(buf_str(&b));
        g->uid[g->n++] = xstrdup(r[i].uid ? r[i].uid : "(none)");
        buf_free(&b);
    }
    return 0;
}

static int take_benchmarks(void *ctx, const char *system, const struct bench_record *r,
                           size_t n, struct err *err)
{
    struct got *g = ctx;
    (void)err;
    g->calls++;
    xfree(g->system);
    g->system = xstrdup(system);
    for (size_t i = 0; i < n && g->n < MAXREC; i++) {
        struct buf b;
        buf_init(&b, 4096);
        buf_printf(&b, "%s %s %s ", r[i].name, r[i].args_json, r[i].stat);
        buf_num(&b, r[i].time);
        g->line[g->n] = xstrdup(buf_str(&b));
        g->uid[g->n++] = xstrdup("");
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
    xfree(g->system);
    memset(g, 0, sizeof *g);
}

static char *slurp(const char *rel, size_t *len)
{
    char path[1024];
    const char *root = getenv("PROPHECY_TEST_DATA");
    FILE *f;
    char *data;
    long n;

    snprintf(path, sizeof path, "%s/import/%s", root ? root : "tests/data", rel);
    f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = xmalloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        xfree(data);
        data = NULL;
    }
    fclose(f);
    if (data)
        data[n] = '\0';
    *len = (size_t)n;
    return data;
}

/* Imports fixture `rel` (named by its base name) with format `fmt`. */
static int import(const char *fmt, const char *rel, const struct fmt_options *opt,
                  struct got *g, struct err *e)
{
    struct fmt_sink sink = {take_runs, take_benchmarks, g, NULL};
    struct fmt_file f;
    size_t len = 0;
    char *data = slurp(rel, &len);
    const char *slash = strrchr(rel, '/');
    int rc;

    f.name = slash ? slash + 1 : rel;
    f.data = data;
    f.len = len;
    if (data == NULL)
        return -2;
    rc = fmt_parse(fmt, &f, 1, opt, &sink, e);
    xfree(data);
    return rc;
}

static void test_table(void)
{
    size_t n;
    const struct fmt_format *t = fmt_table(&n);
    static const char *const names[] = {
        "extrap-text", "extrap-json", "extrap-jsonl", "caliper-json", "tau",  "osu",
        "lnt-json",    "bmf",         "gbench",       "otf2",         "json", "csv"};
    CHECK_INT(n, 15); /* and SPEC §16's chrome-trace, hpctoolkit, nsys-sqlite */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const struct fmt_format *f = fmt_find(names[i]);
        CHECK(f != NULL);
        if (f) {
            CHECK(f->media_type && f->summary && f->sniff && f->parse);
            CHECK(f >= t && f < t + n);
        }
    }
    CHECK(fmt_find("nope") == NULL);
    CHECK_INT(fmt_find("tau")->directory, 1);
    CHECK_INT(fmt_find("osu")->directory, 0);
}

static void test_unknown_format(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("excel", "csv/runs.csv", NULL, &g, &e), -1);
    CHECK_STR(e.message,
              "unknown format excel (one of otf2, tau, extrap-text, nsys-sqlite, "
              "hpctoolkit, osu, chrome-trace, gbench, lnt-json, caliper-json, "
              "extrap-json, extrap-jsonl, json, bmf, csv)");
    CHECK_INT(e.status, 422);
    CHECK_INT(g.n, 0);
}

static void test_detect(void)
{
    static const struct {
        const char *rel, *fmt;
    } cases[] = {
        {"extrap-text/lulesh.txt", "extrap-text"},
        {"extrap-json/input.json", "extrap-json"},
        {"extrap-json/old.json", "extrap-json"},
        {"extrap-jsonl/input.jsonl", "extrap-jsonl"},
        {"caliper-json/query.json", "caliper-json"},
        {"caliper-json/split.json", "caliper-json"},
        {"tau/run/profile.0.0.0", "tau"},
        {"osu/latency.txt", "osu"},
        {"osu/bcast.txt", "osu"},
        {"lnt-json/report.json", "lnt-json"},
        {"bmf/results.json", "bmf"},
        {"gbench/out.json", "gbench"},
        {"json/runs.json", "json"},
        {"csv/runs.csv", "csv"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        char *data = slurp(cases[i].rel, &len);
        struct fmt_file f = {strrchr(cases[i].rel, '/') + 1, data, len};
        const struct fmt_format *fmt;
        if (strncmp(cases[i].rel, "tau/", 4) == 0)
            f.name = cases[i].rel; /* TAU knows its files by name */
        fmt = fmt_detect(&f, 1, NULL);
        CHECK(fmt != NULL);
        if (fmt && strcmp(fmt->name, cases[i].fmt) != 0)
            fprintf(stderr, "%s detected as %s\n", cases[i].rel, fmt->name);
        CHECK(fmt && strcmp(fmt->name, cases[i].fmt) == 0);
        xfree(data);
    }
    {
        struct fmt_file f = {"notes.txt", "hello world\n", 12};
        struct err e = {0};
        CHECK(fmt_detect(&f, 1, &e) == NULL);
        CHECK_STR(e.code, "unknown_format");
    }
}

static void test_extrap_text(void)
{
    struct got g = {0}, again = {0};
    struct err e = {0};
    CHECK_INT(import("auto", "extrap-text/lulesh.txt", NULL, &g, &e), 0);
    CHECK_INT(g.n, 6);
    CHECK_STR(g.line[0],
              "lulesh|lulesh|unknown|np=8|rt=2.5|in:size=10|m:|k:main=1.5{\"visits\": "
              "10};main->solve=1");
    CHECK_STR(g.line[1],
              "lulesh|lulesh|unknown|np=8|rt=2.8|in:size=10|m:|k:main=1.7{\"visits\": "
              "10};main->solve=1.1");
    CHECK_STR(g.line[4],
              "lulesh|lulesh|unknown|np=8|rt=5.5|in:size=20|m:|k:main=3{\"visits\": "
              "30};main->solve=2.5");
    CHECK_INT(strncmp(g.uid[0], "extrap-text:", 12), 0);
    CHECK_INT(strlen(g.uid[0]), 12 + 64);
    for (size_t i = 0; i < g.n; i++)
        for (size_t j = i + 1; j < g.n; j++)
            CHECK(strcmp(g.uid[i], g.uid[j]) != 0);
    /* idempotent: the same file gives the same ids */
    CHECK_INT(import("extrap-text", "extrap-text/lulesh.txt", NULL, &again, &e), 0);
    CHECK_INT(again.n, g.n);
    for (size_t i = 0; i < g.n && i < again.n; i++)
        CHECK_STR(again.uid[i], g.uid[i]);
    got_free(&g);
    got_free(&again);
}

static void test_extrap_text_options(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_options o = {"lulesh2", "lulesh2.x", "cluster-a", 0};
    CHECK_INT(import("extrap-text", "extrap-text/one.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[2], "lulesh2|lulesh2.x|cluster-a|np=1|rt=2|in:x=4|m:|k:reg=2");
    got_free(&g);
}

static void test_extrap_text_errors(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("extrap-text", "extrap-text/truncated.txt", NULL, &g, &e), -1);
    CHECK_STR(e.message,
              "truncated.txt:5: the file ends after 2 DATA lines for 3 points");
    CHECK_STR(e.field, "truncated.txt:5");
    CHECK_INT(g.n, 0);
    err_clear(&e);
    CHECK_INT(import("extrap-text", "extrap-text/malformed.txt", NULL, &g, &e), -1);
    CHECK_STR(e.message, "malformed.txt:5: value \"one\" is not a number");
    CHECK_INT(g.n, 0);
    got_free(&g);
}

static void test_extrap_json(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("extrap-json", "extrap-json/input.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[0],
              "input|input|unknown|np=2|rt=0.5|in:n=100|m:|k:compute=0.5{\"flops\": "
              "1000}");
    CHECK_STR(g.line[3],
              "input|input|unknown|np=4|rt=0.35|in:n=100|m:|k:compute=0.35{\"flops\": "
              "1000}");
    got_free(&g);
    CHECK_INT(import("extrap-json", "extrap-json/old.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0], "old|old|unknown|np=2|rt=4|in:|m:|k:work=4");
    CHECK_STR(g.line[1], "old|old|unknown|np=4|rt=2.5|in:|m:|k:work=2.5");
    got_free(&g);
    CHECK_INT(import("extrap-json", "extrap-json/truncated.json", NULL, &g, &e), -1);
    CHECK_STR(e.message, "truncated.json:1: column 83: ']' expected near end of file");
    CHECK_INT(g.n, 0);
}

static void test_extrap_jsonl(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("extrap-jsonl", "extrap-jsonl/input.jsonl", NULL, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[0],
              "input|input|unknown|np=4|rt=2.5|in:N=1000|m:|k:main=2;main->io=0.5");
    CHECK_STR(g.line[1],
              "input|input|unknown|np=4|rt=2.75|in:N=1000|m:|k:main=2.5;main->io=0.25");
    CHECK_STR(g.line[2], "input|input|unknown|np=8|rt=1.25|in:N=1000|m:|k:main=1.25");
    got_free(&g);
    CHECK_INT(import("extrap-jsonl", "extrap-jsonl/truncated.jsonl", NULL, &g, &e), -1);
    CHECK_INT(strncmp(e.message, "truncated.jsonl:3: column ", 26), 0);
    CHECK_STR(e.field, "truncated.jsonl:3");
    CHECK_INT(g.n, 0);
    err_clear(&e);
    CHECK_INT(import("extrap-jsonl", "extrap-jsonl/malformed.jsonl", NULL, &g, &e), -1);
    CHECK_STR(e.message, "malformed.jsonl:2: params.x is missing or not a number");
    CHECK_INT(g.n, 0);
}

/* A long JSON-lines file goes to the sink in batches, not in one piece. */
static void test_extrap_jsonl_batches(void)
{
    struct buf b;
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL};
    struct fmt_file f;
    buf_init(&b, 1 << 24);
    for (int i = 1; i <= 600; i++)
        buf_printf(&b,
                   "{\"params\": {\"p\": %d}, \"callpath\": \"k\", \"value\": %d.5}\n", i,
                   i);
    f = (struct fmt_file){"big.jsonl", b.data, b.len};
    CHECK_INT(fmt_parse("extrap-jsonl", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.calls, 3); /* 256 + 256 + 88 */
    CHECK_INT(g.n, MAXREC);
    got_free(&g);
    buf_free(&b);
}

static void test_caliper(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("caliper-json", "caliper-json/query.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "query|query|unknown|np=1|rt=3|in:|m:|k:main=3{\"sum#time.duration\": "
              "0.5, \"count\": 1};main/solve=2{\"sum#time.duration\": 2, \"count\": "
              "10};main/io=0.5{\"sum#time.duration\": 0.5, \"count\": 2}");
    got_free(&g);
    CHECK_INT(import("caliper-json", "caliper-json/split.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "split|split|unknown|np=16|rt=3|in:|m:|k:main=3{\"time\": "
                         "0.5};main/solve=2{\"time\": 2};main/io=0.5{\"time\": 0.5}");
    got_free(&g);
    /* json(object): globals give nprocs; per-rank records keep the largest */
    CHECK_INT(import("auto", "caliper-json/object.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "object|object|unknown|np=2|rt=2.5|in:|m:|k:main=2.5");
    got_free(&g);
    CHECK_INT(import("caliper-json", "caliper-json/truncated.json", NULL, &g, &e), -1);
    CHECK_INT(strncmp(e.message, "truncated.json:3: column ", 25), 0);
    CHECK_INT(g.n, 0);
}

static struct fmt_file *tau_files(size_t *n, char **a, char **b)
{
    static struct fmt_file f[2];
    size_t la, lb;
    *a = slurp("tau/run/profile.0.0.0", &la);
    *b = slurp("tau/run/profile.1.0.0", &lb);
    f[0] = (struct fmt_file){"run/profile.0.0.0", *a, la};
    f[1] = (struct fmt_file){"run/profile.1.0.0", *b, lb};
    *n = 2;
    return f;
}

static const char tau_expected[] =
    "app|app|unknown|np=2|rt=5|in:|m:|k:.TAU application=5x1{\"mean\": 4.5, \"min\": 4, "
    "\"exclusive\": 0.001};int main(int, char **) C=4.999x1{\"mean\": "
    "4.499, \"min\": 3.9989999999999997, \"exclusive\": "
    "0.5};MPI_Allreduce()=1.5x12{\"mean\": 1, \"min\": 0.5, \"exclusive\": 1.5}";

static void test_tau(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL};
    struct fmt_options o = {"app", NULL, NULL, 0};
    char *a, *b;
    size_t n;
    struct fmt_file *f = tau_files(&n, &a, &b);
    CHECK_INT(fmt_parse("auto", f, n, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], tau_expected);
    CHECK_STR(g.uid[0], g.uid[0]);
    got_free(&g);
    xfree(a);
    xfree(b);
    {
        size_t len;
        char *d = slurp("tau/bad/profile.0.0.0", &len);
        struct fmt_file bad = {"bad/profile.0.0.0", d, len};
        CHECK_INT(fmt_parse("tau", &bad, 1, &o, &sink, &e), -1);
        CHECK_STR(e.message,
                  "bad/profile.0.0.0:5: the profile ends after 2 of 3 functions "
                  "(truncated?)");
        CHECK_INT(g.n, 0);
        xfree(d);
    }
}

static void test_tar(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL};
    struct fmt_options o = {"app", NULL, NULL, 0};
    struct fmt_file *files;
    size_t n, len;
    char *tar = slurp("tau/run.tar", &len);
    arena *a = arena_new();
    CHECK_INT(fmt_tar_read(tar, len, a, &files, &n, &e), 0);
    CHECK_INT(n, 2);
    CHECK_STR(files[0].name, "profile.0.0.0");
    CHECK_STR(files[1].name, "profile.1.0.0");
    CHECK_INT(fmt_parse(NULL, files, n, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], tau_expected);
    got_free(&g);
    xfree(tar);
    tar = slurp("tau/truncated.tar", &len);
    CHECK_INT(fmt_tar_read(tar, len, a, &files, &n, &e), -1);
    CHECK_STR(e.message, "tar: member 1 is truncated (355 bytes announced)");
    err_clear(&e);
    CHECK_INT(fmt_tar_read("not a tar archive", 17, a, &files, &n, &e), -1);
    CHECK_STR(e.message, "tar: the archive is truncated at byte 0 (member 1)");
    xfree(tar);
    arena_free(a);
}

static void test_osu(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_options o = {NULL, NULL, "cluster-b", 8};
    CHECK_INT(import("osu", "osu/latency.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.system, "cluster-b");
    CHECK_STR(g.line[0], "MPISR {\"L\":1,\"P\":2} mean 1.5e-06");
    CHECK_STR(g.line[1], "MPISR {\"L\":1024,\"P\":2} mean 3.25e-06");
    got_free(&g);
    CHECK_INT(import("auto", "osu/bcast.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 6);
    CHECK_STR(g.line[0], "MPIBC {\"L\":1,\"P\":8} mean 2e-06");
    CHECK_STR(g.line[1], "MPIBC {\"L\":1,\"P\":8} min 1e-06");
    CHECK_STR(g.line[5], "MPIBC {\"L\":4096,\"P\":8} max 1.2e-05");
    got_free(&g);
    CHECK_INT(import("osu", "osu/bw.txt", NULL, &g, &e), 0);
    CHECK_STR(g.system, "unknown");
    CHECK_STR(g.line[0], "MPIBW {\"L\":1,\"P\":2} mean 5e-07");
    CHECK_STR(g.line[1], "MPIBW {\"L\":1000000,\"P\":2} mean 0.001");
    got_free(&g);
    CHECK_INT(import("osu", "osu/truncated.txt", &o, &g, &e), -1);
    CHECK_STR(e.message, "truncated.txt:3: 2 values for 4 columns (truncated?)");
    CHECK_INT(g.n, 0);
}

static void test_lnt(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("lnt-json", "lnt-json/report.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[0],
              "report|SingleSource/Benchmarks/Misc/himenobmtxpa|buildbot-x86|np=1|"
              "rt=0.5|in:|m:compile_time=1.25,code_size=4096|k:|c=a1b2c3d|t=2026-11-"
              "20T10:00:00|tag=nts");
    CHECK_STR(g.line[1],
              "report|SingleSource/Benchmarks/Misc/himenobmtxpa|buildbot-x86|np=1|"
              "rt=0.52|in:|m:compile_time=1.25,code_size=4096|k:|c="
              "a1b2c3d|t=2026-11-20T10:00:00|tag=nts");
    CHECK_STR(g.line[2],
              "report|SingleSource/Benchmarks/Misc/oourafft|buildbot-x86|np=1|rt=0.75|"
              "in:|m:|k:|c=a1b2c3d|t=2026-11-20T10:00:00|tag=nts");
    got_free(&g);
    CHECK_INT(import("lnt-json", "lnt-json/v1.json", NULL, &g, &e), -1);
    CHECK_STR(e.message,
              "v1.json: LNT report format version 1 is not read; write version 2 "
              "(lnt.testing.Report(..., report_version=2))");
}

static void test_bmf(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("bmf", "bmf/results.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0],
              "results|bench_sort/1000|unknown|np=1|rt=1.5e-06|in:|m:latency=1.5e-06,"
              "latency_lower=1.4000000000000001e-06,latency_upper=1.6000000000000001e-06,"
              "throughput="
              "666666|k:");
    CHECK_STR(g.line[1], "results|build|unknown|np=1|rt=42.5|in:|m:build-time=42.5|k:");
    got_free(&g);
    CHECK_INT(import("bmf", "bmf/malformed.json", NULL, &g, &e), -1);
    CHECK_STR(e.message, "malformed.json: benchmark bench_a has neither a latency nor a "
                         "build-time measure");
    CHECK_INT(g.n, 0);
}

static void test_gbench(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("gbench", "gbench/out.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[0],
              "bench_set|BM_SetInsert|bench-host|np=1|rt=2.5e-06|in:arg1=1024,arg2=8,"
              "threads=1|m:iterations=1000,cpu_time=2.4000000000000003e-06,items_per_"
              "second=400000|k:|c=deadbeef|t=2026-11-21T09:15:00+01:00|library_build_"
              "type=release");
    CHECK_STR(g.line[2],
              "bench_set|BM_Copy|bench-host|np=1|rt=0.0015|in:size=64,threads=4|m:"
              "iterations=50,cpu_time=0.00125,bytes_per_second=1000000000|k:|c="
              "deadbeef|t=2026-11-21T09:15:00+01:00|library_build_type=release");
    got_free(&g);
}

static void test_rundoc_rows(void)
{
    struct got g = {0}, again = {0};
    struct err e = {0};
    CHECK_INT(import("auto", "json/runs.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "app|app.x|sys|np=4|rt=1.5|in:N=100|m:|k:");
    CHECK_INT(strncmp(g.uid[0], "json:", 5), 0);
    CHECK_INT(import("auto", "csv/runs.csv", NULL, &again, &e), 0);
    CHECK_INT(again.n, 1);
    CHECK_STR(again.line[0], "app|app.x|sys|np=4|rt=1.5|in:N=100|m:|k:");
    got_free(&g);
    got_free(&again);
}

/* A sink that refuses stops the import with its error. */
static int refuse(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    (void)ctx;
    (void)r;
    (void)n;
    return err_set(err, 503, "busy", NULL, "the store is busy");
}

static void test_sink_error(void)
{
    struct fmt_sink sink = {refuse, NULL, NULL, NULL};
    struct err e = {0};
    struct fmt_file f = {"x.txt", "PARAMETER x\nPOINTS 1\nREGION r\nDATA 1\n", 36};
    CHECK_INT(fmt_parse("extrap-text", &f, 1, NULL, &sink, &e), -1);
    CHECK_INT(e.status, 503);
    CHECK_STR(e.message, "the store is busy");
    err_clear(&e);
    sink.runs = NULL;
    CHECK_INT(fmt_parse("extrap-text", &f, 1, NULL, &sink, &e), -1);
    CHECK_STR(e.message,
              "x.txt: extrap-text holds runs, which this import does not take");
}

/* A real trace written by Debian's OTF2 library (tests/data/import/otf2/
 * make_trace.c.txt): two ranks, main > compute, MPI_Barrier, 1000 ticks/s. */
static void test_otf2(void)
{
    static const char *const names[] = {"trace/traces.otf2",  "trace/traces.def",
                                        "trace/traces/0.def", "trace/traces/0.evt",
                                        "trace/traces/1.def", "trace/traces/1.evt"};
    struct fmt_file f[6];
    char *data[6];
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL};
    int rc;

    for (size_t i = 0; i < 6; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "otf2/%s", names[i]);
        data[i] = slurp(rel, &f[i].len);
        f[i].name = names[i];
        f[i].data = data[i];
    }
    CHECK(fmt_detect(f, 6, NULL) == fmt_find("otf2"));
    rc = fmt_parse("auto", f, 6, NULL, &sink, &e);
#ifdef PROPHECY_HAVE_OTF2
    CHECK_INT(rc, 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "traces|traces|unknown|np=2|rt=1.2|in:|m:|k:main=1.2x1{\"mean\": 1.1, "
              "\"min\": 1};compute=0.75x2{\"mean\": 0.65, \"min\": "
              "0.55};MPI_Barrier=0.3x1{\"mean\": 0.3, \"min\": 0.3}");
    /* a trace without its event files is refused */
    got_free(&g);
    CHECK_INT(fmt_parse("otf2", f, 2, NULL, &sink, &e), -1);
    CHECK_STR(e.message, "trace/traces.otf2: the events cannot be read");
    CHECK_INT(g.n, 0);
    /* An anchor file whose magic is damaged: the OTF2 library's open fails
     * and leaks what it had allocated (LeakSanitizer saw it in
     * fuzz_import_otf2); the read is tried in a child process first, so
     * nothing of it reaches this one (the sanitized run checks that). */
    {
        char *anchor = xmalloc(f[0].len);
        memcpy(anchor, f[0].data, f[0].len);
        anchor[2] ^= 0x55; /* "OTF2" -> garbage */
        f[0].data = anchor;
        err_clear(&e);
        CHECK_INT(fmt_parse("otf2", f, 6, NULL, &sink, &e), -1);
        CHECK_INT(e.status, 422);
        CHECK_STR(e.message, "trace/traces.otf2: the OTF2 library cannot open the trace");
        CHECK_INT(g.n, 0);
        f[0].data = data[0];
        xfree(anchor);
    }
#else
    CHECK_INT(rc, -1);
#endif
    got_free(&g);
    for (size_t i = 0; i < 6; i++)
        xfree(data[i]);
}

/* Malformed inputs of the JSON formats: each refused with the field at fault,
 * and nothing handed to the sink. */
static void test_malformed_json_formats(void)
{
    static const struct {
        const char *fmt, *text, *message;
    } cases[] = {
        {"caliper-json", "[{\"path\": \"main\", \"count\": 3}]",
         "x.json: no record holds a time column (such as sum#time.duration)"},
        {"caliper-json",
         "{\"nodes\": [{\"label\": \"a\", \"parent\": 0}], \"columns\": "
         "[\"path\", \"time\"], \"data\": []}",
         "x.json: nodes[0] needs a label and an earlier parent"},
        {"gbench",
         "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_A\", "
         "\"run_type\": \"iteration\", \"error_occurred\": true, "
         "\"error_message\": \"boom\"}]}",
         "x.json: benchmarks[0] (BM_A) reported an error: boom"},
        {"gbench",
         "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_A\", "
         "\"real_time\": 1, \"time_unit\": \"fortnights\"}]}",
         "x.json: benchmarks[0] has an unknown time_unit"},
        {"lnt-json",
         "{\"format_version\": \"3\", \"machine\": {}, \"run\": {}, "
         "\"tests\": []}",
         "x.json: format_version must be \"2\""},
        {"lnt-json",
         "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, "
         "\"run\": {}, \"tests\": [{\"name\": \"t\", \"code_size\": 1}]}",
         "x.json: tests[0] (t) has neither execution_time nor compile_time"},
        {"extrap-json",
         "{\"parameters\": [\"p\"], \"measurements\": {\"a\": {\"time\": "
         "[{\"point\": [1, 2], \"values\": [1]}]}}}",
         "x.json: measurements.a.time[0].point must hold 1 coordinates"},
        {"extrap-json",
         "{\"parameters\": [\"p\"], \"measurements\": {\"a\": {\"visits\": "
         "[{\"point\": [1], \"values\": [1]}]}}}",
         "x.json: no metric is named time: a run needs kernel times (in seconds)"},
        {"extrap-json",
         "{\"parameters\": [\"p\"], \"measurements\": {\"a\": {\"time\": "
         "[{\"point\": [0.5], \"values\": [1]}]}}}",
         "x.json: parameter p is the process count and must be a positive integer"},
        {"bmf", "{\"b\": {\"latency\": {\"value\": \"fast\"}}}",
         "x.json: b.latency.value must be a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct got g = {0};
        struct err e = {0};
        struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL};
        struct fmt_file f = {"x.json", cases[i].text, strlen(cases[i].text)};
        CHECK_INT(fmt_parse(cases[i].fmt, &f, 1, NULL, &sink, &e), -1);
        CHECK_STR(e.message, cases[i].message);
        CHECK_INT(e.status, 422);
        CHECK_INT(g.n, 0);
    }
}

/* A tar whose header checksum is wrong, and one with a symbolic link. */
static void test_tar_malformed(void)
{
    char block[1536];
    struct fmt_file *files;
    size_t n, len;
    struct err e = {0};
    arena *a = arena_new();
    char *tar = slurp("tau/run.tar", &len);
    memcpy(block, tar, sizeof block);
    block[0] ^= 1; /* the name changes, the checksum does not */
    CHECK_INT(fmt_tar_read(block, sizeof block, a, &files, &n, &e), -1);
    CHECK_STR(e.message, "tar: member 1 has a bad header checksum (not a tar archive?)");
    err_clear(&e);
    memcpy(block, tar, sizeof block);
    block[156] = '2'; /* a symbolic link: fix the checksum */
    {
        unsigned sum = 0;
        memset(block + 148, ' ', 8);
        for (int i = 0; i < 512; i++)
            sum += (unsigned char)block[i];
        snprintf(block + 148, 8, "%06o", sum);
    }
    CHECK_INT(fmt_tar_read(block, sizeof block, a, &files, &n, &e), -1);
    CHECK_STR(e.message,
              "tar: member profile.0.0.0 is not a regular file or directory (type 2)");
    xfree(tar);
    arena_free(a);
}

/* "auto" over several files of different single-file formats. */
static void test_auto_several(void)
{
    size_t l1, l2;
    char *a = slurp("extrap-text/one.txt", &l1), *b = slurp("csv/runs.csv", &l2);
    struct fmt_file f[2] = {{"one.txt", a, l1}, {"runs.csv", b, l2}};
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL};
    CHECK_INT(fmt_parse("auto", f, 2, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[3], "app|app.x|sys|np=4|rt=1.5|in:N=100|m:|k:");
    got_free(&g);
    xfree(a);
    xfree(b);
}

int main(void)
{
    RUN(test_table);
    RUN(test_unknown_format);
    RUN(test_detect);
    RUN(test_extrap_text);
    RUN(test_extrap_text_options);
    RUN(test_extrap_text_errors);
    RUN(test_extrap_json);
    RUN(test_extrap_jsonl);
    RUN(test_extrap_jsonl_batches);
    RUN(test_caliper);
    RUN(test_tau);
    RUN(test_tar);
    RUN(test_osu);
    RUN(test_lnt);
    RUN(test_bmf);
    RUN(test_gbench);
    RUN(test_rundoc_rows);
    RUN(test_sink_error);
    RUN(test_otf2);
    RUN(test_malformed_json_formats);
    RUN(test_tar_malformed);
    RUN(test_auto_several);
    return harness_report();
}
