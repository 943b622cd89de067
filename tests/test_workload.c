/* Closed-loop workloads: analytic times (ping-pong, all-to-all on a
 * crossbar), collectives that pair every send with a receive, a trace that
 * cannot finish reported with its ranks, determinism, mixed workloads, bad
 * input. */
#include "test.h"
#include "util.h"
#include "../src/workload/internal.h"
#include "../src/core/util.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One 8-port switch, 100 Gbps, 20 ns links: a crossbar. */
static const char *xbar =
    "[time]\nwarmup = 0\nmeasure = 20ms\ninterval = 10us\n[topology]\ntype = rlft\nk = 4\nstages = 1\n"
    "[link]\nbandwidth = 100Gbps\ndelay = 20ns\n[switch]\nbuffer = 64KB\n[nic]\nbuffer = 64KB\n";

static double makespan_us(const char *ini, const char *const *sets, int want_rc)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, sets);
    int rc = sim_run(&s);
    CHECK(rc == want_rc, "status %d, want %d", rc, want_rc);
    double m = wl_finished(&s) ? (double)wl_makespan(&s) / 1e6 : -1;
    sim_free(&s);
    cfg_free(&c);
    return m;
}

TEST(workload_pingpong_time_is_analytic)
{
    /* one way: 2 links and the serialization of 4 KB (a single switch, no routing delay) */
    const char *sets[] = { "workload.source=pingpong", "workload.bytes=4KB", "workload.iterations=10", NULL };
    double one_way = 2 * 0.020 + 4096 * 8 / 100e3;   /* us */
    CHECK_NEAR(makespan_us(xbar, sets, 0), 20 * one_way, 1e-6, "ping-pong makespan (us)");
    /* with compute between iterations */
    const char *c2[] = { "workload.source=pingpong", "workload.bytes=4KB", "workload.iterations=10", "workload.compute=1us", NULL };
    CHECK_NEAR(makespan_us(xbar, c2, 0), 20 * one_way + 10 * 1.0, 1e-6, "ping-pong with compute (us)");
}

TEST(workload_alltoall_on_a_crossbar_meets_its_bound)
{
    /* pairwise exchange: P - 1 permutation steps, each a 256 KB message
     * (64 packets) through a free crossbar: its serialization (the packets
     * cut through back to back) plus the two links' delay */
    const char *sets[] = { "workload.source=alltoall", "workload.bytes=256KB", NULL };
    double step = 262144 * 8 / 100e3 + 2 * 0.020;
    double m = makespan_us(xbar, sets, 0);
    CHECK(m >= 7 * 262144 * 8 / 100e3, "below the bandwidth bound: %.3f us", m);
    CHECK_NEAR(m, 7 * step, 1e-6, "all-to-all makespan (us)");
}

/* Every collective, for several P: each rank's ISEND to X with tag T has the
 * matching IRECV at X from that rank with tag T, as many times. */
TEST(workload_collectives_pair_every_send_with_a_receive)
{
    for (int coll = 0; coll < COLL__COUNT; coll++)
        for (uint32_t P = 2; P <= 9; P++) {
            uint32_t m[9];
            for (uint32_t i = 0; i < P; i++) m[i] = (i * 7 + 3) % 11;   /* arbitrary distinct rank ids */
            int64_t bal[11][11] = { { 0 } };
            for (uint32_t me = 0; me < P; me++) {
                wl_fifo_t q = { 0 };
                wl_collective(&q, coll, m, P, me, P / 3, 4096, 5);
                wop_t op;
                while (wl_fifo_pop(&q, &op)) {
                    if (op.kind == OP_STEP_ISEND) bal[m[me]][op.peer]++;
                    if (op.kind == OP_STEP_IRECV) bal[op.peer][m[me]]--;
                    CHECK(op.kind != OP_STEP_ISEND || op.peer != m[me], "coll %d P %u: a rank sends to itself", coll, P);
                }
                wl_fifo_free(&q);
            }
            int bad = 0;
            for (int a = 0; a < 11; a++)
                for (int b = 0; b < 11; b++) bad += bal[a][b] != 0;
            CHECK(!bad, "collective %d with %u ranks: %d unmatched pairs", coll, P, bad);
        }
}

