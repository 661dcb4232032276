/* Unit tests for core/import: fmt_parse's batches through the one ingest
 * path in one transaction. Every batch reaches the stored hook; a failure
 * after several batches stores none of them; the same file twice stores
 * nothing new; OSU benchmarks need a system and are skipped when identical;
 * paths and directories load sorted and bounded; and under fault injection
 * every allocation failing in turn gives a clean error with nothing stored. */
#include "common/xalloc.h"
#include "common/xalloc_json.h"
#include "core/import.h"
#include "core/ingest.h"
#include "db/catalog.h"
#include "db/runs.h"
#include "tests/data_file.h"
#include "tests/harness.h"
#include "tests/gzip_of.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static char dir[] = "/tmp/prophecy-importtest-XXXXXX";

static const char *path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static long long count_runs(db *d)
{
    struct db_run_filter f = {0};
    struct db_run_row *rows;
    struct err e = {0};
    arena *a = arena_new();
    long long total = 0;
    int n;
    f.limit = 1000;
    do {
        n = db_runs_list(d, &f, a, &rows, &e);
        if (n > 0)
            f.after = rows[n - 1].id;
        total += n > 0 ? n : 0;
    } while (n == 1000);
    arena_free(a);
    return total;
}

static int stored_calls;
static size_t stored_runs;

static int on_stored(db *d, struct ingest *in, void *arg, struct err *err)
{
    (void)d, (void)arg, (void)err;
    stored_calls++;
    stored_runs += in->n;
    return 0;
}

/* An Extra-P JSON-lines text of n points (one repetition each), the last
 * line broken when `broken`. */
static char *jsonl(int n, int broken, size_t *len)
{
    size_t cap = (size_t)n * 100 + 200, used = 0;
    char *s = xmalloc(cap);
    for (int i = 1; i <= n; i++)
        used += (size_t)snprintf(s + used, cap - used,
                                 "{\"params\": {\"p\": %d}, \"callpath\": \"main\", "
                                 "\"metric\": \"time\", \"value\": %g}\n",
                                 i, 1.0 + i);
    if (broken)
        used += (size_t)snprintf(s + used, cap - used,
                                 "{\"params\": {\"p\": 1}, \"value\"\n");
    *len = used;
    return s;
}

static void test_batches_in_one_transaction(void)
{
    struct ingest_hooks h = {on_stored, NULL, NULL, NULL, NULL};
    struct fmt_options opt = {"lulesh", NULL, "box", 0, NULL};
    struct err e = {0};
    struct import im;
    struct fmt_file f;
    size_t len;
    char *text = jsonl(600, 0, &len);
    db *d;

    CHECK_INT(db_open(&d, path("a.db"), NULL, &e), 0);
    ingest_set_hooks(&h);
    f = (struct fmt_file){"scaling.jsonl", text, len};
    import_init(&im, NULL, &f, 1, &opt, "tester");
    CHECK_INT(import_commit(d, &im, &e), 0);
    CHECK_STR(im.format_used, "extrap-jsonl");
    CHECK_INT((long long)im.runs, 600);
    CHECK_INT((long long)im.created, 600);
    CHECK_INT(stored_calls, 3); /* 256 + 256 + 88 */
    CHECK_INT((long long)stored_runs, 600);
    CHECK_INT(count_runs(d), 600);
    CHECK(im.ids[0] >= 1 && im.ids[599] > im.ids[0]);
    import_free(&im);

    /* the same file again: nothing new, the same ids */
    import_init(&im, "extrap-jsonl", &f, 1, &opt, "tester");
    CHECK_INT(import_commit(d, &im, &e), 0);
    CHECK_INT((long long)im.created, 0);
    CHECK_INT((long long)im.runs, 600);
    CHECK_INT(count_runs(d), 600);
    import_free(&im);
    ingest_set_hooks(NULL);
    xfree(text);
    db_close(d);
}

