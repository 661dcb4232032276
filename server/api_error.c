/* api_error: struct err -> HTTP status and JSON body; see api_error.h. */
#include "server/api_error.h"
#include "common/xalloc.h"

#include <jansson.h>
#include <string.h>

int api_error_json(const struct err *e, char **body, size_t *len)
{
    int status = e->status >= 400 && e->status <= 599 ? e->status : 500;
    json_t *inner, *root;
    char *s;

    *body = NULL;
    *len = 0;
    inner = json_pack("{s:s, s:s}", "code", e->code[0] ? e->code : "internal", "message",
                      e->message[0] ? e->message : "internal error");
    if (inner == NULL)
        return status;
    if (e->field[0])
        json_object_set_new(inner, "field", json_string(e->field));
    root = json_pack("{s:o}", "error", inner);
    if (root == NULL)
        return status;
    s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (s != NULL) {
        *len = strlen(s);
        *body = xstrndup(s, *len);
        free(s);
    }
    return status;
}
