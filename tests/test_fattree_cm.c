/* Fat-tree congestion management (seeds 000 and 002): the path-selection
 * rules decided on hand-set credits, the queuing schemes' separation of the
 * papers' Figures 2/3, Table 1 measured, the VOQ switch, and per-VC sources. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/topo/fattree.h"
#include "../src/stats/views.h"
#include "../src/net/link.h"
#include "../src/core/util.h"
#include <string.h>

static const char *RLFT6 = "[topology]\ntype = rlft\nk = 6\nstages = 3\n[time]\nwarmup = 10us\nmeasure = 10us\n";

/* A packet for dst sitting in VC vc; the routing's choice at switch w. */
static cand_t decide(sim_t *s, uint32_t w, uint32_t dst, uint8_t vc)
{
    packet_t p;
    memset(&p, 0, sizeof p);
    p.dst = dst;
    p.size = s->mtu;
    p.vc = p.out_vc = vc;
    cand_t c[MAX_CAND];
    int n = s->routing->route(s, w, 0, &p, c);
    CHECK(n == 1, "fat-tree routings give one output, got %d", n);
    return c[0];
}

static void set_up_credits(sim_t *s, uint32_t w, uint32_t u, uint32_t vc, int32_t bytes)
{
    const fattree_t *ft = s->topo_data;
    *credit(s, s->sw[w].port0 + ft->K + u, vc) = bytes;
}

/* RLFT6 with DBBM on `vcs` VCs and `routing`; `extra` is one more key=value or NULL. */
static void setup_routing_with(sim_t *s, cfg_t *c, const char *routing, const char *vcs, const char *extra)
{
    char r[128], v[64];
    snprintf(r, sizeof r, "routing.algorithm=%s", routing);
    snprintf(v, sizeof v, "switch.vcs=%s", vcs);
    tsim_setup(s, c, RLFT6, (const char *[]){ r, v, "queuing.scheme=dbbm", extra, NULL });
}

static void setup_routing(sim_t *s, cfg_t *c, const char *routing, const char *vcs)
{
    setup_routing_with(s, c, routing, vcs, NULL);
}

TEST(ftroute_th_triggers_below_ltth_only)
{
    sim_t s;
    cfg_t c;
    setup_routing(&s, &c, "ADAP-TH-S-K", "3");
    const fattree_t *ft = s.topo_data;
    uint32_t dst = 400, det = dst % 6, cap = s.vc_cap_sw, lt = cap / 4;
    CHECK(decide(&s, 0, dst, 1).out == ft->K + det, "uncongested: D-mod-K");
    set_up_credits(&s, 0, det, 1, (int32_t)lt);          /* exactly LTTh: not below */
    set_up_credits(&s, 0, 4 == det ? 5 : 4, 1, (int32_t)cap);
    CHECK(decide(&s, 0, dst, 1).out == ft->K + det, "at LTTh the D-mod-K port stays");
    set_up_credits(&s, 0, det, 1, (int32_t)lt - 1);
    for (uint32_t u = 0; u < 6; u++) if (u != det) set_up_credits(&s, 0, u, 1, (int32_t)(lt + 100 * u));
    CHECK(decide(&s, 0, dst, 1).out == ft->K + 5 - (det == 5), "below LTTh: the port with most credits");
    for (uint32_t u = 0; u < 6; u++) if (u != det) set_up_credits(&s, 0, u, 1, (int32_t)lt);
    CHECK(decide(&s, 0, dst, 1).out == ft->K + det, "alternatives need more than LTTh credits");
    CHECK(decide(&s, 0, dst, 0).out == ft->K + det, "other VCs' credits are not looked at");
    sim_free(&s);
    cfg_free(&c);
}

TEST(ftroute_2th_hysteresis)
{
    sim_t s;
    cfg_t c;
    setup_routing(&s, &c, "ADAP-2TH-S-K", "3");
    const fattree_t *ft = s.topo_data;
    uint32_t dst = 401, det = dst % 6, alt = (det + 2) % 6, cap = s.vc_cap_sw;
    for (uint32_t u = 0; u < 6; u++) set_up_credits(&s, 0, u, 2, (int32_t)(cap / 2));
    set_up_credits(&s, 0, alt, 2, (int32_t)cap);
    set_up_credits(&s, 0, det, 2, (int32_t)(cap * 4 / 10));   /* between LTTh and HTTh, not triggered */
    CHECK(decide(&s, 0, dst, 2).out == ft->K + det, "not triggered yet: D-mod-K");
    set_up_credits(&s, 0, det, 2, (int32_t)(cap / 10));       /* trigger */
    CHECK(decide(&s, 0, dst, 2).out == ft->K + alt, "triggered: alternative");
    set_up_credits(&s, 0, det, 2, (int32_t)(cap * 4 / 10));   /* recovered above LTTh but below HTTh */
    CHECK(decide(&s, 0, dst, 2).out == ft->K + alt, "2TH keeps adapting until HTTh");
    set_up_credits(&s, 0, det, 2, (int32_t)(cap / 2));        /* HTTh reached */
    CHECK(decide(&s, 0, dst, 2).out == ft->K + det, "back to D-mod-K at HTTh");
    set_up_credits(&s, 0, det, 2, (int32_t)(cap * 4 / 10));
    CHECK(decide(&s, 0, dst, 2).out == ft->K + det, "flag cleared: no adaptation above LTTh");
    sim_free(&s);
    cfg_free(&c);
    /* the same sequence under TH returns at once */
    setup_routing(&s, &c, "ADAP-TH-S-K", "3");
    ft = s.topo_data;
    for (uint32_t u = 0; u < 6; u++) set_up_credits(&s, 0, u, 2, (int32_t)(cap / 2));
    set_up_credits(&s, 0, alt, 2, (int32_t)cap);
    set_up_credits(&s, 0, det, 2, (int32_t)(cap / 10));
    CHECK(decide(&s, 0, dst, 2).out == ft->K + alt, "TH triggered");
    set_up_credits(&s, 0, det, 2, (int32_t)(cap * 4 / 10));
    CHECK(decide(&s, 0, dst, 2).out == ft->K + det, "TH returns above LTTh");
    sim_free(&s);
    cfg_free(&c);
}

