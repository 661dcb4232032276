/* import_otf2: an OTF2 trace (the anchor file *.otf2 with its global
 * definitions and per-location event files, as Score-P writes them) into a
 * run, through Debian's OTF2 library (libotf2-trace-dev).
 *
 * Each region is a kernel whose time is its largest exclusive time over the
 * locations (its time on the stack's top: inclusive minus the regions it
 * called, SPEC §16), with the mean and min over the locations that entered
 * it as metrics, its inclusive time (recursion counted once) as `inclusive`,
 * `inclusive_mean` and `inclusive_min`, and the largest number of entries as
 * calls, as TAU's flat profiles are read; times are converted from timer ticks to seconds
 * with the clock's resolution. nprocs is the number of process location groups (MPI
 * ranks), else of locations; the run time is the trace length; the application is the
 * program of the trace's ProgramBegin record unless the options name it. The library
 * reads from a directory, so the named files are written to a private temporary directory
 * first (absolute names taken from their common directory; names with ".." are refused)
 * and removed afterwards, also when a process that was killed left one behind. Events are
 * bounded by LIMIT_IMPORT_OTF2_EVENTS. Locations are read one at a time and each region's
 * figures are folded in as a location ends: memory for the data, not per location per
 * chunk or per location per region.
 *
 * The run's trace for the analyses of SPEC §13 goes to the sink's `traces`
 * callback (formats/trace.h's record type) after the run: every region named
 * like an MPI routine the recorder knows (MPI_Send ... MPI_Ialltoallv) is a
 * call, with its peer, tag and bytes from the MpiSend/MpiIsend/MpiRecv/
 * MpiIrecv/MpiCollectiveEnd records inside it (a receive completed in
 * MPI_Wait gives the Wait its source, as the recorder does; one completed in
 * a Waitall/any/some or Test call is a completed receive of that call, its
 * trace_done); every other
 * region is a user state (the first LIMIT_TRACE_NAMES names; regions beyond
 * are not states). A location is a rank. Peers and roots in OTF2's records
 * are ranks of the record's communicator: translated through the
 * definitions (Comm -> its COMM_GROUP -> indexes into the COMM_LOCATIONS
 * group -> locations) into world ranks, and each communicator whose members
 * are known becomes one of the trace's (members + definition order), so that
 * collectives on sub-communicators are matched among their members. Without
 * those definitions a rank is taken as a world rank (a peer outside the
 * world is dropped to -1). A trace whose process groups hold several
 * locations (threads, as a hybrid MPI+OpenMP program's) has its ranks in the
 * MPI locations group (COMM_LOCATIONS: one location per process, its master
 * thread): those locations are moved to the front in that order before any
 * event is read, so that a location index is the world rank, and are the
 * trace's ranks; the other threads' events enter the kernels, not the trace.
 * Without such a group it gives the run only. A trace of more ranks than a
 * trace may have (LIMIT_TRACE_RANKS) is refused from the definitions alone:
 * they are written and read first (in the child), the event files only
 * after, so no event is written or read for it.
 */
#include <stdio.h>
#include <string.h>

#include "common/asan.h"
#include "formats/import.h"
#include "formats/limits.h"

/* An archive's anchor file NAME.otf2 (its NAME.def and NAME/ beside it). */
long root_otf2(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".otf2") == 0 ? imp_dir_len(name) : -1;
}

int sniff_otf2(const struct fmt_file *files, size_t nfiles)
{
    for (size_t i = 0; i < nfiles; i++) {
        size_t n = files[i].name ? strlen(files[i].name) : 0;
        if (n > 5 && strcmp(files[i].name + n - 5, ".otf2") == 0)
            return 1;
    }
    return 0;
}

#ifndef PROPHECY_HAVE_OTF2

int import_otf2(const struct fmt_file *files, size_t nfiles,
                const struct fmt_options *opt, const struct fmt_sink *sink,
                struct err *err)
{
    (void)nfiles;
    (void)opt;
    (void)sink;
    return imp_fail_field(
        err, files ? files[0].name : NULL, "format",
        "this prophecyd was built without OTF2 (install libotf2-trace-dev "
        "and rebuild)");
}

#else

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "formats/trace.h"

struct o2_loc {
    uint64_t ref;
    uint32_t *stack; /* region indexes */
    uint64_t *since; /* enter times */
    size_t depth, cap;
    /* the trace: events, the last time seen, the MPI call open now */
    struct trace_event *ev;
    size_t nev, capev;
    uint64_t last;
    int cur_op;              /* routine of the open MPI region, or 0 */
    struct trace_event pend; /* what its MPI records said */
    /* receives completed inside the open Waitall/any/some or Test call (its
     * MpiIrecv records), then the trace's completed receives: event indexes
     * the unsorted ev[] until build_trace renumbers them */
    struct trace_done *pdone, *done;
    size_t npdone, cappdone, ndone, capdone;
};

/* An MPI group definition (COMM_LOCATIONS, COMM_GROUP or COMM_SELF). */
struct o2_grp {
    uint64_t ref;
    int type;
    uint32_t flags, n;
    uint64_t *m;
};

/* A communicator: its ranks as locations (rank[k], -1 unknown), `self` for a
 * COMM_SELF-like one (rank 0 is the recording location), `global` when its
 * records already hold COMM_LOCATIONS indexes; num = its number among the
 * trace's communicators (trace_event.comm), 0 none; sorted: its locations
 * ascending, for membership. */
struct o2_comm {
    uint64_t ref, group;
    int size, self, global;
    int32_t *rank, *sorted;
    uint32_t num;
};

/* A definition's reference with its index, sorted by ref: the lookups of
 * every event are a binary search, not a walk over all definitions (an
 * 8 MiB trace once held every write for 11 s). */
struct o2_ix {
    uint64_t ref;
    size_t at;
};

/* A region's figures over the locations read so far (folded in as each
 * location ends: memory per region, not per region and location). */
struct o2_agg {
    double max, min, sum;    /* exclusive */
    double imax, imin, isum; /* inclusive */
    uint64_t calls;
    size_t seen;
};

struct o2 {
    const char *file;
    struct err *err;
    uint64_t resolution, length;
    uint64_t *str_ref;
    char **str;
    size_t nstr, capstr;
    uint64_t *reg_ref;
    uint64_t *reg_name; /* string refs */
    size_t nreg, capreg;
    struct o2_loc *loc;
    size_t nloc, caploc;
    size_t groups;
    size_t nranks; /* the trace's ranks: locations [0, nranks), 0 = no trace */
    int traced;    /* the caller keeps the trace (fmt_sink.traces) */
    struct o2_ix *ix_str, *ix_reg, *ix_loc, *ix_comm; /* sorted by ref */
    /* the location being read (one at a time) and its per-region figures */
    size_t cur;
    uint64_t *incl;    /* [region] ticks */
    int64_t *excl;     /* [region] ticks: own durations minus callees' */
    uint64_t *enters;  /* [region] */
    uint32_t *active;  /* [region]: how often on the stack */
    uint32_t *touched; /* regions entered by this location */
    size_t ntouched;
    struct o2_agg *agg; /* [region] over the locations done */
    uint64_t program;   /* string ref of the first ProgramBegin's name, or UNDEFINED */
    uint64_t events;
    int failed;
    /* the trace */
    uint64_t offset; /* global offset of the clock */
    int *reg_op;     /* [region] routine (enum trace_op), 0 for a state */
    int *reg_state;  /* [region] state name index, or -1 */
    char **names;    /* state names */
    int nnames;
    uint64_t nev; /* events recorded for the trace */
    /* communicators */
    struct o2_grp *grp;
    size_t ngrp, capgrp;
    struct o2_comm *comm;
    size_t ncomm, capcomm;
    int32_t *wloc; /* [world rank] location index, from COMM_LOCATIONS; NULL: same */
    size_t nwloc;
    struct trace_comm *tc; /* the trace's communicators (handed to it) */
    int ntc;
};

