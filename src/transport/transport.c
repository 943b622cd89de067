#include "transport.h"
#include "../core/util.h"
#include "../net/link.h"
#include "../net/policy.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void transport_service(sim_t *s, uint32_t n);
static int transport_deliver(sim_t *s, uint32_t id);

/* The smallest of the packets a message of `size` bytes is cut into: its
 * last (a remainder), or a whole packet. */
static uint32_t smallest_packet(const sim_t *s, uint32_t size)
{
    uint32_t r = size % s->mtu;
    return size && r ? r : size ? s->mtu : 1;
}

void transport_setup(sim_t *s, cfg_t *c, int needed)
{
    if (!needed) return;
    transport_t *t = s->tp = xcalloc(1, sizeof *t);
    t->node = xaligned_calloc(64, s->nnodes, sizeof *t->node);
    for (uint32_t n = 0; n < s->nnodes; n++) t->node[n].free = t->node[n].last_f = ICN_NIL;
    t->ready = xcalloc((size_t)s->nnodes * s->nvc, sizeof *t->ready);
    t->queue_limit = (uint32_t)cfg_int(c, K_NIC_QUEUE_LIMIT);
    t->max_flows = (uint32_t)cfg_int(c, K_NIC_FLOWS);
    t->cnp_size = (uint32_t)cfg_u64(c, K_CC_CNP_SIZE);
    /* the smallest packet any message can have: a node with no room for it stalls */
    t->min_pkt = smallest_packet(s, s->msg_size);
    if (s->msg_long && smallest_packet(s, s->msg_long) < t->min_pkt) t->min_pkt = smallest_packet(s, s->msg_long);
    if (t->cnp_size > s->mtu)   /* one packet: larger, it might never fit a VC's buffer, and would block its node's CNPs */
        cfg_fail(c, K_CC_CNP_SIZE, "a CNP of %u bytes is larger than a packet (packet.mtu = %u bytes)", t->cnp_size, s->mtu);
    s->hooks.nic_service = transport_service;
    s->hooks.deliver = transport_deliver;
}

void transport_free(sim_t *s)
{
    transport_t *t = s->tp;
    if (!t) return;
    for (uint32_t i = 0; i < t->nringed; i++) free(flow_at(t, t->ringed[i])->m);   /* not every record: millions, cold */
    free(t->ringed);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        free(t->node[n].ht); free(t->node[n].cq); free(t->node[n].heap); free(t->node[n].ended);
    }
    for (size_t i = 0; i < (size_t)s->nnodes * s->nvc; i++) free(t->ready[i].q);
    free(t->ready);
    for (uint32_t k = 0; k < t->nchunks; k++) free(t->chunk[k]);
    free(t->chunk);
    free(t->node);
    free(t);
    s->tp = NULL;
}

/* ---- flow table: per node, open addressing on the destination ---- */

static inline uint32_t slot_of(uint32_t dst, uint32_t cap) { return (dst * 2654435761u) & (cap - 1); }

static void ht_put(tnode_t *tn, uint32_t dst, uint32_t f)
{
    uint32_t i = slot_of(dst, tn->htcap);
    while (tn->ht[i].f != ICN_NIL) i = (i + 1) & (tn->htcap - 1);
    tn->ht[i] = (htent_t){ dst, f };
}

static void ht_grow(tnode_t *tn)
{
    htent_t *old = tn->ht;
    uint32_t oc = tn->htcap;
    tn->htcap = oc ? 2 * oc : 8;
    tn->ht = xmalloc(tn->htcap * sizeof *tn->ht);
    memset(tn->ht, 0xff, tn->htcap * sizeof *tn->ht);
    for (uint32_t i = 0; i < oc; i++)
        if (old[i].f != ICN_NIL) ht_put(tn, old[i].dst, old[i].f);
    free(old);
}

static uint32_t ht_find(const tnode_t *tn, uint32_t dst)
{
    if (!tn->htcap) return ICN_NIL;
    for (uint32_t i = slot_of(dst, tn->htcap);; i = (i + 1) & (tn->htcap - 1))
        if (tn->ht[i].f == ICN_NIL || tn->ht[i].dst == dst) return tn->ht[i].f;
}

/* The flow of node tn to dst, or ICN_NIL. */
static inline uint32_t flow_find(tnode_t *tn, uint32_t dst)
{
    if (tn->last_f != ICN_NIL && tn->last_dst == dst) return tn->last_f;
    uint32_t f = ht_find(tn, dst);
    if (f != ICN_NIL) { tn->last_dst = dst; tn->last_f = f; }
    return f;
}

