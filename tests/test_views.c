/* The views the DRB seeds plot: per-router waits and port counters on cases
 * computed by hand, counters that agree across every link, and result files
 * that add up to the summary. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/stats/views.h"
#include "../src/core/util.h"
#include <stdlib.h>
#include <string.h>

static char tmpdir[256];
static const char *tmp(void) { return test_tmpdir(tmpdir, sizeof tmpdir, "views"); }


/* Column `col` of every data row of dir/file, a CSV file ('#' lines
 * skipped), into v (at most max); returns the rows, -1 if the file or the
 * column is missing. */
static int csv_col(const char *dir, const char *file, const char *col, double *v, int max)
{
    char path[600], line[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int idx = -1, rows = 0, header = 1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\r\n")] = 0;
        char *rest = line, *t;
        for (int i = 0; (t = strsep(&rest, ",")); i++) {   /* strsep keeps empty fields */
            if (header && !strcmp(t, col)) idx = i;
            if (!header && i == idx && rows < max) v[rows] = atof(t);
        }
        if (header && idx < 0) break;
        rows += !header;
        header = 0;
    }
    fclose(f);
    return idx < 0 ? -1 : rows;
}

static double sum(const double *v, int n)
{
    double t = 0;
    for (int i = 0; i < n; i++) t += v[i];
    return t;
}

/* The constructed cases' traffic: the sources in `to` send everything to
 * their destination, every other node is silent. */
static int32_t dest_of[16];
static uint32_t fixed_dst(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)s; (void)r;
    return src < 16 && dest_of[src] >= 0 ? (uint32_t)dest_of[src] : ICN_NIL;
}
static const pattern_ops fixed = { "fixed", "test only", NULL, fixed_dst };

static void use_fixed(sim_t *s)
{
    s->pattern = &fixed;
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (dest_of[n] < 0) { s->nic[n].silent = 1; s->nic[n].next_gen = SIMTIME_MAX; }
}

enum { D = 20000, S = 327680 };   /* ps: link delay; 4 KB at 100 Gbps */

/* 2x2 mesh, XY routing: nodes 0 (0,0), 1 (1,0) and 2 (0,1) each send one
 * 4 KB packet to node 3 (1,1) at the same time t0 (load 1.0: the first
 * message is generated one slot S in). Node 1's packet turns +y at router 1
 * at once; node 0's arrives there D later and waits for that link: S - D.
 * Router 3's ejection link takes node 2's packet (input 2, before input 4
 * in iSLIP's first round), then node 1's (waited S) and node 0's, which
 * arrived behind it on the same input at t0 + 2D + S (waited S). */
