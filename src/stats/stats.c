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
