/* import: other tools' files into the store (SPEC §12).
 *
 * The parsers of formats/ (formats/formats.h) turn a file, or the files of a
 * directory format (TAU, OTF2), into runs and system benchmarks handed over
 * in batches; this feature stores each batch as it arrives — runs through
 * the one ingest path (core/ingest.h: the `stored` hook judges them in the
 * same transaction), benchmarks into the catalog of their system — all in
 * the caller's ONE transaction. A parse that fails part-way fails the whole
 * import and the caller rolls back: a malformed file stores nothing. Every
 * run carries a uid derived from its content, and a benchmark identical to
 * a stored one is skipped, so importing the same file twice stores nothing
 * new; the counts tell new from existing.
 *
 * Memory stays bounded however long the file: a batch's runs are released
 * once stored, and only the stored ids are kept (8 bytes a run, at most
 * LIMIT_IMPORT_RUNS). The `committed` hook of core/ingest is not run for
 * imports (the batches are gone by the commit); nothing registers one yet.
 *
 *   CLI:    import_load_paths (import_unpack on each path that is a file)
 *           → import_commit → import_free
 *   server: import_unpack of the body → import_job on the writer
 */
#ifndef PROPHECY_CORE_IMPORT_H
#define PROPHECY_CORE_IMPORT_H

#include <stddef.h>

#include "common/err.h"
#include "db/db.h"
#include "core/trace.h"
#include "formats/formats.h"
#include "formats/limits.h"

struct import {
    /* IN */
    const char *format; /* a row of fmt_table(), or NULL / "auto": recognise it */
    const struct fmt_file *files;
    size_t nfiles;
    struct fmt_options opt; /* names the caller gives (override the file's) */
    const char *submitter;  /* token name, "import" for the CLI */
    /* Draws the trace charts (server/trace_draw.h): with it, a trace that
     * comes with a run (OTF2's event list) is stored with its analyses
     * (core/trace.h run_trace_import); NULL drops traces. Set it after
     * import_init. */
    run_trace_draw_fn trace_draw;
    /* The commit and branch of runs whose file names none (NULL: none given;
     * set after import_init, checked by import_check). Given, they also enter
     * every run's uid, so the same file imported for two commits is two sets
     * of runs, and for one commit twice is one. */
    const char *commit, *branch;
    /* Inputs every run of the import has (import_add_input, in name order):
     * what the files do not say, such as the problem size of a series of
     * Caliper profiles. Added to each run's inputs (a run whose file gives
     * the same input must give the same value), and, like the commit, part
     * of every run's uid: one file imported at N = 1000 and at N = 2000 is
     * two runs. */
    struct rec_kv inputs[LIMIT_INPUTS];
    size_t ninputs;
    /* Inputs each run reads from its own file (import_add_input without a
     * value: Adiak's problem_size in a Caliper profile, a Google Benchmark
     * context field, an LNT run field): the value is the file's, so it is
     * part of the run's content and of its uid (fmt_sink.inputs_from). */
    const char *inputs_from[LIMIT_INPUTS];
    size_t ninputs_from;
    /* OUT */
    const char *format_used; /* the row's name; "auto" for a mix of formats */
    size_t runs;             /* runs read */
    size_t created;          /* of them newly stored */
    long long *ids;          /* stored id of each run, in file order (import_free) */
    size_t benchmarks;       /* system benchmarks read */
    size_t benchmarks_created;
    const char *system; /* the system the benchmarks were stored for, or NULL */
    size_t traces;      /* traces of runs stored (or already there) */
    /* ids of the alerts the watches raised on the runs (import_free) */
    long long *alerts;
    size_t nalerts;
    /* what the files held that was left out, in sentences (fmt_sink.note) */
    char notes[LIMIT_IMPORT_NOTES][LIMIT_IMPORT_NOTE_LEN];
    size_t nnotes;
    char uid_tag[24]; /* private: "@" + 16 hex digits of commit, branch, inputs */
    char input_names[LIMIT_INPUTS][LIMIT_NAME + 1]; /* private: inputs[].name */
    char source[LIMIT_NAME + 1];  /* private: import_set_source's name */
    size_t cap;                   /* private */
    size_t alerts_cap;            /* private */
    struct import_prepared *prep; /* private: import_prepare's result */
};

/* The files of an upload or of a file given on the command line (`name`,
 * the len bytes of data), as every way in reads them: a gzip stream is
 * inflated first (at most max bytes: the server's request body limit, the
 * CLI's LIMIT_IMPORT_FILE), unless the format (`format`, or with NULL /
 * "auto" any format) reads the compressed file as it is (chrome-trace's
 * .json.gz); NAME.gz is then NAME and NAME.tgz is NAME.tar. A tar archive,
 * or any data when format names a directory format, is then the set of its
 * files (fmt_tar_read: they point into the data) and *set_name its name
 * (for import_set_source), except a CUBE4 profile named NAME.cubex
 * (fmt_whole_archive), kept whole as is any other data: one file named
 * `name` ("upload" when NULL or ""; *set_name NULL). The files, the names
 * and the inflated bytes live in a. Returns 0, or -1 with err (ERR_TOO_LARGE
 * for an inflated size over max, ERR_INVALID for a damaged gzip stream or
 * tar archive). */
