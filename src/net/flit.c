#include "flit.h"
#include "link.h"
#include "policy.h"
#include "../core/util.h"
#include "../core/units.h"
#include <stdlib.h>
#include <string.h>

typedef struct fent {
    uint64_t ready;       /* first cycle the flit may leave this router */
    uint32_t pkt;
    uint16_t idx;         /* 0 = header */
    uint16_t last;        /* tail */
} fent_t;

typedef struct fvc {      /* an input VC */
    fent_t *ring;
    uint32_t cap, head, n;
    uint8_t routed;       /* its front packet holds an output VC */
    uint8_t oport, ovc;
    uint8_t nrc;          /* candidates of the front header, routed once (0: not routed yet) */
    uint16_t tries;       /* cycles the front header failed to get an output VC */
} fvc_t;

typedef struct fst {
    simtime_t tc;         /* cycle time */
    uint32_t P;           /* pipeline cycles per hop */
    uint32_t flit;        /* bytes per flit */
    uint32_t cpf, fpc;    /* link: cycles per flit, flits per cycle */
    int vct;
    int scheduled;        /* an EV_CYCLE is pending */
    uint64_t last_cycle;
    uint32_t *cap;        /* flits per VC */
    fvc_t *in;            /* [port * nvc + vc] */
    cand_t *rc;           /* [(port * nvc + vc) * MAX_CAND]: the front header's candidates, routed once */
    int32_t *cred;        /* [port * nvc + vc]: output VC credits in flits (sinks: unlimited) */
    uint32_t *owner;      /* [port * nvc + vc]: input VC holding the output VC, or NIL */
    uint8_t *rr, *lock;   /* [port]: VC mux pointer; VCT: VC that owns the link mid-packet (0xff none) */
    uint64_t *busy;       /* [port]: first cycle the link is free (flits longer than the link is wide) */
    uint32_t *rflits;     /* [router]: flits held */
    uint64_t *needs;      /* [router]: input VCs (port * nvc + vc) whose front header needs an output VC */
    uint64_t *owned;      /* [router]: output ports with a VC held by a worm */
    uint8_t *nown;        /* [port]: its VCs held */
    uint8_t *vpri;        /* [port * nvc + vc]: input VC (router-local) first in line for this output VC */
    uint8_t *ipri;        /* [port * nvc + vc]: for an input VC, the VC of a class it tries first */
    uint64_t *held;       /* [router]: its output VCs (port * nvc + vc, router-local) held by a worm */
    int perhop;           /* router.vc_alloc = per-hop */
    const vc_allocator_ops *vcalloc;   /* router.vc_allocator */
    int islip;            /* router.vc_arbiter = islip */
    uint32_t iters;       /* router.vc_iterations (0: until nothing more is granted) */
    uint64_t *routed;     /* [router]: its input VCs whose front packet holds an output VC */
    uint32_t ispeed;      /* router.input_speedup: flits an input port may send per cycle (0: one per VC) */
    uint32_t ocap;        /* flits an output port sends per cycle: the link's, or router.output_speedup if fewer */
    uint8_t *ipp, *opp;   /* [port]: switch allocator pointers, input port (its VCs) and output port (input ports) */
    uint8_t *sink;        /* [port]: an output to a node (no credits needed) */
    uint64_t *istamp;     /* [port]: last cycle the input port sent a flit ... */
    uint32_t *isent;      /* ... and how many it sent in it */
    uint32_t max_isent;   /* most flits an input port sent in one cycle (checked against ispeed) */
    uint32_t turnover;    /* router.head_turnover = front: cycles a head at the front of its VC spends
                           * in routing and VC allocation after the previous tail left (0: overlap) */
    uint32_t *act, nact;  /* routers holding flits */
    uint8_t *is_act;
    uint32_t *nact_list, nnic;   /* nodes with something to inject */
    uint8_t *nic_on;
    uint32_t *cur, *cur_n;       /* [node]: packet being injected, flits already sent */
    uint8_t *cur_vc;
    uint32_t *cr, ncr, cr_cap;   /* credits returned this cycle, applied next cycle */
} fst_t;

#define SINK_CREDITS (INT32_MAX / 2)

static inline fst_t *F(const sim_t *s) { return (fst_t *)s->flit; }
static inline uint32_t nflits(const fst_t *f, uint32_t bytes) { return bytes / f->flit; }

static inline void push(fvc_t *q, fent_t e)
{
    uint32_t i = q->head + q->n++;
    q->ring[i < q->cap ? i : i - q->cap] = e;
}

static inline fent_t *front(fvc_t *q) { return &q->ring[q->head]; }

static void activate(fst_t *f, uint32_t w)
{
    if (!f->is_act[w]) { f->is_act[w] = 1; f->act[f->nact++] = w; }
}

static void credit_back(fst_t *f, uint32_t oi)
{
    if (f->ncr == f->cr_cap) {
        f->cr_cap = f->cr_cap ? 2 * f->cr_cap : 1024;
        f->cr = xrealloc(f->cr, f->cr_cap * sizeof *f->cr);
    }
    f->cr[f->ncr++] = oi;
}

static void clock_on(sim_t *s)
{
    fst_t *f = F(s);
    if (f->scheduled) return;
    uint64_t c = (s->now + f->tc - 1) / f->tc;
    if (c <= f->last_cycle && f->last_cycle) c = f->last_cycle + 1;
    evq_push(&s->evq, c * f->tc, EV_CYCLE, 0, 0);
    f->scheduled = 1;
}

int32_t flit_credits(const sim_t *s, uint32_t oi) { return F(s)->cred[oi]; }
uint32_t flit_max_input_flits(const sim_t *s) { return F(s)->max_isent; }

simtime_t flit_packet_time(const sim_t *s)
{
    const fst_t *f = F(s);
    return (simtime_t)(f->P + f->cpf - 1 + nflits(f, s->mtu) * f->cpf) * f->tc;
}

void flit_wake_nic(sim_t *s, uint32_t n)
{
    fst_t *f = F(s);
    if (!f->nic_on[n]) { f->nic_on[n] = 1; f->nact_list[f->nnic++] = n; }
    clock_on(s);
}

