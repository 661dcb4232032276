/* import_names: names from tools that know no length limit (Trace Event
 * JSON, Nsight Systems, HPCToolkit: C++ template kernels run to kilobytes)
 * made storable instead of refused. */
#include <string.h>

#include "formats/import.h"
#include "formats/limits.h"

size_t imp_name_cut(const char *s, char out[LIMIT_NAME + 1])
{
    size_t n = strlen(s);
    while (n > 0 && (*s == ' ' || *s == '\t'))
        s++, n--;
    if (n > LIMIT_NAME) {
        n = LIMIT_NAME;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--; /* s[n] continues a character: cut before it */
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    for (size_t i = 0; i < n; i++)
        out[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? ' ' : s[i];
    out[n] = '\0';
    return n;
}
