/* DRB and PR-DRB: multi-step paths (routes, VC classes, deadlock freedom),
 * the accumulated queueing latency, selection by 1/L_i, opening and closing
 * at the thresholds, the solution database, determinism and bad input. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/multipath/mp.h"
#include "../src/routing/msp.h"
#include "../src/topo/cube.h"
#include "../src/core/util.h"
#include <stdlib.h>
#include <string.h>

static const char *cube_ini =
    "load = 0.5\nseed = 7\n[time]\nwarmup = 20us\nmeasure = 200us\ninterval = 20us\n"
    "[topology]\ntype = mesh\nk = 4\nn = 2\n[routing]\nalgorithm = dor-msp\n"
    "[link]\nbandwidth = 2Gbps\ndelay = 20ns\n[switch]\nvcs = 3\nbuffer = 6KB\n[nic]\nbuffer = 6KB\n"
    "[packet]\nmtu = 1KB\n[traffic]\nmessage_size = 1KB\n";

/* Walk packet id from its source router, as the switches would route it:
 * returns the routers visited (out, n) and 0 if the VC class ever fell. */
static int walk(sim_t *s, uint32_t id, uint32_t *out, uint32_t *n, uint32_t max)
{
    const cube_t *q = cube_get(s);
    packet_t *p = &s->pkt[id];
    uint32_t w = p->src / q->c, in = p->src % q->c, ok = 1;
    int last_cls = -1;
    *n = 0;
    for (uint32_t step = 0; step < max; step++) {
        out[(*n)++] = w;
        cand_t c[MAX_CAND];
        s->routing->route(s, w, in, p, c);
        if (c[0].out < q->c) return ok && w == p->dst / q->c;   /* ejected */
        int cls = q->torus ? c[0].ovc / 2 : c[0].ovc;
        if (cls < last_cls) ok = 0;
        last_cls = cls;
        p->vc = c[0].ovc;
        uint32_t peer = s->port[s->sw[w].port0 + c[0].out].peer;
        w = s->port[peer].dev;
        in = s->port[peer].local;
    }
    return 0;
}

