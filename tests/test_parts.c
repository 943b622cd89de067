/* time.parts: the network split into parts that run window after window,
 * taking turns or on threads, gives the canonical sequential run's results
 * byte for byte, for any number of parts and threads; what it cannot split
 * yet is refused. */
#include "test.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name, *file;
    const char *sets[20];
    int drain;   /* run with the drain too */
} cases[] = {
    { "fat-tree D-mod-K, 1Q, HS10-1", "experiments/seed002/base-432.ini",
      { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "traffic.scenario=hs10-1", NULL }, 1 },
    { "fat-tree adaptive, HS25-1", "experiments/seed002/base-432.ini",
      { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "routing.algorithm=ADAP-TH-1S-K",
        "traffic.scenario=hs25-1", NULL }, 1 },
    { "vFtree-SD, 2TH, VOQ", "experiments/seed002/base-432.ini",
      { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "routing.algorithm=ADAP-2TH-S-K",
        "queuing.scheme=vftree-sd", "switch.vcs=3", "switch.voq=true", "traffic.scenario=hs10-4", NULL }, 1 },
    { "fat-tree adaptive, messages of 4 packets", "experiments/seed002/base-432.ini",
      { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "routing.algorithm=ADAP-TH-1S-K",
        "traffic.scenario=hs10-1", "traffic.message_size=16KB", NULL }, 0 },
    { "vFtree-SD, 2TH, every view", "experiments/seed002/base-432.ini",
      { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "routing.algorithm=ADAP-2TH-S-K",
        "queuing.scheme=vftree-sd", "switch.vcs=3", "traffic.scenario=hs10-4", "output.destmap=true", "output.links=true",
        "output.occupancy=true", "views.router_wait=true", "views.link_load=true", "views.port_counters=true",
        "views.latency=true", "views.top_pairs=5", NULL }, 0 },
    { "torus Duato", "experiments/seed004/base.ini",
      { "time.warmup=2us", "time.measure=10us", "time.interval=2us", "routing.algorithm=duato", "switch.vcs=3",
        "switch.buffer=480B", "load=0.6", NULL }, 1 },
    { "torus bubble, tornado", "experiments/seed004/bubble-dor.ini",
      { "time.warmup=2us", "time.measure=10us", "time.interval=2us", "traffic.pattern=tornado", "load=1.0",
        "link.delay=2ns", "routing.bubble=remote", NULL }, 0 },   /* the seed's zero delay leaves no lookahead; the local rule is not split */
    { "fat-tree D-mod-K, uniform 0.5", "experiments/seed002/base-432.ini",
      { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "traffic.scenario=none", "load=0.5",
        NULL }, 1 },
    { "fat-tree D-mod-K, load 0.001: all in at the window's end", "experiments/seed002/base-432.ini",
      { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "traffic.scenario=none", "load=0.001",
        NULL }, 1 },
};

/* Each case without the drain, then those marked with it (time.drain =
 * true, the default): the saturated ones run the drain to its bound, the
 * torus and the uniform fat-tree end it with the window in which the whole
 * network's count of the measurement window's packets is reached, which the
 * parts learn only between windows, and the lightest has them all in when
 * the window ends. */
TEST(parts_give_the_sequential_results)
{
    static const char *const drains[] = { "time.drain=false", "time.drain=true" };
    for (size_t j = 0; j < 2; j++)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            if (j && !cases[i].drain) continue;
            unsigned long seq = cli_counts_digest(cases[i].file, cases[i].sets,
                                                   (const char *[]){ "time.ties=canonical", drains[j], NULL });
            CHECK(seq != 0, "%s, %s: sequential run failed", cases[i].name, drains[j]);
            if (!seq) continue;
            /* the parts taking turns, then on threads (more threads than cores too) */
            static const char *const parts[][2] = { { "time.parts=2", "time.threads=1" }, { "time.parts=3", "time.threads=1" },
                                                     { "time.parts=7", "time.threads=1" }, { "time.parts=2", "time.threads=2" },
                                                     { "time.parts=5", "time.threads=3" }, { "time.parts=4", "time.threads=4" } };
            for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
                unsigned long d = cli_counts_digest(cases[i].file, cases[i].sets, (const char *[]){
                    "time.ties=canonical", drains[j], parts[k][0], parts[k][1], NULL });
                CHECK(d == seq, "%s, %s, %s, %s: results differ from the sequential run's", cases[i].name, drains[j], parts[k][0],
                      parts[k][1]);
            }
        }
}

/* A part on a thread takes packet and message records from its own list,
 * topped up between windows to what it may take in one: messages whose last
 * packet is short (a NIC then starts more packets per window), and Poisson
 * sources with per-VC source queues (many messages generated in one window,
 * each with a record were it taken at generation) must not run a part dry. */
