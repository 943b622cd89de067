/* Input-queued virtual cut-through switch, packet level.
 *
 * A packet is routed when its head arrives (after the routing delay) and waits
 * in the FIFO of its VC. When the switch is serviced, every idle input offers
 * the heads of its VCs whose output link is idle and whose downstream VC has
 * credits for the whole packet; the allocator matches inputs to outputs, and a
 * matched packet streams through the crossbar onto the link. Its buffer space
 * is freed, and the credit sent upstream, when its tail has left. */
#include "link.h"
#include "policy.h"
#include "../core/util.h"

void link_send(sim_t *s, uint32_t go, uint32_t id)
{
    packet_t *p = &s->pkt[id];
    port_t *o = &s->port[go];
    uint32_t peer = o->peer, cv = go * s->nvc + p->out_vc;
    simtime_t ser = ser_time(s, p->size);
    uint32_t occ = occ_bytes(s, p->size);
    s->credits[cv] -= (int32_t)occ;
    o->out_busy = 1;
    evq_push(&s->evq, s->now + ser, EV_XDONE, go, 0);
    s->st.pkt_hops++;
    s->last_progress = s->now;
    if (s->port[peer].dev & NIC_BIT) {
        /* The sink drains at link rate: the space is free once the tail is in. */
        evq_push(&s->evq, s->now + s->link_delay + ser, EV_DELIVER, id, s->port[peer].dev & ~NIC_BIT);
        evq_push(&s->evq, s->now + 2 * s->link_delay + ser, EV_CREDIT, cv, occ);
    } else {
        evq_push(&s->evq, s->now + s->link_delay + s->routing_delay, EV_ARRIVE, peer, id);
    }
}

/* Flow control for the head of q towards its output, whose credit counters
 * are cr[]: room for the whole packet (virtual cut-through), or for two when
 * the packet enters a ring under the bubble rule. */
static inline int room_ok(const sim_t *s, uint32_t port0, const int32_t *cr, const vcq_t *q)
{
    int32_t need = (int32_t)q->head_size;
    if (__builtin_expect(q->head_bubble != BUBBLE_NONE, 0)) {
        if (q->head_bubble == BUBBLE_REMOTE) need *= 2;
        else if (s->vc_cap_sw - s->vq[(port0 + q->head_lq) * s->nvc + q->head_ovc].bytes < 2 * q->head_size) return 0;
    }
    return cr[q->head_ovc] >= need;
}

/* want[o] tracks which inputs have a VC head routed to output o. */
static inline void want_set(sim_t *s, sw_t *sw, unsigned i, unsigned o)
{
    s->want[sw->port0 + o] |= 1ull << i;
    sw->wanted |= 1ull << o;
}

/* Input i's VC head for output o left: clear the bit unless another VC head
 * of the same input still wants o. */
static inline void want_clear(sim_t *s, sw_t *sw, unsigned i, unsigned o)
{
    const vcq_t *q = &s->vq[(sw->port0 + i) * s->nvc];
    for (uint32_t v = 0; v < s->nvc; v++)
        if (q[v].npk && q[v].head_out == o) return;
    uint64_t *wm = &s->want[sw->port0 + o];
    if (!(*wm &= ~(1ull << i))) sw->wanted &= ~(1ull << o);
}

void switch_arrive(sim_t *s, uint32_t gi, uint32_t id)
{
    packet_t *p = &s->pkt[id];
    port_t *in = &s->port[gi];
    uint32_t w = in->dev;
    p->vc = p->out_vc;
    p->hops++;
    s->routing->route(s, w, in->local, p);
    vcq_t *q = &s->vq[gi * s->nvc + p->vc];
    q->bytes += occ_bytes(s, p->size);
    if (q->bytes > s->vc_cap_sw)
        die("buffer overflow at switch %u port %u vc %u (%u > %u bytes)",
            w, in->local, p->vc, q->bytes, s->vc_cap_sw);
    p->next = ICN_NIL;
    if (q->npk++ == 0) {
        q->head = q->tail = id;
        q->head_size = occ_bytes(s, p->size);
        q->head_out = p->out;
        q->head_ovc = p->out_vc;
        q->head_bubble = p->bubble;
        q->head_lq = p->lq;
        sw_t *sw = &s->sw[w];
        want_set(s, sw, in->local, p->out);
        /* Serve only if it can go now; otherwise the end of the busy input's
         * or output's transfer, or the missing credits or room, will serve the
         * switch (a bubble's local room frees with the end of a transfer). */
        if (!in->in_busy && !(sw->out_busy >> p->out & 1) &&
            room_ok(s, sw->port0, &s->credits[(sw->port0 + p->out) * s->nvc], q))
            sim_touch_switch(s, w);
    } else {
        s->pkt[q->tail].next = id;
        q->tail = id;
    }
}

