/* libprophecy_trace: records every MPI call of every rank through PMPI.
 *
 * Loaded with LD_PRELOAD (or linked before the MPI library), it wraps the MPI
 * routines listed in models/trace.h, timing each call from a common start, with its peer
 * translated to a world rank, bytes, tag, communicator size and communicator
 * (a per-rank table of the communicators used: members as world ranks and
 * creation order, followed through MPI_Comm_split/dup/create/free; format
 * version 3). Receives completed by Waitall/any/some and the Test family are
 * recorded with the call that completed them (and a Test loop's first poll).
 * Times are on
 * CLOCK_REALTIME from rank 0's reading after the barrier closing MPI_Init,
 * broadcast to every rank. The probe states
 * (PROBE_BEGIN/END) arrive through prophecy_trace_state, a hook probe.c calls
 * when this library is present. Events go into one bounded buffer per rank
 * (PROPHECY_TRACE_EVENTS, default 1,000,000, at most LIMIT_TRACE_EVENTS_RANK);
 * once full, further events are counted as dropped. At MPI_Finalize the buffer
 * is written to $PROPHECY_TRACE_DIR/trace.RANK in the format of formats/trace.h.
 *
 * Only the thread that called MPI_Init is recorded (MPI_THREAD_FUNNELED use);
 * calls from other threads pass through untraced. Never aborts the program:
 * when the buffer cannot be allocated or the file written, it says so on
 * stderr and the program runs on.
 */
#include "formats/limits.h"
#include "formats/trace.h"

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct rec {
    uint64_t begin, end;
    int64_t bytes;
    int32_t peer, peer2, tag, tag2;
    uint32_t comm_size;
    uint16_t op, name;
};

/* A receive completed by a Waitall, Waitany, Waitsome or Test call: `event`
 * indexes buf, `first` the first Test call that polled it (= event if none). */
struct done {
    uint64_t event;
    int64_t bytes;
    int32_t peer, tag;
    uint64_t first;
};

/* A communicator of the file's table: its members as world ranks (NULL for
 * MPI_COMM_WORLD's group in order) and which one with these members it is. */
struct fcomm {
    int32_t *members;
    int size;
    uint32_t seq;
};

#define NOPOLL UINT64_MAX

#define OPEN_STATES 64 /* probe states open at once */
#define RECV_REQS 1024 /* outstanding MPI_Irecv requests remembered */

/* The recorder's state: one per process, touched only by the MPI thread. */
static struct {
    int on;
    pthread_t thread;
    uint64_t t0;
    struct rec *buf;
    size_t n, cap;
    uint64_t dropped;
    int rank, size;
    char *names[LIMIT_TRACE_NAMES];
    int nnames;
    struct {
        int name;
        uint64_t begin;
    } open[OPEN_STATES];
    int nopen;
    struct {
        MPI_Request req;
        MPI_Comm comm;
        uint64_t first; /* the event of the first Test that polled it, or NOPOLL */
    } recv[RECV_REQS];
    int nrecv;
    struct done *done; /* receives completed by Waitall/Waitany..., grown to cap */
    size_t ndone, dcap;
    struct fcomm comms[LIMIT_TRACE_COMMS]; /* the file's table; number = index + 1 */
    int ncomms;
    struct {
        MPI_Comm handle;
        uint32_t id; /* its number in comms, 0 unknown (intercommunicator, full) */
    } * live;        /* the communicators alive now */
    int nlive, livecap;
} T;

static uint64_t now_ns(void)
{
    struct timespec ts;
    uint64_t t;
    clock_gettime(CLOCK_REALTIME, &ts);
    t = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return t > T.t0 ? t - T.t0 : 0;
}

static int tracing(void)
{
    return T.on && pthread_equal(pthread_self(), T.thread);
}

static struct rec *push(int op, uint64_t begin)
{
    struct rec *r;
    if (T.n == T.cap) {
        T.dropped++;
        return NULL;
    }
    r = &T.buf[T.n++];
    memset(r, 0, sizeof *r);
    r->op = (uint16_t)op;
    r->begin = begin;
    r->end = now_ns();
    r->peer = r->peer2 = -1;
    return r;
}

/* The world rank of `rank` in `comm` (-1 for MPI_PROC_NULL, ANY_SOURCE...),
 * through the group: for communicators outside the table. */
static int32_t world(MPI_Comm comm, int rank)
{
    MPI_Group g, w;
    int out = -1, cmp;
    if (rank < 0)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return rank;
    if (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &cmp) == MPI_SUCCESS &&
        (cmp == MPI_IDENT || cmp == MPI_CONGRUENT))
        return rank;
    PMPI_Comm_group(comm, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &w);
    PMPI_Group_translate_ranks(g, 1, &rank, w, &out);
    PMPI_Group_free(&g);
    PMPI_Group_free(&w);
    return out == MPI_UNDEFINED ? -1 : out;
}

