/* Fat-tree engines on icnsim's fat-trees (topology rlft, ntree).
 *
 * ftree, after OpenSM's: destinations in index order (leaf by leaf); for each
 * LID, from the destination's leaf upwards, each stage's switch takes the up
 * port whose upper switch has routed the fewest LIDs down towards it, and the
 * upper switch routes the LID down; then every switch below it without a
 * route for the LID is given the up port towards it. All routes to a LID
 * therefore converge on one top switch, as D-mod-K's do, with the choice
 * balanced by counters instead of by the digits of the destination. Switches
 * that no route from a CA to the LID crosses (those not below its top switch)
 * get an entry too: down towards the CA if it is below them, else the
 * least-loaded up port, so every table is complete and up-down.
 *
 * dmodk: fattree_dmodk_port() for LID offset 0; offset i rotates the up port
 * chosen at every stage by i (mod K), so the 2^LMC LIDs of a CA use
 * different top switches when K allows. */
#include "engine.h"
#include "../net/policy.h"
#include "../topo/fattree.h"
#include "../core/util.h"
#include <stdlib.h>

static const fattree_t *need_ftree(sim_t *s, cfg_t *c)
{
    const fattree_t *ft = fattree_get(s);
    if (!ft) cfg_fail(c, K_IB_ENGINE, "this engine routes fat-trees only (topology.type rlft or ntree); topology.type is '%s'", s->topo->name);
    return ft;
}

/* Give every switch below w (stage by stage) that has no route for lid the
 * up port towards the switch above it that has one. */
static void fill_below(ib_subnet_t *ib, sim_t *s, const fattree_t *ft, uint32_t w, uint32_t lid)
{
    if (ft->stage[w] == 1) return;
    for (uint32_t p = 0; p < s->sw[w].nports; p++) {
        if (fattree_is_up(ft, w, p)) continue;
        uint32_t v = ib_peer_dev(s, w, p);
        if (v == ICN_NIL || (v & NIC_BIT) || ib_lft(ib, v, lid) != IB_NO_PORT) continue;
        ib_set(ib, v, lid, s->port[s->port[s->sw[w].port0 + p].peer].local);
        fill_below(ib, s, ft, v, lid);
    }
}

void ib_engine_ftree(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    const fattree_t *ft = need_ftree(s, c);
    ib_load_t ld = { xcalloc(s->nports, sizeof(uint32_t)) };
    ib_fill_local(ib, s);
    for (uint32_t n = 0; n < s->nnodes; n++)
        for (uint32_t i = 0; i < (1u << ib->lmc); i++) {
            uint32_t lid = ib->base[n] + i, w = ib->leaf[n];
            uint32_t chain[10], nc = 0;
            chain[nc++] = w;
            while (ft->stage[w] < ft->T) {
                /* the up port whose upper switch's down port (towards w) carries the fewest LIDs */
                uint32_t best = IB_NO_PORT, bl = UINT32_MAX;
                for (uint32_t p = ft->K; p < s->sw[w].nports; p++) {
                    uint32_t peer = s->port[s->sw[w].port0 + p].peer;
                    if (peer != ICN_NIL && ld.n[peer] < bl) { bl = ld.n[peer]; best = p; }
                }
                uint32_t peer = s->port[s->sw[w].port0 + best].peer, v = s->port[peer].dev;
                ld.n[peer]++;
                ib_set(ib, v, lid, s->port[peer].local);
                w = v;
                chain[nc++] = w;
            }
            /* lower switches on the chain route down (set above); the rest go up towards the chain */
            for (uint32_t k = 1; k < nc; k++) fill_below(ib, s, ft, chain[k], lid);
            for (uint32_t v = 0; v < s->nswitches; v++) {
                if (ib_lft(ib, v, lid) != IB_NO_PORT) continue;
                uint32_t p = fattree_dmodk_port(ft, v, n);   /* the unique down port if n is below v */
                if (fattree_is_up(ft, v, p)) {
                    uint64_t up = 0;
                    for (uint32_t q = ft->K; q < s->sw[v].nports; q++) up |= (uint64_t)1 << q;
                    p = ib_pick(s, &ld, v, up, 0);
                }
                ib_set(ib, v, lid, p);
            }
        }
    free(ld.n);
}

void ib_engine_dmodk(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    const fattree_t *ft = need_ftree(s, c);
    for (uint32_t n = 0; n < s->nnodes; n++)
        for (uint32_t i = 0; i < (1u << ib->lmc); i++)
            for (uint32_t w = 0; w < s->nswitches; w++) {
                uint32_t p = fattree_dmodk_port(ft, w, n);
                /* offset i turns the stage-l up port by base-K digit l - 1 of i, so
                 * offsets up to K^(T-1) take different routes (not i mod K at every stage) */
                if (fattree_is_up(ft, w, p)) p = ft->K + (p - ft->K + i / ft->kpow[ft->stage[w] - 1]) % ft->K;
                ib_set(ib, w, ib->base[n] + i, p);
            }
}
