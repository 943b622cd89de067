/* The event loop: batches of same-time events, device services, the
 * watchdogs and the periodic invariant check. */
#include "sim.h"
#include "internal.h"
#include "parts.h"
#include "../core/util.h"
#include "../core/keysort.h"
#include "../core/units.h"
#include "../net/link.h"
#include "../net/policy.h"
#include "../net/flit.h"
#include "../stats/views.h"
#include "../stats/report.h"
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
    if (next <= s->end) sim_push(s, next, EV_SAMPLE, k + 1, 0);
}

/* The time series' last sample, at its end (the window's stop, or an
 * earlier end of the run: a finished workload, a deadlock): into the bin
 * that end closes. */
void sim_views_end_sample(sim_t *s)
{
    /* occupancy rows are the samples at multiples of the interval: the
     * series' end is one when it falls on one (EV_SAMPLE there comes too late) */
    uint64_t n = stats_series_end(s) / s->st.interval;
    if (s->views && n && n <= s->st.nbins && stats_series_end(s) % s->st.interval == 0) views_on_sample(s, (uint32_t)n);
}

/* views: 0 when the views' sample was taken already (a run over MPI ranks
 * takes it on every rank before they add up their views) */
static void end_sample(sim_t *s, int views)
{
    uint64_t n = (stats_series_end(s) + s->st.interval - 1) / s->st.interval;
    if (n > s->st.nbins) n = s->st.nbins;
    if (!n) return;
    s->st.ts_innet[n - 1] = s->pkt_live;
    if (views) sim_views_end_sample(s);
    if (s->cc) cc_on_sample(s, (uint32_t)n);
    if (s->mp) mp_on_sample(s, (uint32_t)n);
}

/* The measurement window ends: the last time-series sample, and the drain
 * starts, to end once every packet generated in the window is in (by the
 * replay of the sources' streams, which is exact however far behind they are). */
static void window_end(sim_t *s)
{
    end_sample(s, 1);
    s->window_ended = 1;
    transport_sync(s, s->now);   /* stalled nodes take (or drop) the window's messages now, as if woken */
    nic_count_generated(s);
    s->drain_target = s->st.w_gen_pkts;
    if (s->parts) return;   /* the partitioned loop counts the whole network's (src/sim/parts.c) */
    if (s->st.w_lat_pkts + s->st.w_src_drops >= s->drain_target)   /* all in already: the instant ends the run */
        s->end = s->canon_ties ? s->now + 1 : s->now;
}

/* ---- the drain in the canonical order ----
 * A partitioned run learns the whole network's count of the window's packets
 * only between windows, so in the canonical order every run ends the drain
 * with the lookahead window in which that count is reached: the window that
 * starts at an instant with events of the network (not only samples or the
 * window's end) and lasts link.delay, cut short by the next sample, the
 * window's end or the run's end, as src/sim/parts.c forms them
 * (sim_window_limit, net/model.h). */

