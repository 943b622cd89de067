/* Views of a run, each off unless asked for:
 *
 *   output.destmap    destinations seen per switch output port and VC
 *                     (destmap.csv, and destmap-stages.csv summed up per stage
 *                     and direction): seed 002's Table 1, measured;
 *   output.links      utilization of every switch output link in the
 *                     measurement window (links.csv, links-stages.csv);
 *   output.occupancy  input-buffer occupancy of every switch at every sample
 *                     (occupancy.csv: a time x switch matrix, and a gnuplot
 *                     heat map), to watch a congestion tree grow;
 *   views.latency, views.pairs, views.top_pairs, views.peak_window
 *                     latency over time, overall and per pair, and its peaks
 *                     per window (view_latency.c): seeds 001 and 003;
 *   views.router_wait, views.link_load
 *                     per-router waits and link-load histograms, with maps
 *                     over meshes and tori (view_map.c): seed 003's latency
 *                     maps, seed 001's hot-spot link loads;
 *   views.port_counters  InfiniBand port counters (view_ports.c).
 *
 * The hooks cost one predictable branch per hop when all are off. */
#include "views_int.h"
#include "plot.h"
#include "report.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

/* The views that need the packet-level model's switches; the first one set. */
static int packet_only(cfg_t *c)
{
    static const key_id k[] = { K_OUT_DESTMAP, K_OUT_LINKS, K_OUT_OCCUPANCY, K_VIEWS_ROUTER_WAIT, K_VIEWS_LINK_LOAD,
                                K_VIEWS_PORT_COUNTERS };
    for (size_t i = 0; i < ICN_ARRAY_LEN(k); i++)
        if (cfg_int(c, k[i])) return (int)k[i];
    return -1;
}

static void setup_latency(sim_t *s, cfg_t *c, views_t *v)
{
    v->latency = 1;
    stats_latency_series(&s->st);
    v->peak_window = cfg_u64(c, K_VIEWS_PEAK_WINDOW);
    if (v->peak_window % s->st.interval)
        cfg_fail(c, K_VIEWS_PEAK_WINDOW, "must be a multiple of time.interval (%.6g us): peaks come from its samples",
                 (double)s->st.interval / 1e6);
    if (v->peak_window / s->st.interval > s->st.nbins)   /* (and its bins fit the 32 bits they are counted in) */
        cfg_fail(c, K_VIEWS_PEAK_WINDOW, "is longer than the time series (time.warmup + time.measure = %.6g us)",
                 (double)s->st.tend / 1e6);
}

void views_setup(sim_t *s, cfg_t *c)
{
    int d = (int)cfg_int(c, K_OUT_DESTMAP), l = (int)cfg_int(c, K_OUT_LINKS), o = (int)cfg_int(c, K_OUT_OCCUPANCY);
    int rw = (int)cfg_int(c, K_VIEWS_ROUTER_WAIT), ll = (int)cfg_int(c, K_VIEWS_LINK_LOAD);
    int pc = (int)cfg_int(c, K_VIEWS_PORT_COUNTERS), lat = (int)cfg_int(c, K_VIEWS_LATENCY);
    int pairs = cfg_is_set(c, K_VIEWS_PAIRS) || cfg_int(c, K_VIEWS_TOP_PAIRS);
    if (!d && !l && !o && !rw && !ll && !pc && !lat && !pairs) return;
    int k = packet_only(c);
    if (s->flit_mode && k >= 0)
        cfg_fail(c, (key_id)k, "this view is kept by the packet-level model (switch.model = packet), not the flit-level router");
    if (o && s->vn)
        cfg_fail(c, K_OUT_OCCUPANCY, "reads the switches' VC buffers, which VOQnet replaces by per-destination queues "
                 "(queuing.scheme = voqnet)");
    views_t *v = s->views = xcalloc(1, sizeof *v);   /* held by s at once: reachable if a check below exits */
    v->destmap = d; v->links = l; v->occupancy = o;
    if (d) {
        v->words = (s->nnodes + 63) / 64;
        double mb = (double)s->nports * s->nvc * v->words * 8 / 1048576.0;
        if (mb > VIEWS_MAX_MB) cfg_fail(c, K_OUT_DESTMAP, "needs %.0f MB (one bit per port, VC and destination); at most 2048 MB", mb);
        v->seen = xcalloc((size_t)s->nports * s->nvc * v->words, sizeof *v->seen);
    }
    if (l || ll) v->bytes = xcalloc(s->nports, sizeof *v->bytes);
    if (ll) v->link_bins = (uint32_t)cfg_int(c, K_VIEWS_LINK_BINS);
    if (o) {
        v->nsamples = s->st.nbins;
        double mb = (double)v->nsamples * s->nswitches * sizeof *v->occ / 1048576.0;
        if (mb > VIEWS_MAX_MB)
            cfg_fail(c, K_OUT_OCCUPANCY, "needs %.0f MB (%u samples of time.interval x %u switches); at most 2048 MB: "
                     "use a longer time.interval", mb, v->nsamples, s->nswitches);
        v->occ = xcalloc((size_t)v->nsamples * s->nswitches, sizeof *v->occ);
    }
    if (lat) setup_latency(s, c, v);
    if (pairs) vlat_setup(s, c);
    if (rw) {
        v->rw = xcalloc((size_t)s->nswitches * 3, sizeof *v->rw);
        s->want_parr = 1;   /* before the first packet: the pool grows parr with it */
        if (s->npkt_cap && !s->parr) die("views.router_wait set up after packets were allocated");
    }
    if (pc) v->ports = vports_setup(s);
}