/* Node n injects at most one flit into its router's input VC. Returns 0 when
 * it has nothing left to do (a wake-up is scheduled for its next message). */
static int nic_step(sim_t *s, uint32_t n, uint64_t t)
{
    fst_t *f = F(s);
    uint32_t gp = s->nic[n].port, gi = s->port[gp].peer, nvc = s->nvc;
    for (uint32_t slot = 0; slot < f->fpc && f->busy[gp] <= t; slot++) {
        if (f->cur[n] == ICN_NIL) {
            uint32_t size;
            uint8_t vc;
            if (!nic_peek(s, n, &size, &vc)) return slot > 0;   /* nic_peek scheduled the wake-up */
            if (f->perhop && !s->routing->owns_vcs && vc < s->nsqs)   /* per-hop: the injection link's VCs too */
                for (uint8_t v = 0; v < s->nsqs; v++)
                    if (f->cred[gp * nvc + v] > f->cred[gp * nvc + vc]) vc = v;
            /* VCT: room for all its flits, as downstream of a router (allocate) */
            if (f->cred[gp * nvc + vc] < (f->vct ? (int32_t)nflits(f, size) : 1)) return 1;
            f->cur[n] = nic_make_packet(s, n, size, vc);
            f->cur_n[n] = 0;
            f->cur_vc[n] = vc;
            s->st.pkt_hops++;
        }
        uint8_t vc = f->cur_vc[n];
        if (f->cred[gp * nvc + vc] < 1) return 1;
        if (f->cpf > 1) f->busy[gp] = t + f->cpf;
        packet_t *p = &s->pkt[f->cur[n]];
        uint32_t nf = nflits(f, p->size), k = f->cur_n[n]++;
        if (k == 0) p->hops++;
        fvc_t *q = &f->in[gi * nvc + vc];
        push(q, (fent_t){ t + f->cpf + f->P - 1, f->cur[n], (uint16_t)k, (uint16_t)(k + 1 == nf) });
        f->cred[gp * nvc + vc]--;
        uint32_t w = s->port[gi].dev;
        if (q->n == 1 && k == 0) f->needs[w] |= 1ull << (gi * nvc + vc - s->sw[w].port0 * nvc);
        f->rflits[w]++;
        activate(f, w);
        s->st.flit_hops++;
        s->last_progress = s->now;
        if (k + 1 == nf) f->cur[n] = ICN_NIL;
    }
    return 1;
}

/* The candidates of the header at the front of input VC b (input port `in`
 * of router w). A router routes a head once, in its routing stage, and the
 * head then waits for one of those outputs; only an adaptive routing looks
 * again every cycle, at the credits and occupancy of the moment. */
static int head_route(sim_t *s, uint32_t w, uint32_t in, fvc_t *q, cand_t *c)
{
    if (s->routing->adaptive) return s->routing->route(s, w, in, &s->pkt[front(q)->pkt], c);
    cand_t *rc = &F(s)->rc[(size_t)(q - F(s)->in) * MAX_CAND];   /* kept apart: traverse reads fvc_t, not these */
    if (!q->nrc) q->nrc = (uint8_t)s->routing->route(s, w, in, &s->pkt[front(q)->pkt], rc);
    memcpy(c, rc, q->nrc * sizeof *c);
    return q->nrc;
}

/* Give output VC oi (candidate c of input VC li, c->ovc its VC) to the
 * header at li's front; move: the arbiters' pointers pass this grant. */
static void grant(sim_t *s, uint32_t w, uint32_t li, const cand_t *c, uint32_t oi, int move)
{
    fst_t *f = F(s);
    uint32_t nvc = s->nvc, port0 = s->sw[w].port0, nq = s->sw[w].nports * nvc;
    fvc_t *q = &f->in[port0 * nvc + li];
    packet_t *p = &s->pkt[front(q)->pkt];
    f->owner[oi] = port0 * nvc + li;
    f->held[w] |= 1ull << (oi - port0 * nvc);
    if (move) {
        f->vpri[oi] = (uint8_t)(li + 1 == nq ? 0 : li + 1);
        f->ipri[port0 * nvc + li] = (uint8_t)(c->ovc + 1u == nvc ? 0 : c->ovc + 1);
    }
    f->needs[w] &= ~(1ull << li);
    if (!f->nown[port0 + c->out]++) f->owned[w] |= 1ull << c->out;
    q->routed = 1;
    f->routed[w] |= 1ull << li;
    q->nrc = 0;   /* the next header is routed afresh */
    q->oport = c->out;
    q->ovc = c->ovc;
    p->out = c->out;
    p->out_vc = c->ovc;
}

/* The output VCs (router-local bits, port * nvc + vc) candidate c offers a
 * header of `size` flits: with per-hop allocation every VC of its class (all
 * the queuing scheme's VCs when the routing does not choose VCs itself),
 * else the candidate's VC; only those with room for the whole packet under
 * VCT or an FC_WHOLE rule. */
static uint64_t cand_vcs(const sim_t *s, const fst_t *f, uint32_t port0, const cand_t *c, uint32_t size)
{
    uint32_t nvc = s->nvc, lo = c->ovc, hi = c->ovc + 1;
    if (f->perhop && !s->routing->owns_vcs && c->ovc < s->nsqs) lo = 0, hi = s->nsqs;
    uint64_t m = 0;
    for (uint32_t v = lo; v < hi; v++) {
        uint32_t oi = (port0 + c->out) * nvc + v;
        if ((f->vct || c->fc == FC_WHOLE) && f->cred[oi] < (int32_t)size) continue;
        m |= 1ull << (c->out * nvc + v);
    }
    return m;
}

/* grant(), for the allocator: header li takes output VC lo (router-local)
 * through its candidate j. */
typedef struct actx { sim_t *s; uint32_t w; cand_t (*c)[MAX_CAND]; } actx_t;

static void vca_grant(vca_t *a, uint32_t li, uint32_t j, uint32_t lo)
{
    actx_t *x = a->ctx;
    cand_t g = x->c[li][j];
    g.ovc = (uint8_t)(lo % a->nvc);
    grant(x->s, x->w, li, &g, x->s->sw[x->w].port0 * a->nvc + lo, a->move);
}

