/* The Dimemas .dim reader: operations per rank from the sample traces,
 * errors that name the line, streaming memory, and replays that finish (or
 * report the rank that cannot). */
#include "test.h"
#include "util.h"
#include "../src/workload/workload.h"
#include <stdlib.h>
#include <string.h>

static int ops_of(const char *path, uint32_t rank, wop_t *out, int max, uint32_t *nranks)
{
    char err[600];
    void *d = dimemas_open_file(path, nranks, err, sizeof err);
    CHECK(d, "%s: %s", path, err);
    if (!d) return 0;
    int n = 0;
    wop_t op;
    do { dimemas_next(d, rank, &op); if (n < max) out[n] = op; n++; } while (op.kind != OP_END && n < 10000);
    dimemas_close(d);
    return n;
}

TEST(dimemas_records_become_operations)
{
    wop_t o[32];
    uint32_t nr = 0;
    int n = ops_of("tests/dimemas/pingpong.dim", 0, o, 32, &nr);
    CHECK(nr == 2 && n == 5, "pingpong rank 0: %d ops, %u ranks", n, nr);
    CHECK(o[0].kind == OP_COMPUTE && o[0].arg == 1000000, "burst of 1 us = 1e6 ps, got kind %d arg %llu", o[0].kind,
          (unsigned long long)o[0].arg);
    CHECK(o[1].kind == OP_SEND && o[1].peer == 1 && o[1].arg == 4096 && o[1].tag == 7, "the send");
    CHECK(o[2].kind == OP_RECV && o[2].peer == 1 && o[2].tag == 8, "the receive");
    CHECK(o[3].kind == OP_COMPUTE && o[3].arg == 2000000 && o[4].kind == OP_END, "the end");
    /* ring, rank 2: irecv, isend (immediate), wait, then an allreduce of 4 ranks (6 ring steps x 3 ops) */
    n = ops_of("tests/dimemas/ring.dim", 2, o, 32, &nr);
    CHECK(nr == 4 && n == 3 + 18 + 1, "ring rank 2: %d ops", n);
    CHECK(o[0].kind == OP_IRECV && o[0].peer == 1 && o[1].kind == OP_ISEND && o[1].peer == 3 && o[2].kind == OP_WAIT
          && o[2].peer == 1 && o[2].tag == 1, "ring's point-to-point part");
    CHECK(o[3].kind == OP_IRECV && o[3].peer == 1 && o[3].tag >= 1u << 30 && o[4].kind == OP_ISEND && o[4].peer == 3
          && o[4].arg == 200, "the allreduce's first step (800 bytes / 4)");
    /* records of the two tasks interleaved */
    n = ops_of("tests/dimemas/interleaved.dim", 1, o, 32, &nr);
    CHECK(n == 6 && o[1].kind == OP_RECV && o[1].peer == 0 && o[2].kind == OP_IRECV && o[4].kind == OP_WAITALL,
          "interleaved rank 1 (burst, receive, a 2-task barrier's step, end): %d ops", n);
}

TEST(dimemas_bad_lines_are_named)
{
    static const struct { const char *file, *want; } cases[] = {
        { "tests/dimemas/bad-fields.dim", "bad-fields.dim:3: too few fields" },
        { "tests/dimemas/bad-type.dim", "bad-type.dim:3: unknown record type" },
        { "tests/dimemas/bad-burst.dim", "bad-burst.dim:2: a CPU burst" },
        { "tests/dimemas/bad-task.dim", "bad-task.dim:2: task id out of range" },
        { "tests/dimemas/none.dim", "cannot read" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char err[600] = "";
        uint32_t n;
        void *d = dimemas_open_file(cases[i].file, &n, err, sizeof err);
        CHECK(!d && strstr(err, cases[i].want), "%s: got '%s'", cases[i].file, err);
        if (d) dimemas_close(d);
    }
}

TEST(dimemas_streams_a_long_trace)
{
    char dir[128] = "", path[256];
    test_tmpdir(dir, sizeof dir, "dim");
    snprintf(path, sizeof path, "%s/long.dim", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "create %s", path);
    if (!f) return;
    fprintf(f, "#DIMEMAS:\"long\":1,0:2(1,1),0\n");
    for (int t = 0; t < 2; t++)   /* grouped by task, as prv2dim writes */
        for (int i = 0; i < 100000; i++) fprintf(f, "1:%d:0:0.000000001\n", t);
    CHECK(fclose(f) == 0, "write");
    char err[600];
    uint32_t n;
    void *d = dimemas_open_file(path, &n, err, sizeof err);
    CHECK(d && dimemas_runs(d) == 2, "a grouped trace should keep one byte range per task, kept %llu",
          d ? (unsigned long long)dimemas_runs(d) : 0ull);
    wop_t op;
    uint64_t k = 0;
    if (d) do { dimemas_next(d, 1, &op); k++; } while (op.kind != OP_END);
    CHECK(k == 100001, "rank 1 read %llu operations", (unsigned long long)k);
    if (d) dimemas_close(d);
}

TEST(dimemas_replays_and_reports_unmatched_receives)
{
    const char *ini = "[time]\nwarmup = 0\nmeasure = 5ms\n[topology]\ntype = rlft\nk = 4\nstages = 1\n";
    const char *ok[] = { "workload.source=dimemas", "workload.trace=tests/dimemas/ring.dim", NULL };
    result_t r;
    CHECK(tsim_run_checked(ini, ok, &r) == 0, "the ring trace did not replay");
    const char *stuck[] = { "workload.source=dimemas", "workload.trace=tests/dimemas/unmatched.dim", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, stuck);
    CHECK(sim_run(&s) == 3 && s.now < 100000000, "unmatched receive: status and time t = %.3f us", s.now / 1e6);
    sim_free(&s);
    cfg_free(&c);
}
