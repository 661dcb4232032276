/* xalloc_json: Jansson's allocations through xalloc; see xalloc_json.h. */
#include "common/xalloc_json.h"

#include <jansson.h>

#include "common/xalloc.h"

void xalloc_json(void)
{
    json_set_alloc_funcs(xmalloc, xfree);
}
