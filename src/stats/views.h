/* Views of a run beyond the summary, each off unless asked for: per-link and
 * per-VC (destinations, utilization, occupancy), latency over time overall
 * and per pair, per-router waits, link-load maps and histograms, InfiniBand
 * port counters; see views.c. */
#ifndef ICN_VIEWS_H
#define ICN_VIEWS_H
#include "../net/model.h"
#include "../cli/config.h"
#include "../core/bytebuf.h"

void views_setup(sim_t *s, cfg_t *c);   /* s->views stays NULL when all are off */
void views_free(sim_t *s);
/* Hooks, called only when s->views is set. Packet id starts through output go. */
void views_on_send(sim_t *s, uint32_t go, uint32_t id);
/* Packet id's head reaches switch input gi. */
void views_on_arrive(sim_t *s, uint32_t gi, uint32_t id);
/* Data packet id is delivered, in time-series bin `bin`. */
void views_on_deliver(sim_t *s, uint32_t id, uint32_t bin);
void views_on_sample(sim_t *s, uint32_t k);
/* Switch output go's wanted set (port_t.want) or busy flag changed: PortXmitWait. */
void views_xwait(sim_t *s, uint32_t go);
static inline void views_out_changed(sim_t *s, uint32_t go)
{
    if (__builtin_expect(s->views != NULL, 0)) views_xwait(s, go);
}
void views_write(const sim_t *s, const char *dir, const char *title, int render);
/* A run over MPI ranks: the views' counters as bytes for rank 0, and such
 * bytes merged into rank 0's (sums, maxima, unions). */
void views_pack(const sim_t *s, bytebuf_t *b);
void views_merge(sim_t *s, bytecur_t *c);

/* Destinations seen through switch output port go on VC vc / on any VC. */
uint32_t views_dests(const sim_t *s, uint32_t go, uint32_t vc);
uint32_t views_dests_any_vc(const sim_t *s, uint32_t go);
/* views.router_wait: packets switch w forwarded in the measurement window,
 * the sum and the largest of their waits there (ps); 0 if the view is off. */
int views_router_wait(const sim_t *s, uint32_t w, uint64_t *pkts, uint64_t *sum_ps, uint64_t *max_ps);
/* views.link_load: utilization of switch output go in the measurement window. */
double views_link_util(const sim_t *s, uint32_t go);

/* views.port_counters of switch port g, as perfquery names them. */
typedef struct port_counters {
    uint64_t xmit_data, rcv_data;   /* 4-byte words */
    uint64_t xmit_pkts, rcv_pkts;
    uint64_t xmit_wait;             /* ticks (views_tick) */
    uint64_t wait_ps;               /* the same time, exact */
} port_counters_t;
int views_port_counters(const sim_t *s, uint32_t g, port_counters_t *pc);   /* 0 if off */
/* The PortXmitWait tick: 8 bytes' time at the link rate. */
simtime_t views_tick(const sim_t *s);

#endif
