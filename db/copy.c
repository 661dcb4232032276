/* copy: every table of one database into another, engine to engine; see
 * copy.h. The tables and their order live here (the schema's dependency
 * order: a row's parents are copied before it); the engines read and load
 * rows through db/copy_backend.h.
 *
 * Two tables summarise others (app_kernels the kernels, app_metrics the
 * run metrics): the store keeps them as it adds runs (migrations 16 and 19),
 * not the loads, so they are copied as they are, which keeps counters a
 * rebuild would not give exactly (a deleted run's kernels leave first_seq
 * as it was).
 */
#include "db/copy.h"
#include "db/backend.h"
#include "db/copy_backend.h"

#include <string.h>

struct table {
    const char *name;
    const char *key[3]; /* the primary key: rows are read in its order */
    /* COPY its rows; CLEAR it first (filled by triggers while earlier
     * tables load), then copy; COUNT: not copied, the target's finish
     * counts it from the tables it summarises */
    enum { COPY, CLEAR, COUNT } how;
};

static const struct table TABLES[] = {
    {"applications", {"id"}, COPY},
    {"systems", {"id"}, COPY},
    {"executables", {"id"}, COPY},
    {"run_configs", {"id"}, COPY},
    /* the page counts (migration 17), kept by the store as it adds runs */
    {"run_tally", {"app_id", "kind", "k"}, COPY},
    {"runs", {"id"}, COPY},
    {"run_inputs", {"run_id", "name"}, COPY},
    {"run_metrics", {"run_id", "name"}, COPY},
    {"kernels", {"run_id", "seq"}, COPY},
    {"run_tags", {"run_id", "key"}, COPY},
    {"system_benchmarks", {"id"}, COPY},
    {"system_parameters", {"system_id", "name"}, COPY},
    {"templates", {"id"}, COPY},
    {"couplings", {"id"}, COPY},
    {"models", {"id"}, COPY},
    {"tokens", {"id"}, COPY},
    {"watches", {"id"}, COPY},
    {"watch_version", {"one"}, CLEAR},
    /* SQLite's counts cover the judgements up to a mark of its own
     * (schema.sql migration 10): a target counts them all afresh. */
    {"watch_counts", {"watch_id"}, COUNT},
    {"judgements", {"run_id", "watch_id"}, COPY},
    {"alert_groups", {"id"}, COPY},
    {"alerts", {"id"}, COPY},
    {"traces", {"run_id"}, COPY},
    {"trace_ranks", {"run_id", "rank"}, COPY},
    {"trace_analyses", {"run_id", "name"}, COPY},
    {"app_kernels", {"app_id", "name"}, COPY},
    {"app_metrics", {"app_id", "name"}, COPY},
};
enum { NTABLES = sizeof TABLES / sizeof *TABLES };

static int known(const char *name)
{
    for (int i = 0; i < NTABLES; i++)
        if (strcmp(TABLES[i].name, name) == 0)
            return 1;
    return 0;
}

/* Both databases hold exactly the tables of TABLES. */
static int check_tables(db *d, const char *which, struct err *err)
{
    const struct db_copy_ops *ops = d->eng->copy;
    char names[64][DB_COPY_NAME];
    int n = ops->tables(d, names, 64, err), i;
    if (n < 0)
        return -1;
    for (i = 0; i < n; i++)
        if (!known(names[i]))
            return err_set(err, ERR_INTERNAL, "database", NULL,
                           "the %s database has a table %s that copy does not know "
                           "(a newer schema?)",
                           which, names[i]);
    if (n != NTABLES)
        return err_set(err, ERR_INTERNAL, "database", NULL,
                       "the %s database has %d of the %d tables copy knows (an older "
                       "schema?)",
                       which, n, NTABLES);
    return 0;
}

static int has_column(char (*cols)[DB_COPY_NAME], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(cols[i], name) == 0)
            return 1;
    return 0;
}

struct pump {
    const struct db_copy_ops *to;
    void *w;
    long long rows;
};

static int pump_row(void *ctx, const struct db_value *v, int ncols, struct err *err)
{
    struct pump *p = ctx;
    p->rows++;
    return p->to->load_row(p->w, v, ncols, err);
}

static int copy_table(db *src, db *dst, const struct table *t, long long *rows,
                      struct err *err)
{
    const struct db_copy_ops *from = src->eng->copy, *to = dst->eng->copy;
    char cols[DB_COPY_COLS][DB_COPY_NAME], dcols[DB_COPY_COLS][DB_COPY_NAME];
    struct pump p = {to, NULL, 0};
    int n = from->columns(src, t->name, cols, DB_COPY_COLS, err), dn, i, rc;

    if (n < 0)
        return -1;
    dn = to->columns(dst, t->name, dcols, DB_COPY_COLS, err);
    if (dn < 0)
        return -1;
    for (i = 0; i < n; i++)
        if (!has_column(dcols, dn, cols[i]))
            return err_set(err, ERR_INTERNAL, "database", NULL,
                           "table %s: the target has no column %s (schema versions "
                           "differ?)",
                           t->name, cols[i]);
    if (dn != n)
        return err_set(err, ERR_INTERNAL, "database", NULL,
                       "table %s has %d columns in the source and %d in the target",
                       t->name, n, dn);
    if (to->load_open(dst, t->name, (const char(*)[DB_COPY_NAME])cols, n, t->how == CLEAR,
                      &p.w, err) != 0)
        return -1;
    rc = from->read(src, t->name, (const char(*)[DB_COPY_NAME])cols, n, t->key, pump_row,
                    &p, err);
    if (to->load_close(p.w, rc == 0, err) != 0)
        rc = -1;
    *rows += p.rows;
    return rc;
}

int db_copy(db *src, db *dst, struct db_copy_stats *st, struct err *err)
{
    const struct db_copy_ops *to = dst->eng->copy;
    long long rows = 0;
    int i;

    if (check_tables(src, "source", err) != 0 || check_tables(dst, "target", err) != 0)
        return -1;
    if (db_begin(dst, err) != 0)
        return -1;
    /* Emptiness is checked inside the target's transaction. */
    for (i = 0; i < NTABLES; i++) {
        long long n = to->count(dst, TABLES[i].name, err);
        if (n != 0) {
            db_rollback(dst);
            return n < 0 ? -1
                         : err_set(err, ERR_CONFLICT, "conflict", NULL,
                                   "the target database is not empty (table %s holds "
                                   "%lld rows): copy only into a new, empty database",
                                   TABLES[i].name, n);
        }
    }
    if (src->eng->copy->snapshot(src, err) != 0) {
        db_rollback(dst);
        return -1;
    }
    for (i = 0; i < NTABLES; i++)
        if (TABLES[i].how != COUNT && copy_table(src, dst, &TABLES[i], &rows, err) != 0)
            break;
    if (i < NTABLES || to->finish(dst, err) != 0 || db_commit(dst, err) != 0) {
        db_rollback(dst);
        db_rollback(src);
        return -1;
    }
    db_rollback(src);
    if (st) {
        st->tables = NTABLES;
        st->rows = rows;
    }
    return 0;
}
