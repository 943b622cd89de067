/* The flit-level router model: pipeline timing, wormhole deadlock and its
 * avoidance, adaptivity, VCT switching, invariants. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/net/flit.h"
#include "../src/net/link.h"
#include "../src/sim/internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 16-bit flits, 20-flit packets, a 5-cycle pipeline at 5 ns (VC DOR-like). */
static const char *flit_ini =
    "[switch]\nmodel = flit\nswitching = wormhole\nvcs = 2\n[link]\nphit = 2B\n"
    "[router]\ncycle = 5ns\nsync = 1\nfifo = 1\nrouting = 1\ncrossbar = 1\nvcmux = 1\n"
    "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 40B\n";

static void ini_with(char *buf, size_t n, const char *topo, const char *routing)
{
    snprintf(buf, n, "%s[topology]\n%s[routing]\nalgorithm = %s\n", flit_ini, topo, routing);
}

/* A packet crossing H routers takes H * P + L cycles from injection. */
TEST(flit_zero_load_latency_is_pipeline_plus_serialization)
{
    static const struct { const char *pattern; int routers; } cases[] = { { "neighbor", 3 }, { "tornado", 7 } };
    for (int i = 0; i < 2; i++) {
        char ini[2048], pat[64];
        ini_with(ini, sizeof ini, "type = torus\nk = 8\nn = 2\n", "dor-dateline");
        snprintf(pat, sizeof pat, "traffic.pattern=%s", cases[i].pattern);
        const char *more[] = { pat, "switch.buffer=320B", "load=0.001", "time.warmup=0", "time.measure=5ms", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, more);
        sim_run(&s);
        uint64_t want = (uint64_t)(cases[i].routers * 5 + 20) * 5000;
        CHECK(s.st.net.n > 500, "%llu samples", (unsigned long long)s.st.net.n);
        CHECK(s.st.net.min == want, "%s: minimum network latency %llu ps, want %llu",
              cases[i].pattern, (unsigned long long)s.st.net.min, (unsigned long long)want);
        CHECK(hist_mean(&s.st.net) < 1.01 * (double)want, "%s: mean %.0f ps", cases[i].pattern, hist_mean(&s.st.net));
        /* every packet-hop moves 20 flits, but for worms still on their way */
        CHECK(s.st.flit_hops <= 20 * s.st.pkt_hops && s.st.flit_hops + 20ull * 8 * (s.pkt_live + 1) >= 20 * s.st.pkt_hops,
              "flit-hops %llu, packet-hops %llu", (unsigned long long)s.st.flit_hops, (unsigned long long)s.st.pkt_hops);
        CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Saturated 4-ary 2-cube, wormhole: plain DOR on one VC class deadlocks and
 * is reported; datelines and Duato's routing never do. */
TEST(flit_wormhole_deadlock_and_its_avoidance)
{
    static const struct { const char *routing, *vcs; int want; } cases[] = {
        { "dor", "switch.vcs=1", 3 }, { "dor-dateline", "switch.vcs=2", 0 }, { "duato", "switch.vcs=3", 0 },
    };
    for (int i = 0; i < 3; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, "type = torus\nk = 4\nn = 2\n", cases[i].routing);
        const char *more[] = { cases[i].vcs, "switch.buffer=240B", "load=1.0", "time.warmup=0", "time.measure=2ms",
                               "time.deadlock=20us", NULL };
        expect_deadlock(ini, more, cases[i].want, 0.2, cases[i].routing);
    }
}

/* Seed 004's structural claim for the wormhole routers: VC Adapt carries far
 * more than VC DOR on transpose (Table 3-8: 27.3 vs 14.7 phits/cycle). */
TEST(flit_duato_beats_dor_on_transpose)
{
    static const struct { const char *routing, *vcs, *sizes; } cases[] = {
        { "dor-dateline", "switch.vcs=2", "switch.vc_sizes=160B 160B" },
        { "duato", "switch.vcs=3", "switch.vc_sizes=80B 80B 160B" },
    };
    double acc[2];
    for (int i = 0; i < 2; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, "type = torus\nk = 8\nn = 2\n", cases[i].routing);
        const char *more[] = { cases[i].vcs, cases[i].sizes, "traffic.pattern=transpose", "load=1.0",
                               "time.warmup=20us", "time.measure=200us", NULL };
        result_t r;
        CHECK(tsim_run_checked(ini, more, &r) == 0, "%s deadlocked", cases[i].routing);
        acc[i] = r.accepted * 64;
    }
    CHECK(acc[1] > 1.5 * acc[0], "transpose: duato %.1f vs DOR %.1f phits/cycle", acc[1], acc[0]);
    printf("       8x8 torus transpose, wormhole: VC DOR %.1f, VC Adapt %.1f phits/cycle (seed 004: 14.7, 27.3)\n", acc[0], acc[1]);
}

