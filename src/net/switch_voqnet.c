/* VOQnet (queuing.scheme = voqnet): one queue per destination at every switch
 * input, each with its own credit flow control, so a packet waits only behind
 * packets for its own destination: the HoL-free reference of the queuing
 * scheme literature (network-level VOQs: Anderson et al. 1993; the ideal
 * scheme RECN, DBBM, vFtree and Flow2SL are compared with). Each queue holds
 * queuing.queue_size bytes.
 *
 * A network of N nodes would need N queues at every port, so queues exist only
 * while they are in use: a queue is created when the upstream sends it a
 * packet and freed when it is empty and owes no credits, and an open-
 * addressing hash on (input port, destination) finds it. The credits of a
 * queue live in its own record, on behalf of the upstream output (which
 * reads them before sending). The end node likewise sends the first message
 * whose destination queue at its leaf switch has room (src/net/nic.c).
 *
 * The crossbar side follows the VOQ switch (src/net/switch_voq.c): every
 * idle input offers each output for which one of its queues has a head with
 * room downstream, the allocator matches, and the input serves its queues
 * for the matched output round-robin. */
#include "link.h"
#include "policy.h"
#include "../core/util.h"
#include "../stats/views.h"
#include <stdlib.h>

typedef struct dq {
    uint32_t head, tail;     /* packet FIFO */
    uint32_t port, dst;      /* key: switch input port, destination */
    uint32_t npk, bytes;     /* occupancy; bytes includes a packet whose tail is still leaving */
    int32_t cr;              /* free bytes, as the upstream output counts them */
    uint32_t hocc;           /* buffer space of the head packet */
    uint32_t prev, next;     /* the port's list of non-empty queues; free list */
    uint8_t out;             /* output the head requests */
    uint8_t listed;
} dq_t;

struct voqnet {
    dq_t *q;
    uint32_t nq, qcap, free_q, live, peak;
    uint32_t *tab;           /* open addressing, linear probing: dq index or ICN_NIL */
    uint32_t tbits, tused;
    uint32_t *first, *rr;    /* [port]: first non-empty queue; where round-robin resumes */
    uint16_t *outcnt;        /* [port * radix + output]: non-empty queues whose head wants it */
    uint32_t radix;
    uint32_t depth;          /* bytes per queue */
};

/* ---- the (port, destination) -> queue table ---- */

static inline uint32_t slot_of(const struct voqnet *v, uint32_t port, uint32_t dst)
{
    uint64_t k = ((uint64_t)port << 32 | dst) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(k >> (64 - v->tbits));
}

static uint32_t find(const struct voqnet *v, uint32_t port, uint32_t dst)
{
    uint32_t mask = (1u << v->tbits) - 1;
    for (uint32_t h = slot_of(v, port, dst);; h = (h + 1) & mask) {
        uint32_t x = v->tab[h];
        if (x == ICN_NIL) return ICN_NIL;
        if (v->q[x].port == port && v->q[x].dst == dst) return x;
    }
}

static void tab_put(struct voqnet *v, uint32_t x)
{
    uint32_t mask = (1u << v->tbits) - 1, h = slot_of(v, v->q[x].port, v->q[x].dst);
    while (v->tab[h] != ICN_NIL) h = (h + 1) & mask;
    v->tab[h] = x;
}

static void tab_grow(struct voqnet *v)
{
    uint32_t old = 1u << v->tbits, *t = v->tab;
    v->tbits++;
    v->tab = xmalloc(((size_t)1 << v->tbits) * sizeof *v->tab);
    for (uint32_t h = 0; h < (1u << v->tbits); h++) v->tab[h] = ICN_NIL;
    for (uint32_t h = 0; h < old; h++)
        if (t[h] != ICN_NIL) tab_put(v, t[h]);
    free(t);
}

/* Remove x, shifting back the entries of its probe run so lookups need no tombstones. */
static void tab_del(struct voqnet *v, uint32_t x)
{
    uint32_t mask = (1u << v->tbits) - 1, h = slot_of(v, v->q[x].port, v->q[x].dst);
    while (v->tab[h] != x) h = (h + 1) & mask;
    for (uint32_t j = (h + 1) & mask; v->tab[j] != ICN_NIL; j = (j + 1) & mask) {
        uint32_t home = slot_of(v, v->q[v->tab[j]].port, v->q[v->tab[j]].dst);
        /* move tab[j] into the hole h unless its home lies cyclically in (h, j] */
        if (((j - home) & mask) >= ((j - h) & mask)) {
            v->tab[h] = v->tab[j];
            h = j;
        }
    }
    v->tab[h] = ICN_NIL;
    v->tused--;
}

