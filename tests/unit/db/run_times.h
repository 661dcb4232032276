/* run_times: started_at texts that migration 8 must read as the C parser
 * (common/isotime.h) does, on both engines: offsets from UTC beyond
 * SQLite's 14 hours and PostgreSQL's 15:59, fractions to round, leap
 * seconds (also 60.5, which PostgreSQL refuses), a day past its month's end.
 * The first two are 23:00 and 23:30 UTC on 2026-01-01, whose texts sort the
 * other way. Shared by unit.test_history_migration and unit.test_pg_history. */
#ifndef PROPHECY_TESTS_RUN_TIMES_H
#define PROPHECY_TESTS_RUN_TIMES_H

static const char *const RUN_TIMES[] = {"2026-01-02T01:00:00+02:00",
                                        "2026-01-01T23:30:00Z",
                                        "2026-01-01T22:59:59.9999+00:00",
                                        "2026-01-01T22:59:59.1239Z",
                                        "2026-11-21T23:59:60Z",
                                        "2026-11-21T00:30:00-23:59",
                                        "2026-11-21T10:00:00.123499+00:00",
                                        "0001-01-01T00:00:00Z",
                                        "9999-12-31T23:59:59.999Z",
                                        "2026-11-21T23:59:60.5+05:30",
                                        "2026-11-21T10:00:00.1",
                                        "2026-02-31T00:00:00"};
#define NRUN_TIMES (sizeof RUN_TIMES / sizeof *RUN_TIMES)

#endif
