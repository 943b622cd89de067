/* Per-hop mechanics shared by switches and NICs. */
#ifndef ICN_LINK_H
#define ICN_LINK_H
#include "model.h"

/* Start sending packet id out of global port `go` on VC p->out_vc: takes the
 * credits, occupies the link for one serialization time and schedules the head
 * arrival downstream (or the delivery, if the peer is an end node). */
void link_send(sim_t *s, uint32_t go, uint32_t id);

/* Packet id, just taken out of VC `vc` of local input i of switch w, starts
 * through the crossbar to local output o and onto its link. `waited`: it
 * lost an arbitration for that output at the head (it met contention there). */
void switch_forward(sim_t *s, uint32_t w, unsigned i, unsigned o, uint32_t id, uint8_t vc, int waited);

/* A packet's head enters the switch input it was sent to: it now occupies
 * the VC chosen upstream and has crossed one more switch. */
static inline packet_t *pkt_enter(sim_t *s, uint32_t id)
{
    packet_t *p = &s->pkt[id];
    p->vc = p->out_vc;
    p->hops++;
    if (__builtin_expect(s->parr != NULL, 0)) s->parr[id] = s->now;
    return p;
}

/* The idle inputs of switch sw that want some idle output: the only ones
 * that can have a request when it is serviced (every switch architecture). */
static inline uint64_t inputs_to_offer(const sim_t *s, const sw_t *sw, uint64_t free_out)
{
    uint64_t m = 0;
    for (uint64_t outs = sw->wanted & free_out; outs; outs &= outs - 1)
        m |= s->port[sw->port0 + (unsigned)__builtin_ctzll(outs)].want;
    return m & ~sw->in_busy;
}

/* First set bit of m at or after position p, cyclically over n bits (m != 0). */
static inline unsigned rr_pick(uint64_t m, unsigned p, unsigned n)
{
    uint64_t hi = p < 64 ? m & (~0ull << p) : 0;
    unsigned i = (unsigned)__builtin_ctzll(hi ? hi : m);
    return i < n ? i : (unsigned)__builtin_ctzll(m);
}

/* The round-robin position after i among n (i < n), without a division. */
static inline uint8_t rr_next(unsigned i, unsigned n) { return (uint8_t)(i + 1 == n ? 0 : i + 1); }

/* Event handlers. */
void switch_arrive(sim_t *s, uint32_t gi, uint32_t id);
/* The VOQ switch (switch.voq): the same events with per-output queues. */
void voq_arrive(sim_t *s, uint32_t gi, uint32_t id);
void voq_service(sim_t *s, uint32_t w);
void voq_setup(sim_t *s);
/* VOQnet (src/net/switch_voqnet.c): per-destination queues and credits. */
struct cfg;
void voqnet_setup(sim_t *s, struct cfg *c);
void voqnet_free(sim_t *s);
void voqnet_arrive(sim_t *s, uint32_t gi, uint32_t id);
void voqnet_service(sim_t *s, uint32_t w);
void voqnet_release(sim_t *s, uint32_t g);
void voqnet_credit(sim_t *s, uint32_t x, uint32_t bytes);
/* Room for occ bytes in the queue for dst at switch input port `port`; take it. */
int voqnet_room(const sim_t *s, uint32_t port, uint32_t dst, uint32_t occ);
void voqnet_take(sim_t *s, uint32_t port, uint32_t dst, uint32_t occ);
/* Destination queues that exist now, and at most so far. */
void voqnet_queue_counts(const sim_t *s, uint32_t *live, uint32_t *peak);
/* The packets queued in buffer b (global port * nvc + vc), in no particular order. */
typedef void (*pkt_visit_fn)(sim_t *s, uint32_t id, void *arg);
void buffer_foreach(sim_t *s, uint32_t b, pkt_visit_fn f, void *arg);
/* VOQnet: the packets queued at switch input `port`, over all its destination queues. */
void voqnet_foreach(sim_t *s, uint32_t port, pkt_visit_fn f, void *arg);
/* The next hop a blocked buffer waits for (for deadlock reports): 0 if empty. */
int buffer_waits_for(const sim_t *s, uint32_t b, uint32_t *out, uint32_t *ovc);
void port_xdone(sim_t *s, uint32_t go);
/* VOQnet invariants (adds the packets it holds to *in_buffers); nonzero if broken. */
int voqnet_check(sim_t *s, uint64_t *in_buffers);
void switch_service(sim_t *s, uint32_t w);
/* switch.crossbar = queue: every VC queue (every VOQ) is a crossbar input. */
void switch_service_per_queue(sim_t *s, uint32_t w);
void voq_service_per_queue(sim_t *s, uint32_t w);
void nic_service(sim_t *s, uint32_t n);
void nic_deliver(sim_t *s, uint32_t id);
/* The next packet node n would inject: 0 if none is due (a wake-up is then
 * scheduled for the next generation), else its size and VC. */
int nic_peek(sim_t *s, uint32_t n, uint32_t *size, uint8_t *vc);
/* Create that packet (after nic_peek) and count its injection. */
uint32_t nic_make_packet(sim_t *s, uint32_t n, uint32_t size, uint8_t vc);
/* Take the next message from node n's (virtual) source queue. */
void nic_take_message(sim_t *s, uint32_t n);
/* A message record for npk packets generated at gen (nic_deliver frees it). */
uint32_t nic_msg_alloc(sim_t *s, uint32_t npk, simtime_t gen);
/* A message record back on the free list. */
static inline void nic_msg_release(sim_t *s, uint32_t id)
{
    s->msg_left[id] = s->msg_free;
    s->msg_free = id;
    s->msg_nfree++;
}
/* A message of `left` bytes generated at gen, with record msg (ICN_NIL: one
 * packet), is dropped at a full source queue: its packets count as dropped,
 * and as leaving the window's sample if it was generated in the window. */
static inline void nic_drop_message(sim_t *s, uint32_t left, simtime_t gen, uint32_t msg)
{
    uint32_t npk = msg_packets(s, left);
    s->st.src_drops += npk;
    if (in_measure(s, gen)) {
        s->st.w_src_drops += npk;
        s->st.w_done_tsum += (psum_t)npk * gen;
        drain_check(s);
    }
    if (msg != ICN_NIL) nic_msg_release(s, msg);
}
/* Count messages generated up to the end, for statistics (replays arrivals). */
void nic_count_generated(sim_t *s);
/* The first message node n generates after time t, drawing from its arrival
 * stream r (SIMTIME_MAX: none before the end of the run). */
simtime_t nic_next_arrival(const sim_t *s, uint32_t n, rng_t *r, simtime_t t);

#endif