/* Virtual cut-through at flit level: a packet needs room for all its flits
 * downstream; links carry whole packets. Mesh DOR under overload. */
TEST(flit_vct_switching)
{
    char ini[2048];
    ini_with(ini, sizeof ini, "type = mesh\nk = 4\nn = 2\n", "dor");
    const char *more[] = { "switch.switching=vct", "switch.vcs=1", "switch.buffer=80B", "load=1.0",
                           "time.warmup=0", "time.measure=500us", NULL };
    result_t r;
    CHECK(tsim_run_checked(ini, more, &r) == 0, "status");
    CHECK(r.accepted > 0.2, "accepted %.3f", r.accepted);
    /* a VC smaller than a packet cannot do VCT */
    const char *bad[] = { "switch.switching=vct", "switch.vcs=1", "switch.buffer=38B", NULL };
    char out[4096], cmd[4096];
    (void)bad;
    snprintf(cmd, sizeof cmd, "%s run experiments/seed004/vc-dor.ini -q -o /tmp/icnsim-flit-bad -s switch.switching=vct "
             "-s switch.buffer=76B", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "whole packet"), "VCT with 19-flit VCs: %s", out);
}

/* Virtual cut-through holds at every input VC, the injection VCs included: a
 * node starts a packet only with room for all its flits in its router's input
 * VC, as a router does downstream (and as the packet-level NIC does). One
 * packet per VC makes a partial injection certain under overload; the
 * invariant check (free flits >= flits of the last packet still to come)
 * runs every few hundred events. */
TEST(flit_vct_injection_needs_room_for_the_whole_packet)
{
    char ini[2048];
    ini_with(ini, sizeof ini, "type = mesh\nk = 4\nn = 2\n", "dor");
    const char *more[] = { "switch.switching=vct", "switch.vcs=1", "switch.buffer=40B", "load=1.0", "time.warmup=0",
                           "time.measure=100us", "check.invariants=yes", "check.every=300", NULL };
    result_t r;
    CHECK(tsim_run_checked(ini, more, &r) == 0, "status (an invariant broke?)");
    CHECK(r.accepted > 0.3, "accepted %.3f", r.accepted);
}

/* Duato on the 8x8 torus under sustained load: a packet that crossed a
 * ring's wrap-around link on the adaptive VC must take the escape network on
 * the post-dateline VC, or the escape channels form a cycle (this deadlocked
 * within 200 us at load 0.6 before the dateline VC followed coordinates). */
TEST(flit_duato_escape_respects_datelines)
{
    /* seed 004's VC Adapt router, as in experiments/seed004/vc-adaptive.ini */
    const char *more[] = { "load=0.6", "time.warmup=20us", "time.measure=400us", "time.deadlock=20us", NULL };
    result_t r;
    int rc = tsim_run_checked("include = experiments/seed004/vc-adaptive.ini\n", more, &r);
    CHECK(rc == 0, "status %d (deadlock)", rc);
    CHECK(r.accepted > 0.55, "accepted %.3f at load 0.6", r.accepted);
    /* 200-flit worms next to shared adaptive queues: adaptive channels admit
     * whole packets only, so a worm never waits behind another in one */
    const char *worms[] = { "load=1.0", "time.warmup=0", "time.measure=300us", "time.deadlock=20us", "packet.mtu=400B",
                            "traffic.long_fraction=0.1", "traffic.long_size=400B", NULL };
    rc = tsim_run_checked("include = experiments/seed004/vc-adaptive.ini\n", worms, &r);
    CHECK(rc == 0, "200-flit worms: status %d (deadlock)", rc);
}