static void drain_ends(sim_t *s)
{
    s->drain_met = 0;
    if (s->parts) return;   /* the partitioned loop ends it between windows */
    simtime_t lim = s->win_limit > s->now ? s->win_limit : s->now + 1;   /* no window open: the instant */
    if (lim < s->end) s->end = lim;
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
        uint32_t g = cv_port(s, e->a);
        *credit(s, g, e->a - g * s->nvc) += (int32_t)e->b;
        const port_t *o = &s->port[g];
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
        if (step == 0) {   /* every line of the hot fields (the record starts on a line) */
            for (size_t off = 0; off < NIC_HOT_BYTES; off += 64) __builtin_prefetch((const char *)c + off, 1);
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
    else if (step == 1)   /* the idle outputs some head wants: their want masks, credits and arbiter pointers */
        for (uint64_t m = sw->wanted & ~sw->out_busy; m; m &= m - 1)
            __builtin_prefetch(&s->port[sw->port0 + (unsigned)__builtin_ctzll(m)], 1);
}

/* ---- time.ties = canonical ----
 * The events of one instant are handled in an order of their content: by
 * kind, the sample and the window's end first (they see the network as the
 * instant finds it, as at the barrier of a partitioned run), then what an
 * instant releases (credits, ends of transfers) before what arrives in it;
 * within a kind, by the port, node or rank the event acts on (a node's timers
 * then by flow or pair). Credits and ends of transfers keep the order they
 * were popped in: each changes only its own output VL or port and marks its
 * device for service, so any order of them leaves the same state, and
 * sorting them (two events in three) would cost more than the rest. Events
 * scheduled for the instant while it is handled form the next round, ordered
 * alike, and the devices then act in id order (switches, then NICs). None of
 * this depends on the order in which events were scheduled, so a run split
 * into parts that schedule independently can keep it; check.shuffle_ties
 * tests that it holds, commuting kinds included. */
enum { NKINDS = 13 };
static const uint8_t kind_rank[EV_STOP + 1] = {
    [EV_SAMPLE] = 0, [EV_STOP] = 1, [EV_CREDIT] = 2, [EV_DCREDIT] = 3, [EV_XDONE] = 4, [EV_ARRIVE] = 5, [EV_DELIVER] = 6,
    [EV_NIC_DONE] = 7, [EV_NIC_WAKE] = 8, [EV_CC_TIMER] = 9, [EV_MP_TIMER] = 10, [EV_WL_WAKE] = 11, [EV_CYCLE] = NKINDS - 1,
};
enum { COMMUTING_FROM = 2, ORDERED_FROM = 5 };   /* ranks [COMMUTING_FROM, ORDERED_FROM) commute within their kind */

/* An event's place within its kind. */
static uint64_t within_kind(const event_t *e)
{
    unsigned k = ev_type(e);
    uint64_t on = k == EV_DELIVER ? e->b : e->a, sub = 0;   /* a delivery's a is its packet, b its node */
    if (k == EV_CC_TIMER) sub = e->b & CC_SL_BIT ? (e->b & (CC_NSL - 1)) : CC_NSL + (uint64_t)e->b;
    else if (k == EV_MP_TIMER) sub = e->b;
    if (sub >> 24) die("time.ties = canonical: timer %llu of node %u beyond the order's 24 bits", (unsigned long long)sub, e->a);
    return on << 24 | sub;   /* byte-aligned fields: the sort's passes skip the equal ones */
}

static void shuffle(rng_t *r, void *base, uint32_t n, size_t size)
{
    char tmp[sizeof(event_t)], *v = base;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = rng_below(r, i);
        memcpy(tmp, v + (size_t)(i - 1) * size, size);
        memcpy(v + (size_t)(i - 1) * size, v + (size_t)j * size, size);
        memcpy(v + (size_t)j * size, tmp, size);
    }
}

static void inst_grow(sim_t *s)
{
    s->inst_cap = s->inst_cap ? 2 * s->inst_cap : 1024;
    s->inst = xrealloc(s->inst, 2 * (size_t)s->inst_cap * sizeof *s->inst);   /* popped, then ordered */
    s->inst_key = xrealloc(s->inst_key, (size_t)s->inst_cap * sizeof *s->inst_key);
    s->inst_tmp = xrealloc(s->inst_tmp, (size_t)s->inst_cap * sizeof *s->inst_tmp);
}

/* Pops every event of instant t (canonical ties or shuffled ones) and returns
 * them in the order to handle them; *n gets their number. */
