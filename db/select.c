/* select: the engine-neutral entry points of db/select.h; each dispatches to the
 * connection's backend (db/backend.h). */
#include "db/backend.h"
#include "common/xalloc.h"

void db_sel_rows_free(struct db_sel_rows *rows)
{
    size_t i;
    for (i = 0; i < rows->n; i++)
        json_decref(rows->row[i].inputs);
    xfree(rows->row);
    rows->row = NULL;
    rows->n = 0;
}

int db_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err)
{
    return d->be->select_runs(d, q, out, err);
}

int db_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err)
{
    return d->be->select_overlay(d, q, out, err);
}

int db_select_couple(db *d, const struct db_sel_couple *q, arena *a,
                     struct db_couple_rows *out, struct err *err)
{
    return d->be->select_couple(d, q, a, out, err);
}

void db_fit_configs_free(struct db_fit_configs *c)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        json_decref(c->c[i].inputs);
    xfree(c->c);
    c->c = NULL;
    c->n = 0;
}

int db_select_begin(db *d, struct err *err)
{
    return d->be->select_begin(d, err);
}

void db_select_end(db *d)
{
    d->be->select_end(d);
}

int db_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err)
{
    return d->be->select_fit_configs(d, q, out, err);
}

int db_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err)
{
    return d->be->fit_sums(d, y, sums, n, err);
}

int db_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err)
{
    return d->be->fit_spread(d, y, configs, nconfig, mean, center, ss_mean, ss_center,
                             err);
}

int db_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err)
{
    return d->be->fit_nth(d, y, configs, nconfig, k, two, v, err);
}
