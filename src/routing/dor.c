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
#include "../net/flit.h"
#include "../core/util.h"
#include <string.h>

enum { TIE_RANDOM, TIE_PLUS, TIE_BALANCED };
enum { SEL_DYNAMIC_XY, SEL_ZIGZAG, SEL_MAX_CREDITS, SEL_RANDOM };

typedef struct dor {
    int tie, local_bubble, selection;
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
    int ties = 0;   /* a tie: half way round a ring (wrap-around link) of even radix */
    for (uint32_t k = 0; k < q->n; k++) ties |= cube_wraps(q, k) && q->k[k] % 2 == 0;
    if (ties) tie = cfg_str(c, K_ROUTING_TIE);
    if (!strcmp(tie, "random")) d->tie = TIE_RANDOM;
    else if (!strcmp(tie, "plus")) d->tie = TIE_PLUS;
    else if (!strcmp(tie, "balanced")) d->tie = TIE_BALANCED;
    else cfg_fail(c, K_ROUTING_TIE, "must be random, plus or balanced");
    if (bubble) {
        const char *b = cfg_str(c, K_ROUTING_BUBBLE);
        if (!strcmp(b, "local")) d->local_bubble = 1;
        else if (strcmp(b, "remote")) cfg_fail(c, K_ROUTING_BUBBLE, "must be local or remote");
        s->bubble_unit = occ_bytes(s, s->mtu);
        s->bubble_local = (uint8_t)d->local_bubble;
        if (s->vc_cap_sw < 2 * s->bubble_unit)
            cfg_fail(c, K_SW_BUFFER, "the bubble rule needs room for two full packets per queue (%u bytes per VC, packet.mtu = "
                     "%u taking %u with switch.granularity)", s->vc_cap_sw, s->mtu, s->bubble_unit);
    }
    if (d->tie == TIE_RANDOM || d->selection == SEL_RANDOM) {
        d->rng = (rng_t *)(d + 1);
        rng_seed_array(d->rng, s->nswitches, s->seed, RNG_ROUTE);
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

static int order_adaptive(sim_t *s, uint32_t w, uint32_t cur, const packet_t *p, uint8_t vc, cand_t *c);
static void setup_selection(sim_t *s, cfg_t *c);

/* Minimal direction in dimension d from router w towards router r
 * (1 = minus); the torus tie at distance k/2 follows routing.tie. */
static int direction(sim_t *s, uint32_t w, uint32_t r, uint32_t d, const packet_t *p)
{
    const cube_t *q = cube_get(s);
    dor_t *dd = s->routing_data;
    uint32_t x = cube_coord(q, w, d), y = cube_coord(q, r, d), k = q->k[d];
    if (!cube_wraps(q, d)) return y < x;
    uint32_t fwd = (y + k - x) % k;              /* hops going + */
    if (2 * fwd < k) return 0;
    if (2 * fwd > k) return 1;
    if (dd->tie == TIE_PLUS) return 0;
    if (dd->tie == TIE_BALANCED) return (int)(cube_coord(q, p->src / q->c, d) & 1);
    return (int)(rng_next(&dd->rng[w]) >> 63);
}

/* Does a hop from router w in (d, minus) cross the ring's wrap-around link? */
static int wraps(const cube_t *q, uint32_t w, uint32_t d, int minus)
{
    uint32_t x = cube_coord(q, w, d);
    return cube_wraps(q, d) && (minus ? x == 0 : x + 1 == q->k[d]);
}

/* Has p, now at router w, already crossed the wrap-around link of dimension
 * d? Routes are minimal, so a packet moves one way in a dimension, and it has
 * wrapped iff its coordinate went past the source's the other way: below it
 * going +, above it going - (the direction towards the destination, unique
 * once the packet has moved in d). Whatever VC class it travelled on. */
static int crossed(sim_t *s, uint32_t w, const packet_t *p, uint32_t d)
{
    const cube_t *q = cube_get(s);
    uint32_t x = cube_coord(q, w, d), x0 = cube_coord(q, p->src / q->c, d);
    if (!cube_wraps(q, d) || x == x0 || x == cube_coord(q, p->dst / q->c, d)) return 0;
    return direction(s, w, p->dst / q->c, d, p) ? x > x0 : x < x0;
}

/* The dimension a packet arrived in, or -1 if it was injected here. */
static int in_dim(const cube_t *q, uint32_t in) { return in < q->c ? -1 : (int)((in - q->c) / 2); }

/* Lowest dimension in which routers w and r differ (r != w). */
static uint32_t first_dim(const cube_t *q, uint32_t w, uint32_t r)
{
    uint32_t d = 0;
    while (cube_coord(q, r, d) == cube_coord(q, w, d)) d++;
    return d;
}

/* At the destination router: the node's port. Returns 1 if so. */
static int eject(const cube_t *q, uint32_t w, const packet_t *p, cand_t *c)
{
    if (p->dst / q->c != w) return 0;
    c[0] = (cand_t){ (uint8_t)(p->dst % q->c), 0, FC_VCT, 0 };
    return 1;
}

static int route_dor(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    const cube_t *q = cube_get(s);
    (void)in;
    if (eject(q, w, p, c)) { c[0].ovc = p->vc; return 1; }
    uint32_t d = first_dim(q, w, p->dst / q->c);
    int minus = direction(s, w, p->dst / q->c, d, p);
    c[0] = (cand_t){ (uint8_t)cube_port(q, d, minus), p->vc, FC_VCT, 0 };
    return 1;
}

static int route_dateline(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    const cube_t *q = cube_get(s);
    if (eject(q, w, p, c)) return 1;
    uint32_t d = first_dim(q, w, p->dst / q->c);
    int minus = direction(s, w, p->dst / q->c, d, p);
    (void)in;
    uint8_t vc = wraps(q, w, d, minus) || crossed(s, w, p, d) ? 1 : 0;
    c[0] = (cand_t){ (uint8_t)cube_port(q, d, minus), vc, FC_VCT, 0 };
    return 1;
}

/* The escape move of the bubble routers: DOR on the escape VC; entering the
 * ring (injection, change of dimension, or coming from another VC class)
 * needs the bubble. */
static cand_t escape(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, uint8_t esc_vc, int from_escape)
{
    const cube_t *q = cube_get(s);
    const dor_t *dd = s->routing_data;
    uint32_t r = p->dst / q->c, d = first_dim(q, w, r);
    int minus = direction(s, w, r, d, p);
    cand_t c = { (uint8_t)cube_port(q, d, minus), esc_vc, FC_VCT, 0 };
    if (!(from_escape && in_dim(q, in) == (int)d)) {
        c.fc = dd->local_bubble ? FC_BUBBLE_LOCAL : FC_BUBBLE_REMOTE;
        c.lq = (uint8_t)cube_in_port(q, d, minus);
    }
    return c;
}

static int route_bubble(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    if (eject(cube_get(s), w, p, c)) return 1;
    c[0] = escape(s, w, in, p, 0, 1);
    return 1;
}

/* The Bubble Router (seed 004, section 3.2): VC 0 is the escape channel (DOR
 * with the bubble), VC 1 the adaptive one (minimal, plain VCT). Requests in
 * the RDU's order, which realizes dynamic X/Y selection: the adaptive channel
 * in the current dimension, then in the following dimensions (cyclically),
 * then the escape channel. A packet starts in the lowest dimension it must
 * correct; "current" is the dimension it arrived in. */
enum { VC_ESCAPE = 0, VC_ADAPTIVE = 1 };

/* Shared start of the adaptive routings: 0 if p is at its destination router
 * (c[0] is then the ejection), else the number of adaptive candidates on VC
 * vc, ordered by the selection function from the current dimension. */
static int adaptive_candidates(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, uint8_t vc, cand_t *c)
{
    const cube_t *q = cube_get(s);
    if (eject(q, w, p, c)) return 0;
    int d_in = in_dim(q, in);
    return order_adaptive(s, w, d_in >= 0 ? (uint32_t)d_in : first_dim(q, w, p->dst / q->c), p, vc, c);
}

static int route_bubble_adaptive(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    int n = adaptive_candidates(s, w, in, p, VC_ADAPTIVE, c);
    if (!n && p->dst / cube_get(s)->c == w) return 1;
    c[n++] = escape(s, w, in, p, VC_ESCAPE, in_dim(cube_get(s), in) >= 0 && p->vc == VC_ESCAPE);
    return n;
}

/* The adaptive candidates on VC vc, one per dimension still to correct,
 * ordered by the selection function; `cur` is the current dimension. */
static int order_adaptive(sim_t *s, uint32_t w, uint32_t cur, const packet_t *p, uint8_t vc, cand_t *c)
{
    const cube_t *q = cube_get(s);
    uint32_t r = p->dst / q->c;
    dor_t *dd = s->routing_data;
    int n = 0;
    double key[MAX_CAND];
    for (uint32_t k = 0; k < q->n && n < MAX_CAND - 1; k++) {
        uint32_t d = (cur + k) % q->n;
        if (cube_coord(q, r, d) == cube_coord(q, w, d)) continue;
        int minus = direction(s, w, r, d, p);
        c[n] = (cand_t){ (uint8_t)cube_port(q, d, minus), vc, FC_VCT, 0 };
        /* selection function: a key per candidate, smallest first (stable) */
        if (dd->selection == SEL_ZIGZAG) {
            uint32_t x = cube_coord(q, w, d), y = cube_coord(q, r, d);
            uint32_t off = minus ? (x + q->k[d] - y) % q->k[d] : (y + q->k[d] - x) % q->k[d];
            key[n] = -(double)off;
        } else if (dd->selection == SEL_MAX_CREDITS) {
            uint32_t oi = (s->sw[w].port0 + c[n].out) * s->nvc + vc;
            key[n] = -(double)(s->flit_mode ? flit_credits(s, oi) : *credit_cv(s, oi));
        } else if (dd->selection == SEL_RANDOM) {
            key[n] = rng_u01(&dd->rng[w]);
        } else {
            key[n] = n;   /* dynamic X/Y: the order built above */
        }
        n++;
    }
    for (int a = 1; a < n; a++)   /* insertion sort: at most MAX_CAND - 1 entries */
        for (int b = a; b > 0 && key[b] < key[b - 1]; b--) {
            cand_t t = c[b]; c[b] = c[b - 1]; c[b - 1] = t;
            double kt = key[b]; key[b] = key[b - 1]; key[b - 1] = kt;
        }
    return n;
}

/* Duato's fully adaptive routing (seed 004's VC Adapt): VC 2 is adaptive
 * (any minimal direction), VCs 0 and 1 form the escape network (DOR with
 * Dally-Seitz datelines). Adaptive channels first, in the selection
 * function's order, then the escape channel. */
enum { DUATO_ADAPTIVE = 2 };

static int route_duato(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    const cube_t *q = cube_get(s);
    uint32_t r = p->dst / q->c;
    int n = adaptive_candidates(s, w, in, p, DUATO_ADAPTIVE, c);
    if (!n && r == w) return 1;
    for (int k = 0; k < n; k++) c[k].fc = FC_WHOLE;   /* adaptive queues are shared: admit whole packets only */
    uint32_t d = first_dim(q, w, r);
    int minus = direction(s, w, r, d, p);
    uint8_t vc = wraps(q, w, d, minus) || crossed(s, w, p, d) ? 1 : 0;   /* datelines, however it got here */
    c[n++] = (cand_t){ (uint8_t)cube_port(q, d, minus), vc, FC_VCT, 0 };
    return n;
}

/* Adaptive routings: their VC count, one adaptive candidate per dimension
 * plus the escape, the common set-up, and the selection function. */
static void setup_adaptive(sim_t *s, cfg_t *c, uint32_t nvc, const char *vcs, int bubble)
{
    if (s->nvc != nvc) cfg_fail(c, K_SW_VCS, "%s uses %u VCs per link (%s); set switch.vcs = %u", s->routing->name, nvc, vcs, nvc);
    const cube_t *q = cube_get(s);
    if (q && q->n + 1 > MAX_CAND)
        cfg_fail(c, cfg_is_set(c, K_TOPO_SHAPE) ? K_TOPO_SHAPE : K_TOPO_N, "%s supports up to %d dimensions", s->routing->name, MAX_CAND - 1);
    setup_common(s, c, bubble);
    setup_selection(s, c);
}

static void setup_duato(sim_t *s, cfg_t *c) { setup_adaptive(s, c, 3, "two escape with datelines, one adaptive", 0); }
static void setup_bubble_adaptive(sim_t *s, cfg_t *c) { setup_adaptive(s, c, 2, "escape and adaptive", 1); }

/* routing.selection and routing.escape_after, for the adaptive routings. */
static void setup_selection(sim_t *s, cfg_t *c)
{
    const char *sel = cfg_str(c, K_ROUTING_SELECTION);
    int mode = !strcmp(sel, "dynamic-xy") ? SEL_DYNAMIC_XY : !strcmp(sel, "zigzag") ? SEL_ZIGZAG
             : !strcmp(sel, "max-credits") ? SEL_MAX_CREDITS : !strcmp(sel, "random") ? SEL_RANDOM : -1;
    if (mode < 0) cfg_fail(c, K_ROUTING_SELECTION, "must be dynamic-xy, zigzag, max-credits or random");
    ((dor_t *)s->routing_data)->selection = mode;
    if (mode == SEL_RANDOM && !((dor_t *)s->routing_data)->rng) {
        dor_t *d = s->routing_data;
        d->rng = (rng_t *)(d + 1);
        rng_seed_array(d->rng, s->nswitches, s->seed, RNG_ROUTE);
    }
    s->escape_after = (uint32_t)cfg_int(c, K_ROUTING_ESCAPE_AFTER);
}

const routing_ops routing_dor = { .name = "dor", .desc = "dimension-order routing on tori and meshes, no deadlock avoidance (tori can deadlock)", .setup = setup_dor, .route = route_dor, .owns_vcs = 0, .deterministic = 1 };
const routing_ops routing_dor_dateline = { .name = "dor-dateline", .desc = "dimension-order routing, Dally-Seitz datelines on 2 VCs (switch.vcs = 2)", .setup = setup_dateline, .route = route_dateline, .owns_vcs = 1 };
const routing_ops routing_dor_bubble = { .name = "dor-bubble", .desc = "dimension-order routing with bubble flow control on 1 VC (routing.bubble local|remote)", .setup = setup_bubble, .route = route_bubble, .owns_vcs = 1 };
const routing_ops routing_duato = { .name = "duato", .desc = "Duato's fully adaptive routing: 1 adaptive VC + 2 escape VCs with datelines (switch.vcs = 3)", .setup = setup_duato, .route = route_duato, .owns_vcs = 1, .multi_cand = 1, .adaptive = 1,
                                    .whole_vc = 1 + DUATO_ADAPTIVE };
const routing_ops routing_bubble_adaptive = { .name = "bubble-adaptive", .desc = "seed 004's Bubble Router: adaptive VC + DOR bubble escape VC, dynamic X/Y (switch.vcs = 2)", .setup = setup_bubble_adaptive, .route = route_bubble_adaptive, .owns_vcs = 1, .multi_cand = 1, .adaptive = 1 };
