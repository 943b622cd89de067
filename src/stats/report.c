#include "report.h"
#include "../cli/config.h"
#include "../core/util.h"
#include "../net/policy.h"
#include "../core/units.h"
#include "outfile.h"
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static double norm(const sim_t *s, uint64_t bytes, simtime_t span)
{
    if (!span || !s->nnodes) return 0;
    return (double)bytes * 8.0 / (s->link_bps * (double)s->nnodes * ((double)span * 1e-12));
}

/* The measurement window's length: up to its stop, or to an earlier end (a
 * deadlock, which may end a run in its warm-up; a finished workload). */
simtime_t stats_window(const sim_t *s)
{
    simtime_t e = stats_series_end(s);
    return e > s->warmup ? e - s->warmup : 0;
}

/* The time series' end: the window's stop, or an earlier end of the run
 * (which may fall in the warm-up); the drain's deliveries are in no bin. */
simtime_t stats_series_end(const sim_t *s)
{
    return s->end < s->stop ? s->end : s->stop;
}

/* Unstable: the packets waiting in source queues and in the network grew
 * through the window by more than 1 % of what it generated plus a packet per
 * node (the noise of a stable queue's length at the window's two ends); or
 * one node's source queue grew by more than 5 % of what it generated plus 4
 * of its longest messages (past saturation on a permutation only the sources of the busiest
 * channel fall behind, too few to show in the total); or the drain ended
 * with window packets still out; or full source queues dropped more than
 * 1 % of the window's packets (a bounded queue that overflows is a source
 * past what it can inject: its queue cannot grow, so growth misses it). */
static int unstable(const sim_t *s, uint64_t undrained)
{
    const stats_t *st = &s->st;
    double growth = (double)st->w_gen_pkts - (double)st->w_del_pkts - (double)st->w_src_drops;
    if (growth > 0.01 * (double)st->w_gen_pkts + s->nnodes || (s->drain_max && undrained)) return 1;
    if ((double)st->w_src_drops > 0.01 * (double)st->w_gen_pkts) return 1;
    if (s->wl || st->src_drops) return 0;   /* closed loop; dropping sources do not queue */
    uint32_t longest = s->msg_long > s->msg_size ? s->msg_long : s->msg_size;
    double slack = 4.0 * msg_packets(s, longest);   /* 4 packets, or 4 messages of several */
    for (uint32_t n = 0; n < s->nnodes; n++) {
        const nic_t *c = &s->nic[n];
        if ((double)c->w_gen - (double)c->w_inj > 0.05 * c->w_gen + slack) return 1;
    }
    return 0;
}

void result_compute(const sim_t *s, result_t *r)
{
    memset(r, 0, sizeof *r);
    const stats_t *st = &s->st;
    simtime_t span = stats_window(s);
    r->accepted = norm(s, st->w_del_bytes, span);
    r->offered = norm(s, st->w_gen_bytes, span);
    r->injected = norm(s, st->w_inj_bytes, span);   /* bytes: a packet may be shorter than packet.mtu */
    r->node_min = 1e300;
    for (uint32_t n = 0; n < s->nnodes && span; n++) {   /* an empty window (a workload that ends at 0) has no rates */
        double x = (double)s->nic[n].rx_bytes * 8.0 / (s->link_bps * ((double)span * 1e-12));
        if (x < r->node_min) r->node_min = x;
        if (x > r->node_max) r->node_max = x;
    }
    if (!s->nnodes || !span) r->node_min = 0;
    r->lat_mean = hist_mean(&st->lat) / 1e3;
    uint64_t in = st->w_lat_pkts + st->w_src_drops;
    r->undrained = st->w_gen_pkts > in ? st->w_gen_pkts - in : 0;
    if (s->drain_max && r->undrained) {   /* the packets still out count with their age at the end: a lower bound */
        __int128 out2 = (__int128)st->w_gen_tsum2 - 2 * (__int128)st->w_done_tsum;   /* twice the generation times still out */
        double age = (double)r->undrained * (double)s->end - (double)out2 / 2;
        r->lat_mean = ((double)st->lat.sum + age) / (double)(st->lat.n + r->undrained) / 1e3;
    }
    r->lat_p50 = hist_quantile(&st->lat, 0.50) / 1e3;
    r->lat_p99 = hist_quantile(&st->lat, 0.99) / 1e3;
    r->lat_max = (double)st->lat.max / 1e3;
    r->net_mean = hist_mean(&st->net) / 1e3;
    r->net_p50 = hist_quantile(&st->net, 0.50) / 1e3;
    r->net_p99 = hist_quantile(&st->net, 0.99) / 1e3;
    r->net_max = (double)st->net.max / 1e3;
    r->msg_mean = hist_mean(&st->msg) / 1e3;
    r->lat_samples = st->lat.n;
    r->avg_hops = st->w_lat_pkts ? (double)st->w_hops_sum / (double)st->w_lat_pkts : 0;
    r->generated = st->gen_pkts;
    r->injected_pkts = st->inj_pkts;
    r->delivered = st->del_pkts;
    r->in_network = s->pkt_live;
    r->src_drops = st->src_drops;
    r->in_source = st->gen_pkts >= st->inj_pkts + st->src_drops ? st->gen_pkts - st->inj_pkts - st->src_drops : 0;
    r->status = s->deadlocked ? RUN_DEADLOCK : s->unfinished ? RUN_UNFINISHED : RUN_OK;
    r->unstable = unstable(s, r->undrained);
    r->accepted_mbps = r->accepted * s->link_bps / 1e6;
    r->offered_mbps = r->offered * s->link_bps / 1e6;
}

