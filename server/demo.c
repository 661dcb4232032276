/* demo: the start-up adapter of the example data set; see demo.h. */
#include "server/demo.h"

#include <string.h>

static int demo_job(db *d, void *arg, struct err *err)
{
    (void)arg;
    return demo_load_if_empty(d, err);
}

int demo_maybe_load(struct app *app, struct err *err)
{
    struct db_job job;
    memset(&job, 0, sizeof job);
    if (!app->cfg->demo)
        return 0;
    job.fn = demo_job;
    if (db_writer_run(app->writer, &job) != 0) {
        *err = job.err;
        return -1;
    }
    return 0;
}
