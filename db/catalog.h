/* catalog: applications, systems, benchmarks, system parameters, templates,
 * coupling measurements, saved models and tokens.
 *
 * Reads return Jansson values shaped as the API shows them (the same value
 * serves the JSON API and the HTML pages); the caller owns the returned
 * reference (json_decref). Writes run inside the caller's transaction (the
 * writer's job) and return 0 or -1 with err set. A name that does not exist
 * is an ERR_NOT_FOUND for reads of one thing.
 */
#ifndef PROPHECY_CATALOG_H
#define PROPHECY_CATALOG_H

#include <jansson.h>
#include <stdint.h>

#include "common/err.h"
#include "db/db.h"
#include "formats/record.h"

/* Resolves names to ids; creates on first use when `create` is set. Returns the
 * id, 0 when absent and not created, -1 on error. */
long long db_app_id(db *d, const char *name, int create, struct err *err);
long long db_system_id(db *d, const char *name, int create, struct err *err);

json_t *db_apps_list(db *d, struct err *err);
json_t *db_app_get(db *d, const char *name, struct err *err);
json_t *db_systems_list(db *d, struct err *err);
json_t *db_system_get(db *d, const char *name, struct err *err);
json_t *db_counts(db *d, struct err *err);

/* Creates or updates an application's or system's descriptive fields; `fields`
 * is a validated JSON object (description, processor, cores, network,
 * metadata). */
int db_app_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err);
int db_system_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err);

int db_benchmarks_add(db *d, const char *system, const struct bench_record *b, size_t n,
                      struct err *err);
/* For imports (core/import): creates the system on first use; the k-th
 * benchmark of b equal (name, label, test, args, time, stat) to others before
 * it is stored when fewer than k such are (a stored row without a test
 * counting for any test), so that importing the same output twice stores
 * nothing new and a value measured twice in it is kept twice; *added gets the
 * number stored. */
int db_benchmarks_import(db *d, const char *system, const struct bench_record *b,
                         size_t n, size_t *added, struct err *err);
/* The system's benchmarks: name, label, test, args, time, stat, created_at;
 * name NULL = all of them. */
json_t *db_benchmarks_list(db *d, const char *system, const char *name, struct err *err);

int db_params_set(db *d, const char *system, const struct param_record *p, size_t n,
                  struct err *err);
json_t *db_params_list(db *d, const char *system, struct err *err);
int db_param_delete(db *d, const char *system, const char *name, struct err *err);

int db_template_put(db *d, const char *name, const char *application, const char *kernel,
                    const char *expression, const char *description, struct err *err);
json_t *db_templates_list(db *d, const char *application, struct err *err);
json_t *db_template_get(db *d, const char *name, struct err *err);

int db_couplings_add(db *d, const struct coupling_record *c, size_t n, long long *ids,
                     struct err *err);
json_t *db_couplings_list(db *d, const char *application, const char *system,
                          struct err *err);

/* Saves a model; *id gets its id. */
int db_model_save(db *d, const char *method, const char *application, const char *formula,
                  const char *request_json, const char *result_json, long long *id,
                  struct err *err);
json_t *db_model_get(db *d, long long id, struct err *err);
json_t *db_models_list(db *d, int limit, struct err *err);

/* Tokens: the hash is SHA-256 of the token text. */
int db_token_create(db *d, const char *name, const uint8_t hash[32], struct err *err);
int db_token_revoke(db *d, const char *name, struct err *err);
json_t *db_tokens_list(db *d, struct err *err);
/* Returns the name of the active token whose hash equals hash (compared in
 * constant time against every active token), as a malloc'd string (xfree), or
 * NULL when none matches (err untouched) or on error (err set). */
char *db_token_check(db *d, const uint8_t hash[32], struct err *err);

#endif
