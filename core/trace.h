/* trace (core): a run's MPI trace into the store and its analyses out of it
 * (SPEC §13).
 *
 * On arrival (POST /api/v1/runs/{id}/trace with a tar of the recorder's
 * trace.RANK files, `prophecyd import --format otf2`) the trace is parsed and
 * checked (formats/trace.h), every analysis of models/trace.h is computed
 * once, and the per-rank files are stored with each analysis' JSON answer and
 * SVG chart (db/trace.h) in one transaction. Reads are then one row. Only a
 * timeline at a width other than the stored one is computed from the stored
 * files on demand.
 *
 * Drawing is presentation: the caller passes a `draw` function (web's
 * charts, wired by the server) that turns an analysis into SVG.
 */
#ifndef PROPHECY_CORE_TRACE_H
#define PROPHECY_CORE_TRACE_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "core/ingest.h"
#include "db/db.h"
#include "db/trace.h"
#include "formats/formats.h"
#include "models/trace.h"

/* The analyses, in page order. */
enum run_trace_kind {
    RUN_TRACE_PROFILE,
    RUN_TRACE_WAIT,
    RUN_TRACE_TRAFFIC,
    RUN_TRACE_LOAD,
    RUN_TRACE_TIMELINE,
    RUN_TRACE_OCCUPANCY,
    RUN_TRACE_CLUSTERS,
    RUN_TRACE_COUNT
};

/* The timeline width stored with a trace (pixels). */
#define RUN_TRACE_WIDTH 800

/* The version of what a trace stores beside its files: each analysis' answer
 * and chart, computed once on arrival. Bump it whenever run_trace_compute,
 * run_trace_text or the charts drawn (server/trace_draw.h, web/chart_trace.c)
 * change what they store: every trace stored with an older version (the
 * traces table's `analysed`; 0 for the traces stored before versions were
 * kept) is then analysed again from its stored files when `prophecyd serve`
 * starts (core/trace_renew.h), so an upgrade shows its fixes on old traces
 * too. 1: the palette plan's "other (N more)", "outside any event",
 * "NAME (state)" legends, wide charts that scroll. */
#define RUN_TRACE_VERSION 1

/* "profile", ... for a kind; NULL outside the range. */
const char *run_trace_name(int kind);

/* The names of t's states as answers and charts show them (class_name in the
 * JSON): "NAME (state)" for a state named like a built-in class (an OTF2
 * region called "compute"), else the name. An array of t->nnames strings in
 * one allocation (free with xfree), or NULL when out of memory. */
char **trace_state_labels(const struct trace *t);
/* The kind named `name`, or -1. */
int run_trace_find(const char *name);

/* Every analysis of one trace (NULL where not computed). */
struct run_trace_set {
    const struct trace *t;
    struct trace_profile *profile;
    struct trace_wait *wait;
    struct trace_traffic *traffic;
    struct trace_load *load;
    struct trace_timeline *timeline;
    struct trace_occupancy *occupancy;
    struct trace_clusters *clusters;
};

/* Computes the analysis `kind` of s->t into s (timeline at `width`).
 * Returns 0 or -1 with err set (ERR_TOO_LARGE for a too large answer, ERR_NOMEM memory).
 */
int run_trace_compute(struct run_trace_set *s, int kind, int width, struct err *err);
/* Frees the analyses (not the trace). */
void run_trace_set_free(struct run_trace_set *s);

/* The JSON answer of a computed analysis (a new reference), or NULL out of
 * memory. */
json_t *run_trace_json(const struct run_trace_set *s, int kind);

/* The most text an analysis' answer or chart may take (bytes): past it, an
 * ERR_TOO_LARGE "too_large". */
#define RUN_TRACE_TEXT_MAX (64u << 20)

/* Appends the JSON answer of a computed analysis to out as text: byte for
 * byte json_dumps(run_trace_json(s, kind), JSON_COMPACT |
 * JSON_REAL_PRECISION(17)), the timeline written straight into out (no
 * Jansson value per run). Returns 0, or -1 with err set (ERR_TOO_LARGE when out's
 * maximum is reached, ERR_NOMEM out of memory). */
int run_trace_text(const struct run_trace_set *s, int kind, struct buf *out,
                   struct err *err);

/* Draws a computed analysis as SVG into out; 0 or -1 with err set. */
typedef int (*run_trace_draw_fn)(const struct run_trace_set *s, int kind, struct buf *out,
                                 struct err *err);

/* A trace on its way into the store: the per-rank files (borrowed, index =
 * rank), the parsed trace and every analysis' answer and chart. */
struct run_trace_upload {
    long long run_id;
    struct trace *t;
    int nranks;
    const void **ranks;
    size_t *lens;
    long long nevents;
    size_t bytes;
    char *answer[RUN_TRACE_COUNT]; /* malloc'd JSON */
    char *svg[RUN_TRACE_COUNT];    /* malloc'd SVG */
};

