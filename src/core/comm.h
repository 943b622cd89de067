/* The processes of one distributed run (MPI ranks), as the engine sees them:
 * a rank, a size and three collectives. An MPI build supplies one
 * (src/mpi/comm_mpi.c); every other build runs in one process and needs none. */
#ifndef ICN_COMM_H
#define ICN_COMM_H
#include <stdint.h>

enum { COMM_SUM, COMM_MIN, COMM_MAX };

typedef struct comm {
    int rank, size;
    /* Every rank sends send[r] (slen[r] bytes) to rank r and receives what
     * each rank sent it, concatenated in rank order, into *recv (the callee
     * allocates, the caller frees), rlen[r] bytes from rank r. */
    void (*exchange)(const struct comm *c, uint8_t *const *send, const uint64_t *slen, uint8_t **recv, uint64_t *rlen);
    /* v[0..n) combined by op over all ranks, on every rank. */
    void (*allreduce)(const struct comm *c, uint64_t *v, uint32_t n, int op);
    /* Rank 0 receives every rank's buffer, concatenated in rank order, into
     * *all (allocated; NULL elsewhere), lens[r] bytes from rank r. */
    void (*gather)(const struct comm *c, const uint8_t *buf, uint64_t len, uint8_t **all, uint64_t *lens);
} comm_t;

/* MPI_COMM_WORLD as a comm_t (src/mpi/comm_mpi.c: MPI builds only; MPI must
 * be initialised). */
const comm_t *comm_mpi(void);

#endif
