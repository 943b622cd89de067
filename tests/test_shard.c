/* Sweeps split into shards (--shard I/N, one task of a cluster array job):
 * the shards then a plain sweep give the summary of one sweep, a rerun of a
 * shard reuses its points, and bad shards exit 2. A directory holding
 * another sweep, and MPI asked of a build without it, exit 2 too, with
 * nothing written. */
#include "test.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

TEST(sweep_shards_merge_to_the_single_sweep)
{
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "shard");
    const char *sw = "./build/icnsim sweep -q -s topology.k=2 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us "
                     "-s load=0.2,0.5,0.8 -s seed=1,2";
    snprintf(cmd, sizeof cmd, "%s -o %s/one", sw, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "single sweep: %s", out);
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s -o %s/sh --shard %d/4", sw, dir, i);
        CHECK(run_cmd(cmd, out, sizeof out) == 0, "shard %d: %s", i, out);
        if (i == 0) {
            snprintf(cmd, sizeof cmd, "%s/sh/summary.csv", dir);
            FILE *f = fopen(cmd, "r");
            CHECK(!f, "a shard wrote the merged summary");
            if (f) fclose(f);
        }
    }
    snprintf(cmd, sizeof cmd, "%s -o %s/sh", sw, dir);   /* merges: every point is complete */
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "merge: %s", out);
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s/one/summary.csv", dir);
    snprintf(p2, sizeof p2, "%s/sh/summary.csv", dir);
    char *a = slurp(p1), *b = slurp(p2);
    CHECK(a && b && !strcmp(a, b), "the merged shards' summary differs from the single sweep's");
    free(a);
    free(b);
    /* a shard run again reuses its points: the merge still agrees and nothing ran twice */
    snprintf(cmd, sizeof cmd, "./build/icnsim sweep -s topology.k=2 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us "
             "-s load=0.2,0.5,0.8 -s seed=1,2 -o %s/sh --shard 1/4", dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "(2 reused)"), "rerun of shard 1: %s", out);
}

TEST(sweep_bad_shards_exit_2)
{
    const char *bad[] = { "3/2", "0/0", "-1/4", "1", "1/x", "a/4", "2/2" };
    char cmd[512], out[1024];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "./build/icnsim sweep -q -s load=0.1,0.2 -o /tmp/icnsim-never --shard %s", bad[i]);
        CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "--shard"), "--shard %s: %s", bad[i], out);
    }
    CHECK(run_cmd("./build/icnsim run -q -o /tmp/icnsim-never --shard 0/2", out, sizeof out) == 2, "run with --shard: %s", out);
}


/* Every file under dir with its size, time and checksum: equal listings
 * mean nothing was written. */
static char *snapshot(const char *dir)
{
    char cmd[600], out[1 << 15];
    snprintf(cmd, sizeof cmd, "cd %s && find . -type f -printf '%%p %%s %%T@\\n' | sort && find . -type f | sort | xargs cksum", dir);
    if (run_cmd(cmd, out, sizeof out) != 0) return NULL;
    return strdup(out);
}

/* Run cmd on sweep directory dir, which must be refused: status 2, the
 * message naming `says` (and `also`, if not NULL) and that nothing was
 * changed, and no file of dir written. */
static void expect_refused(const char *dir, const char *cmd, const char *says, const char *also, const char *label)
{
    char out[4096];
    char *before = snapshot(dir);
    CHECK(before != NULL, "no snapshot of %s", dir);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, says) && (!also || strstr(out, also)) && strstr(out, "nothing was changed"),
          "%s: status %d: %s", label, rc, out);
    char *after = snapshot(dir);
    CHECK(after && before && !strcmp(before, after), "%s: the directory changed", label);
    free(before);
    free(after);
}

TEST(sweep_refuses_a_directory_of_another_sweep)
{
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "sweepdir");
    const char *common = "sweep -q -s topology.k=2 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us";
    snprintf(cmd, sizeof cmd, "%s %s -s load=0.2,0.5 -s seed=1,2 -o %s/a", icnsim_bin(), common, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "first sweep: %s", out);
    char a[300];
    snprintf(a, sizeof a, "%s/a", dir);
    struct { const char *sets, *says; } bad[] = {
        { "-s load=0.2,0.6 -s seed=1,2", "load = 0.5 there, 0.6 in this sweep" },   /* a swept value changed */
        { "-s load=0.2,0.5 -s seed=1,2 -s traffic.scenario=none", "traffic.scenario" },   /* a fixed key changed */
        { "-s load=0.2 -s seed=1,2", "larger sweep" },     /* its first points agree, but it has fewer */
        { "-s load=0.2,0.6 -s seed=1,2 --shard 1/2", "holds another sweep" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "%s %s %s -o %s/a", icnsim_bin(), common, bad[i].sets, dir);
        expect_refused(a, cmd, bad[i].says, NULL, bad[i].sets);
    }
    /* a single run's directory is not a sweep's */
    snprintf(cmd, sizeof cmd, "%s run -q -s topology.k=2 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us -s output.plots=no -o %s/r && "
             "cp %s/r/summary.csv %s/r.csv && %s %s -s load=0.2,0.5 -o %s/r", icnsim_bin(), dir, dir, dir, icnsim_bin(), common, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "single run"), "sweep into a run's directory: %s", out);
    snprintf(cmd, sizeof cmd, "cmp %s/r/summary.csv %s/r.csv && test ! -e %s/r/points", dir, dir, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "the run's directory changed: %s", out);
    /* the same sweep extended by more values of its first key reuses its points */
    snprintf(cmd, sizeof cmd, "%s %s -s load=0.2,0.5,0.8 -s seed=1,2 -o %s/a --shard 0/1", icnsim_bin(), common, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "extended sweep: %s", out);
    snprintf(cmd, sizeof cmd, "%s sweep -s topology.k=2 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us "
             "-s load=0.2,0.5,0.8 -s seed=1,2 -o %s/a", icnsim_bin(), dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "(6 reused"), "extended sweep's merge: %s", out);
}

