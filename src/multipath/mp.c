/* The multipath layer's set-up, its pools (pairs, contending sets, ACK
 * records) and the hooks it installs: path choice and header at the
 * source, queueing-time accumulation at every router, ACKs at the
 * destination. */
#include "mp.h"
#include "../net/policy.h"
#include "../topo/cube.h"
#include "../routing/msp.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

extern const routing_ops routing_dor_msp;

int mp_wanted(cfg_t *c) { return strcmp(cfg_str(c, K_MP_SCHEME), "off") != 0; }

/* ---- pairs: a pool with stable ids, found by (node, dst) ---- */

pair_t *mp_pair(const mp_t *m, uint32_t i) { return (pair_t *)(m->pairs + (size_t)i * m->stride); }

static inline uint32_t hslot(uint64_t key, uint32_t cap) { return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1); }

static void h_put(mp_t *m, uint64_t key, uint32_t v)
{
    uint32_t i = hslot(key, m->hcap);
    while (m->hval[i] != ICN_NIL) i = (i + 1) & (m->hcap - 1);
    m->hkey[i] = key;
    m->hval[i] = v;
}

static void h_grow(mp_t *m)
{
    uint64_t *ok = m->hkey;
    uint32_t *ov = m->hval, oc = m->hcap;
    m->hcap = oc ? 2 * oc : 64;
    m->hkey = xmalloc(m->hcap * sizeof *m->hkey);
    m->hval = xmalloc(m->hcap * sizeof *m->hval);
    memset(m->hval, 0xff, m->hcap * sizeof *m->hval);
    for (uint32_t i = 0; i < oc; i++)
        if (ov[i] != ICN_NIL) h_put(m, ok[i], ov[i]);
    free(ok);
    free(ov);
}

static uint32_t h_find(const mp_t *m, uint64_t key)
{
    if (!m->hcap) return ICN_NIL;
    for (uint32_t i = hslot(key, m->hcap);; i = (i + 1) & (m->hcap - 1))
        if (m->hval[i] == ICN_NIL || m->hkey[i] == key) return m->hval[i];
}

/* Remove key, then re-insert the rest of its cluster (linear probing). */
static void h_del(mp_t *m, uint64_t key)
{
    uint32_t i = hslot(key, m->hcap), mask = m->hcap - 1;
    while (m->hval[i] == ICN_NIL || m->hkey[i] != key) i = (i + 1) & mask;
    m->hval[i] = ICN_NIL;
    for (i = (i + 1) & mask; m->hval[i] != ICN_NIL; i = (i + 1) & mask) {
        uint64_t k = m->hkey[i];
        uint32_t v = m->hval[i];
        m->hval[i] = ICN_NIL;
        h_put(m, k, v);
    }
}

uint32_t mp_pair_get(sim_t *s, uint32_t n, uint32_t dst)
{
    mp_t *m = s->mp;
    uint64_t key = (uint64_t)n << 32 | dst;
    uint32_t i = h_find(m, key);
    if (i != ICN_NIL) return i;
    if (m->pair_free == ICN_NIL) {
        uint32_t old = m->npair_cap, cap = old ? 2 * old : 256;
        m->pairs = xrealloc(m->pairs, (size_t)cap * m->stride);
        for (uint32_t k = old; k < cap; k++) {
            pair_t *pr = mp_pair(m, k);
            pr->node = ICN_NIL;
            pr->next = k + 1 < cap ? k + 1 : ICN_NIL;
        }
        m->pair_free = old;
        m->npair_cap = cap;
    }
    i = m->pair_free;
    pair_t *pr = mp_pair(m, i);
    m->pair_free = pr->next;
    memset(pr, 0, m->stride);
    pr->node = n;
    pr->dst = dst;
    pr->next = ICN_NIL;
    pr->cset = pr->db = ICN_NIL;
    drb_init_pair(s, pr);
    if (2 * (m->pairs_live + 1) > m->hcap) h_grow(m);
    h_put(m, key, i);
    if (++m->pairs_live > m->pairs_peak) m->pairs_peak = m->pairs_live;
    return i;
}

/* A pair at rest (path 0 alone, no episode, no stored solution, no timer)
 * holds nothing worth keeping: memory follows the pairs that need state. */
