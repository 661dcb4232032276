/* demo: the example data set that `prophecyd serve --demo` loads into an
 * empty database so that every page and form has something real to show:
 * the paper's matrix multiplication (runs over N and P, the master/slave
 * template, IBM SP2 and SGI Origin2000 parameters and benchmarks) and a
 * NAS-BT-shaped application with kernels and couplings. Every name carries
 * "(example)" and the rows are flagged demo = 1 so pages can label them. */
#ifndef PROPHECY_DEMO_H
#define PROPHECY_DEMO_H

#include "server/http.h"

/* Loads the data set when app->cfg->demo is set and the database has no
 * applications; otherwise does nothing. Returns 0 or -1 with err set. */
int demo_maybe_load(struct app *app, struct err *err);

/* Writes the whole data set with connection d inside the caller's
 * transaction (used by the writer job and by tests). */
int demo_write(db *d, struct err *err);

#endif
