/* upl_csv: strict CSV of runs -> JSON run documents, for prophecy-upload --csv.
 *
 * The header row is `application,executable,system,nprocs,runtime` followed by
 * zero or more input columns (their names become keys of "inputs"). Fields
 * follow RFC 4180: a field is quoted when it starts with '"', "" inside quotes
 * is one quote, quoted fields may hold commas and line breaks; records end in
 * LF or CRLF. Anything else is an error naming the line: a quote inside an
 * unquoted field, text after a closing quote, a lone CR, an unterminated
 * quote, a wrong number of fields, a physical line over UPL_CSV_LINE_MAX
 * bytes, a number that does not parse entirely or is not finite, a non-integer
 * or < 1 nprocs, an empty name. Empty lines are skipped; an empty input cell
 * means the run has no value for that input. No I/O, no server knowledge.
 */
#ifndef PROPHECY_UPL_CSV_H
#define PROPHECY_UPL_CSV_H

#include "common/err.h"

#include <jansson.h>
#include <stddef.h>

#define UPL_CSV_LINE_MAX 65536 /* bytes per physical line */
#define UPL_CSV_COLS_MAX 1024  /* columns per record */

/* Parses `len` bytes of CSV. Returns a new JSON array of run objects (caller
 * frees with json_decref), or NULL with err set: status 422, code "csv",
 * message "line N: ..." (N counts physical lines from 1; for a bad value, the
 * line where its record starts) and field set to the
 * column name where one column is at fault. Thread-safe. */
json_t *upl_csv_parse(const char *data, size_t len, struct err *err);

#endif
