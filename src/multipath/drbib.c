/* DRB over InfiniBand (seed 001): the paths of a pair are the 2^LMC LIDs of
 * its destination, whose forwarding-table entries the routing engine fills
 * (ib.engine = dfs-disjoint: path 0 minimal, the others disjoint). The
 * switches' IBA CC marking detects congestion; a CNP returns the marked
 * packet's path (its DLID offset). The source does not throttle: a BECN
 * opens the next LID path (up to 2^LMC), messages split inversely to the
 * paths' notification counts (1 / (1 + BECNs)), and every CCTI_Timer
 * period without a BECN closes the highest open path, down to path 0.
 * Choice where the seed is silent: the counts halve at every expiry, so
 * the split follows recent notifications. */
#include "mp.h"
#include "../cc/cc.h"
#include "../ib/subnet.h"
#include "../core/util.h"

static simtime_t ib_ready(sim_t *s, uint32_t f) { (void)s; (void)f; return 0; }
static void ib_sent(sim_t *s, uint32_t f, uint32_t bytes) { (void)s; (void)f; (void)bytes; }

static void arm(sim_t *s, pair_t *pr, uint32_t i)
{
    pr->timer_on = 1;
    evq_push(&s->evq, s->now + s->mp->timer, EV_MP_TIMER, pr->node, i);
}

static void ib_becn(sim_t *s, uint32_t n, uint32_t dst, uint8_t sl, uint8_t path)
{
    mp_t *m = s->mp;
    (void)sl;
    uint32_t i = mp_pair_get(s, n, dst);
    pair_t *pr = mp_pair(m, i);
    m->becns++;
    if (path < m->max_paths) pr->p[path].notes += 1;
    pr->notified = 1;
    uint32_t w = mp_width(pr);
    if (w < m->max_paths) {   /* LID paths open in order: the next offset */
        pr->open |= (uint16_t)(1u << w);
        pr->p[w].notes = 0;
        pr->p[w].since = s->now;
        m->alt_open++;
        m->opens++;
        mp_log(s, pr, LOG_OPEN, pr->p[path < m->max_paths ? path : 0].notes);
    }
    if (!pr->timer_on) arm(s, pr, i);
}

void mp_timer(sim_t *s, uint32_t n, uint32_t i)
{
    mp_t *m = s->mp;
    pair_t *pr = mp_pair(m, i);
    (void)n;
    m->expiries++;
    pr->timer_on = 0;
    uint32_t w = mp_width(pr);
    if (!pr->notified && w > 1) {
        pr->open &= (uint16_t)~(1u << (w - 1));
        m->alt_open--;
        m->closes++;
        mp_log(s, pr, LOG_CLOSE, 0);
    }
    pr->notified = 0;
    int busy = mp_width(pr) > 1;
    for (uint32_t k = 0; k < m->max_paths; k++) {
        pr->p[k].notes *= 0.5;
        if (pr->p[k].notes < 1.0 / 64) pr->p[k].notes = 0;
        busy |= pr->p[k].notes > 0;
    }
    if (busy) arm(s, pr, i);
    else mp_pair_maybe_free(s, i);
}

void drbib_setup(sim_t *s, cfg_t *c)
{
    mp_t *m = s->mp;
    const ib_subnet_t *ib = ib_get(s);
    if (!ib) cfg_fail(c, K_MP_SCHEME, "drb-ib's paths are LIDs: it needs routing.algorithm = lft (with ib.lmc >= 1)");
    if (!ib->lmc) cfg_fail(c, K_IB_LMC, "drb-ib needs several LIDs per destination: set ib.lmc >= 1 (2^lmc paths)");
    if ((1u << ib->lmc) > MP_MAXP) cfg_fail(c, K_IB_LMC, "drb-ib uses at most %d paths per pair (ib.lmc <= 4)", MP_MAXP);
    if (!s->cc) cfg_fail(c, K_CC_MODE, "drb-ib detects congestion by IBA CC's FECN marking: set cc.mode = iba");
    /* the source's reaction is drb-ib's: CC's throttling keys would change nothing */
    static const key_id throttle[] = { K_CC_CCTI_INCREASE, K_CC_CCTI_LIMIT, K_CC_CCTI_MIN, K_CC_CCT, K_CC_MAX_DELAY,
                                       K_CC_CCT_FILE };
    for (size_t i = 0; i < ICN_ARRAY_LEN(throttle); i++)
        if (cfg_is_set(c, throttle[i]))
            cfg_fail(c, throttle[i], "drb-ib answers a BECN by spreading over the destination's LIDs, never by throttling: "
                     "this key has no effect (cc.ccti_timer paces its expiries)");
    /* the LIDs of a destination must lead somewhere else from some switch */
    int spread = 0;
    for (uint32_t w = 0; w < s->nswitches && !spread; w++)
        for (uint32_t n = 0; n < s->nnodes && !spread; n++)
            for (uint32_t k = 1; k < (1u << ib->lmc) && !spread; k++)
                spread = ib_lft(ib, w, ib_dlid(ib, n, k)) != ib_lft(ib, w, ib_dlid(ib, n, 0));
    if (!spread)
        cfg_fail(c, cfg_is_set(c, K_IB_LFT_FILE) ? K_IB_LFT_FILE : K_IB_ENGINE, "every LID of each destination follows "
                 "one route (ib.engine = %s), so drb-ib has no other path to open: use ib.engine = dfs-disjoint, or tables "
                 "that route a destination's LIDs apart", cfg_str(c, K_IB_ENGINE));
    m->max_paths = 1u << ib->lmc;
    m->timer = s->cc->timer;
    m->ib_ops = (tp_cc_t){ ib_ready, ib_sent, ib_becn, 0 };
    s->tp->cc = &m->ib_ops;
}