TEST(views_router_wait_computed_by_hand)
{
    const char *ini = "load = 1.0\n[time]\nwarmup = 0\nmeasure = 20us\ninterval = 1us\n"
                      "[topology]\ntype = mesh\nk = 2\nn = 2\n[routing]\nalgorithm = dor\n[link]\ndelay = 20ns\n"
                      "[views]\nrouter_wait = true\nport_counters = true\nlatency = true\npairs = 2:3 1:3 0:3\n";
    for (int n = 0; n < 16; n++) dest_of[n] = n < 3 ? 3 : -1;
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    use_fixed(&s);
    s.end = S + S / 2;   /* one message per source; the 20 us window and time series cover the drain */
    CHECK(sim_run(&s) == 0, "run");
    CHECK(sim_drain(&s, 20000000) == 0 && s.pkt_live == 0, "drain");
    static const uint64_t want[4][3] = { { 1, 0, 0 }, { 2, S - D, S - D }, { 1, 0, 0 }, { 3, 2 * S, S } };
    for (uint32_t w = 0; w < 4; w++) {
        uint64_t n, total, max;
        CHECK(views_router_wait(&s, w, &n, &total, &max), "router_wait off");
        CHECK(n == want[w][0] && total == want[w][1] && max == want[w][2],
              "router %u: %llu packets, waits %llu ps in all, largest %llu; want %llu, %llu, %llu", w,
              (unsigned long long)n, (unsigned long long)total, (unsigned long long)max,
              (unsigned long long)want[w][0], (unsigned long long)want[w][1], (unsigned long long)want[w][2]);
    }
    /* no output ever idled with a packet routed to it */
    for (uint32_t g = 0; g < s.nports; g++) {
        port_counters_t pc;
        if (s.port[g].dev & NIC_BIT || !views_port_counters(&s, g, &pc)) continue;
        CHECK(pc.wait_ps == 0, "port %u waited %llu ps", g, (unsigned long long)pc.wait_ps);
    }
    /* per pair (sorted: 0:3, 1:3, 2:3) and overall: network latency 3 D + S plus the waits */
    const char *dir = tmp();
    views_write(&s, dir, "hand", 0);
    double del[64], mean[64], net[64];
    int rows = csv_col(dir, "latency-pairs.csv", "delivered_pkts", del, 64);
    csv_col(dir, "latency-pairs.csv", "mean_net_latency_ns", net, 64);
    CHECK(rows == 3 * 20, "latency-pairs.csv: %d rows, want 3 pairs x 20 intervals", rows);
    for (int p = 0; p < 3 && rows == 60; p++) {
        double d = 0, x = 0;
        for (int i = 0; i < 20; i++) { d += del[p * 20 + i]; x += del[p * 20 + i] * net[p * 20 + i]; }
        CHECK(d == 1, "pair %d:3 delivered %g", p, d);
        CHECK_NEAR(x, (3.0 * D + (3 - p) * S) / 1e3, 1e-3, "pair's network latency (ns)");
    }
    rows = csv_col(dir, "latency.csv", "delivered_pkts", del, 64);
    csv_col(dir, "latency.csv", "mean_net_latency_ns", mean, 64);
    csv_col(dir, "latency.csv", "max_net_latency_ns", net, 64);
    CHECK(rows == 20 && sum(del, rows) == 3, "latency.csv: %d rows, %g delivered", rows, sum(del, rows));
    double m = 0, top = 0;
    for (int i = 0; i < rows; i++) { m += del[i] * mean[i]; if (net[i] > top) top = net[i]; }
    CHECK_NEAR(m / 3, (3.0 * D + 2 * S) / 1e3, 1e-3, "mean network latency (ns)");
    CHECK_NEAR(top, (3.0 * D + 3 * S) / 1e3, 1e-3, "largest network latency (ns)");
    sim_free(&s);
    cfg_free(&c);
}

/* One switch, one source sending 4 KB packets back to back to a node whose
 * buffer holds one packet: after each packet the ejection output waits for
 * its credit, 2 D (the packet's tail reaches the node D after it leaves,
 * the credit needs D more), with the next packet already queued for it,
 * since S > 2 D. So packet j >= 1 leaves at T0 + j (S + 2 D), T0 = S + D,
 * after a wait of 2 D: PortXmitWait counts those waits, in ticks of 8
 * bytes' time (640 ps). */
TEST(views_port_xmit_wait_computed_by_hand)
{
    const char *ini = "load = 1.0\n[time]\nwarmup = 3us\nmeasure = 17us\n"
                      "[topology]\ntype = rlft\nk = 2\nstages = 1\n[link]\ndelay = 100ns\n[nic]\nbuffer = 4KB\n"
                      "[views]\nport_counters = true\n";
    for (int n = 0; n < 16; n++) dest_of[n] = n == 0 ? 2 : -1;
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    use_fixed(&s);
    CHECK(sim_run(&s) == 0, "run");
    const uint64_t d = 100000, t0 = S + d, per = S + 2 * d, lo = 3000000, hi = 20000000;
    uint64_t sent = 0, wait = 0, rcv = 0;
    for (uint64_t j = 0; t0 + j * per < hi; j++) {
        if (t0 + j * per >= lo) sent++;
        if (!j) continue;
        uint64_t a = t0 + (j - 1) * per + S, b = t0 + j * per;   /* the j-th wait, clipped to the window */
        if (a < lo) a = lo;
        if (b > hi) b = hi;
        if (b > a) wait += b - a;
    }
    for (uint64_t k = 1; k * S + d < hi; k++) rcv += k * S + d >= lo;
    uint32_t eject = s.port[s.nic[2].port].peer, in = s.port[s.nic[0].port].peer;
    port_counters_t e, i;
    CHECK(views_port_counters(&s, eject, &e) && views_port_counters(&s, in, &i), "port_counters off");
    CHECK(views_tick(&s) == 640, "tick %llu ps", (unsigned long long)views_tick(&s));
    CHECK(e.xmit_pkts == sent && e.xmit_data == sent * 1024, "ejection: %llu packets, %llu words; want %llu",
          (unsigned long long)e.xmit_pkts, (unsigned long long)e.xmit_data, (unsigned long long)sent);
    CHECK(e.wait_ps == wait && e.xmit_wait == wait / 640, "ejection waited %llu ps (%llu ticks), want %llu ps",
          (unsigned long long)e.wait_ps, (unsigned long long)e.xmit_wait, (unsigned long long)wait);
    CHECK(i.rcv_pkts == rcv && i.rcv_data == rcv * 1024 && i.xmit_pkts == 0, "input: %llu packets, want %llu",
          (unsigned long long)i.rcv_pkts, (unsigned long long)rcv);
    CHECK(wait > 10 * 2 * d, "the case waits (%llu ps)", (unsigned long long)wait);
    sim_free(&s);
    cfg_free(&c);
}

