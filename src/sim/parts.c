/* time.parts = N: the network split into N parts (src/net/partition.c), each
 * with its own event queue, run window after window as a conservative
 * parallel run does, one part after another in this thread.
 *
 * A window starts at the earliest pending event T and lasts the lookahead,
 * the link delay: nothing one part does at time t reaches another before
 * t + link.delay (a head after the link and routing delays, a credit after
 * the link delay), so within [T, T + link.delay) the parts are independent
 * and each handles its own window alone. An event a part schedules for
 * another goes to that part's outbox, handed over once every part has
 * finished the window; it falls in a later window by the same argument (a
 * violation is an internal error, not a silent reordering). The samples,
 * which read the whole network, stay in the run's own queue and are handled
 * between windows, which end at them; the canonical order handles a sample
 * first at its instant, so the sequential run sees the same state.
 *
 * The drain (time.drain) ends at a barrier too: the parts' counts of the
 * measurement window's packets are summed between windows, and in the
 * canonical order a sequential run ends with the same window (src/sim/loop.c).
 *
 * With time.ties = canonical (required) the result is the sequential run's,
 * byte for byte, for any N: tests/test_parts.c.
 *
 * time.threads = T runs the parts' windows on T threads (each thread whole
 * parts). Every part then has a context of its own (a copy of the run's
 * sim_t): its queue, service list, statistics and free packet records, while
 * the network's arrays stay shared, each entry written only by the part that
 * owns its device. Between windows, in the main thread alone: the outboxes
 * are handed over, each part's free records are topped up to what it may
 * take in one window (a NIC starts at most one packet per serialization
 * time), and the samples run on the run's context with the parts' counts
 * summed. At the end every context is added back into the run's.
 *
 * Under mpirun (an MPI build), the parts are dealt to the ranks, each rank
 * running its own in turns: src/sim/ranks.c. */
#include "parts.h"
#include "../core/util.h"
#include "../net/link.h"
#include "../net/partition.h"
#include "../stats/stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const comm_t *run_comm;


void sim_use_comm(const comm_t *c) { run_comm = c; }
const comm_t *parts_comm(void) { return run_comm && run_comm->size > 1 ? run_comm : NULL; }

static inline uint32_t dev_part(const sim_t *s, const struct parts *P, uint32_t dev)
{
    return P->part_of[dev & NIC_BIT ? s->nswitches + (dev & ~NIC_BIT) : dev];
}

uint32_t parts_owner(const sim_t *s, const struct parts *P, unsigned type, uint32_t a, uint32_t b)
{
    switch (type) {
    case EV_ARRIVE: case EV_XDONE: return P->port_part[a];
    case EV_CREDIT: return P->port_part[a / s->nvc];
    case EV_DELIVER: return P->part_of[s->nswitches + b];
    case EV_NIC_WAKE: return P->part_of[s->nswitches + a];
    case EV_SAMPLE: case EV_STOP: return P->n;
    default: die("time.parts: event type %u has no owner", type);
    }
}

static void push(sim_t *s, simtime_t t, unsigned type, uint32_t a, uint32_t b)
{
    struct parts *P = s->parts;
    uint32_t q = parts_owner(s, P, type, a, b), from = s->part != UINT32_MAX ? s->part : P->cur;
    if (q == from) { evq_push(&s->evq, t, type, a, b); return; }
    if (q == P->n || from == P->n) {   /* between windows */
        evq_push(q < P->n && P->ctx ? &P->ctx[q].evq : &P->q[q], t, type, a, b);
        return;
    }
    if (t < P->limit)
        die("time.parts: part %u scheduled an event for part %u at t = %.6f us, inside the window that ends at %.6f us",
            from, q, t / 1e6, P->limit / 1e6);
    outbox_t *o = &P->out[(size_t)from * P->n + q];
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 256;
        o->e = xrealloc(o->e, o->cap * sizeof *o->e);
    }
    o->e[o->n++] = (event_t){ t, type, a, b };
}

void parts_enter(sim_t *s, struct parts *P, uint32_t p)
{
    evq_t own = s->evq;
    s->evq = P->q[p];
    P->q[P->n] = own;
    P->cur = p;
}

