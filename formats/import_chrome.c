/* import_chrome: Trace Event JSON (chrome://tracing, Perfetto, PyTorch's
 * Kineto, clang -ftime-trace, Chrome DevTools) into one run and its trace.
 *
 * The file is {"traceEvents": [...], ...} or a bare array of events (whose
 * closing "]" may be missing, as the format allows for a writer that was
 * stopped). It is read one event at a time: each event (and each other
 * top-level value) is decoded by Jansson on its own (json_loadb with
 * JSON_DISABLE_EOF_CHECK, which says where the value ended), so memory is a
 * few aggregates per event name and, for the trace, 24 bytes an event —
 * never a whole-file DOM.
 *
 * What becomes of it:
 *  - duration events — complete events (ph "X", ts + dur), B/E pairs
 *    (per pid/tid, an E closes the last open B in time order: a thread's
 *    B/E events out of it make the file read again, keeping them to pair
 *    after a sort, 24 bytes each) and nestable async b/e pairs
 *    (per category and id; kernels only, not the trace) — are aggregated per event
 *    name into kernels: time = the total duration, `calls` and metric
 *    `count` the number of events, metric `max` the longest one; ts/dur are
 *    microseconds whatever `displayTimeUnit` says (it only sets how viewers
 *    print times);
 *  - counters (ph "C"): each series (NAME, or NAME.KEY when the event's args
 *    hold several) is a run metric, its largest value;
 *  - metadata (ph "M") process_name: the application when every process is
 *    named alike (else adiak's executable in otherData, as PerfFlowAspect
 *    writes it, whose cluster is the system); every other phase (instant,
 *    flow, async, object...) is skipped;
 *  - the run: runtime = from the first begin to the last end; nprocs = the
 *    number of processes (pids) with duration events;
 *  - the trace (SPEC §13's store): when every duration event carries a
 *    pid, each pid/tid pair is a rank (in pid, then tid order) and each
 *    duration event a state named by its event name; beyond
 *    LIMIT_TRACE_NAMES names the longest-running keep theirs and the rest
 *    share "(other events)". LLVM's "Total NAME" summaries (clang
 *    -ftime-trace) are kernels, not events of the trace: sums, not spans of
 *    time (llvm_total). A file beyond the trace limits (ranks, events)
 *    still gives its run, without a trace.
 * An E without an open B and a B never closed are not durations and are
 * skipped. A Perfetto protobuf trace (what Chrome records unless told
 * --trace-startup-format=json) is refused by name, with how to get JSON. Names longer
 * than LIMIT_NAME are cut at a character boundary; control characters become blanks.
 */
#include <jansson.h>
#include <math.h>
#include <zlib.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "common/utf8.h"
#include "formats/import.h"
#include "formats/limits.h"
#include "formats/trace.h"

#define OTHER_NAME "(other events)"

struct ch_name {
    char *name;
    double sum, max; /* microseconds */
    long long count;
};

struct ch_ev {
    double b, d; /* begin and duration, microseconds as written */
    uint32_t name;
};

struct ch_open {
    double ts;
    uint32_t name;
};

/* The open "b" events of one async category and id. */
struct ch_astack {
    struct ch_open *s;
    size_t depth, cap;
};

/* A B or E event kept for pairing after a sort (a file whose B/E events
 * are out of time order): name UINT32_MAX for an E. */
struct ch_be {
    double ts;
    size_t seq; /* its place in the file */
    uint32_t name;
};

struct ch_track {
    json_t *pid, *tid; /* as written (number or string); owned */
    struct ch_ev *ev;
    size_t nev, cap;
    struct ch_open *stack;
    size_t depth, scap;
    double last_be;   /* ts of the last B or E read */
    int have_be;      /* a B or E was read */
    struct ch_be *be; /* sorted mode: every B and E */
    size_t nbe, becap;
    size_t ups, downs; /* sorted mode: B/E steps forward and back in time */
};

struct ch {
    const char *file;
    struct err *err;
    json_t *name_ix; /* event name -> index into k */
    struct ch_name *k;
    size_t nk, kcap;
    json_t *track_ix; /* "pid\ntid" -> index into tr */
    struct ch_track *tr;
    size_t ntr, trcap;
    json_t *pids;     /* pids of duration events (keys) */
    json_t *counters; /* series -> largest value */
    char *process;    /* the one process name, or NULL */
    int process_mixed;
    json_t *other;    /* otherData, when an object (adiak's metadata) */
    json_t *async_ix; /* "pid\ncat\nid" -> index into as */
    struct ch_astack *as;
    size_t nas, ascap;
    int nopid;      /* a duration event without a pid: no trace */
    int unordered;  /* B/E events of a thread out of time order: read again... */
    int sorted;     /* ... keeping them, paired after a sort by time */
    int trace_off;  /* over a trace limit: no trace */
    size_t nevents; /* events read */
    size_t ndur;    /* duration events */
    double t0, t1;  /* first begin, last end (µs) */
};

/* imp_name_cut's name as an xmalloc'd string; NULL when nothing is left
 * (or out of memory). */
static char *clean_name(const char *s)
{
    char cut[LIMIT_NAME + 1];
    return imp_name_cut(s, cut) > 0 ? xstrdup(cut) : NULL;
}

/* A time field: a number, or a string holding one (some writers quote). */
static int get_time(json_t *ev, const char *key, double *out)
{
    json_t *v = json_object_get(ev, key);
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return isfinite(*out) ? 0 : -1;
    }
    if (json_is_string(v))
        return imp_number(json_string_value(v), json_string_length(v), out);
    return -1;
}

static int fail_ev(struct ch *c, size_t i, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_ev(struct ch *c, size_t i, const char *fmt, ...)
{
    char field[64], msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(field, sizeof field, "traceEvents[%zu]", i);
    return imp_fail_field(c->err, c->file, field, "%s: %s", field, msg);
}

/* Adds key -> v (owned) to one of the reader's own indexes. The keys are
 * built from the file's text and cut to a buffer, possibly inside a UTF-8
 * character, so Jansson's UTF-8 check (which an index needs not) is skipped:
 * with it a long string tid was refused as "out of memory" and its track's
 * pid and tid leaked. 0, or -1 on memory exhaustion (v released). */
static int ix_set(json_t *ix, const char *key, json_t *v)
{
    return json_object_set_new_nocheck(ix, key, v);
}

/* Bytes of a string pid, tid or id that tell tracks apart. */
#define ID_TEXT 200

/* The text of a pid or tid (number or string) into buf, "" when absent. */
static const char *id_text(json_t *v, char *buf, size_t n)
{
    if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, n, "%.17g", json_real_value(v));
    else if (json_is_string(v))
        snprintf(buf, n, "\"%.*s", ID_TEXT, json_string_value(v));
    else
        buf[0] = '\0';
    return buf;
}

