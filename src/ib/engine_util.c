/* Helpers shared by the routing engines, and the engine table. */
#include "engine.h"
#include "files.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

void ib_fill_local(ib_subnet_t *ib, const sim_t *s)
{
    for (uint32_t n = 0; n < s->nnodes; n++) {
        uint32_t p = s->port[s->port[s->nic[n].port].peer].local;
        for (uint32_t i = 0; i < (1u << ib->lmc); i++) ib_set(ib, ib->leaf[n], ib->base[n] + i, p);
    }
}

uint16_t *ib_switch_dist(const sim_t *s)
{
    uint32_t S = s->nswitches;
    uint16_t *d = xmalloc((size_t)S * S * sizeof *d);
    uint32_t *q = xmalloc(S * sizeof *q);
    for (uint32_t a = 0; a < S; a++) {
        uint16_t *row = &d[(size_t)a * S];
        for (uint32_t b = 0; b < S; b++) row[b] = 0xFFFF;
        uint32_t h = 0, t = 0;
        row[a] = 0; q[t++] = a;
        while (h < t) {
            uint32_t w = q[h++];
            for (uint32_t p = 0; p < s->sw[w].nports; p++) {
                uint32_t v = ib_peer_dev(s, w, p);
                if (v == ICN_NIL || (v & NIC_BIT) || row[v] != 0xFFFF) continue;
                row[v] = (uint16_t)(row[w] + 1);
                q[t++] = v;
            }
        }
    }
    free(q);
    return d;   /* symmetric: links are full duplex */
}

uint32_t ib_pick(const sim_t *s, ib_load_t *ld, uint32_t w, uint64_t mask, uint64_t avoid)
{
    uint32_t best = IB_NO_PORT;
    uint64_t bkey = UINT64_MAX;
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t p = (uint32_t)__builtin_ctzll(m);
        uint64_t key = ((uint64_t)ld->n[s->sw[w].port0 + p] << 1 | ((avoid >> p) & 1));
        if (key < bkey) { bkey = key; best = p; }
    }
    if (best != IB_NO_PORT) ld->n[s->sw[w].port0 + best]++;
    return best;
}

uint32_t ib_parse_switches(cfg_t *c, key_id k, const sim_t *s, uint32_t *out, uint32_t max)
{
    const char *t = cfg_str(c, k);
    uint32_t n = 0;
    while (*t) {
        char *e;
        while (*t == ' ' || *t == ',') t++;
        if (!*t) break;
        /* decimal only: 010 is ten, not eight (0x3 stops at the x, which is no index) */
        unsigned long v = strtoul(t, &e, 10);
        if (e == t || v >= s->nswitches)
            cfg_fail(c, k, "expected switch indices below %u (decimal), separated by spaces", s->nswitches);
        if (n == max) cfg_fail(c, k, "at most %u switches", max);
        out[n++] = (uint32_t)v;
        t = e;
    }
    return n;
}

void ib_engine_minhop(ib_subnet_t *ib, sim_t *s, cfg_t *c);
void ib_engine_updn(ib_subnet_t *ib, sim_t *s, cfg_t *c);
void ib_engine_ftree(ib_subnet_t *ib, sim_t *s, cfg_t *c);
void ib_engine_dmodk(ib_subnet_t *ib, sim_t *s, cfg_t *c);
void ib_engine_dor(ib_subnet_t *ib, sim_t *s, cfg_t *c);
void ib_engine_dfs(ib_subnet_t *ib, sim_t *s, cfg_t *c);
void ib_engine_file(ib_subnet_t *ib, sim_t *s, cfg_t *c);

const ib_engine_t ib_engines[] = {
    { "minhop", "minimal hops, least-loaded port among the minimal ones (any topology; may have credit loops)", ib_engine_minhop },
    { "updn", "up*/down* from ib.root (default: a fat-tree's top stage, else the most central switch); deadlock-free on 1 VL", ib_engine_updn },
    { "ftree", "fat-tree engine: per destination one up path per stage, least-loaded, routes converge (fat-trees)", ib_engine_ftree },
    { "dmodk", "D-mod-K as LFTs (fat-trees); LID offset i turns the stage-l up port by base-K digit l-1 of i", ib_engine_dmodk },
    { "dor", "dimension order (meshes, tori); tori: SL bit d = path wraps in dimension d, VL = that bit (2 VLs)", ib_engine_dor },
    { "dfs-disjoint", "2^LMC paths per destination, shortest first, each preferring ports the earlier ones do not use; VL layers break credit loops", ib_engine_dfs },
    { "file", "the LFTs of an OpenSM / dump_lfts dump (ib.lft_file)", ib_engine_file },
    { NULL, NULL, NULL },
};

const ib_engine_t *ib_find_engine(const char *name)
{
    for (const ib_engine_t *e = ib_engines; e->name; e++)
        if (!strcmp(e->name, name)) return e;
    return NULL;
}

void ib_engine_file(ib_subnet_t *ib, sim_t *s, cfg_t *c)
{
    const char *path = cfg_str(c, K_IB_LFT_FILE);
    if (!*path) cfg_fail(c, K_IB_LFT_FILE, "ib.engine = file needs the LFT dump (ib.lft_file)");
    ib_read_lfts(ib, s, path);
}
