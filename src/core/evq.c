#include "evq.h"
#include "util.h"
#include <stdlib.h>

static inline int before(const event_t *x, const event_t *y)
{
    return x->time < y->time || (x->time == y->time && x->ord < y->ord);
}

void evq_init(evq_t *q)
{
    q->cap = 1024;
    q->n = 0;
    q->seq = 0;
    q->pushed = 0;
    q->h = xmalloc(q->cap * sizeof *q->h);
}

void evq_free(evq_t *q) { free(q->h); q->h = NULL; q->n = q->cap = 0; }

void evq_push(evq_t *q, simtime_t t, unsigned type, uint32_t a, uint32_t b)
{
    if (q->n == q->cap) {
        q->cap *= 2;
        q->h = xrealloc(q->h, q->cap * sizeof *q->h);
    }
    event_t e = { t, (q->seq++ << 8) | (type & 0xff), a, b };
    q->pushed++;
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) >> 2;
        if (!before(&e, &q->h[p])) break;
        q->h[i] = q->h[p];
        i = p;
    }
    q->h[i] = e;
}

int evq_pop(evq_t *q, event_t *out)
{
    if (!q->n) return 0;
    *out = q->h[0];
    event_t last = q->h[--q->n];
    size_t n = q->n, i = 0;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n) break;
        size_t best = c, end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (before(&q->h[k], &q->h[best])) best = k;
        if (!before(&q->h[best], &last)) break;
        q->h[i] = q->h[best];
        i = best;
    }
    if (n) q->h[i] = last;
    return 1;
}
