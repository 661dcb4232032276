/* isotime: the ISO 8601 times runs carry (started_at, the time a run was
 * stored) as milliseconds since 1970-01-01T00:00:00Z, and back.
 *
 * Accepted: YYYY-MM-DDTHH:MM:SS, optionally .fraction (any number of digits,
 * rounded to the nearest millisecond), then Z, nothing (UTC) or an offset
 * +hh:mm / -hh:mm (hours 00-23, minutes 00-59). A leap second (:60) counts as
 * the next minute's first second, as SQLite and PostgreSQL read it. */
#ifndef PROPHECY_ISOTIME_H
#define PROPHECY_ISOTIME_H

#include <stddef.h>

/* The longest text isotime_parse accepts. */
#define ISOTIME_MAX 40

/* Days since 1970-01-01 of the proleptic Gregorian date y-m-d, and back
 * (H. Hinnant's days_from_civil and civil_from_days; exact for any year). */
long long isotime_days_from_civil(long long y, unsigned m, unsigned d);
void isotime_civil_from_days(long long days, long long *y, unsigned *m, unsigned *d);

/* Parses s; returns 0 and sets *ms (may be NULL: only validate), or -1 when s
 * is not such a time. */
int isotime_parse(const char *s, long long *ms);

/* Writes ms as UTC, "2026-11-24T17:00:00Z", or with ".125" before the Z when
 * it has milliseconds; out must hold 32 bytes. Returns the length. */
size_t isotime_format(long long ms, char *out);

#endif