static void check_routes(const char *topo, uint32_t vcs)
{
    const char *sets[] = { topo, vcs == 6 ? "switch.vcs=6" : "switch.vcs=3", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    uint32_t R = s.nswitches, path[256], n, bad = 0, missed = 0, total = 0;
    uint32_t id = pkt_alloc(&s);
    for (uint32_t a = 0; a < R; a++)
        for (uint32_t b = 0; b < R; b++)
            for (uint32_t x = 0; x < R; x += 3)
                for (uint32_t y = 0; y < R; y += 5) {
                    if (a == b) continue;
                    packet_t *p = &s.pkt[id];
                    memset(p, 0, sizeof *p);
                    p->src = a;
                    p->dst = b;
                    s.proute[id] = (proute_t){ { x, y }, 0 };
                    int ok = walk(&s, id, path, &n, 256);
                    /* visits x, then y, and is minimal on every segment */
                    uint32_t i = 0;
                    while (i < n && path[i] != x) i++;
                    while (i < n && path[i] != y) i++;
                    if (i == n) missed++;
                    uint32_t want = msp_distance(&s, a, x) + msp_distance(&s, x, y) + msp_distance(&s, y, b) + 1;
                    if (!ok || n != want) bad++;
                    total++;
                }
    CHECK(total > 1000 && !bad && !missed, "%s: %u of %u routes bad, %u miss IN1/IN2", topo, bad, total, missed);
    /* without a route: straight, minimal */
    s.proute[id] = (proute_t){ { ICN_NIL, ICN_NIL }, 0 };
    s.pkt[id].src = 0;
    s.pkt[id].dst = R - 1;
    CHECK(walk(&s, id, path, &n, 256) && n == msp_distance(&s, 0, R - 1) + 1, "%s: direct route", topo);
    pkt_release(&s, id);
    sim_free(&s);
    cfg_free(&c);
}

TEST(msp_route_visits_in1_then_in2_minimal_segments_ascending_classes)
{
    check_routes("topology.type=mesh", 3);
    check_routes("topology.type=torus", 6);
}

/* The channel dependency graph of every multi-step route on a 4x4 torus:
 * acyclic with the VC classes; with the classes merged (a route keeping one
 * class) it has a cycle, which shows the search can find one. */
typedef struct cdg { uint32_t nch; uint8_t *adj; } cdg_t;

static int dfs_cycle(const cdg_t *g, uint32_t u, uint8_t *st)
{
    st[u] = 1;
    for (uint32_t v = 0; v < g->nch; v++)
        if (g->adj[(size_t)u * g->nch + v]) {
            if (st[v] == 1) return 1;
            if (!st[v] && dfs_cycle(g, v, st)) return 1;
        }
    st[u] = 2;
    return 0;
}

static int torus_cdg_cyclic(int merge_classes)
{
    const char *sets[] = { "topology.type=torus", "switch.vcs=6", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    cdg_t g = { s.nports * s.nvc, NULL };
    g.adj = xcalloc((size_t)g.nch * g.nch, 1);
    uint32_t id = pkt_alloc(&s), R = s.nswitches;
    const cube_t *q = cube_get(&s);
    for (uint32_t a = 0; a < R; a++)
        for (uint32_t b = 0; b < R; b++)
            for (uint32_t x = 0; x < R; x++)
                for (uint32_t y = 0; y < R; y++) {
                    packet_t *p = &s.pkt[id];
                    memset(p, 0, sizeof *p);
                    p->src = a;
                    p->dst = b;
                    s.proute[id] = (proute_t){ { x, y }, 0 };
                    uint32_t w = a, in = 0, prev = ICN_NIL;
                    for (int step = 0; step < 64; step++) {
                        cand_t cd[MAX_CAND];
                        s.routing->route(&s, w, in, p, cd);
                        if (cd[0].out < q->c) break;
                        uint32_t vc = merge_classes ? cd[0].ovc % 2 : cd[0].ovc;
                        uint32_t ch = (s.sw[w].port0 + cd[0].out) * s.nvc + vc;
                        if (prev != ICN_NIL) g.adj[(size_t)prev * g.nch + ch] = 1;
                        prev = ch;
                        p->vc = cd[0].ovc;
                        uint32_t peer = s.port[s.sw[w].port0 + cd[0].out].peer;
                        w = s.port[peer].dev;
                        in = s.port[peer].local;
                    }
                }
    uint8_t *st = xcalloc(g.nch, 1);
    int cyc = 0;
    for (uint32_t u = 0; u < g.nch && !cyc; u++)
        if (!st[u]) cyc = dfs_cycle(&g, u, st);
    free(st);
    free(g.adj);
    pkt_release(&s, id);
    sim_free(&s);
    cfg_free(&c);
    return cyc;
}

TEST(msp_channel_dependencies_acyclic_on_a_torus)
{
    CHECK(!torus_cdg_cyclic(0), "multi-step routes with VC classes have a cyclic channel dependency");
    CHECK(torus_cdg_cyclic(1), "with the classes merged the dependency graph should have a cycle");
}

/* Saturation with DRB opening paths eagerly: no deadlock, invariants hold,
 * multi-step paths are in use. */
static void saturate(const char *topo, const char *vcs, const char *pattern, const char *scheme)
{
    const char *sets[] = { topo, vcs, pattern, scheme, "load=1.0", "topology.k=6", "drb.high=1.05", "drb.low=1.001",
                           "drb.max_paths=16", "drb.radius=3", "time.deadlock=50us", "time.measure=400us", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    int rc = sim_run(&s);
    CHECK(rc == 0, "%s %s %s: status %d", topo, pattern, scheme, rc);
    CHECK(sim_check_invariants(&s, 0) == 0, "%s %s: invariants", topo, pattern);
    CHECK(s.mp->opens > 20 && s.mp->alt_open > 0, "%s %s: %llu openings, %u open", topo, pattern,
          (unsigned long long)s.mp->opens, s.mp->alt_open);
    CHECK(s.st.del_pkts > 800, "%s %s: %llu delivered", topo, pattern, (unsigned long long)s.st.del_pkts);
    sim_free(&s);
    cfg_free(&c);
}

TEST(drb_saturation_is_deadlock_free_on_mesh_and_torus)
{
    const char *pats[] = { "traffic.pattern=tornado", "traffic.pattern=transpose", "traffic.pattern=uniform" };
    for (int i = 0; i < 3; i++) {
        if (i == 1) continue;   /* transpose needs N = 2^(2m): 36 nodes is not */
        saturate("topology.type=mesh", "switch.vcs=3", pats[i], "multipath.scheme=drb");
        saturate("topology.type=torus", "switch.vcs=6", pats[i], "multipath.scheme=pr-drb");
    }
}

TEST(drb_saturation_transpose_8x8)
{
    const char *sets[] = { "topology.k=8", "traffic.pattern=transpose", "load=1.0", "multipath.scheme=drb", "drb.high=1.05",
                           "drb.low=1.001", "drb.max_paths=8", "time.measure=100us", NULL };
    result_t r;
    CHECK(tsim_run_checked(cube_ini, sets, &r) == 0, "8x8 mesh transpose with DRB deadlocked");
    const char *tor[] = { "topology.k=8", "topology.type=torus", "switch.vcs=6", "traffic.pattern=transpose", "load=1.0",
                          "multipath.scheme=drb", "drb.high=1.05", "drb.low=1.001", "drb.max_paths=8", "time.measure=100us", NULL };
    CHECK(tsim_run_checked(cube_ini, tor, &r) == 0, "8x8 torus transpose with DRB deadlocked");
}

/* Every delivered data packet: its accumulated queueing time is its network
 * latency minus the zero-load latency of the switches it crossed. */
static int (*orig_deliver)(sim_t *, uint32_t);
static uint64_t n_checked, n_bad, n_waited;
static simtime_t qsum;

static int check_deliver(sim_t *s, uint32_t id)
{
    const packet_t *p = &s->pkt[id];
    if (p->kind == PK_DATA) {
        simtime_t zl = (simtime_t)p->hops * (s->link_delay + s->routing_delay) + s->link_delay + ser_time(s, p->size);
        simtime_t q = mp_hdr(s, id)->qlat;
        if (s->now - s->ptime[id].inj != zl + q) n_bad++;
        if (q >= ser_time(s, s->mtu)) n_waited++;
        qsum += q;
        n_checked++;
    }
    return orig_deliver(s, id);
}

TEST(drb_accumulated_latency_is_the_sum_of_router_waits)
{
    const char *sets[] = { "multipath.scheme=drb", "load=0.8", "traffic.pattern=bitrev", "switch.routing_delay=30ns",
                           "time.measure=600us", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    orig_deliver = s.hooks.deliver;
    s.hooks.deliver = check_deliver;
    n_checked = n_bad = n_waited = 0;
    qsum = 0;
    CHECK(sim_run(&s) == 0, "run");
    CHECK(n_checked > 500 && n_bad == 0, "%llu of %llu packets: latency != zero-load + accumulated waits",
          (unsigned long long)n_bad, (unsigned long long)n_checked);
    CHECK(n_waited > 100 && qsum > 0, "too little contention to test: %llu waited", (unsigned long long)n_waited);
    sim_free(&s);
    cfg_free(&c);
}

/* A DRB simulation that is set up but not run: for the source's logic. */
static void drb_sim(sim_t *s, cfg_t *c, const char *scheme)
{
    const char *sets[] = { scheme, "topology.k=8", NULL };
    tsim_setup(s, c, cube_ini, sets);
}

TEST(drb_selection_follows_inverse_latency)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=drb");
    pair_t *pr = mp_pair(s.mp, mp_pair_get(&s, 0, 63));
    drb_set_path(&s, pr, 1, 1, 62);
    drb_set_path(&s, pr, 2, 8, 55);
    pr->p[0].lat = 1000; pr->p[1].lat = 2000; pr->p[2].lat = 4000;
    uint32_t cnt[MP_MAXP] = { 0 }, N = 200000;
    rng_t r;
    rng_seed(&r, 11, 1, 0);
    for (uint32_t i = 0; i < N; i++) cnt[drb_pick(&s, pr, &r)]++;
    const double want[3] = { 4.0 / 7, 2.0 / 7, 1.0 / 7 };
    for (int i = 0; i < 3; i++) {
        double sd = sqrt(want[i] * (1 - want[i]) / N);
        CHECK_NEAR((double)cnt[i] / N, want[i], 4 * sd, "share of a path");
    }
    CHECK(cnt[3] == 0, "a closed path was picked");
    sim_free(&s);
    cfg_free(&c);
}

TEST(drb_opens_and_closes_at_the_thresholds)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=drb");   /* high 2, low 1.2, EWMA 0.25 */
    mp_t *m = s.mp;
    uint32_t pi = mp_pair_get(&s, 0, 63);
    pair_t *pr = mp_pair(m, pi);
    simtime_t l0 = pr->p[0].l0;
    s.now = 1000000;
    /* 1.8 L0 after the EWMA: between the thresholds, nothing changes */
    drb_feedback(&s, pr, 0, s.now, (simtime_t)(3.2 * l0), ICN_NIL);
    CHECK(mp_width(pr) == 1, "opened at ratio %.2f", drb_ratio(pr, m->max_paths));
    /* above 2 L0: one path opens, then the ACKs of packets sent before it change nothing */
    s.now += 1000;
    drb_feedback(&s, pr, 0, s.now, 20 * l0, ICN_NIL);
    CHECK(mp_width(pr) == 2 && m->opens == 1, "width %u after a ratio of %.2f", mp_width(pr), drb_ratio(pr, m->max_paths));
    CHECK(pr->p[1].in1 != pr->p[0].in1 || pr->p[1].in2 != pr->p[0].in2, "the new path is path 0");
    simtime_t opened = s.now;
    s.now += 1000;
    pr->p[1].lat = 40.0 * (double)l0;   /* with the new path congested too, the old ACK puts the ratio above drb.high */
    drb_feedback(&s, pr, 0, opened - 1, 200 * l0, ICN_NIL);
    CHECK(drb_ratio(pr, m->max_paths) > m->high, "the ACK from before the change is not above drb.high: it tests nothing");
    CHECK(mp_width(pr) == 2, "an ACK from before the change opened another path");
    for (int i = 0; i < 20 && mp_width(pr) == 2; i++) {   /* the new path congests too */
        s.now += 1000;
        drb_feedback(&s, pr, 1, s.now, 40 * l0, ICN_NIL);
        if (mp_width(pr) == 2) CHECK(drb_ratio(pr, m->max_paths) <= m->high, "above drb.high without opening");
    }
    CHECK(mp_width(pr) == 3 && m->opens == 2, "later ACKs above the threshold did not open a path (ratio %.2f)",
          drb_ratio(pr, m->max_paths));
    /* recovery: path latencies back to zero-load, below 1.2: close, one at a time, never path 0 */
    for (int i = 0; i < 40; i++) {
        s.now += 1000;
        for (uint32_t k = 0; k < 3; k++)
            if (pr->open >> k & 1) drb_feedback(&s, pr, (uint8_t)k, s.now, 0, ICN_NIL);
    }
    CHECK(mp_width(pr) == 1 && (pr->open & 1) && m->closes - (m->opens - 2) == 2, "width %u, closes %llu, opens %llu",
          mp_width(pr), (unsigned long long)m->closes, (unsigned long long)m->opens);
    /* every change happened beyond its threshold (the log holds the ratio that caused it) */
    for (uint32_t i = 0; i < m->nlog; i++)
        CHECK(m->log[i].action == LOG_OPEN ? m->log[i].ratio > m->high : m->log[i].ratio < m->low, "change %u at ratio %.3f", i,
              m->log[i].ratio);
    CHECK(m->nlog == m->opens + m->closes, "log rows %u", m->nlog);
    sim_free(&s);
    cfg_free(&c);
}

static uint32_t make_set(mp_t *m, const uint32_t *src, int n)
{
    uint32_t k = mp_cset_alloc(m);
    m->cs[k].n = 0;
    for (int i = 0; i < n; i++) m->cs[k].f[m->cs[k].n++] = (uint64_t)src[i] << 32 | (src[i] + 1);
    return k;
}

TEST(prdrb_database_returns_the_solution_of_a_recurring_pattern_only)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=pr-drb");
    mp_t *m = s.mp;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 63));
    const uint32_t a[] = { 3, 9, 12, 20 }, a2[] = { 3, 9, 12, 21 }, b[] = { 30, 31, 40, 41 };
    pr->cset = make_set(m, a, 4);
    drb_set_path(&s, pr, 1, 1, 62);
    drb_set_path(&s, pr, 2, 8, 55);
    pr->p[1].lat = 123456;
    pr->p[2].lat = 234567;
    pr->episode = 1;
    prdrb_save(&s, pr, 1.1);
    CHECK(pr->db != ICN_NIL && m->saves == 1, "not saved");
    uint32_t same = make_set(m, a2, 4), other = make_set(m, b, 4);
    CHECK_NEAR(prdrb_similarity(&m->cs[same], &m->cs[pr->cset]), 3.0 / 5, 1e-9, "Jaccard similarity");
    uint32_t k = prdrb_lookup(m, pr, same);
    CHECK(k != ICN_NIL, "a recurring pattern (3 of 4 flows) found no solution");
    CHECK(prdrb_lookup(m, pr, other) == ICN_NIL, "a different pattern found a solution");
    /* applying it restores the metapath */
    drb_close(&s, pr);
    drb_close(&s, pr);
    CHECK(mp_width(pr) == 1, "closing");
    CHECK(prdrb_apply(&s, pr, k) && mp_width(pr) == 3, "apply gave width %u", mp_width(pr));
    int has1 = 0, has2 = 0;
    for (uint32_t i = 1; i < m->max_paths; i++)
        if (pr->open >> i & 1) {
            has1 |= pr->p[i].in1 == 1 && pr->p[i].in2 == 62 && pr->p[i].lat == 123456;
            has2 |= pr->p[i].in1 == 8 && pr->p[i].in2 == 55 && pr->p[i].lat == 234567;
        }
    CHECK(has1 && has2, "the applied metapath (paths and their latency estimates) is not the stored one");
    /* a worse solution for the same pattern does not replace the better one */
    pr->p[1].in1 = 2;
    prdrb_save(&s, pr, 1.5);
    CHECK(m->sol[pr->db].quality < 1.2f && m->sol[pr->db].in[1][0] != 2, "a worse solution replaced the stored one");
    sim_free(&s);
    cfg_free(&c);
}

