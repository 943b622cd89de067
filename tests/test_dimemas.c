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
    *nranks = 0;   /* any number of tasks */
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
    CHECK(o[3].kind == OP_STEP_IRECV && o[3].peer == 1 && o[3].tag >= 1u << 30 && o[4].kind == OP_STEP_ISEND && o[4].peer == 3
          && o[4].arg == 200, "the allreduce's first step (800 bytes / 4)");
    /* records of the two tasks interleaved */
    n = ops_of("tests/dimemas/interleaved.dim", 1, o, 32, &nr);
    CHECK(n == 6 && o[1].kind == OP_RECV && o[1].peer == 0 && o[2].kind == OP_STEP_IRECV && o[4].kind == OP_WAITSTEP,
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
        uint32_t n = 0;
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
        { H2 "d:1:5:1:1\n10:1:0:10:5:0:0:8:8\n", ":3: the root is not in the communicator" },   /* reduce: the root task */
        { H2 "10:0:0:1:5:0:0:8:8\nd:1:5:1:1\n", ":2: the task is not in the collective's communicator" },   /* defined later */
        { H2 "10:0:0:10:0:7:0:8:8\n", ":2: the root is beyond the trace's tasks" },
        { H2 "10:0:0:1:0:7:0:8:8\n", ":2: a bcast's, gather's or scatter's root field is not 0 or 1" },   /* a flag */
        { H2 "10:0:0:4:0:1:0:8:8\n10:1:0:4:0:1:0:8:8\n", ":3: a second root for the same collective" },
        { H2 "10:0:0:10:0:0:0:8:8\n10:1:0:10:0:1:0:8:8\n", ":3: a second root for the same collective" },
        { "2:0:0:5:0:8:0:0:0\n3:1:0:0:0:8:0:0:0\n", ":1: the peer task is beyond the trace's tasks" },
        { H2 "2:0:0:1:0:4294967296:0:0:0\n", ":2: a message of more than 4 GB" },
        { H2 "10:0:0:11:0:0:0:18446744073709551615:0\n", ":2: a collective of more than 4 GB" },
        { H2 "10:0:0:10:0:4294967296:0:8:8\n", ":2: the root task id is out of range" },
        { H2 "3:0:0:1:0:8:0:0:1\n3:0:0:1:0:8:5:0:2\n", ":3: a wait (mode 2) for a receive the task never posted" },
        { H2 "d:1:5:2:0:0\n", ":2: a task listed twice in the communicator" },
        { H2 "d:1:5:1:0\nd:1:5:1:1\n", ":3: a second, different definition of the communicator" },
        { "2:0:0:4294967296:0:10:1:1:0\n1:1:0:0.1\n", ":1: the peer task id is out of range" },
        { H2 "10:0:0:0:0:0:0:8:8\n10:1:0:0:0:0:0:8:8\nd:1:0:1:0\n", ":3: the task is not in the collective's communicator" },
        { H2 "d:1:5:2:0:7\n1:0:0:0.1\n", ":2: a communicator names a task beyond the trace's" },
        { "1:0:0:0.1\nd:1:5:2:0:7\n1:1:0:0.1\n", ":2: a communicator names a task beyond the trace's" },
        { H2 "1:0:0:0.1\n1:1:0\0:0.1\n", ":3: a NUL byte in the line" },
        { H2 "1:0:0:0.000001\n1:0:1:0.000005\n", ":3: a second thread of the task" },
        /* CR-only line ends would join the records into one line */
        { H2 "1:0:0:0.000001\r2:0:0:1:0:100:1:0:0\r3:1:0:0:0:100:1:0:0\r", ":2: a carriage return inside the line" },
        /* a field too many shifts what is read: the size would be read as a tag */
        { H2 "2:0:0:1:0:0:100000:1:0:0\n", ":2: too many fields for its type" },
        { H2 "1:0:0:0.5:7\n", ":2: too many fields for its type" },
        { H2 "10:0:0:11:0:0:0:8:8:3\n", ":2: a global operation has 9 fields, or a tenth of 0, 1 or 2" },
        { H2 "10:0:0:11:0:0:0:8:8:2:0\n", ":2: a global operation has 9 fields" },
    };
