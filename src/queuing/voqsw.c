/* VOQsw (Gomez, Flich, Robles, Lopez, Duato, IPDPS 2003): virtual output
 * queues at switch level, built from VCs. A packet waits in each input buffer
 * in the VC that stands for the output it will request at that switch, so
 * packets for different outputs never block each other inside a switch; as
 * in InfiniBand (where the SL-to-VL tables do it), the VC is chosen one hop
 * ahead: leaving switch w by port `out`, a packet takes the VC of the output
 * it will use at the next switch. That needs a routing known in advance, so
 * VOQsw runs with deterministic routing, D-mod-K only (the look-ahead is
 * D-mod-K's, so even lft's tables are refused). Unlike the VOQ switch
 * architecture (switch.voq), every queue has its own credits: a full queue
 * stops only the flows bound for its output. Output o maps onto VC o mod Q;
 * switch.vcs = the switch radix gives one queue per output. */
#include "../net/policy.h"
#include "../topo/fattree.h"

static void setup(sim_t *s, cfg_t *c)
{
    if (!fattree_get(s))
        cfg_fail(c, K_QUEUING, "voqsw looks ahead with D-mod-K, defined on fat-trees; topology.type is '%s'", s->topo->name);
    /* the look-ahead is D-mod-K's: any other routing, even a deterministic
     * one (lft's tables), would put packets in the queue of another output */
    extern const routing_ops routing_dmodk;
    if (s->routing != &routing_dmodk)
        cfg_fail(c, K_QUEUING, "voqsw chooses each VC from the output the packet will take at the next switch by D-mod-K, "
                 "which needs a deterministic routing that is D-mod-K (dmodk); routing.algorithm is '%s'", s->routing->name);
    uint32_t radix = 0;
    for (uint32_t w = 0; w < s->nswitches; w++)
        if (s->sw[w].nports > radix) radix = s->sw[w].nports;
    if (s->nsqs > radix)   /* output o takes VC o mod Q: VCs past the radix would only split the buffers */
        cfg_fail(c, K_SW_VCS, "voqsw gives output o the VC o mod %u; the switches have at most %u outputs, so VCs %u.. would "
                 "never be used", s->nsqs, radix, radix);
}

/* The VC for the buffer of switch w2: the output the packet takes there. */
static inline uint8_t queue_at(const sim_t *s, uint32_t w2, uint32_t dst)
{
    return (uint8_t)(fattree_dmodk_port(s->topo_data, w2, dst) % s->nsqs);
}

static uint8_t vc_inject(const sim_t *s, uint32_t src, uint32_t dst)
{
    return queue_at(s, s->port[s->port[s->nic[src].port].peer].dev, dst);
}

static uint8_t vc_hop(const sim_t *s, uint32_t w, uint32_t out, const packet_t *p)
{
    uint32_t dev = s->port[s->port[s->sw[w].port0 + out].peer].dev;
    return dev & NIC_BIT ? 0 : queue_at(s, dev, p->dst);   /* a NIC's input is a sink: any VC */
}

const queuing_ops queuing_voqsw = {
    .name = "voqsw",
    .desc = "VOQsw (Gomez et al.): one VC per output of the next switch, chosen a hop ahead (VC = output mod Q; D-mod-K)",
    .setup = setup, .vc = vc_inject, .hop = vc_hop,
};
