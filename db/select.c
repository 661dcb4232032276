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