/* -s values of a sweep are read as icnsim run reads them: blanks around the
 * key and each value do not matter; an empty value in a list is a typo,
 * refused rather than dropped (a point fewer than written). */
TEST(sweep_values_take_blanks_and_refuse_empty_ones)
{
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "sweepvals");
    const char *common = "sweep -s topology.k=2 -s topology.stages=1 -s traffic.scenario=none -s time.warmup=0.2us "
                         "-s time.measure=1us -s output.timeseries=false";
    snprintf(cmd, sizeof cmd, "%s %s -s ' load = 0.1, 0.2 ' -s 'seed =3' -o %s/a", icnsim_bin(), common, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "2 points") && strstr(out, "\n  0.2 "), "blanks: %s", out);
    const char *bad[] = { "load=0.1,", "load=0.1,,0.2", "load=,0.2" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "%s %s -s '%s' -o %s/b", icnsim_bin(), common, bad[i], dir);
        CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "empty value"), "%s: %s", bad[i], out);
    }
    /* icnsim run: a list with blanks around its key is still a list */
    snprintf(cmd, sizeof cmd, "%s run -q -s 'load = 0.1,0.2' -o %s/c", icnsim_bin(), dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "use icnsim sweep"), "run with a list: %s", out);
}

/* A point's results depend on the input files its configuration names, not
 * on their names alone: a rerun after the rank-to-node map changed computes
 * the points again instead of reusing results of the old map. */
TEST(sweep_recomputes_points_whose_input_file_changed)
{
    char dir[128] = "", cmd[1024], out[4096], map[300];
    test_tmpdir(dir, sizeof dir, "sweepinput");
    snprintf(map, sizeof map, "%s/map.txt", dir);
    snprintf(cmd, sizeof cmd, "%s sweep -s topology.k=2 -s topology.stages=2 -s time.warmup=0 -s time.measure=1ms "
             "-s workload.source=pingpong -s workload.ranks=2 -s workload.mapping=file -s workload.map_file=%s "
             "-s workload.bytes=1KB,64KB -o %s/s", icnsim_bin(), map, dir);
    FILE *f = fopen(map, "w");
    fputs("0\n1\n", f);
    fclose(f);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "(0 reused"), "first sweep: %s", out);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "(2 reused"), "the same sweep again: %s", out);
    f = fopen(map, "w");
    fputs("0\n3\n", f);   /* rank 1 on another leaf switch */
    fclose(f);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "(0 reused"), "after the map changed: %s", out);
    snprintf(map, sizeof map, "%s/s/points/0000/workload.csv", dir);
    char *w = slurp(map);
    CHECK(w && strstr(w, "\n1,3,"), "rank 1 is not on node 3: %s", w ? w : "(no workload.csv)");
    free(w);
}

/* A build without MPI started by mpirun (its environment says how many
 * processes the job has) would run the whole sweep in every process; an MPI
 * build refuses icnsim run and -j there. Both exit 2 before writing. */
TEST(mpi_asked_of_a_build_without_it_exits_2)
{
    char cmd[1024], out[4096], dir[128] = "";
    test_tmpdir(dir, sizeof dir, "mpienv");
    snprintf(cmd, sizeof cmd, "%s --version", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "--version: %s", out);
    int mpi = strstr(out, "(MPI)") != NULL;
    const char *env[] = { "OMPI_COMM_WORLD_SIZE=3", "PMI_SIZE=2" };
    for (size_t i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s %s sweep %s -q -s load=0.1,0.2 -s time.measure=5us -o %s/x", env[i], icnsim_bin(), mpi ? "-j 2" : "", dir);
        CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, mpi ? "local workers" : "built without MPI") && strstr(out, "MPI processes"),
              "%s: %s", env[i], out);
        snprintf(cmd, sizeof cmd, "test ! -e %s/x", dir);
        CHECK(run_cmd(cmd, out, sizeof out) == 0, "%s: something was written", env[i]);
    }
    /* a job of one process is no MPI sweep: it runs as without mpirun */
    snprintf(cmd, sizeof cmd, "OMPI_COMM_WORLD_SIZE=1 %s sweep -q -s topology.k=2 -s topology.stages=2 -s time.warmup=1us "
             "-s time.measure=5us -s load=0.1,0.2 -o %s/one", icnsim_bin(), dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "a one-process job: %s", out);
}

