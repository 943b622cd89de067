/* Latency past saturation: the drain after the measurement window, the
 * undrained count and the unstable flag, in both router models. */
#include "test.h"
#include "util.h"
#include <stdio.h>

/* seed 004's wormhole router on an 8x8 mesh, DOR, transpose (DBBM VCs) */
static const char *flit_mesh = "include = experiments/seed004/vc-dor.ini\n[topology]\ntype = mesh\n"
                               "[routing]\nalgorithm = dor\n[queuing]\nscheme = dbbm\n";
/* seed 004's bubble router (packet level, VCT) on the 8x8 torus */
static const char *pkt_torus = "include = experiments/seed004/bubble-dor.ini\n";

static void sweep_loads(const char *label, const char *ini, const double *loads, int n, int stable_until)
{
    double prev = 0;
    for (int i = 0; i < n; i++) {
        char load[32];
        snprintf(load, sizeof load, "load=%g", loads[i]);
        const char *more[] = { load, "traffic.pattern=transpose", "time.warmup=20us", "time.measure=100us", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, more);
        int rc = sim_run(&s);
        result_t r;
        result_compute(&s, &r);
        CHECK(rc == 0, "%s load %g: status %d", label, loads[i], rc);
        CHECK(r.lat_mean >= prev, "%s: mean latency %.0f ns at load %g, below %.0f ns at the load before", label, r.lat_mean,
              loads[i], prev);
        if (i < stable_until) {
            CHECK(!r.unstable && r.undrained == 0, "%s load %g: unstable %d, %llu undrained", label, loads[i], r.unstable,
                  (unsigned long long)r.undrained);
            CHECK(r.lat_samples == s.st.w_gen_pkts, "%s load %g: %llu samples of %llu generated in the window", label, loads[i],
                  (unsigned long long)r.lat_samples, (unsigned long long)s.st.w_gen_pkts);
        } else {
            CHECK(r.unstable, "%s load %g: accepted %.3f of %.3f offered, not marked unstable", label, loads[i], r.accepted, r.offered);
        }
        /* the packets still out were generated in the window */
        double out = (double)((__int128)s.st.w_gen_tsum2 - 2 * (__int128)s.st.w_done_tsum) / 2;
        CHECK(out >= (double)r.undrained * (double)s.warmup - 1 && out <= (double)r.undrained * (double)s.stop + 1,
              "%s load %g: %llu undrained packets with generation times summing to %.0f ps", label, loads[i],
              (unsigned long long)r.undrained, out);
        printf("       %s load %.2f: accepted %.3f, latency %.0f ns, %llu undrained%s\n", label, loads[i], r.accepted,
               r.lat_mean, (unsigned long long)r.undrained, r.unstable ? ", unstable" : "");
        prev = r.lat_mean;
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Without the drain the 8x8 mesh under transpose reported 713 cycles at load
 * 0.15 and 235 at 0.16: the slowest sources dropped out of the sample. */
TEST(drain_latency_does_not_fall_past_saturation_flit)
{
    static const double loads[] = { 0.10, 0.14, 0.17, 0.20, 0.25, 0.35 };
    sweep_loads("flit mesh transpose", flit_mesh, loads, 6, 2);
}

TEST(drain_latency_does_not_fall_past_saturation_packet)
{
    static const double loads[] = { 0.10, 0.20, 0.30, 0.40, 0.60 };
    sweep_loads("bubble torus transpose", pkt_torus, loads, 5, 2);
}

/* Below saturation the drain ends as soon as the window's packets are in,
 * far before its bound, and changes no throughput figure. */
TEST(drain_ends_when_the_window_is_in)
{
    const char *more[] = { "load=0.1", "time.warmup=20us", "time.measure=100us", NULL };
    const char *off[] = { "load=0.1", "time.warmup=20us", "time.measure=100us", "time.drain=false", NULL };
    sim_t s;
    cfg_t c;
    result_t a, b;
    tsim_setup(&s, &c, flit_mesh, more);
    sim_run(&s);
    result_compute(&s, &a);
    CHECK(s.end > s.stop && s.end < s.stop + s.drain_max / 10, "the drain ran %.3f us of its %.3f us",
          (double)(s.end - s.stop) / 1e6, (double)s.drain_max / 1e6);
    sim_free(&s);
    cfg_free(&c);
    tsim_setup(&s, &c, flit_mesh, off);
    sim_run(&s);
    result_compute(&s, &b);
    CHECK(a.accepted == b.accepted && a.offered == b.offered && a.injected == b.injected, "throughput changed by the drain");
    CHECK(b.undrained > 0 && a.lat_samples == b.lat_samples + b.undrained, "%llu samples with the drain, %llu + %llu without",
          (unsigned long long)a.lat_samples, (unsigned long long)b.lat_samples, (unsigned long long)b.undrained);
    sim_free(&s);
    cfg_free(&c);
    CHECK(!b.unstable, "stable at load 0.1 without the drain");
    /* without a drain, the growth of the queues alone marks an unstable run */
    const char *over[] = { "load=0.25", "traffic.pattern=transpose", "time.warmup=20us", "time.measure=100us", "time.drain=false", NULL };
    tsim_setup(&s, &c, flit_mesh, over);
    sim_run(&s);
    result_compute(&s, &b);
    CHECK(b.unstable, "load 0.25 transpose without the drain: accepted %.3f of %.3f, not marked unstable", b.accepted, b.offered);
    sim_free(&s);
    cfg_free(&c);
}

/* Past saturation too (a hot-spot fat-tree, where the drain never ends
 * before its bound): the window's throughput is the same with and without
 * the drain. The seed 000 and 002 reproductions rely on it to run without. */
static simtime_t run_result(const char *ini, const char **more, result_t *r)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, more);
    sim_run(&s);
    result_compute(&s, r);
    simtime_t end = s.end;
    sim_free(&s);
    cfg_free(&c);
    return end;
}