TEST(workload_every_kernel_finishes_on_odd_rank_counts)
{
    const char *kern[] = { "pingpong", "alltoall", "allreduce", "allgather", "bcast", "barrier", "halo2d", "ptrans" };
    for (size_t i = 0; i < sizeof kern / sizeof *kern; i++) {
        char src[64];
        snprintf(src, sizeof src, "workload.source=%s", kern[i]);
        const char *sets[] = { src, "workload.ranks=6", "workload.bytes=8KB", "workload.iterations=3", NULL };
        CHECK(makespan_us(xbar, sets, 0) > 0, "%s did not finish", kern[i]);
    }
}

/* A trace that cannot finish: rank 0 waits for a message nobody sends. */
static void *stuck_open(sim_t *s, cfg_t *c, uint32_t *n) { (void)s; (void)c; *n = 2; return xcalloc(2, sizeof(int)); }
static void stuck_next(void *st, uint32_t r, wop_t *op)
{
    int *step = st;
    if (r == 0 && step[0]++ == 0) *op = (wop_t){ OP_RECV, 1, 9, 100 };
    else if (r == 1 && step[1]++ == 0) *op = (wop_t){ OP_SEND, 0, 8, 100 };   /* the wrong tag */
    else *op = (wop_t){ OP_END, 0, 0, 0 };
}
static void stuck_close(void *st) { free(st); }
static const wl_source_t stuck = { "stuck", "test", stuck_open, stuck_next, stuck_close };

TEST(workload_unmatched_receive_is_reported_not_hung)
{
    const char *sets[] = { "workload.source=pingpong", "workload.ranks=2", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, xbar, sets);
    /* swap in the test source before anything ran */
    s.wl->src->close(s.wl->src_state);
    s.wl->src = &stuck;
    s.wl->src_state = stuck.open(&s, &c, &s.wl->nranks);
    wl_t *w = s.wl;
    for (uint32_t r = 0; r < w->nranks; r++) w->rank[r].state = RS_RUN;
    /* restart the ranks on the new source: they had been advanced at set-up */
    w->done = w->computing = w->inflight = 0;
    for (uint32_t r = 0; r < w->nranks; r++) {
        free(w->rank[r].seq);
        w->rank[r] = wl_rank_new(r);
    }
    for (uint32_t n = 0; n < s.nnodes; n++) w->node[n].head = w->node[n].tail = ICN_NIL;
    wl_start(&s);
    int rc = sim_run(&s);
    CHECK(rc == 3, "status %d, want 3 (the workload cannot finish)", rc);
    CHECK(w->stuck && s.now < 1000000, "not detected early: stuck %u at t = %.3f us", w->stuck, s.now / 1e6);
    char buf[1024] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    CHECK(wl_report_stuck(&s, f) == 1, "one rank should be stuck");
    fclose(f);
    CHECK(strstr(buf, "rank 0") && strstr(buf, "receives from rank 1 (tag 9)"), "report: %s", buf);
    sim_free(&s);
    cfg_free(&c);
}

/* nic.queue_limit bounds an injection process's backlog; a rank's messages
 * are never dropped (its application would wait for them forever): a rank
 * that posts more sends at once than a source queue holds still finishes,
 * with the per-VC source queues and with the flow transport's. */
TEST(workload_messages_are_not_dropped_by_the_source_queue_limit)
{
    /* a 1 x 8 grid: every rank sends 7 blocks at once, over 2 VCs (dbbm) */
    const char *pervc[] = { "workload.source=ptrans", "workload.grid=1x8", "workload.bytes=20KB", "switch.vcs=2",
                            "queuing.scheme=dbbm", "nic.queue_limit=1", NULL };
    CHECK(makespan_us(xbar, pervc, 0) > 0, "per-VC source queues: the workload did not finish");
    /* a 2 x 4 grid, halo2d: 2 messages to each east-west neighbour at once, one flow each */
    const char *flows[] = { "workload.source=halo2d", "workload.grid=2x4", "workload.bytes=20KB", "nic.queues=flows",
                            "nic.queue_limit=1", NULL };
    CHECK(makespan_us(xbar, flows, 0) > 0, "flow send queues: the workload did not finish");
}

TEST(workload_replay_is_deterministic_and_mapping_matters)
{
    const char *ft = "[time]\nwarmup = 0\nmeasure = 20ms\n[topology]\ntype = rlft\nk = 4\nstages = 2\n";
    const char *sets[] = { "workload.source=ptrans", "workload.grid=4x8", "workload.bytes=16KB", "workload.mapping=random",
                           "workload.iterations=2", NULL };
    double a = makespan_us(ft, sets, 0), b = makespan_us(ft, sets, 0);
    CHECK(a > 0 && a == b, "two runs: %.6f and %.6f us", a, b);
}

