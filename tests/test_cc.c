/* IBA congestion control: the analytic checks of the anchors note (section
 * 1.8) and the contributor/victim scenario, on one switch. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/net/link.h"
#include "../src/cc/cc.h"
#include "../src/cc/cct.h"
#include "../src/sim/internal.h"
#include "../src/transport/transport.h"
#include "../src/core/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One 8-port switch (RLFT, K = 4, T = 1), 100 Gbps, 4 KB packets. */
static const char *one_switch =
    "load = 1.0\nseed = 3\n[time]\nwarmup = 2ms\nmeasure = 3ms\ninterval = 100us\n"
    "[topology]\ntype = rlft\nk = 4\nstages = 1\n[link]\nbandwidth = 100Gbps\ndelay = 20ns\n"
    "[switch]\nbuffer = 32KB\n[nic]\nbuffer = 32KB\n";

enum { HOT = 7, VICTIM = 6, NCONTRIB = 4 };

/* Nodes 0..3 send to the hot-spot; node 0 sends 3 of every 4 messages to
 * the victim's destination instead, through the same input link: its flow
 * to the hot-spot offers exactly the fair share 1/N, the victim flow the
 * rest of the link, 1 - 1/N. */
static uint32_t contrib_dst(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)s;
    if (src >= NCONTRIB) return ICN_NIL;
    if (src == 0 && rng_below(r, 4)) return VICTIM;
    return HOT;
}
static const pattern_ops contrib = { "contrib", "test only", NULL, contrib_dst };

/* Nodes 0..nsend-1 send by `pattern`, the others are silent. */
static void use_pattern(sim_t *s, const pattern_ops *pattern, uint32_t nsend)
{
    s->pattern = pattern;
    for (uint32_t n = nsend; n < s->nnodes; n++) { s->nic[n].silent = 1; s->nic[n].next_gen = SIMTIME_MAX; }
}

static void use_contrib(sim_t *s) { use_pattern(s, &contrib, NCONTRIB); }

/* Throughput (fraction of a link) delivered to node d in the window. */
static double rx(const sim_t *s, uint32_t d)
{
    return (double)s->nic[d].rx_bytes * 8.0 / (s->link_bps * (double)(s->stop - s->warmup) * 1e-12);
}

static void run_contrib(const char *const *sets, double *victim, double *hot, double *contrib_share, sim_t *keep)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, sets);
    use_contrib(&s);
    CHECK(sim_run(&s) == 0, "run failed");
    CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
    *victim = rx(&s, VICTIM);
    *hot = rx(&s, HOT);
    double mn = 1, mx = 0;   /* per-contributor share of the hot-spot, nodes 1..3 */
    if (s.tp)
        for (uint32_t f = 0; f < s.tp->nflow_used; f++) {
            const flow_t *fl = flow_at(s.tp, f);
            if (fl->dst != HOT || fl->node == 0 || fl->node >= NCONTRIB) continue;
            double x = (double)fl->rx_bytes * 8.0 / (s.link_bps * (double)(s.stop - s.warmup) * 1e-12);
            if (x < mn) mn = x;
            if (x > mx) mx = x;
        }
    *contrib_share = s.tp ? mn : 0;
    if (keep) *keep = s;
    else { sim_free(&s); }
    cfg_free(&c);
}

TEST(cc_victim_recovers_contributors_share_fairly)
{
    double v0, h0, share, v, h;
    /* without CC the victim waits behind its input's hot-spot packets */
    run_contrib(NULL, &v0, &h0, &share, NULL);
    printf("       no CC: victim %.3f of its offered 1 - 1/N = %.3f, hot-spot %.3f\n", v0, 1 - 1.0 / NCONTRIB, h0);
    CHECK(v0 < 0.8 * (1 - 1.0 / NCONTRIB), "victim %.3f without CC: not held back by HoL blocking", v0);
    CHECK(h0 > 0.95, "hot-spot output not saturated: %.3f", h0);
    /* with CC the contributors are throttled and the victim gets nearly its 1 - 1/N */
    run_contrib((const char *[]){ "cc.mode=iba", NULL }, &v, &h, &share, NULL);
    printf("       IBA CC (opa): victim %.3f, hot-spot %.3f, slowest contributor %.3f (fair share %.3f)\n", v, h, share,
           1.0 / NCONTRIB);
    CHECK(v > 0.85 * (1 - 1.0 / NCONTRIB) && v > v0 + 0.1, "victim %.3f with CC (%.3f without), expected about 1 - 1/N = %.3f",
          v, v0, 1 - 1.0 / NCONTRIB);
    CHECK(h > 0.5, "CC collapses the hot-spot: %.3f", h);
    CHECK(share > 0.2 / NCONTRIB, "a contributor starved: %.3f, fair share %.3f", share, 1.0 / NCONTRIB);
}

/* nic.queues = flows without CC: the same NIC as cc.mode = iba (one send
 * queue per destination), so a CC-off baseline differs from CC on only by
 * CC. The victim still waits behind the hot-spot's packets in the switch's
 * input buffer: its recovery with CC comes from the throttling, not from the
 * NIC's queues. With CC on, the flow transport is there anyway. */
TEST(cc_off_baseline_with_the_flow_nic)
{
    double v0, h0, share0, vf, hf, sharef, v, h, share, v2, h2, share2;
    run_contrib(NULL, &v0, &h0, &share0, NULL);
    run_contrib((const char *[]){ "nic.queues=flows", NULL }, &vf, &hf, &sharef, NULL);
    printf("       flows NIC, no CC: victim %.3f (FIFO NIC %.3f), hot-spot %.3f, slowest contributor %.3f\n", vf, v0, hf, sharef);
    CHECK(sharef > 0, "nic.queues = flows kept no flows");
    CHECK(vf < 0.8 * (1 - 1.0 / NCONTRIB), "victim %.3f without CC on the flow NIC: not held back by HoL blocking", vf);
    CHECK(hf > 0.95, "hot-spot output not saturated: %.3f", hf);
    run_contrib((const char *[]){ "cc.mode=iba", NULL }, &v, &h, &share, NULL);
    run_contrib((const char *[]){ "cc.mode=iba", "nic.queues=flows", NULL }, &v2, &h2, &share2, NULL);
    CHECK(v == v2 && h == h2 && share == share2, "cc.mode = iba: nic.queues = flows changed the run");
    CHECK(v > vf + 0.1, "victim %.3f with CC, %.3f on the same NIC without", v, vf);
}

/* A delivery whose flow has ended makes its stalled source catch up, which
 * creates flows while the delivery holds a pointer to a record: records
 * must not move as the pool grows (with a pool grown by realloc this run
 * read freed memory, which ASan reports). This 1024-node fat-tree under
 * HS10-1 grows its pool past one chunk within its window. */
TEST(transport_pool_grows_during_a_delivery)
{
    static const char *ini =
        "load = 1.0\n[time]\nwarmup = 300us\nmeasure = 100us\ndrain = false\n[topology]\ntype = rlft\nk = 8\nstages = 3\n"
        "[link]\nbandwidth = 100Gbps\ndelay = 6ns\n[switch]\nbuffer = 192KB\narbiter = islip\nislip_iterations = 3\n"
        "[nic]\nbuffer = 192KB\nqueues = flows\n[traffic]\nscenario = hs10-1\n[routing]\nalgorithm = dmodk\nwhen = arrival\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    CHECK(sim_run(&s) == 0, "run failed");
    CHECK(s.tp->nchunks > 1, "the flow pool never grew past one chunk (%u records): the case no longer tests growth",
          s.tp->nflow_cap);
    CHECK(sim_check_invariants(&s, 0) == 0, "invariants");
    sim_free(&s);
    cfg_free(&c);
}

/* CCTI balance: while a source stays throttled, BECNs x CCTI_Increase
 * offset one decrement per CCTI_Timer (note section 1.8, item 2). The
 * contributors' final indices are printed; they move by CCTI_Increase per
 * BECN, so no single value is asserted. */
TEST(cc_becn_rate_balances_the_timer)
{
    double v, h, share;
    sim_t s;
    run_contrib((const char *[]){ "cc.mode=iba", NULL }, &v, &h, &share, &s);
    simtime_t T = s.now;
    for (uint32_t f = 0; f < s.tp->nflow_used; f++) {
        const flow_t *fl = flow_at(s.tp, f);
        if (fl->dst != HOT || fl->node == 0 || fl->node >= NCONTRIB) continue;
        double inc = (double)fl->cc.becns * s.cc->increase, dec = (double)T / (double)s.cc->timer;
        printf("       contributor %u: %u BECNs x %u = %.0f against %.0f timer periods; final CCTI %u\n", fl->node,
               fl->cc.becns, s.cc->increase, inc, dec, fl->cc.ccti);
        CHECK(inc > 0.8 * dec && inc < 1.2 * dec + s.cc->ccti_limit, "BECN rate x increase %.0f, timer periods %.0f", inc, dec);
    }
    sim_free(&s);
}

