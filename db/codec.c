/* codec: the byte formats the store keeps; see codec.h. */
#include "db/codec.h"
#include "common/xalloc.h"
#include "formats/limits.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a run's judgements ----------------------------------------------------
 *
 * One row per judgement cost a b-tree insert and ~60 bytes each: with 100
 * watches covering every run, storing the judgements cost more than storing
 * the run. A run's judgements are one blob (format 1, little-endian):
 *
 *   byte 1                     the format
 *   varint k                   distinct verdicts, 1..n
 *   k verdicts                 a flags byte (1 ready, 2 out, 4 up, 8 down,
 *                              16 has x), then value, expected, lo, hi, score
 *                              and, with x, x: 8 bytes each
 *   varint n                   judgements
 *   n x (varint, varint)       the watch id's step from the one before (the
 *                              first is the id itself; ids strictly increase)
 *                              and the index of the verdict it reached
 *
 * Watches asking the same question of a run reach the same verdict, so 100
 * watches asking four questions take ~370 bytes.
 */
#define JUDGED_FORMAT 1
#define F_READY 1
#define F_OUT 2
#define F_UP 4
#define F_DOWN 8
#define F_X 16
#define RECORD_MAX (1 + 6 * 8)

size_t db_put_varint(unsigned char *p, unsigned long long v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (unsigned char)v;
    return n;
}

/* 0 past the end or beyond 63 bits. */
size_t db_get_varint(const unsigned char *p, size_t len, unsigned long long *v)
{
    size_t n = 0;
    *v = 0;
    while (n < len && n < 9) {
        *v |= (unsigned long long)(p[n] & 0x7f) << (7 * n);
        if (!(p[n++] & 0x80))
            return n;
    }
    return 0;
}

static size_t put_double(unsigned char *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    db_put64(p, u);
    return 8;
}

