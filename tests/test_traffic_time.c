/* Loads in bits/us, time-varying (bursty) traffic and hot-spot regions. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/net/link.h"
#include "../src/core/util.h"
#include <string.h>

/* 16-node fat-tree with 2 Gbps links, the link rate of seeds 001 and 003. */
static const char *ft2g = "[topology]\nk = 2\nstages = 3\n[link]\nbandwidth = 2Gbps\n[time]\nwarmup = 20us\nmeasure = 4ms\n";

/* traffic.rate is the load it gives: the same run, byte for byte. */
TEST(traffic_rate_is_the_load_in_bits_per_us)
{
    result_t a, b;
    const char *by_load[] = { "load=0.4", NULL }, *by_rate[] = { "traffic.rate=800", NULL };
    tsim_run_checked(ft2g, by_load, &a);
    tsim_run_checked(ft2g, by_rate, &b);
    CHECK(!memcmp(&a, &b, sizeof a), "traffic.rate = 800 on 2 Gbps links: accepted %.6f vs %.6f, latency %.3f vs %.3f",
          b.accepted, a.accepted, b.lat_mean, a.lat_mean);
    CHECK_NEAR(b.offered, 0.4, 0.02, "offered load at 800 bits/us");
    CHECK_NEAR(b.offered_mbps, 800, 40, "offered bits/us per node");
    CHECK_NEAR(b.accepted_mbps / b.accepted, 2000, 1e-6, "accepted bits/us per unit of normalized throughput");
}

/* Generate every message of a bursty-var run without simulating the network
 * (as the NICs would, one after the other) and check each against its phase:
 * bursts use bitrev and shuffle in turn, fixed points stay idle in them, the
 * low phase is uniform; the counts per phase follow the loads (Poisson), and
 * the count replayed for the statistics is the number generated, exactly. */
