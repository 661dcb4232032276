/* Fuzz target: HTML form decoding (SPEC §9). The input's first line is the
 * Content-Type, the rest the body. Any input must decode into fields within
 * the limits, or fail with a 400/413 and a message. */
#include "formats/form.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *nl = memchr(data, '\n', size);
    char ct[512];
    size_t ctlen, i;
    struct err e = {0};
    struct form f;
    arena *a;

    if (nl == NULL)
        return 0;
    ctlen = (size_t)(nl - (const char *)data);
    if (ctlen >= sizeof ct || memchr(data, '\0', ctlen) != NULL)
        return 0;
    memcpy(ct, data, ctlen);
    ct[ctlen] = '\0';
    a = arena_new();
    if (a == NULL)
        return 0;
    if (form_parse(ct, nl + 1, size - ctlen - 1, a, &f, &e) == 0) {
        if (f.n > FORM_MAX_FIELDS)
            __builtin_trap();
        for (i = 0; i < f.n; i++) {
            const struct form_field *x = &f.fields[i];
            if (x->name == NULL || x->name[0] == '\0' ||
                strlen(x->name) > FORM_MAX_NAME || x->value == NULL ||
                x->value[x->len] != '\0' ||
                (x->filename == NULL && x->len > FORM_MAX_TEXT))
                __builtin_trap();
            /* every value lies in the arena, not in the input */
            if (x->value >= (const char *)data && x->value < (const char *)data + size)
                __builtin_trap();
        }
    } else if ((e.status != ERR_BAD_REQUEST && e.status != ERR_TOO_LARGE) ||
               e.message[0] == '\0') {
        __builtin_trap();
    }
    arena_free(a);
    return 0;
}
