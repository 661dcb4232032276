/* bench_series: which series of a system's benchmark a request reads; see
 * bench_series.h. */
#include "core/bench_series.h"

#include <stdio.h>
#include <string.h>

#include "formats/limits.h"

int bench_series_decode(json_t *obj, const char *prefix, struct bench_series *s,
                        struct err *err)
{
    static const char *const keys[] = {"label", "test"};
    static const int max[] = {LIMIT_BENCH_LABEL, LIMIT_BENCH_TEST};
    static const char *const what[] = {
        "the series' label as the system's benchmarks carry it",
        "the program that measured the series (osu_latency)"};
    const char **out[2];
    char field[32];
    int k;

    out[0] = &s->label;
    out[1] = &s->test;
    s->label = s->test = NULL;
    for (k = 0; k < 2; k++) {
        /* "" names the series without a label (or test) */
        json_t *v = json_object_get(obj, keys[k]);
        if (v == NULL)
            continue;
        if (!json_is_string(v) || json_string_length(v) > (size_t)max[k] ||
            strlen(json_string_value(v)) != json_string_length(v)) {
            snprintf(field, sizeof field, "%s%s", prefix, keys[k]);
            return err_invalid(err, field, "%s must be a string of at most %d bytes: %s",
                               keys[k], max[k], what[k]);
        }
        *out[k] = json_string_value(v);
    }
    return 0;
}

static const char *text_of(json_t *row, const char *key)
{
    const char *s = json_string_value(json_object_get(row, key));
    return s ? s : "";
}

/* The distinct values of key ("label", "test") over rows in their order, as a
 * message lists them ("a", "b", ...; whole entries only, then an ellipsis);
 * "" when none is other than "". */
static void list_values(json_t *rows, const char *key, char *out, size_t size)
{
    json_t *seen = json_object(), *row;
    size_t i, len = 0;
    int any = 0;

    out[0] = '\0';
    json_array_foreach(rows, i, row)
    {
        const char *v = text_of(row, key);
        int n;
        if (seen == NULL || json_object_get(seen, v) != NULL)
            continue;
        json_object_set_new(seen, v, json_true());
        any |= *v != '\0';
        /* room left for ", ..." (6 bytes) after each entry */
        n = snprintf(out + len, size - len, "%s\"%s\"", len ? ", " : "", v);
        if (n < 0 || (size_t)n + 6 > size - len) {
            snprintf(out + len, size - len, "%s\xe2\x80\xa6", len ? ", " : "");
            break;
        }
        len += (size_t)n;
    }
    json_decref(seen);
    if (!any)
        out[0] = '\0';
}

/* How many series (a label and a test) rows hold. */
static size_t count_series(json_t *rows)
{
    json_t *seen = json_object(), *row;
    char key[LIMIT_BENCH_LABEL + LIMIT_BENCH_TEST + 2];
    size_t i, n;

    json_array_foreach(rows, i, row)
    {
        /* neither holds a newline: one line of text each */
        snprintf(key, sizeof key, "%s\n%s", text_of(row, "label"), text_of(row, "test"));
        json_object_set_new(seen, key, json_true());
    }
    n = json_object_size(seen);
    json_decref(seen);
    return n;
}

int bench_series_pick(json_t **rows, struct bench_series *s, const char *prefix,
                      const char *system, const char *bench, arena *a, struct err *err)
{
    const char *label = s->label, *test = s->test;
    char f_label[32], f_test[32], f_any[32];
    json_t *kept = json_array(), *row, *first = NULL;
    int has_label = label == NULL, has_test = test == NULL, labels = 0, tests = 0;
    char list[200];
    size_t i;

    snprintf(f_label, sizeof f_label, "%slabel", prefix);
    snprintf(f_test, sizeof f_test, "%stest", prefix);
    /* the object that names the series: "basis" for the prefix "basis." */
    snprintf(f_any, sizeof f_any, "%.*s", *prefix ? (int)strlen(prefix) - 1 : 0, prefix);
    if (kept == NULL)
        return err_nomem(err);
    json_array_foreach(*rows, i, row)
    {
        const char *l = text_of(row, "label"), *t = text_of(row, "test");
        has_label |= label != NULL && strcmp(l, label) == 0;
        has_test |= test != NULL && strcmp(t, test) == 0;
        if ((label != NULL && strcmp(l, label) != 0) ||
            (test != NULL && strcmp(t, test) != 0))
            continue;
        if (first == NULL)
            first = row;
        labels |= strcmp(l, text_of(first, "label")) != 0;
        tests |= strcmp(t, text_of(first, "test")) != 0;
        if (json_array_append(kept, row) != 0) {
            json_decref(kept);
            return err_nomem(err);
        }
    }
    if (!has_label || !has_test) {
        const char *key = has_label ? "test" : "label";
        list_values(*rows, key, list, sizeof list);
        json_decref(kept);
        return err_invalid(
            err, has_label ? f_test : f_label,
            "benchmark %s of system %s has no series %s \"%s\"; its %ss: %s", bench,
            system, has_label ? "of test" : "labelled", has_label ? test : label, key,
            *list ? list : "none");
    }
    if (first == NULL) {
        json_decref(kept);
        return err_invalid(err, *f_any ? f_any : NULL,
                           "benchmark %s of system %s has no series of test \"%s\" "
                           "labelled \"%s\"",
                           bench, system, test, label);
    }
    if (labels || tests) {
        const char *key = labels ? "label" : "test";
        size_t n = count_series(kept);
        list_values(kept, key, list, sizeof list);
        json_decref(kept);
        return err_invalid(err, labels ? f_label : f_test,
                           "benchmark %s of system %s has %zu series; name one with "
                           "\"%s\": %s",
                           bench, system, n, key, list);
    }
    s->label = arena_strdup(a, text_of(first, "label"));
    s->test = arena_strdup(a, text_of(first, "test"));
    json_decref(*rows);
    *rows = kept;
    return s->label != NULL && s->test != NULL ? 0 : err_nomem(err);
}