/* The CCT shapes against the anchors note's table (section 1.7): IRD at the
 * last index, in units of Tp. */
TEST(cc_tables_match_their_definitions)
{
    static const struct { const char *cct; double last; } want[] = {
        { "simula-llnl", 3.0 }, { "simula-optimal", 5.75 }, { "mellanox-default", 57 }, { "mellanox-llnl", 30 },
    };
    for (size_t i = 0; i < ICN_ARRAY_LEN(want); i++) {
        char set[64];
        snprintf(set, sizeof set, "cc.cct=%s", want[i].cct);
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", set, NULL });
        double last = (double)s.cc->ird[127] / (double)s.cc->tp;
        CHECK_NEAR(last, want[i].last, 0.02 * want[i].last, want[i].cct);
        CHECK(s.cc->ird[0] == 0, "%s: CCT[0] is not 0", want[i].cct);
        sim_free(&s);
        cfg_free(&c);
    }
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", NULL });   /* linear to 8300 ns */
    CHECK_NEAR(s.cc->ird[127] / 1e3, 8300, 8300 * 0.01, "linear IRD at 127 (ns)");
    CHECK_NEAR(s.cc->ird[64] / 1e3, 8300 * 64 / 127.0, 60, "linear IRD at 64 (ns)");
    /* the floor: a flow at the last index keeps Tp / (Tp + IRD) of the link */
    double floor_rate = (double)s.cc->tp / (double)(s.cc->tp + s.cc->ird[127]);
    CHECK_NEAR(floor_rate, 0.038, 0.003, "rate kept at CCTI_Limit, linear table");
    sim_free(&s);
    cfg_free(&c);
}

/* Recovery: from CCTI_Limit with no further BECN the index falls by one per
 * CCTI_Timer and reaches 0 after Limit x Timer. */
TEST(cc_recovery_takes_limit_times_timer)
{
    const char *ini = "load = 0\n[time]\nwarmup = 0\nmeasure = 1ms\n[topology]\ntype = rlft\nk = 4\nstages = 1\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ "cc.mode=iba", "time.drain=false", NULL });
    for (int i = 0; i < 30; i++) cc_becn(&s, 0, 1, 0, 0);   /* 30 x 5 capped at 127 */
    uint32_t f = flow_get(&s, 0, 1);
    CHECK(flow_at(s.tp, f)->cc.ccti == 127, "CCTI %u after 30 BECNs, want the limit 127", flow_at(s.tp, f)->cc.ccti);
    simtime_t full = 127 * s.cc->timer;   /* 1.30 ms */
    s.end = s.stop = full - s.cc->timer / 2;
    sim_run(&s);
    CHECK(flow_at(s.tp, f)->cc.ccti == 1, "CCTI %u just before Limit x Timer, want 1", flow_at(s.tp, f)->cc.ccti);
    sim_drain(&s, s.cc->timer);
    CHECK(flow_at(s.tp, f)->cc.ccti == 0, "CCTI %u after Limit x Timer, want 0", flow_at(s.tp, f)->cc.ccti);
    CHECK(s.tp->flows_live == 0, "a flow at rest was not freed (%u live)", s.tp->flows_live);
    CHECK(s.cc->ccti_sum == 0 && s.cc->ccti_count[1] == 0, "per-index counts left at %llu",
          (unsigned long long)s.cc->ccti_sum);
    CHECK(s.cc->nsampled > 0 && s.cc->ts_max[0] == 127, "the first sample shows largest index %u, want 127",
          s.cc->nsampled ? s.cc->ts_max[0] : 0);
    sim_free(&s);
    cfg_free(&c);
}

/* Hysteresis: a port VL becomes congested when the bytes queued for it,
 * the departing packet included, reach the threshold, and stays so until
 * the bytes a packet leaves behind fall below the threshold minus
 * cc.hysteresis (here 6 KB, more than a packet). */
TEST(cc_congestion_state_has_hysteresis)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "cc.hysteresis=6KB", NULL });
    cc_t *cc = s.cc;
    uint32_t go = s.sw[0].port0 + 7, b = go * s.nvc, mtu = s.mtu;
    CHECK(cc->enter_bytes == s.vc_cap_sw / 2 && cc->leave_bytes == cc->enter_bytes - 6144 && cc->leave_bytes + mtu < cc->enter_bytes,
          "threshold 8 of a %u-byte VL: enter %u, leave %u", s.vc_cap_sw, cc->enter_bytes, cc->leave_bytes);
    uint32_t id = pkt_alloc(&s);
    packet_t *p = &s.pkt[id];
    memset(p, 0, sizeof *p);
    p->size = mtu;
    /* forwarded with `queued` bytes waiting, this packet included */
    static const struct { uint32_t queued; int congested; } steps[] = {
        { 1, 0 }, { 0, 1 }, { 2, 1 }, { 3, 0 }, { 2, 0 }, { 4, 0 },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        /* 0: enter; 1: just below enter; 2: leaves exactly leave_bytes behind; 3: one byte fewer;
         * 4: the packet alone (an emptied queue) */
        uint32_t q = steps[i].queued == 0 ? cc->enter_bytes : steps[i].queued == 1 ? cc->enter_bytes - 1
                     : steps[i].queued == 2 ? cc->leave_bytes + mtu : steps[i].queued == 3 ? cc->leave_bytes + mtu - 1 : mtu;
        *cc_occ_cv(&s, b) = q | (*cc_occ_cv(&s, b) & CC_CONGESTED);   /* the flag bit is the state's, not the count's */
        cc_on_forward(&s, go, id, 1);
        CHECK(cc->pvl[b].congested == steps[i].congested, "step %zu: %u bytes queued, congested %d, want %d", i, q,
              cc->pvl[b].congested, steps[i].congested);
        CHECK(!!(*cc_occ_cv(&s, b) & CC_CONGESTED) == cc->pvl[b].congested, "step %zu: the occupancy's flag disagrees", i);
        CHECK((*cc_occ_cv(&s, b) & ~CC_CONGESTED) == q - mtu, "step %zu: the forwarded packet's bytes were not taken off", i);
    }
    pkt_release(&s, id);
    sim_free(&s);
    cfg_free(&c);
}

/* CCTI_Min: the index rests there, never below, and a flow at rest is freed;
 * a new flow starts at it. Per flow, the CCT entry at rest must be 0 (a
 * delay at rest would be skipped by every new flow): refused otherwise. */
TEST(cc_index_rests_at_ccti_min)
{
    const char *ini = "load = 0\n[time]\nwarmup = 0\nmeasure = 1ms\n[topology]\ntype = rlft\nk = 4\nstages = 1\n";
    char dir[128] = "", path[192], set[256], cmd[512], out[2048];
    test_tmpdir(dir, sizeof dir, "ccmin");
    snprintf(path, sizeof path, "%s/rest.cct", dir);
    FILE *cf = fopen(path, "w");
    CHECK(cf && fputs("0 0\n0 0\n0 0\n0 0\n0 1\n0 2\n0 3\n0 4\n0 5\n", cf) >= 0 && fclose(cf) == 0, "writing %s", path);
    snprintf(set, sizeof set, "cc.cct_file=%s", path);
    snprintf(cmd, sizeof cmd, "./build/icnsim run -s topology.k=4 -s topology.stages=1 -s time.measure=10us -s cc.mode=iba "
             "-s cc.ccti_min=3 -q -o %s/x", dir);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "cc.ccti_min") && strstr(out, "at rest"), "a linear CCT's delay at rest per flow: exit %d: %s", rc, out);
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ "cc.mode=iba", "cc.cct=file", set, "cc.ccti_limit=8", "cc.ccti_min=3", NULL });
    uint32_t f = flow_get(&s, 0, 1);
    CHECK(flow_at(s.tp, f)->cc.ccti == 3, "a new flow starts at %u, want CCTI_Min 3", flow_at(s.tp, f)->cc.ccti);
    cc_becn(&s, 0, 1, 0, 0);   /* 3 + 5 = 8 */
    s.end = s.stop = 6 * s.cc->timer;
    sim_run(&s);
    CHECK(s.tp->flows_live == 0, "the flow at rest was not freed (%u live)", s.tp->flows_live);
    CHECK(flow_at(s.tp, f)->node == ICN_NIL, "the freed flow still names a node");
    CHECK(s.cc->ccti_sum == 0, "per-index counts left at %llu", (unsigned long long)s.cc->ccti_sum);
    CHECK(s.cc->timer_expiries == 5, "%llu timer expiries, want 5 (8 down to 3)", (unsigned long long)s.cc->timer_expiries);
    sim_free(&s);
    cfg_free(&c);
}

