/* Saturation figures that analysis predicts. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include <stdio.h>

/* Karol, Hluchyj & Morgan 1987: an N x N input-queued switch with FIFO inputs
 * under uniform traffic (self included) saturates at 0.601 (N=16), 0.593 (32). */
static void hol_case(int ports, const char *arbiter, double want)
{
    char k[32], arb[64];
    snprintf(k, sizeof k, "topology.k=%d", ports / 2);
    snprintf(arb, sizeof arb, "switch.arbiter=%s", arbiter);
    const char *sets[] = { k, arb, NULL };
    const char *ini = "load = 1.0\n[time]\nwarmup = 100us\nmeasure = 2ms\n"
                      "[topology]\ntype = rlft\nstages = 1\n[traffic]\npattern = uniform\nself = true\n";
    result_t r;
    tsim_run_checked(ini, sets, &r);
    CHECK_NEAR(r.accepted, want, 0.02, "HoL saturation throughput");
    printf("       %dx%d FIFO switch, %s: throughput %.4f (analytic %.3f)\n", ports, ports, arbiter, r.accepted, want);
}

TEST(saturation_hol_16x16) { hol_case(16, "islip", 0.601); }
TEST(saturation_hol_32x32) { hol_case(32, "islip", 0.593); }
TEST(saturation_hol_16x16_round_robin) { hol_case(16, "rr", 0.601); }

/* D-mod-K on a 4-ary 3-tree: contention-free on shifts (Theta = 1), limited
 * to 0.25 on bit-reversal (validation-references section 2). */
static double ntree_run(const char *pattern, const char *extra, result_t *r, sim_t *probe)
{
    const char *ini = "load = 1.0\n[time]\nwarmup = 100us\nmeasure = 500us\n"
                      "[topology]\ntype = kary-ntree\nk = 4\nstages = 3\n";
    char p[64];
    snprintf(p, sizeof p, "traffic.pattern=%s", pattern);
    const char *sets[] = { p, extra, NULL };
    tsim_run_checked(ini, sets, r);
    (void)probe;
    return r->accepted;
}

TEST(saturation_dmodk_shift_is_contention_free)
{
    static const char *shifts[] = { "traffic.shift=1", "traffic.shift=4", "traffic.shift=16", "traffic.shift=32", "traffic.shift=63" };
    for (int i = 0; i < 5; i++) {
        result_t r;
        ntree_run("shift", shifts[i], &r, NULL);
        CHECK(r.accepted > 0.97, "%s: accepted %.4f, want ~1.0", shifts[i], r.accepted);
        CHECK(r.net_p99 < 5000, "%s: p99 network latency %.0f ns: shift traffic must not queue", shifts[i], r.net_p99);
    }
}

