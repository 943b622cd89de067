#include "partition.h"
#include "../core/util.h"

/* The switch end node n is attached to, or ICN_NIL. */
static uint32_t leaf_of(const sim_t *s, uint32_t n)
{
    uint32_t peer = s->port[s->nic[n].port].peer;
    return peer != ICN_NIL && !(s->port[peer].dev & NIC_BIT) ? s->port[peer].dev : ICN_NIL;
}

uint32_t *net_partition(const sim_t *s, uint32_t parts)
{
    uint32_t *part_of = xmalloc(((size_t)s->nswitches + s->nnodes) * sizeof *part_of);
    for (uint32_t w = 0; w < s->nswitches; w++) part_of[w] = w % parts;
    for (uint32_t n = s->nnodes; n-- > 0;) {   /* downwards: a leaf ends with its first node's part */
        uint32_t w = leaf_of(s, n);
        if (w != ICN_NIL) part_of[w] = (uint32_t)((uint64_t)n * parts / s->nnodes);
    }
    for (uint32_t n = 0; n < s->nnodes; n++) {   /* then every node joins its leaf */
        uint32_t w = leaf_of(s, n);
        part_of[s->nswitches + n] = w != ICN_NIL ? part_of[w] : (uint32_t)((uint64_t)n * parts / s->nnodes);
    }
    return part_of;
}