/* 400 random adaptive decisions at leaves and stage-2 switches, with random
 * credits on the up ports: how many went up, and how many of those took a
 * port not congruent mod 3 to D, and to the switch's D-mod-K port. */
static void k3_choices(sim_t *s, rng_t *r, int *moved, int *off_dst, int *off_det)
{
    const fattree_t *ft = s->topo_data;
    *moved = *off_dst = *off_det = 0;
    for (int k = 0; k < 400; k++) {
        uint32_t w = rng_below(r, 2) ? ft->stage_off[2] + rng_below(r, 72) : rng_below(r, 72);
        uint32_t dst = rng_below(r, 432), det = fattree_dmodk_port(ft, w, dst);
        for (uint32_t u = 0; u < 6; u++) set_up_credits(s, w, u, 0, (int32_t)rng_below(r, s->vc_cap_sw));
        uint32_t out = decide(s, w, dst, 0).out;
        if (out < ft->K) continue;   /* going down */
        (*moved)++;
        *off_dst += (out - ft->K) % 3 != dst % 3;
        *off_det += (out - ft->K) % 3 != (det - ft->K) % 3;
    }
}

TEST(ftroute_k_delta_and_stages)
{
    sim_t s;
    cfg_t c;
    rng_t r;
    rng_seed(&r, 7, RNG_SETUP, 0);
    int moved, off_dst, off_det;
    /* routing.delta_ref = destination: candidates congruent to D mod 3 */
    setup_routing_with(&s, &c, "ADAP-NoTH-S-K/3", "3", "routing.delta_ref=destination");
    k3_choices(&s, &r, &moved, &off_dst, &off_det);
    CHECK(moved > 100 && off_dst == 0, "K/3: %d of %d up choices outside p = D mod 3", off_dst, moved);
    sim_free(&s);
    cfg_free(&c);
    /* the default, routing.delta_ref = dmodk: candidates congruent to this
     * stage's D-mod-K port, which differs from D mod 3 at stage 2 (floor(D/6) mod 3) */
    setup_routing(&s, &c, "ADAP-NoTH-S-K/3", "3");
    k3_choices(&s, &r, &moved, &off_dst, &off_det);
    CHECK(moved > 100 && off_det == 0, "K/3 (dmodk): %d of %d up choices outside p = D-mod-K port mod 3", off_det, moved);
    CHECK(off_dst > 20, "K/3 (dmodk): only %d of %d choices differ from the destination reading", off_dst, moved);
    sim_free(&s);
    cfg_free(&c);
    /* 1S adapts only at leaves, 2S only at stage 2 */
    const char *names[2] = { "ADAP-NoTH-1S-K", "ADAP-NoTH-2S-K" };
    for (int st = 1; st <= 2; st++) {
        setup_routing(&s, &c, names[st - 1], "3");
        const fattree_t *ft = s.topo_data;
        uint32_t dst = 431, leaf = 0, mid = ft->stage_off[2];   /* both below dst's group */
        uint32_t dl = dst % 6, dm = dst / 6 % 6;
        set_up_credits(&s, leaf, dl, 0, 0);
        set_up_credits(&s, mid, dm, 0, 0);
        uint32_t o1 = decide(&s, leaf, dst, 0).out - ft->K, o2 = decide(&s, mid, dst, 0).out - ft->K;
        CHECK((o1 != dl) == (st == 1), "%s at the leaf: port %u (D-mod-K %u)", names[st - 1], o1, dl);
        CHECK((o2 != dm) == (st == 2), "%s at stage 2: port %u (D-mod-K %u)", names[st - 1], o2, dm);
        sim_free(&s);
        cfg_free(&c);
    }
}

TEST(ftroute_noth_ties_go_to_dmodk_and_down_is_unique)
{
    sim_t s;
    cfg_t c;
    setup_routing(&s, &c, "fully-adaptive", "3");
    const fattree_t *ft = s.topo_data;
    for (uint32_t dst = 0; dst < 432; dst += 7) {
        CHECK(decide(&s, 0, dst, 1).out == fattree_dmodk_port(ft, 0, dst), "dst %u: equal credits must keep D-mod-K", dst);
        uint32_t top = ft->stage_off[3] + dst % 36;
        CHECK(decide(&s, top, dst, 1).out == fattree_dmodk_port(ft, top, dst), "downward port of dst %u", dst);
    }
    sim_free(&s);
    cfg_free(&c);
}

TEST(ftroute_scan_order_decides_ties)
{
    /* routing.scan = port: candidates in ascending port order, so equal
     * credits go to the lowest eligible up port, not to D-mod-K; a port with
     * more credits still wins wherever it is. */
    sim_t s;
    cfg_t c;
    setup_routing_with(&s, &c, "ADAP-NoTH-S-K/3", "3", "routing.scan=port");
    const fattree_t *ft = s.topo_data;
    for (uint32_t dst = 40; dst < 432; dst += 7) {
        cand_t d = decide(&s, 0, dst, 1);
        CHECK(d.out == ft->K + dst % 3, "dst %u: tie went to port %u, want the lowest port = dst mod 3", dst, d.out);
    }
    set_up_credits(&s, 0, 4, 1, (int32_t)s.vc_cap_sw);          /* the others lose a little */
    for (uint32_t u = 0; u < ft->K; u++) if (u != 4) set_up_credits(&s, 0, u, 1, (int32_t)s.vc_cap_sw - 1);
    CHECK(decide(&s, 0, 43, 1).out == ft->K + 4, "dst 43 (43 mod 3 = 1): the port with most credits, 4, must win");
    sim_free(&s);
    cfg_free(&c);
}

TEST(ftroute_oblivious_spreads_uniformly)
{
    sim_t s;
    cfg_t c;
    setup_routing(&s, &c, "oblivious", "3");
    const fattree_t *ft = s.topo_data;
    uint32_t hist[6] = { 0 };
    for (int k = 0; k < 6000; k++) hist[decide(&s, 0, 431, 0).out - ft->K]++;
    for (int u = 0; u < 6; u++) CHECK(hist[u] > 850 && hist[u] < 1150, "up port %d chosen %u of 6000 times", u, hist[u]);
    sim_free(&s);
    cfg_free(&c);
}