/* Computes every analysis of up->t as on arrival into up->answer and
 * up->svg (drawn with draw), one analysis in memory at a time. Returns 0,
 * or -1 with err set; on -1 up->answer and up->svg may hold some texts
 * (run_trace_upload_free frees them). */
int run_trace_analyse(struct run_trace_upload *up, run_trace_draw_fn draw,
                      struct err *err);

/* Fills up from a tar archive of trace.RANK files (the body of POST
 * /api/v1/runs/{id}/trace; borrowed, must outlive up), checking the archive
 * and the trace, and computes every analysis. Returns 0, or -1 with err
 * set (ERR_INVALID "invalid_trace" naming the fault, ERR_TOO_LARGE when too large); on -1
 * up holds nothing to free. Free with run_trace_upload_free. */
int run_trace_from_tar(struct run_trace_upload *up, long long run_id, const char *data,
                       size_t len, arena *a, run_trace_draw_fn draw, struct err *err);
/* The same from an archive that may hold the run document as well: with doc
 * not NULL, the archive must hold one member named run.json besides the
 * trace files, returned in *doc (borrowed from data); with doc NULL such a
 * member is refused. */
int run_trace_from_archive(struct run_trace_upload *up, long long run_id,
                           const char *data, size_t len, struct fmt_file *doc, arena *a,
                           run_trace_draw_fn draw, struct err *err);
/* The same from a parsed trace (takes ownership of t; an import). The rank
 * files are encoded from t (formats/trace.h) into the arena. */
int run_trace_from_trace(struct run_trace_upload *up, long long run_id, struct trace *t,
                         arena *a, run_trace_draw_fn draw, struct err *err);
void run_trace_upload_free(struct run_trace_upload *up);

/* Stores up inside the caller's transaction (a writer job: arg is the
 * upload). ERR_NOT_FOUND when the run does not exist, ERR_CONFLICT when it has a trace.
 */
int run_trace_store(db *d, void *arg, struct err *err);

/* An imported trace (formats/formats.h's sink `traces`: OTF2) stored for
 * the run with client id `uid`, inside the caller's transaction and after
 * that run was stored (a sink keeps the traces the parser hands over and
 * calls this once its runs are in, in the same transaction). Takes
 * ownership of t. The trace is encoded in the recorder's format and read
 * back by its checked reader before anything is computed. ERR_NOT_FOUND when no run
 * has that uid; a run that already has a trace keeps it (returns 0).
 * Returns 0 or -1. */
int run_trace_import(db *d, const char *uid, struct trace *t, arena *a,
                     run_trace_draw_fn draw, struct err *err);

/* The second half of an import whose trace was analysed before the
 * writer's job (run_trace_from_trace with run_id 0, outside the
 * transaction, so that writes do not wait for the analyses): stores up for
 * the run with client id `uid` inside the caller's transaction, after that
 * run was stored. ERR_NOT_FOUND when no run has that uid; a run that already has a
 * trace keeps it (returns 0 with *existed = 1). up stays the caller's.
 * Returns 0 or -1. */
int run_trace_store_uid(db *d, const char *uid, struct run_trace_upload *up, int *existed,
                        struct err *err);

/* A run and its trace in one go (POST /api/v1/traces): the run (an ingest
 * of one run, core/ingest.h) and the trace stored in one writer job,
 * run_trace_bundle_job (arg: the bundle); both or nothing. The same run
 * sent again with its trace stores nothing (trace_existed); a stored run
 * that has another trace is an ERR_CONFLICT. */
struct run_trace_bundle {
    struct ingest in;
    struct run_trace_upload up;
    int trace_existed; /* OUT */
};
int run_trace_bundle_job(db *d, void *arg, struct err *err);

/* Reads a stored analysis: JSON (svg = 0) or SVG (svg = 1) text in the
 * arena. ERR_NOT_FOUND when the run has no trace. Returns 0 or -1. */
int run_trace_stored(db *d, long long run_id, int kind, int svg, arena *a,
                     const char **text, size_t *len, struct err *err);

/* Loads run_id's trace from the store (ERR_NOT_FOUND when it has none); free with
 * trace_free. */
int run_trace_load(db *d, long long run_id, arena *a, struct trace **t, struct err *err);

/* The bounds of run_id's trace (strings in a); ERR_NOT_FOUND when it has none.
 * Returns 0 or -1. */
int run_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                   struct err *err);

/* Whether run_id has a trace: 1, 0, or -1 with err set. */
int run_trace_exists(db *d, long long run_id, struct err *err);

/* Lyon's estimator across the traced runs of one application: each state
 * class's occupancy fraction against x ("nprocs" or an input's name),
 * fitted with `graph` (NULL: automatic). Returns a new JSON answer, or NULL
 * with err set (ERR_NOT_FOUND no such traced runs, ERR_INVALID too few). */
json_t *run_trace_occupancy_fit(db *d, const char *application, const char *x,
                                const char *graph, arena *a, struct err *err);

#endif
