/* Run statistics: counters, latency histograms, time series.
 *
 * Throughput counts bytes delivered inside the measurement window
 * [warmup, stop). Latencies are those of packets generated inside the window
 * and delivered before the end of the run, which a drain (time.drain) extends
 * until all of them are delivered or its bound has passed. */
#ifndef ICN_STATS_H
#define ICN_STATS_H
#include <stdint.h>
#include "hist.h"
#include "../core/bytebuf.h"

typedef struct stats {
    /* whole run */
    uint64_t inj_pkts, del_pkts, pkt_hops, flit_hops, events;
    /* measurement window */
    uint64_t w_del_pkts, w_del_bytes, w_inj_pkts, w_inj_bytes, w_gen_pkts, w_gen_bytes;
    uint64_t w_hops_sum, w_lat_pkts;   /* w_lat_pkts: the window's packets delivered (latency samples) */
    uint64_t w_src_drops;     /* packets generated in the window and dropped by a full source queue */
    /* sums of the generation times (ps) of the window's packets: all of them
     * (from the replay), and those delivered or dropped; the difference dates
     * the packets still out at the end (censored in the mean latency) */
    psum_t w_gen_tsum2, w_done_tsum;   /* w_gen_tsum2: twice the sum (the closed form of constant gaps has halves) */
    hist_t lat, net, msg;     /* generation->delivery, injection->delivery, message */
    /* time series, bin i covers [i*interval, (i+1)*interval) */
    uint64_t interval, tend;   /* tend: the series' end (the window's stop); the last bin may be shorter */
    uint32_t nbins;
    uint64_t *ts_del_bytes, *ts_del_pkts, *ts_inj_pkts, *ts_gen_pkts, *ts_gen_bytes, *ts_innet;
    psum_t *ts_lat_sum;
    /* views.latency: also the network latency and both maxima (NULL when off) */
    psum_t *ts_net_sum;
    uint64_t *ts_lat_max, *ts_net_max;
    /* end of run */
    uint64_t gen_pkts;        /* all generated up to the end (source queues included) */
    uint64_t src_drops;       /* packets of messages refused by a full per-VC source queue */
    double wall_seconds;
    uint64_t peak_rss_kb;
} stats_t;

/* Time-series bin of time t, or -1 past the end (a drain after the run). */
static inline int64_t ts_bin(const stats_t *st, uint64_t t)
{
    return t < st->tend ? (int64_t)(t / st->interval) : -1;
}

void stats_init(stats_t *st, uint64_t interval, uint64_t end);
void stats_free(stats_t *st);
/* Add the counts, sums and series of `from` into `to` (maxima: the larger),
 * which have the same bins: exact in any order (psum_t). */
void stats_add(stats_t *to, const stats_t *from);
/* The statistics as bytes for another process, and such bytes (read at the
 * cursor) added into a run's with the same bins (stats_add). */
void stats_pack(const stats_t *st, bytebuf_t *b);
void stats_add_packed(stats_t *to, bytecur_t *c);
/* Keep the network latency sum and both latency maxima per bin as well. */
void stats_latency_series(stats_t *st);

/* A delivery of total latency lat and network latency net in bin b. */
static inline void ts_latency_add(stats_t *st, int64_t b, uint64_t lat, uint64_t net)
{
    st->ts_net_sum[b] += net;
    if (lat > st->ts_lat_max[b]) st->ts_lat_max[b] = lat;
    if (net > st->ts_net_max[b]) st->ts_net_max[b] = net;
}

#endif
