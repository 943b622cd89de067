/* Hostile input and faults: every case gets a clear error (exit 2 for bad
 * input, 1 for I/O and internal errors, naming the path) or the right
 * result; never a crash, a hang, or a silently cut file. */
#include "test.h"
#include "util.h"
#include "../src/core/util.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Absolute: the commands run in the temporary directory. */
static const char *bin(void)
{
    static char path[4096];
    if (!path[0] && !realpath(icnsim_bin(), path)) abort();
    return path;
}

static char dir[256];

static const char *tmp(void) { return test_tmpdir(dir, sizeof dir, "hard"); }

static void put(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp(), name);
    FILE *f = fopen(path, "w");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
}

/* Run "icnsim ARGS" inside the temporary directory; check status and message. */
static void expect(const char *args, int status, const char *needle)
{
    char cmd[2048], out[8192];
    snprintf(cmd, sizeof cmd, "cd %s && timeout 60 %s %s", tmp(), bin(), args);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == status, "'%s' exited %d, want %d: %s", args, rc, status, out);
    CHECK(!needle || strstr(out, needle), "'%s': message lacks '%s': %s", args, needle, out);
}

/* A tiny run: 4-ary 2-stage RLFT, 20 us. */
#define TINY "-q -s topology.k=2 -s topology.stages=2 -s time.warmup=5us -s time.measure=15us"

TEST(hard_config_files_and_includes)
{
    put("self.ini", "include = self.ini\n");
    expect("run self.ini -q", 2, "include cycle: self.ini includes ./self.ini");
    put("a.ini", "include = b.ini\n");
    put("b.ini", "load = 0.3\ninclude = a.ini\n");
    expect("run a.ini -q", 2, "b.ini:2: include cycle");
    put("dir-inc.ini", "include = .\n");
    expect("run dir-inc.ini -q", 2, "dir-inc.ini:1: './.' is a directory");
    expect("run . -q", 2, "is a directory");
    expect("run /dev/zero -q", 2, "larger than 1 MiB");
    put("deep0.ini", "include = deep1.ini\n");   /* a chain, not a cycle, deeper than allowed */
    for (int i = 1; i < 20; i++) {
        char n[32], t[64];
        snprintf(n, sizeof n, "deep%d.ini", i);
        snprintf(t, sizeof t, "include = deep%d.ini\n", i + 1);
        put(n, t);
    }
    put("deep20.ini", "load = 0.2\n");
    expect("run deep0.ini -q", 2, "nested more than 16 deep");
}

TEST(hard_output_directory_checked_before_the_run)
{
    /* a run that would take minutes: the error must come first */
    expect("run -q -o '' -s time.measure=100ms", 2, "results directory name is empty");
    put("plainfile", "x\n");
    expect("run -q -o plainfile -s time.measure=100ms", 2, "'plainfile': Not a directory");
    expect("sweep -q -o plainfile/sub -s load=0.1,0.2 -s time.measure=100ms", 2, "plainfile/sub");
}

TEST(hard_values_bounded_so_time_advances)
{
    expect("run " TINY " -s link.bandwidth=1e300Tbps", 2, "link.bandwidth");
    expect("run " TINY " -s link.bandwidth=1e-300bps", 2, "link.bandwidth");
    expect("run -q -s time.warmup=1e19", 2, "time too large");
    expect("run -q -s time.warmup=9e18", 2, "time too large");
    expect("run -q -s time.measure=2e18", 2, "time too large");
    expect("run " TINY " -s load=1e-300 -o tiny-load", 0, NULL);   /* no source ever fires; no cast overflows */
    expect("run " TINY " -s load=1e-300 -s traffic.process=poisson -o tiny-load-p", 0, NULL);
    expect("sweep " TINY " -s load=nan:0.1:1", 2, "load");
    expect("sweep " TINY " -s load=0.1:nan:1", 2, "load");
    expect("sweep " TINY " -s load=inf,0.5", 2, "load");
    expect("run " TINY " -s load=0.2 -s load=0.3", 2, "given twice");
    expect("sweep " TINY " -s load=0.2,0.4 -s load=0.3,0.5", 2, "given twice");
    expect("run -q -s output.occupancy=yes -s time.interval=1ns -s time.measure=9ms -s time.warmup=0 "
           "-s topology.k=12", 2, "output.occupancy");
}

