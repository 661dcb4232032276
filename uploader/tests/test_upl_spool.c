/* test_upl_spool: spool entries are written whole, listed oldest first,
 * deferred with a growing backoff, rejected aside and removed. */
#include "uploader/upl_spool.h"

#include "tests/harness.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/test_upl_spool_XXXXXX";

static int count_files(const char *d, const char *prefix)
{
    DIR *h = opendir(d);
    struct dirent *de;
    int n = 0;
    if (h == NULL)
        return -1;
    while ((de = readdir(h)) != NULL)
        if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(h);
    return n;
}

static void test_backoff(void)
{
    CHECK_NEAR(upl_spool_backoff(1), 30, 0);
    CHECK_NEAR(upl_spool_backoff(2), 60, 0);
    CHECK_NEAR(upl_spool_backoff(5), 480, 0);
    CHECK_NEAR(upl_spool_backoff(100), 6 * 3600, 0);
}

static void test_put_list_defer_remove(void)
{
    struct err e = {0};
    char sub[256], rej[300];
    upl_spool *s;
    struct upl_spool_entry *v = NULL;
    size_t n = 0;
    json_t *b1 = json_pack("{s:s, s:i}", "id", "one", "nprocs", 1);
    json_t *b2 = json_pack("{s:[{s:s}]}", "runs", "id", "two");
    char *path = NULL;
    double before = 0;

    snprintf(sub, sizeof sub, "%s/deep/spool", dir);
    snprintf(rej, sizeof rej, "%s/rejected", sub);
    s = upl_spool_open(sub, &e);
    CHECK(s != NULL);
    if (s == NULL)
        return;
    CHECK(upl_spool_trylock(s) == 0);
    CHECK(upl_spool_put(s, b1, "connection refused", &path, &e) == 0);
    CHECK(path != NULL && access(path, R_OK) == 0);
    free(path);
    CHECK(upl_spool_put(s, b2, "503", NULL, &e) == 0);
    CHECK_INT(count_files(sub, ".tmp"), 0); /* no temporary left behind */
    CHECK(upl_spool_list(s, 0, &v, &n, &e) == 0);
    CHECK_INT(n, 2);
    if (n == 2) {
        CHECK_STR(json_string_value(json_object_get(v[0].body, "id")), "one");
        CHECK_INT(v[0].attempts, 1);
        CHECK(v[0].next_attempt > (double)time(NULL) + 20);
        before = v[1].next_attempt;
        CHECK(upl_spool_defer(s, &v[1], "still down", &e) == 0);
        CHECK(upl_spool_remove(s, &v[0], &e) == 0);
    }
    upl_spool_entries_free(v, n);
    CHECK(upl_spool_list(s, 0, &v, &n, &e) == 0);
    CHECK_INT(n, 1);
    if (n == 1) {
        CHECK_INT(v[0].attempts, 2);
        CHECK(v[0].next_attempt >= before + 29);
        CHECK(json_array_size(json_object_get(v[0].body, "runs")) == 1);
        CHECK(upl_spool_reject(s, v[0].body, 422, "invalid", "nprocs must be >= 1",
                               "runs[0].nprocs", &e) == 0);
        CHECK(upl_spool_remove(s, &v[0], &e) == 0);
    }
    upl_spool_entries_free(v, n);
    CHECK(upl_spool_list(s, 0, &v, &n, &e) == 0);
    CHECK_INT(n, 0);
    upl_spool_entries_free(v, n);
    CHECK(upl_spool_list(s, 1, &v, &n, &e) == 0);
    CHECK_INT(n, 1);
    upl_spool_entries_free(v, n);
    CHECK_INT(count_files(rej, "0"), 1);
    upl_spool_close(s);
    json_decref(b1);
    json_decref(b2);
}

int main(void)
{
    int rc;
    char cmd[128];

    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_backoff);
    RUN(test_put_list_defer_remove);
    rc = harness_report();
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
