/* data_file: reads a test fixture under tests/data/import/ (or
 * $PROPHECY_TEST_DATA/import/, which CTest sets), for the unit tests of the
 * importers. Header-only, as tests/harness.h. */
#ifndef PROPHECY_TESTS_DATA_FILE_H
#define PROPHECY_TESTS_DATA_FILE_H

#include <stdio.h>
#include <stdlib.h>

#include "common/xalloc.h"

/* The bytes of import/REL, NUL-terminated (free with xfree), their number in
 * *len; NULL (saying which file) when it cannot be read. */
static inline char *data_file(const char *rel, size_t *len)
{
    char path[4096];
    const char *root = getenv("PROPHECY_TEST_DATA");
    FILE *f;
    char *data;
    long n;

    *len = 0;
    snprintf(path, sizeof path, "%s/import/%s", root ? root : "tests/data", rel);
    if ((f = fopen(path, "rb")) == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = n >= 0 ? xmalloc((size_t)n + 1) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        xfree(data);
        data = NULL;
    }
    fclose(f);
    if (data)
        data[n] = '\0';
    if (data)
        *len = (size_t)n;
    return data;
}

#endif