/* Adds comm to the table (its members through its group, seq = how many with
 * the same members came before: creation is collective, so every member
 * counts alike) and to the live handles. Returns its number, 0 when it has
 * none (an intercommunicator, the table full, no memory). */
static uint32_t comm_add(MPI_Comm comm)
{
    int inter = 0, n = 0;
    uint32_t id = 0;
    if (comm == MPI_COMM_NULL)
        return 0;
    for (int i = 0; i < T.nlive; i++)
        if (T.live[i].handle == comm) /* a freed handle reused */
            T.live[i] = T.live[--T.nlive];
    PMPI_Comm_test_inter(comm, &inter);
    if (!inter && T.ncomms < LIMIT_TRACE_COMMS &&
        PMPI_Comm_size(comm, &n) == MPI_SUCCESS && n > 0 && n <= T.size) {
        int32_t *m = malloc((size_t)n * sizeof *m);
        int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
        if (m != NULL && in != NULL && out != NULL) {
            MPI_Group g, w;
            int ordered = n == T.size;
            uint32_t seq = 0;
            for (int i = 0; i < n; i++)
                in[i] = i;
            PMPI_Comm_group(comm, &g);
            PMPI_Comm_group(MPI_COMM_WORLD, &w);
            PMPI_Group_translate_ranks(g, n, in, w, out);
            PMPI_Group_free(&g);
            PMPI_Group_free(&w);
            for (int i = 0; i < n; i++) {
                m[i] = out[i] == MPI_UNDEFINED ? -1 : out[i];
                ordered &= m[i] == i;
            }
            if (ordered) {
                free(m);
                m = NULL;
            }
            for (int c = 0; c < T.ncomms; c++)
                seq += T.comms[c].size == n &&
                       (T.comms[c].members == NULL) == (m == NULL) &&
                       (m == NULL ||
                        memcmp(T.comms[c].members, m, (size_t)n * sizeof *m) == 0);
            T.comms[T.ncomms] = (struct fcomm){m, n, seq};
            id = (uint32_t)++T.ncomms;
        } else {
            free(m);
        }
        free(in);
        free(out);
    }
    if (T.nlive == T.livecap) {
        int nc = T.livecap ? T.livecap * 2 : 16;
        void *nl = realloc(T.live, (size_t)nc * sizeof *T.live);
        if (nl == NULL)
            return id;
        T.live = nl;
        T.livecap = nc;
    }
    T.live[T.nlive].handle = comm;
    T.live[T.nlive++].id = id;
    return id;
}

/* The number of comm in the table (added on first sight), 0 unknown. */
static uint32_t comm_id(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return 1;
    for (int i = T.nlive - 1; i >= 0; i--)
        if (T.live[i].handle == comm)
            return T.live[i].id;
    return comm_add(comm);
}

/* The world rank of `rank` of the communicator numbered id (comm). */
static int32_t wrank(uint32_t id, MPI_Comm comm, int rank)
{
    const struct fcomm *c;
    if (rank < 0)
        return -1;
    if (id == 0)
        return world(comm, rank);
    c = &T.comms[id - 1];
    if (rank >= c->size)
        return -1;
    return c->members ? c->members[rank] : rank;
}

static int csize(MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    return n;
}

static int64_t nbytes(int count, MPI_Datatype t)
{
    int s = 0;
    if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &s) != MPI_SUCCESS)
        return 0;
    return (int64_t)count * s;
}

/* The communicator's number, size and the world rank of `peer` in it. */
static void on_comm(struct rec *r, MPI_Comm comm, int peer)
{
    uint32_t id = comm_id(comm);
    r->name = (uint16_t)id;
    r->comm_size = id ? (uint32_t)T.comms[id - 1].size : (uint32_t)csize(comm);
    r->peer = wrank(id, comm, peer);
}

static void p2p(struct rec *r, MPI_Comm comm, int peer, int tag, int64_t bytes)
{
    if (r == NULL)
        return;
    on_comm(r, comm, peer);
    r->tag = tag;
    r->bytes = bytes;
}

static void coll(struct rec *r, MPI_Comm comm, int root, int64_t bytes)
{
    if (r == NULL)
        return;
    on_comm(r, comm, root);
    r->bytes = bytes;
}

/* ---- probe states ------------------------------------------------------------ */

void prophecy_trace_state(const char *name, int begin);

