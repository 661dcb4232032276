/* upl_http: classify what the server did with a document; see upl_http.h.
 *
 * The classification is the heart of "never lose a result": anything that
 * might succeed later is RETRY, and only a definite answer from the server
 * about this document (a 4xx other than 408/429) is REJECTED.
 */
#include "uploader/upl_http.h"

#include "common/buf.h"
#include "common/xalloc.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* Bytes of an answer we keep: a comparison of LIMIT_COMPARE_CONFIGS rows or a
 * page of alerts is a few MiB; past this the answer is cut short and
 * upl_http_body() says so (1 MiB once failed real compare answers). */
#define REPLY_MAX ((size_t)UPL_HTTP_ANSWER_MAX_MIB << 20)

struct upl_http {
    CURL *curl;
    char *server;
    struct curl_slist *headers;
    struct curl_slist *tar_headers; /* the same with Content-Type: application/x-tar */
    long timeout_s;
    struct buf reply;
};

int upl_http_global_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
    struct buf *b = arg;
    buf_append(b, p, size * n); /* over REPLY_MAX: kept truncated, sticky flag */
    return size * n;
}

upl_http *upl_http_new(const char *server, const char *token, long timeout_s,
                       struct err *err)
{
    upl_http *h = xcalloc(1, sizeof *h);
    struct buf auth;
    size_t n;

    if (h == NULL) {
        err_nomem(err);
        return NULL;
    }
    buf_init(&h->reply, REPLY_MAX);
    buf_init(&auth, 8192);
    h->server = xstrdup(server);
    h->curl = curl_easy_init();
    if (h->server == NULL || h->curl == NULL)
        goto fail;
    n = strlen(h->server);
    while (n > 0 && h->server[n - 1] == '/')
        h->server[--n] = '\0'; /* "http://host:8080/" and "...:8080" mean the same */
    h->headers = curl_slist_append(NULL, "Content-Type: application/json");
    h->tar_headers = curl_slist_append(NULL, "Content-Type: application/x-tar");
    if (h->headers == NULL || h->tar_headers == NULL)
        goto fail;
    if (token && *token) {
        struct curl_slist *l;
        buf_printf(&auth, "Authorization: Bearer %s", token);
        if (buf_failed(&auth))
            goto fail;
        l = curl_slist_append(h->headers, buf_str(&auth));
        if (l == NULL)
            goto fail;
        h->headers = l;
        l = curl_slist_append(h->tar_headers, buf_str(&auth));
        if (l == NULL)
            goto fail;
        h->tar_headers = l;
    }
    buf_free(&auth);
    h->timeout_s = timeout_s > 0 ? timeout_s : 30;
    curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, &h->reply);
    curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, h->headers);
    curl_easy_setopt(h->curl, CURLOPT_USERAGENT, "prophecy-upload/0.1");
    return h;
fail:
    buf_free(&auth);
    upl_http_free(h);
    err_set(err, ERR_INTERNAL, "curl", NULL, "cannot set up libcurl (out of memory?)");
    return NULL;
}

void upl_http_free(upl_http *h)
{
    if (h == NULL)
        return;
    if (h->curl)
        curl_easy_cleanup(h->curl);
    curl_slist_free_all(h->headers);
    curl_slist_free_all(h->tar_headers);
    buf_free(&h->reply);
    xfree(h->server);
    xfree(h);
}

void upl_http_set_timeout(upl_http *h, long timeout_s)
{
    h->timeout_s = timeout_s > 0 ? timeout_s : 1;
}

static void copy(char *dst, size_t dstsz, const char *src)
{
    snprintf(dst, dstsz, "%s", src ? src : "");
}

/* Takes code/message/field from {"error": {...}} when the answer has it. */
static void parse_error(const char *text, size_t len, struct upl_reply *out)
{
    json_t *j = json_loadb(text, len, 0, NULL), *e;

    e = json_object_get(j, "error");
    if (json_is_object(e)) {
        copy(out->code, sizeof out->code, json_string_value(json_object_get(e, "code")));
        copy(out->message, sizeof out->message,
             json_string_value(json_object_get(e, "message")));
        copy(out->field, sizeof out->field,
             json_string_value(json_object_get(e, "field")));
    } else {
        /* Not our server's JSON (a proxy page?): show its first line. */
        size_t n = strcspn(text, "\r\n");
        snprintf(out->message, sizeof out->message, "%.*s", (int)(n > 200 ? 200 : n),
                 text);
    }
    json_decref(j);
}