/* Part 5: congestion from another job slows the application. */
TEST(workload_background_hotspot_slows_the_application)
{
    const char *ft = "[time]\nwarmup = 0\nmeasure = 20ms\n[topology]\ntype = rlft\nk = 4\nstages = 2\n";
    const char *alone[] = { "workload.source=alltoall", "workload.ranks=16", "workload.bytes=16KB", "workload.mapping=random", NULL };
    const char *mixed[] = { "workload.source=alltoall", "workload.ranks=16", "workload.bytes=16KB", "workload.mapping=random",
                            "load=0.9", "traffic.scenario=hotspot", "traffic.hs_fraction=0.5", NULL };
    double a = makespan_us(ft, alone, 0), b = makespan_us(ft, mixed, 0);
    CHECK(a > 0 && b > 1.2 * a, "alone %.2f us, with a hot-spot aggressor %.2f us", a, b);
}

TEST(workload_bad_input_names_the_key)
{
    static const struct { const char *args, *want; } cases[] = {
        { "-s workload.source=bogus", "workload.source" },
        { "-s workload.source=alltoall -s workload.ranks=9", "workload.ranks" },
        { "-s workload.source=halo2d -s workload.grid=3x3", "workload.grid" },
        { "-s workload.source=halo2d -s workload.grid=2by4", "workload.grid" },
        { "-s workload.source=alltoall -s workload.grid=2x4", "workload.grid" },
        { "-s workload.source=alltoall -s time.warmup=1us", "time.warmup" },
        { "-s workload.source=alltoall -s workload.mapping=file -s workload.map_file=/nonexistent", "workload.map_file" },
        { "-s workload.source=alltoall -s workload.mapping=spiral", "workload.mapping" },
        { "-s workload.source=pingpong -s workload.ranks=1", "workload.ranks" },
    };
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "wl");
    snprintf(cmd, sizeof cmd, "%s/x.ini", dir);
    FILE *f = fopen(cmd, "w");
    CHECK(f && fputs(xbar, f) >= 0 && fclose(f) == 0, "writing %s", cmd);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(cmd, sizeof cmd, "./build/icnsim run %s/x.ini -q -o %s/out %s", dir, dir, cases[i].args);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 2 && strstr(out, cases[i].want), "%s: exit %d, want 2 naming %s: %s", cases[i].args, rc, cases[i].want, out);
    }
    /* map files: one node id per line, as many as ranks (a long
     * comment is one line; 4 ranks on 8 nodes) */
    static const struct { const char *text, *want; } maps[] = {
        { "0\n1\n2 3\n3\n", ":3: want one node id" },
        { "0\n1\n2\n3\n4\n5\n6 7\n", ":7: want one node id" },   /* more ids than ranks are read, and checked */
        { "0\n1\n+2\n3\n", ":3: want one node id" },
        { "3\n2\n# %0253d1\n0\n", "3 node ids for 4 ranks" },
    };
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) {
        char map[160];
        snprintf(map, sizeof map, "%s/m.map", dir);
        f = fopen(map, "w");
        CHECK(f && fprintf(f, maps[i].text, 0) >= 0 && fclose(f) == 0, "writing %s", map);
        snprintf(cmd, sizeof cmd, "./build/icnsim run %s/x.ini -q -o %s/out -s workload.source=alltoall -s workload.mapping=file "
                 "-s workload.ranks=4 -s workload.map_file=%s", dir, dir, map);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 2 && strstr(out, map) && strstr(out, maps[i].want), "map %zu: exit %d, want 2 and '%s': %s", i, rc, maps[i].want, out);
    }
}

/* MPI's non-overtaking rule: of two messages of one source with one tag, the
 * second may reach the destination first (adaptive routing, several paths);
 * the first receive still takes the first message. Rank 0 sends A then B
 * (immediate, tag 5); rank 1 receives, computes, receives. B delivered first
 * leaves rank 1 waiting; A then completes its first receive, and B the
 * second at once. */
