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
#include "../stats/views.h"

void link_send(sim_t *s, uint32_t go, uint32_t id)
{
    packet_t *p = &s->pkt[id];
    port_t *o = &s->port[go];
    uint32_t peer = o->peer, cv = go * s->nvc + p->out_vc;
    simtime_t ser = p->size == s->mtu ? s->ser_mtu : ser_time(s, p->size);   /* (no division for a full packet) */
    uint32_t occ = occ_bytes(s, p->size);
    if (s->vn && !o->peer_nic) voqnet_take(s, peer, p->dst, occ);
    else *credit(s, go, p->out_vc) -= (int32_t)occ;
    o->out_busy = 1;
    sim_push(s, s->now + ser, EV_XDONE, go, 0);
    s->st.pkt_hops++;
    if (__builtin_expect(s->views != NULL, 0)) views_on_send(s, go, id);
    if (s->now > s->last_progress) s->last_progress = s->now;   /* parts of a partitioned run send out of time order */
    if (o->peer_nic) {
        /* The sink drains at link rate: the space is free once the tail is in.
         * End nodes' ports follow the switches' in node order. */
        sim_push(s, s->now + s->link_delay + ser, EV_DELIVER, id, peer - (s->nports - s->nnodes));
        sim_push(s, s->now + 2 * s->link_delay + ser, EV_CREDIT, cv, occ);
    } else {
        if (__builtin_expect(s->bubble_local, 0)) s->vq[peer * s->nvc + p->out_vc].incoming += occ;
        sim_push(s, s->now + s->link_delay + s->routing_delay, EV_ARRIVE, peer, id);
    }
}

/* Flow control for a head of `occ` bytes taking candidate c: room for the
 * whole packet downstream (virtual cut-through), or, under the bubble rule
 * when entering a ring, for the packet and a bubble of one full packet
 * (bubble_unit: a short packet must not take the hole a full one needs)
 * downstream (remote), or in this router's queue of that ring, counting the
 * packets on their way into it, with room for the packet downstream (local). */
static inline int room_ok(const sim_t *s, uint32_t port0, const cand_t *c, uint32_t occ)
{
    int32_t need = (int32_t)occ;
    if (__builtin_expect(c->fc == FC_BUBBLE_REMOTE || c->fc == FC_BUBBLE_LOCAL, 0)) {
        if (c->fc == FC_BUBBLE_REMOTE) need += (int32_t)s->bubble_unit;
        else {
            const vcq_t *lq = &s->vq[(port0 + c->lq) * s->nvc + c->ovc];
            if ((int64_t)s->vc_cap_sw - lq->bytes - lq->incoming < (int64_t)occ + s->bubble_unit) return 0;
        }
    }
    return *credit(s, port0 + c->out, c->ovc) >= need;
}

/* The head's first candidate whose output is idle and has room, or NULL.
 * After routing.escape_after lost arbitrations only the last candidate (an
 * adaptive routing's escape channel) is considered. */
static inline const cand_t *first_avail(const sim_t *s, uint32_t port0, uint64_t free_out, const vcq_t *q)
{
    if (q->ncand == 1) {   /* deterministic routings */
        const cand_t *c = &q->cand[0];
        return (free_out >> c->out & 1) && room_ok(s, port0, c, q->head_size) ? c : NULL;
    }
    uint32_t k = s->escape_after && q->tries >= s->escape_after ? q->ncand - 1u : 0;
    for (; k < q->ncand; k++) {
        const cand_t *c = &q->cand[k];
        if ((free_out >> c->out & 1) && room_ok(s, port0, c, q->head_size)) return c;
    }
    return NULL;
}

static inline uint64_t cand_outs(const vcq_t *q)
{
    uint64_t m = 0;
    for (uint32_t k = 0; k < q->ncand; k++) m |= 1ull << q->cand[k].out;
    return m;
}