TEST(traffic_bursty_phases_patterns_and_counts)
{
    /* Bernoulli at full load draws no random number: constant gaps, but not across phases */
    static const struct { const char *proc, *low, *load; } cases[] = {
        { "traffic.process=poisson", "traffic.low_load=0.1", "load=0.6" },
        { "traffic.process=bernoulli", "traffic.low_load=0.1", "load=0.6" },
        { "traffic.process=bernoulli", "traffic.low_load=1", "load=1" },
    };
    for (int pi = 0; pi < 3; pi++) {
        const char *sets[] = { cases[pi].proc, "traffic.scenario=bursty-var", "traffic.burst_pattern=bitrev shuffle",
                               "traffic.burst_period=100us", "traffic.burst_length=40us", cases[pi].low, cases[pi].load,
                               "time.warmup=1ms", "time.measure=9ms", "time.drain=false", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ft2g, sets);
        const pattern_ops *pat[2] = { find_pattern("bitrev"), find_pattern("shuffle") };
        uint64_t taken = 0, low = 0, burst = 0, wrong = 0;
        for (uint32_t n = 0; n < s.nnodes; n++) {
            nic_t *nc = &s.nic[n];
            while (nc->next_gen < s.end) {
                nic_take_message(&s, n);
                simtime_t t = nc->msg_gen, cycle = t / 100000000;
                taken++;
                if (t - cycle * 100000000 < 60000000) {
                    low++;
                    wrong += nc->msg_dst == n || nc->msg_dst >= s.nnodes;
                } else {
                    burst++;
                    wrong += nc->msg_dst != pat[cycle % 2]->dst(&s, n, NULL);
                }
            }
        }
        CHECK(wrong == 0, "%s: %llu messages with a destination their phase does not give", cases[pi].proc, (unsigned long long)wrong);
        printf("       %s %s: %llu messages in low phases, %llu in bursts\n", cases[pi].proc + 16, cases[pi].load,
               (unsigned long long)low, (unsigned long long)burst);
        if (pi == 0) {   /* slot 16.384 us; bitrev leaves 12 of 16 nodes active, shuffle 14 */
            CHECK_NEAR(low, 16 * 0.1 * 6000 / 16.384, 60, "messages in the low phases");
            CHECK_NEAR(burst, 0.6 * 2000 / 16.384 * (12 + 14), 190, "messages in the bursts");
        }
        nic_count_generated(&s);
        CHECK(s.st.gen_pkts == taken, "%s: %llu messages counted, %llu generated", cases[pi].proc,
              (unsigned long long)s.st.gen_pkts, (unsigned long long)taken);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* A bursty run keeps the invariants and drains; the offered load is the
 * time average of the phases: 0.6 x 0.1 + 0.4 x 0.6 x 12/16. */
TEST(traffic_bursty_run_offers_the_average)
{
    const char *sets[] = { "traffic.process=poisson", "traffic.scenario=bursty", "traffic.burst_period=100us",
                           "traffic.burst_length=40us", "traffic.low_rate=200", "traffic.rate=1200", NULL };
    result_t r;
    CHECK(tsim_run_checked(ft2g, sets, &r) == 0, "status");
    CHECK_NEAR(r.offered, 0.6 * 0.1 + 0.4 * 0.6 * 12 / 16, 0.015, "offered load");
}

/* Phases whose loads are equal are no phases: bursty with the low load and
 * the burst's load both 0.6, uniform in both, offers what plain uniform does.
 * The phases here are 8 and 2 slots (1 KB at 2 Gbps: 4.096 us), so a lattice
 * process (Bernoulli) that restarted its slots at each boundary, skipping
 * the trial there, would offer 0.6 x 8/10. */
TEST(traffic_bernoulli_keeps_its_slots_across_phases)
{
    static const char *procs[] = { "traffic.process=bernoulli", "traffic.process=poisson" };
    for (int i = 0; i < 2; i++) {
        const char *sets[] = { procs[i], "traffic.message_size=1KB", "packet.mtu=1KB", "traffic.scenario=bursty",
                               "traffic.burst_pattern=uniform", "traffic.burst_period=40960ns", "traffic.burst_length=8192ns",
                               "traffic.low_load=0.6", "load=0.6", "time.warmup=0", "time.measure=2ms", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ft2g, sets);
        uint64_t n = 0;
        for (uint32_t v = 0; v < s.nnodes; v++) {
            rng_t r = s.nic[v].arrival0;
            for (simtime_t t = nic_next_arrival(&s, v, &r, 0); t < 2000000000ull; t = nic_next_arrival(&s, v, &r, t)) n++;
        }
        /* 16 nodes x 2 ms / 4.096 us x 0.6 = 4687.5 messages */
        CHECK_NEAR(n, 4687.5, 200, procs[i]);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* The destinations a source of hs-region draws (in its window), and its sources. */
static void region_sets(sim_t *s, uint64_t *dsts, uint64_t *srcs, simtime_t t)
{
    *dsts = *srcs = 0;
    rng_t r;
    rng_seed(&r, 5, RNG_DEST, 0);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        if (s->nic[n].hot < 0) continue;
        *srcs |= 1ull << n;
        for (int i = 0; i < 200; i++) {
            uint32_t d = s->scenario->dst(s, n, t, &r);
            *dsts |= d == ICN_NIL ? 1ull << 63 : 1ull << d;
        }
    }
}

/* hs-region on 8x4 networks (node = x + 8 y): the box 7 0-1 grown by one hop
 * wraps round both rings in the torus and not in the mesh; the sources are
 * the box hs_sources, or a fraction outside the region; before hs_start
 * the sources follow the pattern. */
TEST(traffic_hs_region_shapes_sources_and_window)
{
    static const struct { const char *type, *sources; uint64_t dsts, srcs; } cases[] = {
        { "torus", "traffic.hs_sources=0-1 2-3", (1ull << 7) | (1ull << 15) | (1ull << 6) | (1ull << 14) | (1ull << 0) | (1ull << 8) | (1ull << 31) | (1ull << 23),
          (1ull << 16) | (1ull << 17) | (1ull << 24) | (1ull << 25) },
        { "mesh", "traffic.hs_sources=0-1 2-3", (1ull << 7) | (1ull << 15) | (1ull << 6) | (1ull << 14) | (1ull << 23),
          (1ull << 16) | (1ull << 17) | (1ull << 24) | (1ull << 25) },
        { "mesh", "traffic.hs_fraction=0.25", (1ull << 7) | (1ull << 15) | (1ull << 6) | (1ull << 14) | (1ull << 23), 0 },
    };
    for (int i = 0; i < 3; i++) {
        char ini[256];
        snprintf(ini, sizeof ini, "[topology]\ntype = %s\nshape = 8x4\n[routing]\nalgorithm = dor\n", cases[i].type);
        const char *sets[] = { "traffic.scenario=hs-region", "traffic.hs_region=7 0-1", cases[i].sources, "traffic.hs_start=10us", "load=0.1", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, sets);
        uint64_t dsts, srcs;
        region_sets(&s, &dsts, &srcs, 10000000);
        CHECK(dsts == cases[i].dsts, "%s %s: destinations %llx, want %llx", cases[i].type, cases[i].sources,
              (unsigned long long)dsts, (unsigned long long)cases[i].dsts);
        if (cases[i].srcs) CHECK(srcs == cases[i].srcs, "%s: sources %llx, want %llx", cases[i].sources, (unsigned long long)srcs, (unsigned long long)cases[i].srcs);
        else CHECK(__builtin_popcountll(srcs) == 8 && !(srcs & dsts), "%s: sources %llx", cases[i].sources, (unsigned long long)srcs);
        region_sets(&s, &dsts, &srcs, 9999999);
        CHECK(dsts == 1ull << 63, "before hs_start the sources follow the pattern");
        sim_free(&s);
        cfg_free(&c);
    }
}

/* On the 8x8 mesh the default region (the central router and its four
 * neighbours) receives what its sources send on top of the background. */
TEST(traffic_hs_region_receives_the_hot_load)
{
    const char *sets[] = { "traffic.scenario=hs-region", "traffic.hs_fraction=0.1", "load=0.1", "time.warmup=10us", "time.measure=200us", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, "[topology]\ntype = mesh\nshape = 8x8\n[routing]\nalgorithm = dor\n", sets);
    CHECK(sim_run(&s) == 0, "status");
    double hot = 0, cold = 0;
    for (uint32_t n = 0; n < 64; n++) {
        int in = n == 36 || n == 35 || n == 37 || n == 28 || n == 44;   /* (4,4) and its neighbours */
        *(in ? &hot : &cold) += (double)s.nic[n].rx_bytes / (in ? 5 : 59);
    }
    /* 6 sources at 0.1 spread over 5 nodes: +0.12 on a background of 0.1 */
    CHECK(hot > 2 * cold, "a region node receives %.0f bytes, another node %.0f", hot, cold);
    sim_free(&s);
    cfg_free(&c);
}

/* Moving hot-spots: within a period every source sends to its hot-spot of
 * that period; the next period moves them to other nodes, never a source. */
TEST(traffic_moving_hotspots_move_every_period)
{
    const char *ini = "[time]\nwarmup = 0\nmeasure = 100us\n[topology]\ntype = rlft\nk = 4\nstages = 2\n";
    const char *sets[] = { "traffic.scenario=hotspot", "traffic.hs_fraction=0.25", "traffic.hs_count=2",
                           "traffic.hs_nodes=0 5000", "traffic.hs_period=10us", "traffic.hs_start=5us", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, sets);
    uint32_t src[2] = { ICN_NIL, ICN_NIL };
    for (uint32_t n = 0; n < s.nnodes; n++)
        if (s.nic[n].hot >= 0 && src[s.nic[n].hot] == ICN_NIL) src[s.nic[n].hot] = n;
    CHECK(src[0] != ICN_NIL && src[1] != ICN_NIL, "no sources with roles");
    rng_t r;
    rng_seed(&r, 1, 1, 1);
    uint32_t seen[10][2], moves = 0;
    for (int e = 0; e < 10; e++)
        for (int k = 0; k < 2; k++) {
            simtime_t t = 5000000 + (simtime_t)e * 10000000;
            uint32_t a = s.scenario->dst(&s, src[k], t, &r), b = s.scenario->dst(&s, src[k], t + 9999999, &r);
            CHECK(a == b, "the hot-spot moved within period %d", e);
            CHECK(a < s.nnodes && s.nic[a].hot < 0, "period %d: hot-spot %u is a source", e, a);
            seen[e][k] = a;
            if (e && a != seen[e - 1][k]) moves++;
        }
    CHECK(seen[0][0] != seen[0][1], "two sources of different roles share a hot-spot");
    CHECK(moves >= 16, "the hot-spots moved %u times in 9 periods x 2", moves);
    CHECK(s.scenario->dst(&s, src[0], 4000000, &r) == ICN_NIL, "a role before traffic.hs_start");
    sim_free(&s);
    cfg_free(&c);
}
