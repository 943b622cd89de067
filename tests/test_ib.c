/* InfiniBand subnet: LIDs and LMC, LFT routing engines, the credit-loop
 * check, fabric files (ibnetdiscover topology, OpenSM LFT dump). */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/ib/subnet.h"
#include "../src/ib/cdg.h"
#include "../src/ib/engine.h"
#include "../src/ib/report.h"
#include "../src/topo/cube.h"
#include "../src/core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <unistd.h>


static const char *ft_ini = "[topology]\ntype = rlft\nk = 2\nstages = 3\n[time]\nwarmup = 5us\nmeasure = 30us\n";
static const char *torus_ini = "[topology]\ntype = torus\nk = 4\nn = 2\n[time]\nwarmup = 5us\nmeasure = 30us\n";
static const char *mesh_ini = "[topology]\ntype = mesh\nk = 4\nn = 2\n[time]\nwarmup = 5us\nmeasure = 30us\n";
/* unequal radices: the dor engine must take each dimension's own ring */
static const char *torus84_ini = "[topology]\ntype = torus\nshape = 8x4\n[time]\nwarmup = 5us\nmeasure = 30us\n";
static const char *mesh84_ini = "[topology]\ntype = mesh\nshape = 8x4\n[time]\nwarmup = 5us\nmeasure = 30us\n";

TEST(ib_lid_lmc_arithmetic)
{
    sim_t s;
    memset(&s, 0, sizeof s);
    for (uint32_t lmc = 0; lmc <= 7; lmc++) {
        ib_subnet_t ib;
        memset(&ib, 0, sizeof ib);
        s.nnodes = 300;
        uint32_t bad = 0;
        int rc = ib_assign_lids(&ib, &s, lmc, NULL, &bad);
        uint32_t span = 1u << lmc;
        if ((301u << lmc) - 1 + span > IB_LID_MAX + 1) {   /* the last node's LIDs would pass 0xBFFF */
            CHECK(rc == -1, "LMC %u: 300 CAs x %u LIDs accepted", lmc, span);
            ib_free(&ib);
            continue;
        }
        CHECK(rc == 0, "LMC %u refused (node %u)", lmc, bad);
        for (uint32_t n = 0; n < s.nnodes; n++) {
            CHECK(ib.base[n] % span == 0 && ib.base[n] > 0, "LMC %u: base %u not aligned", lmc, ib.base[n]);
            for (uint32_t p = 0; p < 2 * span; p++) {
                uint32_t d = ib_dlid(&ib, n, p);
                CHECK(d == ib.base[n] + p % span && ib.owner[d] == n, "LMC %u node %u path %u: DLID %u", lmc, n, p, d);
            }
        }
        CHECK(ib.nlid == (301u << lmc), "LMC %u: table width %u", lmc, ib.nlid);
        ib_free(&ib);
    }
    /* given LIDs: misaligned, overlapping and beyond the unicast range are refused */
    ib_subnet_t ib;
    uint32_t bad;
    s.nnodes = 2;
    uint32_t mis[2] = { 4, 6 }, ovl[2] = { 4, 4 }, big[2] = { 4, 0xC000 }, ok[2] = { 8, 4 };
    memset(&ib, 0, sizeof ib); CHECK(ib_assign_lids(&ib, &s, 2, mis, &bad) == -1 && bad == 1, "misaligned accepted"); ib_free(&ib);
    memset(&ib, 0, sizeof ib); CHECK(ib_assign_lids(&ib, &s, 2, ovl, &bad) == -1, "overlap accepted"); ib_free(&ib);
    memset(&ib, 0, sizeof ib); CHECK(ib_assign_lids(&ib, &s, 0, big, &bad) == -1 && bad == 1, "LID 0xC000 accepted"); ib_free(&ib);
    memset(&ib, 0, sizeof ib); CHECK(ib_assign_lids(&ib, &s, 2, ok, &bad) == 0 && ib.owner[9] == 0 && ib.owner[7] == 1, "given LIDs"); ib_free(&ib);
    uint32_t top[2] = { 4, 0xBFFC }, over[2] = { 4, 0xC000 - 4 + 4 };   /* the last aligned block ends at 0xBFFF */
    memset(&ib, 0, sizeof ib); CHECK(ib_assign_lids(&ib, &s, 2, top, &bad) == 0 && ib.owner[0xBFFF] == 1, "LIDs 0xBFFC-0xBFFF refused"); ib_free(&ib);
    memset(&ib, 0, sizeof ib); CHECK(ib_assign_lids(&ib, &s, 2, over, &bad) == -1 && bad == 1, "LIDs from 0xC000 accepted"); ib_free(&ib);
}

/* Every (switch with CAs, CA LID) route is delivered; for minimal engines
 * (every LID, or LID offset 0 only) its length is the hop distance. */
static void check_routes(sim_t *s, const char *label, int minimal_all, int minimal_first, int loops)
{
    ib_subnet_t *ib = ib_get(s);
    CHECK(ib != NULL, "%s: no subnet", label);
    if (!ib) return;
    uint16_t *dist = ib_switch_dist(s);
    uint32_t bad_reach = 0, bad_min = 0;
    for (uint32_t a = 0; a < s->nnodes; a++)
        for (uint32_t b = 0; b < s->nnodes; b++)
            for (uint32_t i = 0; i < (1u << ib->lmc); i++) {
                uint32_t at, lid = ib_dlid(ib, b, i);
                int h = ib_walk(ib, s, ib->leaf[a], lid, &at);
                if (h < 0) { bad_reach++; continue; }
                if ((minimal_all || (minimal_first && i == 0)) && (uint32_t)h != dist[(size_t)ib->leaf[a] * s->nswitches + ib->leaf[b]] + 1u)
                    bad_min++;
            }
    CHECK(bad_reach == 0, "%s: %u routes not delivered", label, bad_reach);
    CHECK(bad_min == 0, "%s: %u routes not minimal", label, bad_min);
    FILE *null = fopen("/dev/null", "w");
    CHECK(ib_credit_loops(ib, s, null) == loops, "%s: credit loop %s", label, loops ? "not found (minhop closes the rings)" : "in the engine's own tables");
    fclose(null);
    free(dist);
}

