/* The closed-loop engine: ranks step through their operations, their sends
 * become messages of their nodes' NICs (the take hook), and deliveries and
 * injections wake the ranks that wait for them. See workload.h for the
 * semantics. A rank blocks on one operation at a time; everything it posted
 * and has not waited for is a request on its lists. */
#include "workload.h"
#include "internal.h"
#include "../net/link.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

/* ---- pools ---- */

static uint32_t msg_new(wl_t *w)
{
    POOL_RESERVE(w->msg, w->nmsg, w->msg_free, wmsg_t);
    uint32_t m = w->msg_free;
    w->msg_free = w->msg[m].next;
    w->msg[m].next = ICN_NIL;
    return m;
}

static void msg_del(wl_t *w, uint32_t m)
{
    w->msg[m].next = w->msg_free;
    w->msg_free = m;
}

static uint32_t req_new(wl_t *w)
{
    POOL_RESERVE(w->req, w->nreq, w->req_free, wreq_t);
    uint32_t q = w->req_free;
    w->req_free = w->req[q].next;
    w->req[q].next = ICN_NIL;
    return q;
}

/* Append x to the list (head, tail) of pool records linked by .link (.next). */
#define LIST_APPEND_BY(pool, head, tail, x, link)              \
    do {                                                       \
        if ((tail) == ICN_NIL) (head) = (x);                   \
        else (pool)[tail].link = (x);                          \
        (tail) = (x);                                          \
    } while (0)
#define LIST_APPEND(pool, head, tail, x) LIST_APPEND_BY(pool, head, tail, x, next)

static inline int matches(uint32_t want_src, uint32_t want_tag, uint32_t src, uint32_t tag)
{
    return (want_src == WL_ANY || want_src == src) && (want_tag == WL_ANY || want_tag == tag);
}

/* ---- progress ---- */

static void advance(sim_t *s, uint32_t r);
static void unlist(wl_t *w, wrank_t *k, uint32_t q);
static void sweep_done(wl_t *w, wrank_t *k, int step);

static void block(sim_t *s, wrank_t *k, uint8_t state)
{
    k->state = state;
    k->since = s->now;
}

static void unblock(sim_t *s, uint32_t r)
{
    wl_t *w = s->wl;
    wrank_t *k = &w->rank[r];
    k->comm += s->now - k->since;
    k->state = RS_RUN;
    advance(s, r);
}

/* A request or send of rank r's collective step completed: the step may end. */
static void step_part_done(sim_t *s, uint32_t r)
{
    wl_t *w = s->wl;
    wrank_t *k = &w->rank[r];
    if (--k->step_pending || k->state != RS_WAITSTEP) return;
    sweep_done(w, k, 1);
    unblock(s, r);
}

/* The application can make no more progress: nothing computes, nothing is in
 * flight, and some rank waits. */
static void check_stuck(sim_t *s)
{
    wl_t *w = s->wl;
    if (w->starting || w->computing || w->inflight || w->done == w->nranks) return;
    w->stuck = 1;
    if (s->end > s->now) s->end = s->now;
}

/* ---- a rank's posted receives: a list in posting order (what waits
 * search), and within it the open list of those not yet done (what an
 * arriving message is matched against), both doubly linked so that taking
 * a request out costs nothing however many are posted ---- */

static void req_done(wl_t *w, wrank_t *k, uint32_t q)
{
    wreq_t *rq = &w->req[q];
    rq->done = 1;
    if (rq->oprev == ICN_NIL) k->open = rq->onext;
    else w->req[rq->oprev].onext = rq->onext;
    if (rq->onext == ICN_NIL) k->open_tail = rq->oprev;
    else w->req[rq->onext].oprev = rq->oprev;
}

/* Done request q leaves the posted list (its wait is over). */
static void unlist(wl_t *w, wrank_t *k, uint32_t q)
{
    wreq_t *rq = &w->req[q];
    if (rq->prev == ICN_NIL) k->posted = rq->next;
    else w->req[rq->prev].next = rq->next;
    if (rq->next == ICN_NIL) k->posted_tail = rq->prev;
    else w->req[rq->next].prev = rq->prev;
    rq->next = w->req_free;
    w->req_free = q;
}

