/* import: the toolkit the importers of formats/ share (internal to formats/).
 *
 * A batch collects runs for the sink and hands them over LIMIT_IMPORT_BATCH
 * at a time, renewing its arena after each hand-over so that memory stays
 * bounded however long the file; it also gives every run its stable uid.
 * Besides: a line reader with line numbers, strict number and name checks,
 * metrics as JSON text, and one error shape ("FILE:LINE: message", field
 * "FILE:LINE" or "FILE:FIELD") so every importer reports the same way.
 */
#ifndef PROPHECY_FORMATS_IMPORT_H
#define PROPHECY_FORMATS_IMPORT_H

#include <jansson.h>
#include <stddef.h>
#include <zlib.h>

#include "common/arena.h"
#include "common/err.h"
#include "formats/formats.h"
#include "formats/limits.h"
#include "formats/record.h"

struct imp_batch {
    const char *format;          /* hashed into every uid */
    const char *file;            /* for messages */
    const struct fmt_sink *sink; /* borrowed */
    arena *a;                    /* the current batch's records; renewed on flush */
    struct run_record *runs;     /* LIMIT_IMPORT_BATCH slots (owned) */
    size_t n;                    /* runs in the current batch */
    size_t total;                /* runs handed over or pending */
};

/* Starts an empty batch. Returns 0 or -1 (out of memory). Free with
 * imp_batch_free even after a failure. */
int imp_batch_init(struct imp_batch *b, const char *format, const char *file,
                   const struct fmt_sink *sink, struct err *err);
void imp_batch_free(struct imp_batch *b);

/* Returns a zeroed run slot, first handing the full batch to the sink when
 * there is no room (which frees the memory of the runs handed over: allocate
 * the new run's strings from b->a after this call). NULL with err on failure
 * or beyond LIMIT_IMPORT_RUNS. */
struct run_record *imp_batch_slot(struct imp_batch *b, struct err *err);

/* Completes the slot last returned: checks it (names, nprocs >= 1, finite
 * non-negative times, as the API checks them; counts against limits.h) and sets its uid
 * from the format, `identity` (where the run sits in the file: "point 3
 * repetition 2") and its values. Returns 0 or -1 with err naming the file. */
int imp_batch_commit(struct imp_batch *b, const char *identity, struct err *err);

/* Hands the remaining runs to the sink. Returns 0 or -1 with err. */
int imp_batch_finish(struct imp_batch *b, struct err *err);

/* Lines of a text, numbered from 1, without "\n" or "\r\n". */
struct imp_lines {
    const char *p, *end;
    size_t lineno; /* number of the line last returned */
};
void imp_lines_init(struct imp_lines *l, const char *data, size_t len);
/* Returns 1 with *line, *len set, 0 at the end, -1 when a line is longer
 * than LIMIT_IMPORT_LINE or holds a NUL byte (err names file and line). */
int imp_lines_next(struct imp_lines *l, const char *file, const char **line, size_t *len,
                   struct err *err);

/* Records an ERR_INVALID error "FILE:LINE: message" with field "FILE:LINE". Returns -1.
 */
int imp_fail_line(struct err *err, const char *file, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Records an ERR_INVALID error "FILE: FIELD: message" with field FIELD. Returns -1. */
int imp_fail_field(struct err *err, const char *file, const char *field, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));

/* Copies a failure recorded in `inner` into err, placing it at file:line
 * when it does not already name a line (helpers that know no line report
 * "FILE: message"). Returns -1. */
int imp_at_line(struct err *err, const struct err *inner, const char *file, size_t line);

/* Parses s[0..len) in full as a finite decimal number. Returns 0 or -1. */
int imp_number(const char *s, size_t len, double *out);
/* Parses s[0..len) in full as a decimal integer. Returns 0 or -1. */
int imp_integer(const char *s, size_t len, long long *out);

/* Returns an arena copy of s[0..len) after checking it is a name (non-empty
 * after trimming blanks, at most LIMIT_NAME bytes, valid UTF-8, no control
 * characters), or NULL with err naming `what` in file. */
char *imp_name(arena *a, const char *s, size_t len, const char *file, const char *what,
               struct err *err);

/* Returns the JSON object text {"name": value, ...} of kv[0..n) in the arena,
 * NULL for n = 0 or out of memory (*failed set then). */
const char *imp_metrics_json(arena *a, const struct rec_kv *kv, size_t n, int *failed);

