/* Simulation set-up, the event loop, packet pool, invariants and watchdog. */
#include "sim.h"
#include "util.h"
#include "units.h"
#include "../net/link.h"
#include "../net/policy.h"
#include "../net/flit.h"
#include "../stats/views.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- packet pool ---- */

uint32_t pkt_alloc(sim_t *s)
{
    if (s->pkt_free == ICN_NIL) {
        uint32_t old = s->npkt_cap, cap = old ? old * 2 : 4096;
        if (cap < old) die("packet pool exhausted");
        /* Grown by copy, not realloc, to keep the records cache-line aligned. */
        packet_t *np = xaligned_alloc(64, (size_t)cap * sizeof *np);
        if (old) memcpy(np, s->pkt, (size_t)old * sizeof *np);
        free(s->pkt);
        s->pkt = np;
        s->ptime = xrealloc(s->ptime, (size_t)cap * sizeof *s->ptime);
        for (uint32_t i = old; i < cap; i++) s->pkt[i].next = i + 1 < cap ? i + 1 : ICN_NIL;
        s->pkt_free = old;
        s->npkt_cap = cap;
    }
    uint32_t id = s->pkt_free;
    s->pkt_free = s->pkt[id].next;
    s->pkt_live++;
    return id;
}

void pkt_release(sim_t *s, uint32_t id)
{
    s->pkt[id].next = s->pkt_free;
    s->pkt_free = id;
    s->pkt_live--;
}

/* ---- network construction ---- */

void net_alloc(sim_t *s, uint32_t nswitches, const uint16_t *ports_per_switch, uint32_t nnodes)
{
    uint32_t np = nnodes;
    for (uint32_t w = 0; w < nswitches; w++) {
        if (ports_per_switch[w] > MAX_RADIX) die("switch radix %u exceeds %d", ports_per_switch[w], MAX_RADIX);
        np += ports_per_switch[w];
    }
    s->nswitches = nswitches;
    s->nnodes = nnodes;
    s->nports = np;
    s->sw = xcalloc(nswitches, sizeof *s->sw);
    s->nic = xcalloc(nnodes, sizeof *s->nic);
    s->port = xcalloc(np, sizeof *s->port);
    uint32_t g = 0;
    for (uint32_t w = 0; w < nswitches; w++) {
        s->sw[w].port0 = g;
        s->sw[w].nports = ports_per_switch[w];
        for (uint32_t p = 0; p < ports_per_switch[w]; p++, g++) {
            s->port[g].dev = w;
            s->port[g].local = (uint16_t)p;
            s->port[g].peer = ICN_NIL;
        }
    }
    for (uint32_t n = 0; n < nnodes; n++, g++) {
        s->nic[n].port = g;
        s->port[g].dev = NIC_BIT | n;
        s->port[g].peer = ICN_NIL;
    }
    s->pend = xmalloc((size_t)(nswitches + nnodes) * sizeof *s->pend);
}

void net_link(sim_t *s, uint32_t a, uint32_t b)
{
    if (s->port[a].peer != ICN_NIL || s->port[b].peer != ICN_NIL)
        die("topology wires port %u or %u twice", a, b);
    s->port[a].peer = b;
    s->port[b].peer = a;
}

/* ---- set-up ---- */

static void packet_buffers(sim_t *s, cfg_t *c);
static void setup_policies(sim_t *s, cfg_t *c);

static void list_names_fail(cfg_t *c, key_id k, const char *what)
{
    cfg_fail(c, k, "unknown %s (run `icnsim --list` for the choices)", what);
}

