/* Built-in kernels: generators of the operations of common communication
 * patterns, so no trace is needed for them. Every kernel runs
 * workload.iterations iterations, each a compute phase of workload.compute
 * (if not 0) and then its communication: a bulk-synchronous loop.
 *
 *   pingpong   ranks 0 and 1: 0 sends workload.bytes to 1, 1 sends it back
 *   alltoall   pairwise exchange, workload.bytes from every rank to every other
 *   allreduce  ring, a vector of workload.bytes
 *   allgather  ring, workload.bytes from every rank
 *   bcast      binomial tree from rank 0, workload.bytes
 *   barrier    dissemination
 *   halo2d     a P x Q grid (workload.grid), periodic: workload.bytes to and
 *              from each of the 4 neighbours
 *   ptrans     HPCC PTRANS's transpose (A <- A^T + B) on a P x Q grid: a
 *              matrix of L x L blocks of workload.bytes, L = lcm(P, Q),
 *              block-cyclic (block (a, b) on process (a mod P, b mod Q));
 *              each block goes to the owner of (b, a) */
#include "workload.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

enum { K_PINGPONG, K_ALLTOALL, K_ALLREDUCE, K_ALLGATHER, K_BCAST, K_BARRIER, K_HALO2D, K_PTRANS };

typedef struct kern {
    int kind;
    uint32_t P, Q, ranks, iters;
    uint64_t bytes;
    simtime_t compute;
    uint32_t *all;              /* 0 .. ranks - 1, the members of the world */
    uint32_t *iter;             /* [rank] iterations expanded */
    wl_fifo_t *q;               /* [rank] */
} kern_t;

static void grid_of(kern_t *k, cfg_t *c, uint32_t ranks)
{
    const char *g = cfg_str(c, K_WL_GRID);
    if (*g) {
        unsigned p, q;
        char extra;
        if (sscanf(g, "%ux%u%c", &p, &q, &extra) != 2 || !p || !q)
            cfg_fail(c, K_WL_GRID, "must be PxQ, e.g. 18x24");
        if ((uint64_t)p * q != ranks) cfg_fail(c, K_WL_GRID, "%ux%u is %llu processes; there are %u ranks", p, q,
                                               (unsigned long long)p * q, ranks);
        k->P = p, k->Q = q;
        return;
    }
    uint32_t p = 1;   /* the most square factorization */
    for (uint32_t d = 1; (uint64_t)d * d <= ranks; d++)
        if (ranks % d == 0) p = d;
    k->P = p, k->Q = ranks / p;
}

static uint32_t gcd(uint32_t a, uint32_t b) { while (b) { uint32_t t = a % b; a = b; b = t; } return a; }

static void *open_kernel(sim_t *s, cfg_t *c, uint32_t *nranks, int kind)
{
    kern_t *k = xcalloc(1, sizeof *k);
    k->kind = kind;
    k->ranks = *nranks;
    k->iters = (uint32_t)cfg_int(c, K_WL_ITER);
    k->bytes = cfg_u64(c, K_WL_BYTES);
    k->compute = cfg_u64(c, K_WL_COMPUTE);
    if (kind == K_PINGPONG && k->ranks < 2) cfg_fail(c, K_WL_RANKS, "pingpong needs 2 ranks");
    if (kind == K_HALO2D || kind == K_PTRANS) grid_of(k, c, k->ranks);
    else if (cfg_is_set(c, K_WL_GRID)) cfg_fail(c, K_WL_GRID, "only halo2d and ptrans run on a grid");
    if (kind == K_PTRANS && (uint64_t)k->P / gcd(k->P, k->Q) * k->Q > 65536)
        cfg_fail(c, K_WL_GRID, "lcm(P, Q) above 65536 blocks per side");
    k->all = xmalloc(k->ranks * sizeof *k->all);
    for (uint32_t r = 0; r < k->ranks; r++) k->all[r] = r;
    k->iter = xcalloc(k->ranks, sizeof *k->iter);
    k->q = xcalloc(k->ranks, sizeof *k->q);
    (void)s;
    return k;
}

static void xchg(wl_fifo_t *q, uint32_t to, uint32_t from, uint64_t bytes, uint32_t tag)
{
    wl_fifo_push(q, (wop_t){ OP_IRECV, from, tag, bytes });
    wl_fifo_push(q, (wop_t){ OP_ISEND, to, tag, bytes });
}