TEST(hard_setup_errors_exit_2_even_under_leak_checks)
{
    /* the sanitizer build runs this too: a leak at exit would turn 2 into 1 */
    expect("run " TINY " -s traffic.scenario=hotspot -s traffic.hs_nodes=99999", 2, "not a node id");
    expect("run " TINY " -s traffic.scenario=hotspot -s traffic.hs_nodes='1 2'", 2, "both map to node");
    expect("run " TINY " -s output.occupancy=yes -s switch.model=flit -s topology.type=torus -s routing.algorithm=dor -s traffic.scenario=none", 2,
           "packet-level");
    expect("run " TINY " -s topology.type=ibnetdiscover -s routing.algorithm=lft -s ib.net_file=/dev/null", 2, "no switches");
    /* a directory read as an input file fails to read: an error, not an empty file */
    char d[512];
    snprintf(d, sizeof d, "%s/adir", tmp());
    mkdir(d, 0755);
    static const char *const dirs[] = { "run " TINY " -s cc.mode=iba -s cc.cct=file -s cc.cct_file=adir",
                                        "run " TINY " -s topology.type=ibnetdiscover -s routing.algorithm=lft -s ib.net_file=adir",
                                        "run " TINY " -s routing.algorithm=lft -s ib.engine=file -s ib.lft_file=adir",
                                        "run -q -s topology.k=2 -s topology.stages=2 -s time.warmup=0 -s workload.source=pingpong "
                                        "-s workload.mapping=file -s workload.map_file=adir" };
    for (size_t i = 0; i < ICN_ARRAY_LEN(dirs); i++) expect(dirs[i], 2, "adir:1: the file cannot be read on");
}

TEST(hard_write_errors_fail_with_the_path)
{
    /* 1 KB file size limit: summary.csv of a run is larger */
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "cd %s && (ulimit -f 1; %s run " TINY " -o fsize2)", tmp(), bin());
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 1 && strstr(out, "fsize2/") && strstr(out, "too large"), "size limit: status %d: %s", rc, out);
    snprintf(cmd, sizeof cmd, "cd %s && ls fsize2 | grep -c tmp; ls fsize2/summary.csv", tmp());
    run_cmd(cmd, out, sizeof out);
    CHECK(!strncmp(out, "0\n", 2) && strstr(out, "No such file"), "a cut or temporary file was left: %s", out);
    snprintf(cmd, sizeof cmd, "cd %s && (ulimit -f 1; %s sweep " TINY " -s load=0.1,0.2 -o fsize3)", tmp(), bin());
    rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 1 && strstr(out, "too large"), "sweep under a size limit: status %d: %s", rc, out);
}

TEST(hard_hot_spot_window_on_a_permutation)
{
    /* a source with a role outside its window follows the pattern: a fixed
     * point of the permutation must not be given such a role */
    expect("run -q -o fp -s topology.k=4 -s traffic.pattern=bitrev -s traffic.hs_start=2us -s time.measure=8us", 0, NULL);
    expect("run -q -o fp2 -s topology.k=4 -s traffic.pattern=bitrev -s traffic.scenario=ihs -s traffic.hs_end=5us "
           "-s time.measure=8us -s output.destmap=yes", 0, NULL);
}

TEST(hard_pattern_with_no_sender_refused)
{
    /* every node a fixed point: the run would offer nothing whatever the load */
    expect("run " TINY " -s traffic.scenario=none -s traffic.pattern=shift -s traffic.shift=8 -o fx1", 2, "no node would send");
    expect("run " TINY " -s traffic.scenario=none -s traffic.pattern=shift -s traffic.shift=-16 -o fx2", 2, "key 'traffic.shift'");
    put("torus2.ini", "[topology]\ntype = torus\nk = 2\nn = 2\n[routing]\nalgorithm = dor\n[traffic]\npattern = tornado\n");
    expect("run -q torus2.ini -s time.warmup=0 -s time.measure=5us -o fx3", 2, "key 'traffic.pattern' = 'tornado'");
    /* ... unless a scenario gives some of them a role, or nothing is asked */
    expect("run " TINY " -s traffic.pattern=shift -s traffic.shift=0 -s traffic.scenario=hs25-1 -o fx4", 0, NULL);
    expect("run " TINY " -s traffic.scenario=none -s traffic.pattern=shift -s traffic.shift=0 -s load=0 -o fx5", 0, NULL);
}

