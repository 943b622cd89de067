/* time.parts over the ranks of an MPI job (mpirun -np R icnsim run ...).
 *
 * Every rank sets up the whole network and runs the parts dealt to it
 * (part_rank: consecutive parts together), in turns, window after window as
 * parts.c does. Only the ranks' own entries of the network's arrays change;
 * the others stay as set up. After each window the events for another
 * rank's parts travel as bytes: a credit as it is, a head's arrival with its
 * packet's record (routing state, times, and the optional per-packet
 * arrays), which the receiving rank copies into a record of its own while
 * the sender frees its. The next window starts at the earliest event of all
 * ranks (one all-reduce, which also carries a failure); the samples, which
 * read counts of the whole network, see the packets in flight summed over
 * the ranks. At the end rank 0 adds every rank's statistics, views and
 * per-node counts to its own, and writes the results alone.
 *
 * The results are those of the canonical sequential run, byte for byte
 * (tests/scripts/mpi.sh): packet record ids differ, and nothing depends on
 * them. */
#include "parts.h"
#include "../core/util.h"
#include "../net/link.h"
#include "../stats/stats.h"
#include "../stats/views.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wire { simtime_t t; uint32_t type, a, b, pad; } wire_t;

/* ---- messages of several packets ----
 * A message's packets carry its key (source node, the source's count) and
 * its number of packets. Only the rank that runs the destination keeps a
 * record that counts them down: the source's rank for a message to one of
 * its own nodes, else one made when the first of them arrives. The map
 * finds it again when a packet comes back after passing through another
 * rank; an entry whose record has been freed (key cleared) is stale. */

void ranks_messages_setup(sim_t *s, struct parts *P)
{
    if (s->npkt_cap || s->nmsg_cap) die("time.parts over MPI ranks: messages set up after packet or message records were taken");
    s->want_pmsg = 1;
    s->msg_seq = xcalloc(s->nnodes, sizeof *s->msg_seq);
    s->node_here = xcalloc(s->nnodes, sizeof *s->node_here);
    for (uint32_t n = 0; n < s->nnodes; n++) s->node_here[n] = (uint8_t)part_mine(P, P->part_of[s->nswitches + n]);
}

static inline uint32_t mslot(uint64_t key, uint32_t cap) { return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1); }

static void map_put(sim_t *s, struct parts *P, uint64_t key, uint32_t rec);

/* The map rebuilt with its live entries, in a table of room enough. */
static void map_rebuild(sim_t *s, struct parts *P)
{
    uint64_t *k = P->mkey;
    uint32_t *r = P->mrec, cap = P->mcap, live = 0;
    for (uint32_t i = 0; i < cap; i++) live += k[i] != MSG_NO_KEY && s->msg_key[r[i]] == k[i];
    P->mcap = 1024;
    while (P->mcap < 4 * live) P->mcap *= 2;
    P->mkey = xmalloc(P->mcap * sizeof *P->mkey);
    P->mrec = xmalloc(P->mcap * sizeof *P->mrec);
    memset(P->mkey, 0xff, P->mcap * sizeof *P->mkey);
    P->mn = 0;
    for (uint32_t i = 0; i < cap; i++)
        if (k[i] != MSG_NO_KEY && s->msg_key[r[i]] == k[i]) map_put(s, P, k[i], r[i]);
    free(k);
    free(r);
}

static void map_put(sim_t *s, struct parts *P, uint64_t key, uint32_t rec)
{
    if (2 * (P->mn + 1) > P->mcap) map_rebuild(s, P);
    uint32_t i = mslot(key, P->mcap);
    while (P->mkey[i] != MSG_NO_KEY && P->mkey[i] != key) i = (i + 1) & (P->mcap - 1);
    if (P->mkey[i] == MSG_NO_KEY) P->mn++;
    P->mkey[i] = key;
    P->mrec[i] = rec;
}

/* This rank's live record of message key, or ICN_NIL. */
static uint32_t map_get(const sim_t *s, const struct parts *P, uint64_t key)
{
    if (!P->mcap) return ICN_NIL;
    for (uint32_t i = mslot(key, P->mcap); P->mkey[i] != MSG_NO_KEY; i = (i + 1) & (P->mcap - 1))
        if (P->mkey[i] == key) return s->msg_key[P->mrec[i]] == key ? P->mrec[i] : ICN_NIL;
    return ICN_NIL;
}

/* A head's packet record into bytes, freed here. */
static void put_packet(sim_t *s, bytebuf_t *o, uint32_t id)
{
    bb_put(o, &s->pkt[id], sizeof *s->pkt);
    bb_put(o, &s->ptime[id], sizeof *s->ptime);
    if (s->want_parr) bb_put(o, &s->parr[id], sizeof *s->parr);
    if (s->want_proute) bb_put(o, &s->proute[id], sizeof *s->proute);
    if (s->pext_size) bb_put(o, s->pext + (size_t)id * s->pext_size, s->pext_size);
    if (s->want_pmsg) {
        bb_put(o, &s->pmsg_key[id], sizeof *s->pmsg_key);
        bb_put(o, &s->pmsg_npk[id], sizeof *s->pmsg_npk);
        uint32_t m = s->pkt[id].msg;   /* a record of this rank's: found again if the packet comes back */
        if (m != ICN_NIL) map_put(s, s->parts, s->pmsg_key[id], m);
    }
    pkt_release(s, id);
}