/* Control packets are real packets: CNPs cross the network and are counted
 * by the invariants; the run is deterministic and drains. */
TEST(cc_cnps_travel_and_runs_repeat)
{
    const char *ini = "load = 0.9\nseed = 5\n[time]\nwarmup = 50us\nmeasure = 300us\n[topology]\nk = 4\nstages = 2\n"
                      "[traffic]\nscenario = hs25-1\n";
    result_t a, b;
    tsim_run_checked(ini, (const char *[]){ "cc.mode=iba", NULL }, &a);
    tsim_run_checked(ini, (const char *[]){ "cc.mode=iba", NULL }, &b);
    CHECK(!memcmp(&a, &b, sizeof a), "two runs with the same seed differ");
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ "cc.mode=iba", "check.invariants=yes", "check.every=500", NULL });
    CHECK(sim_run(&s) == 0, "run with invariant checks failed");
    CHECK(s.tp->cnp_sent > 0 && s.cc->marked >= s.tp->cnp_sent && s.tp->cnp_delivered <= s.tp->cnp_sent,
          "marked %llu, CNPs sent %llu, delivered %llu", (unsigned long long)s.cc->marked,
          (unsigned long long)s.tp->cnp_sent, (unsigned long long)s.tp->cnp_delivered);
    sim_free(&s);
    cfg_free(&c);
}

/* Everything a stalled node's replay must reproduce: per-node counts, every
 * live flow (a sum of per-flow hashes: ids may differ), the CC and
 * transport totals. */
static uint64_t transport_digest(const sim_t *s)
{
    uint64_t h = ICN_HASH_INIT, flows = 0;
    for (uint32_t n = 0; n < s->nnodes; n++) {
        h = hash_bytes(&s->nic[n].injected_pkts, sizeof s->nic[n].injected_pkts, h);
        h = hash_bytes(&s->nic[n].rx_bytes, sizeof s->nic[n].rx_bytes, h);
    }
    const transport_t *t = s->tp;
    for (uint32_t f = 0; f < t->nflow_used; f++) {
        const flow_t *fl = flow_at(t, f);
        if (fl->node == ICN_NIL) continue;
        const cca_t *a = s->cc ? cc_state((sim_t *)s, f) : &fl->cc;   /* (nic.queues = flows without CC) */
        uint64_t rec[] = { fl->node, fl->dst, fl->n, fl->tx_bytes, fl->rx_bytes, fl->born, a->ccti, a->becns };
        flows += hash_bytes(rec, sizeof rec, ICN_HASH_INIT);
    }
    uint64_t tot[] = { flows, t->cnp_sent, t->cnp_delivered, t->flows_live, t->flows_peak, s->st.src_drops,
                       s->cc ? s->cc->marked : 0, s->cc ? s->cc->becns : 0, s->cc ? s->cc->timer_expiries : 0 };
    return hash_bytes(tot, sizeof tot, h);
}

/* One run of the flow transport with its two ways of working chosen, and
 * what the tests below compare of it. */
typedef struct tp_run { result_t r; uint64_t digest, events, run_drops, wdrops; psum_t wsum; } tp_run_t;

static void tp_run(tp_run_t *o, const char *ini, const char *const *sets, int woken, int no_runs)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, sets);
    s.tp->no_stall = (uint8_t)woken;
    s.tp->no_runs = (uint8_t)no_runs;
    CHECK(sim_run(&s) == 0, "%s%s: run failed", sets[0] ? sets[0] : "(no settings)", sets[0] && sets[1] ? " ..." : "");
    result_compute(&s, &o->r);
    o->digest = transport_digest(&s);
    o->events = s.st.events;
    o->run_drops = s.tp->run_drops;
    o->wdrops = s.st.w_src_drops;
    o->wsum = s.st.w_done_tsum;
    sim_free(&s);
    cfg_free(&c);
}

/* A node with no room anywhere stalls: its wake-ups for new messages and
 * throttled flows are replayed when something serves it, not scheduled.
 * The results must be those of the node woken every time, with fewer
 * events. */