TEST(afi_adapts_once_into_the_afc)
{
    sim_t s;
    cfg_t c;
    setup_routing(&s, &c, "afi", "4");   /* 3 SQS VCs + the AFC (VC 3) */
    const fattree_t *ft = s.topo_data;
    CHECK(s.nsqs == 3, "AFI leaves %u VCs to the queuing scheme, want 3", s.nsqs);
    uint32_t dst = 430, det = dst % 6, cap = s.vc_cap_sw, mid = ft->stage_off[2];
    CHECK(decide(&s, 0, dst, 1).out == ft->K + det && decide(&s, 0, dst, 1).ovc == 1, "below threshold: D-mod-K, same VC");
    set_up_credits(&s, 0, det, 1, (int32_t)(cap / 4));        /* 75 % occupied: adapt */
    for (uint32_t u = 0; u < 6; u++) set_up_credits(&s, 0, u, 3, (int32_t)(cap / 2));
    set_up_credits(&s, 0, (det + 3) % 6, 3, (int32_t)cap);    /* emptiest AFC */
    cand_t a = decide(&s, 0, dst, 1);
    CHECK(a.out == ft->K + (det + 3) % 6 && a.ovc == 3, "adapted: port %u vc %u, want the emptiest AFC's port in the AFC", a.out, a.ovc);
    set_up_credits(&s, 0, det, 1, (int32_t)(cap / 4 + 1));
    CHECK(decide(&s, 0, dst, 1).out == ft->K + det, "just under 75 %%: no adaptation");
    /* an adapted packet (in the AFC) is routed by D-mod-K even where its VC is congested */
    uint32_t dm = dst / 6 % 6;
    set_up_credits(&s, mid, dm, 3, 0);
    a = decide(&s, mid, dst, 3);
    CHECK(a.out == ft->K + dm && a.ovc == 3, "adapted packets follow D-mod-K in the AFC (port %u vc %u)", a.out, a.ovc);
    /* no AFC room anywhere: stay deterministic */
    set_up_credits(&s, mid, dm, 0, 0);
    for (uint32_t u = 0; u < 6; u++) set_up_credits(&s, mid, u, 3, 0);
    a = decide(&s, mid, dst, 0);
    CHECK(a.out == ft->K + dm && a.ovc == 0, "no AFC room: D-mod-K and its VC (port %u vc %u)", a.out, a.ovc);
    sim_free(&s);
    cfg_free(&c);
}

/* ---- queuing schemes on the papers' small examples (Figs 2/3) ---- */

/* VCs carrying destinations on each of the given switch output ports. */
static int vcs_used(const sim_t *s, uint32_t go)
{
    int n = 0;
    for (uint32_t v = 0; v < s->nvc; v++) n += views_dests(s, go, v) > 0;
    return n;
}

/* Run the 8-node 2-ary 3-tree with 2 VCs; call check(s) with the views. */
static void tree8(const char *routing, const char *scheme, void (*check)(const sim_t *, const char *), const char *label)
{
    static const char *ini = "[topology]\ntype = kary-ntree\nk = 2\nstages = 3\n[switch]\nvcs = 2\n"
                             "[time]\nwarmup = 0us\nmeasure = 300us\n[output]\ndestmap = true\n";
    char r[64], q[64];
    snprintf(r, sizeof r, "routing.algorithm=%s", routing);
    snprintf(q, sizeof q, "queuing.scheme=%s", scheme);
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ r, q, "load=0.3", NULL });
    CHECK(sim_run(&s) == 0, "%s run", label);
    check(&s, label);
    sim_free(&s);
    cfg_free(&c);
}

/* Every output port of the given stage and direction uses `want` VCs. */
static void ports_use(const sim_t *s, uint8_t stage, uint8_t up, int want, const char *label, const char *where)
{
    for (uint32_t go = 0; go < s->nports; go++) {
        const port_t *p = &s->port[go];
        if ((p->dev & NIC_BIT) || p->stage != stage || p->up != up || p->peer == ICN_NIL) continue;
        int n = vcs_used(s, go);
        CHECK(n == want, "%s: %s port %u of switch %u carries destinations on %d VCs, want %d", label, where, p->local, p->dev, n, want);
    }
}

static void one_vc_up1(const sim_t *s, const char *l) { ports_use(s, 1, 1, 1, l, "leaf up (2nd-stage upward buffers)"); }
static void two_vcs_up1(const sim_t *s, const char *l) { ports_use(s, 1, 1, 2, l, "leaf up (2nd-stage upward buffers)"); }
static void vftree_adaptive(const sim_t *s, const char *l) { ports_use(s, 2, 1, 2, l, "stage-2 up (3rd-stage buffers)"); }
static void flow2sl_adaptive(const sim_t *s, const char *l)
{
    ports_use(s, 2, 1, 1, l, "stage-2 up (3rd-stage upward buffers)");
    ports_use(s, 3, 0, 1, l, "top down (2nd-stage downward buffers)");
}

TEST(queuing_separation_of_figures_2_and_3)
{
    /* D-mod-K: DBBM puts every destination of a leaf up-link on one VC, the
     * fat-tree-aware schemes use both */
    tree8("dmodk", "dbbm", one_vc_up1, "D-mod-K + DBBM");
    tree8("dmodk", "vftree", two_vcs_up1, "D-mod-K + vFtree");
    tree8("dmodk", "flow2sl", two_vcs_up1, "D-mod-K + Flow2SL");
    /* oblivious (every path): vFtree maps the destinations reaching the top
     * on all VCs; Flow2SL maps them, and those coming down, on one */
    tree8("oblivious", "vftree", vftree_adaptive, "oblivious + vFtree");
    tree8("oblivious", "flow2sl", flow2sl_adaptive, "oblivious + Flow2SL");
}

