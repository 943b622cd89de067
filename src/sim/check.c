/* The deadlock report and the invariant checks. */
#include "sim.h"
#include "internal.h"
#include "../core/util.h"
#include "../core/units.h"
#include "../net/link.h"
#include "../net/policy.h"
#include "../net/flit.h"
#include "../stats/views.h"
#include "../transport/transport.h"
#include "../cc/cc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Follow "waits for" edges from a blocked input VC: its head needs credits of
 * the next switch's input VC. A walk that revisits a buffer has found a cycle. */
void deadlock_report(sim_t *s)
{
    uint32_t nb = s->nports * s->nvc;
    uint32_t *seen = xcalloc(nb, sizeof *seen);
    fprintf(stderr, "icnsim: DEADLOCK at t = %.3f us: %u packets in the network, none moved for %.3f us\n",
            s->now / 1e6, s->pkt_live, (s->now - s->last_progress) / 1e6);
    for (uint32_t start = 0; start < nb; start++) {
        if (!s->vq[start].npk || seen[start]) continue;
        uint32_t b = start;
        while (b != ICN_NIL && !seen[b]) {
            seen[b] = start + 1;
            uint32_t out, ovc;
            if (!buffer_waits_for(s, b, &out, &ovc)) { b = ICN_NIL; break; }
            uint32_t g = b / s->nvc, go = s->sw[s->port[g].dev].port0 + out, peer = s->port[go].peer;
            if (peer == ICN_NIL || (s->port[peer].dev & NIC_BIT)) { b = ICN_NIL; break; }
            b = peer * s->nvc + ovc;
        }
        if (b != ICN_NIL && seen[b] == start + 1) {
            fprintf(stderr, "icnsim: blocked cycle of buffers (switch:port:vc -> next):\n");
            uint32_t c = b;
            do {
                uint32_t out = 0, ovc = 0;
                buffer_waits_for(s, c, &out, &ovc);
                uint32_t g = c / s->nvc, w = s->port[g].dev;
                uint32_t go = s->sw[w].port0 + out;
                fprintf(stderr, "  switch %u port %u vc %u (%u pkts) waits for output %u vc %u (%d credits)\n",
                        w, s->port[g].local, c % s->nvc, s->vq[c].npk, out, ovc, *credit(s, go, ovc));
                c = s->port[go].peer * s->nvc + ovc;
            } while (c != b);
            free(seen);
            return;
        }
    }
    fprintf(stderr, "icnsim: no cycle of full buffers found (packets wait on something else)\n");
    free(seen);
}

/* ---- invariants ---- */

struct owed { sim_t *s; int64_t *expect; uint64_t in_links; uint64_t *incoming; };

/* Packets on links and credits on their way back, from the pending events. */
static void owed_by_event(const event_t *e, void *arg)
{
    struct owed *o = arg;
    sim_t *s = o->s;
    switch (ev_type(e)) {
    case EV_ARRIVE:
        o->in_links++;
        if (!s->vn)   /* VOQnet queues keep their own credits (voqnet_check) */
            o->expect[s->port[e->a].peer * s->nvc + s->pkt[e->b].out_vc] += occ_bytes(s, s->pkt[e->b].size);
        if (o->incoming) o->incoming[e->a * s->nvc + s->pkt[e->b].out_vc] += occ_bytes(s, s->pkt[e->b].size);
        break;
    case EV_DELIVER: o->in_links++; break;
    case EV_CREDIT: o->expect[e->a] += e->b; break;
    default: break;
    }
}

struct tally { uint32_t cnt, bytes; };
static void tally_pkt(sim_t *s, uint32_t id, void *arg)
{
    struct tally *ty = arg;
    ty->cnt++;
    ty->bytes += occ_bytes(s, s->pkt[id].size);
}

/* IBA CC: the bytes queued for each switch output VL are those of the
 * packets waiting in the switch's buffers routed to it, and the flag beside
 * them is the VL's congested state. */
struct ccq { sim_t *s; uint32_t port0; uint64_t *want; };
static void cc_tally(sim_t *s, uint32_t id, void *arg)
{
    struct ccq *q = arg;
    const packet_t *p = &s->pkt[id];
    q->want[(size_t)(q->port0 + p->out) * s->nvc + p->out_vc] += occ_bytes(s, p->size);
}