TEST(cc_stalled_nodes_replay_their_wakeups)
{
    const char *ini = "load = 1.0\nseed = 3\n[time]\nwarmup = 20us\nmeasure = 100us\n[topology]\nk = 4\nstages = 2\n"
                      "[traffic]\nscenario = hs25-1\n[cc]\nmode = iba\n";
    static const char *const cases[][5] = {
        { NULL },
        { "cc.port_control=sl", NULL },
        { "cc.preset=simula-llnl", "traffic.scenario=hotspot", "traffic.hs_count=3", NULL },   /* 3 sources, 3 hot-spots */
        { "nic.flows=4", "nic.queue_limit=8", NULL },
        { "traffic.hs_period=20us", "traffic.message_size=6KB", NULL },
        { "cc.max_delay=100us", "cc.ccti_timer=128", "traffic.scenario=hs10-1", NULL },
        { "cc.ccti_timer=1", "traffic.scenario=hotspot", "traffic.hs_count=3", "load=0.8", NULL },
        { "cc.ccti_timer=2", "cc.ccti_increase=1", "nic.flows=8", NULL },
        { "cc.ccti_timer=1", "traffic.scenario=hs25-4", "time.measure=300us", NULL },
        /* a message's last packet is its smallest: a node with room for it must not stall */
        { "traffic.message_size=4200B", "switch.buffer=32KB", "nic.buffer=32KB", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tp_run_t o[2];
        for (int woken = 0; woken < 2; woken++) tp_run(&o[woken], ini, cases[i], woken, 0);
        CHECK(!memcmp(&o[0].r, &o[1].r, sizeof o[0].r), "case %zu: results differ when nodes stall", i);
        CHECK(o[0].digest == o[1].digest, "case %zu: flows or counts differ when nodes stall", i);
        CHECK(o[0].events < o[1].events, "case %zu: no node stalled (%llu events either way)", i,
              (unsigned long long)o[0].events);
    }
}


/* A stalled node's replay that reaches past the run's end takes no message
 * generated at or after the end: the drain can end the run inside a replay,
 * at the time of the drop that completed its count, while the replay goes
 * on to its own end. Here the end is moved to just after the last event
 * handled, and every node is then replayed to well past it. */
TEST(transport_replay_takes_nothing_past_the_end)
{
    const char *ini = "load = 1.0\nseed = 3\n[time]\nwarmup = 20us\nmeasure = 100us\n[topology]\nk = 4\nstages = 2\n"
                      "[traffic]\nscenario = hs25-1\n[cc]\nmode = iba\n";
    static const char *const cases[][3] = { { NULL }, { "nic.queues=flows", "cc.mode=off", NULL } };
    for (size_t i = 0; i < ICN_ARRAY_LEN(cases); i++) {
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, cases[i]);
        CHECK(sim_run_until(&s, 60000000) == EXIT_OK, "case %zu: run failed", i);
        uint32_t stalled = 0, late = 0;
        for (uint32_t n = 0; n < s.nnodes; n++) stalled += s.tp->node[n].stalled;
        s.end = s.now + 2000000;   /* 2 us on */
        transport_sync(&s, s.end + 50000000);
        for (uint32_t n = 0; n < s.nnodes; n++) late += s.nic[n].msg_gen >= s.end;
        CHECK(stalled > 0, "case %zu: no node stalled", i);
        CHECK(late == 0, "case %zu: %u nodes took a message generated at or after the end", i, late);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* A saturated hot-spot source whose flow is full drops its messages: with a
 * fixed gap and a fixed destination the transport counts them in runs
 * (drop_run). The results, the flows and every count must be those of the
 * messages dropped one by one, in and around the window and the drain,
 * with moving hot-spots, messages of several packets, stalled or woken
 * nodes; and where the gap or the destination is drawn, nothing is counted
 * in runs. */
TEST(transport_drop_runs_equal_drops_one_by_one)
{
    const char *ini = "load = 1.0\nseed = 5\n[time]\nwarmup = 20us\nmeasure = 60us\n[topology]\nk = 4\nstages = 2\n"
                      "[traffic]\nscenario = hs25-1\n[nic]\nqueue_limit = 4\n[cc]\nmode = iba\n";
    static const char *const cases[][6] = {
        { NULL },
        { "nic.queues=flows", "cc.mode=off", NULL },
        { "time.drain=false", NULL },
        { "cc.port_control=sl", NULL },
        { "traffic.message_size=8KB", NULL },   /* two packets each */
        { "traffic.scenario=hotspot", "traffic.hs_count=2", "traffic.hs_period=15us", NULL },
        { "traffic.hs_start=10us", "traffic.hs_end=50us", "nic.flows=4", NULL },
        { "time.warmup=0", "nic.queue_limit=1", NULL },
        { "time.warmup=56us", "time.measure=30us", NULL },   /* runs reach the window's start */
        /* a held message joins after the window: its source's backlog of the window's messages drops in the drain */
        { "nic.flows=1", "traffic.hs_start=70us", "nic.queue_limit=1", NULL },
        /* drawn: a gap below load 1, a destination of traffic.pattern */
        { "load=0.95", NULL },
        { "traffic.scenario=none", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int drawn = i >= 10;
        for (int woken = 0; woken < 2; woken++) {
            tp_run_t o[2];
            for (int one_by_one = 0; one_by_one < 2; one_by_one++) tp_run(&o[one_by_one], ini, cases[i], woken, one_by_one);
            CHECK(!memcmp(&o[0].r, &o[1].r, sizeof o[0].r), "case %zu (woken %d): results differ with drops in runs", i, woken);
            CHECK(o[0].digest == o[1].digest, "case %zu (woken %d): flows or counts differ with drops in runs", i, woken);
            CHECK(o[0].wdrops == o[1].wdrops && o[0].wsum == o[1].wsum, "case %zu (woken %d): the window's drops differ", i, woken);
            CHECK(o[1].run_drops == 0, "case %zu: drops counted in runs although asked not to", i);
            /* (a woken node takes runs only from a backlog, which these configurations may not give it) */
            if (drawn || !woken)
                CHECK(drawn ? o[0].run_drops == 0 : o[0].run_drops > 0, "case %zu (woken %d): %llu drops counted in runs", i,
                      woken, (unsigned long long)o[0].run_drops);
        }
    }
}

/* Bad input: a clear error naming the key or the file and line, exit 2. */
TEST(cc_bad_input_is_refused)
{
    char cmd[1024], out[4096];
    static const struct { const char *args, *needle; } bad[] = {
        { "-s cc.mode=iba -s cc.threshold=16", "cc.threshold" },
        { "-s cc.threshold=4", "no effect" },
        { "-s cc.mode=iba -s cc.preset=fast", "cc.preset" },
        { "-s cc.mode=iba -s cc.cct=cubic", "cc.cct" },
        { "-s cc.mode=iba -s cc.ccti_min=200 -s cc.ccti_limit=100", "cc.ccti_min" },
        { "-s cc.mode=iba -s cc.cct=file", "cc.cct_file" },
        { "-s cc.mode=iba -s cc.max_delay=1us -s cc.cct=simula-llnl", "cc.max_delay" },
        { "-s cc.mode=iba -s routing.when=head", "routing.when" },
        { "-s cc.mode=iba -s queuing.scheme=voqnet", "VOQnet" },
        { "-s views.cc=yes", "set cc.mode = iba" },
        { "-s cc.mode=iba -s switch.buffer=1024MB", "31 bits" },
        { "-s cc.mode=iba -s nic.queues=shared", "no effect" },   /* CC sends through flows */
        { "-s nic.queues=shared", "no effect" },                  /* one VC: a single queue anyway */
        /* per SL, the state is the injection VC's: not with a routing that owns the VCs, nor past 16 */
        { "-s cc.mode=iba -s cc.port_control=sl -s topology.type=torus -s topology.k=4 -s topology.n=2 "
          "-s routing.algorithm=dor-dateline -s switch.vcs=2 -s traffic.scenario=none", "use cc.port_control = flow" },
        { "-s cc.mode=iba -s cc.port_control=sl -s switch.vcs=20 -s queuing.scheme=dbbm -s switch.buffer=400KB", "at most 16" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s run -q -o /tmp/icnsim-cc-bad -s time.measure=10us %s", icnsim_bin(), bad[i].args);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 2 && strstr(out, bad[i].needle), "'%s': status %d: %s", bad[i].args, rc, out);
    }
    /* a linear CCT to a delay no entry can hold (shift 0, multiplier 16383 packet times) is said to go flat */
    snprintf(cmd, sizeof cmd, "%s run -q -o /tmp/icnsim-cc-bad -s time.measure=10us -s cc.mode=iba -s cc.max_delay=1ms "
             "-s packet.mtu=256B", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "cc.max_delay = 1000.000 us") && strstr(out, "stops growing"),
          "a clipped CCT is not reported: %s", out);
    /* CCT files: empty, non-monotonic, malformed, too short */
    static const struct { const char *text, *needle; } files[] = {
        { "# nothing\n", "no entries" },
        { "0 0\n3 8\n3 4\n", "icnsim-cct.txt:3: entry 2 gives a shorter delay than entry 1 (line 2)" },
        { "0 0\n3 eight\n", ":2: expected" },
        { "0 0\n0 1\n", "needs 128" },
        { "", "needs 128" },   /* 127 entries and a comment of 256 characters whose tail reads as a 128th */
        { "", ":2: a NUL byte" },
        { "0 0\n0x\n", ":2: expected" },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = fopen("/tmp/icnsim-cct.txt", "w");
        if (!f) abort();
        fputs(files[i].text, f);
        if (i == 1) for (int k = 0; k < 130; k++) fputs("3 4\n", f);   /* long enough, decreasing at entry 2 */
        if (i == 4) {
            for (int k = 0; k < 127; k++) fputs("0 0\n", f);
            fprintf(f, "# %0253d0 3\n", 0);
        }
        if (i == 5) fwrite("0 0\n0 1\0\n", 1, 9, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "%s run -q -o /tmp/icnsim-cc-bad -s time.measure=10us -s cc.mode=iba -s cc.cct=file "
                 "-s cc.cct_file=/tmp/icnsim-cct.txt", icnsim_bin());
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 2 && strstr(out, files[i].needle) && strstr(out, "/tmp/icnsim-cct.txt"), "CCT file %zu: status %d: %s", i, rc, out);
    }
    /* numbers are decimal, or a whole word after 0x: 09 is nine, not an octal error */
    FILE *f = fopen("/tmp/icnsim-cct.txt", "w");
    if (!f) abort();
    fputs("0 0\n0x0009\n0 09\n", f);
    for (int k = 0; k < 130; k++) fputs("0 010\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run -q -o /tmp/icnsim-cc-bad -s time.measure=10us -s cc.mode=iba -s cc.cct=file "
             "-s cc.cct_file=/tmp/icnsim-cct.txt -s cc.ccti_limit=8", icnsim_bin());
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 0, "a decimal CCT file: status %d: %s", rc, out);
    unlink("/tmp/icnsim-cct.txt");
    /* a CNP is one packet */
    snprintf(cmd, sizeof cmd, "%s run -q -o /tmp/icnsim-cc-bad -s time.measure=10us -s cc.mode=iba -s packet.mtu=256B "
             "-s cc.cnp_size=4KB", icnsim_bin());
    rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "cc.cnp_size") && strstr(out, "larger than a packet"), "a CNP above packet.mtu: %d: %s", rc, out);
}

/* dir/name opened past its header line, or NULL (a failed check). */
static FILE *open_csv(const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    CHECK(f && fscanf(f, "%*[^\n]\n") == 0, "no %s", path);
    return f;
}

/* views.cc agrees with the totals it breaks down: per sample, the nodes'
 * throttled sources add up to cc-timeseries.csv's; per switch output VL,
 * the per-interval congested fractions add up to cc-ports.csv's. */
TEST(cc_view_over_time_adds_up_to_the_totals)
{
    char dir[128], cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "ccview");
    snprintf(cmd, sizeof cmd, "%s run experiments/seed002/hs10-1-dmodk-432.ini -q -o %s -s output.plots=no -s cc.mode=iba "
             "-s views.cc=yes -s time.warmup=20us -s time.measure=100us -s time.interval=10us -s time.drain=false", icnsim_bin(), dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "run failed: %s", out);
    enum { NB = 12 };   /* samples at 10, 20, ..., 120 us */
    double thr[NB] = { 0 }, want[NB] = { 0 }, t, x;
    unsigned node, n, sw, port, vl, rows = 0;
    char state[16];
    FILE *f = open_csv(dir, "cc-nodes.csv");
    if (!f) return;
    while (fscanf(f, "%lf,%u,%u,%lf\n", &t, &node, &n, &x) == 4) {
        int b = (int)(t / 10 + 0.5) - 1;
        CHECK(b >= 0 && b < NB && n > 0 && x > 0, "cc-nodes.csv row %u: t %g, %u sources, mean %g", rows, t, n, x);
        if (b >= 0 && b < NB) thr[b] += n;
        rows++;
    }
    fclose(f);
    CHECK(rows > 0, "no node was throttled");
    f = open_csv(dir, "cc-timeseries.csv");
    if (!f) return;
    while (fscanf(f, "%lf,%u,%*[^\n]\n", &t, &n) == 2) {
        int b = (int)(t / 10 + 0.5) - 1;
        if (b >= 0 && b < NB) want[b] = n;
    }
    fclose(f);
    for (int b = 0; b < NB; b++) CHECK(thr[b] == want[b], "sample %d: nodes add up to %g sources, the total is %g", b, thr[b], want[b]);
    /* per port VL: the sum of the intervals' fractions x 10 us against the run's fraction x 120 us */
    static double sum[4096][2];
    memset(sum, 0, sizeof sum);
    f = open_csv(dir, "cc-port-state.csv");
    if (!f) return;
    rows = 0;
    while (fscanf(f, "%lf,%u,%u,%u,%lf,%15[a-z]\n", &t, &sw, &port, &vl, &x, state) == 6) {
        CHECK(sw * 16 + port < 4096 && vl < 2 && x >= 0 && x <= 1 && (!strcmp(state, "root") || !strcmp(state, "victim") ||
              !strcmp(state, "none")), "cc-port-state.csv row %u", rows);
        if (sw * 16 + port < 4096 && vl < 2) sum[sw * 16 + port][vl] += x * 10;
        rows++;
    }
    fclose(f);
    CHECK(rows > 0, "no port was congested");
    f = open_csv(dir, "cc-ports.csv");
    if (!f) return;
    unsigned checked = 0;
    while (fscanf(f, "%u,%u,%u,%*u,%lf,%*u\n", &sw, &port, &vl, &x) == 4) {
        if (sw * 16 + port >= 4096 || vl >= 2) continue;
        CHECK(fabs(sum[sw * 16 + port][vl] - x * 120) < 0.01, "switch %u port %u: intervals add up to %.4f us congested, "
              "the run's fraction gives %.4f us", sw, port, sum[sw * 16 + port][vl], x * 120);
        checked++;
    }
    fclose(f);
    CHECK(checked > 0, "cc-ports.csv lists no congested port");
}

