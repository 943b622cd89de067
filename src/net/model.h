/* The network model's context: one simulation, passed to every module of
 * the model (network, policies, traffic, statistics). No global state. The
 * set-up and the event loop that drive it live above, in src/sim/. */
#ifndef ICN_MODEL_H
#define ICN_MODEL_H
#include <stdint.h>
#include "../core/evq.h"
#include "../core/rng.h"
#include "net.h"
#include "../stats/stats.h"

struct cfg;
struct routing_ops;
struct queuing_ops;
struct arbiter_ops;
struct pattern_ops;
struct scenario_ops;
struct process_ops;
struct topo_ops;
struct views;
typedef struct views views_t;

enum ev_type {
    EV_ARRIVE = 1,   /* a = global input port, b = packet: head arrived and routed */
    EV_XDONE,        /* a = global output port: a crossbar transfer / link transmission ends */
    EV_CREDIT,       /* a = global port * nvc + vc, b = bytes: credits reach an output */
    EV_DELIVER,      /* a = packet: tail reaches the destination NIC */
    EV_NIC_WAKE,     /* a = node: a message is generated */
    EV_NIC_DONE,     /* a = node: the injection link becomes free */
    EV_SAMPLE,       /* time series sample and watchdog */
    EV_CYCLE,        /* flit model: one router cycle */
    EV_DCREDIT,      /* VOQnet: a = destination queue, b = bytes: credits reach its upstream output */
    EV_CC_TIMER,     /* IBA CC: a = node, b = flow or CC_SL_BIT | sl: a CCTI timer expires */
    EV_MP_TIMER,     /* DRB over IB: a = node, b = pair: its CCA timer expires */
    EV_WL_WAKE,      /* workload: a = rank: its compute phase ends */
    EV_STOP,         /* the measurement window ends (time.drain: the drain starts) */
};

struct sim;

/* Mechanisms above the network model that act inside it: IBA congestion
 * control at switch outputs, the flow transport at the NICs. The network
 * calls a hook only when it is set, so it depends on none of them. */
typedef struct net_hooks {
    /* a packet queued at a switch has been routed to output go, VC vc */
    void (*queued)(struct sim *s, uint32_t go, uint8_t vc, uint32_t bytes);
    /* packet id leaves through switch output go, before taking its credits;
     * waited: it met contention for that output (see switch_forward) */
    void (*forward)(struct sim *s, uint32_t go, uint32_t id, int waited);
    /* serve node n's injection link, in place of the NIC's own source queues */
    void (*nic_service)(struct sim *s, uint32_t n);
    /* packet id reached its destination node: nonzero if consumed (not data) */
    int (*deliver)(struct sim *s, uint32_t id);
    /* Closed-loop workloads (src/workload/): take node n's next message in
     * place of its injection process (returns 0 if n runs none: the process
     * then generates as usual); message msg's last packet left node n; every
     * packet of message msg has reached its destination. Messages then carry
     * a record even when they are one packet (nic_msg_alloc). */
    int (*take)(struct sim *s, uint32_t n);
    void (*msg_sent)(struct sim *s, uint32_t n, uint32_t msg);
    void (*msg_done)(struct sim *s, uint32_t msg);
    /* A partitioned run (time.parts): schedule an event in the queue of the
     * part that owns its target, in place of the run's one queue. */
    void (*push)(struct sim *s, simtime_t t, unsigned type, uint32_t a, uint32_t b);
} net_hooks_t;

