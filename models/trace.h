/* trace: the analyses of an MPI trace, as pure computation.
 *
 * A trace is, per rank, the list of its MPI calls and probe states (struct
 * trace_event) in time order, on a clock shared by all ranks (seconds since the
 * common start). From it this module computes the seven analyses of SPEC §13:
 * profile, wait (Fernandes' wait-time matrix), traffic, load, timeline,
 * occupancy (Lyon's macrostates) and clusters (Pablo). No I/O: formats/trace
 * reads the files, the callers store and draw the answers.
 *
 * Every answer is a plain struct allocated by its function and freed by the
 * matching *_free (which accepts NULL). Functions return 0 or -1 (out of
 * memory, or an invalid argument, recorded in `err` when it is not NULL).
 * All functions are thread-safe on distinct answers; the trace is read-only.
 */
#ifndef PROPHECY_MODELS_TRACE_H
#define PROPHECY_MODELS_TRACE_H

#include "models/fit.h"

#include <stddef.h>
#include <stdint.h>

struct err;

/* Routines. The numbers are part of the file format (formats/trace.h): only
 * append. TRACE_OP_STATE is a probe state (name = index into trace.names). */
enum trace_op {
    TRACE_OP_STATE = 0,
    /* point-to-point */
    TRACE_OP_SEND,
    TRACE_OP_SSEND,
    TRACE_OP_RSEND,
    TRACE_OP_BSEND,
    TRACE_OP_ISEND,
    TRACE_OP_RECV,
    TRACE_OP_IRECV,
    TRACE_OP_SENDRECV,
    /* completion */
    TRACE_OP_WAIT,
    TRACE_OP_WAITALL,
    TRACE_OP_WAITANY,
    TRACE_OP_PROBE,
    /* collectives */
    TRACE_OP_BARRIER,
    TRACE_OP_BCAST,
    TRACE_OP_REDUCE,
    TRACE_OP_ALLREDUCE,
    TRACE_OP_GATHER,
    TRACE_OP_ALLGATHER,
    TRACE_OP_SCATTER,
    TRACE_OP_ALLTOALL,
    /* appended in format version 3 (the numbers above are unchanged) */
    TRACE_OP_ISSEND, /* point-to-point */
    TRACE_OP_IBSEND,
    TRACE_OP_IRSEND,
    TRACE_OP_SENDRECV_REPLACE,
    TRACE_OP_IPROBE, /* completion */
    TRACE_OP_TEST,
    TRACE_OP_TESTALL,
    TRACE_OP_TESTANY,
    TRACE_OP_TESTSOME,
    TRACE_OP_WAITSOME,
    TRACE_OP_GATHERV, /* blocking collectives */
    TRACE_OP_SCATTERV,
    TRACE_OP_ALLGATHERV,
    TRACE_OP_ALLTOALLV,
    TRACE_OP_REDUCE_SCATTER,
    TRACE_OP_REDUCE_SCATTER_BLOCK,
    TRACE_OP_SCAN,
    TRACE_OP_EXSCAN,
    TRACE_OP_IBARRIER, /* nonblocking collectives */
    TRACE_OP_IBCAST,
    TRACE_OP_IREDUCE,
    TRACE_OP_IALLREDUCE,
    TRACE_OP_IGATHER,
    TRACE_OP_IGATHERV,
    TRACE_OP_ISCATTER,
    TRACE_OP_ISCATTERV,
    TRACE_OP_IALLGATHER,
    TRACE_OP_IALLGATHERV,
    TRACE_OP_IALLTOALL,
    TRACE_OP_IALLTOALLV,
    TRACE_OP_COUNT
};

/* The routines of format versions 1 and 2 (MPI_Send .. MPI_Alltoall). */
#define TRACE_OP_COUNT_V2 (TRACE_OP_ALLTOALL + 1)

/* State classes (Lyon's modes), in this order; user states follow from
 * TRACE_CLASS_USER + name index. */
enum trace_class {
    TRACE_CLASS_COMPUTE = 0,
    TRACE_CLASS_P2P,
    TRACE_CLASS_COLLECTIVE,
    TRACE_CLASS_WAIT,
    TRACE_CLASS_USER
};