void prophecy_trace_state(const char *name, int begin)
{
    uint64_t t = 0;
    int id = -1;
    if (!tracing())
        return;
    t = now_ns();
    for (int i = 0; i < T.nnames; i++)
        if (strcmp(T.names[i], name) == 0)
            id = i;
    if (id < 0 && T.nnames < LIMIT_TRACE_NAMES && strlen(name) <= LIMIT_NAME) {
        T.names[T.nnames] = malloc(strlen(name) + 1);
        if (T.names[T.nnames] != NULL) {
            memcpy(T.names[T.nnames], name, strlen(name) + 1);
            id = T.nnames++;
        }
    }
    if (id < 0) {
        T.dropped++;
        return;
    }
    if (begin) {
        if (T.nopen == OPEN_STATES) {
            T.dropped++;
            return;
        }
        T.open[T.nopen].name = id;
        T.open[T.nopen++].begin = t;
        return;
    }
    for (int i = T.nopen - 1; i >= 0; i--)
        if (T.open[i].name == id) {
            struct rec *r = push(TRACE_OP_STATE, T.open[i].begin);
            if (r != NULL) {
                r->end = t;
                r->name = (uint16_t)id;
            }
            memmove(&T.open[i], &T.open[i + 1],
                    (size_t)(T.nopen - i - 1) * sizeof T.open[0]);
            T.nopen--;
            return;
        }
}

/* ---- start and finish ------------------------------------------------------------ */