/* VC allocation among the headers at the front of input VCs, past the
 * pipeline: the allocator (router.vc_allocator, src/net/vcalloc.c) runs
 * rounds among the unmatched headers and free output VCs, up to
 * router.vc_iterations or until a round grants nothing. */
static void allocate(sim_t *s, uint32_t w, uint64_t t)
{
    fst_t *f = F(s);
    uint32_t nvc = s->nvc, port0 = s->sw[w].port0, b0 = port0 * nvc;
    cand_t c[64][MAX_CAND];
    uint64_t cm[64][MAX_CAND];
    uint8_t nc[64], k0[64];
    uint64_t ready = 0;
    for (uint64_t b = f->needs[w]; b; b &= b - 1) {
        uint32_t li = (uint32_t)__builtin_ctzll(b);
        fvc_t *q = &f->in[b0 + li];
        if (front(q)->ready > t) continue;
        int n = head_route(s, w, li / nvc, q, c[li]);
        uint32_t size = nflits(f, s->pkt[front(q)->pkt].size);
        nc[li] = (uint8_t)n;
        k0[li] = (uint8_t)(s->escape_after && q->tries >= s->escape_after ? n - 1 : 0);
        for (int j = k0[li]; j < n; j++) cm[li][j] = cand_vcs(s, f, port0, &c[li][j], size);
        ready |= 1ull << li;
    }
    actx_t x = { s, w, c };
    vca_t a = { nvc, s->sw[w].nports * nvc, ready, 0, cm, nc, k0, f->ipri + b0, f->vpri + b0, 0, f->islip, vca_grant, &x };
    for (uint32_t it = 0; a.todo && (!f->iters || it < f->iters); it++) {
        a.avail = ~f->held[w];
        a.move = !f->islip || it == 0;
        if (!f->vcalloc->round(&a)) break;
    }
    for (uint64_t b = ready; b; b &= b - 1) {
        fvc_t *q = &f->in[b0 + (uint32_t)__builtin_ctzll(b)];
        if (!q->routed && q->tries < UINT16_MAX) q->tries++;
    }
}

/* Output VC `chosen` of local output port o sends the flit at the front of
 * the input VC that holds it. */
static void send_flit(sim_t *s, uint32_t w, uint32_t o, uint32_t chosen, uint64_t t)
{
    fst_t *f = F(s);
    uint32_t nvc = s->nvc, port0 = s->sw[w].port0, go = port0 + o, peer = s->port[go].peer;
    int sink = (s->port[peer].dev & NIC_BIT) != 0;
    uint32_t oi = go * nvc + chosen, own = f->owner[oi], ip = own / nvc;
    fvc_t *q = &f->in[own];
    fent_t e = *front(q);
    q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
    q->n--;
    f->rflits[w]--;
    if (f->istamp[ip] != t) f->istamp[ip] = t, f->isent[ip] = 0;
    if (++f->isent[ip] > f->max_isent) f->max_isent = f->isent[ip];   /* the input speedup invariant's witness */
    credit_back(f, s->port[ip].peer * nvc + own % nvc);
    packet_t *p = &s->pkt[e.pkt];
    if (sink) {
        if (e.last) evq_push(&s->evq, (t + f->cpf) * f->tc, EV_DELIVER, e.pkt, s->port[peer].dev & ~NIC_BIT);
    } else {
        f->cred[oi]--;
        fvc_t *dq = &f->in[peer * nvc + chosen];
        push(dq, (fent_t){ t + f->cpf + f->P - 1, e.pkt, e.idx, e.last });
        uint32_t w2 = s->port[peer].dev;
        if (dq->n == 1 && e.idx == 0) f->needs[w2] |= 1ull << (peer * nvc + chosen - s->sw[w2].port0 * nvc);
        f->rflits[w2]++;
        activate(f, w2);
        if (e.idx == 0) { p->vc = (uint8_t)chosen; p->hops++; }
    }
    s->st.flit_hops++;
    if (e.idx == 0) s->st.pkt_hops++;
    s->last_progress = s->now;
    if (f->vct) f->lock[go] = e.last ? 0xff : (uint8_t)chosen;
    if (e.last) {
        f->owner[oi] = ICN_NIL;
        f->held[w] &= ~(1ull << (oi - port0 * nvc));
        f->routed[w] &= ~(1ull << (own - port0 * nvc));
        q->routed = 0;
        q->tries = 0;
        if (!--f->nown[go]) f->owned[w] &= ~(1ull << o);
        if (q->n) {   /* the next packet's header is at the front */
            f->needs[w] |= 1ull << (own - port0 * nvc);
            if (front(q)->ready < t + 1 + f->turnover) front(q)->ready = t + 1 + f->turnover;
        }
    }
    f->rr[go] = (uint8_t)(chosen + 1 == nvc ? 0 : chosen + 1);
    if (f->cpf > 1) f->busy[go] = t + f->cpf;
}

/* Can output VC oi (of global output port go) send its holder's front flit now? */
static inline int can_send(const sim_t *s, const fst_t *f, uint32_t go, uint32_t oi, int sink, uint64_t t)
{
    uint32_t own = f->owner[oi];
    return own != ICN_NIL && f->in[own].n && front(&f->in[own])->ready <= t && (sink || f->cred[oi] >= 1);
}

/* router.input_speedup = 0: every output link sends up to its flits per cycle,
 * each from one of its VCs, round-robin (flit-by-flit VC multiplexing for
 * wormhole; for VCT a started packet keeps the link until its tail), however
 * many VCs of one input port that takes: each input VC has a crossbar input
 * of its own. */
static void traverse(sim_t *s, uint32_t w, uint64_t t)
{
    fst_t *f = F(s);
    uint32_t nvc = s->nvc, port0 = s->sw[w].port0;
    for (uint64_t ports = f->owned[w]; ports; ports &= ports - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(ports), go = port0 + o;
        int sink = (s->port[s->port[go].peer].dev & NIC_BIT) != 0;
        for (uint32_t slot = 0; slot < f->ocap && f->busy[go] <= t && f->nown[go]; slot++) {
            uint32_t chosen = ICN_NIL;
            for (uint32_t k = 0; k < nvc; k++) {
                uint32_t v = f->lock[go] != 0xff ? f->lock[go] : f->rr[go] + k < nvc ? f->rr[go] + k : f->rr[go] + k - nvc;
                if (can_send(s, f, go, go * nvc + v, sink, t)) { chosen = v; break; }
                if (f->lock[go] != 0xff) break;
            }
            if (chosen == ICN_NIL) break;
            send_flit(s, w, o, chosen, t);
        }
    }
}