/* The routine's MPI name ("MPI_Send"; "state" for TRACE_OP_STATE), or NULL. */
const char *trace_op_name(int op);
/* The class of a routine (TRACE_CLASS_P2P .. TRACE_CLASS_WAIT), or -1 for a state. */
int trace_op_class(int op);
/* The class's name ("compute", "p2p", "collective", "wait"; NULL for user). */
const char *trace_class_name(int cls);
/* 1 for the calls that may complete receives recorded as struct trace_done
 * (Waitall, Waitany, Waitsome, Test, Testall, Testany, Testsome). */
int trace_op_completes(int op);
/* 1 for the Test family (Test, Testall, Testany, Testsome): polls. */
int trace_op_polls(int op);
/* 1 for a blocking collective (Barrier .. Alltoall, Gatherv .. Exscan): the
 * calls whose wait lasts until the last member of the communicator arrived. */
int trace_op_blocking_collective(int op);

/* One call or state. `peer` is a world rank or -1 (for a receive, the actual
 * source; for a rooted collective, the root; for MPI_Sendrecv, the destination
 * with `peer2` the source). `bytes` sent (or received, for receives). */
struct trace_event {
    double begin, end; /* seconds since the common start */
    int64_t bytes;
    int32_t peer, peer2, tag, tag2; /* peer2/tag2: Sendrecv's source and receive tag */
    uint32_t comm_size;
    uint16_t op;
    uint16_t name; /* state name index for TRACE_OP_STATE, else 0 */
    uint32_t comm; /* communicator: 1 + index into trace.comms; 0 unknown */
};

/* A communicator (format version 3): its members as world ranks, in the
 * communicator's rank order, and `seq`, which of the communicators with
 * these members it is (0 for the first created, 1 for the next: a
 * MPI_Comm_dup of it...). Members and seq identify it across its ranks.
 * members is NULL for MPI_COMM_WORLD's group in order (size = nranks). */
struct trace_comm {
    int size;
    uint32_t seq;
    int32_t *members;
};

/* A receive completed by an MPI_Waitall, Waitany, Waitsome or a Test call
 * (format version 2; Waitsome and Test since version 3):
 * event is the index of that call in its rank's ev[], peer the world rank of
 * the actual source, tag and bytes from its status. A rank's completions are
 * sorted by event; within one call, in the order of the call's requests. */
struct trace_done {
    size_t event;
    int64_t bytes;
    int32_t peer, tag;
    /* Test family (version 3): index of the first Test call that polled this
     * receive (<= event); the calls first..event of the Test family are the
     * loop that waited for it. Ignored for the Wait family. */
    size_t first;
};

struct trace_rank {
    double t_end; /* when the rank reached MPI_Finalize (execution time) */
    size_t nevents;
    struct trace_event *ev; /* sorted by begin */
    size_t ndone;
    struct trace_done *done; /* receives completed by Waitall/Waitany/Test... */
};

/* A whole run. Built by formats/trace (trace_read) or by hand in tests. */
struct trace {
    int nranks;
    int nnames;
    char **names; /* probe state names */
    struct trace_rank *ranks;
    long long dropped; /* events the recorder could not keep (buffers full) */
    int ncomms;        /* communicators named by events (version 3) */
    struct trace_comm *comms;
};

/* Frees a trace whose names, names[i], ranks, ranks[i].ev, ranks[i].done,
 * comms and comms[i].members were malloc'd. */
void trace_free(struct trace *t);

/* The number of MPI calls in the trace, all ranks together (0: a trace of
 * user states only, as Trace Event JSON's; NULL: 0). */
long long trace_mpi_calls(const struct trace *t);

/* ---- profile: time per routine per rank ------------------------------------ */
struct trace_profile {
    int nranks;
    double *time;     /* [rank * TRACE_OP_COUNT + op] seconds in the routine */
    long long *calls; /* same shape */
    double *mpi;      /* [rank] seconds in MPI */
    double *compute;  /* [rank] execution time minus MPI time */
    double *exec;     /* [rank] execution time */
    int nclasses;     /* trace_nclasses(t) */
    /* [rank * nclasses + class] seconds in each state class (see "states"
     * below: the MPI call's class, else the innermost probe state, else
     * compute); a rank's add up to its execution time */
    double *cls;
};
int trace_profile(const struct trace *t, struct trace_profile **out, struct err *err);
void trace_profile_free(struct trace_profile *p);