static void start(void)
{
    const char *cap = getenv("PROPHECY_TRACE_EVENTS");
    long long c = 1000000;
    struct timespec ts;

    if (cap != NULL) {
        char *end;
        c = strtoll(cap, &end, 10);
        if (*cap == '\0' || *end != '\0' || c < 1 || c > LIMIT_TRACE_EVENTS_RANK) {
            fprintf(stderr,
                    "prophecy_trace: PROPHECY_TRACE_EVENTS must be 1..%d; "
                    "using 1000000\n",
                    LIMIT_TRACE_EVENTS_RANK);
            c = 1000000;
        }
    }
    PMPI_Comm_rank(MPI_COMM_WORLD, &T.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &T.size);
    T.buf = malloc((size_t)c * sizeof *T.buf);
    if (T.buf == NULL) {
        fprintf(stderr,
                "prophecy_trace: rank %d: no memory for %lld events; not tracing\n",
                T.rank, c);
        return;
    }
    T.cap = (size_t)c;
    T.thread = pthread_self();
    T.comms[0] = (struct fcomm){NULL, T.size, 0}; /* MPI_COMM_WORLD is number 1 */
    T.ncomms = 1;
    /* The common start is rank 0's clock after a barrier, sent to all: on one
     * node every rank then reads the same clock from the same origin; across
     * nodes the ranks agree as well as their clocks do (NTP). */
    PMPI_Barrier(MPI_COMM_WORLD);
    clock_gettime(CLOCK_REALTIME, &ts);
    T.t0 = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    {
        unsigned long long t0 = T.t0;
        PMPI_Bcast(&t0, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        T.t0 = t0;
    }
    T.on = 1;
}

static void put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static int write_trace(uint64_t t_end)
{
    const char *dir = getenv("PROPHECY_TRACE_DIR");
    char path[4096];
    unsigned char h[TRACE_HEADER_SIZE] = {0}, e[TRACE_EVENT_SIZE];
    FILE *f;
    int ok = 1;

    snprintf(path, sizeof path, "%s/trace.%d", dir && *dir ? dir : ".", T.rank);
    f = fopen(path, "wb");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    memcpy(h, TRACE_MAGIC, 8);
    put32(h + 8, TRACE_FORMAT_VERSION);
    put32(h + 12, (uint32_t)T.rank);
    put32(h + 16, (uint32_t)T.size);
    put32(h + 20, (uint32_t)T.nnames);
    put64(h + 24, T.n);
    put64(h + 32, t_end);
    put64(h + 40, T.dropped);
    put32(h + 48, TRACE_EVENT_SIZE);
    put32(h + 52, (uint32_t)T.ncomms);
    put64(h + 56, T.ndone);
    ok &= fwrite(h, sizeof h, 1, f) == 1;
    for (int i = 0; i < T.nnames; i++) {
        unsigned char l[2];
        size_t n = strlen(T.names[i]);
        put16(l, (uint32_t)n);
        ok &= fwrite(l, 2, 1, f) == 1 && fwrite(T.names[i], n, 1, f) == 1;
    }
    for (int i = 0; i < T.ncomms && ok; i++) {
        const struct fcomm *c = &T.comms[i];
        unsigned char m[8];
        put32(m, c->members ? (uint32_t)c->size : 0);
        put32(m + 4, c->seq);
        ok &= fwrite(m, 8, 1, f) == 1;
        for (int k = 0; c->members && k < c->size && ok; k++) {
            put32(m, (uint32_t)c->members[k]);
            ok &= fwrite(m, 4, 1, f) == 1;
        }
    }
    for (size_t i = 0; i < T.n && ok; i++) {
        const struct rec *r = &T.buf[i];
        put64(e, r->begin);
        put64(e + 8, r->end > t_end ? t_end : r->end);
        put64(e + 16, (uint64_t)r->bytes);
        put32(e + 24, (uint32_t)r->peer);
        put32(e + 28, (uint32_t)r->peer2);
        put32(e + 32, (uint32_t)r->tag);
        put32(e + 36, (uint32_t)r->tag2);
        put32(e + 40, r->comm_size);
        put16(e + 44, r->op);
        put16(e + 46, r->name);
        ok &= fwrite(e, sizeof e, 1, f) == 1;
    }
    for (size_t i = 0; i < T.ndone && ok; i++) {
        unsigned char d[TRACE_DONE_SIZE];
        put64(d, T.done[i].event);
        put64(d + 8, (uint64_t)T.done[i].bytes);
        put32(d + 16, (uint32_t)T.done[i].peer);
        put32(d + 20, (uint32_t)T.done[i].tag);
        put64(d + 24, T.done[i].first);
        ok &= fwrite(d, sizeof d, 1, f) == 1;
    }
    if (fclose(f) != 0 || !ok) {
        fprintf(stderr, "prophecy_trace: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        start();
    return rc;
}

int MPI_Finalize(void)
{
    if (T.on) {
        uint64_t t_end = now_ns();
        T.on = 0;
        write_trace(t_end);
        free(T.buf);
        T.buf = NULL;
        free(T.done);
        T.done = NULL;
        T.ndone = T.dcap = 0;
        for (int i = 0; i < T.nnames; i++)
            free(T.names[i]);
        T.nnames = 0;
        for (int i = 0; i < T.ncomms; i++)
            free(T.comms[i].members);
        T.ncomms = 0;
        free(T.live);
        T.live = NULL;
        T.nlive = T.livecap = 0;
    }
    return PMPI_Finalize();
}

/* ---- point-to-point ----------------------------------------------------------- */

#define SEND_WRAPPER(NAME, OP)                                                           \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,           \
             MPI_Comm comm)                                                              \
    {                                                                                    \
        uint64_t b;                                                                      \
        int rc;                                                                          \
        if (!tracing())                                                                  \
            return P##NAME(buf, count, type, dest, tag, comm);                           \
        b = now_ns();                                                                    \
        rc = P##NAME(buf, count, type, dest, tag, comm);                                 \
        p2p(push(OP, b), comm, dest, tag, nbytes(count, type));                          \
        return rc;                                                                       \
    }

SEND_WRAPPER(MPI_Send, TRACE_OP_SEND)
SEND_WRAPPER(MPI_Ssend, TRACE_OP_SSEND)
SEND_WRAPPER(MPI_Rsend, TRACE_OP_RSEND)
SEND_WRAPPER(MPI_Bsend, TRACE_OP_BSEND)

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Isend(buf, count, type, dest, tag, comm, req);
    b = now_ns();
    rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
    p2p(push(TRACE_OP_ISEND, b), comm, dest, tag, nbytes(count, type));
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    MPI_Status st;
    uint64_t b;
    int rc, n = 0;
    if (!tracing())
        return PMPI_Recv(buf, count, type, source, tag, comm, status);
    b = now_ns();
    rc = PMPI_Recv(buf, count, type, source, tag, comm,
                   status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    PMPI_Get_count(status, type, &n);
    p2p(push(TRACE_OP_RECV, b), comm, rc == MPI_SUCCESS ? status->MPI_SOURCE : -1,
        status->MPI_TAG, nbytes(n, type));
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Irecv(buf, count, type, source, tag, comm, req);
    b = now_ns();
    rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    p2p(push(TRACE_OP_IRECV, b), comm, source, tag, nbytes(count, type));
    if (rc == MPI_SUCCESS && T.nrecv < RECV_REQS) {
        T.recv[T.nrecv].req = *req;
        T.recv[T.nrecv].first = NOPOLL;
        T.recv[T.nrecv++].comm = comm;
    }
    return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                 MPI_Comm comm, MPI_Status *status)
{
    MPI_Status st;
    struct rec *r;
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source,
                             rtag, comm, status);
    b = now_ns();
    rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                       comm, status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    r = push(TRACE_OP_SENDRECV, b);
    p2p(r, comm, dest, stag, nbytes(scount, stype));
    if (r != NULL && rc == MPI_SUCCESS) {
        r->peer2 = wrank(comm_id(comm), comm, status->MPI_SOURCE);
        r->tag2 = status->MPI_TAG;
    }
    return rc;
}

/* ---- completion ------------------------------------------------------------------ */

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    MPI_Status st;
    MPI_Comm comm = MPI_COMM_NULL;
    struct rec *r;
    uint64_t b;
    int rc, cancelled = 0;
    if (!tracing())
        return PMPI_Wait(req, status);
    for (int i = 0; i < T.nrecv; i++)
        if (T.recv[i].req == *req) {
            comm = T.recv[i].comm;
            T.recv[i] = T.recv[--T.nrecv];
            break;
        }
    b = now_ns();
    rc = PMPI_Wait(req, status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    r = push(TRACE_OP_WAIT, b);
    if (r != NULL && comm != MPI_COMM_NULL && rc == MPI_SUCCESS &&
        (PMPI_Test_cancelled(status, &cancelled) != MPI_SUCCESS || !cancelled)) {
        int n = 0;
        PMPI_Get_count(status, MPI_BYTE, &n);
        p2p(r, comm, status->MPI_SOURCE, status->MPI_TAG, n);
    }
    return rc;
}

/* Removes an Irecv request from the remembered ones: its communicator, or
 * MPI_COMM_NULL when it is not one; *first its first poll. */
static MPI_Comm take_recv(MPI_Request req, uint64_t *first)
{
    for (int i = 0; i < T.nrecv; i++)
        if (T.recv[i].req == req) {
            MPI_Comm comm = T.recv[i].comm;
            if (first != NULL)
                *first = T.recv[i].first;
            T.recv[i] = T.recv[--T.nrecv];
            return comm;
        }
    return MPI_COMM_NULL;
}

/* Records that the last event (a Waitall, Waitany, Waitsome or Test call)
 * completed a receive on comm with status st, first polled by event `first`
 * (NOPOLL: none before it); counted as dropped when no room is left. */
static void add_done(MPI_Comm comm, const MPI_Status *st, uint64_t first)
{
    int n = 0, cancelled = 0;
    if (PMPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS && cancelled)
        return; /* no message arrived */
    if (T.ndone == T.dcap) {
        size_t nc = T.dcap ? T.dcap * 2 : 256;
        struct done *nd;
        if (nc > T.cap)
            nc = T.cap;
        nd = nc > T.dcap ? realloc(T.done, nc * sizeof *nd) : NULL;
        if (nd == NULL) {
            T.dropped++;
            return;
        }
        T.done = nd;
        T.dcap = nc;
    }
    PMPI_Get_count(st, MPI_BYTE, &n);
    T.done[T.ndone++] =
        (struct done){T.n - 1, n, wrank(comm_id(comm), comm, st->MPI_SOURCE), st->MPI_TAG,
                      first < T.n - 1 ? first : T.n - 1};
}

/* Waitall: the receives among its requests are recorded (add_done) in the
 * order of the requests, so the analysis can match each with its send. */
int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    MPI_Comm *comm = NULL;
    MPI_Status *st = statuses;
    uint64_t b;
    int rc, any = 0;
    if (!tracing())
        return PMPI_Waitall(n, reqs, statuses);
    if (T.nrecv > 0 && n > 0) {
        comm = malloc((size_t)n * sizeof *comm);
        for (int k = 0; k < n; k++) {
            MPI_Comm c = take_recv(reqs[k], NULL);
            if (comm != NULL)
                comm[k] = c;
            any |= c != MPI_COMM_NULL;
        }
        if (any && comm != NULL && statuses == MPI_STATUSES_IGNORE)
            st = malloc((size_t)n * sizeof *st);
        if (!any || st == NULL) {
            free(comm);
            comm = NULL;
            st = statuses;
        }
    }
    b = now_ns();
    rc = PMPI_Waitall(n, reqs, comm != NULL ? st : statuses);
    if (push(TRACE_OP_WAITALL, b) != NULL && comm != NULL && rc == MPI_SUCCESS)
        for (int k = 0; k < n; k++)
            if (comm[k] != MPI_COMM_NULL)
                add_done(comm[k], &st[k], NOPOLL);
    if (st != statuses)
        free(st);
    free(comm);
    return rc;
}

