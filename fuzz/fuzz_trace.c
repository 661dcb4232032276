/* Fuzz target: the trace reader (formats/trace.h). The input is split into
 * rank files at the byte sequence "\n--\n" (at most 8 files); any input must
 * give a trace whose events obey the reader's promises, or a 422 with a
 * message. Each accepted trace is also run through every analysis. */
#include "common/err.h"
#include "formats/trace.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAXF 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const void *bufs[MAXF];
    size_t lens[MAXF], start = 0;
    struct trace *t = NULL;
    struct err e = {0};
    int n = 0;

    for (size_t i = 0; i + 4 <= size && n < MAXF - 1; i++)
        if (memcmp(data + i, "\n--\n", 4) == 0) {
            bufs[n] = data + start;
            lens[n++] = i - start;
            start = i + 4;
            i += 3;
        }
    bufs[n] = data + start;
    lens[n++] = size - start;
    if (trace_parse(bufs, lens, n, &t, &e) == 0) {
        struct trace_wait *w = NULL;
        struct trace_occupancy *o = NULL;
        struct trace_clusters *c = NULL;
        struct trace_timeline *tl = NULL;
        struct trace_traffic *tr = NULL;
        if (t->nranks != n)
            __builtin_trap();
        for (int r = 0; r < t->nranks; r++)
            for (size_t i = 0; i < t->ranks[r].nevents; i++) {
                const struct trace_event *ev = &t->ranks[r].ev[i];
                if (ev->begin > ev->end || ev->end > t->ranks[r].t_end ||
                    ev->op >= TRACE_OP_COUNT || ev->peer >= t->nranks ||
                    ev->comm > (uint32_t)t->ncomms ||
                    (ev->comm > 0 &&
                     ev->comm_size != (uint32_t)t->comms[ev->comm - 1].size))
                    __builtin_trap();
            }
        for (int r = 0; r < t->nranks; r++)
            for (size_t k = 0; k < t->ranks[r].ndone; k++) {
                const struct trace_done *d = &t->ranks[r].done[k];
                if (d->event >= t->ranks[r].nevents || d->first > d->event ||
                    !trace_op_completes(t->ranks[r].ev[d->event].op))
                    __builtin_trap();
            }
        if (trace_wait(t, &w, NULL) < 0 || trace_occupancy(t, &o, NULL) < 0 ||
            trace_clusters(t, &c, NULL) < 0 || trace_timeline(t, 64, &tl, NULL) < 0 ||
            trace_traffic(t, &tr, NULL) < 0)
            __builtin_trap();
        trace_wait_free(w);
        trace_occupancy_free(o);
        trace_clusters_free(c);
        trace_timeline_free(tl);
        trace_traffic_free(tr);
        trace_free(t);
    } else if (e.status != ERR_INVALID || e.message[0] == '\0') {
        __builtin_trap();
    }
    return 0;
}
