/* demo: the example data set that `prophecyd serve --demo` loads into an
 * empty database so that every page and form has something real to show:
 * the paper's matrix multiplication (runs over N and P, the master/slave
 * template, IBM SP2 and SGI Origin2000 parameters and benchmarks) and a
 * NAS-BT-shaped application with kernels and couplings. Every name carries
 * "(example)" and the rows are flagged demo = 1 so pages can label them.
 * Its runs go in through core/ingest.h like any other. */
#ifndef PROPHECY_CORE_DEMO_H
#define PROPHECY_CORE_DEMO_H

#include "common/err.h"
#include "db/db.h"

/* Writes the whole data set with connection d inside the caller's
 * transaction (used by the writer job and by tests). Returns 0 or -1. */
int demo_write(db *d, struct err *err);

/* demo_write when the database has no applications yet; otherwise does
 * nothing (a writer job: call inside a transaction). Returns 0 or -1. */
int demo_load_if_empty(db *d, struct err *err);

/* prophecyd demo remove: deletes the demo applications and systems with
 * everything under them, in one transaction of its own (nothing removed on
 * an error). Returns the number of applications removed, or -1 with err. */
int demo_remove(db *d, struct err *err);

#endif
