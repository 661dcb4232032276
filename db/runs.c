/* runs: reading stored runs (db/runs.h), written once for every engine on
 * db/query.h; storing them stays the engines' own (db/backend.h: SQLite's
 * prepared inserts, PostgreSQL's pipeline). Listing builds its WHERE clause
 * from a fixed set of variants (one per combination of filters), made once,
 * so every variant is a cached prepared statement that can use the right
 * index, and reads the children of a whole page in four statements. */
#include "db/runs.h"
#include "db/catalog.h"
#include "db/query.h"
#include "common/buf.h"
#include "formats/limits.h"

#include <pthread.h>
#include <string.h>

int db_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    /* the engine stores them, with what they add to the summaries it keeps
     * (configurations, names, page counts): SQLite's in the same call,
     * PostgreSQL's at the transaction's commit (db/pg/runs.c) */
    return d->be->runs_insert(d, runs, n, ids, existed, err);
}

/* An executable's id, created on first use; the insert that loses a race
 * with another server's does nothing and the read after it sees the
 * winner's row. */
long long db_exe_id(db *d, long long app, const char *name, struct err *err)
{
    long long id = 0;
    for (int k = 0; k < 2; k++) {
        int rc = dq_scalar(d, &id,
                           "SELECT id FROM executables WHERE app_id = ?1 AND name = ?2",
                           err, "it", app, name);
        if (rc != 0)
            return rc < 0 ? -1 : id;
        rc = dq_scalar(
            d, &id,
            "INSERT INTO executables (app_id, name) VALUES (?1, ?2) ON CONFLICT "
            "(app_id, name) DO NOTHING RETURNING id",
            err, "it", app, name);
        if (rc != 0)
            return rc < 0 ? -1 : id;
    }
    return err_set(err, ERR_INTERNAL, "database", NULL,
                   "database error: cannot create %s", name);
}

int db_resolve(db *d, struct db_resolved *c, const struct run_record *r, struct err *err)
{
    if (c->app == NULL || strcmp(c->app, r->application) != 0) {
        if ((c->app_id = db_app_id(d, r->application, 1, err)) < 0)
            return -1;
        c->app = r->application;
        c->exe = NULL;
    }
    if (c->exe == NULL || strcmp(c->exe, r->executable) != 0) {
        if ((c->exe_id = db_exe_id(d, c->app_id, r->executable, err)) < 0)
            return -1;
        c->exe = r->executable;
    }
    if (c->sys == NULL || strcmp(c->sys, r->system) != 0) {
        if ((c->sys_id = db_system_id(d, r->system, 1, err)) < 0)
            return -1;
        c->sys = r->system;
    }
    return 0;
}

static const char *col_text(db *d, struct db_stmt *st, int i, arena *a)
{
    size_t n = 0;
    const char *t = dq_blob(d, st, i, &n);
    return t ? arena_strndup(a, t, n) : NULL;
}

static const char SQL_INPUTS[] =
    "SELECT name, value FROM run_inputs WHERE run_id = ?1 ORDER BY name";
static const char SQL_METRICS[] =
    "SELECT name, value FROM run_metrics WHERE run_id = ?1 ORDER BY name";
static const char SQL_KERNELS[] =
    "SELECT name, time, calls, metrics FROM kernels WHERE run_id = ?1 ORDER BY seq";
static const char SQL_TAGS[] =
    "SELECT key, value FROM run_tags WHERE run_id = ?1 ORDER BY key";

static int read_kvs(db *d, const char *sql, long long id, arena *a, struct rec_kv **out,
                    size_t *n, struct err *err)
{
    struct db_stmt *st = dq_prepare(d, sql, err, "i", id);
    struct rec_kv *kv = NULL;
    size_t cap = 0;
    int rc;

    *n = 0;
    *out = NULL;
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        if ((kv = arena_grow(a, kv, *n, &cap, 8, sizeof *kv)) == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        kv[*n].name = col_text(d, st, 0, a);
        kv[*n].value = dq_dbl(d, st, 1);
        (*n)++;
    }
    *out = kv;
    return rc;
}

static int read_kernels(db *d, long long id, arena *a, struct run_record *r,
                        struct err *err)
{
    struct db_stmt *st = dq_prepare(d, SQL_KERNELS, err, "i", id);
    size_t cap = 0;
    int rc;