TEST(workload_messages_of_one_source_and_tag_do_not_overtake)
{
    char path[] = "/tmp/icnsim-wlord-XXXXXX", set[64];
    int fd = mkstemp(path);
    const char *trace = "#DIMEMAS:\"o\":1,0:2(1,1),0\n2:0:0:1:0:64:5:0:2\n2:0:0:1:0:64:5:0:2\n"
                        "3:1:0:0:0:64:5:0:0\n1:1:0:0.001\n3:1:0:0:0:64:5:0:0\n";
    CHECK(fd >= 0 && write(fd, trace, strlen(trace)) == (ssize_t)strlen(trace) && close(fd) == 0, "writing %s", path);
    snprintf(set, sizeof set, "workload.trace=%s", path);
    const char *sets[] = { "workload.source=dimemas", set, NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, xbar, sets);   /* set-up started the ranks: rank 0 posted both, rank 1 waits */
    wl_t *w = s.wl;
    uint32_t n0 = wl_rank_node(&s, 0), id[2];
    for (int i = 0; i < 2; i++) {
        CHECK(s.hooks.take(&s, n0) == 1, "rank 0's message %d not taken", i);
        id[i] = s.nic[n0].msg_id;
    }
    s.hooks.msg_done(&s, id[1]);
    CHECK(w->rank[1].state == RS_RECV, "B, delivered first, completed rank 1's first receive (state %u)", w->rank[1].state);
    CHECK(wl_unreceived(&s) == 2, "A in flight and B held back: %llu unreceived, want 2", (unsigned long long)wl_unreceived(&s));
    s.hooks.msg_done(&s, id[0]);
    CHECK(wl_unreceived(&s) == 1, "B unexpected: %llu unreceived, want 1", (unsigned long long)wl_unreceived(&s));
    CHECK(w->rank[1].state == RS_COMPUTE && w->rank[1].posted == ICN_NIL && w->rank[1].ux_head != ICN_NIL,
          "A then B: rank 1 computes (state %u) with B kept for its second receive", w->rank[1].state);
    CHECK(w->rank[1].held == ICN_NIL && w->rank[1].seq_n == 0, "messages held or counts kept after both arrived");
    sim_free(&s);
    cfg_free(&c);
    unlink(path);
}

/* A trace in a file of the test's temporary directory; returns its path. */
static const char *trace_file(const char *name, const char *text)
{
    static char dir[128], path[256];
    test_tmpdir(dir, sizeof dir, "wltrace");
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) abort();
    return path;
}

/* A replay of the trace `text` (written to `name`) on the crossbar, set up. */
static void trace_setup(sim_t *s, cfg_t *c, const char *name, const char *text)
{
    char set[300];
    snprintf(set, sizeof set, "workload.trace=%s", trace_file(name, text));
    const char *sets[] = { "workload.source=dimemas", set, NULL };
    tsim_setup(s, c, xbar, sets);
}

/* Zero-length bursts cost no event (a million of them at one instant would
 * trip the zero-delay watchdog), and the end of a rank's records is not an
 * operation. */
TEST(workload_zero_bursts_take_no_event_and_end_is_not_an_operation)
{
    char text[8192] = "#DIMEMAS:\"z\":1,0:2(1,1),0\n";
    for (int i = 0; i < 100; i++) strcat(text, "1:0:0:0\n1:1:0:0\n");
    strcat(text, "1:0:0:0.000001\n1:1:0:0.000001\n");
    sim_t s;
    cfg_t c;
    trace_setup(&s, &c, "zero.dim", text);
    CHECK(sim_run(&s) == 0 && wl_finished(&s), "the trace did not finish");
    CHECK(s.st.events < 10, "%llu events for two 1 us bursts", (unsigned long long)s.st.events);
    CHECK(s.wl->rank[0].ops == 101 && s.wl->rank[1].ops == 101, "operations %llu, %llu, want 101 (the end is none)",
          (unsigned long long)s.wl->rank[0].ops, (unsigned long long)s.wl->rank[1].ops);
    CHECK(wl_makespan(&s) == 1000000, "makespan %.6f us", wl_makespan(&s) / 1e6);
    sim_free(&s);
    cfg_free(&c);
}

/* A run that ends inside a burst or a blocking send counts what elapsed,
 * and says whom the sender waits for. */
