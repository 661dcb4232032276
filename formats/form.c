/* form: form decoding; see form.h.
 *
 * Both decoders work on the whole body in memory (the server reads it within
 * --max-body first), so they never need to resume and every pointer stays
 * inside [body, body + len).
 */
#define _GNU_SOURCE /* memmem */
#include "formats/form.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *form_url_decode(arena *a, const char *s, size_t n, int plus, size_t *outlen,
                      const char **why)
{
    char *out = arena_alloc(a, n + 1), *o = out;
    size_t i;
    *why = NULL;
    if (out == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        if (s[i] == '%') {
            int h = -1, l = -1;
            if (i + 2 < n) { /* both hex digits inside the segment */
                h = hexval((unsigned char)s[i + 1]);
                l = hexval((unsigned char)s[i + 2]);
            }
            if (h < 0 || l < 0) {
                *why = "bad %-escape";
                return NULL;
            }
            if (h == 0 && l == 0) {
                *why = "a NUL byte (%00)";
                return NULL;
            }
            *o++ = (char)(h * 16 + l);
            i += 2;
        } else if (plus && s[i] == '+') {
            *o++ = ' ';
        } else if (s[i] == '\0') {
            *why = "a NUL byte";
            return NULL;
        } else {
            *o++ = s[i];
        }
    }
    *o = '\0';
    if (outlen)
        *outlen = (size_t)(o - out);
    return out;
}

/* A field's name or value, decoded; NULL with an ERR_BAD_REQUEST naming the part. */
static char *url_decode(arena *a, const char *s, size_t n, size_t *outlen,
                        const char *what, struct err *err)
{
    const char *why;
    char *out = form_url_decode(a, s, n, 1, outlen, &why);
    if (out == NULL) {
        if (why == NULL)
            err_nomem(err);
        else
            err_set(err, ERR_BAD_REQUEST, "bad_form", NULL, "%s in the %s of a field",
                    why, what);
    }
    return out;
}

static int add_field(struct form *f, size_t *cap, arena *a, struct form_field *fld,
                     struct err *err)
{
    if (f->n == FORM_MAX_FIELDS)
        return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                       "more than %d fields in one form", FORM_MAX_FIELDS);
    if (f->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        struct form_field *nf = arena_alloc(a, nc * sizeof *nf);
        if (nf == NULL)
            return err_nomem(err);
        if (f->n)
            memcpy(nf, f->fields, f->n * sizeof *nf);
        f->fields = nf;
        *cap = nc;
    }
    f->fields[f->n++] = *fld;
    return 0;
}

int form_parse_urlencoded(const char *body, size_t len, arena *a, struct form *out,
                          struct err *err)
{
    const char *p = body, *end = body + len;
    size_t cap = 0;

    out->fields = NULL;
    out->n = 0;
    while (p < end) {
        const char *amp = memchr(p, '&', (size_t)(end - p));
        const char *seg_end = amp ? amp : end;
        const char *eq = memchr(p, '=', (size_t)(seg_end - p));
        const char *name_end = eq ? eq : seg_end;
        struct form_field fld = {0};
        size_t nlen, vlen;

        if (seg_end > p) {
            if ((size_t)(name_end - p) > 3 * FORM_MAX_NAME)
                return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                               "a field name is longer than %d bytes", FORM_MAX_NAME);
            fld.name = url_decode(a, p, (size_t)(name_end - p), &nlen, "name", err);
            if (fld.name == NULL)
                return -1;
            if (nlen > FORM_MAX_NAME)
                return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                               "a field name is longer than %d bytes", FORM_MAX_NAME);
            if (eq) {
                if ((size_t)(seg_end - eq - 1) > 3 * (size_t)FORM_MAX_TEXT)
                    return err_set(err, ERR_TOO_LARGE, "too_large", fld.name,
                                   "field %.64s is longer than %u bytes", fld.name,
                                   FORM_MAX_TEXT);
                fld.value = url_decode(a, eq + 1, (size_t)(seg_end - eq - 1), &vlen,
                                       "value", err);
            } else {
                fld.value = url_decode(a, "", 0, &vlen, "value", err);
            }
            if (fld.value == NULL)
                return -1;
            if (vlen > FORM_MAX_TEXT)
                return err_set(err, ERR_TOO_LARGE, "too_large", fld.name,
                               "field %.64s is longer than %u bytes", fld.name,
                               FORM_MAX_TEXT);
            fld.len = vlen;
            /* A field without a name cannot be addressed; browsers never send one. */
            if (nlen > 0 && add_field(out, &cap, a, &fld, err) != 0)
                return -1;
        }
        p = amp ? amp + 1 : end;
    }
    return 0;
}

/* ---- multipart/form-data ------------------------------------------------ */

/* Reads a token or quoted-string parameter value at *pp (within end) into
 * the arena; advances *pp. NULL on a malformed value. */
