/* The window's statistics on cases where they are known exactly: latency
 * counts packets by their generation time, source drops by theirs, the
 * average switches crossed divides by the packets it adds up, and a
 * workload that ends early has its throughput over the part of the window
 * it ran. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/transport/transport.h"
#include "../src/workload/workload.h"
#include <string.h>

/* A finished run and its results. */
typedef struct run { sim_t s; cfg_t c; result_t r; } run_t;

/* Set up ini, let `adjust` (if not NULL) change the simulation, run it and
 * compute its results. */
static void run_adjusted(run_t *x, const char *ini, void (*adjust)(sim_t *s))
{
    tsim_setup(&x->s, &x->c, ini, NULL);
    if (adjust) adjust(&x->s);
    CHECK(sim_run(&x->s) == 0, "run failed");
    result_compute(&x->s, &x->r);
}

static void run_free(run_t *x)
{
    sim_free(&x->s);
    cfg_free(&x->c);
}

/* What every data delivery says of the latency statistics: the packets
 * generated in the window (delivered in it or in the drain after it) and
 * their latency sum, and the packets generated before it and delivered in it. */
static struct { uint64_t n, late, early; psum_t sum; } seen;
static int note_delivery(sim_t *s, uint32_t id)
{
    simtime_t gen = s->ptime[id].gen;
    if (gen >= s->warmup && gen < s->stop) {
        seen.n++;
        seen.sum += s->now - gen;
        seen.late += s->now >= s->stop;
    } else {
        seen.early += gen < s->warmup && s->now >= s->warmup;
    }
    return 0;   /* data: delivered as usual */
}

static void watch_deliveries(sim_t *s)
{
    memset(&seen, 0, sizeof seen);
    s->hooks.deliver = note_delivery;
}

/* Latency is that of the packets generated in the window, whenever they
 * arrive: 2 us links make every packet take over 4 us, so at both ends of
 * the window packets cross its edge, and the drain brings in the last. */
TEST(stats_latency_counts_packets_by_generation_time)
{
    const char *ini = "load = 0.5\nseed = 7\n[time]\nwarmup = 10us\nmeasure = 20us\n[topology]\ntype = rlft\nk = 4\nstages = 1\n"
                      "[link]\ndelay = 2us\n";
    run_t x;
    run_adjusted(&x, ini, watch_deliveries);
    CHECK(seen.late > 0 && seen.early > 0, "%llu window packets arrived after it, %llu earlier ones in it: no edge crossed",
          (unsigned long long)seen.late, (unsigned long long)seen.early);
    const hist_t *lat = &x.s.st.lat;
    CHECK(lat->n == seen.n && lat->sum == seen.sum, "%llu latency samples summing to %.0f ps, want the %llu window packets' %.0f ps",
          (unsigned long long)lat->n, (double)lat->sum, (unsigned long long)seen.n, (double)seen.sum);
    CHECK(x.r.undrained == 0 && seen.n == x.s.st.w_gen_pkts, "%llu of the window's %llu packets delivered, %llu undrained",
          (unsigned long long)seen.n, (unsigned long long)x.s.st.w_gen_pkts, (unsigned long long)x.r.undrained);
    run_free(&x);
}

/* Source drops count for the window by the generation time of the dropped
 * message, as latency does: with sources dropping all through the warm-up,
 * the window and the drain, every packet generated in the window is, once
 * the network has emptied, either delivered or one of the window's drops
 * (a drop counted wrongly also ends the drain before the window's packets
 * are in, and they arrive after it). Per-VC source queues (src/net/nic.c)
 * and flows (src/transport/) drop apart; Poisson arrivals make some drops
 * happen after the message's generation time, at the next service. */
