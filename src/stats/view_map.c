/* Where in the network the load and the waiting are, over the measurement
 * window (seed 003's per-router latency maps, seed 001's hot-spot link loads).
 *
 *   router-wait.csv       per switch: packets it forwarded and their mean and
 *                         largest wait there (head arrived and routed, to the
 *                         start of its transmission onward); on k-ary n-cubes
 *                         with the router's coordinates, and on 2-D ones a
 *                         heat map (router-wait.png);
 *   link-load-hist.csv    switch-to-switch links per utilization bin (links
 *                         to end nodes are left out: a hot-spot's own link is
 *                         full whatever the routing does);
 *   link-load-summary.csv their count, min, mean, peak, standard deviation
 *                         and coefficient of variation, and the peak link;
 *   link-map.csv          on k-ary n-cubes, every such link by router and
 *                         direction; link-load.png draws 2-D ones as arrows
 *                         coloured by load beside the histogram. */
#include "views_int.h"
#include "plot.h"
#include "../topo/cube.h"
#include "../core/util.h"
#include <math.h>
#include <stdlib.h>

/* Coordinates of router r on a cube (x, y, z, then x3..), or its stage. */
static void coord_header(FILE *f, const cube_t *q)
{
    static const char *const name[] = { "x", "y", "z" };
    if (!q) { fputs(",stage", f); return; }
    for (uint32_t d = 0; d < q->n; d++)
        if (q->n <= 3) fprintf(f, ",%s", name[d]);
        else fprintf(f, ",x%u", d);
}

static void coord_row(FILE *f, const sim_t *s, const cube_t *q, uint32_t r)
{
    if (!q) { fprintf(f, ",%u", s->sw[r].stage); return; }
    for (uint32_t d = 0; d < q->n; d++) fprintf(f, ",%u", cube_coord(q, r, d));
}

/* gnuplot preamble of a 2-D cube map: square cells over the k0 x k1 grid. */
static void grid_preamble(FILE *f, const cube_t *q)
{
    fprintf(f, "set size ratio -1\nset xrange [-0.5:%u.5]\nset yrange [-0.5:%u.5]\nset xtics 1\nset ytics 1\n"
               "set xlabel 'x'\nset ylabel 'y'\n", q->k[0] - 1, q->k[1] - 1);
}

static void write_router_wait(const sim_t *s, const cube_t *q, const char *dir, const char *title, int render)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "router-wait.csv");
    fputs("router", f);
    coord_header(f, q);
    fputs(",packets,mean_wait_ns,max_wait_ns\n", f);
    for (uint32_t w = 0; w < s->nswitches; w++) {
        uint64_t n, sum, max;
        views_router_wait(s, w, &n, &sum, &max);
        fprintf(f, "%u", w);
        coord_row(f, s, q, w);
        fprintf(f, ",%llu,%.3f,%.3f\n", (unsigned long long)n, n ? (double)sum / (double)n / 1e3 : 0.0, max / 1e3);
    }
    out_close(&o);
    if (!q || q->n != 2) return;
    f = plot_open(&o, dir, "router-wait.gp");
    fputs("set datafile separator ','\nset terminal pngcairo size 1200,560 noenhanced\nset output 'router-wait.png'\n"
          "set multiplot layout 1,2 title ", f);
    plot_str(f, title);
    fputc('\n', f);
    grid_preamble(f, q);
    fputs("set palette defined (0 'white', 0.4 'yellow', 1 'red')\nset cbrange [0:*]\n"
          "set title 'mean wait per packet (ns)'\n"
          "plot 'router-wait.csv' skip 1 using 2:3:5 with image notitle, \\\n"
          "     '' skip 1 using 2:3:(sprintf('%.0f', $5)) with labels notitle\n"
          "set title 'largest wait (ns)'\n"
          "plot 'router-wait.csv' skip 1 using 2:3:6 with image notitle, \\\n"
          "     '' skip 1 using 2:3:(sprintf('%.0f', $6)) with labels notitle\n"
          "unset multiplot\n", f);
    out_close(&o);
    plot_render(dir, "router-wait.gp", render);
}

/* A switch-to-switch link: output go of a switch whose peer is a switch. */
static int inter_switch(const sim_t *s, uint32_t go)
{
    uint32_t peer = s->port[go].peer;
    return peer != ICN_NIL && !(s->port[peer].dev & NIC_BIT);
}