/* Flits of several phits and links of several phits per cycle: a packet of
 * nf flits crossing H routers takes H (P + cpf - 1) + nf cpf cycles when a
 * flit takes cpf cycles, or H P + nf / fpc when a link carries fpc flits. */
TEST(flit_widths_set_serialization)
{
    static const struct { const char *flit, *width; uint64_t cycles; } cases[] = {
        { "link.flit=1", "link.width=2", 3 * 5 + 20 / 2 },        /* 2 flits per cycle (through the crossbar too) */
        { "link.flit=2", "link.width=1", 3 * (5 + 2 - 1) + 10 * 2 },  /* a flit takes 2 cycles */
        { "link.flit=2", "link.width=2", 3 * 5 + 10 },            /* a flit per cycle */
    };
    for (int i = 0; i < 3; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, "type = torus\nk = 8\nn = 2\n", "dor-dateline");
        const char *more[] = { cases[i].flit, cases[i].width, "router.input_speedup=2", "traffic.pattern=neighbor", "switch.buffer=320B",
                               "load=0.001", "time.warmup=0", "time.measure=5ms", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, more);
        sim_run(&s);
        CHECK(s.st.net.min == cases[i].cycles * 5000, "%s %s: latency %llu ps, want %llu", cases[i].flit, cases[i].width,
              (unsigned long long)s.st.net.min, (unsigned long long)(cases[i].cycles * 5000));
        CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
        sim_free(&s);
        cfg_free(&c);
    }
}

/* The clock runs only while something moves: a node whose flits take
 * several cycles each (link.flit > link.width) leaves the active list once it
 * has nothing to send, as one with one-cycle flits does, so a nearly idle
 * network costs about the same events either way, not one per cycle. */
TEST(flit_idle_nodes_stop_the_clock)
{
    uint64_t events[2];
    const char *flits[] = { "link.flit=1", "link.flit=2" };
    for (int i = 0; i < 2; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, "type = torus\nk = 4\nn = 2\n", "dor-dateline");
        const char *more[] = { flits[i], "switch.buffer=320B", "load=0.0001", "time.warmup=0", "time.measure=200us", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, more);
        sim_run(&s);
        events[i] = s.st.events;
        CHECK(s.st.del_pkts > 0, "%s: nothing delivered", flits[i]);
        sim_free(&s);
        cfg_free(&c);
    }
    /* 200 us are 40000 cycles of 5 ns; a few packets need a few hundred */
    CHECK(events[1] < 3 * events[0], "%llu events with 2-cycle flits, %llu with 1-cycle flits",
          (unsigned long long)events[1], (unsigned long long)events[0]);
}

/* The flit invariants see a packet the model lost track of (counted live,
 * found in no VC, source NIC or delivery), and a worm whose flits do not
 * make up its packet. */
TEST(flit_invariants_find_lost_packets_and_broken_worms)
{
    for (int i = 0; i < 2; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, "type = torus\nk = 4\nn = 2\n", "dor-dateline");
        const char *more[] = { "switch.buffer=320B", "load=0.8", "time.warmup=0", "time.measure=20us", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, more);
        sim_run_until(&s, 10000000);
        CHECK(s.pkt_live > 0 && sim_check_invariants(&s, 0) == 0, "%u live packets, invariants", s.pkt_live);
        if (i == 0) {
            s.pkt_live++;   /* a packet nowhere, counted as injected too */
            s.st.inj_pkts++;
        } else {
            for (uint32_t id = 0; id < s.npkt_cap; id++) s.pkt[id].size *= 2;   /* every worm now half a packet */
        }
        CHECK(sim_check_invariants(&s, 0) != 0, "%s not found", i ? "broken worms" : "a lost packet");
        if (i == 0) s.pkt_live--, s.st.inj_pkts--;
        else for (uint32_t id = 0; id < s.npkt_cap; id++) s.pkt[id].size /= 2;
        sim_free(&s);
        cfg_free(&c);
    }
}

/* The flit model has no bubble condition (room_ok is the packet-level
 * switch's): a bubble routing on it would run with no deadlock avoidance at
 * all, so the configuration is refused. */
