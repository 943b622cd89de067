/* What the views' files share (views.c, view_latency.c, view_map.c,
 * view_ports.c); no other module includes it. */
#ifndef ICN_VIEWS_INT_H
#define ICN_VIEWS_INT_H
#include "views.h"
#include "report.h"
#include "../core/bytebuf.h"
#include <stdio.h>

struct vlat;
struct vports;

struct views {
    int destmap, links, occupancy;
    uint32_t words;          /* destmap: 64-bit words per (port, vc) bitset */
    uint64_t *seen;          /* destmap: [(port * nvc + vc) * words] */
    uint64_t *bytes;         /* links, link_load: [port] bytes sent in the window */
    float *occ;              /* occupancy: [sample * nswitches + switch] */
    uint32_t nsamples;
    uint32_t rows;                 /* occupancy rows sampled: a run that ends on a sample time has no last sample */
    int latency;             /* views.latency: the time series keeps its extra columns */
    simtime_t peak_window;   /* views.peak_window, 0 = off */
    uint64_t *rw;            /* router_wait: [switch * 3]: packets, wait sum, largest wait (ps) */
    uint32_t link_bins;      /* link_load: histogram bins, 0 = off */
    struct vlat *lat;        /* per-pair latency (view_latency.c), NULL if off */
    struct vports *ports;    /* port counters (view_ports.c), NULL if off */
};

/* The largest a view may allocate. */
#define VIEWS_MAX_MB 2048.0

static inline int in_window(const sim_t *s, simtime_t t) { return t >= s->warmup && t < s->stop; }

/* Time-series bins that lie within the series (report.c), and where bin i ends. */
static inline uint32_t bins_run(const sim_t *s)
{
    uint64_t n = (stats_series_end(s) + s->st.interval - 1) / s->st.interval;
    return n < s->st.nbins ? (uint32_t)n : s->st.nbins;
}
static inline simtime_t bin_end(const sim_t *s, uint32_t i)
{
    simtime_t b = (simtime_t)(i + 1) * s->st.interval;
    return b < stats_series_end(s) ? b : stats_series_end(s);
}

/* Per-pair latency (view_latency.c). */
void vlat_setup(sim_t *s, cfg_t *c);   /* sets s->views->lat */
void vlat_free(struct vlat *l);
/* Its cells as bytes, and such bytes merged in (sums and maxima). */
void vlat_pack(const sim_t *s, const struct vlat *l, bytebuf_t *b);
void vlat_merge(const sim_t *s, struct vlat *l, bytecur_t *c);
void vlat_on_deliver(sim_t *s, struct vlat *l, uint32_t id, uint32_t bin);
/* latency.csv, latency-peaks.csv, latency-pairs.csv and their plots. */
void vlat_write(const sim_t *s, const char *dir, const char *title, int render);

/* Router waits and link loads, with maps over k-ary n-cubes (view_map.c). */
void vmap_write(const sim_t *s, const char *dir, const char *title, int render);

/* Port counters (view_ports.c). */
struct vports *vports_setup(sim_t *s);
void vports_free(struct vports *p);
/* The counters as bytes, and such bytes merged in (sums; the open waiting interval: the earliest). */
void vports_pack(const sim_t *s, const struct vports *p, bytebuf_t *b);
void vports_merge(const sim_t *s, struct vports *p, bytecur_t *c);
void vports_on_send(sim_t *s, struct vports *p, uint32_t go, uint32_t size);
void vports_on_arrive(sim_t *s, struct vports *p, uint32_t gi, uint32_t size);
void vports_write(const sim_t *s, const char *dir);

#endif