void views_free(sim_t *s)
{
    views_t *v = s->views;
    if (!v) return;
    vlat_free(v->lat);
    vports_free(v->ports);
    free(v->seen); free(v->bytes); free(v->occ); free(v->rw); free(v);
    s->views = NULL;
}

void views_on_send(sim_t *s, uint32_t go, uint32_t id)
{
    views_t *v = s->views;
    if (s->port[go].dev & NIC_BIT) return;
    const packet_t *p = &s->pkt[id];
    if (v->seen) v->seen[((size_t)go * s->nvc + p->out_vc) * v->words + p->dst / 64] |= 1ull << (p->dst % 64);
    if (v->ports) { vports_on_send(s, v->ports, go, p->size); views_xwait(s, go); }
    if (!in_window(s, s->now)) return;
    if (v->bytes) v->bytes[go] += p->size;
    if (v->rw) {
        uint64_t *r = &v->rw[(size_t)s->port[go].dev * 3], wait = s->now - s->parr[id];
        r[0]++;
        r[1] += wait;
        if (wait > r[2]) r[2] = wait;
    }
}

void views_on_arrive(sim_t *s, uint32_t gi, uint32_t id)
{
    if (s->views->ports) vports_on_arrive(s, s->views->ports, gi, s->pkt[id].size);
}

void views_on_deliver(sim_t *s, uint32_t id, uint32_t bin)
{
    if (s->views->lat) vlat_on_deliver(s, s->views->lat, id, bin);
}

/* Which views a run keeps, and their sizes: a rank set up otherwise is an error. */
static void views_shape(const sim_t *s, uint64_t shape[4])
{
    const views_t *v = s->views;
    shape[0] = (uint64_t)(v->seen != NULL) | (uint64_t)(v->bytes != NULL) << 1 | (uint64_t)(v->occ != NULL) << 2
             | (uint64_t)(v->rw != NULL) << 3 | (uint64_t)(v->lat != NULL) << 4 | (uint64_t)(v->ports != NULL) << 5;
    shape[1] = s->nports;
    shape[2] = v->nsamples;
    shape[3] = v->words;
}

void views_pack(const sim_t *s, bytebuf_t *b)
{
    const views_t *v = s->views;
    if (!v) return;
    uint64_t shape[4];
    views_shape(s, shape);
    bb_put(b, shape, sizeof shape);
    if (v->seen) bb_put(b, v->seen, (uint64_t)s->nports * s->nvc * v->words * sizeof *v->seen);
    if (v->bytes) bb_put(b, v->bytes, (uint64_t)s->nports * sizeof *v->bytes);
    if (v->occ) {
        bb_put(b, &v->rows, sizeof v->rows);
        bb_put(b, v->occ, (uint64_t)v->nsamples * s->nswitches * sizeof *v->occ);
    }
    if (v->rw) bb_put(b, v->rw, (uint64_t)s->nswitches * 3 * sizeof *v->rw);
    if (v->lat) vlat_pack(s, v->lat, b);
    if (v->ports) vports_pack(s, v->ports, b);
}