TEST(flit_refuses_bubble_routings)
{
    static const char *runs[] = {
        "experiments/seed004/vc-dor.ini -s routing.algorithm=dor-bubble -s switch.vcs=1",
        "experiments/seed004/vc-adaptive.ini -s routing.algorithm=bubble-adaptive -s switch.vcs=2 -s 'switch.vc_sizes=160B 160B'",
    };
    for (int i = 0; i < 2; i++) {
        char out[4096], cmd[4096];
        snprintf(cmd, sizeof cmd, "%s run %s -q -o /tmp/icnsim-flit-bubble", icnsim_bin(), runs[i]);
        CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "packet-level switch"), "%s: %s", runs[i], out);
    }
}

/* A VC's size is whole flits: 81 bytes of 2-byte flits is refused, not
 * silently cut to 40 flits. */
TEST(flit_vc_sizes_are_whole_flits)
{
    char out[4096], cmd[4096];
    snprintf(cmd, sizeof cmd, "%s run experiments/seed004/vc-adaptive.ini -s 'switch.vc_sizes=81B 80B 160B' -q -o /tmp/icnsim-flit-vcsize",
             icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "switch.vc_sizes") && strstr(out, "whole flits"), "%s", out);
}

/* Duato's adaptive VC admits whole packets only: one that holds fewer flits
 * than a packet is never taken, and the set-up says so (the run goes on: the
 * escape VCs alone are a valid router). */
TEST(flit_duato_warns_of_an_adaptive_vc_smaller_than_a_packet)
{
    char out[4096], cmd[4096];
    static const struct { const char *sizes; int warns; } cases[] = { { "80B 80B 38B", 1 }, { "80B 80B 40B", 0 } };
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s run experiments/seed004/vc-adaptive.ini -s 'switch.vc_sizes=%s' -s time.measure=1us "
                 "-s time.warmup=0 -q -o /tmp/icnsim-flit-duato-vc", icnsim_bin(), cases[k].sizes);
        int rc = run_cmd(cmd, out, sizeof out);
        int warned = strstr(out, "warning: duato admits only whole packets to VC 2") != NULL;
        CHECK(rc == 0 && warned == cases[k].warns, "vc_sizes %s: rc %d, warned %d, want %d: %s", cases[k].sizes, rc, warned,
              cases[k].warns, out);
    }
}

/* A router routes a head once, in its routing stage; a head that waits for
 * its output is not routed again (a random choice would otherwise become a
 * random retry: oblivious up ports, the torus's random tie at half-way),
 * unless the routing is adaptive by definition. Counted through a wrapper
 * around route(): at most one call per packet-hop, plus the heads still
 * waiting at the end. */
static const routing_ops *wrapped;
static uint64_t route_calls;
static int counting_route(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    route_calls++;
    return wrapped->route(s, w, in, p, c);
}

TEST(flit_routes_a_head_once_unless_adaptive)
{
    static const struct { const char *topo, *routing, *vcs; int adaptive; } cases[] = {
        { "type = kary-ntree\nk = 4\nstages = 3\n", "oblivious", "switch.vcs=1", 0 },
        { "type = torus\nk = 8\nn = 2\n", "dor-dateline", "switch.vcs=2", 0 },
        { "type = torus\nk = 8\nn = 2\n", "duato", "switch.vcs=3", 1 },
    };
    for (int i = 0; i < 3; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, cases[i].topo, cases[i].routing);
        const char *more[] = { cases[i].vcs, "switch.buffer=240B", "load=1.0", "time.warmup=0", "time.measure=50us",
                               "time.drain=false", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, more);
        routing_ops ops = *s.routing;
        wrapped = s.routing;
        ops.route = counting_route;
        s.routing = &ops;
        route_calls = 0;
        CHECK(sim_run(&s) == 0, "%s: status", cases[i].routing);
        uint64_t bound = s.st.pkt_hops + (uint64_t)s.nports * s.nvc;
        if (cases[i].adaptive)
            CHECK(route_calls > 2 * bound, "%s: %llu routings for %llu packet-hops: a waiting head is not routed again",
                  cases[i].routing, (unsigned long long)route_calls, (unsigned long long)s.st.pkt_hops);
        else
            CHECK(route_calls <= bound, "%s: %llu routings for %llu packet-hops", cases[i].routing,
                  (unsigned long long)route_calls, (unsigned long long)s.st.pkt_hops);
        s.routing = wrapped;
        sim_free(&s);
        cfg_free(&c);
    }
}

