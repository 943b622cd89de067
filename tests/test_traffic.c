/* Traffic patterns, injection processes and hot-spot scenarios. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/topo/fattree.h"
#include "../src/core/util.h"
#include <stdlib.h>
#include <string.h>

static void setup_n(sim_t *s, cfg_t *c, const char *pattern, int k, int t, const char *type)
{
    char p[64], kk[32], tt[32], ty[64];
    snprintf(p, sizeof p, "traffic.pattern=%s", pattern);
    snprintf(kk, sizeof kk, "topology.k=%d", k);
    snprintf(tt, sizeof tt, "topology.stages=%d", t);
    snprintf(ty, sizeof ty, "topology.type=%s", type);
    const char *sets[] = { p, kk, tt, ty, NULL };
    tsim_setup(s, c, "load = 0.5\n", sets);
}

TEST(traffic_permutations_are_bijective)
{
    static const char *perms[] = { "bitrev", "bitcomp", "transpose", "shuffle", "butterfly", "tornado", "shift" };
    for (size_t i = 0; i < sizeof perms / sizeof perms[0]; i++) {
        sim_t s;
        cfg_t c;
        setup_n(&s, &c, perms[i], 4, 3, "kary-ntree");   /* 64 nodes */
        uint8_t hit[64] = { 0 };
        int ok = 1;
        for (uint32_t n = 0; n < 64; n++) {
            rng_t r = s.nic[n].dest;
            uint32_t d = s.pattern->dst(&s, n, &r);
            if (d == ICN_NIL) { CHECK(s.nic[n].silent, "%s: fixed point %u not silent", perms[i], n); d = n; }
            if (d >= 64 || hit[d]++) ok = 0;
        }
        CHECK(ok, "%s is not a permutation", perms[i]);
        sim_free(&s);
        cfg_free(&c);
    }
    /* spot values, 64 nodes (6 bits) */
    sim_t s;
    cfg_t c;
    setup_n(&s, &c, "bitrev", 4, 3, "kary-ntree");
    CHECK(s.pattern->dst(&s, 1, NULL) == 32, "bitrev(1) = %u", s.pattern->dst(&s, 1, NULL));
    CHECK(s.pattern->dst(&s, 6, NULL) == 24, "bitrev(6) = %u", s.pattern->dst(&s, 6, NULL));
    sim_free(&s);
    cfg_free(&c);
    setup_n(&s, &c, "transpose", 4, 3, "kary-ntree");
    CHECK(s.pattern->dst(&s, 1, NULL) == 8, "transpose(1) = %u", s.pattern->dst(&s, 1, NULL));
    sim_free(&s);
    cfg_free(&c);
    setup_n(&s, &c, "shuffle", 4, 3, "kary-ntree");
    CHECK(s.pattern->dst(&s, 33, NULL) == 3, "shuffle(33) = %u", s.pattern->dst(&s, 33, NULL));
    sim_free(&s);
    cfg_free(&c);
}

TEST(traffic_uniform_excludes_self_and_covers_all)
{
    sim_t s;
    cfg_t c;
    setup_n(&s, &c, "uniform", 2, 3, "rlft");   /* 16 nodes */
    uint32_t count[16] = { 0 };
    rng_t r;
    rng_seed(&r, 7, RNG_DEST, 0);
    for (int i = 0; i < 150000; i++) count[s.pattern->dst(&s, 5, &r)]++;
    CHECK(count[5] == 0, "node 5 sent to itself %u times", count[5]);
    for (int d = 0; d < 16; d++)
        if (d != 5) CHECK_NEAR(count[d], 10000, 400, "destination frequency");
    sim_free(&s);
    cfg_free(&c);
}

