/* import_rundoc: Prophecy's own run documents (JSON) and CSV as rows of the
 * table, through the one set of rules every run takes (rundoc_parse_body,
 * rundoc_parse_csv). Runs without an "id" get a stable uid from their
 * content and place, so importing the same file twice stores nothing new.
 *
 * Transitional include: rundoc lives in server/ until the formats-ingest
 * branch moves it to formats/rundoc.h with the same names; then this include
 * becomes "formats/rundoc.h" and the formats tests stop linking the server
 * library.
 */
#include <stdio.h>
#include <string.h>

#include "formats/import.h"
#include "formats/limits.h"
#include "server/rundoc.h"

/* Hands runs[0..n) to the sink in batches, each with its uid. */
static int hand_over(const char *format, const char *file, struct run_record *runs,
                     size_t n, const struct fmt_sink *sink, const struct fmt_options *opt,
                     struct err *err)
{
    struct imp_batch b;
    int rc = -1;

    if (imp_batch_init(&b, format, file, sink, err) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        struct run_record *r = imp_batch_slot(&b, err);
        char id[48];
        const char *client;
        if (r == NULL)
            goto out;
        *r = runs[i];
        client = r->uid;
        if (opt && opt->application)
            r->application = opt->application;
        if (opt && opt->executable)
            r->executable = opt->executable;
        if (opt && opt->system)
            r->system = opt->system;
        snprintf(id, sizeof id, "runs[%zu]", i);
        if (imp_batch_commit(&b, id, err) != 0)
            goto out;
        if (client)
            b.runs[b.n - 1].uid = client; /* the client's own id wins */
    }
    rc = imp_batch_finish(&b, err);
out:
    imp_batch_free(&b);
    return rc;
}

int import_rundoc_json(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err)
{
    struct run_record *runs;
    size_t n;
    json_t *doc;
    arena *a;
    struct err inner = {0};
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "json reads one file at a time");
    if ((doc = imp_json_load(&files[0], err)) == NULL)
        return -1;
    if ((a = arena_new()) == NULL) {
        json_decref(doc);
        return err_nomem(err);
    }
    if (rundoc_parse_body(doc, a, &runs, &n, &inner) == 0)
        rc = hand_over("json", files[0].name, runs, n, sink, opt, err);
    else
        rc = imp_fail_field(err, files[0].name, inner.field, "%s", inner.message);
    arena_free(a);
    json_decref(doc);
    return rc;
}

int import_rundoc_csv(const struct fmt_file *files, size_t nfiles,
                      const struct fmt_options *opt, const struct fmt_sink *sink,
                      struct err *err)
{
    struct run_record *runs;
    size_t n;
    arena *a;
    struct err inner = {0};
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files", "csv reads one file at a time");
    if ((a = arena_new()) == NULL)
        return err_nomem(err);
    if (rundoc_parse_csv(files[0].data, files[0].len, a, &runs, &n, &inner) == 0)
        rc = hand_over("csv", files[0].name, runs, n, sink, opt, err);
    else
        rc = imp_fail_field(err, files[0].name, inner.field, "%s", inner.message);
    arena_free(a);
    return rc;
}

int sniff_rundoc_json(const struct fmt_file *files, size_t nfiles)
{
    return nfiles == 1 && imp_starts_with(&files[0], "{") &&
           (imp_contains(&files[0], "\"runs\"") ||
            (imp_contains(&files[0], "\"application\"") &&
             imp_contains(&files[0], "\"runtime\"")));
}

int sniff_rundoc_csv(const struct fmt_file *files, size_t nfiles)
{
    return nfiles == 1 && imp_starts_with(&files[0], "application,executable,system");
}
