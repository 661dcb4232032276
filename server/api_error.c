/* api_error: struct err -> HTTP status and JSON body; see api_error.h. */
#include "server/api_error.h"
#include "common/xalloc.h"

#include <jansson.h>
#include <string.h>

int api_error_status(enum err_code code)
{
    switch (code) {
    case ERR_BAD_REQUEST:
        return 400;
    case ERR_UNAUTHORIZED:
        return 401;
    case ERR_FORBIDDEN:
        return 403;
    case ERR_NOT_FOUND:
        return 404;
    case ERR_NOT_ALLOWED:
        return 405;
    case ERR_CONFLICT:
        return 409;
    case ERR_TOO_LARGE:
        return 413;
    case ERR_INVALID:
        return 422;
    case ERR_BAD_ANSWER:
        return 502;
    case ERR_UNAVAILABLE:
        return 503;
    case ERR_NO_SPACE:
        return 507;
    case ERR_NONE: /* a failure that recorded nothing */
    case ERR_INTERNAL:
    case ERR_NOMEM:
    case ERR_CODE_COUNT:
        break;
    }
    return 500;
}

int api_error_json(const struct err *e, char **body, size_t *len)
{
    int status = api_error_status(e->status);
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