void mp_pair_maybe_free(sim_t *s, uint32_t i)
{
    mp_t *m = s->mp;
    pair_t *pr = mp_pair(m, i);
    if (pr->open != 1 || pr->episode || pr->db != ICN_NIL || pr->timer_on || pr->inflight || pr->p[0].notes > 0) return;
    if (m->scheme != MP_DRBIB && drb_ratio(pr, m->max_paths) >= m->low) return;
    if (pr->cset != ICN_NIL) mp_cset_free(m, pr->cset);
    h_del(m, (uint64_t)pr->node << 32 | pr->dst);
    pr->node = ICN_NIL;
    pr->next = m->pair_free;
    m->pair_free = i;
    m->pairs_live--;
}

/* ---- small pools: contending sets, ACK records ---- */

uint32_t mp_cset_alloc(mp_t *m)
{
    POOL_RESERVE(m->cs, m->ncs, m->cs_free, cset_t);
    uint32_t c = m->cs_free;
    m->cs_free = m->cs[c].next;
    m->cs[c].n = 0;
    return c;
}

void mp_cset_free(mp_t *m, uint32_t c)
{
    m->cs[c].next = m->cs_free;
    m->cs_free = c;
}

static uint32_t ack_alloc(mp_t *m)
{
    POOL_RESERVE(m->ack, m->nack, m->ack_free, ackrec_t);
    uint32_t a = m->ack_free;
    m->ack_free = m->ack[a].next;
    return a;
}

/* ---- hooks ---- */

static uint8_t mp_pick(sim_t *s, uint32_t n, uint32_t dst)
{
    mp_t *m = s->mp;
    if (m->scheme == MP_DRBIB) {   /* no ACKs: a pair exists while BECNs keep it; without one, path 0 */
        uint32_t i = h_find(m, (uint64_t)n << 32 | dst);
        return i == ICN_NIL ? 0 : drb_pick(s, mp_pair(m, i), &m->rng[n]);
    }
    pair_t *pr = mp_pair(m, mp_pair_get(s, n, dst));
    drb_idle(s, pr);
    pr->inflight++;
    return drb_pick(s, pr, &m->rng[n]);
}

static void mp_stamp(sim_t *s, uint32_t id, uint8_t path)
{
    mp_t *m = s->mp;
    packet_t *p = &s->pkt[id];
    p->path = path;
    if (m->scheme == MP_DRBIB) return;
    *mp_hdr(s, id) = (mphdr_t){ 0, ICN_NIL, 0 };
    if (!path) return;
    /* a later packet of a message whose path has closed since takes path 0 */
    uint32_t i = h_find(m, (uint64_t)p->src << 32 | p->dst);
    const pair_t *pr = i == ICN_NIL ? NULL : mp_pair(m, i);
    if (!pr || !(pr->open >> path & 1)) { p->path = 0; return; }
    s->proute[id] = (proute_t){ { pr->p[path].in1, pr->p[path].in2 }, 0 };
}

/* Every router: the packet's wait there joins its header; PR-DRB's first
 * congested router records the flows it contends with. */
static void mp_forward(sim_t *s, uint32_t go, uint32_t id, int waited)
{
    mp_t *m = s->mp;
    if (s->pkt[id].kind == PK_DATA) {
        mphdr_t *h = mp_hdr(s, id);
        simtime_t w = s->now - s->parr[id];
        h->qlat += w;
        if (m->scheme == MP_PRDRB && !h->pred && w > m->monitor && (h->cset = prdrb_record(s, s->port[go].dev, id)) != ICN_NIL) {
            h->pred = 1;
            m->records++;
        }
    }
    if (m->prev_forward) m->prev_forward(s, go, id, waited);
}

static uint32_t mp_ack_out(sim_t *s, uint32_t id)
{
    mp_t *m = s->mp;
    uint32_t a = ack_alloc(m);
    const mphdr_t *h = mp_hdr(s, id);
    m->ack[a].sent = s->ptime[id].inj;
    m->ack[a].qlat = h->qlat;
    m->ack[a].cset = h->cset;   /* the set moves from the packet to the ACK */
    m->ack[a].path = s->pkt[id].path;
    return a;
}

static void mp_passed(sim_t *s, uint32_t id)
{
    mphdr_t *h = mp_hdr(s, id);
    if (h->cset != ICN_NIL) { mp_cset_free(s->mp, h->cset); h->cset = ICN_NIL; }
}

