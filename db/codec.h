/* codec: the byte formats the store keeps, for any engine (internal to db/):
 * 64-bit little-endian numbers, varints, a run's packed judgements, a
 * series chunk's points, and the text that keys a configuration by its
 * inputs (run_configs.inputs). Pure functions: no connection, no SQL.
 */
#ifndef PROPHECY_DB_CODEC_H
#define PROPHECY_DB_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/err.h"
#include "db/history.h"
#include "formats/record.h"

/* 64 bits little-endian, as the packed formats store them. */
static inline void db_put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t db_get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* A varint (7 bits a byte, low first): its length; get returns 0 past the
 * end or beyond 63 bits. */
size_t db_put_varint(unsigned char *p, unsigned long long v);
size_t db_get_varint(const unsigned char *p, size_t len, unsigned long long *v);

/* ---- a run's judgements in one blob (schema.sql migration 11) ----------- */

struct db_judged {
    struct db_judgement *j; /* decoded, in watch order */
    size_t n, cap;
};
/* The room db_judged_pack needs for n judgements. */
size_t db_judged_bound(size_t n);
/* Packs n >= 1 judgements, in strictly increasing watch order, into out
 * (db_judged_bound(n) bytes); the length, 0 when memory ran out. */
size_t db_judged_pack(const struct db_judgement *j, size_t n, unsigned char *out);
/* Decodes one run's blob into u (its buffer reused); a damaged blob is an
 * ERR_INTERNAL naming the run. 0 or -1. */
int db_judged_decode(const void *blob, size_t len, long long run_id, struct db_judged *u,
                     struct err *err);
void db_judged_free(struct db_judged *u);
/* The ERR_INTERNAL for a run whose packed judgements are damaged; returns -1. */
int db_judged_damaged(long long run_id, struct err *err);

/* ---- a series chunk (schema.sql migration 10) ---------------------------- */

#define DB_CHUNK 1024 /* points of a full chunk */
#define DB_CHUNK_NO_COMMIT 0xffff
#define DB_CHUNK_FORMAT 1

/* A decoded chunk: its points, their commits copied with a NUL each. */
struct db_chunk {
    struct db_series_point p[DB_CHUNK];
    char *text;
    size_t cap;
};
/* Decodes blob (len bytes, n points) into u; checks every length first. */
int db_chunk_decode(const unsigned char *blob, size_t len, long long n,
                    struct db_chunk *u, long long config_id, struct err *err);
/* The bytes one point takes (clen: its commit's length, 0 for none). */
#define DB_CHUNK_POINT(clen) (26 + (clen))
/* Writes one point at p (DB_CHUNK_POINT(clen) bytes); commit NULL for none,
 * clen < DB_CHUNK_NO_COMMIT. */
void db_chunk_put(unsigned char *p, long long at, long long run, double value,
                  const char *commit, size_t clen);

/* ---- the configuration key ---------------------------------------------- */

/* Appends to out the canonical JSON text of n named values, in name (byte)
 * order, exactly as SQLite's json_group_object writes it (which keyed the
 * configurations first, so existing databases hold it): {"L":1024.0,
 * "N":1e-05} becomes {"L":1024.0,"N":1.0e-05} (15 significant digits, a
 * ".0" on whole mantissas). kv is reordered. */
void db_inputs_key(struct rec_kv *kv, size_t n, struct buf *out);

/* The most bytes a configuration key may take (the buffer's limit). */
#define DB_CONFIG_KEY_MAX (64 * 1024)

/* The configuration key of a run's n inputs (db_inputs_key's text, inputs
 * left in their order) in out, a buffer initialised with DB_CONFIG_KEY_MAX,
 * whose contents it replaces. 0, or -1 with err set (more than LIMIT_INPUTS
 * inputs, or memory). */
int db_config_key(const struct rec_kv *inputs, size_t n, struct buf *out,
                  struct err *err);

#endif