void parts_leave(sim_t *s, struct parts *P, uint32_t p)
{
    P->q[p] = s->evq;
    s->evq = P->q[P->n];
    P->cur = P->n;
}

void parts_setup(sim_t *s, uint32_t n, uint32_t threads)
{
    if (n < 2) return;
    struct parts *P = s->parts = xcalloc(1, sizeof *P);
    P->n = P->cur = n;
    P->threads = threads > 1 ? threads : 1;
    P->part_of = net_partition(s, n);
    P->port_part = xmalloc((size_t)s->nports * sizeof *P->port_part);
    for (uint32_t g = 0; g < s->nports; g++) P->port_part[g] = dev_part(s, P, s->port[g].dev);
    P->q = xcalloc((size_t)n + 1, sizeof *P->q);
    for (uint32_t p = 0; p < n; p++) evq_init(&P->q[p]);
    P->out = xcalloc((size_t)n * n, sizeof *P->out);
    P->window = s->link_delay;
    P->comm = parts_comm();
    P->check_every = s->check_every;   /* between windows only: a part's window sees only its own part */
    P->next_check = s->next_check;
    s->check_every = 0;
    P->lo = P->n;
    P->hi = 0;
    for (uint32_t p = 0; p < n; p++)
        if (part_mine(P, p)) { P->lo = p < P->lo ? p : P->lo; P->hi = p + 1; }
    s->hooks.push = push;
    /* what set-up scheduled goes to its owners' queues */
    evq_t all = s->evq;
    evq_init(&s->evq);
    event_t e;
    while (evq_pop(&all, &e)) push(s, e.time, ev_type(&e), e.a, e.b);
    evq_free(&all);
    /* over MPI ranks every rank sets up the whole network; it keeps the events of its own parts */
    for (uint32_t p = 0; p < n; p++)
        if (!part_mine(P, p)) { evq_free(&P->q[p]); evq_init(&P->q[p]); }
    if (P->comm && (s->msg_size > s->mtu || s->msg_long > s->mtu)) ranks_messages_setup(s, P);
}

void parts_free(sim_t *s)
{
    struct parts *P = s->parts;
    if (!P) return;
    for (uint32_t p = 0; p < P->n; p++) evq_free(&P->q[p]);
    for (size_t i = 0; i < (size_t)P->n * P->n; i++) free(P->out[i].e);
    free(P->q);
    free(P->out);
    free(P->part_of);
    free(P->port_part);
    ranks_free(P);
    free(P);
    s->parts = NULL;
}

void parts_flush(struct parts *P, evq_t *queues)
{
    for (uint32_t to = 0; to < P->n; to++)
        for (uint32_t from = 0; from < P->n; from++) {
            outbox_t *o = &P->out[(size_t)from * P->n + to];
            for (uint32_t i = 0; i < o->n; i++) evq_push(&queues[to], o->e[i].time, ev_type(&o->e[i]), o->e[i].a, o->e[i].b);
            o->n = 0;
        }
}

/* check.invariants, between windows and after the samples (so a quiet
 * network is checked too), at time `at`: the whole network's invariants
 * over every part's queue, with the parts' counts (from their contexts on
 * threads). */
static int barrier_check(sim_t *s, struct parts *P, simtime_t at)
{
    uint64_t events = s->st.events;
    stats_t sum = s->st;   /* the counts the check reads, summed over the contexts */
    if (P->ctx) {
        parts_threads_live(s, P);
        for (uint32_t p = 0; p < P->n; p++) {
            const stats_t *c = &P->ctx[p].st;
            events += c->events;
            sum.inj_pkts += c->inj_pkts;
            sum.del_pkts += c->del_pkts;
            sum.gen_pkts += c->gen_pkts;
        }
    }
    if (events < P->next_check) return 0;
    P->next_check = events + P->check_every;
    evq_t *qs = xmalloc(((size_t)P->n + 1) * sizeof *qs);
    for (uint32_t p = 0; p < P->n; p++) qs[p] = P->ctx ? P->ctx[p].evq : P->q[p];
    qs[P->n] = s->evq;
    int bad = sim_check_invariants_of(s, 0, qs, P->n + 1, s->pkt_live, &sum);
    free(qs);
    if (!bad) return 0;
    fprintf(stderr, "icnsim: internal error: an invariant broke (above) at t = %.6f us, between windows, after %llu events\n",
            at / 1e6, (unsigned long long)events);
    return 1;
}

