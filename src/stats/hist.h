/* Log-linear latency histogram: exact below 128 ps units, then 64 buckets per
 * power of two (relative error under 1.6 %). Constant memory, O(1) insert. */
#ifndef ICN_HIST_H
#define ICN_HIST_H
#include <stdint.h>

#define HIST_BUCKETS 3776

/* Sums of picoseconds are exact integers: no order of additions changes
 * them (parts of a run can add theirs up in any order), and 128 bits hold
 * any run's. */
typedef unsigned __int128 psum_t;

typedef struct hist {
    uint64_t n, max, min;
    psum_t sum;
    uint64_t *cnt;
} hist_t;

void hist_init(hist_t *h);
void hist_free(hist_t *h);
void hist_add(hist_t *h, uint64_t v);
/* Add the samples of `from` to `to`. */
void hist_merge(hist_t *to, const hist_t *from);
double hist_mean(const hist_t *h);
/* Value below which a fraction q of the samples lie (bucket midpoint). */
double hist_quantile(const hist_t *h, double q);

#endif
