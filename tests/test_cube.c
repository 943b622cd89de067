/* k-ary n-cubes: structure, dimension-order routes, zero-load latency,
 * channel-load bounds and deadlock (validation-references sections 2-4). */
#include "test.h"
#include "util.h"
#include "../src/net/link.h"
#include "../src/net/policy.h"
#include "../src/topo/cube.h"
#include "../src/core/util.h"
#include <stdio.h>
#include <string.h>

/* Seed 004 timing: 16-bit phits at one per 5.25 ns cycle, 4-cycle routers,
 * 20-phit packets, no wire delay. */
static const char *timing = "[link]\nbandwidth = 16b/5.25ns\ndelay = 0\n[switch]\nrouting_delay = 21ns\narbiter = rr\n"
                            "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 40B\n";

static void cube_setup(sim_t *s, cfg_t *c, const char *type, int k, int n, int conc, const char *routing, const char *const *more)
{
    char ini[2048];
    snprintf(ini, sizeof ini, "%s[topology]\ntype = %s\nk = %d\nn = %d\nconcentration = %d\n[routing]\nalgorithm = %s\n",
             timing, type, k, n, conc, routing);
    tsim_setup(s, c, ini, more);
}

TEST(cube_counts_and_wiring)
{
    static const struct { const char *type; int k, n, c; } cases[] = {
        { "torus", 8, 1, 1 }, { "torus", 8, 2, 1 }, { "torus", 4, 3, 1 }, { "torus", 4, 2, 2 },
        { "mesh", 8, 2, 1 }, { "mesh", 3, 3, 1 }, { "mesh", 5, 1, 3 }, { "torus", 2, 3, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_t s;
        cfg_t c;
        const char *more[] = { "load=0", NULL };
        cube_setup(&s, &c, cases[i].type, cases[i].k, cases[i].n, cases[i].c, "dor", more);
        uint32_t R = 1;
        for (int d = 0; d < cases[i].n; d++) R *= (uint32_t)cases[i].k;
        int torus = !strcmp(cases[i].type, "torus") && cases[i].k > 2;
        CHECK(s.nswitches == R && s.nnodes == R * (uint32_t)cases[i].c, "%s %d-ary %d-cube: %u routers, %u nodes",
              cases[i].type, cases[i].k, cases[i].n, s.nswitches, s.nnodes);
        uint32_t links = 0, sym = 1;
        for (uint32_t w = 0; w < s.nswitches; w++)
            for (uint32_t p = (uint32_t)cases[i].c; p < s.sw[w].nports; p++) {
                uint32_t g = sw_port(&s, w, p), peer = s.port[g].peer;
                if (peer == ICN_NIL) continue;
                links++;
                if (s.port[peer].peer != g) sym = 0;
                /* + ports meet - ports of the same dimension */
                if ((s.port[peer].local - (uint32_t)cases[i].c) / 2 != (p - (uint32_t)cases[i].c) / 2 || s.port[peer].local == p) sym = 0;
            }
        uint32_t want = torus ? R * 2 * (uint32_t)cases[i].n : 2u * (uint32_t)cases[i].n * (uint32_t)(cases[i].k - 1) * (R / (uint32_t)cases[i].k);
        CHECK(links == want, "%s %d-ary %d-cube: %u connected router ports, want %u", cases[i].type, cases[i].k, cases[i].n, links, want);
        CHECK(sym, "asymmetric or mis-dimensioned links");
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Average router-to-router distance of DOR over all pairs (self excluded),
 * by walking every route; validation-references section 3. */
static double walk_all(sim_t *s)
{
    double sum = 0;
    uint64_t pairs = 0;
    for (uint32_t a = 0; a < s->nnodes; a++)
        for (uint32_t b = 0; b < s->nnodes; b++) {
            if (a == b) continue;
            int hops = cube_walk(s, a, b, NULL, NULL);
            if (hops < 0) return -1;
            sum += hops;
            pairs++;
        }
    return sum / (double)pairs;
}

TEST(cube_dor_average_distance_exact)
{
    static const struct { const char *type; int k, n; double want; } cases[] = {
        { "mesh", 8, 2, 5.333 }, { "torus", 8, 2, 4.063 }, { "torus", 4, 3, 3.048 }, { "torus", 16, 2, 8.031 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *more[] = { "load=0", NULL };
        const char *more_t[] = { "load=0", "routing.tie=plus", NULL };
        sim_t s;
        cfg_t c;
        cube_setup(&s, &c, cases[i].type, cases[i].k, cases[i].n, 1, "dor", strcmp(cases[i].type, "torus") ? more : more_t);
        double avg = walk_all(&s);
        CHECK_NEAR(avg, cases[i].want, 0.0006, "average DOR distance");
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Zero load: a packet crossing H routers takes H * pipeline + L phits. */
TEST(cube_zero_load_latency)
{
    static const struct { const char *pattern; uint64_t want_ps; } cases[] = {
        { "neighbor", 3 * 21000 + 105000 },    /* 2 hops: 3 routers */
        { "tornado", 7 * 21000 + 105000 },     /* 3 + 3 hops: 7 routers */
    };
    for (int i = 0; i < 2; i++) {
        char pat[64];
        snprintf(pat, sizeof pat, "traffic.pattern=%s", cases[i].pattern);
        const char *more[] = { pat, "load=0.001", "time.warmup=0", "time.measure=5ms", NULL };
        sim_t s;
        cfg_t c;
        cube_setup(&s, &c, "torus", 8, 2, 1, "dor-bubble", more);
        sim_run(&s);
        CHECK(s.st.net.n > 500, "%llu samples", (unsigned long long)s.st.net.n);
        CHECK(s.st.net.min == cases[i].want_ps, "%s: minimum latency %llu ps, formula %llu", cases[i].pattern,
              (unsigned long long)s.st.net.min, (unsigned long long)cases[i].want_ps);
        CHECK(hist_mean(&s.st.net) < 1.01 * (double)cases[i].want_ps, "%s: mean %.0f ps", cases[i].pattern, hist_mean(&s.st.net));
        CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
        sim_free(&s);
        cfg_free(&c);
    }
    /* uniform: ((D + 1) P + L) Tc with D = 256/63, as seed 004's base latencies */
    const char *more[] = { "traffic.pattern=uniform", "load=0.0005", "time.warmup=0", "time.measure=20ms", NULL };
    sim_t s;
    cfg_t c;
    cube_setup(&s, &c, "torus", 8, 2, 1, "dor-bubble", more);
    sim_run(&s);
    double model = ((256.0 / 63 + 1) * 4 + 20) * 5.25;
    CHECK_NEAR(hist_mean(&s.st.net) / 1e3 / model, 1.0, 0.01, "uniform base latency / model");
    printf("       8x8 torus, bubble DOR, uniform: base latency %.1f ns (model %.1f, seed 004: 212.9)\n", hist_mean(&s.st.net) / 1e3, model);
    sim_free(&s);
    cfg_free(&c);
}

/* Saturated 4-ary 2-cube with 2-packet buffers: plain DOR deadlocks (and is
 * reported); datelines and both bubble variants never do. */
TEST(cube_deadlock_dor_vs_dateline_and_bubble)
{
    static const struct { const char *routing, *vcs, *extra; int want; } cases[] = {
        { "dor", "switch.vcs=1", "traffic.pattern=uniform", 3 },
        { "dor-dateline", "switch.vcs=2", "traffic.pattern=uniform", 0 },
        { "dor-bubble", "switch.vcs=1", "routing.bubble=local", 0 },
        { "dor-bubble", "switch.vcs=1", "routing.bubble=remote", 0 },
        { "bubble-adaptive", "switch.vcs=2", "routing.bubble=local", 0 },
        { "bubble-adaptive", "switch.vcs=2", "routing.escape_after=1", 0 },
    };
    for (int i = 0; i < 6; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "switch.buffer=%s", i == 1 || i >= 4 ? "160B" : "80B");
        const char *more[] = { cases[i].vcs, buf, cases[i].extra, "load=1.0", "time.warmup=0", "time.measure=3ms",
                               "time.deadlock=20us", "nic.buffer=80B", NULL };
        char ini[2048];
        snprintf(ini, sizeof ini, "%s[topology]\ntype = torus\nk = 4\nn = 2\n[routing]\nalgorithm = %s\n", timing, cases[i].routing);
        char label[128];
        snprintf(label, sizeof label, "%s %s", cases[i].routing, cases[i].extra);
        expect_deadlock(ini, more, cases[i].want, 0.2, label);
    }
}

/* 8x8 mesh, DOR: transpose and bit-reversal saturate at 1/7 = 0.143 per
 * injecting node (validation-references section 2). Below the bound
 * everything is carried; above it the network cannot keep up. (The slowest
 * flow at overload is far lower, from the unfairness of local round-robin to
 * flows that merge repeatedly, so saturation is tested, not the slowest flow.) */
TEST(cube_mesh_dor_saturates_at_channel_load_bound)
{
    static const char *pats[] = { "traffic.pattern=transpose", "traffic.pattern=bitrev" };
    for (int i = 0; i < 2; i++) {
        for (int over = 0; over < 2; over++) {
            const char *more[] = { pats[i], over ? "load=0.16" : "load=0.13", "time.warmup=50us", "time.measure=1ms",
                                   "switch.buffer=320B", NULL };
            char ini[2048];
            snprintf(ini, sizeof ini, "%s[topology]\ntype = mesh\nk = 8\nn = 2\n[routing]\nalgorithm = dor\n", timing);
            result_t r;
            tsim_run_checked(ini, more, &r);
            if (!over) {
                CHECK(r.accepted >= 0.995 * r.offered, "%s at 0.13: accepted %.4f of %.4f offered", pats[i], r.accepted, r.offered);
                CHECK(r.net_p99 < 5000, "%s at 0.13: p99 latency %.0f ns: saturated below the bound", pats[i], r.net_p99);
            } else {
                CHECK(r.accepted <= 0.985 * r.offered, "%s at 0.16: accepted %.4f of %.4f: above the channel-load bound", pats[i], r.accepted, r.offered);
            }
            if (over) printf("       8x8 mesh DOR %s: carried at 0.13, saturated at 0.16 (bound 0.1429)\n", pats[i] + 16);
        }
    }
}

/* Seed 004's structural claim: on permutations the adaptive Bubble Router
 * carries far more than the deterministic one (Table 3-8: transpose 30.6 vs
 * 13.0 phits/cycle). Same timing for both, so only routing differs. */
TEST(cube_bubble_adaptive_beats_dor_on_transpose)
{
    double acc[2];
    static const char *routing[] = { "dor-bubble", "bubble-adaptive" };
    for (int i = 0; i < 2; i++) {
        const char *more[] = { "traffic.pattern=transpose", "load=1.0", "time.warmup=20us", "time.measure=300us",
                               i ? "switch.vcs=2" : "switch.vcs=1", "switch.buffer=320B", NULL };
        char ini[2048];
        snprintf(ini, sizeof ini, "%s[topology]\ntype = torus\nk = 8\nn = 2\n[routing]\nalgorithm = %s\n", timing, routing[i]);
        result_t r;
        CHECK(tsim_run_checked(ini, more, &r) == 0, "%s deadlocked", routing[i]);
        acc[i] = r.accepted * 64;
    }
    CHECK(acc[1] > 1.8 * acc[0], "transpose: adaptive %.1f vs DOR %.1f phits/cycle", acc[1], acc[0]);
    printf("       8x8 torus transpose at full load: bubble DOR %.1f, bubble adaptive %.1f phits/cycle (seed 004: 13.0, 30.6)\n", acc[0], acc[1]);
}

/* Selection functions order the adaptive candidates; the escape comes last. */
TEST(cube_selection_functions_order_candidates)
{
    static const char *sel[] = { "routing.selection=dynamic-xy", "routing.selection=zigzag",
                                 "routing.selection=max-credits", "routing.selection=random" };
    for (int i = 0; i < 4; i++) {
        const char *more[] = { sel[i], "switch.vcs=2", "switch.buffer=320B", "load=0", NULL };
        sim_t s;
        cfg_t c;
        cube_setup(&s, &c, "torus", 8, 2, 1, "bubble-adaptive", more);
        const cube_t *q = cube_get(&s);
        /* at router (0,0), arrived travelling + in Y, going to router (3,1): X offset 3, Y offset 1 */
        packet_t p;
        memset(&p, 0, sizeof p);
        p.src = 0;
        p.dst = 3 + 8 * 1;
        p.vc = 1;
        uint32_t in = cube_in_port(q, 1, 0);
        cand_t cd[MAX_CAND];
        int n = s.routing->route(&s, 0, in, &p, cd);
        uint8_t xp = (uint8_t)cube_port(q, 0, 0), yp = (uint8_t)cube_port(q, 1, 0);
        CHECK(n == 3, "%s: %d candidates", sel[i], n);
        CHECK(cd[2].ovc == 0 && cd[2].out == xp && cd[2].fc == FC_BUBBLE_LOCAL,
              "%s: escape must be last: DOR (X first) on VC 0 with the bubble", sel[i]);
        if (i == 0) CHECK(cd[0].out == yp && cd[1].out == xp, "dynamic-xy: current dimension (Y) first");
        if (i == 1) CHECK(cd[0].out == xp && cd[1].out == yp, "zigzag: largest offset (X) first");
        if (i == 2) {
            *credit(&s, sw_port(&s, 0, xp), 1) = 40;   /* X adaptive channel nearly full */
            n = s.routing->route(&s, 0, in, &p, cd);
            CHECK(cd[0].out == yp, "max-credits: the channel with more credits (Y) first");
            *credit(&s, sw_port(&s, 0, xp), 1) = 160;
            *credit(&s, sw_port(&s, 0, yp), 1) = 40;
            n = s.routing->route(&s, 0, in, &p, cd);
            CHECK(cd[0].out == xp, "max-credits: X first when Y is fuller");
        }
        if (i == 3) {
            int first_x = 0;
            for (int t = 0; t < 200; t++) { s.routing->route(&s, 0, in, &p, cd); first_x += cd[0].out == xp; }
            CHECK(first_x > 60 && first_x < 140, "random: X first %d times of 200", first_x);
        }
        sim_free(&s);
        cfg_free(&c);
    }
}

/* The bubble is one full packet whatever the size of the packet that enters
 * the ring. At router 0 of a ring of 4 (80-byte queues, 40-byte packets), a
 * 2-byte packet injected towards node 1 goes only once the queue its rule
 * checks has room for itself and a full packet, 42 bytes: the ring's queue in
 * this router, counting the bytes on their way into it (local rule), or the
 * next router's (remote rule, by its credits). With 41, or with 42 of which
 * one is on its way in, it waits. */
TEST(bubble_rules_keep_a_full_packet_for_a_short_one)
{
    static const struct { int local, room, incoming, goes; } cases[] = {
        { 1, 42, 0, 1 }, { 1, 41, 0, 0 }, { 1, 43, 1, 1 }, { 1, 42, 1, 0 }, { 0, 42, 0, 1 }, { 0, 41, 0, 0 },
    };
    for (size_t i = 0; i < ICN_ARRAY_LEN(cases); i++) {
        const char *more[] = { cases[i].local ? "routing.bubble=local" : "routing.bubble=remote", "switch.buffer=80B", "load=0",
                               NULL };
        sim_t s;
        cfg_t c;
        cube_setup(&s, &c, "torus", 4, 1, 1, "dor-bubble", more);
        const cube_t *q = cube_get(&s);
        uint32_t xp = cube_port(q, 0, 0), go = sw_port(&s, 0, xp), lq = sw_port(&s, 0, cube_in_port(q, 0, 0));
        if (cases[i].local) {
            s.vq[lq * s.nvc].bytes = 80 - (uint32_t)cases[i].room;
            s.vq[lq * s.nvc].incoming = (uint32_t)cases[i].incoming;
        } else {
            *credit(&s, go, 0) = cases[i].room;
        }
        uint32_t id = pkt_alloc(&s);
        packet_t *p = &s.pkt[id];
        memset(p, 0, sizeof *p);
        p->src = 0;
        p->dst = 1;
        p->size = 2;
        p->msg = p->flow = ICN_NIL;
        switch_arrive(&s, sw_port(&s, 0, 0), id);
        switch_service(&s, 0);
        int went = (int)(s.sw[0].out_busy >> xp & 1);
        CHECK(went == cases[i].goes, "%s bubble, %d bytes free (%d on their way in): the 2-byte packet %s", cases[i].local ? "local" : "remote",
              cases[i].room, cases[i].incoming, went ? "went" : "waited");
        CHECK(s.pkt[id].out == xp || !went, "it left by the ring's + port");
        sim_free(&s);
        cfg_free(&c);
    }
}
