/* Sweeps over the ranks of an MPI job (make MPI=1; only that build compiles
 * this file). Rank 0 hands out points one at a time to whichever rank asks,
 * so a rank that drew cheap points comes back for more and the job ends
 * with its costliest points rather than with its unluckiest rank (the
 * points of one sweep differ in cost by 10x and more). Every rank builds
 * the same sweep from the same command line, so a point travels as its
 * index only, and each rank writes its points into the shared directory
 * exactly as a local worker does: resuming and merging need nothing else. */
#include "../cli/sweep.h"
#include "../core/util.h"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { TAG_ASK = 1, TAG_POINT = 2 };

static long cur_point = -1;   /* the point this rank computes (-1: none) */

/* A rank that exits with an error (a point refused at set-up, a results
 * directory it cannot write) says which point failed and ends the whole
 * job, whatever the launcher's policy on a rank that exits: the others
 * would wait for it forever. */
static void abort_sweep(int status, void *arg)
{
    (void)arg;
    int init = 0, fin = 0, rank = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!status || !init || fin) return;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (cur_point >= 0)
        fprintf(stderr, "icnsim: sweep point %ld failed with status %d on rank %d; the points done are kept: a rerun "
                "resumes\n", cur_point, status, rank);
    MPI_Abort(MPI_COMM_WORLD, status);
}

int mpi_begin(int *size)
{
    int rank;
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) die("MPI_Init failed");
    on_exit(abort_sweep, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return rank;
}

void mpi_end(void)
{
    MPI_Finalize();
}

/* The next request on rank 0, without spinning: a blocking receive polls a
 * core at full speed, which rank 0 would take from the ranks computing
 * points on its machine. A millisecond of delay per point is nothing. */
static int next_ask(long msg[2])
{
    MPI_Request rq;
    MPI_Status st;
    int flag = 0;
    struct timespec ms = { 0, 1000000 };
    MPI_Irecv(msg, 2, MPI_LONG, MPI_ANY_SOURCE, TAG_ASK, MPI_COMM_WORLD, &rq);
    for (;;) {
        MPI_Test(&rq, &flag, &st);
        if (flag) return st.MPI_SOURCE;
        nanosleep(&ms, NULL);
    }
}

/* Rank 0: a request carries the point its sender finished (-1: none yet)
 * and that point's status; the answer is the next point, or -1: stop. */
static void hand_out(sweep_t *sw, const long *todo, long n, int size)
{
    long next = 0;
    int stop = 0, active = size - 1;
    while (active) {
        long msg[2];
        int from = next_ask(msg);
        if (msg[0] >= 0 && sweep_point_done(sw, msg[0], (int)msg[1], 0)) stop = 1;
        long pt = !stop && next < n ? todo[next++] : -1;
        MPI_Send(&pt, 1, MPI_LONG, from, TAG_POINT, MPI_COMM_WORLD);
        if (pt < 0) active--;
    }
}

static void compute(const sweep_t *sw)
{
    long msg[2] = { -1, 0 }, pt;
    for (;;) {
        MPI_Send(msg, 2, MPI_LONG, 0, TAG_ASK, MPI_COMM_WORLD);
        MPI_Recv(&pt, 1, MPI_LONG, 0, TAG_POINT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (pt < 0) return;
        msg[0] = cur_point = pt;
        msg[1] = sweep_run_point(sw, pt);
        cur_point = -1;
    }
}

void mpi_run_points(sweep_t *sw, const long *todo, long n)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank) compute(sw);
    else if (size > 1) hand_out(sw, todo, n, size);
    else
        for (long i = 0; i < n; i++)
            if (sweep_point_done(sw, todo[i], sweep_run_point(sw, todo[i]), 0)) break;
}
