/* Closed-loop application workloads: ranks mapped to nodes, each running a
 * stream of operations (compute, point-to-point sends and receives, waits)
 * that a source produces: a built-in kernel (src/workload/kernels.c) or a
 * trace reader (src/workload/dimemas.c). Collectives are expanded into
 * point-to-point operations by the stated algorithms of collectives.c.
 *
 * Semantics: a send (blocking or not) hands its message to the rank's node,
 * which injects it through the NIC like any message; a blocking send
 * completes when its last packet has left the node (eager protocol). A
 * receive completes when the whole message has arrived; messages are matched
 * to receives in order by (source, tag), MPI-style, and a message that
 * arrives before its receive is posted waits as unexpected. Messages of one
 * source with one tag are received in the order they were sent (MPI's
 * non-overtaking rule): one that the network delivers before an earlier one
 * waits for it. A rank's time
 * is its operations' compute time plus the time it waits. */
#ifndef ICN_WORKLOAD_H
#define ICN_WORKLOAD_H
#include <stdint.h>
#include <stdio.h>
#include "../net/model.h"
#include "../cli/config.h"

#define WL_ANY 0xffffffffu   /* a receive's source or tag: any */

enum {
    OP_END = 0,     /* the rank has finished */
    OP_COMPUTE,     /* arg = ps of computation */
    OP_SEND,        /* blocking send of arg bytes to rank peer with tag */
    OP_ISEND,       /* non-blocking send (completes by itself; WAITALL waits for it) */
    OP_RECV,        /* blocking receive of a message from peer (or WL_ANY) with tag (or WL_ANY) */
    OP_IRECV,       /* non-blocking receive: posted, completed by WAIT or WAITALL */
    OP_WAIT,        /* wait for the rank's oldest pending IRECV from peer with tag */
    OP_WAITALL,     /* wait for every pending ISEND and IRECV of the rank */
    /* A collective's step: its own non-blocking send and receive, and the
     * wait for those two only (the application's pending requests are not
     * the collective's to complete or to wait for). */
    OP_STEP_ISEND,
    OP_STEP_IRECV,
    OP_WAITSTEP,
};

typedef struct wop {
    uint8_t kind;
    uint32_t peer, tag;
    uint64_t arg;
} wop_t;

/* A source of operations: a kernel or a trace reader, registered by name
 * (workload.source). */
typedef struct wl_source {
    const char *name, *desc;
    /* Read its keys (cfg_fail on bad input), return its state and the
     * number of ranks in *nranks. */
    void *(*open)(sim_t *s, cfg_t *c, uint32_t *nranks);
    /* The next operation of rank r into *op; op->kind = OP_END at the end.
     * Streams: memory proportional to ranks, not to the trace length. */
    void (*next)(void *st, uint32_t r, wop_t *op);
    void (*close)(void *st);
} wl_source_t;

/* A per-rank FIFO of operations, for sources that expand one record into
 * several (collectives). */
typedef struct wl_fifo { wop_t *op; uint32_t head, n, cap; } wl_fifo_t;
void wl_fifo_push(wl_fifo_t *q, wop_t op);
int wl_fifo_pop(wl_fifo_t *q, wop_t *op);   /* 0 if empty */
void wl_fifo_free(wl_fifo_t *q);

/* Collectives as point-to-point operations of rank r among the ranks
 * members[0..P-1] (r = members[me]), appended to q. Tags from `tag` on.
 *   barrier     dissemination, ceil(log2 P) rounds of 0-byte messages
 *   bcast       binomial tree from members[root]
 *   reduce      binomial tree to members[root]
 *   allreduce   ring (reduce-scatter then allgather, 2 (P - 1) steps of bytes / P)
 *   alltoall    pairwise exchange, P - 1 steps of bytes / P to each peer
 *   allgather   ring, P - 1 steps of bytes / P */
enum { COLL_BARRIER, COLL_BCAST, COLL_REDUCE, COLL_ALLREDUCE, COLL_ALLTOALL, COLL_ALLGATHER, COLL__COUNT };
void wl_collective(wl_fifo_t *q, int coll, const uint32_t *members, uint32_t P, uint32_t me, uint32_t root,
                   uint64_t bytes, uint32_t tag);

/* The Dimemas reader (src/workload/dimemas.c), also usable alone. *nranks:
 * in, the most tasks the trace may have (0: any number; a task beyond them
 * is refused as it is read, before memory is taken for it); out, the
 * trace's tasks, or, when it was refused for having more, the count of them
 * read so far (else 0). */
void *dimemas_open_file(const char *path, uint32_t *nranks, char *err, size_t errlen);
void dimemas_next(void *st, uint32_t rank, wop_t *op);
void dimemas_close(void *st);
uint64_t dimemas_runs(const void *st);   /* byte ranges kept: the reader's memory */

/* Set-up (s->wl stays NULL without workload.source) and the rest. */
int wl_wanted(cfg_t *c);
void wl_setup(sim_t *s, cfg_t *c);
void wl_free(sim_t *s);
void wl_timer(sim_t *s, uint32_t rank);              /* EV_WL_WAKE: a compute phase ends */
int wl_finished(const sim_t *s);                      /* every rank has finished */
uint64_t wl_unreceived(const sim_t *s);                /* messages sent that no receive took: in flight, unexpected or held */
int wl_stuck(const sim_t *s);                         /* no rank can progress any more */
int wl_report_stuck(const sim_t *s, FILE *f);         /* ranks blocked forever; returns their number */
void wl_write(const sim_t *s, const char *dir);
void wl_count_generated(sim_t *s);                    /* adds its messages to the generated counts */
simtime_t wl_makespan(const sim_t *s);
uint32_t wl_rank_node(const sim_t *s, uint32_t rank);   /* the node rank runs on */
void wl_list(FILE *f);

#endif
