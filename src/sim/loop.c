/* The event loop: batches of same-time events, device services, the
 * watchdogs and the periodic invariant check. */
#include "sim.h"
#include "internal.h"
#include "../core/util.h"
#include "../core/units.h"
#include "../net/link.h"
#include "../net/policy.h"
#include "../net/flit.h"
#include "../stats/views.h"
#include "../stats/view_pdes.h"
#include "../cc/cc.h"
#include "../multipath/mp.h"
#include "../workload/workload.h"
#include "../transport/transport.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How far ahead the loops prefetch (events or services). */
enum { PREFETCH_AHEAD = 8 };

static void progress_line(sim_t *s)
{
    fprintf(stderr, "\r  t = %8.2f us / %.2f us  (%3.0f%%)  in network %u  ", s->now / 1e6, s->end / 1e6,
            100.0 * (double)s->now / (double)s->end, s->pkt_live);
}

static void sample(sim_t *s, uint32_t k)
{
    stats_t *st = &s->st;
    if (s->now < s->stop) {   /* the window's samples; the drain after it only watches for deadlocks */
        if (k - 1 < st->nbins) st->ts_innet[k - 1] = s->pkt_live;
        if (s->views) views_on_sample(s, k);
        if (s->cc) cc_on_sample(s, k);
        if (s->mp) mp_on_sample(s, k);
    }
    if (s->pkt_live && s->now - s->last_progress >= s->deadlock_after) {
        s->deadlocked = 1;
        return;
    }
    if (!s->pkt_live) s->last_progress = s->now;
    if (s->progress_tty) progress_line(s);
    simtime_t next = (simtime_t)(k + 1) * st->interval;
    if (next <= s->end) evq_push(&s->evq, next, EV_SAMPLE, k + 1, 0);
}

/* The measurement window ends: the last time-series sample, and the drain
 * starts, to end once every packet generated in the window is in (by the
 * replay of the sources' streams, which is exact however far behind they are). */
static void window_end(sim_t *s)
{
    s->st.ts_innet[s->st.nbins - 1] = s->pkt_live;
    if (s->cc) cc_on_sample(s, s->st.nbins);
    transport_sync(s, s->now);   /* stalled nodes take (or drop) the window's messages now, as if woken */
    nic_count_generated(s);
    s->drain_target = s->st.w_gen_pkts;
    if (!s->drain_target) s->end = s->now;
    drain_check(s);
}

static void dispatch(sim_t *s, const event_t *e)
{
    switch (ev_type(e)) {
    case EV_ARRIVE:
        if (__builtin_expect(s->views != NULL, 0)) views_on_arrive(s, e->a, e->b);
        if (s->voq_mode) voq_arrive(s, e->a, e->b);
        else if (s->vn) voqnet_arrive(s, e->a, e->b);
        else switch_arrive(s, e->a, e->b);
        break;
    case EV_DCREDIT: voqnet_credit(s, e->a, e->b); break;
    case EV_XDONE: port_xdone(s, e->a); break;
    case EV_CREDIT: {
        /* Credits can only enable a transmission on their own output; if it
         * is busy, the end of that transmission will serve the device. */
        s->credits[e->a] += (int32_t)e->b;
        const port_t *o = &s->port[e->a / s->nvc];
        if (o->out_busy) break;
        if (o->dev & NIC_BIT) sim_touch_nic(s, o->dev & ~NIC_BIT);
        else if (s->flit_mode || (s->sw[o->dev].wanted >> o->local & 1)) sim_touch_switch(s, o->dev);
        break;
    }
    case EV_DELIVER:
        if (s->pkt[e->a].dst != e->b) die("packet for node %u delivered to node %u", s->pkt[e->a].dst, e->b);
        nic_deliver(s, e->a);
        break;
    case EV_NIC_WAKE:
        if (s->nic[e->a].wake_at == e->time) s->nic[e->a].wake_at = 0;
        if (s->flit_mode) flit_wake_nic(s, e->a);
        else sim_touch_nic(s, e->a);
        break;
    case EV_CYCLE: flit_cycle(s); break;
    case EV_CC_TIMER: cc_timer(s, e->a, e->b); break;
    case EV_MP_TIMER: mp_timer(s, e->a, e->b); break;
    case EV_WL_WAKE: wl_timer(s, e->a); break;
    case EV_SAMPLE: sample(s, e->a); break;
    case EV_STOP: window_end(s); break;
    default: die("unknown event type %u", ev_type(e));
    }
}

/* Warm the cache for the service of device d, in steps like events, each
 * reading only what the previous one fetched: the device record (a node's
 * hot fields and per-message streams), then what it points to (a node's source queues, a switch's
 * per-output want masks), then a node's ring entries at the heads (which it
 * may send) and tails (where new messages go). */
