/* Sorting records by a 64-bit key, for orders that must not depend on how
 * the records were gathered (the canonical order of same-time events).
 *
 * LSD radix sort with 8-bit digits that visits only the digits in which the
 * keys differ (a batch of one event type on nearby ports differs in two or
 * three), insertion sort for short runs. Stable: equal keys keep their
 * input order. */
#ifndef ICN_KEYSORT_H
#define ICN_KEYSORT_H
#include <stddef.h>
#include <stdint.h>

typedef struct keyed { uint64_t key; uint32_t idx; } keyed_t;

/* Sort v[0..n) by key, n < 2^32; tmp has room for n records. */
void keysort(keyed_t *v, keyed_t *tmp, size_t n);

#endif