/* Waitany: the receive it completed, if it is one, as for Waitall; the other
 * receives stay pending. */
int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    MPI_Request *copy = NULL;
    MPI_Status st;
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Waitany(n, reqs, index, status);
    if (T.nrecv > 0 && n > 0) {
        copy = malloc((size_t)n * sizeof *copy);
        if (copy != NULL)
            memcpy(copy, reqs, (size_t)n * sizeof *copy);
    }
    b = now_ns();
    rc = PMPI_Waitany(n, reqs, index, status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    if (push(TRACE_OP_WAITANY, b) != NULL && copy != NULL && rc == MPI_SUCCESS &&
        *index >= 0 && *index < n) {
        MPI_Comm c = take_recv(copy[*index], NULL);
        if (c != MPI_COMM_NULL)
            add_done(c, status, NOPOLL);
    } else if (copy != NULL && *index >= 0 && *index < n) {
        take_recv(copy[*index], NULL);
    }
    free(copy);
    return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Probe(source, tag, comm, status);
    b = now_ns();
    rc = PMPI_Probe(source, tag, comm, status);
    p2p(push(TRACE_OP_PROBE, b), comm, source, tag, 0);
    return rc;
}

/* ---- collectives ------------------------------------------------------------------- */

int MPI_Barrier(MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Barrier(comm);
    b = now_ns();
    rc = PMPI_Barrier(comm);
    coll(push(TRACE_OP_BARRIER, b), comm, -1, 0);
    return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Bcast(buf, count, type, root, comm);
    b = now_ns();
    rc = PMPI_Bcast(buf, count, type, root, comm);
    coll(push(TRACE_OP_BCAST, b), comm, root, nbytes(count, type));
    return rc;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    b = now_ns();
    rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    coll(push(TRACE_OP_REDUCE, b), comm, root, nbytes(count, type));
    return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    b = now_ns();
    rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    coll(push(TRACE_OP_ALLREDUCE, b), comm, -1, nbytes(count, type));
    return rc;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    b = now_ns();
    rc = PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    coll(push(TRACE_OP_GATHER, b), comm, root, nbytes(scount, stype));
    return rc;
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    b = now_ns();
    rc = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    coll(push(TRACE_OP_ALLGATHER, b), comm, -1, nbytes(scount, stype));
    return rc;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    b = now_ns();
    rc = PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    coll(push(TRACE_OP_SCATTER, b), comm, root, nbytes(rcount, rtype));
    return rc;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm)
{
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    b = now_ns();
    rc = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    coll(push(TRACE_OP_ALLTOALL, b), comm, -1, nbytes(scount, stype) * csize(comm));
    return rc;
}

