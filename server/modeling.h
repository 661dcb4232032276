/* modeling: the server's side of the modeling methods (SPEC §5).
 *
 * The row type and its contract (answer, predict, plot) are core/method.h;
 * the methods are core/method_*.h with their charts in web/chart.h, and the
 * table (method_find) is web/methods.h. Here: saving (model_save) and the
 * plot URLs of unsaved requests.
 */
#ifndef PROPHECY_MODELING_H
#define PROPHECY_MODELING_H

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "core/catalog_read.h"
#include "core/method.h"
#include "core/method_couple.h"
#include "core/method_fit.h"
#include "core/method_param.h"
#include "db/db.h"
#include "web/chart.h"
#include "web/methods.h" /* method_find */

/* ---- saving (server/api_models.c) ------------------------------------------
 *
 * The one path by which a model is stored, shared by POST /api/v1/<method>
 * with "save": true and the Save button of the modeling forms (docs/web.md):
 * the request and the answer are stored as JSON through the writer thread
 * (models table; application and one-line formula for the catalog). */

struct req;
struct model_save {
    struct catalog_model c; /* what is stored; c.id once the write succeeded */
    const struct method *m;
    json_t *answer; /* owned; dropped after finish returns */
    int (*finish)(struct req *r);
    void *user; /* the caller's */
};

/* Stores request (borrowed: serialized before return) and answer (taken)
 * through http_defer_write. When the write is done, finish(r) runs with
 * r->ctx pointing at the struct model_save: r->job.rc != 0 means nothing was
 * stored (r->job.err says why), else s->id is the new model. name (copied)
 * names the model, or NULL. Returns 0 once
 * deferred (the handler must return at once), or -1 with err set when
 * nothing could be queued (the answer is then released). */
int model_save(struct req *r, const struct method *m, json_t *request, json_t *answer,
               const char *name, int (*finish)(struct req *r), void *user,
               struct err *err);

/* The /plots URL of an unsaved request (the "plot" field of an unsaved
 * answer), in the request's arena; NULL when the request is too long to
 * travel in a URL. */
const char *model_plot_url(struct req *r, const struct method *m, json_t *request);

#endif
