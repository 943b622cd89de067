/* The network as the simulator sees it: devices (switches and end-node NICs)
 * with ports, every port one end of a full-duplex link.
 *
 * Ports live in one global array. A port has an input side (VC queues of the
 * packets that arrived over its link) and an output side (the credits it holds
 * for each VC of the peer's input buffer, and whether its link is busy). NIC
 * ports use only the output side; their input side is an infinitely fast sink.
 * Packets and queues are linked by 32-bit pool indices, so pools can grow by
 * realloc and the hot path never allocates. The arrays of packets, ports,
 * switches, VC queues and NICs start on a cache line (a large calloc starts
 * 16 bytes into one, which put every other 32-byte port across two lines). */
#ifndef ICN_NET_H
#define ICN_NET_H
#include <stddef.h>
#include <stdint.h>
#include "../core/evq.h"
#include "../core/rng.h"

#define NIC_BIT 0x80000000u          /* dev id of an end node: NIC_BIT | node */
#define MAX_RADIX 64                 /* switch ports (request sets are 64-bit masks) */

/* A packet's routing state: 32 bytes, aligned, so that touching one costs a
 * single cache miss (its timestamps, read only at delivery, are apart in
 * pkt_times_t). */
typedef struct packet {
    _Alignas(32) uint32_t src;
    uint32_t dst;
    uint32_t size;        /* bytes */
    uint32_t next;        /* queue link */
    uint32_t msg;         /* message record, ICN_NIL for one-packet messages; a control
                             packet's payload word (ACK: its record; CNP: the marked packet's path) */
    uint32_t flow;        /* transport: the flow (queue pair) at its source NIC; ICN_NIL without one */
    uint8_t out;          /* output port (local index, < MAX_RADIX) chosen at the current switch */
    uint8_t vc;           /* VC of the buffer the packet occupies */
    uint8_t out_vc;       /* VC it will use downstream */
    uint8_t hops;         /* switches crossed */
    uint8_t flags;        /* PKT_* */
    uint8_t kind;         /* PK_DATA, or a control packet of the transport (PK_CNP, PK_ACK) */
    uint8_t path;         /* path chosen at the source: the LID offset under an LMC, a metapath index */
    uint8_t sl;           /* InfiniBand service level (SL-to-VL tables map it per hop) */
} packet_t;

enum { PKT_FECN = 1, PKT_BECN = 2 };          /* packet.flags: IBA congestion notification bits */
enum { PK_DATA = 0, PK_CNP = 1, PK_ACK = 2 };   /* packet.kind */
_Static_assert(sizeof(packet_t) == 32, "packet_t is one half cache line");

/* A short source route (multi-step paths, src/routing/msp.c): the packet
 * travels to router via[0], then to router via[1], then to its destination,
 * by the base routing on each segment; seg counts the intermediate routers
 * reached. via[0] = ICN_NIL: no route, the packet goes straight. */
typedef struct proute { uint32_t via[2]; uint32_t seg; } proute_t;

/* The cold part of a packet, at the same index in its own array. */
typedef struct pkt_times {
    simtime_t gen;        /* message generation (enters the source queue) */
    simtime_t inj;        /* head leaves the source NIC */
} pkt_times_t;

/* Flow-control rule of a candidate hop.
 *   FC_VCT      the switch's own rule: room for the whole packet at packet
 *               level; a free output VC (wormhole) at flit level.
 *   FC_BUBBLE_* seed 004's bubble: a packet entering a ring needs room for two
 *               packets, downstream (remote) or in the router's own queue of
 *               that ring (local, plus room for one downstream).
 *   FC_WHOLE    room downstream for the whole packet even under wormhole:
 *               the admission rule of adaptive channels in Duato's routing
 *               with shared adaptive queues (Cray T3E), so an adaptive queue
 *               never holds part of a worm. */
enum { FC_VCT = 0, FC_BUBBLE_REMOTE = 1, FC_BUBBLE_LOCAL = 2, FC_WHOLE = 3 };

/* One way forward for a packet: output port, VC downstream, flow-control
 * rule. A routing returns candidates in order of preference. */
typedef struct cand {
    uint8_t out;          /* local port (radix <= MAX_RADIX = 64) */
    uint8_t ovc;
    uint8_t fc;           /* FC_*: flow-control rule */
    uint8_t lq;           /* FC_BUBBLE_LOCAL: local input port whose queue must have room for 2 packets */
} cand_t;

#define MAX_CAND 4

typedef struct vcq {
    uint32_t head, tail;  /* packet FIFO */
    uint32_t second;      /* the packet behind the head (ICN_NIL if none): lets a
                             grant prefetch the next head without a dependent load */
    uint32_t npk;
    uint32_t bytes;       /* occupancy, including a packet whose tail is still leaving */
    /* the head packet's routing, so allocation never touches packet memory */
    uint32_t head_size;   /* buffer space the head occupies (its size rounded to switch.granularity) */
    uint8_t ncand;        /* candidates of the head, in order of preference */
    uint8_t lost;         /* the head requested an output and was not granted one (IBA CC's marking rule) */
    uint16_t tries;       /* allocations the head has waited through at a contended input (starvation guard) */
    cand_t cand[MAX_CAND];
    uint32_t incoming;    /* local bubble: bytes sent towards this queue that have not arrived (they hold its room) */
} vcq_t;