/* router.input_speedup = S >= 1: a separable switch allocator, input-first.
 * Each input port that has sent fewer than S flits this cycle picks one of
 * its VCs able to send (round-robin from a pointer per input port), and each
 * output port picks one of the input ports asking for it (round-robin from a
 * pointer per output port), up to its flits per cycle; rounds repeat among
 * the unmatched until one moves nothing. S = 1 is one crossbar input per
 * port, its VCs multiplexed in front of it. */
static void traverse_sa(sim_t *s, uint32_t w, uint64_t t)
{
    fst_t *f = F(s);
    uint32_t nvc = s->nvc, port0 = s->sw[w].port0, np = s->sw[w].nports;
    uint8_t isent[64] = { 0 }, osent[64] = { 0 };
    uint64_t ports = 0;
    for (uint64_t b = f->routed[w]; b; b &= b - 1) ports |= 1ull << ((uint32_t)__builtin_ctzll(b) / nvc);
    while (ports) {
        uint64_t asked = 0, served = 0;
        uint32_t want[64], vc[64];
        for (uint64_t b = ports; b; b &= b - 1) {   /* input stage */
            uint32_t ip = (uint32_t)__builtin_ctzll(b), gi = port0 + ip;
            if (isent[ip] >= f->ispeed) continue;
            for (uint32_t k = 0; k < nvc; k++) {
                uint32_t v = f->ipp[gi] + k < nvc ? f->ipp[gi] + k : f->ipp[gi] + k - nvc;
                fvc_t *q = &f->in[gi * nvc + v];
                if (!q->routed) continue;
                uint32_t go = port0 + q->oport;
                if (osent[q->oport] >= f->ocap || f->busy[go] > t || (f->lock[go] != 0xff && f->lock[go] != q->ovc)) continue;
                if (!can_send(s, f, go, go * nvc + q->ovc, f->sink[go], t)) continue;
                want[ip] = q->oport;
                vc[ip] = v;
                asked |= 1ull << ip;
                break;
            }
        }
        if (!asked) return;
        uint64_t outs = 0;
        for (uint64_t b = asked; b; b &= b - 1) outs |= 1ull << want[(uint32_t)__builtin_ctzll(b)];
        for (uint64_t b = outs; b; b &= b - 1) {   /* output stage */
            uint32_t o = (uint32_t)__builtin_ctzll(b), go = port0 + o, best = ICN_NIL, rank = np;
            for (uint64_t a = asked; a; a &= a - 1) {
                uint32_t ip = (uint32_t)__builtin_ctzll(a), r = (ip + np - f->opp[go]) % np;
                if (want[ip] == o && r < rank) { best = ip; rank = r; }
            }
            fvc_t *q = &f->in[(port0 + best) * nvc + vc[best]];
            send_flit(s, w, o, q->ovc, t);
            isent[best]++;
            osent[o]++;
            served |= 1ull << best;
            f->ipp[port0 + best] = (uint8_t)(vc[best] + 1 == nvc ? 0 : vc[best] + 1);
            f->opp[go] = (uint8_t)(best + 1 == np ? 0 : best + 1);
        }
        /* next round: the ports that lost an output, and the winners with speedup left;
         * a port that found nothing to send finds nothing later in the cycle */
        ports = asked & ~served;
        if (f->ispeed > 1)
            for (uint64_t b = served; b; b &= b - 1)
                if (isent[__builtin_ctzll(b)] < f->ispeed) ports |= b & -b;
    }
}

void flit_cycle(sim_t *s)
{
    fst_t *f = F(s);
    uint64_t t = s->now / f->tc;
    f->scheduled = 0;
    f->last_cycle = t;
    /* credits returned during the previous cycle arrive now */
    uint32_t ncr = f->ncr;
    for (uint32_t i = 0; i < ncr; i++) f->cred[f->cr[i]]++;
    f->ncr = 0;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < f->nnic; i++) {
        uint32_t n = f->nact_list[i];
        if (nic_step(s, n, t)) f->nact_list[keep++] = n;
        else f->nic_on[n] = 0;
    }
    f->nnic = keep;
    uint32_t nact = f->nact;
    for (uint32_t i = 0; i < nact; i++) {
        uint32_t w = f->act[i];
        allocate(s, w, t);
        if (f->ispeed) traverse_sa(s, w, t);
        else traverse(s, w, t);
    }
    keep = 0;
    for (uint32_t i = 0; i < f->nact; i++) {
        uint32_t w = f->act[i];
        if (f->rflits[w]) f->act[keep++] = w;
        else f->is_act[w] = 0;
    }
    f->nact = keep;
    if (f->nact || f->nnic || f->ncr) {
        evq_push(&s->evq, (t + 1) * f->tc, EV_CYCLE, 0, 0);
        f->scheduled = 1;
    }
}

/* Static VC assignment under a deterministic routing: walk every pair's path
 * and warn when a queuing scheme puts all the traffic of some links on one VC
 * (DBBM on a k x k mesh with Q dividing k: every Y link), where more VCs
 * cannot help. A real packet carries the walk, for routings that look at
 * per-packet state. Up to 1024 nodes (a million pairs): the walk is quadratic. */