typedef struct sim {
    simtime_t now, end, warmup;
    simtime_t stop;          /* end of the measurement window (end may grow in a drain) */
    simtime_t cycle;         /* flit model: router.cycle (0 in the packet model) */
    simtime_t drain_max;     /* time.drain: end = stop + drain_max, cut short when the window's packets are all in */
    uint64_t drain_target;   /* from stop on: packets generated in the window (0 before, or with no drain) */
    int drain_met;           /* time.ties = canonical: the window's packets are all in; the run ends with its lookahead window */
    uint8_t window_ended;     /* the window's end (EV_STOP, with a drain) took the time series' last sample */
    uint8_t bubble_local;     /* the local bubble rule runs: queues count the bytes on their way in (vcq_t.incoming) */
    uint32_t bubble_unit;     /* bubble routings: the room of one full packet, the hole a ring must keep */
    simtime_t win_limit;     /* time.ties = canonical, in the drain: the end of the current lookahead window (src/sim/loop.c) */
    evq_t evq;
    uint64_t seed;
    struct cfg *cfg;

    /* network */
    uint32_t nnodes, nswitches, nports, nvc;
    uint32_t nsqs;           /* VCs the queuing scheme maps onto (nvc minus the routing's reserved VCs) */
    uint32_t radix_n, radix_k[8];   /* node ids as radix_n digits, digit d of radix radix_k[d] (fat-trees: one digit of radix N), for patterns */
    port_t *port;
    sw_t *sw;
    nic_t *nic;
    /* Bytes free downstream per output VC, read by credit(): port g's start
     * cr_base + (g << cr_shift) bytes in, in its record (port_t.cr) with up to
     * PORT_VCS VCs, else in `credits`, a power-of-two stride per port. */
    int32_t *credits;        /* with more than PORT_VCS VCs (NULL otherwise) */
    char *cr_base;
    uint32_t cr_shift;
    vcq_t *vq;               /* [port * nvc + vc] */
    uint32_t vc_cap_sw, vc_cap_nic;   /* bytes per VC of a switch / NIC input buffer */

    /* VOQ switches (switch.voq): each input VC demultiplexed per output */
    int voq_mode;
    uint32_t voq_radix;      /* VOQs per input VC: the largest switch radix */
    voq_t *voq;              /* [(port * nvc + vc) * voq_radix + output] */
    uint64_t *voq_mask;      /* [port * nvc + vc]: outputs with a non-empty VOQ */
    uint64_t *voq_std;       /* [port * nvc + vc]: outputs whose VOQ head is a full packet keeping this VC */
    uint32_t voq_full;       /* buffer space of a full packet (packet.mtu) */

    /* VOQnet (queuing.scheme = voqnet): a queue per destination at every
     * switch input, created on demand (src/net/switch_voqnet.c) */
    struct voqnet *vn;

    /* packets */
    packet_t *pkt;           /* 64-byte aligned */
    pkt_times_t *ptime;      /* [packet id] */
    /* Optional cold per-packet arrays, grown with the pool (NULL / 0 when no
     * consumer set want_parr / pext_size before the first packet): the time the head
     * entered its current switch, routed (so a packet's wait there is the
     * time it starts forwarding minus this), and pext_size opaque bytes per
     * packet for a layer above the network (the multipath header). */
    simtime_t *parr;
    proute_t *proute;        /* source routes (want_proute), initialised empty by pkt_alloc */
    /* A run over MPI ranks with messages of several packets (src/sim/ranks.c):
     * per packet its message's key (source node << 32 | the source's count of
     * such messages) and packets, which cross ranks with it; per message
     * record its key (MSG_NO_KEY once freed); per node its count. */
    uint64_t *pmsg_key;
    uint32_t *pmsg_npk;
    uint64_t *msg_key;
    uint32_t *msg_npk;
    uint32_t *msg_seq;
    uint8_t *node_here;      /* [node]: its part runs on this rank */
    int want_pmsg;
#define MSG_NO_KEY UINT64_MAX
    int want_proute;
    unsigned char *pext;
    uint32_t pext_size;
    int want_parr;
    uint32_t npkt_cap, pkt_free, pkt_live;
    uint32_t pkt_nfree;      /* records on pkt_free (a part of a threaded run keeps its own list) */

    /* multi-packet messages: [id] = packets still to deliver, generation time */
    uint32_t *msg_left;
    simtime_t *msg_gen;
    uint32_t nmsg_cap, msg_free;
    uint32_t msg_nfree;      /* records on msg_free (a part of a threaded run keeps its own list) */

    /* service list: devices whose state changed at `now` */
    uint32_t *pend;
    uint32_t npend;

    /* time.ties = canonical: the events of an instant are handled in an order
     * of their content, not of their scheduling (src/sim/loop.c) */
    int canon_ties;
    int shuffle_ties;         /* check.shuffle_ties: shuffle them first (tests) */
    rng_t tie_rng;
    event_t *inst;            /* the instant's events, as popped, then in order */
    struct keyed *inst_key, *inst_tmp;
    uint32_t inst_cap;
    uint64_t *pend_bits;      /* the devices to serve, switches then NICs, set while they are ordered */

    /* timing constants */
    double link_bps;
    simtime_t link_delay, routing_delay;
    simtime_t ser_mtu;          /* ser_time of a full packet, computed once (set-up) */
    simtime_t slot;             /* msg_slot, computed once (set-up): every message generated reads it */
    uint32_t mtu, msg_size;
    uint32_t msg_long;          /* long message size, 0 if all messages are msg_size */
    double p_long;              /* probability that a message is long */
    uint32_t gran;              /* buffer allocation unit in bytes */
    int islip_iters;
    int xbar_queue;          /* switch.crossbar = queue: every VC queue (or VOQ) is a crossbar input of its own */
    int route_at_arrival;    /* routing.when = arrival: FIFO switches route packets as they enter the buffer */
    uint32_t escape_after;   /* adaptive routings: lost arbitrations before a head waits only for its last candidate (0 = never) */

    /* policies */
    const struct topo_ops *topo;
    const struct routing_ops *routing;
    const struct queuing_ops *queuing;
    const struct arbiter_ops *arbiter;
    const struct pattern_ops *pattern;
    const struct scenario_ops *scenario;
    const struct process_ops *process;
    void *topo_data, *routing_data, *pattern_data, *scenario_data;
    double load;

    /* progress tracking for the watchdog */
    simtime_t last_progress;
    simtime_t deadlock_after;
    int deadlocked;
    uint8_t unfinished;      /* the run ended with a workload that had not finished (exit status 3) */
    uint64_t instant_events, instant_limit;   /* events handled at `now`, and the most allowed */
    uint64_t check_every, next_check;         /* check.invariants: events between checks (0 = off) */

    uint32_t srcq_limit;     /* per-VC source queues: messages each holds (0 = unbounded) */
    srcq_t *srcqs;           /* [node * nsqs]: every node's source queues */
    struct views *views;     /* per-link / per-VC views (src/stats/views.c), NULL if off */
    uint32_t part;           /* time.threads: the part this context runs (src/sim/parts.c) */
    struct parts *parts;     /* time.parts: the partitioned run's queues (src/sim/parts.c), NULL if off */
    uint64_t windows;        /* time.parts: windows run; the wall time spent between them (waiting for */
    double window_wait_s;    /* the other threads or ranks, exchanging events, samples): perf.csv */
    struct pdes_view *pdes;  /* views.pdes: parallel-run window statistics (src/stats/view_pdes.c), NULL if off */
    net_hooks_t hooks;
    struct transport *tp;    /* flows and control packets at the NICs (src/transport/), NULL if off */
    struct cc *cc;           /* IBA congestion control (src/cc/), NULL if off */
    struct mp *mp;           /* multipath routing: DRB, PR-DRB (src/multipath/), NULL if off */
    struct wl *wl;           /* closed-loop workload (src/workload/), NULL if none */
    int flit_mode;           /* switch.model = flit */
    void *flit;              /* its state (src/net/flit.c) */

    stats_t st;
    int progress_tty;        /* print a progress line on stderr */
} sim_t;

