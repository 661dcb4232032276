/* trace_json: see trace_json.h. Times come back to the nanosecond they were
 * stored with (formats/trace.h keeps ns), so "ts" and "dur" are exact: whole
 * microseconds as integers, the rest as ns / 1000 with json_text_real's 16
 * significant digits. */
#include "formats/trace_json.h"

#include <math.h>
#include <stdio.h>

#include "formats/json_text.h"

static long long ns_of(double s)
{
    return llround(s * 1e9);
}

static void micro(struct buf *b, long long ns)
{
    if (ns % 1000 == 0)
        json_text_int(b, ns / 1000);
    else
        json_text_real(b, (double)ns / 1000.0);
}

static int meta(struct buf *b, int r)
{
    buf_printf(b,
               "{\"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"name\": \"process_name\", "
               "\"args\": {\"name\": \"rank %d\"}},\n"
               "{\"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"name\": "
               "\"process_sort_index\", \"args\": {\"sort_index\": %d}},\n"
               "{\"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"name\": \"thread_name\", "
               "\"args\": {\"name\": \"rank %d\"}}",
               r, r, r, r, r, r, r, r, r);
    return 0;
}

static int event(struct buf *b, const struct trace *t, int r, const struct trace_event *e)
{
    long long nb = ns_of(e->begin), ne = ns_of(e->end);
    const char *name, *cat;
    int state = e->op == TRACE_OP_STATE;

    if (state) {
        name = e->name < t->nnames ? t->names[e->name] : "state";
        cat = "state";
    } else {
        name = trace_op_name(e->op);
        cat = trace_class_name(trace_op_class(e->op));
    }
    buf_printf(b, "{\"ph\": \"X\", \"pid\": %d, \"tid\": %d, \"name\": ", r, r);
    if (json_text_str(b, name ? name : "?") != 0)
        return -1;
    buf_printf(b, ", \"cat\": \"%s\", \"ts\": ", cat ? cat : "state");
    micro(b, nb);
    buf_puts(b, ", \"dur\": ");
    micro(b, ne > nb ? ne - nb : 0);
    if (!state) {
        buf_printf(b, ", \"args\": {\"bytes\": %lld", (long long)e->bytes);
        if (e->peer >= 0)
            buf_printf(b, ", \"peer\": %d, \"tag\": %d", e->peer, e->tag);
        if (e->peer2 >= 0)
            buf_printf(b, ", \"peer2\": %d, \"tag2\": %d", e->peer2, e->tag2);
        if (e->comm_size > 0)
            buf_printf(b, ", \"comm_size\": %u", e->comm_size);
        buf_putc(b, '}');
    }
    buf_putc(b, '}');
    return 0;
}

int trace_json_write(const struct trace *t, struct trace_json_pos *pos, struct buf *b,
                     size_t chunk)
{
    size_t start = b->len;

    while (pos->stage < 4 && (b->len - start < chunk || b->len == start)) {
        switch (pos->stage) {
        case 0:
            buf_printf(b,
                       "{\"displayTimeUnit\": \"ms\", \"otherData\": {\"producer\": "
                       "\"prophecy\", \"nranks\": %d, \"dropped\": %lld},\n"
                       "\"traceEvents\": [\n",
                       t->nranks, t->dropped);
            pos->stage = 1;
            pos->rank = 0;
            break;
        case 1:
            if (pos->rank >= t->nranks) {
                pos->stage = 2;
                pos->rank = 0;
                pos->event = 0;
                break;
            }
            if (pos->written > 0)
                buf_puts(b, ",\n");
            meta(b, pos->rank);
            pos->written += 3;
            pos->rank++;
            break;
        case 2:
            if (pos->rank >= t->nranks) {
                pos->stage = 3;
                break;
            }
            if (pos->event >= t->ranks[pos->rank].nevents) {
                pos->rank++;
                pos->event = 0;
                break;
            }
            buf_puts(b, ",\n");
            if (event(b, t, pos->rank, &t->ranks[pos->rank].ev[pos->event]) != 0)
                return -1;
            pos->event++;
            pos->written++;
            break;
        default:
            buf_puts(b, "\n]}\n");
            pos->stage = 4;
            break;
        }
        if (buf_failed(b))
            return -1;
    }
    return pos->stage < 4;
}