TEST(ib_engines_reach_all_pairs_minimal_where_claimed)
{
    static const struct { const char **ini; const char *engine, *vcs; int all, first, loops; } cases[] = {
        { &ft_ini, "minhop", "1", 1, 1, 0 }, { &ft_ini, "updn", "1", 1, 1, 0 }, { &ft_ini, "ftree", "1", 1, 1, 0 },
        { &ft_ini, "dmodk", "1", 1, 1, 0 }, { &ft_ini, "dfs-disjoint", "4", 0, 1, 0 },
        { &torus_ini, "dor", "2", 1, 1, 0 }, { &torus_ini, "updn", "1", 0, 0, 0 }, { &torus_ini, "minhop", "1", 1, 1, 1 }, { &torus_ini, "dfs-disjoint", "4", 0, 1, 0 },
        { &mesh_ini, "dor", "1", 1, 1, 0 }, { &mesh_ini, "minhop", "1", 1, 1, 1 }, { &mesh_ini, "updn", "1", 0, 0, 0 },
        { &mesh_ini, "dfs-disjoint", "4", 0, 1, 0 },
        { &torus84_ini, "dor", "2", 1, 1, 0 }, { &mesh84_ini, "dor", "1", 1, 1, 0 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int lmc = 0; lmc <= 2; lmc++) {
            char e[64], l[32], v[32], label[128];
            snprintf(e, sizeof e, "ib.engine=%s", cases[k].engine);
            snprintf(l, sizeof l, "ib.lmc=%d", lmc);
            snprintf(v, sizeof v, "switch.vcs=%s", cases[k].vcs);
            const char *sets[] = { "routing.algorithm=lft", e, l, v, "load=0", cases[k].loops ? "ib.allow_credit_loops=true" : NULL, NULL };
            sim_t s;
            cfg_t c;
            tsim_setup(&s, &c, *cases[k].ini, sets);
            snprintf(label, sizeof label, "%s on %s, LMC %d", cases[k].engine, s.topo->name, lmc);
            check_routes(&s, label, cases[k].all, cases[k].first, cases[k].loops);
            sim_free(&s);
            cfg_free(&c);
        }
}

/* dfs-disjoint: with LMC 2 on a torus (4 links per switch), no pair has all
 * its paths on one first link, a quarter leave by 4 different links, and
 * path 1 shares no link with path 0 for three pairs in four. Paths of one
 * DLID form a tree and detours are penalized, so full disjointness of all 4
 * paths is not reached for every pair; the figures are printed. */
TEST(ib_dfs_disjoint_paths_are_disjoint)
{
    const char *sets[] = { "routing.algorithm=lft", "ib.engine=dfs-disjoint", "ib.lmc=2", "switch.vcs=4", "load=0", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, torus_ini, sets);
    ib_subnet_t *ib = ib_get(&s);
    uint32_t pairs = 0, first4 = 0, disj01 = 0, all4 = 0, nsame = 0;
    uint8_t *used = xmalloc(s.nports);
    for (uint32_t a = 0; a < s.nnodes; a++)
        for (uint32_t b = 0; b < s.nnodes; b++) {
            if (ib->leaf[a] == ib->leaf[b]) continue;
            memset(used, 0, s.nports);
            uint64_t firsts = 0;
            int ok01 = 1, ok = 1;
            for (uint32_t i = 0; i < 4; i++) {
                uint32_t w = ib->leaf[a], lid = ib_dlid(ib, b, i);
                firsts |= (uint64_t)1 << ib_lft(ib, w, lid);
                while (!(w & NIC_BIT)) {
                    uint32_t g = s.sw[w].port0 + ib_lft(ib, w, lid);
                    if (used[g] && !(s.port[s.port[g].peer].dev & NIC_BIT)) { ok = 0; if (i == 1) ok01 = 0; }   /* the CA's own link is shared */
                    used[g] = 1;
                    w = s.port[s.port[g].peer].dev;
                }
            }
            pairs++;
            first4 += __builtin_popcountll(firsts) == 4;
            nsame += __builtin_popcountll(firsts) == 1;
            disj01 += (uint32_t)ok01;
            all4 += (uint32_t)ok;
        }
    printf("       dfs-disjoint, 4x4 torus, LMC 2, %u pairs: 4 different first links %u, one first link %u, path 1 disjoint from path 0 %u, all 4 disjoint %u\n",
           pairs, first4, nsame, disj01, all4);
    CHECK(nsame == 0, "%u pairs have all paths on one first link", nsame);
    CHECK(first4 * 4 >= pairs, "only %u of %u pairs leave by 4 different links", first4, pairs);
    CHECK(disj01 * 4 >= pairs * 3, "only %u of %u pairs have path 1 disjoint from path 0", disj01, pairs);
    free(used);
    sim_free(&s);
    cfg_free(&c);
}

static int same_result(const result_t *a, const result_t *b)
{
    return a->accepted == b->accepted && a->offered == b->offered && a->lat_mean == b->lat_mean && a->lat_max == b->lat_max &&
           a->net_mean == b->net_mean && a->net_p99 == b->net_p99 && a->avg_hops == b->avg_hops && a->delivered == b->delivered &&
           a->generated == b->generated && a->in_network == b->in_network && a->node_min == b->node_min;
}

/* LFT-driven runs against the direct routings: byte-identical for D-mod-K
 * and mesh DOR (same ports, same VCs); for the torus the same routes with a
 * different dateline rule (VL from the SL's wrap bit instead of "has wrapped
 * yet"), so statistically equal. */
TEST(ib_lft_runs_match_direct_routings)
{
    static const char *loads[] = { "load=0.3", "load=0.9" };
    for (int i = 0; i < 2; i++) {
        result_t a, b;
        const char *d1[] = { "routing.algorithm=dmodk", loads[i], "traffic.scenario=hs10-1", NULL };
        const char *d2[] = { "routing.algorithm=lft", "ib.engine=dmodk", loads[i], "traffic.scenario=hs10-1", NULL };
        tsim_run_checked(ft_ini, d1, &a);
        tsim_run_checked(ft_ini, d2, &b);
        CHECK(same_result(&a, &b), "dmodk direct vs LFT at %s: accepted %.6f / %.6f, latency %.3f / %.3f", loads[i], a.accepted, b.accepted, a.lat_mean, b.lat_mean);
        const char *m1[] = { "routing.algorithm=dor", loads[i], NULL };
        const char *m2[] = { "routing.algorithm=lft", "ib.engine=dor", loads[i], NULL };
        tsim_run_checked(mesh_ini, m1, &a);
        tsim_run_checked(mesh_ini, m2, &b);
        CHECK(same_result(&a, &b), "mesh dor direct vs LFT at %s: accepted %.6f / %.6f", loads[i], a.accepted, b.accepted);
    }
    result_t a, b;
    const char *t1[] = { "routing.algorithm=dor-dateline", "routing.tie=plus", "switch.vcs=2", "load=0.4", "time.measure=300us", NULL };
    const char *t2[] = { "routing.algorithm=lft", "ib.engine=dor", "switch.vcs=2", "load=0.4", "time.measure=300us", NULL };
    tsim_run_checked(torus_ini, t1, &a);
    tsim_run_checked(torus_ini, t2, &b);
    printf("       4x4 torus, load 0.4: dor-dateline accepted %.4f latency %.1f ns hops %.4f; lft dor %.4f %.1f ns %.4f\n",
           a.accepted, a.lat_mean, a.avg_hops, b.accepted, b.lat_mean, b.avg_hops);
    CHECK(fabs(a.accepted - b.accepted) < 0.01, "torus accepted %.4f vs %.4f", a.accepted, b.accepted);
    CHECK(fabs(a.avg_hops - b.avg_hops) < 0.02, "torus hops %.4f vs %.4f (same routes)", a.avg_hops, b.avg_hops);
    CHECK(fabs(a.lat_mean / b.lat_mean - 1) < 0.05, "torus latency %.1f vs %.1f", a.lat_mean, b.lat_mean);
}

/* The credit-loop check finds planted cycles and passes the engines' own
 * tables; breaking an engine's VL rule makes it fire. */
TEST(ib_credit_loop_check)
{
    sim_t s;
    cfg_t c;
    /* planted: minhop on a torus closes the rings */
    const char *mh[] = { "routing.algorithm=lft", "ib.engine=minhop", "ib.allow_credit_loops=true", "load=0", NULL };
    tsim_setup(&s, &c, torus_ini, mh);
    CHECK(ib_credit_loops(ib_get(&s), &s, stderr) == 1, "minhop on a torus: no credit loop found");
    sim_free(&s); cfg_free(&c);
    /* dor on a torus passes; with the SL-to-VL tables flattened (one VL) it must not */
    const char *dor[] = { "routing.algorithm=lft", "ib.engine=dor", "switch.vcs=2", "load=0", NULL };
    tsim_setup(&s, &c, torus_ini, dor);
    ib_subnet_t *ib = ib_get(&s);
    CHECK(ib_credit_loops(ib, &s, stderr) == 0, "dor with datelines: loop reported");
    memset(ib->sl2vl, 0, (size_t)s.nports * IB_NSL);
    CHECK(ib_credit_loops(ib, &s, stderr) == 1, "dor with every VL 0: no loop found");
    sim_free(&s); cfg_free(&c);
    /* dfs-disjoint's layers pass; putting every route on layer 0 must not */
    const char *dfs[] = { "routing.algorithm=lft", "ib.engine=dfs-disjoint", "ib.lmc=2", "switch.vcs=4", "load=0", NULL };
    tsim_setup(&s, &c, torus_ini, dfs);
    ib = ib_get(&s);
    CHECK(ib->sl != NULL, "dfs-disjoint on a torus with LMC 2 needs no VL layers?");
    if (ib->sl) {
        CHECK(ib_credit_loops(ib, &s, stderr) == 0, "dfs-disjoint layers: loop reported");
        memset(ib->sl, 0, (size_t)s.nswitches * ib->nlid);
        CHECK(ib_credit_loops(ib, &s, stderr) == 1, "dfs-disjoint on one layer: no loop found");
    }
    sim_free(&s); cfg_free(&c);
    /* a small hand-made cycle in a CDG */
    const char *ft0[] = { "routing.algorithm=lft", "ib.engine=updn", "load=0", NULL };
    tsim_setup(&s, &c, ft_ini, ft0);
    cdg_t g;
    cdg_init(&g, &s, 1);
    uint32_t cyc[8];
    CHECK(cdg_cycle(&g, &s, cyc, 8) == 0, "empty CDG has a cycle");
    /* leaf 0 up port 2 -> stage-2 switch; its down port back to leaf 0 -> leaf 0's same up port: a 2-cycle */
    uint32_t up = s.sw[0].port0 + 2, peer = s.port[up].peer, w2 = s.port[peer].dev;
    cdg_add(&g, up, 0, s.port[peer].local, 0);
    CHECK(cdg_cycle(&g, &s, cyc, 8) == 0, "one edge makes a cycle");
    cdg_add(&g, s.sw[w2].port0 + s.port[peer].local, 0, 2, 0);
    CHECK(cdg_cycle(&g, &s, cyc, 8) == 2, "planted 2-cycle not found");
    cdg_free(&g);
    sim_free(&s); cfg_free(&c);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* The CLI refuses credit loops (exit 2, cycle printed) unless asked, bad LMCs
 * and LFTs that do not deliver, naming the key or file and line. */
TEST(ib_cli_errors)
{
    char cmd[4096], out[16384];
    char ini[] = "/tmp/icnsim-ib-XXXXXX";
    int fd = mkstemp(ini);
    close(fd);
    write_text(ini, "[topology]\ntype = torus\nk = 4\nn = 2\n[routing]\nalgorithm = lft\n[time]\nmeasure = 5us\n");
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.engine=minhop -o /tmp/icnsim-ib-out", icnsim_bin(), ini);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "credit loop") && strstr(out, "ib.allow_credit_loops"), "credit loop: %s", out);
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.engine=minhop -s ib.allow_credit_loops=true -s load=0.05 -o /tmp/icnsim-ib-out", icnsim_bin(), ini);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "credit loop"), "allowed credit loop: %s", out);
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.engine=dor -s ib.lmc=8 -o /tmp/icnsim-ib-out", icnsim_bin(), ini);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "ib.lmc"), "LMC 8: %s", out);
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.engine=dor -s switch.vcs=2 -s topology.k=16 -s topology.concentration=16 -s ib.lmc=7 -o /tmp/icnsim-ib-out", icnsim_bin(), ini);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "ib.lmc") && strstr(out, "0xBFFF"), "LID space overflow: %s", out);
    /* an LFT dump that misses a destination */
    char lft[] = "/tmp/icnsim-ib-lft-XXXXXX";
    fd = mkstemp(lft);
    close(fd);
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.engine=dor -s switch.vcs=2 -s ib.write_lfts=%s -s load=0 -o /tmp/icnsim-ib-out", icnsim_bin(), ini, lft);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "write lfts: %s", out);
    snprintf(cmd, sizeof cmd, "sed -i '/^0x0005 /d' %s", lft);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "sed");
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.engine=file -s ib.lft_file=%s -s switch.vcs=2 -o /tmp/icnsim-ib-out", icnsim_bin(), ini, lft);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "ib.lft_file") && strstr(out, "0x0005"), "LFT without LID 5: %s", out);
    /* dfs-disjoint's layers are SLs: past 16 it says so, even with more VCs (an SL of 16 would wrap to VL 0) */
    snprintf(cmd, sizeof cmd, "%s run experiments/seed001/torus.ini -q -s ib.lmc=4 -s switch.vcs=64 -s switch.buffer=128KB "
             "-s nic.buffer=128KB -s time.warmup=0 -s time.measure=1us -o /tmp/icnsim-ib-out", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "ib.lmc") && strstr(out, "InfiniBand has 16"), "dfs past 16 SLs: %s", out);
    /* a table that cannot be written is an I/O error naming its path (written atomically, every write checked) */
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.engine=dor -s switch.vcs=2 -s ib.write_lfts=/nonexistent/icnsim/x.lft -s load=0 "
             "-o /tmp/icnsim-ib-out", icnsim_bin(), ini);
    CHECK(run_cmd(cmd, out, sizeof out) == 1 && strstr(out, "/nonexistent/icnsim/x.lft"), "unwritable LFT dump: %s", out);
    unlink(ini);
    unlink(lft);
}

