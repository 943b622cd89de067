/* views.cc: IBA congestion control over time, per node and per port.
 *
 * At every time.interval sample it keeps, for each node with sources above
 * CCTI_Min, their number and mean CCT index (cc.node_thr and node_sum,
 * kept as indices move), and for each switch output VL that was congested
 * during the interval, the fraction of it spent congested and its state at
 * the sample: root (room downstream for a packet.mtu packet) or victim
 * (none). Rows are kept only for what was throttled or congested, so the
 * cost follows the congestion, not the network's size.
 *
 * Outputs: cc-nodes.csv and cc-port-state.csv, each with a plot (time
 * against node or port, coloured by the value), and cc-timeseries.gp for
 * the totals of cc-timeseries.csv (written with any CC run). */
#include "cc.h"
#include "../stats/plot.h"
#include "../core/util.h"
#include <inttypes.h>
#include <stdlib.h>

typedef struct node_row { uint32_t bin, node, throttled; float mean; } node_row_t;
typedef struct port_row { uint32_t bin, port; uint8_t vl, state; float frac; } port_row_t;

struct cc_view {
    uint64_t *prev;           /* [port * nvc + vc]: congested time up to the previous sample */
    node_row_t *nr;
    port_row_t *pr;
    size_t nn, ncap, np, pcap;
};

enum { ST_NONE, ST_ROOT, ST_VICTIM };
static const char *const state_name[] = { "none", "root", "victim" };

void cc_view_setup(sim_t *s, cfg_t *c)
{
    if (!cfg_int(c, K_VIEWS_CC)) return;
    cc_view_t *v = s->cc->view = xcalloc(1, sizeof *v);
    v->prev = xcalloc((size_t)s->nports * s->nvc, sizeof *v->prev);
}

void cc_view_free(cc_t *cc)
{
    cc_view_t *v = cc->view;
    if (!v) return;
    free(v->prev); free(v->nr); free(v->pr); free(v);
    cc->view = NULL;
}

void cc_view_sample(sim_t *s, uint32_t k)
{
    cc_t *cc = s->cc;
    cc_view_t *v = cc->view;
    uint32_t bin = k - 1;
    for (uint32_t n = 0; n < s->nnodes; n++) {
        if (!cc->node_thr[n]) continue;
        if (v->nn == v->ncap) v->nr = xrealloc(v->nr, (v->ncap = v->ncap ? 2 * v->ncap : 1024) * sizeof *v->nr);
        v->nr[v->nn++] = (node_row_t){ bin, n, cc->node_thr[n], (float)((double)cc->node_sum[n] / cc->node_thr[n]) };
    }
    double span = (double)s->st.interval;
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t go = s->sw[w].port0 + p;
            for (uint32_t vl = 0; vl < s->nvc; vl++) {
                size_t b = (size_t)go * s->nvc + vl;
                uint64_t ct = cc_cong_time(s, b), d = ct - v->prev[b];
                v->prev[b] = ct;
                if (!d && !cc->pvl[b].congested) continue;
                uint8_t st = !cc->pvl[b].congested ? ST_NONE
                             : *credit_cv(s, b) < (int32_t)occ_bytes(s, s->mtu) ? ST_VICTIM : ST_ROOT;
                if (v->np == v->pcap) v->pr = xrealloc(v->pr, (v->pcap = v->pcap ? 2 * v->pcap : 1024) * sizeof *v->pr);
                v->pr[v->np++] = (port_row_t){ bin, go, (uint8_t)vl, st, (float)(d / span) };
            }
        }
}

static void plot_head(FILE *f, const char *png, const char *title)
{
    fprintf(f, "set terminal pngcairo size 1200,700 noenhanced\nset output '%s'\nset datafile separator ','\n"
               "set key outside\nset title ", png);
    plot_str(f, title);
    fputc('\n', f);
}

