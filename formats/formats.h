/* formats: the one table of the formats outside data arrives in (SPEC §12).
 *
 * Each row names a format (the --format / ?format= value), its media type, a
 * sniffer that recognises it from content (--format auto) and a parser that
 * turns the bytes of one file, or the named files of a directory format (TAU,
 * OTF2), into typed records (formats/record.h) handed to a sink in batches.
 * The CLI, the API and the upload page all pick formats up from this table;
 * adding a format is one parser file (formats/import_NAME.c) and one row
 * (docs/import.md has the recipe).
 *
 * Upload rules every parser keeps:
 *  - all or nothing: a parser returns 0 after handing over every record, or
 *    -1 with an error naming the file and the line or field at fault; on -1
 *    the caller discards whatever the sink received (the ingest transaction
 *    rolls back), so a sink must not make records visible before the parse
 *    returns 0;
 *  - idempotent: every run carries a stable uid derived from its content
 *    (SHA-256 of the format, the run's identity in the file and its values),
 *    so importing the same file twice stores nothing new;
 *  - bounded: every size is checked against formats/limits.h (LIMIT_IMPORT_*),
 *    and line-oriented formats stream: records go to the sink in batches of at
 *    most LIMIT_IMPORT_BATCH runs and their memory is reused, so a 100 MB
 *    JSON-lines file never becomes a whole-file DOM;
 *  - units: every time reaches the sink in seconds.
 * Touches neither the database nor HTTP. Thread-safe: the table is constant
 * and parsers keep no state between calls.
 */
#ifndef PROPHECY_FORMATS_H
#define PROPHECY_FORMATS_H

#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "formats/record.h"

struct trace;

/* One input file: a name for messages (and, for directory formats, for the
 * role of the file: "profile.3.0.0", "trace.otf2") and its bytes. Borrowed. */
struct fmt_file {
    const char *name;
    const char *data;
    size_t len;
};

/* What the caller says about the data. Each given name overrides what the
 * file says; where neither says, the parser uses the file's base name for the
 * application and executable and "unknown" for the system. */
struct fmt_options {
    const char *application;
    const char *executable;
    const char *system;
    long long nprocs; /* processes of an OSU collective test (its P); 0 = not said */
    /* The name of what was given, a directory's or an upload's (NULL: none):
     * the application of a directory format (TAU, HPCToolkit) whose data
     * names none (SPEC §16: else the file or directory name). */
    const char *source;
};

/* Where records go. Records and every string they point to are valid only
 * during the call; a sink copies what it keeps. A callback returns 0, or -1
 * with err set to stop the import (the parser then returns -1 too). A NULL
 * callback refuses that kind of record with an ERR_INVALID error. */
struct fmt_sink {
    int (*runs)(void *ctx, const struct run_record *runs, size_t n, struct err *err);
    /* System benchmarks measured on one system (OSU output). */
    int (*benchmarks)(void *ctx, const char *system, const struct bench_record *b,
                      size_t n, struct err *err);
    void *ctx;
    /* The MPI trace of a run handed over before (OTF2): `uid` is that run's
     * uid; the sink takes ownership of t (formats/trace.h's record type; it
     * frees it with trace_free, also when it fails). NULL: traces are not
     * kept (the runs still are). */
    int (*traces)(void *ctx, const char *uid, struct trace *t, struct err *err);
    /* What the file holds that was left out, said in a sentence (the
     * tables of an OSU test Prophecy does not read, an LNT report's tests
     * that measured nothing, Google Benchmark's skipped or failed ones).
     * NULL: not told. */
    void (*note)(void *ctx, const char *text);
    /* Inputs each run takes from its own file (an import's input named
     * without a value: the problem size a Caliper profile's Adiak metadata
     * records): imp_batch_commit adds each to every run, from the run's
     * inputs, tags or metadata (run_record.meta), before its uid is made;
     * a run whose file does not say it, or says it in words, refuses the
     * import. NULL / 0: none. */
    const char *const *inputs_from;
    size_t ninputs_from;
};