/* icnsim writes a fabric and its LFTs; reading both back gives the same
 * tables, LIDs and a byte-identical run. */
TEST(ib_files_round_trip)
{
    char net[] = "/tmp/icnsim-ib-net-XXXXXX", lft[] = "/tmp/icnsim-ib-lft-XXXXXX";
    close(mkstemp(net));
    close(mkstemp(lft));
    char wn[128], wl[128], rn[128], rl[128];
    snprintf(wn, sizeof wn, "ib.write_net=%s", net);
    snprintf(wl, sizeof wl, "ib.write_lfts=%s", lft);
    snprintf(rn, sizeof rn, "ib.net_file=%s", net);
    snprintf(rl, sizeof rl, "ib.lft_file=%s", lft);
    static const struct { const char **ini; const char *engine, *lmc, *vcs; } cases[] = {
        { &ft_ini, "ftree", "ib.lmc=0", "switch.vcs=1" }, { &ft_ini, "updn", "ib.lmc=2", "switch.vcs=1" },
        { &mesh_ini, "dor", "ib.lmc=1", "switch.vcs=1" },
    };
    for (int k = 0; k < 3; k++) {
        char e[64];
        snprintf(e, sizeof e, "ib.engine=%s", cases[k].engine);
        const char *w[] = { "routing.algorithm=lft", e, cases[k].lmc, cases[k].vcs, wn, wl, "load=0.3", NULL };
        sim_t a, b;
        cfg_t ca, cb;
        tsim_setup(&a, &ca, *cases[k].ini, w);
        const char *r[] = { "topology.type=ibnetdiscover", rn, "routing.algorithm=lft", "ib.engine=file", rl, cases[k].vcs, "load=0.3", NULL };
        tsim_setup(&b, &cb, "[time]\nwarmup = 5us\nmeasure = 30us\n", r);
        ib_subnet_t *x = ib_get(&a), *y = ib_get(&b);
        CHECK(a.nswitches == b.nswitches && a.nnodes == b.nnodes && a.nports == b.nports, "%s: sizes differ", cases[k].engine);
        CHECK(x->lmc == y->lmc && x->nlid == y->nlid && !memcmp(x->base, y->base, a.nnodes * sizeof *x->base), "%s: LIDs differ", cases[k].engine);
        uint32_t diff = 0;
        for (uint32_t sw = 0; sw < a.nswitches; sw++)
            for (uint32_t lid = 1; lid < x->nlid; lid++)
                if (x->owner[lid] != ICN_NIL && ib_lft(x, sw, lid) != ib_lft(y, sw, lid)) diff++;
        CHECK(diff == 0, "%s: %u LFT entries differ after the round trip", cases[k].engine, diff);
        int links = 0;
        for (uint32_t g = 0; g < a.nports; g++) links += a.port[g].peer != b.port[g].peer;
        CHECK(links == 0, "%s: %d ports wired differently", cases[k].engine, links);
        sim_run(&a);
        sim_run(&b);
        result_t ra, rb;
        result_compute(&a, &ra);
        result_compute(&b, &rb);
        CHECK(same_result(&ra, &rb), "%s: runs differ: %.6f / %.6f", cases[k].engine, ra.accepted, rb.accepted);
        sim_free(&a); sim_free(&b); cfg_free(&ca); cfg_free(&cb);
    }
    unlink(net);
    unlink(lft);
}

/* Files written by hand from the documented formats: an ibnetdiscover
 * fabric (two 8-port switches, three CAs, LIDs and LMC 1 from the comments)
 * and tables in dump_lfts' format (switch LIDs and extra lines ignored). */
TEST(ib_files_hand_written)
{
    static const char *fabric =
        "#\n# Topology file: generated by hand\n#\n\n"
        "vendid=0x2c9\ndevid=0xb924\nsysimgguid=0x8f10400411f56\nswitchguid=0x8f10400411f56(8f10400411f56)\n"
        "Switch\t8 \"S-0008f10400411f56\"\t\t# \"leaf A\" base port 0 lid 16 lmc 0\n"
        "[1]\t\"H-0008f10403961354\"[1](8f10403961355) \t\t# \"node1 HCA-1\" lid 2 4xQDR\n"
        "[2]\t\"H-0008f10403961358\"[1](8f10403961359) \t\t# \"node2 HCA-1\" lid 4 4xQDR\n"
        "[7]\t\"S-0008f10400411f99\"[8]\t\t# \"leaf B\" lid 17 4xQDR\n\n"
        "switchguid=0x8f10400411f99(8f10400411f99)\n"
        "Switch\t8 \"S-0008f10400411f99\"\t\t# \"leaf B\" base port 0 lid 17 lmc 0\n"
        "[3]\t\"H-0008f1040396135c\"[1](8f1040396135d) \t\t# \"node3 HCA-1\" lid 6 4xQDR\n"
        "[8]\t\"S-0008f10400411f56\"[7]\t\t# \"leaf A\" lid 16 4xQDR\n\n"
        "caguid=0x8f10403961354\nCa\t2 \"H-0008f10403961354\"\t\t# \"node1 HCA-1\"\n"
        "[1](8f10403961355) \t\"S-0008f10400411f56\"[1]\t\t# lid 2 lmc 1 \"leaf A\" lid 16 4xQDR\n\n"
        "Ca\t2 \"H-0008f10403961358\"\t\t# \"node2 HCA-1\"\n"
        "[1](8f10403961359) \t\"S-0008f10400411f56\"[2]\t\t# lid 4 lmc 1 \"leaf A\" lid 16 4xQDR\n\n"
        "Ca\t1 \"H-0008f1040396135c\"\t\t# \"node3 HCA-1\"\n"
        "[1](8f1040396135d) \t\"S-0008f10400411f99\"[3]\t\t# lid 6 lmc 1 \"leaf B\" lid 17 4xQDR\n";
    static const char *tables =
        "Unicast lids [0x0-0x11] of switch DR path slid 0; dlid 0; 0 guid 0x0008f10400411f56 (leaf A):\n"
        "  Lid  Out   Destination\n       Port     Info \n"
        "0x0002 001 : (Channel Adapter portguid 0x0008f10403961355: 'node1 HCA-1')\n"
        "0x0003 001 : (Channel Adapter portguid 0x0008f10403961355: 'node1 HCA-1')\n"
        "0x0004 002 : (Channel Adapter portguid 0x0008f10403961359: 'node2 HCA-1')\n"
        "0x0005 002 : (Channel Adapter portguid 0x0008f10403961359: 'node2 HCA-1')\n"
        "0x0006 007 : (Channel Adapter portguid 0x0008f1040396135d: 'node3 HCA-1')\n"
        "0x0007 007 : (Channel Adapter portguid 0x0008f1040396135d: 'node3 HCA-1')\n"
        "0x0010 000 : (Switch portguid 0x0008f10400411f56: 'leaf A')\n"
        "0x0011 007 : (Switch portguid 0x0008f10400411f99: 'leaf B')\n"
        "8 valid lids dumped \n"
        "Unicast lids [0x0-0x11] of switch DR path slid 0; dlid 0; 0,7 guid 0x0008f10400411f99 (leaf B):\n"
        "0x0002 008 : (Channel Adapter portguid 0x0008f10403961355: 'node1 HCA-1')\n"
        "0x0003 008 : (Channel Adapter portguid 0x0008f10403961355: 'node1 HCA-1')\n"
        "0x0004 008 : (Channel Adapter portguid 0x0008f10403961359: 'node2 HCA-1')\n"
        "0x0005 008 : (Channel Adapter portguid 0x0008f10403961359: 'node2 HCA-1')\n"
        "0x0006 003 : (Channel Adapter portguid 0x0008f1040396135d: 'node3 HCA-1')\n"
        "0x0007 003 : (Channel Adapter portguid 0x0008f1040396135d: 'node3 HCA-1')\n"
        "6 valid lids dumped \n";
    char net[] = "/tmp/icnsim-ib-net-XXXXXX", lft[] = "/tmp/icnsim-ib-lft-XXXXXX";
    close(mkstemp(net));
    close(mkstemp(lft));
    write_text(net, fabric);
    write_text(lft, tables);
    char rn[128], rl[128];
    snprintf(rn, sizeof rn, "ib.net_file=%s", net);
    snprintf(rl, sizeof rl, "ib.lft_file=%s", lft);
    const char *sets[] = { "topology.type=ibnetdiscover", rn, "routing.algorithm=lft", "ib.engine=file", rl, "load=0.2", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, "[time]\nwarmup = 5us\nmeasure = 30us\n", sets);
    ib_subnet_t *ib = ib_get(&s);
    CHECK(s.nswitches == 2 && s.nnodes == 3 && s.sw[0].nports == 8, "fabric: %u switches, %u CAs", s.nswitches, s.nnodes);
    CHECK(ib->lmc == 1 && ib->base[0] == 2 && ib->base[1] == 4 && ib->base[2] == 6, "LIDs from the file");
    CHECK(ib_lft(ib, 1, 3) == 7 && ib_lft(ib, 0, 7) == 6, "LFT entries (IB port 8 = local 7)");
    CHECK(s.port[s.sw[0].port0 + 6].peer == s.sw[1].port0 + 7, "the switch link is port 7 to port 8");
    check_routes(&s, "hand-written files", 1, 1, 0);
    sim_free(&s);
    cfg_free(&c);
    result_t r;
    CHECK(tsim_run_checked("[time]\nwarmup = 5us\nmeasure = 30us\n", sets, &r) == 0 && r.delivered > 0, "run over the files");
    unlink(net);
    unlink(lft);
}

