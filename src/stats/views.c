/* Per-link and per-VC views of a run, each off unless asked for:
 *
 *   output.destmap    destinations seen per switch output port and VC
 *                     (destmap.csv, and destmap-stages.csv summed up per stage
 *                     and direction): seed 002's Table 1, measured;
 *   output.links      utilization of every switch output link in the
 *                     measurement window (links.csv, links-stages.csv);
 *   output.occupancy  input-buffer occupancy of every switch at every sample
 *                     (occupancy.csv: a time x switch matrix, and a gnuplot
 *                     heat map), to watch a congestion tree grow.
 *
 * The hooks cost one predictable branch per hop when all are off. */
#include "views.h"
#include "plot.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

struct views {
    int destmap, links, occupancy;
    uint32_t words;          /* destmap: 64-bit words per (port, vc) bitset */
    uint64_t *seen;          /* destmap: [(port * nvc + vc) * words] */
    uint64_t *bytes;         /* links: [port] bytes sent in the window */
    float *occ;              /* occupancy: [sample * nswitches + switch] */
    uint32_t nsamples;
};

void views_setup(sim_t *s, cfg_t *c)
{
    int d = (int)cfg_int(c, K_OUT_DESTMAP), l = (int)cfg_int(c, K_OUT_LINKS), o = (int)cfg_int(c, K_OUT_OCCUPANCY);
    if (!d && !l && !o) return;
    if (s->flit_mode) cfg_fail(c, d ? K_OUT_DESTMAP : l ? K_OUT_LINKS : K_OUT_OCCUPANCY, "views are kept by the packet-level model");
    views_t *v = s->views = xcalloc(1, sizeof *v);   /* held by s at once: reachable if a check below exits */
    v->destmap = d; v->links = l; v->occupancy = o;
    if (d) {
        v->words = (s->nnodes + 63) / 64;
        double mb = (double)s->nports * s->nvc * v->words * 8 / 1048576.0;
        if (mb > 2048) cfg_fail(c, K_OUT_DESTMAP, "needs %.0f MB (one bit per port, VC and destination); at most 2048 MB", mb);
        v->seen = xcalloc((size_t)s->nports * s->nvc * v->words, sizeof *v->seen);
    }
    if (l) v->bytes = xcalloc(s->nports, sizeof *v->bytes);
    if (o) {
        v->nsamples = s->st.nbins;
        double mb = (double)v->nsamples * s->nswitches * sizeof *v->occ / 1048576.0;
        if (mb > 2048)
            cfg_fail(c, K_OUT_OCCUPANCY, "needs %.0f MB (%u samples of time.interval x %u switches); at most 2048 MB: "
                     "use a longer time.interval", mb, v->nsamples, s->nswitches);
        v->occ = xcalloc((size_t)v->nsamples * s->nswitches, sizeof *v->occ);
    }
}

void views_free(sim_t *s)
{
    views_t *v = s->views;
    if (!v) return;
    free(v->seen); free(v->bytes); free(v->occ); free(v);
    s->views = NULL;
}

void views_on_send(sim_t *s, uint32_t go, const packet_t *p)
{
    views_t *v = s->views;
    if (s->port[go].dev & NIC_BIT) return;
    if (v->seen) v->seen[((size_t)go * s->nvc + p->out_vc) * v->words + p->dst / 64] |= 1ull << (p->dst % 64);
    if (v->bytes && s->now >= s->warmup && s->now < s->stop) v->bytes[go] += p->size;
}

void views_on_sample(sim_t *s, uint32_t k)
{
    views_t *v = s->views;
    if (!v->occ || k - 1 >= v->nsamples) return;
    float *row = &v->occ[(size_t)(k - 1) * s->nswitches];
    for (uint32_t w = 0; w < s->nswitches; w++) {
        const sw_t *sw = &s->sw[w];
        uint64_t b = 0;
        for (uint32_t g = sw->port0 * s->nvc; g < (sw->port0 + sw->nports) * s->nvc; g++) b += s->vq[g].bytes;
        row[w] = (float)((double)b / ((double)sw->nports * s->nvc * s->vc_cap_sw));
    }
}

/* Destinations in a (port, vc) bitset. */
static uint32_t popcount_set(const uint64_t *b, uint32_t words)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < words; i++) n += (uint32_t)__builtin_popcountll(b[i]);
    return n;
}

uint32_t views_dests(const sim_t *s, uint32_t go, uint32_t vc)
{
    const views_t *v = s->views;
    return v && v->seen ? popcount_set(&v->seen[((size_t)go * s->nvc + vc) * v->words], v->words) : 0;
}

uint32_t views_dests_any_vc(const sim_t *s, uint32_t go)
{
    const views_t *v = s->views;
    if (!v || !v->seen) return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->words; i++) {
        uint64_t m = 0;
        for (uint32_t vc = 0; vc < s->nvc; vc++) m |= v->seen[((size_t)go * s->nvc + vc) * v->words + i];
        n += (uint32_t)__builtin_popcountll(m);
    }
    return n;
}

