/* Parsing of quantities with units: times, sizes, bandwidths. */
#ifndef ICN_UNITS_H
#define ICN_UNITS_H
#include <stdint.h>

/* Each returns 0 on success, -1 with *why set to a static message on error. */
int parse_time_ps(const char *s, uint64_t *out, const char **why);   /* "6ns", "1ms", "320000" (ps) */
int parse_bytes(const char *s, uint64_t *out, const char **why);     /* "4KB" = 4096, "192KiB", "4000" */
int parse_bandwidth(const char *s, double *bps, const char **why);   /* "100Gbps", "12.5GB/s" */
int parse_int64(const char *s, int64_t *out, const char **why);
int parse_double(const char *s, double *out, const char **why);
int parse_bool(const char *s, int *out, const char **why);

/* Format a time in the most readable unit ("1.5 us"). */
const char *fmt_time(uint64_t ps, char *buf, int n);

#endif
