/* view: the pages of the web dashboard (SPEC §7, docs/web.md), each rendered
 * into a struct page (web/page.h) from data handed to it. A view knows no
 * HTTP and no database: the adapters of server/ (server/dash*.c) decode the
 * request, gather the data (core/browse.h) and call the view between
 * page_begin and page_finish, so every view can be rendered from hand-built
 * data (tests/unit/web/test_views.c).
 *
 * JSON arguments are borrowed (the shapes are those of db/summary.h and
 * db/catalog.h, named at each view); strings are borrowed; temporary
 * strings go to p->arena, which must be set.
 */
#ifndef PROPHECY_VIEW_H
#define PROPHECY_VIEW_H

#include <jansson.h>

#include "formats/record.h"
#include "web/page.h"

/* ---- the overview and the lists (view_overview.c) ----------------------- */

struct view_overview {
    json_t *counts;  /* {applications, systems, runs, templates, models,
                        demo_applications} */
    json_t *apps;    /* [{name, description, demo, executables, systems, runs}] */
    json_t *systems; /* [{name, processor, cores, network, demo, applications,
                        runs, benchmarks, parameters}] */
    json_t *recent;  /* [{id, application, executable, system, nprocs, runtime,
                        created_at}], newest first */
};
void view_overview(struct page *p, const struct view_overview *d);
void view_apps(struct page *p, json_t *apps);
void view_systems(struct page *p, json_t *systems);

/* ---- one run (view_run.c) ----------------------------------------------- */

struct view_run {
    long long id;
    const struct run_record *run;
    const char *created_at;
    int stored; /* show "The run was stored" (after an upload) */
};
void view_run(struct page *p, const struct view_run *d);

#endif