static void test_late_failure_stores_nothing(void)
{
    struct fmt_options opt = {"late", NULL, NULL, 0, NULL};
    struct err e = {0};
    struct import im;
    struct fmt_file f;
    size_t len;
    char *text = jsonl(700, 1, &len);
    db *d;

    CHECK_INT(db_open(&d, path("b.db"), NULL, &e), 0);
    f = (struct fmt_file){"late.jsonl", text, len};
    import_init(&im, "extrap-jsonl", &f, 1, &opt, "tester");
    CHECK_INT(import_commit(d, &im, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK(strstr(e.message, "late.jsonl:701") != NULL);
    CHECK_INT(count_runs(d), 0);
    import_free(&im);
    xfree(text);
    db_close(d);
}

static const char OSU[] = "# OSU MPI Latency Test v7.3\n# Size          Latency (us)\n"
                          "1                       1.50\n1024                    3.25\n";

static void test_benchmarks(void)
{
    struct fmt_options none = {0}, sys = {NULL, NULL, "osu box", 0, NULL};
    struct fmt_file f = {"latency.txt", OSU, sizeof OSU - 1};
    struct err e = {0};
    struct import im;
    json_t *list;
    db *d;

    CHECK_INT(db_open(&d, path("c.db"), NULL, &e), 0);
    import_init(&im, NULL, &f, 1, &none, "tester");
    CHECK_INT(import_commit(d, &im, &e), -1);
    CHECK_STR(e.field, "system");
    CHECK_INT(db_system_id(d, "unknown", 0, &e), 0); /* no system was made */
    import_free(&im);
    for (int round = 0; round < 2; round++) {
        err_clear(&e);
        import_init(&im, NULL, &f, 1, &sys, "tester");
        CHECK_INT(import_commit(d, &im, &e), 0);
        CHECK_STR(im.format_used, "osu");
        CHECK_INT((long long)im.benchmarks, 2);
        CHECK_INT((long long)im.benchmarks_created, round == 0 ? 2 : 0);
        CHECK_STR(im.system, "osu box");
        import_free(&im);
    }
    list = db_benchmarks_list(d, "osu box", NULL, &e);
    CHECK(list != NULL && json_array_size(list) == 2);
    json_decref(list);
    db_close(d);
}

static void test_check_and_unknown_format(void)
{
    struct fmt_file f = {"x.txt", "x", 1};
    struct err e = {0};
    struct import im;

    import_init(&im, "excel", &f, 1, NULL, "tester");
    CHECK_INT(import_check(&im, &e), -1);
    CHECK_STR(e.code, "unknown_format");
    CHECK(strstr(e.message, "one of auto, otf2, tau, extrap-text") != NULL);
    err_clear(&e);
    import_init(&im, NULL, &f, 0, NULL, "tester");
    CHECK_INT(import_check(&im, &e), -1);
    CHECK_STR(e.field, "files");
}

/* The inputs given to an import: kept in name order whatever the order
 * given, every separator of the list read, every malformed pair refused
 * with the field it concerns, at most LIMIT_INPUTS. */
static void test_inputs(void)
{
    static const struct {
        const char *list, *field, *words;
    } bad[] = {
        {"=1", "input.", "must not be empty"},
        {"N=", "inputs", "\"N=\": a value after '=', or the name alone"},
        {"N==1", "input.N", "input.N==1: the value must be a number"},
        {"N=1.5.1", "input.N", "the value must be a number"},
        {"N=inf", "input.N", "the value must be a number"},
        {"N=1e400", "input.N", "the value must be a number"},
        {"N=1,N=1", "input.N", "input.N is given twice"},
        {"N=1,N", "input.N", "input.N is given twice"},
        {"N p N", "input.N", "input.N is given twice"},
        {"\"CPU Cores", "inputs", "\"CPU Cores: a quoted name needs its closing '\"'"},
        {"\"CPU Cores\"=", "inputs", "\"CPU Cores\"=: a value after '='"},
        {"\"CPU Cores\"4", "inputs", "after a quoted name, '=' and a value, or the next"},
        {"\"\"=4", "input.", "must not be empty"},
        {"\"CPU Cores\"=four", "input.CPU Cores", "the value must be a number"},
    };
    struct fmt_file f = {"x.txt", "x", 1};
    struct err e = {0};
    struct import im;
    char many[LIMIT_INPUTS * 8 + 16], *w = many;

    import_init(&im, NULL, &f, 1, NULL, "tester");
    CHECK_INT(import_add_inputs(&im, " p=4,\tN=1e3\r\nmode=-2.5 , Nx=0 ", &e), 0);
    CHECK_INT((int)im.ninputs, 4);
    CHECK_STR(im.inputs[0].name, "N");
    CHECK_STR(im.inputs[1].name, "Nx");
    CHECK_STR(im.inputs[2].name, "mode");
    CHECK_STR(im.inputs[3].name, "p");
    CHECK(im.inputs[0].value == 1000 && im.inputs[2].value == -2.5 &&
          im.inputs[3].value == 4);
    CHECK_INT(import_add_inputs(&im, "", &e), 0);
    CHECK_INT((int)im.ninputs, 4);
    /* a name alone: each run reads it from its own file, in the order given */
    CHECK_INT((int)im.ninputs_from, 0);
    CHECK_INT(import_add_inputs(&im, "size threads", &e), 0);
    CHECK_INT((int)im.ninputs, 4);
    CHECK_INT((int)im.ninputs_from, 2);
    CHECK_STR(im.inputs_from[0], "size");
    CHECK_STR(im.inputs_from[1], "threads");
    CHECK_INT(import_add_input(&im, "depth", 5, "", 0, &e), 0);
    CHECK_STR(im.inputs_from[2], "depth");
    CHECK_STR(im.inputs[3].name, "p"); /* the named rows stay where they were */
    /* a name with blanks (TAU's metadata "CPU Cores") in double quotes */
    import_init(&im, NULL, &f, 1, NULL, "tester");
    CHECK_INT(
        import_add_inputs(&im, "\"CPU Cores\" N=2, \"Memory Size\"=16,\"a, b\"", &e), 0);
    CHECK_INT((int)im.ninputs, 2);
    CHECK_STR(im.inputs[0].name, "Memory Size");
    CHECK(im.inputs[0].value == 16);
    CHECK_STR(im.inputs[1].name, "N");
    CHECK_INT((int)im.ninputs_from, 2);
    CHECK_STR(im.inputs_from[0], "CPU Cores");
    CHECK_STR(im.inputs_from[1], "a, b");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        import_init(&im, NULL, &f, 1, NULL, "tester");
        err_clear(&e);
        CHECK_INT(import_add_inputs(&im, bad[i].list, &e), -1);
        CHECK_STR(e.field, bad[i].field);
        CHECK(strstr(e.message, bad[i].words) != NULL);
    }
    import_init(&im, NULL, &f, 1, NULL, "tester");
    for (int i = 0; i < LIMIT_INPUTS; i++)
        w += sprintf(w, "x%d=%d,", i, i);
    CHECK_INT(import_add_inputs(&im, many, &e), 0);
    CHECK_INT((int)im.ninputs, LIMIT_INPUTS);
    err_clear(&e);
    CHECK_INT(import_add_inputs(&im, "y=1", &e), -1);
    CHECK(strstr(e.message, "more than 64 inputs") != NULL);
    err_clear(&e);
    CHECK_INT(import_add_inputs(&im, "y", &e), -1); /* both kinds count */
    CHECK(strstr(e.message, "more than 64 inputs") != NULL);
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(path(name), "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_load_paths(void)
{
    struct import_files files;
    struct err e = {0};
    const char *one[1];
    char d1[300];

    snprintf(d1, sizeof d1, "%s", path("tree"));
    CHECK_INT(mkdir(d1, 0700), 0);
    CHECK_INT(mkdir(path("tree/traces"), 0700), 0);
    write_file("tree/b.otf2", "anchor");
    write_file("tree/a.def", "defs");
    write_file("tree/.hidden", "skipped");
    write_file("tree/traces/0.evt", "");
    one[0] = d1;
    CHECK_INT(import_load_paths(one, 1, &files, &e), 0);
    CHECK_INT((long long)files.n, 3);
    if (files.n == 3) {
        CHECK_STR(files.files[0].name, "a.def");
        CHECK_STR(files.files[1].name, "b.otf2");
        CHECK_STR(files.files[2].name, "traces/0.evt");
        CHECK_INT((long long)files.files[0].len, 4);
        CHECK(memcmp(files.files[0].data, "defs", 4) == 0);
        CHECK_INT((long long)files.files[2].len, 0);
    }
    import_files_free(&files);
    one[0] = path("no-such-file");
    CHECK_INT(import_load_paths(one, 1, &files, &e), -1);
    CHECK(strstr(e.message, "cannot read") != NULL);
}

static void write_bytes(const char *name, const char *data, size_t len)
{
    FILE *f = fopen(path(name), "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK_INT(fwrite(data, 1, len, f), len);
        fclose(f);
    }
}

/* import_unpack: what every way in makes of an upload or a file. */
static void test_unpack(void)
{
    size_t len, glen, n;
    char *tar = data_file("tau/run.tar", &len), *gz = gzip_of(tar, len, &glen);
    arena *a = arena_new();
    struct fmt_file *files;
    const char *set;
    struct err e = {0};
    struct import im;

    /* a tar archive: its files, named by the archive */
    CHECK_INT(import_unpack("run.tar", tar, len, NULL, len, a, &files, &n, &set, &e), 0);
    CHECK_INT(n, 2);
    CHECK_STR(files[0].name, "profile.0.0.0");
    CHECK_STR(set, "run.tar");
    /* gzip-compressed: NAME.tgz is NAME.tar, the same files */
    CHECK_INT(import_unpack("run.tgz", gz, glen, "auto", len, a, &files, &n, &set, &e),
              0);
    CHECK_INT(n, 2);
    CHECK_STR(files[1].name, "profile.1.0.0");
    CHECK_STR(set, "run.tar");
    CHECK_INT(import_unpack("x.tar.gz", gz, glen, "tau", len, a, &files, &n, &set, &e),
              0);
    CHECK_STR(set, "x.tar");
    /* the bound is the inflated size */
    CHECK_INT(import_unpack("run.tgz", gz, glen, NULL, len - 1, a, &files, &n, &set, &e),
              -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    err_clear(&e);
    /* a CUBE4 profile's tar stays whole */
    CHECK_INT(import_unpack("p.cubex", tar, len, NULL, len, a, &files, &n, &set, &e), 0);
    CHECK_INT(n, 1);
    CHECK(set == NULL && files[0].data == tar);
    /* NAME.gz of one file is NAME; no name is "upload" */
    xfree(gz);
    gz = gzip_of("PARAMETER p\n", 12, &glen);
    CHECK_INT(import_unpack("one.txt.gz", gz, glen, NULL, 100, a, &files, &n, &set, &e),
              0);
    CHECK_INT(n, 1);
    CHECK_STR(files[0].name, "one.txt");
    CHECK_INT(files[0].len, 12);
    CHECK(set == NULL && memcmp(files[0].data, "PARAMETER p\n", 12) == 0);
    CHECK_INT(import_unpack(NULL, "x", 1, NULL, 100, a, &files, &n, &set, &e), 0);
    CHECK_STR(files[0].name, "upload");
    /* a directory format's body must be a tar archive */
    CHECK_INT(import_unpack("d", "x", 1, "tau", 100, a, &files, &n, &set, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    err_clear(&e);
    /* an archive's name names the set as its directory's would */
    import_init(&im, NULL, NULL, 0, NULL, "t");
    import_set_source(&im, "a/runs.tar.gz");
    CHECK_STR(im.opt.source, "runs");
    import_set_source(&im, "b/runs.tgz");
    CHECK_STR(im.opt.source, "runs");
    import_set_source(&im, "runs.gz/");
    CHECK_STR(im.opt.source, "runs");
    arena_free(a);
    xfree(gz);
    xfree(tar);
}

/* Paths that are archives: their files, named under the archive's name
 * beside other paths; the mappings and inflated bytes freed. */
static void test_load_archives(void)
{
    size_t len, glen;
    char *tar = data_file("tau/run.tar", &len), *gz = gzip_of(tar, len, &glen);
    struct import_files files;
    struct err e = {0};
    const char *two[2];
    char a1[300], d1[300];

    write_bytes("p16.tar.gz", gz, glen);
    snprintf(a1, sizeof a1, "%s", path("p16.tar.gz"));
    two[0] = a1;
    CHECK_INT(import_load_paths(two, 1, &files, &e), 0);
    CHECK_INT(files.n, 2);
    if (files.n == 2) {
        CHECK_STR(files.files[0].name, "profile.0.0.0");
        CHECK(memcmp(files.files[0].data, tar + 512, files.files[0].len) == 0);
    }
    CHECK(files.source != NULL && strstr(files.source, "/p16.tar") != NULL);
    import_files_free(&files);
    snprintf(d1, sizeof d1, "%s", path("p32"));
    CHECK_INT(mkdir(d1, 0700), 0);
    write_file("p32/profile.0.0.0", "x");
    two[1] = d1;
    CHECK_INT(import_load_paths(two, 2, &files, &e), 0);
    CHECK_INT(files.n, 3);
    if (files.n == 3) {
        CHECK_STR(files.files[0].name, "p16/profile.0.0.0");
        CHECK_STR(files.files[1].name, "p16/profile.1.0.0");
        CHECK_STR(files.files[2].name, "p32/profile.0.0.0");
    }
    CHECK(files.source == NULL);
    import_files_free(&files);
    /* a damaged one: refused, naming the path */
    write_bytes("cut.tar.gz", gz, glen / 2);
    two[0] = path("cut.tar.gz");
    CHECK_INT(import_load_paths(two, 1, &files, &e), -1);
    CHECK(strstr(e.message, "cut.tar.gz: the gzip-compressed data is truncated") != NULL);
    xfree(gz);
    xfree(tar);
}

/* Every allocation failing in turn: a clean error or success, never a
 * crash, and a failed import stores nothing. */
static void test_fault_injection(void)
{
    struct fmt_options opt = {"faults", NULL, "box", 0, NULL};
    size_t len;
    char *text = jsonl(300, 0, &len);
    struct fmt_file f = {"faults.jsonl", text, len};
    long fails = 0;
    db *d;
    struct err e = {0};

    CHECK_INT(db_open(&d, path("f.db"), NULL, &e), 0);
    for (long nth = 1; nth < 100000; nth++) {
        struct import im;
        long long before = count_runs(d);
        int rc;
        err_clear(&e);
        import_init(&im, NULL, &f, 1, &opt, "tester");
        xalloc_fail_at(nth);
        rc = import_commit(d, &im, &e);
        xalloc_fail_at(0);
        import_free(&im);
        if (rc == 0)
            break;
        fails++;
        CHECK(e.status != 0);
        CHECK_INT(count_runs(d), before);
    }
    CHECK(fails > 10);
    CHECK_INT(count_runs(d), 300);
    xfree(text);
    db_close(d);
}

int main(void)
{
    xalloc_json(); /* fault injection reaches Jansson too */
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_batches_in_one_transaction);
    RUN(test_late_failure_stores_nothing);
    RUN(test_benchmarks);
    RUN(test_check_and_unknown_format);
    RUN(test_inputs);
    RUN(test_load_paths);
    RUN(test_unpack);
    RUN(test_load_archives);
    RUN(test_fault_injection);
    return harness_report_removing(dir);
}
