/* demo: loading the example data set (core/demo.h) at start-up through the
 * writer when `prophecyd serve --demo` asks for it. */
#ifndef PROPHECY_DEMO_H
#define PROPHECY_DEMO_H

#include "core/demo.h"
#include "server/http.h"

/* Loads the data set when app->cfg->demo is set and the database has no
 * applications; otherwise does nothing. Returns 0 or -1 with err set. */
int demo_maybe_load(struct app *app, struct err *err);

#endif
