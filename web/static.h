/* static: the dashboard's static assets (stylesheet, script, icon), embedded
 * into the binary at build time from web/static/ (web/CMakeLists.txt). Pages
 * link them as /static/NAME?v=HASH so that a new build busts caches while the
 * server can let browsers keep them for a day. Immutable data, thread-safe. */
#ifndef PROPHECY_STATIC_H
#define PROPHECY_STATIC_H

#include <stddef.h>

struct web_asset {
    const char *name;         /* "style.css" */
    const char *content_type; /* with charset for text */
    const char *data;
    size_t len;
    const char *hash; /* 12 hex digits of the content's SHA-256 */
};

/* Fills *out with the asset called name and returns 0, or returns -1 when
 * there is none. */
int web_asset_find(const char *name, struct web_asset *out /* OUT */);

#endif
