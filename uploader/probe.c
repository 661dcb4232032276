/* probe: per-thread kernel timers, counters and values; see probe.h.
 *
 * Hot path (probe_begin/probe_end): one thread-local pointer, one multiplicative
 * hash of the name's address into the thread's own open-addressing table, a
 * push or pop on the thread's interval stack and one clock_gettime. No locks,
 * no atomics, no allocation once a name has been seen. Everything that is slow
 * (copying a name, matching a new address against known names by content,
 * merging threads, formatting JSON, MPI) happens off the hot path.
 *
 * This file must stay standalone: it is installed for users' programs, so it
 * uses plain malloc and libc only (plus MPI when built with PROBE_MPI), never
 * exits, and reports its own trouble on stderr once.
 */
#include "probe.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef PROBE_MPI
#include <mpi.h>
#endif

#define PROBE_DEPTH 256        /* open intervals per thread before we stop tracking */
#define PROBE_NAME_MAX 256     /* bytes of a name kept (the server's limit) */
#define PROBE_MAX_SLOTS 100000 /* names per thread; more are dropped and counted */

struct slot {
    const char *ptr; /* address the name was first seen at */
    char *name;      /* owned copy */
    uint64_t hash;   /* of the contents */
    uint64_t ns;     /* total interval time, in timer ticks */
    uint64_t calls;  /* closed intervals */
    long long count; /* PROBE_COUNT sum */
    int has_count;
    uint64_t vn; /* PROBE_VALUE samples */
    double vsum, vmin, vmax;
};

struct pent { /* address -> slot index */
    const char *ptr;
    uint32_t slot;
};

struct frame {
    uint32_t slot;
    uint64_t t0;
};

struct tdata {
    struct pent *pmap; /* open addressing, pcap a power of 2, NULL ptr = empty */
    uint32_t pcap, pn;
    unsigned pbits;
    struct slot *slots;
    uint32_t nslots, slotcap;
    struct frame stack[PROBE_DEPTH];
    int depth;
    int lost;            /* BEGINs beyond PROBE_DEPTH still open */
    uint64_t mismatches; /* ENDs that did not close the innermost BEGIN */
    uint64_t dropped;    /* events lost to memory or slot limits */
    struct tdata *next;
};

static _Thread_local struct tdata *tls;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tdata *reg_head; /* every thread's table; kept after the thread ends */
static pthread_once_t atexit_once = PTHREAD_ONCE_INIT;
static int written; /* set under reg_lock once an exit-time write is no longer wanted */

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The timer. On x86-64 with an invariant TSC (constant rate, running in all
 * power states: CPUID 0x80000007 EDX bit 8) intervals are taken with rdtsc,
 * which costs less than half of a clock_gettime on virtual machines whose
 * clocksource is not the TSC. Ticks become seconds at write time from the
 * ratio of TSC ticks to CLOCK_MONOTONIC over the whole run (at least 1 ms),
 * so no frequency table is needed. PROBE_TIMER=clock forces clock_gettime.
 * Elsewhere ticks are CLOCK_MONOTONIC nanoseconds. */
static int use_tsc;
static uint64_t cal_tsc0, cal_ns0;
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <x86intrin.h>
static int tsc_invariant(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) == 0 || a < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    return (d >> 8) & 1;
}
static inline uint64_t ticks(void)
{
    return use_tsc ? (uint64_t)__rdtsc() : now_ns();
}
#else
static int tsc_invariant(void)
{
    return 0;
}
static inline uint64_t ticks(void)
{
    return now_ns();
}
static inline uint64_t __rdtsc(void)
{
    return now_ns();
}
#endif

/* Reads CLOCK_MONOTONIC and the TSC at the same instant: of a few tries,
 * the one whose bracketing TSC reads are closest (not preempted between
 * them), with the TSC at their midpoint. */