#undef H2
    char path[] = "/tmp/icnsim-dim-XXXXXX";
    int fd = mkstemp(path);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].want, "NUL")) len += 1 + strlen(cases[i].text + len + 1);   /* the text goes on past its NUL */
        CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, cases[i].text, len, 0) == (ssize_t)len, "cannot write %s", path);
        char err[600] = "";
        uint32_t n = 0;
        void *d = dimemas_open_file(path, &n, err, sizeof err);
        CHECK(!d && strstr(err, path) && strstr(err, cases[i].want), "case %zu: want '%s', got '%s'", i, cases[i].want, err);
        if (d) dimemas_close(d);
    }
    /* right as they stand: a collective before its communicator's definition, a matched wait, CRLF blank lines */
    static const char *good[] = {
        "#DIMEMAS:\"t\":1,0:2(1,1),0\n10:0:0:0:5:0:0:8:8\n10:1:0:0:5:0:0:8:8\nd:1:5:2:0:1\n",
        "#DIMEMAS:\"t\":1,0:2(1,1),0\r\n\r\n3:0:0:1:0:8:0:0:1\r\n3:0:0:1:0:8:0:0:2\r\n2:1:0:0:0:8:0:0:0\r\n",
        "#DIMEMAS:\"t\":1,0:2(1,1),0\nd:1:5:2:0:1\nd:1:5:2:0:1\n10:0:0:0:5:0:0:8:8\n10:1:0:0:5:0:0:8:8\n",   /* a repeated definition */
        /* an immediate reduce and its waits (sync 2), whose root field is a 0/1 flag as prv2dim writes it */
        "#DIMEMAS:\"t\":1,0:2(1,1),0\nd:1:5:1:1\n10:1:0:10:5:1:0:8:8\n10:1:0:10:5:0:0:8:8:2\n",
        "#DIMEMAS:\"x3(y)\":1,0:2(1,1),0\n2:0:0:1:0:8:1:0:0\n3:1:0:0:0:8:1:0:0\n",   /* "3(" in the name: still 2 tasks */
        /* a rootless collective's root field is not read (prv2dim may write -1) */
        "#DIMEMAS:\"t\":1,0:2(1,1),0\n10:0:0:11:0:-1:0:8:8\n10:1:0:11:0:-1:0:8:8\n",
        "#DIMEMAS:\"t\":1,0:2(1,1),0\nd:1:5:2:0:1\r\n10:0:0:0:5:0:0:8:8:0\n10:1:0:0:5:0:0:8:8:1\n",   /* a CRLF definition, tenth fields */
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
    uint32_t n = 0;
    void *d = dimemas_open_file("/dev/null", &n, err, sizeof err);
    CHECK(!d && strstr(err, "not a regular file"), "a device is refused: got '%s'", err);
    if (d) dimemas_close(d);
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
    uint32_t n = 0;
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

/* Text into a fresh file named from template path ("...-XXXXXX"). */
static void write_tmp(char *path, const char *text)
{
    int fd = mkstemp(path);
    size_t len = strlen(text);
    CHECK(fd >= 0 && write(fd, text, len) == (ssize_t)len && close(fd) == 0, "cannot write %s", path);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether every rank's sends and receives of the trace pair up (source,
 * destination, tag; and the bytes in all): the ranks agree on each
 * collective's members and root. */
static int pairs_up(const char *path)
{
    char err[600];
    uint32_t nr = 0;
    void *d = dimemas_open_file(path, &nr, err, sizeof err);
    CHECK(d, "%s: %s", path, err);
    if (!d) return 0;
    size_t ns = 0, nrv = 0, cap = 1024;
    uint64_t *snd = malloc(cap * sizeof *snd), *rcv = malloc(cap * sizeof *rcv), sbytes = 0, rbytes = 0;
    for (uint32_t r = 0; r < nr; r++) {
        wop_t op;
        for (dimemas_next(d, r, &op); op.kind != OP_END; dimemas_next(d, r, &op)) {
            int s = op.kind == OP_SEND || op.kind == OP_ISEND || op.kind == OP_STEP_ISEND,
                v = op.kind == OP_RECV || op.kind == OP_IRECV || op.kind == OP_STEP_IRECV;
            if (!s && !v) continue;
            if (ns == cap || nrv == cap) {
                cap *= 2;
                snd = realloc(snd, cap * sizeof *snd);
                rcv = realloc(rcv, cap * sizeof *rcv);
            }
            uint64_t src = s ? r : op.peer, dst = s ? op.peer : r, key = src << 42 | dst << 20 | (op.tag & 0xfffff);
            if (s) snd[ns++] = key, sbytes += op.arg; else rcv[nrv++] = key, rbytes += op.arg;
        }
    }
    dimemas_close(d);
    qsort(snd, ns, sizeof *snd, by_u64);
    qsort(rcv, nrv, sizeof *rcv, by_u64);
    int ok = ns == nrv && sbytes == rbytes && !memcmp(snd, rcv, ns * sizeof *snd);
    free(snd);
    free(rcv);
    return ok;
}

/* A communicator of any size: BSC's prv2dim defines MPI_COMM_WORLD with
 * every task on one d line, so a trace of more than 60 tasks has one of
 * more than 64 fields. 100 tasks in reverse order run an allreduce and a
 * bcast whose root is task 7 over it. */
TEST(dimemas_reads_communicators_of_any_size)
{
    enum { T = 100 };
    char *text = malloc(1 << 16), path[] = "/tmp/icnsim-dimc-XXXXXX";
    size_t len = (size_t)sprintf(text, "#DIMEMAS:\"big\":1,0:%d(1),0\nd:1:2:%d", T, T);
    for (int i = T - 1; i >= 0; i--) len += (size_t)sprintf(text + len, ":%d", i);
    len += (size_t)sprintf(text + len, "\n");
    for (int t = 0; t < T; t++)
        len += (size_t)sprintf(text + len, "10:%d:0:11:2:0:0:800:800\n10:%d:0:1:2:%d:0:64:64\n", t, t, t == 7);
    write_tmp(path, text);
    free(text);
    static wop_t o[700];
    uint32_t nr = 0;
    int n = ops_of(path, 5, o, 700, &nr);
    /* task 5 is rank 94: the ring's 198 steps of three operations, then the bcast from task 7 (rank 92) */
    CHECK(nr == T && n == 198 * 3 + 4 + 1, "rank 5 of %u: %d operations", nr, n);
    CHECK(o[0].kind == OP_STEP_IRECV && o[0].peer == 6 && o[0].arg == 8 && o[1].kind == OP_STEP_ISEND && o[1].peer == 4,
          "the allreduce's first step: from rank 93 (task 6) to rank 95 (task 4)");
    CHECK(n == 599 && o[594].kind == OP_STEP_IRECV && o[594].peer == 7 && o[594].arg == 64 && o[596].kind == OP_STEP_ISEND
          && o[596].peer == 4 && o[598].kind == OP_END, "the bcast: from task 7 (its parent), to task 4 (its child)");
    CHECK(pairs_up(path), "the 100 tasks' sends and receives do not pair up");
    unlink(path);
}

/* A malformed communicator of more than 64 fields is refused as a short
 * one is, with the file, the line and the same words, by the library and
 * by the command line (status 2): the first member that is not a task id
 * or repeats an earlier one is the error. */
TEST(dimemas_big_communicator_errors_name_the_line)
{
    static const struct { int n, fields, bad_at, dup_at; const char *want; } cases[] = {
        { 100, 100, -1, 99, ":2: a task listed twice in the communicator" },
        { 100, 100, 90, 50, ":2: a task listed twice in the communicator" },   /* the repeat comes first */
        { 100, 100, 30, 90, ":2: a communicator member is not a task id" },
        { 100, 101, -1, -1, ":2: want d:1:comm:n followed by n task ids" },
        { 100, 100, 70, -1, ":2: a communicator member is not a task id" },
    };
    char dir[128] = "", path[256], set[300], cmd[1024], out[4096];
    test_tmpdir(dir, sizeof dir, "dimbig");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(path, sizeof path, "%s/bad%zu.dim", dir, i);
        FILE *f = fopen(path, "w");
        CHECK(f != NULL, "create %s", path);
        if (!f) return;
        fprintf(f, "#DIMEMAS:\"t\":1,0:100(1),0\nd:1:5:%d", cases[i].n);
        for (int k = 0; k < cases[i].fields; k++) {
            if (k == cases[i].bad_at) fprintf(f, ":%s", k % 2 ? "x" : "4000001");
            else fprintf(f, ":%d", k == cases[i].dup_at ? 37 : k);   /* a repeat of task 37 (dup_at is after it) */
        }
        fprintf(f, "\n1:0:0:0.1\n");
        CHECK(fclose(f) == 0, "write %s", path);
        char err[600] = "";
        uint32_t n = 0;
        void *d = dimemas_open_file(path, &n, err, sizeof err);
        CHECK(!d && strstr(err, path) && strstr(err, cases[i].want), "case %zu: want '%s', got '%s'", i, cases[i].want, err);
        if (d) dimemas_close(d);
    }
    snprintf(path, sizeof path, "%s/bad0.dim", dir);
    snprintf(set, sizeof set, "-s workload.trace=%s", path);
    snprintf(cmd, sizeof cmd, "%s run experiments/seed000/base-432.ini -q -o %s/out -s time.warmup=0 -s workload.source=dimemas %s",
             icnsim_bin(), dir, set);
    char want[300];
    snprintf(want, sizeof want, "%s:2: a task listed twice in the communicator", path);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, want), "the command line: status %d, output %s", rc, out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "cannot remove %s: %s", dir, out);
}

