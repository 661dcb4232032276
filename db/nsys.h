/* nsys: reading a foreign SQLite file — an Nsight Systems export — into the
 * typed rows of formats/nsys.h (SPEC §16's nsys-sqlite import).
 *
 * This is not the store: the file is the user's upload, opened in memory,
 * read-only, on a connection of its own. It lives in db/ because the project
 * keeps all SQL there (db/sqlite/nsys.c); callers see typed rows only.
 */
#ifndef PROPHECY_DB_NSYS_H
#define PROPHECY_DB_NSYS_H

#include "formats/nsys.h"

/* fmt_nsys_read_fn (formats/nsys.h). The bytes are read through SQLite's
 * in-memory deserializer (never written, never copied to disk), with the
 * connection made defensive (no trusted schema, query-only) and every read
 * bounded: at most LIMIT_IMPORT_NSYS_STEPS virtual-machine steps,
 * LIMIT_IMPORT_NSYS_ROWS activity rows, LIMIT_KERNELS names. Thread-safe. */
int db_nsys_read(const char *file, const char *data, size_t len, arena *a,
                 struct nsys_export *out, struct err *err);

#endif
