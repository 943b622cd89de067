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
    s->credits[cv] -= (int32_t)p->size;
    o->out_busy = 1;
    evq_push(&s->evq, s->now + ser, EV_XDONE, go, 0);
    s->st.pkt_hops++;
    s->last_progress = s->now;
    if (s->port[peer].dev & NIC_BIT) {
        /* The sink drains at link rate: the space is free once the tail is in. */
        evq_push(&s->evq, s->now + s->link_delay + ser, EV_DELIVER, id, s->port[peer].dev & ~NIC_BIT);
        evq_push(&s->evq, s->now + 2 * s->link_delay + ser, EV_CREDIT, cv, p->size);
    } else {
        evq_push(&s->evq, s->now + s->link_delay + s->routing_delay, EV_ARRIVE, peer, id);
    }
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
    q->bytes += p->size;
    if (q->bytes > s->vc_cap_sw)
        die("buffer overflow at switch %u port %u vc %u (%u > %u bytes)",
            w, in->local, p->vc, q->bytes, s->vc_cap_sw);
    p->next = ICN_NIL;
    if (q->npk++ == 0) {
        q->head = q->tail = id;
        q->head_size = p->size;
        q->head_out = p->out;
        q->head_ovc = p->out_vc;
        sw_t *sw = &s->sw[w];
        sw->waiting |= 1ull << in->local;
        /* Serve only if it can go now; otherwise the end of the busy input's
         * or output's transfer, or the missing credits, will serve the switch. */
        if (!in->in_busy && !(sw->out_busy >> p->out & 1) &&
            s->credits[(sw->port0 + p->out) * s->nvc + p->out_vc] >= (int32_t)p->size)
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

/* Can the head of queue q go now? (free_out: this switch's idle outputs) */
static inline int head_ready(const sim_t *s, uint32_t port0, uint64_t free_out, const vcq_t *q)
{
    return q->npk && (free_out >> q->head_out & 1) &&
           s->credits[(port0 + q->head_out) * s->nvc + q->head_ovc] >= (int32_t)q->head_size;
}

void switch_service(sim_t *s, uint32_t w)
{
    sw_t *sw = &s->sw[w];
    uint64_t req[MAX_RADIX], any = 0, free_out = ~sw->out_busy;
    uint64_t cand = sw->waiting & ~sw->in_busy;
    uint8_t match[MAX_RADIX];
    uint32_t nvc = s->nvc;
    if (!cand || !(free_out & (sw->nports == 64 ? ~0ull : (1ull << sw->nports) - 1))) return;
    for (unsigned i = 0; i < sw->nports; i++) req[i] = 0;
    for (uint64_t m = cand; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        const vcq_t *q = &s->vq[(sw->port0 + i) * nvc];
        for (uint32_t v = 0; v < nvc; v++)
            if (head_ready(s, sw->port0, free_out, &q[v])) req[i] |= 1ull << q[v].head_out;
        any |= req[i];
    }
    if (!any) return;
    s->arbiter->match(s, w, req, match);
    for (unsigned i = 0; i < sw->nports; i++) {
        if (match[i] == 0xff) continue;
        uint32_t gi = sw->port0 + i, go = sw->port0 + match[i];
        port_t *in = &s->port[gi];
        vcq_t *qs = &s->vq[gi * nvc];
        /* Round-robin among this input's VCs whose head wants the output. */
        uint32_t v = in->vc_ptr, chosen = ICN_NIL;
        for (uint32_t k = 0; k < nvc; k++, v = (v + 1 == nvc ? 0 : v + 1))
            if (head_ready(s, sw->port0, free_out, &qs[v]) && qs[v].head_out == match[i]) { chosen = v; break; }
        if (chosen == ICN_NIL) die("allocator matched input %u to output %u with no ready packet", i, match[i]);
        in->vc_ptr = (uint8_t)(chosen + 1 == nvc ? 0 : chosen + 1);
        vcq_t *q = &qs[chosen];
        uint32_t id = q->head;
        q->head = s->pkt[id].next;
        if (--q->npk == 0) {
            q->head = q->tail = ICN_NIL;
            int empty = 1;
            for (uint32_t k = 0; k < nvc; k++) if (qs[k].npk) { empty = 0; break; }
            if (empty) sw->waiting &= ~(1ull << i);
        } else {
            const packet_t *h = &s->pkt[q->head];
            q->head_size = h->size;
            q->head_out = h->out;
            q->head_ovc = h->out_vc;
        }
        in->in_busy = 1;
        in->rel_bytes = s->pkt[id].size;
        in->rel_vc = (uint8_t)chosen;
        sw->in_busy |= 1ull << i;
        sw->out_busy |= 1ull << match[i];
        free_out &= ~(1ull << match[i]);
        s->port[go].feed = gi;
        link_send(s, go, id);
    }
}
