#include "units.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* strtod, decimal only: it also reads hexadecimal ("0x10" = 16), which no
 * unit here documents. */
static double decimal(const char *s, char **end)
{
    const char *p = s + strspn(s, " +-");
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) { *end = (char *)s; return 0; }   /* read nothing */
    return strtod(s, end);
}

/* Split "12.5 GB/s" into number and unit suffix (spaces allowed between). */
static int split(const char *s, double *num, const char **unit, const char **why)
{
    char *end;
    while (*s == ' ') s++;
    errno = 0;
    *num = decimal(s, &end);
    if (end == s || errno) { *why = errno == ERANGE ? "number out of range" : "expected a decimal number"; return -1; }
    if (!isfinite(*num)) { *why = "number is not finite"; return -1; }
    while (*end == ' ') end++;
    *unit = end;
    return 0;
}

int parse_time_ps(const char *s, uint64_t *out, const char **why)
{
    static const struct { const char *u; double f; } tab[] = {
        { "", 1 }, { "ps", 1 }, { "ns", 1e3 }, { "us", 1e6 }, { "ms", 1e9 }, { "s", 1e12 },
    };
    double v;
    const char *u;
    if (split(s, &v, &u, why)) return -1;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strcasecmp(u, tab[i].u) == 0) {
            double ps = v * tab[i].f;
            if (ps < 0) { *why = "time must not be negative"; return -1; }
            if (ps > 1e18) { *why = "time too large (at most 1e18 ps, a million seconds)"; return -1; }
            /* decimal text is inexact in binary only by a few units in the last place */
            if (fabs(ps - llround(ps)) > 16 * DBL_EPSILON * (ps > 1 ? ps : 1)) {
                *why = "time is not a whole number of picoseconds"; return -1;
            }
            *out = (uint64_t)llround(ps);
            return 0;
        }
    }
    *why = "unknown time unit (use ps, ns, us, ms or s)";
    return -1;
}

int parse_bytes(const char *s, uint64_t *out, const char **why)
{
    static const struct { const char *u; double f; } tab[] = {
        { "", 1 }, { "B", 1 }, { "K", 1024 }, { "KB", 1024 }, { "KiB", 1024 },
        { "M", 1048576 }, { "MB", 1048576 }, { "MiB", 1048576 },
    };
    double v;
    const char *u;
    if (split(s, &v, &u, why)) return -1;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strcmp(u, tab[i].u) == 0) {
            double b = v * tab[i].f;
            if (b < 0 || b != floor(b)) { *why = "size must be a whole, non-negative number of bytes"; return -1; }
            if (b > 4e9) { *why = "size too large (at most 4 GB)"; return -1; }
            *out = (uint64_t)b;
            return 0;
        }
    }
    *why = "unknown size unit (use B, KB = KiB = 1024 B, or MB = MiB)";
    return -1;
}

int parse_bandwidth(const char *s, double *bps, const char **why)
{
    /* "16b/5.25ns": so many bits (b) or bytes (B) per time, e.g. a phit per router cycle */
    const char *slash = strchr(s, '/');
    if (slash && slash[1] && strchr("0123456789.", slash[1])) {
        char num[64];
        snprintf(num, sizeof num, "%.*s", (int)(slash - s), s);
        double v;
        const char *u;
        uint64_t ps;
        if (split(num, &v, &u, why)) return -1;
        if (strcmp(u, "b") && strcmp(u, "B")) { *why = "in 'N<unit>/<time>' the unit is b (bits) or B (bytes)"; return -1; }
        if (parse_time_ps(slash + 1, &ps, why)) return -1;
        if (!ps || v <= 0) { *why = "bandwidth must be positive"; return -1; }
        *bps = v * (*u == 'B' ? 8 : 1) / ((double)ps * 1e-12);
        return 0;
    }
    static const struct { const char *u; double f; } tab[] = {
        { "bps", 1 }, { "Kbps", 1e3 }, { "Mbps", 1e6 }, { "Gbps", 1e9 }, { "Tbps", 1e12 },
        { "B/s", 8 }, { "KB/s", 8e3 }, { "MB/s", 8e6 }, { "GB/s", 8e9 },
    };
    double v;
    const char *u;
    if (split(s, &v, &u, why)) return -1;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strcmp(u, tab[i].u) == 0) {
            *bps = v * tab[i].f;
            if (*bps <= 0) { *why = "bandwidth must be positive"; return -1; }
            return 0;
        }
    }
    *why = "unknown bandwidth unit (use bps, Kbps, Mbps, Gbps, Tbps, B/s, KB/s, MB/s, GB/s, or bits per time as 16b/5.25ns)";
    return -1;
}

int parse_int64(const char *s, int64_t *out, const char **why)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno) { *why = "expected an integer"; return -1; }
    *out = v;
    return 0;
}

int parse_double(const char *s, double *out, const char **why)
{
    char *end;
    errno = 0;
    double v = decimal(s, &end);
    if (end == s || *end || errno || !isfinite(v)) { *why = "expected a decimal number"; return -1; }
    *out = v;
    return 0;
}

int parse_bool(const char *s, int *out, const char **why)
{
    if (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcmp(s, "1") || !strcasecmp(s, "on")) { *out = 1; return 0; }
    if (!strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcmp(s, "0") || !strcasecmp(s, "off")) { *out = 0; return 0; }
    *why = "expected a boolean (true/false, yes/no, on/off, 1/0)";
    return -1;
}

const char *fmt_time(uint64_t ps, char *buf, int n)
{
    if (ps >= 1000000000ull) snprintf(buf, n, "%.3f ms", ps / 1e9);
    else if (ps >= 1000000ull) snprintf(buf, n, "%.3f us", ps / 1e6);
    else if (ps >= 1000ull) snprintf(buf, n, "%.3f ns", ps / 1e3);
    else snprintf(buf, n, "%llu ps", (unsigned long long)ps);
    return buf;
}