static void warn_single_vc_links(sim_t *s)
{
    if (!s->routing->deterministic || s->routing->owns_vcs || s->queuing->hop || s->nsqs < 2 || s->nnodes > 1024) return;
    uint32_t id = pkt_alloc(s), nlinks = 0, single = 0, first = ICN_NIL;
    uint64_t *vcs = xcalloc(s->nports, sizeof *vcs);
    packet_t *p = &s->pkt[id];
    for (uint32_t a = 0; a < s->nnodes; a++)
        for (uint32_t b = 0; b < s->nnodes; b++) {
            if (a == b) continue;
            memset(p, 0, sizeof *p);
            p->src = a, p->dst = b, p->size = s->mtu, p->msg = ICN_NIL, p->flow = ICN_NIL;
            p->vc = p->out_vc = s->queuing->vc(s, a, b);
            uint32_t gi = s->port[s->nic[a].port].peer;
            for (int hop = 0; hop < 256 && !(s->port[gi].dev & NIC_BIT); hop++) {
                uint32_t w = s->port[gi].dev;
                cand_t c[MAX_CAND];
                s->routing->route(s, w, s->port[gi].local, p, c);
                uint32_t go = s->sw[w].port0 + c[0].out;
                gi = s->port[go].peer;
                if (gi == ICN_NIL) break;
                if (!(s->port[gi].dev & NIC_BIT)) vcs[go] |= 1ull << (c[0].ovc % 64);
                p->vc = c[0].ovc;
            }
        }
    for (uint32_t g = 0; g < s->nports; g++) {
        if (!vcs[g]) continue;
        nlinks++;
        if (!(vcs[g] & (vcs[g] - 1)) && single++ == 0) first = g;
    }
    if (single)
        fprintf(stderr, "icnsim: warning: queuing scheme %s with router.vc_alloc = static puts all traffic of %u of the %u "
                "router-to-router links on one VC of %u (e.g. router %u port %u), so more VCs do not help them; "
                "router.vc_alloc = per-hop lets a packet take any VC at every hop\n", s->queuing->name, single, nlinks,
                s->nsqs, s->port[first].dev, s->port[first].local);
    free(vcs);
    pkt_release(s, id);
}