/* Returns the base name of a path without its directory and last extension
 * ("runs/lulesh.jsonl" -> "lulesh"), in the arena; "import" when empty. */
char *imp_base_name(arena *a, const char *path);

/* Returns the application a program's path names: its file name
 * ("./bench_sort" -> bench_sort, "lulesh2.0" stays, "x.exe" -> x); for a.out,
 * the nearest directory that is not a build directory ("proj/build/a.out" ->
 * proj); without one, imp_base_name(file), or NULL for a NULL file. In the
 * arena. */
const char *imp_program_name(arena *a, const char *exe, const char *file);

/* The length of the directory part of a file's name ("a/b/c.xml" -> 3), 0
 * for a name without one. */
long imp_dir_len(const char *name);

/* Returns 1 when the text's first non-blank bytes (within the first 4 KiB)
 * start with prefix. */
int imp_starts_with(const struct fmt_file *f, const char *prefix);
/* Returns 1 when the first 64 KiB of the file contain needle. */
int imp_contains(const struct fmt_file *f, const char *needle);

/* Loads a whole JSON document (at most LIMIT_IMPORT_DOC bytes). Returns a new
 * reference, or NULL with an ERR_INVALID error naming file, line and column. */
json_t *imp_json_load(const struct fmt_file *f, struct err *err);

/* Returns an ISO 8601 time ("2026-11-21T10:00:00[.fff][Z|+hh:mm]") for the
 * common ways tools write one ("2026-11-21 10:00:00", "2026/11/21-10:00:00",
 * ISO already), in the arena; NULL when s is not one of them. */
const char *imp_timestamp(arena *a, const char *s);

/* Copies a string field of a JSON object that is a name (imp_name rules) or
 * returns NULL when absent or not a string (no error). */
const char *imp_json_name(arena *a, json_t *obj, const char *key);

/* Collects the string fields of a JSON object as provenance tags (key =
 * value), skipping the keys in skip[] (NULL-terminated), values that are
 * not names (longer than LIMIT_NAME, control characters: free text such as
 * a compiler's version banner) and anything beyond LIMIT_TAGS. Keys are
 * kept as they are: one the run rules refuse refuses the import. Sets *tags (arena) and
 * *n; returns how many name-valued fields were left out beyond LIMIT_TAGS
 * (for the import's note), the first one's key in *first_over when not NULL. */
size_t imp_json_tags(arena *a, json_t *obj, const char *const *skip,
                     struct rec_tag **tags, size_t *n, const char **first_over);

/* Returns the name a parameter becomes: 1 when it is the process count (p,
 * np, nprocs, procs, ranks, processes; any case), else 0 (an input). */
int imp_is_nprocs(const char *param);

/* A map from names to indices (open addressing, FNV-1a), so that a file with
 * thousands of regions costs no quadratic search. Keys are borrowed: they
 * must live as long as the map. */
struct imp_map {
    struct imp_map_slot {
        const char *key;
        size_t len, val;
    } * e;
    size_t cap, n;
};
/* Returns 1 and sets *val when key[0..len) is in the map, else 0. */
int imp_map_get(const struct imp_map *m, const char *key, size_t len, size_t *val);
/* Adds key[0..len) -> val (the key must not be in the map). Returns 0 or -1
 * (out of memory). */
int imp_map_put(struct imp_map *m, const char *key, size_t len, size_t val);
void imp_map_free(struct imp_map *m);

/* 64-bit FNV-1a of s[0..len), continuing from h (start with IMP_HASH0). */
#define IMP_HASH0 1469598103934665603ull
unsigned long long imp_hash(unsigned long long h, const char *s, size_t len);

/* The kernel name of a call path (SPEC §16: labels joined with "/"). A path
 * of at most LIMIT_NAME bytes is itself; a longer one keeps its first label
 * (its first LIMIT_NAME / 4 bytes when longer), a mark made from `h` (a hash of the whole
 * path, so that distinct long paths keep distinct names) and as many trailing labels as
 * fit: "main/…3f9a01c2/MPI_Recv/psm_wait". `tail` is the path's end
 * (tail_len bytes, at least what fits), `head` its first label. Returns the
 * name in the arena, or NULL (out of memory). */
char *imp_path_name(arena *a, const char *head, size_t head_len, const char *tail,
                    size_t tail_len, size_t full_len, unsigned long long h);

