/* Multi-step paths on k-ary n-cubes (DRB's MultiStepPath): a packet may
 * carry a source route S -> IN1 -> IN2 -> D (src/net/net.h, proute_t); each
 * segment is dimension-order routed, minimal, ties going +.
 *
 * Deadlock freedom: the packet's VC class is the number of intermediate
 * routers it has reached (0, 1, 2), so classes only ascend along a route and
 * each class alone is DOR: acyclic on a mesh; on a torus each class is a
 * pair of VCs with Dally-Seitz datelines (VC 2 class + 1 once the segment
 * has crossed the wrap-around link of its current dimension). Meshes need 3
 * VCs, tori 6. A packet without a route goes straight in class 1, so direct
 * packets (path 0, ACKs, CNPs) share the class of the middle segments. */
#include "msp.h"
#include "../net/policy.h"
#include "../topo/cube.h"
#include "../core/util.h"

static inline uint32_t radix(const cube_t *q, uint32_t d) { return q->k[d]; }

/* Minimal direction in dimension d from router w towards t (1 = minus). */
static int direction(const cube_t *q, uint32_t w, uint32_t t, uint32_t d)
{
    uint32_t x = cube_coord(q, w, d), y = cube_coord(q, t, d), k = radix(q, d);
    if (!cube_wraps(q, d)) return y < x;
    uint32_t fwd = (y + k - x) % k;
    return 2 * fwd > k;
}

static uint32_t first_dim(const cube_t *q, uint32_t w, uint32_t t)
{
    uint32_t d = 0;
    while (cube_coord(q, t, d) == cube_coord(q, w, d)) d++;
    return d;
}

/* The router one hop from w in dimension d, direction minus. */
static uint32_t neighbour(const cube_t *q, uint32_t w, uint32_t d, int minus)
{
    uint32_t x = cube_coord(q, w, d), k = radix(q, d);
    uint32_t y = minus ? (x + k - 1) % k : (x + 1) % k;
    return w - x * q->kpow[d] + y * q->kpow[d];
}

/* Dateline VC within a class: 1 if the hop from w in (d, minus) crosses the
 * wrap-around link, or the segment, which started at router `start`, already
 * crossed it in d (minimal routes move one way, so it wrapped iff its
 * coordinate went past the start's the other way). */
static int dateline(const cube_t *q, uint32_t w, uint32_t start, uint32_t d, int minus)
{
    if (!cube_wraps(q, d)) return 0;
    uint32_t x = cube_coord(q, w, d), x0 = cube_coord(q, start, d);
    if (minus ? x == 0 : x + 1 == radix(q, d)) return 1;
    return minus ? x > x0 : x < x0;
}

static int route_msp(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    const cube_t *q = cube_get(s);
    proute_t *r = &s->proute[p - s->pkt];
    uint32_t cls, start, target, dr = p->dst / q->c;
    (void)in;
    if (r->via[0] == ICN_NIL) {
        cls = 1; start = p->src / q->c; target = dr;
    } else {
        while (r->seg < 2 && w == r->via[r->seg]) r->seg++;   /* idempotent at one router */
        cls = r->seg;
        start = cls ? r->via[cls - 1] : p->src / q->c;
        target = cls < 2 ? r->via[cls] : dr;
    }
    if (w == target) {   /* only the destination router is a target not yet passed */
        c[0] = (cand_t){ (uint8_t)(p->dst % q->c), p->vc, FC_VCT, 0 };
        return 1;
    }
    uint32_t d = first_dim(q, w, target);
    int minus = direction(q, w, target, d);
    uint8_t vc = (uint8_t)(q->torus ? 2 * cls + (uint32_t)dateline(q, w, start, d, minus) : cls);
    c[0] = (cand_t){ (uint8_t)cube_port(q, d, minus), vc, FC_VCT, 0 };
    return 1;
}

static void setup_msp(sim_t *s, cfg_t *c)
{
    const cube_t *q = cube_get(s);
    if (!q) cfg_fail(c, K_ROUTING, "dor-msp routes k-ary n-cubes (torus, mesh); topology.type is '%s'", s->topo->name);
    uint32_t need = q->torus ? 6 : 3;
    if (s->nvc != need)
        cfg_fail(c, K_SW_VCS, "dor-msp uses one VC class per segment of a multi-step path (%s); set switch.vcs = %u",
                 q->torus ? "3 classes x 2 dateline VCs on a torus" : "3 classes on a mesh", need);
    s->want_proute = 1;
}

uint32_t msp_walk(const sim_t *s, uint32_t from, uint32_t to, uint32_t *ports, uint32_t max)
{
    const cube_t *q = cube_get(s);
    uint32_t n = 0;
    for (uint32_t w = from; w != to;) {
        uint32_t d = first_dim(q, w, to);
        int minus = direction(q, w, to, d);
        if (ports && n < max) ports[n] = s->sw[w].port0 + cube_port(q, d, minus);
        n++;
        w = neighbour(q, w, d, minus);
    }
    return n;
}

uint32_t msp_distance(const sim_t *s, uint32_t a, uint32_t b)
{
    const cube_t *q = cube_get(s);
    uint32_t h = 0;
    for (uint32_t d = 0; d < q->n; d++) {
        uint32_t x = cube_coord(q, a, d), y = cube_coord(q, b, d), k = radix(q, d);
        uint32_t off = x > y ? x - y : y - x;
        if (cube_wraps(q, d) && k - off < off) off = k - off;
        h += off;
    }
    return h;
}

const routing_ops routing_dor_msp = {
    .name = "dor-msp",
    .desc = "multi-step paths S->IN1->IN2->D (DRB), each segment DOR; VC class = segment (mesh: switch.vcs = 3; torus: 6, datelines per class)",
    .setup = setup_msp, .route = route_msp, .owns_vcs = 1,
};