TEST(drb_runs_are_deterministic)
{
    const char *sets[] = { "multipath.scheme=pr-drb", "load=0.9", "traffic.pattern=bitrev", NULL };
    uint64_t v[2][5];
    for (int i = 0; i < 2; i++) {
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, cube_ini, sets);
        CHECK(sim_run(&s) == 0, "run");
        v[i][0] = s.st.del_pkts; v[i][1] = s.mp->opens; v[i][2] = s.mp->closes; v[i][3] = s.mp->acks; v[i][4] = s.mp->records;
        sim_free(&s);
        cfg_free(&c);
    }
    CHECK(!memcmp(v[0], v[1], sizeof v[0]), "two runs differ: delivered %llu/%llu opens %llu/%llu",
          (unsigned long long)v[0][0], (unsigned long long)v[1][0], (unsigned long long)v[0][1], (unsigned long long)v[1][1]);
    CHECK(v[0][1] > 0 && v[0][4] > 0, "nothing to compare: %llu openings, %llu records", (unsigned long long)v[0][1],
          (unsigned long long)v[0][4]);
}

TEST(drb_bad_input_names_the_key)
{
#define MESH "-s topology.type=mesh -s topology.k=4 "
#define MSP MESH "-s routing.algorithm=dor-msp -s switch.vcs=3 "
#define LFT "-s routing.algorithm=lft -s ib.engine=dfs-disjoint -s switch.vcs=4 "
    static const struct { const char *args, *want; } cases[] = {
        { MSP "-s multipath.scheme=drb -s drb.low=3", "drb.low" },
        { MSP "-s multipath.scheme=drb -s drb.radius=9", "drb.radius" },
        { MSP "-s multipath.scheme=bogus", "multipath.scheme" },
        { MESH "-s routing.algorithm=dor-msp -s switch.vcs=2 -s multipath.scheme=drb", "switch.vcs" },
        { MESH "-s routing.algorithm=dor -s multipath.scheme=drb", "multipath.scheme" },
        { "-s topology.type=rlft -s multipath.scheme=pr-drb", "multipath.scheme" },
        { MSP "-s multipath.scheme=drb -s cc.mode=iba", "cc.mode" },
        { MESH LFT "-s multipath.scheme=drb-ib -s cc.mode=iba", "ib.lmc" },
        { MESH LFT "-s ib.lmc=1 -s multipath.scheme=drb-ib", "cc.mode" },
        { MESH LFT "-s ib.lmc=1 -s multipath.scheme=drb-ib -s cc.mode=iba -s drb.radius=1", "drb.radius" },
        { MSP "-s multipath.scheme=drb -s switch.model=flit", "multipath.scheme" },
        { MSP "-s multipath.scheme=pr-drb -s drb.ack_size=4KB -s packet.mtu=1KB -s switch.buffer=6KB -s nic.buffer=6KB", "drb.ack_size" },
        { MSP "-s multipath.scheme=drb -s drb.low=1", "drb.low" },   /* a ratio never below 1 would close nothing */
        { MSP "-s multipath.scheme=pr-drb -s drb.max_paths=1", "drb.max_paths" },
        { MESH LFT "-s ib.lmc=1 -s multipath.scheme=drb-ib -s cc.mode=iba -s cc.ccti_increase=9", "cc.ccti_increase" },
        { MESH LFT "-s ib.lmc=1 -s multipath.scheme=drb-ib -s cc.mode=iba -s cc.max_delay=1us", "cc.max_delay" },
        /* dor routes every LID of a mesh destination alike: nothing to spread over */
        { MESH "-s routing.algorithm=lft -s ib.engine=dor -s switch.vcs=1 -s ib.lmc=2 -s multipath.scheme=drb-ib -s cc.mode=iba",
          "ib.engine" },
    };
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "drb");
    snprintf(cmd, sizeof cmd, "%s/base.ini", dir);
    FILE *f = fopen(cmd, "w");
    CHECK(f && fputs("[time]\nwarmup = 1us\nmeasure = 10us\n", f) >= 0 && fclose(f) == 0, "writing %s", cmd);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(cmd, sizeof cmd, "./build/icnsim run %s/base.ini -q -o %s/x %s", dir, dir, cases[i].args);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 2 && strstr(out, cases[i].want), "%s: exit %d, want 2 naming %s: %s", cases[i].args, rc, cases[i].want, out);
    }
}

