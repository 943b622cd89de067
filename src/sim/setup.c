/* Simulation set-up from a configuration, and its teardown. */
#include "sim.h"
#include "internal.h"
#include "../core/util.h"
#include "../core/comm.h"
#include "../core/units.h"
#include "../net/link.h"
#include "../net/policy.h"
#include "../net/flit.h"
#include "../stats/views.h"
#include "../stats/view_pdes.h"
#include "../cc/cc.h"
#include "../multipath/mp.h"
#include "../workload/internal.h"
#include "../transport/transport.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void packet_buffers(sim_t *s, cfg_t *c);
static void setup_policies(sim_t *s, cfg_t *c);

static void list_names_fail(cfg_t *c, key_id k, const char *what)
{
    cfg_fail(c, k, "unknown %s (run `icnsim --list` for the choices)", what);
}

/* time.parts, after everything it depends on is set up */
static void parts_check(sim_t *s, cfg_t *c);

void sim_setup(sim_t *s, cfg_t *c)
{
    memset(s, 0, sizeof *s);
    s->part = UINT32_MAX;   /* the whole run's context, not one part's */
    s->cfg = c;
    s->pkt_free = s->msg_free = ICN_NIL;
    evq_init(&s->evq);
    s->seed = (uint64_t)cfg_int(c, K_SEED);
    s->warmup = cfg_u64(c, K_TIME_WARMUP);
    s->end = s->stop = s->warmup + cfg_u64(c, K_TIME_MEASURE);
    if (cfg_int(c, K_TIME_DRAIN)) {
        s->drain_max = cfg_is_set(c, K_TIME_DRAIN_MAX) && cfg_u64(c, K_TIME_DRAIN_MAX) ? cfg_u64(c, K_TIME_DRAIN_MAX)
                                                                                      : cfg_u64(c, K_TIME_MEASURE);
        s->end = s->stop + s->drain_max;
    }
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
        if (s->p_long >= 1 && cfg_is_set(c, K_MSG_SIZE))
            cfg_fail(c, K_MSG_SIZE, "has no effect: every message is long (traffic.long_fraction = 1, traffic.long_size)");
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
    /* VOQnet sizes its per-destination queues by queuing.queue_size */
    if (!strcmp(cfg_peek(c, K_QUEUING), "voqnet") && cfg_is_set(c, K_SW_BUFFER))
        cfg_fail(c, K_SW_BUFFER, "has no effect: voqnet's switch queues take queuing.queue_size each");
    uint64_t swbuf = cfg_u64(c, K_SW_BUFFER), nicbuf = cfg_u64(c, K_NIC_BUFFER);
    if (swbuf / s->nvc > INT32_MAX || nicbuf / s->nvc > INT32_MAX)   /* credits are 31-bit counters */
        cfg_fail(c, swbuf / s->nvc > INT32_MAX ? K_SW_BUFFER : K_NIC_BUFFER, "a VC of more than 2 GB (2^31 - 1 bytes) is not supported");
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
    if (occ_bytes(s, s->mtu) > s->vc_cap_nic / s->gran * s->gran && s->gran > 1)   /* a NIC's buffer is charged in units too */
        cfg_fail(c, K_NIC_BUFFER, "a %u-byte packet takes %u bytes in units of switch.granularity = %u, more than a VC's %u bytes",
                 s->mtu, occ_bytes(s, s->mtu), s->gran, s->vc_cap_nic);
}