TEST(traffic_processes_offer_the_load)
{
    static const char *procs[] = { "traffic.process=bernoulli", "traffic.process=poisson" };
    for (int i = 0; i < 2; i++) {
        const char *sets[] = { procs[i], NULL };
        result_t r;
        tsim_run_checked("load = 0.3\n[time]\nwarmup = 0\nmeasure = 1ms\n[topology]\nk = 2\nstages = 2\n", sets, &r);
        CHECK_NEAR(r.offered, 0.3, 0.01, procs[i]);
        CHECK_NEAR(r.accepted, 0.3, 0.015, procs[i]);
    }
}

/* HS10-1 / HS25-4 roles on the 432-node RLFT: exact source counts, hot-spot
 * ids scaled from the 11664-node ones, sources never hot-spots themselves. */
TEST(traffic_hotspot_roles)
{
    static const struct { const char *sc; int count, fraction_pct; } cases[] = {
        { "hs10-1", 1, 10 }, { "hs25-1", 1, 25 }, { "hs10-4", 4, 10 }, { "hs25-4", 4, 25 } };
    static const uint32_t scaled[4] = { 22, 125, 192, 351 };   /* floor(id * 432 / 11664) */
    for (int i = 0; i < 4; i++) {
        char sc[64];
        snprintf(sc, sizeof sc, "traffic.scenario=%s", cases[i].sc);
        const char *sets[] = { sc, NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, "load = 1\n[topology]\nk = 6\nstages = 3\n", sets);
        uint32_t per[4] = { 0 }, total = 0;
        for (uint32_t n = 0; n < s.nnodes; n++) {
            if (s.nic[n].hot < 0) continue;
            total++;
            per[s.nic[n].hot]++;
            for (int h = 0; h < cases[i].count; h++) CHECK(n != scaled[h], "hot-spot %u is also a source", n);
            rng_t r = s.nic[n].dest;
            uint32_t d = s.scenario->dst(&s, n, 0, &r);
            CHECK(d == scaled[s.nic[n].hot], "source %u sends to %u, want %u", n, d, scaled[s.nic[n].hot]);
        }
        uint32_t want = (uint32_t)(432 * cases[i].fraction_pct / 100.0 + 0.5);
        CHECK(total == want, "%s: %u sources, want %u", cases[i].sc, total, want);
        for (int h = 1; h < cases[i].count; h++) CHECK(per[h] + 1 >= per[0] && per[h] <= per[0], "uneven split");
        sim_free(&s);
        cfg_free(&c);
    }
}

TEST(traffic_hotspot_window)
{
    const char *sets[] = { "traffic.scenario=hs10-1", "traffic.hs_start=50us", "traffic.hs_end=80us", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, "load = 1\n[topology]\nk = 6\nstages = 3\n", sets);
    uint32_t src = 0;
    while (s.nic[src].hot < 0) src++;
    rng_t r = s.nic[src].dest;
    CHECK(s.scenario->dst(&s, src, 49999999, &r) == ICN_NIL, "active before start");
    CHECK(s.scenario->dst(&s, src, 50000000, &r) == 22, "inactive at start");
    CHECK(s.scenario->dst(&s, src, 80000000, &r) == ICN_NIL, "active at end");
    sim_free(&s);
    cfg_free(&c);
}

/* IHS: every IHS destination is routed by D-mod-K through its group's hot
 * stage-2 up port, and different groups' hot destinations never overlap. */
