/* Up*-down* (updn): switches are ranked by hop distance from the roots (ties by
 * index); a link leads up towards the lower (rank, index). A legal route
 * climbs zero or more up links, then only goes down, so no cycle of channel
 * dependencies can form and one VL suffices on any topology.
 *
 * Roots: ib.root (switch indices), else on a fat-tree its top stage (what
 * OpenSM's automatic root detection finds there); on other fabrics with
 * switches that have no CAs, all of those whose largest distance to a switch
 * with CAs is smallest (a file's fat-tree: its top stage); else the single
 * switch with that smallest largest distance (lowest index on ties). Several
 * roots can cut a fabric (a root with only down links never leads to
 * another): default roots that do are replaced by that single switch, and
 * roots given in ib.root that do are refused, naming the key.
 *
 * Per destination switch t a breadth-first search backwards from t labels
 * each switch D (its route only goes down) or U (it first climbs): a switch
 * may step down only to a D switch, up to any. Each switch then takes, among
 * the ports to its next-hop switches one level closer, the least loaded, so
 * every route a LFT produces is legal and each switch's own is as short as
 * the rule allows. One entry per switch serves every route through it, so
 * a switch whose shortest route climbs is U even if a longer all-down one
 * exists, and a switch that may only descend to it is cut off. For such a
 * destination the labels are made again down first (label_down_first):
 * every switch with an all-down route is D, on its shortest such, and the
 * others climb; that reaches every switch up*-down* can route. */
#include "engine.h"
#include "../net/policy.h"
#include "../topo/fattree.h"
#include "../core/util.h"
#include <stdlib.h>

static void default_roots(const sim_t *s, uint32_t *root, uint32_t *nroot, int single)
{
    const fattree_t *ft = fattree_get(s);
    *nroot = 0;
    if (ft && !single) {
        for (uint32_t w = 0; w < s->nswitches; w++)
            if (ft->stage[w] == ft->T) root[(*nroot)++] = w;
        return;
    }
    uint16_t *dist = ib_switch_dist(s);
    uint8_t *has = xcalloc(s->nswitches, 1);
    for (uint32_t n = 0; n < s->nnodes; n++) has[s->port[s->port[s->nic[n].port].peer].dev] = 1;
    uint32_t *ecc = xcalloc(s->nswitches, sizeof *ecc), best = UINT32_MAX, spine = 0;
    for (uint32_t w = 0; w < s->nswitches; w++) {
        for (uint32_t v = 0; v < s->nswitches; v++)
            if (has[v] && dist[(size_t)w * s->nswitches + v] > ecc[w]) ecc[w] = dist[(size_t)w * s->nswitches + v];
        if (!has[w]) spine = 1;
    }
    if (single) spine = 0;
    /* a fabric with switches without CAs (a fat-tree read from a file): every such switch of least eccentricity */
    for (uint32_t w = 0; w < s->nswitches; w++) if ((!spine || !has[w]) && ecc[w] < best) best = ecc[w];
    for (uint32_t w = 0; w < s->nswitches; w++)
        if ((spine ? !has[w] : *nroot == 0) && ecc[w] == best) root[(*nroot)++] = w;
    free(ecc);
    free(dist); free(has);
}

static inline int leads_up(const uint32_t *rank, uint32_t a, uint32_t b)   /* a -> b */
{
    return rank[b] < rank[a] || (rank[b] == rank[a] && b < a);
}

/* The labels for destination switch dst, down first (see the top): a search
 * backwards from dst over down steps gives the D switches and their next
 * hops (mdown); then one over up steps, from every labelled switch in order
 * of distance, gives the U switches' (mup). dist[], down_only[], mdown[] and
 * mup[] are rewritten; q holds S entries. */