/* A hot-spot on a fat-tree: over a window that covers the whole run and its
 * drain, what one end of a link sends the other receives; a port's data is
 * its bytes / 4; CA-facing ports add up to the packets injected and
 * delivered; a port never waits while it transmits. */
TEST(views_port_counters_agree_across_links)
{
    const char *ini = "load = 0.9\n[time]\nwarmup = 0\nmeasure = 30us\ndrain = false\n[topology]\nk = 4\nstages = 2\n"
                      "[switch]\nbuffer = 16KB\n[traffic]\nscenario = hs25-1\n"
                      "[views]\nport_counters = true\n[output]\nlinks = true\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    CHECK(sim_run(&s) == 0, "run");
    s.stop = s.end + 5000000000ull;   /* the window takes in the drain */
    CHECK(sim_drain(&s, 5000000000ull) == 0 && s.pkt_live == 0, "drain");
    double cap = s.link_bps / 8.0 * (double)(s.stop - s.warmup) * 1e-12;
    uint64_t from_ca = 0, to_ca = 0, waited = 0;
    for (uint32_t g = 0; g < s.nports; g++) {
        if (s.port[g].dev & NIC_BIT) continue;
        port_counters_t a, b;
        uint32_t peer = s.port[g].peer;
        views_port_counters(&s, g, &a);
        CHECK((uint64_t)llround(views_link_util(&s, g) * cap) == a.xmit_data * 4, "port %u: %llu words, links.csv %.0f bytes",
              g, (unsigned long long)a.xmit_data, views_link_util(&s, g) * cap);
        if (s.port[peer].dev & NIC_BIT) { from_ca += a.rcv_pkts; to_ca += a.xmit_pkts; continue; }
        views_port_counters(&s, peer, &b);
        CHECK(a.xmit_pkts == b.rcv_pkts && a.xmit_data == b.rcv_data, "link %u -> %u: sent %llu packets %llu words, received %llu %llu",
              g, peer, (unsigned long long)a.xmit_pkts, (unsigned long long)a.xmit_data, (unsigned long long)b.rcv_pkts,
              (unsigned long long)b.rcv_data);
        uint64_t busy = a.xmit_data * 4 * 8000000000000ull / (uint64_t)s.link_bps;   /* ps */
        CHECK(a.wait_ps + busy <= s.now + 1000, "port %u: waited %llu ps and sent for %llu ps in %llu ps", g,
              (unsigned long long)a.wait_ps, (unsigned long long)busy, (unsigned long long)s.now);
        waited += a.xmit_wait;
    }
    CHECK(from_ca == s.st.inj_pkts && to_ca == s.st.del_pkts, "CA ports received %llu sent %llu; injected %llu delivered %llu",
          (unsigned long long)from_ca, (unsigned long long)to_ca, (unsigned long long)s.st.inj_pkts,
          (unsigned long long)s.st.del_pkts);
    CHECK(waited > 0, "a hot-spot with 16 KB buffers makes some output wait for credits");
    sim_free(&s);
    cfg_free(&c);
}

/* Run the configuration `text` (written to tmp()/NAME.ini) into
 * tmp()/NAME, without plots; 0 if it ran. */
static int run_ini(const char *name, const char *text, char *dir, size_t n)
{
    char cmd[2048], out[8192], ini[600];
    snprintf(dir, n, "%s/%s", tmp(), name);
    snprintf(ini, sizeof ini, "%s/%s.ini", tmp(), name);
    FILE *f = fopen(ini, "w");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run %s -q -o %s -s output.plots=no", icnsim_bin(), ini, dir);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 0, "%s: run: %s", name, out);
    return rc;
}