/* The rows of the table (formats/formats.c), one parser file each. */
int import_rundoc_json(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err);
int sniff_rundoc_json(const struct fmt_file *files, size_t nfiles);
int import_rundoc_csv(const struct fmt_file *files, size_t nfiles,
                      const struct fmt_options *opt, const struct fmt_sink *sink,
                      struct err *err);
int sniff_rundoc_csv(const struct fmt_file *files, size_t nfiles);
int import_extrap_text(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err);
int sniff_extrap_text(const struct fmt_file *files, size_t nfiles);
int import_extrap_json(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err);
int sniff_extrap_json(const struct fmt_file *files, size_t nfiles);
int import_extrap_jsonl(const struct fmt_file *files, size_t nfiles,
                        const struct fmt_options *opt, const struct fmt_sink *sink,
                        struct err *err);
int sniff_extrap_jsonl(const struct fmt_file *files, size_t nfiles);
int import_caliper_json(const struct fmt_file *files, size_t nfiles,
                        const struct fmt_options *opt, const struct fmt_sink *sink,
                        struct err *err);
int sniff_caliper_json(const struct fmt_file *files, size_t nfiles);
int import_tau(const struct fmt_file *files, size_t nfiles, const struct fmt_options *opt,
               const struct fmt_sink *sink, struct err *err);
int sniff_tau(const struct fmt_file *files, size_t nfiles);
long root_tau(const char *name);
int import_osu(const struct fmt_file *files, size_t nfiles, const struct fmt_options *opt,
               const struct fmt_sink *sink, struct err *err);
int sniff_osu(const struct fmt_file *files, size_t nfiles);
int import_lnt_json(const struct fmt_file *files, size_t nfiles,
                    const struct fmt_options *opt, const struct fmt_sink *sink,
                    struct err *err);
int sniff_lnt_json(const struct fmt_file *files, size_t nfiles);
int import_bmf(const struct fmt_file *files, size_t nfiles, const struct fmt_options *opt,
               const struct fmt_sink *sink, struct err *err);
int sniff_bmf(const struct fmt_file *files, size_t nfiles);
int import_gbench(const struct fmt_file *files, size_t nfiles,
                  const struct fmt_options *opt, const struct fmt_sink *sink,
                  struct err *err);
int sniff_gbench(const struct fmt_file *files, size_t nfiles);
int import_otf2(const struct fmt_file *files, size_t nfiles,
                const struct fmt_options *opt, const struct fmt_sink *sink,
                struct err *err);
int sniff_otf2(const struct fmt_file *files, size_t nfiles);
long root_otf2(const char *name);
int import_cube(const struct fmt_file *files, size_t nfiles,
                const struct fmt_options *opt, const struct fmt_sink *sink,
                struct err *err);
int sniff_cube(const struct fmt_file *files, size_t nfiles);
int import_extrap_experiment(const struct fmt_file *files, size_t nfiles,
                             const struct fmt_options *opt, const struct fmt_sink *sink,
                             struct err *err);
int sniff_extrap_experiment(const struct fmt_file *files, size_t nfiles);
/* Writes into out the storable form of a name from a tool that knows no
 * limit: leading and trailing blanks dropped, at most LIMIT_NAME bytes cut
 * at a character boundary (s must be valid UTF-8), control characters as
 * blanks. Returns its length; 0 when nothing is left. */
size_t imp_name_cut(const char *s, char out[LIMIT_NAME + 1]);

/* Zeroes *z and gives it zlib's allocation through common/xalloc, so that
 * its limits and fault injection reach zlib too (before inflateInit2). */
void imp_zstream(z_stream *z);

/* SPEC §16's new formats */
int import_chrome_trace(const struct fmt_file *files, size_t nfiles,
                        const struct fmt_options *opt, const struct fmt_sink *sink,
                        struct err *err);
int sniff_chrome_trace(const struct fmt_file *files, size_t nfiles);
int import_nsys_sqlite(const struct fmt_file *files, size_t nfiles,
                       const struct fmt_options *opt, const struct fmt_sink *sink,
                       struct err *err);
int sniff_nsys_sqlite(const struct fmt_file *files, size_t nfiles);
int import_hpctoolkit(const struct fmt_file *files, size_t nfiles,
                      const struct fmt_options *opt, const struct fmt_sink *sink,
                      struct err *err);
int sniff_hpctoolkit(const struct fmt_file *files, size_t nfiles);
long root_hpctoolkit(const char *name);

#endif
