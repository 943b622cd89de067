/* Loads in bits/us, time-varying (bursty) traffic and hot-spot regions. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
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