static char *param_value(arena *a, const char **pp, const char *end, size_t max)
{
    const char *p = *pp;
    char *out = arena_alloc(a, max + 1);
    size_t n = 0;
    if (out == NULL)
        return NULL;
    if (p < end && *p == '"') {
        p++;
        while (p < end && *p != '"') {
            if (*p == '\\' && p + 1 < end)
                p++;
            if (n == max || *p == '\0')
                return NULL;
            out[n++] = *p++;
        }
        if (p >= end)
            return NULL;
        p++; /* closing quote */
    } else {
        while (p < end && *p != ';' && *p != ' ' && *p != '\t') {
            if (n == max || *p == '\0')
                return NULL;
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    *pp = p;
    return out;
}

/* Parses `form-data; name="x"; filename="y"` into fld. */
static int content_disposition(arena *a, const char *p, const char *end,
                               struct form_field *fld, struct err *err)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if ((size_t)(end - p) < 9 || strncasecmp(p, "form-data", 9) != 0)
        return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                       "a part's Content-Disposition is not form-data");
    p += 9;
    while (p < end) {
        const char *key;
        size_t klen;
        char *val;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p >= end)
            break;
        if (*p != ';')
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "malformed Content-Disposition parameters");
        p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        key = p;
        while (p < end && *p != '=' && *p != ';' && *p != ' ')
            p++;
        klen = (size_t)(p - key);
        if (p >= end || *p != '=')
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "malformed Content-Disposition parameters");
        p++;
        val = param_value(a, &p, end,
                          klen == 8 && strncasecmp(key, "filename", 8) == 0
                              ? FORM_MAX_FILENAME
                              : FORM_MAX_HEADER_LINE);
        if (val == NULL)
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "malformed or over-long Content-Disposition parameter");
        if (klen == 4 && strncasecmp(key, "name", 4) == 0) {
            if (strlen(val) > FORM_MAX_NAME)
                return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                               "a field name is longer than %d bytes", FORM_MAX_NAME);
            fld->name = val;
        } else if (klen == 8 && strncasecmp(key, "filename", 8) == 0) {
            fld->filename = val;
        }
        /* Other parameters (filename*, ...) are ignored, as RFC 7578 allows. */
    }
    if (fld->name == NULL || fld->name[0] == '\0')
        return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                       "a form part has no field name");
    return 0;
}

/* Parses the header block of one part: lines up to an empty line. *pp points
 * after the CRLF that ended the boundary line; on return it points at the
 * content. */
static int part_headers(arena *a, const char **pp, const char *end,
                        struct form_field *fld, struct err *err)
{
    const char *p = *pp;
    int lines = 0, have_cd = 0;
    for (;;) {
        const char *eol = memmem(p, (size_t)(end - p), "\r\n", 2);
        const char *colon;
        if (eol == NULL)
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "a form part's headers never end");
        if (eol == p) {
            p += 2;
            break;
        }
        if ((size_t)(eol - p) > FORM_MAX_HEADER_LINE)
            return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                           "a form part header is longer than %d bytes",
                           FORM_MAX_HEADER_LINE);
        if (++lines > FORM_MAX_PART_HEADERS)
            return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                           "a form part has more than %d headers", FORM_MAX_PART_HEADERS);
        colon = memchr(p, ':', (size_t)(eol - p));
        if (colon == NULL)
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "malformed form part header");
        if ((size_t)(colon - p) == 19 && strncasecmp(p, "Content-Disposition", 19) == 0) {
            if (have_cd++)
                return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                               "a form part has two Content-Disposition headers");
            if (content_disposition(a, colon + 1, eol, fld, err) != 0)
                return -1;
        } else if ((size_t)(colon - p) == 12 && strncasecmp(p, "Content-Type", 12) == 0) {
            const char *v = colon + 1;
            while (v < eol && (*v == ' ' || *v == '\t'))
                v++;
            fld->content_type = arena_strndup(a, v, (size_t)(eol - v));
            if (fld->content_type == NULL)
                return err_nomem(err);
        }
        p = eol + 2;
    }
    if (!have_cd)
        return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                       "a form part has no Content-Disposition header");
    *pp = p;
    return 0;
}

/* Finds the next delimiter line: CRLF "--" boundary followed by "--" or by
 * optional white space and CRLF. Text that merely starts like the delimiter
 * ("--boundaryX") is content. */
static const char *find_delimiter(const char *p, const char *end, const char *delim,
                                  size_t dlen)
{
    while (p < end) {
        const char *q = memmem(p, (size_t)(end - p), delim, dlen), *t;
        if (q == NULL)
            return NULL;
        t = q + dlen;
        if (end - t >= 2 && t[0] == '-' && t[1] == '-')
            return q;
        while (t < end && (*t == ' ' || *t == '\t'))
            t++;
        if (end - t >= 2 && t[0] == '\r' && t[1] == '\n')
            return q;
        p = q + 1;
    }
    return NULL;
}