static void mp_ack_in(sim_t *s, uint32_t id)
{
    mp_t *m = s->mp;
    const packet_t *p = &s->pkt[id];
    ackrec_t r = m->ack[p->msg];
    m->ack[p->msg].next = m->ack_free;
    m->ack_free = p->msg;
    uint32_t i = mp_pair_get(s, p->dst, p->src);
    pair_t *pr = mp_pair(m, i);
    pr->inflight--;
    pr->last_ack = s->now;
    drb_feedback(s, pr, r.path, r.sent, r.qlat, r.cset);
    mp_pair_maybe_free(s, i);
}

/* ---- set-up ---- */

static void setup_drb(sim_t *s, cfg_t *c, mp_t *m)
{
    const char *name = m->scheme == MP_DRB ? "drb" : "pr-drb";
    if (s->routing != &routing_dor_msp)
        cfg_fail(c, K_MP_SCHEME, "%s sends messages over multi-step paths: it needs routing.algorithm = dor-msp (meshes, tori); "
                 "routing.algorithm is '%s' (for InfiniBand LIDs use drb-ib)", name, s->routing->name);
    if (s->cc) cfg_fail(c, K_CC_MODE, "%s replaces IBA CC's throttling; DRB with IBA CC's detection is multipath.scheme = drb-ib", name);
    m->high = cfg_double(c, K_DRB_HIGH);
    m->low = cfg_double(c, K_DRB_LOW);
    if (m->low >= m->high) cfg_fail(c, K_DRB_LOW, "drb.low (%g) must be below drb.high (%g)", m->low, m->high);
    /* an estimate starts at its zero-load value and only queueing adds to it */
    if (m->low <= 1)
        cfg_fail(c, K_DRB_LOW, "a metapath's latency is never below its zero-load value, so a ratio of %g would never close "
                 "a path: it must be above 1", m->low);
    m->alpha = cfg_double(c, K_DRB_EWMA);
    m->idle = cfg_u64(c, K_DRB_IDLE);
    m->max_paths = (uint32_t)cfg_int(c, K_DRB_PATHS);
    if (m->max_paths < 2) cfg_fail(c, K_DRB_PATHS, "1 holds path 0 alone: %s would never open a path (at least 2)", name);
    m->radius = (uint32_t)cfg_int(c, K_DRB_RADIUS);
    const cube_t *q = cube_get(s);
    uint32_t diam = 0;
    for (uint32_t d = 0; d < q->n; d++) diam += cube_wraps(q, d) ? q->k[d] / 2 : q->k[d] - 1;
    if (m->radius > diam)
        cfg_fail(c, K_DRB_RADIUS, "a supernode radius of %u hops is beyond the network (its diameter is %u)", m->radius, diam);
    m->ops.ack_out = mp_ack_out;
    m->ops.passed = mp_passed;
    m->ops.ack_in = mp_ack_in;
    m->ops.ack_size = (uint32_t)cfg_u64(c, K_DRB_ACK_SIZE);
    /* an ACK is one packet: larger than packet.mtu it might never fit a VC's buffer, and would block its node's ACKs */
    if (m->ops.ack_size > s->mtu)
        cfg_fail(c, K_DRB_ACK_SIZE, "an ACK of %u bytes is larger than a packet (packet.mtu = %u bytes)", m->ops.ack_size, s->mtu);
    s->want_parr = 1;
    s->pext_size = sizeof(mphdr_t);
    m->prev_forward = s->hooks.forward;
    s->hooks.forward = mp_forward;
    if (m->scheme == MP_PRDRB) {
        m->monitor = cfg_u64(c, K_PRDRB_MONITOR);
        if (!m->monitor) m->monitor = ser_time(s, s->mtu);
        m->match = cfg_double(c, K_PRDRB_MATCH);
        m->db_size = (uint32_t)cfg_int(c, K_PRDRB_DB);
    }
}