/* Destinations per output port, by stage and direction, against Table 1. */
static void table1(const char *routing, const char *extra, const uint32_t want[5], int exact)
{
    static const char *ini = "[topology]\ntype = rlft\nk = 4\nstages = 3\n[time]\nwarmup = 0us\nmeasure = 2ms\n[output]\ndestmap = true\n";
    char r[64];
    snprintf(r, sizeof r, "routing.algorithm=%s", routing);
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ r, "load=0.5", extra, NULL });
    CHECK(sim_run(&s) == 0, "%s run", routing);
    const uint8_t stage[5] = { 1, 2, 3, 2, 1 }, up[5] = { 1, 1, 0, 0, 0 };
    const char *name[5] = { "S1U", "S2U", "S3D", "S2D", "S1D" };
    for (int g = 0; g < 5; g++) {
        uint32_t mx = 0, n = 0;
        double sum = 0;
        for (uint32_t go = 0; go < s.nports; go++) {
            const port_t *p = &s.port[go];
            if ((p->dev & NIC_BIT) || p->stage != stage[g] || p->up != up[g]) continue;
            uint32_t d = views_dests_any_vc(&s, go);
            if (d > mx) mx = d;
            sum += d;
            n++;
        }
        CHECK(mx == want[g], "%s %s: at most %u destinations per port, Table 1 says %u", routing, name[g], mx, want[g]);
        if (exact) CHECK(sum == (double)want[g] * n, "%s %s: mean %.2f, Table 1 says %u", routing, name[g], sum / n, want[g]);
        else CHECK(sum >= 0.97 * want[g] * n, "%s %s: mean %.2f, Table 1 says %u", routing, name[g], sum / n, want[g]);
    }
    sim_free(&s);
    cfg_free(&c);
}

/* Top switches whose down ports carried traffic (the roots of the paths to
 * the single hot-spot), in the 16-node RLFT of seed 000's Figure 2. */
static int tops_used(const char *routing)
{
    static const char *ini = "load = 0.5\n[topology]\ntype = rlft\nk = 2\nstages = 3\n"
                             "[time]\nwarmup = 0us\nmeasure = 200us\n[output]\ndestmap = true\n"
                             "[traffic]\nscenario = hotspot\nhs_fraction = 1.0\n";
    char r[64];
    snprintf(r, sizeof r, "routing.algorithm=%s", routing);
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ r, NULL });
    CHECK(sim_run(&s) == 0, "%s run", routing);
    /* the hot-spot is node floor(600 * 16 / 11664) = 0; a top switch's down
     * port towards it carries nothing else (the other nodes send only to it,
     * and its own messages to its 4-node subtree stay below the top) */
    const fattree_t *ft = s.topo_data;
    int tops = 0;
    for (uint32_t w = ft->stage_off[3]; w < ft->stage_off[4]; w++)
        tops += views_dests_any_vc(&s, s.sw[w].port0 + fattree_dmodk_port(ft, w, 0)) > 0;
    sim_free(&s);
    cfg_free(&c);
    return tops;
}

TEST(adaptive_routing_spreads_a_congestion_tree)
{
    /* seed 000, Fig. 2: many-to-one traffic to one node of the 16-node RLFT
     * (K = 2). D-mod-K brings every path to it through one top switch; when
     * the congestion tree grows, adaptive routing sends packets for the same
     * destination up other ports, and the tree gets new branches (more roots
     * at the top stage) instead of disappearing. */
    int det = tops_used("dmodk"), ada = tops_used("fully-adaptive"), obl = tops_used("oblivious");
    CHECK(det == 1, "D-mod-K: %d top switches carry traffic to the hot-spot, want 1", det);
    CHECK(ada > 1, "fully adaptive: %d top switches, want more than 1", ada);
    CHECK(obl == 4, "oblivious: %d top switches, want all 4", obl);
}

TEST(table1_destinations_per_port_measured)
{
    /* K = 4, N = 128: D-mod-K (N-K)/K, (N-K^2)/K^2, 1, 1, 1; oblivious N-K, N-K^2, K^2, K, 1 */
    table1("dmodk", NULL, (const uint32_t[]){ 31, 7, 1, 1, 1 }, 1);
    table1("oblivious", NULL, (const uint32_t[]){ 124, 112, 16, 4, 1 }, 0);
    /* K/2 with candidates congruent to the D-mod-K port (routing.delta_ref =
     * dmodk): Table 1's final values, S3D = K^2/D^2 = 4 and S2D = K/D = 2
     * under *S; S3D = K/D = 2, S2D = 1 under 2S; and S3D = S2D = K/D under 1S.
     * The up counts follow from the same rule: (N-K)/D, (N-K^2)/D^2, ... */
    table1("ADAP-NoTH-S-K/2", "routing.delta_ref=dmodk", (const uint32_t[]){ 62, 28, 4, 2, 1 }, 0);
    table1("ADAP-NoTH-2S-K/2", "routing.delta_ref=dmodk", (const uint32_t[]){ 31, 14, 2, 1, 1 }, 0);
    table1("ADAP-NoTH-1S-K/2", "routing.delta_ref=dmodk", (const uint32_t[]){ 62, 14, 2, 2, 1 }, 0);
}

/* ---- the VOQ switch ---- */

TEST(voq_switch_removes_hol_blocking)
{
    /* 16 x 16 crossbar, uniform traffic with self: FIFO inputs saturate at
     * 0.60 (Karol), VOQs with iSLIP carry nearly everything */
    static const char *ini = "load = 1.0\n[topology]\ntype = rlft\nk = 8\nstages = 1\n"
                             "[time]\nwarmup = 50us\nmeasure = 300us\n[traffic]\nself = true\n";
    result_t fifo, voq;
    tsim_run_checked(ini, NULL, &fifo);
    tsim_run_checked(ini, (const char *[]){ "switch.voq=true", NULL }, &voq);
    CHECK_NEAR(fifo.accepted, 0.60, 0.03, "FIFO throughput");
    CHECK(voq.accepted > 0.93, "VOQ throughput %.3f, want > 0.93", voq.accepted);
}

/* VCs that the destinations one top switch carries under D-mod-K take on
 * their way up from a stage-2 switch, as a bit mask; and whether the scheme
 * gives every destination the same VC from injection to there. */