/* Malformed files: exit status 2 and a message naming file and line. */
TEST(ib_files_malformed)
{
    static const struct { const char *net, *lft, *want; } cases[] = {
        { "Switch\tx \"S-01\"\n", NULL, ":1: expected the port count" },
        { "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n\nCa\t1 \"H-02\"\n[1](3) \t\"S-01\"[1]\t# lid 1 lmc 0\nbogus line\n", NULL, ":6: expected a node line" },
        { "Switch\t4 \"S-01\"\n[9]\t\"H-02\"[1]\n", NULL, ":2: expected [port] with a port number within" },
        { "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n\nCa\t1 \"H-02\"\n[1](3) \t\"S-01\"[1]\t# lid 1 lmc 0\n",
          "Unicast lids [0-1] of switch Lid 2 guid 0x0000000000000001 ('s'):\n0x0001 00x\n", ":2: expected '0x<LID> <port>'" },
        { "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n\nCa\t1 \"H-02\"\n[1](3) \t\"S-01\"[1]\t# lid 1 lmc 0\n",
          "Unicast lids [0-1] of switch Lid 2 guid 0x0000000000000009 ('s'):\n", ":1: no switch of the topology has this GUID" },
        { "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n\nCa\t1 \"H-02\"\n[1](3) \t\"S-01\"[1]\t# lid 1 lmc 0\n",
          "0x0001 001\n", ":1: an entry before any" },
        /* numbers out of range, contradictions and impossible wiring (a valid two-CA fabric, changed) */
#define SW2 "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n[2]\t\"H-03\"[1]\n"
#define CA(g, p, lid) "Ca\t1 \"H-" g "\"\n[1](" g ") \t\"S-01\"[" p "]\t# lid " lid " lmc 0\n"
        { SW2 CA("02", "1", "2") "Ca\t1 \"H-03\"\n[1](3) \t\"S-01\"[2]\t# lid 4 lmc 40\n", NULL, ":7: expected an LMC of 0 to 7" },
        { SW2 CA("02", "1", "2") CA("03", "2", "4294967298"), NULL, ":7: expected a unicast LID" },
        { SW2 CA("02", "1", "2") CA("03", "2", "0"), NULL, ":7: a CA port without a LID" },
        { SW2 CA("02", "2", "2") CA("03", "1", "4"), NULL, ":2: this link to a CA contradicts the CA's own port lines" },
        { SW2 "[3]\t\"H-04\"[1]\n" CA("02", "1", "2") CA("03", "2", "4") "Ca\t1 \"H-04\"\n", NULL, ":4: this link to a CA contradicts" },
        { SW2 "[3]\t\"S-01\"[3]\n" CA("02", "1", "2") CA("03", "2", "4"), NULL, ":4: a cable from a port to itself" },
        { SW2 CA("02", "1", "2") CA("03", "2", "4") "Switch\t4 \"S-01\"\n", NULL, ":8: this switch's GUID is already that of the record on line 1" },
        { SW2 "[3]\t\"H-02\"[1]\n" CA("02", "1", "2") CA("03", "2", "4") "Ca\t1 \"H-02\"\n[1](2) \t\"S-01\"[3]\t# lid 6 lmc 0\n", NULL,
          ":9: this CA's GUID is already that of the record on line 5, with a port of the same number" },
        { "Switch\t4 \"S-00000000000000001\"\n", NULL, ":1: expected the switch id \"S-<GUID>\" (at most 16 hex digits)" },
        { SW2 CA("02", "1", "2") "Ca\t1 \"H-03\"\n[1](3) \t\"S-01\"[2]\t# lid 4 lmc 0\n[1](3) \t\"S-01\"[3]\n", NULL,
          ":8: this port of the node is listed twice" },
        { SW2 CA("02", "1", "2") CA("03", "4294967298", "4"), NULL, ":7: expected the peer's port number in [port], 1 to 64" },
        { SW2 CA("02", "1", "2") CA("03", "2x", "4"), NULL, ":7: expected the peer's port number in [port], 1 to 64" },
        /* the peer's id names its kind: S- a Switch record, H- a Ca record; LIDs are decimal (or 0x hex), whole */
        { SW2 "[3]\t\"S-99\"[1]\n" CA("02", "1", "2") CA("03", "2", "4"), NULL, ":4: no Switch record declares the peer" },
        { SW2 "[3]\t\"H-01\"[3]\n" CA("02", "1", "2") CA("03", "2", "4"), NULL, ":4: no Ca record declares the peer" },
        { SW2 CA("02", "1", "2") "Ca\t1 \"H-03\"\n[1](3) \t\"S-09\"[2]\t# lid 4 lmc 0\n", NULL, ":7: no Switch record declares the peer" },
        { SW2 CA("02", "1", "2") CA("03", "2", "4x"), NULL, ":7: expected a unicast LID" },
        /* given LIDs as a subnet manager assigns them, each error at the CA port's line */
        { SW2 CA("02", "1", "2") CA("03", "2", "2"), NULL, ":7: this CA port's LIDs overlap those of the CA port on line 5" },
        { SW2 "Ca\t1 \"H-02\"\n[1](02) \t\"S-01\"[1]\t# lid 3 lmc 1\n" "Ca\t1 \"H-03\"\n[1](03) \t\"S-01\"[2]\t# lid 4 lmc 1\n",
          NULL, ":5: the LID is not a multiple of 2^LMC" },
#undef SW2
#undef CA
        { "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n\nCa\t1 \"H-02\"\n[1](3) \t\"S-01\"[1]\t# lid 1 lmc 0\n",
          "Unicast lids [0-1] of switch Lid 2 guid 0x0000000000000001 ('s'):\n0x0001 007\n", ":2: a CA LID must leave by a port" },
        { "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n\nCa\t1 \"H-02\"\n[1](3) \t\"S-01\"[1]\t# lid 1 lmc 0\n",
          "Unicast lids [0-1] of switch Lid 2 guid 0x0000000000000001 ('s'):\n0x0001 001\n0x0001 002\n",
          ":3: this LID is listed twice in the switch's table (first on line 2)" },
    };
    char net[] = "/tmp/icnsim-ib-net-XXXXXX", lft[] = "/tmp/icnsim-ib-lft-XXXXXX", ini[] = "/tmp/icnsim-ib-ini-XXXXXX";
    close(mkstemp(net));
    close(mkstemp(lft));
    close(mkstemp(ini));
    write_text(ini, "[topology]\ntype = ibnetdiscover\n[routing]\nalgorithm = lft\n[ib]\nengine = file\n[time]\nmeasure = 5us\n");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        write_text(net, cases[k].net);
        write_text(lft, cases[k].lft ? cases[k].lft : "");
        char cmd[1024], out[8192];
        snprintf(cmd, sizeof cmd, "%s run %s -s ib.net_file=%s -s ib.lft_file=%s -o /tmp/icnsim-ib-out", icnsim_bin(), ini, net, lft);
        int rc = run_cmd(cmd, out, sizeof out);
        const char *file = cases[k].lft ? lft : net;
        CHECK(rc == 2 && strstr(out, file) && strstr(out, cases[k].want), "case %zu: exit %d, want 2 and '%s%s': %s", k, rc, file, cases[k].want, out);
    }
    /* a NUL byte in a table's entry (written past it: fputs stops there) */
    write_text(net, "Switch\t4 \"S-01\"\n[1]\t\"H-02\"[1]\n\nCa\t1 \"H-02\"\n[1](3) \t\"S-01\"[1]\t# lid 1 lmc 0\n");
    static const char nul[] = "Unicast lids [0-1] of switch Lid 2 guid 0x0000000000000001 ('s'):\n0x0001 001\0\n";
    FILE *lf = fopen(lft, "w");
    CHECK(lf && fwrite(nul, 1, sizeof nul - 1, lf) == sizeof nul - 1 && fclose(lf) == 0, "cannot write %s", lft);
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "%s run %s -s ib.net_file=%s -s ib.lft_file=%s -o /tmp/icnsim-ib-out", icnsim_bin(), ini, net, lft);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, lft) && strstr(out, ":2: a NUL byte"), "a NUL byte in an LFT dump: exit %d: %s", rc, out);
    unlink(net); unlink(lft); unlink(ini);
}