/* Remove dst, then re-insert the rest of its cluster (linear probing). */
static void ht_del(tnode_t *tn, uint32_t dst)
{
    if (tn->last_dst == dst) tn->last_f = ICN_NIL;
    uint32_t i = slot_of(dst, tn->htcap), m = tn->htcap - 1;
    while (tn->ht[i].dst != dst || tn->ht[i].f == ICN_NIL) i = (i + 1) & m;
    tn->ht[i].f = ICN_NIL;
    for (i = (i + 1) & m; tn->ht[i].f != ICN_NIL; i = (i + 1) & m) {
        htent_t e = tn->ht[i];
        tn->ht[i].f = ICN_NIL;
        ht_put(tn, e.dst, e.f);
    }
}

uint32_t flow_get(sim_t *s, uint32_t n, uint32_t dst)
{
    transport_t *t = s->tp;
    tnode_t *tn = &t->node[n];
    uint32_t f = flow_find(tn, dst);
    if (f != ICN_NIL) return f;
    /* A node reuses its own freed ids, and takes new ones in increasing
     * order, so the order of its ids (the throttled flows' tie-break)
     * depends on its own history only, not on when other nodes were served. */
    srcmsg_t *keep = NULL;   /* a freed flow keeps its ring for the next one */
    uint32_t cap = 0;
    if (tn->free != ICN_NIL) {
        f = tn->free;
        tn->free = flow_at(t, f)->next;
        cap = flow_at(t, f)->cap;
        keep = cap ? flow_at(t, f)->m : NULL;   /* (while cap = 0 those bytes are the message) */
    } else {   /* records past nflow_used are never read: no need to clear them */
        if (t->nflow_used == t->nflow_cap) {
            if (t->nflow_cap > UINT32_MAX - FLOW_CHUNK) die("flow pool exhausted");
            if (t->nchunks == t->chunk_cap) {
                t->chunk_cap = t->chunk_cap ? 2 * t->chunk_cap : 16;
                t->chunk = xrealloc(t->chunk, t->chunk_cap * sizeof *t->chunk);
            }
            t->chunk[t->nchunks++] = xhuge_alloc(FLOW_CHUNK * sizeof **t->chunk);
            t->nflow_cap += FLOW_CHUNK;
        }
        f = t->nflow_used++;
    }
    flow_t *fl = flow_at(t, f);
    memset(fl, 0, sizeof *fl);
    fl->m = keep;
    fl->cap = cap;
    fl->node = n;
    fl->dst = dst;
    fl->born = s->now;
    fl->vc = s->queuing->vc(s, n, dst);
    fl->cc.ccti = t->rest_ccti;
    if (2 * (tn->nflows + 1) > tn->htcap) ht_grow(tn);
    ht_put(tn, dst, f);
    tn->last_dst = dst;
    tn->last_f = f;
    if (++tn->nflows > t->flows_peak) t->flows_peak = tn->nflows;
    t->flows_live++;
    /* A BECN made the flow the node's held message waits for: it joins it
     * at the node's next service, not when some other flow ends. */
    if (tn->held_waits && tn->held.dst == dst) {
        tn->held_waits = 0;
        t->held_joined++;
        sim_touch_nic(s, n);
    }
    return f;
}

int transport_check(const sim_t *s)
{
    const transport_t *t = s->tp;
    if (!t) return 0;
    for (uint32_t n = 0; n < s->nnodes; n++) {
        const tnode_t *tn = &t->node[n];
        if (!tn->held_waits) continue;
        if (!tn->held.left || tn->nflows < t->max_flows || ht_find(tn, tn->held.dst) != ICN_NIL) {
            fprintf(stderr, "invariant: node %u's next message (to %u) waits for a flow to end, but %s\n", n, tn->held.dst,
                    !tn->held.left ? "it holds none" : tn->nflows < t->max_flows ? "the node has room for a flow"
                                                                                 : "the flow to its destination exists");
            return 1;
        }
    }
    return 0;
}

/* ---- ended flows: the end of their last packet, while a BECN could still
 * need it (a flow that ends is at rest, but a BECN for a packet it sent may
 * follow and make a new flow, whose next packet keeps the IRD from that end) ---- */

