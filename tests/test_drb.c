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
    const char *sets[] = { topo, vcs, pattern, scheme, "load=1.0", "topology.k=6", "drb.high=1.05", "drb.low=0.5",
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
                           "drb.low=0.5", "drb.max_paths=8", "time.measure=100us", NULL };
    result_t r;
    CHECK(tsim_run_checked(cube_ini, sets, &r) == 0, "8x8 mesh transpose with DRB deadlocked");
    const char *tor[] = { "topology.k=8", "topology.type=torus", "switch.vcs=6", "traffic.pattern=transpose", "load=1.0",
                          "multipath.scheme=drb", "drb.high=1.05", "drb.low=0.5", "drb.max_paths=8", "time.measure=100us", NULL };
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
    drb_feedback(&s, pr, 0, opened - 1, 40 * l0, ICN_NIL);
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
            has1 |= pr->p[i].in1 == 1 && pr->p[i].in2 == 62;
            has2 |= pr->p[i].in1 == 8 && pr->p[i].in2 == 55;
        }
    CHECK(has1 && has2, "the applied metapath is not the stored one");
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