TEST(drain_changes_no_throughput_past_saturation)
{
    static const char *ini = "include = experiments/seed002/base-432.ini\n";
    const char *on[] = { "queuing.scheme=vftree-sd", "switch.vcs=3", "switch.voq=1", "routing.algorithm=ADAP-TH-S-K/3",
                         "traffic.scenario=hs10-1", "time.warmup=100us", "time.measure=50us", NULL, NULL };
    result_t a, b;
    simtime_t ran = run_result(ini, on, &a);
    on[7] = "time.drain=false";
    simtime_t end = run_result(ini, on, &b);
    CHECK(a.undrained > 0 && ran > end, "the drain ran to %.3f us with %llu undrained, against %.3f us without",
          (double)ran / 1e6, (unsigned long long)a.undrained, (double)end / 1e6);
    CHECK(a.accepted == b.accepted && a.offered == b.offered && a.injected == b.injected,
          "accepted %.6f / %.6f, offered %.6f / %.6f with / without the drain", a.accepted, b.accepted, a.offered, b.offered);
}

/* Bounded source queues (per VC, nic.queue_limit) that overflow drop the
 * messages a saturated source cannot inject: its queue cannot grow, so the
 * growth test misses it, and the survivors' latency is a lower bound. Such
 * a run is unstable; the same network far below saturation is not. */
TEST(drain_dropping_sources_are_unstable)
{
    const char *ini = "[topology]\nk = 4\nstages = 2\n[switch]\nvcs = 2\n[queuing]\nscheme = dbbm\n[nic]\nqueue_limit = 4\n"
                      "[traffic]\nscenario = hs25-1\n[time]\nwarmup = 200us\nmeasure = 100us\ndrain = false\n";
    result_t r;
    const char *full[] = { "load=1.0", NULL }, *light[] = { "load=0.05", NULL };
    CHECK(tsim_run_checked(ini, full, &r) == 0, "run at load 1.0");
    CHECK(r.src_drops > 0 && r.unstable, "load 1.0: %llu messages dropped at the sources, unstable %d",
          (unsigned long long)r.src_drops, r.unstable);
    CHECK(tsim_run_checked(ini, light, &r) == 0, "run at load 0.05");
    CHECK(r.src_drops == 0 && !r.unstable, "load 0.05: %llu dropped, unstable %d", (unsigned long long)r.src_drops, r.unstable);
}