void sim_setup(sim_t *s, cfg_t *c)
{
    memset(s, 0, sizeof *s);
    s->cfg = c;
    s->pkt_free = s->msg_free = ICN_NIL;
    evq_init(&s->evq);
    s->seed = (uint64_t)cfg_int(c, K_SEED);
    s->load = cfg_double(c, K_LOAD);
    s->warmup = cfg_u64(c, K_TIME_WARMUP);
    s->end = s->stop = s->warmup + cfg_u64(c, K_TIME_MEASURE);
    s->deadlock_after = cfg_u64(c, K_TIME_DEADLOCK);
    const char *model = cfg_str(c, K_SW_MODEL);
    if (!strcmp(model, "flit")) s->flit_mode = 1;
    else if (strcmp(model, "packet")) cfg_fail(c, K_SW_MODEL, "must be packet or flit");
    if (!s->flit_mode) {   /* the flit model derives timing from router.cycle and link.phit */
        s->link_bps = cfg_double(c, K_LINK_BW);
        s->link_delay = cfg_u64(c, K_LINK_DELAY);
        s->routing_delay = cfg_u64(c, K_SW_ROUTING_DELAY);
    }
    s->mtu = (uint32_t)cfg_u64(c, K_PKT_MTU);
    s->msg_size = (uint32_t)cfg_u64(c, K_MSG_SIZE);
    s->p_long = cfg_double(c, K_MSG_LONG_FRACTION);
    if (s->p_long > 0) {
        s->msg_long = (uint32_t)cfg_u64(c, K_MSG_LONG_SIZE);
        if (!s->msg_long) cfg_fail(c, K_MSG_LONG_FRACTION, "long messages need a size: set traffic.long_size");
    }
    s->gran = s->flit_mode ? 1 : (uint32_t)cfg_u64(c, K_SW_GRANULARITY);
    s->nvc = (uint32_t)cfg_int(c, K_SW_VCS);
    s->islip_iters = 0;

    if (occ_bytes(s, s->mtu) >= (1u << 24)) cfg_fail(c, K_PKT_MTU, "packets of 16 MB or more are not supported");
    if (!s->flit_mode) packet_buffers(s, c);
    if (!(s->topo = find_topo(cfg_str(c, K_TOPO_TYPE)))) list_names_fail(c, K_TOPO_TYPE, "topology");
    s->topo->build(s, c);
    setup_policies(s, c);
}

/* Buffers of the packet-level switch: bytes per VC, checked against packets. */
static void packet_buffers(sim_t *s, cfg_t *c)
{
    uint64_t swbuf = cfg_u64(c, K_SW_BUFFER), nicbuf = cfg_u64(c, K_NIC_BUFFER);
    s->vc_cap_sw = (uint32_t)(swbuf / s->nvc);
    s->vc_cap_nic = (uint32_t)(nicbuf / s->nvc);
    if (occ_bytes(s, s->mtu) > s->vc_cap_sw / s->gran * s->gran && s->gran > 1)
        cfg_fail(c, K_SW_GRANULARITY, "a %u-byte packet takes %u bytes in units of %u, more than a VC's %u bytes",
                 s->mtu, occ_bytes(s, s->mtu), s->gran, s->vc_cap_sw);
    if (s->vc_cap_sw < s->mtu)
        cfg_fail(c, K_SW_BUFFER, "each of the %u VCs gets %u bytes, less than one packet (packet.mtu = %u bytes): "
                 "virtual cut-through needs room for a whole packet", s->nvc, s->vc_cap_sw, s->mtu);
    if (s->vc_cap_nic < s->mtu)
        cfg_fail(c, K_NIC_BUFFER, "each of the %u VCs gets %u bytes, less than one packet (packet.mtu = %u bytes)",
                 s->nvc, s->vc_cap_nic, s->mtu);
}