/* Each counter of a view has one writer, the part that owns its port,
 * switch or destination; the other ranks hold it as set up (zero, empty). */
void views_merge(sim_t *s, bytecur_t *c)
{
    views_t *v = s->views;
    if (!v) return;
    uint64_t x, mine[4], theirs[4];
    float f;
    views_shape(s, mine);
    bc_get(c, theirs, sizeof theirs, "views");
    if (memcmp(mine, theirs, sizeof mine)) die("views: a rank kept other views than rank 0's");
    if (v->seen)
        for (size_t i = 0; i < (size_t)s->nports * s->nvc * v->words; i++) { bc_get(c, &x, 8, "views"); v->seen[i] |= x; }
    if (v->bytes)
        for (uint32_t g = 0; g < s->nports; g++) { bc_get(c, &x, 8, "views"); v->bytes[g] += x; }
    if (v->occ) {   /* a switch's occupancy: its owner's sample; the others sampled it empty */
        uint32_t rows;
        bc_get(c, &rows, sizeof rows, "views");
        if (rows > v->rows) v->rows = rows;
        for (size_t i = 0; i < (size_t)v->nsamples * s->nswitches; i++) { bc_get(c, &f, sizeof f, "views"); v->occ[i] += f; }
    }
    if (v->rw)
        for (size_t i = 0; i < (size_t)s->nswitches * 3; i++) {
            bc_get(c, &x, 8, "views");
            if (i % 3 < 2) v->rw[i] += x;
            else if (x > v->rw[i]) v->rw[i] = x;
        }
    if (v->lat) vlat_merge(s, v->lat, c);
    if (v->ports) vports_merge(s, v->ports, c);
}

int views_router_wait(const sim_t *s, uint32_t w, uint64_t *pkts, uint64_t *sum_ps, uint64_t *max_ps)
{
    const views_t *v = s->views;
    if (!v || !v->rw) return 0;
    const uint64_t *r = &v->rw[(size_t)w * 3];
    *pkts = r[0]; *sum_ps = r[1]; *max_ps = r[2];
    return 1;
}

double views_link_util(const sim_t *s, uint32_t go)
{
    const views_t *v = s->views;
    double cap = s->link_bps / 8.0 * (double)stats_window(s) * 1e-12;
    return v && v->bytes && cap > 0 ? (double)v->bytes[go] / cap : 0;
}

void views_on_sample(sim_t *s, uint32_t k)
{
    views_t *v = s->views;
    if (!v->occ || k - 1 >= v->nsamples) return;
    float *row = &v->occ[(size_t)(k - 1) * s->nswitches];
    if (k > v->rows) v->rows = k;
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
    agg_t g[MAX_STAGES][2] = { { { 0, 0, 0, 0 } } };
    outfile_t o;
    FILE *f = plot_open(&o, dir, "links.csv");
    fputs("switch,stage,port,dir,utilization\n", f);
    for (uint32_t w = 0; w < s->nswitches; w++)
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t go = s->sw[w].port0 + p;
            const port_t *pt = &s->port[go];
            if (pt->peer == ICN_NIL || pt->stage >= MAX_STAGES) continue;
            double u = views_link_util(s, go);
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
    fprintf(f, "# interval_us = %.6g; row r is the sample at (r + 1) x interval_us; switches by stage: leaf first\n",
            (double)s->st.interval / 1e6);
    for (uint32_t k = 0; k < v->rows; k++) {
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
               "plot 'occupancy.csv' matrix using 1:(($2 + 1) * %.6g):3 with image notitle\n",   /* row r: time (r + 1) x interval */
            (double)s->st.interval / 1e6);
    out_close(&o);
    plot_render(dir, "occupancy.gp", render && v->rows);   /* gnuplot cannot draw an empty matrix */
}

void views_write(const sim_t *s, const char *dir, const char *title, int render)
{
    const views_t *v = s->views;
    if (!v) return;
    if (v->seen) write_destmap(s, dir);
    if (v->links) write_links(s, dir);
    if (v->occ) write_occupancy(s, dir, title, render);
    vlat_write(s, dir, title, render);
    vmap_write(s, dir, title, render);
    if (v->ports) vports_write(s, dir);
}