int import_unpack(const char *name, const char *data, size_t len, const char *format,
                  size_t max, arena *a, struct fmt_file **files, size_t *nfiles,
                  const char **set_name, struct err *err);

/* Sets the inputs; clears the outputs. */
void import_init(struct import *im, const char *format, const struct fmt_file *files,
                 size_t nfiles, const struct fmt_options *opt, const char *submitter);
/* Names what was given for a directory format whose data names no
 * application (opt.source): the base name of path (a directory, or a tar
 * archive's name without ".tar", ".tar.gz", ".tgz" or ".gz", so that
 * runs.tar.gz names its set as the directory runs/ does); NULL or "" leaves
 * it unset. Call after import_init. */
void import_set_source(struct import *im, const char *path);
/* Adds the input NAME = VALUE (the len bytes of name, a run's input name;
 * the vlen bytes of value, a decimal number as the API reads them) to every
 * run of the import; without a value (NULL or vlen 0) each run reads NAME
 * from its own file (inputs_from). Returns 0, or -1 with an ERR_INVALID
 * error at field "input.NAME" (a bad name or value, a name given twice,
 * more than LIMIT_INPUTS). */
int import_add_input(struct import *im, const char *name, size_t len, const char *value,
                     size_t vlen, struct err *err);
/* The inputs of a list "N=1000, p=4, problem_size" (NAME=VALUE, or a NAME
 * the files give, separated by commas, blanks or lines; a name with blanks
 * in double quotes, "CPU Cores" or "CPU Cores"=4; the command line's
 * --input, the upload page's field), each through import_add_input.
 * Returns 0 or -1 with err. */
int import_add_inputs(struct import *im, const char *list, struct err *err);
/* Releases the outputs (ids, alerts); the inputs stay the caller's. */
void import_free(struct import *im);

/* Checks what can be checked before any parse: the format name (an ERR_INVALID
 * naming the known formats), the counts and sizes of the files. Returns 0
 * or -1 with err. Cheap: call it before queueing a writer job. */
int import_check(const struct import *im, struct err *err);

/* Parses a costly format before the writer's job, outside any
 * transaction: OTF2 (a child process reads the archive, then the trace is
 * analysed and drawn) took 26.6 s inside the job at 10,000 locations, and
 * every write of the server waited for it. The runs (copied) and the traces
 * with their analyses are kept in memory; import_store then only stores
 * them. Other formats are read as a stream inside the job, each batch
 * released once stored (memory bounded however long the file): for them
 * this does nothing. Returns 0, or -1 with err (the parser's error; the
 * import is refused before any write). Call after import_check, on a worker
 * thread (not the writer); import_free releases what it kept. */
int import_prepare(struct import *im, struct err *err);

/* Parses and stores inside the caller's transaction (only stores, after
 * import_prepare parsed a costly format). Returns 0, or -1 with
 * err (the parser's file/line/field; ERR_CONFLICT for a run id stored with other
 * content); on -1 the caller rolls back. */
int import_store(db *d, struct import *im, struct err *err);
/* The same as a group-commit writer job (db/writer.h): arg is a struct import *. */
int import_job(db *d, void *arg, struct err *err);
/* For a connection of one's own (the CLI, benchmarks): begin, store, commit;
 * rolls back on any error. Returns 0 or -1. */
int import_commit(db *d, struct import *im, struct err *err);

/* The files named on a command line: a regular file is itself (named as
 * given), unwrapped as an upload is (import_unpack: a gzip file inflated, at
 * most LIMIT_IMPORT_FILE bytes, and named without ".gz"; a tar archive, not
 * NAME.cubex, read as its files); a directory contributes its regular files,
 * recursively (at most 8 levels, hidden names skipped, sorted), named
 * relative to it ("profile.0.0.0", "traces/0.evt"). With several paths, a
 * directory's or an archive's files are named under its base name (an
 * archive's without ".tar", ".tgz" or ".tar.gz"). Files are mapped
 * read-only, not copied. At most LIMIT_IMPORT_FILES files of
 * LIMIT_IMPORT_FILE bytes. Returns 0, or -1 with err naming the path at
 * fault. */
struct import_files {
    struct fmt_file *files; /* names and inflated bytes in `a` */
    size_t n, cap;
    size_t *first; /* npaths + 1: path i's files are [first[i], first[i + 1]) */
    size_t npaths;
    /* what names the set (import_set_source): the one path given when it
     * is a directory or an archive (or the directory of a database's anchor
     * file), else NULL */
    const char *source;
    arena *a;                /* private: the files' names, inflated data, source */
    struct import_map *maps; /* private: the mappings to unmap */
    size_t nmaps, maps_cap;  /* private */
};
int import_load_paths(const char *const *paths, size_t npaths, struct import_files *out,
                      struct err *err);
void import_files_free(struct import_files *f);

/* With the files of several paths read as format (NULL or "auto": by
 * content): -1 with err naming the first path that another format would
 * read and the set's format would leave out (a directory format, TAU or
 * OTF2, takes a set it recognises and reads only its own files: a Caliper
 * file given beside a TAU directory was dropped without a word); else 0. */
int import_check_paths(const struct import_files *f, const char *const *paths,
                       const char *format, struct err *err);

#endif