/* Network state, policies, traffic and statistics, once the topology exists. */
static void setup_policies(sim_t *s, cfg_t *c)
{
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (s->port[s->nic[n].port].peer == ICN_NIL) die("topology left node %u unconnected", n);

    s->credits = xmalloc((size_t)s->nports * s->nvc * sizeof *s->credits);
    s->vq = xcalloc((size_t)s->nports * s->nvc, sizeof *s->vq);
    s->want = xcalloc(s->nports, sizeof *s->want);
    for (uint32_t g = 0; g < s->nports; g++) {
        /* unconnected ports (mesh boundaries) hold no credits */
        uint32_t peer = s->port[g].peer;
        uint32_t cap = peer == ICN_NIL ? 0 : (s->port[peer].dev & NIC_BIT) ? s->vc_cap_nic : s->vc_cap_sw;
        for (uint32_t v = 0; v < s->nvc; v++) {
            s->credits[g * s->nvc + v] = (int32_t)cap;
            s->vq[g * s->nvc + v].head = s->vq[g * s->nvc + v].tail = ICN_NIL;
        }
    }

    if (!(s->routing = find_routing(cfg_str(c, K_ROUTING)))) list_names_fail(c, K_ROUTING, "routing algorithm");
    if (s->flit_mode && (!strcmp(s->routing->name, "dor-bubble") || !strcmp(s->routing->name, "bubble-adaptive")))
        cfg_fail(c, K_ROUTING, "bubble flow control is modelled by the packet-level switch (switch.model = packet)");
    s->routing->setup(s, c);
    if ((uint32_t)s->routing->reserved_vcs >= s->nvc)
        cfg_fail(c, K_SW_VCS, "routing %s keeps %d VC(s) for itself and needs at least one more for the queuing scheme",
                 cfg_str(c, K_ROUTING), s->routing->reserved_vcs);
    s->nsqs = s->nvc - (uint32_t)s->routing->reserved_vcs;
    if (cfg_is_set(c, K_SW_VOQ) || !s->flit_mode) s->voq_mode = (int)cfg_int(c, K_SW_VOQ);
    if (s->voq_mode) {
        if (s->flit_mode) cfg_fail(c, K_SW_VOQ, "VOQ switches are modelled by the packet-level switch (switch.model = packet)");
        if (s->routing->multi_cand)
            cfg_fail(c, K_SW_VOQ, "routing %s offers several outputs per packet; a VOQ switch needs one at arrival", s->routing->name);
        voq_setup(s);
    }
    if (!s->flit_mode) {
        const char *when = cfg_str(c, K_ROUTING_WHEN);
        if (!strcmp(when, "arrival")) s->route_at_arrival = 1;
        else if (strcmp(when, "head")) cfg_fail(c, K_ROUTING_WHEN, "must be head or arrival");
        if (s->route_at_arrival && s->routing->multi_cand)
            cfg_fail(c, K_ROUTING_WHEN, "routing %s offers several outputs per packet to choose from when it reaches "
                     "the head; routing at arrival needs one", s->routing->name);
        if (s->voq_mode && cfg_is_set(c, K_ROUTING_WHEN) && !s->route_at_arrival)
            cfg_fail(c, K_ROUTING_WHEN, "a VOQ switch routes each packet when it arrives (its output picks its VOQ)");
    } else if (cfg_is_set(c, K_ROUTING_WHEN)) {
        cfg_fail(c, K_ROUTING_WHEN, "the flit-level router routes a header when it reaches the front of its FIFO");
    }
    if (s->routing->owns_vcs) {
        extern const queuing_ops queuing_routing;   /* VC 0 at injection; the routing picks the rest */
        s->queuing = &queuing_routing;
    } else {
        if (!(s->queuing = find_queuing(cfg_str(c, K_QUEUING)))) list_names_fail(c, K_QUEUING, "queuing scheme");
        if (s->queuing->hop && !s->routing->hop_vcs)
            cfg_fail(c, K_QUEUING, "queuing scheme %s chooses the VC at every hop; routing %s keeps the VC of injection "
                     "(use a fat-tree routing: dmodk, oblivious, ADAP-..., afi)", s->queuing->name, s->routing->name);
        s->queuing->setup(s, c);
    }
    if (!s->flit_mode && !s->routing->owns_vcs && (s->nsqs > 1 || s->vn)) {
        const char *qm = cfg_str(c, K_NIC_QUEUES);
        if (!strcmp(qm, "per-vc")) {
            s->srcq_limit = (uint32_t)cfg_int(c, K_NIC_QUEUE_LIMIT);
            s->srcqs = xcalloc((size_t)s->nnodes * s->nsqs, sizeof *s->srcqs);
            for (uint32_t n = 0; n < s->nnodes; n++) s->nic[n].srcq = &s->srcqs[(size_t)n * s->nsqs];
        } else if (strcmp(qm, "shared")) {
            cfg_fail(c, K_NIC_QUEUES, "must be per-vc or shared");
        }
    }
    if (s->flit_mode) {
        flit_setup(s, c);   /* round-robin allocation is built in */
        if (cfg_is_set(c, K_SW_CROSSBAR))
            cfg_fail(c, K_SW_CROSSBAR, "the flit-level router has its own crossbar model (switch.model = flit)");
    } else {
        if (!(s->arbiter = find_arbiter(cfg_str(c, K_SW_ARBITER)))) list_names_fail(c, K_SW_ARBITER, "arbiter");
        if (!strcmp(s->arbiter->name, "islip")) s->islip_iters = (int)cfg_int(c, K_SW_ISLIP_ITERS);
        const char *xb = cfg_str(c, K_SW_CROSSBAR);
        if (!strcmp(xb, "queue")) s->xbar_queue = 1;
        else if (strcmp(xb, "port")) cfg_fail(c, K_SW_CROSSBAR, "must be port or queue");
        if (s->xbar_queue && s->vn)
            cfg_fail(c, K_SW_CROSSBAR, "VOQnet switches are modelled with one crossbar input per port (switch.crossbar = port)");
        if (s->xbar_queue && s->nvc > 16) cfg_fail(c, K_SW_CROSSBAR, "queue supports at most 16 VCs (switch.vcs = %u)", s->nvc);
    }
    if (!(s->process = find_process(cfg_str(c, K_TR_PROCESS)))) list_names_fail(c, K_TR_PROCESS, "injection process");
    if (!(s->pattern = find_pattern(cfg_str(c, K_TR_PATTERN)))) list_names_fail(c, K_TR_PATTERN, "traffic pattern");
    s->pattern->setup(s, c);
    if (!(s->scenario = find_scenario(cfg_str(c, K_TR_SCENARIO)))) list_names_fail(c, K_TR_SCENARIO, "scenario");
    for (uint32_t n = 0; n < s->nnodes; n++) s->nic[n].hot = -1;
    s->scenario->setup(s, c);

    simtime_t slot = msg_slot(s);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        nic_t *nc = &s->nic[n];
        rng_seed(&nc->arrival, s->seed, RNG_ARRIVAL, n);
        rng_seed(&nc->dest, s->seed, RNG_DEST, n);
        nc->arrival0 = nc->arrival;
        rng_seed(&nc->sizes, s->seed, RNG_SIZE, n);
        nc->sizes0 = nc->sizes;
        /* A permutation's fixed point does not inject (unless a scenario gives it a role). */
        if (nc->hot < 0) {
            rng_t probe = nc->dest;
            if (s->pattern->dst(s, n, &probe) == ICN_NIL) nc->silent = 1;
        }
        simtime_t gap = s->process->gap(&nc->arrival, slot, s->load);
        nc->next_gen = nc->silent ? SIMTIME_MAX : gap;
        if (nc->next_gen < s->end) {
            nc->wake_at = nc->next_gen;
            evq_push(&s->evq, nc->next_gen, EV_NIC_WAKE, n, 0);
        }
    }
    uint64_t interval = cfg_u64(c, K_TIME_INTERVAL);
    if (s->end / interval > 10000000)
        cfg_fail(c, K_TIME_INTERVAL, "the run would have %llu time-series samples (at most 10 million); use a longer interval",
                 (unsigned long long)(s->end / interval));
    stats_init(&s->st, interval, s->end);
    if (!s->deadlock_after) {   /* automatic: 50 packet times; nothing legitimately stalls that long */
        simtime_t hop = s->flit_mode ? flit_packet_time(s) : ser_time(s, s->mtu) + s->routing_delay + s->link_delay;
        s->deadlock_after = 50 * (hop ? hop : 1);
    }
    /* Thousands of events share an instant on a large network; far more
     * means a loop of zero-delay events, which the time-based watchdog
     * cannot see because time no longer reaches its next sample. */
    s->instant_limit = 64 * ((uint64_t)s->nports * s->nvc + s->nnodes) + 1000000;
    if (cfg_int(c, K_CHECK_INVARIANTS)) s->check_every = s->next_check = (uint64_t)cfg_int(c, K_CHECK_EVERY);
    views_setup(s, c);
    evq_push(&s->evq, s->st.interval, EV_SAMPLE, 1, 0);
    cfg_check_unused(c);
}

