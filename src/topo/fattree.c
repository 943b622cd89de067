#include "fattree.h"
#include "../net/policy.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

static void build(sim_t *s, cfg_t *c, int rlft)
{
    int64_t K = cfg_int(c, K_TOPO_K), T = cfg_int(c, K_TOPO_STAGES), P = cfg_int(c, K_TOPO_PORTS);
    /* the widest switch: 2K ports, but K in a one-stage k-ary n-tree (its top, with nothing above) */
    int64_t radix = rlft || T > 1 ? 2 * K : K;
    if (P && P != radix)
        cfg_fail(c, K_TOPO_PORTS, "a %s switch has P = %s ports, but topology.k = %lld gives %lld", rlft ? "fat-tree" : "k-ary n-tree",
                 radix == K ? "K" : "2K", (long long)K, (long long)radix);
    if (K < 2) cfg_fail(c, K_TOPO_K, "a fat-tree needs K >= 2");
    uint64_t top = rlft ? 2 * (uint64_t)K : (uint64_t)K;
    if ((uint64_t)radix > MAX_RADIX)
        cfg_fail(c, K_TOPO_K, "switches would have %lld ports; at most %d are supported", (long long)radix, MAX_RADIX);
    uint64_t N = top;
    for (int64_t i = 1; i < T; i++) N *= (uint64_t)K;
    if (N > 4000000) cfg_fail(c, K_TOPO_STAGES, "the network would have %llu end nodes; at most 4 million are supported", (unsigned long long)N);

    fattree_t *ft = xcalloc(1, sizeof *ft);   /* re-allocated below with its arrays */
    ft->K = (uint32_t)K;
    ft->T = (uint32_t)T;
    ft->top = (uint32_t)top;
    ft->N = (uint32_t)N;
    ft->kpow[0] = 1;
    for (int i = 1; i < 10; i++) ft->kpow[i] = ft->kpow[i - 1] * (i <= T ? ft->K : 1);
    /* switch counts: N/K for stages below the top, K^(T-1) at the top */
    uint32_t S = 0;
    for (uint32_t l = 1; l <= ft->T; l++) {
        ft->stage_off[l] = S;
        S += l < ft->T ? ft->N / ft->K : ft->kpow[ft->T - 1];
    }
    ft->stage_off[ft->T + 1] = S;
    /* one block, so the simulation frees the topology with a single free() */
    ft = xrealloc(ft, sizeof *ft + (size_t)S * (2 * sizeof(uint32_t) + 1));
    ft->g = (uint32_t *)(ft + 1);
    ft->j = ft->g + S;
    ft->stage = (uint8_t *)(ft->j + S);
    uint16_t *np = xmalloc(S * sizeof *np);
    for (uint32_t l = 1; l <= ft->T; l++)
        for (uint32_t w = ft->stage_off[l]; w < ft->stage_off[l + 1]; w++) {
            uint32_t local = w - ft->stage_off[l];
            ft->stage[w] = (uint8_t)l;
            ft->g[w] = l < ft->T ? local / ft->kpow[l - 1] : 0;
            ft->j[w] = l < ft->T ? local % ft->kpow[l - 1] : local;
            np[w] = (uint16_t)(l < ft->T ? 2 * ft->K : ft->top);
        }
    net_alloc(s, S, np, ft->N);
    free(np);
    s->topo_data = ft;

    /* nodes to leaves (stage 1; at T = 1 that is the single top switch) */
    for (uint32_t n = 0; n < ft->N; n++) {
        uint32_t leaf = ft->T == 1 ? 0 : n / ft->K, p = ft->T == 1 ? n : n % ft->K;
        net_link(s, s->nic[n].port, sw_port(s, ft->stage_off[1] + leaf, p));
    }
    /* stage l up port u to stage l+1 */
    for (uint32_t l = 1; l < ft->T; l++)
        for (uint32_t w = ft->stage_off[l]; w < ft->stage_off[l + 1]; w++)
            for (uint32_t u = 0; u < ft->K; u++) {
                uint32_t g2 = l + 1 < ft->T ? ft->g[w] / ft->K : 0, j2 = ft->j[w] * ft->K + u;
                uint32_t w2 = ft->stage_off[l + 1] + (l + 1 < ft->T ? g2 * ft->kpow[l] + j2 : j2);
                uint32_t down = l + 1 < ft->T ? ft->g[w] % ft->K : ft->g[w];
                net_link(s, sw_port(s, w, ft->K + u), sw_port(s, w2, down));
            }
    s->radix_k[0] = ft->N;
    s->radix_n = 1;
    for (uint32_t w = 0; w < S; w++) {
        s->sw[w].stage = ft->stage[w];
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            port_t *pt = &s->port[sw_port(s, w, p)];
            pt->stage = ft->stage[w];
            pt->up = (uint8_t)fattree_is_up(ft, w, p);
        }
    }
}

static void build_rlft(sim_t *s, cfg_t *c) { build(s, c, 1); }
static void build_ntree(sim_t *s, cfg_t *c) { build(s, c, 0); }

const topo_ops topo_rlft = { "rlft", "Real-Life Fat-Tree: T stages of 2K-port switches, N = 2K^T (topology.k, topology.stages)", build_rlft, NULL };
const topo_ops topo_ntree = { "kary-ntree", "k-ary n-tree: top switches use K ports, N = K^T (topology.k, topology.stages)", build_ntree, NULL };

const fattree_t *fattree_get(const sim_t *s)
{
    return (s->topo == &topo_rlft || s->topo == &topo_ntree) ? s->topo_data : NULL;
}
