/* Static queuing schemes that need nothing but the destination. */
#include "../net/policy.h"

static void setup_1q(sim_t *s, cfg_t *c)
{
    if (s->nsqs != 1)
        cfg_fail(c, K_SW_VCS, "queuing scheme 1q uses a single VC; set switch.vcs = 1 (plus the VCs the routing keeps, %u; "
                 "the buffer is split statically among VCs)", s->nvc - s->nsqs);
}
static uint8_t vc_1q(const sim_t *s, uint32_t src, uint32_t dst) { (void)s; (void)src; (void)dst; return 0; }

static void setup_dbbm(sim_t *s, cfg_t *c) { (void)s; (void)c; }
static uint8_t vc_dbbm(const sim_t *s, uint32_t src, uint32_t dst) { (void)src; return (uint8_t)(dst % s->nsqs); }

const queuing_ops queuing_1q = { .name = "1q", .desc = "one queue (VC 0) for everything: no HoL-blocking prevention", .setup = setup_1q, .vc = vc_1q };
const queuing_ops queuing_dbbm = { .name = "dbbm", .desc = "Destination-Based Buffer Management: VC = destination mod Q (Q = the VCs left to the scheme)", .setup = setup_dbbm, .vc = vc_dbbm };

/* Not registered: used when the routing owns the VCs (routing_ops.owns_vcs). */
static void setup_none(sim_t *s, cfg_t *c) { (void)s; (void)c; }
const queuing_ops queuing_routing = { .name = "routing", .desc = "VC 0 at injection; the routing chooses VCs", .setup = setup_none, .vc = vc_1q };
