/* Latency over time (seeds 001 and 003 plot it per pair and per burst).
 *
 *   latency.csv        per time.interval: data packets delivered, mean and
 *                      largest total latency (generation to delivery) and
 *                      network latency (injection to delivery); from the
 *                      run's time series, which keeps these columns when
 *                      views.latency is on (stats.h);
 *   latency-peaks.csv  per views.peak_window: the same, and the interval
 *                      that held the peak;
 *   latency-pairs.csv  the same per interval for each pair of views.pairs,
 *                      or for the views.top_pairs busiest pairs.
 *
 * Deliveries are binned by delivery time, like timeseries.csv; a pair's
 * records live in one array of fixed size, so a delivery never allocates. */
#include "views_int.h"
#include "plot.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct cell {
    uint64_t n, lat_sum, net_sum, lat_max, net_max;   /* ps */
} cell_t;

struct vlat {
    uint32_t npairs;         /* named pairs (sorted by source, then destination), or N^2 with top */
    uint32_t top;            /* views.top_pairs: K, every pair recorded */
    uint32_t *src, *dst;     /* named pairs */
    uint32_t *first;         /* [node]: its first named pair as a source, ICN_NIL if none */
    cell_t *cell;            /* [bin * npairs + pair]: one interval's deliveries stay close */
};

