/* Input-queued switch with virtual output queues (switch.voq = true).
 *
 * Each VC of an input buffer is demultiplexed per output port, so a packet is
 * routed when its head arrives (its output picks its VOQ) and waits behind
 * packets for the same output only: no low-order HoL blocking. Flow control
 * stays per VC (seeds 000 and 002: "flow-control is performed at VC level, but
 * not at VOQ level"), so one VOQ can fill its VC's whole share of the buffer.
 * At service time every VOQ head of an idle input whose output is idle and
 * whose downstream VC has room for it may request the crossbar; the allocator
 * then matches inputs to outputs as in the plain switch (src/net/switch.c),
 * whose crossbar and link mechanics this file shares. */
#include "link.h"
#include "policy.h"
#include "../core/util.h"
#include "../stats/views.h"

void voq_setup(sim_t *s)
{
    uint32_t r = 1;
    for (uint32_t w = 0; w < s->nswitches; w++)
        if (s->sw[w].nports > r) r = s->sw[w].nports;
    s->voq_radix = r;
    size_t n = (size_t)s->nports * s->nvc * r;
    s->voq = xmalloc(n * sizeof *s->voq);
    for (size_t k = 0; k < n; k++) s->voq[k].head = s->voq[k].tail = ICN_NIL;
    s->voq_mask = xcalloc((size_t)s->nports * s->nvc, sizeof *s->voq_mask);
    s->voq_std = xcalloc((size_t)s->nports * s->nvc, sizeof *s->voq_std);
    s->voq_full = occ_bytes(s, s->mtu);
}

static inline voq_t *voq_at(const sim_t *s, uint32_t b, uint32_t o)
{
    return &s->voq[(size_t)b * s->voq_radix + o];
}

/* Cache the need of the head of VOQ o of buffer b (VC vc), and whether it is
 * the common one: a full packet that stays on its VC. */
static inline void head_cache(sim_t *s, uint32_t b, uint32_t vc, uint32_t o)
{
    voq_t *v = voq_at(s, b, o);
    const packet_t *h = &s->pkt[v->head];
    v->hneed = occ_bytes(s, h->size) << 8 | h->out_vc;
    if (v->hneed == (s->voq_full << 8 | vc)) s->voq_std[b] |= 1ull << o;
    else s->voq_std[b] &= ~(1ull << o);
}

/* Outputs among outs whose downstream VC v has room for a full packet. */
static inline uint64_t room_full(const sim_t *s, uint32_t port0, uint64_t outs, uint32_t v)
{
    uint64_t m = 0;
    for (; outs; outs &= outs - 1) {
        unsigned o = (unsigned)__builtin_ctzll(outs);
        if (*credit(s, port0 + o, v) >= (int32_t)s->voq_full) m |= 1ull << o;
    }
    return m;
}

/* Room downstream for the head of VOQ o of buffer b. */
static inline int head_ready(const sim_t *s, uint32_t port0, uint32_t b, uint32_t o)
{
    uint32_t hn = voq_at(s, b, o)->hneed;
    return *credit(s, port0 + o, (hn & 0xff)) >= (int32_t)(hn >> 8);
}

void voq_arrive(sim_t *s, uint32_t gi, uint32_t id)
{
    packet_t *p = pkt_enter(s, id);
    port_t *in = &s->port[gi];
    uint32_t w = in->dev;
    sw_t *sw = &s->sw[w];
    uint32_t b = gi * s->nvc + p->vc;
    vcq_t *q = &s->vq[b];
    q->bytes += occ_bytes(s, p->size);
    if (q->bytes > s->vc_cap_sw)
        die("buffer overflow at switch %u port %u vc %u (%u > %u bytes)", w, in->local, p->vc, q->bytes, s->vc_cap_sw);
    q->npk++;
    cand_t c[MAX_CAND];
    if (s->routing->route(s, w, in->local, p, c) != 1)
        die("routing %s gave a VOQ switch several candidates", s->routing->name);
    p->out = c[0].out;
    p->out_vc = c[0].ovc;
    p->next = ICN_NIL;
    if (__builtin_expect(s->hooks.queued != NULL, 0)) s->hooks.queued(s, s->sw[w].port0 + p->out, p->out_vc, occ_bytes(s, p->size));
    voq_t *v = voq_at(s, b, p->out);
    if (!(s->voq_mask[b] >> p->out & 1)) {   /* the mask, not v->head: it is fetched already */
        v->head = v->tail = id;
        head_cache(s, b, p->vc, p->out);
        s->voq_mask[b] |= 1ull << p->out;
        s->port[sw->port0 + p->out].want |= 1ull << in->local;
        sw->wanted |= 1ull << p->out;
        views_out_changed(s, sw->port0 + p->out);
        if (!(sw->in_busy >> in->local & 1) && !(sw->out_busy >> p->out & 1) && head_ready(s, sw->port0, b, p->out))
            sim_touch_switch(s, w);
    } else {
        s->pkt[v->tail].next = id;
        v->tail = id;
    }
}

/* The head of VOQ o of VC v of input i leaves: take it out, and start it
 * through the crossbar. */
static void grant_voq(sim_t *s, sw_t *sw, uint32_t w, unsigned i, uint32_t v, unsigned o)
{
    uint32_t nvc = s->nvc, port0 = sw->port0, b0 = (port0 + i) * nvc, b = b0 + v;
    voq_t *vq = voq_at(s, b, o);
    uint32_t id = vq->head;
    vq->head = s->pkt[id].next;
    s->vq[b].npk--;
    if (vq->head != ICN_NIL) {
        head_cache(s, b, v, o);
    } else {
        vq->tail = ICN_NIL;
        s->voq_mask[b] &= ~(1ull << o);
        int more = 0;
        for (uint32_t u = 0; u < nvc; u++) more |= (int)(s->voq_mask[b0 + u] >> o & 1);
        if (!more && !(s->port[port0 + o].want &= ~(1ull << i))) sw->wanted &= ~(1ull << o);
        views_out_changed(s, port0 + o);
    }
    switch_forward(s, w, i, o, id, (uint8_t)v, 1);
}