/* 8x8 mesh, DOR, uniform traffic at full load, 16-flit VCs. */
static double mesh_vcs_accepted(int vcs, const char *alloc, const char *allocator, const char *arbiter, const char *iters)
{
    char ini[2048], v[32], buf[32];
    ini_with(ini, sizeof ini, "type = mesh\nk = 8\nn = 2\n", "dor");
    snprintf(v, sizeof v, "switch.vcs=%d", vcs);
    snprintf(buf, sizeof buf, "switch.buffer=%dB", 32 * vcs);
    const char *more[] = { v, buf, "queuing.scheme=dbbm", "load=1.0", "time.warmup=10us", "time.measure=40us", "time.drain=false",
                           alloc, allocator, arbiter, iters, NULL };
    if (vcs == 1) more[7] = NULL;   /* one VC: nothing to allocate, and the VC keys are refused as without effect */
    result_t r;
    CHECK(tsim_run_checked(ini, more, &r) == 0, "%d VCs: deadlock", vcs);
    return r.accepted;
}

/* Saturation of the same mesh (the least unstable load, by bisection on
 * short runs) with per-hop VC allocation. */
static double mesh_vcs_saturation(int vcs)
{
    char ini[2048], v[32], buf[32], l[32];
    ini_with(ini, sizeof ini, "type = mesh\nk = 8\nn = 2\n", "dor");
    snprintf(v, sizeof v, "switch.vcs=%d", vcs);
    snprintf(buf, sizeof buf, "switch.buffer=%dB", 32 * vcs);
    double lo = 0.05, hi = 0.7;
    for (int step = 0; step < 6; step++) {
        snprintf(l, sizeof l, "load=%.4f", (lo + hi) / 2);
        const char *more[] = { v, buf, l, "queuing.scheme=dbbm", "time.warmup=5us", "time.measure=20us", "time.drain=false", NULL };
        sim_t s;
        cfg_t c;
        result_t r;
        tsim_setup(&s, &c, ini, more);
        CHECK(sim_run(&s) == 0, "%d VCs: deadlock", vcs);
        result_compute(&s, &r);
        if (r.unstable) hi = (lo + hi) / 2;
        else lo = (lo + hi) / 2;
        sim_free(&s);
        cfg_free(&c);
    }
    return (lo + hi) / 2;
}

/* Per-hop VC allocation: a head may take any free VC at every hop, so more
 * VCs carry more under uniform DOR on a mesh. With DBBM's static VC
 * (destination mod Q) every Y link of an 8x8 mesh is single-VC, and 4 VCs do
 * no better than 2. Every allocator variant sits close to the default. */
TEST(flit_per_hop_vcs_saturate_later)
{
    const char *ph = "router.vc_alloc=per-hop", *st = "router.vc_alloc=static", *inf = "router.vc_allocator=input-first",
               *rr = "router.vc_arbiter=round-robin", *all = "router.vc_iterations=0";
    double a1 = mesh_vcs_accepted(1, ph, inf, rr, all), a2 = mesh_vcs_accepted(2, ph, inf, rr, all);
    double a4 = mesh_vcs_accepted(4, ph, inf, rr, all);
    double s2 = mesh_vcs_accepted(2, st, inf, rr, all), s4 = mesh_vcs_accepted(4, st, inf, rr, all);
    printf("       8x8 mesh, uniform DOR at full load: per-hop 1/2/4 VCs %.3f / %.3f / %.3f; static DBBM 2/4 VCs %.3f / %.3f\n",
           a1, a2, a4, s2, s4);
    CHECK(a2 > 1.2 * a1 && a4 > 1.09 * a2, "per-hop: 1 VC %.3f, 2 VCs %.3f, 4 VCs %.3f", a1, a2, a4);
    double t1 = mesh_vcs_saturation(1), t2 = mesh_vcs_saturation(2), t4 = mesh_vcs_saturation(4);
    printf("       8x8 mesh, uniform DOR, per-hop VCs: saturation at load %.3f / %.3f / %.3f with 1 / 2 / 4 VCs\n", t1, t2, t4);
    CHECK(t2 > 1.2 * t1 && t4 > 1.1 * t2, "saturation with 1 / 2 / 4 VCs at %.3f / %.3f / %.3f", t1, t2, t4);
    CHECK(a4 > 1.45 * s4 && s4 < 1.02 * s2, "static DBBM: 2 VCs %.3f, 4 VCs %.3f; per-hop 4 VCs %.3f", s2, s4, a4);
    static const char *variants[][3] = {
        { "router.vc_allocator=output-first", "router.vc_arbiter=round-robin", "router.vc_iterations=0" },
        { "router.vc_allocator=output-first", "router.vc_arbiter=islip", "router.vc_iterations=1" },
        { "router.vc_allocator=input-first", "router.vc_arbiter=islip", "router.vc_iterations=2" },
    };
    for (int i = 0; i < 3; i++) {
        double a = mesh_vcs_accepted(4, ph, variants[i][0], variants[i][1], variants[i][2]);
        CHECK(fabs(a - a4) < 0.05 * a4, "%s %s %s: 4 VCs %.3f, default %.3f", variants[i][0], variants[i][1], variants[i][2], a, a4);
    }
}