static uint32_t get(struct voqnet *v, uint32_t port, uint32_t dst)
{
    uint32_t x = find(v, port, dst);
    if (x != ICN_NIL) return x;
    if (v->free_q == ICN_NIL) {
        uint32_t old = v->qcap, cap = old ? 2 * old : 1024;
        v->q = xrealloc(v->q, cap * sizeof *v->q);
        for (uint32_t i = old; i < cap; i++) v->q[i].next = i + 1 < cap ? i + 1 : ICN_NIL;
        v->free_q = old;
        v->qcap = cap;
    }
    x = v->free_q;
    v->free_q = v->q[x].next;
    v->q[x] = (dq_t){ ICN_NIL, ICN_NIL, port, dst, 0, 0, (int32_t)v->depth, 0, ICN_NIL, ICN_NIL, 0, 0 };
    if (2 * (v->tused + 1) > (1u << v->tbits)) tab_grow(v);
    tab_put(v, x);
    v->tused++;
    if (++v->live > v->peak) v->peak = v->live;
    return x;
}

/* An empty queue that owes no credits is forgotten (it would be recreated as it is). */
static void maybe_free(struct voqnet *v, uint32_t x)
{
    dq_t *d = &v->q[x];
    if (d->npk || d->cr != (int32_t)v->depth) return;
    tab_del(v, x);
    d->next = v->free_q;
    v->free_q = x;
    v->live--;
}

/* ---- set-up ---- */

void voqnet_setup(sim_t *s, cfg_t *c)
{
    struct voqnet *v = xcalloc(1, sizeof *v);
    uint64_t qs = cfg_u64(c, K_QUEUING_DEPTH);
    v->depth = qs ? (uint32_t)qs : 2 * occ_bytes(s, s->mtu);
    if (v->depth < occ_bytes(s, s->mtu))
        cfg_fail(c, K_QUEUING_DEPTH, "%u bytes per destination queue is less than one packet (packet.mtu = %u bytes)", v->depth, s->mtu);
    v->radix = 1;
    for (uint32_t w = 0; w < s->nswitches; w++)
        if (s->sw[w].nports > v->radix) v->radix = s->sw[w].nports;
    v->tbits = 10;
    v->tab = xmalloc(((size_t)1 << v->tbits) * sizeof *v->tab);
    for (uint32_t h = 0; h < (1u << v->tbits); h++) v->tab[h] = ICN_NIL;
    v->free_q = ICN_NIL;
    v->first = xmalloc(s->nports * sizeof *v->first);
    v->rr = xmalloc(s->nports * sizeof *v->rr);
    for (uint32_t g = 0; g < s->nports; g++) v->first[g] = v->rr[g] = ICN_NIL;
    v->outcnt = xcalloc((size_t)s->nports * v->radix, sizeof *v->outcnt);
    s->vn = v;
}

void voqnet_free(sim_t *s)
{
    struct voqnet *v = s->vn;
    if (!v) return;
    free(v->q);
    free(v->tab);
    free(v->first);
    free(v->rr);
    free(v->outcnt);
    free(v);
    s->vn = NULL;
}

void voqnet_queue_counts(const sim_t *s, uint32_t *live, uint32_t *peak)
{
    *live = s->vn ? s->vn->live : 0;
    *peak = s->vn ? s->vn->peak : 0;
}

/* ---- flow control ---- */

int voqnet_room(const sim_t *s, uint32_t port, uint32_t dst, uint32_t occ)
{
    uint32_t x = find(s->vn, port, dst);
    return x == ICN_NIL ? s->vn->depth >= occ : s->vn->q[x].cr >= (int32_t)occ;
}

void voqnet_take(sim_t *s, uint32_t port, uint32_t dst, uint32_t occ)
{
    struct voqnet *v = s->vn;
    uint32_t x = get(v, port, dst);   /* may move v->q */
    v->q[x].cr -= (int32_t)occ;
}

/* Room downstream of output `out` (local) of the switch whose ports start at port0. */
static inline int head_ready(const sim_t *s, uint32_t port0, const dq_t *d)
{
    uint32_t go = port0 + d->out, peer = s->port[go].peer;
    if (s->port[peer].dev & NIC_BIT) return *credit(s, go, 0) >= (int32_t)d->hocc;
    return voqnet_room(s, peer, d->dst, d->hocc);
}

/* ---- the switch ---- */

static void list_add(struct voqnet *v, uint32_t g, uint32_t x)
{
    dq_t *d = &v->q[x];
    d->prev = ICN_NIL;
    d->next = v->first[g];
    if (d->next != ICN_NIL) v->q[d->next].prev = x;
    v->first[g] = x;
    d->listed = 1;
}

