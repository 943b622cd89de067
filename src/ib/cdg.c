/* Channel dependency graphs and the credit-loop check (see cdg.h). */
#include "cdg.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

void cdg_init(cdg_t *g, const sim_t *s, uint32_t nvl)
{
    g->nch = s->nports;
    g->nvl = nvl;
    g->succ = xcalloc((size_t)s->nports * nvl * nvl, sizeof *g->succ);
}

void cdg_free(cdg_t *g) { free(g->succ); g->succ = NULL; }

/* Switch at the far end of global port gp, or ICN_NIL (a CA or nothing). */
static uint32_t next_switch(const sim_t *s, uint32_t gp)
{
    uint32_t q = s->port[gp].peer;
    if (q == ICN_NIL || (s->port[q].dev & NIC_BIT)) return ICN_NIL;
    return s->port[q].dev;
}

uint32_t cdg_cycle(const cdg_t *g, const sim_t *s, uint32_t *cyc, uint32_t max)
{
    uint32_t n = g->nch * g->nvl;
    uint8_t *color = xcalloc(n, 1);           /* 0 new, 1 on the stack, 2 done */
    uint32_t *stack = xmalloc((size_t)n * sizeof *stack), *next = xmalloc((size_t)n * sizeof *next);
    uint32_t len = 0;
    for (uint32_t root = 0; root < n && !len; root++) {
        if (color[root]) continue;
        uint32_t sp = 0;
        stack[sp] = root; next[sp++] = 0; color[root] = 1;
        while (sp && !len) {
            uint32_t c = stack[sp - 1], gp = c / g->nvl, w = next_switch(s, gp);
            uint32_t k = next[sp - 1]++, found = ICN_NIL;
            /* successor number k of c: iterate (v2, port) in order */
            if (w != ICN_NIL) {
                uint32_t cnt = 0;
                for (uint32_t v2 = 0; v2 < g->nvl && found == ICN_NIL; v2++) {
                    uint64_t m = g->succ[(size_t)c * g->nvl + v2];
                    uint32_t pc = (uint32_t)__builtin_popcountll(m);
                    if (k >= cnt + pc) { cnt += pc; continue; }
                    for (uint32_t skip = k - cnt; skip; skip--) m &= m - 1;
                    found = (s->sw[w].port0 + (uint32_t)__builtin_ctzll(m)) * g->nvl + v2;
                }
            }
            if (found == ICN_NIL) { color[c] = 2; sp--; continue; }
            if (color[found] == 1) {          /* back edge: the cycle is the stack from found */
                uint32_t i = sp;
                while (stack[i - 1] != found) i--;
                for (uint32_t j = i - 1; j < sp; j++) { if (len < max) cyc[len] = stack[j]; len++; }
            } else if (!color[found]) {
                color[found] = 1; stack[sp] = found; next[sp++] = 0;
            }
        }
    }
    free(color); free(stack); free(next);
    return len;
}

int cdg_reaches(const cdg_t *g, const sim_t *s, uint32_t from, uint32_t to, cdg_walk_t *w)
{
    uint32_t n = g->nch * g->nvl;
    if (w->n != n) {
        cdg_walk_free(w);
        w->stamp = xcalloc(n, sizeof *w->stamp);
        w->stack = xmalloc((size_t)n * sizeof *w->stack);
        w->n = n;
    }
    if (++w->now == 0) {   /* the stamps wrapped: start them afresh */
        memset(w->stamp, 0, (size_t)n * sizeof *w->stamp);
        w->now = 1;
    }
    uint32_t sp = 0;
    w->stack[sp++] = from;
    w->stamp[from] = w->now;
    while (sp) {
        uint32_t c = w->stack[--sp];
        if (c == to) return 1;
        uint32_t sw = next_switch(s, c / g->nvl);
        if (sw == ICN_NIL) continue;
        for (uint32_t v2 = 0; v2 < g->nvl; v2++)
            for (uint64_t m = g->succ[(size_t)c * g->nvl + v2]; m; m &= m - 1) {
                uint32_t x = (s->sw[sw].port0 + (uint32_t)__builtin_ctzll(m)) * g->nvl + v2;
                if (w->stamp[x] == w->now) continue;
                w->stamp[x] = w->now;
                w->stack[sp++] = x;   /* each channel at most once: the stack never holds more than n */
            }
    }
    return 0;
}

void cdg_walk_free(cdg_walk_t *w)
{
    free(w->stamp);
    free(w->stack);
    *w = (cdg_walk_t){ 0 };
}

void ib_build_cdg(const ib_subnet_t *ib, const sim_t *s, cdg_t *g)
{
    uint8_t *has = xcalloc(s->nswitches, 1);
    for (uint32_t n = 0; n < s->nnodes; n++) has[ib->leaf[n]] = 1;
    for (uint32_t src = 0; src < s->nswitches; src++) {
        if (!has[src]) continue;
        for (uint32_t lid = 1; lid < ib->nlid; lid++) {
            if (ib->owner[lid] == ICN_NIL) continue;
            uint32_t sl = ib_sl(ib, src, lid, 0), w = src, prev = ICN_NIL, pvl = 0;
            for (uint32_t h = 0; h <= s->nswitches; h++) {
                uint32_t p = ib_lft(ib, w, lid);
                if (p == IB_NO_PORT || p >= s->sw[w].nports) break;
                uint32_t gp = s->sw[w].port0 + p, vl = ib->sl2vl ? ib_vl(ib, gp, sl) : 0;
                if (prev != ICN_NIL) cdg_add(g, prev, pvl, p, vl);
                prev = gp; pvl = vl;
                if ((w = next_switch(s, gp)) == ICN_NIL) break;
            }
        }
    }
    free(has);
}

int ib_credit_loops(const ib_subnet_t *ib, const sim_t *s, FILE *f)
{
    cdg_t g;
    cdg_init(&g, s, ib->nvl);
    ib_build_cdg(ib, s, &g);
    uint32_t cyc[64];
    uint32_t len = cdg_cycle(&g, s, cyc, 64);
    if (len) {
        fprintf(f, "credit loop: a cycle of %u channels (switch:port/VL, ports 1-based as in IB) in the channel dependency graph:\n ", len);
        for (uint32_t i = 0; i < len && i < 64; i++) {
            uint32_t gp = cyc[i] / g.nvl;
            fprintf(f, " %u:%u/%u ->", s->port[gp].dev, s->port[gp].local + 1u, cyc[i] % g.nvl);
        }
        uint32_t gp = cyc[0] / g.nvl;
        fprintf(f, " %u:%u/%u%s\n", s->port[gp].dev, s->port[gp].local + 1u, cyc[0] % g.nvl, len > 64 ? " (cut)" : "");
    }
    cdg_free(&g);
    return len ? 1 : 0;
}
