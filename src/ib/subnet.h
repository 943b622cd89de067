/* The InfiniBand subnet as the subnet manager leaves it: LIDs, linear
 * forwarding tables (LFTs), service levels and SL-to-VL tables.
 *
 * Every end node (a CA port) owns 2^LMC consecutive LIDs starting at a base
 * aligned to 2^LMC; a source chooses a path by its DLID = base + offset. Each
 * switch forwards by one LFT entry per DLID (an output port). Tables cover
 * LIDs 0..nlid-1, nlid being one past the largest CA LID (switch LIDs are not
 * destinations of simulated traffic and are not stored): at 11664 nodes with
 * LMC 2 that is ~47k LIDs, ~75 MB of uint8 entries for 1620 switches.
 *
 * A packet's SL is the one its path record names: sl[source switch][DLID]
 * when the engine assigns SLs (DOR's dateline classes, dfs-disjoint's
 * layers), else the packet's own. Its VL at every hop is sl2vl[output port]
 * [SL]; engines that need no VL changes leave the tables off and the VC of
 * the queuing scheme is kept, so the queuing schemes work over LFT routing. */
#ifndef ICN_IB_SUBNET_H
#define ICN_IB_SUBNET_H
#include <stdint.h>
#include <stdio.h>
#include "../net/model.h"
#include "../core/util.h"

#define IB_LID_MAX 0xBFFFu       /* last unicast LID */
#define IB_NO_PORT 0xFFu         /* LFT entry: unreachable */
#define IB_NSL 16

typedef struct ib_subnet {
    uint32_t lmc;                /* 0..7: each CA has 2^lmc LIDs */
    uint32_t nlid;               /* table width: one past the largest CA LID */
    uint32_t *base;              /* [node] base LID */
    uint32_t *owner;             /* [lid] node owning it, ICN_NIL if none */
    uint8_t *lft;                /* [switch * nlid + lid] local output port, IB_NO_PORT if none */
    uint8_t *sl;                 /* [switch * nlid + lid] SL of a path from that switch, or NULL (packet's SL) */
    uint8_t *sl2vl;              /* [global port * IB_NSL + sl] VL downstream, or NULL (keep the scheme's VC) */
    uint32_t nvl;                /* VLs the tables use (1 without sl2vl) */
    uint32_t *leaf;              /* [node] switch its CA port is attached to */
} ib_subnet_t;

/* The subnet of this simulation (routing.algorithm = lft), or NULL. */
ib_subnet_t *ib_get(const sim_t *s);

/* Assign base LIDs: node n gets (n + 1) << lmc, or the LIDs in `given`
 * (a fabric file's) when not NULL. Returns 0, or -1 if the LIDs do not fit
 * the unicast range or are misaligned (*bad = the offending node). */
int ib_assign_lids(ib_subnet_t *ib, const sim_t *s, uint32_t lmc, const uint32_t *given, uint32_t *bad);
/* Allocate the LFT (all entries unreachable) and the node-to-switch map. */
void ib_alloc_tables(ib_subnet_t *ib, const sim_t *s);
void ib_alloc_sl(ib_subnet_t *ib, const sim_t *s, uint32_t nvl);
void ib_free(ib_subnet_t *ib);

static inline uint32_t ib_dlid(const ib_subnet_t *ib, uint32_t node, uint32_t path)
{
    return ib->base[node] + (path & ((1u << ib->lmc) - 1));
}
static inline uint8_t ib_lft(const ib_subnet_t *ib, uint32_t w, uint32_t lid)
{
    return ib->lft[(size_t)w * ib->nlid + lid];
}
static inline void ib_set(ib_subnet_t *ib, uint32_t w, uint32_t lid, uint32_t port)
{
    ib->lft[(size_t)w * ib->nlid + lid] = (uint8_t)port;
}
static inline uint32_t ib_sl(const ib_subnet_t *ib, uint32_t src_sw, uint32_t lid, uint32_t own)
{
    return ib->sl ? ib->sl[(size_t)src_sw * ib->nlid + lid] : own;
}
static inline uint32_t ib_vl(const ib_subnet_t *ib, uint32_t gport, uint32_t sl)
{
    return ib->sl2vl[(size_t)gport * IB_NSL + (sl & (IB_NSL - 1))];
}

/* The switch (or NIC_BIT | node) at the far end of local port p of switch w,
 * and the port it arrives on there; ICN_NIL if unconnected. */
static inline uint32_t ib_peer_dev(const sim_t *s, uint32_t w, uint32_t p)
{
    uint32_t g = s->port[s->sw[w].port0 + p].peer;
    return g == ICN_NIL ? ICN_NIL : s->port[g].dev;
}

/* Walk the LFTs from switch `from` to LID lid: returns the number of
 * switches crossed (>= 1), or -1 if the tables drop or loop the packet
 * (*where = the switch that does). */
int ib_walk(const ib_subnet_t *ib, const sim_t *s, uint32_t from, uint32_t lid, uint32_t *where);

/* Check that every switch with CAs reaches every CA LID; on failure print
 * why to f and return -1. */
int ib_check_reach(const ib_subnet_t *ib, const sim_t *s, FILE *f);

#endif