/* occupancy.csv's rows (comments skipped); *empty counts the rows in which
 * every switch is empty. */
static int occupancy_rows(const char *dir, int *empty)
{
    char path[700], line[4096];
    snprintf(path, sizeof path, "%s/occupancy.csv", dir);
    FILE *f = fopen(path, "r");
    int rows = 0;
    *empty = 0;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int any = 0;
        for (char *p = line; *p; p++) if (*p >= '1' && *p <= '9') any = 1;
        rows++;
        *empty += !any;
    }
    fclose(f);
    return rows;
}

/* The files of a run: the latency series adds up to the summary's delivered
 * count, the histogram to the switch-to-switch links (48 on a 4x4 mesh),
 * the map has one row per such link and the router table one per router;
 * occupancy.csv has a row per sample taken, none of them a blank left over. */
TEST(views_files_add_up)
{
    char dir[600];
    if (run_ini("files", "load = 0.6\n[topology]\ntype = mesh\nk = 4\nn = 2\n[routing]\nalgorithm = dor\n[traffic]\nscenario = hotspot\n"
                "[time]\nwarmup = 5us\nmeasure = 20us\ninterval = 1us\ndrain = false\n"
                "[views]\nlatency = true\npeak_window = 5us\ntop_pairs = 3\nrouter_wait = true\nlink_load = true\nlink_bins = 7\n"
                "port_counters = true\n[output]\noccupancy = true\n", dir, sizeof dir))
        return;
    static double v[4096], w[4096];
    int n = csv_col(dir, "summary.csv", "delivered", v, 1);
    double delivered = n == 1 ? v[0] : -1;
    n = csv_col(dir, "latency.csv", "delivered_pkts", v, 4096);
    CHECK(n == 25 && sum(v, n) == delivered, "latency.csv: %d rows, %g delivered; summary %g", n, sum(v, n), delivered);
    double top = 0;
    csv_col(dir, "latency.csv", "max_latency_ns", w, 4096);
    for (int i = 0; i < n; i++) if (w[i] > top) top = w[i];
    n = csv_col(dir, "latency-peaks.csv", "delivered_pkts", v, 4096);
    CHECK(n == 5 && sum(v, n) == delivered, "latency-peaks.csv: %d windows, %g delivered", n, sum(v, n));
    csv_col(dir, "latency-peaks.csv", "max_latency_ns", w, 4096);
    double ptop = 0;
    for (int i = 0; i < n; i++) if (w[i] > ptop) ptop = w[i];
    CHECK(ptop == top && top > 0, "largest peak %g, largest interval maximum %g", ptop, top);
    n = csv_col(dir, "latency-pairs.csv", "delivered_pkts", v, 4096);
    CHECK(n == 3 * 25, "latency-pairs.csv: %d rows", n);
    for (int p = 1; p < 3 && n == 75; p++)
        CHECK(sum(v + (p - 1) * 25, 25) >= sum(v + p * 25, 25), "pairs not busiest first");
    n = csv_col(dir, "link-load-hist.csv", "links", v, 4096);
    CHECK(n == 7 && sum(v, n) == 48, "histogram: %d bins, %g links", n, sum(v, n));
    CHECK(csv_col(dir, "link-load-summary.csv", "links", v, 1) == 1 && v[0] == 48, "summary: %g links", v[0]);
    CHECK(csv_col(dir, "link-map.csv", "utilization", v, 4096) == 48, "link-map.csv rows");
    CHECK(csv_col(dir, "router-wait.csv", "y", v, 4096) == 16 && v[15] == 3, "router-wait.csv: 16 routers with coordinates");
    CHECK(csv_col(dir, "port-counters.csv", "PortXmitWait", v, 4096) == 48 + 16, "port-counters.csv: every connected port");
    int empty, rows = occupancy_rows(dir, &empty);
    CHECK(rows == 25 && !empty, "occupancy.csv: %d rows (the samples at 1..25 us, the window's end included), %d with every switch empty", rows, empty);
    char cmd[700], out[512];   /* the heat map puts row r at its sample's time, (r + 1) us */
    snprintf(cmd, sizeof cmd, "grep -c \"matrix using 1:((\\$2 + 1) \\* 1):3\" %s/occupancy.gp", dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "occupancy.gp does not plot row r at (r + 1) us: %s", out);
}