TEST(hard_hot_spot_scenario_with_no_source_refused)
{
    /* 10 % of 4 nodes rounds to no source; a region that covers the torus
     * leaves none outside it; a source box inside the region has none */
    expect("run -q -s topology.k=2 -s topology.stages=1 -s time.warmup=0 -s time.measure=5us -o ns1", 2, "key 'traffic.hs_fraction'");
    put("t44.ini", "[topology]\ntype = torus\nk = 4\nn = 2\n[routing]\nalgorithm = dor-dateline\n[switch]\nvcs = 2\n"
                   "[traffic]\nscenario = hs-region\n[time]\nwarmup = 0\nmeasure = 5us\n");
    expect("run -q t44.ini -s traffic.hs_radius=4 -o ns2", 2, "key 'traffic.hs_fraction'");
    expect("run -q t44.ini -s traffic.hs_radius=2 -s traffic.hs_sources=1,1 -o ns3", 2, "key 'traffic.hs_sources'");
    expect("run -q t44.ini -s traffic.hs_sources=1,1 -o ns4", 0, NULL);
    expect("run -q t44.ini -s traffic.hs_sources=1,9 -o ns5", 2, "key 'traffic.hs_sources'");   /* parsed before any allocation */
    /* no source asked for: a baseline, not a contradiction */
    expect("run " TINY " -s traffic.scenario=hotspot -s traffic.hs_fraction=0 -o ns6", 0, NULL);
}

TEST(hard_watchdog_fires_when_time_stops)
{
    const char *ini = "load = 0.9\n[time]\nwarmup = 0\nmeasure = 50us\n[topology]\nk = 2\nstages = 2\n";
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, NULL);
    s.instant_limit = 3;   /* stands for a zero-delay loop: more events at one time than allowed */
    CHECK(sim_run(&s) == EXIT_INTERNAL, "run with events piling up at one instant did not stop");
    sim_free(&s);
    cfg_free(&c);
    tsim_setup(&s, &c, ini, NULL);   /* and the limit computed by set-up lets a normal run through */
    CHECK(sim_run(&s) == EXIT_OK, "normal run stopped");
    sim_free(&s);
    cfg_free(&c);
}

TEST(hard_invariant_check_catches_a_broken_credit)
{
    const char *ini = "load = 0.9\n[time]\nwarmup = 0\nmeasure = 20us\n[topology]\nk = 2\nstages = 2\n";
    const char *const sets[] = { "check.invariants=yes", "check.every=100", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, sets);
    CHECK(sim_run(&s) == EXIT_OK, "clean run failed its invariant checks");
    *credit(&s, s.nic[0].port, 0) += 1;   /* one byte of credit out of nowhere */
    CHECK(sim_drain(&s, 20000000) == EXIT_INTERNAL, "a broken credit counter was not caught");
    sim_free(&s);
    cfg_free(&c);
}

/* A shell command in the temporary directory; its output into out. */
static int sh(const char *what, char *out, size_t n)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && %s", tmp(), what);
    return run_cmd(cmd, out, n);
}

TEST(hard_a_reused_directory_keeps_no_file_of_the_run_before)
{
    char out[8192];
    /* a run with a view, then one without it: the view's files must go */
    expect("run " TINY " -s views.latency=true -s output.plots=no -o reuse", 0, NULL);
    sh("ls reuse/latency.csv", out, sizeof out);
    CHECK(!strstr(out, "No such"), "the first run wrote no latency.csv: %s", out);
    expect("run " TINY " -s output.timeseries=false -s output.plots=no -o reuse", 0, NULL);
    int rc = sh("ls reuse | grep -c -e latency -e timeseries", out, sizeof out);
    CHECK(rc == 1 && !strncmp(out, "0\n", 2), "files of the run before remain: %s", out);
    /* a run cut short by an I/O error leaves no summary of the run before beside its own files */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "(ulimit -f 1; %s run " TINY " -s load=0.7 -o reuse) >/dev/null 2>&1; ls reuse/summary.csv", bin());
    sh(cmd, out, sizeof out);
    CHECK(strstr(out, "No such file"), "a cut run left the summary of the run before: %s", out);
}

