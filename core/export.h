/* export: all runs as CSV or JSON, produced page by page so that memory
 * stays flat however large the database (GET /api/v1/export and `prophecyd
 * export`). Reads through db/runs.h, writes through formats/export.h.
 */
#ifndef PROPHECY_CORE_EXPORT_H
#define PROPHECY_CORE_EXPORT_H

#include "common/buf.h"
#include "common/err.h"
#include "db/db.h"

struct exporter;

/* Returns a new exporter (free with export_free), or NULL on out of memory. */
struct exporter *export_new(int csv);
void export_free(struct exporter *x);
/* Appends the next page to out using connection d (a different connection
 * per page is fine). Returns 1 when more follows, 0 at the end, -1 on error
 * (a damaged database, out of memory) with err set when err is not NULL. */
int export_page(struct exporter *x, db *d, struct buf *out, struct err *err);

#endif