/* Message m (from rank src) arrives at rank r: complete the first matching
 * posted receive, or keep it as unexpected. */
static void arrive(sim_t *s, uint32_t r, uint32_t m)
{
    wl_t *w = s->wl;
    wrank_t *k = &w->rank[r];
    const wmsg_t *g = &w->msg[m];
    for (uint32_t q = k->open; q != ICN_NIL; q = w->req[q].onext) {
        wreq_t *rq = &w->req[q];
        if (!matches(rq->src, rq->tag, g->src, g->tag)) continue;
        req_done(w, k, q);
        w->rx_bytes += g->bytes;
        msg_del(w, m);
        if (rq->step) { step_part_done(s, r); return; }
        if ((k->state == RS_RECV || k->state == RS_WAIT) && k->wait_req == q) {
            if (k->state == RS_RECV) k->pending--;   /* a WAIT took its request off pending when it blocked */
            unlist(w, k, q);
            unblock(s, r);
        } else {
            k->pending--;
            if (k->state == RS_WAITALL && !k->pending) { sweep_done(w, k, 0); unblock(s, r); }
        }
        return;
    }
    w->msg[m].next = ICN_NIL;
    LIST_APPEND(w->msg, k->ux_head, k->ux_tail, m);
}

/* ---- the order of one source's messages with one tag (wseq_t) ---- */

static inline uint32_t seq_slot(uint32_t src, uint32_t tag, uint32_t cap)
{
    return (src * 2654435761u ^ tag * 0x85ebca6bu) & (cap - 1);
}

static uint32_t seq_find(const wrank_t *k, uint32_t src, uint32_t tag)
{
    for (uint32_t i = k->seq_cap ? seq_slot(src, tag, k->seq_cap) : 0; k->seq_cap; i = (i + 1) & (k->seq_cap - 1)) {
        if (!k->seq[i].sent) return ICN_NIL;
        if (k->seq[i].src == src && k->seq[i].tag == tag) return i;
    }
    return ICN_NIL;
}

static void seq_put(wrank_t *k, wseq_t e)
{
    uint32_t i = seq_slot(e.src, e.tag, k->seq_cap);
    while (k->seq[i].sent) i = (i + 1) & (k->seq_cap - 1);
    k->seq[i] = e;
}

/* The next number of a message from src to rank k with tag. */
static uint32_t seq_next(wrank_t *k, uint32_t src, uint32_t tag)
{
    uint32_t i = seq_find(k, src, tag);
    if (i != ICN_NIL) return k->seq[i].sent++;
    if (2 * (k->seq_n + 1) > k->seq_cap) {
        wseq_t *old = k->seq;
        uint32_t oc = k->seq_cap;
        k->seq_cap = oc ? 2 * oc : 8;
        k->seq = xcalloc(k->seq_cap, sizeof *k->seq);
        for (uint32_t j = 0; j < oc; j++)
            if (old[j].sent) seq_put(k, old[j]);
        free(old);
    }
    k->seq_n++;
    seq_put(k, (wseq_t){ src, tag, 1, 0 });
    return 0;
}

/* Remove slot i, then put back the rest of its cluster (linear probing). */
static void seq_del(wrank_t *k, uint32_t i)
{
    uint32_t m = k->seq_cap - 1;
    k->seq[i].sent = 0;
    k->seq_n--;
    for (uint32_t j = (i + 1) & m; k->seq[j].sent; j = (j + 1) & m) {
        wseq_t e = k->seq[j];
        k->seq[j].sent = 0;
        seq_put(k, e);
    }
}

/* Message m reached its rank: it arrives (arrive()) in its order among its
 * source's messages with its tag, and so do those it held back. */
static void deliver(sim_t *s, uint32_t m)
{
    wl_t *w = s->wl;
    const uint32_t r = w->msg[m].dst, src = w->msg[m].src, tag = w->msg[m].tag;
    wrank_t *k = &w->rank[r];
    uint32_t i = seq_find(k, src, tag);
    if (w->msg[m].seq != k->seq[i].recvd) {   /* an earlier one is still on its way */
        w->msg[m].next = k->held;
        k->held = m;
        return;
    }
    for (;;) {
        uint32_t next = ++k->seq[i].recvd;
        int last = next == k->seq[i].sent;
        if (last) seq_del(k, i);
        arrive(s, r, m);
        if (last) return;
        i = seq_find(k, src, tag);   /* arrive may have let the rank send to itself, growing the table */
        uint32_t *p = &k->held;
        while (*p != ICN_NIL && !(w->msg[*p].src == src && w->msg[*p].tag == tag && w->msg[*p].seq == next)) p = &w->msg[*p].next;
        if (*p == ICN_NIL) return;
        m = *p;
        *p = w->msg[m].next;
    }
}