/* ---- added in format version 3 ------------------------------------------------------
 */

#define ISEND_WRAPPER(NAME, OP)                                                          \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,           \
             MPI_Comm comm, MPI_Request *req)                                            \
    {                                                                                    \
        uint64_t b;                                                                      \
        int rc;                                                                          \
        if (!tracing())                                                                  \
            return P##NAME(buf, count, type, dest, tag, comm, req);                      \
        b = now_ns();                                                                    \
        rc = P##NAME(buf, count, type, dest, tag, comm, req);                            \
        p2p(push(OP, b), comm, dest, tag, nbytes(count, type));                          \
        return rc;                                                                       \
    }

ISEND_WRAPPER(MPI_Issend, TRACE_OP_ISSEND)
ISEND_WRAPPER(MPI_Ibsend, TRACE_OP_IBSEND)
ISEND_WRAPPER(MPI_Irsend, TRACE_OP_IRSEND)

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                         int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status st;
    struct rec *r;
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm,
                                     status);
    b = now_ns();
    rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm,
                               status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    r = push(TRACE_OP_SENDRECV_REPLACE, b);
    p2p(r, comm, dest, stag, nbytes(count, type));
    if (r != NULL && rc == MPI_SUCCESS) {
        r->peer2 = wrank(comm_id(comm), comm, status->MPI_SOURCE);
        r->tag2 = status->MPI_TAG;
    }
    return rc;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    MPI_Status st;
    uint64_t b;
    int rc;
    if (!tracing())
        return PMPI_Iprobe(source, tag, comm, flag, status);
    b = now_ns();
    rc = PMPI_Iprobe(source, tag, comm, flag, status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    if (rc == MPI_SUCCESS && *flag)
        p2p(push(TRACE_OP_IPROBE, b), comm, status->MPI_SOURCE, status->MPI_TAG, 0);
    else
        p2p(push(TRACE_OP_IPROBE, b), comm, source, tag, 0);
    return rc;
}

/* The requests of a Test or Waitsome call, copied before it when some are
 * remembered receives (afterwards the completed ones are MPI_REQUEST_NULL),
 * and room for statuses when the caller ignores them. */
#define SMALL_REQS 16
struct reqs {
    MPI_Request small[SMALL_REQS], *copy;
    MPI_Status ssmall[SMALL_REQS], *st;
    int any;
};

/* Copies reqs[0..n) when one is a remembered receive, marking each such
 * receive polled from the event about to be recorded when `polls` (a Test
 * call). statuses: the caller's, or MPI_STATUSES_IGNORE (room is made). */
static void reqs_begin(struct reqs *q, int n, const MPI_Request *reqs, int polls,
                       MPI_Status *statuses)
{
    q->copy = NULL;
    q->st = statuses;
    q->any = 0;
    if (T.nrecv == 0 || n <= 0)
        return;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < T.nrecv; i++)
            if (T.recv[i].req == reqs[k]) {
                q->any = 1;
                if (polls && T.recv[i].first == NOPOLL && T.n < T.cap)
                    T.recv[i].first = T.n;
            }
    if (!q->any)
        return;
    q->copy = n <= SMALL_REQS ? q->small : malloc((size_t)n * sizeof *q->copy);
    if (q->copy != NULL)
        memcpy(q->copy, reqs, (size_t)n * sizeof *q->copy);
    if (q->copy != NULL && statuses == MPI_STATUSES_IGNORE)
        q->st = n <= SMALL_REQS ? q->ssmall : malloc((size_t)n * sizeof *q->st);
    if (q->copy == NULL || q->st == NULL) { /* no memory: not followed */
        if (q->copy != q->small)
            free(q->copy);
        q->copy = NULL;
        q->st = statuses;
        q->any = 0;
    }
}

