/* ib.report: figures of a subnet's routes, to compare engines (and OpenSM's
 * tables read from a dump) on one fabric. */
#include "report.h"
#include "cdg.h"
#include "engine.h"
#include "../core/util.h"
#include <stdlib.h>

void ib_report(const ib_subnet_t *ib, const sim_t *s, const char *engine, FILE *f)
{
    uint16_t *dist = ib_switch_dist(s);
    uint32_t *lids = xcalloc(s->nports, sizeof *lids);
    uint64_t routes = 0, ok = 0, minimal = 0, hops = 0;
    uint32_t hmax = 0;
    /* A route from a CA is its leaf switch's: walk each once, counted for every CA on that leaf. */
    uint32_t *cas = xcalloc(s->nswitches, sizeof *cas);
    for (uint32_t a = 0; a < s->nnodes; a++) cas[ib->leaf[a]]++;
    for (uint32_t w = 0; w < s->nswitches; w++) {
        if (!cas[w]) continue;
        for (uint32_t lid = 1; lid < ib->nlid; lid++) {
            uint32_t b = ib->owner[lid], at;
            if (b == ICN_NIL) continue;
            routes += cas[w];
            int h = ib_walk(ib, s, w, lid, &at);
            if (h < 0) continue;
            ok += cas[w];
            hops += (uint64_t)h * cas[w];
            if ((uint32_t)h > hmax) hmax = (uint32_t)h;
            if ((uint32_t)h == dist[(size_t)w * s->nswitches + ib->leaf[b]] + 1u) minimal += cas[w];
        }
    }
    free(cas);
    /* LIDs routed through each inter-switch port (path balance) */
    uint32_t pmax = 0, np = 0;
    uint64_t psum = 0;
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t lid = 1; lid < ib->nlid; lid++) {
            uint32_t p = ib_lft(ib, w, lid);
            if (ib->owner[lid] != ICN_NIL && p != IB_NO_PORT && p < s->sw[w].nports) lids[s->sw[w].port0 + p]++;
        }
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t d = ib_peer_dev(s, w, p);
            if (d == ICN_NIL || (d & NIC_BIT)) continue;
            uint32_t n = lids[s->sw[w].port0 + p];
            if (n > pmax) pmax = n;
            psum += n;
            np++;
        }
    FILE *null = fopen("/dev/null", "w");
    int loop = ib_credit_loops(ib, s, null ? null : stderr);
    if (null) fclose(null);
    fprintf(f, "ib: engine %s, LMC %u, %u switches, %u CAs: %llu of %llu routes delivered, %llu minimal; hops mean %.4f max %u; "
            "LIDs per inter-switch port max %u mean %.2f; VLs %u; credit loops %s\n",
            engine, ib->lmc, s->nswitches, s->nnodes, (unsigned long long)ok, (unsigned long long)routes, (unsigned long long)minimal,
            ok ? (double)hops / (double)ok : 0.0, hmax, pmax, np ? (double)psum / np : 0.0, ib->nvl, loop ? "yes" : "no");
    free(dist);
    free(lids);
}