/* ---- wait: Fernandes' wait-time matrix --------------------------------------
 * w[i][j] = seconds rank i waited for rank j: a receive (blocking, the
 * completing wait of a nonblocking one, or Sendrecv's receive) waits from its
 * begin until the matching send began (late sender; matching is the n-th send
 * from j to i with that tag for the n-th such receive: MPI's non-overtaking
 * order); a blocking collective waits until the last member of its
 * communicator arrived, charged to that member (the k-th such call of each
 * member of one communicator are one collective; without communicator
 * identities, versions 1 and 2, only collectives over all ranks are matched).
 * A receive completed in a Test loop waits in the loop's Test calls (from its
 * first poll, trace_done.first) until the matching send began, each second of
 * a Test call charged at most once. A Waitall completing several receives (trace_done)
 * waits from its begin until the last of their matching sends began; that time is split
 * by the sends' begins: with them sorted s1 <= s2 <= ..., the peer of s1 is
 * charged [begin, s1], the peer of s_k [s_(k-1), s_k] (each peer for the
 * stretch in which it was the next one awaited), all clipped to the call. */
struct trace_wait_pair {
    int32_t i, j; /* rank i waited s seconds for rank j */
    double s;
};
/* The matrix is sparse: only the pairs with a wait (s > 0) are listed, so
 * that 4,096 ranks are not 16.7 million cells (the work and the answer
 * grow with the events, not with nranks^2). */
struct trace_wait {
    int nranks;
    size_t npairs;
    struct trace_wait_pair *pairs; /* sorted by i, then j */
    double *rank_wait;             /* [i] sum over j */
    double *exec;                  /* [i] execution time: w / exec[i] is relative to it */
    double total;                  /* sum of all w: w / total is relative to total wait */
    long long unmatched;           /* receives without a matching send (dropped) */
};
int trace_wait(const struct trace *t, struct trace_wait **out, struct err *err);
void trace_wait_free(struct trace_wait *w);
/* w[i][j]: the seconds rank i waited for rank j (0 for a pair not listed;
 * a binary search). */
double trace_wait_at(const struct trace_wait *w, int i, int j);

/* ---- traffic ----------------------------------------------------------------
 * Point-to-point: msgs/bytes sent by i to j; rate = bytes over the
 * summed transfer time of the matched messages (from when both sides had
 * posted until the receive completed, at least the send call's own
 * duration; 0 when no message was matched). Collectives apart:
 * rooted ones give the flow root→rank (bcast, scatter) or rank→root
 * (reduce, gather) in coll; every collective adds to coll_calls/coll_sent[rank]. */
struct trace_flow {
    int32_t i, j; /* from rank i to rank j */
    long long msgs;
    int64_t bytes;
    double rate; /* bytes per second (point-to-point; 0 for collectives) */
};
/* Sparse as the wait matrix: only the pairs with a message are listed. */
struct trace_traffic {
    int nranks;
    size_t np2p;
    struct trace_flow *p2p; /* msgs/bytes/rate sent by i to j, sorted by i, then j */
    size_t ncoll;
    struct trace_flow *coll; /* rooted collectives' msgs/bytes, sorted */
    long long *coll_calls;   /* [rank] */
    int64_t *coll_sent;      /* [rank] */
};
int trace_traffic(const struct trace *t, struct trace_traffic **out, struct err *err);
void trace_traffic_free(struct trace_traffic *tr);
/* The point-to-point (coll = 0) or collective (coll = 1) flow from i to j:
 * all zero for a pair not listed. */
struct trace_flow trace_traffic_at(const struct trace_traffic *tr, int coll, int i,
                                   int j);

/* ---- load: compute vs communication per rank ------------------------------- */
struct trace_load {
    int nranks;
    double *compute, *comm;   /* [rank] seconds */
    double compute_imbalance; /* max/mean of compute (1 = balanced; 0 if mean 0) */
    double comm_imbalance;
    long long mpi_calls; /* the calls comm is made of (trace_mpi_calls) */
};
int trace_load(const struct trace *t, struct trace_load **out, struct err *err);
void trace_load_free(struct trace_load *l);

