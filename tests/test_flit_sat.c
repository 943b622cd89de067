/* Saturation of the flit-level router against channel-load bounds: 8x8 and
 * 16x16 meshes, DOR, uniform, transpose and bit-reversal traffic.
 *
 * The bound: route every pair, add each source's rate share to the channels
 * its path crosses; the busiest channel saturates at load 1 / (its load per
 * unit of load). The router model explains the rest:
 *  - permutations under DOR: each channel carries a fixed set of flows, so
 *    the busiest one runs at link rate and the network saturates at the
 *    bound (derating 1.0);
 *  - uniform: every channel is shared by flows that meet and part at every
 *    router, and an input-queued wormhole router with 2 VCs of 16 flits,
 *    input speedup 1 and separable allocators loses slots to head-of-line
 *    blocking and allocation conflicts: about 70 % of the bound (derating
 *    0.70; Dally and Towles report 60-80 % for such routers).
 * Saturation is read as everywhere else: the least load whose run is
 * unstable, found by bisection on short runs. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mesh_ini =
    "[topology]\ntype = mesh\nn = 2\n[routing]\nalgorithm = dor\n[queuing]\nscheme = dbbm\n"
    "[switch]\nmodel = flit\nswitching = wormhole\nvcs = 2\nbuffer = 64B\n[link]\nphit = 2B\n"
    "[router]\ncycle = 5ns\nsync = 1\nfifo = 1\nrouting = 1\ncrossbar = 1\nvcmux = 1\n"
    "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 40B\n[time]\nwarmup = 5us\nmeasure = 20us\ndrain = false\n";

typedef struct { double *load; double share; } walk_t;

static int add_load(sim_t *s, uint32_t w, const cand_t *c, int n, void *arg)
{
    walk_t *wk = arg;
    (void)n;
    wk->load[sw_port(s, w, c[0].out)] += wk->share;
    return 0;
}

/* The load at which the busiest channel between routers saturates. */
static double channel_bound(const char *k, const char *pattern)
{
    const char *more[] = { k, pattern, NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, mesh_ini, more);
    double *load = calloc(s.nports, sizeof *load);
    int uniform = !strcmp(s.pattern->name, "uniform");
    for (uint32_t a = 0; a < s.nnodes; a++) {
        rng_t r = s.nic[a].dest;
        uint32_t only = uniform ? ICN_NIL : s.pattern->dst(&s, a, &r);
        for (uint32_t b = 0; b < s.nnodes; b++) {
            if (b == a || (!uniform && b != only)) continue;
            walk_t wk = { load, uniform ? 1.0 / (s.nnodes - 1) : 1.0 };
            CHECK(cube_walk(&s, a, b, add_load, &wk) >= 0, "no route from %u to %u", a, b);
        }
    }
    double most = 0;
    for (uint32_t g = 0; g < s.nports; g++)
        if (!(s.port[g].dev & NIC_BIT) && s.port[g].peer != ICN_NIL && !(s.port[s.port[g].peer].dev & NIC_BIT) && load[g] > most)
            most = load[g];
    free(load);
    sim_free(&s);
    cfg_free(&c);
    return 1.0 / most;
}

static int unstable_at(const char *k, const char *pattern, double load)
{
    char l[32];
    snprintf(l, sizeof l, "load=%.5f", load);
    const char *more[] = { k, pattern, l, NULL };
    result_t r;
    CHECK(tsim_run_checked(mesh_ini, more, &r) == 0, "%s %s load %.3f: deadlock", k, pattern, load);
    return r.unstable;
}

TEST(flit_mesh_saturation_meets_channel_load_bounds)
{
    static const char *ks[] = { "topology.k=8", "topology.k=16" };
    static const struct { const char *pattern; double derate; } pats[] = {
        { "traffic.pattern=uniform", 0.70 }, { "traffic.pattern=transpose", 1.0 }, { "traffic.pattern=bitrev", 1.0 },
    };
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            double bound = channel_bound(ks[i], pats[j].pattern), want = pats[j].derate * bound;
            double lo = 0.5 * want, hi = 1.5 * want;
            for (int step = 0; step < 5; step++) {
                double mid = (lo + hi) / 2;
                if (unstable_at(ks[i], pats[j].pattern, mid)) hi = mid;
                else lo = mid;
            }
            double sat = (lo + hi) / 2;
            printf("       mesh %s %s: bound %.4f, saturation %.4f (%.2f of the bound; derating %.2f)\n", ks[i] + 11,
                   pats[j].pattern + 16, bound, sat, sat / bound, pats[j].derate);
            CHECK(fabs(sat - want) <= 0.10 * want, "%s %s: saturation at load %.4f, want %.4f (%.2f x bound %.4f) +- 10 %%",
                  ks[i], pats[j].pattern, sat, want, pats[j].derate, bound);
        }
}
