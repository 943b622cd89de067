/* Channel dependency graphs over (output port, VL), and the credit-loop
 * check OpenSM and ibdmchk perform: a cycle of channels in which each waits
 * for credits of the next can deadlock a lossless fabric. */
#ifndef ICN_IB_CDG_H
#define ICN_IB_CDG_H
#include <stdint.h>
#include <stdio.h>
#include "subnet.h"

/* A channel is (global output port g of a switch, VL v), id g * nvl + v. Its
 * successors lie at the switch its link leads to: succ[id * nvl + v2] is the
 * mask of that switch's local output ports o such that (o, v2) follows. */
typedef struct cdg {
    uint32_t nch, nvl;
    uint64_t *succ;
} cdg_t;

void cdg_init(cdg_t *g, const sim_t *s, uint32_t nvl);
void cdg_free(cdg_t *g);
/* Add the dependency (g1, v1) -> (local port o2 at the next switch, v2);
 * returns 1 if it was new. */
static inline int cdg_add(cdg_t *g, uint32_t g1, uint32_t v1, uint32_t o2, uint32_t v2)
{
    uint64_t *m = &g->succ[((size_t)g1 * g->nvl + v1) * g->nvl + v2], b = (uint64_t)1 << o2;
    if (*m & b) return 0;
    *m |= b;
    return 1;
}
static inline void cdg_del(cdg_t *g, uint32_t g1, uint32_t v1, uint32_t o2, uint32_t v2)
{
    g->succ[((size_t)g1 * g->nvl + v1) * g->nvl + v2] &= ~((uint64_t)1 << o2);
}
/* Find a cycle; returns its length (0 if acyclic) and its channel ids in
 * cyc[0..len-1] (at most max are stored). */
uint32_t cdg_cycle(const cdg_t *g, const sim_t *s, uint32_t *cyc, uint32_t max);

/* Whether channel `to` can be reached from channel `from` along g's
 * dependencies (from itself included). The walk's scratch (visit stamps and
 * a stack, grown on first use) is kept in w across calls: an engine that
 * checks each new route's dependencies against an acyclic graph asks only
 * whether a new edge a -> b closes a cycle, that is whether b reaches a,
 * which visits what lies beyond b instead of the whole graph. */
typedef struct cdg_walk { uint32_t *stamp, *stack, n, now; } cdg_walk_t;
int cdg_reaches(const cdg_t *g, const sim_t *s, uint32_t from, uint32_t to, cdg_walk_t *w);
void cdg_walk_free(cdg_walk_t *w);

/* The dependencies of every route of the subnet (from every switch with CAs
 * to every CA LID, with the SL its path record names and the VLs of the
 * SL-to-VL tables) are added to g (nvl = ib->nvl). */
void ib_build_cdg(const ib_subnet_t *ib, const sim_t *s, cdg_t *g);

/* The credit-loop check: 0 if the routes' dependency graph is acyclic, else
 * 1 after printing the cycle to f. */
int ib_credit_loops(const ib_subnet_t *ib, const sim_t *s, FILE *f);

#endif