TEST(hard_output_files_that_are_links_or_devices)
{
    char out[8192], cmd[1024];
    /* a pipe (as a device) is written in place, never replaced by a file */
    snprintf(cmd, sizeof cmd, "rm -f pipe.lfts got.txt && mkfifo pipe.lfts && { timeout 20 cat pipe.lfts > got.txt & } && "
             "timeout 20 %s run " TINY " -s routing.algorithm=lft -s ib.write_lfts=pipe.lfts -o dev && wait && test -p pipe.lfts && "
             "grep -c 'Unicast lids' got.txt", bin());
    int rc = sh(cmd, out, sizeof out);
    CHECK(rc == 0 && atoi(out) > 0, "a pipe as the output file: status %d, %s", rc, out);
    /* a symbolic link: the file it names is replaced, the link stays */
    sh("echo old > real.lfts && ln -sf real.lfts link.lfts", out, sizeof out);
    snprintf(cmd, sizeof cmd, "%s run " TINY " -s routing.algorithm=lft -s ib.write_lfts=link.lfts -o dev && "
             "test -L link.lfts && grep -c 'Unicast lids' real.lfts", bin());
    rc = sh(cmd, out, sizeof out);
    CHECK(rc == 0 && atoi(out) > 0, "link: status %d, %s", rc, out);
    /* standard output that cannot be written is an error */
    snprintf(cmd, sizeof cmd, "{ %s --default-config >/dev/full; } 2>&1", bin());
    rc = sh(cmd, out, sizeof out);
    CHECK(rc == 1 && strstr(out, "standard output"), "stdout on /dev/full: status %d, %s", rc, out);
}

TEST(hard_a_run_does_not_replace_a_sweep)
{
    expect("sweep " TINY " -s output.plots=no -s load=0.1,0.2 -o swp", 0, NULL);
    expect("run " TINY " -s load=0.9 -o swp", 2, "holds a sweep");
    /* the sweep resumes as it was, wherever its directory is named from */
    expect("sweep " TINY " -s load=0.1,0.2 -o ./swp", 0, NULL);
    expect("sweep " TINY " -s load=0.1,0.2 -s output.plots=auto -o swp", 0, NULL);
    /* points of an ini file are not the embedded default's, whose unset keys are exempt from the comparison */
    put("noscen.ini", "load = 0.5\n");
    expect("sweep noscen.ini " TINY " -s output.plots=no -s load=0.1,0.2 -o swp2", 0, NULL);
    expect("sweep " TINY " -s output.plots=no -s load=0.1,0.2 -o swp2", 2, "configuration 'noscen' there, 'default' in this sweep");
}

TEST(hard_values_config_ini_could_not_give_back)
{
    expect("run " TINY " -s 'output.dir=res #1'", 2, "after a blank");
    expect("run " TINY " -s 'traffic.hs_nodes=#1'", 2, "at its start");
    /* a range of large integers stays exact */
    expect("sweep " TINY " -s output.plots=no -s seed=1000000000000000:1:1000000000000001 -o bigseed", 0, NULL);
    char out[8192];
    sh("grep -c 1000000000000001 bigseed/summary.csv", out, sizeof out);
    CHECK(atoi(out) == 1, "the seeds were not kept exactly: %s", out);
}

TEST(hard_empty_value_restores_the_default_and_root_indices_are_decimal)
{
    /* a file's key that a change on the command line leaves without effect
     * can be given back its default there (docs/INFINIBAND.md's engine switch) */
    put("root.ini", "[ib]\nroot = 3\n");
    expect("run root.ini " TINY, 2, "ib.root");
    expect("run root.ini " TINY " -s ib.root= -o unset", 0, NULL);
    /* switch indices are decimal: 010 is ten, and 0x3 or 08x are refused */
    const char *T = "-q -s load=0 -s time.warmup=1us -s time.measure=2us -s topology.type=torus -s topology.k=5 "
                    "-s topology.n=2 -s routing.algorithm=lft -s ib.engine=updn -s traffic.scenario=none";
    char args[1024], out[8192];
    snprintf(args, sizeof args, "run %s -s ib.root=010 -s ib.write_lfts=r010.lft -o r1", T);
    expect(args, 0, NULL);
    snprintf(args, sizeof args, "run %s -s ib.root=10 -s ib.write_lfts=r10.lft -o r2", T);
    expect(args, 0, NULL);
    snprintf(args, sizeof args, "run %s -s ib.root=8 -s ib.write_lfts=r8.lft -o r3", T);
    expect(args, 0, NULL);
    int same10 = sh("cmp r010.lft r10.lft", out, sizeof out) == 0, same8 = sh("cmp r010.lft r8.lft", out, sizeof out) == 0;
    CHECK(same10 && !same8, "ib.root=010 routed as %s", same8 ? "8" : "neither 10 nor 8");
    snprintf(args, sizeof args, "run %s -s ib.root=0x3", T);
    expect(args, 2, "decimal");
    snprintf(args, sizeof args, "run %s -s ib.root=08x", T);
    expect(args, 2, "decimal");
}