/* Same configuration, same tables and results. */
TEST(ib_determinism)
{
    const char *sets[] = { "routing.algorithm=lft", "ib.engine=dfs-disjoint", "ib.lmc=2", "switch.vcs=4", "load=0.5", NULL };
    result_t a, b;
    tsim_run_checked(torus_ini, sets, &a);
    tsim_run_checked(torus_ini, sets, &b);
    CHECK(same_result(&a, &b), "two runs differ: %.6f / %.6f", a.accepted, b.accepted);
    CHECK(a.delivered > 0, "nothing delivered");
}

/* ftree against D-mod-K on a 3-stage RLFT (K = 3): both minimal, and every
 * inter-switch port carries as many LIDs under one as under the other
 * (balanced); how many entries differ is printed. */
TEST(ib_ftree_balanced_as_dmodk)
{
    static const char *ini = "[topology]\ntype = rlft\nk = 3\nstages = 3\n";
    for (int lmc = 0; lmc <= 1; lmc++) {
        char l[16];
        snprintf(l, sizeof l, "ib.lmc=%d", lmc);
        const char *a[] = { "routing.algorithm=lft", "ib.engine=ftree", l, "load=0", NULL };
        const char *b[] = { "routing.algorithm=lft", "ib.engine=dmodk", l, "load=0", NULL };
        sim_t sa, sb;
        cfg_t ca, cb;
        tsim_setup(&sa, &ca, ini, a);
        tsim_setup(&sb, &cb, ini, b);
        ib_subnet_t *x = ib_get(&sa), *y = ib_get(&sb);
        uint32_t *na = xcalloc(sa.nports, sizeof *na), *nb = xcalloc(sa.nports, sizeof *nb), diff = 0, total = 0, unequal = 0;
        for (uint32_t w = 0; w < sa.nswitches; w++)
            for (uint32_t lid = 1; lid < x->nlid; lid++) {
                if (x->owner[lid] == ICN_NIL) continue;
                total++;
                diff += ib_lft(x, w, lid) != ib_lft(y, w, lid);
                na[sa.sw[w].port0 + ib_lft(x, w, lid)]++;
                nb[sa.sw[w].port0 + ib_lft(y, w, lid)]++;
            }
        uint32_t maxa = 0, maxb = 0;
        for (uint32_t g = 0; g < sa.nports; g++) {
            if (sa.port[g].dev & NIC_BIT) continue;
            if (na[g] > maxa) maxa = na[g];
            if (nb[g] > maxb) maxb = nb[g];
            unequal += na[g] != nb[g];
        }
        printf("       RLFT K=3 T=3, LMC %d: ftree and D-mod-K differ in %u of %u LFT entries; LIDs per port max %u / %u, ports with different counts %u\n",
               lmc, diff, total, maxa, maxb, unequal);
        CHECK(maxa == maxb && unequal == 0, "LMC %d: ftree's per-port LID counts differ from D-mod-K's on %u ports", lmc, unequal);
        check_routes(&sa, "ftree", 1, 1, 0);
        free(na); free(nb);
        sim_free(&sa); sim_free(&sb); cfg_free(&ca); cfg_free(&cb);
    }
}

/* Saturated 4x4 torus with 2-packet buffers: minhop's tables (credit loops,
 * allowed) deadlock and the watchdog reports it; dor's SL-to-VL datelines
 * never do. */
TEST(ib_credit_loops_deadlock_and_datelines_do_not)
{
    static const char *ini = "[link]\nbandwidth = 16b/5.25ns\ndelay = 0\n[switch]\nrouting_delay = 21ns\narbiter = rr\n"
                             "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 40B\n[topology]\ntype = torus\nk = 4\nn = 2\n"
                             "[routing]\nalgorithm = lft\n";
    const char *loops[] = { "ib.engine=minhop", "ib.allow_credit_loops=true", "switch.buffer=80B", "nic.buffer=80B", "load=1.0",
                            "time.warmup=0", "time.measure=3ms", "time.deadlock=20us", NULL };
    expect_deadlock(ini, loops, 1, 0, "lft minhop on a torus");
    const char *dl[] = { "ib.engine=dor", "switch.vcs=2", "switch.buffer=160B", "nic.buffer=160B", "load=1.0",
                         "time.warmup=0", "time.measure=3ms", "time.deadlock=20us", NULL };
    expect_deadlock(ini, dl, 0, 0.2, "lft dor with SL-to-VL datelines");
}

/* `icnsim --list` names the LFT routing, the ibnetdiscover topology and every engine. */
TEST(ib_list_names_engines)
{
    static char out[1 << 18];   /* the whole of `keys` */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --list", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "--list failed");
    static const char *names[] = { "lft", "ibnetdiscover", "minhop", "updn", "ftree", "dor", "dfs-disjoint", "dmodk", "file", NULL };
    for (int i = 0; names[i]; i++) CHECK(strstr(out, names[i]) != NULL, "--list lacks %s", names[i]);
    snprintf(cmd, sizeof cmd, "%s keys", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "keys failed");
    static const char *keys[] = { "ib.engine", "ib.lmc", "ib.root", "ib.lft_file", "ib.allow_credit_loops", "ib.net_file",
                                  "ib.write_net", "ib.write_lfts", "ib.report", NULL };
    for (int i = 0; keys[i]; i++) CHECK(strstr(out, keys[i]) != NULL, "keys lacks %s", keys[i]);
}

/* A dual-port HCA, both ports cabled, as ibnetdiscover writes it (one Ca
 * record with two port lines) and split in a record per port (as icnsim
 * wrote it before): read, written back (one record per CA) and read again
 * with the written tables: the same results. */