/* The index of an event name, added when new; -1 with err. */
static long name_index(struct ch *c, const char *raw, size_t i)
{
    char cut[LIMIT_NAME + 1];
    const char *key = imp_name_cut(raw, cut) > 0 ? cut : "(unnamed)";
    json_t *ix = json_object_get(c->name_ix, key);
    char *name;
    (void)i;
    if (ix != NULL)
        return (long)json_integer_value(ix);
    if (c->nk >= LIMIT_KERNELS - 1) { /* the rest share one kernel */
        key = OTHER_NAME;
        if ((ix = json_object_get(c->name_ix, key)) != NULL)
            return (long)json_integer_value(ix);
    }
    if ((name = xstrdup(key)) == NULL)
        return err_nomem(c->err);
    if (c->nk == c->kcap) {
        size_t cap = c->kcap ? c->kcap * 2 : 64;
        struct ch_name *k = xrealloc(c->k, cap * sizeof *k);
        if (k == NULL) {
            xfree(name);
            return err_nomem(c->err);
        }
        c->k = k;
        c->kcap = cap;
    }
    c->k[c->nk] = (struct ch_name){name, 0, 0, 0};
    if (ix_set(c->name_ix, key, json_integer((json_int_t)c->nk)) != 0) {
        xfree(name);
        return err_nomem(c->err);
    }
    return (long)c->nk++;
}

/* The track of pid/tid, added when new; NULL with err. */
static struct ch_track *track(struct ch *c, json_t *pid, json_t *tid, size_t i)
{
    char key[2 * ID_TEXT + 64];
    char p[ID_TEXT + 32], t[ID_TEXT + 32];
    json_t *ix;
    struct ch_track *tr;
    snprintf(key, sizeof key, "%s\n%s", id_text(pid, p, sizeof p),
             id_text(tid, t, sizeof t));
    if ((ix = json_object_get(c->track_ix, key)) != NULL)
        return &c->tr[json_integer_value(ix)];
    if (c->ntr >= LIMIT_IMPORT_CHROME_TRACKS) {
        fail_ev(c, i, "more than %d pid/tid pairs", LIMIT_IMPORT_CHROME_TRACKS);
        return NULL;
    }
    if (c->ntr == c->trcap) {
        size_t cap = c->trcap ? c->trcap * 2 : 16;
        struct ch_track *n = xrealloc(c->tr, cap * sizeof *n);
        if (n == NULL) {
            err_nomem(c->err);
            return NULL;
        }
        c->tr = n;
        c->trcap = cap;
    }
    tr = &c->tr[c->ntr];
    *tr = (struct ch_track){0};
    tr->pid = json_incref(pid);
    tr->tid = json_incref(tid);
    if (ix_set(c->track_ix, key, json_integer((json_int_t)c->ntr)) != 0) {
        json_decref(tr->pid);
        json_decref(tr->tid);
        err_nomem(c->err);
        return NULL;
    }
    c->ntr++;
    return tr;
}

/* One duration of d µs from b of event name k on track tr (NULL: no pid).
 * d is the file's own "dur" for a complete event: with timestamps since the
 * epoch (1.7e15 µs) the difference of begin and end would lose its
 * fraction. */
static int duration(struct ch *c, struct ch_track *tr, long k, double b, double d)
{
    struct ch_name *n = &c->k[k];
    double e = b + d;
    n->sum += d;
    n->count++;
    if (d > n->max)
        n->max = d;
    if (c->ndur == 0 || b < c->t0)
        c->t0 = b;
    if (c->ndur == 0 || e > c->t1)
        c->t1 = e;
    c->ndur++;
    if (tr == NULL || c->trace_off)
        return 0;
    if (c->ndur > LIMIT_TRACE_EVENTS || tr->nev >= LIMIT_TRACE_EVENTS_RANK) {
        c->trace_off = 1; /* the run still imports; its trace would not be stored */
        return 0;
    }
    if (tr->nev == tr->cap) {
        size_t cap = tr->cap ? tr->cap * 2 : 256;
        struct ch_ev *ev = xrealloc(tr->ev, cap * sizeof *ev);
        if (ev == NULL)
            return err_nomem(c->err);
        tr->ev = ev;
        tr->cap = cap;
    }
    tr->ev[tr->nev++] = (struct ch_ev){b, d, (uint32_t)k};
    return 0;
}

static int counter(struct ch *c, json_t *ev, size_t i)
{
    const char *name = json_string_value(json_object_get(ev, "name")), *key;
    json_t *args = json_object_get(ev, "args"), *v;
    char series[2 * LIMIT_NAME + 2], cut[LIMIT_NAME + 1];
    if (name == NULL || !json_is_object(args))
        return 0;
    json_object_foreach(args, key, v)
    {
        double x;
        json_t *have;
        if (!json_is_number(v) || !isfinite(x = json_number_value(v)))
            continue;
        if (json_object_size(args) == 1) {
            snprintf(series, sizeof series, "%s", name);
        } else { /* each half cut at a character boundary */
            char a[LIMIT_NAME / 2 + 1], b[LIMIT_NAME / 2];
            snprintf(a, sizeof a, "%s", name);
            snprintf(b, sizeof b, "%s", key);
            utf8_cut(a);
            utf8_cut(b);
            snprintf(series, sizeof series, "%s.%s", a, b);
        }
        utf8_cut(series);
        if (imp_name_cut(series, cut) == 0) /* a metric's name */
            continue;
        if ((have = json_object_get(c->counters, cut)) != NULL) {
            if (x > json_real_value(have))
                json_real_set(have, x);
            continue;
        }
        if (json_object_size(c->counters) >= LIMIT_METRICS)
            return fail_ev(c, i, "more than %d counter series", LIMIT_METRICS);
        if (ix_set(c->counters, cut, json_real(x)) != 0)
            return err_nomem(c->err);
    }
    return 0;
}