/* A virtual output queue: a FIFO of packets inside one input VC, all bound
 * for one output (their routing is in the packets: out, out_vc). The head's
 * credit need and downstream VC are cached (hneed = occupancy << 8 | out_vc),
 * so a request never touches packet memory. */
typedef struct voq { uint32_t head, tail, hneed; } voq_t;

enum { PORT_VCS = 4 };      /* VCs whose credits a port record holds */
enum { PORT_CC_VCS = 2 };   /* VCs whose IBA CC occupancy it holds */

typedef struct port {
    uint32_t peer;        /* global id of the port at the other end of the link */
    uint32_t dev;         /* switch index, or NIC_BIT | node */
    uint16_t local;       /* index within its device */
    uint8_t out_busy;     /* output link transmitting (an input feeding the crossbar: its bit in sw_t.in_busy) */
    uint8_t pad_;
    uint32_t feed;        /* output side: the input port feeding it */
    uint32_t rel_bytes;   /* output side: input-buffer bytes freed when its transfer ends */
    union {
        uint32_t rel_dq;      /* VOQnet: the destination queue they are freed from */
        uint32_t feed_peer;   /* otherwise: the port upstream of feed, where their credit returns (so that the
                                 end of the transfer does not read feed's record) */
    };
    uint8_t rel_vc;       /* output side: the input VC they are freed from */
    uint8_t grant_ptr;    /* iSLIP pointer as an output */
    uint8_t accept_ptr;   /* iSLIP pointer as an input */
    uint8_t vc_ptr;       /* round-robin among this input's VCs */
    uint8_t stage;        /* topology annotation, for per-stage statistics */
    uint8_t up : 1;       /* this port leads up (towards the root) */
    uint8_t peer_nic : 1; /* the port at the other end is an end node's: a send
                             from here delivers, without reading that port */
    uint16_t vc_busy;     /* switch.crossbar = queue: input VCs feeding the crossbar */
    /* Output side, beside the fields above so that a switch output's service,
     * the credits it gets and the heads that route to it read one line. */
    uint64_t want;        /* switch output: inputs whose VC head wants it (bit per local port) */
    int32_t cr[PORT_VCS]; /* bytes free downstream per VC, with at most PORT_VCS VCs (else sim_t.credits) */
    uint32_t cc_occ[PORT_CC_VCS];   /* IBA CC: bytes queued in the switch for this output per VC, with at most
                                       PORT_CC_VCS VCs (else cc_t.occ; read them by cc_occ()) */
} port_t;
_Static_assert(sizeof(port_t) == 64, "port_t is one cache line");

typedef struct sw {
    uint32_t port0;       /* first global port */
    uint16_t nports;
    uint8_t stage;        /* 1 = leaf */
    uint8_t pending;      /* on the service list */
    uint64_t wanted;      /* outputs that some input's VC head wants (bit per local port) */
    uint64_t in_busy;     /* inputs feeding the crossbar */
    uint64_t out_busy;    /* outputs transmitting */
} sw_t;

/* A message waiting in a per-VC source queue (nic.queues = per-vc). */
/* route: with multipath routing (the flow transport), 1 + the path every
 * packet of the message takes, chosen at its first packet (0 = not yet). */
typedef struct srcmsg { simtime_t gen; uint32_t dst, left, msg; uint8_t route; } srcmsg_t;
_Static_assert(sizeof(srcmsg_t) == 24, "srcmsg_t keeps its size");
/* hdst, hsize: the head message's destination and next packet size, kept
 * here so that choosing a VC does not touch the (scattered) message rings. */
typedef struct srcq { srcmsg_t *m; uint32_t head, n, cap, hdst, hsize; } srcq_t;

typedef struct nic {
    /* Hot: what every service of the node reads or writes, then the streams
     * drawn for every message (NIC_HOT_BYTES, prefetched together). */
    _Alignas(64) uint32_t port;   /* global port id */
    uint8_t pending;
    uint8_t busy;         /* injection link transmitting */
    uint8_t srcq_rr;      /* round-robin among the source queues */
    int hot;              /* scenario role (-1 = none, else hot-spot index) */
    srcq_t *srcq;         /* per-VC source queues ([nsqs]), or NULL: one virtual FIFO */
    simtime_t next_gen;   /* generation time of the next message not yet taken */
    simtime_t wake_at;    /* a wake-up event is scheduled at this time (0 = none) */
    /* message being injected */
    uint32_t msg_dst, msg_id;
    uint32_t msg_left;    /* bytes of the current message not yet injected */
    int silent;           /* never injects (a fixed point of a permutation) */
    simtime_t msg_gen;
    uint64_t injected_pkts;
    rng_t arrival, dest;
    /* Cold: bimodal lengths, delivery counts, initial streams (read at the end). */
    rng_t sizes;          /* message-length draws (bimodal) */
    uint64_t rx_bytes;    /* delivered to this node in the measurement window */
    uint32_t w_inj, w_gen;   /* its packets injected in the window, generated in it (by the replay) */
    rng_t arrival0;       /* initial arrival stream, to count generation lazily */
    rng_t sizes0;         /* initial length stream */
} nic_t;
_Static_assert(sizeof(nic_t) % 64 == 0, "NIC records are whole cache lines");
#define NIC_HOT_BYTES offsetof(nic_t, sizes)

#endif