static const event_t *pop_instant(sim_t *s, simtime_t t, uint32_t *n)
{
    uint32_t k = 0;
    while (evq_top_time(&s->evq) == t) {
        if (k == s->inst_cap) inst_grow(s);
        evq_pop(&s->evq, &s->inst[k++]);
    }
    *n = k;
    if (s->shuffle_ties) shuffle(&s->tie_rng, s->inst, k, sizeof *s->inst);
    if (!s->canon_ties) {   /* shuffled insertion order: the sample still closes the batch */
        for (uint32_t i = 0; i + 1 < k; i++)
            if (ev_type(&s->inst[i]) == EV_SAMPLE) { event_t x = s->inst[i]; s->inst[i] = s->inst[k - 1]; s->inst[k - 1] = x; break; }
        return s->inst;
    }
    uint32_t at[NKINDS] = { 0 }, end[NKINDS];   /* a counting sort by kind, then each ordered kind by its key */
    for (uint32_t i = 0; i < k; i++) at[kind_rank[ev_type(&s->inst[i])]]++;
    for (uint32_t r = 0, sum = 0; r < NKINDS; r++) { sum += at[r]; end[r] = sum; at[r] = sum - at[r]; }
    for (uint32_t i = 0; i < k; i++) {
        unsigned r = kind_rank[ev_type(&s->inst[i])];
        s->inst_key[at[r]++] = (keyed_t){ r >= COMMUTING_FROM && r < ORDERED_FROM ? 0 : within_kind(&s->inst[i]), i };
    }
    for (uint32_t r = 0, from = 0; r < NKINDS; from = end[r++])
        if ((r < COMMUTING_FROM || r >= ORDERED_FROM) && end[r] - from > 1) keysort(s->inst_key + from, s->inst_tmp, end[r] - from);
    event_t *ord = s->inst + s->inst_cap;
    for (uint32_t i = 0; i < k; i++) ord[i] = s->inst[s->inst_key[i].idx];
    return ord;
}

/* The devices to serve, in id order (canonical ties) or shuffled: set in a
 * bitmap of switches then NICs, read back in order (cheaper than a sort when,
 * as usual, many devices act at an instant). */
static void order_services(sim_t *s)
{
    if (s->shuffle_ties) shuffle(&s->tie_rng, s->pend, s->npend, sizeof *s->pend);
    if (!s->canon_ties || s->npend < 2) return;
    uint64_t *bits = s->pend_bits;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < s->npend; i++) {
        uint32_t d = s->pend[i], x = d & NIC_BIT ? s->nswitches + (d & ~NIC_BIT) : d;
        bits[x >> 6] |= 1ull << (x & 63);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    uint32_t k = 0;
    for (uint32_t w = lo >> 6; w <= hi >> 6; w++)
        for (uint64_t b = bits[w]; b; b &= b - 1) {
            uint32_t x = w << 6 | (uint32_t)__builtin_ctzll(b);
            s->pend[k++] = x < s->nswitches ? x : NIC_BIT | (x - s->nswitches);
        }
    memset(&bits[lo >> 6], 0, ((hi >> 6) - (lo >> 6) + 1) * sizeof *bits);
}

static void run_services(sim_t *s)
{
    if (__builtin_expect(s->canon_ties | s->shuffle_ties, 0)) order_services(s);
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
            if (s->xbar_queue) __builtin_prefetch(&s->port[o->feed], 1);
            __builtin_prefetch(&s->sw[o->dev], 1);
            if (!s->vn) __builtin_prefetch(&s->vq[o->feed * s->nvc + o->rel_vc], 1);   /* its bytes are freed */
        }
        break;
    case EV_CREDIT:
        if (!late) {   /* the port's record (its credits too, unless there are more VCs than it holds) */
            uint32_t g = cv_port(s, e->a);
            __builtin_prefetch(&s->port[g], 1);
            if (s->nvc > PORT_VCS) __builtin_prefetch(credit(s, g, e->a - g * s->nvc), 1);
        }
        else {
            uint32_t dev = s->port[cv_port(s, e->a)].dev;
            if (!(dev & NIC_BIT)) __builtin_prefetch(&s->sw[dev], 0);
        }
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