/* The root field of a global operation, as the Dimemas simulator reads it:
 * for bcast, gather(v) and scatter(v) a flag on the root's own record; for
 * reduce (10) the root's task id; a collective whose records flag no root
 * has its communicator's first task as root. On communicator 5 = (2, 3, 1)
 * the bcast's root is task 3 (its record's flag), the reduce's task 1 (not
 * rank 1, task 3), the gather's task 2 (none flagged); task 0 is outside. */
TEST(dimemas_root_field_as_dimemas_reads_it)
{
    static const char *text =
        "#DIMEMAS:\"sub\":1,0:4(1,1,1,1),0\nd:1:5:3:2:3:1\n1:0:0:0.000001\n"
        "10:1:0:1:5:0:0:1000:1000\n10:1:0:10:5:1:0:500:500\n10:1:0:2:5:0:0:300:300\n"
        "10:2:0:1:5:0:0:1000:1000\n10:2:0:10:5:1:0:500:500\n10:2:0:2:5:0:0:300:300\n"
        "10:3:0:1:5:1:0:1000:1000\n10:3:0:10:5:1:0:500:500\n10:3:0:2:5:0:0:300:300\n";
    static const char *want[4] = { "", "r3 r2 r3 s2", "r3 s1 r3 r1", "s2 s1 s1 s2" };
    char path[] = "/tmp/icnsim-dimr-XXXXXX";
    write_tmp(path, text);
    for (uint32_t r = 0; r < 4; r++) {
        wop_t o[32];
        uint32_t nr = 0;
        int n = ops_of(path, r, o, 32, &nr);
        char got[64] = "";
        for (int i = 0; i < n && i < 32; i++)
            if (o[i].kind == OP_STEP_ISEND || o[i].kind == OP_STEP_IRECV)
                snprintf(got + strlen(got), sizeof got - strlen(got), "%s%c%u", *got ? " " : "", o[i].kind == OP_STEP_ISEND ? 's' : 'r', o[i].peer);
        CHECK(!strcmp(got, want[r]), "task %u: sends and receives '%s', want '%s'", r, got, want[r]);
    }
    int paired = pairs_up(path);
    CHECK(paired, "the tasks' sends and receives do not pair up");
    char set[64];
    snprintf(set, sizeof set, "workload.trace=%s", path);
    const char *sets[] = { "workload.source=dimemas", set, NULL };
    result_t res;
    if (paired)   /* else the set-up would exit */
        CHECK(tsim_run_checked("[time]\nwarmup = 0\nmeasure = 5ms\n[topology]\ntype = rlft\nk = 4\nstages = 1\n", sets, &res) == 0,
              "the trace did not replay to its end");
    unlink(path);
}