static int metadata(struct ch *c, json_t *ev)
{
    const char *what = json_string_value(json_object_get(ev, "name"));
    const char *pname;
    char *name;
    if (what == NULL || strcmp(what, "process_name") != 0)
        return 0;
    pname = json_string_value(json_object_get(json_object_get(ev, "args"), "name"));
    if (pname == NULL || c->process_mixed)
        return 0;
    if ((name = clean_name(pname)) == NULL)
        c->process_mixed = 1;
    else if (c->process == NULL)
        c->process = name, name = NULL;
    else if (strcmp(c->process, name) != 0)
        c->process_mixed = 1;
    xfree(name);
    return 0;
}

/* The index of the event's name ("(unnamed)" without one), or -1. */
static long event_name(struct ch *c, json_t *ev, size_t i)
{
    const char *raw = json_string_value(json_object_get(ev, "name"));
    return name_index(c, raw ? raw : "(unnamed)", i);
}

/* Notes a process id met (a trace without any is one process). 0, or -1. */
static int note_pid(struct ch *c, json_t *pid)
{
    char text[ID_TEXT + 32];
    if (pid == NULL) {
        c->nopid = 1;
        return 0;
    }
    if (ix_set(c->pids, id_text(pid, text, sizeof text), json_true()) != 0)
        return err_nomem(c->err);
    return 0;
}

/* Opens a span o on the stack s (*depth open, room for *cap), at most
 * LIMIT_IMPORT_CHROME_DEPTH deep ("more than N <what>"). 0, or -1. */
static int open_span(struct ch *c, struct ch_open **s, size_t *depth, size_t *cap,
                     struct ch_open o, size_t i, const char *what)
{
    if (*depth >= LIMIT_IMPORT_CHROME_DEPTH)
        return fail_ev(c, i, "more than %d %s", LIMIT_IMPORT_CHROME_DEPTH, what);
    if (*depth == *cap) {
        size_t more = *cap ? *cap * 2 : 16;
        struct ch_open *n = xrealloc(*s, more * sizeof *n);
        if (n == NULL)
            return err_nomem(c->err);
        *s = n;
        *cap = more;
    }
    (*s)[(*depth)++] = o;
    return 0;
}

/* A nestable async event (ph "b" or "e"; clang's -ftime-trace writes its
 * "Source" spans so in newer LLVM): an "e" closes the last open "b" of the
 * same category and id (and process, for an id2 "local" id). Its duration
 * is its name's kernel's, and not part of the trace: async spans need not
 * nest with a thread's events. */
static int async_event(struct ch *c, json_t *ev, char ph, size_t i)
{
    char key[2 * ID_TEXT + 256], idt[ID_TEXT + 32], pidt[ID_TEXT + 32];
    json_t *id = json_object_get(ev, "id"), *id2 = json_object_get(ev, "id2");
    json_t *pid = json_object_get(ev, "pid"), *ix;
    const char *cat = json_string_value(json_object_get(ev, "cat"));
    struct ch_astack *st;
    int local = 0;
    double ts;
    long k;

    if (id == NULL && json_is_object(id2)) {
        local = (id = json_object_get(id2, "local")) != NULL;
        if (!local)
            id = json_object_get(id2, "global");
    }
    if (get_time(ev, "ts", &ts) != 0)
        return fail_ev(c, i, "ts must be a number (microseconds)");
    snprintf(key, sizeof key, "%s\n%.120s\n%s",
             local ? id_text(pid, pidt, sizeof pidt) : "", cat ? cat : "",
             id_text(id, idt, sizeof idt));
    if ((ix = json_object_get(c->async_ix, key)) == NULL) {
        if (ph == 'e')
            return 0; /* closes nothing that was recorded */
        if (c->nas >= LIMIT_IMPORT_CHROME_TRACKS)
            return fail_ev(c, i, "more than %d async ids", LIMIT_IMPORT_CHROME_TRACKS);
        if (c->nas == c->ascap) {
            size_t cap = c->ascap ? c->ascap * 2 : 16;
            struct ch_astack *n = xrealloc(c->as, cap * sizeof *n);
            if (n == NULL)
                return err_nomem(c->err);
            c->as = n;
            c->ascap = cap;
        }
        c->as[c->nas] = (struct ch_astack){0};
        if (ix_set(c->async_ix, key, json_integer((json_int_t)c->nas)) != 0)
            return err_nomem(c->err);
        st = &c->as[c->nas++];
    } else
        st = &c->as[json_integer_value(ix)];
    if (ph == 'e') {
        /* the last open "b" of the e's name (spans of one id may overlap
         * under different names), else the last open one */
        const char *raw = json_string_value(json_object_get(ev, "name"));
        char cut[LIMIT_NAME + 1];
        json_t *nix =
            raw && imp_name_cut(raw, cut) > 0 ? json_object_get(c->name_ix, cut) : NULL;
        size_t at;
        struct ch_open o;
        if (st->depth == 0)
            return 0;
        at = st->depth - 1;
        for (size_t j = st->depth; nix != NULL && j-- > 0;)
            if (st->s[j].name == (uint32_t)json_integer_value(nix)) {
                at = j;
                break;
            }
        o = st->s[at];
        memmove(st->s + at, st->s + at + 1, (st->depth - at - 1) * sizeof *st->s);
        st->depth--;
        if (ts < o.ts)
            return fail_ev(c, i, "an e event ends before its b event began");
        return duration(c, NULL, (long)o.name, o.ts, ts - o.ts);
    }
    if ((pid != NULL && note_pid(c, pid) != 0) || (k = event_name(c, ev, i)) < 0)
        return -1;
    return open_span(c, &st->s, &st->depth, &st->cap, (struct ch_open){ts, (uint32_t)k},
                     i, "b events open with one id");
}