int sim_run_until(sim_t *s, simtime_t limit)
{
    event_t batch[EV_BATCH];
    for (;;) {
        simtime_t t = evq_top_time(&s->evq);
        if (s->npend && t > s->now) { run_services(s); continue; }
        if (__builtin_expect(s->drain_met, 0)) drain_ends(s);
        if (s->check_every && !s->npend && periodic_check(s)) return EXIT_INTERNAL;
        if (t >= limit || t >= s->end) return EXIT_OK;   /* a drain may end the run early */
        uint32_t n = 0;
        const event_t *ev = batch;
        /* A sample (the deadlock watchdog) closes its batch, so a run never
         * stops with events popped but not handled. */
        if (__builtin_expect(s->canon_ties | s->shuffle_ties, 0)) {
            ev = pop_instant(s, t, &n);
            /* own events (samples, the window's end) come first: a later one is the network's */
            unsigned last = ev_type(&ev[n - 1]);
            if (s->drain_max && !s->parts && t >= s->win_limit && last != EV_SAMPLE && last != EV_STOP) s->win_limit = sim_window_limit(s, t);
        } else {
            do evq_pop(&s->evq, &batch[n++]);
            while (n < EV_BATCH && evq_top_time(&s->evq) == t && ev_type(&batch[n - 1]) != EV_SAMPLE);
        }
        s->instant_events = t == s->now ? s->instant_events + n : n;
        if (s->instant_events > s->instant_limit) {
            if (s->progress_tty) fputc('\n', stderr);
            fprintf(stderr, "icnsim: internal error: time stopped at t = %.6f us: %llu events without the clock "
                    "advancing (a zero-delay loop)\n", t / 1e6, (unsigned long long)s->instant_events);
            return EXIT_INTERNAL;
        }
        s->now = t;
        if (__builtin_expect(s->pdes != NULL, 0))   /* views.pdes: once per batch, off the per-event path */
            for (uint32_t i = 0; i < n; i++) pdes_on_event(s, &ev[i]);
        for (uint32_t i = 0; i < n && i < 2 * PREFETCH_AHEAD; i++) prefetch_event(s, &ev[i], 0);
        for (uint32_t i = 0; i < n && i < PREFETCH_AHEAD; i++) prefetch_event(s, &ev[i], 1);
        for (uint32_t i = 0; i < n; i++) {
            if (i + 2 * PREFETCH_AHEAD < n) prefetch_event(s, &ev[i + 2 * PREFETCH_AHEAD], 0);
            if (i + PREFETCH_AHEAD < n) prefetch_event(s, &ev[i + PREFETCH_AHEAD], 1);
            s->st.events++;
            dispatch(s, &ev[i]);
        }
        if (s->deadlocked) {   /* set only by a sample, which the batch handles whole */
            sim_report_deadlock(s);
            return EXIT_DEADLOCK;
        }
    }
}

void sim_report_deadlock(sim_t *s)
{
    if (s->progress_tty) fputc('\n', stderr);
    if (parts_report_deadlock(s)) return;
    if (s->flit_mode) flit_deadlock_report(s);
    else deadlock_report(s);
}

static int loop(sim_t *s)
{
    int rc = s->parts ? parts_loop(s) : sim_run_until(s, s->end);
    if (rc != EXIT_OK) return rc;
    if (s->progress_tty) fprintf(stderr, "\r%70s\r", "");
    s->now = s->end;
    if (s->pkt_live && s->now - s->last_progress >= s->deadlock_after) {   /* stalled near the end */
        s->deadlocked = 1;
        sim_report_deadlock(s);
        return EXIT_DEADLOCK;
    }
    return EXIT_OK;
}

int sim_run(sim_t *s)
{
    int rc = loop(s);
    if (rc == EXIT_DEADLOCK) {   /* the run ended here: statistics cover [0, now) */
        s->end = s->now;
        if (s->stop > s->end) s->stop = s->end;
    }
    /* the sample at the end time, unless the window's end took it */
    if ((rc == EXIT_OK || rc == EXIT_DEADLOCK) && !s->window_ended) end_sample(s, !(s->parts && s->parts->comm));
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
            s->unfinished = 1;
            rc = EXIT_DEADLOCK;
        }
    }
    return rc;
}

int sim_drain(sim_t *s, simtime_t extra)
{
    transport_sync(s, s->end);   /* no generation after this: take what was generated */
    for (uint32_t n = 0; n < s->nnodes; n++) s->nic[n].next_gen = SIMTIME_MAX;
    s->drain_target = UINT64_MAX;   /* never met: runs its full length, in parts too (src/sim/parts.h, parts_drain) */
    s->drain_met = 0;
    s->end = s->now + extra;
    return loop(s);
}
