/* DRB at the source: the metapath of a (source, destination) pair, its
 * latency estimates, the choice of a path per message, and opening and
 * closing paths from the ACKs' feedback.
 *
 * Choices where the seeds are silent (docs/DRB.md):
 *   - thresholds compare the metapath latency L* = (sum 1/L_i)^-1 with its
 *     zero-load value L0* = (sum 1/L0_i)^-1, so that opening a path does not
 *     by itself look like relief: open when L* > drb.high L0*, close when
 *     L* < drb.low L0*;
 *   - L_i is an EWMA (weight drb.ewma) of L0_i + the ACK's queueing time;
 *     a new path starts at its L0;
 *   - only ACKs of packets sent after the last change may change the
 *     metapath again (one path at a time, as the seeds expand);
 *   - supernodes grow by Manhattan radius (wrapping on a torus); a new path
 *     is the (IN1, IN2) pair of the smallest radius whose route shares the
 *     fewest links with the open paths, then the shortest, then the lowest
 *     router ids; routes equal to an open one are skipped;
 *   - the path closed is the open one with the highest estimate, never 0. */
#include "mp.h"
#include "../routing/msp.h"
#include "../topo/cube.h"
#include "../core/util.h"
#include <stdlib.h>

#define MAXHOPS 512
#define SNMAX 1024   /* routers of a supernode kept (a radius of 22 in 2-D) */   /* output ports kept per route: enough for any cube icnsim builds with a radius */

simtime_t drb_zero_load(const sim_t *s, uint32_t hops)
{
    return (simtime_t)hops * (s->link_delay + s->routing_delay) + s->link_delay + ser_time(s, s->mtu);
}

static uint32_t router_of(const sim_t *s, uint32_t node) { return node / cube_get(s)->c; }

/* The output ports of route a -> x -> y -> b (DOR per segment); returns its
 * length in links between routers. */
static uint32_t route_ports(const sim_t *s, uint32_t a, uint32_t x, uint32_t y, uint32_t b, uint32_t *ports)
{
    uint32_t n = msp_walk(s, a, x, ports, MAXHOPS);
    n += msp_walk(s, x, y, ports + (n < MAXHOPS ? n : MAXHOPS), n < MAXHOPS ? MAXHOPS - n : 0);
    n += msp_walk(s, y, b, ports + (n < MAXHOPS ? n : MAXHOPS), n < MAXHOPS ? MAXHOPS - n : 0);
    return n;
}

/* Its length, without walking it: DOR is minimal on every segment. */
static uint32_t route_len(const sim_t *s, uint32_t a, uint32_t x, uint32_t y, uint32_t b)
{
    return msp_distance(s, a, x) + msp_distance(s, x, y) + msp_distance(s, y, b);
}

static uint64_t route_key(const uint32_t *ports, uint32_t n)
{
    return hash_bytes(ports, (n < MAXHOPS ? n : MAXHOPS) * sizeof *ports, 0xcbf29ce484222325ull);
}

void drb_set_path(sim_t *s, pair_t *pr, uint32_t slot, uint32_t in1, uint32_t in2)
{
    uint32_t n = route_len(s, router_of(s, pr->node), in1, in2, router_of(s, pr->dst));
    mpath_t *q = &pr->p[slot];
    q->in1 = in1;
    q->in2 = in2;
    q->key = 0;   /* computed when a path is next opened beside it */
    q->l0 = drb_zero_load(s, n + 1);
    q->lat = (double)q->l0;
    q->since = s->now;
    q->notes = 0;
    if (slot && !(pr->open >> slot & 1)) s->mp->alt_open++;
    pr->open |= (uint16_t)(1u << slot);
}

void drb_init_pair(sim_t *s, pair_t *pr)
{
    if (s->mp->scheme == MP_DRBIB) { pr->open = 1; return; }
    drb_set_path(s, pr, 0, router_of(s, pr->node), router_of(s, pr->dst));
    pr->p[0].since = 0;   /* path 0 never changes: its ACKs count even if the pair was freed and made again */
}

double drb_ratio(const pair_t *pr, uint32_t maxp)
{
    double inv = 0, inv0 = 0;
    for (uint32_t i = 0; i < maxp; i++)
        if (pr->open >> i & 1) { inv += 1.0 / pr->p[i].lat; inv0 += 1.0 / (double)pr->p[i].l0; }
    return inv0 / inv;
}

uint8_t drb_pick(sim_t *s, pair_t *pr, rng_t *r)
{
    if (pr->open == 1) return 0;
    uint32_t maxp = s->mp->max_paths;
    int ib = s->mp->scheme == MP_DRBIB;
    double w[MP_MAXP], sum = 0;
    for (uint32_t i = 0; i < maxp; i++) {
        w[i] = !(pr->open >> i & 1) ? 0 : ib ? 1.0 / (1.0 + pr->p[i].notes) : 1.0 / pr->p[i].lat;
        sum += w[i];
    }
    double u = rng_u01(r) * sum;
    uint32_t last = 0;
    for (uint32_t i = 0; i < maxp; i++) {
        if (!w[i]) continue;
        if (u < w[i]) return (uint8_t)i;
        u -= w[i];
        last = i;
    }
    return (uint8_t)last;   /* rounding */
}

