/* export: all runs as CSV or JSON, produced page by page so that memory
 * stays flat however large the database (used by GET /api/v1/export and
 * `prophecyd export`). The CSV has the import columns, so an export can be
 * imported elsewhere; kernels are only in the JSON form. */
#ifndef PROPHECY_EXPORT_H
#define PROPHECY_EXPORT_H

#include "common/buf.h"
#include "db/db.h"

struct exporter;

/* Returns a new exporter (free with export_free), or NULL on out of memory. */
struct exporter *export_new(int csv);
void export_free(struct exporter *x);
/* Appends the next page to out using connection d. Returns 1 when more
 * follows, 0 at the end, -1 on error. */
int export_page(struct exporter *x, db *d, struct buf *out);

#endif