static int threaded_loop(sim_t *s);

static int turns_loop(sim_t *s);

int parts_loop(sim_t *s)
{
    struct parts *P = s->parts;
    double t0 = wall_clock();
    P->busy = 0;
    int rc = P->comm ? ranks_loop(s) : P->threads > 1 ? threaded_loop(s) : turns_loop(s);
    s->windows = P->windows;
    s->window_wait_s = P->comm || P->threads > 1 ? wall_clock() - t0 - P->busy : 0;
    return rc;
}

/* The parts in turns, in this thread. */
static int turns_loop(sim_t *s)
{
    struct parts *P = s->parts;
    for (;;) {
        simtime_t t = SIMTIME_MAX, g = evq_top_time(&s->evq);
        for (uint32_t p = 0; p < P->n; p++) {
            simtime_t x = evq_top_time(&P->q[p]);
            if (x < t) t = x;
        }
        if (g <= t) {   /* the run's own events (samples, the window's end) first at their instant */
            if (g >= s->end) return EXIT_OK;
            int rc = sim_run_until(s, g + 1);
            if (rc != EXIT_OK) return rc;
            if (parts_drain_at_stop(s, g)) parts_drain(s, parts_done_here(s, P), g + 1);
            if (P->check_every && barrier_check(s, P, g)) return EXIT_INTERNAL;
            continue;
        }
        if (t >= s->end) return EXIT_OK;
        P->limit = parts_window_end(s, t, g);
        for (uint32_t p = 0; p < P->n; p++) {
            parts_enter(s, P, p);
            int rc = sim_run_until(s, P->limit);
            parts_leave(s, P, p);
            if (rc != EXIT_OK) return rc;
        }
        parts_flush(P, P->q);
        P->windows++;
        if (parts_drain_in_window(s, P->limit)) parts_drain(s, parts_done_here(s, P), P->limit);
        if (P->check_every && barrier_check(s, P, P->limit)) return EXIT_INTERNAL;
    }
}

/* ---- time.threads ---- */

static void run_parts(struct parts *P, uint32_t k)
{
    for (uint32_t p = P->lo + k; p < P->hi; p += P->threads) P->rc[p] = sim_run_until(&P->ctx[p], P->limit);
}

/* The main thread's own parts, timed: the rest of its loop is the waiting. */
static void run_own_parts(struct parts *P)
{
    double t0 = wall_clock();
    run_parts(P, 0);
    P->busy += wall_clock() - t0;
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    struct parts *P = w->P;
    for (;;) {
        barrier_wait(&P->start);
        if (P->stop) return NULL;
        run_parts(P, w->k);
        barrier_wait(&P->done);
    }
}

/* The run's pool arrays, after the main thread grew them, in a context. */
static void share_pool(const sim_t *s, sim_t *c)
{
    c->pkt = s->pkt; c->ptime = s->ptime; c->parr = s->parr; c->proute = s->proute; c->pext = s->pext;
    c->npkt_cap = s->npkt_cap;
    c->msg_left = s->msg_left; c->msg_gen = s->msg_gen; c->nmsg_cap = s->nmsg_cap;
    c->pmsg_key = s->pmsg_key; c->pmsg_npk = s->pmsg_npk; c->msg_key = s->msg_key; c->msg_npk = s->msg_npk;
}

/* Each part gets the free records it may take in one window; a large
 * surplus (a part that receives more than it sends) goes back to the run. */