/* Network state, policies, traffic and statistics, once the topology exists. */
static void setup_policies(sim_t *s, cfg_t *c)
{
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (s->port[s->nic[n].port].peer == ICN_NIL) die("topology left node %u unconnected", n);

    s->credits = port_vc_words(s, offsetof(port_t, cr), PORT_VCS, &s->cr_base, &s->cr_shift);
    s->vq = xaligned_calloc(64, (size_t)s->nports * s->nvc, sizeof *s->vq);
    for (uint32_t g = 0; g < s->nports; g++) {
        /* unconnected ports (mesh boundaries) hold no credits */
        uint32_t peer = s->port[g].peer;
        uint32_t cap = peer == ICN_NIL ? 0 : (s->port[peer].dev & NIC_BIT) ? s->vc_cap_nic : s->vc_cap_sw;
        for (uint32_t v = 0; v < s->nvc; v++) {
            *credit(s, g, v) = (int32_t)cap;
            s->vq[g * s->nvc + v].head = s->vq[g * s->nvc + v].tail = ICN_NIL;
        }
    }

    if (!(s->routing = find_routing(cfg_str(c, K_ROUTING)))) list_names_fail(c, K_ROUTING, "routing algorithm");
    /* the bubble rule travels with the candidates a head is routed to: only
     * the packet-level switch that routes heads (routing.when = head) keeps it */
    int bubble = !strcmp(s->routing->name, "dor-bubble") || !strcmp(s->routing->name, "bubble-adaptive");
    if (s->flit_mode && bubble)
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
        if (bubble)
            cfg_fail(c, K_SW_VOQ, "routing %s applies the bubble rule when a packet at the head of its queue enters a ring; "
                     "a VOQ switch routes at arrival and would drop it", s->routing->name);
        voq_setup(s);
    }
    if (!s->flit_mode) {
        const char *when = cfg_str(c, K_ROUTING_WHEN);
        if (!strcmp(when, "arrival")) s->route_at_arrival = 1;
        else if (strcmp(when, "head")) cfg_fail(c, K_ROUTING_WHEN, "must be head or arrival");
        /* IBA CC counts the bytes queued per output: route at arrival unless told otherwise */
        if (!cfg_is_set(c, K_ROUTING_WHEN) && strcmp(cfg_str(c, K_CC_MODE), "off") && !s->routing->multi_cand) {
            s->route_at_arrival = 1;
            cfg_set(c, K_ROUTING_WHEN, "arrival", NULL, 0);   /* summary.csv says so */
        }
        if (s->route_at_arrival && s->routing->multi_cand)
            cfg_fail(c, K_ROUTING_WHEN, "routing %s offers several outputs per packet to choose from when it reaches "
                     "the head; routing at arrival needs one", s->routing->name);
        if (s->route_at_arrival && bubble)
            cfg_fail(c, cfg_is_set(c, K_ROUTING_WHEN) ? K_ROUTING_WHEN : K_CC_MODE,
                     "routing %s applies the bubble rule when a packet at the head of its queue enters a ring; routing at "
                     "arrival (routing.when = arrival, which cc.mode = iba needs) would drop it", s->routing->name);
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
    cc_setup(s, c);
    /* nic.queues is marked used only where it takes effect, so that a value
     * that changes nothing (per-vc or shared on one VC, or under CC) is refused */
    const char *qm = cfg_peek(c, K_NIC_QUEUES);
    if (strcmp(qm, "per-vc") && strcmp(qm, "shared") && strcmp(qm, "flows")) cfg_fail(c, K_NIC_QUEUES, "must be per-vc, shared or flows");
    int flows = !strcmp(qm, "flows");   /* the flow transport without CC: the CC-off baseline with the same NIC */
    if (flows) (void)cfg_str(c, K_NIC_QUEUES);
    if (flows && s->flit_mode) cfg_fail(c, K_NIC_QUEUES, "flows: the flow transport runs on the packet-level model (switch.model = packet)");
    if (flows && s->vn) cfg_fail(c, K_NIC_QUEUES, "flows: the flow transport needs per-VC buffers; VOQnet splits them per destination");
    transport_setup(s, c, s->cc != NULL || mp_wanted(c) || flows);
    cc_attach(s);
    mp_setup(s, c);
    if (!s->tp && !s->flit_mode && !s->routing->owns_vcs && (s->nsqs > 1 || s->vn)) {
        if (!strcmp(cfg_str(c, K_NIC_QUEUES), "per-vc")) {
            s->srcq_limit = (uint32_t)cfg_int(c, K_NIC_QUEUE_LIMIT);
            s->srcqs = xcalloc((size_t)s->nnodes * s->nsqs, sizeof *s->srcqs);
            for (uint32_t n = 0; n < s->nnodes; n++) s->nic[n].srcq = &s->srcqs[(size_t)n * s->nsqs];
        }
    }
    if (s->flit_mode) {
        flit_setup(s, c);   /* round-robin allocation is built in */
        if (cfg_is_set(c, K_SW_CROSSBAR))
            cfg_fail(c, K_SW_CROSSBAR, "the flit-level router has its own crossbar model (switch.model = flit)");
    } else {
        const char *xb = cfg_str(c, K_SW_CROSSBAR);
        if (!strcmp(xb, "queue")) s->xbar_queue = 1;
        else if (strcmp(xb, "port")) cfg_fail(c, K_SW_CROSSBAR, "must be port or queue");
        /* a crossbar input per queue serves each output round-robin: no arbiter
         * (given one, the check for keys without effect says so) */
        if (!s->xbar_queue) {
            if (!(s->arbiter = find_arbiter(cfg_str(c, K_SW_ARBITER)))) list_names_fail(c, K_SW_ARBITER, "arbiter");
            if (!strcmp(s->arbiter->name, "islip")) s->islip_iters = (int)cfg_int(c, K_SW_ISLIP_ITERS);
        }
        if (s->xbar_queue && s->vn)
            cfg_fail(c, K_SW_CROSSBAR, "VOQnet switches are modelled with one crossbar input per port (switch.crossbar = port)");
        if (s->xbar_queue && s->nvc > 16) cfg_fail(c, K_SW_CROSSBAR, "queue supports at most 16 VCs (switch.vcs = %u)", s->nvc);
    }
    s->load = traffic_load(s, c, K_LOAD, K_TR_RATE);   /* after flit_setup: link_bps is known */
    s->ser_mtu = ser_time(s, s->mtu);
    s->slot = msg_slot_of(s);
    wl_setup(s, c);
    /* A workload's nodes run its ranks; the others send background traffic
     * only if a load is given. */
    if (s->wl && !cfg_is_set(c, K_LOAD) && !cfg_is_set(c, K_TR_RATE)) {
        s->load = 0;
        cfg_set(c, K_LOAD, "0", NULL, 0);   /* summary.csv says so; config.ini leaves it unset, as here */
    }
    if (!(s->process = find_process(cfg_str(c, K_TR_PROCESS)))) list_names_fail(c, K_TR_PROCESS, "injection process");
    if (s->process->lattice == PROC_CYCLES && !s->cycle)
        cfg_fail(c, K_TR_PROCESS, "%s draws once per router cycle: it needs switch.model = flit", s->process->name);
    if (s->process->lattice == PROC_CYCLES && s->load * (double)s->cycle > (double)msg_slot(s) * (1 + 1e-9))
        cfg_fail(c, cfg_is_set(c, K_TR_RATE) ? K_TR_RATE : K_LOAD, "%s makes at most one message per router cycle, a "
                 "load of %.4g with these messages and links: use bernoulli or poisson, or longer messages",
                 s->process->name, (double)msg_slot(s) / (double)s->cycle);
    if (!(s->pattern = find_pattern(cfg_str(c, K_TR_PATTERN)))) list_names_fail(c, K_TR_PATTERN, "traffic pattern");
    s->pattern->setup(s, c, K_TR_PATTERN);
    if (!(s->scenario = find_scenario(cfg_str(c, K_TR_SCENARIO)))) list_names_fail(c, K_TR_SCENARIO, "scenario");
    for (uint32_t n = 0; n < s->nnodes; n++) s->nic[n].hot = -1;
    s->scenario->setup(s, c);
    if (s->cc && !s->scenario->load) {   /* the largest group of sources sharing a hot-spot role, for the parameter check
                                          * (phased scenarios' roles are not hot-spot groups) */
        uint32_t per_role[64] = { 0 }, most = 0;
        for (uint32_t n = 0; n < s->nnodes; n++)
            if (s->nic[n].hot >= 0 && s->nic[n].hot < 64 && ++per_role[s->nic[n].hot] > most) most = per_role[s->nic[n].hot];
        cc_sanity(s, most);
    }

    uint32_t nsilent = 0;
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
        nsilent += (uint32_t)nc->silent;
        simtime_t first = nic_next_arrival(s, n, &nc->arrival, 0);
        nc->next_gen = nc->silent ? SIMTIME_MAX : first;
        if (nc->next_gen < s->end) {
            nc->wake_at = nc->next_gen;
            sim_push(s, nc->next_gen, EV_NIC_WAKE, n, 0);
        }
    }
    /* A load that no node can offer: every node a fixed point of the pattern
     * (shift by a multiple of N, tornado on rings of 2, ...), no scenario role. */
    if (nsilent == s->nnodes && s->load > 0 && !s->wl)
        cfg_fail(c, !strcmp(s->pattern->name, "shift") ? K_TR_SHIFT : K_TR_PATTERN,
                 "every node is a fixed point of pattern %s on this %u-node network: no node would send", s->pattern->name, s->nnodes);
    uint64_t interval = cfg_u64(c, K_TIME_INTERVAL);
    if (interval % 1000)   /* the CSV files give times in us to 3 decimals: rows must not blur */
        cfg_fail(c, K_TIME_INTERVAL, "must be a whole number of nanoseconds (times are written in us to the ns)");
    if (s->stop / interval > 10000000)
        cfg_fail(c, K_TIME_INTERVAL, "the run would have %llu time-series samples (at most 10 million); use a longer interval",
                 (unsigned long long)(s->stop / interval));
    stats_init(&s->st, interval, s->stop);
    if (!s->deadlock_after) {   /* automatic: 50 packet times; nothing legitimately stalls that long */
        simtime_t hop = s->flit_mode ? flit_packet_time(s) : ser_time(s, s->mtu) + s->routing_delay + s->link_delay;
        s->deadlock_after = 50 * (hop ? hop : 1);
    }
    /* Thousands of events share an instant on a large network; far more
     * means a loop of zero-delay events, which the time-based watchdog
     * cannot see because time no longer reaches its next sample. */
    s->instant_limit = 64 * ((uint64_t)s->nports * s->nvc + s->nnodes) + 1000000;
    if (cfg_int(c, K_CHECK_INVARIANTS)) s->check_every = s->next_check = (uint64_t)cfg_int(c, K_CHECK_EVERY);
    const char *ties = cfg_str(c, K_TIME_TIES);
    if (strcmp(ties, "insertion") && strcmp(ties, "canonical")) cfg_fail(c, K_TIME_TIES, "must be insertion or canonical");
    if ((s->canon_ties = !strcmp(ties, "canonical")))
        s->pend_bits = xcalloc(((size_t)s->nswitches + s->nnodes + 63) / 64, sizeof *s->pend_bits);
    if ((s->shuffle_ties = cfg_int(c, K_CHECK_SHUFFLE_TIES) > 0)) rng_seed(&s->tie_rng, s->seed, RNG_CHECK, (uint64_t)cfg_int(c, K_CHECK_SHUFFLE_TIES));
    views_setup(s, c);
    if (cfg_int(c, K_VIEWS_PDES) && s->flit_mode)
        cfg_fail(c, K_VIEWS_PDES, "counts the packet-level model's events (switch.model = packet)");
    if (cfg_int(c, K_VIEWS_PDES) && s->vn)
        cfg_fail(c, K_VIEWS_PDES, "does not follow VOQnet's per-destination credits (queuing.scheme = voqnet)");
    if (cfg_int(c, K_VIEWS_PDES) > s->nnodes)   /* as time.parts */
        cfg_fail(c, K_VIEWS_PDES, "asks for more parts than end nodes (%u)", s->nnodes);
    pdes_view_setup(s, (uint32_t)cfg_int(c, K_VIEWS_PDES));
    evq_push(&s->evq, s->st.interval, EV_SAMPLE, 1, 0);
    if (s->wl) {   /* closed loop: time.measure is the application's deadline, nothing to drain */
        s->end = s->stop;
        s->drain_max = 0;
        wl_start(s);
    }
    if (s->drain_max) evq_push(&s->evq, s->stop, EV_STOP, 0, 0);
    parts_check(s, c);
    cfg_check_unused(c);
}

