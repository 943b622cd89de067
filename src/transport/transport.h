/* The transport at the end nodes: flows (queue pairs) with one send queue
 * each, and control packets (CNPs) that travel like data.
 *
 * A flow is (source, destination): the state an InfiniBand HCA keeps per
 * connected QP. Messages generated at a node are moved, in generation order,
 * into the send queue of their flow; the injection link serves the flows
 * round-robin among those whose head may go (credits for it downstream, and
 * its congestion-control delay elapsed), so a throttled flow never blocks
 * the others. Flows are created when a message or a congestion notification
 * first needs one and freed when their queue is empty and their congestion
 * state is at rest, so memory follows the active flows, not N x N. A node
 * keeps at most nic.flows of them (an HCA's send scheduler is finite too):
 * a message for a new destination beyond that waits, with those generated
 * after it, in the node's (virtual, free) source queue until a flow ends.
 * Memory is thus bounded by nodes x nic.flows x nic.queue_limit messages,
 * plus the flows BECNs create past nic.flows (which also take messages).
 *
 * With multipath routing (src/multipath/) a message's path is chosen when
 * its first packet leaves, and a destination may answer every message with
 * an ACK.
 *
 * Control packets are packets: they take the SL (injection VC) of the packet they answer,
 * the destination's injection link (ahead of its data), credits and link
 * time at every hop, and can be delayed by congestion. */
#ifndef ICN_TRANSPORT_H
#define ICN_TRANSPORT_H
#include "../net/model.h"
#include "../cli/config.h"

/* Congestion-control state of a source (per flow, or per node and SL):
 * the CCT index, whether its timer runs, and when its next packet may start. */
typedef struct cca {
    simtime_t ready;          /* earliest start of the next packet (IRD spacing) */
    uint16_t ccti;
    uint8_t timer_on;
    uint8_t pad_;
    uint32_t becns;           /* BECNs received */
} cca_t;

/* A flow's send queue holds its one message in the record itself (cap =
 * 0) until it needs more, then a ring (m, cap > 0) that the record keeps,
 * in the same bytes: most flows of a saturated node hold one message, and
 * reading it then costs no miss beyond the record's. A saturated network
 * holds millions of these records, so they are kept small: their memory's
 * first touch is much of such a run's time. */
typedef struct flow {
    uint32_t node, dst;       /* node = ICN_NIL: a free record */
    union {
        uint32_t head;        /* send queue: n messages from m[head], or `one` while cap = 0 */
        uint32_t next;        /* a free record: the next free one of its node */
    };
    uint32_t n, cap;
    uint8_t state;            /* FL_IDLE (no message), FL_READY (in its ready queue), FL_THROTTLED (in the heap) */
    uint8_t vc;               /* the VC (and SL) the queuing scheme gives the flow at injection */
    cca_t cc;                 /* used when congestion control is per flow */
    union {
        srcmsg_t one;         /* cap = 0 */
        srcmsg_t *m;          /* cap > 0 */
    };
    simtime_t born;           /* created: rx_bytes counts only packets sent since */
    uint64_t tx_bytes, rx_bytes;   /* sent, and delivered in the measurement window */
} flow_t;
_Static_assert(sizeof(flow_t) == 88, "flow records are 88 bytes (nic.flows' help says so)");

/* The ready flows of a node and VC, served in turn: the head sends a packet
 * and, if it has more, goes to the tail (round-robin). */
typedef struct fq { uint32_t *q; uint32_t head, n, cap; } fq_t;

/* A throttled flow in its node's heap, keyed by the time it may send. */
typedef struct hent { simtime_t until; uint32_t f; } hent_t;

/* A control packet waiting at a node for its injection link. */
typedef struct ctrl {
    uint32_t dst;
    uint8_t kind, vc, flags, path;   /* path: a CNP's marked packet's path (LID offset) */
    uint32_t aux;                    /* an ACK's payload record (the multipath layer's) */
} ctrl_t;

