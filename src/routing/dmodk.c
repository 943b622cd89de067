/* D-mod-K (Zahavi et al.): deterministic, destination-balanced fat-tree
 * routing. Going up at stage l the packet takes up port floor(D / K^(l-1))
 * mod K; the downward path is unique. All routes to one destination converge
 * on one top switch, and each port carries an equal share of destinations. */
#include "../net/policy.h"
#include "../topo/fattree.h"

static void setup(sim_t *s, cfg_t *c)
{
    if (!fattree_get(s))
        cfg_fail(c, K_ROUTING, "D-mod-K routes fat-trees only; topology.type is '%s'", s->topo->name);
}

static int route(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    (void)in;
    uint32_t port = fattree_dmodk_port(s->topo_data, w, p->dst);
    c[0] = (cand_t){ (uint8_t)port, hop_vc(s, w, port, p), FC_VCT, 0 };
    return 1;
}

const routing_ops routing_dmodk = { .name = "dmodk", .desc = "D-mod-K deterministic fat-tree routing", .setup = setup, .route = route,
                                   .hop_vcs = 1, .deterministic = 1 };