/* time.parts: what the partitioned loop (src/sim/parts.c) handles so far. */
static void parts_check(sim_t *s, cfg_t *c)
{
    uint32_t n = (uint32_t)cfg_int(c, K_TIME_PARTS);
    const comm_t *comm = parts_comm();
    if (comm && n < (uint32_t)comm->size)
        cfg_fail(c, K_TIME_PARTS, "is %u, but the run has %d MPI ranks, which share the network's parts: set it to %d or more "
                 "(with time.ties = canonical)", n, comm->size, comm->size);
    if (n < 2) {
        if (cfg_int(c, K_TIME_THREADS) > 1) cfg_fail(c, K_TIME_THREADS, "runs the parts of time.parts: set it to 2 or more");
        return;
    }
    const char *why = !s->canon_ties ? "needs time.ties = canonical, the order it reproduces"
                    : s->flit_mode ? "runs the packet-level model (switch.model = packet)"
                    : s->vn ? "does not split VOQnet's per-destination credits (queuing.scheme = voqnet)"
                    : s->tp ? "does not split the flow transport yet (cc.mode, multipath.scheme, nic.queues = flows)"
                    : s->wl ? "does not split a workload's ranks yet (workload.source)"
                    : s->pdes ? "is what views.pdes measures on the sequential run: run one or the other"
                    : s->bubble_local ? "does not split the local bubble rule, which counts the packets on their way into a "
                                        "neighbour's queue the moment they leave (routing.bubble = remote splits)"
                    : !s->link_delay ? "needs a link delay: it is the lookahead, the window the parts run alone"
                    : n > s->nnodes ? "asks for more parts than end nodes" : NULL;
    if (why) cfg_fail(c, K_TIME_PARTS, "%s", why);
    uint32_t threads = (uint32_t)cfg_int(c, K_TIME_THREADS);
    if (threads > n) cfg_fail(c, K_TIME_THREADS, "%u threads for %u parts (time.parts): a thread runs whole parts", threads, n);
    if (threads > 1 && getenv("ICNSIM_FTADAPT_LOG"))
        cfg_fail(c, K_TIME_THREADS, "the fat-tree routings' decision log (ICNSIM_FTADAPT_LOG) is one table for all switches: run it on one thread");
    if (comm && s->check_every)
        cfg_fail(c, K_CHECK_INVARIANTS, "reads the whole network, and over MPI ranks each rank holds only its own parts: check a partitioned run on threads");
    if (comm && threads > n / (uint32_t)comm->size)
        cfg_fail(c, K_TIME_THREADS, "%u threads, but each of the %d MPI ranks runs %u or more of the %u parts: a thread runs whole parts",
                 threads, comm->size, n / (uint32_t)comm->size, n);
    if (comm && getenv("ICNSIM_FTADAPT_LOG"))
        cfg_fail(c, K_TIME_PARTS, "over MPI ranks: the fat-tree routings' decision log (ICNSIM_FTADAPT_LOG) is one table for all switches");
    parts_setup(s, n, threads);
}