    r->kernels = NULL;
    r->nkernels = 0;
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        struct rec_kernel *k;
        r->kernels = arena_grow(a, r->kernels, r->nkernels, &cap, 8, sizeof *r->kernels);
        if (r->kernels == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        k = &r->kernels[r->nkernels++];
        k->name = col_text(d, st, 0, a);
        k->time = dq_opt_dbl(d, st, 1);
        k->calls = dq_null(d, st, 2) ? KERNEL_NO_CALLS : dq_ll(d, st, 2);
        k->metrics_json = col_text(d, st, 3, a);
    }
    return rc;
}

static int read_tags(db *d, long long id, arena *a, struct run_record *r, struct err *err)
{
    struct db_stmt *st;
    int rc = 0;

    r->ntags = 0;
    r->tags = arena_alloc(a, LIMIT_TAGS * sizeof *r->tags);
    if (r->tags == NULL)
        return err_nomem(err);
    if ((st = dq_prepare(d, SQL_TAGS, err, "i", id)) == NULL)
        return -1;
    while (r->ntags < LIMIT_TAGS && (rc = dq_step(d, st, err)) == 1) {
        r->tags[r->ntags].key = col_text(d, st, 0, a);
        r->tags[r->ntags].value = col_text(d, st, 1, a);
        r->ntags++;
    }
    if (rc == 1)
        dq_reset(d, st);
    return rc < 0 ? -1 : 0;
}

void db_run_row_read(db *d, struct db_stmt *st, arena *a, struct db_run_row *row)
{
    struct run_record *r = &row->run;
    memset(row, 0, sizeof *row);
    row->id = dq_ll(d, st, 0);
    r->uid = col_text(d, st, 1, a);
    r->application = col_text(d, st, 2, a);
    r->executable = col_text(d, st, 3, a);
    r->system = col_text(d, st, 4, a);
    r->nprocs = dq_ll(d, st, 5);
    r->runtime = dq_opt_dbl(d, st, 6);
    r->started_at = col_text(d, st, 7, a);
    r->submitter = col_text(d, st, 8, a);
    row->created_at = col_text(d, st, 9, a);
    r->commit = col_text(d, st, 10, a);
    r->branch = col_text(d, st, 11, a);
}

int db_run_children(db *d, arena *a, struct db_run_row *row, struct err *err)
{
    struct run_record *r = &row->run;
    if (read_kvs(d, SQL_INPUTS, row->id, a, &r->inputs, &r->ninputs, err) != 0 ||
        read_kvs(d, SQL_METRICS, row->id, a, &r->metrics, &r->nmetrics, err) != 0 ||
        read_kernels(d, row->id, a, r, err) != 0 || read_tags(d, row->id, a, r, err) != 0)
        return -1;
    return 0;
}

int db_run_get(db *d, long long id, arena *a, struct db_run_row *row, struct err *err)
{
    struct db_stmt *st = dq_prepare(
        d,
        "SELECT r.id, r.uid, a.name, e.name, s.name, r.nprocs, r.runtime, r.started_at, "
        "r.submitter, r.created_at, r.vcs_commit, r.vcs_branch FROM runs r JOIN "
        "applications a ON a.id = r.app_id JOIN executables e ON e.id = r.exe_id JOIN "
        "systems s ON s.id = r.system_id WHERE r.id = ?1",
        err, "i", id);
    int rc;
    if (st == NULL)
        return -1;
    rc = dq_step(d, st, err);
    if (rc != 1)
        return rc;
    db_run_row_read(d, st, a, row);
    dq_reset(d, st);
    return db_run_children(d, a, row, err) != 0 ? -1 : 1;
}