/* The static scheme's single-VC links are reported at set-up. */
/* Run icnsim with `args` (a 1 us run into a scratch directory): it must
 * succeed, and print `warning` exactly when `warn` is set. */
static void expect_warning(const char *args, const char *warning, int warn)
{
    char out[8192], cmd[4096];
    snprintf(cmd, sizeof cmd, "%s run %s -q -o /tmp/icnsim-flit-warn -s output.plots=no -s time.warmup=0 -s time.measure=1us",
             icnsim_bin(), args);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "%s: %s", args, out);
    CHECK(!strstr(out, warning) == !warn, "%s: %s", args, out);
}

TEST(flit_static_single_vc_links_warned)
{
    static const char *base = "experiments/seed004/vc-dor.ini -s topology.type=mesh -s routing.algorithm=dor "
                              "-s queuing.scheme=dbbm -s switch.vcs=4 -s router.vc_alloc=";
    static const char *warning = "all traffic of 128 of the 224 router-to-router links on one VC";
    static const struct { const char *alloc; int warn; } cases[] = { { "static", 1 }, { "per-hop", 0 } };
    for (int i = 0; i < 2; i++) {
        char args[1024];
        snprintf(args, sizeof args, "%s%s", base, cases[i].alloc);
        expect_warning(args, warning, cases[i].warn);
    }
}

/* A link of two flits per cycle behind routers left at one flit per input
 * port per cycle: the routers bound the run, which the user is told, unless
 * router.input_speedup was chosen. */
TEST(flit_slow_input_port_behind_a_wide_link_warned)
{
    static const struct { const char *speedup; int warn; } cases[] = {
        { "", 1 }, { "-s router.input_speedup=1", 0 }, { "-s router.input_speedup=2", 0 },
    };
    for (int i = 0; i < 3; i++) {
        char args[1024];
        snprintf(args, sizeof args, "experiments/seed004/base.ini -s switch.model=flit -s topology.type=mesh "
                 "-s routing.algorithm=dor -s link.flit=1 -s link.width=2 -s load=0.1 -s time.drain=false %s", cases[i].speedup);
        expect_warning(args, "carries 2 flits per cycle (link.width) but an input port sends 1", cases[i].warn);
    }
}

/* router.input_speedup = S: no input port sends more than S flits in a cycle
 * (the model counts the most any port sent, and the invariant check holds it
 * to S); 0, an input per VC, lets several VCs of a port cross at once. */