int upl_http_post(upl_http *h, const char *path, const char *body, size_t len,
                  struct upl_reply *out)
{
    return upl_http_send(h, "POST", path, body, len, out);
}

static int send_with(upl_http *h, const char *method, const char *path,
                     struct curl_slist *headers, const char *body, size_t len,
                     struct upl_reply *out);

int upl_http_get(upl_http *h, const char *path, struct upl_reply *out)
{
    return upl_http_send(h, "GET", path, NULL, 0, out);
}

const char *upl_http_body(upl_http *h, size_t *len)
{
    if (buf_failed(&h->reply))
        return NULL;
    *len = h->reply.len;
    return buf_str(&h->reply);
}

int upl_http_send(upl_http *h, const char *method, const char *path, const char *body,
                  size_t len, struct upl_reply *out)
{
    return send_with(h, method, path, h->headers, body, len, out);
}

int upl_http_post_tar(upl_http *h, const char *path, const char *body, size_t len,
                      struct upl_reply *out)
{
    return send_with(h, "POST", path, h->tar_headers, body, len, out);
}

static int send_with(upl_http *h, const char *method, const char *path,
                     struct curl_slist *headers, const char *body, size_t len,
                     struct upl_reply *out)
{
    struct buf url;
    CURLcode cc;
    long status = 0;

    memset(out, 0, sizeof *out);
    buf_init(&url, 16384);
    buf_printf(&url, "%s%s", h->server, path);
    if (buf_failed(&url)) {
        buf_free(&url);
        out->outcome = UPL_REJECTED;
        copy(out->message, sizeof out->message, "URL too long");
        return -1;
    }
    buf_reset(&h->reply);
    curl_easy_setopt(h->curl, CURLOPT_URL, buf_str(&url));
    curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, headers);
    if (strcmp(method, "GET") == 0) {
        curl_easy_setopt(h->curl, CURLOPT_CUSTOMREQUEST, NULL);
        curl_easy_setopt(h->curl, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(h->curl, CURLOPT_POST, 1L);
        curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        /* POST's body handling with another verb (PUT); NULL restores POST. */
        curl_easy_setopt(h->curl, CURLOPT_CUSTOMREQUEST,
                         strcmp(method, "POST") == 0 ? NULL : method);
    }
    curl_easy_setopt(h->curl, CURLOPT_TIMEOUT, h->timeout_s);
    curl_easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT,
                     h->timeout_s < 5 ? h->timeout_s : 5L);
    cc = curl_easy_perform(h->curl);
    buf_free(&url);
    if (cc != CURLE_OK) {
        out->outcome = UPL_RETRY;
        out->unreachable =
            cc == CURLE_COULDNT_CONNECT || cc == CURLE_COULDNT_RESOLVE_HOST ||
            cc == CURLE_COULDNT_RESOLVE_PROXY || cc == CURLE_OPERATION_TIMEDOUT;
        if (cc == CURLE_UNSUPPORTED_PROTOCOL || cc == CURLE_URL_MALFORMAT)
            out->unreachable = 1; /* a bad --server: not the document's fault, keep it */
        copy(out->message, sizeof out->message, curl_easy_strerror(cc));
        return 0;
    }
    curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &status);
    out->status = status;
    if (status >= 200 && status < 300) {
        out->outcome = UPL_DELIVERED;
        return 0;
    }
    parse_error(buf_str(&h->reply), h->reply.len, out);
    if (out->message[0] == '\0')
        snprintf(out->message, sizeof out->message, "HTTP status %ld", status);
    if (status >= 500 || status == 408 || status == 429)
        out->outcome = UPL_RETRY;
    else
        out->outcome = UPL_REJECTED;
    return 0;
}

char *upl_http_escape(upl_http *h, const char *s)
{
    return curl_easy_escape(h->curl, s, 0);
}

void upl_http_free_str(char *s)
{
    curl_free(s);
}