static void top_up(sim_t *s, struct parts *P)
{
    for (uint32_t p = P->lo; p < P->hi; p++) {
        sim_t *c = &P->ctx[p];
        share_pool(s, c);   /* a context before it may have grown them */
        while (c->pkt_nfree < P->need[p]) {
            uint32_t id = pkt_alloc(s);   /* grows the run's pool if it must */
            s->pkt_live--;
            c->pkt = s->pkt;
            pkt_release(c, id);
            c->pkt_live++;
        }
        while (c->pkt_nfree > 4 * P->need[p] + 64) {
            uint32_t id = pkt_alloc(c);
            c->pkt_live--;
            pkt_release(s, id);
            s->pkt_live++;
        }
        if (!P->msgs) continue;
        /* message records likewise: a NIC takes one with a message's first packet (nic_make_packet) */
        while (c->msg_nfree < P->need[p]) {
            uint32_t id = nic_msg_alloc(s, 0, 0);   /* grows the run's arrays if it must */
            c->msg_left = s->msg_left;
            nic_msg_release(c, id);
        }
        while (c->msg_nfree > 4 * P->need[p] + 64) nic_msg_release(s, nic_msg_alloc(c, 0, 0));
    }
    for (uint32_t p = 0; p < P->n; p++) share_pool(s, &P->ctx[p]);
}

static void contexts_begin(sim_t *s, struct parts *P)
{
    P->ctx = xcalloc(P->n, sizeof *P->ctx);
    P->need = xcalloc(P->n, sizeof *P->need);
    P->rc = xcalloc(P->n, sizeof *P->rc);
    /* Packets a NIC may start in one window. A message's first packet is at
     * least m0 bytes (a full packet, or a whole one-packet message); only a
     * message's last packet can be shorter (its remainder), and the next
     * packet is another message's first: at most one short packet after each
     * of at least m0, hence twice their number, plus one. */
    uint32_t m0 = s->msg_size < s->mtu ? s->msg_size : s->mtu;
    if (s->msg_long && s->msg_long < m0) m0 = s->msg_long;
    simtime_t ser = ser_time(s, m0 ? m0 : 1);
    uint32_t per_nic = (uint32_t)(P->window / (ser ? ser : 1)) + 2;
    if ((s->msg_size > s->mtu && s->msg_size % s->mtu) || (s->msg_long > s->mtu && s->msg_long % s->mtu)) per_nic = 2 * per_nic + 1;
    for (uint32_t n = 0; n < s->nnodes; n++) P->need[P->part_of[s->nswitches + n]] += per_nic;
    size_t ndev = (size_t)s->nswitches + s->nnodes;
    for (uint32_t p = 0; p < P->n; p++) {
        sim_t *c = &P->ctx[p];
        *c = *s;
        c->part = p;
        c->evq = P->q[p];
        memset(&P->q[p], 0, sizeof P->q[p]);
        c->pend = xmalloc(ndev * sizeof *c->pend);
        c->npend = 0;
        c->pend_bits = s->pend_bits ? xcalloc((ndev + 63) / 64, sizeof *c->pend_bits) : NULL;
        c->inst = NULL; c->inst_key = c->inst_tmp = NULL; c->inst_cap = 0;
        stats_init(&c->st, s->st.interval, s->st.tend);
        if (s->st.ts_net_sum) stats_latency_series(&c->st);
        c->pkt_free = ICN_NIL; c->pkt_nfree = 0; c->pkt_live = 0;
        c->msg_free = ICN_NIL; c->msg_nfree = 0;
        c->deadlocked = 0; c->instant_events = 0;
    }
    P->base_live = s->pkt_live;
    P->msgs = s->msg_size > s->mtu || s->msg_long > s->mtu;
}

uint64_t parts_done_here(const sim_t *s, const struct parts *P)
{
    uint64_t done = s->st.w_lat_pkts + s->st.w_src_drops;
    if (!P->ctx) return done;
    for (uint32_t p = 0; p < P->n; p++) done += P->ctx[p].st.w_lat_pkts + P->ctx[p].st.w_src_drops;
    return done;
}

void parts_threads_live(sim_t *s, struct parts *P)
{
    uint32_t live = P->base_live;
    for (uint32_t p = 0; p < P->n; p++) {
        live += P->ctx[p].pkt_live;   /* a part's own count may wrap: it delivers what others sent */
        if (P->ctx[p].last_progress > s->last_progress) s->last_progress = P->ctx[p].last_progress;
    }
    s->pkt_live = live;
}