static void clock_pair(uint64_t *ns, uint64_t *tsc)
{
    uint64_t best = UINT64_MAX;
    int i;
    for (i = 0; i < 5; i++) {
        uint64_t a = (uint64_t)__rdtsc(), n = now_ns(), b = (uint64_t)__rdtsc();
        if (b >= a && b - a < best) {
            best = b - a;
            *ns = n;
            *tsc = a + (b - a) / 2;
        }
    }
    if (best == UINT64_MAX) {
        *ns = now_ns();
        *tsc = (uint64_t)__rdtsc();
    }
}

static void timer_init(void)
{
    const char *t = getenv("PROBE_TIMER");
    use_tsc = tsc_invariant() && !(t && strcmp(t, "clock") == 0);
    if (use_tsc)
        clock_pair(&cal_ns0, &cal_tsc0);
    else
        cal_tsc0 = cal_ns0 = now_ns();
}

/* Seconds per tick, measured over the run so far. A run shorter than
 * CAL_MIN_NS is calibrated by spinning up to that length, never by sleeping:
 * `prophecy-upload exec` times the whole process, so every nanosecond spent
 * here is stored as the program's runtime (the old 50 ms wait turned every
 * short run into ~0.052 s). Over 1 ms, clock_gettime's ~0.1 us of jitter is
 * a relative error near 1e-4, finer than any timing this probe reports. */
#define CAL_MIN_NS 1000000u
static double tick_seconds(void)
{
    uint64_t ns1, tsc1;
    if (!use_tsc)
        return 1e-9;
    while (now_ns() - cal_ns0 < CAL_MIN_NS)
        ;
    clock_pair(&ns1, &tsc1);
    if (tsc1 <= cal_tsc0)
        return 1e-9;
    return (double)(ns1 - cal_ns0) * 1e-9 / (double)(tsc1 - cal_tsc0);
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211u;
    }
    return h;
}

