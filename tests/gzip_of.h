/* gzip_of: gzip framing of some bytes, for the unit tests of what reads
 * compressed uploads. Header-only, as tests/harness.h. */
#ifndef PROPHECY_TESTS_GZIP_OF_H
#define PROPHECY_TESTS_GZIP_OF_H

#include <string.h>
#include <zlib.h>

#include "common/xalloc.h"
#include "tests/harness.h"

/* gzip of the len bytes of data, xmalloc'd (free with xfree), its size in *n. */
static inline char *gzip_of(const char *data, size_t len, size_t *n)
{
    z_stream z;
    size_t cap;
    char *out;
    memset(&z, 0, sizeof z);
    CHECK_INT(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
              Z_OK);
    cap = deflateBound(&z, (uLong)len);
    out = xmalloc(cap);
    CHECK(out != NULL);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)cap;
    CHECK_INT(deflate(&z, Z_FINISH), Z_STREAM_END);
    *n = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

#endif