void mp_setup(sim_t *s, cfg_t *c)
{
    const char *sc = cfg_str(c, K_MP_SCHEME);
    int scheme = !strcmp(sc, "off") ? MP_OFF : !strcmp(sc, "drb") ? MP_DRB : !strcmp(sc, "pr-drb") ? MP_PRDRB
               : !strcmp(sc, "drb-ib") ? MP_DRBIB : -1;
    if (scheme < 0) cfg_fail(c, K_MP_SCHEME, "must be off, drb, pr-drb or drb-ib");
    if (scheme == MP_OFF) return;
    if (s->flit_mode) cfg_fail(c, K_MP_SCHEME, "multipath routing is modelled by the packet-level switch (switch.model = packet)");
    if (s->voq_mode || s->vn) cfg_fail(c, K_MP_SCHEME, "multipath routing needs plain per-VC input buffers (not switch.voq, not VOQnet)");
    mp_t *m = s->mp = xcalloc(1, sizeof *m);
    m->scheme = scheme;
    m->pair_free = m->cs_free = m->ack_free = m->sol_free = ICN_NIL;
    m->ops.pick = mp_pick;
    m->ops.stamp = mp_stamp;
    if (scheme == MP_DRBIB) drbib_setup(s, c);
    else setup_drb(s, c, m);
    m->stride = sizeof(pair_t) + m->max_paths * sizeof(mpath_t);
    m->stride = (m->stride + 7) & ~(size_t)7;
    m->rng = xmalloc(s->nnodes * sizeof *m->rng);
    rng_seed_array(m->rng, s->nnodes, s->seed, RNG_MULTIPATH);
    m->log_limit = (uint32_t)cfg_int(c, K_DRB_LOG);
    s->tp->mp = &m->ops;
}

void mp_free(sim_t *s)
{
    mp_t *m = s->mp;
    if (!m) return;
    free(m->pairs); free(m->hkey); free(m->hval); free(m->cs); free(m->ack); free(m->sol); free(m->rng);
    free(m->ts_alt); free(m->ts_wide); free(m->ts_maxw); free(m->ts_opens); free(m->ts_closes); free(m->ts_hits);
    free(m->ts_acks); free(m->log);
    free(m);
    s->mp = NULL;
}

void mp_log(sim_t *s, const pair_t *pr, int action, double ratio)
{
    mp_t *m = s->mp;
    if (m->nlog == m->log_limit) { m->log_dropped++; return; }
    if (m->nlog == m->log_cap) {
        m->log_cap = m->log_cap ? 2 * m->log_cap : 1024;
        m->log = xrealloc(m->log, m->log_cap * sizeof *m->log);
    }
    m->log[m->nlog++] = (mplog_t){ s->now, pr->node, pr->dst, (float)ratio, (uint8_t)mp_width(pr), (uint8_t)action };
}

/* Quiet pairs are reset now rather than at their next message (the same
 * state, see drb_idle; PR-DRB saves the same solution, which only the pair
 * itself looks up), and freed: a source that has stopped sending to a
 * destination keeps no state for it, so memory follows the active pairs,
 * not every pair that ever sent (a PR-DRB pair keeps its solutions). */
static void sweep_quiet(sim_t *s)
{
    mp_t *m = s->mp;
    for (uint32_t i = 0; i < m->npair_cap; i++) {
        pair_t *pr = mp_pair(m, i);
        if (pr->node == ICN_NIL || pr->inflight) continue;
        drb_idle(s, pr);
        mp_pair_maybe_free(s, i);
    }
}

void mp_on_sample(sim_t *s, uint32_t k)
{
    mp_t *m = s->mp;
    if (m->scheme == MP_DRB || m->scheme == MP_PRDRB) sweep_quiet(s);
    if (!m->ts_alt) {   /* the time series exists once set-up is complete */
        m->nbins = s->st.nbins;
        m->ts_alt = xcalloc(m->nbins, sizeof *m->ts_alt);
        m->ts_wide = xcalloc(m->nbins, sizeof *m->ts_wide);
        m->ts_maxw = xcalloc(m->nbins, sizeof *m->ts_maxw);
        m->ts_opens = xcalloc(m->nbins, sizeof *m->ts_opens);
        m->ts_closes = xcalloc(m->nbins, sizeof *m->ts_closes);
        m->ts_hits = xcalloc(m->nbins, sizeof *m->ts_hits);
        m->ts_acks = xcalloc(m->nbins, sizeof *m->ts_acks);
    }
    if (k - 1 >= m->nbins) return;
    uint32_t wide = 0, maxw = 1;
    for (uint32_t i = 0; i < m->npair_cap; i++) {
        const pair_t *pr = mp_pair(m, i);
        if (pr->node == ICN_NIL) continue;
        uint32_t w = mp_width(pr);
        wide += w > 1;
        if (w > maxw) maxw = w;
    }
    m->ts_alt[k - 1] = m->alt_open;
    m->ts_wide[k - 1] = wide;
    m->ts_maxw[k - 1] = maxw;
    m->ts_opens[k - 1] = m->opens;
    m->ts_closes[k - 1] = m->closes;
    m->ts_hits[k - 1] = m->hits;
    m->ts_acks[k - 1] = m->acks;
    m->nsampled = k;
}
