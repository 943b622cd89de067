/* The engine's communicator (src/core/comm.h) over MPI_COMM_WORLD, for a run
 * whose network is split over the ranks of an MPI job (time.parts). */
#include "../core/comm.h"
#include "../core/util.h"
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* MPI counts are ints: byte counts past INT_MAX would wrap. */
static int count_of(uint64_t n, const char *what)
{
    if (n > INT_MAX) die("MPI: %s of %llu bytes exceeds one message (2 GiB)", what, (unsigned long long)n);
    return (int)n;
}

static void exchange(const comm_t *c, uint8_t *const *send, const uint64_t *slen, uint8_t **recv, uint64_t *rlen)
{
    int n = c->size;
    int *sc = xcalloc((size_t)n * 4, sizeof *sc), *sd = sc + n, *rc = sc + 2 * n, *rd = sc + 3 * n;
    uint64_t total = 0;
    for (int r = 0; r < n; r++) { sc[r] = count_of(slen[r], "a window's events for one rank"); total += slen[r]; }
    count_of(total, "a window's events");   /* the displacements below are ints too */
    uint8_t *sbuf = xmalloc(total ? total : 1);
    for (int r = 0, off = 0; r < n; off += sc[r], r++) {
        sd[r] = off;
        if (sc[r]) memcpy(sbuf + off, send[r], (size_t)sc[r]);
    }
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
    uint64_t in = 0;
    for (int r = 0; r < n; r++) { rd[r] = count_of(in, "a window's events"); in += (uint64_t)rc[r]; rlen[r] = (uint64_t)rc[r]; }
    count_of(in, "a window's events");
    *recv = xmalloc(in ? in : 1);
    MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, *recv, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
    free(sbuf);
    free(sc);
}

static void allreduce(const comm_t *c, uint64_t *v, uint32_t n, int op)
{
    (void)c;
    MPI_Op o = op == COMM_SUM ? MPI_SUM : op == COMM_MIN ? MPI_MIN : MPI_MAX;
    MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, o, MPI_COMM_WORLD);
}

/* Point to point, in pieces under MPI's int counts: a rank's results may
 * pass 2 GiB (a large view), and rank 0 holds one rank's at a time. */
enum { TAG_LEN = 11, TAG_BYTES = 12, PIECE = 1 << 30 };

static void collect(const comm_t *c, const uint8_t *buf, uint64_t len,
                    void (*fn)(int rank, const uint8_t *b, uint64_t n, void *arg), void *arg)
{
    if (c->rank) {
        MPI_Send(&len, 1, MPI_UINT64_T, 0, TAG_LEN, MPI_COMM_WORLD);
        for (uint64_t off = 0; off < len; off += PIECE)
            MPI_Send(buf + off, (int)(len - off < PIECE ? len - off : PIECE), MPI_BYTE, 0, TAG_BYTES, MPI_COMM_WORLD);
        return;
    }
    for (int r = 1; r < c->size; r++) {
        uint64_t n;
        MPI_Recv(&n, 1, MPI_UINT64_T, r, TAG_LEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        uint8_t *b = xmalloc(n ? n : 1);
        for (uint64_t off = 0; off < n; off += PIECE)
            MPI_Recv(b + off, (int)(n - off < PIECE ? n - off : PIECE), MPI_BYTE, r, TAG_BYTES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        fn(r, b, n, arg);
        free(b);
    }
}

/* A rank that exits with an error (a bad directory, an internal error)
 * while the others wait in a collective ends the whole job, whatever the
 * launcher's policy on a rank that exits. */
static void abort_job(int status, void *arg)
{
    (void)arg;
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (status && init && !fin) MPI_Abort(MPI_COMM_WORLD, status);
}

const comm_t *comm_mpi(void)
{
    static int hooked;
    if (!hooked++) on_exit(abort_job, NULL);
    static comm_t c;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    c = (comm_t){ rank, size, exchange, allreduce, collect };
    return &c;
}
