/* Fuzz target: run-document validation (JSON body -> db_run structs), the
 * path every upload takes. Any input must give 0 or a clean error. */
#include "common/xalloc_json.h"
#include "formats/rundoc.h"

#include <stddef.h>
#include <stdint.h>

/* Jansson allocates through xalloc, as in the server. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    xalloc_json();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
    struct err e = {0};
    struct run_record *runs;
    size_t n, i;
    arena *a;

    if (body == NULL)
        return 0;
    a = arena_new();
    if (a != NULL && rundoc_parse_body(body, a, &runs, &n, &e) == 0) {
        for (i = 0; i < n; i++)
            if (runs[i].nprocs < 1 || runs[i].runtime < 0 || runs[i].application == NULL)
                __builtin_trap(); /* validation let a broken run through */
    } else if (a != NULL && (e.status != ERR_INVALID || e.message[0] == '\0')) {
        __builtin_trap(); /* every rejection is a 422 with a message */
    }
    arena_free(a);
    json_decref(body);
    return 0;
}