TEST(drb_idle_pair_returns_to_path_0_and_prdrb_keeps_the_solution)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=pr-drb");
    mp_t *m = s.mp;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 63));
    const uint32_t a[] = { 3, 9, 12, 20 };
    pr->cset = make_set(m, a, 4);
    drb_set_path(&s, pr, 1, 1, 62);
    pr->episode = 1;
    pr->last_ack = 1000000;
    s.now = pr->last_ack + 20 * pr->p[0].l0;   /* not yet idle long enough */
    drb_idle(&s, pr);
    CHECK(mp_width(pr) == 2, "reset too early");
    pr->inflight = 1;   /* a message in flight: the pick does not reset */
    s.now += 1000000;
    m->ops.pick(&s, 0, 63);
    CHECK(mp_width(pr) == 2, "reset with a message in flight");
    pr->inflight = 0;
    m->ops.pick(&s, 0, 63);
    CHECK(mp_width(pr) == 1 && !pr->episode && pr->inflight == 1, "not reset: width %u", mp_width(pr));
    CHECK(pr->db != ICN_NIL && m->saves == 1, "PR-DRB did not keep the solution");
    sim_free(&s);
    cfg_free(&c);
}

/* Contending sets in use: the pool's records not on its free list. */
static uint32_t csets_in_use(const mp_t *m)
{
    uint32_t n = m->ncs;
    for (uint32_t c = m->cs_free; c != ICN_NIL; c = m->cs[c].next) n--;
    return n;
}

