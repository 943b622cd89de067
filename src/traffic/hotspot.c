/* Hot-spot scenarios of seed 002, laid over the background pattern.
 *
 * hotspot   traffic.hs_fraction of the nodes (chosen at random with the run's
 *           seed, never a hot-spot itself) send all their messages to one of
 *           traffic.hs_count hot-spot nodes (source i to hot-spot i mod count);
 *           the others follow traffic.pattern.
 * hs10-1, hs25-1, hs10-4, hs25-4   the paper's presets (fraction, count).
 * ihs       intermediate hot-spots: traffic.ihs_fraction of the nodes send to
 *           destinations that D-mod-K routes through one up port of a
 *           stage-2 switch of their own group, so the congestion root sits
 *           inside the network, not at an end node.
 * Hot-spot ids are given for 11664 nodes (traffic.hs_nodes, default 600 3400
 * 5200 9500) and scaled to N as floor(id * N / 11664). Roles apply between
 * traffic.hs_start and traffic.hs_end. The window and the choice of sources
 * are shared with hs-region (region.c) through hotspot.h.
 * Moving hot-spots (Gran et al.): with traffic.hs_period, every period from
 * traffic.hs_start on the hot-spots move to the next traffic.hs_count nodes of
 * a fixed random order (drawn from the run's seed) of the nodes that are not
 * sources; the sources follow them. */
#include "hotspot.h"
#include "../topo/fattree.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct hs {
    hs_window_t win;
    uint32_t count;
    uint32_t hot[64];          /* hot-spot nodes; for ihs: unused */
    uint32_t K, groups;        /* ihs: arity and number of stage-2 groups */
    simtime_t period;          /* moving hot-spots: the hot set changes every period (0: never) */
    uint32_t ncand;            /* moving: the nodes hot-spots move through, in order */
    uint32_t cand[];
} hs_t;

hs_window_t hs_window(cfg_t *c)
{
    hs_window_t w = { cfg_u64(c, K_TR_HS_START), cfg_u64(c, K_TR_HS_END) };
    if (!w.end) w.end = SIMTIME_MAX;
    else if (w.end <= w.start) cfg_fail(c, K_TR_HS_END, "must be later than traffic.hs_start");
    return w;
}

static hs_t *hs_common(sim_t *s, cfg_t *c)
{
    hs_t *h = xcalloc(1, sizeof *h);
    s->scenario_data = h;
    h->win = hs_window(c);
    return h;
}

/* A role that applies only between traffic.hs_start and hs_end leaves its
 * node to the pattern outside that window: a node the pattern leaves idle (a
 * permutation's fixed point) has no destination then, so it cannot take one. */
void hs_exclude_idle(sim_t *s, const hs_window_t *w, uint8_t *taken)
{
    if (w->start == 0 && w->end == SIMTIME_MAX) return;
    rng_t r;
    rng_seed(&r, s->seed, RNG_SETUP, 2);
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (s->pattern->dst(s, n, &r) == ICN_NIL) taken[n] = 1;
}

uint32_t hs_pick_sources(sim_t *s, uint32_t count, const uint8_t *taken, uint32_t nroles)
{
    uint32_t *cand = xmalloc(s->nnodes * sizeof *cand), nc = 0;
    for (uint32_t n = 0; n < s->nnodes; n++) if (!taken[n]) cand[nc++] = n;
    if (count > nc) count = nc;
    rng_t r;
    rng_seed(&r, s->seed, RNG_SETUP, 1);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t k = i + rng_below(&r, nc - i), t = cand[i];
        cand[i] = cand[k];
        cand[k] = t;
        s->nic[cand[i]].hot = (int)(i % nroles);
    }
    free(cand);
    return count;
}