void port_xdone(sim_t *s, uint32_t go)
{
    port_t *o = &s->port[go];
    o->out_busy = 0;
    if (o->dev & NIC_BIT) {
        s->nic[o->dev & ~NIC_BIT].busy = 0;
        sim_touch_nic(s, o->dev & ~NIC_BIT);
        return;
    }
    port_t *in = &s->port[o->feed];
    in->in_busy = 0;
    s->sw[o->dev].in_busy &= ~(1ull << in->local);
    s->sw[o->dev].out_busy &= ~(1ull << o->local);
    s->vq[o->feed * s->nvc + in->rel_vc].bytes -= in->rel_bytes;
    evq_push(&s->evq, s->now + s->link_delay, EV_CREDIT, in->peer * s->nvc + in->rel_vc, in->rel_bytes);
    sim_touch_switch(s, o->dev);
}

void switch_service(sim_t *s, uint32_t w)
{
    sw_t *sw = &s->sw[w];
    uint64_t outs = sw->wanted & ~sw->out_busy, in = 0, req[MAX_RADIX];
    uint8_t match[MAX_RADIX];
    uint32_t nvc = s->nvc, port0 = sw->port0;
    /* Requests: for each idle output that some head wants, the idle inputs
     * whose head for it has credits downstream for the whole packet. */
    for (; outs; outs &= outs - 1) {
        unsigned o = (unsigned)__builtin_ctzll(outs);
        const int32_t *cr = &s->credits[(port0 + o) * nvc];
        for (uint64_t m = s->want[port0 + o] & ~sw->in_busy; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctzll(m);
            const vcq_t *q = &s->vq[(port0 + i) * nvc];
            for (uint32_t v = 0; v < nvc; v++) {
                if (!q[v].npk || q[v].head_out != o || !room_ok(s, port0, cr, &q[v])) continue;
                if (!(in >> i & 1)) { in |= 1ull << i; req[i] = 0; }
                req[i] |= 1ull << o;
                break;
            }
        }
    }
    if (!in) return;
    s->arbiter->match(s, w, in, req, match);
    for (; in; in &= in - 1) {
        unsigned i = (unsigned)__builtin_ctzll(in), o = match[i];
        if (o == 0xff) continue;
        uint32_t gi = port0 + i, go = port0 + o;
        port_t *ip = &s->port[gi];
        vcq_t *qs = &s->vq[gi * nvc];
        const int32_t *cr = &s->credits[go * nvc];
        /* Round-robin among this input's VCs whose head can go to o. */
        uint32_t v = ip->vc_ptr, chosen = ICN_NIL;
        for (uint32_t k = 0; k < nvc; k++, v = (v + 1 == nvc ? 0 : v + 1))
            if (qs[v].npk && qs[v].head_out == o && room_ok(s, port0, cr, &qs[v])) { chosen = v; break; }
        if (chosen == ICN_NIL) die("allocator matched input %u to output %u with no ready packet", i, o);
        ip->vc_ptr = (uint8_t)(chosen + 1 == nvc ? 0 : chosen + 1);
        vcq_t *q = &qs[chosen];
        uint32_t id = q->head;
        q->head = s->pkt[id].next;
        if (--q->npk == 0) {
            q->head = q->tail = ICN_NIL;
        } else {
            const packet_t *h = &s->pkt[q->head];
            q->head_size = occ_bytes(s, h->size);
            q->head_out = h->out;
            q->head_ovc = h->out_vc;
            q->head_bubble = h->bubble;
            q->head_lq = h->lq;
        }
        if (!q->npk || q->head_out != o) {
            want_clear(s, sw, i, o);
            if (q->npk) want_set(s, sw, i, q->head_out);
        }
        ip->in_busy = 1;
        ip->rel_bytes = occ_bytes(s, s->pkt[id].size);
        ip->rel_vc = (uint8_t)chosen;
        sw->in_busy |= 1ull << i;
        sw->out_busy |= 1ull << o;
        s->port[go].feed = gi;
        link_send(s, go, id);
    }
}