/* cc-timeseries.gp: the totals over time (any CC run). */
static void write_totals_plot(const sim_t *s, const char *dir, const char *title, int render)
{
    (void)s;
    outfile_t o;
    FILE *f = plot_open(&o, dir, "cc-timeseries.gp");
    plot_head(f, "cc-timeseries.png", title);
    fputs("set multiplot layout 3,1\nset xlabel 'time (us)'\n"
          "set ylabel 'sources'\nplot 'cc-timeseries.csv' using 1:2 skip 1 with steps title 'throttled sources'\n"
          "set ylabel 'CCT index'\nplot 'cc-timeseries.csv' using 1:3 skip 1 with steps title 'mean', "
          "'' using 1:4 skip 1 with steps title 'largest'\n"
          "set ylabel 'per interval'\nplot 'cc-timeseries.csv' using 1:5 skip 1 with steps title 'FECNs marked', "
          "'' using 1:6 skip 1 with steps title 'BECNs'\nunset multiplot\n", f);
    out_close(&o);
    plot_render(dir, "cc-timeseries.gp", render);
}

void cc_view_write(const sim_t *s, const char *dir, const char *title, int render)
{
    const cc_t *cc = s->cc;
    if (!cc) return;
    write_totals_plot(s, dir, title, render);
    const cc_view_t *v = cc->view;
    if (!v) return;
    double us = (double)s->st.interval / 1e6;
    outfile_t o;
    FILE *f = plot_open(&o, dir, "cc-nodes.csv");
    fputs("t_end_us,node,throttled_sources,mean_ccti\n", f);
    for (size_t i = 0; i < v->nn; i++)
        fprintf(f, "%.3f,%u,%u,%.3f\n", (v->nr[i].bin + 1) * us, v->nr[i].node, v->nr[i].throttled, v->nr[i].mean);
    out_close(&o);
    f = plot_open(&o, dir, "cc-port-state.csv");
    fputs("t_end_us,switch,port,vl,congested_fraction,state\n", f);
    for (size_t i = 0; i < v->np; i++) {
        const port_row_t *r = &v->pr[i];
        fprintf(f, "%.3f,%u,%u,%u,%.4f,%s\n", (r->bin + 1) * us, s->port[r->port].dev, s->port[r->port].local, r->vl,
                r->frac, state_name[r->state]);
    }
    out_close(&o);
    /* cells of one interval by one node or port */
    f = plot_open(&o, dir, "cc-nodes.gp");
    plot_head(f, "cc-nodes.png", title);
    fprintf(f, "set xlabel 'time (us)'\nset ylabel 'node'\nset cblabel 'mean CCT index of its throttled sources'\n"
               "plot 'cc-nodes.csv' using ($1-%g):2:(%g):(0.5):4 skip 1 with boxxyerror fs solid noborder fc palette notitle\n",
            us / 2, us / 2);
    out_close(&o);
    plot_render(dir, "cc-nodes.gp", render);
    uint32_t maxp = 1;
    for (uint32_t w = 0; w < s->nswitches; w++)
        if (s->sw[w].nports > maxp) maxp = s->sw[w].nports;
    f = plot_open(&o, dir, "cc-port-state.gp");
    plot_head(f, "cc-port-state.png", title);
    fprintf(f, "set xlabel 'time (us)'\nset ylabel 'switch output (switch x %u + port)'\n"
               "set cbrange [0:2]\nset cbtics ('congested, left' 0, 'root' 1, 'victim' 2)\n"
               "set palette defined (0 'grey', 1 'orange', 2 'red')\n"
               "plot 'cc-port-state.csv' using ($1-%g):($2*%u+$3):(%g):(0.5):(strcol(6) eq 'victim' ? 2 : "
               "strcol(6) eq 'root' ? 1 : 0) skip 1 with boxxyerror fs solid noborder fc palette notitle\n",
            maxp, us / 2, maxp, us / 2);
    out_close(&o);
    plot_render(dir, "cc-port-state.gp", render);
}