static void label_down_first(const sim_t *s, const uint32_t *rank, uint32_t dst, uint32_t *dist, uint8_t *down_only,
                             uint64_t *mdown, uint64_t *mup, uint32_t *q)
{
    uint32_t S = s->nswitches, t = 0;
    for (uint32_t w = 0; w < S; w++) { dist[w] = UINT32_MAX; down_only[w] = 0; mdown[w] = mup[w] = 0; }
    dist[dst] = 0;
    q[t++] = dst;
    for (uint32_t h = 0; h < t; h++) {   /* D: w steps down to u, a D switch */
        uint32_t u = q[h];
        down_only[u] = 1;
        for (uint32_t p = 0; p < s->sw[u].nports; p++) {
            uint32_t w = ib_peer_dev(s, u, p);
            if (w == ICN_NIL || (w & NIC_BIT) || leads_up(rank, w, u)) continue;
            if (dist[w] != UINT32_MAX && dist[w] != dist[u] + 1) continue;
            if (dist[w] == UINT32_MAX) { dist[w] = dist[u] + 1; q[t++] = w; }
            mdown[w] |= (uint64_t)1 << s->port[s->port[s->sw[u].port0 + p].peer].local;
        }
    }
    /* U: w climbs to u, any labelled switch; the D switches q[0, nd) and the
     * U ones appended after are each in distance order, taken merged */
    uint32_t nd = t, a = 0, b = nd;
    while (a < nd || b < t) {
        uint32_t u = b == t || (a < nd && dist[q[a]] <= dist[q[b]]) ? q[a++] : q[b++];
        for (uint32_t p = 0; p < s->sw[u].nports; p++) {
            uint32_t w = ib_peer_dev(s, u, p);
            if (w == ICN_NIL || (w & NIC_BIT) || !leads_up(rank, w, u) || down_only[w]) continue;
            if (dist[w] != UINT32_MAX && dist[w] != dist[u] + 1) continue;
            if (dist[w] == UINT32_MAX) { dist[w] = dist[u] + 1; q[t++] = w; }
            mup[w] |= (uint64_t)1 << s->port[s->port[s->sw[u].port0 + p].peer].local;
        }
    }
}

/* Rank the switches by distance from the roots and fill every LFT entry
 * with a legal route. Returns the first switch with CAs that some switch
 * with CAs cannot reach by up*-down* (several roots can cut a fabric: a root
 * with only down links never leads to another), or ICN_NIL; *from: that switch. */
static uint32_t route_all(ib_subnet_t *ib, sim_t *s, const uint32_t *root, uint32_t nroot, uint32_t *from)
{
    uint32_t S = s->nswitches, cut = ICN_NIL;
    uint32_t *rank = xmalloc(S * sizeof *rank), *q = xmalloc(S * sizeof *q);
    /* ranks: multi-source BFS from the roots */
    for (uint32_t w = 0; w < S; w++) rank[w] = UINT32_MAX;
    uint32_t h = 0, t = 0;
    for (uint32_t i = 0; i < nroot; i++) if (rank[root[i]]) { rank[root[i]] = 0; q[t++] = root[i]; }
    while (h < t) {
        uint32_t w = q[h++];
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t v = ib_peer_dev(s, w, p);
            if (v == ICN_NIL || (v & NIC_BIT) || rank[v] != UINT32_MAX) continue;
            rank[v] = rank[w] + 1;
            q[t++] = v;
        }
    }