/* Tells the sink's note (if any) a sentence, printf-style. */
void fmt_note(const struct fmt_sink *sink, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Sniffer: returns 1 when the files look like this format, else 0. Looks at
 * the first bytes only; never fails. */
typedef int (*fmt_sniff_fn)(const struct fmt_file *files, size_t nfiles);

/* Parser: see the upload rules above. */
typedef int (*fmt_parse_fn)(const struct fmt_file *files, size_t nfiles,
                            const struct fmt_options *opt, const struct fmt_sink *sink,
                            struct err *err);

/* Root: for a directory format whose one run is one directory of the set
 * (a TAU profile directory, an HPCToolkit database, an OTF2 archive), the
 * length of the directory part of `name` when that file marks such a
 * directory (0: the set's top), else -1. */
typedef long (*fmt_root_fn)(const char *name);

struct fmt_format {
    const char *name;       /* "extrap-text", as in SPEC §12 */
    const char *media_type; /* of one file, or of the tar archive for directories */
    int directory;          /* 1: a set of named files (a directory or a tar) */
    const char *summary;    /* one line for help texts and the upload page */
    fmt_sniff_fn sniff;
    fmt_parse_fn parse;
    fmt_root_fn root; /* NULL: the whole set is read as one */
};

/* Returns the table and sets *n to its rows. Constant; never NULL. */
const struct fmt_format *fmt_table(size_t *n);

/* Returns the row named `name`, or NULL. */
const struct fmt_format *fmt_find(const char *name);

/* Returns the first row whose sniffer recognises the files (rows are tried in
 * table order, the most specific first), or NULL with an ERR_INVALID error listing
 * the known formats. */
const struct fmt_format *fmt_detect(const struct fmt_file *files, size_t nfiles,
                                    struct err *err);

/* Parses files with format `name` ("auto" or NULL: detect). Checks the number
 * and size of the files (LIMIT_IMPORT_FILES, LIMIT_IMPORT_FILE) first. A
 * single-file format is given each file in turn; with "auto" and several
 * files, a directory format that recognises the set takes it, else each file
 * is detected on its own. A directory format's set that holds several runs'
 * directories (two TAU profile directories, HPCToolkit databases or OTF2
 * archives under one directory) is read one directory at a time, each file
 * with the deepest of them that holds it, and each named by its directory
 * (fmt_options.source), as if given alone. Stops at the first failure (the caller
 * discards what the sink received). Returns 0 or -1 with err. */
int fmt_parse(const char *name, const struct fmt_file *files, size_t nfiles,
              const struct fmt_options *opt, const struct fmt_sink *sink,
              struct err *err);

/* Returns 1 when a file of this name is a format's single file although it
 * is a tar archive (a CUBE4 profile, NAME.cubex), so that an upload keeps it
 * whole under its name instead of reading it as a directory. */
int fmt_whole_archive(const char *filename);

/* Returns 1 when data begins as a gzip stream does (bytes 1f 8b), else 0. */
int fmt_is_gzip(const char *data, size_t len);

/* Inflates the gzip stream data (its members one after another, as `cat
 * a.gz b.gz` makes; zero bytes after the last are padding) into *out: an
 * arena string when a is given, else xmalloc'd (xfree it); NUL-terminated,
 * *outlen bytes without the NUL. Reads the stream twice, once to measure it
 * and once into memory of exactly its size, so that nothing beyond what it
 * holds is allocated however it was made. `name` names the data in errors.
 * Returns 0, or -1 with an ERR_TOO_LARGE error ("too_large", field "file")
 * when it inflates to more than max bytes, an ERR_INVALID one
 * ("invalid_import") when it is damaged or truncated, or ERR_NOMEM. */
int fmt_gunzip(const char *name, const char *data, size_t len, size_t max, arena *a,
               char **out, size_t *outlen, struct err *err);

/* Reads a ustar/POSIX tar archive (the API's body for directory formats) into
 * *files (arena; names are arena strings, data points into `data`, no copy).
 * Regular files only; directories are skipped, links and devices refused, and
 * a leading "./" and any directory part are kept in the name. At most
 * LIMIT_IMPORT_FILES files. Returns 0, or -1 with an ERR_INVALID error naming the
 * member at fault for a truncated or malformed archive. */
int fmt_tar_read(const char *data, size_t len, arena *a, struct fmt_file **files,
                 size_t *nfiles, struct err *err);
/* Like fmt_tar_read, but a member whose header checksum is wrong is read
 * when the header carries the ustar magic: CubeLib 4.8 wrote such .cubex
 * archives (pycubexr reads them the same way). */
int fmt_tar_read_lax(const char *data, size_t len, arena *a, struct fmt_file **files,
                     size_t *nfiles, struct err *err);

#endif
