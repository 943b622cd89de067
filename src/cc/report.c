/* What congestion control did: cc.csv (totals), cc-ports.csv (per switch
 * output VL: FECN marks, time congested, packets forwarded as a victim),
 * cc-timeseries.csv (per time.interval: sources throttled, their mean and
 * largest CCT index, marks and BECNs in the interval) and flows.csv (every
 * flow alive at the end that sent or received a byte or was notified:
 * bytes, BECNs, CCT index; written whenever the flow transport runs, with
 * nic.queues = flows or a multipath scheme too). */
#include "cc.h"
#include "../stats/outfile.h"
#include "../stats/report.h"
#include "../core/util.h"
#include <inttypes.h>
#include <stdlib.h>

/* A flow to list: its source and destination (the order of the rows) and id. */
typedef struct listed { uint32_t node, dst, f; } listed_t;

static int by_src_dst(const void *a, const void *b)
{
    const listed_t *x = a, *y = b;
    if (x->node != y->node) return x->node < y->node ? -1 : 1;
    return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* the CA state a flow obeys: its own, or its SL's (cc.port_control = sl) */
static const cca_t *flow_cca(const cc_t *cc, uint32_t n, const flow_t *fl)
{
    return cc && cc->per_sl ? &cc->sl_cca[(size_t)n * CC_NSL + (fl->vc & (CC_NSL - 1))] : &fl->cc;
}

static double frac(const sim_t *s, uint64_t ps) { return s->now ? (double)ps / (double)s->now : 0; }

/* flows.csv: the flow transport's live flows (with or without CC) */
static void write_flows(const sim_t *s, const char *dir)
{
    const cc_t *cc = s->cc;
    const transport_t *t = s->tp;
    outfile_t o;
    FILE *f = out_open(&o, dir, "flows.csv");
    fputs("src,dst,vl,tx_bytes,rx_bytes_window,rx_share_of_link,becns,ccti,queued_messages\n", f);
    double span = (double)stats_window(s) * 1e-12;
    /* By source, then destination (ids depend on when nodes were served).
     * A saturated source holds up to nic.flows flows that only wait with a
     * message (millions at 11664 nodes): listed only once they carried or
     * were notified (cc.csv counts them all: flows_live). The records are
     * read in pool order, chunk after chunk, rather than through the flow
     * tables, whose order scatters the reads over the pool. */
    listed_t *e = NULL;
    size_t ne = 0, cap = 0;
    for (uint32_t id = 0; id < t->nflow_used; id++) {
        const flow_t *fl = flow_at(t, id);
        if (fl->node == ICN_NIL) continue;   /* free */
        /* notified: its own BECNs (per SL there are none of its own) */
        if (!fl->tx_bytes && !fl->rx_bytes && ((cc && cc->per_sl) || !fl->cc.becns)) continue;
        if (ne == cap) e = xrealloc(e, (cap = cap ? 2 * cap : 1024) * sizeof *e);
        e[ne++] = (listed_t){ fl->node, fl->dst, id };
    }
    if (ne) qsort(e, ne, sizeof *e, by_src_dst);   /* (e is NULL when none is listed) */
    for (size_t k = 0; k < ne; k++) {
        const flow_t *fl = flow_at(t, e[k].f);
        const cca_t *a = flow_cca(cc, fl->node, fl);
        fprintf(f, "%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%.6f,%u,%u,%u\n", fl->node, fl->dst, fl->vc, fl->tx_bytes,
                fl->rx_bytes, span > 0 ? (double)fl->rx_bytes * 8 / (s->link_bps * span) : 0, a->becns, a->ccti, fl->n);
    }
    free(e);
    out_close(&o);
}

void cc_write(const sim_t *s, const char *dir)
{
    const cc_t *cc = s->cc;
    const transport_t *t = s->tp;
    if (!cc) {   /* nic.queues = flows without CC */
        if (t) write_flows(s, dir);
        return;
    }
    outfile_t o;
    FILE *f = out_open(&o, dir, "cc.csv");
    fputs("fecn_marked,eligible_congested,cnp_sent,cnp_delivered,becns,timer_expiries,flows_live,flows_peak\n", f);
    fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u\n", cc->marked,
            cc->eligible_congested, t->cnp_sent, t->cnp_delivered, cc->becns, cc->timer_expiries, t->flows_live, t->flows_peak);
    out_close(&o);
    f = out_open(&o, dir, "cc-ports.csv");
    fputs("switch,port,vl,fecn_marked,congested_fraction,victim_forwards\n", f);
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t go = s->sw[w].port0 + p;
            for (uint32_t v = 0; v < s->nvc; v++) {
                size_t b = (size_t)go * s->nvc + v;
                uint64_t ct = cc_cong_time(s, b);
                if (!ct && !cc->port_marks[go] && !cc->port_victim_fwd[go]) continue;
                fprintf(f, "%u,%u,%u,%" PRIu64 ",%.6f,%" PRIu64 "\n", w, p, v, v ? 0 : cc->port_marks[go], frac(s, ct),
                        v ? 0 : cc->port_victim_fwd[go]);
            }
        }
    out_close(&o);
    f = out_open(&o, dir, "cc-timeseries.csv");
    fputs("t_end_us,throttled_sources,mean_ccti,max_ccti,fecn_marked,becns\n", f);
    for (uint32_t b = 0; b < cc->nsampled; b++) {
        simtime_t end = (simtime_t)(b + 1) * s->st.interval;
        if (end > stats_series_end(s)) end = stats_series_end(s);   /* as timeseries.csv's last bin */
        fprintf(f, "%.3f,%u,%.3f,%u,%" PRIu64 ",%" PRIu64 "\n", end / 1e6, cc->ts_throttled[b], cc->ts_mean[b], cc->ts_max[b],
                cc->ts_marked[b] - (b ? cc->ts_marked[b - 1] : 0), cc->ts_becns[b] - (b ? cc->ts_becns[b - 1] : 0));
    }
    out_close(&o);
    write_flows(s, dir);
}