static inline uint32_t ptr_pos(const char *p, unsigned bits)
{
    return (uint32_t)(((uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15u) >> (64 - bits));
}

static void probe_atexit(void);

static void register_atexit(void)
{
    atexit(probe_atexit);
}

static struct tdata *tdata_get(void)
{
    struct tdata *t = calloc(1, sizeof *t);

    if (t == NULL)
        return NULL;
    t->pbits = 6;
    t->pcap = 1u << t->pbits;
    t->pmap = calloc(t->pcap, sizeof *t->pmap);
    if (t->pmap == NULL) {
        free(t);
        return NULL;
    }
    pthread_once(&timer_once, timer_init);
    pthread_once(&atexit_once, register_atexit);
    pthread_mutex_lock(&reg_lock);
    t->next = reg_head;
    reg_head = t;
    pthread_mutex_unlock(&reg_lock);
    tls = t;
    return t;
}

static int pmap_grow(struct tdata *t)
{
    unsigned bits = t->pbits + 1;
    uint32_t cap = 1u << bits, i;
    struct pent *m = calloc(cap, sizeof *m);

    if (m == NULL)
        return -1;
    for (i = 0; i < t->pcap; i++) {
        if (t->pmap[i].ptr) {
            uint32_t j = ptr_pos(t->pmap[i].ptr, bits);
            while (m[j].ptr)
                j = (j + 1) & (cap - 1);
            m[j] = t->pmap[i];
        }
    }
    free(t->pmap);
    t->pmap = m;
    t->pcap = cap;
    t->pbits = bits;
    return 0;
}

/* Slow path: a name address not seen before in this thread. Finds the slot
 * with the same contents or makes one, then maps the address to it. */
static int lookup_slow(struct tdata *t, const char *name, uint32_t *out)
{
    uint64_t h = str_hash(name);
    uint32_t i, j;

    for (i = 0; i < t->nslots; i++)
        if (t->slots[i].hash == h && strcmp(t->slots[i].name, name) == 0)
            break;
    if (i == t->nslots) {
        struct slot *s;
        size_t len = strlen(name);
        if (t->nslots >= PROBE_MAX_SLOTS)
            return -1;
        if (t->nslots == t->slotcap) {
            uint32_t cap = t->slotcap ? t->slotcap * 2 : 16;
            struct slot *n = realloc(t->slots, cap * sizeof *n);
            if (n == NULL)
                return -1;
            t->slots = n;
            t->slotcap = cap;
        }
        if (len > PROBE_NAME_MAX)
            len = PROBE_NAME_MAX;
        s = &t->slots[i];
        memset(s, 0, sizeof *s);
        s->name = malloc(len + 1);
        if (s->name == NULL)
            return -1;
        memcpy(s->name, name, len);
        s->name[len] = '\0';
        s->ptr = name;
        s->hash = h;
        t->nslots++;
    }
    if ((t->pn + 1) * 2 > t->pcap && pmap_grow(t) != 0)
        return -1;
    j = ptr_pos(name, t->pbits);
    while (t->pmap[j].ptr)
        j = (j + 1) & (t->pcap - 1);
    t->pmap[j].ptr = name;
    t->pmap[j].slot = i;
    t->pn++;
    *out = i;
    return 0;
}

static inline int lookup(struct tdata *t, const char *name, uint32_t *out)
{
    uint32_t j = ptr_pos(name, t->pbits);

    for (;;) {
        const char *p = t->pmap[j].ptr;
        if (p == name) {
            *out = t->pmap[j].slot;
            return 0;
        }
        if (p == NULL)
            break;
        j = (j + 1) & (t->pcap - 1);
    }
    if (lookup_slow(t, name, out) != 0) {
        t->dropped++;
        return -1;
    }
    return 0;
}

/* The trace recorder's hook (uploader/trace/, libprophecy_trace): a weak
 * reference, NULL unless the recorder is linked or preloaded, so that the
 * probe states appear in MPI traces. */
extern void prophecy_trace_state(const char *name, int begin) __attribute__((weak));

void probe_begin(const char *name)
{
    struct tdata *t = tls;
    uint32_t s;

    if (prophecy_trace_state != NULL && name != NULL)
        prophecy_trace_state(name, 1);
    if (t == NULL && (t = tdata_get()) == NULL)
        return;
    if (name == NULL || lookup(t, name, &s) != 0)
        return;
    if (t->depth >= PROBE_DEPTH) {
        t->lost++;
        return;
    }
    t->stack[t->depth].slot = s;
    t->stack[t->depth].t0 = ticks(); /* last, so the bookkeeping is not timed */
    t->depth++;
}

void probe_end(const char *name)
{
    uint64_t t1 = ticks(); /* first, for the same reason */
    struct tdata *t = tls;
    uint32_t s;
    int i;

    if (prophecy_trace_state != NULL && name != NULL)
        prophecy_trace_state(name, 0);
    if (t == NULL || name == NULL)
        return;
    if (t->lost > 0) {
        t->lost--;
        return;
    }
    if (t->depth > 0) {
        struct frame *f = &t->stack[t->depth - 1];
        if (t->slots[f->slot].ptr ==
            name) { /* the usual case: a literal closing its BEGIN */
            struct slot *sl = &t->slots[f->slot];
            sl->ns += t1 > f->t0 ? t1 - f->t0 : 0; /* a thread moved to a core behind */
            sl->calls++;
            t->depth--;
            return;
        }
    }
    if (lookup(t, name, &s) != 0)
        return;
    for (i = t->depth - 1; i >= 0; i--)
        if (t->stack[i].slot == s)
            break;
    t->mismatches++; /* the innermost interval is not this name's */
    if (i < 0)
        return; /* END without an open BEGIN: ignored */
    /* Intervals opened above the matching BEGIN were never closed: dropped. */
    t->slots[s].ns += t1 > t->stack[i].t0 ? t1 - t->stack[i].t0 : 0;
    t->slots[s].calls++;
    t->depth = i;
}

void probe_count(const char *name, long long n)
{
    struct tdata *t = tls;
    uint32_t s;

    if (t == NULL && (t = tdata_get()) == NULL)
        return;
    if (name == NULL || lookup(t, name, &s) != 0)
        return;
    t->slots[s].count += n;
    t->slots[s].has_count = 1;
}

void probe_value(const char *name, double x)
{
    struct tdata *t = tls;
    struct slot *sl;
    uint32_t s;

    if (!isfinite(x))
        return;
    if (t == NULL && (t = tdata_get()) == NULL)
        return;
    if (name == NULL || lookup(t, name, &s) != 0)
        return;
    sl = &t->slots[s];
    if (sl->vn == 0 || x < sl->vmin)
        sl->vmin = x;
    if (sl->vn == 0 || x > sl->vmax)
        sl->vmax = x;
    sl->vsum += x;
    sl->vn++;
}

void probe_reset(void)
{
    struct tdata *t;

    pthread_mutex_lock(&reg_lock);
    for (t = reg_head; t; t = t->next) {
        uint32_t i;
        for (i = 0; i < t->nslots; i++) {
            struct slot *s = &t->slots[i];
            s->ns = s->calls = s->vn = 0;
            s->count = 0;
            s->has_count = 0;
            s->vsum = s->vmin = s->vmax = 0;
        }
        t->depth = t->lost = 0;
        t->mismatches = t->dropped = 0;
    }
    pthread_mutex_unlock(&reg_lock);
}

/* ---- merging ---------------------------------------------------------------- */

/* One name merged over threads (and, on rank 0 under MPI, over ranks). */
struct agg {
    char *name; /* owned */
    uint64_t hash;
    double time;              /* this process: sum over threads; over ranks: max */
    double calls;             /* this process: sum; over ranks: max */
    double tmin, tsum, ranks; /* over ranks that ran the kernel */
    long long count;
    int has_count;
    double vn, vsum, vmin, vmax;
};

struct aggset {
    struct agg *v;
    size_t n, cap;
    size_t *map; /* open addressing over v: index + 1, 0 = empty */
    size_t mcap;
    double mismatches, dropped, unclosed;
};

static void aggset_free(struct aggset *a)
{
    size_t i;
    for (i = 0; i < a->n; i++)
        free(a->v[i].name);
    free(a->v);
    free(a->map);
    memset(a, 0, sizeof *a);
}

static int aggset_rehash(struct aggset *a, size_t mcap)
{
    size_t *m = calloc(mcap, sizeof *m), i;

    if (m == NULL)
        return -1;
    for (i = 0; i < a->n; i++) {
        size_t j = a->v[i].hash & (mcap - 1);
        while (m[j])
            j = (j + 1) & (mcap - 1);
        m[j] = i + 1;
    }
    free(a->map);
    a->map = m;
    a->mcap = mcap;
    return 0;
}

/* Finds or adds `name`; returns the entry or NULL when out of memory. */
static struct agg *aggset_get(struct aggset *a, const char *name, size_t len)
{
    uint64_t h = 1469598103934665603u;
    size_t i, j;
    struct agg *g;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char)name[i];
        h *= 1099511628211u;
    }
    if ((a->n + 1) * 2 > a->mcap && aggset_rehash(a, a->mcap ? a->mcap * 2 : 64) != 0)
        return NULL;
    for (j = h & (a->mcap - 1); a->map[j]; j = (j + 1) & (a->mcap - 1)) {
        g = &a->v[a->map[j] - 1];
        if (g->hash == h && strlen(g->name) == len && memcmp(g->name, name, len) == 0)
            return g;
    }
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 32;
        struct agg *nv = realloc(a->v, cap * sizeof *nv);
        if (nv == NULL)
            return NULL;
        a->v = nv;
        a->cap = cap;
    }
    g = &a->v[a->n];
    memset(g, 0, sizeof *g);
    g->name = malloc(len + 1);
    if (g->name == NULL)
        return NULL;
    memcpy(g->name, name, len);
    g->name[len] = '\0';
    g->hash = h;
    a->map[j] = ++a->n;
    return g;
}