/* A supernode being gathered: routers nearest first, at most `cap`. */
typedef struct sn { uint32_t *out, *dist, n, cap, ring; } sn_t;

/* Router x at distance r joins; when full, it replaces the ring's highest id
 * if its own is lower, so a truncated supernode keeps the nearest routers,
 * then the lowest ids. */
static void sn_add(sn_t *g, uint32_t x, uint32_t r)
{
    if (g->n < g->cap) { g->out[g->n] = x; g->dist[g->n++] = r; return; }
    uint32_t hi = g->ring;
    for (uint32_t j = g->ring + 1; j < g->n; j++)
        if (g->out[j] > g->out[hi]) hi = j;
    if (hi < g->n && x < g->out[hi]) g->out[hi] = x;
}

/* The routers whose offsets from router a in dimensions d.. sum to exactly
 * `left` hops, x holding the coordinates fixed so far. A mesh's offsets stay
 * inside it; a torus ring gives each router once, at its shortest offset (a
 * tie at k/2 goes +), so the sum of the offsets is the DOR distance and no
 * router is met twice. */
static void sn_ring(const cube_t *q, uint32_t a, uint32_t d, uint32_t left, uint32_t x, uint32_t r, sn_t *g)
{
    if (d == q->n) {
        if (!left) sn_add(g, x, r);
        return;
    }
    int32_t k = (int32_t)q->k[d], c = (int32_t)cube_coord(q, a, d), lo = -c, hi = k - 1 - c;
    if (cube_wraps(q, d)) { lo = -((k - 1) / 2); hi = k / 2; }
    if (lo < -(int32_t)left) lo = -(int32_t)left;
    if (hi > (int32_t)left) hi = (int32_t)left;
    for (int32_t o = lo; o <= hi; o++) {
        int32_t y = ((c + o) % k + k) % k;
        sn_ring(q, a, d + 1, left - (uint32_t)(o < 0 ? -o : o), x + (uint32_t)y * q->kpow[d], r, g);
    }
}

/* Routers within `r` hops of router a (clipped on a mesh, wrapped on a
 * torus), nearest first, then by id, at most `cap` of them: gathered ring
 * by ring, so the cost follows the supernode, not the network or (2r+1)^n. */
