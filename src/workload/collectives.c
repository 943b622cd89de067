/* Collectives expanded into point-to-point operations, by the algorithms
 * of workload.h. Each rank's share is computed alone (no global schedule),
 * so a source can expand a collective for one rank when that rank reaches
 * it. Every step posts its receive and its send, then waits for both (and
 * for nothing else the rank has pending). */
#include "workload.h"
#include "../core/util.h"
#include <stdlib.h>

void wl_fifo_push(wl_fifo_t *q, wop_t op)
{
    if (q->n == q->cap) q->op = ring_grow(q->op, &q->head, &q->cap, sizeof *q->op);
    q->op[(q->head + q->n++) % q->cap] = op;
}

int wl_fifo_pop(wl_fifo_t *q, wop_t *op)
{
    if (!q->n) return 0;
    *op = q->op[q->head];
    q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
    q->n--;
    return 1;
}

void wl_fifo_free(wl_fifo_t *q)
{
    free(q->op);
    *q = (wl_fifo_t){ 0 };
}

/* One exchange step: receive from `from`, send to `to` (either may be
 * ICN_NIL), then wait for both. */
static void step(wl_fifo_t *q, uint32_t to, uint64_t sbytes, uint32_t from, uint64_t rbytes, uint32_t tag)
{
    if (from != ICN_NIL) wl_fifo_push(q, (wop_t){ OP_STEP_IRECV, from, tag, rbytes });
    if (to != ICN_NIL) wl_fifo_push(q, (wop_t){ OP_STEP_ISEND, to, tag, sbytes });
    wl_fifo_push(q, (wop_t){ OP_WAITSTEP, 0, 0, 0 });
}

void wl_collective(wl_fifo_t *q, int coll, const uint32_t *m, uint32_t P, uint32_t me, uint32_t root,
                   uint64_t bytes, uint32_t tag)
{
    if (P < 2) return;
    uint32_t rel = (me + P - root) % P;   /* position relative to the root */
    uint64_t chunk = (bytes + P - 1) / P;
    switch (coll) {
    case COLL_BARRIER:
        for (uint32_t d = 1; d < P; d <<= 1) step(q, m[(me + d) % P], 0, m[(me + P - d) % P], 0, tag);
        break;
    case COLL_BCAST: {   /* binomial: receive from the parent, then send to the children */
        uint32_t mask = 1;
        while (mask < P && !(rel & mask)) mask <<= 1;
        if (rel) step(q, ICN_NIL, 0, m[((rel & ~mask) + root) % P], bytes, tag);
        for (mask >>= 1; mask; mask >>= 1)
            if (rel + mask < P) step(q, m[(rel + mask + root) % P], bytes, ICN_NIL, 0, tag);   /* bits below rel's lowest */
        break;
    }
    case COLL_REDUCE: {   /* binomial, the bcast's messages reversed */
        uint32_t mask = 1;
        for (; mask < P; mask <<= 1) {
            if (rel & mask) { step(q, m[((rel & ~mask) + root) % P], bytes, ICN_NIL, 0, tag); break; }
            if (rel + mask < P) step(q, ICN_NIL, 0, m[(rel + mask + root) % P], bytes, tag);
        }
        break;
    }
    case COLL_ALLREDUCE:
        for (uint32_t k = 0; k < 2 * (P - 1); k++) step(q, m[(me + 1) % P], chunk, m[(me + P - 1) % P], chunk, tag);
        break;
    case COLL_ALLGATHER:
        for (uint32_t k = 0; k < P - 1; k++) step(q, m[(me + 1) % P], chunk, m[(me + P - 1) % P], chunk, tag);
        break;
    case COLL_ALLTOALL:
        for (uint32_t k = 1; k < P; k++) step(q, m[(me + k) % P], chunk, m[(me + P - k) % P], chunk, tag);
        break;
    }
}