/* ... and from bytes into a new record of this rank. */
static uint32_t take_packet(sim_t *s, bytecur_t *c)
{
    static const char what[] = "time.parts over MPI ranks: a window's events";
    uint32_t i = pkt_alloc(s);
    bc_get(c, &s->pkt[i], sizeof *s->pkt, what);
    bc_get(c, &s->ptime[i], sizeof *s->ptime, what);
    if (s->want_parr) bc_get(c, &s->parr[i], sizeof *s->parr, what);
    if (s->want_proute) bc_get(c, &s->proute[i], sizeof *s->proute, what);
    if (s->pext_size) bc_get(c, s->pext + (size_t)i * s->pext_size, s->pext_size, what);
    if (s->want_pmsg) {
        bc_get(c, &s->pmsg_key[i], sizeof *s->pmsg_key, what);
        bc_get(c, &s->pmsg_npk[i], sizeof *s->pmsg_npk, what);
        uint64_t key = s->pmsg_key[i];
        uint32_t m = ICN_NIL;
        if (key != MSG_NO_KEY && s->node_here[s->pkt[i].dst]) {   /* the destination counts the message here */
            m = map_get(s, s->parts, key);
            if (m == ICN_NIL) {
                m = nic_msg_alloc(s, s->pmsg_npk[i], s->ptime[i].gen);
                s->msg_key[m] = key;
                s->msg_npk[m] = s->pmsg_npk[i];
                map_put(s, s->parts, key, m);
            }
        }
        s->pkt[i].msg = m;
    }
    return i;
}

/* The window's events for other ranks' parts travel; every part's outbox is
 * then empty or for a part of this rank. */
static void exchange(sim_t *s, struct parts *P)
{
    const comm_t *c = P->comm;
    if (!P->send) P->send = xcalloc((size_t)c->size, sizeof *P->send);
    uint8_t **sp = xmalloc((size_t)c->size * sizeof *sp);
    uint64_t *slen = xcalloc((size_t)c->size * 2, sizeof *slen), *rlen = slen + c->size;
    for (uint32_t from = 0; from < P->n; from++)
        for (uint32_t to = 0; to < P->n; to++) {
            outbox_t *o = &P->out[(size_t)from * P->n + to];
            if (!o->n || part_mine(P, to)) continue;
            bytebuf_t *b = &P->send[part_rank(P, to)];
            for (uint32_t i = 0; i < o->n; i++) {
                const event_t *e = &o->e[i];
                wire_t w = { e->time, ev_type(e), e->a, e->b, 0 };
                /* a leaf keeps its nodes: only heads and credits cross, and only a head carries a record */
                if (w.type != EV_ARRIVE && w.type != EV_CREDIT) die("time.parts over MPI ranks: event type %u crosses ranks", w.type);
                bb_put(b, &w, sizeof w);
                if (w.type == EV_ARRIVE) put_packet(s, b, e->b);
            }
            o->n = 0;
        }
    for (int r = 0; r < c->size; r++) { sp[r] = P->send[r].p; slen[r] = P->send[r].n; }
    uint8_t *in;
    c->exchange(c, sp, slen, &in, rlen);
    bytecur_t cur = { in, in };
    for (int k = 0; k < c->size; k++) cur.end += rlen[k];
    while (cur.r < cur.end) {
        wire_t w;
        bc_get(&cur, &w, sizeof w, "time.parts over MPI ranks: a window's events");
        if (w.type == EV_ARRIVE) w.b = take_packet(s, &cur);
        uint32_t p = parts_owner(s, P, w.type, w.a, w.b);
        if (p >= P->n || !part_mine(P, p)) die("time.parts over MPI ranks: rank %d received an event for part %u", c->rank, p);
        evq_push(P->ctx ? &P->ctx[p].evq : &P->q[p], w.t, w.type, w.a, w.b);
    }
    for (int k = 0; k < c->size; k++) P->send[k].n = 0;
    free(in);
    free(sp);
    free(slen);
}

/* The run's packets in flight and latest progress over all ranks. */
static void global_counts(sim_t *s, const comm_t *c, uint64_t *live)
{
    uint64_t progress = s->last_progress;
    *live = s->pkt_live;
    c->allreduce(c, live, 1, COMM_SUM);
    c->allreduce(c, &progress, 1, COMM_MAX);
    s->last_progress = progress;
}

/* Rank k's results into rank 0's: the statistics, the views, then 24 bytes
 * per node of rank k. */
static void add_rank(int k, const uint8_t *b, uint64_t n, void *arg)
{
    sim_t *s = arg;
    struct parts *P = s->parts;
    bytecur_t cur = { b, b + n };
    stats_add_packed(&s->st, &cur);
    views_merge(s, &cur);
    for (uint32_t v = 0; v < s->nnodes; v++) {
        if (part_rank(P, P->part_of[s->nswitches + v]) != k) continue;
        uint64_t x[3];
        bc_get(&cur, x, sizeof x, "time.parts over MPI ranks: the node counts");
        s->nic[v].rx_bytes += x[0];
        s->nic[v].injected_pkts += x[1];
        s->nic[v].w_inj += (uint32_t)x[2];
    }
    if (cur.r != cur.end) die("time.parts over MPI ranks: rank %d sent more than its results", k);
}