static void list_del(struct voqnet *v, uint32_t g, uint32_t x)
{
    dq_t *d = &v->q[x];
    if (d->prev != ICN_NIL) v->q[d->prev].next = d->next;
    else v->first[g] = d->next;
    if (d->next != ICN_NIL) v->q[d->next].prev = d->prev;
    if (v->rr[g] == x) v->rr[g] = d->next;
    d->listed = 0;
}

static inline void want_inc(sim_t *s, sw_t *sw, uint32_t g, unsigned i, unsigned o)
{
    if (s->vn->outcnt[(size_t)g * s->vn->radix + o]++ == 0) {
        s->port[sw->port0 + o].want |= 1ull << i;
        sw->wanted |= 1ull << o;
        views_out_changed(s, sw->port0 + o);
    }
}

static inline void want_dec(sim_t *s, sw_t *sw, uint32_t g, unsigned i, unsigned o)
{
    if (--s->vn->outcnt[(size_t)g * s->vn->radix + o] == 0) {
        if (!(s->port[sw->port0 + o].want &= ~(1ull << i))) sw->wanted &= ~(1ull << o);
        views_out_changed(s, sw->port0 + o);
    }
}

/* Route the head of queue x (input local i of switch w). */
static void head_load(sim_t *s, uint32_t w, unsigned i, uint32_t x)
{
    dq_t *d = &s->vn->q[x];
    packet_t *h = &s->pkt[d->head];
    cand_t c[MAX_CAND];
    if (s->routing->route(s, w, i, h, c) != 1)
        die("routing %s gave VOQnet several candidates", s->routing->name);
    h->out = d->out = c[0].out;
    h->out_vc = c[0].ovc;
    d->hocc = occ_bytes(s, h->size);
}

void voqnet_arrive(sim_t *s, uint32_t gi, uint32_t id)
{
    struct voqnet *v = s->vn;
    packet_t *p = pkt_enter(s, id);
    port_t *in = &s->port[gi];
    uint32_t w = in->dev;
    sw_t *sw = &s->sw[w];
    p->next = ICN_NIL;
    uint32_t x = find(v, gi, p->dst);
    if (x == ICN_NIL) die("VOQnet: packet for %u arrived at port %u with no queue (no credits taken)", p->dst, gi);
    dq_t *d = &v->q[x];
    d->bytes += occ_bytes(s, p->size);
    if (d->bytes > v->depth)
        die("VOQnet queue overflow at switch %u port %u, destination %u (%u > %u bytes)", w, in->local, p->dst, d->bytes, v->depth);
    if (d->npk++) {
        s->pkt[d->tail].next = id;
        d->tail = id;
        return;
    }
    d->head = d->tail = id;
    head_load(s, w, in->local, x);
    list_add(v, gi, x);
    want_inc(s, sw, gi, in->local, d->out);
    if (!(sw->in_busy >> in->local & 1) && !(sw->out_busy >> d->out & 1) && head_ready(s, sw->port0, d)) sim_touch_switch(s, w);
}

void voqnet_service(sim_t *s, uint32_t w)
{
    struct voqnet *v = s->vn;
    sw_t *sw = &s->sw[w];
    uint64_t free_out = ~sw->out_busy, in = 0, req[MAX_RADIX];
    uint8_t match[MAX_RADIX];
    uint32_t port0 = sw->port0;
    for (uint64_t m = inputs_to_offer(s, sw, free_out); m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        req[i] = 0;
        for (uint32_t x = v->first[port0 + i]; x != ICN_NIL; x = v->q[x].next) {
            const dq_t *d = &v->q[x];
            if ((free_out & ~req[i]) >> d->out & 1 && head_ready(s, port0, d)) req[i] |= 1ull << d->out;
        }
        if (req[i]) in |= 1ull << i;
    }
    if (!in) return;
    s->arbiter->match(s, w, in, req, match);
    for (; in; in &= in - 1) {
        unsigned i = (unsigned)__builtin_ctzll(in), o = match[i];
        if (o == 0xff) continue;
        uint32_t g = port0 + i, start = v->rr[g], chosen = ICN_NIL;
        if (start == ICN_NIL) start = v->first[g];
        /* round-robin among the input's queues whose head can take output o
         * (rr is always a listed queue of this input, or NIL) */
        uint32_t x = start;
        do {
            if (v->q[x].out == o && head_ready(s, port0, &v->q[x])) { chosen = x; break; }
            x = v->q[x].next == ICN_NIL ? v->first[g] : v->q[x].next;
        } while (x != start);
        if (chosen == ICN_NIL) die("allocator matched input %u to output %u with no ready packet", i, o);
        dq_t *d = &v->q[chosen];
        uint32_t id = d->head;
        v->rr[g] = d->next;
        d->head = s->pkt[id].next;
        want_dec(s, sw, g, i, o);
        if (--d->npk == 0) {
            d->tail = ICN_NIL;
            list_del(v, g, chosen);
        } else {
            head_load(s, w, i, chosen);
            want_inc(s, sw, g, i, d->out);
        }
        free_out &= ~(1ull << o);
        switch_forward(s, w, i, o, id, 0, 1);
        s->port[port0 + o].rel_dq = chosen;
    }
}