static unsigned top_switch_vcs(const char *scheme, const char *stages, unsigned x, unsigned l, int *steady)
{
    sim_t s;
    cfg_t c;
    char q[64], st[32];
    snprintf(q, sizeof q, "queuing.scheme=%s", scheme);
    snprintf(st, sizeof st, "topology.stages=%s", stages);
    tsim_setup(&s, &c, RLFT6, (const char *[]){ q, st, "switch.vcs=3", "routing.algorithm=dmodk", NULL });
    const fattree_t *ft = s.topo_data;
    unsigned mask = 0, K = ft->K, T = ft->T;
    *steady = 1;
    for (uint32_t d = 0; d < s.nnodes; d++) {
        if (d % K != x || (T == 3 && d / K % K != l)) continue;   /* the top switch (x, l) of D-mod-K */
        uint32_t src = (d + s.nnodes / 2) % s.nnodes;             /* a source in another pod */
        packet_t p;
        memset(&p, 0, sizeof p);
        p.src = src;
        p.dst = d;
        p.vc = s.queuing->vc(&s, src, d);
        uint32_t w = ft->stage_off[T - 1];   /* a switch of the stage below the top... */
        if (T == 3)
            while (ft->g[w] == d / ft->kpow[T - 1]) w++;   /* ...that sends d up */
        uint8_t up = hop_vc(&s, w, fattree_dmodk_port(ft, w, d), &p);
        if (T == 3 && up != p.vc) *steady = 0;
        mask |= 1u << up;
    }
    sim_free(&s);
    cfg_free(&c);
    return mask;
}

TEST(vftree_pod_spreads_a_top_switch_over_the_vcs)
{
    /* K = 6, three stages: top switch (x = 1, l = 4) carries one destination
     * per pod, all on leaf index 4. vftree-hop gives them one VC (4 mod 3);
     * vftree-pod spreads the 12 pods over all 3, and like vftree-hop keeps
     * each destination's VC unchanged under D-mod-K. On two stages
     * (no pods) the two are the same. */
    int steady;
    CHECK(top_switch_vcs("vftree-hop", "3", 1, 4, &steady) == 1u << 1 && steady, "vftree-hop: one VC, 4 mod 3");
    CHECK(top_switch_vcs("vftree-pod", "3", 1, 4, &steady) == 7u && steady, "vftree-pod: all three VCs");
    unsigned a = top_switch_vcs("vftree-hop", "2", 1, 0, &steady), b = top_switch_vcs("vftree-pod", "2", 1, 0, &steady);
    CHECK(a == b && a == 7u, "two stages: vftree-hop %#x, vftree-pod %#x", a, b);
}

/* ---- source-dependent readings of vFtree and Flow2SL ---- */

/* For every source class (leaf for vFtree, group for Flow2SL) the VCs of the
 * scheme `sd` relabel those of the destination-only scheme `dst`: the map
 * dst-VC -> sd-VC is a bijection over that class's flows. This is why the two
 * readings agree in every upward buffer fed by one source class. */
static void relabels_per_class(const sim_t *s, const queuing_ops *sd, const queuing_ops *dst, uint32_t class_size)
{
    for (uint32_t a = 0; a < s->nnodes; a += class_size) {
        int map[8], back[8];
        for (int i = 0; i < 8; i++) map[i] = back[i] = -1;
        for (uint32_t src = a; src < a + class_size; src += 5)
            for (uint32_t d = 0; d < s->nnodes; d++) {
                int x = dst->vc(s, src, d), y = sd->vc(s, src, d);
                if (map[x] < 0) map[x] = y;
                if (back[y] < 0) back[y] = x;
                CHECK(map[x] == y && back[y] == x, "%s: class of node %u, dst %u: VC %d where %s gives %d", sd->name, src, d, y, dst->name, x);
            }
    }
}

TEST(source_dependent_vftree_and_flow2sl_mappings)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, RLFT6, (const char *[]){ "queuing.scheme=vftree-sd", "switch.vcs=3", "routing.algorithm=dmodk", NULL });
    const queuing_ops *vs = find_queuing("vftree-sd"), *vd = find_queuing("vftree"), *fs = find_queuing("flow2sl-sd"), *fd = find_queuing("flow2sl");
    CHECK(vs && vd && fs && fd, "schemes registered");
    const uint32_t K = 6, N = s.nnodes, G = N / 3;   /* leaves of 6 nodes, Flow2SL groups of 144 */
    /* vFtree: one destination, sources on leaves 0 and 1 -> different VCs
     * (the patent's per leaf-pair lanes); two hosts of one leaf -> the same */
    CHECK(vs->vc(&s, 0, 100) != vs->vc(&s, K, 100), "vftree-sd: same destination, source leaves 0 and 1 share VC %u", vs->vc(&s, 0, 100));
    CHECK(vs->vc(&s, 0, 100) == vs->vc(&s, K - 1, 100), "vftree-sd: two hosts of one leaf differ");
    CHECK(vd->vc(&s, 0, 100) == vd->vc(&s, K, 100), "vftree: destination-only");
    /* one source leaf, Q consecutive destination leaves -> Q different VCs;
     * the formula (leaf(D) - leaf(S)) mod Q on an example: leaf 16 - leaf 4 */
    unsigned seen = 0;
    for (uint32_t l = 30; l < 33; l++) seen |= 1u << vs->vc(&s, 7, l * K + 2);
    CHECK(seen == 7u, "vftree-sd: destination leaves 30-32 from leaf 1 use VCs %#x, want all three", seen);
    CHECK(vs->vc(&s, 4 * K + 1, 16 * K + 3) == (16 - 4) % 3 && vs->vc(&s, 17 * K, 16 * K) == (16 + 3 - 17 % 3) % 3,
          "vftree-sd: (leaf(D) - leaf(S)) mod 3");
    /* Flow2SL: sources in groups 0 and 1 -> different VCs for one destination;
     * within a group the same; every source group reaches a destination on
     * its own VC, so a leaf's down buffer sees all Q */
    CHECK(fs->vc(&s, 0, 300) != fs->vc(&s, G, 300), "flow2sl-sd: same destination, source groups 0 and 1 share a VC");
    CHECK(fs->vc(&s, 0, 300) == fs->vc(&s, G - 1, 300), "flow2sl-sd: one source group, two VCs");
    CHECK(fs->vc(&s, 2 * G, 10) == (0 + 3 - 2) % 3 && fs->vc(&s, G + 5, 2 * G + 5) == 1, "flow2sl-sd: (group(D) - group(S)) mod 3");
    seen = 0;
    for (uint32_t g = 0; g < 3; g++) seen |= 1u << fs->vc(&s, g * G + 1, 77);
    CHECK(seen == 7u, "flow2sl-sd: the three source groups reach node 77 on VCs %#x", seen);
    /* upward equivalence: per source leaf for vFtree; per source group, and
     * so per pod of 36 nodes (a top switch's up-going input), for Flow2SL */
    relabels_per_class(&s, vs, vd, K);
    relabels_per_class(&s, fs, fd, K * K);
    relabels_per_class(&s, fs, fd, G);
    sim_free(&s);
    cfg_free(&c);
}