void voq_service(sim_t *s, uint32_t w)
{
    sw_t *sw = &s->sw[w];
    uint64_t free_out = ~sw->out_busy, in = 0, req[MAX_RADIX];
    uint8_t match[MAX_RADIX];
    uint32_t nvc = s->nvc, port0 = sw->port0;
    /* Most heads are full packets that keep their VC (voq_std): whether they
     * can go depends only on their output's credits, so those are read once
     * per output and VC (room[v]) instead of once per head; only the other
     * heads read their cached need, which lies in memory far apart. */
    uint64_t outs = sw->wanted & free_out, room[64], have = 0, offer = inputs_to_offer(s, sw, free_out);
    for (uint64_t m = offer; m; m &= m - 1) {   /* the inputs' rows, far apart: fetch them at once */
        uint32_t b0 = (port0 + (unsigned)__builtin_ctzll(m)) * nvc;
        __builtin_prefetch(&s->voq_mask[b0]);
        __builtin_prefetch(&s->voq_std[b0]);
    }
    for (uint64_t m = offer; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        uint32_t b0 = (port0 + i) * nvc;
        req[i] = 0;
        for (uint32_t v = 0; v < nvc; v++) {
            uint64_t k = s->voq_mask[b0 + v] & free_out & ~req[i];
            if (!k) continue;
            if (!(have >> v & 1)) { room[v] = room_full(s, port0, outs, v); have |= 1ull << v; }
            uint64_t std = k & s->voq_std[b0 + v];
            req[i] |= std & room[v];
            for (k &= ~std; k; k &= k - 1) {
                unsigned o2 = (unsigned)__builtin_ctzll(k);
                if (head_ready(s, port0, b0 + v, o2)) req[i] |= 1ull << o2;
            }
        }
        if (req[i]) in |= 1ull << i;
    }
    if (!in) return;
    s->arbiter->match(s, w, in, req, match);
    /* Fetch the granted VOQs, then their heads' packet records, at once (see
     * switch.c): the misses overlap instead of following one another. */
    for (int pass = 0; pass < 3; pass++)
        for (uint64_t m = in; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctzll(m), o = match[i];
            if (o == 0xff) continue;
            for (uint32_t v = 0, b0 = (port0 + i) * nvc; v < nvc; v++) {
                if (!(s->voq_mask[b0 + v] >> o & 1)) continue;
                const voq_t *q = voq_at(s, b0 + v, o);
                if (pass == 0) __builtin_prefetch(q, 1);
                else if (pass == 1) __builtin_prefetch(&s->pkt[q->head], 1);
                else if (q->head != q->tail) __builtin_prefetch(&s->pkt[s->pkt[q->head].next], 0);
            }
        }
    for (; in; in &= in - 1) {
        unsigned i = (unsigned)__builtin_ctzll(in), o = match[i];
        if (o == 0xff) continue;
        port_t *ip = &s->port[port0 + i];
        uint32_t b0 = (port0 + i) * nvc, v = ip->vc_ptr, chosen = ICN_NIL;
        /* round-robin among this input's VCs whose VOQ for o can go */
        for (uint32_t k = 0; k < nvc; k++, v = (v + 1 == nvc ? 0 : v + 1))
            if ((s->voq_mask[b0 + v] >> o & 1) && head_ready(s, port0, b0 + v, o)) { chosen = v; break; }
        if (chosen == ICN_NIL) die("allocator matched input %u to output %u with no ready packet", i, o);
        ip->vc_ptr = (uint8_t)(chosen + 1 == nvc ? 0 : chosen + 1);
        free_out &= ~(1ull << o);
        grant_voq(s, sw, w, i, chosen, o);
    }
}

/* switch.crossbar = queue: every VOQ is a crossbar input of its own, so one
 * input port (even one VC of it) feeds every output it has a ready head for.
 * With no input conflicts left, each idle output grants round-robin one of the
 * inputs with a ready head for it, and within that input the next VC in
 * round-robin order. */
void voq_service_per_queue(sim_t *s, uint32_t w)
{
    sw_t *sw = &s->sw[w];
    uint32_t nvc = s->nvc, port0 = sw->port0;
    unsigned n = sw->nports;
    for (uint64_t outs = sw->wanted & ~sw->out_busy; outs; outs &= outs - 1) {
        unsigned o = (unsigned)__builtin_ctzll(outs);
        port_t *op = &s->port[port0 + o];
        uint64_t cand = s->port[port0 + o].want;
        while (cand) {
            unsigned i = rr_pick(cand, op->grant_ptr, n);
            cand &= ~(1ull << i);
            port_t *ip = &s->port[port0 + i];
            uint32_t b0 = (port0 + i) * nvc, v = ip->vc_ptr, chosen = ICN_NIL;
            for (uint32_t k = 0; k < nvc; k++, v = (v + 1 == nvc ? 0 : v + 1))
                if ((s->voq_mask[b0 + v] >> o & 1) && head_ready(s, port0, b0 + v, o)) { chosen = v; break; }
            if (chosen == ICN_NIL) continue;
            op->grant_ptr = rr_next(i, n);
            ip->vc_ptr = (uint8_t)(chosen + 1 == nvc ? 0 : chosen + 1);
            grant_voq(s, sw, w, i, chosen, o);
            break;
        }
    }
}
