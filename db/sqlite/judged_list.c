/* judged_list: the watch list, with each watch's counts: those folded into
 * watch_counts plus the runs after the mark, decoded from their packed rows.
 */
#include "db/sqlite/entries.h"
#include "db/query.h"
#include "db/sqlite/judged.h"
#include "common/xalloc.h"

json_t *sq_watches_list(db *d, struct err *err)
{
    struct sq_counts c = {0};
    json_t *rows, *row;
    long long upto = sq_scalar(d, SQ_JUDGED_UPTO, err);
    size_t i;

    if (upto < 0)
        return NULL;
    rows = dq_json(
        d,
        "SELECT w.id, w.model_id AS model, a.name AS application, e.name AS executable, "
        "s.name AS system, w.nprocs, w.inputs AS inputs_json, w.y, w.test, w.threshold, "
        "w.history AS window, w.confirm, w.created_at, coalesce(n.judged, 0) AS judged, "
        "coalesce(n.out, 0) AS out FROM watches w JOIN applications a ON a.id = w.app_id "
        "LEFT JOIN executables e ON e.id = w.exe_id LEFT JOIN systems s ON s.id = "
        "w.system_id LEFT JOIN watch_counts n ON n.watch_id = w.id ORDER BY w.id",
        err, "");
    /* the judgements after the mark, not folded in yet */
    if (rows == NULL || sq_counts_after(d, upto, &c, err) != 0) {
        json_decref(rows);
        xfree(c.e);
        return NULL;
    }
    json_array_foreach(rows, i, row)
    {
        const struct sq_count *k =
            sq_counts_get(&c, json_integer_value(json_object_get(row, "id")));
        if (k == NULL)
            continue;
        json_object_set_new(
            row, "judged",
            json_integer(json_integer_value(json_object_get(row, "judged")) + k->judged));
        json_object_set_new(
            row, "out",
            json_integer(json_integer_value(json_object_get(row, "out")) + k->out));
    }
    xfree(c.e);
    return rows;
}