TEST(ib_files_dual_port_ca_round_trip)
{
    static const char *fabrics[] = {
        "Switch\t4 \"S-01\"\n[1]\t\"H-0a\"[1](b)\n[2]\t\"H-0a\"[2](c)\n[3]\t\"H-0d\"[1](e)\n\n"
        "Ca\t2 \"H-0a\"\n[1](b) \t\"S-01\"[1]\t# lid 2 lmc 0\n[2](c) \t\"S-01\"[2]\t# lid 4 lmc 0\n\n"
        "Ca\t1 \"H-0d\"\n[1](e) \t\"S-01\"[3]\t# lid 6 lmc 0\n",
        "Switch\t4 \"S-01\"\n[1]\t\"H-0a\"[1](b)\n[2]\t\"H-0a\"[2](c)\n[3]\t\"H-0d\"[1](e)\n\n"
        "Ca\t1 \"H-0a\"\n[1](b) \t\"S-01\"[1]\t# lid 2 lmc 0\n\nCa\t2 \"H-0a\"\n[2](c) \t\"S-01\"[2]\t# lid 4 lmc 0\n\n"
        "Ca\t1 \"H-0d\"\n[1](e) \t\"S-01\"[3]\t# lid 6 lmc 0\n",
    };
    for (int v = 0; v < 2; v++) {
        char dir[128] = "", net[192], ini[192], cmd[2048], out[4096];
        test_tmpdir(dir, sizeof dir, v ? "ib2q" : "ib2p");
        snprintf(net, sizeof net, "%s/in.net", dir);
        snprintf(ini, sizeof ini, "%s/x.ini", dir);
        write_text(net, fabrics[v]);
        write_text(ini, "load = 0.3\n[time]\nwarmup = 1us\nmeasure = 5us\n[topology]\ntype = ibnetdiscover\n"
                        "[routing]\nalgorithm = lft\n");
        snprintf(cmd, sizeof cmd, "%s run %s -q -o %s/a -s ib.net_file=%s -s ib.write_net=%s/w.net -s ib.write_lfts=%s/w.lft && "
                 "%s run %s -q -o %s/b -s ib.net_file=%s/w.net -s ib.engine=file -s ib.lft_file=%s/w.lft",
                 icnsim_bin(), ini, dir, net, dir, dir, icnsim_bin(), ini, dir, dir, dir);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 0, "round trip of a dual-port CA: status %d: %s", rc, out);
        /* the results (summary.csv from its status column on) are the same */
        char row[2][8192] = { "", "" };
        for (int k = 0; k < 2; k++) {
            char path[256], head[8192];
            snprintf(path, sizeof path, "%s/%c/summary.csv", dir, "ab"[k]);
            FILE *f = fopen(path, "r");
            CHECK(f && fgets(head, sizeof head, f) && fgets(row[k], sizeof row[k], f), "cannot read %s", path);
            if (f) fclose(f);
            int col = 0;
            for (const char *h = head; h && strncmp(h, "status,", 7); h = strchr(h, ',') ? strchr(h, ',') + 1 : NULL) col++;
            char *r = row[k];
            for (int i = 0; i < col && r; i++) r = strchr(r, ',') ? strchr(r, ',') + 1 : NULL;
            memmove(row[k], r ? r : "", strlen(r ? r : "") + 1);
        }
        CHECK(row[0][0] && !strcmp(row[0], row[1]), "fabric %d: results differ after the round trip:\n%s%s", v, row[0], row[1]);
        snprintf(cmd, sizeof cmd, "grep -c '^Ca' %s/w.net", dir);
        run_cmd(cmd, out, sizeof out);
        CHECK(atoi(out) == 2, "fabric %d: %s Ca records written for 2 CAs", v, out);
    }
}

/* dmodk with LMC 2 on a 3-stage fat-tree of arity 2: the 4 LID offsets of a
 * destination in another pod take 4 different routes (K^(T-1) = 4 top
 * switches), not the 2 that turning every stage by i mod K gives. */
TEST(ib_dmodk_lid_offsets_take_distinct_routes)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ft_ini, (const char *[]){ "routing.algorithm=lft", "ib.engine=dmodk", "ib.lmc=2", NULL });
    const ib_subnet_t *ib = ib_get(&s);
    uint32_t pairs = 0, short_of = 0;
    for (uint32_t a = 0; a < s.nnodes; a++)
        for (uint32_t b = 0; b < s.nnodes; b++) {
            if (a / 4 == b / 4) continue;   /* another pod (K^(T-1) = 4 nodes each): routes reach the top */
            uint64_t sig[4];
            uint32_t distinct = 0;
            for (uint32_t i = 0; i < 4; i++) {
                uint32_t lid = ib_dlid(ib, b, i), w = ib->leaf[a];
                uint64_t h = 1469598103934665603ull;
                for (int hop = 0; hop < 8 && !(w & NIC_BIT) && w != ICN_NIL; hop++) {
                    h = (h ^ w) * 1099511628211ull;
                    w = ib_peer_dev(&s, w, ib_lft(ib, w, lid));
                }
                CHECK(w == (NIC_BIT | b), "offset %u from %u does not reach %u", i, a, b);
                uint32_t k = 0;
                while (k < distinct && sig[k] != h) k++;
                if (k == distinct) sig[distinct++] = h;
            }
            pairs++;
            short_of += distinct < 4;
        }
    CHECK(pairs > 0 && short_of == 0, "%u of %u pairs in different pods have fewer than 4 distinct routes", short_of, pairs);
    sim_free(&s);
    cfg_free(&c);
}

/* Up*-down* from two roots of a torus that lead to each other only through
 * switches ranked below them cannot route every pair: refused, naming
 * ib.root (before, a later reachability check blamed ib.engine). */
TEST(ib_updn_roots_that_cut_the_fabric_are_refused)
{
    char dir[128] = "", ini[192], cmd[768], out[2048];
    test_tmpdir(dir, sizeof dir, "updn");
    snprintf(ini, sizeof ini, "%s/torus.ini", dir);
    FILE *f = fopen(ini, "w");
    CHECK(f && fputs(torus_ini, f) >= 0 && fclose(f) == 0, "writing %s", ini);
    snprintf(cmd, sizeof cmd, "./build/icnsim run %s -s routing.algorithm=lft -s ib.engine=updn -s ib.root='0 10' -q -o %s/cut", ini, dir);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "ib.root") && strstr(out, "cannot route"), "exit %d: %s", rc, out);
    snprintf(cmd, sizeof cmd, "./build/icnsim run %s -s routing.algorithm=lft -s ib.engine=updn -s ib.root=5 -q -o %s/one", ini, dir);
    rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 0, "one root refused: exit %d: %s", rc, out);
}

/* Up*-down* labels each switch once per destination: a switch whose
 * shortest route climbs (x: x-y-t) but which also has a longer all-down one
 * (x-m1-m2-t) must take the latter when a switch above it (root Z, whose
 * only link leads down to x) has no other way; the fabric routes, not
 * refused. Switches R1 y x m1 m2 t Z (0-6), roots 0 and 6, CAs on Z and t. */
TEST(ib_updn_labels_leave_no_routable_pair_cut)
{
    static const char net[] =
        "Switch\t4 \"S-10\"\n[1]\t\"S-11\"[1]\n\n"
        "Switch\t4 \"S-11\"\n[1]\t\"S-10\"[1]\n[2]\t\"S-15\"[1]\n[3]\t\"S-14\"[1]\n[4]\t\"S-12\"[1]\n\n"
        "Switch\t4 \"S-12\"\n[1]\t\"S-11\"[4]\n[2]\t\"S-16\"[1]\n[3]\t\"S-13\"[1]\n\n"
        "Switch\t4 \"S-13\"\n[1]\t\"S-12\"[3]\n[2]\t\"S-14\"[2]\n\n"
        "Switch\t4 \"S-14\"\n[1]\t\"S-11\"[3]\n[2]\t\"S-13\"[2]\n[3]\t\"S-15\"[2]\n\n"
        "Switch\t4 \"S-15\"\n[1]\t\"S-11\"[2]\n[2]\t\"S-14\"[3]\n[3]\t\"H-21\"[1]\n\n"
        "Switch\t4 \"S-16\"\n[1]\t\"S-12\"[2]\n[2]\t\"H-20\"[1]\n\n"
        "Ca\t1 \"H-20\"\n[1](20) \t\"S-16\"[2]\t# lid 1 lmc 0\n\n"
        "Ca\t1 \"H-21\"\n[1](21) \t\"S-15\"[3]\t# lid 2 lmc 0\n";
    char dir[128] = "", path[192], ini[256];
    test_tmpdir(dir, sizeof dir, "updnlabel");
    snprintf(path, sizeof path, "%s/seven.net", dir);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(net, f) >= 0 && fclose(f) == 0, "writing %s", path);
    snprintf(ini, sizeof ini, "[topology]\ntype = ibnetdiscover\n[ib]\nnet_file = %s\nengine = updn\nroot = 0 6\n"
             "[routing]\nalgorithm = lft\n", path);
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ "load=0", NULL });
    const ib_subnet_t *ib = ib_get(&s);
    CHECK(ib != NULL, "no subnet");
    if (ib) {
        /* from Z (switch 6) to t's CA (LID 2): Z-x-m1-m2-t, every step down */
        static const uint32_t path_sw[] = { 6, 2, 3, 4, 5 };
        uint32_t w = 6, hops = 0;
        for (; hops < 8; hops++) {
            CHECK(w == path_sw[hops], "hop %u at switch %u, want %u", hops, w, path_sw[hops]);
            uint32_t v = ib_peer_dev(&s, w, ib_lft(ib, w, 2));
            if (v & NIC_BIT) break;
            w = v;
        }
        CHECK(hops == 4, "Z reaches t's CA in %u hops, want 4", hops);
    }
    sim_free(&s);
    cfg_free(&c);
}

/* Topology text of a torus of the given shape ("3x5"). */
static const char *torus_shape_ini(char *buf, size_t n, const char *shape)
{
    snprintf(buf, n, "[topology]\ntype = torus\nshape = %s\n", shape);
    return buf;
}

/* The tables `engine` fills on the topology of ini (no traffic); extra is
 * one more "key=value" or NULL. */
static ib_subnet_t *lft_tables(sim_t *s, cfg_t *c, const char *ini, const char *engine, int lmc, int vcs, const char *extra)
{
    char e[64], l[32], v[32];
    snprintf(e, sizeof e, "ib.engine=%s", engine);
    snprintf(l, sizeof l, "ib.lmc=%d", lmc);
    snprintf(v, sizeof v, "switch.vcs=%d", vcs);
    const char *sets[] = { "routing.algorithm=lft", e, l, v, "load=0", "ib.allow_credit_loops=true", extra, NULL };
    tsim_setup(s, c, ini, sets);
    return ib_get(s);
}