TEST(hard_a_pipe_as_a_trace_is_refused_not_waited_on)
{
    /* opening a pipe waits for a writer: it must be refused before */
    char out[512];
    sh("rm -f fifo.dim && mkfifo fifo.dim", out, sizeof out);
    expect("run -q -s topology.k=2 -s topology.stages=2 -s time.warmup=0 -s workload.source=dimemas -s workload.trace=fifo.dim",
           2, "not a regular file");
}

TEST(hard_policy_choices_that_would_do_nothing_are_refused)
{
    static const struct { const char *args, *needle; int status; } cases[] = {
        /* K/K: one candidate port, a deterministic routing under an adaptive name */
        { "-s routing.algorithm=ADAP-2TH-S-K/6", "K/6 leaves one candidate port of K = 6", 2 },
        /* AFI on one switch: no upward choice, yet its VC would halve the buffers */
        { "-s topology.stages=1 -s routing.algorithm=afi -s switch.vcs=2", "no upward choice for AFI", 2 },
        /* voqsw: VCs past the radix are never used */
        { "-s queuing.scheme=voqsw -s switch.vcs=16", "at most 12 outputs", 2 },
        { "-s queuing.scheme=voqsw -s switch.vcs=12 -o voqsw12", NULL, 0 },
        /* voqnet's queues are queuing.queue_size each */
        { "-s topology.k=3 -s queuing.scheme=voqnet -s switch.buffer=8KB", "voqnet's switch queues take queuing.queue_size", 2 },
        /* one crossbar input per queue: no arbiter */
        { "-s topology.k=3 -s switch.crossbar=queue -s switch.vcs=3 -s queuing.scheme=dbbm -s switch.arbiter=rr", "switch.arbiter", 2 },
        { "-s topology.k=3 -s switch.crossbar=queue -s switch.vcs=3 -s queuing.scheme=dbbm -s switch.islip_iterations=2",
          "switch.islip_iterations", 2 },
        /* the flit model's per-hop VC allocation would drop a per-hop queuing rule */
        { "-s topology.k=3 -s switch.model=flit -s switch.vcs=3 -s queuing.scheme=voqsw", "set router.vc_alloc = static", 2 },
        { "-s topology.k=3 -s switch.model=flit -s switch.vcs=3 -s queuing.scheme=voqsw -s router.vc_alloc=static -o flitvoqsw", NULL, 0 },
    };
    for (size_t i = 0; i < ICN_ARRAY_LEN(cases); i++) {
        char a[1024];
        snprintf(a, sizeof a, "run -q -s time.warmup=2us -s time.measure=5us -s traffic.scenario=none -s output.plots=no %s",
                 cases[i].args);
        expect(a, cases[i].status, cases[i].needle);
    }
}

TEST(hard_sweep_value_twice_and_failed_plots_leave_no_image)
{
    expect("sweep " TINY " -s seed=3,4,3", 2, "a value given twice in the list");
    expect("run " TINY " -s time.interval=250ps", 2, "whole number of nanoseconds");
    /* a gnuplot that fails after creating its image: the run warns, with gnuplot's own message, and leaves no image
     * nor gnuplot's log */
    char out[8192], cmd[1024];
    sh("mkdir -p fakebin && printf '#!/bin/sh\\necho gnuplot-says-no >&2\\n: > timeseries.png\\nexit 1\\n' > fakebin/gnuplot && "
       "chmod +x fakebin/gnuplot", out, sizeof out);
    snprintf(cmd, sizeof cmd, "PATH=$PWD/fakebin:$PATH %s run " TINY " -s output.plots=yes -o badplot 2>&1; ls -A badplot", bin());
    sh(cmd, out, sizeof out);
    CHECK(strstr(out, "gnuplot failed") && strstr(out, "  gnuplot-says-no") && !strstr(out, "timeseries.png") &&
          !strstr(out, ".log"), "%s", out);
    /* one that only warns: the run says nothing of it */
    sh("mkdir -p warnbin && printf '#!/bin/sh\\necho gnuplot-warns >&2\\n: > timeseries.png\\n' > warnbin/gnuplot && "
       "chmod +x warnbin/gnuplot", out, sizeof out);
    snprintf(cmd, sizeof cmd, "PATH=$PWD/warnbin:$PATH %s run " TINY " -q -s output.plots=yes -o warnplot 2>&1; ls -A warnplot", bin());
    sh(cmd, out, sizeof out);
    CHECK(!strstr(out, "gnuplot-warns") && strstr(out, "timeseries.png") && !strstr(out, ".log"), "%s", out);
    /* a trace of more tasks than nodes, with one rank per node */
    put("five.dim", "#DIMEMAS:\"t\":1,0:5(1,1,1,1,1),0\n1:0:0:0.1\n1:1:0:0.1\n1:2:0:0.1\n1:3:0:0.1\n1:4:0:0.1\n");
    expect("run -q -s topology.k=2 -s topology.stages=1 -s time.warmup=0 -s traffic.scenario=none -s workload.source=dimemas "
           "-s workload.trace=five.dim", 2, "five.dim:1: the header declares 5 tasks, more than the network's 4 nodes");
    /* without a header: refused at the first task beyond the nodes, before the tasks up to it take memory */
    put("far.dim", "1:0:0:0.1\n1:3999999:0:0.1\n");
    expect("run -q -s topology.k=2 -s topology.stages=1 -s time.warmup=0 -s traffic.scenario=none -s workload.source=dimemas "
           "-s workload.trace=far.dim -s workload.ranks=2", 2, "far.dim:2: task 3999999 is one of at least 4000000 tasks; workload.ranks is 2");
}

