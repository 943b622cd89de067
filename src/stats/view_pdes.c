/* views.pdes = N: what a conservative parallel run of this network on N
 * parts would see, measured on the sequential run. The lookahead is the
 * link delay (a credit crosses a link in that time, and nothing crosses
 * faster), so a window-synchronous run advances in windows of that length:
 * within a window each part handles its own events, and at its end the parts
 * exchange what crossed. Per window this counts the events (and device
 * services) each part handles and the events that cross parts; from them,
 * the speedup the run would reach if a window cost its busiest part's work
 * (the bound that load imbalance and synchronization leave), and the
 * exchanges per window the synchronization must carry.
 *
 * Parts: a switch with end nodes (a leaf) belongs to part n * N / nodes of
 * its first node n, and its end nodes with it (a leaf and its nodes are
 * never split); a switch without end nodes to part (switch id mod N). */
#include "view_pdes.h"
#include "outfile.h"
#include "../core/util.h"
#include "../net/partition.h"
#include "../workload/workload.h"
#include <inttypes.h>
#include <stdlib.h>

struct pdes_view {
    uint32_t parts;
    simtime_t window;          /* the lookahead: link.delay */
    uint32_t *part_of;         /* [switch], then [nswitches + node] */
    uint64_t *count;           /* [part]: work in the current window */
    simtime_t cur;             /* the current window's end (UINT64_MAX: none yet) */
    uint64_t windows, work, max_sum, cross;   /* over the windows with work */
    uint64_t busiest;          /* the most work one window held */
};

void pdes_view_setup(sim_t *s, uint32_t parts)
{
    if (!parts) return;
    pdes_view_t *v = s->pdes = xcalloc(1, sizeof *v);
    v->parts = parts;
    v->window = s->link_delay ? s->link_delay : 1;
    v->part_of = net_partition(s, parts);
    v->count = xcalloc(parts, sizeof *v->count);
    v->cur = UINT64_MAX;
}

void pdes_view_free(sim_t *s)
{
    pdes_view_t *v = s->pdes;
    if (!v) return;
    free(v->part_of);
    free(v->count);
    free(v);
    s->pdes = NULL;
}

static inline uint32_t dev_part(const pdes_view_t *v, const sim_t *s, uint32_t dev)
{
    return v->part_of[dev & NIC_BIT ? s->nswitches + (dev & ~NIC_BIT) : dev];
}

static void close_window(pdes_view_t *v)
{
    uint64_t sum = 0, mx = 0;
    for (uint32_t p = 0; p < v->parts; p++) {
        sum += v->count[p];
        if (v->count[p] > mx) mx = v->count[p];
        v->count[p] = 0;
    }
    if (!sum) return;
    v->windows++;
    v->work += sum;
    v->max_sum += mx;
    if (sum > v->busiest) v->busiest = sum;
}

/* Windows as the partitioned run forms them: one starts at the first event
 * of the network at or past the last one's end (sim_window_limit). */
static inline void add(sim_t *s, pdes_view_t *v, uint32_t part)
{
    if (v->cur == UINT64_MAX || s->now >= v->cur) {
        close_window(v);
        v->cur = sim_window_limit(s, s->now);
    }
    v->count[part]++;
}

void pdes_on_event(sim_t *s, const event_t *e)
{
    pdes_view_t *v = s->pdes;
    uint32_t to, from;
    switch (ev_type(e)) {
    case EV_ARRIVE:   /* from the device upstream of input port a */
        to = dev_part(v, s, s->port[e->a].dev);
        from = dev_part(v, s, s->port[s->port[e->a].peer].dev);
        break;
    case EV_CREDIT: {   /* to output port a / nvc, from the device downstream that freed the space */
        const port_t *o = &s->port[e->a / s->nvc];
        to = dev_part(v, s, o->dev);
        from = dev_part(v, s, s->port[o->peer].dev);
        break;
    }
    case EV_DELIVER: to = from = v->part_of[s->nswitches + e->b]; break;
    case EV_XDONE: to = from = dev_part(v, s, s->port[e->a].dev); break;
    case EV_NIC_WAKE: case EV_CC_TIMER: case EV_MP_TIMER: to = from = v->part_of[s->nswitches + e->a]; break;
    case EV_WL_WAKE: to = from = v->part_of[s->nswitches + wl_rank_node(s, e->a)]; break;
    default: return;   /* samples, the window's end: the run's, not a part's (VOQnet is refused at set-up) */
    }
    add(s, v, to);
    if (from != to) v->cross++;
}

void pdes_on_service(sim_t *s, uint32_t d)
{
    add(s, s->pdes, dev_part(s->pdes, s, d));
}

void pdes_view_write(sim_t *s, const char *dir)
{
    pdes_view_t *v = s->pdes;
    if (!v) return;
    close_window(v);
    outfile_t o;
    FILE *f = out_open(&o, dir, "pdes.csv");
    fputs("parts,window_ps,windows,work,work_per_window,busiest_window,cross_part_events,cross_per_window,"
          "busiest_part_per_window,speedup_bound\n", f);
    double wn = v->windows ? (double)v->windows : 1;
    fprintf(f, "%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.4f\n", v->parts, v->window,
            v->windows, v->work, (double)v->work / wn, v->busiest, v->cross, (double)v->cross / wn,
            (double)v->max_sum / wn, v->max_sum ? (double)v->work / (double)v->max_sum : 1.0);
    out_close(&o);
}
