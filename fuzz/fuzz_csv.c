/* Fuzz target: CSV run import. Any input must give runs that obey the
 * upload rules or a 422 with a message. */
#include "formats/rundoc.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct err e = {0};
    struct run_record *runs;
    size_t n, i;
    arena *a = arena_new();

    if (a == NULL)
        return 0;
    if (rundoc_parse_csv((const char *)data, size, a, &runs, &n, &e) == 0) {
        for (i = 0; i < n; i++)
            /* SPEC §4, §16: a runtime is finite and non-negative, or
             * absent (NAN) in a run that carries a kernel or a metric. */
            if (runs[i].nprocs < 1 ||
                (isnan(runs[i].runtime)
                     ? runs[i].nkernels + runs[i].nmetrics == 0
                     : !isfinite(runs[i].runtime) || runs[i].runtime < 0))
                __builtin_trap();
    } else if (e.status != ERR_INVALID || e.message[0] == '\0') {
        __builtin_trap();
    }
    arena_free(a);
    return 0;
}
