/* export: run records as text, in the two forms of GET /api/v1/export and
 * `prophecyd export`. The CSV has the import columns (formats/csv.c), so an
 * export can be imported elsewhere; kernels are only in the JSON form, which
 * is a {"runs": [...]} document of import-compatible run documents.
 *
 * Reading the runs is not done here: core/export.h pages through the store
 * and hands each page's records to these writers.
 */
#ifndef PROPHECY_FORMATS_EXPORT_H
#define PROPHECY_FORMATS_EXPORT_H

#include <stddef.h>

#include "common/buf.h"
#include "formats/record.h"

/* The CSV's value columns: every input name and every metric name of the
 * export, each list sorted, fixed before the first row. */
struct export_columns {
    const char *const *inputs;
    size_t ninputs;
    const char *const *metrics;
    size_t nmetrics;
    /* Provenance (SPEC §11): when set, "commit,branch" and then tag.NAME for
     * each tag name follow the metrics (the CSV import reads them back). */
    int provenance;
    const char *const *tags;
    size_t ntags;
};

/* The header line: id,application,executable,system,nprocs,runtime,
 * started_at, the inputs, then metric.NAME for each metric. */
void export_csv_header(const struct export_columns *c, struct buf *out);
/* One run as a CSV line (RFC 4180 quoting, CRLF); a value the run lacks is
 * an empty field. */
void export_csv_row(const struct export_columns *c, const struct run_record *run,
                    struct buf *out);

/* The CSV writer's pieces, for every CSV the program writes (the export and
 * the application page's runs table): one field, quoted per RFC 4180 when
 * it holds a comma, a quote, CR or LF (NULL writes nothing); one number, the
 * shortest text that reads back as v (nothing when v is not finite). */
void export_csv_field(struct buf *out, const char *s);
/* The same for a CSV meant for spreadsheets (the pages' downloads): a text
 * a spreadsheet would take for a formula (it starts with = + - @ or a tab)
 * is quoted with a leading ', so that opening the file runs nothing. (The
 * export keeps such names as they are, so that it imports back unchanged.) */
void export_csv_cell(struct buf *out, const char *s);
void export_csv_num(struct buf *out, double v);

/* The JSON form: begin, then each run (first = 1 for the first), then end. */
void export_json_begin(struct buf *out);
void export_json_row(const struct run_record *run, int first, struct buf *out);
void export_json_end(struct buf *out);

#endif