/* The port of output VC cv (port * nvc + vc), without a division when there
 * is one VC (a credit's port is found on every credit). */
static inline uint32_t cv_port(const sim_t *s, uint32_t cv) { return s->nvc == 1 ? cv : cv / s->nvc; }

/* Bytes free downstream of VC vc of output port g: in the port's record
 * (the line its service and its credits' arrival read anyway) unless the
 * network has more VCs than it holds. */
static inline int32_t *credit(const sim_t *s, uint32_t g, uint32_t vc)
{
    return (int32_t *)(s->cr_base + ((size_t)g << s->cr_shift)) + vc;
}
/* The same, by output VC cv (port * nvc + vc). */
static inline int32_t *credit_cv(const sim_t *s, uint32_t cv)
{
    uint32_t g = cv_port(s, cv);
    return credit(s, g, cv - g * s->nvc);
}

/* Buffer space (and credits) a packet of `size` bytes occupies. */
static inline uint32_t occ_bytes(const sim_t *s, uint32_t size)
{
    return s->gran == 1 ? size : (size + s->gran - 1) / s->gran * s->gran;
}

/* Size of the next packet of a message with `left` bytes still to send. */
static inline uint32_t next_pkt_size(const sim_t *s, uint32_t left)
{
    return left < s->mtu ? left : s->mtu;
}