static int str_eq(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

/* The same tags, in any order (keys are unique within a run). */
static int tags_eq(const struct rec_tag *a, size_t na, const struct rec_tag *b, size_t nb)
{
    size_t i, k;
    if (na != nb)
        return 0;
    for (i = 0; i < na; i++) {
        for (k = 0; k < nb; k++)
            if (strcmp(a[i].key, b[k].key) == 0)
                break;
        if (k == nb || strcmp(a[i].value, b[k].value) != 0)
            return 0;
    }
    return 1;
}

/* The same named values, in any order (names are unique within a run). */
static int kvs_eq(const struct rec_kv *a, size_t na, const struct rec_kv *b, size_t nb)
{
    size_t i, k;
    if (na != nb)
        return 0;
    for (i = 0; i < na; i++) {
        for (k = 0; k < nb; k++)
            if (strcmp(a[i].name, b[k].name) == 0)
                break;
        if (k == nb || a[i].value != b[k].value)
            return 0;
    }
    return 1;
}

/* Whether the stored run `id` has exactly the content of r (everything but
 * the submitter and the time it was stored). Returns 1, 0, or -1 on error. */
int db_run_same(db *d, long long id, const struct run_record *r, struct err *err)
{
    struct db_run_row row;
    const struct run_record *s = &row.run;
    arena *a = arena_new();
    int found, same;
    size_t k;

    if (a == NULL)
        return err_nomem(err);
    found = db_run_get(d, id, a, &row, err);
    if (found <= 0) {
        arena_free(a);
        return found < 0 ? -1 : 0;
    }
    same =
        str_eq(s->application, r->application) && str_eq(s->executable, r->executable) &&
        str_eq(s->system, r->system) && s->nprocs == r->nprocs &&
        (s->runtime == r->runtime || (isnan(s->runtime) && isnan(r->runtime))) &&
        str_eq(s->started_at, r->started_at) && str_eq(s->commit, r->commit) &&
        str_eq(s->branch, r->branch) && tags_eq(s->tags, s->ntags, r->tags, r->ntags) &&
        kvs_eq(s->inputs, s->ninputs, r->inputs, r->ninputs) &&
        kvs_eq(s->metrics, s->nmetrics, r->metrics, r->nmetrics) &&
        s->nkernels == r->nkernels;
    for (k = 0; same && k < r->nkernels; k++)
        same = str_eq(s->kernels[k].name, r->kernels[k].name) &&
               (s->kernels[k].time == r->kernels[k].time ||
                (isnan(s->kernels[k].time) && isnan(r->kernels[k].time))) &&
               s->kernels[k].calls == r->kernels[k].calls &&
               str_eq(s->kernels[k].metrics_json, r->kernels[k].metrics_json);
    arena_free(a);
    return same;
}

static int read_names(db *d, const char *sql, arena *a, const char ***out, size_t *n,
                      struct err *err)
{
    struct db_stmt *st = dq_prepare(d, sql, err, "");
    const char **names = NULL;
    size_t cap = 0;
    int rc;

    *out = NULL;
    *n = 0;
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        if ((names = arena_grow(a, names, *n, &cap, 8, sizeof *names)) == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        names[(*n)++] = col_text(d, st, 0, a);
    }
    *out = names;
    return rc;
}

int db_runs_names(db *d, arena *a, const char ***inputs, size_t *ninputs,
                  const char ***metrics, size_t *nmetrics, struct err *err)
{
    if (read_names(d, "SELECT DISTINCT name FROM run_inputs ORDER BY name", a, inputs,
                   ninputs, err) != 0 ||
        read_names(d, "SELECT DISTINCT name FROM run_metrics ORDER BY name", a, metrics,
                   nmetrics, err) != 0)
        return -1;
    return 0;
}

int db_runs_tag_names(db *d, arena *a, const char ***tags, size_t *ntags, struct err *err)
{
    const char **any;
    size_t nany;
    if (read_names(d, "SELECT DISTINCT key FROM run_tags ORDER BY key", a, tags, ntags,
                   err) != 0 ||
        read_names(d,
                   "SELECT 1 WHERE EXISTS (SELECT 1 FROM runs WHERE vcs_commit IS NOT "
                   "NULL OR vcs_branch IS NOT NULL)",
                   a, &any, &nany, err) != 0)
        return -1;
    return *ntags > 0 || nany > 0;
}

/* ---- a filtered page of runs ------------------------------------------- */

enum {
    F_APP = 1,
    F_EXE = 2,
    F_SYS = 4,
    F_NP = 8,
    F_COMMIT = 16,
    F_BRANCH = 32,
    F_TAG = 64,
    NVARIANT = 128
};

static char *variants[NVARIANT];
static pthread_once_t variants_once = PTHREAD_ONCE_INIT;

/* Parameters are always bound by number (LIST_FMT): ?1 app, ?2 exe, ?3
 * system, ?4 nprocs, ?5 cursor, ?6 limit, ?7 commit, ?8 branch, ?9 tag key,
 * ?10 tag value; a variant uses only those it names. */
#define LIST_FMT "tttiiitttt"
static void make_variants(void)
{
    int m;
    for (m = 0; m < NVARIANT; m++) {
        struct buf b;
        buf_init(&b, 4096);
        buf_puts(&b, "SELECT r.id, r.uid, a.name, e.name, s.name, r.nprocs, r.runtime, "
                     "r.started_at, r.submitter, r.created_at, r.vcs_commit, "
                     "r.vcs_branch FROM runs r JOIN applications a ON a.id = r.app_id "
                     "JOIN executables e ON e.id = r.exe_id "
                     "JOIN systems s ON s.id = r.system_id WHERE 1 = 1");
        if (m & F_APP)
            buf_puts(&b, " AND r.app_id = (SELECT id FROM applications WHERE name = ?1)");
        if (m & F_EXE) {
            if (m & F_APP)
                buf_puts(&b, " AND r.exe_id = (SELECT x.id FROM executables x JOIN "
                             "applications y ON y.id = x.app_id WHERE y.name = ?1 AND "
                             "x.name = ?2)");
            else
                buf_puts(&b,
                         " AND r.exe_id IN (SELECT id FROM executables WHERE name = ?2)");
        }
        if (m & F_SYS)
            buf_puts(&b, " AND r.system_id = (SELECT id FROM systems WHERE name = ?3)");
        if (m & F_NP)
            buf_puts(&b, " AND r.nprocs = ?4");
        if (m & F_COMMIT)
            buf_puts(&b, " AND r.vcs_commit = ?7");
        if (m & F_BRANCH)
            buf_puts(&b, " AND r.vcs_branch = ?8");
        if (m & F_TAG)
            buf_puts(&b, " AND r.id IN (SELECT run_id FROM run_tags WHERE key = ?9 AND "
                         "value = ?10)");
        buf_puts(&b, " AND r.id > ?5 ORDER BY r.id LIMIT ?6");
        variants[m] = buf_detach(&b, NULL);
    }
}

/* The variant of f's filters; NULL when memory ran out making them. */
static const char *variant(const struct db_run_filter *f)
{
    int m = 0;
    pthread_once(&variants_once, make_variants);
    if (f->application)
        m |= F_APP;
    if (f->executable)
        m |= F_EXE;
    if (f->system)
        m |= F_SYS;
    if (f->nprocs > 0)
        m |= F_NP;
    if (f->commit)
        m |= F_COMMIT;
    if (f->branch)
        m |= F_BRANCH;
    if (f->tag_key && f->tag_value)
        m |= F_TAG;
    return variants[m];
}

/* The children of a page of runs (ids ascending) in four statements, not
 * four per run: each reads every run's rows ordered by run id, then as the
 * single-run reads above order them, and each run takes its stretch. ?1 is
 * the list of ids (a JSON array on SQLite, a bigint array on PostgreSQL). */
#define CHILDREN(cols, table, in, order)                                                 \
    "SELECT run_id, " cols " FROM " table " WHERE " in " ORDER BY run_id, " order
#define SQ_IN "run_id IN (SELECT value FROM json_each(?1))"
/* ?1 is a text parameter: cast to bigint[] in a subquery, so that the cast
 * (array_in, stable, not folded) runs once rather than for every row
 * compared (= ANY(?1::bigint[]) made a page of 1,000 runs 10 times slower). */
#define PG_IN "run_id IN (SELECT unnest(?1::bigint[]))"
enum child { C_INPUTS, C_METRICS, C_KERNELS, C_TAGS };
static const char *const children_sql[2][4] = {
    {CHILDREN("name, value", "run_inputs", SQ_IN, "name"),
     CHILDREN("name, value", "run_metrics", SQ_IN, "name"),
     CHILDREN("name, time, calls, metrics", "kernels", SQ_IN, "seq"),
     CHILDREN("key, value", "run_tags", SQ_IN, "key")},
    {CHILDREN("name, value", "run_inputs", PG_IN, "name"),
     CHILDREN("name, value", "run_metrics", PG_IN, "name"),
     CHILDREN("name, time, calls, metrics", "kernels", PG_IN, "seq"),
     CHILDREN("key, value", "run_tags", PG_IN, "key")},
};

/* Adds the current row of st (a child of kind of run row) to row's. */
static int take_child(db *d, struct db_stmt *st, enum child kind, arena *a,
                      struct db_run_row *row, size_t *cap, struct err *err)
{
    struct run_record *r = &row->run;
    if (kind == C_INPUTS || kind == C_METRICS) {
        struct rec_kv **kv = kind == C_INPUTS ? &r->inputs : &r->metrics;
        size_t *n = kind == C_INPUTS ? &r->ninputs : &r->nmetrics;
        if ((*kv = arena_grow(a, *kv, *n, cap, 8, sizeof **kv)) == NULL)
            return err_nomem(err);
        (*kv)[*n].name = col_text(d, st, 1, a);
        (*kv)[*n].value = dq_dbl(d, st, 2);
        (*n)++;
    } else if (kind == C_KERNELS) {
        struct rec_kernel *k;
        r->kernels = arena_grow(a, r->kernels, r->nkernels, cap, 8, sizeof *r->kernels);
        if (r->kernels == NULL)
            return err_nomem(err);
        k = &r->kernels[r->nkernels++];
        k->name = col_text(d, st, 1, a);
        k->time = dq_opt_dbl(d, st, 2);
        k->calls = dq_null(d, st, 3) ? KERNEL_NO_CALLS : dq_ll(d, st, 3);
        k->metrics_json = col_text(d, st, 4, a);
    } else if (r->ntags < LIMIT_TAGS) {
        r->tags[r->ntags].key = col_text(d, st, 1, a);
        r->tags[r->ntags].value = col_text(d, st, 2, a);
        r->ntags++;
    }
    return 0;
}

static int read_children_many(db *d, arena *a, struct db_run_row *rows, int n,
                              struct err *err)
{
    struct buf list;
    int kind, i, rc = 0;

    if (n == 0)
        return 0;
    for (i = 0; i < n; i++)
        if ((rows[i].run.tags = arena_alloc(a, LIMIT_TAGS * sizeof *rows[i].run.tags)) ==
            NULL)
            return err_nomem(err);
    buf_init(&list, 32 * (size_t)n + 16);
    buf_putc(&list, DQ_SQL(d, '[', '{'));
    for (i = 0; i < n; i++)
        buf_printf(&list, "%s%lld", i ? "," : "", rows[i].id);
    buf_putc(&list, DQ_SQL(d, ']', '}'));
    if (buf_failed(&list)) {
        buf_free(&list);
        return err_nomem(err);
    }
    for (kind = C_INPUTS; kind <= C_TAGS && rc == 0; kind++) {
        struct db_stmt *st =
            dq_prepare(d, children_sql[d->eng->pg != 0][kind], err, "t", buf_str(&list));
        size_t cap = 0;
        int at = 0;
        if (st == NULL) {
            rc = -1;
            break;
        }
        while ((rc = dq_step(d, st, err)) == 1) { /* both in ascending run id */
            long long id = dq_ll(d, st, 0);
            if (at < n && rows[at].id != id) {
                while (at < n && rows[at].id < id)
                    at++;
                cap = 0;
            }
            if (at < n && rows[at].id == id &&
                take_child(d, st, (enum child)kind, a, &rows[at], &cap, err) != 0) {
                dq_reset(d, st);
                rc = -1;
                break;
            }
        }
    }
    buf_free(&list);
    return rc < 0 ? -1 : 0;
}

int db_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err)
{
    int limit = f->limit > 0 && f->limit <= 1000 ? f->limit : 100;
    const char *sql = variant(f);
    int tag = f->tag_key && f->tag_value;
    struct db_run_row *out;
    struct db_stmt *st;
    int n = 0, rc = 0;

    *rows = NULL;
    if (sql == NULL)
        return err_nomem(err);
    out = arena_alloc(a, (size_t)limit * sizeof *out);
    if (out == NULL)
        return err_nomem(err);
    st =
        dq_prepare(d, sql, err, LIST_FMT, f->application, f->executable, f->system,
                   f->nprocs > 0 ? f->nprocs : 0LL, f->after, (long long)limit, f->commit,
                   f->branch, tag ? f->tag_key : NULL, tag ? f->tag_value : NULL);
    if (st == NULL)
        return -1;
    while (n < limit && (rc = dq_step(d, st, err)) == 1)
        db_run_row_read(d, st, a, &out[n++]);
    if (rc == 1)
        dq_reset(d, st);
    else if (rc < 0)
        return -1;
    if (read_children_many(d, a, out, n, err) != 0)
        return -1;
    *rows = out;
    return n;
}