/* A sweep's -s settings as a user means them: its output.dir is where it
 * writes, a range keeps every digit (seeds past 10^10), a name key such as
 * routing.when sweeps as a list, and a point whose config.ini holds a value
 * of any length is found again on a rerun. */
TEST(sweep_settings_taken_at_their_word)
{
    char dir[128] = "", cmd[8192], out[4096];
    test_tmpdir(dir, sizeof dir, "sweepset");
    const char *common = "sweep -q -s topology.k=2 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us";
    snprintf(cmd, sizeof cmd, "cd %s && %s/%s %s -s load=0.2,0.5 -s output.dir=%s/named && test -s %s/named/summary.csv "
             "&& test ! -e results", dir, getenv("PWD"), icnsim_bin(), common, dir, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "a sweep's -s output.dir: %s", out);
    snprintf(cmd, sizeof cmd, "%s %s -s seed=10000000000:1:10000000001 -o %s/seeds && "
             "grep -c ',1000000000[01],' %s/seeds/summary.csv | grep -qx 2", icnsim_bin(), common, dir, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "a range of seeds past 10^10: %s", out);
    snprintf(cmd, sizeof cmd, "%s %s -s routing.when=head,arrival -o %s/when && grep -c ',arrival,\\|,head,' %s/when/summary.csv "
             "| grep -qx 2", icnsim_bin(), common, dir, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "routing.when swept: %s", out);
    /* views.pairs of 900 pairs of a 32-node tree, from a file: a config.ini line of about 5 KB */
    char ini[300];
    snprintf(ini, sizeof ini, "%s/long.ini", dir);
    FILE *f = fopen(ini, "w");
    CHECK(f != NULL, "cannot write %s", ini);
    if (!f) return;
    fputs("[views]\npairs = ", f);
    for (int i = 0, k = 0; k < 900; i++)
        if (i / 32 != i % 32) fprintf(f, "%s%d:%d", k++ ? "," : "", i / 32, i % 32);
    fputs("\n", f);
    fclose(f);
    const char *tree = "-s topology.k=4 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us -s load=0.2,0.5";
    snprintf(cmd, sizeof cmd, "%s sweep %s -q %s -o %s/long", icnsim_bin(), ini, tree, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "a sweep with a long views.pairs: %.300s", out);
    snprintf(cmd, sizeof cmd, "%s sweep %s %s -o %s/long", icnsim_bin(), ini, tree, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "(2 reused"), "the long-valued points were not reused: %.300s", out);
}

/* Points whose input file differs (another trace) are another sweep's: the
 * directory is refused, not recomputed over. */
TEST(sweep_refuses_points_of_another_input_file)
{
    char dir[128] = "", cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "sweepin");
    const char *common = "sweep -q -s time.warmup=0 -s time.measure=200us -s workload.source=dimemas -s seed=1,2";
    snprintf(cmd, sizeof cmd, "%s %s -s workload.trace=tests/dimemas/ring.dim -o %s/a", icnsim_bin(), common, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "first sweep: %s", out);
    char a[300];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(cmd, sizeof cmd, "%s %s -s workload.trace=tests/dimemas/pingpong.dim -o %s/a", icnsim_bin(), common, dir);
    expect_refused(a, cmd, "holds another sweep", "workload.trace", "another trace");
}

/* A merge that finds a point's row damaged (here: cut to three fields, its
 * marker rewritten to match) exits 1 and leaves no temporary summary file. */
TEST(sweep_merge_error_leaves_no_temporary_file)
{
    char dir[128] = "", cmd[2048], out[4096];
    test_tmpdir(dir, sizeof dir, "sweepmerge");
    const char *sw = "sweep -q -s topology.k=2 -s topology.stages=2 -s time.warmup=1us -s time.measure=5us -s load=0.2,0.5";
    snprintf(cmd, sizeof cmd, "%s %s -o %s/m", icnsim_bin(), sw, dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "sweep: %s", out);
    snprintf(cmd, sizeof cmd,
             "cd %s/m/points/0001 && head -1 summary.csv > s && echo a,b,c >> s && mv s summary.csv && " TEST_REMARK_POINT,
             dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "damaging the point: %s", out);
    snprintf(cmd, sizeof cmd, "%s %s -o %s/m", icnsim_bin(), sw, dir);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 1 && strstr(out, "a summary row with 3 fields"), "merge of a damaged row: status %d: %s", rc, out);
    snprintf(cmd, sizeof cmd, "ls %s/m | grep -c tmp", dir);
    run_cmd(cmd, out, sizeof out);
    CHECK(atoi(out) == 0, "temporary files left in %s/m: %s", dir, out);
}