enum { FL_IDLE, FL_READY, FL_THROTTLED };

/* A flow-table slot: the key is kept beside the id, so a look-up never
 * touches the (scattered) flow records. */
typedef struct htent { uint32_t dst, f; } htent_t;

typedef struct tnode {
    _Alignas(64) htent_t *ht;   /* open-addressing table of flows, keyed by destination (f = ICN_NIL: empty) */
    uint32_t htcap, nflows;
    hent_t *heap;             /* throttled flows with messages, earliest first (then lower id) */
    uint32_t nheap, heap_cap;
    uint32_t vc_rr;           /* round-robin among the VCs with ready flows */
    ctrl_t *cq;               /* control packets to send, FIFO ring */
    uint32_t cq_head, cq_n, cq_cap;
    srcmsg_t held;            /* the next message, waiting for a flow (held.left = 0: none) */
    uint32_t free;            /* the node's freed flow records, chained through flow.next */
    uint32_t last_dst, last_f;  /* the flow found last (a hot-spot source finds it again) */
    struct ended *ended;      /* flows ended lately whose last packet's end can still matter (a ring) */
    uint32_t ended_head, ended_n, ended_cap;
    uint8_t held_waits;       /* held has no flow and the node has nic.flows: wait for one to end */
    uint8_t stalled;          /* no VC had room at the last service: wake-ups are replayed, not scheduled */
} tnode_t;
_Static_assert(sizeof(tnode_t) % 64 == 0, "transport node records are whole cache lines");

/* The congestion control a transport's sources obey (src/cc/ sets it). */
typedef struct tp_cc {
    /* earliest start of flow f's next packet */
    simtime_t (*ready)(struct sim *s, uint32_t f);
    /* flow f started a packet of `bytes` now */
    void (*sent)(struct sim *s, uint32_t f, uint32_t bytes);
    /* a BECN reached node n for its traffic to dst on SL sl, path `path` */
    void (*becn)(struct sim *s, uint32_t n, uint32_t dst, uint8_t sl, uint8_t path);
    /* the flows of a node and VC share one state (cc.port_control = sl):
     * when the first ready one may not go, none may */
    uint8_t per_vc;
} tp_cc_t;

/* The multipath routing a transport's sources follow (src/multipath/). */
typedef struct tp_mp {
    /* the path of node n's next message to dst */
    uint8_t (*pick)(struct sim *s, uint32_t n, uint32_t dst);
    /* packet id leaves on `path`: write its route and header */
    void (*stamp)(struct sim *s, uint32_t id, uint8_t path);
    /* Optional (NULL: no ACKs). Data packet id, the last of its message,
     * reached its destination: returns the record of its ACK's payload. */
    uint32_t (*ack_out)(struct sim *s, uint32_t id);
    /* Optional. Data packet id, not the last of its message, reached its
     * destination: what its header holds is released (the ACK carries the
     * last packet's). */
    void (*passed)(struct sim *s, uint32_t id);
    /* ACK id, whose payload word (packet.msg) names its record, reached the
     * data's source */
    void (*ack_in)(struct sim *s, uint32_t id);
    uint32_t ack_size;   /* bytes of an ACK on the wire */
} tp_mp_t;

/* Flow records live in chunks of FLOW_CHUNK that never move once allocated,
 * so a pointer to a flow stays valid however many flows are created after
 * it, and a growing pool is never copied. A chunk is large and aligned to
 * huge pages: its records are taken in order, so the memory touched is a
 * prefix of it, faulted in 2 MB at a time rather than 4 KB. */
#define FLOW_CHUNK_BITS 16
#define FLOW_CHUNK (1u << FLOW_CHUNK_BITS)