/* The tail of the packet output port go was sending has left: free its space
 * in its destination queue, return its credits. */
void voqnet_release(sim_t *s, uint32_t go)
{
    const port_t *o = &s->port[go];
    s->vn->q[o->rel_dq].bytes -= o->rel_bytes;
    evq_push(&s->evq, s->now + s->link_delay, EV_DCREDIT, o->rel_dq, o->rel_bytes);
}

void voqnet_credit(sim_t *s, uint32_t x, uint32_t bytes)
{
    struct voqnet *v = s->vn;
    dq_t *d = &v->q[x];
    d->cr += (int32_t)bytes;
    const port_t *o = &s->port[s->port[d->port].peer];   /* the upstream output */
    if (!o->out_busy) {
        if (o->dev & NIC_BIT) sim_touch_nic(s, o->dev & ~NIC_BIT);
        else if (s->sw[o->dev].wanted >> o->local & 1) sim_touch_switch(s, o->dev);
    }
    maybe_free(v, x);
}

/* ---- inspection ---- */

void voqnet_foreach(sim_t *s, uint32_t g, pkt_visit_fn f, void *arg)
{
    for (uint32_t x = s->vn->first[g]; x != ICN_NIL; x = s->vn->q[x].next)
        for (uint32_t id = s->vn->q[x].head; id != ICN_NIL; id = s->pkt[id].next) f(s, id, arg);
}

struct vn_owed { sim_t *s; int64_t *owed; };

/* Bytes a queue is owed back: packets on their way to it, credits on their way from it. */
static void owed_ev(const event_t *e, void *arg)
{
    struct vn_owed *o = arg;
    sim_t *s = o->s;
    if (ev_type(e) == EV_DCREDIT) o->owed[e->a] += e->b;
    if (ev_type(e) == EV_ARRIVE) {
        uint32_t x = find(s->vn, e->a, s->pkt[e->b].dst);
        if (x == ICN_NIL) o->owed[s->vn->qcap] = 1;   /* flags a packet with no queue */
        else o->owed[x] += occ_bytes(s, s->pkt[e->b].size);
    }
}

int voqnet_check(sim_t *s, uint64_t *in_buffers)
{
    struct voqnet *v = s->vn;
    int bad = 0;
    int64_t *owed = xcalloc(v->qcap + 1, sizeof *owed);
    struct vn_owed o = { s, owed };
    evq_foreach(&s->evq, owed_ev, &o);
    if (owed[v->qcap]) { fprintf(stderr, "invariant: a packet travels to a VOQnet queue that does not exist\n"); bad = 1; }
    uint32_t live = 0;
    for (uint32_t h = 0; h < (1u << v->tbits); h++) {
        uint32_t x = v->tab[h];
        if (x == ICN_NIL) continue;
        const dq_t *d = &v->q[x];
        live++;
        uint32_t n = 0, bytes = 0;
        for (uint32_t id = d->head; id != ICN_NIL; id = s->pkt[id].next) {
            n++;
            bytes += occ_bytes(s, s->pkt[id].size);
            if (s->pkt[id].dst != d->dst) { fprintf(stderr, "invariant: VOQnet queue of %u holds a packet for %u\n", d->dst, s->pkt[id].dst); bad = 1; }
        }
        *in_buffers += n;
        if (n != d->npk || bytes > d->bytes || d->bytes > v->depth || (d->npk > 0) != d->listed) {
            fprintf(stderr, "invariant: VOQnet queue (port %u, dst %u): %u packets / %u bytes held, %u / %u counted\n",
                    d->port, d->dst, n, bytes, d->npk, d->bytes);
            bad = 1;
        }
        if (d->cr < 0 || d->cr + (int64_t)d->bytes + owed[x] != v->depth) {
            fprintf(stderr, "invariant: VOQnet queue (port %u, dst %u): %d credits + %u held + %lld owed != %u\n",
                    d->port, d->dst, d->cr, d->bytes, (long long)owed[x], v->depth);
            bad = 1;
        }
    }
    if (live != v->live || live != v->tused) {
        fprintf(stderr, "invariant: VOQnet table holds %u queues, counts %u\n", live, v->live);
        bad = 1;
    }
    free(owed);
    return bad;
}
