/* dor: dimension-order routes on icnsim's k-ary n-cubes as LFTs (OpenSM's
 * dor engine is minhop with the dimensions taken in order). A torus tie at
 * distance k/2 goes + for even LID offsets and - for odd ones, so LMC > 0
 * gives the two directions.
 *
 * Tori need VLs (a ring is a credit loop). A path's SL has bit d set iff it
 * crosses the wrap-around link of dimension d; the SL-to-VL table of a port
 * in dimension d maps SL to bit d. VL 1 of a ring is then used only by paths
 * that wrap, each over less than half the ring on both sides of the wrap
 * link, so the link opposite the wrap never carries VL 1; VL 0 never carries
 * the wrap link. Neither VL closes the ring, and dimensions are crossed in
 * order, so the channel dependency graph is acyclic (2 VLs, up to 4
 * dimensions for 16 SLs). Meshes need no VLs: the scheme's VC is kept. */
#include "engine.h"
#include "../net/policy.h"
#include "../topo/cube.h"

/* Direction in dimension d from coordinate x to y (1 = minus). */
static int dir(const cube_t *q, uint32_t d, uint32_t x, uint32_t y, uint32_t offset)
{
    if (!cube_wraps(q, d)) return y < x;
    uint32_t fwd = (y + q->k[d] - x) % q->k[d];
    if (2 * fwd != q->k[d]) return 2 * fwd > q->k[d];
    return (int)(offset & 1);
}

void ib_engine_dor(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    const cube_t *q = cube_get(s);
    if (!q) cfg_fail(c, K_IB_ENGINE, "dor routes k-ary n-cubes (torus, mesh); topology.type is '%s'", s->topo->name);
    if (q->torus) {
        if (q->n > 4) cfg_fail(c, K_IB_ENGINE, "dor on a torus uses one SL bit per dimension: at most 4 dimensions");
        if (s->nvc < 2) cfg_fail(c, K_SW_VCS, "dor on a torus needs 2 VLs (dateline classes); set switch.vcs = 2");
        ib_alloc_sl(ib, s, 2);
        for (uint32_t g = 0; g < s->nports; g++) {
            if (s->port[g].dev & NIC_BIT || s->port[g].local < q->c) continue;
            uint32_t d = (s->port[g].local - q->c) / 2;
            for (uint32_t sl = 0; sl < IB_NSL; sl++) ib->sl2vl[(size_t)g * IB_NSL + sl] = (uint8_t)((sl >> d) & 1);
        }
    }
    ib_fill_local(ib, s);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        uint32_t r = n / q->c;
        for (uint32_t i = 0; i < (1u << ib->lmc); i++) {
            uint32_t lid = ib->base[n] + i;
            for (uint32_t w = 0; w < s->nswitches; w++) {
                if (q->torus) {   /* the SL of the path from w */
                    uint32_t sl = 0;
                    for (uint32_t d = 0; d < q->n; d++) {
                        uint32_t x = cube_coord(q, w, d), y = cube_coord(q, r, d);
                        if (x == y) continue;
                        int m = dir(q, d, x, y, i);
                        if (m ? y > x : y < x) sl |= 1u << d;
                    }
                    ib->sl[(size_t)w * ib->nlid + lid] = (uint8_t)sl;
                }
                if (w == r) continue;
                uint32_t d = 0;
                while (cube_coord(q, w, d) == cube_coord(q, r, d)) d++;
                ib_set(ib, w, lid, cube_port(q, d, dir(q, d, cube_coord(q, w, d), cube_coord(q, r, d), i)));
            }
        }
    }
}