TEST(traffic_ihs_targets_stage2_up_ports)
{
    const char *sets[] = { "traffic.scenario=ihs", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, "load = 1\n[topology]\nk = 6\nstages = 3\n", sets);
    const fattree_t *ft = fattree_get(&s);
    uint32_t sources = 0, *owner = xcalloc(s.nnodes, sizeof *owner);
    int ok = 1;
    for (uint32_t n = 0; n < s.nnodes && ok; n++) {
        if (s.nic[n].hot < 0) continue;
        sources++;
        rng_t r = s.nic[n].dest;
        for (int i = 0; i < 20; i++) {
            uint32_t d = s.scenario->dst(&s, n, 0, &r);
            uint32_t grp = n / 36;
            if (d / 36 == grp) { ok = 0; CHECK(0, "IHS destination %u in the source's own group", d); break; }
            if (owner[d] && owner[d] != grp + 1) { ok = 0; CHECK(0, "destination %u shared by groups", d); break; }
            owner[d] = grp + 1;
            /* route: leaf up port, then the stage-2 switch and its up port */
            uint32_t leaf = ft->stage_off[1] + n / 6;
            uint32_t up1 = fattree_dmodk_port(ft, leaf, d);
            uint32_t s2 = s.port[s.port[sw_port(&s, leaf, up1)].peer].dev;
            uint32_t up2 = fattree_dmodk_port(ft, s2, d);
            uint32_t p = (grp * 7) % 36;
            if (ft->j[s2] != p % 6 || up2 != 6 + p / 6) { ok = 0; CHECK(0, "%u->%u crosses stage-2 switch j=%u port %u, want j=%u port %u", n, d, ft->j[s2], up2, p % 6, 6 + p / 6); break; }
        }
    }
    CHECK(sources == 86, "%u IHS sources, want 86 (20%% of 432)", sources);
    free(owner);
    sim_free(&s);
    cfg_free(&c);
}

/* Bimodal lengths: the long fraction, the offered load in bytes, and long
 * messages split into MTU packets that complete with their last packet. */
TEST(traffic_bimodal_lengths)
{
    const char *ini = "load = 0.2\n[time]\nwarmup = 20us\nmeasure = 4ms\n[topology]\ntype = torus\nk = 4\nn = 2\n"
                      "[link]\nbandwidth = 16b/5ns\ndelay = 0\n[switch]\nbuffer = 400B\nvcs = 1\n[routing]\nalgorithm = dor-bubble\n"
                      "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 40B\nlong_size = 400B\nlong_fraction = 0.1\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    sim_run(&s);
    result_t r;
    result_compute(&s, &r);
    CHECK_NEAR(r.offered, 0.2, 0.01, "offered load with bimodal lengths");
    CHECK_NEAR(r.accepted, r.offered, 0.01, "carried");
    /* packets per message: 0.9 x 1 + 0.1 x 10 = 1.9 */
    double ppm = (double)s.st.w_lat_pkts / (double)s.st.msg.n;
    CHECK_NEAR(ppm, 1.9, 0.08, "packets per message");
    /* a long message takes at least 10 serializations */
    CHECK(s.st.msg.max >= 10 * 20000, "longest message latency %llu ps", (unsigned long long)s.st.msg.max);
    CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
    sim_free(&s);
    cfg_free(&c);
}

/* Buffer granularity: 8-byte packets occupy 40 bytes each, so an 80-byte
 * VC holds two of them; credits and occupancy stay consistent at saturation. */
TEST(traffic_buffer_granularity)
{
    const char *ini = "load = 1.0\n[time]\nwarmup = 0\nmeasure = 500us\n[topology]\ntype = torus\nk = 4\nn = 2\n"
                      "[link]\nbandwidth = 16b/5ns\ndelay = 0\n[switch]\nbuffer = 80B\ngranularity = 40B\nvcs = 1\n"
                      "[nic]\nbuffer = 80B\n[routing]\nalgorithm = dor-bubble\n"
                      "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 8B\nlong_size = 40B\nlong_fraction = 0.8\n";
    result_t r;
    int rc = tsim_run_checked(ini, NULL, &r);
    CHECK(rc == 0, "status %d", rc);
    CHECK(r.accepted > 0.1, "accepted %.3f", r.accepted);
    /* with 8-byte units the same buffer would hold ten short packets: more throughput */
    const char *finer[] = { "switch.granularity=8B", NULL };
    result_t r2;
    tsim_run_checked(ini, finer, &r2);
    CHECK(r2.accepted > r.accepted, "finer granularity %.3f should carry more than %.3f", r2.accepted, r.accepted);
}