/* One iteration of rank r's communication, into its FIFO. */
static void expand(kern_t *k, uint32_t r, uint32_t it)
{
    wl_fifo_t *q = &k->q[r];
    uint32_t P = k->ranks, tag = it;
    switch (k->kind) {
    case K_PINGPONG:
        if (r == 0) { wl_fifo_push(q, (wop_t){ OP_SEND, 1, tag, k->bytes }); wl_fifo_push(q, (wop_t){ OP_RECV, 1, tag, k->bytes }); }
        if (r == 1) { wl_fifo_push(q, (wop_t){ OP_RECV, 0, tag, k->bytes }); wl_fifo_push(q, (wop_t){ OP_SEND, 0, tag, k->bytes }); }
        break;
    case K_ALLTOALL: wl_collective(q, COLL_ALLTOALL, k->all, P, r, 0, k->bytes * P, tag); break;
    case K_ALLREDUCE: wl_collective(q, COLL_ALLREDUCE, k->all, P, r, 0, k->bytes, tag); break;
    case K_ALLGATHER: wl_collective(q, COLL_ALLGATHER, k->all, P, r, 0, k->bytes * P, tag); break;
    case K_BCAST: wl_collective(q, COLL_BCAST, k->all, P, r, 0, k->bytes, tag); break;
    case K_BARRIER: wl_collective(q, COLL_BARRIER, k->all, P, r, 0, 0, tag); break;
    case K_HALO2D: {
        uint32_t x = r % k->P, y = r / k->P, X = k->P, Y = k->Q;
        uint32_t e = (x + 1) % X + y * X, wst = (x + X - 1) % X + y * X, n = x + (y + 1) % Y * X, so = x + (y + Y - 1) % Y * X;
        /* tags by direction, so a neighbour that is both east and west (X = 2) pairs the right messages */
        xchg(q, e, wst, k->bytes, 4 * tag);
        xchg(q, wst, e, k->bytes, 4 * tag + 1);
        xchg(q, n, so, k->bytes, 4 * tag + 2);
        xchg(q, so, n, k->bytes, 4 * tag + 3);
        wl_fifo_push(q, (wop_t){ OP_WAITALL, 0, 0, 0 });
        break;
    }
    case K_PTRANS: {
        uint32_t p = r % k->P, qq = r / k->P, L = k->P / gcd(k->P, k->Q) * k->Q;
        for (uint32_t a = qq; a < L; a += k->Q)       /* receive block (a, b) of owner (a mod P, b mod Q) */
            for (uint32_t b = p; b < L; b += k->P) {   /* whose transpose (b, a) is mine */
                uint32_t from = a % k->P + b % k->Q * k->P;
                if (from != r) wl_fifo_push(q, (wop_t){ OP_IRECV, from, a * L + b, k->bytes });
            }
        for (uint32_t a = p; a < L; a += k->P)         /* my blocks (a, b) go to the owner of (b, a) */
            for (uint32_t b = qq; b < L; b += k->Q) {
                uint32_t to = b % k->P + a % k->Q * k->P;
                if (to != r) wl_fifo_push(q, (wop_t){ OP_ISEND, to, a * L + b, k->bytes });
            }
        wl_fifo_push(q, (wop_t){ OP_WAITALL, 0, 0, 0 });
        break;
    }
    }
}

static void next_kernel(void *st, uint32_t r, wop_t *op)
{
    kern_t *k = st;
    while (!wl_fifo_pop(&k->q[r], op)) {
        if (k->iter[r] == k->iters) { *op = (wop_t){ OP_END, 0, 0, 0 }; return; }
        uint32_t it = k->iter[r]++;
        if (k->compute) wl_fifo_push(&k->q[r], (wop_t){ OP_COMPUTE, 0, 0, k->compute });
        expand(k, r, it);
    }
}

static void close_kernel(void *st)
{
    kern_t *k = st;
    for (uint32_t r = 0; r < k->ranks; r++) wl_fifo_free(&k->q[r]);
    free(k->q); free(k->iter); free(k->all); free(k);
}

#define KERNEL(id, nm, kd, dsc)                                                                       \
    static void *open_##id(sim_t *s, cfg_t *c, uint32_t *n) { return open_kernel(s, c, n, kd); }      \
    const wl_source_t wl_source_##id = { nm, dsc, open_##id, next_kernel, close_kernel };

KERNEL(pingpong, "pingpong", K_PINGPONG, "ranks 0 and 1 exchange workload.bytes back and forth")
KERNEL(alltoall, "alltoall", K_ALLTOALL, "pairwise-exchange all-to-all, workload.bytes per pair")
KERNEL(allreduce, "allreduce", K_ALLREDUCE, "ring allreduce (reduce-scatter + allgather) of workload.bytes")
KERNEL(allgather, "allgather", K_ALLGATHER, "ring allgather, workload.bytes per rank")
KERNEL(bcast, "bcast", K_BCAST, "binomial-tree broadcast of workload.bytes from rank 0")
KERNEL(barrier, "barrier", K_BARRIER, "dissemination barrier")
KERNEL(halo2d, "halo2d", K_HALO2D, "2-D halo exchange on a periodic workload.grid, workload.bytes per neighbour")
KERNEL(ptrans, "ptrans", K_PTRANS, "HPCC PTRANS transpose on a workload.grid, block-cyclic blocks of workload.bytes")
