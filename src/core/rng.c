#include "rng.h"

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(rng_t *r, uint64_t seed, uint64_t family, uint64_t index)
{
    /* Mix the three words through splitmix so nearby ids give unrelated streams. */
    uint64_t x = seed;
    uint64_t h = splitmix(&x) ^ (family * 0xd1b54a32d192ed03ull);
    h = splitmix(&h) ^ (index * 0xaef17502108ef2d9ull);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&h);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;
}

uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return res;
}

double rng_u01(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

double rng_u01_open(rng_t *r) { return ((double)(rng_next(r) >> 11) + 1.0) * 0x1.0p-53; }

uint32_t rng_below(rng_t *r, uint32_t n)
{
    /* Lemire's nearly divisionless method: unbiased. */
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t t = (uint32_t)-n % n;
        while (lo < t) {
            m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
            lo = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void rng_seed_array(rng_t *r, uint32_t n, uint64_t seed, uint64_t family)
{
    for (uint32_t i = 0; i < n; i++) rng_seed(&r[i], seed, family, i);
}