static void setup_hotspot_with(sim_t *s, cfg_t *c, double frac, uint32_t count)
{
    hs_t *h = hs_common(s, c);
    char *list = xstrdup(cfg_str(c, K_TR_HS_NODES)), *save = NULL;
    uint32_t nlisted = 0, ids[64];
    for (char *tok = strtok_r(list, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        char *end, bad[32];
        long v = strtol(tok, &end, 10);
        if (*end || v < 0 || v >= 11664 || nlisted == 64) {   /* free before failing: exit must leave nothing unreachable */
            snprintf(bad, sizeof bad, "%s", tok);
            free(list);
            if (nlisted == 64) cfg_fail(c, K_TR_HS_NODES, "at most 64 hot-spots");
            cfg_fail(c, K_TR_HS_NODES, "'%s' is not a node id in [0, 11664)", bad);
        }
        ids[nlisted++] = (uint32_t)v;
    }
    free(list);
    if (!count) count = nlisted;
    if (!count) cfg_fail(c, K_TR_HS_NODES, "lists no hot-spot");
    if (count > nlisted)
        cfg_fail(c, K_TR_HS_NODES, "the scenario needs %u hot-spot ids, the list has %u", count, nlisted);
    uint8_t *taken = xcalloc(s->nnodes, 1);
    h->count = count;
    for (uint32_t i = 0; i < count; i++) {
        h->hot[i] = (uint32_t)((uint64_t)ids[i] * s->nnodes / 11664);
        if (taken[h->hot[i]]) {
            free(taken);
            cfg_fail(c, K_TR_HS_NODES, "ids %u and another both map to node %u in a %u-node network", ids[i], h->hot[i], s->nnodes);
        }
        taken[h->hot[i]] = 1;
    }
    hs_exclude_idle(s, &h->win, taken);
    uint32_t picked = hs_pick_sources(s, (uint32_t)(frac * s->nnodes + 0.5), taken, count);
    free(taken);
    if (frac > 0 && !picked)
        cfg_fail(c, K_TR_HS_FRACTION, "%g of %u nodes gives no source: the hot-spots would receive nothing", frac, s->nnodes);
    if (frac > 0 && picked < count)   /* sources take the hot-spots in turn */
        cfg_fail(c, K_TR_HS_FRACTION, "%g of %u nodes gives %u sources for %u hot-spots: %u would receive nothing", frac,
                 s->nnodes, picked, count, count - picked);
    simtime_t period = cfg_u64(c, K_TR_HS_PERIOD);
    if (!period) return;
    /* the nodes hot-spots move through: every node that is not a source, shuffled */
    h = s->scenario_data = xrealloc(h, sizeof *h + s->nnodes * sizeof *h->cand);
    h->period = period;
    h->ncand = 0;
    for (uint32_t n = 0; n < s->nnodes; n++) if (s->nic[n].hot < 0) h->cand[h->ncand++] = n;
    if (h->ncand < count) cfg_fail(c, K_TR_HS_PERIOD, "fewer nodes than hot-spots are left to move through");
    rng_t r;
    rng_seed(&r, s->seed, RNG_SETUP, 3);
    for (uint32_t i = h->ncand; i > 1; i--) {
        uint32_t k = (uint32_t)rng_below(&r, i), t = h->cand[i - 1];
        h->cand[i - 1] = h->cand[k];
        h->cand[k] = t;
    }
}

static void setup_hotspot(sim_t *s, cfg_t *c)
{
    double f = cfg_double(c, K_TR_HS_FRACTION);
    uint32_t n = (uint32_t)cfg_int(c, K_TR_HS_COUNT);
    if (cfg_is_set(c, K_TR_HS_NODES) && !cfg_is_set(c, K_TR_HS_COUNT)) n = 0;   /* as many as listed */
    setup_hotspot_with(s, c, f, n);
}

/* Presets fix fraction and count: setting either to another value is a
 * contradiction; restating the preset's own value is not. */
static void preset(sim_t *s, cfg_t *c, double f, uint32_t n)
{
    if (cfg_is_set(c, K_TR_HS_FRACTION) && cfg_double(c, K_TR_HS_FRACTION) != f)
        cfg_fail(c, K_TR_HS_FRACTION, "scenario '%s' fixes the fraction at %g; use scenario = hotspot to choose it", s->scenario->name, f);
    if (cfg_is_set(c, K_TR_HS_COUNT) && (uint32_t)cfg_int(c, K_TR_HS_COUNT) != n)
        cfg_fail(c, K_TR_HS_COUNT, "scenario '%s' fixes the count at %u; use scenario = hotspot to choose it", s->scenario->name, n);
    setup_hotspot_with(s, c, f, n);
}
static void setup_hs10_1(sim_t *s, cfg_t *c) { preset(s, c, 0.10, 1); }
static void setup_hs25_1(sim_t *s, cfg_t *c) { preset(s, c, 0.25, 1); }
static void setup_hs10_4(sim_t *s, cfg_t *c) { preset(s, c, 0.10, 4); }
static void setup_hs25_4(sim_t *s, cfg_t *c) { preset(s, c, 0.25, 4); }

static uint32_t dst_hotspot(const sim_t *s, uint32_t src, simtime_t t, rng_t *r)
{
    (void)r;
    const hs_t *h = s->scenario_data;
    if (!hs_active(&h->win, t)) return ICN_NIL;
    if (!h->period) return h->hot[s->nic[src].hot];
    uint64_t e = (t - h->win.start) / h->period;   /* the hot set of this period */
    return h->cand[(e * h->count + (uint64_t)s->nic[src].hot) % h->ncand];
}

/* A source's hot-spot is fixed to the end of the window, or of the period. */
static simtime_t dst_fixed_hotspot(const sim_t *s, uint32_t src, simtime_t t)
{
    (void)src;
    const hs_t *h = s->scenario_data;
    if (!hs_active(&h->win, t)) return t;
    if (!h->period) return h->win.end;
    simtime_t next = h->win.start + ((t - h->win.start) / h->period + 1) * h->period;
    return next < h->win.end ? next : h->win.end;
}

/* ---- intermediate hot-spots ---- */

static void setup_ihs(sim_t *s, cfg_t *c)
{
    const fattree_t *ft = fattree_get(s);
    if (!ft || ft->T < 3)
        cfg_fail(c, K_TR_SCENARIO, "ihs places hot-spots at stage-2 up ports: it needs a fat-tree with at least 3 stages");
    hs_t *h = hs_common(s, c);
    h->K = ft->K;
    h->groups = ft->N / (ft->K * ft->K);
    if (h->groups > ft->K * ft->K)   /* dst_ihs gives distinct hot ports to at most K^2 groups */
        cfg_fail(c, K_TR_SCENARIO, "ihs gives each stage-2 group its own hot port, which %u groups (K = %u) cannot have: "
                 "at most K^2 = %u (a 3-stage fat-tree)", h->groups, ft->K, ft->K * ft->K);
    uint8_t *taken = xcalloc(s->nnodes, 1);
    hs_exclude_idle(s, &h->win, taken);
    double frac = cfg_double(c, K_TR_IHS_FRACTION);
    uint32_t picked = hs_pick_sources(s, (uint32_t)(frac * s->nnodes + 0.5), taken, 1);
    free(taken);
    if (frac > 0 && !picked)
        cfg_fail(c, K_TR_IHS_FRACTION, "%g of %u nodes gives no source: the hot ports would carry nothing", frac, s->nnodes);
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (s->nic[n].hot >= 0) s->nic[n].hot = (int)(n / (ft->K * ft->K));   /* role = own group */
}

/* Group g's hot port: stage-2 switch j = p mod K, up port u = p / K with
 * p = g(K+1) mod K^2, distinct for every group when there are at most K^2
 * groups, so the destination sets of different groups do not overlap. */
static uint32_t dst_ihs(const sim_t *s, uint32_t src, simtime_t t, rng_t *r)
{
    const hs_t *h = s->scenario_data;
    if (!hs_active(&h->win, t)) return ICN_NIL;
    uint32_t g = (uint32_t)s->nic[src].hot, K = h->K;
    uint32_t p = (g * (K + 1)) % (K * K), j = p % K, u = p / K;
    uint32_t G = rng_below(r, h->groups - 1);
    if (G >= g) G++;
    return G * K * K + u * K + j;
}

static void setup_none(sim_t *s, cfg_t *c) { (void)s; (void)c; }
static uint32_t dst_none(const sim_t *s, uint32_t src, simtime_t t, rng_t *r) { (void)s; (void)src; (void)t; (void)r; return ICN_NIL; }

const scenario_ops scenario_none = { "none", "no hot-spot: every node follows traffic.pattern", setup_none, dst_none, NULL, NULL };
const scenario_ops scenario_hotspot = { "hotspot", "traffic.hs_fraction of nodes send to traffic.hs_count hot-spots", setup_hotspot, dst_hotspot, NULL, dst_fixed_hotspot };
const scenario_ops scenario_hs10_1 = { "hs10-1", "seed 002 HS10-1: 10% of nodes to one hot-spot, 90% uniform", setup_hs10_1, dst_hotspot, NULL, dst_fixed_hotspot };
const scenario_ops scenario_hs25_1 = { "hs25-1", "seed 002 HS25-1: 25% of nodes to one hot-spot", setup_hs25_1, dst_hotspot, NULL, dst_fixed_hotspot };
const scenario_ops scenario_hs10_4 = { "hs10-4", "seed 002 HS10-4: 10% of nodes to four hot-spots (600 3400 5200 9500 scaled)", setup_hs10_4, dst_hotspot, NULL, dst_fixed_hotspot };
const scenario_ops scenario_hs25_4 = { "hs25-4", "seed 002 HS25-4: 25% of nodes to four hot-spots", setup_hs25_4, dst_hotspot, NULL, dst_fixed_hotspot };
const scenario_ops scenario_ihs = { "ihs", "seed 002 IHS: 20% of nodes to destinations behind one stage-2 up port of their group", setup_ihs, dst_ihs, NULL, NULL };
