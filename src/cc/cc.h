/* InfiniBand congestion control (IBA Annex A10), as OpenSM configures it
 * and the Linux hfi1 driver and PSM realise it at the channel adapters.
 *
 * Switch side: every (output port, VL) has a congestion state, entered when
 * the bytes queued for it in the switch's input buffers reach a threshold
 * from cc.threshold and left, with hysteresis, below threshold - cc.hysteresis.
 * A packet forwarded from a congested port is eligible for a FECN mark if it
 * is a data packet of at least cc.packet_size x 64 bytes without one; a root
 * port (room downstream for another packet.mtu packet) marks, a victim port
 * (none) marks only under cc.victim_mask = all; Marking_Rate M marks every
 * (M + 1)-th eligible packet of the port and VL.
 *
 * Channel adapter side: a FECN makes the destination return a CNP (the
 * transport, src/transport/); its BECN raises the source's CCT index by
 * CCTI_Increase up to CCTI_Limit and starts the CCTI timer if idle; each
 * expiry (CCTI_Timer x 1.024 us) lowers the index by one down to CCTI_Min,
 * re-arming while above it (hfi1's behaviour: a BECN does not restart a
 * running timer). The source leaves an idle gap of IRD = (Tp >> shift) x
 * multiplier, from CCT[index], between the end of one packet of the throttled
 * entity (a flow, or the node's SL) and the start of the next.
 *
 * In a FIFO input buffer the packets behind a head wait for that head, not
 * for their own output, so the bytes queued for a victim flow's idle output
 * can cross the threshold although nothing contends for it. A packet is
 * therefore marked only if it also lost an arbitration for its output at
 * the head (switch_forward's `waited`); without that rule the victim flow of the
 * contributor/victim test is throttled with the contributors and gets less
 * than without CC (tests/test_cc.c). In a VOQ switch every queued packet
 * waits for its own output. */
#ifndef ICN_CC_H
#define ICN_CC_H
#include "../net/model.h"
#include "../cli/config.h"
#include "../transport/transport.h"

enum { CC_NSL = 16, CC_MAX_CCT = 896 };

typedef struct cc_view cc_view_t;   /* views.cc (view.c) */

/* A switch output VL's congestion state, in one record: a forwarded packet
 * reads and updates all of it. The bytes queued for it, which every routed
 * packet updates, stay in a dense array of their own. */
#define CC_CONGESTED 0x80000000u

typedef struct cc_pvl {
    uint16_t since_mark;      /* eligible packets since the last mark */
    uint8_t congested;
    uint8_t pad_[5];
    simtime_t since;          /* congested since */
    uint64_t cong_time;       /* time spent congested before `since` (ps) */
} cc_pvl_t;

typedef struct cc {
    /* switch side */
    uint32_t enter_bytes, leave_bytes;   /* congestion state thresholds (enter 0: never marks) */
    uint32_t marking_rate, min_size;
    int victim_marks;
    /* Bytes queued in the switch for each output VL, | CC_CONGESTED while its
     * pvl record says congested; read by cc_occ(): port g's start occ_base +
     * (g << occ_shift) bytes in, in its record (port_t.cc_occ, the line its
     * routed packets' want mask and credits are in) with up to PORT_CC_VCS
     * VCs, else in `occ`, a power-of-two stride per port. */
    uint32_t *occ;            /* with more than PORT_CC_VCS VCs (NULL otherwise) */
    char *occ_base;
    uint32_t occ_shift;
    cc_pvl_t *pvl;            /* [port * nvc + vc] */
    /* channel adapter side */
    int per_sl;
    uint32_t increase, ccti_min, ccti_limit;
    simtime_t timer;          /* CCTI_Timer x 1.024 us */
    simtime_t tp;             /* serialization time of a packet.mtu packet */
    uint16_t cct[CC_MAX_CCT]; /* (shift << 14) | multiplier */
    simtime_t ird[CC_MAX_CCT];/* the IRD of each index */
    cca_t *sl_cca;            /* [node * CC_NSL + sl] when per_sl */
    /* statistics */
    uint64_t marked, eligible_congested, becns, timer_expiries;
    uint64_t *port_marks;     /* [port]: FECNs set on packets leaving it */
    uint64_t *port_victim_fwd;/* [port]: packets forwarded while a congested victim */
    /* over time: sources per CCT index (index 0 not counted), and per sample
     * [bin]: throttled sources, their mean and largest index, marks, BECNs */
    uint32_t ccti_count[CC_MAX_CCT];
    uint64_t ccti_sum;
    uint32_t *node_thr;       /* [node]: its sources above CCTI_Min */
    uint64_t *node_sum;       /* [node]: the sum of their indices */
    cc_view_t *view;          /* views.cc, or NULL */
    uint32_t nbins, nsampled;
    uint32_t *ts_throttled, *ts_max;
    float *ts_mean;
    uint64_t *ts_marked, *ts_becns;
} cc_t;

