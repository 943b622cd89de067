/* The Dimemas .dim reader: operations per rank from the sample traces,
 * errors that name the line, streaming memory, and replays that finish (or
 * report the rank that cannot). */
#include "test.h"
#include "util.h"
#include "../src/workload/workload.h"
#include "../src/stats/report.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What needs the whole trace (task count, communicators, a task's earlier
 * records) is checked before the run too, with the line: a trace that would
 * fail or mislead only when replayed is refused when opened. */
TEST(dimemas_whole_trace_checks_name_the_line)
{
#define H2 "#DIMEMAS:\"t\":1,0:2(1,1),0\n"
    static const struct { const char *text, *want; } cases[] = {
        { "#DIMEMAS:\"t\":1,0:4294967295(1,1),0\n1:0:0:0.1\n", ":1: the header's task count is above 4000000" },
        { H2 "10:0:0:0:7:0:0:8:8\n10:1:0:0:7:0:0:8:8\n", ":2: an undefined communicator" },
        { H2 "d:1:5:1:1\n10:0:0:0:5:1:0:8:8\n", ":3: the task is not in the collective's communicator" },
        { H2 "d:1:5:1:1\n10:1:0:1:5:0:0:8:8\n", ":3: the root is not in the communicator" },
        { H2 "10:0:0:1:5:0:0:8:8\nd:1:5:1:1\n", ":2: the task is not in the collective's communicator" },   /* defined later */
        { H2 "10:0:0:1:0:7:0:8:8\n", ":2: the root is beyond the trace's tasks" },
        { "2:0:0:5:0:8:0:0:0\n3:1:0:0:0:8:0:0:0\n", ":1: the peer task is beyond the trace's tasks" },
        { H2 "2:0:0:1:0:4294967296:0:0:0\n", ":2: a message of more than 4 GB" },
        { H2 "10:0:0:11:0:0:0:18446744073709551615:0\n", ":2: a collective of more than 4 GB" },
        { H2 "10:0:0:1:0:4294967296:0:8:8\n", ":2: the root task id is out of range" },
        { H2 "3:0:0:1:0:8:0:0:1\n3:0:0:1:0:8:5:0:2\n", ":3: a wait (mode 2) for a receive the task never posted" },
        { H2 "d:1:5:2:0:0\n", ":2: a task listed twice in the communicator" },
        { H2 "d:1:5:1:0\nd:1:5:1:1\n", ":3: a second, different definition of the communicator" },
        { "2:0:0:4294967296:0:10:1:1:0\n1:1:0:0.1\n", ":1: the peer task id is out of range" },
        { H2 "10:0:0:0:0:0:0:8:8\n10:1:0:0:0:0:0:8:8\nd:1:0:1:0\n", ":3: the task is not in the collective's communicator" },
        { H2 "d:1:5:2:0:7\n1:0:0:0.1\n", ":2: a communicator names a task beyond the trace's" },
        { "1:0:0:0.1\nd:1:5:2:0:7\n1:1:0:0.1\n", ":2: a communicator names a task beyond the trace's" },
        { H2 "1:0:0:0.1\n1:1:0\0:0.1\n", ":3: a NUL byte in the line" },
    };
#undef H2
    char path[] = "/tmp/icnsim-dim-XXXXXX";
    int fd = mkstemp(path);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].want, "NUL")) len += 1 + strlen(cases[i].text + len + 1);   /* the text goes on past its NUL */
        CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, cases[i].text, len, 0) == (ssize_t)len, "cannot write %s", path);
        char err[600] = "";
        uint32_t n;
        void *d = dimemas_open_file(path, &n, err, sizeof err);
        CHECK(!d && strstr(err, path) && strstr(err, cases[i].want), "case %zu: want '%s', got '%s'", i, cases[i].want, err);
        if (d) dimemas_close(d);
    }
    /* right as they stand: a collective before its communicator's definition, a matched wait, CRLF blank lines */
    static const char *good[] = {
        "#DIMEMAS:\"t\":1,0:2(1,1),0\n10:0:0:0:5:0:0:8:8\n10:1:0:0:5:0:0:8:8\nd:1:5:2:0:1\n",
        "#DIMEMAS:\"t\":1,0:2(1,1),0\r\n\r\n3:0:0:1:0:8:0:0:1\r\n3:0:0:1:0:8:0:0:2\r\n2:1:0:0:0:8:0:0:0\r\n",
        "#DIMEMAS:\"t\":1,0:2(1,1),0\nd:1:5:2:0:1\nd:1:5:2:0:1\n10:0:0:0:5:0:0:8:8\n10:1:0:0:5:0:0:8:8\n",   /* a repeated definition */
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        size_t len = strlen(good[i]);
        CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, good[i], len, 0) == (ssize_t)len, "cannot write %s", path);
        char err[600] = "";
        uint32_t n = 0;
        void *d = dimemas_open_file(path, &n, err, sizeof err);
        CHECK(d && n == 2, "good case %zu refused: %s", i, err);
        if (d) dimemas_close(d);
    }
    close(fd);
    unlink(path);
    char err[600] = "";
    uint32_t n;
    void *d = dimemas_open_file("/dev/null", &n, err, sizeof err);
    CHECK(!d && strstr(err, "not a regular file"), "a device is refused: got '%s'", err);
    if (d) dimemas_close(d);
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