static void agg_add_values(struct agg *g, double vn, double vsum, double vmin,
                           double vmax)
{
    if (vn <= 0)
        return;
    if (g->vn == 0 || vmin < g->vmin)
        g->vmin = vmin;
    if (g->vn == 0 || vmax > g->vmax)
        g->vmax = vmax;
    g->vn += vn;
    g->vsum += vsum;
}

/* Merges every thread's table of this process into `a`. */
static int merge_local(struct aggset *a)
{
    struct tdata *t;
    int rc = 0;
    double tick = tick_seconds();

    pthread_mutex_lock(&reg_lock);
    for (t = reg_head; t && rc == 0; t = t->next) {
        uint32_t i;
        for (i = 0; i < t->nslots; i++) {
            struct slot *s = &t->slots[i];
            struct agg *g;
            if (s->calls == 0 && !s->has_count && s->vn == 0)
                continue;
            g = aggset_get(a, s->name, strlen(s->name));
            if (g == NULL) {
                rc = -1;
                break;
            }
            g->time += (double)s->ns * tick;
            g->calls += (double)s->calls;
            g->count += s->count;
            g->has_count |= s->has_count;
            agg_add_values(g, (double)s->vn, s->vsum, s->vmin, s->vmax);
        }
        a->mismatches += (double)t->mismatches;
        a->dropped += (double)t->dropped;
        a->unclosed += (double)(t->depth + t->lost);
    }
    pthread_mutex_unlock(&reg_lock);
    /* Single-process view: each kernel ran on one "rank". */
    if (rc == 0) {
        size_t i;
        for (i = 0; i < a->n; i++) {
            a->v[i].tmin = a->v[i].tsum = a->v[i].time;
            a->v[i].ranks = a->v[i].calls > 0 ? 1 : 0;
        }
    }
    return rc;
}

