/* hs-region: a hot-spot region of a mesh or torus (seed 001's hot-spot,
 * which the paper leaves unspecified).
 *
 * Destinations: the nodes of the routers within traffic.hs_radius hops of a
 * box of router coordinates, traffic.hs_region (default: the central router;
 * with the default radius 1, it and its neighbours); tori measure hops round
 * the rings. Sources: the nodes of the box traffic.hs_sources, or else
 * traffic.hs_fraction of all N nodes, chosen at random among those outside
 * the region (all of them, when fewer are outside). A
 * source sends each message to a node of the region drawn uniformly, between
 * traffic.hs_start and traffic.hs_end; outside that window, and always for
 * the other nodes, traffic.pattern applies (the background). Region nodes
 * never send to the region. */
#include "hotspot.h"
#include "../topo/cube.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct region {
    hs_window_t win;
    uint32_t n;                  /* destination nodes */
    uint32_t dst[];
} region_t;

/* A box from key k: one entry per dimension, a coordinate or lo-hi. Empty
 * (the default) is the central router. */
static void parse_box(cfg_t *c, key_id k, const cube_t *q, uint32_t *lo, uint32_t *hi)
{
    char *list = xstrdup(cfg_str(c, k)), *save = NULL;
    uint32_t d = 0;
    int bad = 0;
    for (char *tok = strtok_r(list, " \t,", &save); tok && !bad; tok = strtok_r(NULL, " \t,", &save), d++) {
        char *end;
        long a = strtol(tok, &end, 10), b = a;
        if (*end == '-' && end > tok) b = strtol(end + 1, &end, 10);
        bad = d == q->n || *end || a < 0 || b < a || (uint32_t)b >= q->k[d];
        if (!bad) { lo[d] = (uint32_t)a; hi[d] = (uint32_t)b; }
    }
    free(list);
    if (bad || (d && d != q->n))
        cfg_fail(c, k, "expected %u entries, one per dimension, each a router coordinate x or a range lo-hi within the radix (e.g. 3 3, or 2-5 0-1)", q->n);
    for (uint32_t i = 0; !d && i < q->n; i++) lo[i] = hi[i] = q->k[i] / 2;
}

/* Hops from coordinate x to the range [lo, hi] of dimension d. */
static uint32_t dim_dist(const cube_t *q, uint32_t d, uint32_t x, uint32_t lo, uint32_t hi)
{
    if (x >= lo && x <= hi) return 0;
    uint32_t k = q->k[d], up = (lo + k - x) % k, down = (x + k - hi) % k;   /* going + to lo, going - to hi */
    if (!cube_wraps(q, d)) return x < lo ? lo - x : x - hi;
    return up < down ? up : down;
}

static uint32_t box_dist(const cube_t *q, uint32_t r, const uint32_t *lo, const uint32_t *hi)
{
    uint32_t h = 0;
    for (uint32_t d = 0; d < q->n; d++) h += dim_dist(q, d, cube_coord(q, r, d), lo[d], hi[d]);
    return h;
}

static void setup_region(sim_t *s, cfg_t *c)
{
    const cube_t *q = cube_get(s);
    if (!q) cfg_fail(c, K_TR_SCENARIO, "hs-region places its region by router coordinates: it needs a mesh or torus");
    uint32_t lo[CUBE_MAX_DIMS], hi[CUBE_MAX_DIMS], radius = (uint32_t)cfg_int(c, K_TR_HS_RADIUS);
    parse_box(c, K_TR_HS_REGION, q, lo, hi);
    hs_window_t win = hs_window(c);
    uint32_t slo[CUBE_MAX_DIMS], shi[CUBE_MAX_DIMS], box = cfg_is_set(c, K_TR_HS_SOURCES);
    if (box && cfg_is_set(c, K_TR_HS_FRACTION)) cfg_fail(c, K_TR_HS_SOURCES, "gives the sources; set either it or traffic.hs_fraction");
    if (box) parse_box(c, K_TR_HS_SOURCES, q, slo, shi);   /* before allocating: a failure leaves nothing unreachable */
    uint8_t *taken = xcalloc(s->nnodes, 1);
    uint32_t n = 0;
    for (uint32_t v = 0; v < s->nnodes; v++) n += taken[v] = box_dist(q, v / q->c, lo, hi) <= radius;
    region_t *g = xmalloc(sizeof *g + n * sizeof *g->dst);
    s->scenario_data = g;
    g->win = win;
    g->n = 0;
    for (uint32_t v = 0; v < s->nnodes; v++) if (taken[v]) g->dst[g->n++] = v;
    hs_exclude_idle(s, &win, taken);
    if (box) {
        uint32_t picked = 0;
        for (uint32_t v = 0; v < s->nnodes; v++)
            if (!taken[v] && !box_dist(q, v / q->c, slo, shi)) { s->nic[v].hot = 0; picked++; }
        free(taken);
        if (!picked) cfg_fail(c, K_TR_HS_SOURCES, "the box has no node that can send to the region: its nodes are in it (traffic.hs_region, "
                                  "traffic.hs_radius) or, with a window, idle under traffic.pattern");
        return;
    }
    double frac = cfg_double(c, K_TR_HS_FRACTION);
    uint32_t picked = hs_pick_sources(s, (uint32_t)(frac * s->nnodes + 0.5), taken, 1);
    free(taken);
    if (frac > 0 && !picked)
        cfg_fail(c, K_TR_HS_FRACTION, "gives no source: %g of %u nodes rounds to none, or the region (%u nodes) leaves none outside it",
                 frac, s->nnodes, g->n);
}

static uint32_t dst_region(const sim_t *s, uint32_t src, simtime_t t, rng_t *r)
{
    (void)src;
    const region_t *g = s->scenario_data;
    return hs_active(&g->win, t) ? g->dst[rng_below(r, g->n)] : ICN_NIL;
}

const scenario_ops scenario_hs_region = { "hs-region", "traffic.hs_fraction of nodes (or those of the box traffic.hs_sources) send to a region of a mesh/torus "
                                          "(traffic.hs_region, grown by traffic.hs_radius hops)", setup_region, dst_region, NULL, NULL };