TEST(saturation_dmodk_bitreversal_limited_to_quarter)
{
    /* Below the bound everything offered is carried... */
    result_t r;
    const char *low[] = { "load=0.22", "time.measure=2ms", NULL };
    tsim_run_checked("[topology]\ntype = kary-ntree\nk = 4\nstages = 3\n[traffic]\npattern = bitrev\n", low, &r);
    double scale = 64.0 / 56.0;   /* 8 of the 64 addresses are bit palindromes and do not inject */
    CHECK_NEAR(r.accepted * scale, 0.22, 0.006, "carried load at 0.22 per injecting node");
    CHECK(r.net_max < 30000, "max network latency %.0f ns at load 0.22: the network is saturated", r.net_max);
    /* ...above it the flows sharing the most loaded channels (4 flows each)
     * get at most 0.25 each, while the average is higher because the silent
     * palindromes leave some channels lightly loaded. */
    for (int pass = 0; pass < 2; pass++) {
        const char *sets[] = { pass ? "load=0.28" : "load=1.0", "time.measure=2ms", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, "[topology]\ntype = kary-ntree\nk = 4\nstages = 3\n[traffic]\npattern = bitrev\n", sets);
        sim_run(&s);
        CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
        double lo = 1e9, span = (double)(s.stop - s.warmup) * 1e-12;
        for (uint32_t n = 0; n < s.nnodes; n++)
            if (!s.nic[n].silent) {   /* a node receives from bitrev(n), itself active */
                double x = (double)s.nic[n].rx_bytes * 8 / (s.link_bps * span);
                if (x < lo) lo = x;
            }
        CHECK(lo <= 0.25 + 0.005, "%s: slowest flow %.4f, bound 0.25", sets[0], lo);
        CHECK(lo >= 0.21, "%s: slowest flow %.4f, should approach 0.25", sets[0], lo);
        printf("       4-ary 3-tree D-mod-K bit-reversal at %s: slowest flow %.4f (bound 0.250)\n", sets[0], lo);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Uniform traffic on a full-bisection fat-tree: Theta = 1; at half load the
 * network carries everything offered. */
TEST(saturation_uniform_half_load_carried)
{
    const char *ini = "load = 0.5\n[time]\nwarmup = 100us\nmeasure = 400us\n[topology]\ntype = rlft\nk = 4\nstages = 3\n";
    result_t r;
    tsim_run_checked(ini, NULL, &r);
    CHECK_NEAR(r.accepted, r.offered, 0.01, "accepted vs offered at load 0.5");
    CHECK_NEAR(r.offered, 0.5, 0.01, "offered load");
}

/* Virtual cut-through must wait for room for the whole packet. With 6 KB
 * messages split into 4 KB + 2 KB packets and 6 KB buffers, a switch that
 * forwarded on partial credit would overflow a buffer (invariants fail). */
TEST(saturation_mixed_packet_sizes_tight_buffers)
{
    const char *ini = "load = 1.0\n[time]\nwarmup = 20us\nmeasure = 300us\n"
                      "[topology]\ntype = rlft\nk = 4\nstages = 2\n"
                      "[switch]\nbuffer = 6KB\n[nic]\nbuffer = 6KB\n"
                      "[packet]\nmtu = 4KB\n[traffic]\nmessage_size = 6KB\nscenario = hs25-1\n";
    result_t r;
    tsim_run_checked(ini, NULL, &r);
    CHECK(r.accepted > 0.05, "accepted %.4f: the network should still carry traffic", r.accepted);
    CHECK(r.msg_mean > 0, "no message completed");
}

/* iSLIP's pointer rule (McKeown 1999), on the allocator alone: with every
 * input of an 8 x 8 switch requesting every output, one iteration per match,
 * the grant and accept pointers, moved only by grants accepted in the first
 * iteration, fall out of step within N matches and then every match is a
 * perfect one (100 % throughput); with 3 iterations the first matches fill
 * up through the later iterations (a pair each), whose grants must not move the pointers:
 * a later-iteration accept that moved them would leave output 0's pointer
 * past input 0 after the first match. */
TEST(islip_pointers_move_on_first_iteration_grants_only)
{
    const char *ini = "[topology]\ntype = rlft\nk = 4\nstages = 1\n";
    for (int iters = 1; iters <= 3; iters += 2) {
        char it[64];
        snprintf(it, sizeof it, "switch.islip_iterations=%d", iters);
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, (const char *[]){ "switch.arbiter=islip", it, NULL });
        unsigned n = s.sw[0].nports;
        CHECK(n == 8, "%u ports", n);
        uint64_t req[MAX_RADIX], all = (1ull << n) - 1;
        uint8_t match[MAX_RADIX];
        for (unsigned i = 0; i < n; i++) req[i] = all;
        for (int call = 0; call < 3 * (int)n; call++) {
            s.arbiter->match(&s, 0, all, req, match);
            unsigned matched = 0;
            uint64_t outs = 0;
            for (unsigned i = 0; i < n; i++)
                if (match[i] != 0xff) { matched++; outs |= 1ull << match[i]; }
            CHECK(__builtin_popcountll(outs) == (int)matched, "an output matched twice");
            if (call == 0) {
                /* all outputs grant input 0, which accepts output 0: only that pair moves its pointers */
                const port_t *p = &s.port[s.sw[0].port0];
                CHECK(match[0] == 0 && p[0].grant_ptr == 1 && p[0].accept_ptr == 1, "first match: input 0 -> %u", match[0]);
                for (unsigned k = 1; k < n; k++)
                    CHECK(p[k].grant_ptr == 0 && p[k].accept_ptr == 0, "%d iterations: port %u pointers moved (%u, %u) by a "
                          "grant not accepted in the first iteration", iters, k, p[k].grant_ptr, p[k].accept_ptr);
                CHECK(matched == (unsigned)iters, "%d iterations: first match pairs %u", iters, matched);   /* one pair per iteration */
            }
            if (call >= (int)n) CHECK(matched == n, "%d iterations, match %d: %u of %u matched (pointers in step)", iters, call, matched, n);
        }
        sim_free(&s);
        cfg_free(&c);
    }
}