/* Collectives are matched within their communicator, as MPI matches them:
 * two tasks that meet on a sub-communicator first and then with everyone
 * on the world communicator each take their own collective's messages. */
TEST(dimemas_collectives_of_different_communicators_do_not_mix)
{
    char path[] = "/tmp/icnsim-dim-commsXXXXXX";
    write_tmp(path, "#DIMEMAS:test:1,0:4(1,1,1,1)\n"
                    "d:1:5:2:0:1\n"
                    "10:0:0:0:5:0:0:0:0\n10:1:0:0:5:0:0:0:0\n"
                    "10:0:0:12:0:0:0:64:64\n10:1:0:12:0:0:0:64:64\n10:2:0:12:0:0:0:64:64\n10:3:0:12:0:0:0:64:64\n"
                    "10:0:0:0:5:0:0:0:0\n10:1:0:0:5:0:0:0:0\n");
    char set[64];
    snprintf(set, sizeof set, "workload.trace=%s", path);
    const char *sets[] = { "workload.source=dimemas", set, NULL };
    result_t res;
    CHECK(tsim_run_checked("[time]\nwarmup = 0\nmeasure = 5ms\n[topology]\ntype = rlft\nk = 4\nstages = 1\n", sets, &res) == 0,
          "a barrier on a sub-communicator and an allreduce on the world did not replay to their end");
    unlink(path);
}

