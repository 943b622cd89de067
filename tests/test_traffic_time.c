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
                               "time.warmup=1ms", "time.measure=9ms", NULL };
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