static void cset_is(const mp_t *m, uint32_t k, const uint32_t *src, uint32_t n, const char *what)
{
    CHECK(k != ICN_NIL && m->cs[k].n == n, "%s: %u flows", what, k == ICN_NIL ? 0 : m->cs[k].n);
    for (uint32_t i = 0; i < n; i++) CHECK(m->cs[k].f[i] == ((uint64_t)src[i] << 32 | (src[i] + 1)), "%s: flow %u", what, i);
}

/* A router that holds no other flow records nothing (the packet may be
 * recorded further on), and an empty set matches nothing. */
TEST(prdrb_no_contending_flows_is_no_pattern)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=pr-drb");
    mp_t *m = s.mp;
    uint32_t id = pkt_alloc(&s);
    s.pkt[id].src = 0;
    s.pkt[id].dst = 63;
    s.pkt[id].kind = PK_DATA;
    uint32_t before = csets_in_use(m);
    CHECK(prdrb_record(&s, 0, id) == ICN_NIL, "an idle router recorded a pattern");
    CHECK(csets_in_use(m) == before, "the empty record was not given back");
    const uint32_t a[] = { 3, 9 };
    uint32_t e1 = make_set(m, a, 0), e2 = make_set(m, a, 0), x = make_set(m, a, 2);
    CHECK(prdrb_similarity(&m->cs[e1], &m->cs[e2]) == 0, "two empty sets match");
    CHECK(prdrb_similarity(&m->cs[e1], &m->cs[x]) == 0 && prdrb_similarity(&m->cs[x], &m->cs[e1]) == 0, "an empty set matches");
    sim_free(&s);
    cfg_free(&c);
}

/* An episode's pattern is the first set it sees; the database is consulted
 * once per episode; the pattern ends with its episode, so the next episode
 * is matched on a set of its own, not on the one just stored. */
