#include "cc.h"
#include "cct.h"
#include "../core/util.h"
#include "../net/link.h"
#include "../net/policy.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Preset values for the keys a configuration leaves unset. */
typedef struct preset {
    const char *name, *desc;
    int threshold, marking_rate, packet_size, victim, per_sl, increase, timer, min, limit;
    const char *cct;
} preset_t;

static const preset_t presets[] = {
    /* OPA fabric manager template (opafm_src.xml): the anchors note, section 1.6 */
    { "opa", "OPA fabric manager template: Threshold 8, CCTI_Increase 5, CCTI_Timer 10, linear CCT to 8.3 us, per flow",
      8, 0, 0, 1, 0, 5, 10, 0, 127, "linear" },
    /* LLNL hardware study (ib-cc-tools-llnl): Threshold 0xf, Marking_Rate 0xf,
     * Packet_Size 1, SL-based, Increase 1, Timer 150, the simula_llnl table */
    { "simula-llnl", "LLNL hardware study: Threshold 15, Marking_Rate 15, CCTI_Increase 1, CCTI_Timer 150, quadratic CCT, per SL",
      15, 15, 1, 1, 1, 1, 150, 0, 127, "simula-llnl" },
};

void cc_list(FILE *f)
{
    fprintf(f, "congestion control (cc.mode):\n  %-12s %s\n  %-12s %s\n", "off", "none",
            "iba", "InfiniBand Annex A10: FECN marking, CNPs, CCT throttling at the sources (docs/INFINIBAND-CC.md)");
    fprintf(f, "IBA CC presets (cc.preset):\n");
    for (size_t i = 0; i < ICN_ARRAY_LEN(presets); i++) fprintf(f, "  %-12s %s\n", presets[i].name, presets[i].desc);
    fprintf(f, "IBA CC tables (cc.cct):\n  %-12s %s\n", "linear", "IRD_i = i / limit x cc.max_delay (OPA fabric manager)");
    cct_list(f);
    fprintf(f, "  %-12s %s\n", "file", "from cc.cct_file");
}

/* A key left unset takes the preset's value, which summary.csv then shows
 * (config.ini keeps it unset, so the preset still decides). */
static void shown(cfg_t *c, key_id k, const char *text)
{
    if (!cfg_is_set(c, k)) cfg_set(c, k, text, NULL, 0);
}

static int64_t key_or(cfg_t *c, key_id k, int64_t preset)
{
    if (cfg_is_set(c, k)) return cfg_int(c, k);
    char text[32];
    snprintf(text, sizeof text, "%lld", (long long)preset);
    shown(c, k, text);
    return preset;
}