/* Request k (of the copy) completed with status st: a receive is recorded
 * (when the call's event was), else forgotten. */
static void reqs_done(struct reqs *q, int k, const MPI_Status *st, int recorded)
{
    uint64_t first = NOPOLL;
    MPI_Comm c;
    if (q->copy == NULL)
        return;
    c = take_recv(q->copy[k], &first);
    if (c != MPI_COMM_NULL && recorded)
        add_done(c, st, first);
}

static void reqs_end(struct reqs *q, const MPI_Status *statuses)
{
    if (q->copy != q->small)
        free(q->copy);
    if (q->st != statuses && q->st != q->ssmall)
        free(q->st);
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    MPI_Status st;
    struct reqs q;
    uint64_t b;
    int rc, rec;
    if (!tracing())
        return PMPI_Test(req, flag, status);
    reqs_begin(&q, 1, req, 1, MPI_STATUSES_IGNORE);
    b = now_ns();
    rc = PMPI_Test(req, flag, status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    rec = push(TRACE_OP_TEST, b) != NULL;
    if (rc == MPI_SUCCESS && *flag)
        reqs_done(&q, 0, status, rec);
    reqs_end(&q, MPI_STATUSES_IGNORE);
    return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    MPI_Status st;
    struct reqs q;
    uint64_t b;
    int rc, rec;
    if (!tracing())
        return PMPI_Testany(n, reqs, index, flag, status);
    reqs_begin(&q, n, reqs, 1, MPI_STATUSES_IGNORE);
    b = now_ns();
    rc = PMPI_Testany(n, reqs, index, flag, status == MPI_STATUS_IGNORE ? &st : status);
    if (status == MPI_STATUS_IGNORE)
        status = &st;
    rec = push(TRACE_OP_TESTANY, b) != NULL;
    if (rc == MPI_SUCCESS && *flag && *index >= 0 && *index < n)
        reqs_done(&q, *index, status, rec);
    reqs_end(&q, MPI_STATUSES_IGNORE);
    return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    struct reqs q;
    uint64_t b;
    int rc, rec;
    if (!tracing())
        return PMPI_Testall(n, reqs, flag, statuses);
    reqs_begin(&q, n, reqs, 1, statuses);
    b = now_ns();
    rc = PMPI_Testall(n, reqs, flag, q.st);
    rec = push(TRACE_OP_TESTALL, b) != NULL;
    if (rc == MPI_SUCCESS && *flag)
        for (int k = 0; q.any && k < n; k++)
            reqs_done(&q, k, &q.st[k], rec);
    reqs_end(&q, statuses);
    return rc;
}

/* Testsome and Waitsome: the completed requests are listed in indices. */
static int some(int op, int n, MPI_Request reqs[], int *outcount, int indices[],
                MPI_Status statuses[])
{
    struct reqs q;
    uint64_t b;
    int rc, rec;
    reqs_begin(&q, n, reqs, op == TRACE_OP_TESTSOME, statuses);
    b = now_ns();
    rc = op == TRACE_OP_TESTSOME ? PMPI_Testsome(n, reqs, outcount, indices, q.st)
                                 : PMPI_Waitsome(n, reqs, outcount, indices, q.st);
    rec = push(op, b) != NULL;
    if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
        for (int i = 0; q.any && i < *outcount; i++)
            if (indices[i] >= 0 && indices[i] < n)
                reqs_done(&q, indices[i], &q.st[i], rec);
    reqs_end(&q, statuses);
    return rc;
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    if (!tracing())
        return PMPI_Testsome(n, reqs, outcount, indices, statuses);
    return some(TRACE_OP_TESTSOME, n, reqs, outcount, indices, statuses);
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    if (!tracing())
        return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
    return some(TRACE_OP_WAITSOME, n, reqs, outcount, indices, statuses);
}

/* ---- more collectives ----------------------------------------------------------------
 */

static int64_t sum_bytes(const int *counts, int n, MPI_Datatype t)
{
    int64_t s = 0;
    for (int i = 0; counts != NULL && i < n; i++)
        s += counts[i];
    return nbytes(1, t) * s;
}

/* Bytes a rank contributes: its send buffer, or (MPI_IN_PLACE) `alt`. */
#define SENT(SBUF, COUNT, TYPE, ALT)                                                     \
    ((SBUF) == MPI_IN_PLACE ? (ALT) : nbytes(COUNT, TYPE))

/* Times CALL (the PMPI call) and records it as a collective. */
#define COLL(OP, ROOT, BYTES, COMM, CALL)                                                \
    do {                                                                                 \
        uint64_t b_;                                                                     \
        int rc_;                                                                         \
        if (!tracing())                                                                  \
            return CALL;                                                                 \
        b_ = now_ns();                                                                   \
        rc_ = CALL;                                                                      \
        coll(push(OP, b_), COMM, ROOT, BYTES);                                           \
        return rc_;                                                                      \
    } while (0)

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                MPI_Comm comm)
{
    COLL(TRACE_OP_GATHERV, root, SENT(sbuf, scount, stype, 0), comm,
         PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm));
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm)
{
    COLL(TRACE_OP_SCATTERV, root, rbuf == MPI_IN_PLACE ? 0 : nbytes(rcount, rtype), comm,
         PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype,
                   MPI_Comm comm)
{
    COLL(TRACE_OP_ALLGATHERV, -1, SENT(sbuf, scount, stype, 0), comm,
         PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    COLL(TRACE_OP_ALLTOALLV, -1,
         sbuf == MPI_IN_PLACE ? sum_bytes(rcounts, csize(comm), rtype)
                              : sum_bytes(scounts, csize(comm), stype),
         comm,
         PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                        comm));
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    COLL(TRACE_OP_REDUCE_SCATTER, -1, sum_bytes(rcounts, csize(comm), type), comm,
         PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm));
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm)
{
    COLL(TRACE_OP_REDUCE_SCATTER_BLOCK, -1, nbytes(rcount, type) * csize(comm), comm,
         PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm));
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm)
{
    COLL(TRACE_OP_SCAN, -1, nbytes(count, type), comm,
         PMPI_Scan(sbuf, rbuf, count, type, op, comm));
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm)
{
    COLL(TRACE_OP_EXSCAN, -1, nbytes(count, type), comm,
         PMPI_Exscan(sbuf, rbuf, count, type, op, comm));
}