/* VCs used on every top-switch down port (the stage-2 downward buffers)
 * under D-mod-K and uniform traffic, where one destination comes down. */
static void top_down_vcs(const char *scheme, int want)
{
    static const char *ini = "load = 0.3\n[topology]\ntype = rlft\nk = 6\nstages = 3\n[switch]\nvcs = 3\n"
                             "[time]\nwarmup = 0us\nmeasure = 100us\n[output]\ndestmap = true\n";
    char q[64];
    snprintf(q, sizeof q, "queuing.scheme=%s", scheme);
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ q, "routing.algorithm=dmodk", NULL });
    CHECK(sim_run(&s) == 0, "%s run", scheme);
    ports_use(&s, 3, 0, want, scheme, "top down");
    sim_free(&s);
    cfg_free(&c);
}

TEST(source_dependent_schemes_split_a_destination_downwards)
{
    /* where flows of several source leaves meet, one destination takes one VC
     * under the destination-only readings and every VC under the
     * source-dependent ones */
    top_down_vcs("vftree", 1);
    top_down_vcs("vftree-sd", 3);
    top_down_vcs("flow2sl", 1);
    top_down_vcs("flow2sl-sd", 3);
}

/* ---- crossbar inputs: per port or per queue (switch.crossbar) ---- */

/* Put a packet for dst into VC vc of local input i of switch 0 (its head
 * arrives there now). */
static void place_packet(sim_t *s, unsigned i, uint32_t dst, uint8_t vc)
{
    uint32_t id = pkt_alloc(s);
    packet_t *p = &s->pkt[id];
    memset(p, 0, sizeof *p);
    p->src = i;
    p->dst = dst;
    p->size = s->mtu;
    p->out_vc = vc;
    switch_arrive(s, s->sw[0].port0 + i, id);
}

TEST(crossbar_per_queue_feeds_several_outputs)
{
    /* One 16-port switch, 2 VCs: input 0 holds a packet for node 2 in VC 0 and
     * one for node 3 in VC 1. With one crossbar input per port only one may
     * start; with one per queue both start at once, each from its own VC. */
    for (int per_queue = 0; per_queue <= 1; per_queue++) {
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, "[topology]\ntype = rlft\nk = 8\nstages = 1\n[switch]\nvcs = 2\n[queuing]\nscheme = dbbm\n",
                   (const char *[]){ per_queue ? "switch.crossbar=queue" : "switch.crossbar=port", NULL });
        place_packet(&s, 0, 2, 0);
        place_packet(&s, 0, 3, 1);
        (per_queue ? switch_service_per_queue : switch_service)(&s, 0);
        const sw_t *sw = &s.sw[0];
        int started = __builtin_popcountll(sw->out_busy);
        CHECK(started == (per_queue ? 2 : 1), "crossbar=%s: %d transfers started from one input, want %d",
              per_queue ? "queue" : "port", started, per_queue ? 2 : 1);
        unsigned vcs = 0;
        for (uint64_t m = sw->out_busy; m; m &= m - 1) {
            const port_t *o = &s.port[sw->port0 + (unsigned)__builtin_ctzll(m)];
            CHECK(o->feed == sw->port0, "an output is fed by port %u, not input 0", o->feed);
            vcs |= 1u << o->rel_vc;
        }
        CHECK(vcs == (per_queue ? 3u : 1u), "transfers hold VCs %#x", vcs);
        CHECK(s.port[sw->port0].vc_busy == (per_queue ? 3 : 0), "busy VCs of input 0: %#x", s.port[sw->port0].vc_busy);
        CHECK((int)(sw->in_busy & 1) == !per_queue, "input 0 held as a whole: %d", (int)(sw->in_busy & 1));
        sim_free(&s);
        cfg_free(&c);
    }
}

/* A VOQ switch grants a head exactly when its downstream VC has room for
 * it: full packets go through the per-output room mask (voq_std), shorter
 * ones through their cached need; both at the boundary. */
TEST(voq_request_needs_exactly_the_packets_room)
{
    for (int shortp = 0; shortp <= 1; shortp++)
        for (int spare = 0; spare <= 1; spare++) {
            sim_t s;
            cfg_t c;
            tsim_setup(&s, &c, "[topology]\ntype = rlft\nk = 8\nstages = 1\n[switch]\nvoq = true\n", NULL);
            uint32_t id = pkt_alloc(&s), size = shortp ? 1000 : s.mtu, out = 2;
            packet_t *p = &s.pkt[id];
            memset(p, 0, sizeof *p);
            p->dst = out;
            p->size = size;
            voq_arrive(&s, s.sw[0].port0, id);
            CHECK(p->out == out, "the packet for node %u leaves by port %u", out, p->out);
            *credit(&s, s.sw[0].port0 + out, 0) = (int32_t)occ_bytes(&s, size) - 1 + spare;
            voq_service(&s, 0);
            CHECK((int)(s.sw[0].out_busy >> out & 1) == spare, "%s packet, credits %s its size: %s",
                  shortp ? "short" : "full", spare ? "equal to" : "one below", spare ? "not granted" : "granted");
            sim_free(&s);
            cfg_free(&c);
        }
}

static double x16(const char *vcs, const char *scheme, const char *xbar, const char *voq)
{
    /* 16 x 16 crossbar, uniform traffic with self (Karol's setting) */
    static const char *ini = "load = 1.0\n[topology]\ntype = rlft\nk = 8\nstages = 1\n"
                             "[time]\nwarmup = 50us\nmeasure = 300us\n[traffic]\nself = true\n";
    char v[32], q[48], x[48], o[32];
    snprintf(v, sizeof v, "switch.vcs=%s", vcs);
    snprintf(q, sizeof q, "queuing.scheme=%s", scheme);
    snprintf(x, sizeof x, "switch.crossbar=%s", xbar);
    snprintf(o, sizeof o, "switch.voq=%s", voq);
    result_t r;
    CHECK(tsim_run_checked(ini, (const char *[]){ v, q, x, o, NULL }, &r) == 0, "%s %s %s voq=%s", vcs, scheme, xbar, voq);
    return r.accepted;
}