static OTF2_CallbackCode on_clock(void *u, uint64_t res, uint64_t off, uint64_t len,
                                  uint64_t real)
{
    struct o2 *o = u;
    (void)real;
    o->resolution = res;
    o->length = len;
    o->offset = off;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *u, OTF2_StringRef self, const char *s)
{
    struct o2 *o = u;
    size_t c1 = o->capstr, c2 = o->capstr;
    if (xgrow((void **)&o->str_ref, &c1, o->nstr + 1, sizeof *o->str_ref) ||
        xgrow((void **)&o->str, &c2, o->nstr + 1, sizeof *o->str)) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    o->capstr = c1;
    o->str_ref[o->nstr] = self;
    o->str[o->nstr] = xstrdup(s ? s : "");
    if (o->str[o->nstr] == NULL) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    o->nstr++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canon, OTF2_StringRef desc,
                                   OTF2_RegionRole role, OTF2_Paradigm par,
                                   OTF2_RegionFlag fl, OTF2_StringRef src, uint32_t b,
                                   uint32_t e)
{
    struct o2 *o = u;
    size_t c1 = o->capreg, c2 = o->capreg;
    (void)canon, (void)desc, (void)role, (void)par, (void)fl, (void)src, (void)b, (void)e;
    if (o->nreg >= LIMIT_KERNELS) {
        o->failed = imp_fail_field(o->err, o->file, "regions", "more than %d regions",
                                   LIMIT_KERNELS);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (xgrow((void **)&o->reg_ref, &c1, o->nreg + 1, sizeof *o->reg_ref) ||
        xgrow((void **)&o->reg_name, &c2, o->nreg + 1, sizeof *o->reg_name)) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    o->capreg = c1;
    o->reg_ref[o->nreg] = self;
    o->reg_name[o->nreg++] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t nevents,
                                     OTF2_LocationGroupRef group)
{
    struct o2 *o = u;
    (void)name, (void)type, (void)group;
    if (o->nloc >= 1000000 ||
        xgrow((void **)&o->loc, &o->caploc, o->nloc + 1, sizeof *o->loc) != 0) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    memset(&o->loc[o->nloc], 0, sizeof o->loc[o->nloc]);
    o->loc[o->nloc++].ref = self;
    o->events += nevents;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *u, OTF2_LocationGroupRef self,
                                  OTF2_StringRef name, OTF2_LocationGroupType type,
                                  OTF2_SystemTreeNodeRef parent,
                                  OTF2_LocationGroupRef creator)
{
    struct o2 *o = u;
    (void)self, (void)name, (void)parent, (void)creator;
    if (type == OTF2_LOCATION_GROUP_TYPE_PROCESS)
        o->groups++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_members(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                    OTF2_GroupType type, OTF2_Paradigm paradigm,
                                    OTF2_GroupFlag flags, uint32_t n,
                                    const uint64_t *members)
{
    struct o2 *o = u;
    struct o2_grp *g;
    (void)name;
    if (paradigm != OTF2_PARADIGM_MPI ||
        (type != OTF2_GROUP_TYPE_COMM_LOCATIONS && type != OTF2_GROUP_TYPE_COMM_GROUP &&
         type != OTF2_GROUP_TYPE_COMM_SELF))
        return OTF2_CALLBACK_SUCCESS;
    if (n > LIMIT_TRACE_RANKS || o->ngrp >= LIMIT_TRACE_COMMS) {
        o->failed =
            imp_fail_field(o->err, o->file, "definitions",
                           "more than %d MPI groups, or one of more than %d members",
                           LIMIT_TRACE_COMMS, LIMIT_TRACE_RANKS);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (xgrow((void **)&o->grp, &o->capgrp, o->ngrp + 1, sizeof *o->grp) != 0) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    g = &o->grp[o->ngrp];
    *g = (struct o2_grp){self, (int)type, flags, n, NULL};
    if (n > 0) {
        if ((g->m = xmalloc((size_t)n * sizeof *g->m)) == NULL) {
            o->failed = err_nomem(o->err);
            return OTF2_CALLBACK_INTERRUPT;
        }
        memcpy(g->m, members, (size_t)n * sizeof *g->m);
    }
    o->ngrp++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent,
                                 OTF2_CommFlag flags)
{
    struct o2 *o = u;
    (void)name, (void)parent, (void)flags;
    if (o->ncomm >= LIMIT_TRACE_COMMS) {
        o->failed = imp_fail_field(o->err, o->file, "definitions",
                                   "more than %d communicators", LIMIT_TRACE_COMMS);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (xgrow((void **)&o->comm, &o->capcomm, o->ncomm + 1, sizeof *o->comm) != 0) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    memset(&o->comm[o->ncomm], 0, sizeof o->comm[o->ncomm]);
    o->comm[o->ncomm].ref = self;
    o->comm[o->ncomm++].group = group;
    return OTF2_CALLBACK_SUCCESS;
}

static int ix_cmp(const void *a, const void *b)
{
    const struct o2_ix *x = a, *y = b;
    if (x->ref != y->ref)
        return x->ref < y->ref ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at; /* the first definition wins */
}

/* An index of n refs (ref(i) gives the i-th), sorted; NULL when out of
 * memory. */
static struct o2_ix *ix_build(const void *base, size_t n, size_t stride, size_t off)
{
    struct o2_ix *ix = xmalloc((n ? n : 1) * sizeof *ix);
    if (ix == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        memcpy(&ix[i].ref, (const char *)base + i * stride + off, sizeof ix[i].ref);
        ix[i].at = i;
    }
    qsort(ix, n, sizeof *ix, ix_cmp);
    return ix;
}

/* The index of the first definition of ref, or -1. */
static long ix_find(const struct o2_ix *ix, size_t n, uint64_t ref)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix[mid].ref < ref)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ix[lo].ref == ref ? (long)ix[lo].at : -1;
}

static long find_str(const struct o2 *o, uint64_t ref)
{
    return ix_find(o->ix_str, o->nstr, ref);
}

static long find_reg(const struct o2 *o, uint64_t ref)
{
    return ix_find(o->ix_reg, o->nreg, ref);
}

static long find_loc(const struct o2 *o, uint64_t ref)
{
    if (o->cur < o->nloc && o->loc[o->cur].ref == ref)
        return (long)o->cur; /* the location being read */
    return ix_find(o->ix_loc, o->nloc, ref);
}

/* After the global definitions, before the indexes: the trace's ranks. One
 * location per process: all of them. Several (threads): the members of the
 * MPI locations group, one per process, moved to the front in its order (a
 * location's index is then its world rank, as the peers of its records
 * say); none without such a group. 0, or -1 out of memory. */
static int ranks_first(struct o2 *o)
{
    const struct o2_grp *g = NULL;
    struct o2_ix *ix;
    struct o2_loc *to;
    unsigned char *taken;
    size_t n = 0;

    o->nranks = o->groups == 0 || o->groups == o->nloc ? o->nloc : 0;
    if (o->nranks != 0)
        return 0;
    for (size_t i = 0; i < o->ngrp && g == NULL; i++)
        if (o->grp[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS && o->grp[i].n == o->groups)
            g = &o->grp[i];
    if (g == NULL || g->n == 0)
        return 0;
    ix = ix_build(o->loc, o->nloc, sizeof *o->loc, offsetof(struct o2_loc, ref));
    to = xmalloc(o->nloc * sizeof *to);
    taken = xcalloc(o->nloc, 1);
    if (ix == NULL || to == NULL || taken == NULL) {
        xfree(ix);
        xfree(to);
        xfree(taken);
        return err_nomem(o->err);
    }
    for (uint32_t k = 0; k < g->n; k++) {
        long l = ix_find(ix, o->nloc, g->m[k]);
        if (l < 0 || taken[l])
            break; /* not one location per rank: no trace */
        taken[l] = 1;
        to[n++] = o->loc[l];
    }
    if (n == g->n) {
        for (size_t l = 0; l < o->nloc; l++)
            if (!taken[l])
                to[n++] = o->loc[l];
        memcpy(o->loc, to, o->nloc * sizeof *to);
        o->nranks = g->n;
    }
    xfree(ix);
    xfree(to);
    xfree(taken);
    return 0;
}

/* After the global definitions: the indexes of strings, regions, locations
 * and communicators. 0, or -1 out of memory. */
static int build_indexes(struct o2 *o)
{
    o->ix_str = ix_build(o->str_ref, o->nstr, sizeof *o->str_ref, 0);
    o->ix_reg = ix_build(o->reg_ref, o->nreg, sizeof *o->reg_ref, 0);
    o->ix_loc = ix_build(o->loc, o->nloc, sizeof *o->loc, offsetof(struct o2_loc, ref));
    o->ix_comm =
        ix_build(o->comm, o->ncomm, sizeof *o->comm, offsetof(struct o2_comm, ref));
    if (!o->ix_str || !o->ix_reg || !o->ix_loc || !o->ix_comm)
        return err_nomem(o->err);
    return 0;
}

/* The library prints its errors to stderr by default; our own message names
 * what failed, so its detail stays quiet. */
static OTF2_ErrorCode quiet(void *u, const char *file, uint64_t line, const char *fn,
                            OTF2_ErrorCode code, const char *fmt, va_list ap)
{
    (void)u, (void)file, (void)line, (void)fn, (void)fmt, (void)ap;
    return code;
}

static int i32_cmp(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

/* The location of world rank w (a COMM_LOCATIONS index), or -1. */
static int32_t world_loc(const struct o2 *o, uint64_t w)
{
    if (o->wloc != NULL)
        return w < o->nwloc ? o->wloc[w] : -1;
    return w < o->nloc ? (int32_t)w : -1;
}

/* After the definitions: each communicator's ranks as locations, and the
 * trace's communicator table (members in location indexes, NULL for all
 * locations in order; seq = how many with the same members came before). */
static int resolve_comms(struct o2 *o)
{
    for (size_t i = 0; i < o->ngrp; i++)
        if (o->grp[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
            xfree(o->wloc);
            o->nwloc = o->grp[i].n;
            if ((o->wloc = xmalloc((o->nwloc ? o->nwloc : 1) * sizeof *o->wloc)) == NULL)
                return err_nomem(o->err);
            for (size_t k = 0; k < o->nwloc; k++)
                o->wloc[k] = (int32_t)find_loc(o, o->grp[i].m[k]);
            break;
        }
    if (o->ncomm > 0 && (o->tc = xcalloc(o->ncomm, sizeof *o->tc)) == NULL)
        return err_nomem(o->err);
    for (size_t c = 0; c < o->ncomm; c++) {
        struct o2_comm *cm = &o->comm[c];
        const struct o2_grp *g = NULL;
        int ok = 1, ordered;
        for (size_t i = 0; i < o->ngrp && g == NULL; i++)
            if (o->grp[i].ref == cm->group)
                g = &o->grp[i];
        if (g == NULL)
            continue; /* unknown: its ranks are taken as world ranks */
        if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
            cm->self = 1;
            cm->size = 1;
            continue;
        }
        cm->global = (g->flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) != 0;
        cm->size = (int)g->n;
        cm->rank = xmalloc((g->n ? g->n : 1) * sizeof *cm->rank);
        cm->sorted = xmalloc((g->n ? g->n : 1) * sizeof *cm->sorted);
        if (cm->rank == NULL || cm->sorted == NULL)
            return err_nomem(o->err);
        ordered = g->n == o->nranks; /* all of the trace's ranks, in order */
        for (uint32_t k = 0; k < g->n; k++) {
            cm->rank[k] = g->type == OTF2_GROUP_TYPE_COMM_LOCATIONS
                              ? world_loc(o, k)
                              : world_loc(o, g->m[k]);
            ok &= cm->rank[k] >= 0;
            ordered &= cm->rank[k] == (int32_t)k;
        }
        memcpy(cm->sorted, cm->rank, (g->n ? g->n : 1) * sizeof *cm->rank);
        qsort(cm->sorted, g->n, sizeof *cm->sorted, i32_cmp);
        for (uint32_t k = 1; k < g->n; k++)
            ok &= cm->sorted[k] != cm->sorted[k - 1];
        if (!ok || g->n == 0 || g->n > o->nloc)
            continue; /* not a communicator of these locations: no identity */
        {
            struct trace_comm *tc = &o->tc[o->ntc];
            tc->size = (int)g->n;
            if (!ordered) {
                if ((tc->members = xmalloc(g->n * sizeof *tc->members)) == NULL)
                    return err_nomem(o->err);
                memcpy(tc->members, cm->rank, g->n * sizeof *tc->members);
            }
            for (int j = 0; j < o->ntc; j++)
                tc->seq +=
                    o->tc[j].size == tc->size &&
                    (o->tc[j].members == NULL) == (tc->members == NULL) &&
                    (tc->members == NULL || memcmp(o->tc[j].members, tc->members,
                                                   g->n * sizeof *tc->members) == 0);
            cm->num = (uint32_t)++o->ntc;
        }
    }
    return 0;
}

static struct o2_comm *find_comm(struct o2 *o, uint64_t ref)
{
    long i = ix_find(o->ix_comm, o->ncomm, ref);
    return i >= 0 ? &o->comm[i] : NULL;
}

/* The location of rank r of communicator `comm` in a record of location l. */
static int32_t comm_rank(struct o2 *o, long l, uint64_t comm, uint32_t r)
{
    struct o2_comm *c = find_comm(o, comm);
    if (r == OTF2_UNDEFINED_UINT32)
        return -1;
    if (c == NULL || c->global || (c->rank == NULL && !c->self))
        return world_loc(o, r);
    if (c->self)
        return r == 0 ? (int32_t)l : -1;
    return (int)r < c->size ? c->rank[r] : -1;
}

/* Notes the communicator of location l's open MPI call: its size and, when
 * l is one of its members, its number. */
static void note_comm(struct o2 *o, struct o2_loc *L, long l, uint64_t comm)
{
    struct o2_comm *c = find_comm(o, comm);
    if (c == NULL || c->size <= 0)
        return;
    L->pend.comm_size = (uint32_t)c->size;
    L->pend.comm = 0;
    if (c->num > 0) {
        int32_t key = (int32_t)l;
        if (bsearch(&key, c->sorted, (size_t)c->size, sizeof key, i32_cmp) != NULL)
            L->pend.comm = c->num;
    }
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef where, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region)
{
    struct o2 *o = u;
    long l = find_loc(o, where), r = find_reg(o, region);
    struct o2_loc *L;
    size_t c1, c2;
    (void)al;
    if (l < 0 || r < 0) {
        o->failed = imp_fail_field(o->err, o->file, "events",
                                   "an event refers to an undefined location or region");
        return OTF2_CALLBACK_INTERRUPT;
    }
    L = &o->loc[l];
    if (L->depth >= 10000) {
        o->failed =
            imp_fail_field(o->err, o->file, "events", "regions nest deeper than 10000");
        return OTF2_CALLBACK_INTERRUPT;
    }
    c1 = c2 = L->cap;
    if (xgrow((void **)&L->stack, &c1, L->depth + 1, sizeof *L->stack) ||
        xgrow((void **)&L->since, &c2, L->depth + 1, sizeof *L->since)) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    L->cap = c1;
    L->stack[L->depth] = (uint32_t)r;
    L->since[L->depth++] = t;
    if (o->enters[r]++ == 0)
        o->touched[o->ntouched++] = (uint32_t)r;
    o->active[r]++;
    if (t > L->last)
        L->last = t;
    if (o->reg_op[r] > 0) {
        memset(&L->pend, 0, sizeof L->pend);
        L->pend.peer = L->pend.peer2 = -1;
        L->cur_op = o->reg_op[r];
        L->npdone = 0;
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* Seconds since the clock's offset. */
static double secs(const struct o2 *o, uint64_t t)
{
    return t > o->offset ? (double)(t - o->offset) / (double)o->resolution : 0.0;
}

/* One call or state of the trace, closed at t. */
static int record(struct o2 *o, struct o2_loc *L, long r, uint64_t t)
{
    struct trace_event *e;
    size_t cap = L->capev;
    if (o->nev >= LIMIT_TRACE_EVENTS || L->nev >= LIMIT_TRACE_EVENTS_RANK) {
        o->failed = imp_fail_field(o->err, o->file, "events",
                                   "more than %d events in one location, or %d in all, "
                                   "for the trace analyses",
                                   LIMIT_TRACE_EVENTS_RANK, LIMIT_TRACE_EVENTS);
        return -1;
    }
    if (xgrow((void **)&L->ev, &cap, L->nev + 1, sizeof *L->ev) != 0) {
        o->failed = err_nomem(o->err);
        return -1;
    }
    L->capev = cap;
    e = &L->ev[L->nev++];
    o->nev++;
    if (o->reg_op[r] > 0) {
        size_t cap2 = L->capdone;
        *e = L->pend;
        e->op = (uint16_t)o->reg_op[r];
        /* the receives this completion call completed */
        if (L->npdone > 0 && trace_op_completes(e->op)) {
            if (L->ndone + L->npdone > LIMIT_TRACE_EVENTS_RANK) {
                o->failed = imp_fail_field(o->err, o->file, "events",
                                           "more than %d completed receives in one "
                                           "location",
                                           LIMIT_TRACE_EVENTS_RANK);
                return -1;
            }
            for (size_t k = 0; k < L->npdone; k++) {
                if (xgrow((void **)&L->done, &cap2, L->ndone + 1, sizeof *L->done) != 0) {
                    o->failed = err_nomem(o->err);
                    return -1;
                }
                L->capdone = cap2;
                L->done[L->ndone] = L->pdone[k];
                L->done[L->ndone].event = L->done[L->ndone].first = L->nev - 1;
                L->ndone++;
            }
        }
        L->npdone = 0;
        if (e->comm_size == 0) /* no communicator named */
            e->comm_size = (uint32_t)(o->nranks ? o->nranks : o->nloc);
        L->cur_op = 0;
    } else {
        memset(e, 0, sizeof *e);
        e->peer = e->peer2 = -1;
        e->op = TRACE_OP_STATE;
        e->name = (uint16_t)o->reg_state[r];
    }
    e->begin = secs(o, L->since[L->depth]);
    e->end = secs(o, t);
    /* a leave stamped before its enter (a location's clock ran backwards):
     * no duration, as the profile counts it (on_leave), and a trace the
     * store takes (trace_encode wants end >= begin; found by libFuzzer) */
    if (e->end < e->begin)
        e->end = e->begin;
    return 0;
}

static struct o2_loc *mpi_loc(struct o2 *o, OTF2_LocationRef where)
{
    long l = find_loc(o, where);
    return l >= 0 && o->loc[l].cur_op > 0 ? &o->loc[l] : NULL;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef where, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    struct o2 *o = u;
    struct o2_loc *L = mpi_loc(o, where);
    (void)t, (void)al;
    if (L != NULL) {
        long l = L - o->loc;
        note_comm(o, L, l, comm);
        L->pend.peer = comm_rank(o, l, comm, receiver);
        L->pend.tag = (int32_t)tag;
        L->pend.bytes = (int64_t)(len > INT64_MAX ? INT64_MAX : len);
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef where, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                  uint64_t request)
{
    (void)request;
    return on_send(where, t, u, al, receiver, comm, tag, len);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef where, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    struct o2 *o = u;
    struct o2_loc *L = mpi_loc(o, where);
    long l;
    (void)t, (void)al;
    if (L == NULL)
        return OTF2_CALLBACK_SUCCESS;
    l = L - o->loc;
    note_comm(o, L, l, comm);
    if (L->cur_op == TRACE_OP_SENDRECV ||
        L->cur_op == TRACE_OP_SENDRECV_REPLACE) { /* its receive half */
        L->pend.peer2 = comm_rank(o, l, comm, sender);
        L->pend.tag2 = (int32_t)tag;
    } else {
        L->pend.peer = comm_rank(o, l, comm, sender);
        L->pend.tag = (int32_t)tag;
        L->pend.bytes = (int64_t)(len > INT64_MAX ? INT64_MAX : len);
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* The completion of an MPI_Irecv: inside MPI_Wait it gives the Wait its
 * source (as the recorder does); inside a Waitall/any/some or Test call it is
 * one of the call's completed receives. */
static OTF2_CallbackCode on_irecv(OTF2_LocationRef where, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                  uint64_t request)
{
    struct o2 *o = u;
    struct o2_loc *L = mpi_loc(o, where);
    int32_t peer;
    (void)request;
    if (L == NULL || !trace_op_completes(L->cur_op))
        return on_recv(where, t, u, al, sender, comm, tag, len);
    peer = comm_rank(o, L - o->loc, comm, sender);
    if (peer < 0)
        return OTF2_CALLBACK_SUCCESS;
    if (xgrow((void **)&L->pdone, &L->cappdone, L->npdone + 1, sizeof *L->pdone) != 0) {
        o->failed = err_nomem(o->err);
        return OTF2_CALLBACK_INTERRUPT;
    }
    L->pdone[L->npdone++] = (struct trace_done){
        0, (int64_t)(len > INT64_MAX ? INT64_MAX : len), peer, (int32_t)tag, 0};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef where, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received)
{
    struct o2 *o = u;
    struct o2_loc *L = mpi_loc(o, where);
    (void)t, (void)al, (void)op, (void)received;
    if (L != NULL) {
        long l = L - o->loc;
        note_comm(o, L, l, comm);
        L->pend.peer = comm_rank(o, l, comm, root);
        L->pend.bytes = (int64_t)(sent > INT64_MAX ? INT64_MAX : sent);
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* Each region as a routine of the recorder's (by its name) or a user state. */
static int classify_regions(struct o2 *o)
{
    o->reg_op = xcalloc(o->nreg + 1, sizeof *o->reg_op);
    o->reg_state = xcalloc(o->nreg + 1, sizeof *o->reg_state);
    o->names = xcalloc((size_t)LIMIT_TRACE_NAMES + 1, sizeof *o->names);
    if (o->reg_op == NULL || o->reg_state == NULL || o->names == NULL)
        return err_nomem(o->err);
    for (size_t g = 0; g < o->nreg; g++) {
        long s = find_str(o, o->reg_name[g]);
        const char *name = s >= 0 ? o->str[s] : "";
        int k;
        o->reg_state[g] = -1;
        for (int op = 1; op < TRACE_OP_COUNT; op++)
            if (strcmp(name, trace_op_name(op)) == 0)
                o->reg_op[g] = op;
        if (o->reg_op[g] > 0 || *name == '\0')
            continue;
        for (k = 0; k < o->nnames && strcmp(o->names[k], name) != 0; k++)
            ;
        if (k == o->nnames) {
            if (o->nnames == LIMIT_TRACE_NAMES)
                continue;
            if ((o->names[o->nnames] = xstrdup(name)) == NULL)
                return err_nomem(o->err);
            o->nnames++;
        }
        o->reg_state[g] = k;
    }
    return 0;
}

static int ev_order(const void *a, const void *b)
{
    const struct trace_event *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return x->end > y->end ? -1 : x->end < y->end; /* the enclosing one first */
}

/* After the sort: each completed receive names its call by its new index,
 * found by the begin (in ns) kept in `first` (a location's calls do not
 * overlap; states may share a begin, hence the routine check). */
static void renumber(struct o2_loc *L)
{
    for (size_t k = 0; k < L->ndone; k++) {
        double at = (double)L->done[k].first * 1e-9;
        size_t lo = 0, hi = L->nev;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (L->ev[mid].begin < at - 0.5e-9)
                lo = mid + 1;
            else
                hi = mid;
        }
        while (lo + 1 < L->nev && !trace_op_completes(L->ev[lo].op))
            lo++;
        L->done[k].event = L->done[k].first = lo;
    }
}

/* The trace of the run (ownership of the events and names moves to it), or
 * NULL when it has no ranks (ranks_first). */
static struct trace *build_trace(struct o2 *o, struct err *err, int *failed)
{
    struct trace *t;
    *failed = 0;
    if (o->nranks == 0)
        return NULL;
    t = xcalloc(1, sizeof *t);
    if (t == NULL || (t->ranks = xcalloc(o->nranks, sizeof *t->ranks)) == NULL) {
        xfree(t);
        *failed = err_nomem(err);
        return NULL;
    }
    t->nranks = (int)o->nranks;
    t->comms = o->tc;
    t->ncomms = o->ntc;
    o->tc = NULL;
    o->ntc = 0;
    t->names = o->names;
    t->nnames = o->nnames;
    o->names = NULL;
    o->nnames = 0;
    for (size_t l = 0; l < o->nranks; l++) {
        struct o2_loc *L = &o->loc[l];
        for (size_t k = 0; k < L->ndone; k++) /* its call's begin, until the sort */
            L->done[k].first = (size_t)(L->ev[L->done[k].event].begin * 1e9 + 0.5);
        qsort(L->ev, L->nev, sizeof *L->ev, ev_order);
        renumber(L);
        t->ranks[l].ev = L->ev;
        t->ranks[l].nevents = L->nev;
        t->ranks[l].t_end = secs(o, L->last);
        t->ranks[l].done = L->done;
        t->ranks[l].ndone = L->ndone;
        L->ev = NULL;
        L->nev = 0;
        L->done = NULL;
        L->ndone = 0;
    }
    return t;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef where, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region)
{
    struct o2 *o = u;
    long l = find_loc(o, where), r = find_reg(o, region);
    struct o2_loc *L;
    (void)al;
    if (l < 0 || r < 0 || o->loc[l].depth == 0 ||
        o->loc[l].stack[o->loc[l].depth - 1] != (uint32_t)r) {
        o->failed = imp_fail_field(o->err, o->file, "events",
                                   "a leave event does not match the last enter");
        return OTF2_CALLBACK_INTERRUPT;
    }
    L = &o->loc[l];
    L->depth--;
    if (t >= L->since[L->depth]) {
        uint64_t d = t - L->since[L->depth];
        if (--o->active[r] == 0)
            o->incl[r] += d;
        /* exclusive: the whole call, less in the caller (a recursive call's
         * caller is the same region, so its time is counted once) */
        o->excl[r] += (int64_t)d;
        if (L->depth > 0)
            o->excl[L->stack[L->depth - 1]] -= (int64_t)d;
    } else {
        o->active[r]--;
    }
    if (t > L->last)
        L->last = t;
    if ((o->reg_op[r] > 0 || o->reg_state[r] >= 0) && record(o, L, r, t) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_program(OTF2_LocationRef where, OTF2_TimeStamp t,
                                    uint64_t pos, void *u, OTF2_AttributeList *al,
                                    OTF2_StringRef name, uint32_t nargs,
                                    const OTF2_StringRef *args)
{
    struct o2 *o = u;
    (void)where, (void)t, (void)pos, (void)al, (void)nargs, (void)args;
    if (o->program == OTF2_UNDEFINED_STRING)
        o->program = name;
    return OTF2_CALLBACK_SUCCESS;
}

/* The per-location reader's callbacks carry the event's position too. */
static OTF2_CallbackCode l_enter(OTF2_LocationRef w, OTF2_TimeStamp t, uint64_t pos,
                                 void *u, OTF2_AttributeList *al, OTF2_RegionRef r)
{
    (void)pos;
    return on_enter(w, t, u, al, r);
}

static OTF2_CallbackCode l_leave(OTF2_LocationRef w, OTF2_TimeStamp t, uint64_t pos,
                                 void *u, OTF2_AttributeList *al, OTF2_RegionRef r)
{
    (void)pos;
    return on_leave(w, t, u, al, r);
}

static OTF2_CallbackCode l_send(OTF2_LocationRef w, OTF2_TimeStamp t, uint64_t pos,
                                void *u, OTF2_AttributeList *al, uint32_t peer,
                                OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    (void)pos;
    return on_send(w, t, u, al, peer, comm, tag, len);
}

static OTF2_CallbackCode l_isend(OTF2_LocationRef w, OTF2_TimeStamp t, uint64_t pos,
                                 void *u, OTF2_AttributeList *al, uint32_t peer,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                 uint64_t request)
{
    (void)pos;
    return on_isend(w, t, u, al, peer, comm, tag, len, request);
}

static OTF2_CallbackCode l_recv(OTF2_LocationRef w, OTF2_TimeStamp t, uint64_t pos,
                                void *u, OTF2_AttributeList *al, uint32_t peer,
                                OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    (void)pos;
    return on_recv(w, t, u, al, peer, comm, tag, len);
}

static OTF2_CallbackCode l_irecv(OTF2_LocationRef w, OTF2_TimeStamp t, uint64_t pos,
                                 void *u, OTF2_AttributeList *al, uint32_t peer,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                 uint64_t request)
{
    (void)pos;
    return on_irecv(w, t, u, al, peer, comm, tag, len, request);
}

static OTF2_CallbackCode l_coll_end(OTF2_LocationRef w, OTF2_TimeStamp t, uint64_t pos,
                                    void *u, OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                    OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                    uint64_t received)
{
    (void)pos;
    return on_coll_end(w, t, u, al, op, comm, root, sent, received);
}

/* Folds the location just read into the regions' figures and clears its
 * own for the next. */
static void fold_location(struct o2 *o)
{
    double res = (double)o->resolution;
    for (size_t k = 0; k < o->ntouched; k++) {
        uint32_t r = o->touched[k];
        struct o2_agg *a = &o->agg[r];
        double t = (double)o->incl[r] / res;
        /* a callee that outlived its caller (damaged nesting) is no negative time */
        double x = o->excl[r] > 0 ? (double)o->excl[r] / res : 0;
        if (a->seen == 0 || t > a->imax)
            a->imax = t;
        if (a->seen == 0 || t < a->imin)
            a->imin = t;
        if (a->seen == 0 || x > a->max)
            a->max = x;
        if (a->seen == 0 || x < a->min)
            a->min = x;
        if (o->enters[r] > a->calls)
            a->calls = o->enters[r];
        a->sum += x;
        a->isum += t;
        a->seen++;
        o->incl[r] = o->enters[r] = 0;
        o->excl[r] = 0;
        o->active[r] = 0;
    }
    o->ntouched = 0;
}

#define O2_TMP_PREFIX "prophecy-otf2-"

static void remove_tree(const char *dir, int depth);

/* Removes what imports of processes that no longer run left behind: a
 * directory O2_TMP_PREFIX PID-XXXXXX under tmp whose PID is gone (a server
 * killed during an import; its trace stays there otherwise). */
static void sweep_stale(const char *tmp)
{
    DIR *d = opendir(tmp);
    struct dirent *e;
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[4096], *end;
        long pid;
        if (strncmp(e->d_name, O2_TMP_PREFIX, strlen(O2_TMP_PREFIX)) != 0)
            continue;
        errno = 0;
        pid = strtol(e->d_name + strlen(O2_TMP_PREFIX), &end, 10);
        if (errno != 0 || *end != '-' || pid <= 0 || pid == (long)getpid() ||
            kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", tmp, e->d_name) < (int)sizeof path)
            remove_tree(path, 0);
    }
    closedir(d);
}

/* The directory part (with its '/') that every name shares when a name is
 * absolute (files named by the paths given on the command line), else 0:
 * the archive's layout is what lies under it. */
static size_t common_dir(const struct fmt_file *files, size_t n)
{
    size_t len = 0;
    int absolute = 0;
    for (size_t i = 0; i < n; i++)
        absolute |= files[i].name[0] == '/';
    if (!absolute || n == 0)
        return 0;
    {
        const char *slash = strrchr(files[0].name, '/');
        len = (size_t)(slash - files[0].name) + 1;
    }
    for (size_t i = 1; i < n; i++) {
        const char *a = files[0].name, *b = files[i].name;
        size_t k = 0;
        while (k < len && a[k] == b[k])
            k++;
        while (k > 0 && a[k - 1] != '/')
            k--;
        len = k;
    }
    return len;
}

/* Which files unpack writes: all of them; the definitions' part (all but
 * the event directory NAME/ beside the anchor NAME.otf2), into a fresh
 * directory; or then the event directory's part. */
enum { UNPACK_ALL, UNPACK_DEFS, UNPACK_EVENTS };

/* Whether a file's name is inside the event directory of the anchor named
 * anchor_name (NAME/... beside NAME.otf2). */
static int in_event_dir(const char *name, const char *anchor_name)
{
    size_t stem = strlen(anchor_name) - 5; /* without ".otf2" */
    return strncmp(name, anchor_name, stem) == 0 && name[stem] == '/';
}

/* Writes the files of `part` (anchor_name: the anchor's name as given, for
 * the two parts) under a fresh temporary directory (UNPACK_EVENTS: under
 * dir, made by UNPACK_DEFS); sets *anchor. */
static int unpack(const struct fmt_file *files, size_t n, char *dir, size_t dirsz,
                  char *anchor, size_t asz, const char *anchor_name, int part,
                  struct err *err)
{
    const char *tmp = getenv("TMPDIR");
    size_t skip = common_dir(files, n);
    tmp = tmp && *tmp ? tmp : "/tmp";
    if (part != UNPACK_EVENTS) {
        sweep_stale(tmp);
        snprintf(dir, dirsz, "%s/" O2_TMP_PREFIX "%ld-XXXXXX", tmp, (long)getpid());
        if (mkdtemp(dir) == NULL) {
            int saved = errno;
            dir[0] = '\0';
            return err_set(err, ERR_INTERNAL, "io_error", NULL,
                           "cannot make a temporary directory: %s", strerror(saved));
        }
        anchor[0] = '\0';
    }
    for (size_t i = 0; i < n; i++) {
        const char *name = files[i].name + skip;
        char path[4096];
        FILE *f;
        size_t len = strlen(name);
        if (part != UNPACK_ALL &&
            in_event_dir(files[i].name, anchor_name) != (part == UNPACK_EVENTS))
            continue;
        if (name[0] == '/' || strstr(name, "..") != NULL || len == 0)
            return imp_fail_field(err, files[i].name, "files",
                                  "a file name must be relative, "
                                  "without \"..\"");
        if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
            return imp_fail_field(err, files[i].name, "files",
                                  "the file name is too long");
        for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
            *s = '\0';
            if (mkdir(path, 0700) != 0 && errno != EEXIST)
                return err_set(err, ERR_INTERNAL, "io_error", NULL, "cannot write %s",
                               name);
            *s = '/';
        }
        if ((f = fopen(path, "wbx")) == NULL) {
            if (errno == ENOTDIR || errno == EISDIR || errno == EEXIST)
                return imp_fail_field(err, files[i].name, "files",
                                      "a file and a directory, or two files, share "
                                      "this name");
            return err_set(err, ERR_INTERNAL, "io_error", NULL, "cannot write %s", name);
        }
        if (fwrite(files[i].data, 1, files[i].len, f) != files[i].len) {
            fclose(f);
            return err_set(err, ERR_INTERNAL, "io_error", NULL, "cannot write %s", name);
        }
        if (fclose(f) != 0)
            return err_set(err, ERR_INTERNAL, "io_error", NULL, "cannot write %s", name);
        if (len > 5 && strcmp(name + len - 5, ".otf2") == 0) {
            if (anchor[0])
                return imp_fail_field(err, files[i].name, "files",
                                      "more than one anchor file (*.otf2)");
            snprintf(anchor, asz, "%s", path);
        }
    }
    if (!anchor[0])
        return imp_fail_field(err, NULL, "files",
                              "no anchor file (*.otf2) among the files");
    return 0;
}

/* Removes a temporary directory with whatever is in it (links not
 * followed; nesting as deep as a tar may hold). */
static void remove_tree(const char *dir, int depth)
{
    DIR *d = depth < 64 ? opendir(dir) : NULL;
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
            continue;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(path, depth + 1);
        else
            unlink(path);
    }
    if (d != NULL)
        closedir(d);
    rmdir(dir);
}

/* Reads the trace at anchor into o: its definitions (checked against the
 * limits), then unless defs_only its events. Returns 0 or -1 with o->err. */
static int read_trace(struct o2 *o, const char *anchor, int defs_only)
{
    OTF2_Reader *rd = OTF2_Reader_Open(anchor);
    OTF2_GlobalDefReader *gdr;
    OTF2_GlobalDefReaderCallbacks *dcb = NULL;
    OTF2_EvtReaderCallbacks *ecb = NULL;
    uint64_t n;
    int rc = -1;

    if (rd == NULL)
        return imp_fail_field(o->err, o->file, "file",
                              "the OTF2 library cannot open the trace");
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    if ((gdr = OTF2_Reader_GetGlobalDefReader(rd)) == NULL ||
        (dcb = OTF2_GlobalDefReaderCallbacks_New()) == NULL) {
        imp_fail_field(o->err, o->file, "file", "the trace has no readable definitions");
        goto out;
    }
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dcb, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dcb, on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dcb, on_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dcb, on_group);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dcb, on_members);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(dcb, on_comm);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, dcb, o);
    if (OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n) != OTF2_SUCCESS || o->failed) {
        imp_fail_field(o->err, o->file, "definitions",
                       "the global definitions are damaged");
        goto out;
    }
    if (o->resolution == 0 || o->nloc == 0) {
        imp_fail_field(o->err, o->file, "definitions",
                       "the trace has no clock or no location");
        goto out;
    }
    if (o->events > LIMIT_IMPORT_OTF2_EVENTS) {
        imp_fail_field(o->err, o->file, "events", "more than %d events",
                       LIMIT_IMPORT_OTF2_EVENTS);
        goto out;
    }
    if (ranks_first(o) != 0)
        goto out;
    /* a trace (one location per process, as build_trace makes one) of more
     * ranks than a trace may have is refused now, as the definitions tell,
     * with trace_parse's answer, before any event is read */
    if (o->traced && o->nranks != 0 &&
        trace_check_ranks((long long)o->nranks, o->err) != 0)
        goto out;
    if (defs_only) {
        rc = 0;
        goto out;
    }
    if (build_indexes(o) != 0 || classify_regions(o) != 0 || resolve_comms(o) != 0)
        goto out;
    o->incl = xcalloc(o->nreg + 1, sizeof *o->incl);
    o->excl = xcalloc(o->nreg + 1, sizeof *o->excl);
    o->enters = xcalloc(o->nreg + 1, sizeof *o->enters);
    o->active = xcalloc(o->nreg + 1, sizeof *o->active);
    o->touched = xcalloc(o->nreg + 1, sizeof *o->touched);
    o->agg = xcalloc(o->nreg + 1, sizeof *o->agg);
    if (!o->incl || !o->excl || !o->enters || !o->active || !o->touched || !o->agg ||
        (ecb = OTF2_EvtReaderCallbacks_New()) == NULL) {
        err_nomem(o->err);
        goto out;
    }
    OTF2_EvtReaderCallbacks_SetEnterCallback(ecb, l_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(ecb, l_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(ecb, l_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(ecb, l_isend);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(ecb, l_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(ecb, l_irecv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(ecb, l_coll_end);
    OTF2_EvtReaderCallbacks_SetProgramBeginCallback(ecb, on_program);
    for (size_t i = 0; i < o->nloc; i++)
        OTF2_Reader_SelectLocation(rd, o->loc[i].ref);
    if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
        imp_fail_field(o->err, o->file, "events", "the event files cannot be opened");
        goto out;
    }
    OTF2_Reader_OpenDefFiles(rd);
    /* One location at a time, each reader closed before the next: the
     * library buffers a whole chunk per open reader (up to 16 MiB), so
     * opening them all, as the merged global reader does, took 5 GB for a
     * 0.23 MB trace of 10,000 locations. The figures need no global order:
     * a location's events are its own. */
    for (o->cur = 0; o->cur < o->nloc; o->cur++) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, o->loc[o->cur].ref);
        OTF2_EvtReader *er;
        if (dr) {
            uint64_t m;
            OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &m);
            OTF2_Reader_CloseDefReader(rd, dr);
        }
        er = OTF2_Reader_GetEvtReader(rd, o->loc[o->cur].ref);
        if (er == NULL) {
            imp_fail_field(o->err, o->file, "events", "the events cannot be read");
            goto out;
        }
        OTF2_Reader_RegisterEvtCallbacks(rd, er, ecb, o);
        if (OTF2_Reader_ReadAllLocalEvents(rd, er, &n) != OTF2_SUCCESS || o->failed) {
            OTF2_Reader_CloseEvtReader(rd, er);
            if (!o->failed)
                imp_fail_field(o->err, o->file, "events",
                               "the event files are damaged or truncated");
            goto out;
        }
        OTF2_Reader_CloseEvtReader(rd, er);
        fold_location(o);
    }
    OTF2_Reader_CloseDefFiles(rd);
    OTF2_Reader_CloseEvtFiles(rd);
    rc = 0;
out:
    if (ecb)
        OTF2_EvtReaderCallbacks_Delete(ecb);
    if (dcb)
        OTF2_GlobalDefReaderCallbacks_Delete(dcb);
    OTF2_Reader_Close(rd);
    return rc;
}

static void o2_free(struct o2 *o)
{
    for (size_t i = 0; i < o->nstr; i++)
        xfree(o->str[i]);
    for (size_t i = 0; i < o->nloc; i++) {
        xfree(o->loc[i].stack);
        xfree(o->loc[i].since);
        xfree(o->loc[i].ev);
        xfree(o->loc[i].pdone);
        xfree(o->loc[i].done);
    }
    for (int i = 0; i < o->nnames; i++)
        xfree(o->names[i]);
    xfree(o->names);
    xfree(o->reg_op);
    xfree(o->reg_state);
    xfree(o->str);
    xfree(o->str_ref);
    xfree(o->reg_ref);
    xfree(o->reg_name);
    xfree(o->loc);
    xfree(o->incl);
    xfree(o->excl);
    xfree(o->enters);
    xfree(o->active);
    xfree(o->touched);
    xfree(o->agg);
    xfree(o->ix_str);
    xfree(o->ix_reg);
    xfree(o->ix_loc);
    xfree(o->ix_comm);
    for (size_t i = 0; i < o->ngrp; i++)
        xfree(o->grp[i].m);
    xfree(o->grp);
    for (size_t i = 0; i < o->ncomm; i++) {
        xfree(o->comm[i].rank);
        xfree(o->comm[i].sorted);
    }
    xfree(o->comm);
    xfree(o->wloc);
    for (int i = 0; i < o->ntc; i++)
        xfree(o->tc[i].members);
    xfree(o->tc);
}

/* The OTF2 library is not written for hostile files: on a damaged anchor
 * file OTF2_Reader_Open returns NULL and leaks the archive it had opened
 * (~10 KB a time, found by fuzz_import_otf2), and damaged definitions can
 * make it allocate far beyond the trace's size. So the whole read is tried
 * first in a child process with bounded memory and CPU time
 * (LIMIT_IMPORT_OTF2_MEMORY, LIMIT_IMPORT_OTF2_CPU); its error record comes
 * back through a pipe. Only a trace the child read to the end is read again
 * here, and that read takes the same path, so the library's failure paths
 * never run in this process: a leak, a crash or an exhausted limit ends with
 * the child, and the answer says what failed. The price is reading an OTF2
 * trace twice. (Under AddressSanitizer the memory limit is not set: its
 * shadow memory alone exceeds it; its own allocator limit stops the child.) */
/* The address space the reader may add for an archive of `bytes`. */
static unsigned long long child_budget(size_t bytes)
{
    unsigned long long add = LIMIT_IMPORT_OTF2_MEMORY - LIMIT_IMPORT_OTF2_MEMORY_BASE;
    if (bytes < add / LIMIT_IMPORT_OTF2_MEMORY_PER_BYTE)
        add = (unsigned long long)bytes * LIMIT_IMPORT_OTF2_MEMORY_PER_BYTE;
    return LIMIT_IMPORT_OTF2_MEMORY_BASE + add;
}

#ifndef PROPHECY_ASAN
/* In the child: limits its address space to what it holds now (the
 * server's mappings it inherited) plus budget. (Not under ASan, whose
 * shadow memory an address-space limit would starve.) */
static void limit_memory(unsigned long long budget)
{
    unsigned long long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    struct rlimit mem;
    long page = sysconf(_SC_PAGESIZE);
    if (f != NULL) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    mem.rlim_cur = mem.rlim_max =
        (rlim_t)(pages * (unsigned long long)(page > 0 ? page : 4096) + budget);
    setrlimit(RLIMIT_AS, &mem);
}
#endif

static int read_in_child(const struct o2 *parent, const char *anchor, size_t bytes,
                         int defs_only)
{
    unsigned long long budget = child_budget(bytes);
    struct err e = {0};
    int fd[2], status;
    ssize_t got;
    pid_t pid;

    if (pipe(fd) != 0)
        return err_set(parent->err, ERR_INTERNAL, "io_error", NULL,
                       "cannot make a pipe: %s", strerror(errno));
    if ((pid = fork()) < 0) {
        close(fd[0]);
        close(fd[1]);
        return err_set(parent->err, ERR_UNAVAILABLE, "busy", NULL,
                       "cannot start the OTF2 reader: %s", strerror(errno));
    }
    if (pid == 0) {
        struct o2 o = {.file = parent->file,
                       .err = &e,
                       .program = OTF2_UNDEFINED_STRING,
                       .traced = parent->traced};
        struct rlimit cpu = {LIMIT_IMPORT_OTF2_CPU, LIMIT_IMPORT_OTF2_CPU};
#ifndef PROPHECY_ASAN
        limit_memory(budget);
#else
        (void)budget;
#endif
        close(fd[0]);
        setrlimit(RLIMIT_CPU, &cpu);
        int rc = read_trace(&o, anchor, defs_only);
        if (rc != 0 && e.status == 0)
            err_set(&e, ERR_INVALID, "invalid_import", "file",
                    "the trace cannot be read");
        if (write(fd[1], &e, sizeof e) != (ssize_t)sizeof e)
            _exit(2);
        _exit(rc == 0 ? 0 : 1);
    }
    close(fd[1]);
    do
        got = read(fd[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(fd[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return err_set(parent->err, ERR_INTERNAL, "io_error", NULL,
                           "lost the OTF2 reader: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == (ssize_t)sizeof e)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && got == (ssize_t)sizeof e &&
        e.status != 0) {
        e.code[sizeof e.code - 1] = e.message[sizeof e.message - 1] =
            e.field[sizeof e.field - 1] = '\0';
        if (strcmp(e.code, "out_of_memory") == 0) /* the child's budget, not ours */
            return imp_fail_field(parent->err, parent->file, "file",
                                  "reading the trace needs more than %d MB of memory",
                                  (int)(budget >> 20));
        return err_set(parent->err, e.status, e.code, e.field, "%s", e.message);
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
        return imp_fail_field(parent->err, parent->file, "file",
                              "reading the trace needs more than %d s of CPU time",
                              LIMIT_IMPORT_OTF2_CPU);
    if (WIFSIGNALED(status))
        return imp_fail_field(parent->err, parent->file, "file",
                              "the OTF2 library failed on this trace (%s; more than "
                              "%d MB of memory, or a damaged file)",
                              strsignal(WTERMSIG(status)), (int)(budget >> 20));
    return imp_fail_field(parent->err, parent->file, "file",
                          "the OTF2 library failed on this trace (exit status %d)",
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* The application's name from the trace's ProgramBegin record (the last
 * part of the program's path, as Score-P records argv[0]), or NULL when the
 * trace has none or it is not a valid name (then the file's name). */
static const char *program_name(const struct o2 *o, arena *a)
{
    long s = o->program == OTF2_UNDEFINED_STRING ? -1 : find_str(o, o->program);
    const char *name, *slash;
    struct err ignored = {0};
    if (s < 0)
        return NULL;
    name = o->str[s];
    slash = strrchr(name, '/');
    if (slash != NULL)
        name = slash + 1;
    return *name ? imp_name(a, name, strlen(name), o->file, "program", &ignored) : NULL;
}

static int emit(struct o2 *o, const struct fmt_options *opt, const struct fmt_sink *sink)
{
    struct imp_batch b = {0};
    struct run_record *r;
    double res = (double)o->resolution;
    char *uid = NULL;
    int rc = -1;

    if (imp_batch_init(&b, "otf2", o->file, sink, o->err) != 0 ||
        (r = imp_batch_slot(&b, o->err)) == NULL)
        goto out;
    r->application = opt && opt->application ? opt->application : program_name(o, b.a);
    if (r->application == NULL)
        r->application = imp_base_name(b.a, o->file);
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system = opt && opt->system ? opt->system : "unknown";
    r->nprocs = o->groups ? (long long)o->groups : (long long)o->nloc;
    r->runtime = (double)o->length / res;
    if ((r->kernels = arena_alloc(b.a, (o->nreg + 1) * sizeof *r->kernels)) == NULL) {
        err_nomem(o->err);
        goto out;
    }
    for (size_t g = 0; g < o->nreg; g++) {
        const struct o2_agg *ag = &o->agg[g];
        double max = ag->max, min = ag->min, sum = ag->sum;
        long long calls =
            ag->calls > (uint64_t)LLONG_MAX ? LLONG_MAX : (long long)ag->calls;
        size_t seen = ag->seen;
        long s = find_str(o, o->reg_name[g]);
        struct rec_kernel *k;
        struct rec_kv m[5];
        int failed = 0;
        if (seen == 0)
            continue;
        k = &r->kernels[r->nkernels++];
        k->name = s >= 0 ? imp_name(b.a, o->str[s], strlen(o->str[s]), o->file, "region",
                                    o->err)
                         : NULL;
        if (k->name == NULL) {
            imp_fail_field(o->err, o->file, "regions", "a region has no valid name");
            goto out;
        }
        k->time = max;
        k->calls = calls;
        m[0] = (struct rec_kv){"mean", sum / (double)seen};
        m[1] = (struct rec_kv){"min", min};
        m[2] = (struct rec_kv){"inclusive", ag->imax};
        m[3] = (struct rec_kv){"inclusive_mean", ag->isum / (double)seen};
        m[4] = (struct rec_kv){"inclusive_min", ag->imin};
        k->metrics_json = imp_metrics_json(b.a, m, 5, &failed);
        if (failed) {
            err_nomem(o->err);
            goto out;
        }
    }
    if (r->runtime <= 0) /* no trace length: the longest inclusive time (a root's) */
        for (size_t g = 0; g < o->nreg; g++)
            if (o->agg[g].seen && o->agg[g].imax > r->runtime)
                r->runtime = o->agg[g].imax;
    if (imp_batch_commit(&b, "trace", o->err) != 0)
        goto out;
    if (r->uid != NULL && (uid = xstrdup(r->uid)) == NULL) {
        err_nomem(o->err);
        goto out;
    }
    if (imp_batch_finish(&b, o->err) != 0)
        goto out;
    rc = 0;
    if (sink->traces != NULL && uid != NULL) {
        int failed;
        struct trace *t = build_trace(o, o->err, &failed);
        if (failed)
            rc = -1;
        else if (t != NULL)
            rc = sink->traces(sink->ctx, uid, t, o->err);
    }
out:
    xfree(uid);
    imp_batch_free(&b);
    return rc;
}

/* An anchor file NAME.otf2 is only the trace's table of contents: the
 * library reads the global definitions from NAME.def and each location's
 * events from NAME/N.evt. Given alone (the anchor picked out of its
 * directory), the library's own failure says nothing useful: name what is
 * missing. 0, or -1 with an ERR_INVALID naming the anchor and the missing file. */
static int anchor_complete(const struct fmt_file *files, size_t nfiles,
                           const char *anchor, struct err *err)
{
    size_t stem = strlen(anchor) - 5; /* without ".otf2" */
    int defs = 0, events = 0;
    for (size_t i = 0; i < nfiles; i++) {
        const char *n = files[i].name;
        if (strncmp(n, anchor, stem) != 0)
            continue;
        defs |= strcmp(n + stem, ".def") == 0;
        events |= n[stem] == '/' && n[stem + 1] != '\0';
    }
    if (defs && events)
        return 0;
    {
        /* the names beside the anchor, short: a message holds 256 bytes */
        const char *base = strrchr(anchor, '/');
        int n;
        base = base ? base + 1 : anchor;
        n = (int)strlen(base) - 5;
        if (!defs && !events)
            return imp_fail_field(err, anchor, "files",
                                  "%.*s.def (the global definitions) and %.*s/ (the "
                                  "event files) are missing: send the trace's whole "
                                  "directory, not its anchor file alone",
                                  n, base, n, base);
        if (!defs)
            return imp_fail_field(
                err, anchor, "files",
                "%.*s.def (the global definitions) is missing: send "
                "the trace's whole directory, not its anchor file alone",
                n, base);
        return imp_fail_field(err, anchor, "files",
                              "%.*s/ (the per-location event files) is missing: send the "
                              "trace's whole directory, not its anchor file alone",
                              n, base);
    }
}

int import_otf2(const struct fmt_file *files, size_t nfiles,
                const struct fmt_options *opt, const struct fmt_sink *sink,
                struct err *err)
{
    struct o2 o = {.program = OTF2_UNDEFINED_STRING};
    char dir[4096], anchor[4096];
    size_t bytes = 0, anchors = 0;
    int rc = -1, made;

    for (size_t i = 0; i < nfiles; i++) {
        size_t n = strlen(files[i].name);
        if (n > 5 && strcmp(files[i].name + n - 5, ".otf2") == 0) {
            o.file = files[i].name;
            anchors++;
        }
    }
    o.err = err;
    o.traced = sink != NULL && sink->traces != NULL;
    dir[0] = '\0';
    if (anchors == 1 && anchor_complete(files, nfiles, o.file, err) != 0)
        return -1;
    OTF2_Error_RegisterCallback(quiet, NULL);
    for (size_t i = 0; i < nfiles; i++)
        bytes += files[i].len;
    /* a trace that would be refused (too many ranks) is known from the
     * definitions: they are written and read first, the events after */
    if (anchors == 1 && o.traced)
        made = unpack(files, nfiles, dir, sizeof dir, anchor, sizeof anchor, o.file,
                      UNPACK_DEFS, err) == 0 &&
               read_in_child(&o, anchor, bytes, 1) == 0 &&
               unpack(files, nfiles, dir, sizeof dir, anchor, sizeof anchor, o.file,
                      UNPACK_EVENTS, err) == 0;
    else
        made = unpack(files, nfiles, dir, sizeof dir, anchor, sizeof anchor, NULL,
                      UNPACK_ALL, err) == 0;
    if (made && read_in_child(&o, anchor, bytes, 0) == 0 &&
        read_trace(&o, anchor, 0) == 0)
        rc = emit(&o, opt, sink);
    if (dir[0])
        remove_tree(dir, 0);
    o2_free(&o);
    return rc;
}

#endif