/* A trace that ends at time 0 leaves an empty window: the per-node rates
 * are 0, not the 1e300 that seeds their minimum. */
TEST(dimemas_empty_window_has_zero_node_rates)
{
    char path[] = "/tmp/icnsim-dim0-XXXXXX", set[64];
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, "1:0:0:0\n1:1:0:0\n", 16) == 16 && close(fd) == 0, "cannot write %s", path);
    snprintf(set, sizeof set, "workload.trace=%s", path);
    const char *sets[] = { "workload.source=dimemas", set, "workload.ranks=2", NULL };
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, "[time]\nwarmup = 0\nmeasure = 1ms\n[topology]\ntype = rlft\nk = 2\nstages = 1\n", sets);
    CHECK(sim_run(&s) == 0, "the replay did not finish");
    result_t r;
    result_compute(&s, &r);
    CHECK(r.node_min == 0 && r.node_max == 0, "per-node rates of an empty window: min %g, max %g", r.node_min, r.node_max);
    sim_free(&s);
    cfg_free(&c);
    unlink(path);
}

/* Records as prv2dim writes them: a wait's peer thread is -1, and an
 * immediate collective's wait is a global-operation record whose tenth
 * field is 2. Both are read; the wait of a collective is no operation (the
 * collective ran at its start), so the two traces give the same operations. */
TEST(dimemas_reads_prv2dim_waits)
{
    static const char *with =
        "#DIMEMAS:\"t\":1,0:2(1,1),0\n3:0:0:1:-1:8:0:0:1\n3:0:0:1:-1:8:0:0:2\n2:1:0:0:-1:8:0:0:0\n"
        "10:0:0:11:0:0:-1:8:8:1\n10:1:0:11:0:0:-1:8:8:1\n10:0:0:11:0:0:-1:8:8:2\n10:1:0:11:0:0:-1:8:8:2\n1:0:0:0.5\n";
    static const char *without =
        "#DIMEMAS:\"t\":1,0:2(1,1),0\n3:0:0:1:0:8:0:0:1\n3:0:0:1:0:8:0:0:2\n2:1:0:0:0:8:0:0:0\n"
        "10:0:0:11:0:0:0:8:8\n10:1:0:11:0:0:0:8:8\n1:0:0:0.5\n";
    const char *text[2] = { with, without };
    wop_t o[2][32];
    int n[2];
    for (int k = 0; k < 2; k++) {
        char path[] = "/tmp/icnsim-dimw-XXXXXX";
        int fd = mkstemp(path);
        size_t len = strlen(text[k]);
        CHECK(fd >= 0 && write(fd, text[k], len) == (ssize_t)len && close(fd) == 0, "cannot write %s", path);
        uint32_t nr = 0;
        n[k] = ops_of(path, 0, o[k], 32, &nr);
        unlink(path);
    }
    int same = n[0] > 4 && n[0] == n[1];
    for (int i = 0; same && i < n[0]; i++)
        same = o[0][i].kind == o[1][i].kind && o[0][i].peer == o[1][i].peer && o[0][i].tag == o[1][i].tag && o[0][i].arg == o[1][i].arg;
    CHECK(same, "rank 0: %d operations with prv2dim's waits, %d without, or different ones", n[0], n[1]);
    CHECK(o[0][0].kind == OP_IRECV && o[0][1].kind == OP_WAIT && o[0][n[0] - 2].kind == OP_COMPUTE,
          "rank 0: irecv, wait, the allreduce's steps, the burst");
}