/* Per (stage, direction) group: min / mean / max of a per-port quantity. */
typedef struct agg { double min, max, sum; uint32_t n; } agg_t;
static void agg_add(agg_t *a, double x)
{
    if (!a->n || x < a->min) a->min = x;
    if (!a->n || x > a->max) a->max = x;
    a->sum += x;
    a->n++;
}

#define MAX_STAGES 10
static void write_groups(FILE *f, agg_t (*g)[2])
{
    for (int l = 1; l < MAX_STAGES; l++)
        for (int up = 1; up >= 0; up--)
            if (g[l][up].n)
                fprintf(f, "S%d%s,%u,%.6g,%.6g,%.6g\n", l, up ? "U" : "D", g[l][up].n, g[l][up].min,
                        g[l][up].sum / g[l][up].n, g[l][up].max);
}

static void write_destmap(const sim_t *s, const char *dir)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "destmap.csv");
    agg_t all[MAX_STAGES][2] = { { { 0, 0, 0, 0 } } }, per_vc[MAX_STAGES][2] = { { { 0, 0, 0, 0 } } };
    fputs("switch,stage,port,dir,vc,destinations\n", f);
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t go = s->sw[w].port0 + p;
            const port_t *pt = &s->port[go];
            if (pt->peer == ICN_NIL || pt->stage >= MAX_STAGES) continue;
            for (uint32_t vc = 0; vc < s->nvc; vc++) {
                uint32_t n = views_dests(s, go, vc);
                fprintf(f, "%u,%u,%u,%s,%u,%u\n", w, pt->stage, p, pt->up ? "up" : "down", vc, n);
                agg_add(&per_vc[pt->stage][pt->up], n);
            }
            agg_add(&all[pt->stage][pt->up], views_dests_any_vc(s, go));
        }
    out_close(&o);
    f = plot_open(&o, dir, "destmap-stages.csv");
    fputs("# destinations routed through one switch output port (all VCs), then through one VC of it\n"
          "group,ports,min,mean,max\n", f);
    write_groups(f, all);
    fputs("group_per_vc,port_vcs,min,mean,max\n", f);
    write_groups(f, per_vc);
    out_close(&o);
}

static void write_links(const sim_t *s, const char *dir)
{
    const views_t *v = s->views;
    double cap = s->link_bps / 8.0 * (double)(s->stop - s->warmup) * 1e-12;
    agg_t g[MAX_STAGES][2] = { { { 0, 0, 0, 0 } } };
    outfile_t o;
    FILE *f = plot_open(&o, dir, "links.csv");
    fputs("switch,stage,port,dir,utilization\n", f);
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t go = s->sw[w].port0 + p;
            const port_t *pt = &s->port[go];
            if (pt->peer == ICN_NIL || pt->stage >= MAX_STAGES) continue;
            double u = cap > 0 ? (double)v->bytes[go] / cap : 0;
            fprintf(f, "%u,%u,%u,%s,%.6f\n", w, pt->stage, p, pt->up ? "up" : "down", u);
            agg_add(&g[pt->stage][pt->up], u);
        }
    out_close(&o);
    f = plot_open(&o, dir, "links-stages.csv");
    fputs("group,links,min,mean,max\n", f);
    write_groups(f, g);
    out_close(&o);
}

static void write_occupancy(const sim_t *s, const char *dir, const char *title, int render)
{
    const views_t *v = s->views;
    outfile_t o;
    FILE *f = plot_open(&o, dir, "occupancy.csv");
    /* a matrix: one row per sample, one column per switch (gnuplot: matrix) */
    fputs("# input-buffer occupancy (fraction of all VCs of all ports) per switch, one row per sample of time.interval\n", f);
    fprintf(f, "# interval_us = %.6g; switches by stage: leaf first\n", (double)s->st.interval / 1e6);
    for (uint32_t k = 0; k < v->nsamples; k++) {
        const float *row = &v->occ[(size_t)k * s->nswitches];
        for (uint32_t w = 0; w < s->nswitches; w++) fprintf(f, w ? ",%.4f" : "%.4f", row[w]);
        fputc('\n', f);
    }
    out_close(&o);
    f = plot_open(&o, dir, "occupancy.gp");
    fputs("set terminal pngcairo size 1200,700 noenhanced\nset output 'occupancy.png'\n"
          "set datafile separator ','\nset title ", f);
    plot_str(f, title);
    fprintf(f, "\n"
               "set xlabel 'switch'\nset ylabel 'time (us)'\nset cblabel 'occupancy'\nset cbrange [0:1]\n"
               "set autoscale xfix\nset autoscale yfix\nset palette defined (0 'white', 0.3 'yellow', 0.7 'red', 1 'black')\n"
               "plot 'occupancy.csv' matrix using 1:($2*%.6g):3 with image notitle\n",
            (double)s->st.interval / 1e6);
    out_close(&o);
    plot_render(dir, "occupancy.gp", render);
}

void views_write(const sim_t *s, const char *dir, const char *title, int render)
{
    const views_t *v = s->views;
    if (!v) return;
    if (v->seen) write_destmap(s, dir);
    if (v->bytes) write_links(s, dir);
    if (v->occ) write_occupancy(s, dir, title, render);
}
