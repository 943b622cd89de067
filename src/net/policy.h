/* Pluggable policies: each is a small ops table registered by name in
 * src/registry.c. Adding one means one new file and one registry line. */
#ifndef ICN_POLICY_H
#define ICN_POLICY_H
#include <stdint.h>
#include "model.h"
#include "../cli/config.h"

typedef struct topo_ops {
    const char *name, *desc;
    void (*build)(sim_t *s, cfg_t *c);       /* reads its keys, creates switches, nodes, links */
    void (*cleanup)(sim_t *s);               /* optional: frees what build() hung off topo_data besides the block */
} topo_ops;

typedef struct routing_ops {
    const char *name, *desc;
    void (*setup)(sim_t *s, cfg_t *c);       /* checks the topology fits (else cfg_fail) */
    /* The ways forward for p at switch w (it arrived on local port in, on VC
     * p->vc), in order of preference; returns their number (1..MAX_CAND).
     * Called when the packet reaches the head of its queue (at arrival with
     * routing.when = arrival, and in VOQ switches); the switch takes the
     * first candidate whose output is idle and has room. */
    int (*route)(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c);
    /* Nonzero if the routing chooses every VC itself (datelines, escape
     * channels): packets are injected on VC 0 and no queuing scheme is used. */
    int owns_vcs;
    /* Nonzero if route() may return several candidates (the VOQ switch needs
     * one output per packet at arrival). */
    int multi_cand;
    /* VCs the routing keeps for itself (AFI's adapted-flow channel: the last
     * one); the queuing scheme maps onto the others. */
    int reserved_vcs;
    /* Optional: accepts a family of names (case-insensitive patterns such as
     * ADAP-2TH-S-K/3); setup() then reads the name itself. */
    int (*match)(const char *name);
    /* Nonzero if the routing takes each hop's VC from hop_vc() below, so it
     * works with queuing schemes that choose the VC at every hop. */
    int hop_vcs;
    /* Nonzero if every route() returns one candidate that depends on the
     * destination and the switch only (a scheme may then look ahead). */
    int deterministic;
    /* Nonzero if the routing adapts to the network's state (credits,
     * occupancy): the flit model routes a waiting head again every cycle
     * (the packet model routes each packet once). Otherwise a flit router
     * keeps a head's candidates, random choices included, until it is
     * granted one. */
    int adaptive;
    /* 1 + the VC whose queues admit whole packets only (FC_WHOLE: Duato's
     * shared adaptive queue); 0: none. A queue smaller than a packet never
     * takes one, which the flit model warns of. */
    int whole_vc;
    /* Optional: frees what setup() hung off routing_data besides the block itself. */
    void (*cleanup)(sim_t *s);
} routing_ops;

typedef struct queuing_ops {
    const char *name, *desc;
    void (*setup)(sim_t *s, cfg_t *c);
    /* VC at injection, in [0, s->nsqs): the VCs left to the scheme. */
    uint8_t (*vc)(const sim_t *s, uint32_t src, uint32_t dst);
    /* Optional, for schemes that choose the VC at every hop (VOQsw): the VC
     * p takes in the buffer behind output `out` of switch w. NULL: a static
     * scheme, the VC chosen at injection is kept. */
    uint8_t (*hop)(const sim_t *s, uint32_t w, uint32_t out, const packet_t *p);
} queuing_ops;

/* The VC a packet takes downstream of output `out` of switch w, as the
 * queuing scheme wants it (routings with hop_vcs call this). */
static inline uint8_t hop_vc(const sim_t *s, uint32_t w, uint32_t out, const packet_t *p)
{
    return s->queuing->hop ? s->queuing->hop(s, w, out, p) : p->vc;
}

typedef struct arbiter_ops {
    const char *name, *desc;
    /* For each input i in `in` (a non-empty mask), req[i] is the non-empty set
     * of outputs it requests (bit per local port); entries outside `in` are
     * undefined. Set match[i] for every i in `in`: the output granted, or 0xff.
     * Pointers live in the ports. */
    void (*match)(sim_t *s, uint32_t w, uint64_t in, const uint64_t *req, uint8_t *match);
} arbiter_ops;