/* ---- states -----------------------------------------------------------------
 * The state of a rank at a moment: the class of the MPI call it is in, else its
 * innermost probe state (TRACE_CLASS_USER + name), else compute; after its
 * t_end, none (-1). nclasses = TRACE_CLASS_USER + nnames. */
int trace_nclasses(const struct trace *t);

/* Bounds of the answers (models/ includes none of formats/limits.h). */
#define TRACE_MAX_WIDTH 10000 /* pixels of a timeline */
#define TRACE_MAX_OCCUPANCY_CELLS                                                        \
    (32u << 20) /* macrostate rows x classes; beyond: ERR_TOO_LARGE "too_large" */

/* ---- timeline: per-rank states downsampled to `width` pixels ------------------
 * cls[rank*width + x] = the class occupying most of pixel x of [0, span), -1 if
 * the rank had ended. time[c]: the seconds all ranks spent in class c, summed
 * exactly as the profile's cls over its ranks (so that charts ranking the
 * classes by time agree to the last bit); NULL in a timeline made by hand. */
struct trace_timeline {
    int nranks, width;
    double span; /* seconds: the longest execution time */
    int16_t *cls;
    int nclasses;
    double *time; /* [class] */
};
int trace_timeline(const struct trace *t, int width, struct trace_timeline **out,
                   struct err *err);
void trace_timeline_free(struct trace_timeline *tl);

/* ---- occupancy: Lyon's macrostates ------------------------------------------
 * At each moment, the count of ranks in each class (a macrostate); adjacent
 * identical rows merged with their durations (Lyon's T2). mean[c] = mean node
 * occupancy: sum over rows of count/p * duration (Lyon's 17 for A1 of ABCD);
 * fraction[c] = mean[c] / span. */
struct trace_occupancy {
    int nranks, nclasses;
    size_t nrows;
    int *count;       /* [row*nclasses + c] */
    double *duration; /* [row] */
    double *mean;     /* [c] */
    double *fraction; /* [c] */
    double span;
    double *time; /* [c] seconds of all ranks in c, as the timeline's time */
};
int trace_occupancy(const struct trace *t, struct trace_occupancy **out, struct err *err);
void trace_occupancy_free(struct trace_occupancy *o);

/* Lyon's fitted estimator of one class's occupancy across runs of one
 * application: the class's occupancy fraction (trace_occupancy's fraction[c])
 * of run i against x[i] (nprocs or an input), fitted through fit_run with
 * `graph` (NULL = "auto", the selected law; "unknown" the paper's rule). frac[i*stride +
 * c] is run i's fraction, so the rows of several occupancy answers can be laid side by
 * side. On success fills *out (free with fit_result_free); errors as fit_run, plus
 * ERR_INVALID when c is outside 0..stride-1. */
int trace_occupancy_fit(const double *x, const double *frac, size_t nruns, int stride,
                        int c, const char *graph, struct fit_result *out,
                        struct err *err);

/* ---- clusters (Pablo) ------------------------------------------------------
 * Each rank's vector: seconds per routine and per class (dims = TRACE_OP_COUNT -
 * 1 + nclasses, dimensions constant over all ranks dropped), each dimension
 * scaled to unit variance; k-means for k = 2 .. min(8, p-1), deterministic
 * (farthest-point seeding), k with the best mean silhouette (k = 1 when
 * p < 3 or the best silhouette is below 0.25). `dims` lists the main
 * dimensions (largest variance first, at most 4) for a scatterplot matrix:
 * dim d < TRACE_OP_COUNT-1 is routine d+1, else class d-(TRACE_OP_COUNT-1);
 * x[rank*ndims_all + d] holds the unscaled vectors. */
struct trace_clusters {
    int nranks, k, ndims_all, ndims;
    int *label;        /* [rank] in 0..k-1 */
    double silhouette; /* of the chosen k (0 for k = 1) */
    int dims[4];
    double *x; /* [rank*ndims_all + d] seconds */
};
int trace_clusters(const struct trace *t, struct trace_clusters **out, struct err *err);
void trace_clusters_free(struct trace_clusters *c);

#endif