static int check_cc_occupancy(sim_t *s)
{
    const cc_t *cc = s->cc;
    size_t nb = (size_t)s->nports * s->nvc;
    struct ccq q = { s, 0, xcalloc(nb, sizeof *q.want) };
    for (uint32_t w = 0; w < s->nswitches; w++) {
        q.port0 = s->sw[w].port0;
        for (uint32_t b = q.port0 * s->nvc; b < (q.port0 + s->sw[w].nports) * s->nvc; b++) buffer_foreach(s, b, cc_tally, &q);
    }
    int bad = 0;
    for (size_t b = 0; b < nb && !bad; b++) {
        uint32_t word = *cc_occ_cv(s, (uint32_t)b), count = word & ~CC_CONGESTED;
        if (count != q.want[b] || !!(word & CC_CONGESTED) != cc->pvl[b].congested) {
            fprintf(stderr, "invariant: CC: output port %zu vl %zu counts %u queued bytes (congested flag %d), buffers hold "
                    "%llu for it (state %d)\n", b / s->nvc, b % s->nvc, count, !!(word & CC_CONGESTED),
                    (unsigned long long)q.want[b], cc->pvl[b].congested);
            bad = 1;
        }
    }
    free(q.want);
    return bad;
}

/* switch.crossbar = queue (FIFO VCs): every transfer holds its input VC,
 * and no VC feeds two outputs at once. */
static int check_vc_feeds(const sim_t *s)
{
    uint8_t *feeding = xcalloc((size_t)s->nports * s->nvc, 1);
    int bad = 0;
    for (uint32_t g = 0; g < s->nports && !bad; g++) {
        const port_t *o = &s->port[g];
        if ((o->dev & NIC_BIT) || !o->out_busy) continue;
        const port_t *in = &s->port[o->feed];
        if (!(in->vc_busy >> o->rel_vc & 1) || feeding[(size_t)o->feed * s->nvc + o->rel_vc]++) {
            fprintf(stderr, "invariant: port %u vc %u feeds output %u %s\n", o->feed, o->rel_vc, g,
                    in->vc_busy >> o->rel_vc & 1 ? "and another output at once" : "without holding its VC");
            bad = 1;
        }
    }
    for (uint32_t g = 0; g < s->nports && !bad; g++)
        for (uint32_t v = 0; v < s->nvc; v++)
            if ((s->port[g].vc_busy >> v & 1) && !feeding[(size_t)g * s->nvc + v]) {
                fprintf(stderr, "invariant: port %u vc %u is held but feeds no output\n", g, v);
                bad = 1;
                break;
            }
    free(feeding);
    return bad;
}

int sim_check_invariants(sim_t *s, int drained)
{
    return sim_check_invariants_of(s, drained, &s->evq, 1, s->pkt_live, &s->st);
}