/* One round of a separable VC allocator (flit model, router.vc_allocator)
 * among the headers of one router that wait for an output VC. Headers are
 * router-local input VCs and output VCs router-local output VCs, both
 * numbered port * nvc + vc. */
typedef struct vca {
    uint32_t nvc, nq;         /* VCs per port; input (and output) VCs of the router */
    uint64_t todo;            /* headers still unmatched: the round clears those it serves or gives up on */
    uint64_t avail;           /* output VCs free */
    const uint64_t (*cm)[MAX_CAND];   /* [header][candidate]: output VCs it offers, in the routing's order */
    const uint8_t *nc, *k0;   /* [header]: candidates, first one to consider */
    uint8_t *ipri;            /* [header]: VC of a class it tries first (its arbiter's pointer) */
    uint8_t *vpri;            /* [output VC]: header first in line (its arbiter's pointer) */
    int move;                 /* the pointers pass this round's grants */
    int islip;                /* pointers move only past accepted grants */
    void (*grant)(struct vca *a, uint32_t header, uint32_t cand, uint32_t ovc);
    void *ctx;
} vca_t;

typedef struct vc_allocator_ops {
    const char *name, *desc;
    /* One round; returns the output VCs granted (0: nothing more this cycle). */
    uint64_t (*round)(vca_t *a);
} vc_allocator_ops;

typedef struct pattern_ops {
    const char *name, *desc;
    void (*setup)(sim_t *s, cfg_t *c, key_id k);   /* checks N fits the pattern; k named it (for errors) */
    /* Destination of a message from src; ICN_NIL if src does not inject. */
    uint32_t (*dst)(const sim_t *s, uint32_t src, rng_t *r);
} pattern_ops;

typedef struct scenario_ops {
    const char *name, *desc;
    void (*setup)(sim_t *s, cfg_t *c);       /* chooses roles (nic[n].hot) */
    /* Destination for a message generated at t by a node with a role;
     * ICN_NIL: the one traffic.pattern gives. */
    uint32_t (*dst)(const sim_t *s, uint32_t src, simtime_t t, rng_t *r);
    /* Optional, for traffic in phases: node n's load at time t, which holds
     * until *until (> t). NULL: the run's load, for ever. */
    double (*load)(const sim_t *s, uint32_t n, simtime_t t, simtime_t *until);
    /* Optional: the end of the time from t during which dst gives node src
     * (with a role) one destination and draws nothing; t or less: none. A
     * source dropping at a full flow counts such messages at once. */
    simtime_t (*dst_fixed)(const sim_t *s, uint32_t src, simtime_t t);
} scenario_ops;

typedef struct process_ops {
    const char *name, *desc;
    /* Gap to the next message; slot = serialization time of one message,
     * cycle = the router cycle (flit model; 0 in the packet model). */
    simtime_t (*gap)(rng_t *r, simtime_t slot, simtime_t cycle, double load);
    /* The lattice of its trials: PROC_SLOTS (multiples of the slot),
     * PROC_CYCLES (of the router cycle: it needs the flit model), or
     * PROC_ANY_TIME (no lattice). */
    int lattice;
    /* Optional: the gap at this load if it is fixed (the process draws
     * nothing), else 0. */
    simtime_t (*fixed)(simtime_t slot, simtime_t cycle, double load);
} process_ops;
enum { PROC_ANY_TIME = 0, PROC_SLOTS = 1, PROC_CYCLES = 2 };

/* The load that key `load` (a fraction of link bandwidth) or key `rate` (bits/us
 * per node) gives; at most one of them may be set. */
double traffic_load(sim_t *s, cfg_t *c, key_id load, key_id rate);

/* Registry lookups: NULL when unknown. */
const topo_ops *find_topo(const char *name);
const routing_ops *find_routing(const char *name);
const queuing_ops *find_queuing(const char *name);
const arbiter_ops *find_arbiter(const char *name);
const vc_allocator_ops *find_vc_allocator(const char *name);
const pattern_ops *find_pattern(const char *name);
const scenario_ops *find_scenario(const char *name);
const process_ops *find_process(const char *name);
/* Print every registered policy (for --list). */
void registry_list(FILE *f);

#endif
