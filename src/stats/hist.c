#include "hist.h"
#include "../core/util.h"
#include <stdlib.h>

void hist_init(hist_t *h)
{
    h->n = h->max = 0;
    h->min = UINT64_MAX;
    h->sum = 0;
    h->cnt = xcalloc(HIST_BUCKETS, sizeof *h->cnt);
}

void hist_free(hist_t *h) { free(h->cnt); h->cnt = NULL; }

static inline unsigned bucket(uint64_t v)
{
    if (v < 128) return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v), shift = msb - 6;
    return 128 + (shift - 1) * 64 + (unsigned)(v >> shift) - 64;
}

static double bucket_mid(unsigned i)
{
    if (i < 128) return i;
    unsigned shift = (i - 128) / 64 + 1, m = (i - 128) % 64 + 64;
    double lo = (double)((uint64_t)m << shift), w = (double)(1ull << shift);
    return lo + w / 2;
}

void hist_add(hist_t *h, uint64_t v)
{
    h->cnt[bucket(v)]++;
    h->n++;
    h->sum += v;
    if (v > h->max) h->max = v;
    if (v < h->min) h->min = v;
}

void hist_merge(hist_t *to, const hist_t *from)
{
    for (unsigned i = 0; i < HIST_BUCKETS; i++) to->cnt[i] += from->cnt[i];
    to->n += from->n;
    to->sum += from->sum;
    if (from->max > to->max) to->max = from->max;
    if (from->min < to->min) to->min = from->min;
}

double hist_mean(const hist_t *h) { return h->n ? (double)h->sum / (double)h->n : 0.0; }

double hist_quantile(const hist_t *h, double q)
{
    if (!h->n) return 0.0;
    uint64_t target = (uint64_t)(q * (double)h->n);
    if (target >= h->n) target = h->n - 1;
    uint64_t acc = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        acc += h->cnt[i];
        if (acc > target) {
            double m = bucket_mid(i);
            if (m > (double)h->max) m = (double)h->max;
            if (m < (double)h->min) m = (double)h->min;
            return m;
        }
    }
    return (double)h->max;
}