TEST(stats_window_source_drops_are_the_windows_own)
{
    const char *ini = "load = 1.0\nseed = 3\n[time]\nwarmup = 20us\nmeasure = 50us\ndrain_max = 500us\n"
                      "[topology]\ntype = rlft\nk = 4\nstages = 2\n[switch]\nbuffer = 16KB\n[nic]\nbuffer = 16KB\nqueue_limit = 4\n"
                      "[traffic]\nscenario = hs25-1\nprocess = poisson\n";
    static const char *const nics[][3] = { { "queuing.scheme=dbbm", "switch.vcs=2", NULL }, { "nic.queues=flows", NULL } };
    for (size_t i = 0; i < ICN_ARRAY_LEN(nics); i++) {
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, nics[i]);
        CHECK(i == 0 ? !s.tp && s.srcq_limit == 4 : s.tp && s.tp->queue_limit == 4, "%s: not the source queues meant", nics[i][0]);
        CHECK(sim_run(&s) == 0, "%s: run failed", nics[i][0]);
        CHECK(s.end < s.stop + s.drain_max, "%s: the drain reached its bound", nics[i][0]);
        /* the drain ends when the window's packets are all in by the counts;
         * the network emptied, no window packet may turn up after that */
        CHECK(sim_drain(&s, 1000000000ull) == 0 && s.pkt_live == 0, "%s: the network did not empty", nics[i][0]);
        const stats_t *st = &s.st;
        CHECK(st->w_src_drops > 0 && st->src_drops > st->w_src_drops, "%s: %llu drops in the window of %llu: nothing to tell apart",
              nics[i][0], (unsigned long long)st->w_src_drops, (unsigned long long)st->src_drops);
        CHECK(st->w_lat_pkts + st->w_src_drops == st->w_gen_pkts, "%s: %llu delivered + %llu dropped of the window's %llu packets",
              nics[i][0], (unsigned long long)st->w_lat_pkts, (unsigned long long)st->w_src_drops,
              (unsigned long long)st->w_gen_pkts);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* The first half of the nodes sends to the first node of the second half,
 * which sends with the rest of it to node 0. */
static uint32_t halves_dst(const sim_t *s, uint32_t src, rng_t *r)
{
    (void)r;
    return src < s->nnodes / 2 ? s->nnodes / 2 : 0;
}
static const pattern_ops halves = { "halves", "test only", NULL, halves_dst };
static void use_halves(sim_t *s) { s->pattern = &halves; }

/* Average switches crossed: on an RLFT with K = 2 and 2 stages every route
 * from one half of the nodes to the other crosses 2T - 1 = 3 switches, so
 * the average is exactly 3 when it divides the window's packets' hops by
 * their number. Two hot-spots make the other counts differ: the packets
 * delivered in the window (some generated in the warm-up), in the whole run
 * (the drain's too), those dropped at the sources, the link crossings. */
TEST(stats_average_hops_divides_by_the_packets_it_adds)
{
    const char *ini = "load = 1.0\nseed = 5\n[time]\nwarmup = 5us\nmeasure = 40us\n[topology]\ntype = rlft\nk = 2\n"
                      "stages = 2\n[switch]\nvcs = 2\n[queuing]\nscheme = dbbm\n[nic]\nqueue_limit = 4\n";
    run_t x;
    run_adjusted(&x, ini, use_halves);
    const stats_t *st = &x.s.st;
    CHECK(st->w_lat_pkts > 50 && st->w_del_pkts != st->w_lat_pkts && st->del_pkts != st->w_lat_pkts && st->w_src_drops > 0 &&
          st->pkt_hops != st->w_hops_sum, "window samples %llu, delivered in the window %llu, in the run %llu, %llu dropped: "
          "the counts do not differ", (unsigned long long)st->w_lat_pkts, (unsigned long long)st->w_del_pkts,
          (unsigned long long)st->del_pkts, (unsigned long long)st->w_src_drops);
    CHECK(x.r.avg_hops == 3.0, "average switches crossed %.9f, want 3", x.r.avg_hops);
    run_free(&x);
}

/* A workload that ends before the window does: throughput is over the
 * window up to the end (stats_window; a workload starts the window at 0),
 * so the bytes it delivered are divided by the time it ran, its makespan. A
 * ping-pong of 20 one-packet messages on one switch delivers message k at k
 * one-way times (2 links and a serialization), 10 to each of nodes 0 and 1. */
TEST(stats_workload_throughput_is_over_the_time_it_ran)
{
    const char *ini = "[time]\nwarmup = 0\nmeasure = 1ms\n[topology]\ntype = rlft\nk = 4\nstages = 1\n"
                      "[link]\nbandwidth = 100Gbps\ndelay = 20ns\n[workload]\nsource = pingpong\nbytes = 4KB\niterations = 10\n";
    const double one_way = 2 * 20000 + 327680, bps = 100e9;   /* ps */
    run_t x;
    run_adjusted(&x, ini, NULL);
    CHECK(wl_finished(&x.s), "the ping-pong did not finish");
    CHECK(x.s.end == 20 * one_way && x.s.end < x.s.stop, "the run ended at %llu ps, want the makespan %.0f ps",
          (unsigned long long)x.s.end, 20 * one_way);
    double span = 20 * one_way * 1e-12;   /* s */
    CHECK_NEAR(x.r.accepted, 20 * 4096 * 8 / (bps * x.s.nnodes * span), 1e-9, "accepted");
    CHECK_NEAR(x.r.node_max, 10 * 4096 * 8 / (bps * span), 1e-9, "node 0's throughput");
    run_free(&x);
}

/* A workload that finishes before time.measure ends the run there: the
 * background's constant-gap sources (Bernoulli at load 1.0, counted in closed
 * form) count what they generated up to that end, as random gaps are counted
 * (offered was 3.4 of the link); the time series' last sample lands in the
 * bin the run ended in (its in_network is the run's); its generated counts
 * include the application's messages. A workload cut short by time.measure
 * is reported unfinished, not ok. */
TEST(stats_a_finished_workload_ends_every_count)
{
    const char *ini = "load = 1.0\n[time]\nwarmup = 0\nmeasure = 200us\ninterval = 2us\n[topology]\nk = 2\nstages = 2\n"
                      "[traffic]\nscenario = none\n[workload]\nsource = alltoall\nranks = 4\n";
    run_t x;
    run_adjusted(&x, ini, NULL);
    const stats_t *st = &x.s.st;
    CHECK(wl_finished(&x.s) && x.s.end < x.s.stop, "the workload did not end the run early");
    CHECK(x.r.offered > 0.5 && x.r.offered <= 1.0, "offered %.6f, at most the link's", x.r.offered);
    CHECK(x.r.status == RUN_OK, "status %d", x.r.status);
    uint64_t n = (x.s.end + st->interval - 1) / st->interval, gen = 0;
    for (uint32_t b = 0; b < st->nbins; b++) gen += st->ts_gen_pkts[b];
    CHECK(n >= 1 && n < st->nbins && st->ts_innet[n - 1] == x.s.pkt_live && x.s.pkt_live > 0,
          "the series' last bin (%llu) holds %llu in the network, the run ends with %u", (unsigned long long)n,
          (unsigned long long)(n ? st->ts_innet[n - 1] : 0), x.s.pkt_live);
    CHECK(gen == st->gen_pkts, "the time series generated %llu packets, the run %llu", (unsigned long long)gen,
          (unsigned long long)st->gen_pkts);
    run_free(&x);

    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, (const char *[]){ "time.measure=10us", NULL });
    CHECK(sim_run(&s) == EXIT_DEADLOCK, "a workload cut short must end the run with status 3");
    result_t r;
    result_compute(&s, &r);
    CHECK(r.status == RUN_UNFINISHED, "status %d, want unfinished (%d)", r.status, RUN_UNFINISHED);
    sim_free(&s);
    cfg_free(&c);
}