void cc_setup(sim_t *s, cfg_t *c)
{
    const char *mode = cfg_str(c, K_CC_MODE);
    if (!strcmp(mode, "off")) {
        if (cfg_int(c, K_VIEWS_CC)) cfg_fail(c, K_VIEWS_CC, "shows IBA congestion control over time: set cc.mode = iba");
        return;
    }
    if (strcmp(mode, "iba")) cfg_fail(c, K_CC_MODE, "must be off or iba");
    if (s->flit_mode) cfg_fail(c, K_CC_MODE, "IBA congestion control is modelled by the packet-level switch (switch.model = packet)");
    if (s->vn) cfg_fail(c, K_CC_MODE, "IBA congestion control needs per-VL buffers; VOQnet splits them per destination");
    if (!s->route_at_arrival && !s->voq_mode)
        cfg_fail(c, K_CC_MODE, "a switch marks by the bytes queued for each output, so packets must be routed when they "
                 "arrive: set routing.when = arrival (or switch.voq = true) with a deterministic routing");
    const char *pn = cfg_str(c, K_CC_PRESET);
    const preset_t *p = NULL;
    for (size_t i = 0; i < ICN_ARRAY_LEN(presets); i++)
        if (!strcmp(presets[i].name, pn)) p = &presets[i];
    if (!p) cfg_fail(c, K_CC_PRESET, "unknown preset (opa or simula-llnl)");
    /* the bytes queued for one output VL (at most every input's whole
     * buffer) keep the top bit of its occupancy word free for the congested flag */
    uint32_t radix = 0;
    for (uint32_t w = 0; w < s->nswitches; w++)
        if (s->sw[w].nports > radix) radix = s->sw[w].nports;
    if ((uint64_t)radix * s->vc_cap_sw * s->nvc >= CC_CONGESTED)
        cfg_fail(c, K_SW_BUFFER, "cc.mode = iba counts the bytes queued for an output VL in 31 bits: %u ports of this "
                 "buffer could exceed them", radix);
    cc_t *cc = s->cc = xcalloc(1, sizeof *cc);
    size_t nb = (size_t)s->nports * s->nvc;
    /* (in the port records, zero since they were built, with few VCs) */
    cc->occ = port_vc_words(s, offsetof(port_t, cc_occ), PORT_CC_VCS, &cc->occ_base, &cc->occ_shift);
    cc->pvl = xcalloc(nb, sizeof *cc->pvl);
    cc->port_marks = xcalloc(s->nports, sizeof *cc->port_marks);
    cc->port_victim_fwd = xcalloc(s->nports, sizeof *cc->port_victim_fwd);

    uint32_t t = (uint32_t)key_or(c, K_CC_THRESHOLD, p->threshold);
    uint64_t h = cfg_is_set(c, K_CC_HYSTERESIS) ? cfg_u64(c, K_CC_HYSTERESIS) : 0;
    if (!h) h = s->mtu;
    cc->enter_bytes = t ? (uint32_t)((uint64_t)s->vc_cap_sw * (16 - t) / 16) : 0;
    if (t && !cc->enter_bytes) cc->enter_bytes = 1;
    cc->leave_bytes = cc->enter_bytes > h ? cc->enter_bytes - (uint32_t)h : 1;
    cc->marking_rate = (uint32_t)key_or(c, K_CC_MARKING_RATE, p->marking_rate);
    cc->min_size = 64 * (uint32_t)key_or(c, K_CC_PACKET_SIZE, p->packet_size);
    const char *vm = cfg_is_set(c, K_CC_VICTIM_MASK) ? cfg_str(c, K_CC_VICTIM_MASK) : p->victim ? "all" : "none";
    shown(c, K_CC_VICTIM_MASK, vm);
    if (!strcmp(vm, "all")) cc->victim_marks = 1;
    else if (strcmp(vm, "none")) cfg_fail(c, K_CC_VICTIM_MASK, "must be all or none");
    const char *pc = cfg_is_set(c, K_CC_PORT_CONTROL) ? cfg_str(c, K_CC_PORT_CONTROL) : p->per_sl ? "sl" : "flow";
    shown(c, K_CC_PORT_CONTROL, pc);
    if (!strcmp(pc, "sl")) cc->per_sl = 1;
    else if (strcmp(pc, "flow")) cfg_fail(c, K_CC_PORT_CONTROL, "must be flow or sl");
    /* per SL, a source's state is its injection VC's: the SL only while the
     * queuing scheme picks it among at most 16 (a routing that owns the VCs,
     * such as lft with path SLs, injects everything on VC 0) */
    if (cc->per_sl && (s->routing->owns_vcs || s->nvc > CC_NSL))
        cfg_fail(c, cfg_is_set(c, K_CC_PORT_CONTROL) ? K_CC_PORT_CONTROL : K_CC_PRESET,
                 "sl keeps a source's state per injection VC, which is its SL only with a queuing scheme's VCs, at most %u "
                 "(routing %s%s, switch.vcs = %u): use cc.port_control = flow", CC_NSL, s->routing->name,
                 s->routing->owns_vcs ? " chooses the VCs itself" : "", s->nvc);
    cc->increase = (uint32_t)key_or(c, K_CC_CCTI_INCREASE, p->increase);
    cc->timer = (simtime_t)key_or(c, K_CC_CCTI_TIMER, p->timer) * 1024000;   /* units of 1.024 us */
    cc->ccti_min = (uint32_t)key_or(c, K_CC_CCTI_MIN, p->min);
    cc->ccti_limit = (uint32_t)key_or(c, K_CC_CCTI_LIMIT, p->limit);
    if (cc->ccti_min > cc->ccti_limit)
        cfg_fail(c, cfg_is_set(c, K_CC_CCTI_MIN) ? K_CC_CCTI_MIN : K_CC_CCTI_LIMIT, "cc.ccti_min %u is above cc.ccti_limit %u",
                 cc->ccti_min, cc->ccti_limit);
    cc->tp = ser_time(s, s->mtu);
    cct_build(s, c, p->cct, cc);
    shown(c, K_CC_CCT, p->cct);
    /* A flow ends when idle at CCTI_Min, and a new one starts with no delay
     * owed: a delay at rest would be skipped by every new flow. */
    if (!cc->per_sl && cc->ird[cc->ccti_min] && strcmp(cfg_str(c, K_MP_SCHEME), "drb-ib"))   /* drb-ib never throttles */
        cfg_fail(c, cfg_is_set(c, K_CC_CCTI_MIN) ? K_CC_CCTI_MIN : cfg_is_set(c, K_CC_CCT_FILE) ? K_CC_CCT_FILE
                    : cfg_is_set(c, K_CC_CCT) ? K_CC_CCT : K_CC_PRESET,
                 "CCT[%u] (cc.ccti_min) is a delay of %.3f us at rest, which per-flow state cannot keep (flows end when idle "
                 "at CCTI_Min): use cc.port_control = sl, or a CCTI_Min whose CCT entry is 0", cc->ccti_min, cc->ird[cc->ccti_min] / 1e6);
    if (cc->per_sl) {
        cc->sl_cca = xcalloc((size_t)s->nnodes * CC_NSL, sizeof *cc->sl_cca);
        for (size_t i = 0; i < (size_t)s->nnodes * CC_NSL; i++) cc->sl_cca[i].ccti = (uint16_t)cc->ccti_min;
    }
    cc->node_thr = xcalloc(s->nnodes, sizeof *cc->node_thr);
    cc->node_sum = xcalloc(s->nnodes, sizeof *cc->node_sum);
    cc_view_setup(s, c);
    s->hooks.queued = cc_on_queued;
    s->hooks.forward = cc_on_forward;
}