TEST(views_bad_keys_are_rejected)
{
    static const struct { const char *args, *needle; } bad[] = {
        { "experiments/seed004/vc-dor.ini -s views.router_wait=true", "views.router_wait" },
        { "-s views.pairs=0:999", "views.pairs" },
        { "-s 'views.pairs=1:2 1:2'", "listed twice" },
        { "-s views.pairs=3-4", "views.pairs" },
        { "-s views.pairs=3: -s time.measure=1us", "views.pairs" },
        { "-s views.pairs=:3 -s time.measure=1us", "views.pairs" },
        { "-s 'views.pairs=1:2 +3:4' -s time.measure=1us", "views.pairs" },
        { "-s views.pairs=0:1 -s views.top_pairs=2", "not both" },
        { "-s views.peak_window=10us", "views.peak_window" },
        { "-s views.latency=true -s views.peak_window=3us", "multiple of time.interval" },
        { "-s views.link_bins=4", "views.link_bins" },
        { "-s views.top_pairs=4 -s time.interval=1ns", "2048 MB" },
        { "-s views.latency=true -s time.interval=1ns -s views.peak_window=4294967296ns", "longer than the time series" },
        { "-s queuing.scheme=voqnet -s output.occupancy=true -s time.measure=20us", "output.occupancy" },
    };
    for (size_t i = 0; i < ICN_ARRAY_LEN(bad); i++) {
        char cmd[1024], out[4096];
        snprintf(cmd, sizeof cmd, "timeout 20 %s run -q -o %s/bad %s", icnsim_bin(), tmp(), bad[i].args);   /* a hang fails too */
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 2 && strstr(out, bad[i].needle), "%s: exit %d, want 2 naming '%s': %s", bad[i].args, rc, bad[i].needle, out);
    }
}

/* views.pdes: on one part nothing crosses and the bound is 1; on two parts
 * of a fat-tree under uniform traffic the halves do about equal work, so
 * the bound lies between 1 and 2, with events crossing every window; the
 * work counted is the same however it is split; and the view changes no
 * result. */
TEST(views_pdes_window_statistics)
{
    char cmd[1024], out[4096], dir[3][512];
    static const char *parts[3] = { "0", "1", "2" };
    for (int k = 0; k < 3; k++) {
        snprintf(dir[k], sizeof dir[k], "%s/pdes%s", tmp(), parts[k]);
        snprintf(cmd, sizeof cmd, "%s run experiments/seed002/base-432.ini -q -o %s -s output.plots=no -s topology.k=4 "
                 "-s load=0.5 -s time.warmup=10us -s time.measure=40us -s views.pdes=%s", icnsim_bin(), dir[k], parts[k]);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 0, "views.pdes=%s: status %d: %s", parts[k], rc, out);
    }
    double v[3][4];
    for (int k = 1; k < 3; k++) {
        CHECK(csv_col(dir[k], "pdes.csv", "speedup_bound", &v[k][0], 1) == 1, "pdes.csv of %s parts", parts[k]);
        csv_col(dir[k], "pdes.csv", "cross_part_events", &v[k][1], 1);
        csv_col(dir[k], "pdes.csv", "work", &v[k][2], 1);
        csv_col(dir[k], "pdes.csv", "windows", &v[k][3], 1);
    }
    CHECK(v[1][0] == 1.0 && v[1][1] == 0, "one part: bound %g, %g events crossing", v[1][0], v[1][1]);
    CHECK(v[2][0] > 1.2 && v[2][0] <= 2.0, "two parts: bound %g, want between 1.2 and 2", v[2][0]);
    CHECK(v[2][1] > v[2][3], "two parts: %g events crossed in %g windows", v[2][1], v[2][3]);
    CHECK(v[1][2] == v[2][2] && v[1][3] == v[2][3], "the work (%g, %g) or windows (%g, %g) depend on the split",
          v[1][2], v[2][2], v[1][3], v[2][3]);
    snprintf(cmd, sizeof cmd, "cmp %s/timeseries.csv %s/timeseries.csv && cmp %s/nodes.csv %s/nodes.csv", dir[0], dir[2],
             dir[0], dir[2]);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "views.pdes changed the results: %s", out);
    snprintf(cmd, sizeof cmd, "%s run experiments/seed004/vc-dor.ini -q -o %s/pdesflit -s views.pdes=2", icnsim_bin(), tmp());
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "views.pdes"), "views.pdes on the flit model: status %d: %s", rc, out);
    /* the view's windows are those a run in parts forms (Poisson arrivals:
     * events off any fixed grid), and it takes no more parts than nodes */
    const char *T = "-q -s output.plots=no -s topology.k=4 -s topology.stages=2 -s time.warmup=5us -s time.measure=20us "
                    "-s traffic.scenario=none -s time.interval=2us -s time.ties=canonical -s load=0.3 -s traffic.process=poisson";
    snprintf(cmd, sizeof cmd, "%s run %s -s views.pdes=4 -o %s/pv && %s run %s -s time.parts=4 -o %s/pp", icnsim_bin(), T, tmp(),
             icnsim_bin(), T, tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "%s", out);
    double vw = 0, pw = -1;
    snprintf(cmd, sizeof cmd, "%s/pv", tmp());
    csv_col(cmd, "pdes.csv", "windows", &vw, 1);
    snprintf(cmd, sizeof cmd, "%s/pp", tmp());
    csv_col(cmd, "perf.csv", "windows", &pw, 1);
    CHECK(vw == pw && vw > 0, "views.pdes counts %g windows, time.parts ran %g", vw, pw);
    snprintf(cmd, sizeof cmd, "%s run %s -s views.pdes=64 -o %s/pv64", icnsim_bin(), T, tmp());
    rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "views.pdes") && strstr(out, "end nodes"), "64 parts of 32 nodes: status %d: %s", rc, out);
}