int form_parse_multipart(const char *body, size_t len, const char *boundary, arena *a,
                         struct form *out, struct err *err)
{
    char delim[FORM_MAX_BOUNDARY + 5]; /* "\r\n--" + boundary */
    size_t blen = boundary ? strlen(boundary) : 0, dlen, cap = 0;
    const char *p, *end = body + len;

    out->fields = NULL;
    out->n = 0;
    if (blen == 0 || blen > FORM_MAX_BOUNDARY)
        return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                       "the multipart boundary must be 1 to %d characters",
                       FORM_MAX_BOUNDARY);
    memcpy(delim, "\r\n--", 4);
    memcpy(delim + 4, boundary, blen);
    dlen = blen + 4;

    /* The first delimiter may open the body (no CRLF before it) or follow a
     * preamble, which is ignored. */
    if (len >= dlen - 2 && memcmp(body, delim + 2, dlen - 2) == 0) {
        p = body + dlen - 2;
    } else {
        p = memmem(body, len, delim, dlen);
        if (p == NULL)
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "the body does not contain the multipart boundary");
        p += dlen;
    }
    for (;;) {
        struct form_field fld = {0};
        const char *next;
        /* After a delimiter: "--" closes the body, else optional white space
         * and CRLF open a part. */
        if (end - p >= 2 && p[0] == '-' && p[1] == '-')
            return 0;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (end - p < 2 || p[0] != '\r' || p[1] != '\n')
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "malformed multipart body (no line end after a boundary)");
        p += 2;
        if (part_headers(a, &p, end, &fld, err) != 0)
            return -1;
        next = find_delimiter(p, end, delim, dlen);
        if (next == NULL)
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "the multipart body ends without its closing boundary");
        if (fld.filename == NULL && (size_t)(next - p) > FORM_MAX_TEXT)
            return err_set(err, ERR_TOO_LARGE, "too_large", fld.name,
                           "field %.64s is longer than %u bytes", fld.name,
                           FORM_MAX_TEXT);
        fld.len = (size_t)(next - p);
        fld.value = arena_strndup(a, p, fld.len);
        if (fld.value == NULL)
            return err_nomem(err);
        if (add_field(out, &cap, a, &fld, err) != 0)
            return -1;
        p = next + dlen;
    }
}

/* Reads the boundary parameter of a multipart Content-Type into out. */
static int boundary_of(const char *ct, char *out, size_t outsz)
{
    const char *p = ct;
    while ((p = strchr(p, ';')) != NULL) {
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, "boundary=", 9) == 0) {
            size_t n = 0;
            p += 9;
            if (*p == '"') {
                p++;
                while (*p && *p != '"' && n + 1 < outsz)
                    out[n++] = *p++;
                if (*p != '"')
                    return -1;
            } else {
                while (*p && *p != ';' && *p != ' ' && *p != '\t' && n + 1 < outsz)
                    out[n++] = *p++;
                if (*p && *p != ';' && *p != ' ' && *p != '\t')
                    return -1;
            }
            out[n] = '\0';
            return n > 0 ? 0 : -1;
        }
    }
    return -1;
}

static int media_is(const char *ct, const char *type)
{
    size_t n = strlen(type);
    return strncasecmp(ct, type, n) == 0 &&
           (ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ' || ct[n] == '\t');
}

int form_parse(const char *content_type, const char *body, size_t len, arena *a,
               struct form *out, struct err *err)
{
    char boundary[FORM_MAX_BOUNDARY + 2];
    out->fields = NULL;
    out->n = 0;
    if (content_type != NULL &&
        media_is(content_type, "application/x-www-form-urlencoded"))
        return form_parse_urlencoded(body ? body : "", len, a, out, err);
    if (content_type != NULL && media_is(content_type, "multipart/form-data")) {
        if (boundary_of(content_type, boundary, sizeof boundary) != 0 ||
            strlen(boundary) > FORM_MAX_BOUNDARY)
            return err_set(err, ERR_BAD_REQUEST, "bad_form", NULL,
                           "multipart/form-data needs a boundary of 1 to %d characters",
                           FORM_MAX_BOUNDARY);
        return form_parse_multipart(body ? body : "", len, boundary, a, out, err);
    }
    return err_set(err, ERR_BAD_REQUEST, "content_type", NULL,
                   "a form must be sent as application/x-www-form-urlencoded or "
                   "multipart/form-data (got %.100s)",
                   content_type ? content_type : "none");
}

const struct form_field *form_find(const struct form *f, const char *name)
{
    size_t i;
    for (i = 0; i < f->n; i++)
        if (strcmp(f->fields[i].name, name) == 0)
            return &f->fields[i];
    return NULL;
}

const char *form_get(const struct form *f, const char *name)
{
    const struct form_field *x = form_find(f, name);
    return x ? x->value : NULL;
}