void flit_setup(sim_t *s, cfg_t *c)
{
    fst_t *f = xcalloc(1, sizeof *f);
    s->flit = f;
    f->tc = cfg_u64(c, K_ROUTER_CYCLE);
    f->P = (uint32_t)(cfg_int(c, K_ROUTER_SYNC) + cfg_int(c, K_ROUTER_FIFO) + cfg_int(c, K_ROUTER_ROUTING) +
                      cfg_int(c, K_ROUTER_XBAR) + cfg_int(c, K_ROUTER_VCMUX));
    if (f->P < 1) cfg_fail(c, K_ROUTER_XBAR, "the router pipeline must take at least one cycle");
    uint32_t phit = (uint32_t)cfg_u64(c, K_FLIT_PHIT), fph = (uint32_t)cfg_int(c, K_FLIT_PHITS), width = (uint32_t)cfg_int(c, K_LINK_WIDTH);
    f->flit = phit * fph;
    if (width >= fph) {
        if (width % fph) cfg_fail(c, K_LINK_WIDTH, "a link wider than a flit carries whole flits: a multiple of link.flit = %u", fph);
        f->fpc = width / fph;
        f->cpf = 1;
    } else {
        f->fpc = 1;
        f->cpf = (fph + width - 1) / width;
    }
    const char *va = cfg_str(c, K_ROUTER_VC_ALLOC), *vx = cfg_str(c, K_ROUTER_VC_ALLOCATOR), *vb = cfg_str(c, K_ROUTER_VC_ARBITER);
    if (!strcmp(va, "per-hop")) f->perhop = 1;
    else if (strcmp(va, "static")) cfg_fail(c, K_ROUTER_VC_ALLOC, "must be per-hop or static");
    if (cfg_is_set(c, K_ROUTER_VC_ALLOC) && s->routing->owns_vcs)   /* both take the routing's VC at every hop */
        cfg_fail(c, K_ROUTER_VC_ALLOC, "has no effect: routing %s chooses every hop's VC itself", s->routing->name);
    if (f->perhop && !s->routing->owns_vcs && s->queuing->hop)   /* per-hop would widen its choice to every VC */
        cfg_fail(c, K_ROUTER_VC_ALLOC, "per-hop lets a packet take any VC at every hop, which drops the per-hop rule of "
                 "queuing scheme %s: set router.vc_alloc = static", s->queuing->name);
    if (!(f->vcalloc = find_vc_allocator(vx))) cfg_fail(c, K_ROUTER_VC_ALLOCATOR, "unknown VC allocator (run `icnsim --list` for the choices)");
    if (!strcmp(vb, "islip")) f->islip = 1;
    else if (strcmp(vb, "round-robin")) cfg_fail(c, K_ROUTER_VC_ARBITER, "must be round-robin or islip");
    f->iters = (uint32_t)cfg_int(c, K_ROUTER_VC_ITERATIONS);
    if (s->nvc == 1 && !s->routing->multi_cand) {   /* every head asks for one output VC: nothing to allocate */
        static const key_id vk[] = { K_ROUTER_VC_ALLOC, K_ROUTER_VC_ALLOCATOR, K_ROUTER_VC_ARBITER, K_ROUTER_VC_ITERATIONS };
        for (size_t i = 0; i < ICN_ARRAY_LEN(vk); i++)
            if (cfg_is_set(c, vk[i]))
                cfg_fail(c, vk[i], "has no effect: with one VC and routing %s every head asks for one output VC", s->routing->name);
    }
    f->ispeed = (uint32_t)cfg_int(c, K_ROUTER_INPUT_SPEEDUP);
    if (f->ispeed && f->ispeed < f->fpc && !cfg_is_set(c, K_ROUTER_INPUT_SPEEDUP))
        fprintf(stderr, "icnsim: warning: a link carries %u flits per cycle (link.width) but an input port sends %u "
                "(router.input_speedup), so the routers, not the links, bound throughput and latency; set "
                "router.input_speedup = %u (or 0) for routers as fast as their links\n", f->fpc, f->ispeed, f->fpc);
    const char *ht = cfg_str(c, K_ROUTER_HEAD_TURNOVER);
    if (!strcmp(ht, "front")) f->turnover = (uint32_t)(cfg_int(c, K_ROUTER_ROUTING) + cfg_int(c, K_ROUTER_XBAR));
    else if (strcmp(ht, "overlap")) cfg_fail(c, K_ROUTER_HEAD_TURNOVER, "must be front or overlap");
    const char *sw = cfg_str(c, K_SW_SWITCHING);
    uint32_t osp = (uint32_t)cfg_int(c, K_ROUTER_OUTPUT_SPEEDUP);
    if (!strcmp(sw, "vct")) f->vct = 1;
    else if (strcmp(sw, "wormhole")) cfg_fail(c, K_SW_SWITCHING, "must be wormhole or vct");
    /* bandwidth: a flit per cpf cycles, or fpc flits per cycle */
    s->cycle = f->tc;
    s->link_bps = (double)f->flit * 8.0 * f->fpc / ((double)f->cpf * (double)f->tc * 1e-12);
    if (s->mtu % f->flit) cfg_fail(c, K_PKT_MTU, "packets are whole flits: a multiple of %u bytes (link.phit x link.flit)", f->flit);
    /* a flit must take at least a picosecond, as a byte does in the packet model (link.bandwidth's bound) */
    if (s->link_bps > 8e12 * f->flit)
        cfg_fail(c, K_ROUTER_CYCLE, "with link.width and link.phit this router moves a flit in less than a picosecond "
                 "(%.3g Tbps): time is counted in picoseconds", s->link_bps / 1e12);
    if (s->msg_size % f->flit && s->p_long < 1)   /* (every message long: message_size is refused as unused) */
        cfg_fail(c, K_MSG_SIZE, "messages are whole flits: a multiple of %u bytes (link.phit x link.flit)", f->flit);
    if (s->msg_long % f->flit) cfg_fail(c, K_MSG_LONG_SIZE, "messages are whole flits: a multiple of %u bytes (link.phit x link.flit)", f->flit);
    if (osp >= f->fpc && osp)   /* an output sends at most its link's flits per cycle anyway */
        cfg_fail(c, K_ROUTER_OUTPUT_SPEEDUP, "has no effect: a link takes %u flit%s per cycle (0: as many as the link)", f->fpc,
                 f->fpc == 1 ? "" : "s");
    f->ocap = osp ? osp : f->fpc;
    if (s->mtu / f->flit > 65535) cfg_fail(c, K_PKT_MTU, "at most 65535 flits per packet");
    f->cap = xcalloc(s->nvc, sizeof *f->cap);
    if (cfg_is_set(c, K_SW_VC_SIZES)) {
        char *list = xstrdup(cfg_str(c, K_SW_VC_SIZES)), *save = NULL;
        uint32_t v = 0;
        for (char *tok = strtok_r(list, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save), v++) {
            uint64_t b;
            const char *why;
            if (parse_bytes(tok, &b, &why)) cfg_fail(c, K_SW_VC_SIZES, "'%s': %s", tok, why);
            if (b % f->flit) cfg_fail(c, K_SW_VC_SIZES, "'%s': a VC holds whole flits, a multiple of %u bytes", tok, f->flit);
            if (v < s->nvc) f->cap[v] = (uint32_t)(b / f->flit);
        }
        free(list);
        if (v != s->nvc) cfg_fail(c, K_SW_VC_SIZES, "gives %u sizes for %u VCs (switch.vcs)", v, s->nvc);
    } else {
        uint64_t b = cfg_u64(c, K_SW_BUFFER);
        for (uint32_t v = 0; v < s->nvc; v++) f->cap[v] = (uint32_t)(b / s->nvc / f->flit);
    }
    for (uint32_t v = 0; v < s->nvc; v++) {
        if (f->cap[v] < 1) cfg_fail(c, cfg_is_set(c, K_SW_VC_SIZES) ? K_SW_VC_SIZES : K_SW_BUFFER, "VC %u holds no flit", v);
        if (f->cap[v] > (1u << 24))   /* every router input keeps a ring of them: memory, and 31-bit credits */
            cfg_fail(c, cfg_is_set(c, K_SW_VC_SIZES) ? K_SW_VC_SIZES : K_SW_BUFFER, "VC %u holds %u flits; the flit model "
                     "keeps at most 2^24 per VC", v, f->cap[v]);
        if (f->vct && f->cap[v] < s->mtu / f->flit)
            cfg_fail(c, cfg_is_set(c, K_SW_VC_SIZES) ? K_SW_VC_SIZES : K_SW_BUFFER,
                     "virtual cut-through needs room for a whole packet (%u flits) in every VC; VC %u holds %u",
                     s->mtu / f->flit, v, f->cap[v]);
    }
    if (s->routing->whole_vc && (uint32_t)s->routing->whole_vc <= s->nvc) {
        uint32_t v = (uint32_t)s->routing->whole_vc - 1, big = s->msg_size > s->msg_long ? s->msg_size : s->msg_long;
        uint32_t pk = (big < s->mtu ? big : s->mtu) / f->flit;
        if (f->cap[v] < pk)
            fprintf(stderr, "icnsim: warning: %s admits only whole packets to VC %u, which holds %u flits (%s): %u-flit packets "
                    "never take it, and the router is its escape routing alone for them\n", s->routing->name, v, f->cap[v],
                    cfg_is_set(c, K_SW_VC_SIZES) ? "switch.vc_sizes" : "switch.buffer", pk);
    }
    uint32_t nb = s->nports * s->nvc;
    f->in = xcalloc(nb, sizeof *f->in);
    f->cred = xmalloc(nb * sizeof *f->cred);
    f->owner = xmalloc(nb * sizeof *f->owner);
    f->rr = xcalloc(s->nports, 1);
    f->busy = xcalloc(s->nports, sizeof *f->busy);
    f->lock = xmalloc(s->nports);
    memset(f->lock, 0xff, s->nports);
    size_t ring_total = 0;
    for (uint32_t g = 0; g < s->nports; g++)
        if (!(s->port[g].dev & NIC_BIT))
            for (uint32_t v = 0; v < s->nvc; v++) ring_total += f->cap[v];
    fent_t *rings = xcalloc(ring_total ? ring_total : 1, sizeof *rings);
    for (uint32_t g = 0; g < s->nports; g++) {
        uint32_t peer = s->port[g].peer;
        for (uint32_t v = 0; v < s->nvc; v++) {
            uint32_t b = g * s->nvc + v;
            f->owner[b] = ICN_NIL;
            if (!(s->port[g].dev & NIC_BIT)) {
                f->in[b].ring = rings;
                f->in[b].cap = f->cap[v];
                rings += f->cap[v];
            }
            f->cred[b] = peer == ICN_NIL ? 0 : (s->port[peer].dev & NIC_BIT) ? SINK_CREDITS : (int32_t)f->cap[v];
        }
    }
    for (uint32_t w = 0; w < s->nswitches; w++)
        if (s->sw[w].nports * s->nvc > 64)
            cfg_fail(c, K_SW_VCS, "the flit model supports up to 64 input VCs per router (%u ports x %u VCs)", s->sw[w].nports, s->nvc);
    f->needs = xcalloc(s->nswitches, sizeof *f->needs);
    f->owned = xcalloc(s->nswitches, sizeof *f->owned);
    f->nown = xcalloc(s->nports, 1);
    f->rflits = xcalloc(s->nswitches, sizeof *f->rflits);
    f->vpri = xcalloc(nb, 1);
    f->ipri = xcalloc(nb, 1);
    f->rc = xcalloc((size_t)nb * MAX_CAND, sizeof *f->rc);
    f->held = xcalloc(s->nswitches, sizeof *f->held);
    f->routed = xcalloc(s->nswitches, sizeof *f->routed);
    f->ipp = xcalloc(s->nports, 1);
    f->sink = xcalloc(s->nports, 1);
    for (uint32_t g = 0; g < s->nports; g++)
        f->sink[g] = s->port[g].peer != ICN_NIL && (s->port[s->port[g].peer].dev & NIC_BIT) != 0;
    f->opp = xcalloc(s->nports, 1);
    f->istamp = xmalloc(s->nports * sizeof *f->istamp);
    memset(f->istamp, 0xff, s->nports * sizeof *f->istamp);
    f->isent = xcalloc(s->nports, sizeof *f->isent);
    f->act = xmalloc(s->nswitches * sizeof *f->act);
    f->is_act = xcalloc(s->nswitches, 1);
    f->nact_list = xmalloc(s->nnodes * sizeof *f->nact_list);
    f->nic_on = xcalloc(s->nnodes, 1);
    f->cur = xmalloc(s->nnodes * sizeof *f->cur);
    f->cur_n = xcalloc(s->nnodes, sizeof *f->cur_n);
    f->cur_vc = xcalloc(s->nnodes, 1);
    for (uint32_t n = 0; n < s->nnodes; n++) f->cur[n] = ICN_NIL;
    if (!f->perhop) warn_single_vc_links(s);
}