TEST(hard_views_with_nothing_to_draw_do_not_fail_gnuplot)
{
    /* no packet in the series, a pair that delivered nothing, an occupancy matrix without rows */
    static const char *const sets[] = { "-s load=0 -s views.latency=true -s time.interval=2us",
                                        "-s load=0.3 -s views.pairs=3:3 -s time.interval=2us",
                                        "-s load=0.3 -s time.interval=30us -s output.occupancy=true" };
    for (size_t i = 0; i < ICN_ARRAY_LEN(sets); i++) {
        char a[512];
        snprintf(a, sizeof a, "run " TINY " -s traffic.scenario=none -s output.plots=auto %s -o nodraw%zu", sets[i], i);
        char cmd[2048], out[8192];
        snprintf(cmd, sizeof cmd, "cd %s && timeout 60 %s %s", tmp(), bin(), a);
        int rc = run_cmd(cmd, out, sizeof out);
        CHECK(rc == 0 && !strstr(out, "gnuplot failed"), "'%s': status %d: %s", a, rc, out);
    }
}

/* The repository, for configurations named from the temporary directory. */
static const char *repo(void)
{
    static char path[4096];
    if (!path[0] && !realpath(".", path)) abort();
    return path;
}

TEST(hard_flit_router_bounds_and_torus_keys)
{
    static const struct { const char *args, *needle; int status; } cases[] = {
        /* a flit in under a picosecond: the injection slot would round to 0 (SIGFPE, or an endless loop) */
        { "-s router.cycle=1ps -s link.width=64 -s load=1.0 -s time.warmup=0 -s time.measure=1ns", "less than a picosecond", 2 },
        /* a VC ring per router input past any memory */
        { "-s switch.buffer=4000000000B", "at most 2^24 per VC", 2 },
        /* every message long: message_size is unused, so not checked against the flit */
        { "-s link.phit=3B -s packet.mtu=60B -s traffic.long_fraction=1 -s traffic.long_size=60B -s switch.buffer=480B "
          "-s traffic.message_size= -s time.measure=5us -o flitlong", NULL, 0 },
        /* an output already sends its link's flits per cycle: the speedup would be clamped away */
        { "-s router.output_speedup=1", "router.output_speedup", 2 },
        /* one VC, one candidate: every head asks for one output VC */
        { "-s topology.type=mesh -s routing.algorithm=dor -s switch.vcs=1 -s switch.buffer=160B -s router.vc_allocator=output-first",
          "every head asks for one output VC", 2 },
        /* a 5-ary torus has no tie for routing.tie to break */
        { "-s topology.k=5 -s routing.tie=plus", "routing.tie", 2 },
        /* the key the user gave is the one named */
        { "-s topology.k= -s topology.n= -s topology.shape=4x4x2x2 -s routing.algorithm=duato -s switch.vcs=3",
          "key 'topology.shape' = '4x4x2x2': duato supports up to 3 dimensions", 2 },
    };
    for (size_t i = 0; i < ICN_ARRAY_LEN(cases); i++) {
        char a[1024];
        snprintf(a, sizeof a, "run %s/experiments/seed004/vc-dor.ini -q -s output.plots=no %s", repo(), cases[i].args);
        expect(a, cases[i].status, cases[i].needle);
    }
}
