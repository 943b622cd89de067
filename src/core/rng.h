/* Deterministic random numbers with independent streams.
 *
 * xoshiro256** seeded through splitmix64 from (seed, stream id). Every consumer
 * (a node's arrival process, a node's destination choice, a switch's random
 * routing, scenario set-up) owns its own stream, so results never depend on the
 * order in which events at equal times are processed or on how a sweep is split
 * across workers. */
#ifndef ICN_RNG_H
#define ICN_RNG_H
#include <stdint.h>

typedef struct rng { uint64_t s[4]; } rng_t;

/* Stream families: keep them disjoint so adding one never shifts another. */
enum {
    RNG_ARRIVAL = 1, RNG_DEST = 2, RNG_ROUTE = 3, RNG_SETUP = 4, RNG_SIZE = 5, RNG_MULTIPATH = 6, RNG_CHECK = 7
};

void rng_seed(rng_t *r, uint64_t seed, uint64_t family, uint64_t index);
uint64_t rng_next(rng_t *r);
double rng_u01(rng_t *r);              /* uniform in [0,1) */
double rng_u01_open(rng_t *r);         /* uniform in (0,1] */
uint32_t rng_below(rng_t *r, uint32_t n); /* uniform in [0,n), n > 0 */
/* n streams of one family, r[i] keyed by index i (e.g. one per switch). */
void rng_seed_array(rng_t *r, uint32_t n, uint64_t seed, uint64_t family);

#endif