static int by_pair(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* A node id, decimal digits only, at *t, which moves past it; -1 if there
 * are none (strtol would read "" as 0 and take a sign). */
static long node_id(char **t)
{
    if (**t < '0' || **t > '9') return -1;
    return strtol(*t, t, 10);
}

/* views.pairs: "a:b" tokens separated by spaces or commas, sorted. */
static void parse_pairs(sim_t *s, cfg_t *c, struct vlat *l)
{
    char *text = xstrdup(cfg_str(c, K_VIEWS_PAIRS)), *save = NULL;
    uint32_t cap = 0, (*pr)[2] = NULL;
    for (char *t = strtok_r(text, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
        char *e = t;
        long a = node_id(&e), b = -1;
        if (a >= 0 && *e == ':') { e++; b = node_id(&e); }
        if (*e || a < 0 || b < 0 || a >= s->nnodes || b >= s->nnodes) {
            free(text); free(pr);   /* exit must leave nothing unreachable */
            cfg_fail(c, K_VIEWS_PAIRS, "expected source:destination pairs of node ids below %u, e.g. 0:63 5:10", s->nnodes);
        }
        if (l->npairs == cap) pr = xrealloc(pr, (cap = cap ? 2 * cap : 8) * sizeof *pr);
        pr[l->npairs][0] = (uint32_t)a;
        pr[l->npairs++][1] = (uint32_t)b;
    }
    free(text);
    qsort(pr, l->npairs, sizeof *pr, by_pair);
    for (uint32_t i = 1; i < l->npairs; i++)
        if (!by_pair(pr[i - 1], pr[i])) {
            uint32_t a = pr[i][0], b = pr[i][1];
            free(pr);
            cfg_fail(c, K_VIEWS_PAIRS, "pair %u:%u is listed twice", a, b);
        }
    if (!l->npairs) cfg_fail(c, K_VIEWS_PAIRS, "names no pair");
    l->src = xmalloc(l->npairs * sizeof *l->src);
    l->dst = xmalloc(l->npairs * sizeof *l->dst);
    l->first = xmalloc(s->nnodes * sizeof *l->first);
    memset(l->first, 0xff, s->nnodes * sizeof *l->first);
    for (uint32_t i = l->npairs; i-- > 0;) {
        l->src[i] = pr[i][0];
        l->dst[i] = pr[i][1];
        l->first[pr[i][0]] = i;
    }
    free(pr);
}

void vlat_setup(sim_t *s, cfg_t *c)
{
    uint32_t top = (uint32_t)cfg_int(c, K_VIEWS_TOP_PAIRS);
    if (top && cfg_is_set(c, K_VIEWS_PAIRS)) cfg_fail(c, K_VIEWS_TOP_PAIRS, "give views.pairs or views.top_pairs, not both");
    struct vlat *l = s->views->lat = xcalloc(1, sizeof *l);   /* held at once: freed with the views if a check exits */
    key_id k = top ? K_VIEWS_TOP_PAIRS : K_VIEWS_PAIRS;
    if (!top) parse_pairs(s, c, l);
    double pairs = top ? (double)s->nnodes * s->nnodes : l->npairs, mb = pairs * s->st.nbins * sizeof *l->cell / 1048576.0;
    if (mb > VIEWS_MAX_MB)
        cfg_fail(c, k, "needs %.0f MB (%.0f pairs x %u samples of time.interval x %zu bytes); at most 2048 MB: %s", mb,
                 pairs, s->st.nbins, sizeof *l->cell,
                 top ? "name the pairs with views.pairs, or use a longer time.interval" : "use a longer time.interval");
    if (top) { l->top = top; l->npairs = s->nnodes * s->nnodes; }   /* below 2^32: the check above bounds it */
    l->cell = xcalloc((size_t)l->npairs * s->st.nbins, sizeof *l->cell);
}

void vlat_free(struct vlat *l)
{
    if (!l) return;
    free(l->src); free(l->dst); free(l->first); free(l->cell); free(l);
}

static inline void cell_add(cell_t *c, uint64_t lat, uint64_t net)
{
    c->n++;
    c->lat_sum += lat;
    c->net_sum += net;
    if (lat > c->lat_max) c->lat_max = lat;
    if (net > c->net_max) c->net_max = net;
}

void vlat_pack(const sim_t *s, const struct vlat *l, bytebuf_t *b)
{
    bb_put(b, l->cell, (uint64_t)l->npairs * s->st.nbins * sizeof *l->cell);
}

void vlat_merge(const sim_t *s, struct vlat *l, bytecur_t *c)
{
    for (size_t i = 0; i < (size_t)l->npairs * s->st.nbins; i++) {
        cell_t x, *y = &l->cell[i];
        bc_get(c, &x, sizeof x, "views.pairs");
        y->n += x.n; y->lat_sum += x.lat_sum; y->net_sum += x.net_sum;
        if (x.lat_max > y->lat_max) y->lat_max = x.lat_max;
        if (x.net_max > y->net_max) y->net_max = x.net_max;
    }
}

void vlat_on_deliver(sim_t *s, struct vlat *l, uint32_t id, uint32_t bin)
{
    const packet_t *p = &s->pkt[id];
    uint32_t k;
    if (l->top) {
        k = p->src * s->nnodes + p->dst;
    } else {
        k = l->first[p->src];
        if (k == ICN_NIL) return;
        while (k < l->npairs && l->src[k] == p->src && l->dst[k] != p->dst) k++;
        if (k == l->npairs || l->src[k] != p->src) return;
    }
    const pkt_times_t *pt = &s->ptime[id];
    cell_add(&l->cell[(size_t)bin * l->npairs + k], s->now - pt->gen, s->now - pt->inj);
}

/* One row's figures: packets, then mean and largest latency and network latency in ns. */
static void put_figures(FILE *f, const cell_t *c)
{
    double n = c->n ? (double)c->n : 1;
    fprintf(f, "%llu,%.3f,%.3f,%.3f,%.3f\n", (unsigned long long)c->n, c->lat_sum / n / 1e3, c->lat_max / 1e3,
            c->net_sum / n / 1e3, c->net_max / 1e3);
}

#define FIGURES "delivered_pkts,mean_latency_ns,max_latency_ns,mean_net_latency_ns,max_net_latency_ns"

/* Bin i of the run's time series as a cell. */
static cell_t run_cell(const stats_t *st, uint32_t i)
{
    return (cell_t){ st->ts_del_pkts[i], (uint64_t)st->ts_lat_sum[i], (uint64_t)st->ts_net_sum[i], st->ts_lat_max[i],
                     st->ts_net_max[i] };
}

static void write_overall(const sim_t *s, const char *dir, const char *title, int render)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "latency.csv");
    fputs("t_start_us,t_end_us," FIGURES "\n", f);
    for (uint32_t i = 0; i < bins_run(s); i++) {
        cell_t c = run_cell(&s->st, i);
        fprintf(f, "%.3f,%.3f,", (double)i * s->st.interval / 1e6, bin_end(s, i) / 1e6);
        put_figures(f, &c);
    }
    out_close(&o);
    f = plot_open(&o, dir, "latency.gp");
    fputs("set datafile separator ','\nset datafile missing NaN\n"   /* empty intervals: lines join across them */
          "set terminal pngcairo size 1000,600 noenhanced\nset output 'latency.png'\nset title ", f);
    plot_str(f, title);
    fputs("\nset grid\nset key outside right\nset xlabel 'time (us)'\nset ylabel 'latency (ns)'\nset yrange [0:*]\n"
          "plot 'latency.csv' skip 1 using (($1+$2)/2):($3 > 0 ? $4 : NaN) with lines lw 2 title 'mean', \\\n"
          "     '' skip 1 using (($1+$2)/2):($3 > 0 ? $5 : NaN) with lines title 'max', \\\n"
          "     '' skip 1 using (($1+$2)/2):($3 > 0 ? $6 : NaN) with lines lw 2 dashtype 2 title 'mean in network', \\\n"
          "     '' skip 1 using (($1+$2)/2):($3 > 0 ? $7 : NaN) with lines dashtype 2 title 'max in network'\n", f);
    out_close(&o);
    uint64_t any = 0;   /* gnuplot cannot draw a range with no point */
    for (uint32_t i = 0; i < bins_run(s); i++) any |= s->st.ts_del_pkts[i];
    plot_render(dir, "latency.gp", render && any);
}