void cc_setup(sim_t *s, cfg_t *c);
/* The modes, presets and CCT shapes, for `icnsim --list`. */
void cc_list(FILE *f);
void cc_free(sim_t *s);

/* Give the transport's sources this congestion control (after transport_setup). */
void cc_attach(sim_t *s);
/* The bytes queued for output g's VL vc, or for output VL b (port * nvc + vc). */
static inline uint32_t *cc_occ(const sim_t *s, uint32_t g, uint32_t vc)
{
    return (uint32_t *)(s->cc->occ_base + ((size_t)g << s->cc->occ_shift)) + vc;
}
static inline uint32_t *cc_occ_cv(const sim_t *s, uint32_t b)
{
    uint32_t g = cv_port(s, b);
    return cc_occ(s, g, b - g * s->nvc);
}
/* A packet queued at a switch has been routed to output go, VL vc. */
static inline void cc_on_queued(sim_t *s, uint32_t go, uint8_t vc, uint32_t bytes)
{
    *cc_occ(s, go, vc) += bytes;
}
/* The packet leaves through output go (before it takes its credits): update
 * the port VL's state and mark it if eligible. */
void cc_on_forward(sim_t *s, uint32_t go, uint32_t id, int waited);

/* The congestion-control state a packet of flow f is throttled by. */
cca_t *cc_state(sim_t *s, uint32_t f);
/* A BECN for node n's traffic to dst (SL sl) has arrived. */
void cc_becn(sim_t *s, uint32_t n, uint32_t dst, uint8_t sl, uint8_t path);
/* The CCTI timer of node n's state `idx` (a flow id, or CC_SL_BIT | sl) expired. */
#define CC_SL_BIT 0x80000000u
void cc_timer(sim_t *s, uint32_t n, uint32_t idx);
/* Record the CCT indices of this sample (time-series bin k - 1). */
void cc_on_sample(sim_t *s, uint32_t k);
/* Write cc.csv, cc-ports.csv, flows.csv and cc-timeseries.csv into dir (flows.csv alone without CC, when the flow transport runs). */
void cc_write(const sim_t *s, const char *dir);
/* views.cc (view.c): set-up, a sample, the files (and cc-timeseries.gp for
 * any CC run), teardown. */
void cc_view_setup(sim_t *s, cfg_t *c);
void cc_view_sample(sim_t *s, uint32_t k);
void cc_view_write(const sim_t *s, const char *dir, const char *title, int render);
void cc_view_free(cc_t *cc);
/* Time switch output VL b has been congested, up to now. */
static inline uint64_t cc_cong_time(const sim_t *s, size_t b)
{
    const cc_pvl_t *v = &s->cc->pvl[b];
    return v->cong_time + (v->congested ? s->now - v->since : 0);
}
/* Warnings for parameters that cannot hold a fair share (marking capacity). */
void cc_sanity(const sim_t *s, uint32_t contributors);

#endif