/* flows.csv lists no flow that only waits, with per-flow or per-SL CC state
 * (per SL a flow has no BECNs of its own). */
TEST(cc_flows_csv_lists_no_waiting_flow)
{
    static const char *pc[2] = { "flow", "sl" };
    for (int k = 0; k < 2; k++) {
        char cmd[1024], out[4096];
        snprintf(cmd, sizeof cmd, "%s run experiments/seed002/base-432.ini -q -o /tmp/icnsim-cc-flows-%d -s output.plots=no "
                 "-s topology.k=4 -s cc.mode=iba -s cc.port_control=%s -s traffic.scenario=hs10-1 -s time.warmup=10us "
                 "-s time.measure=30us && awk -F, -v sl=%d 'NR > 1 { n++; if ($4 == 0 && $5 == 0 && (sl || $7 == 0)) w++ } "
                 "END { print n + 0, w + 0 }' /tmp/icnsim-cc-flows-%d/flows.csv", icnsim_bin(), k, pc[k], k, k);
        int rows = -1, waiting = -1;
        CHECK(run_cmd(cmd, out, sizeof out) == 0 && sscanf(out, "%d %d", &rows, &waiting) == 2, "%s: %s", pc[k], out);
        CHECK(rows > 0 && waiting == 0,
              "cc.port_control = %s: %d of %d rows are flows that only wait", pc[k], waiting, rows);
    }
}

/* A run in which no flow sends, receives or is notified writes a flows.csv of
 * its header alone (under ASan + UBSan, an empty list must reach no libc call
 * with a null pointer). */
TEST(cc_flows_csv_with_no_flow_to_list)
{
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "%s run experiments/seed002/base-432.ini -q -o /tmp/icnsim-cc-noflow-%d -s output.plots=no "
             "-s topology.k=4 -s cc.mode=iba -s traffic.scenario=none -s load=0.0001 -s time.warmup=1us -s time.measure=1us "
             "&& wc -l < /tmp/icnsim-cc-noflow-%d/flows.csv", icnsim_bin(), (int)getpid(), (int)getpid());
    int lines = -1;
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && sscanf(out, "%d", &lines) == 1, "run: %s", out);
    CHECK(lines == 1, "flows.csv has %d lines, want the header alone", lines);
}

/* At CCTI_Limit every throttled entity keeps at most Tp / (Tp + IRD) of its
 * link: per SL, a node's flows of that SL share the one gap, whichever of
 * them sends (and per flow, each flow). */
TEST(cc_per_sl_throttle_holds_the_node_to_the_gap)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "cc.port_control=sl", "cc.ccti_min=127", NULL });
    CHECK(sim_run(&s) == 0, "run");
    const cc_t *cc = s.cc;
    double gap = (double)(cc->tp + cc->ird[127]), most = (double)(s.stop - s.warmup) / gap + 2;
    uint32_t worst = 0;
    for (uint32_t n = 0; n < s.nnodes; n++) worst = s.nic[n].w_inj > worst ? (uint32_t)s.nic[n].w_inj : worst;
    CHECK(worst > 0.8 * most && worst <= most, "a node injected %u packets in the window, at most %.0f (one per %.2f us)", worst,
          most, gap / 1e6);
    sim_free(&s);
    cfg_free(&c);
}

/* A BECN for a flow that has ended makes its flow again; with CCTI_Increase
 * 0 nothing arms a timer, and the flow, holding nothing, must end again:
 * else it keeps one of the node's nic.flows and its sources starve. */
TEST(cc_flows_made_by_becns_end_when_they_hold_nothing)
{
    const char *ini = "load = 0.7\nseed = 5\n[time]\nwarmup = 50us\nmeasure = 300us\n[topology]\nk = 4\nstages = 2\n"
                      "[traffic]\nscenario = hs25-1\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ "cc.mode=iba", "cc.ccti_increase=0", "nic.flows=4", NULL });
    CHECK(sim_run(&s) == 0, "run");
    const transport_t *t = s.tp;
    uint32_t idle = 0, live = 0;
    for (uint32_t f = 0; f < t->nflow_used; f++) {
        const flow_t *fl = flow_at(t, f);
        if (fl->node == ICN_NIL) continue;
        live++;
        idle += !fl->n && fl->state == FL_IDLE && fl->cc.ccti <= t->rest_ccti && !fl->cc.timer_on;
    }
    CHECK(live == t->flows_live && idle == 0, "%u of %u live flows hold nothing", idle, live);
    CHECK(s.cc->becns > 0, "no BECN: nothing tested");
    sim_free(&s);
    cfg_free(&c);
}

/* A node holding nic.flows flows keeps its next message until a flow ends,
 * unless a BECN makes the flow to that message's destination: the message
 * then joins it (as a posted send joins its existing QP), rather than wait
 * for another flow to end. The invariant check (check.invariants) finds a
 * message waiting beside its flow; a planted one is found too. */
TEST(cc_becn_made_flow_takes_the_waiting_message)
{
    const char *ini = "load = 0.7\nseed = 1\n[time]\nwarmup = 50us\nmeasure = 300us\n[topology]\nk = 4\nstages = 2\n"
                      "[link]\nbandwidth = 100Gbps\n[switch]\nbuffer = 192KB\n[traffic]\nscenario = hs25-1\n"
                      "[check]\ninvariants = true\nevery = 1000\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ "cc.mode=iba", "nic.flows=4", NULL });
    CHECK(sim_run(&s) == 0, "the run broke an invariant (above)");
    transport_t *t = s.tp;
    CHECK(t->held_joined > 0, "no waiting message met a flow a BECN made: nothing tested");
    uint32_t n = 0;
    while (n < s.nnodes && t->node[n].nflows == 0) n++;
    if (n < s.nnodes) {   /* plant one: the node's first flow's destination, waited for */
        tnode_t *tn = &t->node[n];
        srcmsg_t keep = tn->held;
        uint32_t nf = tn->nflows;
        tn->nflows = t->max_flows;
        for (uint32_t i = 0; i < tn->htcap; i++)
            if (tn->ht[i].f != ICN_NIL) { tn->held = (srcmsg_t){ 0, tn->ht[i].dst, 1, ICN_NIL, 0 }; break; }
        tn->held_waits = 1;
        CHECK(sim_check_invariants(&s, 0) != 0, "a message waiting beside its own flow not found");
        tn->held = keep, tn->held_waits = 0, tn->nflows = nf;
    }
    CHECK(n < s.nnodes, "no node holds a flow at the end");
    sim_free(&s);
    cfg_free(&c);
}

/* With Threshold 15 a lone packet already reaches the threshold; the port
 * VL it leaves empty is no longer congested. */
TEST(cc_a_queue_that_empties_is_not_congested)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "cc.threshold=15", NULL });
    cc_t *cc = s.cc;
    uint32_t go = s.sw[0].port0 + 7, b = go * s.nvc;
    uint32_t id = pkt_alloc(&s);
    packet_t *p = &s.pkt[id];
    memset(p, 0, sizeof *p);
    p->size = s.mtu;
    CHECK(cc->enter_bytes <= s.mtu, "threshold 15: enter at %u bytes, above a packet", cc->enter_bytes);
    *cc_occ_cv(&s, b) = 2 * s.mtu;
    cc_on_forward(&s, go, id, 1);
    CHECK(cc->pvl[b].congested, "two packets queued above the threshold: not congested");
    cc_on_forward(&s, go, id, 1);
    CHECK(!cc->pvl[b].congested && !(*cc_occ_cv(&s, b) & CC_CONGESTED), "the emptied port VL is still congested");
    pkt_release(&s, id);
    sim_free(&s);
    cfg_free(&c);
}