void result_csv_header(FILE *f)
{
    fputs("status,accepted,offered,injected,node_min,node_max,"
          "lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_max_ns,net_mean_ns,net_p50_ns,net_p99_ns,net_max_ns,"
          "msg_mean_ns,avg_hops,generated,injected_pkts,delivered,in_network,in_source,src_drops,lat_samples,"
          "accepted_mbps,offered_mbps,undrained,unstable", f);   /* columns are only ever added at the end */
}

void result_csv_row(FILE *f, const result_t *r)
{
    fprintf(f, "%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%.3f,%llu,%d",
            r->status == RUN_DEADLOCK ? "deadlock" : r->status == RUN_UNFINISHED ? "unfinished" : "ok", r->accepted, r->offered, r->injected, r->node_min, r->node_max,
            r->lat_mean, r->lat_p50, r->lat_p99, r->lat_max, r->net_mean, r->net_p50, r->net_p99, r->net_max,
            r->msg_mean, r->avg_hops, (unsigned long long)r->generated, (unsigned long long)r->injected_pkts,
            (unsigned long long)r->delivered, (unsigned long long)r->in_network, (unsigned long long)r->in_source,
            (unsigned long long)r->src_drops, (unsigned long long)r->lat_samples, r->accepted_mbps, r->offered_mbps,
            (unsigned long long)r->undrained, r->unstable);
}

/* CSV field, quoted when needed. */
static void csv_field(FILE *f, const char *v)
{
    if (!strpbrk(v, ",\"\n")) { fputs(v, f); return; }
    fputc('"', f);
    for (; *v; v++) { if (*v == '"') fputc('"', f); fputc(*v, f); }
    fputc('"', f);
}

void summary_header(FILE *f)
{
    fputs("run,", f);
    for (int k = 0; k < K__COUNT; k++) fprintf(f, "%s,", icn_keys[k].name);
    result_csv_header(f);
    fputc('\n', f);
}

void summary_row(FILE *f, const cfg_t *c, const result_t *r)
{
    csv_field(f, c->name);
    fputc(',', f);
    for (int k = 0; k < K__COUNT; k++) { csv_field(f, c->val[k].text); fputc(',', f); }
    result_csv_row(f, r);
    fputc('\n', f);
}

void write_timeseries(const sim_t *s, const char *path)
{
    outfile_t o;
    FILE *f = out_open(&o, path, NULL);
    const stats_t *st = &s->st;
    fputs("t_start_us,t_end_us,accepted,offered,injected_pkts,delivered_pkts,generated_pkts,in_network,mean_latency_ns\n", f);
    for (uint32_t i = 0; i < st->nbins; i++) {
        simtime_t a = (simtime_t)i * st->interval, b = a + st->interval;
        if (b > stats_series_end(s)) b = stats_series_end(s);
        if (b <= a) break;
        double acc = norm(s, st->ts_del_bytes[i], b - a);
        double off = norm(s, st->ts_gen_bytes[i], b - a);
        fprintf(f, "%.3f,%.3f,%.6f,%.6f,%llu,%llu,%llu,%llu,%.3f\n", a / 1e6, b / 1e6, acc, off,
                (unsigned long long)st->ts_inj_pkts[i], (unsigned long long)st->ts_del_pkts[i],
                (unsigned long long)st->ts_gen_pkts[i], (unsigned long long)st->ts_innet[i],
                st->ts_del_pkts[i] ? (double)st->ts_lat_sum[i] / (double)st->ts_del_pkts[i] / 1e3 : 0.0);
    }
    out_close(&o);
}

void write_nodes(const sim_t *s, const char *path)
{
    outfile_t o;
    FILE *f = out_open(&o, path, NULL);
    simtime_t span = stats_window(s);
    fputs("node,role,accepted,injected_pkts\n", f);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        const nic_t *c = &s->nic[n];
        double x = span ? (double)c->rx_bytes * 8.0 / (s->link_bps * ((double)span * 1e-12)) : 0;
        fprintf(f, "%u,%d,%.6f,%llu\n", n, c->silent ? -2 : c->hot, x, (unsigned long long)c->injected_pkts);
    }
    out_close(&o);
}