typedef struct ended { uint32_t dst; simtime_t ready; } ended_t;

static void ended_push(const transport_t *t, tnode_t *tn, uint32_t dst, simtime_t ready, simtime_t now)
{
    /* Expired entries stay until their slot is wanted: a full ring's oldest
     * slot is the one the next entry goes to, so the push reads no other line
     * (the ring is cold: a node's flows end between other nodes' events). */
    if (tn->ended_n == tn->ended_cap) {
        if (tn->ended_n && tn->ended[tn->ended_head].ready + t->keep_end <= now) {
            tn->ended[tn->ended_head] = (ended_t){ dst, ready };
            tn->ended_head = tn->ended_head + 1 == tn->ended_cap ? 0 : tn->ended_head + 1;
            return;
        }
        tn->ended = ring_grow(tn->ended, &tn->ended_head, &tn->ended_cap, sizeof *tn->ended);
    }
    tn->ended[(tn->ended_head + tn->ended_n++) % tn->ended_cap] = (ended_t){ dst, ready };
}

simtime_t flow_ended_ready(sim_t *s, uint32_t n, uint32_t dst)
{
    const transport_t *t = s->tp;
    const tnode_t *tn = &t->node[n];
    for (uint32_t i = tn->ended_n; i-- > 0;) {   /* newest first */
        const ended_t *e = &tn->ended[(tn->ended_head + i) % tn->ended_cap];
        if (e->dst == dst) return e->ready + t->keep_end > s->now ? e->ready : 0;
    }
    return 0;
}

void flow_maybe_free(sim_t *s, uint32_t f)
{
    transport_t *t = s->tp;
    flow_t *fl = flow_at(t, f);
    if (fl->n || fl->state != FL_IDLE || fl->cc.ccti > t->rest_ccti || fl->cc.timer_on) return;
    tnode_t *tn = &t->node[fl->node];
    if (t->keep_end && fl->cc.ready + t->keep_end > s->now) ended_push(t, tn, fl->dst, fl->cc.ready, s->now);
    ht_del(tn, fl->dst);
    tn->nflows--;
    tn->held_waits = 0;
    t->flows_live--;
    fl->node = ICN_NIL;   /* free: matches no packet's source, listed nowhere */
    fl->next = tn->free;
    tn->free = f;
}

/* ---- a flow's send queue: its one message in the record, more in a ring ---- */

static inline srcmsg_t *msg_head(flow_t *fl) { return fl->cap ? &fl->m[fl->head] : &fl->one; }

static void msg_push(transport_t *t, uint32_t f, srcmsg_t msg)
{
    flow_t *fl = flow_at(t, f);
    if (!fl->cap && !fl->n) fl->one = msg;
    else {
        if (!fl->cap) {   /* a second message: the record's one moves into a ring */
            if (t->nringed == t->ringed_cap) {
                t->ringed_cap = t->ringed_cap ? 2 * t->ringed_cap : 64;
                t->ringed = xrealloc(t->ringed, t->ringed_cap * sizeof *t->ringed);
            }
            t->ringed[t->nringed++] = f;
            srcmsg_t first = fl->one;   /* (m takes one's bytes) */
            fl->m = xmalloc(4 * sizeof *fl->m);
            fl->m[0] = first;
            fl->head = 0;
            fl->cap = 4;
        } else if (fl->n == fl->cap) fl->m = ring_grow(fl->m, &fl->head, &fl->cap, sizeof *fl->m);
        fl->m[(fl->head + fl->n) % fl->cap] = msg;
    }
    fl->n++;
}

static inline void msg_pop(flow_t *fl)
{
    if (fl->cap) fl->head = fl->head + 1 == fl->cap ? 0 : fl->head + 1;
    fl->n--;
}

/* ---- ready flows: a queue per node and VC; throttled flows: a heap per node ---- */

static void ready_push(transport_t *t, fq_t *r, uint32_t f)
{
    flow_at(t, f)->state = FL_READY;
    if (r->n == r->cap) r->q = ring_grow(r->q, &r->head, &r->cap, sizeof *r->q);
    r->q[(r->head + r->n++) % r->cap] = f;
}

static void ready_pop(transport_t *t, fq_t *r)
{
    flow_at(t, r->q[r->head])->state = FL_IDLE;
    r->head = r->head + 1 == r->cap ? 0 : r->head + 1;
    r->n--;
}

