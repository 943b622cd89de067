/* dfs-disjoint: the seed's multipath engine. For every destination switch it
 * builds 2^LMC route trees, one per LID offset, shortest first: tree 0 is a
 * minimal-hop tree; in tree i every switch prefers a port it did not use in
 * trees 0..i-1 of this destination (each earlier use weighs DETOUR hops in
 * its choice; see tree()). Then the route of any source in tree i shares no
 * link with its routes in the earlier trees wherever every switch on it
 * found a new port. Forwarding by DLID forces all routes to one LID into a
 * tree, so the search grows the tree backwards from the destination (in
 * order of a Dijkstra-like key) rather than enumerating paths per pair
 * depth-first; ties go to the least-loaded port, then to the neighbour that
 * joined the tree first.
 *
 * Non-minimal paths close credit loops, so routes are put into layers as
 * DFSSSP does: each route (source switch, DLID) goes to the first layer whose
 * channel dependency graph stays acyclic with it; its SL is that layer and
 * SL-to-VL is the identity. More layers than switch.vcs is refused. With
 * switch.vcs = 1 every route must fit one layer, no SL is assigned and the
 * queuing scheme's VC is kept; with more VCs the engine owns them (SL =
 * layer). */
#include "engine.h"
#include "cdg.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct heap { uint64_t *a; uint32_t n; } heap_t;   /* cost << 32 | switch */

static void hpush(heap_t *h, uint64_t v)
{
    uint32_t i = h->n++;
    while (i && h->a[(i - 1) / 2] > v) { h->a[i] = h->a[(i - 1) / 2]; i = (i - 1) / 2; }
    h->a[i] = v;
}
static uint64_t hpop(heap_t *h)
{
    uint64_t top = h->a[0], v = h->a[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->a[c + 1] < h->a[c]) c++;
        if (h->a[c] >= v) break;
        h->a[i] = h->a[c]; i = c;
    }
    if (h->n) h->a[i] = v;
    return top;
}

/* One tree towards switch t; next[w] = w's port, IB_NO_PORT if none.
 * Switches join the tree one at a time, each through a switch already in it,
 * in order of key = hops of that switch's route + 1 + DETOUR * (times this
 * port was w's next hop in the earlier trees); w takes the least key offered
 * by the switches in the tree when it joins. The penalty counts only w's own
 * port, not those further on: if every switch leaves by a port it has not
 * used before, the route of any source in tree i shares no link with its
 * routes in the earlier trees (each switch on both routes leaves them by
 * different ports). It is also why DETOUR bounds no path: a switch joining
 * through a neighbour whose route is a detour pays its hops but not its
 * penalty, so the detours of successive switches add up (path 1 is up to 4
 * hops longer than minimal on an 8x8 torus). Tree 0 has no penalties: it is
 * a minimal-hop tree. */
/* Weight, in hops, of each earlier use of a port (seed 001's notes suggest
 * minimal + 2): heavier weights buy little disjointness and need more VL
 * layers (4x4 torus, LMC 2: 4 layers with 2, 5 with 4). */
#define DETOUR 2

static void tree(const sim_t *s, uint32_t t, const uint32_t *mark, const uint32_t *load, uint32_t *key, uint32_t *hops,
                 uint8_t *next, heap_t *h)
{
    uint32_t S = s->nswitches;
    for (uint32_t w = 0; w < S; w++) { key[w] = hops[w] = UINT32_MAX; next[w] = IB_NO_PORT; }
    key[t] = hops[t] = 0;
    h->n = 0;
    hpush(h, t);
    while (h->n) {
        uint64_t e = hpop(h);
        uint32_t u = (uint32_t)e;
        if ((uint32_t)(e >> 32) != key[u]) continue;                 /* superseded */
        if (u != t) {
            if (hops[u] != UINT32_MAX) continue;                     /* already in the tree */
            hops[u] = hops[s->port[s->port[s->sw[u].port0 + next[u]].peer].dev] + 1;
        }
        for (uint32_t p = 0; p < s->sw[u].nports; p++) {
            uint32_t w = ib_peer_dev(s, u, p);
            if (w == ICN_NIL || (w & NIC_BIT) || w == t || hops[w] != UINT32_MAX) continue;
            uint32_t wp = s->port[s->port[s->sw[u].port0 + p].peer].local, gw = s->sw[w].port0 + wp;
            uint32_t cost = hops[u] + 1 + DETOUR * mark[gw];
            if (cost < key[w] || (cost == key[w] && load[gw] < load[s->sw[w].port0 + next[w]])) {
                if (cost < key[w]) hpush(h, (uint64_t)cost << 32 | w);
                key[w] = cost;
                next[w] = (uint8_t)wp;
            }
        }
    }
}