/* Per SL, the flows of a node that wait for the SL's gap take turns:
 * saturated, every flow of a node sends about as much as the others. */
TEST(cc_per_sl_flows_take_turns)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "cc.port_control=sl", "cc.ccti_min=127", NULL });
    CHECK(sim_run(&s) == 0, "run");
    const transport_t *t = s.tp;
    uint32_t checked = 0;
    for (uint32_t n = 0; n < s.nnodes; n++) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint32_t f = 0; f < t->nflow_used; f++) {
            const flow_t *fl = flow_at(t, f);
            if (fl->node != n || !fl->n || fl->born > s.warmup) continue;
            lo = fl->tx_bytes < lo ? fl->tx_bytes : lo;
            hi = fl->tx_bytes > hi ? fl->tx_bytes : hi;
        }
        if (!hi) continue;
        checked++;
        CHECK(lo * 3 > hi * 2, "node %u: its flows sent %llu to %llu bytes", n, (unsigned long long)lo, (unsigned long long)hi);
    }
    CHECK(checked > s.nnodes / 2, "%u nodes with lasting flows: nothing tested", checked);
    sim_free(&s);
    cfg_free(&c);
}

/* The switch's marking rules on a congested port VL, one forward at a
 * time: every (Marking_Rate + 1)-th eligible packet; packets below
 * Packet_Size x 64 bytes, control packets, packets already marked and
 * packets that did not wait are not eligible; a victim port (the next hop
 * has no room for another MTU packet) marks only with Victim_Mask all. */
static uint32_t forward_vl(sim_t *s, uint32_t go, uint8_t vl, uint32_t id, uint32_t size, uint8_t kind, int waited, int victim,
                           uint32_t n)
{
    cc_t *cc = s->cc;
    uint32_t b = go * s->nvc + vl, marks = 0;
    for (uint32_t i = 0; i < n; i++) {
        packet_t *p = &s->pkt[id];
        memset(p, 0, sizeof *p);
        p->size = size;
        p->kind = kind;
        p->out_vc = vl;
        for (uint32_t v = 0; v < s->nvc; v++) {   /* the port's other VLs in the opposite state */
            *cc_occ(s, go, v) = v == vl ? (uint32_t)s->vc_cap_sw | CC_CONGESTED : 0;   /* full and congested */
            *credit(s, go, v) = (v == vl) == !!victim ? 0 : (int32_t)s->vc_cap_sw;
        }
        cc->pvl[b].congested = 1;
        cc_on_forward(s, go, id, waited);
        marks += !!(p->flags & PKT_FECN);
    }
    return marks;
}

static uint32_t forward_n(sim_t *s, uint32_t go, uint32_t id, uint32_t size, uint8_t kind, int waited, int victim, uint32_t n)
{
    return forward_vl(s, go, 0, id, size, kind, waited, victim, n);
}

TEST(cc_marking_follows_rate_size_and_victim_rules)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "cc.marking_rate=3", "cc.packet_size=8", "cc.victim_mask=none", NULL });
    uint32_t go = s.sw[0].port0 + 7, id = pkt_alloc(&s), mtu = s.mtu;
    CHECK(s.cc->min_size == 512, "Packet_Size 8: %u bytes", s.cc->min_size);
    CHECK(forward_n(&s, go, id, mtu, PK_DATA, 1, 0, 40) == 10, "Marking_Rate 3 over 40 eligible packets: not every 4th marked");
    CHECK(forward_n(&s, go, id, 511, PK_DATA, 1, 0, 40) == 0, "packets below Packet_Size x 64 bytes were marked");
    CHECK(forward_n(&s, go, id, mtu, PK_CNP, 1, 0, 40) == 0, "control packets were marked");
    CHECK(forward_n(&s, go, id, mtu, PK_DATA, 0, 0, 40) == 0, "packets that never waited were marked");
    CHECK(forward_n(&s, go, id, mtu, PK_DATA, 1, 1, 40) == 0, "a victim port marked with Victim_Mask none");
    s.cc->victim_marks = 1;
    CHECK(forward_n(&s, go, id, mtu, PK_DATA, 1, 1, 40) == 10, "a victim port did not mark with Victim_Mask all");
    pkt_release(&s, id);
    sim_free(&s);
    cfg_free(&c);
}

/* With several VLs a port VL's marking reads its own queued bytes and its
 * own credits (root or victim), whatever the port's other VLs hold: with
 * three VLs the queued bytes are in their own array, the credits in the
 * port's record. */
TEST(cc_marking_reads_the_state_of_its_own_vl)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "queuing.scheme=dbbm", "switch.vcs=3", "cc.marking_rate=0", "cc.victim_mask=none", NULL });
    uint32_t go = s.sw[0].port0 + 7, id = pkt_alloc(&s), mtu = s.mtu;
    CHECK(s.nvc == 3 && s.cc->occ, "%u VLs, queued bytes %s", s.nvc, s.cc->occ ? "apart" : "in the port records");
    for (uint8_t vl = 0; vl < 3; vl++) {
        CHECK(forward_vl(&s, go, vl, id, mtu, PK_DATA, 1, 0, 4) == 4, "VL %u, a root, did not mark every packet", vl);
        CHECK(forward_vl(&s, go, vl, id, mtu, PK_DATA, 1, 1, 4) == 0, "VL %u, a victim, marked with Victim_Mask none", vl);
        CHECK(s.cc->pvl[go * s.nvc + vl].congested, "VL %u left the congested state with its queue full", vl);
    }
    pkt_release(&s, id);
    sim_free(&s);
    cfg_free(&c);
}

/* views.cc labels each congested output VL root or victim by that VL's own
 * credits downstream. One output's VLs all congested, the odd ones with no
 * credits left: with 2 VLs (credits in the port records) and 3 (CC's
 * queued bytes apart), each row's state must follow its own VL. */
TEST(cc_view_labels_each_vl_by_its_own_credits)
{
    for (int nvc = 2; nvc <= 3; nvc++) {
        sim_t s;
        cfg_t c;
        char vcs[32], dir[128] = "", tag[32], state[16];
        snprintf(vcs, sizeof vcs, "switch.vcs=%d", nvc);
        snprintf(tag, sizeof tag, "ccviewvl%d", nvc);
        test_tmpdir(dir, sizeof dir, tag);
        tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "queuing.scheme=dbbm", vcs, "views.cc=yes", NULL });
        uint32_t go = s.sw[0].port0 + 7;
        for (uint32_t vl = 0; vl < s.nvc; vl++) {
            s.cc->pvl[go * s.nvc + vl].congested = 1;
            if (vl & 1) *credit(&s, go, vl) = 0;
        }
        s.now = s.st.interval;
        cc_view_sample(&s, 1);
        cc_view_write(&s, dir, "test", 0);
        FILE *f = open_csv(dir, "cc-port-state.csv");
        unsigned sw, port, vl, seen = 0;
        double t, x;
        while (f && fscanf(f, "%lf,%u,%u,%u,%lf,%15[a-z]\n", &t, &sw, &port, &vl, &x, state) == 6) {
            const char *want = vl & 1 ? "victim" : "root";
            CHECK(sw == 0 && port == 7 && vl < s.nvc, "a row for switch %u port %u VL %u, congested nowhere", sw, port, vl);
            CHECK(!strcmp(state, want), "%d VLs: VL %u is %s, want %s (its own credits: %d)", nvc, vl, state, want,
                  vl < s.nvc ? *credit(&s, go, vl) : -1);
            seen |= 1u << vl;
        }
        if (f) fclose(f);
        CHECK(seen == (1u << s.nvc) - 1, "%d VLs: rows for VLs %#x", nvc, seen);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* The source's side in units: the opa preset's timer is 10 x 1.024 us, a
 * CNP is 26 bytes, and the next packet of a flow at index i may start IRD =
 * CCT[i] after the end of the last one. */
TEST(cc_source_units_timer_cnp_and_ird)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", NULL });
    CHECK(s.cc->timer == 10240000, "CCTI_Timer 10: %llu ps, want 10.24 us", (unsigned long long)s.cc->timer);
    CHECK(s.tp->cnp_size == 26, "a CNP of %u bytes", s.tp->cnp_size);
    uint32_t f = flow_get(&s, 0, 1);
    flow_at(s.tp, f)->cc.ccti = 10;
    s.now = 5000000;
    s.tp->cc->sent(&s, f, s.mtu);
    simtime_t want = 5000000 + ser_time(&s, s.mtu) + s.cc->ird[10];
    CHECK(s.cc->ird[10] > s.cc->ird[9] && s.tp->cc->ready(&s, f) == want, "ready at %llu ps, want %llu",
          (unsigned long long)s.tp->cc->ready(&s, f), (unsigned long long)want);
    sim_free(&s);
    cfg_free(&c);
}

