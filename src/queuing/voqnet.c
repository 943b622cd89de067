/* VOQnet: one queue per destination at every switch input, each with its own
 * credits (the mechanism is in src/net/switch_voqnet.c). The ideal against
 * which queuing schemes that share queues are measured; topology-agnostic. */
#include "../net/link.h"
#include "../net/policy.h"

static void setup(sim_t *s, cfg_t *c)
{
    if (s->nvc != 1)
        cfg_fail(c, K_SW_VCS, "voqnet splits each buffer per destination instead of into VCs; set switch.vcs = 1");
    if (s->voq_mode) cfg_fail(c, K_SW_VOQ, "voqnet already queues per destination; it does not combine with VOQ switches");
    if (s->flit_mode) cfg_fail(c, K_QUEUING, "voqnet is modelled by the packet-level switch (switch.model = packet)");
    if (!s->routing->deterministic)
        cfg_fail(c, K_QUEUING, "voqnet routes each destination queue's head once; it needs a deterministic routing "
                 "(dmodk, dor); routing.algorithm is '%s'", s->routing->name);
    voqnet_setup(s, c);
}

static uint8_t vc0(const sim_t *s, uint32_t src, uint32_t dst) { (void)s; (void)src; (void)dst; return 0; }

const queuing_ops queuing_voqnet = {
    .name = "voqnet",
    .desc = "VOQnet: a queue per destination at every switch input, created on demand, with its own credits "
            "(queuing.queue_size; switch.vcs = 1, deterministic routing)",
    .setup = setup, .vc = vc0,
};