/* Greedy layering of every route (see above); returns the layers used. */
static uint32_t layer(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    /* a layer is an SL, and InfiniBand has 16 (SL-to-VL tables have 16 entries) */
    uint32_t L = s->nvc < IB_NSL ? s->nvc : IB_NSL, used = 1;
    cdg_t *g = xmalloc(L * sizeof *g);
    for (uint32_t l = 0; l < L; l++) cdg_init(&g[l], s, 1);
    uint8_t *has = xcalloc(s->nswitches, 1);
    for (uint32_t n = 0; n < s->nnodes; n++) has[ib->leaf[n]] = 1;
    uint32_t *edge = xmalloc(3 * (s->nswitches + 1) * sizeof *edge);
    cdg_walk_t walk = { 0 };
    for (uint32_t src = 0; src < s->nswitches; src++) {
        if (!has[src]) continue;
        for (uint32_t lid = 1; lid < ib->nlid; lid++) {
            if (ib->owner[lid] == ICN_NIL) continue;
            uint32_t l = 0;
            for (;; l++) {
                if (l == L && L == IB_NSL)
                    cfg_fail(c, K_IB_LMC, "dfs-disjoint: the routes need more than %u layers to be free of credit loops, and a "
                             "layer is an SL, of which InfiniBand has %u; lower ib.lmc", L, IB_NSL);
                if (l == L) cfg_fail(c, K_SW_VCS, "dfs-disjoint: the routes need more than %u VL layers to be free of credit loops; raise switch.vcs or lower ib.lmc", L);
                uint32_t ne = 0, w = src, prev = ICN_NIL;
                for (uint32_t hop = 0; hop <= s->nswitches; hop++) {   /* add the route's new dependencies */
                    uint32_t p = ib_lft(ib, w, lid), gp = s->sw[w].port0 + p;
                    if (prev != ICN_NIL && cdg_add(&g[l], prev, 0, p, 0)) {
                        edge[3 * ne] = prev; edge[3 * ne + 1] = p; edge[3 * ne + 2] = gp; ne++;
                    }
                    prev = gp;
                    uint32_t v = ib_peer_dev(s, w, p);
                    if (v & NIC_BIT) break;
                    w = v;
                }
                /* The layer was acyclic: a cycle now runs through a new edge prev -> gp, so gp reaches prev. */
                uint32_t k = 0;
                while (k < ne && !cdg_reaches(&g[l], s, edge[3 * k + 2], edge[3 * k], &walk)) k++;
                if (k == ne) break;
                for (k = 0; k < ne; k++) cdg_del(&g[l], edge[3 * k], 0, edge[3 * k + 1], 0);
            }
            ib->sl[(size_t)src * ib->nlid + lid] = (uint8_t)l;
            if (l + 1 > used) used = l + 1;
        }
    }
    for (uint32_t l = 0; l < L; l++) cdg_free(&g[l]);
    free(g); free(has); free(edge);
    cdg_walk_free(&walk);
    return used;
}

void ib_engine_dfs(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    uint32_t S = s->nswitches;
    uint32_t *mark = xcalloc(s->nports, sizeof *mark), *load = xcalloc(s->nports, sizeof *load);
    uint32_t *dist = xmalloc(S * sizeof *dist), *hops = xmalloc(S * sizeof *hops);
    uint8_t *next = xmalloc(S), *done = xcalloc(S, 1);
    uint32_t *at = xmalloc(s->nnodes * sizeof *at), nat;   /* the CAs of the tree's leaf, in node order */
    heap_t h = { xmalloc((size_t)s->nports * sizeof(uint64_t) + 8), 0 };
    ib_fill_local(ib, s);
    for (uint32_t n0 = 0; n0 < s->nnodes; n0++) {
        uint32_t t = ib->leaf[n0];
        if (done[t]) continue;
        done[t] = 1;
        nat = 0;
        for (uint32_t n = n0; n < s->nnodes; n++)
            if (ib->leaf[n] == t) at[nat++] = n;
        memset(mark, 0, s->nports * sizeof *mark);
        for (uint32_t i = 0; i < (1u << ib->lmc); i++) {
            tree(s, t, mark, load, dist, hops, next, &h);
            for (uint32_t w = 0; w < S; w++) {
                if (next[w] == IB_NO_PORT) continue;
                mark[s->sw[w].port0 + next[w]]++;
                for (uint32_t k = 0; k < nat; k++) {
                    ib_set(ib, w, ib->base[at[k]] + i, next[w]);
                    load[s->sw[w].port0 + next[w]]++;
                }
            }
        }
    }
    free(mark); free(load); free(dist); free(hops); free(next); free(done); free(h.a); free(at);
    if (ib_check_reach(ib, s, stderr)) cfg_fail(c, K_IB_ENGINE, "dfs-disjoint left the fabric partly unreachable (is it connected?)");
    ib_alloc_sl(ib, s, s->nvc);
    for (uint32_t g = 0; g < s->nports; g++)
        for (uint32_t sl = 0; sl < IB_NSL; sl++) ib->sl2vl[(size_t)g * IB_NSL + sl] = (uint8_t)(sl < s->nvc ? sl : 0);
    ib->nvl = layer(ib, s, c);   /* VL = SL = layer < layers used */
    if (s->nvc == 1) {   /* one layer: no SLs needed, the queuing scheme's VC is kept */
        free(ib->sl); free(ib->sl2vl);
        ib->sl = ib->sl2vl = NULL;
    }
}