/* A collective's steps wait for their own messages only: an immediate
 * receive posted before a barrier and waited for after it stays the
 * application's (its wait found it swept away: an internal error), and one
 * whose message is sent after the barrier does not hold the barrier (each
 * task's barrier waited for it: the trace could never finish). */
TEST(dimemas_collectives_leave_pending_requests_alone)
{
    const char *traces[] = {
        "#DIMEMAS:\"t\":1,0:2(1,1),0\n3:0:0:1:0:8:5:0:1\n10:0:0:0:0:0:0:0:0\n3:0:0:1:0:8:5:0:2\n"
        "2:1:0:0:0:8:5:0:0\n10:1:0:0:0:0:0:0:0\n",
        "#DIMEMAS:\"t\":1,0:2(1,1),0\n3:0:0:1:0:8:5:0:1\n10:0:0:0:0:0:0:0:0\n2:0:0:1:0:8:5:0:0\n3:0:0:1:0:8:5:0:2\n"
        "3:1:0:0:0:8:5:0:1\n10:1:0:0:0:0:0:0:0\n2:1:0:0:0:8:5:0:0\n3:1:0:0:0:8:5:0:2\n",
    };
    const char *ini = "[time]\nwarmup = 0\nmeasure = 1ms\n[topology]\ntype = rlft\nk = 4\nstages = 1\n";
    for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
        char path[] = "/tmp/icnsim-dim-XXXXXX", set[64];
        write_tmp(path, traces[i]);
        snprintf(set, sizeof set, "workload.trace=%s", path);
        const char *sets[] = { "workload.source=dimemas", set, NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, sets);
        int rc = sim_run(&s);
        CHECK(rc == 0 && wl_finished(&s), "trace %zu: status %d, finished %d", i, rc, wl_finished(&s));
        sim_free(&s);
        cfg_free(&c);
        unlink(path);
    }
}