/* want[o] tracks which inputs have a VC head with a candidate on output o. */
static inline void want_set(sim_t *s, sw_t *sw, unsigned i, uint64_t outs)
{
    for (; outs; outs &= outs - 1) {
        uint32_t go = sw->port0 + (unsigned)__builtin_ctzll(outs);
        s->port[go].want |= 1ull << i;
        views_out_changed(s, go);
    }
}

/* Outputs `outs` lost a candidate of input i: clear each unless another VC
 * head of the input still has a candidate there. */
static inline void want_clear(sim_t *s, sw_t *sw, unsigned i, uint64_t outs, uint32_t nvc)
{
    const vcq_t *q = &s->vq[(sw->port0 + i) * nvc];
    for (uint32_t v = 0; v < nvc && outs; v++)
        if (q[v].npk) outs &= ~cand_outs(&q[v]);
    for (; outs; outs &= outs - 1) {
        unsigned o = (unsigned)__builtin_ctzll(outs);
        if (!(s->port[sw->port0 + o].want &= ~(1ull << i))) sw->wanted &= ~(1ull << o);
        views_out_changed(s, sw->port0 + o);
    }
}

/* Route packet id, now the head of queue q at switch w, input i. */
static inline void head_load(sim_t *s, sw_t *sw, uint32_t w, unsigned i, vcq_t *q, uint32_t id)
{
    const packet_t *h = &s->pkt[id];
    q->head_size = occ_bytes(s, h->size);
    q->tries = 0;
    q->lost = 0;
    if (s->route_at_arrival) {   /* routed when it entered the buffer (switch_arrive) */
        q->ncand = 1;
        q->cand[0] = (cand_t){ (uint8_t)h->out, h->out_vc, FC_VCT, 0 };
    } else {
        q->ncand = (uint8_t)s->routing->route(s, w, i, h, q->cand);
    }
    uint64_t outs = cand_outs(q);
    want_set(s, sw, i, outs);
    sw->wanted |= outs;
}