TEST(prdrb_episode_pattern_is_its_first_fresh_set)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=pr-drb");
    mp_t *m = s.mp;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 63));
    simtime_t l0 = pr->p[0].l0;
    const uint32_t a[] = { 3, 9, 12, 20 }, b[] = { 30, 31, 40, 41 };
    s.now = 1000000;
    drb_feedback(&s, pr, 0, s.now, 20 * l0, make_set(m, a, 4));   /* the episode starts with A */
    CHECK(pr->episode && mp_width(pr) == 2 && m->misses == 1, "episode %u, width %u, misses %llu", pr->episode, mp_width(pr),
          (unsigned long long)m->misses);
    for (int i = 0; i < 5; i++) {   /* later sets and ACKs above drb.high in the same episode */
        s.now += 1000;
        drb_feedback(&s, pr, (uint8_t)(i & 1), s.now, 40 * l0, make_set(m, b, 4));
    }
    cset_is(m, pr->cset, a, 4, "the episode's pattern");
    CHECK(m->misses == 1, "the database was consulted %llu times in one episode", (unsigned long long)m->misses);
    for (int i = 0; i < 40 && pr->episode; i++) {   /* recovery: the episode ends, its metapath stored under A */
        s.now += 1000;
        for (uint32_t k = 0; k < m->max_paths; k++)
            if (pr->open >> k & 1) drb_feedback(&s, pr, (uint8_t)k, s.now, 0, ICN_NIL);
    }
    CHECK(!pr->episode && m->saves == 1 && pr->cset == ICN_NIL, "episode %u, saves %llu, pattern kept %d", pr->episode,
          (unsigned long long)m->saves, pr->cset != ICN_NIL);
    s.now += 1000;
    drb_feedback(&s, pr, 0, s.now, 200 * l0, ICN_NIL);   /* a new episode, no set yet: nothing to match */
    CHECK(pr->episode && m->hits == 0, "the new episode applied the stored solution on the old pattern");
    s.now += 1000;
    for (uint32_t k = 0; k < m->max_paths; k++)   /* A recurs, every path congested: its solution applies */
        if (pr->open >> k & 1) drb_feedback(&s, pr, (uint8_t)k, s.now, 200 * l0, k ? ICN_NIL : make_set(m, a, 4));
    CHECK(m->hits == 1, "the recurring pattern found no solution");
    sim_free(&s);
    cfg_free(&c);
}

/* Of two stored solutions that both match, the more similar one applies. */
TEST(prdrb_lookup_prefers_the_most_similar_solution)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=pr-drb");
    mp_t *m = s.mp;
    m->match = 0.3;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 63));
    const uint32_t a[] = { 3, 9, 12, 20 }, a2[] = { 3, 40, 41, 50 }, q[] = { 3, 9, 12, 41 };
    pr->cset = make_set(m, a, 4);
    drb_set_path(&s, pr, 1, 1, 62);
    pr->episode = 1;
    prdrb_save(&s, pr, 1.1);
    uint32_t first = pr->db;
    drb_close(&s, pr);
    pr->cset = make_set(m, a2, 4);
    drb_set_path(&s, pr, 1, 8, 55);
    prdrb_save(&s, pr, 1.1);
    CHECK(m->saves == 2 && pr->db != first, "two patterns, %llu solutions", (unsigned long long)m->saves);
    uint32_t qs = make_set(m, q, 4);   /* 3 of 5 flows with A, 2 of 6 with A2: both match */
    CHECK(prdrb_similarity(&m->cs[qs], &m->cs[m->sol[pr->db].cset]) >= m->match, "the other solution does not match");
    uint32_t k = prdrb_lookup(m, pr, qs);
    CHECK(k == first, "the less similar solution was chosen");
    sim_free(&s);
    cfg_free(&c);
}

/* A path closed and reopened in its slot: ACKs of packets sent on it before
 * the reopening are stale, whatever their latency. */
TEST(drb_acks_from_before_a_reopening_are_stale)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=drb");
    mp_t *m = s.mp;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 63));
    s.now = 1000000;
    drb_set_path(&s, pr, 1, 1, 62);
    simtime_t first = s.now;
    s.now += 5000;
    CHECK(drb_close(&s, pr) && mp_width(pr) == 1, "closing");
    s.now += 5000;
    drb_set_path(&s, pr, 1, 1, 62);
    double lat = pr->p[1].lat;
    uint64_t stale = m->stale;
    drb_feedback(&s, pr, 1, first + 1, 100 * pr->p[0].l0, ICN_NIL);
    CHECK(m->stale == stale + 1 && pr->p[1].lat == lat, "an ACK from the path's earlier opening changed its estimate");
    sim_free(&s);
    cfg_free(&c);
}

/* A message's later packets follow its path while it is open, and path 0
 * once it has closed. */
TEST(drb_later_packets_of_a_closed_path_take_path_0)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=drb");
    mp_t *m = s.mp;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 63));
    drb_set_path(&s, pr, 1, 1, 62);
    uint32_t id = pkt_alloc(&s);
    s.pkt[id].src = 0;
    s.pkt[id].dst = 63;
    s.pkt[id].kind = PK_DATA;
    m->ops.stamp(&s, id, 1);
    CHECK(s.pkt[id].path == 1 && s.proute[id].via[0] == 1 && s.proute[id].via[1] == 62, "path 1 while open: path %u",
          s.pkt[id].path);
    CHECK(drb_close(&s, pr) && mp_width(pr) == 1, "closing");
    m->ops.stamp(&s, id, 1);
    CHECK(s.pkt[id].path == 0, "a packet took its message's closed path");
    sim_free(&s);
    cfg_free(&c);
}

/* The multipath time series has a row for every interval of the
 * statistics' own, the last included. */