/* Post a receive: an unexpected message may complete it at once. Returns
 * the request (done or not). */
static uint32_t post_recv(wl_t *w, uint32_t r, uint32_t src, uint32_t tag, int step)
{
    wrank_t *k = &w->rank[r];
    uint32_t q = req_new(w);
    w->req[q] = (wreq_t){ src, tag, ICN_NIL, k->posted_tail, ICN_NIL, ICN_NIL, 0, (uint8_t)step };
    for (uint32_t m = k->ux_head, prev = ICN_NIL; m != ICN_NIL; prev = m, m = w->msg[m].next) {
        if (!matches(src, tag, w->msg[m].src, w->msg[m].tag)) continue;
        if (prev == ICN_NIL) k->ux_head = w->msg[m].next;
        else w->msg[prev].next = w->msg[m].next;
        if (k->ux_tail == m) k->ux_tail = prev;
        w->rx_bytes += w->msg[m].bytes;
        msg_del(w, m);
        w->req[q].done = 1;
        break;
    }
    if (!w->req[q].done) {
        if (step) k->step_pending++;
        else k->pending++;
        w->req[q].oprev = k->open_tail;
        LIST_APPEND_BY(w->req, k->open, k->open_tail, q, onext);
    }
    /* posted receives stay listed (in order) until waited for */
    LIST_APPEND(w->req, k->posted, k->posted_tail, q);
    return q;
}

/* Rank r sends bytes to rank `to`: a message of its node (or, to itself, an
 * immediate delivery). */
static void post_send(sim_t *s, uint32_t r, uint32_t to, uint32_t tag, uint64_t bytes, int blocking, int step)
{
    wl_t *w = s->wl;
    uint32_t m = msg_new(w);
    w->msg[m] = (wmsg_t){ r, to, tag, ICN_NIL, bytes, (uint8_t)blocking, (uint8_t)step, seq_next(&w->rank[to], r, tag) };
    w->sent_msgs++;
    if (to == r) { deliver(s, m); return; }
    uint32_t n = w->rank[r].node;
    wnode_t *nd = &w->node[n];
    LIST_APPEND(w->msg, nd->head, nd->tail, m);
    w->inflight++;
    if (s->nic[n].next_gen == SIMTIME_MAX) s->nic[n].next_gen = s->now;
    sim_touch_nic(s, n);
}

