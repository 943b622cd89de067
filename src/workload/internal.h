/* The workload layer's state, shared by its files. */
#ifndef ICN_WL_INTERNAL_H
#define ICN_WL_INTERNAL_H
#include "workload.h"

enum { RS_RUN, RS_COMPUTE, RS_SEND, RS_RECV, RS_WAIT, RS_WAITALL, RS_WAITSTEP, RS_DONE };

typedef struct wmsg {          /* a message between ranks */
    uint32_t src, dst, tag;
    uint32_t next;             /* its node's send FIFO, or a rank's unexpected list, or the free list */
    uint64_t bytes;
    uint8_t blocking;          /* a blocking SEND: its rank waits for the last packet to leave */
    uint8_t step;              /* a collective step's send */
    uint32_t seq;              /* its number among its source's messages to its rank with its tag */
} wmsg_t;

/* MPI's non-overtaking rule: messages of one source to a rank with one tag
 * are received in the order they were sent, whatever order the network
 * delivers them in (adaptive routing, several paths). Per receiving rank, an
 * open-addressing table of the (source, tag) pairs with messages in flight:
 * how many were sent and how many received (sent = 0: an empty slot). */
typedef struct wseq { uint32_t src, tag, sent, recvd; } wseq_t;

typedef struct wreq {          /* a posted receive */
    uint32_t src, tag;
    uint32_t next, prev;       /* its rank's posted list (next: also the free list) */
    uint32_t onext, oprev;     /* its rank's open list, while not done */
    uint8_t done;
    uint8_t step;              /* a collective step's receive */
} wreq_t;

typedef struct wrank {
    uint32_t node;
    uint8_t state;             /* RS_* */
    uint32_t pending;          /* ISENDs not yet sent and receives not yet completed, not being waited for one by one */
    uint32_t step_pending;     /* the same of the collective step under way */
    uint32_t posted, posted_tail;   /* receives posted and not yet waited for, in order */
    uint32_t open, open_tail;  /* those of them not yet done, in order: what an arriving message
                                  is matched against, however many done ones await their waits */
    uint32_t ux_head, ux_tail; /* messages that arrived before their receive */
    uint32_t held;             /* messages that arrived before an earlier one of their source and tag (a list) */
    wseq_t *seq;               /* see wseq_t */
    uint32_t seq_cap, seq_n;
    uint32_t wait_req, wait_peer, wait_tag;
    simtime_t since;           /* blocked since */
    simtime_t comm, compute, finish;
    uint64_t ops;
} wrank_t;

/* A rank on `node` that has done nothing: its lists empty. The one place
 * that knows them all (set-up, and tests that restart the ranks). */
static inline wrank_t wl_rank_new(uint32_t node)
{
    return (wrank_t){ .node = node, .posted = ICN_NIL, .posted_tail = ICN_NIL, .open = ICN_NIL, .open_tail = ICN_NIL,
                      .ux_head = ICN_NIL, .ux_tail = ICN_NIL, .held = ICN_NIL };
}

typedef struct wnode { uint32_t rank, head, tail; } wnode_t;   /* its rank (ICN_NIL: none) and send FIFO */

typedef struct wl {
    const wl_source_t *src;
    void *src_state;
    uint32_t nranks, done, computing, inflight, stuck, starting;
    wrank_t *rank;
    wnode_t *node;             /* [nnodes] */
    wmsg_t *msg; uint32_t nmsg, msg_free;
    wreq_t *req; uint32_t nreq, req_free;
    uint32_t *map, nmap;       /* NIC message record -> message */
    simtime_t makespan;
    uint64_t sent_msgs, gen_pkts, gen_bytes, rx_bytes;
    uint64_t *ts_gen_pkts, *ts_gen_bytes;   /* per time-series bin (set up with the first message) */
} wl_t;

void wl_start(sim_t *s);

#endif