static inline int earlier(hent_t a, hent_t b)
{
    return a.until < b.until || (a.until == b.until && a.f < b.f);
}

static void heap_down(tnode_t *tn, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        if (l < tn->nheap && earlier(tn->heap[l], tn->heap[m])) m = l;
        if (l + 1 < tn->nheap && earlier(tn->heap[l + 1], tn->heap[m])) m = l + 1;
        if (m == i) return;
        hent_t x = tn->heap[i]; tn->heap[i] = tn->heap[m]; tn->heap[m] = x;
        i = m;
    }
}

static void heap_push(transport_t *t, tnode_t *tn, uint32_t f, simtime_t until)
{
    if (tn->nheap == tn->heap_cap) {
        tn->heap_cap = tn->heap_cap ? 2 * tn->heap_cap : 4;
        tn->heap = xrealloc(tn->heap, tn->heap_cap * sizeof *tn->heap);
    }
    flow_at(t, f)->state = FL_THROTTLED;
    hent_t e = { until, f };
    uint32_t i = tn->nheap++;
    while (i && earlier(e, tn->heap[(i - 1) / 2])) { tn->heap[i] = tn->heap[(i - 1) / 2]; i = (i - 1) / 2; }
    tn->heap[i] = e;
}

static uint32_t heap_pop(transport_t *t, tnode_t *tn)
{
    uint32_t f = tn->heap[0].f;
    tn->heap[0] = tn->heap[--tn->nheap];
    heap_down(tn, 0);
    flow_at(t, f)->state = FL_IDLE;
    return f;
}

/* Whether node tn has a throttled flow that may go at `at`. */
static inline int heap_due(const tnode_t *tn, simtime_t at) { return tn->nheap && tn->heap[0].until <= at; }

/* A flow with messages goes into its VC's ready queue, or into the heap until its
 * congestion control lets it send. */
static void schedule(sim_t *s, uint32_t f)
{
    transport_t *t = s->tp;
    flow_t *fl = flow_at(t, f);
    simtime_t go = t->cc ? t->cc->ready(s, f) : 0;
    if (go > s->now) heap_push(t, &t->node[fl->node], f, go);
    else ready_push(t, &t->ready[(size_t)fl->node * s->nvc + fl->vc], f);
}

void transport_rekey(sim_t *s, uint32_t n)
{
    transport_t *t = s->tp;
    tnode_t *tn = &t->node[n];
    for (uint32_t i = 0; i < tn->nheap; i++) tn->heap[i].until = t->cc->ready(s, tn->heap[i].f);
    for (uint32_t i = tn->nheap / 2; i-- > 0;) heap_down(tn, i);
}

/* The first generation time node tn's pull does not take: past now, a
 * replay (catch_up, up to replay_until) goes on while the replay's next
 * wake-up would be a message alone, i.e. before its earliest throttled flow;
 * never at or past the run's end. */
static inline simtime_t take_limit(const sim_t *s, const tnode_t *tn, simtime_t replay_until)
{
    simtime_t lim = tn->nheap && tn->heap[0].until < replay_until ? tn->heap[0].until : replay_until;
    if (lim <= s->now) lim = s->now + 1;
    return lim < s->end ? lim : s->end;
}

/* Node n has just dropped a message to dst at its full flow; lim is its
 * take_limit. Where its next messages draw nothing random (a fixed gap, and
 * a scenario role's fixed destination: a saturated hot-spot source) and all
 * go to dst, they would be dropped one by one: they are counted at once,
 * with the counts, sums and streams the loop would leave. Within one side of the measurement
 * window only, and not in the window once the drain counts (each drop could
 * end it). Returns the last generation time taken, or 0 if none. */