TEST(drb_time_series_covers_every_interval)
{
    const char *sets[] = { "multipath.scheme=drb", "load=0.8", "traffic.pattern=bitrev", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    CHECK(sim_run(&s) == 0, "run");
    CHECK(s.mp->nsampled == s.st.nbins && s.st.nbins > 1, "%u of %u intervals sampled", s.mp->nsampled, s.st.nbins);
    sim_free(&s);
    cfg_free(&c);
}

/* Messages of several packets: only the last packet's set travels back in
 * the ACK; the others' are given back at the destination, so the sets in
 * use stay within what packets, ACKs, pairs and solutions can hold. */
TEST(prdrb_sets_of_multi_packet_messages_are_given_back)
{
    const char *sets[] = { "multipath.scheme=pr-drb", "load=0.8", "traffic.pattern=bitrev", "traffic.message_size=4KB",
                           "time.measure=600us", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    CHECK(sim_run(&s) == 0, "run");
    const mp_t *m = s.mp;
    uint32_t acks = m->nack, sols = m->nsol;
    for (uint32_t a = m->ack_free; a != ICN_NIL; a = m->ack[a].next) acks--;
    for (uint32_t k = m->sol_free; k != ICN_NIL; k = m->sol[k].next) sols--;
    uint32_t bound = s.pkt_live + acks + m->pairs_live + sols;
    CHECK(m->records > 100, "nothing recorded: %llu", (unsigned long long)m->records);
    CHECK(csets_in_use(m) <= bound, "%u sets in use, at most %u can be referenced", csets_in_use(m), bound);
    sim_free(&s);
    cfg_free(&c);
}

/* DRB over LIDs on a 4x4 torus: 4 LIDs per CA on the disjoint-path engine. */
#define DRBIB "topology.type=torus", "routing.algorithm=lft", "ib.engine=dfs-disjoint", "ib.lmc=2", "switch.vcs=5", \
              "cc.mode=iba", "multipath.scheme=drb-ib"

/* DRB over LIDs keeps a pair only while it holds something: a BECN count,
 * a path beyond path 0, a timer. */
TEST(drbib_pairs_at_rest_are_freed)
{
    const char *sets[] = { DRBIB, "load=0.6", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    CHECK(sim_run(&s) == 0, "run");
    const mp_t *m = s.mp;
    uint32_t rest = 0, live = 0;
    for (uint32_t i = 0; i < m->npair_cap; i++) {
        const pair_t *pr = mp_pair(m, i);
        if (pr->node == ICN_NIL) continue;
        live++;
        rest += pr->open == 1 && !pr->timer_on && pr->p[0].notes <= 0;
    }
    CHECK(live == m->pairs_live && rest == 0, "%u of %u live pairs at rest", rest, live);
    CHECK(m->pairs_peak > 0, "no pair was ever made");
    sim_free(&s);
    cfg_free(&c);
}

/* A path's zero-load latency is its hops' link and routing delays plus a
 * packet.mtu serialization; an ACK moves the estimate by drb.ewma towards
 * L0_i + the queueing the packet met. */
TEST(drb_estimate_is_an_ewma_of_zero_load_plus_queueing)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=drb");   /* 8x8 mesh, EWMA 0.25 */
    mp_t *m = s.mp;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 63));   /* router 0 to router 63: 14 links */
    CHECK(pr->p[0].l0 == drb_zero_load(&s, 15) && pr->p[0].l0 == 15 * (s.link_delay + s.routing_delay) + s.link_delay + ser_time(&s, s.mtu),
          "L0 %llu ps", (unsigned long long)pr->p[0].l0);
    s.now = 1000000;
    double before = pr->p[0].lat;
    drb_feedback(&s, pr, 0, s.now, 4000000, ICN_NIL);
    double want = before + 0.25 * ((double)(pr->p[0].l0 + 4000000) - before);
    CHECK(fabs(pr->p[0].lat - want) < 1e-6, "estimate %.1f, want %.1f", pr->p[0].lat, want);
    sim_free(&s);
    cfg_free(&c);
}

/* The ratio compares the metapath with its own zero-load value (1 when every
 * open path is at zero load, whatever their lengths), and closing removes
 * the path with the highest estimate. */
TEST(drb_ratio_is_against_the_metapath_zero_load_and_close_takes_the_slowest)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=drb");
    mp_t *m = s.mp;
    pair_t *pr = mp_pair(m, mp_pair_get(&s, 0, 9));   /* 2 links; through router 3 6, through 24 6 */
    drb_set_path(&s, pr, 1, 3, 3);
    drb_set_path(&s, pr, 2, 24, 24);
    CHECK(pr->p[1].l0 > pr->p[0].l0 && pr->p[2].l0 > pr->p[0].l0, "the paths are all as long: nothing tested");
    CHECK(fabs(drb_ratio(pr, m->max_paths) - 1.0) < 1e-12, "ratio %.6f at zero load", drb_ratio(pr, m->max_paths));
    pr->p[1].lat = 3.0 * (double)pr->p[1].l0;
    pr->p[2].lat = 2.0 * (double)pr->p[1].l0;
    CHECK(drb_close(&s, pr) && !(pr->open >> 1 & 1) && (pr->open >> 2 & 1), "closing kept the slowest path (open %#x)", pr->open);
    sim_free(&s);
    cfg_free(&c);
}

/* DRB over LIDs: a BECN on a path counts against it and opens the next
 * LID; traffic splits by 1 / (1 + BECNs); each timer expiry halves the
 * counts and, if no BECN came in its period, closes the last path. It never
 * throttles (CC's throttling keys are refused: drb_bad_input_names_the_key). */