static void peak_add(cell_t *w, const cell_t *c, uint32_t i, uint32_t *at, uint32_t *net_at)
{
    if (c->lat_max > w->lat_max || !w->n) *at = i;
    if (c->net_max > w->net_max || !w->n) *net_at = i;
    if (c->lat_max > w->lat_max) w->lat_max = c->lat_max;
    if (c->net_max > w->net_max) w->net_max = c->net_max;
    w->n += c->n;
    w->lat_sum += c->lat_sum;
    w->net_sum += c->net_sum;
}

static void write_peaks(const sim_t *s, const char *dir, simtime_t window)
{
    uint32_t per = (uint32_t)(window / s->st.interval), nb = bins_run(s);
    outfile_t o;
    FILE *f = plot_open(&o, dir, "latency-peaks.csv");
    fputs("window_start_us,window_end_us,peak_at_us,peak_net_at_us," FIGURES "\n", f);
    for (uint32_t a = 0; a < nb; a += per) {
        cell_t w = { 0, 0, 0, 0, 0 };
        uint32_t at = a, net_at = a;
        for (uint32_t i = a; i < a + per && i < nb; i++) {
            cell_t c = run_cell(&s->st, i);
            if (c.n) peak_add(&w, &c, i, &at, &net_at);
        }
        uint32_t last = a + per < nb ? a + per - 1 : nb - 1;
        fprintf(f, "%.3f,%.3f,%.3f,%.3f,", (double)a * s->st.interval / 1e6, bin_end(s, last) / 1e6,
                (double)at * s->st.interval / 1e6, (double)net_at * s->st.interval / 1e6);
        put_figures(f, &w);
    }
    out_close(&o);
}

/* The pairs to write: the named ones, or the K busiest (most packets, ties
 * to the lower pair index) that delivered any. Returns how many. */
