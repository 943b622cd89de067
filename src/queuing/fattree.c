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
 *            leaf(D) mod K, so the readings agree when Q divides K (not
 *            otherwise: Q = 4, K = 6, leaf 7 gets 3, then 1); under adaptive routing at
 *            stage 2 over all K ports, one destination spreads over every VC.
 *
 * The source-dependent readings take the words "same source switch (group)
 * and same destination switch (group): same queue" literally, as the vFtree
 * patent does (US 9,325,619, claim 1: one VL per source-leaf / destination-
 * leaf pair, so that destination leaves sharing a source leaf's up-link get
 * different VLs):
 *   vftree-sd   VC = (leaf(D) - leaf(S)) mod Q
 *   flow2sl-sd  VC = (group(D) - group(S)) mod Q, group(x) = floor(x * Q / N)
 * Within the flows of one source leaf (group) they split exactly as the
 * destination-only readings, only with the VCs relabelled; so every upward
 * buffer fed by a single source leaf sees the same partition. They differ
 * where flows of several source leaves (groups) meet: at the top switches
 * (vFtree) and in every downward buffer. */
#include "../net/policy.h"
#include "../topo/fattree.h"

static void setup_ft(sim_t *s, cfg_t *c)
{
    if (!fattree_get(s))
        cfg_fail(c, K_QUEUING, "this queuing scheme is defined on fat-trees; topology.type is '%s'", s->topo->name);
}

/* The leaf switch of node n (a one-stage tree has one). */
static uint32_t leaf_of(const fattree_t *ft, uint32_t n)
{
    return ft->T == 1 ? 0 : n / ft->K;
}

static uint8_t vc_vftree(const sim_t *s, uint32_t src, uint32_t dst)
{
    (void)src;
    const fattree_t *ft = s->topo_data;
    return (uint8_t)(leaf_of(ft, dst) % s->nsqs);
}

static uint8_t vc_flow2sl(const sim_t *s, uint32_t src, uint32_t dst)
{
    (void)src;
    return (uint8_t)((uint64_t)dst * s->nsqs / s->nnodes);
}

/* (a - b) mod q for a, b already reduced mod q. */
static uint8_t diff_mod(uint32_t a, uint32_t b, uint32_t q)
{
    return (uint8_t)((a + q - b) % q);
}

static uint8_t vc_vftree_sd(const sim_t *s, uint32_t src, uint32_t dst)
{
    const fattree_t *ft = s->topo_data;
    return diff_mod(leaf_of(ft, dst) % s->nsqs, leaf_of(ft, src) % s->nsqs, s->nsqs);
}

static uint8_t vc_flow2sl_sd(const sim_t *s, uint32_t src, uint32_t dst)
{
    return diff_mod(vc_flow2sl(s, 0, dst), vc_flow2sl(s, 0, src), s->nsqs);
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
const queuing_ops queuing_vftree_hop = { .name = "vftree-hop", .desc = "vFtree, destination-only per-hop reading: leaf(D) mod Q, then the stage-2 up port mod Q (fat-trees; see docs/FATTREE.md)",
                                         .setup = setup_ft, .vc = vc_vftree, .hop = hop_vftree };
const queuing_ops queuing_vftree = { .name = "vftree", .desc = "vFtree (Guay et al.), destination-only reading: VC = leaf(D) mod Q (fat-trees)", .setup = setup_ft, .vc = vc_vftree };
const queuing_ops queuing_vftree_sd = { .name = "vftree-sd", .desc = "vFtree, source-dependent reading (US 9,325,619): VC = (leaf(D) - leaf(S)) mod Q (fat-trees; see docs/FATTREE.md)",
                                        .setup = setup_ft, .vc = vc_vftree_sd };
const queuing_ops queuing_flow2sl_sd = { .name = "flow2sl-sd", .desc = "Flow2SL, source-dependent reading: VC = (group(D) - group(S)) mod Q, Q groups of consecutive nodes (fat-trees)",
                                         .setup = setup_ft, .vc = vc_flow2sl_sd };
const queuing_ops queuing_flow2sl = { .name = "flow2sl", .desc = "Flow2SL (Escudero-Sahuquillo et al.), destination-only reading: VC = group(D) = floor(D * Q / N) (fat-trees)", .setup = setup_ft, .vc = vc_flow2sl };