void sim_free(sim_t *s)
{
    flit_free(s);
    views_free(s);
    evq_free(&s->evq);
    for (size_t q = 0; s->srcqs && q < (size_t)s->nnodes * s->nsqs; q++) free(s->srcqs[q].m);
    free(s->srcqs);
    free(s->want); free(s->voq); free(s->voq_mask); free(s->voq_std);
    voqnet_free(s);
    free(s->port); free(s->sw); free(s->nic); free(s->credits); free(s->vq);
    free(s->pkt); free(s->ptime); free(s->msg_left); free(s->msg_gen); free(s->pend);
    free(s->topo_data); free(s->routing_data); free(s->pattern_data); free(s->scenario_data);
    stats_free(&s->st);
    memset(s, 0, sizeof *s);
}

/* ---- deadlock report ---- */

/* Follow "waits for" edges from a blocked input VC: its head needs credits of
 * the next switch's input VC. A walk that revisits a buffer has found a cycle. */
static void deadlock_report(sim_t *s)
{
    uint32_t nb = s->nports * s->nvc;
    uint32_t *seen = xcalloc(nb, sizeof *seen);
    fprintf(stderr, "icnsim: DEADLOCK at t = %.3f us: %u packets in the network, none moved for %.3f us\n",
            s->now / 1e6, s->pkt_live, (s->now - s->last_progress) / 1e6);
    for (uint32_t start = 0; start < nb; start++) {
        if (!s->vq[start].npk || seen[start]) continue;
        uint32_t b = start;
        while (b != ICN_NIL && !seen[b]) {
            seen[b] = start + 1;
            uint32_t out, ovc;
            if (!buffer_waits_for(s, b, &out, &ovc)) { b = ICN_NIL; break; }
            uint32_t g = b / s->nvc, go = s->sw[s->port[g].dev].port0 + out, peer = s->port[go].peer;
            if (peer == ICN_NIL || (s->port[peer].dev & NIC_BIT)) { b = ICN_NIL; break; }
            b = peer * s->nvc + ovc;
        }
        if (b != ICN_NIL && seen[b] == start + 1) {
            fprintf(stderr, "icnsim: blocked cycle of buffers (switch:port:vc -> next):\n");
            uint32_t c = b;
            do {
                uint32_t out = 0, ovc = 0;
                buffer_waits_for(s, c, &out, &ovc);
                uint32_t g = c / s->nvc, w = s->port[g].dev;
                uint32_t go = s->sw[w].port0 + out;
                fprintf(stderr, "  switch %u port %u vc %u (%u pkts) waits for output %u vc %u (%d credits)\n",
                        w, s->port[g].local, c % s->nvc, s->vq[c].npk, out, ovc, s->credits[go * s->nvc + ovc]);
                c = s->port[go].peer * s->nvc + ovc;
            } while (c != b);
            free(seen);
            return;
        }
    }
    fprintf(stderr, "icnsim: no cycle of full buffers found (packets wait on something else)\n");
    free(seen);
}

