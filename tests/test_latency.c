/* Zero-load latency: with no contention a packet takes
 *   (H + 1) * link_delay + H * routing_delay + serialization
 * from leaving its NIC to its tail reaching the destination, H switches. */
#include "test.h"
#include "util.h"
#include <stdio.h>

TEST(latency_zero_load_matches_formula)
{
    /* RLFTs with K = 2: every shift-by-N/2 route crosses 2T - 1 switches. */
    static const struct { int stages, shift, hops; } cases[] = { { 1, 2, 1 }, { 2, 4, 3 }, { 3, 8, 5 } };
    const char *ini = "load = 0.002\n[time]\nwarmup = 0\nmeasure = 20ms\n"
                      "[topology]\ntype = rlft\nk = 2\n"
                      "[link]\nbandwidth = 100Gbps\ndelay = 25ns\n"
                      "[switch]\nrouting_delay = 100ns\n[traffic]\npattern = shift\n";
    for (int i = 0; i < 3; i++) {
        char sh[32], st[32];
        snprintf(sh, sizeof sh, "traffic.shift=%d", cases[i].shift);
        snprintf(st, sizeof st, "topology.stages=%d", cases[i].stages);
        const char *sets[] = { sh, st, NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, sets);
        sim_run(&s);
        int H = cases[i].hops;
        uint64_t want = (uint64_t)(H + 1) * 25000 + (uint64_t)H * 100000 + 327680;   /* ps; 4 KB at 100 Gbps */
        CHECK(s.st.net.n > 100, "only %llu samples", (unsigned long long)s.st.net.n);
        CHECK(s.st.net.min == want, "H=%d: minimum network latency %llu ps, formula %llu ps", H,
              (unsigned long long)s.st.net.min, (unsigned long long)want);
        CHECK(s.st.lat.min == want, "H=%d: minimum total latency %llu ps, formula %llu ps", H,
              (unsigned long long)s.st.lat.min, (unsigned long long)want);
        /* at 0.2 % load almost nothing queues: the mean is the formula within 1 % */
        CHECK(hist_mean(&s.st.net) <= want * 1.01, "H=%d: mean %.0f ps, formula %llu", H, hist_mean(&s.st.net), (unsigned long long)want);
        CHECK(fabs((double)s.st.w_hops_sum / (double)s.st.w_lat_pkts - H) < 1e-9, "hops per packet %f, want %d",
              (double)s.st.w_hops_sum / (double)s.st.w_lat_pkts, H);
        CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Messages larger than the MTU are split; the message completes with its last
 * packet, one serialization per packet later in the pipeline. */
TEST(latency_message_split_into_packets)
{
    const char *ini = "load = 0.01\n[time]\nwarmup = 0\nmeasure = 10ms\n"
                      "[topology]\ntype = rlft\nk = 2\nstages = 1\n"
                      "[link]\ndelay = 10ns\n[packet]\nmtu = 4KB\n[traffic]\nmessage_size = 10KB\npattern = shift\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    sim_run(&s);
    /* 3 packets: 4096 + 4096 + 2048 bytes, back to back; 1 switch */
    uint64_t ser_total = 327680 * 2 + 163840;
    uint64_t want = 2 * 10000 + ser_total;
    CHECK(s.st.msg.n > 50, "only %llu messages", (unsigned long long)s.st.msg.n);
    CHECK(s.st.msg.min == want, "message latency %llu ps, want %llu", (unsigned long long)s.st.msg.min, (unsigned long long)want);
    CHECK(s.st.net.min == 2 * 10000 + 163840, "smallest packet latency %llu", (unsigned long long)s.st.net.min);
    CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
    CHECK(sim_drain(&s, 1000000000ull) == 0 && s.pkt_live == 0 && sim_check_invariants(&s, 1) == 0, "drain");
    sim_free(&s);
    cfg_free(&c);
}
