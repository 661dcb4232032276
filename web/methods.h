/* methods: the table of modeling methods (core/method.h rows).
 *
 * The one place where a method's computing (core/method_*.c) and its chart
 * (web/chart_*.c) are put together; the JSON API, saved models, plots and the
 * forms find a method here by name. Adding a method: docs/architecture.md.
 */
#ifndef PROPHECY_WEB_METHODS_H
#define PROPHECY_WEB_METHODS_H

#include "core/method.h"

/* The method named name ("fit", "parameterize", "couple"), or NULL. */
const struct method *method_find(const char *name);

#endif