TEST(drbib_becns_open_split_and_expiries_close)
{
    const char *sets[] = { DRBIB, NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, cube_ini, sets);
    mp_t *m = s.mp;
    s.tp->cc->becn(&s, 0, 9, 0, 0);
    uint32_t i = mp_pair_get(&s, 0, 9);
    pair_t *pr = mp_pair(m, i);
    CHECK(mp_width(pr) == 2 && pr->p[0].notes == 1 && pr->timer_on, "after a BECN on path 0: width %u, notes %.2f",
          mp_width(pr), pr->p[0].notes);
    uint32_t cnt[MP_MAXP] = { 0 }, N = 100000;
    rng_t r;
    rng_seed(&r, 3, 1, 0);
    for (uint32_t k = 0; k < N; k++) cnt[drb_pick(&s, pr, &r)]++;
    CHECK(fabs((double)cnt[0] / N - 1.0 / 3) < 0.01, "path 0 (1 BECN) took %.3f of the traffic, want 1/3", (double)cnt[0] / N);
    mp_timer(&s, 0, i);   /* a BECN came in the period: nothing closes, the count halves */
    CHECK(mp_width(pr) == 2 && pr->p[0].notes == 0.5 && pr->timer_on, "first expiry: width %u, notes %.2f", mp_width(pr),
          pr->p[0].notes);
    mp_timer(&s, 0, i);   /* none since: the last path closes */
    CHECK(mp_width(pr) == 1 && pr->p[0].notes == 0.25, "second expiry: width %u, notes %.2f", mp_width(pr), pr->p[0].notes);
    sim_free(&s);
    cfg_free(&c);
}

/* Every router within r hops, by brute force over the network, sorted by
 * (distance, id) and cut at cap: what drb_supernode must return. */
static uint32_t supernode_ref(sim_t *s, uint32_t a, uint32_t r, uint32_t *out, uint32_t *dist, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t d = 0; d <= r && n < cap; d++)
        for (uint32_t x = 0; x < s->nswitches && n < cap; x++)
            if (msp_distance(s, a, x) == d) { out[n] = x; dist[n++] = d; }
    return n;
}

TEST(drb_supernodes_are_the_nearest_routers_of_any_cube)
{
    static const struct { const char *topo, *k, *n; uint32_t r, cap; } cases[] = {
        { "topology.type=mesh", "topology.k=4", "topology.n=2", 3, 1024 },
        { "topology.type=torus", "topology.k=5", "topology.n=2", 4, 1024 },
        { "topology.type=torus", "topology.k=4", "topology.n=3", 3, 1024 },
        { "topology.type=mesh", "topology.k=2", "topology.n=8", 8, 1024 },   /* (2r+1)^n offset vectors: 7e9 */
        { "topology.type=torus", "topology.k=3", "topology.n=5", 4, 1024 },
        { "topology.type=torus", "topology.k=16", "topology.n=2", 16, 40 },   /* truncated: the nearest 40 */
        { "topology.type=mesh", "topology.k=8", "topology.n=3", 10, 100 },
    };
    static uint32_t out[1024], dist[1024], ro[1024], rd[1024];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *vcs = strstr(cases[i].topo, "torus") ? "switch.vcs=6" : "switch.vcs=3";
        const char *sets[] = { cases[i].topo, cases[i].k, cases[i].n, vcs, "routing.algorithm=dor-msp", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, cube_ini, sets);
        uint32_t bad = 0;
        for (uint32_t a = 0; a < s.nswitches; a += 7) {
            uint32_t n = drb_supernode(&s, a, cases[i].r, out, dist, cases[i].cap);
            uint32_t m = supernode_ref(&s, a, cases[i].r, ro, rd, cases[i].cap);
            bad += n != m || memcmp(out, ro, n * sizeof *out) || memcmp(dist, rd, n * sizeof *dist);
        }
        CHECK(!bad, "%s %s %s r=%u cap=%u: %u supernodes differ from the routers nearest first", cases[i].topo, cases[i].k,
              cases[i].n, cases[i].r, cases[i].cap, bad);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Pair (src, dst) of a DRB 8x8 mesh, its last ACK at 1 us, its path 0's
 * estimate at x times its zero-load latency. */
static pair_t *quiet_pair(sim_t *s, uint32_t src, uint32_t dst, double x)
{
    pair_t *pr = mp_pair(s->mp, mp_pair_get(s, src, dst));
    pr->p[0].lat = x * (double)pr->p[0].l0;
    pr->last_ack = 1000000;
    return pr;
}

TEST(drb_quiet_pairs_forget_their_estimates_and_are_freed)
{
    sim_t s;
    cfg_t c;
    drb_sim(&s, &c, "multipath.scheme=drb");
    pair_t *pr = quiet_pair(&s, 0, 63, 1.9);   /* between drb.low and drb.high: path 0 alone, kept */
    s.now = pr->last_ack + 21 * pr->p[0].l0;
    s.mp->ops.pick(&s, 0, 63);
    CHECK(pr->p[0].lat == (double)pr->p[0].l0 && pr->inflight == 1, "a quiet pair's path 0 kept its estimate: %.2f x L0",
          pr->p[0].lat / (double)pr->p[0].l0);
    /* a widened pair gone quiet: the next sample resets and frees it */
    pair_t *q = quiet_pair(&s, 1, 62, 1.0);
    drb_set_path(&s, q, 1, 2, 61);
    q->p[1].lat = 3.0 * (double)q->p[1].l0;
    uint32_t live = s.mp->pairs_live;
    mp_on_sample(&s, 1);
    CHECK(s.mp->pairs_live == live - 1 && q->node == ICN_NIL && !s.mp->alt_open,
          "a quiet pair outlived the sample: %u of %u pairs live, %u alternative paths open", s.mp->pairs_live, live,
          s.mp->alt_open);
    CHECK(pr->node == 0, "a pair with a message in flight was freed");
    sim_free(&s);
    cfg_free(&c);
}
