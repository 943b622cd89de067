/* minhop: every switch forwards each LID on a minimal-hop port: for the
 * 2^LMC LIDs of one CA a minimal port not yet used by its other LIDs while
 * one is left (OpenSM too spreads a CA's LIDs before balancing), and among
 * those the one with the fewest LIDs routed so far (OpenSM's port counters).
 * Minimal on any topology; credit loops are possible (tori, meshes with
 * uneven choices): the check reports them. */
#include "engine.h"
#include "../core/util.h"
#include <stdlib.h>

void ib_engine_minhop(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    (void)c;
    uint32_t S = s->nswitches;
    uint16_t *dist = ib_switch_dist(s);
    ib_load_t ld = { xcalloc(s->nports, sizeof(uint32_t)) };
    uint64_t *used = xcalloc(S, sizeof *used);
    ib_fill_local(ib, s);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        uint32_t t = ib->leaf[n];
        for (uint32_t w = 0; w < S; w++) used[w] = 0;
        for (uint32_t i = 0; i < (1u << ib->lmc); i++)
            for (uint32_t w = 0; w < S; w++) {
                uint32_t dw = dist[(size_t)w * S + t];
                if (w == t || dw == 0xFFFF) continue;
                uint64_t mask = 0;
                for (uint32_t p = 0; p < s->sw[w].nports; p++) {
                    uint32_t v = ib_peer_dev(s, w, p);
                    if (v != ICN_NIL && !(v & NIC_BIT) && dist[(size_t)v * S + t] + 1u == dw) mask |= (uint64_t)1 << p;
                }
                uint64_t fresh = mask & ~used[w];   /* ports the CA's other LIDs do not take, before any load */
                uint32_t p = ib_pick(s, &ld, w, fresh ? fresh : mask, used[w]);
                used[w] |= (uint64_t)1 << p;
                ib_set(ib, w, ib->base[n] + i, p);
            }
    }
    free(used); free(ld.n); free(dist);
}
