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
    /* Every rank but 0 sends buf (len bytes, any size) to rank 0, which
     * calls fn with each one's bytes in rank order, one rank's at a time. */
    void (*collect)(const struct comm *c, const uint8_t *buf, uint64_t len,
                    void (*fn)(int rank, const uint8_t *b, uint64_t n, void *arg), void *arg);
} comm_t;

/* MPI_COMM_WORLD as a comm_t (src/mpi/comm_mpi.c: MPI builds only; MPI must
 * be initialised). */
const comm_t *comm_mpi(void);

#endif
