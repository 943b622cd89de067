/* LID assignment, table allocation and LFT walks (see subnet.h). */
#include "subnet.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

int ib_assign_lids(ib_subnet_t *ib, const sim_t *s, uint32_t lmc, const uint32_t *given, uint32_t *bad)
{
    ib->lmc = lmc;
    ib->base = xmalloc((size_t)s->nnodes * sizeof *ib->base);
    uint32_t span = 1u << lmc, top = 0;
    for (uint32_t n = 0; n < s->nnodes; n++) {
        uint64_t b = given ? given[n] : ((uint64_t)n + 1) << lmc;
        if (b == 0 || b % span || b + span - 1 > IB_LID_MAX) { *bad = n; return -1; }
        ib->base[n] = (uint32_t)b;
        if (b + span > top) top = (uint32_t)(b + span);
    }
    ib->nlid = top;
    ib->owner = xmalloc((size_t)top * sizeof *ib->owner);
    for (uint32_t l = 0; l < top; l++) ib->owner[l] = ICN_NIL;
    for (uint32_t n = 0; n < s->nnodes; n++)
        for (uint32_t i = 0; i < span; i++) {
            if (ib->owner[ib->base[n] + i] != ICN_NIL) { *bad = n; return -1; }   /* overlapping LID ranges */
            ib->owner[ib->base[n] + i] = n;
        }
    return 0;
}

void ib_alloc_tables(ib_subnet_t *ib, const sim_t *s)
{
    ib->lft = xmalloc((size_t)s->nswitches * ib->nlid);
    memset(ib->lft, IB_NO_PORT, (size_t)s->nswitches * ib->nlid);
    ib->leaf = xmalloc((size_t)s->nnodes * sizeof *ib->leaf);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        uint32_t g = s->port[s->nic[n].port].peer;
        ib->leaf[n] = s->port[g].dev;
    }
    ib->nvl = 1;
}

void ib_alloc_sl(ib_subnet_t *ib, const sim_t *s, uint32_t nvl)
{
    ib->sl = xcalloc((size_t)s->nswitches * ib->nlid, 1);
    ib->sl2vl = xcalloc((size_t)s->nports * IB_NSL, 1);
    ib->nvl = nvl;
}

void ib_free(ib_subnet_t *ib)
{
    if (!ib) return;
    free(ib->base); free(ib->owner); free(ib->lft); free(ib->sl); free(ib->sl2vl); free(ib->leaf);
    memset(ib, 0, sizeof *ib);
}

int ib_walk(const ib_subnet_t *ib, const sim_t *s, uint32_t from, uint32_t lid, uint32_t *where)
{
    uint32_t w = from, dst = ib->owner[lid];
    for (int hops = 1; hops <= (int)s->nswitches; hops++) {
        uint32_t p = ib_lft(ib, w, lid);
        *where = w;
        if (p == IB_NO_PORT || p >= s->sw[w].nports) return -1;
        uint32_t d = ib_peer_dev(s, w, p);
        if (d == ICN_NIL) return -1;
        if (d & NIC_BIT) return (d & ~NIC_BIT) == dst ? hops : -1;
        w = d;
    }
    return -1;
}

int ib_check_reach(const ib_subnet_t *ib, const sim_t *s, FILE *f)
{
    uint8_t *has = xcalloc(s->nswitches, 1);
    for (uint32_t n = 0; n < s->nnodes; n++) has[ib->leaf[n]] = 1;
    int rc = 0;
    for (uint32_t w = 0; w < s->nswitches && !rc; w++) {
        if (!has[w]) continue;
        for (uint32_t lid = 1; lid < ib->nlid && !rc; lid++) {
            if (ib->owner[lid] == ICN_NIL) continue;
            uint32_t at;
            if (ib_walk(ib, s, w, lid, &at) < 0) {
                uint32_t p = ib_lft(ib, at, lid);
                fprintf(f, "the forwarding tables do not deliver LID 0x%04x (node %u) from switch %u: switch %u %s\n", lid,
                        ib->owner[lid], w, at, p == IB_NO_PORT ? "has no entry for it" : "forwards it in a loop or to the wrong port");
                rc = -1;
            }
        }
    }
    free(has);
    return rc;
}