int sim_check_invariants_of(sim_t *s, int drained, const evq_t *queues, uint32_t nq, uint32_t live, const stats_t *st)
{
    if (s->flit_mode) return flit_check_invariants(s, drained);
    int bad = 0;
    uint32_t nb = s->nports * s->nvc;
    int64_t *expect = xcalloc(nb, sizeof *expect);   /* bytes owed to each output's credit counter */
    uint64_t in_buffers = 0, in_links = 0;
    if (s->vn) bad |= voqnet_check(s, &in_buffers);
    for (uint32_t b = 0; b < (s->vn ? 0 : nb); b++) {
        const vcq_t *q = &s->vq[b];
        struct tally ty = { 0, 0 };
        buffer_foreach(s, b, tally_pkt, &ty);
        uint32_t cnt = ty.cnt, bytes = ty.bytes;
        if (cnt != q->npk) { fprintf(stderr, "invariant: queue %u counts %u packets, holds %u\n", b, q->npk, cnt); bad = 1; }
        if (!s->voq_mode && q->npk && q->second != (q->npk > 1 ? s->pkt[q->head].next : ICN_NIL)) {
            fprintf(stderr, "invariant: queue %u caches a wrong second packet\n", b);
            bad = 1;
        }
        for (uint64_t m = s->voq_mode ? s->voq_mask[b] : 0; m; m &= m - 1) {
            const voq_t *v = &s->voq[(size_t)b * s->voq_radix + (unsigned)__builtin_ctzll(m)];
            const packet_t *h = &s->pkt[v->head];
            if (v->hneed != (occ_bytes(s, h->size) << 8 | h->out_vc)) {
                fprintf(stderr, "invariant: a VOQ of queue %u caches a wrong head need\n", b);
                bad = 1;
            }
            int std = v->hneed == (s->voq_full << 8 | b % s->nvc);
            if (std != (int)(s->voq_std[b] >> __builtin_ctzll(m) & 1)) {
                fprintf(stderr, "invariant: a VOQ of queue %u marks its head %s\n", b, std ? "unusual" : "full and VC-keeping");
                bad = 1;
            }
        }
        uint32_t cap = s->vc_cap_sw;
        if (q->bytes > cap) { fprintf(stderr, "invariant: queue %u over capacity (%u > %u)\n", b, q->bytes, cap); bad = 1; }
        if (bytes > q->bytes) { fprintf(stderr, "invariant: queue %u holds %u bytes, accounts %u\n", b, bytes, q->bytes); bad = 1; }
        in_buffers += cnt;
        uint32_t g = b / s->nvc;
        if (!(s->port[g].dev & NIC_BIT) && s->port[g].peer != ICN_NIL)
            expect[s->port[g].peer * s->nvc + b % s->nvc] += q->bytes;
        else if (q->npk) { fprintf(stderr, "invariant: packets queued at unconnected port %u\n", g); bad = 1; }
    }
    for (uint32_t n = 0; n < s->nnodes; n++)   /* source queues cache their head message */
        for (uint32_t v = 0; s->nic[n].srcq && v < s->nsqs; v++) {
            const srcq_t *q = &s->nic[n].srcq[v];
            const srcmsg_t *m = q->n ? &q->m[q->head] : NULL;
            if (m && (q->hdst != m->dst || q->hsize != next_pkt_size(s, m->left))) {
                fprintf(stderr, "invariant: node %u source queue %u caches a wrong head\n", n, v);
                bad = 1;
            }
        }
    struct owed o = { s, expect, 0, s->bubble_local ? xcalloc(nb, sizeof *o.incoming) : NULL };
    for (uint32_t k = 0; k < nq; k++) evq_foreach(&queues[k], owed_by_event, &o);
    in_links = o.in_links;
    for (uint32_t b = 0; o.incoming && b < nb; b++)   /* the local bubble's count of packets on their way in */
        if (s->vq[b].incoming != o.incoming[b]) {
            fprintf(stderr, "invariant: queue %u counts %u bytes on their way in, its links carry %llu\n", b, s->vq[b].incoming,
                    (unsigned long long)o.incoming[b]);
            bad = 1;
            break;
        }
    free(o.incoming);
    if (in_buffers + in_links != live) {
        fprintf(stderr, "invariant: %u live packets but %llu in buffers + %llu on links\n", live,
                (unsigned long long)in_buffers, (unsigned long long)in_links);
        bad = 1;
    }
    uint64_t cinj = s->tp ? s->tp->ctrl_inj : 0, cdel = s->tp ? s->tp->ctrl_del : 0;   /* control packets */
    if (st->inj_pkts + cinj != st->del_pkts + cdel + live) {
        fprintf(stderr, "invariant: injected %llu + %llu control != delivered %llu + %llu control + in network %u\n",
                (unsigned long long)st->inj_pkts, (unsigned long long)cinj, (unsigned long long)st->del_pkts,
                (unsigned long long)cdel, live);
        bad = 1;
    }
    if (st->gen_pkts && st->gen_pkts < st->inj_pkts) {
        fprintf(stderr, "invariant: generated %llu < injected %llu\n",
                (unsigned long long)st->gen_pkts, (unsigned long long)st->inj_pkts);
        bad = 1;
    }
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t g = b / s->nvc, peer = s->port[g].peer;
        uint32_t cap = peer == ICN_NIL ? 0 : (s->port[peer].dev & NIC_BIT) ? s->vc_cap_nic : s->vc_cap_sw;
        int32_t cr = *credit_cv(s, b);
        if (cr < 0 || cr + expect[b] != (int64_t)cap) {
            fprintf(stderr, "invariant: port %u vc %u: %d credits + %lld owed != capacity %u\n",
                    g, b % s->nvc, cr, (long long)expect[b], cap);
            bad = 1;
            break;
        }
        if (drained && cr != (int32_t)cap) {
            fprintf(stderr, "invariant: drained network but port %u vc %u has %d of %u credits\n",
                    g, b % s->nvc, cr, cap);
            bad = 1;
            break;
        }
    }
    free(expect);
    if (s->xbar_queue && !s->voq_mode) bad |= check_vc_feeds(s);
    if (s->cc) bad |= check_cc_occupancy(s);
    bad |= transport_check(s);
    return bad ? -1 : 0;
}
