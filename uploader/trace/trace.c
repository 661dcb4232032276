/* libprophecy_trace: records every MPI call of every rank through PMPI.
 *
 * Loaded with LD_PRELOAD (or linked before the MPI library), it wraps the MPI
 * routines listed in models/trace.h, timing each call from a common start, with its peer
 * translated to a world rank, bytes, tag and communicator size. Times are on
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

/* A receive completed by a Waitall or Waitany: `event` indexes buf. */
struct done {
    uint64_t event;
    int64_t bytes;
    int32_t peer, tag;
};

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
    } recv[RECV_REQS];
    int nrecv;
    struct done *done; /* receives completed by Waitall/Waitany, grown to cap */
    size_t ndone, dcap;
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

/* The world rank of `rank` in `comm` (-1 for MPI_PROC_NULL, ANY_SOURCE...). */
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

static void p2p(struct rec *r, MPI_Comm comm, int peer, int tag, int64_t bytes)
{
    if (r == NULL)
        return;
    r->peer = world(comm, peer);
    r->tag = tag;
    r->bytes = bytes;
    r->comm_size = (uint32_t)csize(comm);
}

static void coll(struct rec *r, MPI_Comm comm, int root, int64_t bytes)
{
    if (r == NULL)
        return;
    r->peer = root >= 0 ? world(comm, root) : -1;
    r->bytes = bytes;
    r->comm_size = (uint32_t)csize(comm);
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
    put64(h + 56, T.ndone);
    ok &= fwrite(h, sizeof h, 1, f) == 1;
    for (int i = 0; i < T.nnames; i++) {
        unsigned char l[2];
        size_t n = strlen(T.names[i]);
        put16(l, (uint32_t)n);
        ok &= fwrite(l, 2, 1, f) == 1 && fwrite(T.names[i], n, 1, f) == 1;
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
        r->peer2 = world(comm, status->MPI_SOURCE);
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
    int rc;
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
    if (r != NULL && comm != MPI_COMM_NULL && rc == MPI_SUCCESS) {
        int n = 0;
        PMPI_Get_count(status, MPI_BYTE, &n);
        p2p(r, comm, status->MPI_SOURCE, status->MPI_TAG, n);
    }
    return rc;
}

/* Removes an Irecv request from the remembered ones: its communicator, or
 * MPI_COMM_NULL when it is not one. */
static MPI_Comm take_recv(MPI_Request req)
{
    for (int i = 0; i < T.nrecv; i++)
        if (T.recv[i].req == req) {
            MPI_Comm comm = T.recv[i].comm;
            T.recv[i] = T.recv[--T.nrecv];
            return comm;
        }
    return MPI_COMM_NULL;
}

/* Records that the last event (a Waitall or Waitany) completed a receive on
 * comm with status st; counted as dropped when no room is left. */
static void add_done(MPI_Comm comm, const MPI_Status *st)
{
    int n = 0;
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
        (struct done){T.n - 1, n, world(comm, st->MPI_SOURCE), st->MPI_TAG};
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
            MPI_Comm c = take_recv(reqs[k]);
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
                add_done(comm[k], &st[k]);
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
        MPI_Comm c = take_recv(copy[*index]);
        if (c != MPI_COMM_NULL)
            add_done(c, status);
    } else if (copy != NULL && *index >= 0 && *index < n) {
        take_recv(copy[*index]);
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