static uint32_t chosen_pairs(const sim_t *s, const struct vlat *l, uint32_t *out)
{
    if (!l->top) {
        for (uint32_t i = 0; i < l->npairs; i++) out[i] = i;
        return l->npairs;
    }
    uint64_t *all = xcalloc(l->npairs, sizeof *all), *tot = xcalloc(l->top, sizeof *tot);
    for (uint32_t b = 0; b < s->st.nbins; b++)   /* in memory order */
        for (uint32_t k = 0; k < l->npairs; k++) all[k] += l->cell[(size_t)b * l->npairs + k].n;
    uint32_t n = 0;
    for (uint32_t k = 0; k < l->npairs; k++) {
        uint64_t t = all[k];
        if (!t) continue;
        uint32_t j = n < l->top ? n++ : l->top;   /* insertion into the sorted top list */
        while (j > 0 && tot[j - 1] < t) {
            if (j < l->top) { tot[j] = tot[j - 1]; out[j] = out[j - 1]; }
            j--;
        }
        if (j < l->top) { tot[j] = t; out[j] = k; }
    }
    free(all);
    free(tot);
    return n;
}

static void pair_ids(const sim_t *s, const struct vlat *l, uint32_t k, uint32_t *a, uint32_t *b)
{
    if (l->top) { *a = k / s->nnodes; *b = k % s->nnodes; }
    else { *a = l->src[k]; *b = l->dst[k]; }
}

/* At most this many pairs get a curve of their own in the plot. */
#define PLOT_PAIRS 16

static void plot_pairs(const sim_t *s, const struct vlat *l, const uint32_t *ks, uint32_t n, const char *dir,
                       const char *title, int render)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "latency-pairs.gp");
    fputs("set datafile separator ','\nset datafile missing NaN\n"
          "set terminal pngcairo size 1000,600 noenhanced\nset output 'latency-pairs.png'\nset title ", f);
    plot_str(f, title);
    fputs("\nset grid\nset key outside right\nset xlabel 'time (us)'\nset ylabel 'mean latency, generation to delivery (ns)'\n"
          "set yrange [0:*]\nplot ", f);
    for (uint32_t i = 0; i < n && i < PLOT_PAIRS; i++) {
        uint32_t a, b;
        pair_ids(s, l, ks[i], &a, &b);
        fprintf(f, "%s'latency-pairs.csv' skip 1 using (($3+$4)/2):(($1 == %u && $2 == %u && $5 > 0) ? $6 : NaN) "
                   "with linespoints title '%u:%u'", i ? ", \\\n     " : "", a, b, a, b);
    }
    if (!n) fputs("0 notitle", f);
    fputc('\n', f);
    out_close(&o);
    plot_render(dir, "latency-pairs.gp", render);
}

static void write_pairs(const sim_t *s, const struct vlat *l, const char *dir, const char *title, int render)
{
    uint32_t *ks = xmalloc((l->top ? l->top : l->npairs) * sizeof *ks);
    uint32_t n = chosen_pairs(s, l, ks);
    outfile_t o;
    FILE *f = plot_open(&o, dir, "latency-pairs.csv");
    fputs("src,dst,t_start_us,t_end_us," FIGURES "\n", f);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a, b;
        pair_ids(s, l, ks[i], &a, &b);
        for (uint32_t j = 0; j < bins_run(s); j++) {
            fprintf(f, "%u,%u,%.3f,%.3f,", a, b, (double)j * s->st.interval / 1e6, bin_end(s, j) / 1e6);
            put_figures(f, &l->cell[(size_t)j * l->npairs + ks[i]]);
        }
    }
    out_close(&o);
    uint64_t any = 0;   /* gnuplot cannot draw a range with no point: the pairs plotted delivered something */
    for (uint32_t i = 0; i < n && i < PLOT_PAIRS; i++)
        for (uint32_t j = 0; j < bins_run(s); j++) any |= l->cell[(size_t)j * l->npairs + ks[i]].n;
    plot_pairs(s, l, ks, n, dir, title, render && any);
    free(ks);
}

void vlat_write(const sim_t *s, const char *dir, const char *title, int render)
{
    const views_t *v = s->views;
    if (v->latency) write_overall(s, dir, title, render);
    if (v->peak_window) write_peaks(s, dir, v->peak_window);
    if (v->lat) write_pairs(s, v->lat, dir, title, render);
}
