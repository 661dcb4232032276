/* config_order: configurations (executable, system, nprocs, inputs) in the
 * order people read them. The store gives them ordered by the text of their
 * canonical inputs, so arg1=128 came before arg1=16 and arg1=2; here inputs
 * compare by name, then by value as a number: 2, 16, 128. One rule for every
 * list of configurations (the application page, compare), the same on every
 * engine. */
#ifndef PROPHECY_CONFIG_ORDER_H
#define PROPHECY_CONFIG_ORDER_H

#include <stddef.h> /* offsetof */

#include "common/err.h"

/* Where an element's fields are: its executable and system names (const
 * char *), canonical inputs JSON (const char *, {"N":1000.0}, keys in name
 * order) and nprocs (long long), as offsets in the element. */
struct config_layout {
    size_t size, executable, system, inputs_json, nprocs;
};
#define CONFIG_LAYOUT(type)                                                              \
    ((struct config_layout){sizeof(type), offsetof(type, executable),                    \
                            offsetof(type, system), offsetof(type, inputs_json),         \
                            offsetof(type, nprocs)})

/* Sorts the n configurations at base (as the store gave them, grouped by
 * executable and system): the groups stay in the order given; within one, by
 * inputs (name, then value) and nprocs. 0, or -1 with err on memory
 * exhaustion (base unchanged). */
int config_sort(void *base, size_t n, struct config_layout l, struct err *err);

/* One configuration's x and the value of another of its variables. */
struct config_xv {
    double x, v;
};
/* Whether, over the n pairs p (sorted here by x), v takes one value at each
 * x and moves one way with x (strictly up, or strictly down) across two x or
 * more: a variable that changes with x, as the size of a weak-scaling series
 * grows with the processes (N = 100 p), rather than a second configuration
 * at the same x or two sizes each measured over a range of x. One rule for
 * the fit, the scaling view and the fit form's default. */
int config_varies_with_x(struct config_xv *p, size_t n);

#endif
