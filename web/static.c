/* static: the table of embedded assets; see static.h. */
#include "web/static.h"

#include <string.h>

#define ASSET(sym)                                                                       \
    extern const char sym[];                                                             \
    extern const unsigned long sym##_len;                                                \
    extern const char sym##_hash[];
ASSET(web_asset_style_css)
ASSET(web_asset_app_js)
ASSET(web_asset_favicon_svg)
#undef ASSET

/* The lengths are read through pointers: an extern const is not a constant
 * expression in C, its address is. */
static const struct {
    const char *name, *content_type, *data;
    const unsigned long *len;
    const char *hash;
} assets[] = {
    {"style.css", "text/css; charset=utf-8", web_asset_style_css,
     &web_asset_style_css_len, web_asset_style_css_hash},
    {"app.js", "text/javascript; charset=utf-8", web_asset_app_js, &web_asset_app_js_len,
     web_asset_app_js_hash},
    {"favicon.svg", "image/svg+xml", web_asset_favicon_svg, &web_asset_favicon_svg_len,
     web_asset_favicon_svg_hash},
};

int web_asset_find(const char *name, struct web_asset *out)
{
    size_t i;
    for (i = 0; i < sizeof assets / sizeof assets[0]; i++) {
        if (strcmp(assets[i].name, name) == 0) {
            out->name = assets[i].name;
            out->content_type = assets[i].content_type;
            out->data = assets[i].data;
            out->len = (size_t)*assets[i].len;
            out->hash = assets[i].hash;
            return 0;
        }
    }
    return -1;
}
