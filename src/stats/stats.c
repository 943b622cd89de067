#include "stats.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

void stats_init(stats_t *st, uint64_t interval, uint64_t end)
{
    memset(st, 0, sizeof *st);
    hist_init(&st->lat);
    hist_init(&st->net);
    hist_init(&st->msg);
    st->interval = interval;
    st->tend = end;
    st->nbins = (uint32_t)((end + interval - 1) / interval);
    if (st->nbins == 0) st->nbins = 1;
    st->ts_del_bytes = xcalloc(st->nbins, sizeof(uint64_t));
    st->ts_del_pkts = xcalloc(st->nbins, sizeof(uint64_t));
    st->ts_inj_pkts = xcalloc(st->nbins, sizeof(uint64_t));
    st->ts_gen_pkts = xcalloc(st->nbins, sizeof(uint64_t));
    st->ts_gen_bytes = xcalloc(st->nbins, sizeof(uint64_t));
    st->ts_innet = xcalloc(st->nbins, sizeof(uint64_t));
    st->ts_lat_sum = xcalloc(st->nbins, sizeof *st->ts_lat_sum);
}

void stats_free(stats_t *st)
{
    hist_free(&st->lat);
    hist_free(&st->net);
    hist_free(&st->msg);
    free(st->ts_del_bytes);
    free(st->ts_del_pkts);
    free(st->ts_inj_pkts);
    free(st->ts_gen_pkts);
    free(st->ts_gen_bytes);
    free(st->ts_innet);
    free(st->ts_lat_sum);
    free(st->ts_net_sum);
    free(st->ts_lat_max);
    free(st->ts_net_max);
}

void stats_latency_series(stats_t *st)
{
    st->ts_net_sum = xcalloc(st->nbins, sizeof *st->ts_net_sum);
    st->ts_lat_max = xcalloc(st->nbins, sizeof(uint64_t));
    st->ts_net_max = xcalloc(st->nbins, sizeof(uint64_t));
}

void stats_add(stats_t *to, const stats_t *from)
{
    to->inj_pkts += from->inj_pkts; to->del_pkts += from->del_pkts; to->pkt_hops += from->pkt_hops;
    to->flit_hops += from->flit_hops; to->events += from->events;
    to->w_del_pkts += from->w_del_pkts; to->w_del_bytes += from->w_del_bytes; to->w_inj_pkts += from->w_inj_pkts; to->w_inj_bytes += from->w_inj_bytes;
    to->w_gen_pkts += from->w_gen_pkts; to->w_gen_bytes += from->w_gen_bytes;
    to->w_hops_sum += from->w_hops_sum; to->w_lat_pkts += from->w_lat_pkts; to->w_src_drops += from->w_src_drops;
    to->w_gen_tsum2 += from->w_gen_tsum2; to->w_done_tsum += from->w_done_tsum;
    to->gen_pkts += from->gen_pkts; to->src_drops += from->src_drops;
    hist_merge(&to->lat, &from->lat);
    hist_merge(&to->net, &from->net);
    hist_merge(&to->msg, &from->msg);
    for (uint32_t b = 0; b < to->nbins && b < from->nbins; b++) {
        to->ts_del_bytes[b] += from->ts_del_bytes[b]; to->ts_del_pkts[b] += from->ts_del_pkts[b];
        to->ts_inj_pkts[b] += from->ts_inj_pkts[b]; to->ts_gen_pkts[b] += from->ts_gen_pkts[b];
        to->ts_gen_bytes[b] += from->ts_gen_bytes[b]; to->ts_innet[b] += from->ts_innet[b];
        to->ts_lat_sum[b] += from->ts_lat_sum[b];
        if (to->ts_net_sum && from->ts_net_sum) {
            to->ts_net_sum[b] += from->ts_net_sum[b];
            if (from->ts_lat_max[b] > to->ts_lat_max[b]) to->ts_lat_max[b] = from->ts_lat_max[b];
            if (from->ts_net_max[b] > to->ts_net_max[b]) to->ts_net_max[b] = from->ts_net_max[b];
        }
    }
}

/* ---- as bytes, for the ranks of a distributed run ---- */

/* Every count, sum and series stats_add adds, in one order for both ways. */
#define STATS_FIELDS(X, st) \
    X(&(st)->inj_pkts, 1) X(&(st)->del_pkts, 1) X(&(st)->pkt_hops, 1) X(&(st)->flit_hops, 1) X(&(st)->events, 1) \
    X(&(st)->w_del_pkts, 1) X(&(st)->w_del_bytes, 1) X(&(st)->w_inj_pkts, 1) X(&(st)->w_inj_bytes, 1) X(&(st)->w_gen_pkts, 1) \
    X(&(st)->w_gen_bytes, 1) X(&(st)->w_hops_sum, 1) X(&(st)->w_lat_pkts, 1) X(&(st)->w_src_drops, 1) \
    X(&(st)->w_gen_tsum2, 1) X(&(st)->w_done_tsum, 1) X(&(st)->gen_pkts, 1) X(&(st)->src_drops, 1) \
    X(&(st)->lat.n, 1) X(&(st)->lat.max, 1) X(&(st)->lat.min, 1) X(&(st)->lat.sum, 1) X((st)->lat.cnt, HIST_BUCKETS) \
    X(&(st)->net.n, 1) X(&(st)->net.max, 1) X(&(st)->net.min, 1) X(&(st)->net.sum, 1) X((st)->net.cnt, HIST_BUCKETS) \
    X(&(st)->msg.n, 1) X(&(st)->msg.max, 1) X(&(st)->msg.min, 1) X(&(st)->msg.sum, 1) X((st)->msg.cnt, HIST_BUCKETS) \
    X((st)->ts_del_bytes, (st)->nbins) X((st)->ts_del_pkts, (st)->nbins) X((st)->ts_inj_pkts, (st)->nbins) \
    X((st)->ts_gen_pkts, (st)->nbins) X((st)->ts_gen_bytes, (st)->nbins) X((st)->ts_innet, (st)->nbins) \
    X((st)->ts_lat_sum, (st)->nbins)
#define LATENCY_FIELDS(X, st) X((st)->ts_net_sum, (st)->nbins) X((st)->ts_lat_max, (st)->nbins) X((st)->ts_net_max, (st)->nbins)

void stats_pack(const stats_t *st, bytebuf_t *b)
{
    uint8_t lat = st->ts_net_sum != NULL;
    bb_put(b, &st->nbins, sizeof st->nbins);
    bb_put(b, &lat, 1);
#define PUT(v, k) bb_put(b, (v), (uint64_t)(k) * sizeof *(v));
    STATS_FIELDS(PUT, st)
    if (lat) { LATENCY_FIELDS(PUT, st) }
#undef PUT
}

void stats_add_packed(stats_t *to, bytecur_t *c)
{
    stats_t from;
    uint32_t nbins;
    uint8_t lat;
    bc_get(c, &nbins, sizeof nbins, "stats");
    bc_get(c, &lat, 1, "stats");
    if (nbins != to->nbins || (lat != 0) != (to->ts_net_sum != NULL)) die("stats: packed statistics of another run");
    stats_init(&from, to->interval, (uint64_t)nbins * to->interval);
    if (lat) stats_latency_series(&from);
#define GET(v, k) bc_get(c, (v), (uint64_t)(k) * sizeof *(v), "stats");
    STATS_FIELDS(GET, &from)
    if (lat) { LATENCY_FIELDS(GET, &from) }
#undef GET
    stats_add(to, &from);
    stats_free(&from);
}
