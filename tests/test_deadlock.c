/* The watchdog: a routing with a cyclic buffer dependency must be detected
 * and reported (status 3), never hang. The routing below is installed by the
 * test only: on an 8-node RLFT (K = 2, T = 2) every leaf sends everything up
 * to top switch 0, which sends it down to the next leaf: packets circle the
 * leaves forever, buffers fill, and the cycle locks. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/topo/fattree.h"
#include <unistd.h>

static int cyc_route(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    const fattree_t *ft = fattree_get(s);
    uint32_t out = ft->stage[w] == 1 ? ft->K                          /* up to top switch 0 */
                                     : (in + 1) % ft->top;            /* down to the next leaf */
    c[0] = (cand_t){ (uint8_t)out, p->vc, FC_VCT, 0 };
    return 1;
}

static const routing_ops cyclic = { .name = "cyclic", .desc = "test only", .route = cyc_route };

static const char *const cyclic_ini = "load = 1.0\n[time]\nwarmup = 0\nmeasure = 5ms\ndeadlock = 50us\n"
                                      "[topology]\ntype = rlft\nk = 2\nstages = 2\n[switch]\nbuffer = 16KB\n[nic]\nbuffer = 16KB\n";

/* cyclic_ini with `sets` (NULL-ended, or NULL), run under the cyclic routing; its status. */
static int run_cyclic(sim_t *s, cfg_t *c, const char *const *sets)
{
    tsim_setup(s, c, cyclic_ini, sets);
    s->routing = &cyclic;
    return sim_run(s);
}

TEST(deadlock_detected_and_reported)
{
    sim_t s;
    cfg_t c;
    int rc = run_cyclic(&s, &c, NULL);
    CHECK(rc == 3, "run returned %d, want 3 (deadlock)", rc);
    CHECK(s.deadlocked, "deadlock flag not set");
    CHECK(s.now < 1000000000ull, "detected only at %.1f us", s.now / 1e6);
    CHECK(s.pkt_live > 0, "no packets in the network");
    CHECK(sim_check_invariants(&s, 0) == 0, "invariants broken in the deadlocked state");
    /* the summary of a deadlocked run covers the run up to the deadlock */
    result_t d;
    result_compute(&s, &d);
    CHECK(d.injected_pkts > 0 && d.generated >= d.injected_pkts && d.offered > 0.5 && d.status == 3,
          "deadlocked run reports offered %g, generated %llu, injected %llu", d.offered,
          (unsigned long long)d.generated, (unsigned long long)d.injected_pkts);
    sim_free(&s);
    cfg_free(&c);
    /* the same network with D-mod-K does not deadlock under the same load */
    result_t r;
    int ok = tsim_run_checked(cyclic_ini, NULL, &r);
    CHECK(ok == 0, "D-mod-K run returned %d", ok);
}

/* A deadlock in the warm-up ends the run there: timeseries.csv stops at that
 * instant, its last bin no longer than the run and its rates over that bin's
 * own length (the run ended within it), not over the warm-up's. */
TEST(deadlock_in_warmup_ends_the_time_series)
{
    static const char *const sets[] = { "time.warmup=2ms", "time.measure=1ms", "time.interval=10us", NULL };
    sim_t s;
    cfg_t c;
    CHECK(run_cyclic(&s, &c, sets) == 3 && s.end < s.warmup, "want a deadlock in the warm-up; ended at %.1f us", s.end / 1e6);
    char path[64], line[256];
    snprintf(path, sizeof path, "/tmp/icnsim-deadlock-ts-%d.csv", (int)getpid());
    write_timeseries(&s, path);
    FILE *f = fopen(path, "r");
    double a = 0, b = 0;
    int rows = 0;
    if (f && fgets(line, sizeof line, f))   /* the header */
        while (fgets(line, sizeof line, f)) rows += sscanf(line, "%lf,%lf", &a, &b) == 2;
    if (f) fclose(f);
    unlink(path);
    uint32_t want = (uint32_t)((s.end + s.st.interval - 1) / s.st.interval);
    CHECK(rows == (int)want && fabs(b - s.end / 1e6) < 1e-3, "%d rows ending at %.3f us; the run ended at %.3f us in bin %u",
          rows, b, s.end / 1e6, want);
    sim_free(&s);
    cfg_free(&c);
}
