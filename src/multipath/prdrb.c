/* PR-DRB: contending flows recorded by routers, and the sources' database
 * of solutions.
 *
 * The record: at the first router where a packet waits longer than
 * prdrb.monitor, the (source, destination) pairs of the other data packets
 * in that router's input buffers, at most MP_CSET of them (input ports and
 * VCs in order), sorted; none (the packet waits behind its own flow
 * only) is no record, and a later router may record it. Patterns are
 * matched by Jaccard similarity of
 * these sets: a stored solution applies when |A n B| / |A u B| reaches
 * prdrb.match (1 = the same set), the most similar first. A pair stores at
 * most prdrb.db_size solutions; a new pattern beyond that replaces the
 * worst one. */
#include "mp.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

static void cset_add(cset_t *c, uint64_t f)
{
    uint32_t i = 0;
    while (i < c->n && c->f[i] < f) i++;
    if (i < c->n && c->f[i] == f) return;
    if (c->n == MP_CSET) return;
    memmove(&c->f[i + 1], &c->f[i], (c->n - i) * sizeof *c->f);
    c->f[i] = f;
    c->n++;
}

uint32_t prdrb_record(sim_t *s, uint32_t w, uint32_t id)
{
    mp_t *m = s->mp;
    uint32_t ci = mp_cset_alloc(m);
    cset_t *c = &m->cs[ci];
    uint64_t own = (uint64_t)s->pkt[id].src << 32 | s->pkt[id].dst;
    uint32_t visited = 0;
    const sw_t *sw = &s->sw[w];
    for (uint32_t i = 0; i < sw->nports && c->n < MP_CSET && visited < 256; i++)
        for (uint32_t v = 0; v < s->nvc && c->n < MP_CSET && visited < 256; v++)
            for (uint32_t x = s->vq[(size_t)(sw->port0 + i) * s->nvc + v].head; x != ICN_NIL && c->n < MP_CSET && visited < 256;
                 x = s->pkt[x].next, visited++) {
                const packet_t *p = &s->pkt[x];
                uint64_t f = (uint64_t)p->src << 32 | p->dst;
                if (p->kind == PK_DATA && f != own) cset_add(c, f);
            }
    if (!c->n) { mp_cset_free(m, ci); return ICN_NIL; }
    return ci;
}

double prdrb_similarity(const cset_t *a, const cset_t *b)
{
    if (!a->n || !b->n) return 0;   /* no flows: no evidence of a pattern */
    uint32_t i = 0, j = 0, common = 0;
    while (i < a->n && j < b->n) {
        if (a->f[i] == b->f[j]) { common++; i++; j++; }
        else if (a->f[i] < b->f[j]) i++;
        else j++;
    }
    return (double)common / (double)(a->n + b->n - common);
}

uint32_t prdrb_lookup(const mp_t *m, const pair_t *pr, uint32_t cset)
{
    uint32_t best = ICN_NIL;
    double bs = 0;
    for (uint32_t k = pr->db; k != ICN_NIL; k = m->sol[k].next) {
        double sim = prdrb_similarity(&m->cs[m->sol[k].cset], &m->cs[cset]);
        if (sim >= m->match && (best == ICN_NIL || sim > bs || (sim == bs && m->sol[k].quality < m->sol[best].quality))) {
            best = k;
            bs = sim;
        }
    }
    return best;
}

int prdrb_apply(sim_t *s, pair_t *pr, uint32_t k)
{
    mp_t *m = s->mp;
    const sol_t *so = &m->sol[k];
    for (uint32_t i = 1; i < m->max_paths; i++)
        if (pr->open >> i & 1) { pr->open &= (uint16_t)~(1u << i); m->alt_open--; }
    for (uint32_t j = 0, slot = 1; j < so->n && slot < m->max_paths; j++) {
        if (so->in[j][0] == pr->p[0].in1 && so->in[j][1] == pr->p[0].in2) {   /* path 0 keeps its estimate */
            continue;
        }
        drb_set_path(s, pr, slot, so->in[j][0], so->in[j][1]);
        pr->p[slot].lat = so->lat[j];
        slot++;
    }
    return mp_width(pr) > 1;
}

static uint32_t sol_alloc(mp_t *m)
{
    POOL_RESERVE(m->sol, m->nsol, m->sol_free, sol_t);
    uint32_t k = m->sol_free;
    m->sol_free = m->sol[k].next;
    return k;
}

static void sol_fill(mp_t *m, sol_t *so, const pair_t *pr, double ratio)
{
    so->quality = (float)ratio;
    so->n = 0;
    for (uint32_t i = 0; i < m->max_paths; i++)
        if (pr->open >> i & 1) {
            so->in[so->n][0] = pr->p[i].in1;
            so->in[so->n][1] = pr->p[i].in2;
            so->lat[so->n++] = (float)pr->p[i].lat;
        }
}

void prdrb_save(sim_t *s, pair_t *pr, double ratio)
{
    mp_t *m = s->mp;
    if (pr->cset == ICN_NIL || mp_width(pr) < 2) return;   /* no pattern, or nothing learnt */
    uint32_t k = prdrb_lookup(m, pr, pr->cset);
    if (k != ICN_NIL) {   /* the same pattern (as matching defines it): keep the better solution */
        if (ratio >= m->sol[k].quality) return;
        m->cs[m->sol[k].cset] = m->cs[pr->cset];
        m->cs[m->sol[k].cset].next = ICN_NIL;
        sol_fill(m, &m->sol[k], pr, ratio);
    } else {
        uint32_t n = 0, worst = ICN_NIL;
        for (uint32_t x = pr->db; x != ICN_NIL; x = m->sol[x].next, n++)
            if (worst == ICN_NIL || m->sol[x].quality > m->sol[worst].quality) worst = x;
        if (n >= m->db_size) {
            k = worst;
        } else {
            k = sol_alloc(m);
            m->sol[k].next = pr->db;
            pr->db = k;
            m->sol[k].cset = mp_cset_alloc(m);
        }
        m->cs[m->sol[k].cset] = m->cs[pr->cset];
        m->cs[m->sol[k].cset].next = ICN_NIL;
        sol_fill(m, &m->sol[k], pr, ratio);
    }
    m->saves++;
    mp_log(s, pr, LOG_SAVE, ratio);
}