void switch_arrive(sim_t *s, uint32_t gi, uint32_t id)
{
    packet_t *p = pkt_enter(s, id);
    port_t *in = &s->port[gi];
    uint32_t w = in->dev;
    vcq_t *q = &s->vq[gi * s->nvc + p->vc];
    uint32_t occ = occ_bytes(s, p->size);
    q->bytes += occ;
    if (__builtin_expect(s->bubble_local, 0)) q->incoming -= occ;
    if (q->bytes > s->vc_cap_sw)
        die("buffer overflow at switch %u port %u vc %u (%u > %u bytes)",
            w, in->local, p->vc, q->bytes, s->vc_cap_sw);
    p->next = ICN_NIL;
    if (s->route_at_arrival) {   /* routing.when = arrival: decide now, with the credits of now */
        cand_t c[MAX_CAND];
        s->routing->route(s, w, in->local, p, c);
        p->out = c[0].out;
        p->out_vc = c[0].ovc;
        if (__builtin_expect(s->hooks.queued != NULL, 0)) s->hooks.queued(s, s->sw[w].port0 + p->out, p->out_vc, occ);
    }
    if (q->npk++ == 0) {
        q->head = q->tail = id;
        q->second = ICN_NIL;
        sw_t *sw = &s->sw[w];
        head_load(s, sw, w, in->local, q, id);
        /* Serve only if it can go now; otherwise the end of the busy input's
         * or output's transfer, or the missing credits or room, will serve the
         * switch (a bubble's local room frees with the end of a transfer). */
        if (!(sw->in_busy >> in->local & 1) && first_avail(s, sw->port0, ~sw->out_busy, q)) sim_touch_switch(s, w);
    } else {
        if (q->npk == 2) q->second = id;
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
    sw_t *sw = &s->sw[o->dev];
    if (s->xbar_queue) s->port[o->feed].vc_busy &= (uint16_t)~(1u << o->rel_vc);
    else sw->in_busy &= ~(1ull << (o->feed - sw->port0));
    sw->out_busy &= ~(1ull << o->local);
    views_out_changed(s, go);
    if (s->vn) {
        voqnet_release(s, go);
    } else {
        s->vq[o->feed * s->nvc + o->rel_vc].bytes -= o->rel_bytes;
        sim_push(s, s->now + s->link_delay, EV_CREDIT, o->feed_peer * s->nvc + o->rel_vc, o->rel_bytes);
    }
    sim_touch_switch(s, o->dev);
}

/* The head of VC v of input i leaves by candidate c: take it out of its
 * queue, route the packet behind it, and start it through the crossbar. */
static inline __attribute__((always_inline)) void grant_head(sim_t *s, sw_t *sw, uint32_t w, unsigned i, uint32_t v,
                                                            cand_t c, uint32_t nvc)
{
    vcq_t *q = &s->vq[(sw->port0 + i) * nvc + v];
    uint32_t id = q->head;
    packet_t *p = &s->pkt[id];
    p->out = c.out;
    p->out_vc = c.ovc;
    int waited = q->lost;   /* it lost an arbitration for its output at least once */
    uint64_t old = cand_outs(q);
    q->head = q->second;
    if (--q->npk == 0) {
        q->head = q->tail = ICN_NIL;
        q->ncand = 0;
    } else {
        q->second = q->npk > 1 ? s->pkt[q->head].next : ICN_NIL;
        head_load(s, sw, w, i, q, q->head);
    }
    want_clear(s, sw, i, old & ~cand_outs(q), nvc);
    switch_forward(s, w, i, c.out, id, (uint8_t)v, waited);
}

/* The body of switch_service, inlined twice: with nvc = 1 (one queue per
 * input, the compiler drops the VC loops) and with the network's nvc. */
static inline __attribute__((always_inline)) void service(sim_t *s, uint32_t w, uint32_t nvc)
{
    sw_t *sw = &s->sw[w];
    uint64_t free_out = ~sw->out_busy, in = 0, req[MAX_RADIX], reqvc[MAX_RADIX];
    uint8_t match[MAX_RADIX];
    const cand_t *asked[MAX_RADIX];   /* one VC: the candidate each input requested */
    uint32_t port0 = sw->port0;
    /* Requests: each idle input offers, per VC head, its first available
     * candidate; only heads with a candidate on an idle output can have one. */
    for (uint64_t m = inputs_to_offer(s, sw, free_out); m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        const vcq_t *q = &s->vq[(port0 + i) * nvc];
        req[i] = reqvc[i] = 0;
        for (uint32_t v = 0; v < nvc; v++) {
            if (!q[v].npk) continue;
            const cand_t *c = first_avail(s, port0, free_out, &q[v]);
            if (c) { req[i] |= 1ull << c->out; reqvc[i] |= 1ull << v; }
            if (nvc == 1) asked[i] = c;
        }
        if (req[i]) in |= 1ull << i;
    }
    if (!in) return;
    s->arbiter->match(s, w, in, req, match);
    /* Packet records are far apart in memory: fetch the heads (which will
     * leave) and the packets behind them (which get routed) of every granted
     * input at once, rather than one dependent miss after another. */
    for (uint64_t m = in; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        if (match[i] == 0xff) continue;
        const vcq_t *qs = &s->vq[(port0 + i) * nvc];
        for (uint32_t v = 0; v < nvc; v++) {
            if (!qs[v].npk) continue;
            __builtin_prefetch(&s->pkt[qs[v].head], 1);
            if (qs[v].second != ICN_NIL) __builtin_prefetch(&s->pkt[qs[v].second], 1);
        }
    }
    for (; in; in &= in - 1) {
        unsigned i = (unsigned)__builtin_ctzll(in), o = match[i];
        uint32_t gi = port0 + i;
        port_t *ip = &s->port[gi];
        vcq_t *qs = &s->vq[gi * nvc];
        if (o == 0xff) {   /* lost the arbitration: every head waits (the starvation guard), those that requested lost */
            for (uint32_t v = 0; v < nvc; v++) if (qs[v].npk && qs[v].tries < UINT16_MAX) qs[v].tries++;
            for (uint64_t r = reqvc[i]; r; r &= r - 1) qs[__builtin_ctzll(r)].lost = 1;
            continue;
        }
        /* Round-robin among this input's VCs whose head's first available
         * candidate is o. With one VC that is the candidate the input asked
         * for: the grants before it changed other outputs and queues only. */
        uint32_t v = ip->vc_ptr, chosen = ICN_NIL;
        const cand_t *c = NULL;
        if (nvc == 1) {
            c = asked[i];
            chosen = c && c->out == o ? 0 : ICN_NIL;
        } else {
            for (uint32_t k = 0; k < nvc; k++, v = (v + 1 == nvc ? 0 : v + 1)) {
                if (!qs[v].npk) continue;
                c = first_avail(s, port0, free_out, &qs[v]);
                if (c && c->out == o) { chosen = v; break; }
            }
        }
        if (chosen == ICN_NIL) die("allocator matched input %u to output %u with no ready packet", i, o);
        for (uint64_t r = reqvc[i] & ~(1ull << chosen); r; r &= r - 1) qs[__builtin_ctzll(r)].lost = 1;   /* its other requests lost */
        ip->vc_ptr = (uint8_t)(chosen + 1 == nvc ? 0 : chosen + 1);
        free_out &= ~(1ull << o);
        grant_head(s, sw, w, i, chosen, *c, nvc);
    }
}

void switch_service(sim_t *s, uint32_t w)
{
    if (s->nvc == 1) service(s, w, 1);
    else service(s, w, s->nvc);
}

/* switch.crossbar = queue: every VC of an input is a crossbar input of its
 * own (one packet at a time per VC), so an input port feeds as many outputs
 * at once as it has VCs whose heads can go to distinct outputs. Each VC head
 * requests one output, its first available candidate, so no input ever has
 * two grants to choose from: every requested output grants, round-robin, one
 * of the inputs that request it, and within that input the next VC in
 * round-robin order that requests it. */
void switch_service_per_queue(sim_t *s, uint32_t w)
{
    sw_t *sw = &s->sw[w];
    uint64_t free_out = ~sw->out_busy, outs = 0, reqout[MAX_RADIX];
    uint16_t reqvc[MAX_RADIX];
    uint8_t pick[MAX_RADIX][16];   /* which candidate each requesting VC head asked for */
    uint32_t nvc = s->nvc, port0 = sw->port0;
    unsigned n = sw->nports;
    uint64_t offer = inputs_to_offer(s, sw, free_out);
    for (uint64_t m = offer; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        const vcq_t *q = &s->vq[(port0 + i) * nvc];
        uint32_t busy = s->port[port0 + i].vc_busy;
        reqvc[i] = 0;
        for (uint32_t v = 0; v < nvc; v++) {
            if (!q[v].npk || busy >> v & 1) continue;
            const cand_t *c = first_avail(s, port0, free_out, &q[v]);
            if (!c) continue;
            if (!(outs >> c->out & 1)) { outs |= 1ull << c->out; reqout[c->out] = 0; }
            reqout[c->out] |= 1ull << i;
            reqvc[i] |= (uint16_t)(1u << v);
            pick[i][v] = (uint8_t)(c - q[v].cand);
        }
    }
    /* A grant changes only its own output and that output's credits, so
     * every other request stays as it was made. */
    for (; outs; outs &= outs - 1) {
        unsigned o = (unsigned)__builtin_ctzll(outs);
        port_t *op = &s->port[port0 + o];
        unsigned i = rr_pick(reqout[o], op->grant_ptr, n);
        op->grant_ptr = rr_next(i, n);
        port_t *ip = &s->port[port0 + i];
        const vcq_t *qs = &s->vq[(port0 + i) * nvc];
        uint32_t v = ip->vc_ptr, chosen = ICN_NIL;
        for (uint32_t k = 0; k < nvc; k++, v = (v + 1 == nvc ? 0 : v + 1))
            if ((reqvc[i] >> v & 1) && qs[v].cand[pick[i][v]].out == o) { chosen = v; break; }
        if (chosen == ICN_NIL) die("allocator granted output %u to input %u with no ready VC", o, i);
        ip->vc_ptr = (uint8_t)(chosen + 1 == nvc ? 0 : chosen + 1);
        reqvc[i] &= (uint16_t)~(1u << chosen);
        free_out &= ~(1ull << o);
        grant_head(s, sw, w, i, chosen, qs[chosen].cand[pick[i][chosen]], s->nvc);
    }
    /* heads that requested and were not granted: the starvation guard */
    for (uint64_t m = offer; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        vcq_t *qs = &s->vq[(port0 + i) * nvc];
        for (uint32_t r = reqvc[i]; r; r &= r - 1) {
            vcq_t *q = &qs[__builtin_ctz(r)];
            if (q->tries < UINT16_MAX) q->tries++;
            q->lost = 1;
        }
    }
}

void switch_forward(sim_t *s, uint32_t w, unsigned i, unsigned o, uint32_t id, uint8_t vc, int waited)
{
    sw_t *sw = &s->sw[w];
    uint32_t gi = sw->port0 + i, go = sw->port0 + o;
    port_t *ip = &s->port[gi], *op = &s->port[go];
    if (s->xbar_queue) {   /* only this VC's read port is taken */
        ip->vc_busy |= (uint16_t)(1u << vc);
    } else {
        sw->in_busy |= 1ull << i;
    }
    op->rel_bytes = occ_bytes(s, s->pkt[id].size);
    op->rel_vc = vc;
    sw->out_busy |= 1ull << o;
    op->feed = gi;
    op->feed_peer = ip->peer;   /* (VOQnet sets rel_dq in its place once this returns) */
    if (__builtin_expect(s->hooks.forward != NULL, 0)) s->hooks.forward(s, go, id, waited);
    link_send(s, go, id);
}

void buffer_foreach(sim_t *s, uint32_t b, pkt_visit_fn f, void *arg)
{
    if (s->vn) {   /* one buffer per port (switch.vcs = 1), split per destination */
        voqnet_foreach(s, b, f, arg);
        return;
    }
    if (!s->voq_mode) {
        for (uint32_t id = s->vq[b].head; id != ICN_NIL; id = s->pkt[id].next) f(s, id, arg);
        return;
    }
    for (uint64_t m = s->voq_mask[b]; m; m &= m - 1)
        for (uint32_t id = s->voq[(size_t)b * s->voq_radix + (unsigned)__builtin_ctzll(m)].head; id != ICN_NIL;
             id = s->pkt[id].next)
            f(s, id, arg);
}

int buffer_waits_for(const sim_t *s, uint32_t b, uint32_t *out, uint32_t *ovc)
{
    if (s->vn) return 0;   /* the cycle report does not follow VOQnet's per-destination queues */
    if (!s->voq_mode) {
        const vcq_t *q = &s->vq[b];
        if (!q->npk) return 0;
        const cand_t *h = &q->cand[q->ncand - 1];   /* deterministic, or an adaptive routing's escape */
        *out = h->out;
        *ovc = h->ovc;
        return 1;
    }
    if (!s->voq_mask[b]) return 0;
    const packet_t *p = &s->pkt[s->voq[(size_t)b * s->voq_radix + (unsigned)__builtin_ctzll(s->voq_mask[b])].head];
    *out = p->out;
    *ovc = p->out_vc;
    return 1;
}