TEST(workload_cut_short_counts_elapsed_compute_and_names_the_send_peer)
{
    const char *text = "#DIMEMAS:\"c\":1,0:2(1,1),0\n1:0:0:0.000002\n1:0:0:0.5\n"
                       "1:1:0:0.000002\n2:1:0:0:0:4000000000:1:0:0\n";
    char set[300];
    snprintf(set, sizeof set, "workload.trace=%s", trace_file("cut.dim", text));
    const char *sets[] = { "workload.source=dimemas", set, "time.measure=10us", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, xbar, sets);
    CHECK(sim_run(&s) == 3 && !wl_finished(&s), "the run should end unfinished");
    char dir[128] = "", path[256], buf[2048] = "";
    test_tmpdir(dir, sizeof dir, "wlcut");
    wl_write(&s, dir);
    snprintf(path, sizeof path, "%s/workload.csv", dir);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = 0;
    /* rank 0: 2 us, then 8 us of its 0.5 s burst */
    CHECK(strstr(buf, "\n0,0,2,10.000000,0.000000,10.000000,0\n"), "workload.csv: %s", buf);
    char rep[1024] = "";
    FILE *r = fmemopen(rep, sizeof rep, "w");
    wl_report_stuck(&s, r);
    fclose(r);
    CHECK(strstr(rep, "rank 1 (node 1) sends (blocking) to rank 0 (tag 1) since t = 2.000 us")
          && strstr(rep, "rank 0 (node 0) computes since t = 2.000 us"), "report: %s", rep);
    sim_free(&s);
    cfg_free(&c);
}

/* A send no receive takes: the application finishes, and says so, whether
 * the message is still in the network or arrived unexpected. */
TEST(workload_unreceived_send_is_counted)
{
    static const char *const texts[] = { "#DIMEMAS:\"u\":1,0:2(1,1),0\n2:0:0:1:0:100000:1:0:0\n0:1:0\n",
                                         "#DIMEMAS:\"u\":1,0:2(1,1),0\n2:0:0:1:0:100000:1:0:0\n1:1:0:0.00005\n" };
    for (int i = 0; i < 2; i++) {
        sim_t s;
        cfg_t c;
        trace_setup(&s, &c, "unrec.dim", texts[i]);
        CHECK(sim_run(&s) == 0 && wl_finished(&s), "case %d: the trace did not finish", i);
        CHECK(wl_unreceived(&s) == 1 && s.wl->inflight == (uint32_t)(i == 0), "case %d: %llu unreceived (%u in flight), want 1",
              i, (unsigned long long)wl_unreceived(&s), s.wl->inflight);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* A rank's posted receives: immediate ones completed at once by unexpected
 * messages, open ones that arrivals must find past the done ones, and waits
 * that take requests from the front, the middle and the back of the list
 * (in the first pass's check of the trace too). Every receive must get its
 * own message: a request matched twice, or one left open, leaves the
 * replay stuck or a message unreceived. */
TEST(workload_posted_receives_match_in_order_and_are_waited_in_any_order)
{
    static const char *text =
        "#DIMEMAS:\"m\":1,0:2(1,1),0\n"
        "2:0:0:1:0:100:5:0:2\n2:0:0:1:0:200:5:0:2\n2:0:0:1:0:300:5:0:2\n1:0:0:0.0001\n"
        "2:0:0:1:0:700:7:0:2\n2:0:0:1:0:800:7:0:2\n2:0:0:1:0:900:7:0:2\n"
        "2:0:0:1:0:400:6:0:2\n2:0:0:1:0:500:6:0:2\n2:0:0:1:0:600:6:0:2\n"
        "1:1:0:0.00005\n"
        "3:1:0:0:0:1000:5:0:1\n3:1:0:0:0:1000:5:0:1\n3:1:0:0:0:1000:5:0:1\n"
        "3:1:0:0:0:1000:6:0:1\n3:1:0:0:0:1000:6:0:1\n3:1:0:0:0:1000:6:0:1\n"
        "3:1:0:0:0:1000:7:0:1\n3:1:0:0:0:1000:7:0:1\n3:1:0:0:0:1000:7:0:1\n"
        "3:1:0:0:-1:0:6:0:2\n3:1:0:0:-1:0:7:0:2\n"
        "3:1:0:0:-1:0:5:0:2\n3:1:0:0:-1:0:5:0:2\n3:1:0:0:-1:0:5:0:2\n"
        "3:1:0:0:-1:0:7:0:2\n3:1:0:0:-1:0:6:0:2\n3:1:0:0:-1:0:7:0:2\n3:1:0:0:-1:0:6:0:2\n";
    sim_t s;
    cfg_t c;
    trace_setup(&s, &c, "match.dim", text);
    CHECK(sim_run(&s) == 0 && wl_finished(&s), "the replay did not finish");
    CHECK(wl_unreceived(&s) == 0 && s.wl->rx_bytes == 4500, "%llu unreceived, %llu bytes received of 4500",
          (unsigned long long)wl_unreceived(&s), (unsigned long long)s.wl->rx_bytes);
    CHECK(s.wl->rank[1].posted == ICN_NIL && s.wl->rank[1].open == ICN_NIL, "requests left listed after every wait");
    sim_free(&s);
    cfg_free(&c);
}
