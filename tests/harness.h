/* harness: a tiny unit-test harness for CTest.
 *
 * A test file defines `static void test_xxx(void)` functions and a main that
 * calls RUN(test_xxx) for each, then returns harness_report(). Checks record a
 * failure with file:line and keep going within the test. The last line
 * printed is "N passed, M failed", one per test function.
 */
#ifndef PROPHECY_HARNESS_H
#define PROPHECY_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_passed, harness_failed, harness_cur_failed;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
            harness_cur_failed = 1;                                                      \
        }                                                                                \
    } while (0)

#define CHECK_INT(a, b)                                                                  \
    do {                                                                                 \
        long long ha_ = (long long)(a), hb_ = (long long)(b);                            \
        if (ha_ != hb_) {                                                                \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__,    \
                    #a, ha_, hb_);                                                       \
            harness_cur_failed = 1;                                                      \
        }                                                                                \
    } while (0)

#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *ha_ = (a), *hb_ = (b);                                               \
        if (ha_ == NULL || hb_ == NULL || strcmp(ha_, hb_) != 0) {                       \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,          \
                    __LINE__, #a, ha_ ? ha_ : "(null)", hb_ ? hb_ : "(null)");           \
            harness_cur_failed = 1;                                                      \
        }                                                                                \
    } while (0)

/* |a - b| <= tol * max(1, |b|): relative for large values, absolute near 0. */
#define CHECK_NEAR(a, b, tol)                                                            \
    do {                                                                                 \
        double ha_ = (a), hb_ = (b), ht_ = (tol);                                        \
        double hs_ = fabs(hb_) > 1 ? fabs(hb_) : 1;                                      \
        if (!(fabs(ha_ - hb_) <= ht_ * hs_)) {                                           \
            fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g (tol %g)\n", __FILE__,   \
                    __LINE__, #a, ha_, hb_, ht_);                                        \
            harness_cur_failed = 1;                                                      \
        }                                                                                \
    } while (0)

#define RUN(fn)                                                                          \
    do {                                                                                 \
        harness_cur_failed = 0;                                                          \
        fn();                                                                            \
        if (harness_cur_failed) {                                                        \
            harness_failed++;                                                            \
            fprintf(stderr, "FAIL %s\n", #fn);                                           \
        } else {                                                                         \
            harness_passed++;                                                            \
            printf("ok   %s\n", #fn);                                                    \
        }                                                                                \
    } while (0)

static inline int harness_report(void)
{
    printf("%d passed, %d failed\n", harness_passed, harness_failed);
    return harness_failed ? 1 : 0;
}

/* harness_report, then removes the test's temporary directory (made by
 * mkdtemp): a directory left behind fails the run too. */
static inline int harness_report_removing(const char *dir)
{
    char cmd[512];
    int rc = harness_report();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not remove %s\n", dir);
        return 1;
    }
    return rc;
}

#endif