/* Packets of a message of `bytes` bytes. */
static inline uint32_t msg_packets(const sim_t *s, uint32_t bytes) { return (bytes + s->mtu - 1) / s->mtu; }

/* Mean message size in bytes (the load's unit of work). */
static inline double mean_msg_size(const sim_t *s)
{
    return s->msg_long ? (1 - s->p_long) * s->msg_size + s->p_long * s->msg_long : s->msg_size;
}

/* An injection slot: the mean message's serialization time, so that load is
 * a fraction of link bandwidth whatever the length distribution. */
static inline simtime_t msg_slot_of(const sim_t *s)
{
    return (simtime_t)(mean_msg_size(s) * 8.0 * 1e12 / s->link_bps + 0.5);
}
static inline simtime_t msg_slot(const sim_t *s) { return s->slot; }

/* Serialization time of `bytes` on a link. */
static inline simtime_t ser_time(const sim_t *s, uint32_t bytes)
{
    return (simtime_t)((double)bytes * 8.0 * 1e12 / s->link_bps + 0.5);
}

/* A packet generated at time gen leaves the statistics' sample (delivered,
 * or dropped by a full source queue): in the drain, once all the window's
 * packets have, the run ends: at once, or, in the canonical order, with the
 * lookahead window of a partitioned run (src/sim/loop.c), where the parts
 * learn the whole network's count. */
static inline int in_measure(const sim_t *s, simtime_t gen) { return gen >= s->warmup && gen < s->stop; }
static inline void drain_check(sim_t *s)
{
    if (s->drain_target && s->st.w_lat_pkts + s->st.w_src_drops >= s->drain_target && s->end > s->now) {
        if (s->canon_ties) s->drain_met = 1;
        else s->end = s->now;
    }
}

/* Mark a device for service at the current time (coalesced). */
/* Schedule an event of the network model. */
static inline void sim_push(sim_t *s, simtime_t t, unsigned type, uint32_t a, uint32_t b)
{
    if (__builtin_expect(s->hooks.push != NULL, 0)) s->hooks.push(s, t, type, a, b);
    else evq_push(&s->evq, t, type, a, b);
}

static inline void sim_touch_switch(sim_t *s, uint32_t w)
{
    if (!s->sw[w].pending) { s->sw[w].pending = 1; s->pend[s->npend++] = w; }
}
static inline void sim_touch_nic(sim_t *s, uint32_t n)
{
    if (!s->nic[n].pending) { s->nic[n].pending = 1; s->pend[s->npend++] = NIC_BIT | n; }
}

/* Network construction helpers for topologies. */
void net_alloc(sim_t *s, uint32_t nswitches, const uint16_t *ports_per_switch, uint32_t nnodes);
void net_link(sim_t *s, uint32_t gport_a, uint32_t gport_b);
/* Where a 32-bit word per (port, VC) lives, for access as base + (port <<
 * shift) + VC words: in the port records at byte `offset`, when the network
 * has at most `in_record` VCs (returns NULL), else in a new zeroed array with
 * a power-of-two stride per port (returned, for the caller to free). */
void *port_vc_words(sim_t *s, size_t offset, uint32_t in_record, char **base, uint32_t *shift);
static inline uint32_t sw_port(const sim_t *s, uint32_t w, uint32_t p) { return s->sw[w].port0 + p; }

/* Packet pool. */
uint32_t pkt_alloc(sim_t *s);
void pkt_release(sim_t *s, uint32_t id);

/* The end of the lookahead window that starts at t, as a partitioned run
 * forms them (src/sim/parts.c): link.delay long, cut short by the next
 * sample, the measurement window's end or the run's end. */
static inline simtime_t sim_window_limit(const sim_t *s, simtime_t t)
{
    simtime_t lim = t + s->link_delay;
    if (s->st.interval) {   /* the next sample */
        simtime_t k = (t / s->st.interval + 1) * s->st.interval;
        if (k < lim) lim = k;
    }
    if (s->stop > t && s->stop < lim) lim = s->stop;   /* the window's end (EV_STOP) */
    return lim < s->end ? lim : s->end;
}

#endif
