/* Static queuing schemes designed for fat-trees with D-mod-K routing. Both
 * papers (vFtree: Guay et al., IPDPS 2011; Flow2SL: Escudero-Sahuquillo et
 * al., JPDC 2014) describe the mapping in words only; docs/FATTREE.md gives
 * the reading implemented here and the evidence for it (seed 002, Table 2:
 * the four hot-spots of HS-4 leave exactly one VC clean under vFtree and none
 * under Flow2SL and DBBM, which only a destination-only mapping produces).
 *
 *   vftree   VC = leaf(D) mod Q: flows to the same destination leaf switch
 *            share a queue, flows to Q consecutive destination leaves use Q
 *            different queues.
 *   flow2sl  VC = floor(D * Q / N): Q groups of consecutive destinations, one
 *            queue per group.
 *   vftree-hop  an alternative reading of vFtree, kept to test it against
 *            seed 002's tables (docs/FATTREE.md): the VC is leaf(D) mod Q up
 *            to the stage-2 switch, where the packet moves to VC (u mod Q) of
 *            the up port u it takes, and keeps it down. Under D-mod-K u is
 *            leaf(D) mod K, so both readings agree; under adaptive routing at
 *            stage 2 over all K ports, one destination spreads over every VC. */
#include "../net/policy.h"
#include "../topo/fattree.h"

static void setup_ft(sim_t *s, cfg_t *c)
{
    if (!fattree_get(s))
        cfg_fail(c, K_QUEUING, "this queuing scheme is defined on fat-trees; topology.type is '%s'", s->topo->name);
}

static uint8_t vc_vftree(const sim_t *s, uint32_t src, uint32_t dst)
{
    (void)src;
    const fattree_t *ft = s->topo_data;
    uint32_t leaf = ft->T == 1 ? 0 : dst / ft->K;
    return (uint8_t)(leaf % s->nsqs);
}

static uint8_t vc_flow2sl(const sim_t *s, uint32_t src, uint32_t dst)
{
    (void)src;
    return (uint8_t)((uint64_t)dst * s->nsqs / s->nnodes);
}

static uint8_t hop_vftree(const sim_t *s, uint32_t w, uint32_t out, const packet_t *p)
{
    const fattree_t *ft = s->topo_data;
    if (ft->stage[w] == 2 && fattree_is_up(ft, w, out)) return (uint8_t)((out - ft->K) % s->nsqs);
    return p->vc;
}

/* The top-level subtree (pod) of node d in a fat-tree of 3 or more stages:
 * the destinations one top switch reaches under D-mod-K lie one per pod. */
static uint32_t pod_of(const fattree_t *ft, uint32_t d)
{
    return ft->T >= 3 ? d / ft->kpow[ft->T - 1] : 0;
}

static uint8_t vc_vftree_pod(const sim_t *s, uint32_t src, uint32_t dst)
{
    const fattree_t *ft = s->topo_data;
    return (uint8_t)((vc_vftree(s, src, dst) + pod_of(ft, dst)) % s->nsqs);
}

static uint8_t hop_vftree_pod(const sim_t *s, uint32_t w, uint32_t out, const packet_t *p)
{
    const fattree_t *ft = s->topo_data;
    if (ft->stage[w] == 2 && fattree_is_up(ft, w, out)) return (uint8_t)((out - ft->K + pod_of(ft, p->dst)) % s->nsqs);
    return p->vc;
}

const queuing_ops queuing_vftree_pod = { .name = "vftree-pod", .desc = "vFtree, per-hop reading spread over pods: (leaf(D) + pod(D)) mod Q, then (stage-2 up port + pod(D)) mod Q (fat-trees; see docs/FATTREE.md)",
                                         .setup = setup_ft, .vc = vc_vftree_pod, .hop = hop_vftree_pod };
const queuing_ops queuing_vftree_hop = { .name = "vftree-hop", .desc = "vFtree, per-hop reading: leaf(D) mod Q, then the stage-2 up port mod Q (fat-trees; see docs/FATTREE.md)",
                                         .setup = setup_ft, .vc = vc_vftree, .hop = hop_vftree };
const queuing_ops queuing_vftree = { .name = "vftree", .desc = "vFtree (Guay et al.): VC = destination leaf switch mod Q (fat-trees)", .setup = setup_ft, .vc = vc_vftree };
const queuing_ops queuing_flow2sl = { .name = "flow2sl", .desc = "Flow2SL (Escudero-Sahuquillo et al.): Q groups of consecutive destinations, VC = group (fat-trees)", .setup = setup_ft, .vc = vc_flow2sl };