uint64_t peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)ru.ru_maxrss;
}

void write_perf(const sim_t *s, const char *path)
{
    outfile_t o;
    FILE *f = out_open(&o, path, NULL);
    const stats_t *st = &s->st;
    double w = st->wall_seconds > 0 ? st->wall_seconds : 1e-9;
    fputs("wall_s,events,packet_hops,events_per_s,packet_hops_per_s,peak_rss_mb,flit_hops,flit_hops_per_s,windows,"
          "window_wait_s\n", f);
    fprintf(f, "%.3f,%llu,%llu,%.0f,%.0f,%.1f,%llu,%.0f,%llu,%.3f\n", st->wall_seconds, (unsigned long long)st->events,
            (unsigned long long)st->pkt_hops, (double)st->events / w, (double)st->pkt_hops / w, st->peak_rss_kb / 1024.0,
            (unsigned long long)st->flit_hops, (double)st->flit_hops / w, (unsigned long long)s->windows, s->window_wait_s);
    out_close(&o);
}

void print_summary(FILE *f, const sim_t *s, const result_t *r)
{
    const stats_t *st = &s->st;
    char a[32], b[32];
    fprintf(f, "icnsim run '%s': %s, %u nodes, %u switches, routing %s, queuing %s, %u VC(s)\n",
            s->cfg->name, s->topo->name, s->nnodes, s->nswitches, s->routing->name, s->queuing->name, s->nvc);
    fprintf(f, "  traffic %s / %s / %s at load %.3f (%.6g bits/us per node); warm-up %s, measured %s\n", s->process->name,
            s->pattern->name, s->scenario->name, s->load, s->load * s->link_bps / 1e6, fmt_time(s->warmup, a, sizeof a),
            fmt_time(stats_window(s), b, sizeof b));
    if (r->status == RUN_DEADLOCK) fprintf(f, "  ** DEADLOCK detected: the figures below cover the run up to it **\n");
    if (r->status == RUN_UNFINISHED) fprintf(f, "  ** the workload did not finish: the figures below cover the run up to its end **\n");
    fprintf(f, "\n  %-34s %12s\n", "metric", "value");
    fprintf(f, "  %-34s %12.4f\n", "accepted throughput (norm.)", r->accepted);
    fprintf(f, "  %-34s %12.4f\n", "offered load (norm.)", r->offered);
    fprintf(f, "  %-34s %12.1f / %.1f\n", "accepted / offered (bits/us/node)", r->accepted_mbps, r->offered_mbps);
    fprintf(f, "  %-34s %12.4f / %.4f\n", "per-node accepted min / max", r->node_min, r->node_max);
    fprintf(f, "  %-34s %12.1f\n", "latency mean (ns, gen->delivery)", r->lat_mean);
    fprintf(f, "  %-34s %12.1f / %.1f / %.1f\n", "latency p50 / p99 / max (ns)", r->lat_p50, r->lat_p99, r->lat_max);
    fprintf(f, "  %-34s %12.1f\n", "network latency mean (ns)", r->net_mean);
    fprintf(f, "  %-34s %12.1f / %.1f / %.1f\n", "network latency p50 / p99 / max", r->net_p50, r->net_p99, r->net_max);
    fprintf(f, "  %-34s %12.3f\n", "average switches crossed", r->avg_hops);
    fprintf(f, "  %-34s %12llu\n", "packets generated", (unsigned long long)r->generated);
    fprintf(f, "  %-34s %12llu\n", "packets delivered", (unsigned long long)r->delivered);
    fprintf(f, "  %-34s %12llu\n", "packets in network at end", (unsigned long long)r->in_network);
    fprintf(f, "  %-34s %12llu\n", "packets in source queues at end", (unsigned long long)r->in_source);
    if (r->src_drops) fprintf(f, "  %-34s %12llu\n", "packets dropped at full sources", (unsigned long long)r->src_drops);
    fprintf(f, "  %-34s %12llu%s\n", "window packets not delivered", (unsigned long long)r->undrained,
            r->unstable ? "   ** UNSTABLE: past saturation, latency is a lower bound **" : "");
    fprintf(f, "\n  %.2f s wall, %llu events (%.2f M/s), %llu packet-hops (%.2f M/s), peak memory %.0f MB\n",
            st->wall_seconds, (unsigned long long)st->events, st->events / (st->wall_seconds + 1e-9) / 1e6,
            (unsigned long long)st->pkt_hops, st->pkt_hops / (st->wall_seconds + 1e-9) / 1e6, st->peak_rss_kb / 1024.0);
}