#define UP(a, b) leads_up(rank, a, b)
    uint32_t *dist = xmalloc(S * sizeof *dist);
    uint8_t *down_only = xmalloc(S);
    uint64_t *mdown = xmalloc(S * sizeof *mdown), *mup = xmalloc(S * sizeof *mup), *used = xmalloc(S * sizeof *used);
    uint32_t *fr = xmalloc(S * sizeof *fr), *nx = xmalloc(S * sizeof *nx);
    ib_load_t ld = { xcalloc(s->nports, sizeof(uint32_t)) };
    uint8_t *done_sw = xcalloc(S, 1);
    ib_fill_local(ib, s);
    for (uint32_t n0 = 0; n0 < s->nnodes; n0++) {
        uint32_t dst = ib->leaf[n0];
        if (done_sw[dst]) continue;      /* one search per destination switch serves all its CAs */
        done_sw[dst] = 1;
        for (uint32_t w = 0; w < S; w++) { dist[w] = UINT32_MAX; mdown[w] = mup[w] = 0; }
        dist[dst] = 0; down_only[dst] = 1;
        uint32_t nf = 0, level = 0;
        fr[nf++] = dst;
        while (nf) {
            uint32_t nn = 0;
            for (uint32_t k = 0; k < nf; k++) {
                uint32_t u = fr[k];
                for (uint32_t p = 0; p < s->sw[u].nports; p++) {
                    uint32_t w = ib_peer_dev(s, u, p);
                    if (w == ICN_NIL || (w & NIC_BIT)) continue;
                    if (dist[w] != UINT32_MAX && dist[w] != level + 1) continue;
                    uint32_t wp = s->port[s->port[s->sw[u].port0 + p].peer].local;   /* w's port towards u */
                    int ok_down = !UP(w, u) && down_only[u], ok_up = UP(w, u);
                    if (!ok_down && !ok_up) continue;
                    if (dist[w] == UINT32_MAX) { dist[w] = level + 1; nx[nn++] = w; }
                    if (ok_down) mdown[w] |= (uint64_t)1 << wp;
                    else mup[w] |= (uint64_t)1 << wp;
                }
            }
            for (uint32_t k = 0; k < nn; k++) down_only[nx[k]] = mdown[nx[k]] != 0;
            for (uint32_t k = 0; k < nn; k++) fr[k] = nx[k];
            nf = nn;
            level++;
        }
        int unreached = 0;
        for (uint32_t n = 0; n < s->nnodes && !unreached; n++) unreached = dist[ib->leaf[n]] == UINT32_MAX;
        if (unreached) label_down_first(s, rank, dst, dist, down_only, mdown, mup, q);
        for (uint32_t n = 0; n < s->nnodes && cut == ICN_NIL; n++)
            if (dist[ib->leaf[n]] == UINT32_MAX) { cut = dst; *from = ib->leaf[n]; }
        for (uint32_t n = n0; n < s->nnodes; n++) {
            if (ib->leaf[n] != dst) continue;
            for (uint32_t w = 0; w < S; w++) used[w] = 0;
            for (uint32_t i = 0; i < (1u << ib->lmc); i++)
                for (uint32_t w = 0; w < S; w++) {
                    if (w == dst || dist[w] == UINT32_MAX) continue;
                    uint32_t p = ib_pick(s, &ld, w, down_only[w] ? mdown[w] : mup[w], used[w]);
                    used[w] |= (uint64_t)1 << p;
                    ib_set(ib, w, ib->base[n] + i, p);
                }
        }
    }
#undef UP
    free(rank); free(q); free(dist); free(down_only); free(mdown); free(mup); free(used);
    free(fr); free(nx); free(ld.n); free(done_sw);
    return cut;
}

void ib_engine_updn(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    uint32_t S = s->nswitches, nroot, from;
    uint32_t *root = xmalloc(S * sizeof *root);
    int given = cfg_is_set(c, K_IB_ROOT);
    if (given) nroot = ib_parse_switches(c, K_IB_ROOT, s, root, S);
    else { cfg_str(c, K_IB_ROOT); default_roots(s, root, &nroot, 0); }
    if (!nroot) cfg_fail(c, K_IB_ROOT, "updn needs at least one root switch");
    uint32_t cut = route_all(ib, s, root, nroot, &from);
    if (cut != ICN_NIL && !given && nroot > 1) {   /* the switches without CAs do not form a top: one central root */
        default_roots(s, root, &nroot, 1);
        cut = route_all(ib, s, root, nroot, &from);
    }
    if (cut != ICN_NIL)
        cfg_fail(c, K_IB_ROOT, "up*/down* from these %u roots cannot route from switch %u to switch %u (a root with only "
                 "down links never leads to another root): give one root, or roots at one level of the fabric", nroot, from, cut);
    free(root);
}