static simtime_t drop_run(sim_t *s, uint32_t n, uint32_t dst, simtime_t lim)
{
    nic_t *c = &s->nic[n];
    transport_t *t = s->tp;
    simtime_t g0 = c->next_gen, gap;
    if (t->no_runs || c->hot < 0 || !s->scenario->dst_fixed || !s->process->fixed || s->scenario->load || s->msg_long ||
        s->hooks.take || !(gap = s->process->fixed(msg_slot(s), s->cycle, s->load)))
        return 0;
    simtime_t fixed_to = s->scenario->dst_fixed(s, n, g0);
    if (fixed_to < lim) lim = fixed_to;
    int in_win = in_measure(s, g0);
    simtime_t side = g0 < s->warmup ? s->warmup : in_win ? s->stop : SIMTIME_MAX;
    if (side < lim) lim = side;
    if (g0 >= lim || (in_win && s->drain_target) || s->scenario->dst(s, n, g0, &c->dest) != dst) return 0;
    uint64_t k = (lim - g0 - 1) / gap + 1;   /* messages at g0 + i gap < lim */
    uint32_t npk = msg_packets(s, s->msg_size);
    simtime_t last = g0 + (k - 1) * gap;
    s->st.src_drops += k * npk;
    if (in_win) {
        s->st.w_src_drops += k * npk;
        s->st.w_done_tsum += (psum_t)npk * ((psum_t)k * g0 + (psum_t)gap * ((psum_t)k * (k - 1) / 2));
    }
    c->msg_gen = last;
    c->msg_dst = dst;
    c->next_gen = last + gap;
    t->run_drops += k;
    return last;
}

/* Messages generated up to now move into their flows' send queues. A
 * replay (catch_up) passes the time it replays to, and messages before
 * take_limit are taken here, each at its own time, without a return to the
 * replay's loop (a saturated source dropping at a full flow replays one
 * message per wake-up). */
static void pull(sim_t *s, uint32_t n, simtime_t replay_until)
{
    nic_t *c = &s->nic[n];
    transport_t *t = s->tp;
    tnode_t *tn = &t->node[n];
    if (tn->held_waits) return;   /* nothing changes until a flow ends (or a BECN makes held's) */
    for (;;) {
        if (!tn->held.left) {
            if (c->next_gen >= take_limit(s, tn, replay_until)) return;
            if (c->next_gen > s->now) s->now = c->next_gen;
            nic_take_message(s, n);
            tn->held = (srcmsg_t){ c->msg_gen, c->msg_dst, c->msg_left, c->msg_id, 0 };
            c->msg_left = 0;
        }
        uint32_t f = flow_find(tn, tn->held.dst);
        if (f == ICN_NIL) {
            if (tn->nflows >= t->max_flows) { tn->held_waits = 1; return; }
            f = flow_get(s, n, tn->held.dst);
        }
        flow_t *fl = flow_at(t, f);
        srcmsg_t msg = tn->held;
        tn->held.left = 0;
        if (t->queue_limit && fl->n >= t->queue_limit && !c->silent) {   /* a workload's messages: never dropped */
            nic_drop_message(s, msg.left, msg.gen, msg.msg);
            simtime_t last = drop_run(s, n, msg.dst, take_limit(s, tn, replay_until));
            if (last > s->now) s->now = last;
            continue;   /* (the flow holds queue_limit messages: it stays) */
        }
        msg_push(t, f, msg);
        if (fl->n == 1) schedule(s, f);
    }
}

/* The time of node tn's next wake-up: its next message (unless one waits
 * for a flow) or its earliest throttled flow. */
static simtime_t next_wake(const sim_t *s, const tnode_t *tn, const nic_t *c)
{
    simtime_t at = tn->held.left ? SIMTIME_MAX : c->next_gen;
    if (tn->nheap && tn->heap[0].until < at) at = tn->heap[0].until;
    return at;
}

/* A stalled node (no VC had room at its last service) schedules no wake-up
 * for its next message or throttled flow: until a credit, a control packet,
 * a BECN or a timer serves it, nothing it does can send a packet, and a
 * node behind a congestion tree would otherwise cost an event and a service
 * per generated message. Before anything reads or changes its flows, this
 * replays, in time order, the services those wake-ups would have made
 * before `until`: messages join their flows (or are dropped at a full one)
 * at their generation times, throttled flows reach their ready queues when their
 * delays end, so the node evolves as if it had been woken. Returns the
 * time of the next wake-up. */
static simtime_t catch_up(sim_t *s, uint32_t n, simtime_t until)
{
    transport_t *t = s->tp;
    tnode_t *tn = &t->node[n];
    if (!tn->stalled) return SIMTIME_MAX;
    const nic_t *c = &s->nic[n];
    simtime_t now = s->now, at;
    while ((at = next_wake(s, tn, c)) < until && at < s->end) {
        s->now = at;
        pull(s, n, until);   /* may take later messages, up to the next wake-up that is not one */
        while (heap_due(tn, s->now)) schedule(s, heap_pop(t, tn));
    }
    s->now = now;
    return at;
}