/* The sources' side, through the transport's congestion-control ops. */
static simtime_t ready(sim_t *s, uint32_t f)
{
    const cca_t *a = cc_state(s, f);
    return a->ready + s->cc->ird[a->ccti];
}

static void sent(sim_t *s, uint32_t f, uint32_t bytes)
{
    cc_state(s, f)->ready = s->now + ser_time(s, bytes);
}

static const tp_cc_t iba_sources = { ready, sent, cc_becn, 0 };
static const tp_cc_t iba_sources_sl = { ready, sent, cc_becn, 1 };

void cc_attach(sim_t *s)
{
    if (!s->cc) return;
    s->tp->cc = s->cc->per_sl ? &iba_sources_sl : &iba_sources;
    s->tp->rest_ccti = (uint16_t)s->cc->ccti_min;
    if (!s->cc->per_sl) s->tp->keep_end = s->cc->ird[s->cc->ccti_limit];   /* the CCT is non-decreasing: the largest IRD */
}

void cc_free(sim_t *s)
{
    cc_t *cc = s->cc;
    if (!cc) return;
    free(cc->occ); free(cc->pvl); free(cc->port_marks); free(cc->port_victim_fwd); free(cc->sl_cca); free(cc->node_thr); free(cc->node_sum);
    cc_view_free(cc);
    free(cc->ts_throttled); free(cc->ts_max); free(cc->ts_mean); free(cc->ts_marked); free(cc->ts_becns);
    free(cc);
    s->cc = NULL;
}

static void leave_congested(cc_t *cc, uint32_t *occw, uint32_t b, simtime_t now)
{
    cc_pvl_t *v = &cc->pvl[b];
    *occw &= ~CC_CONGESTED;
    v->congested = 0;
    v->cong_time += now - v->since;
}