/* A data packet with FECN makes its destination queue a CNP back to the
 * source, on the VC (SL) the packet came on, ahead of the node's data. */
TEST(cc_cnp_goes_back_on_the_marked_packets_sl)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "queuing.scheme=dbbm", "switch.vcs=3", NULL });
    uint32_t id = pkt_alloc(&s);
    packet_t *p = &s.pkt[id];
    memset(p, 0, sizeof *p);
    p->src = 2;
    p->dst = 5;
    p->size = s.mtu;
    p->kind = PK_DATA;
    p->sl = p->vc = p->out_vc = 2;
    p->flags = PKT_FECN;
    p->msg = ICN_NIL;
    p->flow = ICN_NIL;
    const tnode_t *tn = &s.tp->node[5];
    CHECK(s.hooks.deliver(&s, id) == 0 && tn->cq_n == 1, "no CNP queued at the destination");
    const ctrl_t *k = &tn->cq[tn->cq_head];
    CHECK(k->kind == PK_CNP && k->dst == 2 && k->vc == 2 && (k->flags & PKT_BECN), "CNP to %u on VC %u, kind %u", k->dst, k->vc, k->kind);
    sim_free(&s);
    cfg_free(&c);
}

/* Node 0 sends to node 1 only. */
static uint32_t solo_dst(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)s; (void)r;
    return src == 0 ? 1 : ICN_NIL;
}
static const pattern_ops solo = { "solo", "test only", NULL, solo_dst };

/* The transport's delivery, wrapped: it notes when each data packet left
 * its node (node 0's one flow delivers in order), and the first delivery
 * returns a BECN to node 0 at once. */
static int (*tp_deliver)(sim_t *s, uint32_t id);
static simtime_t becn_at, inj_at[8];
static uint32_t ninj;
static int throttle_on_first(sim_t *s, uint32_t id)
{
    if (s->pkt[id].kind == PK_DATA && ninj < ICN_ARRAY_LEN(inj_at)) inj_at[ninj++] = s->ptime[id].inj;
    if (!becn_at) { becn_at = s->now; cc_becn(s, 0, 1, 0, 0); }
    return tp_deliver(s, id);
}

/* Run node 0's stream to node 1 (keys) under throttle_on_first; returns
 * how many of its packets left before the BECN (0 or ninj: the case failed). */
static uint32_t run_solo_becn(sim_t *s, cfg_t *c, const char **keys, const char *pc)
{
    tsim_setup(s, c, one_switch, keys);
    use_pattern(s, &solo, 1);
    tp_deliver = s->hooks.deliver;
    s->hooks.deliver = throttle_on_first;
    becn_at = 0;
    ninj = 0;
    CHECK(sim_run(s) == 0, "%s: run failed", pc);
    uint32_t j = 0;
    while (j < ninj && inj_at[j] <= becn_at) j++;
    return j;
}

/* A timer expiry that lowers a waiting source's index shortens the delay it
 * waits on, so its next packet must go at the earlier time, not the one it
 * was queued for. Node 0 streams 64 KB messages to node 1 (its flow never
 * empties, so it keeps the end of its last packet) until a BECN puts its
 * flow (or SL) at CCTI_Limit 2: the linear CCT to 24 us makes its next
 * packet wait IRD[2] = 24 us after the end of the last. The timer (8 x
 * 1.024 us from the BECN) lowers the index to 1 before that, and to 0 only
 * after IRD[1] = 12 us: the packet leaves IRD[1] after the last one's end. */
