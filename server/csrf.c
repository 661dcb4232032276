/* csrf: the cross-site protection of the dashboard's forms that write; see
 * csrf.h. Transport: it reads the request's headers and the server's secret. */
#include "server/csrf.h"
#include "common/sha256.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CSRF_MAX_AGE (24 * 3600) /* seconds a rendered form stays valid */

static void hexdigits(const uint8_t *d, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = '\0';
}

static void csrf_mac(const struct app *app, long long t, char out[2 * SHA256_LEN + 1])
{
    char msg[48];
    uint8_t mac[SHA256_LEN];
    int n = snprintf(msg, sizeof msg, "csrf:%lld", t);
    hmac_sha256(app->secret, sizeof app->secret, msg, (size_t)n, mac);
    hexdigits(mac, SHA256_LEN, out);
}

const char *csrf_token(struct req *r)
{
    char mac[2 * SHA256_LEN + 1];
    long long t = (long long)time(NULL);
    csrf_mac(r->app, t, mac);
    return arena_printf(r->arena, "%lld.%s", t, mac);
}

int csrf_check(struct req *r, const char *token, struct err *err)
{
    char mac[2 * SHA256_LEN + 1], *end;
    long long t, now = (long long)time(NULL);
    if (token == NULL || *token == '\0')
        return err_set(err, ERR_FORBIDDEN, "forbidden", NULL,
                       "the form has no CSRF token; load the page and submit the form "
                       "from there");
    errno = 0;
    t = strtoll(token, &end, 10);
    if (*end != '.' || errno == ERANGE || strlen(end + 1) != 2 * SHA256_LEN)
        return err_set(err, ERR_FORBIDDEN, "forbidden", NULL,
                       "the form's CSRF token is malformed");
    csrf_mac(r->app, t, mac);
    if (!ct_equal((const uint8_t *)mac, (const uint8_t *)end + 1, 2 * SHA256_LEN))
        return err_set(
            err, ERR_FORBIDDEN, "forbidden", NULL,
            "the form's CSRF token is not valid (the server may have restarted): "
            "submit the form again");
    if (t > now + 300 || now - t > CSRF_MAX_AGE)
        return err_set(err, ERR_FORBIDDEN, "forbidden", NULL,
                       "the form has expired: submit it again");
    return 0;
}

int csrf_check_origin(struct req *r, struct err *err)
{
    const char *site = http_header(r, "Sec-Fetch-Site");
    const char *origin = http_header(r, "Origin"), *host = http_header(r, "Host");
    if (site != NULL && strcmp(site, "same-origin") != 0)
        return err_set(err, ERR_FORBIDDEN, "forbidden", NULL,
                       "cross-site form submissions are refused (Sec-Fetch-Site: %.40s)",
                       site);
    if (origin != NULL) {
        const char *o = origin;
        if (strncmp(o, "http://", 7) == 0)
            o += 7;
        else if (strncmp(o, "https://", 8) == 0)
            o += 8;
        else
            o = NULL;
        if (o == NULL || host == NULL || strcmp(o, host) != 0)
            return err_set(err, ERR_FORBIDDEN, "forbidden", NULL,
                           "cross-origin form submissions are refused (Origin: %.100s)",
                           origin);
    }
    return 0;
}
