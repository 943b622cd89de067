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
 *            queue per group. */
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

const queuing_ops queuing_vftree = { "vftree", "vFtree (Guay et al.): VC = destination leaf switch mod Q (fat-trees)", setup_ft, vc_vftree };
const queuing_ops queuing_flow2sl = { "flow2sl", "Flow2SL (Escudero-Sahuquillo et al.): Q groups of consecutive destinations, VC = group (fat-trees)", setup_ft, vc_flow2sl };
