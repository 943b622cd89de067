#include "keysort.h"
#include <string.h>

enum { KEYSORT_SMALL = 32 };

static void insertion(keyed_t *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        keyed_t x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1].key > x.key; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

void keysort(keyed_t *v, keyed_t *tmp, size_t n)
{
    if (n <= KEYSORT_SMALL) { insertion(v, n); return; }
    uint64_t all = ~(uint64_t)0, any = 0;
    for (size_t i = 0; i < n; i++) { all &= v[i].key; any |= v[i].key; }
    uint64_t differ = all ^ any;   /* bits set in some keys and clear in others */
    keyed_t *src = v, *dst = tmp;
    uint32_t count[256] = { 0 };   /* kept zero between passes: each clears the digits it used */
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if (!((differ >> shift) & 0xff)) continue;   /* every key has this digit: the pass changes nothing */
        unsigned lo = 255, hi = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned d = (unsigned)(src[i].key >> shift) & 0xff;
            count[d]++;
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
        uint32_t at = 0;
        for (unsigned d = lo; d <= hi; d++) { uint32_t c = count[d]; count[d] = at; at += c; }
        for (size_t i = 0; i < n; i++) dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
        memset(&count[lo], 0, (hi - lo + 1) * sizeof *count);
        keyed_t *t = src; src = dst; dst = t;
    }
    if (src != v) memcpy(v, src, n * sizeof *v);
}
