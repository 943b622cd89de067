/* Dimension-order routing on k-ary n-cubes (tori and meshes).
 *
 * A packet corrects its lowest differing dimension first, by the minimal
 * direction (in a torus, a tie at distance k/2 follows routing.tie). Three
 * flavours differ only in how a torus is kept free of deadlock:
 *   dor           none: one static VC (from the queuing scheme). Deadlocks on
 *                 a loaded torus; meshes are safe.
 *   dor-dateline  Dally & Seitz: 2 VCs; a packet travels on VC 0 in a
 *                 dimension until it crosses that ring's wrap-around link,
 *                 then on VC 1; every new dimension starts again on VC 0.
 *   dor-bubble    seed 004's bubble flow control on one VC: a packet may
 *                 enter a ring (injection or change of dimension) only if
 *                 room for two packets remains (routing.bubble: in the next
 *                 router's queue, or in this router's own queue of that ring
 *                 with room for one downstream); moving along a ring needs
 *                 room for one (virtual cut-through). */
#include "../net/policy.h"
#include "../topo/cube.h"
#include "../core/util.h"
#include <string.h>

enum { TIE_RANDOM, TIE_PLUS, TIE_BALANCED };

typedef struct dor {
    int tie, local_bubble;
    rng_t *rng;            /* per router, for random ties */
} dor_t;

static void setup_common(sim_t *s, cfg_t *c, int bubble)
{
    const cube_t *q = cube_get(s);
    if (!q) cfg_fail(c, K_ROUTING, "%s routes k-ary n-cubes (torus, mesh); topology.type is '%s'", s->routing->name, s->topo->name);
    /* one block (freed by the simulation): the struct, then a stream per router */
    dor_t *d = xcalloc(1, sizeof *d + s->nswitches * sizeof(rng_t));
    s->routing_data = d;
    const char *tie = "plus";
    if (q->torus) tie = cfg_str(c, K_ROUTING_TIE);       /* ties exist only in tori */
    if (!strcmp(tie, "random")) d->tie = TIE_RANDOM;
    else if (!strcmp(tie, "plus")) d->tie = TIE_PLUS;
    else if (!strcmp(tie, "balanced")) d->tie = TIE_BALANCED;
    else cfg_fail(c, K_ROUTING_TIE, "must be random, plus or balanced");
    if (bubble) {
        const char *b = cfg_str(c, K_ROUTING_BUBBLE);
        if (!strcmp(b, "local")) d->local_bubble = 1;
        else if (strcmp(b, "remote")) cfg_fail(c, K_ROUTING_BUBBLE, "must be local or remote");
        if (s->vc_cap_sw < 2 * s->mtu)
            cfg_fail(c, K_SW_BUFFER, "the bubble rule needs room for two packets per queue (%u bytes per VC, packet.mtu = %u)",
                     s->vc_cap_sw, s->mtu);
    }
    if (d->tie == TIE_RANDOM) {
        d->rng = (rng_t *)(d + 1);
        for (uint32_t w = 0; w < s->nswitches; w++) rng_seed(&d->rng[w], s->seed, RNG_ROUTE, w);
    }
}

static void setup_dor(sim_t *s, cfg_t *c) { setup_common(s, c, 0); }
static void setup_bubble(sim_t *s, cfg_t *c)
{
    if (s->nvc != 1) cfg_fail(c, K_SW_VCS, "dor-bubble uses one VC per link; set switch.vcs = 1");
    setup_common(s, c, 1);
}
static void setup_dateline(sim_t *s, cfg_t *c)
{
    if (s->nvc != 2) cfg_fail(c, K_SW_VCS, "dor-dateline uses two VCs per link; set switch.vcs = 2");
    setup_common(s, c, 0);
}

/* DOR step at router w for p: sets p->out; returns the dimension (or -1 at
 * the destination router) and whether the hop crosses the wrap-around link. */
static int dor_step(sim_t *s, uint32_t w, packet_t *p, int *minus, int *wraps)
{
    const cube_t *q = cube_get(s);
    const dor_t *dd = s->routing_data;
    uint32_t r = p->dst / q->c;
    if (r == w) { p->out = (uint16_t)(p->dst % q->c); return -1; }
    uint32_t d = 0;
    while (cube_coord(q, r, d) == cube_coord(q, w, d)) d++;
    uint32_t x = cube_coord(q, w, d), y = cube_coord(q, r, d);
    int neg;
    if (!q->torus) neg = y < x;
    else {
        uint32_t fwd = (y + q->k - x) % q->k;        /* hops going + */
        if (2 * fwd < q->k) neg = 0;
        else if (2 * fwd > q->k) neg = 1;
        else if (dd->tie == TIE_PLUS) neg = 0;
        else if (dd->tie == TIE_BALANCED) neg = (int)(cube_coord(q, p->src / q->c, d) & 1);
        else neg = (int)(rng_next(&dd->rng[w]) >> 63);
    }
    *minus = neg;
    *wraps = q->torus && (neg ? x == 0 : x + 1 == q->k);
    p->out = (uint16_t)cube_port(q, d, neg);
    return (int)d;
}

/* The dimension a packet arrived in, or -1 if it was injected here. */
static int in_dim(const cube_t *q, uint32_t in) { return in < q->c ? -1 : (int)((in - q->c) / 2); }

static void route_dor(sim_t *s, uint32_t w, uint32_t in, packet_t *p)
{
    int minus, wraps;
    (void)in;
    dor_step(s, w, p, &minus, &wraps);
    p->out_vc = p->vc;
}

static void route_dateline(sim_t *s, uint32_t w, uint32_t in, packet_t *p)
{
    int minus, wraps, d = dor_step(s, w, p, &minus, &wraps);
    if (d < 0) p->out_vc = 0;
    else if (wraps) p->out_vc = 1;
    else p->out_vc = in_dim(cube_get(s), in) == d ? p->vc : 0;
}

static void route_bubble(sim_t *s, uint32_t w, uint32_t in, packet_t *p)
{
    const cube_t *q = cube_get(s);
    const dor_t *dd = s->routing_data;
    int minus, wraps, d = dor_step(s, w, p, &minus, &wraps);
    p->out_vc = 0;
    p->bubble = BUBBLE_NONE;
    if (d >= 0 && in_dim(q, in) != d) {          /* entering a ring: injection or change of dimension */
        p->bubble = dd->local_bubble ? BUBBLE_LOCAL : BUBBLE_REMOTE;
        p->lq = (uint16_t)cube_in_port(q, (uint32_t)d, minus);
    }
}

const routing_ops routing_dor = { "dor", "dimension-order routing on tori and meshes, no deadlock avoidance (tori can deadlock)", setup_dor, route_dor, 0 };
const routing_ops routing_dor_dateline = { "dor-dateline", "dimension-order routing, Dally-Seitz datelines on 2 VCs (switch.vcs = 2)", setup_dateline, route_dateline, 1 };
const routing_ops routing_dor_bubble = { "dor-bubble", "dimension-order routing with bubble flow control on 1 VC (routing.bubble local|remote)", setup_bubble, route_bubble, 1 };