/* The credit-loop check; its report goes to *text (caller frees) or is dropped. */
static int credit_check(const ib_subnet_t *ib, const sim_t *s, char **text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int r = ib_credit_loops(ib, s, f);
    fclose(f);
    if (text) *text = buf;
    else free(buf);
    return r;
}

/* Two hand-made dependencies over 2 VLs: a fat-tree leaf's up channel on
 * up_vl -> the down channel back to it on down_vl, and that down channel on
 * from_vl -> the up channel on up_vl (a cycle iff from_vl = down_vl).
 * Returns the length of the cycle cdg_cycle finds, after checking that its
 * channels are all on VL want_vl (if >= 0). */
static uint32_t two_channel_cycle(const sim_t *s, uint32_t up_vl, uint32_t down_vl, uint32_t from_vl, int want_vl)
{
    cdg_t g;
    cdg_init(&g, s, 2);
    uint32_t up = s->sw[0].port0 + 2, peer = s->port[up].peer, w2 = s->port[peer].dev, cyc[8];
    cdg_add(&g, up, up_vl, s->port[peer].local, down_vl);
    cdg_add(&g, s->sw[w2].port0 + s->port[peer].local, from_vl, 2, up_vl);
    uint32_t len = cdg_cycle(&g, s, cyc, 8);
    for (uint32_t i = 0; i < len && want_vl >= 0; i++) CHECK(cyc[i] % 2 == (uint32_t)want_vl, "channel %u of the cycle on VL %u", i, cyc[i] % 2);
    cdg_free(&g);
    return len;
}

/* The credit-loop check follows every VL, not VL 0 alone. dor's torus
 * tables pass; with every SL of the dimension-0 ports mapped to VL 1 each
 * dimension-0 ring is a cycle on VL 1 only (VL 0 then holds dimension 1 with
 * its dateline): found and printed as a ring of dimension-0 channels on VL
 * 1. The tables restored pass again. In a hand-made graph, a cycle on VL 1
 * alone and one through both VLs are found; the same edges leaving from
 * another VL close nothing. */
TEST(ib_credit_loop_check_sees_vl1)
{
    sim_t s;
    cfg_t c;
    ib_subnet_t *ib = lft_tables(&s, &c, torus_ini, "dor", 1, 2, NULL);
    const cube_t *q = cube_get(&s);
    CHECK(credit_check(ib, &s, NULL) == 0, "dor's datelines: credit loop reported");
    size_t sz = (size_t)s.nports * IB_NSL;
    uint8_t *saved = xmalloc(sz);
    memcpy(saved, ib->sl2vl, sz);
    for (uint32_t g = 0; g < s.nports; g++)
        if (!(s.port[g].dev & NIC_BIT) && s.port[g].local >= q->c && s.port[g].local < q->c + 2)
            memset(&ib->sl2vl[(size_t)g * IB_NSL], 1, IB_NSL);
    char *text = NULL;
    CHECK(credit_check(ib, &s, &text) == 1, "dimension 0 on VL 1 alone: no credit loop found");
    /* the printed cycle: " w:p/v ->" per channel (IB ports 1-based), the first repeated at the end */
    uint32_t n = 0, bad = 0, w[72], p[72], v[72];
    for (const char *t = text; t && n < 72 && (t = strchr(t, ' ')); t++)
        if (isdigit((unsigned char)t[1]) && sscanf(t + 1, "%u:%u/%u", &w[n], &p[n], &v[n]) == 3) n++;
    for (uint32_t i = 0; i + 1 < n; i++)
        bad += v[i] != 1 || p[i] - 1 < q->c || p[i] - 1 >= q->c + 2 || ib_peer_dev(&s, w[i], p[i] - 1) != w[i + 1];
    CHECK(n >= 3 && bad == 0 && w[0] == w[n - 1] && p[0] == p[n - 1], "not a ring of dimension-0 channels on VL 1 (%u of %u off): %s", bad, n, text);
    free(text);
    memcpy(ib->sl2vl, saved, sz);
    CHECK(credit_check(ib, &s, NULL) == 0, "restored tables: credit loop reported");
    free(saved);
    sim_free(&s);
    cfg_free(&c);

    tsim_setup(&s, &c, ft_ini, (const char *[]){ "routing.algorithm=lft", "ib.engine=updn", "load=0", NULL });
    CHECK(two_channel_cycle(&s, 1, 1, 1, 1) == 2, "a 2-cycle on VL 1 not found");
    CHECK(two_channel_cycle(&s, 0, 1, 1, -1) == 2, "a 2-cycle from VL 0 to VL 1 and back not found");
    CHECK(two_channel_cycle(&s, 0, 1, 0, -1) == 0, "edges from different VLs of the down channel make a cycle");
    sim_free(&s);
    cfg_free(&c);
}

/* dor on tori of even radix, where k/2 hops either way are both minimal:
 * the tie goes + for even LID offsets and - for odd ones (each dimension's
 * own radix; a ring of 2 has no wrap link and no tie), every other hop the
 * shorter way; a path's SL has bit d set iff it crosses dimension d's wrap
 * link and each hop's VL is the bit of its dimension; those datelines leave
 * no credit loop with both directions of the tie in use. */
TEST(ib_dor_torus_tie_at_half_ring)
{
    static const char *shapes[] = { "4x4", "6x4", "4x6x2" };
    for (int k = 0; k < 3; k++)
        for (int lmc = 0; lmc <= 2; lmc++) {
            char ini[128];
            sim_t s;
            cfg_t c;
            ib_subnet_t *ib = lft_tables(&s, &c, torus_shape_ini(ini, sizeof ini, shapes[k]), "dor", lmc, 2, NULL);
            const cube_t *q = cube_get(&s);
            uint32_t ties[2] = { 0, 0 }, bad_port = 0, bad_sl = 0, bad_vl = 0;
            for (uint32_t a = 0; a < s.nswitches; a++)
                for (uint32_t b = 0; b < s.nnodes; b++)
                    for (uint32_t i = 0; i < (1u << lmc); i++) {
                        uint32_t lid = ib_dlid(ib, b, i), sl = ib_sl(ib, a, lid, 0), wraps = 0, w = a, r = ib->leaf[b];
                        while (w != r) {
                            uint32_t d = 0;
                            while (cube_coord(q, w, d) == cube_coord(q, r, d)) d++;
                            uint32_t x = cube_coord(q, w, d), y = cube_coord(q, r, d), kd = q->k[d], fwd = (y + kd - x) % kd;
                            int tie = cube_wraps(q, d) && 2 * fwd == kd, minus = !cube_wraps(q, d) ? y < x : tie ? (int)(i & 1) : 2 * fwd > kd;
                            if (tie) ties[minus]++;
                            uint32_t p = ib_lft(ib, w, lid);
                            if (p != cube_port(q, d, minus)) { bad_port++; break; }
                            if (cube_wraps(q, d) && x == (minus ? 0 : kd - 1)) wraps |= 1u << d;
                            bad_vl += ib_vl(ib, s.sw[w].port0 + p, sl) != ((sl >> d) & 1);
                            w = ib_peer_dev(&s, w, p);
                        }
                        bad_sl += sl != wraps;
                    }
            CHECK(bad_port == 0, "%s LMC %d: %u routes leave dimension order, the minimal direction or the tie rule", shapes[k], lmc, bad_port);
            CHECK(bad_sl == 0 && bad_vl == 0, "%s LMC %d: %u SLs are not the path's wrap bits, %u hops not on their dimension's bit", shapes[k], lmc, bad_sl, bad_vl);
            CHECK(ties[0] > 0 && (ties[1] > 0) == (lmc > 0), "%s LMC %d: tie hops + %u, - %u", shapes[k], lmc, ties[0], ties[1]);
            CHECK(credit_check(ib, &s, NULL) == 0, "%s LMC %d: credit loop", shapes[k], lmc);
            sim_free(&s);
            cfg_free(&c);
        }
}

/* minhop with LMC > 0: at every switch the 2^LMC LIDs of a CA leave by
 * minimal ports, as many different ones as there are LIDs or minimal ports
 * (fat-tree up ports, a torus's two directions towards a diagonal). */
