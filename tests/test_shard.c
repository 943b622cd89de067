/* Sweeps split into shards (--shard I/N, one task of a cluster array job):
 * the shards then a plain sweep give the summary of one sweep, a rerun of a
 * shard reuses its points, and bad shards exit 2. */
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
