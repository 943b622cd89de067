#include "cube.h"
#include "../net/policy.h"
#include "../core/util.h"
#include <stdlib.h>

static void build(sim_t *s, cfg_t *c, int torus)
{
    int64_t k = cfg_int(c, K_TOPO_K), n = cfg_int(c, K_TOPO_N), conc = cfg_int(c, K_TOPO_CONC);
    if (k < 2) cfg_fail(c, K_TOPO_K, "a k-ary n-cube needs k >= 2");
    uint64_t R = 1;
    for (int64_t i = 0; i < n; i++) {
        R *= (uint64_t)k;
        if (R * (uint64_t)conc > 4000000) cfg_fail(c, K_TOPO_N, "the network would have more than 4 million nodes");
    }
    if (conc + 2 * n > MAX_RADIX) cfg_fail(c, K_TOPO_CONC, "routers would have %lld ports; at most %d are supported", (long long)(conc + 2 * n), MAX_RADIX);
    cube_t *q = xcalloc(1, sizeof *q);
    q->k = (uint32_t)k;
    q->n = (uint32_t)n;
    q->c = (uint32_t)conc;
    q->torus = torus && k > 2;   /* a 2-ary torus is the 2-ary mesh: no distinct wrap links */
    q->routers = (uint32_t)R;
    q->kpow[0] = 1;
    for (uint32_t i = 1; i < 9; i++) q->kpow[i] = i <= q->n ? q->kpow[i - 1] * q->k : q->kpow[i - 1];
    uint16_t *np = xmalloc(R * sizeof *np);
    for (uint32_t r = 0; r < R; r++) np[r] = (uint16_t)(q->c + 2 * q->n);
    net_alloc(s, q->routers, np, q->routers * q->c);
    free(np);
    s->topo_data = q;
    for (uint32_t r = 0; r < R; r++) {
        for (uint32_t i = 0; i < q->c; i++) net_link(s, s->nic[r * q->c + i].port, sw_port(s, r, i));
        for (uint32_t d = 0; d < q->n; d++) {
            uint32_t x = cube_coord(q, r, d);
            if (x + 1 == q->k && !q->torus) continue;       /* mesh boundary */
            uint32_t nb = x + 1 == q->k ? r - x * q->kpow[d] : r + q->kpow[d];
            net_link(s, sw_port(s, r, cube_port(q, d, 0)), sw_port(s, nb, cube_port(q, d, 1)));
        }
        for (uint32_t p = 0; p < s->sw[r].nports; p++) s->port[sw_port(s, r, p)].stage = 1;
    }
    s->radix_k = q->k;
    s->radix_n = q->n;
}

static void build_torus(sim_t *s, cfg_t *c) { build(s, c, 1); }
static void build_mesh(sim_t *s, cfg_t *c) { build(s, c, 0); }

const topo_ops topo_torus = { "torus", "k-ary n-cube with wrap-around links (topology.k, topology.n, topology.concentration)", build_torus, NULL };
const topo_ops topo_mesh = { "mesh", "k-ary n-mesh (topology.k, topology.n, topology.concentration)", build_mesh, NULL };

const cube_t *cube_get(const sim_t *s)
{
    return (s->topo == &topo_torus || s->topo == &topo_mesh) ? s->topo_data : NULL;
}