/* The window's edges and sizes: a time series whose window is not a whole
 * number of intervals ends with a shorter bin that holds only the window's
 * traffic (not the drain's); `injected` counts packets by their bytes (1 KB
 * messages in 4 KB packets). */
TEST(stats_window_edges_and_injected_bytes)
{
    char dir[600];
    if (run_ini("edges", "load = 1.0\n[topology]\ntype = rlft\nk = 4\nstages = 1\n[packet]\nmtu = 4KB\n[traffic]\nmessage_size = 1KB\n"
                "[time]\nwarmup = 10us\nmeasure = 25us\ninterval = 10us\n", dir, sizeof dir))
        return;
    static double v[4096], w[4096];
    int n = csv_col(dir, "timeseries.csv", "accepted", v, 4096);
    csv_col(dir, "timeseries.csv", "offered", w, 4096);
    CHECK(n == 4, "%d bins, want 4 (the last 5 us)", n);
    for (int i = 0; i < n; i++) CHECK(v[i] <= 1.0001 && w[i] <= 1.0001, "bin %d: accepted %.3f, offered %.3f above the link", i, v[i], w[i]);
    double inj = -1, off = -1;
    if (csv_col(dir, "summary.csv", "injected", v, 1) == 1) inj = v[0];
    if (csv_col(dir, "summary.csv", "offered", v, 1) == 1) off = v[0];
    CHECK(inj > 0 && inj <= 1.0001 && inj <= off * 1.05, "injected %.3f with offered %.3f", inj, off);
}

/* The latency views' bins are the time series': with a window that is not a
 * whole number of intervals and a drain after it, the last bin of
 * latency.csv and latency-pairs.csv ends with the window (27 us), as in
 * timeseries.csv, since the drain's deliveries are in no bin. */
TEST(views_latency_bins_end_with_the_window)
{
    char dir[600];
    if (run_ini("lat-edges", "load = 0.6\n[topology]\ntype = mesh\nk = 4\nn = 2\n[routing]\nalgorithm = dor\n"
                "[time]\nwarmup = 5us\nmeasure = 22us\ninterval = 10us\n[views]\nlatency = true\ntop_pairs = 1\n", dir, sizeof dir))
        return;
    static const char *const files[] = { "timeseries.csv", "latency.csv", "latency-pairs.csv" };
    for (size_t i = 0; i < ICN_ARRAY_LEN(files); i++) {
        static double v[64];
        int n = csv_col(dir, files[i], "t_end_us", v, 64);
        CHECK(n == 3 && v[2] == 27.0, "%s: %d rows, the last ending at %g us; want 3 ending at 27 us", files[i], n,
              n > 0 ? v[n - 1] : -1);
    }
}
