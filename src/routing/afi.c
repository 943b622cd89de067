/* AFI, Adapted-Flow Isolation (seed 000), on fat-trees.
 *
 * The last VC of every buffer is the adapted-flow channel (AFC); the queuing
 * scheme maps packets onto the others. A packet routes by D-mod-K until, at
 * an upward hop, the downstream VC that D-mod-K would use is at least 75 %
 * full (free credits <= routing.ltth of the VC, default 25 %). It then takes
 * the other up port whose downstream AFC has the most free credits, enters the
 * AFC at the next switch and is "adapted": from there it stays in the AFC and
 * follows D-mod-K to its destination, so it adapts at most once. Being in the
 * AFC is the header bit of the paper: p->vc == AFC exactly for adapted packets.
 *
 * Choices the paper leaves open (docs/FATTREE.md): an alternative
 * must have room in its AFC for the packet, else the packet stays on its
 * D-mod-K port and VC; ties go to the first port after the D-mod-K one. */
#include "../net/policy.h"
#include "../topo/fattree.h"
#include "../core/util.h"

typedef struct afi { int32_t thr; } afi_t;

static void setup(sim_t *s, cfg_t *c)
{
    const fattree_t *ft = fattree_get(s);
    if (!ft) cfg_fail(c, K_ROUTING, "AFI works on fat-trees; topology.type is '%s'", s->topo->name);
    if (ft->T < 2) cfg_fail(c, K_ROUTING, "a single-switch fat-tree has no upward choice for AFI to adapt");
    if (s->flit_mode)   /* its trigger reads the packet model's credits, not the flit model's */
        cfg_fail(c, K_ROUTING, "AFI reads the packet model's credits: it runs with switch.model = packet, not flit");
    afi_t *a = xcalloc(1, sizeof *a);
    a->thr = (int32_t)(cfg_double(c, K_ROUTING_LTTH) * s->vc_cap_sw + 0.5);
    s->routing_data = a;
}

static int route(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    (void)in;
    const fattree_t *ft = s->topo_data;
    const afi_t *a = s->routing_data;
    uint32_t port = fattree_dmodk_port(ft, w, p->dst), afc = s->nvc - 1;
    if (p->vc == afc) {   /* adapted: stays in the AFC */
        c[0] = (cand_t){ (uint8_t)port, (uint8_t)afc, FC_VCT, 0 };
        return 1;
    }
    uint32_t ovc = hop_vc(s, w, port, p);
    if (fattree_is_up(ft, w, port)) {
        uint32_t K = ft->K, port0 = s->sw[w].port0, det = port - K;
        if (*credit(s, port0 + port, ovc) <= a->thr) {
            int32_t best = (int32_t)occ_bytes(s, p->size) - 1;
            for (uint32_t k = 1, u = det + 1 == K ? 0 : det + 1; k < K; k++, u = u + 1 == K ? 0 : u + 1) {
                int32_t cr = *credit(s, port0 + K + u, afc);
                if (cr > best) { best = cr; port = K + u; ovc = afc; }
            }
        }
    }
    c[0] = (cand_t){ (uint8_t)port, (uint8_t)ovc, FC_VCT, 0 };
    return 1;
}

const routing_ops routing_afi = {
    .name = "afi",
    .desc = "fat-trees, seed 000's Adapted-Flow Isolation: D-mod-K; adapts once, at >= 75 % occupancy, into the last VC (the AFC)",
    .setup = setup, .route = route, .reserved_vcs = 1, .hop_vcs = 1, .adaptive = 1 };