TEST(flit_input_speedup_bounds_each_input_port)
{
    static const struct { const char *speedup; uint32_t most; } cases[] = {
        { "router.input_speedup=1", 1 }, { "router.input_speedup=2", 2 }, { "router.input_speedup=0", 4 },
    };
    double acc[3];
    for (int i = 0; i < 3; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, "type = mesh\nk = 8\nn = 2\n", "dor");
        const char *more[] = { cases[i].speedup, "switch.vcs=4", "switch.buffer=128B", "queuing.scheme=dbbm", "load=1.0",
                               "time.warmup=0", "time.measure=30us", "time.drain=false", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, more);
        CHECK(sim_run(&s) == 0, "%s: status", cases[i].speedup);
        uint32_t most = flit_max_input_flits(&s);
        if (cases[i].most < 4) CHECK(most == cases[i].most, "%s: an input port sent %u flits in a cycle", cases[i].speedup, most);
        else CHECK(most > 1, "%s: no input port ever sent two flits in a cycle", cases[i].speedup);
        CHECK(sim_check_invariants(&s, 0) == 0, "%s: invariants", cases[i].speedup);
        result_t r;
        result_compute(&s, &r);
        acc[i] = r.accepted;
        sim_free(&s);
        cfg_free(&c);
    }
    printf("       8x8 mesh, 4 VCs, uniform DOR at full load: input speedup 1 / 2 / per VC: %.3f / %.3f / %.3f\n", acc[0], acc[1], acc[2]);
    CHECK(acc[0] < acc[1] && acc[1] <= acc[2] * 1.02, "accepted %.3f / %.3f / %.3f", acc[0], acc[1], acc[2]);
}

/* traffic.process = bernoulli-cycle: messages on router-cycle boundaries,
 * at the offered rate; Poisson arrivals fall between cycles and wait about
 * half a cycle more at the source. The packet model has no cycle. */
TEST(flit_bernoulli_cycle_process)
{
    const char *more[] = { "traffic.process=bernoulli-cycle", "load=0.05", "time.drain=false", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, "include = experiments/seed004/vc-dor.ini\n", more);
    rng_t r = s.nic[0].arrival0;
    simtime_t t = 0, slot = msg_slot(&s);
    uint64_t off = 0;
    for (int i = 0; i < 20000; i++) {
        t = nic_next_arrival(&s, 0, &r, t);
        off += t % s.cycle != 0;
    }
    CHECK(off == 0, "%llu arrivals off a cycle boundary", (unsigned long long)off);
    CHECK_NEAR((double)t / 20000, (double)slot / 0.05, 0.02 * (double)slot / 0.05, "mean gap (ps)");
    sim_free(&s);
    cfg_free(&c);
    double wait[2];
    static const char *procs[] = { "traffic.process=bernoulli-cycle", "traffic.process=poisson" };
    for (int i = 0; i < 2; i++) {
        const char *run[] = { procs[i], "load=0.05", "time.drain=false", NULL };
        result_t res;
        CHECK(tsim_run_checked("include = experiments/seed004/vc-dor.ini\n", run, &res) == 0, "%s", procs[i]);
        wait[i] = (res.lat_mean - res.net_mean) / 5.57;   /* cycles */
    }
    printf("       source wait at load 0.05: bernoulli-cycle %.2f cycles, poisson %.2f cycles\n", wait[0], wait[1]);
    CHECK(wait[1] - wait[0] > 0.3 && wait[1] - wait[0] < 0.7, "source wait: bernoulli-cycle %.2f, poisson %.2f cycles", wait[0], wait[1]);
    char out[4096], cmd[4096];
    snprintf(cmd, sizeof cmd, "%s run experiments/seed004/bubble-dor.ini -q -o /tmp/icnsim-flit-bc -s traffic.process=bernoulli-cycle",
             icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "traffic.process") && strstr(out, "switch.model = flit"), "%s", out);
}

/* router.head_turnover: two 1-VC routers in a line, bit-complement traffic at
 * full load. With overlap the next head's routing and allocation overlap the
 * packet before it and the link runs full; with front a head starts them at
 * the front of its VC, router.routing + router.crossbar = 2 cycles after the
 * previous tail: 20 flits every 22 cycles. */
TEST(flit_head_turnover)
{
    static const struct { const char *mode; double want; } cases[] = {
        { "router.head_turnover=overlap", 1.0 }, { "router.head_turnover=front", 20.0 / 22.0 },
    };
    for (int i = 0; i < 2; i++) {
        char ini[2048];
        ini_with(ini, sizeof ini, "type = mesh\nk = 2\nn = 1\n", "dor");
        const char *more[] = { cases[i].mode, "switch.vcs=1", "traffic.pattern=bitcomp", "load=1.0", "time.warmup=10us",
                               "time.measure=50us", "time.drain=false", NULL };
        result_t r;
        CHECK(tsim_run_checked(ini, more, &r) == 0, "%s: status", cases[i].mode);
        CHECK_NEAR(r.accepted, cases[i].want, 0.005, cases[i].mode);
    }
}
