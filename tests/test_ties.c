/* time.ties: the canonical order of same-time events depends on the events
 * alone. Shuffling each instant's events and the devices waiting to act
 * (check.shuffle_ties) changes nothing under it, while under insertion order
 * it changes results, so the comparison can fail. */
#include "test.h"
#include "util.h"
#include "../src/core/keysort.h"
#include "../src/core/rng.h"
#include "../src/core/util.h"
#include <stdlib.h>
#include <string.h>

TEST(keysort_sorts_stably_whatever_the_digits)
{
    enum { N = 3000 };
    static keyed_t v[N], tmp[N];
    rng_t r;
    rng_seed(&r, 7, RNG_CHECK, 99);
    /* lengths around the insertion-sort cut, and keys that differ only in
     * high, low or scattered digits, with many equal ones */
    const size_t lens[] = { 0, 1, 2, 31, 32, 33, 100, N };
    const uint64_t masks[] = { 0x3, 0xff00000000000000ull, 0x00f0000000f0000full, ~0ull };
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
        for (size_t mi = 0; mi < sizeof masks / sizeof *masks; mi++) {
            size_t n = lens[li];
            uint64_t sum = 0;
            for (size_t i = 0; i < n; i++) {
                v[i] = (keyed_t){ (rng_next(&r) & masks[mi]) | 0x0000100000000000ull, (uint32_t)i };
                sum += v[i].key;
            }
            keysort(v, tmp, n);
            int ok = 1;
            for (size_t i = 1; i < n; i++)
                if (v[i - 1].key > v[i].key || (v[i - 1].key == v[i].key && v[i - 1].idx > v[i].idx)) ok = 0;
            for (size_t i = 0; i < n; i++) sum -= v[i].key;
            CHECK(ok && sum == 0, "n %zu, mask %zu: not a stable sort of the input", n, mi);
        }
}

/* Configurations whose results depend on the order of same-time events
 * under insertion order: adaptive fat-tree routing, VOQ switches with AFI,
 * torus routings with escape VCs and bubbles, the flit-level router, IBA CC
 * with DRB over LFTs, PR-DRB. */
static const struct {
    const char *name, *ini;
    const char *sets[20];
} cases[] = {
    { "fat-tree adaptive", NULL, { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us",
                                   "routing.algorithm=ADAP-TH-1S-K", "traffic.scenario=hs25-1", NULL } },
    { "fat-tree AFI, VOQ", NULL, { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us",
                                   "routing.algorithm=afi", "switch.vcs=4", "queuing.scheme=dbbm", "switch.voq=true",
                                   "traffic.scenario=hs10-1", NULL } },
    { "torus Duato", "t4", { "time.warmup=2us", "time.measure=10us", "time.interval=2us", "routing.algorithm=duato",
                             "switch.vcs=3", "switch.buffer=480B", "load=0.4", NULL } },
    { "flit router", "experiments/seed004/vc-adaptive.ini",
      { "time.warmup=2us", "time.measure=10us", "time.interval=2us", "load=0.3", NULL } },
    { "DRB on a mesh", "t4", { "topology.k=4", "routing.algorithm=dor-msp", "link.bandwidth=2Gbps", "packet.mtu=1KB",
                               "traffic.message_size=1KB", "switch.buffer=6KB", "nic.buffer=6KB", "time.warmup=20us",
                               "time.measure=100us", "time.interval=20us", "topology.type=mesh", "switch.vcs=3",
                               "load=0.8", "traffic.pattern=bitrev", "multipath.scheme=drb", NULL } },
    { "DRB over IB with CC", "t4", { "time.warmup=2us", "time.measure=20us", "time.interval=2us", "topology.k=4",
                                     "routing.algorithm=lft", "ib.engine=dfs-disjoint", "ib.lmc=2", "switch.vcs=5",
                                     "load=0.8", "cc.mode=iba", "multipath.scheme=drb-ib", NULL } },
};

static unsigned long run(size_t i, const char *ties, int shuffle)
{
    char sh[48];
    snprintf(sh, sizeof sh, "check.shuffle_ties=%d", shuffle);
    const char *file = !cases[i].ini ? "experiments/seed002/base-432.ini"
                     : !strcmp(cases[i].ini, "t4") ? "experiments/seed004/base.ini" : cases[i].ini;
    return cli_results_digest(file, cases[i].sets, (const char *[]){ ties, sh, NULL });
}

TEST(canonical_ties_do_not_depend_on_the_scheduling_order)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned long base = run(i, "time.ties=canonical", 0);
        CHECK(base != 0, "%s: run failed", cases[i].name);
        for (int sh = 1; sh <= 2; sh++)
            CHECK(run(i, "time.ties=canonical", sh) == base, "%s: shuffle %d changes the canonical run", cases[i].name, sh);
        /* the same shuffle moves the insertion-ordered run: the comparison can fail */
        unsigned long ins = run(i, "time.ties=insertion", 0);
        CHECK(ins != 0 && run(i, "time.ties=insertion", 1) != ins, "%s: shuffling does not change the insertion-ordered run",
              cases[i].name);
    }
}

TEST(canonical_and_insertion_ties_measure_the_same_throughput)
{
    /* the orders differ, what they measure does not, beyond noise: 5 % on
     * accepted throughput and mean latency of Duato's routing on seed 004's
     * 8x8 torus near saturation */
    const char *ini = "include = experiments/seed004/base.ini\n";
    result_t r[2];
    for (int c = 0; c < 2; c++) {
        const char *sets[] = { "time.warmup=5us", "time.measure=40us", "time.interval=5us", "routing.algorithm=duato",
                               "switch.vcs=3", "switch.buffer=480B", "load=0.4",
                               c ? "time.ties=canonical" : "time.ties=insertion", NULL };
        CHECK(tsim_run_checked(ini, sets, &r[c]) == 0, "run %d failed", c);
    }
    CHECK_NEAR(r[1].accepted, r[0].accepted, 0.05 * r[0].accepted, "canonical accepted");
    CHECK_NEAR(r[1].lat_mean, r[0].lat_mean, 0.05 * r[0].lat_mean, "canonical mean latency");
    CHECK(memcmp(&r[0], &r[1], sizeof r[0]), "the two orders gave identical results: the case does not tell them apart");
}