static void advance(sim_t *s, uint32_t r)
{
    wl_t *w = s->wl;
    wrank_t *k = &w->rank[r];
    while (k->state == RS_RUN) {
        wop_t op;
        w->src->next(w->src_state, r, &op);
        if (op.kind != OP_END) k->ops++;
        switch (op.kind) {
        case OP_COMPUTE:
            if (!op.arg) break;   /* shorter than a picosecond: nothing to wait for */
            k->state = RS_COMPUTE;
            k->since = s->now;
            w->computing++;
            evq_push(&s->evq, s->now + op.arg, EV_WL_WAKE, r, 0);
            return;
        case OP_SEND:
        case OP_ISEND:
        case OP_STEP_ISEND:
            if (op.peer >= w->nranks) die("workload: rank %u sends to rank %u of %u", r, op.peer, w->nranks);
            if (op.kind == OP_SEND && op.peer != r) { k->wait_peer = op.peer; k->wait_tag = op.tag; block(s, k, RS_SEND); }
            else if (op.peer != r && op.kind == OP_STEP_ISEND) k->step_pending++;
            else if (op.peer != r) k->pending++;
            post_send(s, r, op.peer, op.tag, op.arg, op.kind == OP_SEND, op.kind == OP_STEP_ISEND);
            break;
        case OP_RECV: {
            uint32_t q = post_recv(w, r, op.peer, op.tag, 0);
            if (w->req[q].done) unlist(w, k, q);
            else { k->wait_req = q; k->wait_peer = op.peer; k->wait_tag = op.tag; block(s, k, RS_RECV); }
            break;
        }
        case OP_IRECV:
        case OP_STEP_IRECV:
            post_recv(w, r, op.peer, op.tag, op.kind == OP_STEP_IRECV);
            break;
        case OP_WAIT: {
            uint32_t q = k->posted;
            while (q != ICN_NIL && !(w->req[q].src == op.peer && w->req[q].tag == op.tag)) q = w->req[q].next;
            if (q == ICN_NIL) die("workload: rank %u waits for a receive from %u tag %u it never posted", r, op.peer, op.tag);
            if (w->req[q].done) unlist(w, k, q);
            else { k->wait_req = q; k->wait_peer = op.peer; k->wait_tag = op.tag; k->pending--; block(s, k, RS_WAIT); }
            break;
        }
        case OP_WAITALL:
            if (k->pending) { k->wait_peer = k->wait_tag = WL_ANY; block(s, k, RS_WAITALL); }
            else sweep_done(w, k, 0);
            break;
        case OP_WAITSTEP:
            if (k->step_pending) block(s, k, RS_WAITSTEP);
            else sweep_done(w, k, 1);
            break;
        default:   /* OP_END */
            k->state = RS_DONE;
            k->finish = s->now;
            if (++w->done == w->nranks) {
                w->makespan = s->now;
                if (s->end > s->now) s->end = s->now;   /* the run ends with the application */
            }
            check_stuck(s);   /* the others may wait for it in vain */
            return;
        }
        if (k->state == RS_RUN) continue;
        check_stuck(s);   /* blocked: on a message in flight, a rank that computes, or nothing */
        return;
    }
}

/* Done requests of a rank that waited for all of them (step = 0: its own;
 * 1: its collective step's): drop them. The others' stay for their waits. */
static void sweep_done(wl_t *w, wrank_t *k, int step)
{
    for (uint32_t q = k->posted, nx; q != ICN_NIL; q = nx) {
        nx = w->req[q].next;
        if (w->req[q].done && w->req[q].step == step) unlist(w, k, q);
    }
}

void wl_timer(sim_t *s, uint32_t r)
{
    wl_t *w = s->wl;
    w->computing--;
    w->rank[r].compute += s->now - w->rank[r].since;
    w->rank[r].state = RS_RUN;
    advance(s, r);
}

/* ---- NIC hooks ---- */

static int wl_take(sim_t *s, uint32_t n)
{
    wl_t *w = s->wl;
    wnode_t *nd = &w->node[n];
    if (nd->rank == ICN_NIL) return 0;
    nic_t *c = &s->nic[n];
    uint32_t m = nd->head;
    if (m == ICN_NIL) die("workload: node %u asked for a message it does not have", n);
    nd->head = w->msg[m].next;
    if (nd->head == ICN_NIL) nd->tail = ICN_NIL;
    uint64_t bytes = w->msg[m].bytes ? w->msg[m].bytes : 1;   /* an empty message still sends a packet */
    if (bytes > UINT32_MAX) die("workload: a message of %llu bytes (at most 4 GB)", (unsigned long long)bytes);
    uint32_t npk = msg_packets(s, (uint32_t)bytes);
    c->msg_gen = s->now;
    c->msg_dst = w->rank[w->msg[m].dst].node;
    c->msg_left = (uint32_t)bytes;
    c->msg_id = nic_msg_alloc(s, npk, s->now);
    if (c->msg_id >= w->nmap) {
        uint32_t old = w->nmap;
        w->nmap = 2 * (c->msg_id + 1);
        w->map = xrealloc(w->map, w->nmap * sizeof *w->map);
        memset(w->map + old, 0xff, (w->nmap - old) * sizeof *w->map);
    }
    w->map[c->msg_id] = m;
    w->gen_pkts += npk;
    w->gen_bytes += bytes;
    int64_t bin = ts_bin(&s->st, s->now);
    if (bin >= 0) {   /* timeseries.csv's offered load counts the application's messages too */
        if (!w->ts_gen_pkts) {
            w->ts_gen_pkts = xcalloc(s->st.nbins, sizeof *w->ts_gen_pkts);
            w->ts_gen_bytes = xcalloc(s->st.nbins, sizeof *w->ts_gen_bytes);
        }
        w->ts_gen_pkts[bin] += npk;
        w->ts_gen_bytes[bin] += bytes;
    }
    c->next_gen = nd->head != ICN_NIL ? s->now : SIMTIME_MAX;
    return 1;
}