/* Rank 0 adds every other rank's statistics, views and node counts. */
static void gather_results(sim_t *s, struct parts *P)
{
    const comm_t *c = P->comm;
    bytebuf_t b = { 0 };
    if (c->rank) {
        memset(s->st.ts_innet, 0, s->st.nbins * sizeof *s->st.ts_innet);   /* the samples' global counts: rank 0's */
        stats_pack(&s->st, &b);
        views_pack(s, &b);
        for (uint32_t n = 0; n < s->nnodes; n++) {
            if (!part_mine(P, P->part_of[s->nswitches + n])) continue;
            const nic_t *x = &s->nic[n];
            uint64_t v[3] = { x->rx_bytes, x->injected_pkts, x->w_inj };
            bb_put(&b, v, sizeof v);
        }
    }
    c->collect(c, b.p, b.n, add_rank, s);
    free(b.p);
}

/* The window's packets in, over every rank (time.drain). */
static uint64_t ranks_done(const sim_t *s, const struct parts *P)
{
    uint64_t done = parts_done_here(s, P);
    P->comm->allreduce(P->comm, &done, 1, COMM_SUM);
    return done;
}

int ranks_loop(sim_t *s)
{
    struct parts *P = s->parts;
    const comm_t *c = P->comm;
    int rc = EXIT_OK;
    if (P->threads > 1) parts_threads_start(s, P);
    for (;;) {
        /* the earliest event of all ranks, and the worst status (the minimum of its complement) */
        uint64_t v[2] = { SIMTIME_MAX, ~(uint64_t)(unsigned)rc };
        if (P->ctx) v[0] = parts_threads_next(P);
        else
            for (uint32_t p = P->lo; p < P->hi; p++)
                if (evq_top_time(&P->q[p]) < v[0]) v[0] = evq_top_time(&P->q[p]);
        c->allreduce(c, v, 2, COMM_MIN);
        rc = (int)(unsigned)~v[1];
        if (rc != EXIT_OK) break;
        simtime_t t = v[0], g = evq_top_time(&s->evq);
        if (g <= t) {   /* the samples first at their instant, with the counts of the whole network */
            if (g >= s->end) break;
            uint64_t live, events = s->st.events;
            if (P->ctx) parts_threads_live(s, P);
            uint32_t own = s->pkt_live;
            global_counts(s, c, &live);
            s->pkt_live = (uint32_t)live;
            rc = sim_run_until(s, g + 1);
            s->pkt_live = own;
            if (c->rank) s->st.events = events;   /* every rank handles the sample; rank 0 counts it */
            if (rc != EXIT_OK) break;   /* a deadlock: every rank sees it at once */
            if (parts_drain_at_stop(s, g)) parts_drain(s, ranks_done(s, P), g + 1);
            continue;
        }
        if (t >= s->end) break;
        P->limit = parts_window_end(s, t, g);
        if (P->ctx) rc = parts_threads_window(s, P);   /* the main thread's own parts timed inside */
        else {
            double t0 = wall_clock();
            for (uint32_t p = P->lo; p < P->hi && rc == EXIT_OK; p++) {
                parts_enter(s, P, p);
                rc = sim_run_until(s, P->limit);
                parts_leave(s, P, p);
            }
            P->busy += wall_clock() - t0;
        }
        exchange(s, P);
        if (P->ctx) parts_threads_flush(P);
        else parts_flush(P, P->q);
        P->windows++;
        if (parts_drain_in_window(s, P->limit)) parts_drain(s, ranks_done(s, P), P->limit);
    }
    if (P->ctx) parts_threads_stop(s, P);
    if (rc == EXIT_OK && !s->window_ended) sim_views_end_sample(s);   /* of this rank's switches, before they add up */
    gather_results(s, P);
    uint64_t live;
    global_counts(s, c, &live);   /* the end's checks, on every rank alike */
    s->pkt_live = (uint32_t)live;
    return rc;
}

int parts_report_deadlock(sim_t *s)
{
    if (!s->parts || !s->parts->comm) return 0;
    if (s->parts->comm->rank == 0)
        fprintf(stderr, "icnsim: deadlock at t = %.3f us: %u packets in the network, none moved for %.3f us (a run "
                "over MPI ranks cannot print the cycle: each rank holds its own parts; rerun without mpirun for the report)\n",
                s->now / 1e6, s->pkt_live, (s->now - s->last_progress) / 1e6);
    return 1;
}

void ranks_free(struct parts *P)
{
    free(P->mkey);
    free(P->mrec);
    P->mkey = NULL;
    P->mrec = NULL;
    if (!P->send) return;
    for (int r = 0; r < P->comm->size; r++) free(P->send[r].p);
    free(P->send);
    P->send = NULL;
}
