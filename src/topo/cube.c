#include "cube.h"
#include "../net/policy.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

/* topology.shape "8x4": a radix per dimension, dimension 0 first. */
static uint32_t parse_shape(cfg_t *c, uint32_t *k)
{
    const char *p = cfg_str(c, K_TOPO_SHAPE);
    if (cfg_is_set(c, K_TOPO_K) || cfg_is_set(c, K_TOPO_N))
        cfg_fail(c, K_TOPO_SHAPE, "gives every radix; set either it or topology.k and topology.n");
    uint32_t n = 0;
    for (;;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 2 || v > 64 || n == CUBE_MAX_DIMS || (*end && *end != 'x'))
            cfg_fail(c, K_TOPO_SHAPE, "expected up to %d radices of 2..64 joined by 'x' (e.g. 8x4)", CUBE_MAX_DIMS);
        k[n++] = (uint32_t)v;
        if (!*end) return n;
        p = end + 1;
    }
}

static void build(sim_t *s, cfg_t *c, int torus)
{
    int64_t conc = cfg_int(c, K_TOPO_CONC);
    uint32_t k[CUBE_MAX_DIMS], n;
    if (cfg_is_set(c, K_TOPO_SHAPE)) {
        n = parse_shape(c, k);
    } else {
        int64_t kk = cfg_int(c, K_TOPO_K);
        if (kk < 2) cfg_fail(c, K_TOPO_K, "a k-ary n-cube needs k >= 2");
        n = (uint32_t)cfg_int(c, K_TOPO_N);
        for (uint32_t d = 0; d < n; d++) k[d] = (uint32_t)kk;
    }
    uint64_t R = 1;
    for (uint32_t d = 0; d < n; d++) {
        R *= k[d];
        if (R * (uint64_t)conc > 4000000)
            cfg_fail(c, cfg_is_set(c, K_TOPO_SHAPE) ? K_TOPO_SHAPE : K_TOPO_N, "the network would have more than 4 million nodes");
    }
    if (conc + 2 * n > MAX_RADIX) cfg_fail(c, K_TOPO_CONC, "routers would have %lld ports; at most %d are supported", (long long)(conc + 2 * n), MAX_RADIX);
    cube_t *q = xcalloc(1, sizeof *q);
    q->n = n;
    q->c = (uint32_t)conc;
    memcpy(q->k, k, n * sizeof *k);
    for (uint32_t d = 0; d < n; d++) q->torus |= torus && k[d] > 2;
    q->routers = (uint32_t)R;
    q->kpow[0] = 1;
    for (uint32_t i = 1; i <= CUBE_MAX_DIMS; i++) q->kpow[i] = i <= q->n ? q->kpow[i - 1] * q->k[i - 1] : q->kpow[i - 1];
    uint16_t *np = xmalloc(R * sizeof *np);
    for (uint32_t r = 0; r < R; r++) np[r] = (uint16_t)(q->c + 2 * q->n);
    net_alloc(s, q->routers, np, q->routers * q->c);
    free(np);
    s->topo_data = q;
    for (uint32_t r = 0; r < R; r++) {
        for (uint32_t i = 0; i < q->c; i++) net_link(s, s->nic[r * q->c + i].port, sw_port(s, r, i));
        for (uint32_t d = 0; d < q->n; d++) {
            uint32_t x = cube_coord(q, r, d);
            if (x + 1 == q->k[d] && !cube_wraps(q, d)) continue;       /* mesh boundary */
            uint32_t nb = x + 1 == q->k[d] ? r - x * q->kpow[d] : r + q->kpow[d];
            net_link(s, sw_port(s, r, cube_port(q, d, 0)), sw_port(s, nb, cube_port(q, d, 1)));
        }
        for (uint32_t p = 0; p < s->sw[r].nports; p++) s->port[sw_port(s, r, p)].stage = 1;
    }
    s->radix_n = q->n;
    memcpy(s->radix_k, q->k, sizeof q->k);
}

static void build_torus(sim_t *s, cfg_t *c) { build(s, c, 1); }
static void build_mesh(sim_t *s, cfg_t *c) { build(s, c, 0); }

const topo_ops topo_torus = { "torus", "k-ary n-cube with wrap-around links (topology.k and topology.n, or topology.shape; topology.concentration)", build_torus, NULL };
const topo_ops topo_mesh = { "mesh", "k-ary n-mesh (topology.k and topology.n, or topology.shape; topology.concentration)", build_mesh, NULL };

const cube_t *cube_get(const sim_t *s)
{
    return (s->topo == &topo_torus || s->topo == &topo_mesh) ? s->topo_data : NULL;
}