static void write_link_map(const sim_t *s, const cube_t *q, const char *dir)
{
    double mbps = s->link_bps / 1e6;
    outfile_t o;
    FILE *f = plot_open(&o, dir, "link-map.csv");
    fputs("router", f);
    coord_header(f, q);
    fputs(",dim,sign,to_router,utilization,mbps\n", f);
    for (uint32_t r = 0; r < s->nswitches; r++)
        for (uint32_t d = 0; d < q->n; d++)
            for (int minus = 0; minus < 2; minus++) {
                uint32_t go = sw_port(s, r, cube_port(q, d, minus));
                if (!inter_switch(s, go)) continue;   /* a mesh's border */
                double u = views_link_util(s, go);
                fprintf(f, "%u", r);
                coord_row(f, s, q, r);
                fprintf(f, ",%u,%d,%u,%.6f,%.3f\n", d, minus ? -1 : 1, s->port[s->port[go].peer].dev, u, u * mbps);
            }
    out_close(&o);
}

static void plot_link_load(const cube_t *q, const char *dir, const char *title, int render)
{
    int map = q && q->n == 2;
    outfile_t o;
    FILE *f = plot_open(&o, dir, "link-load.gp");
    fprintf(f, "set datafile separator ','\nset terminal pngcairo size %d,560 noenhanced\nset output 'link-load.png'\n"
               "set multiplot layout 1,%d title ", map ? 1200 : 700, map ? 2 : 1);
    plot_str(f, title);
    fputc('\n', f);
    if (map) {
        /* each link an arrow from its router towards the neighbour, the two
         * directions side by side; columns: 2 x, 3 y, 4 dim, 5 sign, 7 load */
        grid_preamble(f, q);
        fputs("set palette defined (0 'light-grey', 0.3 'yellow', 0.7 'red', 1 'black')\nset cbrange [0:1]\n"
              "set cblabel 'utilization'\nset title 'load of every link (arrows point downstream)'\n"
              "plot 'link-map.csv' skip 1 using ($2 + ($4 == 0 ? 0.1 : -0.08) * $5):($3 + ($4 == 0 ? 0.08 : 0.1) * $5):"
              "($4 == 0 ? 0.8 * $5 : 0):($4 == 0 ? 0 : 0.8 * $5):7 with vectors head filled lw 3 lc palette notitle\n"
              "unset colorbox\nset size noratio\nset autoscale\nset xtics auto\nset ytics auto\n", f);
    }
    fputs("set title 'switch-to-switch links per load'\nset xlabel 'utilization'\nset ylabel 'links'\nset xrange [0:1]\n"
          "set yrange [0:*]\nset style fill solid 0.5\n"
          "plot 'link-load-hist.csv' skip 1 using (($1 + $2) / 2):3:($2 - $1) with boxes notitle\n"
          "unset multiplot\n", f);
    out_close(&o);
    plot_render(dir, "link-load.gp", render);
}

static void write_link_load(const sim_t *s, const cube_t *q, uint32_t bins, const char *dir, const char *title,
                            int render)
{
    uint64_t *hist = xcalloc(bins, sizeof *hist);
    double sum = 0, sq = 0, min = 0, peak = -1;
    uint32_t n = 0, peak_go = ICN_NIL;
    for (uint32_t go = 0; go < s->nports; go++) {
        if ((s->port[go].dev & NIC_BIT) || !inter_switch(s, go)) continue;
        double u = views_link_util(s, go);
        uint32_t b = u >= 1 ? bins - 1 : (uint32_t)(u * bins);
        hist[b < bins ? b : bins - 1]++;
        if (!n || u < min) min = u;
        if (u > peak) { peak = u; peak_go = go; }
        sum += u;
        sq += u * u;
        n++;
    }
    double mean = n ? sum / n : 0, sd = n ? sqrt(fmax(0, sq / n - mean * mean)) : 0, mbps = s->link_bps / 1e6;
    outfile_t o;
    FILE *f = plot_open(&o, dir, "link-load-hist.csv");
    fputs("util_from,util_to,links\n", f);
    for (uint32_t b = 0; b < bins; b++)
        fprintf(f, "%.6g,%.6g,%llu\n", (double)b / bins, (double)(b + 1) / bins, (unsigned long long)hist[b]);
    out_close(&o);
    free(hist);
    f = plot_open(&o, dir, "link-load-summary.csv");
    fputs("links,min,mean,peak,std,cv,mean_mbps,peak_mbps,peak_switch,peak_port\n", f);
    fprintf(f, "%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f,%.3f,", n, min, mean, n ? peak : 0, sd, mean > 0 ? sd / mean : 0,
            mean * mbps, n ? peak * mbps : 0);
    if (n) fprintf(f, "%u,%u\n", s->port[peak_go].dev, s->port[peak_go].local);
    else fputs(",\n", f);
    out_close(&o);
    if (q) write_link_map(s, q, dir);
    plot_link_load(q, dir, title, render);
}

void vmap_write(const sim_t *s, const char *dir, const char *title, int render)
{
    const views_t *v = s->views;
    const cube_t *q = cube_get(s);
    if (v->rw) write_router_wait(s, q, dir, title, render);
    if (v->link_bins) write_link_load(s, q, v->link_bins, dir, title, render);
}