/* A congested port VL forwards packet id: its FECN, by the marking rules. */
static void mark(sim_t *s, cc_t *cc, uint32_t go, uint32_t b, packet_t *p, uint32_t occ, int waited)
{
    cc_pvl_t *v = &cc->pvl[b];
    /* Root or victim: whether the next hop can take another full packet once
     * this one has taken its credits. */
    int victim = *credit_cv(s, b) - (int32_t)occ < (int32_t)occ_bytes(s, s->mtu);
    if (victim) cc->port_victim_fwd[go]++;
    if (p->kind != PK_DATA || (p->flags & PKT_FECN) || p->size < cc->min_size || !waited) return;
    if (victim && !cc->victim_marks) return;
    cc->eligible_congested++;
    if (v->since_mark++ < cc->marking_rate) return;
    v->since_mark = 0;
    p->flags |= PKT_FECN;
    cc->marked++;
    cc->port_marks[go]++;
}

/* The state of the output port VL a packet leaves by: congested from the
 * moment its queue, the packet included, reaches the threshold, until the
 * queue the packet leaves behind is below it by the hysteresis. */
void cc_on_forward(sim_t *s, uint32_t go, uint32_t id, int waited)
{
    cc_t *cc = s->cc;
    packet_t *p = &s->pkt[id];
    uint32_t b = go * s->nvc + p->out_vc, occ = occ_bytes(s, p->size);
    uint32_t *ow = cc_occ(s, go, p->out_vc);
    uint32_t word = *ow, q = word & ~CC_CONGESTED;   /* queued for this port VL, this packet included */
    *ow = word - occ;
    if (!cc->enter_bytes) return;
    if (!(word & CC_CONGESTED)) {   /* the common case reads nothing beyond the occupancy word */
        if (q < cc->enter_bytes) return;
        *ow |= CC_CONGESTED;
        cc->pvl[b].congested = 1;
        cc->pvl[b].since = s->now;
    }
    /* (a queue left congested holds at least leave_bytes, and only grows until its next departure) */
    mark(s, cc, go, b, p, occ, waited);
    if (q - occ < cc->leave_bytes) leave_congested(cc, ow, b, s->now);   /* an emptied queue is not congested */
}

cca_t *cc_state(sim_t *s, uint32_t f)
{
    const flow_t *fl = flow_at(s->tp, f);
    if (s->cc->per_sl) return &s->cc->sl_cca[(size_t)fl->node * CC_NSL + (fl->vc & (CC_NSL - 1))];
    return &flow_at(s->tp, f)->cc;
}

/* A source's index moves from `from` to `to`: keep the per-index counts of
 * the sources above CCTI_Min (those throttled beyond their rest). */
static void ccti_move(cc_t *cc, uint32_t n, uint32_t from, uint32_t to)
{
    if (from > cc->ccti_min) { cc->ccti_count[from]--; cc->ccti_sum -= from; cc->node_thr[n]--; cc->node_sum[n] -= from; }
    if (to > cc->ccti_min) { cc->ccti_count[to]++; cc->ccti_sum += to; cc->node_thr[n]++; cc->node_sum[n] += to; }
}

void cc_on_sample(sim_t *s, uint32_t k)
{
    cc_t *cc = s->cc;
    if (!cc->ts_max) {   /* the time series exists once set-up is complete */
        cc->nbins = s->st.nbins;
        cc->ts_throttled = xcalloc(cc->nbins, sizeof *cc->ts_throttled);
        cc->ts_max = xcalloc(cc->nbins, sizeof *cc->ts_max);
        cc->ts_mean = xcalloc(cc->nbins, sizeof *cc->ts_mean);
        cc->ts_marked = xcalloc(cc->nbins, sizeof *cc->ts_marked);
        cc->ts_becns = xcalloc(cc->nbins, sizeof *cc->ts_becns);
    }
    if (k - 1 >= cc->nbins) return;
    uint32_t n = 0, mx = 0;
    for (uint32_t i = cc->ccti_limit; i > 0; i--) {
        if (cc->ccti_count[i] && !mx) mx = i;
        n += cc->ccti_count[i];
    }
    cc->ts_throttled[k - 1] = n;
    cc->ts_max[k - 1] = mx;
    cc->ts_mean[k - 1] = n ? (float)((double)cc->ccti_sum / n) : 0;
    cc->ts_marked[k - 1] = cc->marked;
    cc->ts_becns[k - 1] = cc->becns;
    cc->nsampled = k;
    if (cc->view) cc_view_sample(s, k);
}

