/* Fat-trees with T stages of switches of arity K (P = 2K ports).
 *
 * Two variants share one wiring rule and differ only at the top stage:
 *   rlft   Real-Life Fat-Tree: top switches use all 2K ports downwards,
 *          N = 2K^T nodes, S = N(2T-1)/2K switches;
 *   ntree  k-ary n-tree: top switches use K ports, N = K^T.
 * A stage-l switch (l < T) is (g, j): it reaches the nodes n with
 * floor(n / K^l) = g, and j in [0, K^(l-1)) tells it apart from its peers.
 * Up port u of (g, j) goes to stage-(l+1) switch (floor(g / K), j*K + u),
 * arriving on down port g mod K (g itself at the top). Down ports are 0..K-1
 * (0..top-1 at the top), up ports K..2K-1. For T = 3 this is the standard
 * RLFT wiring of seed 002's notes, section 1.3. */
#ifndef ICN_FATTREE_H
#define ICN_FATTREE_H
#include <stdint.h>
#include "../net/model.h"

typedef struct fattree {
    uint32_t K, T, top;          /* arity, stages, down ports of a top switch */
    uint32_t N;                  /* end nodes */
    uint32_t kpow[10];           /* K^i */
    uint32_t stage_off[10];      /* first switch index of stage l (1-based), stage_off[T+1] = S */
    uint32_t *g, *j;             /* per switch */
    uint8_t *stage;              /* per switch */
} fattree_t;

/* The fat-tree of this simulation, or NULL if the topology is not one. */
const fattree_t *fattree_get(const sim_t *s);

/* D-mod-K output port (local index) at switch w for destination d. */
static inline uint32_t fattree_dmodk_port(const fattree_t *ft, uint32_t w, uint32_t d)
{
    uint32_t l = ft->stage[w], digit = d / ft->kpow[l - 1];
    if (l == ft->T) return digit;                       /* top: down to the subtree of d */
    if (d / ft->kpow[l] == ft->g[w]) return digit % ft->K;   /* d below: unique down port */
    return ft->K + digit % ft->K;                       /* up port floor(d / K^(l-1)) mod K */
}

/* True if local port p of switch w leads up. */
static inline int fattree_is_up(const fattree_t *ft, uint32_t w, uint32_t p)
{
    return ft->stage[w] < ft->T && p >= ft->K;
}

#endif