uint32_t drb_supernode(const sim_t *s, uint32_t a, uint32_t r, uint32_t *out, uint32_t *dist, uint32_t cap)
{
    const cube_t *q = cube_get(s);
    sn_t g = { out, dist, 0, cap, 0 };
    for (uint32_t rr = 0; rr <= r && g.n < cap; rr++) {
        g.ring = g.n;
        sn_ring(q, a, 0, rr, 0, rr, &g);
    }
    for (uint32_t i = 1; i < g.n; i++)   /* insertion sort by (distance, id) */
        for (uint32_t j = i; j > 0 && (dist[j] < dist[j - 1] || (dist[j] == dist[j - 1] && out[j] < out[j - 1])); j--) {
            uint32_t t1 = out[j]; out[j] = out[j - 1]; out[j - 1] = t1;
            uint32_t t2 = dist[j]; dist[j] = dist[j - 1]; dist[j - 1] = t2;
        }
    return g.n;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int drb_open(sim_t *s, pair_t *pr)
{
    mp_t *m = s->mp;
    uint32_t slot = 0;
    while (slot < m->max_paths && (pr->open >> slot & 1)) slot++;
    if (slot == m->max_paths) return 0;
    uint32_t a = router_of(s, pr->node), b = router_of(s, pr->dst);
    /* the links of the open paths */
    uint32_t used[MP_MAXP * 64], nused = 0, ports[MAXHOPS];
    for (uint32_t i = 0; i < m->max_paths; i++) {
        if (!(pr->open >> i & 1)) continue;
        uint32_t n = route_ports(s, a, pr->p[i].in1, pr->p[i].in2, b, ports);
        pr->p[i].key = route_key(ports, n);
        for (uint32_t k = 0; k < n && k < MAXHOPS && nused < MP_MAXP * 64; k++) used[nused++] = ports[k];
    }
    qsort(used, nused, sizeof *used, cmp_u32);
    uint32_t sa[SNMAX], da[SNMAX], sb[SNMAX], db[SNMAX];
    uint32_t na = drb_supernode(s, a, m->radius, sa, da, SNMAX), nb = drb_supernode(s, b, m->radius, sb, db, SNMAX);
    int found = 0;
    uint32_t bx = 0, by = 0, bshared = 0, blen = 0;
    for (uint32_t r = 1; r <= m->radius && !found; r++)
        for (uint32_t i = 0; i < na && da[i] <= r; i++)
            for (uint32_t j = 0; j < nb && db[j] <= r; j++) {
                if (da[i] != r && db[j] != r) continue;   /* seen at a smaller radius */
                if (found && !bshared && route_len(s, a, sa[i], sb[j], b) >= blen) continue;   /* cannot win */
                uint32_t n = route_ports(s, a, sa[i], sb[j], b, ports);
                uint64_t key = route_key(ports, n);
                int dup = 0;
                for (uint32_t k = 0; k < m->max_paths && !dup; k++) dup = (pr->open >> k & 1) && pr->p[k].key == key;
                if (dup) continue;
                uint32_t shared = 0;
                for (uint32_t k = 0; k < n && k < MAXHOPS; k++)
                    shared += bsearch(&ports[k], used, nused, sizeof *used, cmp_u32) != NULL;
                if (!found || shared < bshared || (shared == bshared && n < blen)) {
                    found = 1; bx = sa[i]; by = sb[j]; bshared = shared; blen = n;
                }
            }
    if (!found) return 0;
    drb_set_path(s, pr, slot, bx, by);
    m->opens++;
    return 1;
}

int drb_close(sim_t *s, pair_t *pr)
{
    mp_t *m = s->mp;
    uint32_t worst = 0;
    for (uint32_t i = 1; i < m->max_paths; i++)
        if ((pr->open >> i & 1) && (!worst || pr->p[i].lat > pr->p[worst].lat)) worst = i;
    if (!worst) return 0;
    pr->open &= (uint16_t)~(1u << worst);
    m->alt_open--;
    m->closes++;
    return 1;
}

/* The episode ends (PR-DRB stores its metapath under its pattern); its
 * pattern goes with it, so the next episode is matched on a set of its own. */
static void episode_end(sim_t *s, pair_t *pr, double r)
{
    mp_t *m = s->mp;
    if (pr->episode && m->scheme == MP_PRDRB) prdrb_save(s, pr, r);
    pr->episode = 0;
    if (pr->cset != ICN_NIL) { mp_cset_free(m, pr->cset); pr->cset = ICN_NIL; }
}

/* Path 0 alone at its zero-load estimate, outside an episode: nothing to forget. */
static int at_rest(const pair_t *pr)
{
    return pr->open == 1 && !pr->episode && pr->p[0].lat == (double)pr->p[0].l0;
}

/* A pair that has been quiet (nothing in flight, no recent ACK) forgets its
 * metapath and its estimates, path 0's too (they describe a network that has
 * moved on): PR-DRB keeps the metapath as a solution of the episode's
 * pattern first. Until its next message nothing else changes the pair, so
 * whether this runs then or earlier gives the same state. */
void drb_idle(sim_t *s, pair_t *pr)
{
    mp_t *m = s->mp;
    simtime_t limit = m->idle ? m->idle : 20 * pr->p[0].l0;
    if (pr->inflight || s->now - pr->last_ack <= limit || at_rest(pr)) return;
    double r = drb_ratio(pr, m->max_paths);
    episode_end(s, pr, r);
    for (uint32_t i = 1; i < m->max_paths; i++)
        if (pr->open >> i & 1) { pr->open &= (uint16_t)~(1u << i); m->alt_open--; m->closes++; }
    pr->p[0].lat = (double)pr->p[0].l0;
    pr->reconf = s->now;
    mp_log(s, pr, LOG_RESET, r);
}

void drb_feedback(sim_t *s, pair_t *pr, uint8_t slot, simtime_t sent, simtime_t qlat, uint32_t cset)
{
    mp_t *m = s->mp;
    m->acks++;
    if (slot >= m->max_paths || !(pr->open >> slot & 1) || sent < pr->p[slot].since) {
        m->stale++;   /* its path has closed (or changed) since the packet left */
        if (cset != ICN_NIL) mp_cset_free(m, cset);
        return;
    }
    mpath_t *q = &pr->p[slot];
    q->lat += m->alpha * ((double)(q->l0 + qlat) - q->lat);
    if (cset != ICN_NIL) {   /* PR-DRB: the pattern of an episode is the first one seen in it */
        if (pr->cset != ICN_NIL && !pr->episode) { mp_cset_free(m, pr->cset); pr->cset = ICN_NIL; }
        if (pr->cset == ICN_NIL) pr->cset = cset;
        else mp_cset_free(m, cset);
    }
    if (sent < pr->reconf) return;   /* feedback from before the last change */
    double r = drb_ratio(pr, m->max_paths);
    if (r > m->high) {
        if (!pr->episode) { pr->episode = 1; pr->consulted = 0; }
        int changed = 0;
        if (m->scheme == MP_PRDRB && !pr->consulted && pr->cset != ICN_NIL) {
            /* once per episode: its pattern and the pair's database stay as they are until it ends */
            uint32_t sol = prdrb_lookup(m, pr, pr->cset);
            pr->consulted = 1;
            if (sol != ICN_NIL && prdrb_apply(s, pr, sol)) {
                m->hits++;
                changed = 1;
                mp_log(s, pr, LOG_APPLY, r);
            } else {
                m->misses++;
            }
        }
        if (!changed && drb_open(s, pr)) { changed = 1; mp_log(s, pr, LOG_OPEN, r); }
        if (changed) pr->reconf = s->now;
    } else if (r < m->low) {
        if (pr->episode) episode_end(s, pr, r);
        if (drb_close(s, pr)) { pr->reconf = s->now; mp_log(s, pr, LOG_CLOSE, r); }
    }
}