TEST(crossbar_per_queue_against_hol_limits)
{
    /* One VC: a queue per port is a port, so the model is the same (Karol's 0.60). */
    double p1 = x16("1", "1q", "port", "0"), q1 = x16("1", "1q", "queue", "0");
    CHECK(p1 == q1, "1 VC: port %.6f, queue %.6f, want identical", p1, q1);
    /* DBBM with 16 VCs on 16 outputs gives each output its own VC, so VOQs
     * inside the VCs change nothing, in either crossbar model. */
    CHECK(x16("16", "dbbm", "port", "0") == x16("16", "dbbm", "port", "1"), "port: 16 DBBM VCs change with VOQs");
    CHECK(x16("16", "dbbm", "queue", "0") == x16("16", "dbbm", "queue", "1"), "queue: 16 DBBM VCs change with VOQs");
    double qv = x16("1", "1q", "queue", "1");
    /* With VOQs as crossbar inputs no input ever contends: an output-queued
     * switch, limited only by finite buffers. */
    CHECK(qv > 0.975, "VOQs as crossbar inputs: %.3f, want > 0.975", qv);
    /* Several FIFOs per input: a blocked VC no longer holds the input, so
     * HoL blocking costs less with a crossbar input per VC. */
    double p4 = x16("4", "dbbm", "port", "0"), q4 = x16("4", "dbbm", "queue", "0");
    CHECK(p4 > p1 + 0.15 && q4 > p4 + 0.03, "4 DBBM VCs: port %.3f, queue %.3f (1 VC %.3f)", p4, q4, p1);
}

/* VOQsw: leaving switch w, a packet takes the VC of the output it will
 * request at the next switch (mod Q); at injection, that of its leaf. */
static void voqsw_mapping(const char *vcs)
{
    sim_t s;
    cfg_t c;
    char v[64];
    snprintf(v, sizeof v, "switch.vcs=%s", vcs);
    tsim_setup(&s, &c, RLFT6, (const char *[]){ "routing.algorithm=dmodk", "queuing.scheme=voqsw", v, NULL });
    const fattree_t *ft = s.topo_data;
    for (uint32_t w = 0; w < s.nswitches; w++)
        for (uint32_t d = 0; d < s.nnodes; d += 5) {
            cand_t k = decide(&s, w, d, 0);
            uint32_t next = s.port[s.port[s.sw[w].port0 + k.out].peer].dev;
            if (next & NIC_BIT) continue;
            uint32_t want = fattree_dmodk_port(ft, next, d) % s.nvc;
            CHECK(k.ovc == want, "Q = %s: switch %u, dst %u: VC %u, want %u", vcs, w, d, k.ovc, want);
        }
    for (uint32_t n = 0; n < s.nnodes; n += 7) {
        uint32_t leaf = s.port[s.port[s.nic[n].port].peer].dev, d = (n * 37 + 11) % s.nnodes;
        CHECK(s.queuing->vc(&s, n, d) == fattree_dmodk_port(ft, leaf, d) % s.nvc, "injection VC of %u -> %u", n, d);
    }
    sim_free(&s);
    cfg_free(&c);
}

TEST(voqsw_vc_is_the_next_switch_output)
{
    voqsw_mapping("12");   /* one VC per output of the 12-port switches */
    voqsw_mapping("5");    /* fewer VCs than outputs: output mod 5 */
}

TEST(voqsw_removes_hol_blocking_in_a_switch)
{
    /* the 16 x 16 crossbar of voq_switch_removes_hol_blocking, one VC per
     * output: no packet waits behind one for another output */
    static const char *ini = "load = 1.0\n[topology]\ntype = rlft\nk = 8\nstages = 1\n"
                             "[time]\nwarmup = 50us\nmeasure = 300us\n[traffic]\nself = true\n"
                             "[switch]\nvcs = 16\n[queuing]\nscheme = voqsw\n";
    result_t r;
    CHECK(tsim_run_checked(ini, NULL, &r) == 0, "voqsw run");
    CHECK(r.accepted > 0.93, "VOQsw throughput %.3f, want > 0.93 (FIFO: 0.60)", r.accepted);
    /* a hot-spot stops only its own queue: the other 14 outputs stay busy */
    result_t h, f;
    CHECK(tsim_run_checked(ini, (const char *[]){ "traffic.scenario=hs25-1", NULL }, &h) == 0, "voqsw hs25-1");
    CHECK(tsim_run_checked(ini, (const char *[]){ "traffic.scenario=hs25-1", "queuing.scheme=1q", "switch.vcs=1", NULL }, &f) == 0,
          "1q hs25-1");
    CHECK(h.accepted > f.accepted + 0.2, "hs25-1: VOQsw %.3f vs one queue %.3f", h.accepted, f.accepted);
}

TEST(voqnet_is_hol_free)
{
    /* one queue per destination: a hot-spot costs nothing but its own
     * traffic. 432 nodes, 100 % load: HS10-1 delivers the 90 % that is not
     * for the hot-spot (plus the hot-spot's 1/432), uniform traffic nearly
     * everything; one FIFO gets 0.06 and 0.63 */
    static const char *ini = "load = 1.0\n[time]\nwarmup = 300us\nmeasure = 200us\n[topology]\ntype = rlft\nk = 6\nstages = 3\n"
                             "[nic]\nbuffer = 192KB\n[queuing]\nscheme = voqnet\n";
    result_t hs, ut;
    CHECK(tsim_run_checked(ini, (const char *[]){ "traffic.scenario=hs10-1", NULL }, &hs) == 0, "voqnet hs10-1");
    CHECK(tsim_run_checked(ini, NULL, &ut) == 0, "voqnet uniform");
    CHECK(hs.accepted > 0.85 && hs.accepted < 0.91, "VOQnet HS10-1: %.3f, want about 0.90", hs.accepted);
    CHECK(ut.accepted > 0.93, "VOQnet uniform: %.3f", ut.accepted);
}

