/* osu: what the osu importer's benchmark names stand for (formats/import_osu.c
 * owns the table), for the pages that name a benchmark stored without its
 * test: a benchmark posted through the API, or imported before the store
 * kept tests (schema.sql migration 20). */
#ifndef PROPHECY_FORMATS_OSU_H
#define PROPHECY_FORMATS_OSU_H

/* The OSU program whose output the osu importer stores under `name`: its
 * benchmark (MPISR -> osu_latency, the first test of that name), also with
 * the importer's suffixes (MPIBW_MBS, MPIBW_DH, MPIIAR_COMM -> osu_iallreduce).
 * A static string, or NULL for a name the importer does not give. Names alone
 * are a guess: prophecy-bench's MPISR is a ping-pong of its own. */
const char *osu_program_of(const char *name);

#endif