static inline void prefetch_service(const sim_t *s, uint32_t d, int step)
{
    if (d & NIC_BIT) {
        const nic_t *c = &s->nic[d & ~NIC_BIT];
        if (step == 0) {   /* every line of the hot fields, however the record is aligned */
            for (size_t off = 0; off < NIC_HOT_BYTES; off += 64) __builtin_prefetch((const char *)c + off, 1);
            __builtin_prefetch((const char *)c + NIC_HOT_BYTES - 1, 1);
            if (s->tp) {   /* the transport's node record (flows, heap, held message) */
                const tnode_t *tn = &s->tp->node[d & ~NIC_BIT];
                __builtin_prefetch(tn, 1);
                __builtin_prefetch((const char *)tn + sizeof *tn - 1, 1);
            }
        } else if (c->srcq) {
            for (uint32_t v = 0; v < s->nsqs; v++) {
                const srcq_t *q = &c->srcq[v];
                if (step == 1) __builtin_prefetch(q, 1);
                else if (q->cap) {
                    __builtin_prefetch(&q->m[q->head], 1);
                    __builtin_prefetch(&q->m[(q->head + q->n) % q->cap], 1);
                }
            }
        }
        return;
    }
    const sw_t *sw = &s->sw[d];
    if (step == 0) __builtin_prefetch(sw, 1);
    else if (step == 1)
        for (uint32_t o = 0; o < sw->nports; o += 8) __builtin_prefetch(&s->want[sw->port0 + o], 0);
}

static void run_services(sim_t *s)
{
    static const uint32_t dist[3] = { 2 * PREFETCH_AHEAD, PREFETCH_AHEAD, PREFETCH_AHEAD / 2 };
    for (int k = 0; k < 3; k++)
        for (uint32_t i = 0; i < s->npend && i < dist[k]; i++) prefetch_service(s, s->pend[i], k);
    for (uint32_t i = 0; i < s->npend; i++) {
        uint32_t d = s->pend[i];
        if (__builtin_expect(s->pdes != NULL, 0)) pdes_on_service(s, d);
        for (int k = 0; k < 3; k++)
            if (i + dist[k] < s->npend) prefetch_service(s, s->pend[i + dist[k]], k);
        if (d & NIC_BIT) { s->nic[d & ~NIC_BIT].pending = 0; nic_service(s, d & ~NIC_BIT); }
        else if (s->sw[d].pending = 0, s->voq_mode) (s->xbar_queue ? voq_service_per_queue : voq_service)(s, d);
        else if (s->vn) voqnet_service(s, d);
        else (s->xbar_queue ? switch_service_per_queue : switch_service)(s, d);
    }
    s->npend = 0;
}

/* Thousands of events share each time stamp (every transfer lasts whole
 * packet times), and each touches records far apart in memory. The loop
 * therefore pops the events of one time in batches and, while handling one,
 * prefetches what later ones will touch: first their packet and port, then,
 * once those are in cache, the VC queue or device they lead to. Handling
 * order is unchanged: a batch holds the earliest events in (time, sequence)
 * order, and anything a handler schedules at the same time comes after them. */
enum { EV_BATCH = 64 };

static inline void prefetch_event(const sim_t *s, const event_t *e, int late)
{
    switch (ev_type(e)) {
    case EV_ARRIVE:
        if (!late) { __builtin_prefetch(&s->pkt[e->b], 1); __builtin_prefetch(&s->port[e->a], 0); }
        else if (!s->vn) {
            uint32_t b = e->a * s->nvc + s->pkt[e->b].out_vc;
            __builtin_prefetch(&s->vq[b], 1);
            __builtin_prefetch(&s->sw[s->port[e->a].dev], 1);
            if (s->voq_mode) __builtin_prefetch(&s->voq_mask[b], 1);
        }
        break;
    case EV_XDONE:
        if (!late) __builtin_prefetch(&s->port[e->a], 1);
        else {
            const port_t *o = &s->port[e->a];
            if (o->dev & NIC_BIT) break;
            __builtin_prefetch(&s->port[o->feed], 1);
            __builtin_prefetch(&s->sw[o->dev], 1);
            if (!s->vn) __builtin_prefetch(&s->vq[o->feed * s->nvc + o->rel_vc], 1);   /* its bytes are freed */
        }
        break;
    case EV_CREDIT:
        if (!late) { __builtin_prefetch(&s->credits[e->a], 1); __builtin_prefetch(&s->port[e->a / s->nvc], 0); }
        else if (!(s->port[e->a / s->nvc].dev & NIC_BIT)) __builtin_prefetch(&s->sw[s->port[e->a / s->nvc].dev], 0);
        break;
    case EV_DELIVER:
        if (!late) { __builtin_prefetch(&s->pkt[e->a], 0); __builtin_prefetch(&s->ptime[e->a], 0); }
        else __builtin_prefetch(&s->nic[e->b], 1);
        break;
    case EV_NIC_WAKE:
        if (!late) __builtin_prefetch(&s->nic[e->a], 1);
        break;
    default: break;
    }
}

