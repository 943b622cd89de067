/* InfiniBand port counters (views.port_counters), over the measurement window,
 * for every connected switch port, under the names perfquery prints:
 *
 *   PortXmitData, PortRcvData  4-byte words (IB counts data / 4; a packet
 *                              is rounded up to whole words, as IB pads it)
 *   PortXmitPkts               packets whose transmission starts in the window
 *   PortRcvPkts                packets whose head arrives in the window
 *   PortXmitWait               ticks during which the output link was idle
 *                              while some packet in the switch was routed to
 *                              it (a VC head, or a VOQ for it): the IB
 *                              specification's "had data to transmit but no
 *                              data was sent", for lack of credits or of
 *                              arbitration. The time is kept exactly (ps) and
 *                              divided by the tick at the end; the tick is
 *                              8 bytes' time at the link rate, as NVIDIA
 *                              Quantum switches count it, so XmitWait x 8 is
 *                              the bytes the port could have sent meanwhile.
 *
 * The waiting state of an output changes only where the switch changes its
 * wanted set or its busy flag; those places call views_xwait, which opens or
 * closes the port's waiting interval. */
#include "views_int.h"
#include "plot.h"
#include "../core/util.h"
#include <stdlib.h>

typedef struct pctr {
    uint64_t xmit_bytes, rcv_bytes, xmit_pkts, rcv_pkts;   /* bytes: already rounded to words */
    uint64_t wait_ps;
    simtime_t since;         /* start of the current waiting interval, SIMTIME_MAX if none */
} pctr_t;

struct vports { pctr_t *p; };

static inline uint64_t words(uint32_t size) { return (size + 3u) / 4u; }

struct vports *vports_setup(sim_t *s)
{
    struct vports *v = xcalloc(1, sizeof *v);
    v->p = xcalloc(s->nports, sizeof *v->p);
    for (uint32_t g = 0; g < s->nports; g++) v->p[g].since = SIMTIME_MAX;
    return v;
}

void vports_free(struct vports *v)
{
    if (!v) return;
    free(v->p);
    free(v);
}

void vports_on_send(sim_t *s, struct vports *v, uint32_t go, uint32_t size)
{
    if (!in_window(s, s->now)) return;
    v->p[go].xmit_pkts++;
    v->p[go].xmit_bytes += words(size);
}

void vports_on_arrive(sim_t *s, struct vports *v, uint32_t gi, uint32_t size)
{
    if (!in_window(s, s->now)) return;
    v->p[gi].rcv_pkts++;
    v->p[gi].rcv_bytes += words(size);
}

/* The part of [a, b) inside the measurement window. */
static uint64_t clip(const sim_t *s, simtime_t a, simtime_t b)
{
    if (a < s->warmup) a = s->warmup;
    if (b > s->stop) b = s->stop;
    return b > a ? b - a : 0;
}

void views_xwait(sim_t *s, uint32_t go)
{
    struct vports *v = s->views->ports;
    if (!v) return;
    pctr_t *c = &v->p[go];
    int waiting = s->port[go].want != 0 && !s->port[go].out_busy;
    if (waiting == (c->since != SIMTIME_MAX)) return;
    if (waiting) {
        c->since = s->now;
    } else {
        c->wait_ps += clip(s, c->since, s->now);
        c->since = SIMTIME_MAX;
    }
}

simtime_t views_tick(const sim_t *s)
{
    return ser_time(s, 8);
}

int views_port_counters(const sim_t *s, uint32_t g, port_counters_t *pc)
{
    const views_t *vw = s->views;
    if (!vw || !vw->ports) return 0;
    const pctr_t *c = &vw->ports->p[g];
    pc->xmit_data = c->xmit_bytes;
    pc->rcv_data = c->rcv_bytes;
    pc->xmit_pkts = c->xmit_pkts;
    pc->rcv_pkts = c->rcv_pkts;
    pc->wait_ps = c->wait_ps + (c->since != SIMTIME_MAX ? clip(s, c->since, s->now) : 0);   /* still waiting */
    pc->xmit_wait = pc->wait_ps / views_tick(s);
    return 1;
}

void vports_write(const sim_t *s, const char *dir)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "port-counters.csv");
    fprintf(f, "# every connected switch port over the measurement window; ports numbered from 1 as in IB; "
               "PortXmitWait in ticks of %.6g ns (8 bytes at the link rate)\n", (double)views_tick(s) / 1e3);
    fputs("switch,port,peer_type,peer,peer_port,PortXmitData,PortRcvData,PortXmitPkts,PortRcvPkts,PortXmitWait\n", f);
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t g = s->sw[w].port0 + p, peer = s->port[g].peer;
            if (peer == ICN_NIL) continue;
            const port_t *q = &s->port[peer];
            int ca = (q->dev & NIC_BIT) != 0;
            port_counters_t c;
            views_port_counters(s, g, &c);
            fprintf(f, "%u,%u,%s,%u,%u,%llu,%llu,%llu,%llu,%llu\n", w, p + 1, ca ? "CA" : "SW", ca ? q->dev & ~NIC_BIT : q->dev,
                    ca ? 1u : q->local + 1u, (unsigned long long)c.xmit_data, (unsigned long long)c.rcv_data,
                    (unsigned long long)c.xmit_pkts, (unsigned long long)c.rcv_pkts, (unsigned long long)c.xmit_wait);
        }
    out_close(&o);
}

void vports_pack(const sim_t *s, const struct vports *v, bytebuf_t *b)
{
    bb_put(b, v->p, (uint64_t)s->nports * sizeof *v->p);
}

void vports_merge(const sim_t *s, struct vports *v, bytecur_t *c)
{
    for (uint32_t g = 0; g < s->nports; g++) {
        pctr_t x, *p = &v->p[g];
        bc_get(c, &x, sizeof x, "views.port_counters");
        p->xmit_bytes += x.xmit_bytes; p->rcv_bytes += x.rcv_bytes;
        p->xmit_pkts += x.xmit_pkts; p->rcv_pkts += x.rcv_pkts;
        p->wait_ps += x.wait_ps;
        if (x.since < p->since) p->since = x.since;
    }
}