static uint32_t mapped(const wl_t *w, uint32_t id) { return id < w->nmap ? w->map[id] : ICN_NIL; }

static void wl_msg_sent(sim_t *s, uint32_t n, uint32_t id)
{
    wl_t *w = s->wl;
    uint32_t m = mapped(w, id);
    if (m == ICN_NIL) return;   /* background traffic */
    uint32_t r = w->msg[m].src;
    wrank_t *k = &w->rank[r];
    (void)n;
    if (w->msg[m].blocking) { unblock(s, r); return; }
    if (w->msg[m].step) { step_part_done(s, r); return; }
    k->pending--;
    if (k->state == RS_WAITALL && !k->pending) { sweep_done(w, k, 0); unblock(s, r); }
}

static void wl_msg_done(sim_t *s, uint32_t id)
{
    wl_t *w = s->wl;
    uint32_t m = mapped(w, id);
    if (m == ICN_NIL) return;
    w->map[id] = ICN_NIL;
    w->inflight--;
    deliver(s, m);
    check_stuck(s);
}

void wl_start(sim_t *s)
{
    wl_t *w = s->wl;
    s->hooks.take = wl_take;
    s->hooks.msg_sent = wl_msg_sent;
    s->hooks.msg_done = wl_msg_done;
    for (uint32_t r = 0; r < w->nranks; r++) {
        uint32_t n = w->rank[r].node;
        s->nic[n].next_gen = SIMTIME_MAX;
        s->nic[n].silent = 1;   /* no injection process: nic_count_generated skips it */
    }
    w->starting = 1;   /* a rank that blocks before the others have started is not stuck */
    for (uint32_t r = 0; r < w->nranks; r++) advance(s, r);
    w->starting = 0;
    check_stuck(s);
}

int wl_finished(const sim_t *s) { return s->wl->done == s->wl->nranks; }

uint64_t wl_unreceived(const sim_t *s)
{
    const wl_t *w = s->wl;
    uint64_t n = w->inflight;
    for (uint32_t r = 0; r < w->nranks; r++) {
        for (uint32_t m = w->rank[r].ux_head; m != ICN_NIL; m = w->msg[m].next) n++;
        for (uint32_t m = w->rank[r].held; m != ICN_NIL; m = w->msg[m].next) n++;
    }
    return n;
}
int wl_stuck(const sim_t *s) { return (int)s->wl->stuck; }

int wl_report_stuck(const sim_t *s, FILE *f)
{
    static const char *const what[] = { "runs", "computes", "sends (blocking) to", "receives from", "waits for a receive from",
                                        "waits for all its requests", "waits for its collective step", "finished" };
    const wl_t *w = s->wl;
    int n = 0;
    for (uint32_t r = 0; r < w->nranks; r++) {
        const wrank_t *k = &w->rank[r];
        if (k->state == RS_DONE) continue;
        if (n++ < 16) {
            fprintf(f, "  rank %u (node %u) %s", r, k->node, what[k->state]);
            if (k->state == RS_SEND || k->state == RS_RECV || k->state == RS_WAIT) {
                if (k->wait_peer == WL_ANY) fprintf(f, " any rank");
                else fprintf(f, " rank %u", k->wait_peer);
                if (k->wait_tag != WL_ANY) fprintf(f, " (tag %u)", k->wait_tag);
            }
            if (k->state == RS_WAITALL) fprintf(f, " (%u pending)", k->pending);
            if (k->state == RS_WAITSTEP) fprintf(f, " (%u pending)", k->step_pending);
            fprintf(f, " since t = %.3f us, after %llu operations\n", k->since / 1e6, (unsigned long long)k->ops);
        }
    }
    if (n > 16) fprintf(f, "  ... and %d more ranks\n", n - 16);
    return n;
}