static void contexts_end(sim_t *s, struct parts *P)
{
    parts_threads_live(s, P);
    for (uint32_t p = 0; p < P->n; p++) {
        sim_t *c = &P->ctx[p];
        share_pool(s, c);   /* over MPI ranks the last exchange may have grown the pools */
        P->q[p] = c->evq;
        stats_add(&s->st, &c->st);
        while (c->pkt_free != ICN_NIL) {   /* the part's free records back to the run (counts unchanged) */
            uint32_t id = pkt_alloc(c);
            pkt_release(s, id);
            s->pkt_live++;
        }
        while (c->msg_free != ICN_NIL) nic_msg_release(s, nic_msg_alloc(c, 0, 0));
        free(c->pend); free(c->pend_bits); free(c->inst); free(c->inst_key); free(c->inst_tmp);
        stats_free(&c->st);
    }
    free(P->ctx); free(P->need); free(P->rc);
    P->ctx = NULL;
}

void parts_threads_start(sim_t *s, struct parts *P)
{
    contexts_begin(s, P);
    barrier_init(&P->start, P->threads);
    barrier_init(&P->done, P->threads);
    P->stop = 0;
    P->tid = xcalloc(P->threads, sizeof *P->tid);
    P->workers = xcalloc(P->threads, sizeof *P->workers);
    for (uint32_t k = 1; k < P->threads; k++) {
        P->workers[k] = (worker_t){ P, k };
        if (pthread_create(&P->tid[k], NULL, worker_main, &P->workers[k])) die("time.threads: cannot start thread %u", k);
    }
    P->queues = xcalloc(P->n, sizeof *P->queues);
}

void parts_threads_stop(sim_t *s, struct parts *P)
{
    P->stop = 1;
    barrier_wait(&P->start);
    for (uint32_t k = 1; k < P->threads; k++) pthread_join(P->tid[k], NULL);
    free(P->tid); free(P->workers); free(P->queues);
    P->tid = NULL; P->workers = NULL; P->queues = NULL;
    contexts_end(s, P);
}

simtime_t parts_threads_next(const struct parts *P)
{
    simtime_t t = SIMTIME_MAX;
    for (uint32_t p = P->lo; p < P->hi; p++) {
        simtime_t x = evq_top_time(&P->ctx[p].evq);
        if (x < t) t = x;
    }
    return t;
}

int parts_threads_window(sim_t *s, struct parts *P)
{
    top_up(s, P);
    barrier_wait(&P->start);
    run_own_parts(P);
    barrier_wait(&P->done);
    int rc = EXIT_OK;
    for (uint32_t p = P->lo; p < P->hi && rc == EXIT_OK; p++) rc = P->rc[p];
    return rc;
}

void parts_threads_flush(struct parts *P)
{
    for (uint32_t p = 0; p < P->n; p++) P->queues[p] = P->ctx[p].evq;
    parts_flush(P, P->queues);
    for (uint32_t p = 0; p < P->n; p++) P->ctx[p].evq = P->queues[p];
}

static int threaded_loop(sim_t *s)
{
    struct parts *P = s->parts;
    parts_threads_start(s, P);
    int rc = EXIT_OK;
    for (;;) {
        simtime_t t = parts_threads_next(P), g = evq_top_time(&s->evq);
        if (g <= t) {   /* the samples first at their instant, on the run's context */
            if (g >= s->end) break;
            parts_threads_live(s, P);
            rc = sim_run_until(s, g + 1);
            if (rc != EXIT_OK) break;
            if (parts_drain_at_stop(s, g)) parts_drain(s, parts_done_here(s, P), g + 1);
            if (P->check_every && barrier_check(s, P, g)) { rc = EXIT_INTERNAL; break; }
            continue;
        }
        if (t >= s->end) break;
        P->limit = parts_window_end(s, t, g);
        if ((rc = parts_threads_window(s, P)) != EXIT_OK) break;
        parts_threads_flush(P);
        P->windows++;
        if (parts_drain_in_window(s, P->limit)) parts_drain(s, parts_done_here(s, P), P->limit);
        if (P->check_every && barrier_check(s, P, P->limit)) { rc = EXIT_INTERNAL; break; }
    }
    parts_threads_stop(s, P);
    return rc;
}