TEST(ib_minhop_lmc_spreads_lids_over_minimal_ports)
{
    char ini[128];
    const char *inis[] = { ft_ini, torus_ini, torus_shape_ini(ini, sizeof ini, "3x5") };
    for (int k = 0; k < 3; k++)
        for (int lmc = 1; lmc <= 2; lmc++) {
            sim_t s;
            cfg_t c;
            ib_subnet_t *ib = lft_tables(&s, &c, inis[k], "minhop", lmc, 1, NULL);
            uint32_t S = s.nswitches, several = 0, bad = 0;
            uint16_t *dist = ib_switch_dist(&s);
            for (uint32_t n = 0; n < s.nnodes; n++)
                for (uint32_t w = 0; w < S; w++) {
                    uint32_t t = ib->leaf[n];
                    if (w == t) continue;
                    uint64_t minimal = 0, used = 0;
                    for (uint32_t p = 0; p < s.sw[w].nports; p++) {
                        uint32_t v = ib_peer_dev(&s, w, p);
                        if (v != ICN_NIL && !(v & NIC_BIT) && dist[(size_t)v * S + t] + 1u == dist[(size_t)w * S + t]) minimal |= (uint64_t)1 << p;
                    }
                    for (uint32_t i = 0; i < (1u << lmc); i++) used |= (uint64_t)1 << ib_lft(ib, w, ib->base[n] + i);
                    uint32_t nmin = (uint32_t)__builtin_popcountll(minimal), want = nmin < (1u << lmc) ? nmin : 1u << lmc;
                    several += nmin > 1;
                    bad += (used & ~minimal) || (uint32_t)__builtin_popcountll(used) != want;
                }
            CHECK(several > 0 && bad == 0, "%s LMC %d: %u of %u (switch, CA) with several minimal ports do not spread the CA's LIDs over them",
                  s.topo->name, lmc, bad, several);
            free(dist);
            sim_free(&s);
            cfg_free(&c);
        }
}

/* Ranks of up*-down* as updn.c defines them: hop distance from the root;
 * a -> b leads up iff b has the lower (rank, index). */
static int leads_up(const uint16_t *dist, uint32_t S, uint32_t root, uint32_t a, uint32_t b)
{
    uint32_t ra = dist[(size_t)root * S + a], rb = dist[(size_t)root * S + b];
    return rb < ra || (rb == ra && b < a);
}

/* The shortest up*-down* route length (switches crossed) from a to t:
 * breadth-first over (switch, gone down yet). */
static uint32_t legal_hops(const sim_t *s, const uint16_t *dist, uint32_t root, uint32_t a, uint32_t t)
{
    uint32_t S = s->nswitches, *d = xmalloc(2 * S * sizeof *d), *q = xmalloc(2 * S * sizeof *q), h = 0, n = 0, r = UINT32_MAX;
    for (uint32_t i = 0; i < 2 * S; i++) d[i] = UINT32_MAX;
    d[2 * a] = 1;
    q[n++] = 2 * a;
    while (h < n && r == UINT32_MAX) {
        uint32_t x = q[h++], w = x / 2, down = x % 2;
        if (w == t) { r = d[x]; break; }
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t v = ib_peer_dev(s, w, p);
            if (v == ICN_NIL || (v & NIC_BIT)) continue;
            int up = leads_up(dist, S, root, w, v);
            uint32_t y = 2 * v + (uint32_t)!up;
            if ((up && down) || d[y] != UINT32_MAX) continue;
            d[y] = d[x] + 1;
            q[n++] = y;
        }
    }
    free(d); free(q);
    return r;
}

/* updn on odd tori, where rings have links between switches of equal rank
 * (ties go by index): from the default root (a torus's switches are all
 * equally central: switch 0) and from another given in ib.root, every
 * switch reaches every CA LID, each route goes up, then only down, and is as
 * short as that allows; one VL has no credit loop. */
TEST(ib_updn_odd_tori_legal_routes)
{
    static const struct { const char *shape; uint32_t mid; } cases[] = { { "3x3", 4 }, { "5x5", 13 }, { "3x5", 7 } };
    for (int k = 0; k < 3; k++)
        for (int lmc = 0; lmc <= 1; lmc++)
            for (int mid = 0; mid <= 1; mid++) {
                char ini[128], r[32];
                sim_t s;
                cfg_t c;
                uint32_t root = mid ? cases[k].mid : 0;
                snprintf(r, sizeof r, "ib.root=%u", root);
                ib_subnet_t *ib = lft_tables(&s, &c, torus_shape_ini(ini, sizeof ini, cases[k].shape), "updn", lmc, 1, mid ? r : NULL);
                uint32_t S = s.nswitches;
                uint16_t *dist = ib_switch_dist(&s);
                uint32_t lost = 0, illegal = 0, longer = 0;
                for (uint32_t a = 0; a < S; a++)
                    for (uint32_t b = 0; b < s.nnodes; b++)
                        for (uint32_t i = 0; i < (1u << lmc); i++) {
                            uint32_t lid = ib_dlid(ib, b, i), w = a, at, down = 0, bad = 0;
                            int h = ib_walk(ib, &s, a, lid, &at);
                            if (h < 0) { lost++; continue; }
                            while (w != ib->leaf[b]) {
                                uint32_t v = ib_peer_dev(&s, w, ib_lft(ib, w, lid));
                                int up = leads_up(dist, S, root, w, v);
                                bad |= up && down;
                                down |= !up;
                                w = v;
                            }
                            illegal += bad;
                            longer += (uint32_t)h != legal_hops(&s, dist, root, a, ib->leaf[b]);
                        }
                CHECK(lost == 0 && illegal == 0 && longer == 0, "%s LMC %d root %u: %u routes not delivered, %u turn up after going down, %u longer than up*/down* allows",
                      cases[k].shape, lmc, root, lost, illegal, longer);
                CHECK(credit_check(ib, &s, NULL) == 0, "%s LMC %d root %u: credit loop", cases[k].shape, lmc, root);
                free(dist);
                sim_free(&s);
                cfg_free(&c);
            }
}

/* dfs-disjoint: what the engine guarantees, on tori of odd and even radix
 * (check_routes): every path delivered, path 0 minimal, no credit loop on
 * the routes' SL layers. The penalty of 2 hops per earlier use of a port is
 * a weight in the search, not a bound: a switch's detour adds to those of
 * the switches it joins through, so path 1 (every port used at most once
 * before) can be more than 2 hops longer than minimal. The most extra hops
 * per LID offset and the paths equal to an earlier path of their pair are
 * printed; path 1's figures, quoted in docs/INFINIBAND.md, are asserted. */
TEST(ib_dfs_disjoint_path0_minimal_detours_weighted)
{
    static const struct { const char *shape; int lmc; uint32_t quoted; } cases[] = { { "4x4", 2, 2 }, { "3x5", 2, 3 }, { "8x8", 1, 4 } };
    for (int k = 0; k < 3; k++) {
        char ini[128], label[64];
        sim_t s;
        cfg_t c;
        ib_subnet_t *ib = lft_tables(&s, &c, torus_shape_ini(ini, sizeof ini, cases[k].shape), "dfs-disjoint", cases[k].lmc, 8, NULL);
        snprintf(label, sizeof label, "dfs-disjoint on a %s torus, LMC %d", cases[k].shape, cases[k].lmc);
        check_routes(&s, label, 0, 1, 0);
        uint32_t S = s.nswitches, np = 1u << cases[k].lmc, extra[4] = { 0 }, same = 0, pairs = 0;
        uint16_t *dist = ib_switch_dist(&s);
        for (uint32_t a = 0; a < s.nnodes; a++)
            for (uint32_t b = 0; b < s.nnodes; b++) {
                uint32_t from = ib->leaf[a], to = ib->leaf[b], at;
                if (from == to) continue;
                pairs++;
                for (uint32_t i = 0; i < np; i++) {
                    int h = ib_walk(ib, &s, from, ib_dlid(ib, b, i), &at);
                    uint32_t x = h > 0 ? (uint32_t)h - 1u - dist[(size_t)from * S + to] : 0;
                    if (x > extra[i]) extra[i] = x;
                    int equal = 0;
                    for (uint32_t j = 0; j < i && !equal; j++) {   /* the same ports all the way */
                        uint32_t w = from, li = ib_dlid(ib, b, i), lj = ib_dlid(ib, b, j);
                        while (!(w & NIC_BIT) && ib_lft(ib, w, li) == ib_lft(ib, w, lj)) w = ib_peer_dev(&s, w, ib_lft(ib, w, li));
                        equal = (w & NIC_BIT) != 0;
                    }
                    same += (uint32_t)equal;
                }
            }
        printf("       %s: extra hops at most %u %u %u %u (path 0..%u), %u paths equal to an earlier one, %u pairs, %u VL layers\n",
               label, extra[0], extra[1], extra[2], extra[3], np - 1, same, pairs, ib->nvl);
        CHECK(extra[1] == cases[k].quoted, "%s: path 1 up to %u extra hops; docs/INFINIBAND.md quotes %u", label, extra[1], cases[k].quoted);
        free(dist);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* ib.report's route figures against a count by hand: a 2-stage RLFT of
 * 32 CAs, 4 on each of 8 leaves, LMC 1: 32 x 64 routes, every one minimal,
 * 1 switch to the 4 CAs of the own leaf and 3 to the 28 others (mean 2.75). */
TEST(ib_report_counts_every_route_of_every_ca)
{
    sim_t s;
    cfg_t c;
    ib_subnet_t *ib = lft_tables(&s, &c, "[topology]\ntype = rlft\nk = 4\nstages = 2\n", "ftree", 1, 1, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) { ib_report(ib, &s, "ftree", f); fclose(f); }
    CHECK(buf && strstr(buf, "2048 of 2048 routes delivered, 2048 minimal; hops mean 2.7500 max 3;"), "report: %s", buf ? buf : "(none)");
    free(buf);
    sim_free(&s);
    cfg_free(&c);
}