/* ---- nonblocking collectives: the call itself (its wait is in MPI_Wait...) ----------
 */

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IBARRIER, -1, 0, comm, PMPI_Ibarrier(comm, req));
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request *req)
{
    COLL(TRACE_OP_IBCAST, root, nbytes(count, type), comm,
         PMPI_Ibcast(buf, count, type, root, comm, req));
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IREDUCE, root, nbytes(count, type), comm,
         PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req));
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IALLREDUCE, -1, nbytes(count, type), comm,
         PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req));
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IGATHER, root, SENT(sbuf, scount, stype, 0), comm,
         PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req));
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IGATHERV, root, SENT(sbuf, scount, stype, 0), comm,
         PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm,
                       req));
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_ISCATTER, root, rbuf == MPI_IN_PLACE ? 0 : nbytes(rcount, rtype), comm,
         PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req));
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  int root, MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_ISCATTERV, root, rbuf == MPI_IN_PLACE ? 0 : nbytes(rcount, rtype), comm,
         PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm,
                        req));
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IALLGATHER, -1, SENT(sbuf, scount, stype, 0), comm,
         PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req));
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                    MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IALLGATHERV, -1, SENT(sbuf, scount, stype, 0), comm,
         PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req));
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    COLL(TRACE_OP_IALLTOALL, -1, SENT(sbuf, scount, stype, 0) * csize(comm), comm,
         PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req));
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[],
                   const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req)
{
    COLL(TRACE_OP_IALLTOALLV, -1,
         sbuf == MPI_IN_PLACE ? sum_bytes(rcounts, csize(comm), rtype)
                              : sum_bytes(scounts, csize(comm), stype),
         comm,
         PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                         comm, req));
}

/* A receive request freed or cancelled before completion is no longer
 * followed (a cancelled one completes without a message: add_done). */
int MPI_Request_free(MPI_Request *req)
{
    if (tracing())
        take_recv(*req, NULL);
    return PMPI_Request_free(req);
}

/* ---- communicators: the table follows their creation and release ------------------- */

#define COMM_CREATE(CALL, NEWCOMM)                                                       \
    do {                                                                                 \
        int rc_ = CALL;                                                                  \
        if (tracing() && rc_ == MPI_SUCCESS && *(NEWCOMM) != MPI_COMM_NULL)              \
            comm_add(*(NEWCOMM));                                                        \
        return rc_;                                                                      \
    } while (0)

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Comm_split_type(comm, type, key, info, newcomm), newcomm);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Comm_dup(comm, newcomm), newcomm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), newcomm);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Cart_sub(comm, remain, newcomm), newcomm);
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), newcomm);
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int nodes[], const int degrees[],
                          const int targets[], const int weights[], MPI_Info info,
                          int reorder, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Dist_graph_create(comm, n, nodes, degrees, targets, weights, info,
                                       reorder, newcomm),
                newcomm);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sweights[], int outdegree,
                                   const int destinations[], const int dweights[],
                                   MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sweights,
                                                outdegree, destinations, dweights, info,
                                                reorder, newcomm),
                newcomm);
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    COMM_CREATE(PMPI_Intercomm_merge(intercomm, high, newcomm), newcomm);
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (tracing())
        for (int i = 0; i < T.nlive; i++)
            if (T.live[i].handle == *comm) {
                T.live[i] = T.live[--T.nlive];
                break;
            }
    return PMPI_Comm_free(comm);
}
