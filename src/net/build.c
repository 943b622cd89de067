/* Building the network: the packet pool, ports and links. */
#include "model.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

/* ---- per-(port, VC) words: in the port's line, or a strided array ---- */

_Static_assert((sizeof(port_t) & (sizeof(port_t) - 1)) == 0, "port records step by a shift");

void *port_vc_words(sim_t *s, size_t offset, uint32_t in_record, char **base, uint32_t *shift)
{
    if (s->nvc <= in_record) {
        *base = (char *)s->port + offset;
        *shift = (uint32_t)__builtin_ctz(sizeof(port_t));
        return NULL;
    }
    uint32_t stride = 1;   /* words per port: a power of two, so no multiplication */
    while (stride < s->nvc) stride *= 2;
    *shift = (uint32_t)__builtin_ctz(stride * (uint32_t)sizeof(uint32_t));
    void *a = xcalloc((size_t)s->nports << *shift, 1);
    *base = a;
    return a;
}

/* ---- packet pool ---- */

uint32_t pkt_alloc(sim_t *s)
{
    if (s->pkt_free == ICN_NIL) {
        if (s->parts && s->part != UINT32_MAX) die("time.threads: part %u ran out of packet records inside a window", s->part);
        uint32_t old = s->npkt_cap, cap = old ? old * 2 : 4096;
        if (cap < old) die("packet pool exhausted");
        /* Grown by copy, not realloc, to keep the records cache-line aligned. */
        packet_t *np = xaligned_alloc(64, (size_t)cap * sizeof *np);
        if (old) memcpy(np, s->pkt, (size_t)old * sizeof *np);
        free(s->pkt);
        s->pkt = np;
        s->ptime = xrealloc(s->ptime, (size_t)cap * sizeof *s->ptime);
        if (s->want_parr) s->parr = xrealloc(s->parr, (size_t)cap * sizeof *s->parr);
        if (s->want_proute) s->proute = xrealloc(s->proute, (size_t)cap * sizeof *s->proute);
        if (s->want_pmsg) {
            s->pmsg_key = xrealloc(s->pmsg_key, (size_t)cap * sizeof *s->pmsg_key);
            s->pmsg_npk = xrealloc(s->pmsg_npk, (size_t)cap * sizeof *s->pmsg_npk);
        }
        if (s->pext_size) s->pext = xrealloc(s->pext, (size_t)cap * s->pext_size);
        for (uint32_t i = old; i < cap; i++) s->pkt[i].next = i + 1 < cap ? i + 1 : ICN_NIL;
        s->pkt_free = old;
        s->pkt_nfree += cap - old;
        s->npkt_cap = cap;
    }
    uint32_t id = s->pkt_free;
    s->pkt_free = s->pkt[id].next;
    s->pkt_nfree--;
    s->pkt_live++;
    if (s->proute) s->proute[id] = (proute_t){ { ICN_NIL, ICN_NIL }, 0 };
    return id;
}

void pkt_release(sim_t *s, uint32_t id)
{
    s->pkt[id].next = s->pkt_free;
    s->pkt_free = id;
    s->pkt_nfree++;
    s->pkt_live--;
}

/* ---- network construction ---- */

void net_alloc(sim_t *s, uint32_t nswitches, const uint16_t *ports_per_switch, uint32_t nnodes)
{
    uint32_t np = nnodes;
    for (uint32_t w = 0; w < nswitches; w++) {
        if (ports_per_switch[w] > MAX_RADIX) die("switch radix %u exceeds %d", ports_per_switch[w], MAX_RADIX);
        np += ports_per_switch[w];
    }
    s->nswitches = nswitches;
    s->nnodes = nnodes;
    s->nports = np;
    s->sw = xaligned_calloc(64, nswitches, sizeof *s->sw);
    s->nic = xaligned_calloc(64, nnodes, sizeof *s->nic);
    s->port = xaligned_calloc(64, np, sizeof *s->port);
    uint32_t g = 0;
    for (uint32_t w = 0; w < nswitches; w++) {
        s->sw[w].port0 = g;
        s->sw[w].nports = ports_per_switch[w];
        for (uint32_t p = 0; p < ports_per_switch[w]; p++, g++) {
            s->port[g].dev = w;
            s->port[g].local = (uint16_t)p;
            s->port[g].peer = ICN_NIL;
        }
    }
    for (uint32_t n = 0; n < nnodes; n++, g++) {
        s->nic[n].port = g;
        s->port[g].dev = NIC_BIT | n;
        s->port[g].peer = ICN_NIL;
    }
    s->pend = xmalloc((size_t)(nswitches + nnodes) * sizeof *s->pend);
}

void net_link(sim_t *s, uint32_t a, uint32_t b)
{
    if (s->port[a].peer != ICN_NIL || s->port[b].peer != ICN_NIL)
        die("topology wires port %u or %u twice", a, b);
    s->port[a].peer = b;
    s->port[b].peer = a;
    s->port[a].peer_nic = (s->port[b].dev & NIC_BIT) != 0;
    s->port[b].peer_nic = (s->port[a].dev & NIC_BIT) != 0;
}

/* ---- set-up ---- */