void flit_free(sim_t *s)
{
    fst_t *f = F(s);
    if (!f) return;
    uint32_t first = ICN_NIL;
    for (uint32_t b = 0; b < s->nports * s->nvc && first == ICN_NIL; b++) if (f->in[b].ring) first = b;
    if (first != ICN_NIL) free(f->in[first].ring);   /* all rings live in one block, the first ring's */
    free(f->busy);
    free(f->cap); free(f->in); free(f->cred); free(f->owner); free(f->rr); free(f->lock);
    free(f->needs); free(f->owned); free(f->nown);
    free(f->rflits); free(f->vpri); free(f->ipri); free(f->held); free(f->rc);
    free(f->routed); free(f->ipp); free(f->opp); free(f->sink); free(f->istamp); free(f->isent); free(f->act); free(f->is_act); free(f->nact_list); free(f->nic_on);
    free(f->cur); free(f->cur_n); free(f->cur_vc); free(f->cr);
    free(f);
    s->flit = NULL;
}

/* Worms stay whole and in order in input VC b: a packet's flits follow one
 * another by index, a packet starts (index 0) only after the tail of the one
 * before, and a front that holds no output VC is a header. Returns the tails
 * it holds (each a packet not yet past this router), or -1. */
static int64_t check_worms(const sim_t *s, const fst_t *f, uint32_t b)
{
    const fvc_t *q = &f->in[b];
    int64_t tails = 0;
    for (uint32_t i = 0; i < q->n; i++) {
        const fent_t *e = &q->ring[(q->head + i) % q->cap], *n = &q->ring[(q->head + i + 1) % q->cap];
        tails += e->last;
        if (e->last != (e->idx + 1u == nflits(f, s->pkt[e->pkt].size)) ||
            (i + 1 < q->n && (e->last ? n->idx != 0 : n->pkt != e->pkt || n->idx != e->idx + 1u))) {
            fprintf(stderr, "invariant: input VC %u holds flit %u of packet %u out of its worm\n", b, e->idx, e->pkt);
            return -1;
        }
    }
    if (q->n && !q->routed && front((fvc_t *)q)->idx) {
        fprintf(stderr, "invariant: input VC %u holds no output VC for the body of packet %u\n", b, front((fvc_t *)q)->pkt);
        return -1;
    }
    return tails;
}

static void count_delivery(const event_t *e, void *arg) { *(uint64_t *)arg += ev_type(e) == EV_DELIVER; }

/* Every live packet is somewhere: its tail in an input VC, still at its
 * source NIC (partly injected), or on its way to the destination NIC; each
 * router's flit count and allocation masks agree with its VCs. */
static int check_packets(sim_t *s, const fst_t *f)
{
    uint32_t nvc = s->nvc;
    uint64_t where = 0;
    evq_foreach(&s->evq, count_delivery, &where);
    for (uint32_t n = 0; n < s->nnodes; n++) where += f->cur[n] != ICN_NIL;
    for (uint32_t w = 0; w < s->nswitches; w++) {
        uint32_t b0 = s->sw[w].port0 * nvc, nq = s->sw[w].nports * nvc;
        uint64_t flits = 0;
        for (uint32_t li = 0; li < nq; li++) {
            const fvc_t *q = &f->in[b0 + li];
            int64_t tails = check_worms(s, f, b0 + li);
            if (tails < 0) return -1;
            where += (uint64_t)tails;
            flits += q->n;
            if ((f->needs[w] >> li & 1) != (q->n && !q->routed) || (f->routed[w] >> li & 1) != q->routed ||
                (f->held[w] >> li & 1) != (f->owner[b0 + li] != ICN_NIL)) {
                fprintf(stderr, "invariant: router %u input VC %u: allocation masks disagree with its state\n", w, li);
                return -1;
            }
        }
        if (flits != f->rflits[w]) {
            fprintf(stderr, "invariant: router %u counts %u flits, holds %llu\n", w, f->rflits[w], (unsigned long long)flits);
            return -1;
        }
    }
    if (where != s->pkt_live) {
        fprintf(stderr, "invariant: %u live packets but %llu found in VCs, source NICs and deliveries\n", s->pkt_live,
                (unsigned long long)where);
        return -1;
    }
    return 0;
}

