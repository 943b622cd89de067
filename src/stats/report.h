/* Turning a finished run into numbers and files. */
#ifndef ICN_REPORT_H
#define ICN_REPORT_H
#include <stdio.h>
#include "../net/model.h"

/* How a run ended (summary.csv's status column: ok, deadlock, unfinished). */
enum { RUN_OK = 0, RUN_DEADLOCK = 3, RUN_UNFINISHED = 4 };

typedef struct result {
    double accepted, offered, injected;     /* normalized to N x link bandwidth */
    double node_min, node_max;              /* per-node accepted throughput */
    double lat_mean, lat_p50, lat_p99, lat_max;   /* ns, generation -> delivery */
    double net_mean, net_p50, net_p99, net_max;   /* ns, injection -> delivery */
    double msg_mean;                        /* ns, message latency */
    double avg_hops;                        /* switches crossed */
    uint64_t generated, injected_pkts, delivered, in_network, in_source, src_drops;
    uint64_t lat_samples;
    double accepted_mbps, offered_mbps;     /* bits/us per node (seeds 001 and 003's unit) */
    int status;                             /* RUN_OK, RUN_DEADLOCK, RUN_UNFINISHED */
    uint64_t undrained;                     /* packets generated in the window and not delivered by the end */
    int unstable;                           /* source queues grew through the window, or the drain did not finish */
} result_t;

void result_compute(const sim_t *s, result_t *r);
/* The measurement window's length: up to its stop, or to an earlier end (a
 * deadlock; a workload that finished). Every per-window rate divides by it. */
simtime_t stats_window(const sim_t *s);
/* Where the time series ends: the window's stop, or the run's earlier end. */
simtime_t stats_series_end(const sim_t *s);
/* Metric columns, in order. */
void result_csv_header(FILE *f);
void result_csv_row(FILE *f, const result_t *r);
/* One CSV row: every configuration key, then the metrics. */
void summary_header(FILE *f);
void summary_row(FILE *f, const struct cfg *c, const result_t *r);
void write_timeseries(const sim_t *s, const char *path);
void write_nodes(const sim_t *s, const char *path);
void write_perf(const sim_t *s, const char *path);
void print_summary(FILE *f, const sim_t *s, const result_t *r);
/* Peak resident memory of this process in kB. */
uint64_t peak_rss_kb(void);

#endif