static void arm(sim_t *s, cca_t *a, uint32_t n, uint32_t idx)
{
    a->timer_on = 1;
    evq_push(&s->evq, s->now + s->cc->timer, EV_CC_TIMER, n, idx);
}

void cc_becn(sim_t *s, uint32_t n, uint32_t dst, uint8_t sl, uint8_t path)
{
    (void)path;
    cc_t *cc = s->cc;
    cca_t *a;
    uint32_t idx;
    if (cc->per_sl) {
        idx = CC_SL_BIT | (sl & (CC_NSL - 1));
        a = &cc->sl_cca[(size_t)n * CC_NSL + (sl & (CC_NSL - 1))];
    } else {
        idx = flow_get(s, n, dst);
        a = &flow_at(s->tp, idx)->cc;
        if (!a->ready) a->ready = flow_ended_ready(s, n, dst);   /* a new flow: the IRD counts from its predecessor's end */
    }
    cc->becns++;
    a->becns++;
    uint32_t i = a->ccti + cc->increase;
    ccti_move(cc, n, a->ccti, i < cc->ccti_limit ? i : cc->ccti_limit);
    a->ccti = (uint16_t)(i < cc->ccti_limit ? i : cc->ccti_limit);
    if (!a->timer_on && a->ccti > cc->ccti_min) arm(s, a, n, idx);
    else if (!cc->per_sl) flow_maybe_free(s, idx);   /* CCTI_Increase 0: the flow the BECN made may hold nothing */
}

void cc_timer(sim_t *s, uint32_t n, uint32_t idx)
{
    transport_catch_up(s, n);   /* first: it may move the flow pool */
    cc_t *cc = s->cc;
    cca_t *a = idx & CC_SL_BIT ? &cc->sl_cca[(size_t)n * CC_NSL + (idx & (CC_NSL - 1))] : &flow_at(s->tp, idx)->cc;
    cc->timer_expiries++;
    a->timer_on = 0;
    if (a->ccti > cc->ccti_min) { ccti_move(cc, n, a->ccti, a->ccti - 1u); a->ccti--; }
    if (a->ccti > cc->ccti_min) arm(s, a, n, idx);
    else if (!(idx & CC_SL_BIT)) flow_maybe_free(s, idx);
    transport_rekey(s, n);   /* a shorter delay may let a waiting flow go sooner */
    sim_touch_nic(s, n);
}

void cc_sanity(const sim_t *s, uint32_t contributors)
{
    const cc_t *cc = s->cc;
    if (!cc || contributors < 2) return;
    double n = contributors;
    /* the slowest a flow can be made: Tp / (Tp + IRD[limit]) of the link */
    double floor_rate = (double)cc->tp / (double)(cc->tp + cc->ird[cc->ccti_limit]);
    if (floor_rate > 1.0 / n)
        fprintf(stderr, "icnsim: warning: cc: the CCT's largest delay keeps a flow at %.1f %% of the link, above the fair "
                "share 1/%u of a hot-spot with %u contributors: CC alone cannot hold them to it\n",
                100 * floor_rate, contributors, contributors);
    /* marks a contributor can receive per second against the decrements it must offset */
    double pkts = 1e12 / (double)cc->tp / n;            /* its packets per second at the fair share */
    double marks = pkts / (cc->marking_rate + 1.0);
    double need = 1e12 / ((double)cc->increase * (double)cc->timer);
    if (cc->increase == 0)
        fprintf(stderr, "icnsim: warning: cc: CCTI_Increase 0: BECNs never raise a source's index, so CC throttles no one\n");
    else if (marks < need)
        fprintf(stderr, "icnsim: warning: cc: at the fair share of %u contributors a source receives at most %.0f "
                "marks/s, fewer than the %.0f BECNs/s (1 / (CCTI_Increase x CCTI_Timer)) that hold its index up: "
                "its CCTI drifts down and the congestion tree re-forms\n", contributors, marks, need);
}