TEST(cc_timer_expiry_lets_a_waiting_flow_go_sooner)
{
    static const char *const pc[2] = { "cc.port_control=flow", "cc.port_control=sl" };
    for (int k = 0; k < 2; k++) {
        sim_t s;
        cfg_t c;
        uint32_t j = run_solo_becn(&s, &c, (const char *[]){ "cc.mode=iba", pc[k], "cc.ccti_limit=2", "cc.max_delay=24us",
                                   "cc.ccti_timer=8", "traffic.message_size=64KB", "time.warmup=0", "time.measure=40us",
                                   "time.drain=false", NULL }, pc[k]);
        const cc_t *cc = s.cc;
        CHECK(j > 0 && j < ninj, "%s: %u packets, %u of them before the BECN", pc[k], ninj, j);
        if (j > 0 && j < ninj) {
            simtime_t end = inj_at[j - 1] + ser_time(&s, s.mtu), want = end + cc->ird[1];
            CHECK(cc->ird[2] > 23000000 && becn_at + cc->timer < want && want < becn_at + 2 * cc->timer,
                  "%s: IRD[1] %llu ps, IRD[2] %llu ps, timer %llu ps: the case no longer has one expiry in the wait", pc[k],
                  (unsigned long long)cc->ird[1], (unsigned long long)cc->ird[2], (unsigned long long)cc->timer);
            CHECK(inj_at[j] == want, "%s: the packet after the BECN left %llu ps after the last one's end, want IRD[1] = %llu ps "
                  "(IRD[2] = %llu ps)", pc[k], (unsigned long long)(inj_at[j] - end), (unsigned long long)cc->ird[1],
                  (unsigned long long)cc->ird[2]);
        }
        CHECK(cc->becns == 1, "%s: %llu BECNs, the case wants only its own", pc[k], (unsigned long long)cc->becns);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* A flow that empties at rest ends, and a BECN for a packet it sent makes a
 * new one: its next packet still waits IRD after the end of the last packet
 * to that destination. Node 0 sends one-packet messages back to back, so
 * its flow ends after every packet; the first delivery returns a BECN. The
 * timer (1000 x 1.024 us) does not expire within the wait, so the gap is
 * IRD[index] exactly, per flow as per SL. */
TEST(cc_new_flow_keeps_the_ird_from_its_predecessors_last_packet)
{
    static const char *const pc[2] = { "cc.port_control=flow", "cc.port_control=sl" };
    for (int k = 0; k < 2; k++) {
        sim_t s;
        cfg_t c;
        uint32_t j = run_solo_becn(&s, &c, (const char *[]){ "cc.mode=iba", pc[k], "cc.ccti_limit=2", "cc.max_delay=24us",
                                   "cc.ccti_timer=1000", "traffic.message_size=4KB", "load=1.0", "time.warmup=0",
                                   "time.measure=40us", "time.drain=false", NULL }, pc[k]);
        const cc_t *cc = s.cc;
        uint32_t idx = cc->increase < cc->ccti_limit ? cc->increase : cc->ccti_limit;
        CHECK(j > 0 && j < ninj && idx > 0, "%s: %u packets, %u of them before the BECN; index %u", pc[k], ninj, j, idx);
        if (j > 0 && j < ninj) {
            simtime_t end = inj_at[j - 1] + ser_time(&s, s.mtu);
            CHECK(cc->ird[idx] > 11000000 && inj_at[j] == end + cc->ird[idx], "%s: the packet after the BECN left %llu ps after "
                  "the last one's end, want IRD[%u] = %llu ps", pc[k], (unsigned long long)(inj_at[j] - end), idx,
                  (unsigned long long)cc->ird[idx]);
        }
        CHECK(cc->becns == 1, "%s: %llu BECNs, the case wants only its own", pc[k], (unsigned long long)cc->becns);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* flows.csv's rx_bytes_window counts what each flow delivered in the
 * measurement window only, as the nodes' throughput does: with a warm-up
 * and a drain on either side (deliveries in both), the flows to the
 * hot-spot add up to the bytes it received in the window. Its contributors
 * stay backlogged, so their flows live through the window and keep their
 * counts (the victim's flow empties and starts again: not compared). */
TEST(cc_flows_csv_counts_the_window_only)
{
    double v, h, share;
    sim_t s;
    run_contrib((const char *[]){ "cc.mode=iba", "time.warmup=100us", "time.measure=200us", "time.drain_max=50us", NULL }, &v, &h,
                &share, &s);
    char dir[128] = "";
    test_tmpdir(dir, sizeof dir, "ccflows");
    cc_write(&s, dir);
    CHECK(s.end > s.stop, "the run had no drain after the window");
    for (uint32_t f = 0; f < s.tp->nflow_used; f++) {
        const flow_t *fl = flow_at(s.tp, f);
        CHECK(fl->dst != HOT || fl->node == ICN_NIL || fl->born < s.warmup, "node %u's flow to the hot-spot began in the window",
              fl->node);
    }
    uint64_t hot = 0;
    double span = (double)(s.stop - s.warmup) * 1e-12, x;
    unsigned dst, rows = 0;
    unsigned long long rx;
    FILE *f = open_csv(dir, "flows.csv");
    if (f) {
        while (fscanf(f, "%*u,%u,%*u,%*u,%llu,%lf,%*[^\n]\n", &dst, &rx, &x) == 3) {
            CHECK(fabs(x - (double)rx * 8 / (s.link_bps * span)) < 1e-6, "flows.csv row %u: %llu bytes, share %g", rows, rx, x);
            if (dst == HOT) hot += rx;
            rows++;
        }
        fclose(f);
    }
    CHECK(hot > 0 && hot == s.nic[HOT].rx_bytes, "flows.csv's flows delivered %llu bytes to the hot-spot, it received %llu in the "
          "window", (unsigned long long)hot, (unsigned long long)s.nic[HOT].rx_bytes);
    sim_free(&s);
}

/* The ring of ended flows (transport.c) answers for every flow that ended
 * within the largest IRD (8 us here) of now, with the newest end of its
 * destination, however many ended and in whatever order their entries
 * expired. Node 0 ends 7 flows at 1 us steps, then, from 40 us (the first
 * ones expired), 12 more at 1 us steps over the same destinations: at most
 * 9 entries are live at once, so the ring needs 16 slots, no more (expired
 * slots are reused), and no live entry may be overwritten. */
TEST(cc_ended_flows_are_kept_for_the_largest_ird)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "cc.mode=iba", "cc.max_delay=8us", "load=0", NULL });
    transport_t *t = s.tp;
    const simtime_t us = 1000000, keep = t->keep_end;
    CHECK(keep > 7 * us && keep <= 8 * us, "keep_end %llu ps, want cc.max_delay's 8 us (as the CCT encodes it)",
          (unsigned long long)keep);
    enum { ND = 7, N1 = 7, N2 = 12 };
    CHECK(s.nnodes > ND, "%u nodes", s.nnodes);
    simtime_t last[ND + 1] = { 0 };
    for (uint32_t k = 0; k < N1 + N2; k++) {
        uint32_t dst = 1 + (k < N1 ? k : (k + 3) % ND);
        s.now = (k < N1 ? k : 40 + k - N1) * us + us;
        uint32_t f = flow_get(&s, 0, dst);
        flow_at(t, f)->cc.ready = s.now;   /* its last packet ended now */
        flow_maybe_free(&s, f);
        last[dst] = s.now;
    }
    CHECK(t->node[0].ended_cap <= 16, "the ring grew to %u slots for at most 9 live entries: expired slots were not reused",
          t->node[0].ended_cap);
    for (uint32_t dst = 1; dst <= ND; dst++) {
        simtime_t want = last[dst] + keep > s.now ? last[dst] : 0, got = flow_ended_ready(&s, 0, dst);
        CHECK(got == want, "destination %u (its flow last ended at %llu ps, now %llu): got %llu, want %llu", dst,
              (unsigned long long)last[dst], (unsigned long long)s.now, (unsigned long long)got, (unsigned long long)want);
    }
    sim_free(&s);
    cfg_free(&c);
}

/* IBA CC marks a packet only if it lost an arbitration for its output at
 * the head: with several VCs, a head its input port holds back while that
 * port loses an arbitration for another VC's output, but which requested
 * nothing itself (no credits downstream), has lost none. One switch, 2 VCs:
 * input 0 holds A (VC 0, to node 2) and B (VC 1, to node 3, no credits on
 * either VC); input 1 holds C (VC 0, to node 2) and wins node 2's output. */
static int forwarded_waited[3];
static uint32_t forwarded_id[3], nforwarded;
static void catch_forward(sim_t *s, uint32_t go, uint32_t id, int waited)
{
    (void)s; (void)go;
    if (nforwarded < 3) { forwarded_id[nforwarded] = id; forwarded_waited[nforwarded++] = waited; }
}

TEST(cc_only_heads_that_requested_lose_an_arbitration)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, one_switch, (const char *[]){ "switch.vcs=2", "queuing.scheme=dbbm", "load=0", NULL });
    s.hooks.forward = catch_forward;
    nforwarded = 0;
    uint32_t nvc = s.nvc, pk[3];
    const uint32_t src[3] = { 0, 0, 1 }, dst[3] = { 2, 3, 2 }, vc[3] = { 0, 1, 0 };
    uint32_t in0 = s.port[s.nic[0].port].peer, in1 = s.port[s.nic[1].port].peer;
    uint32_t out2 = s.port[s.nic[2].port].peer, out3 = s.port[s.nic[3].port].peer;
    for (uint32_t v = 0; v < nvc; v++) *credit(&s, out3, v) = 0;   /* node 3 takes nothing yet */
    s.port[out2].grant_ptr = (uint8_t)s.port[in1].local;                /* input 1 wins node 2's output */
    for (int k = 0; k < 3; k++) {
        pk[k] = pkt_alloc(&s);
        packet_t *p = &s.pkt[pk[k]];
        memset(p, 0, sizeof *p);
        *p = (packet_t){ .src = src[k], .dst = dst[k], .size = s.mtu, .next = ICN_NIL, .msg = ICN_NIL, .flow = ICN_NIL,
                         .out_vc = (uint8_t)vc[k] };   /* the VC chosen upstream, which it enters */
        switch_arrive(&s, k < 2 ? in0 : in1, pk[k]);
    }
    switch_service(&s, 0);
    CHECK(nforwarded == 1 && forwarded_id[0] == pk[2], "C should leave first (%u forwarded)", nforwarded);
    const vcq_t *qa = &s.vq[in0 * nvc + 0], *qb = &s.vq[in0 * nvc + 1];
    CHECK(qa->npk == 1 && qa->lost && qb->npk == 1 && !qb->lost,
          "A (requested, lost) lost %u; B (requested nothing: no credits) lost %u (queued %u, %u)", qa->lost, qb->lost, qa->npk, qb->npk);
    sim_free(&s);
    cfg_free(&c);
}

/* The flow NIC sends a flow's packet on its VC only when that VC has room
 * downstream: with 2 VCs (DBBM) under a saturating hot-spot, the credits of
 * one VC must not let the other's flows go (the switch input would overflow,
 * an internal error); the run passes its invariant checks. */
TEST(transport_injects_on_a_vc_by_its_own_credits)
{
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "tpvc");
    snprintf(cmd, sizeof cmd, "%s run -q -s output.plots=no -s topology.k=4 -s topology.stages=2 -s nic.queues=flows "
             "-s queuing.scheme=dbbm -s switch.vcs=2 -s traffic.scenario=hs10-1 -s load=1 -s time.warmup=20us "
             "-s time.measure=40us -s check.invariants=true -o %s/r 2>&1", icnsim_bin(), dir);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 0, "status %d: %s", rc, out);
}

/* cc-timeseries.csv's bins end where timeseries.csv's do, the last one cut
 * at the end of the series. */
TEST(cc_timeseries_ends_with_the_time_series)
{
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "ccts");
    snprintf(cmd, sizeof cmd, "%s run -q -s output.plots=no -s topology.k=4 -s topology.stages=2 -s time.warmup=20us "
             "-s time.measure=95us -s time.interval=10us -s cc.mode=iba -o %s/r && tail -n 1 %s/r/timeseries.csv | cut -d, -f2 && "
             "tail -n 1 %s/r/cc-timeseries.csv | cut -d, -f1", icnsim_bin(), dir, dir, dir);
    int rc = run_cmd(cmd, out, sizeof out);
    double a = 0, b = 0;
    CHECK(rc == 0 && sscanf(out, "%lf %lf", &a, &b) == 2 && a == b && a > 110, "last bins end at %s", out);
}

/* summary.csv shows the values a preset gave (and the routing at arrival CC
 * chose), and config.ini, which leaves them to the preset, runs the same. */
TEST(cc_summary_shows_the_preset_values)
{
    char dir[128] = "", cmd[2048], out[4096];
    test_tmpdir(dir, sizeof dir, "ccpre");
    snprintf(cmd, sizeof cmd, "B=%s; D=%s; $B run -q -s output.plots=no -s topology.k=4 -s topology.stages=2 -s time.measure=20us "
             "-s cc.mode=iba -s cc.preset=simula-llnl -o $D/a && $B run $D/a/config.ini -q -o $D/b && "
             "python3 -c \"import csv; r, q = (next(csv.DictReader(open('$D/' + d + '/summary.csv'))) for d in 'ab'); "
             "print([k for k in r if r[k] != q[k] and k != 'run'], r['cc.threshold'], r['cc.marking_rate'], r['cc.port_control'], "
             "r['cc.ccti_timer'], r['cc.cct'], r['routing.when'])\"",
             icnsim_bin(), dir);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 0 && strstr(out, "[] 15 15 sl 150 simula-llnl arrival"), "status %d: %s", rc, out);
}
