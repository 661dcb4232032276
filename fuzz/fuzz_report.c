/* Fuzz target: `prophecy-upload report`'s reading of the server's answers
 * (uploader/upl_report.c). The input is a compare answer, a NUL byte and an
 * alerts answer (either may be anything). Whatever they hold: the renderer
 * answers 0 or -1; markdown never lets a '<' through unescaped, nor an
 * "@name" mention, a bare "://" link or a bidirectional override from the
 * answers' names; JSON output always parses back. */
#include "uploader/upl_report.h"

#include <stdint.h>
#include <string.h>

static void check_markdown(const char *s)
{
    for (const char *p = s; (p = strchr(p, '<')) != NULL; p++)
        if (p == s || p[-1] != '\\')
            __builtin_trap();
    for (const char *p = s; (p = strchr(p, '@')) != NULL; p++)
        if (strncmp(p + 1, "&#8203;", 7) != 0)
            __builtin_trap();
    if (strstr(s, "://") != NULL || strstr(s, "\xE2\x80\xAE") != NULL)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t n1 = nul ? (size_t)(nul - data) : size;
    json_t *compare = json_loadb((const char *)data, n1, 0, NULL);
    json_t *alerts =
        nul ? json_loadb((const char *)nul + 1, size - n1 - 1, 0, NULL) : NULL;
    struct upl_report_summary sum;
    struct buf out;
    int rc;

    buf_init(&out, 1 << 24);
    rc = upl_report_render(compare, alerts, "c@x", "branch:main", UPL_REPORT_MARKDOWN,
                           &out, &sum);
    if (rc != 0 && rc != -1)
        __builtin_trap();
    if (rc == 0 && !buf_failed(&out))
        check_markdown(buf_str(&out));
    buf_reset(&out);
    rc = upl_report_render(compare, alerts, "c", "branch:main", UPL_REPORT_JSON, &out,
                           &sum);
    if (rc == 0 && !buf_failed(&out)) {
        json_t *back = json_loadb(buf_str(&out), out.len, 0, NULL);
        if (back == NULL)
            __builtin_trap();
        json_decref(back);
    }
    buf_free(&out);
    json_decref(compare);
    json_decref(alerts);
    return 0;
}