void sim_free(sim_t *s)
{
    parts_free(s);
    wl_free(s);
    mp_free(s);
    cc_free(s);
    transport_free(s);
    flit_free(s);
    views_free(s);
    pdes_view_free(s);
    if (s->routing && s->routing->cleanup) s->routing->cleanup(s);
    if (s->topo && s->topo->cleanup && s->topo_data) s->topo->cleanup(s);
    evq_free(&s->evq);
    for (size_t q = 0; s->srcqs && q < (size_t)s->nnodes * s->nsqs; q++) free(s->srcqs[q].m);
    free(s->srcqs);
    free(s->voq); free(s->voq_mask); free(s->voq_std);
    voqnet_free(s);
    free(s->port); free(s->sw); free(s->nic); free(s->credits); free(s->vq);
    free(s->pkt); free(s->ptime); free(s->parr); free(s->pext); free(s->proute); free(s->msg_left); free(s->msg_gen); free(s->pend);
    free(s->pmsg_key); free(s->pmsg_npk); free(s->msg_key); free(s->msg_npk); free(s->msg_seq); free(s->node_here);
    free(s->inst); free(s->inst_key); free(s->inst_tmp); free(s->pend_bits);
    free(s->topo_data); free(s->routing_data); free(s->pattern_data); free(s->scenario_data);
    stats_free(&s->st);
    memset(s, 0, sizeof *s);
}

/* ---- deadlock report ---- */
