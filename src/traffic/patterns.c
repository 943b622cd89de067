/* Destination patterns. Uniform draws; the others are permutations of the
 * node ids (bit patterns need N a power of two). A permutation's fixed points
 * do not inject: a node never sends to itself unless traffic.self allows it
 * for the uniform pattern. */
#include "../net/policy.h"
#include "../core/util.h"

/* The settings of the patterns that have any, in one block: a scenario may
 * use patterns of its own beside traffic.pattern (bursty). */
typedef struct pat_params { int self; uint32_t shift; } pat_params_t;

static pat_params_t *params(sim_t *s)
{
    if (!s->pattern_data) s->pattern_data = xcalloc(1, sizeof(pat_params_t));
    return s->pattern_data;
}

static uint32_t log2_exact(uint32_t n) { return n && !(n & (n - 1)) ? (uint32_t)__builtin_ctz(n) : ICN_NIL; }

static uint32_t nbits(const sim_t *s) { return (uint32_t)__builtin_ctz(s->nnodes); }

static void need_pow2(sim_t *s, cfg_t *c, key_id k)
{
    if (log2_exact(s->nnodes) == ICN_NIL)
        cfg_fail(c, k, "this bit permutation needs a power-of-two number of nodes; the network has %u", s->nnodes);
}

static void setup_none(sim_t *s, cfg_t *c, key_id k) { (void)s; (void)c; (void)k; }

static void setup_uniform(sim_t *s, cfg_t *c, key_id k)
{
    int self = (int)cfg_int(c, K_TR_SELF);
    if (!self && s->nnodes < 2) cfg_fail(c, k, "uniform without self traffic needs at least 2 nodes");
    params(s)->self = self;
}

static uint32_t dst_uniform(const sim_t *s, uint32_t src, rng_t *r)
{
    if (((const pat_params_t *)s->pattern_data)->self) return rng_below(r, s->nnodes);
    uint32_t d = rng_below(r, s->nnodes - 1);
    return d >= src ? d + 1 : d;
}

static inline uint32_t fixed(uint32_t src, uint32_t d) { return d == src ? ICN_NIL : d; }

static uint32_t dst_bitrev(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    uint32_t b = nbits(s), d = 0;
    for (uint32_t i = 0; i < b; i++) d |= ((src >> i) & 1u) << (b - 1 - i);
    return fixed(src, d);
}

static uint32_t dst_bitcomp(const sim_t *s, uint32_t src, rng_t *r) { (void)r; return fixed(src, ~src & (s->nnodes - 1)); }

static void setup_transpose(sim_t *s, cfg_t *c, key_id k)
{
    need_pow2(s, c, k);
    if (nbits(s) % 2) cfg_fail(c, k, "transpose needs N = 2^(2m); the network has %u nodes", s->nnodes);
}

static uint32_t dst_transpose(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    uint32_t h = nbits(s) / 2, lo = src & ((1u << h) - 1);
    return fixed(src, (lo << h) | (src >> h));
}

static uint32_t dst_shuffle(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    uint32_t b = nbits(s);
    return fixed(src, ((src << 1) | (src >> (b - 1))) & (s->nnodes - 1));
}

static uint32_t dst_butterfly(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    uint32_t b = nbits(s), hi = (src >> (b - 1)) & 1u, lo = src & 1u;
    uint32_t d = (src & ~(1u | (1u << (b - 1)))) | (lo << (b - 1)) | hi;
    return fixed(src, d);
}

/* Move every digit of the router part of a node id (node = router * c + i,
 * digit d of radix k_d; fat-trees: one digit of radix N) forward by 1, or
 * for tornado by ceil(k_d / 2) - 1, each dimension by its own radix. */
static uint32_t digits_add(const sim_t *s, uint32_t node, int tornado)
{
    uint32_t routers = 1;
    for (uint32_t d = 0; d < s->radix_n; d++) routers *= s->radix_k[d];
    uint32_t c = s->nnodes / routers, r = node / c, out = 0, pw = 1;
    for (uint32_t d = 0; d < s->radix_n; pw *= s->radix_k[d], d++) {
        uint32_t k = s->radix_k[d], add = tornado ? (k + 1) / 2 - 1 : 1;
        out += ((r / pw % k + add) % k) * pw;
    }
    return out * c + node % c;
}

/* Tornado: every coordinate halfway round its ring, less one. */
static uint32_t dst_tornado(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    return fixed(src, digits_add(s, src, 1));
}

/* Neighbor: every coordinate plus one. */
static uint32_t dst_neighbor(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    return fixed(src, digits_add(s, src, 0));
}

static void setup_shift(sim_t *s, cfg_t *c, key_id k)
{
    (void)k;
    int64_t sh = cfg_int(c, K_TR_SHIFT) % (int64_t)s->nnodes;
    if (sh < 0) sh += s->nnodes;
    params(s)->shift = (uint32_t)sh;
}

static uint32_t dst_shift(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    return fixed(src, (src + ((const pat_params_t *)s->pattern_data)->shift) % s->nnodes);
}

const pattern_ops pattern_uniform = { "uniform", "uniform random destination (traffic.self: include the source)", setup_uniform, dst_uniform };
const pattern_ops pattern_bitrev = { "bitrev", "bit-reversal permutation (N a power of two)", need_pow2, dst_bitrev };
const pattern_ops pattern_bitcomp = { "bitcomp", "bit-complement permutation (N a power of two)", need_pow2, dst_bitcomp };
const pattern_ops pattern_transpose = { "transpose", "swap the two halves of the address bits (N = 2^(2m)): the coordinate transpose on a square 2-D mesh or torus with one node per router, that bit permutation only on any other network", setup_transpose, dst_transpose };
const pattern_ops pattern_shuffle = { "shuffle", "perfect shuffle: rotate the address bits left by one (N a power of two)", need_pow2, dst_shuffle };
const pattern_ops pattern_butterfly = { "butterfly", "swap the most and least significant address bits (N a power of two)", need_pow2, dst_butterfly };
const pattern_ops pattern_tornado = { "tornado", "every coordinate + ceil(k/2) - 1 mod k, k its dimension's radix (fat-trees: (src + ceil(N/2) - 1) mod N)", setup_none, dst_tornado };
const pattern_ops pattern_neighbor = { "neighbor", "every coordinate + 1 mod k (fat-trees: src + 1 mod N)", setup_none, dst_neighbor };
const pattern_ops pattern_shift = { "shift", "(src + traffic.shift) mod N", setup_shift, dst_shift };