/* Keeps a B or E event of track tr (sorted mode). */
static int keep_be(struct ch *c, struct ch_track *tr, json_t *ev, char ph, double ts,
                   size_t i)
{
    long k = 0;
    if (ph == 'B' && (k = event_name(c, ev, i)) < 0)
        return -1;
    if (tr->nbe > 0) {
        tr->ups += ts > tr->be[tr->nbe - 1].ts;
        tr->downs += ts < tr->be[tr->nbe - 1].ts;
    }
    if (tr->nbe == tr->becap) {
        size_t cap = tr->becap ? tr->becap * 2 : 256;
        struct ch_be *n = xrealloc(tr->be, cap * sizeof *n);
        if (n == NULL)
            return err_nomem(c->err);
        tr->be = n;
        tr->becap = cap;
    }
    tr->be[tr->nbe++] = (struct ch_be){ts, i, ph == 'E' ? UINT32_MAX : (uint32_t)k};
    return 0;
}

static int cmp_be_forward(const void *a, const void *b)
{
    const struct ch_be *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Equal times in a thread written backwards (newest first) came in reverse. */
static int cmp_be_backward(const void *a, const void *b)
{
    const struct ch_be *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq > y->seq ? -1 : x->seq < y->seq;
}

/* Sorted mode, after the last event: each thread's B/E events in time order,
 * an E closing the last open B, as in a file written in order. */
static int pair_sorted(struct ch *c)
{
    for (size_t t = 0; t < c->ntr; t++) {
        struct ch_track *tr = &c->tr[t];
        if (tr->nbe > 1) /* a thread of X events only has none */
            qsort(tr->be, tr->nbe, sizeof *tr->be,
                  tr->downs > tr->ups ? cmp_be_backward : cmp_be_forward);
        for (size_t j = 0; j < tr->nbe; j++) {
            const struct ch_be *e = &tr->be[j];
            if (e->name != UINT32_MAX) {
                if (open_span(c, &tr->stack, &tr->depth, &tr->scap,
                              (struct ch_open){e->ts, e->name}, e->seq,
                              "B events open on one thread") != 0)
                    return -1;
            } else if (tr->depth > 0) {
                struct ch_open o = tr->stack[--tr->depth];
                if (duration(c, tr->pid ? tr : NULL, (long)o.name, o.ts, e->ts - o.ts) !=
                    0)
                    return -1;
            }
        }
        xfree(tr->be);
        tr->be = NULL;
        tr->nbe = tr->becap = 0;
    }
    return 0;
}

/* Whether a complete event is a summary of LLVM's time profiler (clang,
 * lld, flang -ftime-trace): after its timeline it writes, per event name,
 * "Total NAME" at ts 0 on a thread id of its own, with args {"count",
 * "avg ms"}: the sum of NAME's outermost events, those shorter than
 * -ftime-trace-granularity (not in the file) included. A sum is no span of
 * time on any thread: a kernel of its own, never a lane of the trace
 * (ClangBuildAnalyzer skips them alike). */
static int llvm_total(json_t *ev, double ts)
{
    const char *name = json_string_value(json_object_get(ev, "name"));
    json_t *args = json_object_get(ev, "args");
    return ts == 0 && name != NULL && strncmp(name, "Total ", 6) == 0 &&
           json_is_object(args) && json_is_number(json_object_get(args, "count")) &&
           json_is_number(json_object_get(args, "avg ms"));
}

/* One event of the array. */
static int event(struct ch *c, json_t *ev, size_t i)
{
    const char *ph;
    json_t *pid, *tid;
    struct ch_track *tr = NULL;
    double ts, dur = 0;
    long k;

    if (!json_is_object(ev))
        return fail_ev(c, i, "an event must be an object");
    if ((ph = json_string_value(json_object_get(ev, "ph"))) == NULL || ph[0] == '\0')
        return fail_ev(c, i, "an event needs a phase (\"ph\")");
    if (ph[0] == 'M')
        return metadata(c, ev);
    if (ph[0] == 'C')
        return counter(c, ev, i);
    if ((ph[0] == 'b' || ph[0] == 'e') && ph[1] == '\0')
        return async_event(c, ev, ph[0], i);
    if (ph[0] != 'X' && ph[0] != 'B' && ph[0] != 'E')
        return 0;
    if (get_time(ev, "ts", &ts) != 0)
        return fail_ev(c, i, "ts must be a number (microseconds)");
    if (ph[0] == 'X' && json_object_get(ev, "dur") != NULL &&
        (get_time(ev, "dur", &dur) != 0 || dur < 0))
        return fail_ev(c, i, "dur must be a non-negative number (microseconds)");
    pid = json_object_get(ev, "pid");
    tid = json_object_get(ev, "tid");
    if (note_pid(c, pid) != 0)
        return -1;
    if (ph[0] == 'X' && llvm_total(ev, ts)) {
        if ((k = event_name(c, ev, i)) < 0)
            return -1;
        return duration(c, NULL, k, ts, dur);
    }
    if ((tr = track(c, pid, tid, i)) == NULL)
        return -1;
    if (ph[0] != 'X') {
        /* "The events do not have to be in timestamp-sorted order" (the
         * format's own words): a thread whose B/E events go back in time
         * makes the file read again with them kept and paired in time order */
        if (c->sorted)
            return keep_be(c, tr, ev, ph[0], ts, i);
        if (tr->have_be && ts < tr->last_be)
            c->unordered = 1;
        tr->last_be = ts;
        tr->have_be = 1;
        if (c->unordered)
            return 0;
    }
    if (ph[0] == 'E') {
        struct ch_open o;
        if (tr->depth == 0)
            return 0; /* closes nothing that was recorded */
        o = tr->stack[--tr->depth];
        return duration(c, pid ? tr : NULL, (long)o.name, o.ts, ts - o.ts);
    }
    if ((k = event_name(c, ev, i)) < 0)
        return -1;
    if (ph[0] == 'X')
        return duration(c, pid ? tr : NULL, k, ts, dur);
    return open_span(c, &tr->stack, &tr->depth, &tr->scap,
                     (struct ch_open){ts, (uint32_t)k}, i, "B events open on one thread");
}

/* ---- the stream ------------------------------------------------------------- */

struct cursor {
    const char *p, *end, *base;
};

static void skip_blank(struct cursor *u)
{
    while (u->p < u->end &&
           (*u->p == ' ' || *u->p == '\t' || *u->p == '\n' || *u->p == '\r'))
        u->p++;
}

/* The line of offset p, for messages. */
static size_t line_of(const struct cursor *u, const char *p)
{
    size_t line = 1;
    for (const char *q = u->base; q < p; q++)
        line += *q == '\n';
    return line;
}

/* Decodes the value at u->p (at most LIMIT_IMPORT_CHROME_EVENT bytes) and
 * moves past it. NULL with err naming the line. */
static json_t *value(struct ch *c, struct cursor *u)
{
    json_error_t je;
    size_t room = (size_t)(u->end - u->p);
    json_t *v;
    if (room > LIMIT_IMPORT_CHROME_EVENT)
        room = LIMIT_IMPORT_CHROME_EVENT;
    v = json_loadb(u->p, room, JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &je);
    if (v == NULL && json_error_code(&je) == json_error_numeric_overflow)
        /* an integer beyond int64 (Chromium writes a negative task delay in
         * its args as a uint64, 18446744073709546541): that event read with
         * its integers as doubles, the others keep theirs exact */
        v = json_loadb(u->p, room,
                       JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_DECODE_INT_AS_REAL,
                       &je);
    if (v == NULL) {
        size_t at = je.position > 0 ? (size_t)je.position : 0;
        if (room == LIMIT_IMPORT_CHROME_EVENT && at + 16 >= room)
            imp_fail_line(c->err, c->file, line_of(u, u->p),
                          "a value is longer than %u bytes", LIMIT_IMPORT_CHROME_EVENT);
        else if (at >= room || u->p + at >= u->end)
            imp_fail_line(c->err, c->file, line_of(u, u->end),
                          "the file ends inside a value (truncated?)");
        else
            imp_fail_line(c->err, c->file, line_of(u, u->p + at), "not JSON: %s",
                          je.text);
        return NULL;
    }
    u->p += je.position;
    return v;
}

/* Moves past the string at u->p (its opening quote): to the first quote
 * not escaped by a backslash. */
static int skip_string(struct ch *c, struct cursor *u)
{
    const char *start = u->p;
    for (const char *p = u->p + 1; p < u->end; p++) {
        if (*p == '\\') {
            p++;
            continue;
        }
        if (*p == '"') {
            u->p = p + 1;
            return 0;
        }
    }
    return imp_fail_line(c->err, c->file, line_of(u, start),
                         "the file ends inside a string (truncated?)");
}

/* The events of an array whose "[" was just passed. `open_end`: the file
 * may end without the "]" (the bare array form). */
static int events(struct ch *c, struct cursor *u, int open_end)
{
    for (size_t i = 0;; i++) {
        json_t *ev;
        int rc;
        skip_blank(u);
        if (u->p == u->end) {
            if (open_end)
                return 0;
            return imp_fail_line(c->err, c->file, line_of(u, u->end),
                                 "the file ends inside traceEvents (truncated?)");
        }
        if (*u->p == ']' && i == 0) {
            u->p++;
            return 0;
        }
        if (i >= LIMIT_IMPORT_CHROME_EVENTS)
            return imp_fail_line(c->err, c->file, line_of(u, u->p), "more than %d events",
                                 LIMIT_IMPORT_CHROME_EVENTS);
        if ((ev = value(c, u)) == NULL)
            return -1;
        rc = event(c, ev, i);
        json_decref(ev);
        if (rc != 0)
            return -1;
        c->nevents++;
        skip_blank(u);
        if (u->p < u->end && *u->p == ',') {
            u->p++;
            skip_blank(u);
            if (u->p == u->end && open_end)
                return 0; /* "...}," and the end: a writer that was stopped */
            if (u->p < u->end && *u->p == ']') /* a trailing comma before "]" */
                return imp_fail_line(c->err, c->file, line_of(u, u->p),
                                     "a comma before \"]\" in traceEvents");
            continue;
        }
        if (u->p < u->end && *u->p == ']') {
            u->p++;
            return 0;
        }
        if (u->p == u->end && open_end)
            return 0;
        if (u->p == u->end)
            return imp_fail_line(c->err, c->file, line_of(u, u->end),
                                 "the file ends inside traceEvents (truncated?)");
        return imp_fail_line(c->err, c->file, line_of(u, u->p),
                             "expected \",\" or \"]\" after event %zu", i);
    }
}

/* The object form: keys one by one; traceEvents streamed, others decoded and
 * dropped. */
static int object(struct ch *c, struct cursor *u)
{
    int seen = 0;
    for (size_t i = 0;; i++) {
        json_t *key;
        int is_events, is_other;
        skip_blank(u);
        if (u->p < u->end && *u->p == '}' && i == 0) {
            u->p++;
            break;
        }
        if (u->p == u->end || *u->p != '"')
            return imp_fail_line(c->err, c->file, line_of(u, u->p),
                                 u->p == u->end ? "the file ends inside the object "
                                                  "(truncated?)"
                                                : "expected a key");
        if ((key = value(c, u)) == NULL)
            return -1;
        is_events = strcmp(json_string_value(key), "traceEvents") == 0;
        is_other = strcmp(json_string_value(key), "otherData") == 0;
        json_decref(key);
        skip_blank(u);
        if (u->p == u->end || *u->p != ':')
            return imp_fail_line(c->err, c->file, line_of(u, u->p), "expected \":\"");
        u->p++;
        skip_blank(u);
        if (is_events) {
            if (u->p == u->end || *u->p != '[')
                return imp_fail_field(c->err, c->file, "traceEvents",
                                      "traceEvents must be an array");
            u->p++;
            if (events(c, u, 0) != 0)
                return -1;
            seen = 1;
        } else if (u->p < u->end && *u->p == '"') {
            /* a string is skipped without decoding: Perfetto's exports put
             * the whole ftrace text in "systemTraceEvents" */
            if (skip_string(c, u) != 0)
                return -1;
        } else {
            json_t *v = value(c, u);
            if (v == NULL)
                return -1;
            if (is_other && json_is_object(v) && c->other == NULL)
                c->other = json_incref(v); /* PerfFlowAspect's adiak metadata */
            json_decref(v);
        }
        skip_blank(u);
        if (u->p < u->end && *u->p == ',') {
            u->p++;
            continue;
        }
        if (u->p < u->end && *u->p == '}') {
            u->p++;
            break;
        }
        return imp_fail_line(c->err, c->file, line_of(u, u->p),
                             u->p == u->end ? "the file ends inside the object "
                                              "(truncated?)"
                                            : "expected \",\" or \"}\"");
    }
    skip_blank(u);
    if (u->p != u->end)
        return imp_fail_line(c->err, c->file, line_of(u, u->p),
                             "text after the end of the object");
    if (!seen)
        return imp_fail_field(c->err, c->file, "traceEvents",
                              "the object has no traceEvents array");
    return 0;
}

/* ---- the trace ---------------------------------------------------------------- */

static int cmp_id(json_t *a, json_t *b)
{
    /* numbers before strings, numbers by value, strings by text, absent first */
    int ka = a == NULL ? 0 : json_is_number(a) ? 1 : 2;
    int kb = b == NULL ? 0 : json_is_number(b) ? 1 : 2;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (ka == 1) {
        double x = json_number_value(a), y = json_number_value(b);
        return x < y ? -1 : x > y;
    }
    if (ka == 2)
        return strcmp(json_string_value(a) ? json_string_value(a) : "",
                      json_string_value(b) ? json_string_value(b) : "");
    return 0;
}

static int cmp_track(const void *x, const void *y)
{
    const struct ch_track *a = *(struct ch_track *const *)x;
    const struct ch_track *b = *(struct ch_track *const *)y;
    int r = cmp_id(a->pid, b->pid);
    return r ? r : cmp_id(a->tid, b->tid);
}

static int cmp_ev(const void *x, const void *y)
{
    const struct ch_ev *a = x, *b = y;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    if (a->d != b->d)
        return a->d > b->d ? -1 : 1; /* the enclosing one first */
    return a->name < b->name ? -1 : a->name > b->name;
}

struct by_time {
    double sum;
    uint32_t k;
};

static int cmp_by_time(const void *x, const void *y)
{
    const struct by_time *a = x, *b = y;
    if (a->sum != b->sum)
        return a->sum > b->sum ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

/* The trace of the duration events (ownership to the caller), NULL when the
 * file gives none (no pid, over a limit); *failed on out of memory. */
static struct trace *build_trace(struct ch *c, int *failed)
{
    struct trace *t = NULL;
    struct ch_track **order = NULL;
    uint32_t *rank_of_name = NULL;
    struct by_time *by_time = NULL;
    size_t ntr = 0, nused = 0;
    int nnames;

    *failed = 0;
    for (size_t i = 0; i < c->ntr; i++)
        ntr += c->tr[i].nev > 0;
    /* the store keeps nanoseconds in 64 bits: a span beyond a century is
     * not a trace (nor a real measurement) */
    if (c->nopid || c->trace_off || ntr == 0 || ntr > LIMIT_TRACE_RANKS ||
        !(c->t1 - c->t0 < 3.2e15))
        return NULL;
    order = xmalloc(ntr * sizeof *order);
    rank_of_name = xmalloc(c->nk * sizeof *rank_of_name);
    by_time = xmalloc(c->nk * sizeof *by_time);
    t = xcalloc(1, sizeof *t);
    if (order == NULL || rank_of_name == NULL || by_time == NULL || t == NULL ||
        (t->ranks = xcalloc(ntr, sizeof *t->ranks)) == NULL)
        goto nomem;
    ntr = 0;
    for (size_t i = 0; i < c->ntr; i++)
        if (c->tr[i].nev > 0)
            order[ntr++] = &c->tr[i];
    qsort(order, ntr, sizeof *order, cmp_track);
    /* state names: those of the trace's events (not of async spans or
     * LLVM's summaries, which are kernels only), all of them or the
     * longest-running in the trace and one for the rest */
    for (size_t i = 0; i < c->nk; i++)
        by_time[i] = (struct by_time){0, UINT32_MAX};
    for (size_t r = 0; r < ntr; r++)
        for (size_t i = 0; i < order[r]->nev; i++) {
            struct by_time *b = &by_time[order[r]->ev[i].name];
            b->sum += order[r]->ev[i].d;
            b->k = order[r]->ev[i].name;
        }
    for (size_t i = 0; i < c->nk; i++)
        if (by_time[i].k != UINT32_MAX)
            by_time[nused++] = by_time[i];
    nnames = nused <= LIMIT_TRACE_NAMES ? (int)nused : LIMIT_TRACE_NAMES;
    if (nused > LIMIT_TRACE_NAMES)
        qsort(by_time, nused, sizeof *by_time, cmp_by_time);
    if ((t->names = xcalloc((size_t)nnames, sizeof *t->names)) == NULL)
        goto nomem;
    t->nnames = nnames;
    for (size_t j = 0; j < nused; j++) {
        size_t k = by_time[j].k;
        int other = nused > LIMIT_TRACE_NAMES && j >= LIMIT_TRACE_NAMES - 1;
        int slot = other ? LIMIT_TRACE_NAMES - 1 : (int)j;
        rank_of_name[k] = (uint32_t)slot;
        if (t->names[slot] == NULL &&
            (t->names[slot] = xstrdup(other ? OTHER_NAME : c->k[k].name)) == NULL)
            goto nomem;
    }
    t->nranks = (int)ntr;
    for (size_t r = 0; r < ntr; r++) {
        struct ch_track *tr = order[r];
        struct trace_rank *rk = &t->ranks[r];
        qsort(tr->ev, tr->nev, sizeof *tr->ev, cmp_ev);
        if ((rk->ev = xcalloc(tr->nev, sizeof *rk->ev)) == NULL)
            goto nomem;
        rk->nevents = tr->nev;
        for (size_t i = 0; i < tr->nev; i++) {
            struct trace_event *e = &rk->ev[i];
            e->begin = (tr->ev[i].b - c->t0) / 1e6;
            e->end = e->begin + tr->ev[i].d / 1e6;
            e->op = TRACE_OP_STATE;
            e->name = (uint16_t)rank_of_name[tr->ev[i].name];
            e->peer = e->peer2 = -1;
            if (e->end > rk->t_end)
                rk->t_end = e->end;
        }
    }
    xfree(order);
    xfree(rank_of_name);
    xfree(by_time);
    return t;
nomem:
    *failed = 1;
    err_nomem(c->err);
    xfree(order);
    xfree(rank_of_name);
    xfree(by_time);
    trace_free(t);
    return NULL;
}

/* ---- the run ------------------------------------------------------------------ */

static void ch_free(struct ch *c)
{
    for (size_t i = 0; i < c->nk; i++)
        xfree(c->k[i].name);
    xfree(c->k);
    for (size_t i = 0; i < c->ntr; i++) {
        json_decref(c->tr[i].pid);
        json_decref(c->tr[i].tid);
        xfree(c->tr[i].ev);
        xfree(c->tr[i].stack);
        xfree(c->tr[i].be);
    }
    xfree(c->tr);
    for (size_t i = 0; i < c->nas; i++)
        xfree(c->as[i].s);
    xfree(c->as);
    json_decref(c->async_ix);
    xfree(c->process);
    json_decref(c->other);
    json_decref(c->name_ix);
    json_decref(c->track_ix);
    json_decref(c->pids);
    json_decref(c->counters);
}

static int emit(struct ch *c, const struct fmt_options *opt, const struct fmt_sink *sink)
{
    struct imp_batch b = {0};
    struct run_record *r;
    char *uid = NULL;
    const char *key;
    json_t *v;
    int rc = -1;

    if (imp_batch_init(&b, "chrome-trace", c->file, sink, c->err) != 0 ||
        (r = imp_batch_slot(&b, c->err)) == NULL)
        goto out;
    if (opt && opt->application)
        r->application = opt->application;
    else if (c->process != NULL && !c->process_mixed)
        r->application = arena_strdup(b.a, c->process);
    else if (json_is_string(json_object_get(c->other, "executable")) ||
             json_is_string(json_object_get(c->other, "executablepath")))
        r->application = imp_program_name(
            b.a,
            json_string_value(json_object_get(
                c->other, json_is_string(json_object_get(c->other, "executable"))
                              ? "executable"
                              : "executablepath")),
            c->file);
    else {
        /* the file's name, without ".gz" of a compressed one (trace.json.gz) */
        size_t n = strlen(c->file);
        const char *name = c->file;
        if (n > 3 && strcmp(c->file + n - 3, ".gz") == 0)
            name = arena_strndup(b.a, c->file, n - 3);
        r->application = name ? imp_base_name(b.a, name) : NULL;
    }
    r->executable = opt && opt->executable ? opt->executable : r->application;
    r->system =
        opt && opt->system ? opt->system : imp_json_name(b.a, c->other, "cluster");
    if (r->system == NULL)
        r->system = "unknown";
    r->nprocs = json_object_size(c->pids) > 0 ? (long long)json_object_size(c->pids) : 1;
    r->runtime = (c->t1 - c->t0) / 1e6;
    r->kernels = arena_alloc(b.a, c->nk * sizeof *r->kernels);
    r->metrics =
        arena_alloc(b.a, (json_object_size(c->counters) + 1) * sizeof *r->metrics);
    if (r->application == NULL || r->kernels == NULL || r->metrics == NULL) {
        err_nomem(c->err);
        goto out;
    }
    for (size_t i = 0; i < c->nk; i++) {
        struct rec_kernel *k;
        struct rec_kv m[2];
        int failed = 0;
        if (c->k[i].count == 0)
            continue; /* a B never closed */
        k = &r->kernels[r->nkernels++];
        k->name = c->k[i].name;
        k->time = c->k[i].sum / 1e6;
        k->calls = c->k[i].count;
        m[0] = (struct rec_kv){"count", (double)c->k[i].count};
        m[1] = (struct rec_kv){"max", c->k[i].max / 1e6};
        k->metrics_json = imp_metrics_json(b.a, m, 2, &failed);
        if (failed) {
            err_nomem(c->err);
            goto out;
        }
    }
    json_object_foreach(c->counters, key, v)
    {
        r->metrics[r->nmetrics].name = arena_strdup(b.a, key);
        r->metrics[r->nmetrics++].value = json_real_value(v);
    }
    if (imp_batch_commit(&b, "trace", c->err) != 0)
        goto out;
    if (r->uid != NULL && (uid = xstrdup(r->uid)) == NULL) {
        err_nomem(c->err);
        goto out;
    }
    if (imp_batch_finish(&b, c->err) != 0)
        goto out;
    rc = 0;
    if (sink->traces != NULL && uid != NULL) {
        int failed;
        struct trace *t = build_trace(c, &failed);
        if (failed)
            rc = -1;
        else if (t != NULL)
            rc = sink->traces(sink->ctx, uid, t, c->err);
    }
out:
    xfree(uid);
    imp_batch_free(&b);
    return rc;
}

static int gzipped(const struct fmt_file *f)
{
    return f->len >= 2 && (unsigned char)f->data[0] == 0x1f &&
           (unsigned char)f->data[1] == 0x8b;
}

/* Whether the data is a Perfetto protobuf trace (Chrome's and Android's
 * default since Perfetto replaced the JSON writer): a Trace message, that is
 * binary data that is a chain of TracePacket fields (field 1, length-
 * delimited: the byte 0x0a and a varint length), packet after packet to the
 * end of the data (or over its first 64 packets, or up to a last packet cut
 * short after four whole ones: a recording that was stopped). */
static int perfetto_proto(const struct fmt_file *f)
{
    const unsigned char *p = (const unsigned char *)f->data;
    size_t pos = 0, npackets = 0, i;
    int binary = 0;
    for (i = 0; i < f->len && i < 4096 && !binary; i++)
        binary = p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r';
    while (binary && pos < f->len && npackets < 64) {
        unsigned long long len = 0;
        int shift = 0;
        if (p[pos++] != 0x0a)
            return 0;
        do {
            if (pos >= f->len || shift > 56)
                return 0;
            len |= (unsigned long long)(p[pos] & 0x7f) << shift;
            shift += 7;
        } while (p[pos++] & 0x80);
        if (len == 0)
            return 0;
        if (len > f->len - pos)
            return npackets >= 4; /* cut short after packets of its own */
        pos += len;
        npackets++;
    }
    return binary && npackets > 0 && (pos == f->len || npackets == 64);
}

/* Inflates a gzip-compressed file (PyTorch's and TensorFlow's .json.gz,
 * Bazel's profile) into an xmalloc'd *out of at most `max` bytes. With
 * `prefix` (sniffing) a stream cut at max or at the end of the data is not an
 * error and err may be NULL. 0, or -1 with err. */
static int gunzip(const struct fmt_file *f, size_t max, int prefix, char **out,
                  size_t *len, struct err *err)
{
    z_stream z;
    size_t cap = 1u << 16, n = 0;
    char *buf = xmalloc(cap);
    int zr = Z_OK, rc = -1;

    *out = NULL;
    *len = 0;
    if (buf == NULL)
        return err ? err_nomem(err) : -1;
    imp_zstream(&z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        xfree(buf);
        return err ? err_nomem(err) : -1;
    }
    z.next_in = (Bytef *)f->data;
    z.avail_in = f->len > UINT32_MAX ? UINT32_MAX : (uInt)f->len;
    while (zr != Z_STREAM_END) {
        if (n == cap) {
            size_t grow = cap > max / 2 ? max : cap * 2;
            char *nb;
            if (cap >= max) {
                if (prefix)
                    break;
                imp_fail_field(
                    err, f->name, "file",
                    "the gzip-compressed file inflates to more than %llu bytes",
                    (unsigned long long)max);
                goto out;
            }
            if ((nb = xrealloc(buf, grow)) == NULL) {
                if (err)
                    err_nomem(err);
                goto out;
            }
            buf = nb;
            cap = grow;
        }
        z.next_out = (Bytef *)buf + n;
        z.avail_out = cap - n > UINT32_MAX ? UINT32_MAX : (uInt)(cap - n);
        {
            uInt before = z.avail_out;
            zr = inflate(&z, Z_NO_FLUSH);
            n += before - z.avail_out;
        }
        if (zr == Z_OK || zr == Z_STREAM_END || (zr == Z_BUF_ERROR && z.avail_out == 0))
            continue;
        if (prefix && zr == Z_BUF_ERROR)
            break; /* the data ends: what was inflated is the prefix */
        if (err)
            imp_fail_field(err, f->name, "file",
                           "the gzip-compressed file is damaged or truncated");
        goto out;
    }
    *out = buf;
    *len = n;
    buf = NULL;
    rc = 0;
out:
    inflateEnd(&z);
    xfree(buf);
    return rc;
}

/* One reading of the whole file into c (from u, the text's start). */
static int read_all(struct ch *c, struct cursor *u, const struct fmt_file *f)
{
    c->name_ix = json_object();
    c->track_ix = json_object();
    c->pids = json_object();
    c->counters = json_object();
    c->async_ix = json_object();
    if (!c->name_ix || !c->track_ix || !c->pids || !c->counters || !c->async_ix)
        return err_nomem(c->err);
    if (u->end - u->p >= 3 && memcmp(u->p, "\xEF\xBB\xBF", 3) == 0)
        u->p += 3;
    skip_blank(u);
    if (u->p < u->end && *u->p == '[') {
        u->p++;
        if (events(c, u, 1) != 0)
            return -1;
        skip_blank(u);
        if (u->p != u->end)
            return imp_fail_line(c->err, c->file, line_of(u, u->p),
                                 "text after the event array");
        return 0;
    }
    if (u->p < u->end && *u->p == '{') {
        u->p++;
        return object(c, u);
    }
    if (perfetto_proto(f))
        return imp_fail_field(
            c->err, c->file, "file",
            "a Perfetto protobuf trace, not Trace Event JSON: export JSON "
            "(traceconv json TRACE OUT.json; Chrome: "
            "--trace-startup-format=json)");
    return imp_fail_line(c->err, c->file, 1,
                         "a Trace Event file is {\"traceEvents\": [...]} or an array of "
                         "events");
}

int import_chrome_trace(const struct fmt_file *files, size_t nfiles,
                        const struct fmt_options *opt, const struct fmt_sink *sink,
                        struct err *err)
{
    struct ch c = {0};
    struct cursor u;
    char *inflated = NULL;
    size_t ilen = 0;
    int rc = -1;

    if (nfiles != 1)
        return imp_fail_field(err, NULL, "files",
                              "chrome-trace reads one file at a time");
    u.base = files[0].data;
    u.end = files[0].data + files[0].len;
    if (gzipped(&files[0])) { /* a .json.gz: read as its text */
        if (gunzip(&files[0], (size_t)LIMIT_IMPORT_FILE, 0, &inflated, &ilen, err) != 0)
            return -1;
        u.base = inflated;
        u.end = inflated + ilen;
    }
    /* once in the stream's order; again, keeping the B/E events, when a
     * thread's go back in time (most files never are) */
    for (int sorted = 0; sorted < 2; sorted++) {
        ch_free(&c);
        c = (struct ch){0};
        c.file = files[0].name;
        c.err = err;
        c.sorted = sorted;
        u.p = u.base;
        if (read_all(&c, &u, &files[0]) != 0)
            goto out;
        if (!c.unordered)
            break;
    }
    if (c.sorted && pair_sorted(&c) != 0)
        goto out;
    if (c.ndur == 0) {
        imp_fail_field(err, c.file, "traceEvents",
                       "no duration events (complete \"X\" events or B/E pairs)");
        goto out;
    }
    rc = emit(&c, opt, sink);
out:
    ch_free(&c);
    xfree(inflated);
    return rc;
}

int sniff_chrome_trace(const struct fmt_file *files, size_t nfiles)
{
    if (nfiles != 1)
        return 0;
    if (gzipped(&files[0])) { /* by its first 64 KiB of text */
        struct fmt_file f = files[0];
        char *text;
        size_t len;
        int ok;
        if (gunzip(&files[0], 65536, 1, &text, &len, NULL) != 0)
            return 0;
        f.data = text;
        f.len = len;
        ok = sniff_chrome_trace(&f, 1);
        xfree(text);
        return ok;
    }
    if (perfetto_proto(&files[0]))
        return 1; /* refused by the import with what it is and what to do */
    if (imp_starts_with(&files[0], "{"))
        return imp_contains(&files[0], "\"traceEvents\"");
    return imp_starts_with(&files[0], "[") && imp_contains(&files[0], "\"ph\"") &&
           imp_contains(&files[0], "\"ts\"");
}
