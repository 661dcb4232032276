/* backend: the PostgreSQL table of db/backend.h. */
#include "db/pg/entries.h"

const struct db_backend db_pg = {
    .name = "postgresql",
    .runs_insert = pg_runs_insert,
    .summary_add_run = pg_summary_add_run,
    .select_begin = pg_select_begin,
    .select_end = pg_select_end,
    .history_configs = pg_history_configs,
    .history_series = pg_history_series,
    .history_series_each = pg_history_series_each,
    .history_side = pg_history_side,
    .watches_list = pg_watches_list,
    .history_window = pg_history_window,
    .judgement_add = pg_judgement_add,
    .judgements_add = pg_judgements_add,
    .history_judgements = pg_history_judgements,
    .model_judgements = pg_model_judgements,
    .alerts_list = pg_alerts_list,
    .alerts_query = pg_alerts_query,
    .judged_delete_run = pg_judged_delete_run,
};
