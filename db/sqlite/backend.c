/* backend: the SQLite table of db/backend.h. */
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

const struct db_backend db_sqlite = {
    .name = "sqlite",
    .runs_insert = sq_runs_insert,
    .summary_add_run = sq_summary_add_run,
    .select_begin = sq_select_begin,
    .select_end = sq_select_end,
    .history_configs = sq_history_configs,
    .history_series = sq_history_series,
    .history_series_each = sq_history_series_each,
    .history_side = sq_history_side,
    .watches_list = sq_watches_list,
    .history_window = sq_history_window,
    .judgement_add = sq_judgement_add,
    .judgements_add = sq_judgements_add,
    .history_judgements = sq_history_judgements,
    .model_judgements = sq_model_judgements,
    .alerts_list = sq_alerts_list,
    .alerts_query = sq_alerts_query,
    .judged_delete_run = sq_judged_delete_run,
};