/* ---- output ----------------------------------------------------------------- */

static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_num(FILE *f, double v)
{
    if (!isfinite(v))
        v = 0;
    if (v == floor(v) && fabs(v) < 1e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.17g", v);
}

static void put_metric(FILE *f, int *first, const char *name, const char *suffix,
                       double v)
{
    fputs(*first ? "\n  " : ",\n  ", f);
    *first = 0;
    if (suffix) {
        char key[PROBE_NAME_MAX + 32];
        snprintf(key, sizeof key, "%s%s", name, suffix);
        put_str(f, key);
    } else {
        put_str(f, name);
    }
    fputs(": ", f);
    put_num(f, v);
}

/* Writes the fragment for `a` to path atomically (temporary file + rename).
 * `mpi` adds the per-rank aggregates of kernels. */
static int write_fragment(const struct aggset *a, const char *path, int mpi)
{
    char tmp[4096];
    FILE *f;
    size_t i;
    int first = 1, n;

    n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) {
        fprintf(stderr, "probe: output path too long: %s\n", path);
        return -1;
    }
    f = fopen(tmp, "w");
    if (f == NULL) {
        fprintf(stderr, "probe: cannot write %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    fputs("{\"kernels\": [", f);
    for (i = 0; i < a->n; i++) {
        const struct agg *g = &a->v[i];
        if (g->calls <= 0)
            continue;
        fputs(first ? "\n  {\"name\": " : ",\n  {\"name\": ", f);
        first = 0;
        put_str(f, g->name);
        fputs(", \"time\": ", f);
        put_num(f, g->time);
        fputs(", \"calls\": ", f);
        put_num(f, g->calls);
        fputc('}', f);
    }
    fputs("],\n\"metrics\": {", f);
    first = 1;
    for (i = 0; i < a->n; i++) {
        const struct agg *g = &a->v[i];
        if (mpi && g->calls > 0) {
            put_metric(f, &first, g->name, ".time_max", g->time);
            put_metric(f, &first, g->name, ".time_mean",
                       g->ranks > 0 ? g->tsum / g->ranks : 0);
            put_metric(f, &first, g->name, ".time_min", g->tmin);
            put_metric(f, &first, g->name, ".ranks", g->ranks);
        }
        if (g->has_count)
            put_metric(f, &first, g->name, NULL, (double)g->count);
        if (g->vn > 0) {
            put_metric(f, &first, g->name, g->has_count ? ".value" : NULL,
                       g->vsum / g->vn);
            if (g->vn > 1) {
                put_metric(f, &first, g->name, ".min", g->vmin);
                put_metric(f, &first, g->name, ".max", g->vmax);
            }
        }
    }
    if (a->mismatches > 0)
        put_metric(f, &first, "probe.mismatches", NULL, a->mismatches);
    if (a->unclosed > 0)
        put_metric(f, &first, "probe.unclosed", NULL, a->unclosed);
    if (a->dropped > 0)
        put_metric(f, &first, "probe.dropped", NULL, a->dropped);
    fputs("}}\n", f);
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
        fprintf(stderr, "probe: cannot write %s: %s\n", tmp, strerror(errno));
        fclose(f);
        unlink(tmp);
        return -1;
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "probe: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (a->mismatches > 0 || a->unclosed > 0 || a->dropped > 0)
        fprintf(stderr,
                "probe: %.0f mismatched PROBE_END, %.0f unclosed PROBE_BEGIN, %.0f "
                "dropped events\n",
                a->mismatches, a->unclosed, a->dropped);
    return 0;
}

static int write_local(const char *path, int mpi)
{
    struct aggset a;
    int rc;

    memset(&a, 0, sizeof a);
    if (merge_local(&a) != 0) {
        fprintf(stderr, "probe: out of memory while merging\n");
        aggset_free(&a);
        return -1;
    }
    rc = write_fragment(&a, path, mpi);
    aggset_free(&a);
    return rc;
}

int probe_write(const char *path)
{
    if (path == NULL) {
        path = getenv("PROBE_OUTPUT");
        pthread_mutex_lock(&reg_lock);
        written = 1;
        pthread_mutex_unlock(&reg_lock);
        if (path == NULL || *path == '\0')
            return 0;
    }
    return write_local(path, 0);
}

#ifdef PROBE_MPI
/* Packed per-kernel record sent to rank 0: name length, name bytes, then
 * time, calls, count, has_count, vn, vsum, vmin, vmax as doubles, then the
 * process's mismatch/unclosed/dropped counters once at the end. */
#define REC_DOUBLES 8

static int pack_local(const struct aggset *a, char **out, int *outlen)
{
    size_t need = 3 * sizeof(double), i, off = 0;
    char *p;

    for (i = 0; i < a->n; i++)
        need += sizeof(uint32_t) + strlen(a->v[i].name) + REC_DOUBLES * sizeof(double);
    if (need > (size_t)1 << 30)
        return -1;
    p = malloc(need);
    if (p == NULL)
        return -1;
    for (i = 0; i < a->n; i++) {
        const struct agg *g = &a->v[i];
        uint32_t len = (uint32_t)strlen(g->name);
        double d[REC_DOUBLES] = {g->time, g->calls, (double)g->count, g->has_count,
                                 g->vn,   g->vsum,  g->vmin,          g->vmax};
        memcpy(p + off, &len, sizeof len);
        off += sizeof len;
        memcpy(p + off, g->name, len);
        off += len;
        memcpy(p + off, d, sizeof d);
        off += sizeof d;
    }
    {
        double c[3] = {a->mismatches, a->unclosed, a->dropped};
        memcpy(p + off, c, sizeof c);
        off += sizeof c;
    }
    *out = p;
    *outlen = (int)off;
    return 0;
}

static int unpack_rank(struct aggset *all, const char *p, size_t len)
{
    size_t off = 0;
    double c[3];

    if (len < sizeof c)
        return -1;
    while (off < len - sizeof c) {
        uint32_t nl;
        double d[REC_DOUBLES];
        struct agg *g;
        if (len - sizeof c - off < sizeof nl)
            return -1;
        memcpy(&nl, p + off, sizeof nl);
        off += sizeof nl;
        if (len - sizeof c - off < (size_t)nl + sizeof d)
            return -1;
        g = aggset_get(all, p + off, nl);
        if (g == NULL)
            return -1;
        off += nl;
        memcpy(d, p + off, sizeof d);
        off += sizeof d;
        if (d[1] > 0) { /* a kernel on this rank */
            if (g->ranks == 0 || d[0] > g->time)
                g->time = d[0];
            if (g->ranks == 0 || d[0] < g->tmin)
                g->tmin = d[0];
            if (d[1] > g->calls)
                g->calls = d[1];
            g->tsum += d[0];
            g->ranks += 1;
        }
        g->count += (long long)d[2];
        g->has_count |= d[3] != 0;
        agg_add_values(g, d[4], d[5], d[6], d[7]);
    }
    memcpy(c, p + len - sizeof c, sizeof c);
    all->mismatches += c[0];
    all->unclosed += c[1];
    all->dropped += c[2];
    return 0;
}

int probe_mpi_finalize(void)
{
    struct aggset a, all;
    int inited = 0, finalized = 0, rank = 0, size = 1, len = 0, rc = -1, r;
    char *mine = NULL, *every = NULL;
    int *lens = NULL, *displs = NULL;
    const char *path = getenv("PROBE_OUTPUT");

    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (!inited || finalized)
        return probe_write(NULL);
    pthread_mutex_lock(&reg_lock);
    written = 1;
    pthread_mutex_unlock(&reg_lock);
    memset(&a, 0, sizeof a);
    memset(&all, 0, sizeof all);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Every rank takes part in both collectives even after a local failure
     * (it then sends nothing), so no rank is left waiting. */
    if (merge_local(&a) != 0 || pack_local(&a, &mine, &len) != 0) {
        fprintf(stderr, "probe: rank %d: out of memory; its totals are lost\n", rank);
        free(mine);
        mine = NULL;
        len = 0;
    }
    if (rank == 0) {
        lens = calloc((size_t)size, sizeof *lens);
        displs = calloc((size_t)size, sizeof *displs);
    }
    MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        long long total = 0;
        if (lens == NULL || displs == NULL) {
            fprintf(stderr, "probe: out of memory gathering ranks\n");
            MPI_Abort(MPI_COMM_WORLD, 1); /* the ranks are blocked in Gatherv */
        }
        for (r = 0; r < size; r++) {
            displs[r] = (int)total;
            total += lens[r];
        }
        if (total > INT32_MAX || (every = malloc((size_t)total + 1)) == NULL) {
            fprintf(stderr, "probe: gathered totals too large\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Gatherv(mine, len, MPI_BYTE, every, lens, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        rc = 0;
        goto out;
    }
    for (r = 0; r < size; r++) {
        if (lens[r] > 0 && unpack_rank(&all, every + displs[r], (size_t)lens[r]) != 0) {
            fprintf(stderr, "probe: cannot merge the totals of rank %d\n", r);
            goto out;
        }
    }
    rc = (path && *path) ? write_fragment(&all, path, 1) : 0;
out:
    aggset_free(&a);
    aggset_free(&all);
    free(mine);
    free(every);
    free(lens);
    free(displs);
    return rc;
}
#else
int probe_mpi_finalize(void)
{
    return probe_write(NULL);
}
#endif

/* The rank of this process from the launcher's environment, or -1. Used only
 * when probe_mpi_finalize() was forgotten and MPI can no longer be asked. */
static long env_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                       "SLURM_PROCID"};
    size_t i;

    for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long r;
        if (v == NULL || *v == '\0')
            continue;
        errno = 0;
        r = strtol(v, &end, 10);
        if (errno == 0 && *end == '\0' && r >= 0)
            return r;
    }
    return -1;
}

static void probe_atexit(void)
{
    const char *path = getenv("PROBE_OUTPUT");
    int done;

    pthread_mutex_lock(&reg_lock);
    done = written;
    written = 1;
    pthread_mutex_unlock(&reg_lock);
    if (done || path == NULL || *path == '\0')
        return;
#ifdef PROBE_MPI
    {
        int inited = 0;
        MPI_Initialized(&inited); /* allowed even after MPI_Finalize */
        if (inited)
            fprintf(stderr, "probe: probe_mpi_finalize() was not called before "
                            "MPI_Finalize; writing rank-local totals only\n");
        if (env_rank() > 0)
            return;
    }
#else
    if (env_rank() > 0)
        return; /* several ranks of an MPI program: only the first one writes */
#endif
    write_local(path, 0);
}