void transport_catch_up(sim_t *s, uint32_t n)
{
    if (s->tp) (void)catch_up(s, n, s->now);
}

void transport_sync(sim_t *s, simtime_t until)
{
    if (!s->tp) return;
    for (uint32_t n = 0; n < s->nnodes; n++) (void)catch_up(s, n, until);
}

static inline int room(const sim_t *s, const nic_t *c, uint32_t vc, uint32_t size)
{
    return *credit(s, c->port, vc) >= (int32_t)occ_bytes(s, size);
}

/* Room on some VC for the smallest packet a message can have. */
static int any_room(const sim_t *s, const nic_t *c)
{
    for (uint32_t v = 0; v < s->nvc; v++)
        if (room(s, c, v, s->tp->min_pkt)) return 1;
    return 0;
}

static void wake_at(sim_t *s, nic_t *c, uint32_t n, simtime_t t)
{
    if (t >= s->end || c->wake_at == t) return;
    c->wake_at = t;
    sim_push(s, t, EV_NIC_WAKE, n, 0);
}

static uint32_t new_packet(sim_t *s, uint32_t n)
{
    uint32_t id = pkt_alloc(s);
    packet_t *p = &s->pkt[id];
    memset(p, 0, sizeof *p);
    p->src = n;
    p->msg = ICN_NIL;
    p->flow = ICN_NIL;
    s->ptime[id] = (pkt_times_t){ s->now, s->now };
    return id;
}

/* A control packet leaves node n, if its VC has room. */
static int send_ctrl(sim_t *s, uint32_t n)
{
    transport_t *t = s->tp;
    tnode_t *tn = &t->node[n];
    nic_t *c = &s->nic[n];
    ctrl_t *k = &tn->cq[tn->cq_head];
    uint32_t size = k->kind == PK_ACK ? t->mp->ack_size : t->cnp_size;
    if (!room(s, c, k->vc, size)) return 0;
    uint32_t id = new_packet(s, n);
    packet_t *p = &s->pkt[id];
    p->dst = k->dst;
    p->size = size;
    p->kind = k->kind;
    p->flags = k->flags;
    p->msg = k->kind == PK_ACK ? k->aux : k->path;
    p->vc = p->out_vc = p->sl = k->vc;
    tn->cq_head = tn->cq_head + 1 == tn->cq_cap ? 0 : tn->cq_head + 1;
    tn->cq_n--;
    t->ctrl_inj++;
    if (p->kind == PK_CNP) t->cnp_sent++;
    else t->ack_sent++;
    c->busy = 1;
    link_send(s, c->port, id);
    return 1;
}