/* ---- main loop ---- */

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
    if (k - 1 < st->nbins) st->ts_innet[k - 1] = s->pkt_live;
    if (s->views) views_on_sample(s, k);
    if (s->pkt_live && s->now - s->last_progress >= s->deadlock_after) {
        s->deadlocked = 1;
        return;
    }
    if (!s->pkt_live) s->last_progress = s->now;
    if (s->progress_tty) progress_line(s);
    simtime_t next = (simtime_t)(k + 1) * st->interval;
    if (next <= s->end) evq_push(&s->evq, next, EV_SAMPLE, k + 1, 0);
}

static void dispatch(sim_t *s, const event_t *e)
{
    switch (ev_type(e)) {
    case EV_ARRIVE:
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
    case EV_SAMPLE: sample(s, e->a); break;
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
    if (rc == EXIT_OK) s->st.ts_innet[s->st.nbins - 1] = s->pkt_live;   /* the sample at the end time */
    if (rc == EXIT_DEADLOCK) {   /* the run ended here: statistics cover [0, now) */
        s->end = s->now;
        if (s->stop > s->end) s->stop = s->end;
    }
    nic_count_generated(s);
    return rc;
}

int sim_drain(sim_t *s, simtime_t extra)
{
    for (uint32_t n = 0; n < s->nnodes; n++) s->nic[n].next_gen = SIMTIME_MAX;
    s->end = s->now + extra;
    return loop(s);
}

/* ---- invariants ---- */

struct owed { sim_t *s; int64_t *expect; uint64_t in_links; };

/* Packets on links and credits on their way back, from the pending events. */
static void owed_by_event(const event_t *e, void *arg)
{
    struct owed *o = arg;
    sim_t *s = o->s;
    switch (ev_type(e)) {
    case EV_ARRIVE:
        o->in_links++;
        if (!s->vn)   /* VOQnet queues keep their own credits (voqnet_check) */
            o->expect[s->port[e->a].peer * s->nvc + s->pkt[e->b].out_vc] += occ_bytes(s, s->pkt[e->b].size);
        break;
    case EV_DELIVER: o->in_links++; break;
    case EV_CREDIT: o->expect[e->a] += e->b; break;
    default: break;
    }
}

struct tally { uint32_t cnt, bytes; };
static void tally_pkt(sim_t *s, uint32_t id, void *arg)
{
    struct tally *ty = arg;
    ty->cnt++;
    ty->bytes += occ_bytes(s, s->pkt[id].size);
}

/* switch.crossbar = queue (FIFO VCs): every transfer holds its input VC,
 * and no VC feeds two outputs at once. */
static int check_vc_feeds(const sim_t *s)
{
    uint8_t *feeding = xcalloc((size_t)s->nports * s->nvc, 1);
    int bad = 0;
    for (uint32_t g = 0; g < s->nports && !bad; g++) {
        const port_t *o = &s->port[g];
        if ((o->dev & NIC_BIT) || !o->out_busy) continue;
        const port_t *in = &s->port[o->feed];
        if (!(in->vc_busy >> o->rel_vc & 1) || feeding[(size_t)o->feed * s->nvc + o->rel_vc]++) {
            fprintf(stderr, "invariant: port %u vc %u feeds output %u %s\n", o->feed, o->rel_vc, g,
                    in->vc_busy >> o->rel_vc & 1 ? "and another output at once" : "without holding its VC");
            bad = 1;
        }
    }
    for (uint32_t g = 0; g < s->nports && !bad; g++)
        for (uint32_t v = 0; v < s->nvc; v++)
            if ((s->port[g].vc_busy >> v & 1) && !feeding[(size_t)g * s->nvc + v]) {
                fprintf(stderr, "invariant: port %u vc %u is held but feeds no output\n", g, v);
                bad = 1;
                break;
            }
    free(feeding);
    return bad;
}

int sim_check_invariants(sim_t *s, int drained)
{
    if (s->flit_mode) return flit_check_invariants(s, drained);
    int bad = 0;
    uint32_t nb = s->nports * s->nvc;
    int64_t *expect = xcalloc(nb, sizeof *expect);   /* bytes owed to each output's credit counter */
    uint64_t in_buffers = 0, in_links = 0;
    if (s->vn) bad |= voqnet_check(s, &in_buffers);
    for (uint32_t b = 0; b < (s->vn ? 0 : nb); b++) {
        const vcq_t *q = &s->vq[b];
        struct tally ty = { 0, 0 };
        buffer_foreach(s, b, tally_pkt, &ty);
        uint32_t cnt = ty.cnt, bytes = ty.bytes;
        if (cnt != q->npk) { fprintf(stderr, "invariant: queue %u counts %u packets, holds %u\n", b, q->npk, cnt); bad = 1; }
        if (!s->voq_mode && q->npk && q->second != (q->npk > 1 ? s->pkt[q->head].next : ICN_NIL)) {
            fprintf(stderr, "invariant: queue %u caches a wrong second packet\n", b);
            bad = 1;
        }
        for (uint64_t m = s->voq_mode ? s->voq_mask[b] : 0; m; m &= m - 1) {
            const voq_t *v = &s->voq[(size_t)b * s->voq_radix + (unsigned)__builtin_ctzll(m)];
            const packet_t *h = &s->pkt[v->head];
            if (v->hneed != (occ_bytes(s, h->size) << 8 | h->out_vc)) {
                fprintf(stderr, "invariant: a VOQ of queue %u caches a wrong head need\n", b);
                bad = 1;
            }
            int std = v->hneed == (s->voq_full << 8 | b % s->nvc);
            if (std != (int)(s->voq_std[b] >> __builtin_ctzll(m) & 1)) {
                fprintf(stderr, "invariant: a VOQ of queue %u marks its head %s\n", b, std ? "unusual" : "full and VC-keeping");
                bad = 1;
            }
        }
        uint32_t cap = s->vc_cap_sw;
        if (q->bytes > cap) { fprintf(stderr, "invariant: queue %u over capacity (%u > %u)\n", b, q->bytes, cap); bad = 1; }
        if (bytes > q->bytes) { fprintf(stderr, "invariant: queue %u holds %u bytes, accounts %u\n", b, bytes, q->bytes); bad = 1; }
        in_buffers += cnt;
        uint32_t g = b / s->nvc;
        if (!(s->port[g].dev & NIC_BIT) && s->port[g].peer != ICN_NIL)
            expect[s->port[g].peer * s->nvc + b % s->nvc] += q->bytes;
        else if (q->npk) { fprintf(stderr, "invariant: packets queued at unconnected port %u\n", g); bad = 1; }
    }
    for (uint32_t n = 0; n < s->nnodes; n++)   /* source queues cache their head message */
        for (uint32_t v = 0; s->nic[n].srcq && v < s->nsqs; v++) {
            const srcq_t *q = &s->nic[n].srcq[v];
            const srcmsg_t *m = q->n ? &q->m[q->head] : NULL;
            if (m && (q->hdst != m->dst || q->hsize != next_pkt_size(s, m->left))) {
                fprintf(stderr, "invariant: node %u source queue %u caches a wrong head\n", n, v);
                bad = 1;
            }
        }
    struct owed o = { s, expect, 0 };
    evq_foreach(&s->evq, owed_by_event, &o);
    in_links = o.in_links;
    if (in_buffers + in_links != s->pkt_live) {
        fprintf(stderr, "invariant: %u live packets but %llu in buffers + %llu on links\n", s->pkt_live,
                (unsigned long long)in_buffers, (unsigned long long)in_links);
        bad = 1;
    }
    if (s->st.inj_pkts != s->st.del_pkts + s->pkt_live) {
        fprintf(stderr, "invariant: injected %llu != delivered %llu + in network %u\n",
                (unsigned long long)s->st.inj_pkts, (unsigned long long)s->st.del_pkts, s->pkt_live);
        bad = 1;
    }
    if (s->st.gen_pkts && s->st.gen_pkts < s->st.inj_pkts) {
        fprintf(stderr, "invariant: generated %llu < injected %llu\n",
                (unsigned long long)s->st.gen_pkts, (unsigned long long)s->st.inj_pkts);
        bad = 1;
    }
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t g = b / s->nvc, peer = s->port[g].peer;
        uint32_t cap = peer == ICN_NIL ? 0 : (s->port[peer].dev & NIC_BIT) ? s->vc_cap_nic : s->vc_cap_sw;
        if (s->credits[b] < 0 || s->credits[b] + expect[b] != (int64_t)cap) {
            fprintf(stderr, "invariant: port %u vc %u: %d credits + %lld owed != capacity %u\n",
                    g, b % s->nvc, s->credits[b], (long long)expect[b], cap);
            bad = 1;
            break;
        }
        if (drained && s->credits[b] != (int32_t)cap) {
            fprintf(stderr, "invariant: drained network but port %u vc %u has %d of %u credits\n",
                    g, b % s->nvc, s->credits[b], cap);
            bad = 1;
            break;
        }
    }
    free(expect);
    if (s->xbar_queue && !s->voq_mode) bad |= check_vc_feeds(s);
    return bad ? -1 : 0;
}