typedef struct transport {
    flow_t **chunk;           /* pool: flow f is chunk[f >> FLOW_CHUNK_BITS][f % FLOW_CHUNK]; ids are stable,
                                 and a freed id serves its node again */
    uint32_t nchunks, chunk_cap;
    uint32_t nflow_cap, nflow_used, flows_live;   /* records allocated, ever used (the rest unset), live */
    uint32_t flows_peak;      /* the most flows one node held at once */
    uint32_t *ringed;         /* the records that own a message ring (kept across reuse), for the teardown */
    uint32_t nringed, ringed_cap;
    tnode_t *node;            /* [nnodes] */
    fq_t *ready;              /* [node * nvc + vc] */
    uint32_t queue_limit;     /* messages a send queue holds (0 = unbounded) */
    uint32_t max_flows;       /* flows a node keeps at once (nic.flows) */
    uint32_t cnp_size;        /* bytes of a CNP on the wire */
    uint64_t cnp_sent, cnp_delivered, ctrl_inj, ctrl_del;
    const tp_cc_t *cc;        /* NULL: sources are never throttled */
    const tp_mp_t *mp;        /* NULL: every packet takes path 0 */
    uint64_t ack_sent, ack_delivered;
    uint16_t rest_ccti;       /* a flow's CCT index at rest (CCTI_Min): new flows start there */
    simtime_t keep_end;       /* per-flow CC: how long an ended flow's last packet's end matters (the
                                 largest IRD); 0: never kept */
    uint32_t min_pkt;         /* bytes of the smallest packet of a generated message (a last one, a remainder, included) */
    uint8_t no_stall;         /* nodes never stall (tests compare the two ways) */
    uint8_t no_runs;          /* drops are never counted in runs (drop_run: tests compare the two ways) */
    uint64_t run_drops;       /* messages drop_run counted */
    uint64_t held_joined;     /* messages that waited for a flow and joined one a BECN made */
} transport_t;

static inline flow_t *flow_at(const transport_t *t, uint32_t f)
{
    return &t->chunk[f >> FLOW_CHUNK_BITS][f & (FLOW_CHUNK - 1)];
}

/* Set-up (s->tp stays NULL when no mechanism needs flows) and teardown. */
void transport_setup(sim_t *s, cfg_t *c, int needed);
void transport_free(sim_t *s);
/* Installed as the network's NIC hooks (net_hooks_t): the NIC's service
 * (control packets first, then the next flow round-robin whose head may go),
 * and delivery, where control packets are consumed (returns 1) and a data
 * packet with FECN set makes the destination queue a CNP back to its source
 * (returns 0: delivered as data). */
/* The flow of node n to dst, created if absent. */
uint32_t flow_get(sim_t *s, uint32_t n, uint32_t dst);
/* Release flow f if it holds nothing (no message, congestion state at rest). */
void flow_maybe_free(sim_t *s, uint32_t f);
/* The end of the last packet of node n's ended flow to dst, if a flow that
 * starts now must still space its next packet from it; else 0. */
simtime_t flow_ended_ready(sim_t *s, uint32_t n, uint32_t dst);
/* Every stalled node catches up to `until`: at the measurement window's end
 * (its messages must all be taken or dropped before the drain counts them)
 * and at the run's (messages generated before the end that no service took
 * join their flows or are dropped, as they would have at their generation
 * times, so the end-of-run counts do not depend on when nodes were served). */
void transport_sync(sim_t *s, simtime_t until);
/* Invariant (check.invariants): a node's next message waits for a flow to
 * end only while it has none to join and the node holds nic.flows. Prints
 * what broke and returns 1. */
int transport_check(const sim_t *s);
/* Node n's flows are about to change from outside its service (a BECN, a
 * timer): first bring them up to now (see transport.c, stalled nodes). */
void transport_catch_up(sim_t *s, uint32_t n);
/* The congestion state of node n's flows changed so that throttled ones may
 * go sooner: recompute their wake-up times. */
void transport_rekey(sim_t *s, uint32_t n);

#endif