static double get_double(const unsigned char *p)
{
    uint64_t u = db_get64(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* A judgement's verdict as the format stores it; returns its length. */
static size_t record(unsigned char *p, const struct db_judgement *j)
{
    size_t o = 1;
    p[0] = (unsigned char)((j->ready ? F_READY : 0) | (j->out ? F_OUT : 0) |
                           (j->direction > 0 ? F_UP : 0) |
                           (j->direction < 0 ? F_DOWN : 0) | (j->has_x ? F_X : 0));
    o += put_double(p + o, j->value);
    o += put_double(p + o, j->expected);
    o += put_double(p + o, j->lo);
    o += put_double(p + o, j->hi);
    o += put_double(p + o, j->score);
    if (j->has_x)
        o += put_double(p + o, j->x);
    return o;
}

size_t db_judged_bound(size_t n)
{
    return 1 + 10 + n * RECORD_MAX + 10 + n * 20;
}

/* FNV-1a of a record: distinct verdicts are told apart by it first. */
static uint64_t record_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* Packs n >= 1 judgements, in strictly increasing watch order, into out
 * (room for pack_bound(n) bytes); returns the length, 0 when memory ran out.
 * The verdicts are written in place after room for the header, each new one
 * kept only when no earlier one has its bytes, then moved up to it. */
size_t db_judged_pack(const struct db_judgement *j, size_t n, unsigned char *out)
{
    struct distinct {
        size_t at, len;
        uint64_t hash;
    } *d = xmalloc(n * (sizeof *d + sizeof(size_t)));
    unsigned char head[1 + 10];
    size_t *which, k = 0, i, r, o = sizeof head, hlen;
    long long prev = 0;

    if (d == NULL)
        return 0;
    which = (size_t *)(d + n);
    for (i = 0; i < n; i++) {
        size_t l = record(out + o, &j[i]);
        uint64_t h = record_hash(out + o, l);
        for (r = 0; r < k; r++)
            if (d[r].hash == h && d[r].len == l && memcmp(out + d[r].at, out + o, l) == 0)
                break;
        if (r == k) {
            d[k++] = (struct distinct){o, l, h};
            o += l;
        }
        which[i] = r;
    }
    head[0] = JUDGED_FORMAT;
    hlen = 1 + db_put_varint(head + 1, k);
    memmove(out + hlen, out + sizeof head, o - sizeof head);
    memcpy(out, head, hlen);
    o = hlen + (o - sizeof head);
    o += db_put_varint(out + o, n);
    for (i = 0; i < n; i++) {
        o += db_put_varint(out + o, (unsigned long long)(j[i].watch_id - prev));
        prev = j[i].watch_id;
        o += db_put_varint(out + o, which[i]);
    }
    xfree(d);
    return o;
}

int db_judged_damaged(long long run_id, struct err *err)
{
    return err_set(err, ERR_INTERNAL, "database", NULL,
                   "the packed judgements of run %lld are damaged (run_judgements)",
                   run_id);
}

void db_judged_free(struct db_judged *u)
{
    xfree(u->j);
    memset(u, 0, sizeof *u);
}

int db_judged_decode(const void *blob, size_t len, long long run_id, struct db_judged *u,
                     struct err *err)
{
    const unsigned char *p = blob;
    unsigned long long k, n, step, r;
    size_t o = 1, s, i, *at;
    long long id = 0;

    u->n = 0;
    if (p == NULL || len < 1 || p[0] != JUDGED_FORMAT ||
        (s = db_get_varint(p + o, len - o, &k)) == 0 || k < 1 || k > len)
        return db_judged_damaged(run_id, err);
    o += s;
    if ((at = xmalloc((size_t)k * sizeof *at)) == NULL)
        return err_nomem(err);
    for (r = 0; r < k; r++) {
        size_t l;
        if (o >= len)
            goto bad;
        l = p[o] & F_X ? RECORD_MAX : RECORD_MAX - 8;
        if (len - o < l || p[o] & ~(F_READY | F_OUT | F_UP | F_DOWN | F_X))
            goto bad;
        at[r] = o;
        o += l;
    }
    if ((s = db_get_varint(p + o, len - o, &n)) == 0 || n < 1 || n > len)
        goto bad;
    o += s;
    if (n > u->cap) {
        struct db_judgement *more = xrealloc(u->j, (size_t)n * sizeof *u->j);
        if (more == NULL) {
            xfree(at);
            return err_nomem(err);
        }
        u->j = more;
        u->cap = (size_t)n;
    }
    for (i = 0; i < n; i++) {
        struct db_judgement *j = &u->j[i];
        const unsigned char *v;
        if ((s = db_get_varint(p + o, len - o, &step)) == 0 || step < 1 ||
            step > (unsigned long long)(INT64_MAX - id))
            goto bad;
        o += s;
        if ((s = db_get_varint(p + o, len - o, &r)) == 0 || r >= k)
            goto bad;
        o += s;
        id += (long long)step;
        v = p + at[r];
        j->watch_id = id;
        j->run_id = run_id;
        j->ready = !!(v[0] & F_READY);
        j->out = !!(v[0] & F_OUT);
        j->direction = v[0] & F_UP ? 1 : v[0] & F_DOWN ? -1 : 0;
        j->has_x = !!(v[0] & F_X);
        j->value = get_double(v + 1);
        j->expected = get_double(v + 9);
        j->lo = get_double(v + 17);
        j->hi = get_double(v + 25);
        j->score = get_double(v + 33);
        j->x = j->has_x ? get_double(v + 41) : 0;
    }
    if (o != len)
        goto bad;
    xfree(at);
    u->n = (size_t)n;
    return 0;
bad:
    xfree(at);
    return db_judged_damaged(run_id, err);
}

/* ---- a series chunk ---------------------------------------------------------
 *
 * One byte of format (1), then per point its at_ms and run id (8 bytes each,
 * little-endian two's complement), its runtime (8 bytes, the IEEE 754 bits
 * little-endian) and its commit (2 bytes of length, little-endian, 0xffff
 * for none, then the bytes). Up to DB_CHUNK points, in (at_ms, id) order.
 */

static int chunk_damaged(long long config_id, struct err *err)
{
    return err_set(err, ERR_INTERNAL, "database", NULL,
                   "a packed series chunk of configuration %lld is damaged (delete its "
                   "rows from series_chunks: they are rebuilt from runs)",
                   config_id);
}

int db_chunk_decode(const unsigned char *blob, size_t len, long long n,
                    struct db_chunk *u, long long config_id, struct err *err)
{
    size_t o = 1, t = 0;
    long long i;

    if (blob == NULL || len < 1 || blob[0] != DB_CHUNK_FORMAT || n < 1 || n > DB_CHUNK)
        return chunk_damaged(config_id, err);
    if (u->cap < len) {
        /* at most len bytes of commits and one NUL for each of n <= len points */
        char *q = xrealloc(u->text, 2 * len);
        if (q == NULL)
            return err_nomem(err);
        u->text = q;
        u->cap = 2 * len;
    }
    for (i = 0; i < n; i++) {
        size_t clen;
        if (len - o < 26)
            return chunk_damaged(config_id, err);
        u->p[i].at = (long long)db_get64(blob + o);
        u->p[i].run = (long long)db_get64(blob + o + 8);
        {
            uint64_t bits = db_get64(blob + o + 16);
            memcpy(&u->p[i].value, &bits, sizeof bits);
        }
        clen = (size_t)blob[o + 24] | (size_t)blob[o + 25] << 8;
        o += 26;
        if (clen == DB_CHUNK_NO_COMMIT) {
            u->p[i].commit = NULL;
            continue;
        }
        if (len - o < clen)
            return chunk_damaged(config_id, err);
        memcpy(u->text + t, blob + o, clen);
        u->text[t + clen] = '\0';
        u->p[i].commit = u->text + t;
        t += clen + 1;
        o += clen;
    }
    if (o != len)
        return chunk_damaged(config_id, err);
    return 0;
}

void db_chunk_put(unsigned char *p, long long at, long long run, double value,
                  const char *commit, size_t clen)
{
    uint64_t bits;
    db_put64(p, (uint64_t)at);
    db_put64(p + 8, (uint64_t)run);
    memcpy(&bits, &value, sizeof bits);
    db_put64(p + 16, bits);
    p[24] = (unsigned char)(commit ? clen & 0xff : 0xff);
    p[25] = (unsigned char)(commit ? clen >> 8 : 0xff);
    if (commit)
        memcpy(p + 26, commit, clen);
}

/* ---- the configuration key ------------------------------------------------ */

static int kv_cmp(const void *a, const void *b)
{
    return strcmp(((const struct rec_kv *)a)->name, ((const struct rec_kv *)b)->name);
}

/* A JSON string as SQLite's JSON functions write one. */
static void json_quote(struct buf *out, const char *s)
{
    buf_putc(out, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            buf_putc(out, '\\');
            buf_putc(out, (char)c);
        } else if (c < 0x20) {
            static const char short_esc[] = "btn_fr"; /* \b \t \n \f \r */
            if (c >= 8 && c <= 13 && c != 11)
                buf_printf(out, "\\%c", short_esc[c - 8]);
            else
                buf_printf(out, "\\u%04x", c);
        } else {
            buf_putc(out, (char)c);
        }
    }
    buf_putc(out, '"');
}

/* A REAL exactly as SQLite's JSON functions write one ("%!0.15g" of SQLite's
 * own printf: 15 significant digits and a ".0" on whole mantissas). Its
 * digits are not always C's: SQLite 3.40 rounds 15 digits of some large
 * numbers differently from glibc (-9.92225976059418e+115 against
 * ...419e+115), and the stored keys are SQLite's, so SQLite's printf makes
 * them (tests/unit/db/test_codec.c compares 20,000 random values). A pure
 * formatting call: it touches no database. */
static void sqlite_real(struct buf *out, double v)
{
    char num[48];
    sqlite3_snprintf(sizeof num, num, "%!0.15g", v);
    buf_puts(out, num);
}

int db_config_key(const struct rec_kv *inputs, size_t n, struct buf *out, struct err *err)
{
    struct rec_kv sorted[LIMIT_INPUTS];

    if (n > LIMIT_INPUTS)
        return err_set(err, ERR_INTERNAL, "internal", NULL, "too many inputs");
    if (n)
        memcpy(sorted, inputs, n * sizeof *sorted);
    buf_reset(out);
    db_inputs_key(sorted, n, out);
    return buf_failed(out) ? err_nomem(err) : 0;
}

void db_inputs_key(struct rec_kv *kv, size_t n, struct buf *out)
{
    size_t i;
    if (n > 1)
        qsort(kv, n, sizeof *kv, kv_cmp);
    buf_putc(out, '{');
    for (i = 0; i < n; i++) {
        if (i)
            buf_putc(out, ',');
        json_quote(out, kv[i].name);
        buf_putc(out, ':');
        sqlite_real(out, kv[i].value);
    }
    buf_putc(out, '}');
}