TEST(parts_records_last_a_window)
{
    static const char *const runs[][12] = {
        { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "traffic.message_size=4097B",
          "link.delay=2us", NULL },
        { "topology.k=4", "time.warmup=10us", "time.measure=30us", "queuing.scheme=vftree-sd", "switch.vcs=3",
          "routing.algorithm=ADAP-2TH-S-K", "traffic.process=poisson", "traffic.message_size=8KB", "link.delay=320ns", NULL },
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        unsigned long seq = cli_results_digest("experiments/seed002/base-432.ini", runs[i],
                                               (const char *[]){ "time.ties=canonical", "time.drain=false", NULL });
        CHECK(seq != 0, "case %zu: sequential run failed", i);
        static const char *const parts[][2] = { { "time.parts=2", "time.threads=2" }, { "time.parts=32", "time.threads=2" } };
        for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
            unsigned long d = cli_results_digest("experiments/seed002/base-432.ini", runs[i], (const char *[]){
                "time.ties=canonical", "time.drain=false", parts[k][0], parts[k][1], NULL });
            CHECK(d == seq, "case %zu, %s, %s: failed or differs from the sequential run", i, parts[k][0], parts[k][1]);
        }
    }
}

/* What the partitioned loop cannot split yet: a clear error, exit 2. */
/* check.invariants in a partitioned run: the whole network's invariants
 * between windows, over every part's queue and the parts' counts; they hold
 * in a clean run, change nothing, and catch a planted credit (parts taking
 * turns, and on threads). */
TEST(parts_check_invariants_between_windows)
{
    static const char *ini = "include = experiments/seed002/base-432.ini\n";
    const char *sets[] = { "topology.k=4", "time.warmup=10us", "time.measure=30us", "time.interval=5us", "routing.algorithm=ADAP-TH-1S-K",
                           "traffic.scenario=hs25-1", "time.ties=canonical", "time.drain=false", "time.parts=3", NULL, NULL, NULL, NULL };
    static const char *const threads[] = { "time.threads=1", "time.threads=2" };
    for (int k = 0; k < 2; k++) {
        sets[9] = threads[k];
        unsigned long plain = cli_counts_digest("experiments/seed002/base-432.ini", sets, NULL);
        sets[10] = "check.invariants=yes";
        sets[11] = "check.every=100";
        unsigned long checked = cli_counts_digest("experiments/seed002/base-432.ini", sets, NULL);
        CHECK(plain && checked == plain, "%s: with the checks the run failed or its results changed", threads[k]);
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, sets);
        CHECK(sim_run(&s) == EXIT_OK, "%s: a clean run failed its invariant checks", threads[k]);
        *credit(&s, s.nic[0].port, 0) += 1;   /* one byte of credit out of nowhere */
        CHECK(sim_drain(&s, 20000000) == EXIT_INTERNAL, "%s: a broken credit counter was not caught", threads[k]);
        sim_free(&s);
        cfg_free(&c);
        sets[10] = sets[11] = NULL;
    }
}

/* sim_drain (the tests' empty-the-network step) after a run with the
 * drain: the parts run its full extra time too, and the network empties. */
TEST(parts_drain_empties_the_network_after_a_drained_run)
{
    static const char *ini = "include = experiments/seed002/base-432.ini\n";
    const char *sets[] = { "topology.k=4", "time.warmup=10us", "time.measure=20us", "load=0.6", "traffic.scenario=none",
                           "time.ties=canonical", "time.drain=true", "time.parts=2", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, sets);
    CHECK(sim_run(&s) == EXIT_OK, "the run failed");
    simtime_t from = s.now;
    CHECK(sim_drain(&s, 100000000) == EXIT_OK && s.pkt_live == 0, "%u packets still in the network %.3f us after the drain began",
          s.pkt_live, (s.now - from) / 1e6);
    sim_free(&s);
    cfg_free(&c);
}

TEST(parts_refuse_what_they_cannot_split)
{
    static const struct { const char *sets, *needle; } bad[] = {
        { "-s time.parts=2 -s time.drain=false", "time.ties = canonical" },
        { "-s time.parts=2 -s time.ties=canonical -s time.drain=false -s cc.mode=iba -s traffic.scenario=hs10-1",
          "flow transport" },
        { "-s time.parts=2 -s time.ties=canonical -s time.drain=false -s views.pdes=2", "views.pdes" },
        { "-s time.parts=2 -s time.ties=canonical -s time.drain=false -s link.delay=0", "lookahead" },
        { "-s time.parts=-1", "time.parts" },
        { "-s time.parts=2 -s time.ties=canonical -s time.drain=false -s time.threads=3", "a thread runs whole parts" },
        { "-s time.threads=2", "set it to 2 or more" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char cmd[1024], out[4096];
        snprintf(cmd, sizeof cmd, "%s run experiments/seed002/base-432.ini -s topology.k=4 -s time.measure=5us -q -o "
                 "/tmp/icnsim-parts-bad-%d %s", icnsim_bin(), (int)getpid(), bad[i].sets);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 2 && strstr(out, "time.") && strstr(out, bad[i].needle), "'%s': exit %d, %s", bad[i].sets, rc, out);
    }
    /* the local bubble counts the packets a neighbour has just sent: no lookahead to split it by */
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "%s run experiments/seed004/bubble-dor.ini -s link.delay=2ns -s time.parts=2 -s time.ties=canonical "
             "-s time.drain=false -s time.measure=5us -q -o /tmp/icnsim-parts-bad-%d", icnsim_bin(), (int)getpid());
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "time.parts") && strstr(out, "local bubble"), "local bubble in parts: exit %d, %s", rc, out);
}