TEST(voqnet_queues_exist_only_while_used)
{
    static const char *ini = "load = 0.8\n[time]\nwarmup = 20us\nmeasure = 60us\n[topology]\ntype = rlft\nk = 4\nstages = 3\n"
                             "[traffic]\nscenario = hs25-1\n[queuing]\nscheme = voqnet\nqueue_size = 12KB\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    CHECK(sim_run(&s) == 0, "run");
    CHECK(sim_check_invariants(&s, 0) == 0, "invariants at the end of the run");
    uint32_t live, peak;
    voqnet_queue_counts(&s, &live, &peak);
    /* 128 nodes x 224 switch input ports could need 28672 queues */
    CHECK(peak > 0 && peak < 28672 / 2, "peak %u queues", peak);
    CHECK(sim_drain(&s, 5000000000ull) == 0 && s.pkt_live == 0, "drain");
    CHECK(sim_check_invariants(&s, 1) == 0, "invariants after draining");
    voqnet_queue_counts(&s, &live, &peak);
    CHECK(live == 0, "%u queues left in a drained network", live);
    sim_free(&s);
    cfg_free(&c);
    result_t a, b;   /* deterministic */
    tsim_run_checked(ini, NULL, &a);
    tsim_run_checked(ini, NULL, &b);
    CHECK(a.delivered == b.delivered && a.lat_mean == b.lat_mean, "two runs differ");
}

/* Run ini with routing.algorithm = routing, checking invariants (0 = ok). */
static int run_routing(const char *ini, const char *routing, result_t *r)
{
    char a[64];
    snprintf(a, sizeof a, "routing.algorithm=%s", routing);
    return tsim_run_checked(ini, (const char *[]){ a, NULL }, r);
}

TEST(voq_runs_keep_invariants_and_drain)
{
    static const char *ini = "load = 1.0\n[topology]\ntype = rlft\nk = 4\nstages = 3\n"
                             "[time]\nwarmup = 20us\nmeasure = 80us\n[traffic]\nscenario = hs25-1\n[switch]\nvoq = true\nvcs = 3\n"
                             "[queuing]\nscheme = vftree\n";
    const char *routings[] = { "dmodk", "oblivious", "fully-adaptive", "ADAP-2TH-S-K", "ADAP-TH-2S-K", NULL };
    for (int i = 0; routings[i]; i++) {
        result_t res;
        CHECK(run_routing(ini, routings[i], &res) == 0, "%s", routings[i]);
        CHECK(res.accepted > 0.05, "%s: accepted %.3f", routings[i], res.accepted);
    }
    result_t res;
    CHECK(tsim_run_checked(ini, (const char *[]){ "routing.algorithm=afi", "switch.vcs=4", NULL }, &res) == 0, "afi");
    CHECK(tsim_run_checked(ini, (const char *[]){ "routing.algorithm=afi", "switch.vcs=4", "switch.voq=false", NULL }, &res) == 0, "afi, no VOQ");
    CHECK(tsim_run_checked(ini, (const char *[]){ "routing.algorithm=afi", "switch.vcs=2", "queuing.scheme=1q", NULL }, &res) == 0, "afi 1VC");
}

TEST(route_at_arrival_keeps_invariants_and_drains)
{
    /* routing.when = arrival on the FIFO switch: each packet keeps the choice
     * made as it entered the buffer */
    static const char *ini = "load = 1.0\n[topology]\ntype = rlft\nk = 4\nstages = 3\n"
                             "[time]\nwarmup = 20us\nmeasure = 80us\n[traffic]\nscenario = hs25-1\n[switch]\nvcs = 3\n"
                             "[queuing]\nscheme = dbbm\n[routing]\nwhen = arrival\n";
    const char *routings[] = { "dmodk", "oblivious", "fully-adaptive", "ADAP-2TH-S-K/2", "ADAP-TH-1S-K", NULL };
    for (int i = 0; routings[i]; i++) {
        result_t a, b;
        CHECK(run_routing(ini, routings[i], &a) == 0, "%s", routings[i]);
        run_routing(ini, routings[i], &b);
        CHECK(a.delivered == b.delivered && a.lat_mean == b.lat_mean, "%s: two runs differ", routings[i]);
    }
    result_t res;
    CHECK(tsim_run_checked(ini, (const char *[]){ "routing.algorithm=afi", "switch.vcs=4", NULL }, &res) == 0, "afi");
}

TEST(voq_runs_are_deterministic)
{
    static const char *ini = "load = 0.9\n[topology]\ntype = rlft\nk = 4\nstages = 3\n"
                             "[time]\nwarmup = 10us\nmeasure = 50us\n[traffic]\nscenario = hs10-1\n[switch]\nvoq = true\nvcs = 3\n"
                             "[queuing]\nscheme = dbbm\n[routing]\nalgorithm = ADAP-2TH-S-K/2\n";
    result_t a, b;
    tsim_run_checked(ini, NULL, &a);
    tsim_run_checked(ini, NULL, &b);
    CHECK(a.delivered == b.delivered && a.accepted == b.accepted && a.lat_mean == b.lat_mean,
          "same seed, different results: %llu vs %llu", (unsigned long long)a.delivered, (unsigned long long)b.delivered);
}

/* ---- per-VC source queues ---- */

TEST(per_vc_sources_keep_clean_vcs_flowing)
{
    /* VOQ + DBBM under HS10-1: the hot VC blocks everywhere, the two others
     * carry their share (seed 002, Table 3: 60 = 90 % x 2/3 for every routing).
     * With one shared FIFO per node the hot VC stops the nodes as well. */
    static const char *ini = "load = 1.0\n[topology]\ntype = rlft\nk = 6\nstages = 3\n"
                             "[time]\nwarmup = 200us\nmeasure = 200us\n[traffic]\nscenario = hs10-1\n[switch]\nvoq = true\nvcs = 3\n"
                             "[queuing]\nscheme = dbbm\n";
    result_t pv, sh;
    tsim_run_checked(ini, NULL, &pv);
    tsim_run_checked(ini, (const char *[]){ "nic.queues=shared", NULL }, &sh);
    CHECK(pv.accepted > 0.5 && pv.accepted < 0.7, "per-VC sources: accepted %.3f, want about 0.6", pv.accepted);
    CHECK(sh.accepted < pv.accepted - 0.15, "shared source FIFO: accepted %.3f, per-VC %.3f", sh.accepted, pv.accepted);
    CHECK(pv.src_drops > 0, "a saturated VC must overflow its source queue (src_drops = %llu)", (unsigned long long)pv.src_drops);
}