static void transport_service(sim_t *s, uint32_t n)
{
    nic_t *c = &s->nic[n];
    transport_t *t = s->tp;
    tnode_t *tn = &t->node[n];
    if (tn->stalled) {   /* the replayed wake-ups end; the next one is a real event */
        simtime_t next = catch_up(s, n, s->now);
        tn->stalled = 0;
        if (next > s->now) wake_at(s, c, n, next);
    }
    pull(s, n, 0);
    while (heap_due(tn, s->now)) schedule(s, heap_pop(t, tn));
    if (c->busy) return;   /* the end of the transmission serves the node again */
    if (tn->cq_n && send_ctrl(s, n)) return;
    uint32_t nvc = s->nvc;
    fq_t *ready = &t->ready[(size_t)n * nvc];
    simtime_t held = SIMTIME_MAX;   /* the earliest a VC's shared congestion state lets it go */
    for (uint32_t k = 0, v = tn->vc_rr; k < nvc; k++, v = v + 1 == nvc ? 0 : v + 1) {
        /* A ready flow's delay may have grown since it queued (a BECN), or
         * be shared with the VC's flow that just sent (per SL): it waits. */
        simtime_t go = 0;
        while (ready[v].n && t->cc && (go = t->cc->ready(s, ready[v].q[ready[v].head])) > s->now && !t->cc->per_vc) {
            uint32_t w = ready[v].q[ready[v].head];
            ready_pop(t, &ready[v]);
            heap_push(t, tn, w, go);
        }
        if (!ready[v].n) continue;
        if (go > s->now) { held = go < held ? go : held; continue; }   /* per SL: the queue keeps its turn order */
        uint32_t f = ready[v].q[ready[v].head];
        flow_t *fl = flow_at(t, f);
        srcmsg_t *m = msg_head(fl);
        uint32_t size = next_pkt_size(s, m->left);
        if (!room(s, c, v, size)) continue;   /* a credit will serve the node */
        c->msg_gen = m->gen;
        c->msg_dst = m->dst;
        c->msg_id = m->msg;
        c->msg_left = m->left;
        uint32_t id = nic_make_packet(s, n, size, fl->vc);
        m->msg = c->msg_id;
        s->pkt[id].flow = f;
        s->pkt[id].sl = fl->vc;
        if (t->mp) {
            if (!m->route) m->route = (uint8_t)(1 + t->mp->pick(s, n, fl->dst));
            t->mp->stamp(s, id, (uint8_t)(m->route - 1));
        }
        fl->tx_bytes += size;
        m->left = c->msg_left;
        c->msg_left = 0;
        if (!m->left) msg_pop(fl);
        if (t->cc) t->cc->sent(s, f, size);
        ready_pop(t, &ready[v]);   /* round-robin among the VC's flows */
        if (fl->n) schedule(s, f);
        else flow_maybe_free(s, f);
        /* the next flow served here: its record is cold, and this node's next
         * service is at least a packet time away */
        if (ready[v].n) {
            const flow_t *nx = flow_at(t, ready[v].q[ready[v].head]);
            __builtin_prefetch(nx);
            __builtin_prefetch((const char *)(nx + 1) - 1);
        }
        tn->vc_rr = v + 1 == nvc ? 0 : v + 1;
        c->busy = 1;
        link_send(s, c->port, id);
        return;
    }
    /* Nothing could go: wake when something may. A message held for want of
     * a flow waits for a flow to end, which serves the node anyway. With no
     * room on any VC the node stalls (catch_up); a workload's ranks are
     * served by the workload, so their nodes never stall. */
    simtime_t soonest = next_wake(s, tn, c);
    if (held < soonest) soonest = held;
    if (!t->no_stall && !s->hooks.take && !any_room(s, c)) { tn->stalled = 1; return; }
    if (soonest != SIMTIME_MAX && soonest > s->now) wake_at(s, c, n, soonest);
}

/* Node n will send control packet k, ahead of its data. */
static void ctrl_queue(sim_t *s, uint32_t n, ctrl_t k)
{
    tnode_t *tn = &s->tp->node[n];
    if (tn->cq_n == tn->cq_cap) tn->cq = ring_grow(tn->cq, &tn->cq_head, &tn->cq_cap, sizeof *tn->cq);
    tn->cq[(tn->cq_head + tn->cq_n++) % tn->cq_cap] = k;
    sim_touch_nic(s, n);
}

static int transport_deliver(sim_t *s, uint32_t id)
{
    transport_t *t = s->tp;
    packet_t *p = &s->pkt[id];
    if (p->kind != PK_DATA) {
        t->ctrl_del++;
        if (p->kind == PK_CNP) {
            t->cnp_delivered++;
            (void)catch_up(s, p->dst, s->now);
            if (t->cc) t->cc->becn(s, p->dst, p->src, p->sl, (uint8_t)p->msg);
        } else {
            t->ack_delivered++;
            t->mp->ack_in(s, id);
        }
        pkt_release(s, id);
        return 1;
    }
    if (p->flow != ICN_NIL && s->now >= s->warmup && s->now < s->stop) {
        /* The flow that sent it, unless it ended (its id may serve a newer
         * flow of the node by now: a stalled node catches up first). */
        flow_t *fl = flow_at(t, p->flow);
        if (fl->node != p->src || fl->dst != p->dst) (void)catch_up(s, p->src, s->now);   /* records never move */
        if (fl->node == p->src && fl->dst == p->dst && s->ptime[id].inj >= fl->born) fl->rx_bytes += p->size;
    }
    if (p->flags & PKT_FECN)   /* return a BECN in a CNP, on the VC the packet came on */
        ctrl_queue(s, p->dst, (ctrl_t){ p->src, PK_CNP, p->sl, PKT_BECN, p->path, 0 });
    if (t->mp && t->mp->ack_out) {
        if (p->msg == ICN_NIL || s->msg_left[p->msg] == 1)   /* the message's last packet */
            ctrl_queue(s, p->dst, (ctrl_t){ p->src, PK_ACK, p->sl, 0, p->path, t->mp->ack_out(s, id) });
        else if (t->mp->passed)
            t->mp->passed(s, id);
    }
    return 0;
}