int flit_check_invariants(sim_t *s, int drained)
{
    fst_t *f = F(s);
    uint32_t nvc = s->nvc, nb = s->nports * nvc;
    int bad = 0;
    int64_t *owed = xcalloc(nb, sizeof *owed);
    for (uint32_t i = 0; i < f->ncr; i++) owed[f->cr[i]]++;
    for (uint32_t b = 0; b < nb && !bad; b++) {
        uint32_t g = b / nvc, peer = s->port[g].peer;
        if (peer == ICN_NIL || (s->port[peer].dev & NIC_BIT)) continue;   /* unconnected, or a sink */
        const fvc_t *q = &f->in[peer * nvc + b % nvc];
        if (q->n > q->cap) { fprintf(stderr, "invariant: input VC %u over capacity (%u > %u)\n", peer * nvc + b % nvc, q->n, q->cap); bad = 1; }
        if (f->cred[b] < 0 || f->cred[b] + q->n + owed[b] != q->cap) {
            fprintf(stderr, "invariant: output VC %u: %d credits + %u flits downstream + %lld returning != %u\n",
                    b, f->cred[b], q->n, (long long)owed[b], q->cap);
            bad = 1;
        }
        if (f->vct && q->n) {   /* VCT: a packet started on this VC had room for all of it */
            const fent_t *e = &q->ring[(q->head + q->n - 1) % q->cap];
            uint32_t left = e->last ? 0 : nflits(f, s->pkt[e->pkt].size) - e->idx - 1u;
            if ((int64_t)left > f->cred[b] + owed[b]) {
                fprintf(stderr, "invariant: VCT: input VC %u has %lld free flits for the %u flits of packet %u still to come\n",
                        peer * nvc + b % nvc, (long long)(f->cred[b] + owed[b]), left, e->pkt);
                bad = 1;
            }
        }
        if (drained && (q->n || f->cred[b] != (int32_t)q->cap)) { fprintf(stderr, "invariant: not drained at %u\n", b); bad = 1; }
        uint32_t own = f->owner[b];
        if (own != ICN_NIL && (!f->in[own].routed || s->sw[s->port[g].dev].port0 + f->in[own].oport != g || f->in[own].ovc != b % nvc)) {
            fprintf(stderr, "invariant: output VC %u held by input VC %u that is not routed to it\n", b, own);
            bad = 1;
        }
        if (drained && own != ICN_NIL) { fprintf(stderr, "invariant: output VC %u still held after draining\n", b); bad = 1; }
    }
    if (f->ispeed && f->max_isent > f->ispeed) {
        fprintf(stderr, "invariant: an input port sent %u flits in one cycle, above router.input_speedup = %u\n", f->max_isent, f->ispeed);
        bad = 1;
    }
    if (!bad && check_packets(s, f)) bad = 1;
    if (s->st.inj_pkts != s->st.del_pkts + s->pkt_live) {
        fprintf(stderr, "invariant: injected %llu != delivered %llu + in network %u\n",
                (unsigned long long)s->st.inj_pkts, (unsigned long long)s->st.del_pkts, s->pkt_live);
        bad = 1;
    }
    free(owed);
    return bad ? -1 : 0;
}

/* Follow "waits for" edges between input VCs: a routed front waits for the
 * downstream VC it has no credit for; an unrouted header waits for the input
 * VC holding its last (escape or only) candidate output VC. */
void flit_deadlock_report(sim_t *s)
{
    fst_t *f = F(s);
    uint32_t nvc = s->nvc, nb = s->nports * nvc;
    uint32_t *seen = xcalloc(nb, sizeof *seen);
    uint64_t flits = 0;
    for (uint32_t w = 0; w < s->nswitches; w++) flits += f->rflits[w];
    fprintf(stderr, "icnsim: DEADLOCK at t = %.3f us: %u packets (%llu flits in routers), none moved for %.3f us\n",
            s->now / 1e6, s->pkt_live, (unsigned long long)flits, (s->now - s->last_progress) / 1e6);
    for (uint32_t start = 0; start < nb; start++) {
        if (!f->in[start].n || seen[start]) continue;
        uint32_t b = start;
        while (b != ICN_NIL && !seen[b]) {
            seen[b] = start + 1;
            fvc_t *q = &f->in[b];
            if (!q->n) { b = ICN_NIL; break; }
            uint32_t g = b / nvc, w = s->port[g].dev, port0 = s->sw[w].port0;
            if (q->routed) {
                uint32_t go = port0 + q->oport, peer = s->port[go].peer;
                if (peer == ICN_NIL || (s->port[peer].dev & NIC_BIT)) { b = ICN_NIL; break; }
                b = peer * nvc + q->ovc;
            } else {
                cand_t c[MAX_CAND];
                int nc = head_route(s, w, g - port0, q, c);
                b = f->owner[(port0 + c[nc - 1].out) * nvc + c[nc - 1].ovc];
            }
        }
        if (b != ICN_NIL && seen[b] == start + 1) {
            fprintf(stderr, "icnsim: blocked cycle of input VCs (router:port:vc):\n");
            uint32_t c0 = b;
            do {
                fvc_t *q = &f->in[b];
                uint32_t g = b / nvc, w = s->port[g].dev;
                fprintf(stderr, "  router %u port %u vc %u: %u flits, front packet to node %u, %s\n", w,
                        s->port[g].local, b % nvc, q->n, s->pkt[front(q)->pkt].dst,
                        q->routed ? "waits for credits downstream" : "waits for an output VC");
                uint32_t port0 = s->sw[w].port0;
                if (q->routed) b = s->port[port0 + q->oport].peer * nvc + q->ovc;
                else {
                    cand_t c[MAX_CAND];
                    int nc = head_route(s, w, g - port0, q, c);
                    b = f->owner[(port0 + c[nc - 1].out) * nvc + c[nc - 1].ovc];
                }
            } while (b != c0);
            free(seen);
            return;
        }
    }
    fprintf(stderr, "icnsim: no cycle of blocked VCs found\n");
    free(seen);
}