/* check.invariants: at a moment when no service is pending (every event so
 * far fully handled), every check.every events. */
static int periodic_check(sim_t *s)
{
    if (s->st.events < s->next_check) return 0;
    s->next_check = s->st.events + s->check_every;
    if (!sim_check_invariants(s, 0)) return 0;
    if (s->progress_tty) fputc('\n', stderr);
    fprintf(stderr, "icnsim: internal error: an invariant broke (above) at t = %.6f us, after %llu events\n",
            s->now / 1e6, (unsigned long long)s->st.events);
    return 1;
}

static int loop(sim_t *s)
{
    event_t batch[EV_BATCH];
    for (;;) {
        simtime_t t = evq_top_time(&s->evq);
        if (s->npend && t > s->now) { run_services(s); continue; }
        if (s->check_every && !s->npend && periodic_check(s)) return EXIT_INTERNAL;
        if (t >= s->end) break;
        uint32_t n = 0;
        /* A sample (the deadlock watchdog) closes its batch, so a run never
         * stops with events popped but not handled. */
        do evq_pop(&s->evq, &batch[n++]);
        while (n < EV_BATCH && evq_top_time(&s->evq) == t && ev_type(&batch[n - 1]) != EV_SAMPLE);
        s->instant_events = t == s->now ? s->instant_events + n : n;
        if (s->instant_events > s->instant_limit) {
            if (s->progress_tty) fputc('\n', stderr);
            fprintf(stderr, "icnsim: internal error: time stopped at t = %.6f us: %llu events without the clock "
                    "advancing (a zero-delay loop)\n", t / 1e6, (unsigned long long)s->instant_events);
            return EXIT_INTERNAL;
        }
        s->now = t;
        if (__builtin_expect(s->pdes != NULL, 0))   /* views.pdes: once per batch, off the per-event path */
            for (uint32_t i = 0; i < n; i++) pdes_on_event(s, &batch[i]);
        for (uint32_t i = 0; i < n && i < 2 * PREFETCH_AHEAD; i++) prefetch_event(s, &batch[i], 0);
        for (uint32_t i = 0; i < n && i < PREFETCH_AHEAD; i++) prefetch_event(s, &batch[i], 1);
        for (uint32_t i = 0; i < n; i++) {
            if (i + 2 * PREFETCH_AHEAD < n) prefetch_event(s, &batch[i + 2 * PREFETCH_AHEAD], 0);
            if (i + PREFETCH_AHEAD < n) prefetch_event(s, &batch[i + PREFETCH_AHEAD], 1);
            s->st.events++;
            dispatch(s, &batch[i]);
        }
        if (s->deadlocked) {   /* set only by a sample, the last event of its batch */
            if (s->progress_tty) fputc('\n', stderr);
            if (s->flit_mode) flit_deadlock_report(s);
            else deadlock_report(s);
            return EXIT_DEADLOCK;
        }
    }
    if (s->progress_tty) fprintf(stderr, "\r%70s\r", "");
    s->now = s->end;
    if (s->pkt_live && s->now - s->last_progress >= s->deadlock_after) {   /* stalled near the end */
        s->deadlocked = 1;
        if (s->flit_mode) flit_deadlock_report(s);
        else deadlock_report(s);
        return EXIT_DEADLOCK;
    }
    return EXIT_OK;
}

int sim_run(sim_t *s)
{
    int rc = loop(s);
    if (rc == EXIT_OK && !s->drain_max) {   /* the sample at the end time */
        s->st.ts_innet[s->st.nbins - 1] = s->pkt_live;
        if (s->cc) cc_on_sample(s, s->st.nbins);
    }
    if (rc == EXIT_DEADLOCK) {   /* the run ended here: statistics cover [0, now) */
        s->end = s->now;
        if (s->stop > s->end) s->stop = s->end;
    }
    transport_sync(s, s->end);
    nic_count_generated(s);
    if (s->wl) {
        wl_count_generated(s);
        if (rc == EXIT_OK && !wl_finished(s)) {   /* the application did not finish */
            if (s->progress_tty) fputc('\n', stderr);
            if (wl_stuck(s))
                fprintf(stderr, "icnsim: the workload cannot finish: at t = %.3f us no rank computes and no message is in "
                        "flight; ranks waiting:\n", s->now / 1e6);
            else
                fprintf(stderr, "icnsim: the workload did not finish by t = %.3f us (time.measure); ranks not finished:\n",
                        s->now / 1e6);
            wl_report_stuck(s, stderr);
            rc = EXIT_DEADLOCK;
        }
    }
    return rc;
}

int sim_drain(sim_t *s, simtime_t extra)
{
    transport_sync(s, s->end);   /* no generation after this: take what was generated */
    for (uint32_t n = 0; n < s->nnodes; n++) s->nic[n].next_gen = SIMTIME_MAX;
    s->drain_target = 0;   /* runs its full length */
    s->end = s->now + extra;
    return loop(s);
}
