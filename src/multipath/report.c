/* What multipath routing did: drb.csv (totals), drb-timeseries.csv (per
 * time.interval: open alternative paths, widened pairs, widest metapath,
 * openings, closings, database hits, ACKs), drb-pairs.csv (every pair with
 * state at the end: its paths and estimates), drb-log.csv (per pair, every
 * change of its metapath with the width after it) and drb.gp (the width
 * over time). */
#include "mp.h"
#include "../stats/outfile.h"
#include "../stats/plot.h"
#include "../core/util.h"
#include <inttypes.h>

static const char *const actions[] = { "open", "close", "apply", "save", "reset" };

static void write_totals(const sim_t *s, const mp_t *m, const char *dir)
{
    static const char *const names[] = { "off", "drb", "pr-drb", "drb-ib" };
    outfile_t o;
    FILE *f = out_open(&o, dir, "drb.csv");
    fputs("scheme,acks,stale_acks,opens,closes,open_paths_end,pairs_live,pairs_peak,records,db_hits,db_misses,db_saves,"
          "becns,timer_expiries,ack_sent,ack_delivered,log_dropped\n", f);
    fprintf(f, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
            ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
            names[m->scheme], m->acks, m->stale, m->opens, m->closes, m->alt_open, m->pairs_live, m->pairs_peak, m->records,
            m->hits, m->misses, m->saves, m->becns, m->expiries, s->tp->ack_sent, s->tp->ack_delivered, m->log_dropped);
    out_close(&o);
}

static uint64_t delta(const uint64_t *v, uint32_t b) { return v[b] - (b ? v[b - 1] : 0); }

static void write_series(const sim_t *s, const mp_t *m, const char *dir)
{
    outfile_t o;
    FILE *f = out_open(&o, dir, "drb-timeseries.csv");
    fputs("t_end_us,alt_paths_open,pairs_widened,max_width,opens,closes,db_hits,acks\n", f);
    for (uint32_t b = 0; b < m->nsampled; b++)
        fprintf(f, "%.3f,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", (double)(b + 1) * s->st.interval / 1e6,
                m->ts_alt[b], m->ts_wide[b], m->ts_maxw[b], delta(m->ts_opens, b), delta(m->ts_closes, b),
                delta(m->ts_hits, b), delta(m->ts_acks, b));
    out_close(&o);
}

static void write_pairs(const mp_t *m, const char *dir)
{
    outfile_t o;
    FILE *f = out_open(&o, dir, "drb-pairs.csv");
    fputs("src,dst,width,episode,solutions,path,in1,in2,zero_load_us,latency_us,becns\n", f);
    for (uint32_t i = 0; i < m->npair_cap; i++) {
        const pair_t *pr = mp_pair(m, i);
        if (pr->node == ICN_NIL) continue;
        uint32_t nsol = 0;
        for (uint32_t k = pr->db; k != ICN_NIL; k = m->sol[k].next) nsol++;
        for (uint32_t j = 0; j < m->max_paths; j++)
            if (pr->open >> j & 1)
                fprintf(f, "%u,%u,%u,%u,%u,%u,%u,%u,%.4f,%.4f,%.3f\n", pr->node, pr->dst, mp_width(pr), pr->episode, nsol, j,
                        pr->p[j].in1, pr->p[j].in2, (double)pr->p[j].l0 / 1e6, pr->p[j].lat / 1e6, pr->p[j].notes);
    }
    out_close(&o);
}

static void write_log(const mp_t *m, const char *dir)
{
    outfile_t o;
    FILE *f = out_open(&o, dir, "drb-log.csv");
    fputs("t_us,src,dst,action,width,ratio\n", f);
    for (uint32_t i = 0; i < m->nlog; i++) {
        const mplog_t *e = &m->log[i];
        fprintf(f, "%.4f,%u,%u,%s,%u,%.4f\n", (double)e->t / 1e6, e->src, e->dst, actions[e->action], e->width, e->ratio);
    }
    out_close(&o);
}

static void write_plot(const char *dir, int render)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "drb.gp");
    fputs("set datafile separator ','\nset terminal pngcairo size 900,600\nset output 'drb.png'\n"
          "set multiplot layout 2,1\nset xlabel 'time (us)'\nset ylabel 'paths'\n"
          "plot 'drb-timeseries.csv' using 1:2 with lines title 'alternative paths open', "
          "'' using 1:3 with lines title 'pairs widened'\n"
          "set ylabel 'per interval'\n"
          "plot 'drb-timeseries.csv' using 1:5 with lines title 'openings', '' using 1:6 with lines title 'closings', "
          "'' using 1:7 with lines title 'database hits'\nunset multiplot\n", f);
    out_close(&o);
    plot_render(dir, "drb.gp", render);
}

void mp_write(const sim_t *s, const char *dir, int render)
{
    const mp_t *m = s->mp;
    if (!m) return;
    write_totals(s, m, dir);
    write_series(s, m, dir);
    write_pairs(m, dir);
    write_log(m, dir);
    write_plot(dir, render);
}
