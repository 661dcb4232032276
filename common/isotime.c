/* isotime: ISO 8601 times <-> milliseconds since the epoch, in UTC.
 *
 * The calendar arithmetic is Howard Hinnant's days_from_civil and
 * civil_from_days (proleptic Gregorian, exact for every 4-digit year): no
 * time zone database, no libc state, and fast enough to format every point
 * of a 100,000-run series. */
#include "common/isotime.h"

#include <string.h>

static int digits(const char *s, int n)
{
    for (int i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static int two(const char *s)
{
    return (s[0] - '0') * 10 + (s[1] - '0');
}

long long isotime_days_from_civil(long long y, unsigned m, unsigned d)
{
    long long era;
    unsigned yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned)(y - era * 400);
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

void isotime_civil_from_days(long long z, long long *y, unsigned *m, unsigned *d)
{
    long long era;
    unsigned doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = (unsigned)(z - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (long long)yoe + era * 400 + (*m <= 2);
}

int isotime_parse(const char *s, long long *ms)
{
    size_t len = strlen(s);
    static const int scale[3] = {100, 10, 1};
    int mo, d, h, mi, sec, frac = 0;
    long long t;

    if (len > ISOTIME_MAX || len < 19 || !digits(s, 4) || s[4] != '-' ||
        !digits(s + 5, 2) || s[7] != '-' || !digits(s + 8, 2) || s[10] != 'T' ||
        !digits(s + 11, 2) || s[13] != ':' || !digits(s + 14, 2) || s[16] != ':' ||
        !digits(s + 17, 2))
        return -1;
    mo = two(s + 5);
    d = two(s + 8);
    h = two(s + 11);
    mi = two(s + 14);
    sec = two(s + 17);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
        return -1;
    t = isotime_days_from_civil((s[0] - '0') * 1000 + (s[1] - '0') * 100 + two(s + 2),
                                (unsigned)mo, (unsigned)d);
    t = ((t * 24 + h) * 60 + mi) * 60 + sec;
    s += 19;
    if (*s == '.') {
        s++;
        if (*s < '0' || *s > '9')
            return -1;
        for (int k = 0; *s >= '0' && *s <= '9'; s++, k++)
            if (k < 3)
                frac += (*s - '0') * scale[k];
            else if (k == 3 && *s >= '5')
                frac++; /* rounded to the nearest millisecond, as SQLite does */
    }
    if (*s == '+' || *s == '-') {
        int sign = *s == '+' ? 1 : -1;
        if (strlen(s) != 6 || !digits(s + 1, 2) || s[3] != ':' || !digits(s + 4, 2) ||
            two(s + 1) > 23 || two(s + 4) > 59)
            return -1;
        /* local time = UTC + offset */
        t -= sign * (two(s + 1) * 3600LL + two(s + 4) * 60LL);
    } else if (strcmp(s, "Z") != 0 && *s != '\0') {
        return -1;
    }
    if (ms != NULL)
        *ms = t * 1000 + frac;
    return 0;
}

size_t isotime_format(long long ms, char *out)
{
    long long days = (ms >= 0 ? ms : ms - 86399999) / 86400000, y;
    long long rest = ms - days * 86400000;
    unsigned m, d, sec = (unsigned)(rest / 1000), milli = (unsigned)(rest % 1000);
    char *p = out;

    isotime_civil_from_days(days, &y, &m, &d);
    if (y < 0 || y > 9999)
        y = y < 0 ? 0 : 9999; /* not reachable from a parsed time */
    *p++ = (char)('0' + y / 1000);
    *p++ = (char)('0' + y / 100 % 10);
    *p++ = (char)('0' + y / 10 % 10);
    *p++ = (char)('0' + y % 10);
    *p++ = '-';
    *p++ = (char)('0' + m / 10);
    *p++ = (char)('0' + m % 10);
    *p++ = '-';
    *p++ = (char)('0' + d / 10);
    *p++ = (char)('0' + d % 10);
    *p++ = 'T';
    *p++ = (char)('0' + sec / 36000);
    *p++ = (char)('0' + sec / 3600 % 10);
    *p++ = ':';
    *p++ = (char)('0' + sec / 600 % 6);
    *p++ = (char)('0' + sec / 60 % 10);
    *p++ = ':';
    *p++ = (char)('0' + sec % 60 / 10);
    *p++ = (char)('0' + sec % 10);
    if (milli) {
        *p++ = '.';
        *p++ = (char)('0' + milli / 100);
        *p++ = (char)('0' + milli / 10 % 10);
        *p++ = (char)('0' + milli % 10);
    }
    *p++ = 'Z';
    *p = '\0';
    return (size_t)(p - out);
}
